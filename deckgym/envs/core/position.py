"""The reader that every ruleset's position builder shares (``envs.<ruleset>.position``).

A position builder takes readable keyword arguments (per-seat pairs, zones as lists of card
ids, counters, flags, records given as mappings or tuples) and builds an engine state. This
module reads those arguments; each ruleset's ``position.py`` keeps only what is its own (its
zones, its records and its start steps). Every refusal is one ``PositionError`` whose
message names the place (``P0 hand (card 2)``), what is wrong and the allowed values, and the
rule it applies when a rule is at stake (``(R17)``, ``(D6)``).

After assembling a state, a builder passes it to ``Reader.checked``, which runs the
ruleset's rules check (``rules.check``, with the builder's options) and gives its refusal as a ``PositionError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn

from deckgym.envs.core.errors import PositionError, StateError

#: The default of ``Reader.per_seat`` when a value is required.
REQUIRED: Any = object()


def fail(where: str, detail: str, rule: str = "") -> NoReturn:
    """Refuse: ``where: detail (rule)``."""
    raise PositionError(f"{where}: {detail}" + (f" ({rule})" if rule else ""))


def is_int(v: Any) -> bool:
    """Whether ``v`` is a whole number (``True`` and ``False`` are not)."""
    return isinstance(v, int) and not isinstance(v, bool)


def is_list(v: Any) -> bool:
    """Whether ``v`` is a list or tuple (a string or a mapping is not)."""
    return isinstance(v, Sequence) and not isinstance(v, (str, bytes))


def seat_name(p: int) -> str:
    """How a message names seat ``p``."""
    return f"P{p}"


class Reader:
    """Reads the arguments of one position against one card pool (``None`` for no pool).

    ``kind_of(card)`` gives the word of a card's kind that zone checks compare (``card.kind``
    by default); ``held[p]`` collects ``(card id, place)`` of every card read for seat ``p``,
    for the copy limits.
    """

    def __init__(self, pool: Any = None, seats: int = 2, kind_of: Callable[[Any], str] | None = None) -> None:
        self.pool = pool
        self.seats = seats
        self.kind_of = kind_of or (lambda c: str(c.kind))
        self.held: list[list[tuple[str, str]]] = [[] for _ in range(seats)]

    # ----------------------------------------------------------------- plain values
    def per_seat(self, name: str, value: Any, default: Any = REQUIRED) -> list[Any]:
        """A per-seat argument as a list of one entry per seat (``(P0, P1)``).

        ``None`` gives ``default`` for every seat when one is given.
        """
        if value is None and default is not REQUIRED:
            return [default] * self.seats
        if not is_list(value) or len(value) != self.seats:
            shown = ", ".join(seat_name(p) for p in range(self.seats))
            fail(name, f"give one entry per seat, as ({shown}); got {value!r}")
        return list(value)

    def whole(
        self,
        where: str,
        value: Any,
        lo: int,
        hi: int | None = None,
        rule: str = "",
        *,
        default: Any = REQUIRED,
    ) -> int:
        """A whole number in ``lo..hi`` (no upper bound when ``hi`` is None); ``None`` gives ``default`` when one is given."""
        if value is None and default is not REQUIRED:
            return int(default)
        if not is_int(value) or value < lo or (hi is not None and value > hi):
            span = f"{lo}..{hi}" if hi is not None else f"{lo} or more"
            fail(where, f"must be a whole number in {span}, got {value!r}", rule)
        return int(value)

    def flag(self, where: str, value: Any, rule: str = "") -> bool:
        """``True`` or ``False``."""
        if not isinstance(value, bool):
            fail(where, f"must be True or False, got {value!r}", rule)
        return value

    def choice(self, where: str, value: Any, allowed: Iterable[str], rule: str = "") -> str:
        """One of ``allowed`` (compared case-insensitively, spaces as underscores)."""
        names = list(allowed)
        if isinstance(value, str):
            key = value.strip().lower().replace(" ", "_")
            for name in names:
                if name.lower() == key:
                    return name
        fail(where, f"unknown value {value!r}; allowed: {', '.join(names)}", rule)

    def index(self, where: str, value: Any, names: Sequence[str], rule: str = "") -> int:
        """A position in ``names``, given as its number (``0..len(names) - 1``) or its name (as ``choice`` reads it)."""
        if is_int(value):
            return self.whole(where, value, 0, len(names) - 1, rule)
        return list(names).index(self.choice(where, value, names, rule))

    def fixed(self, where: str, value: Any, names: Sequence[str], rule: str = "") -> list[Any]:
        """A tuple of one value per entry of ``names``, in that order (``(seat, medarot, slot)``)."""
        if not is_list(value) or len(value) != len(names):
            fail(where, f"give ({', '.join(names)}), got {value!r}", rule)
        return list(value)

    @staticmethod
    def not_given(values: Mapping[str, Any], detail: str, rule: str = "") -> None:
        """Refuse the first of ``values`` (argument name: value) given, that is not ``None``."""
        for name, value in values.items():
            if value is not None:
                fail(name, detail, rule)

    def record(
        self, where: str, spec: Any, fields: Sequence[str], defaults: Mapping[str, Any], first: str = ""
    ) -> dict[str, Any]:
        """A record given as a mapping, a tuple in ``fields`` order, or (``first``) a bare first value.

        Returns every field, those not given at their ``defaults``; a field with no default
        must be given. Unknown keys and overlong tuples are refused.
        """
        if first and not isinstance(spec, (Mapping, list, tuple)):
            spec = {first: spec}
        if is_list(spec):
            if len(spec) > len(fields):
                fail(where, f"give at most {len(fields)} values ({', '.join(fields)}), got {spec!r}")
            spec = dict(zip(fields, spec, strict=False))
        if not isinstance(spec, Mapping):
            fail(where, f"give a mapping with keys {', '.join(fields)}, got {spec!r}")
        unknown = sorted(str(k) for k in spec if k not in fields)
        if unknown:
            fail(where, f"unknown key {unknown[0]!r}; the keys are {', '.join(fields)}")
        out = {}
        for key in fields:
            if key in spec:
                out[key] = spec[key]
            elif key in defaults:
                out[key] = defaults[key]
            else:
                fail(where, f"{key!r} is required")
        return out

    # ----------------------------------------------------------------- cards
    def card(
        self, where: str, cid: Any, seat: int = -1, kinds: Iterable[str] | None = None, rule: str = ""
    ) -> Any:
        """The definition of card ``cid``: in the pool, and of one of ``kinds`` when given."""
        pool = self.pool
        if not isinstance(cid, str) or cid not in pool:
            files = ", ".join(getattr(pool, "files", ()) or ())
            fail(where, f"unknown card id {cid!r}" + (f" (not in the pool {files})" if files else ""))
        c = pool[cid]
        if kinds is not None:
            allowed = tuple(kinds)
            kind = self.kind_of(c)
            if kind not in allowed:
                name = getattr(c, "name", cid)
                fail(
                    where, f"{cid!r} ({name}) is a {kind} card; this place holds {' or '.join(allowed)}", rule
                )
        if seat >= 0:
            self.held[seat].append((cid, where))
        return c

    def cards(
        self, where: str, value: Any, seat: int = -1, kinds: Iterable[str] | None = None, rule: str = ""
    ) -> list[str]:
        """A zone given as a list of card ids, each in the pool (and of one of ``kinds``)."""
        if not is_list(value):
            fail(where, f"give a list of card ids, got {value!r}")
        allowed = None if kinds is None else tuple(kinds)
        for i, cid in enumerate(value):
            self.card(f"{where} (card {i})", cid, seat, allowed, rule)
        return list(value)

    def flagged_card(
        self,
        where: str,
        value: Any,
        flag: str,
        seat: int = -1,
        kinds: Iterable[str] | None = None,
        rule: str = "",
    ) -> tuple[str, bool]:
        """A card and a flag of it (``tapped``...): its id (the flag off), ``(id, flag)`` or ``{"card": id, flag: bool}``."""
        entry = self.record(where, value, ("card", flag), {flag: False}, "card")
        self.card(where, entry["card"], seat, kinds, rule)
        return entry["card"], self.flag(f"{where} {flag}", entry[flag])

    def pile(
        self, where: str, value: Any, filler: str, seat: int = -1, kinds: Iterable[str] | None = None
    ) -> list[str]:
        """An ordered pile given top first, or a count of ``filler`` cards; returned top last.

        Engines keep a pile's top at its end (``deck[p][-1]`` is drawn next).
        """
        if is_int(value):
            self.whole(where, value, 0)
            if value:
                self.card(f"{where} (filler)", filler, -1, kinds)
                if seat >= 0:
                    self.held[seat].extend((filler, where) for _ in range(value))
            return [filler] * value
        return self.cards(where, value, seat, kinds)[::-1]

    def copies(self, seat: int, limit: int, rule: str, key: Callable[[str], str] = str) -> None:
        """At most ``limit`` copies of a card (by ``key`` of its id) across the cards read for ``seat``."""
        count: dict[str, list[str]] = {}
        for cid, where in self.held[seat]:
            count.setdefault(key(cid), []).append(where)
        for k, places in count.items():
            if len(places) > limit:
                fail(seat_name(seat), f"{len(places)} copies of {k!r} (at most {limit})", rule)

    # ----------------------------------------------------------------- the result
    @staticmethod
    def checked(state: Any, check: Callable[..., None], **options: Any) -> Any:
        """``state`` once the ruleset's rules check ``check(state, **options)`` passes; its refusal as a ``PositionError``."""
        try:
            check(state, **options)
        except PositionError:
            raise
        except StateError as exc:
            raise PositionError(f"the position breaks a rule: {exc}") from exc
        return state

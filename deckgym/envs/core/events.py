"""Structured events: what happened in a game, as small JSON-safe dicts beside the text log.

Every engine state keeps two logs of the same length, entry for entry:

``state.events``
    the text log, one readable line per event (``"P0 plays Metabee from hand"``);
``state.records``
    the structured twin of each line, ``{"kind": ..., <fields>}``, for example
    ``{"kind": "damage", "player": 1, "card": "M012", "amount": 30}``.

Rules write both with ``state.emit(kind, text, **fields)``. Field values are JSON-safe (ints,
strings, booleans, lists of them); a card is named by its id in the card pool. Each ruleset
lists its kinds and their fields in ``envs/<ruleset>/events.py`` (``KINDS``), and the tests
check every event of random games against that list.

A decision the engine plays by itself (a forced move) is an event too, of kind ``"auto"``:
``{"kind": "auto", "player": 0, "decision": "ENERGY", "action": "PASS"}``.

**Who may see what.** The fields of an event are public: every seat may know them. What only
one seat may know (the cards it drew, the card it searched for) goes in ``only``, which
``emit`` stores as ``"only": [seat, {fields}]``; :func:`events_for` merges those fields into
the event for that seat (and for the all-seeing ``seat=None``) and drops them for every other
seat. Per-seat views, the web page and replays read events through :func:`events_for`.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping
from typing import Any, Final

#: The key under which ``emit`` keeps the fields only one seat may see.
ONLY: Final = "only"
#: A kind no engine records: a line logged without a kind (the tests check it never appears).
NOTE: Final = "note"
#: The kinds of the shared flow (``envs.core.flow``) and their fields: a decision the engine
#: plays by itself, the end of the game, and a stop at a cap.
FLOW_KINDS: Final[dict[str, tuple[str, ...]]] = {
    "auto": ("player", "decision", "action"),
    "end": ("winner", "reason"),
    "truncated": ("reason",),
}


def make_record(kind: str, only: tuple[int, dict[str, Any]] | None, fields: dict[str, Any]) -> dict[str, Any]:
    """The stored form of one event: ``kind`` first, the public fields, then ``only``."""
    rec: dict[str, Any] = {"kind": kind}
    rec.update(fields)
    if only is not None:
        seat, private = only
        rec[ONLY] = [int(seat), dict(private)]
    return rec


#: Whose view an event is read in: one seat, a set of seats one reader holds (a person playing
#: every seat of a team), or ``None`` for every field (analysis, not players).
Reader = int | Collection[int] | None


def may_see(seat: Reader, owner: int) -> bool:
    """Whether the reader ``seat`` may see the private fields of seat ``owner``."""
    if seat is None:
        return True
    if isinstance(seat, int):
        return seat == owner
    return owner in seat


def shown_to(record: dict[str, Any], seat: Reader) -> dict[str, Any]:
    """``record`` as ``seat`` sees it (``None``: every field): an independent copy."""
    out = {k: copy.deepcopy(v) for k, v in record.items() if k != ONLY}
    only = record.get(ONLY)
    if only is not None and may_see(seat, only[0]):
        out.update(copy.deepcopy(only[1]))
    return out


def known_to(records: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """``records`` without the private fields of every seat but ``seat``: what ``seat`` knows.

    ``resample_hidden(seat, rng)`` keeps this, so a redrawn state holds no other seat's secrets.
    """
    return [r if r.get(ONLY) is None or r[ONLY][0] == seat else _public(r) for r in records]


def _public(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` without its private part."""
    return {k: v for k, v in record.items() if k != ONLY}


def events_for(state: Any, seat: Reader = None, last: int | None = None) -> list[dict[str, Any]]:
    """The structured events of ``state`` as ``seat`` may see them, each with its ``text``.

    Args:
        state: any engine state.
        seat: the seat whose view it is, or the seats one reader holds; ``None`` shows every
            field (for analysis, not players).
        last: only the latest ``last`` events (all that the capped log holds when ``None``).
    """
    texts: list[str] = state.events
    records: list[dict[str, Any]] = state.records
    if len(texts) != len(records):
        raise ValueError(f"the event logs differ in length ({len(texts)} lines, {len(records)} records)")
    start = 0 if last is None else max(0, len(records) - last)
    out = []
    for text, rec in zip(texts[start:], records[start:], strict=True):
        e = shown_to(rec, seat)
        e["text"] = text
        out.append(e)
    return out


def line_for(record: dict[str, Any], text: str, seat: Reader, names: Mapping[str, str] | None = None) -> str:
    """The text of one event as ``seat`` reads it, with its private fields when ``seat`` may see them.

    ``names`` maps card ids to card names: a private field that holds card ids (the cards a
    seat drew) is then written with the cards' names, as people read it.
    """
    only = record.get(ONLY)
    if only is None or not may_see(seat, only[0]):
        return text
    extra = ", ".join(f"{k} {_short(v, names)}" for k, v in only[1].items())
    who = "you" if seat is not None else f"P{only[0]} only"
    return f"{text}  [{who}: {extra}]"


def _short(value: Any, names: Mapping[str, str] | None = None) -> str:
    """A field value written for a log line (card ids as names where ``names`` knows them)."""
    if isinstance(value, list):
        return ", ".join(_short(v, names) for v in value) or "none"
    if names is not None and isinstance(value, str):
        return names.get(value, value)
    return str(value)


def lines_for(state: Any, seat: Reader, last: int, names: Mapping[str, str] | None = None) -> list[str]:
    """The latest ``last`` log lines as ``seat`` reads them (the renders' event blocks)."""
    texts: list[str] = state.events
    records: list[dict[str, Any]] = state.records
    start = max(0, len(records) - last)
    return [line_for(r, t, seat, names) for r, t in zip(records[start:], texts[start:], strict=True)]


def check_fields(
    kinds: dict[str, tuple[str, ...]], private: dict[str, tuple[str, ...]], record: dict[str, Any]
) -> str | None:
    """What is wrong with ``record`` against a ruleset's event tables, or None.

    ``kinds`` maps each kind to its public field names and ``private`` a kind to the names it
    may hold in ``only``; a record carries exactly the public fields (besides ``kind`` and
    ``only``), only the private ones in ``only``, and JSON-safe values.
    """
    kind = record.get("kind")
    if kind not in kinds:
        return f"unknown event kind {kind!r}; known: {', '.join(sorted(kinds))}"
    fields = tuple(k for k in record if k not in ("kind", ONLY))
    if set(fields) != set(kinds[kind]):
        return f"event {kind!r} has fields {sorted(fields)}, documented {sorted(kinds[kind])}"
    only = record.get(ONLY)
    if only is not None:
        allowed = set(private.get(kind, ()))
        if not (isinstance(only, list) and len(only) == 2 and isinstance(only[0], int)):
            return f"event {kind!r} has a malformed 'only': {only!r}"
        if not set(only[1]) <= allowed:
            return f"event {kind!r} hides fields {sorted(only[1])}, documented {sorted(allowed)}"
    if not _json_safe(record):
        return f"event {kind!r} holds a value that is not JSON-safe: {record!r}"
    return None


def _json_safe(value: Any) -> bool:
    """Whether ``value`` is built from None, bool, int, float, str, lists and str-keyed dicts."""
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list):
        return all(_json_safe(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_safe(v) for k, v in value.items())
    return False

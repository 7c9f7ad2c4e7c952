"""What the rules checks of the rulesets share (``envs.<ruleset>.rules.check``).

A rules check reads one position and raises one ``StateError`` whose lines each start with the
spec item they apply (``I5 hand limit: ...``, ``R24 ...``). Two styles share this module:

* a *collecting* check (``Problems`` and its subclasses) gathers every problem of a stage and
  raises them together, at most ``MAX_LINES`` lines;
* a *first-problem* shape reading raises ``Shape`` at the first malformed field, since
  nothing past it can be read safely; ``shape_error(item, text)`` builds it.

Both read an agenda of ``[task name, arguments...]`` lists with ``agenda_problems``.
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, Generic, TypeVar

from deckgym.envs.core.errors import StateError

#: The most problem lines one refusal shows (the rest are counted).
MAX_LINES: Final = 20


def is_int(v: Any) -> bool:
    """A whole number (``True`` and ``False`` are not)."""
    return isinstance(v, int) and not isinstance(v, bool)


def is_bool(v: Any) -> bool:
    """``True`` or ``False`` (not 0 or 1)."""
    return type(v) is bool


def is_seat(v: Any) -> bool:
    """Seat 0 or 1 of a two-seat game."""
    return is_int(v) and v in (0, 1)


def is_pair(v: Any) -> bool:
    """One list entry per seat of a two-seat game."""
    return isinstance(v, list) and len(v) == 2


def in_range(v: Any, lo: int | None, hi: int | None) -> bool:
    """A whole number in ``lo..hi`` (an end that is None is open)."""
    return is_int(v) and (lo is None or v >= lo) and (hi is None or v <= hi)


def span(lo: int | None, hi: int | None) -> str:
    """`` in 0..3``, `` of at least 1`` or nothing: how a message states a range."""
    if hi is not None:
        return f" in {lo}..{hi}"
    return f" of at least {lo}" if lo is not None else ""


def task_params(fn: Callable[..., Any]) -> tuple[str, ...]:
    """The argument names of an agenda task after the state."""
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = [p.name for p in inspect.signature(fn).parameters.values() if p.kind in positional]
    return tuple(params[1:])


def counted(counts: Counter[str], name: Callable[[str], str]) -> str:
    """``2 × Clear Shield (H04), 1 × Evade (EV)``, or ``nothing``."""
    return ", ".join(f"{n} × {name(c)}" for c, n in sorted(counts.items())) or "nothing"


class Shape(Exception):
    """A malformed field: the one problem reported (nothing past it can be read safely)."""


def shape_error(item: str, text: str) -> Shape:
    """The refusal ``item text`` of a first-problem shape reading."""
    return Shape(f"{item} {text}")


def agenda_problems(
    agenda: Any,
    tasks: Mapping[str, Callable[..., Any]],
    args: Mapping[str, tuple[str, int | None, int | None]],
) -> Iterator[str]:
    """What is wrong with an agenda of ``[task, numbers...]`` lists, a line each.

    ``tasks`` maps the task names to their steps (whose parameters after the state name the
    arguments); ``args`` maps an argument name to ``(what, lo, hi)``; other arguments are any
    whole number.
    """
    if not isinstance(agenda, list):
        yield f"the agenda is {agenda!r}, not a list of tasks"
        return
    for i, t in enumerate(agenda):
        if not isinstance(t, list) or not t or not isinstance(t[0], str):
            yield f"agenda task {i} is {t!r}, not [name, numbers...]"
            continue
        fn = tasks.get(t[0])
        if fn is None:
            yield f"agenda task {i} {t[0]!r} is not a step of the rules"
            continue
        names = task_params(fn)
        if len(t) - 1 != len(names):
            yield f"agenda task {i} {t!r} takes {len(names)} arguments ({', '.join(names)})"
            continue
        for n, v in zip(names, t[1:], strict=True):
            what, lo, hi = args.get(n, ("a number", None, None))
            if not in_range(v, lo, hi):
                yield f"agenda task {i} {t!r}: {n} = {v!r} is not {what}{span(lo, hi)}"


#: The state type and the card definition type of a ruleset's check.
StateT = TypeVar("StateT", bound=Any)
CardT = TypeVar("CardT", bound=Any)


class Problems(Generic[StateT, CardT]):
    """One collecting check of one state: the problems found so far, stage by stage.

    ``cards`` maps card ids to definitions with a ``name``, for ``name``. A ruleset's check
    subclasses ``Problems[GameState, CardDef]``, so ``st`` and ``cards`` have its types.
    """

    def __init__(self, st: StateT, cards: Mapping[str, CardT]) -> None:
        self.st = st
        self.cards = cards
        self.problems: list[str] = []

    def bad(self, item: str, text: str) -> None:
        """Note a problem: ``item: text``."""
        self.problems.append(f"{item}: {text}")

    def raise_if_any(self) -> None:
        """Raise the problems found, each once, at most ``MAX_LINES`` lines."""
        if not self.problems:
            return
        lines = list(dict.fromkeys(self.problems))
        more = len(lines) - MAX_LINES
        shown = lines[:MAX_LINES] + ([f"... and {more} more problems"] if more > 0 else [])
        raise StateError("\n".join(shown))

    def name(self, cid: Any) -> str:
        """A card as the message names it: ``Rivetclaw (MD13)``, or the unknown id as given."""
        c = self.cards.get(cid) if isinstance(cid, str) else None
        return f"{c.name} ({cid})" if c is not None else repr(cid)

    def int_field(self, key: str, lo: int | None, item: str) -> None:
        """The state's ``key`` is a whole number of at least ``lo``."""
        v: Any = getattr(self.st, key)
        if not in_range(v, lo, None):
            low = f" of at least {lo}" if lo is not None else ""
            self.bad(item, f"{key} is {v!r}, not a whole number{low}")

    def seat_ints(self, key: str, item: str) -> None:
        """The state's ``key`` holds one whole number per seat."""
        v: Any = getattr(self.st, key)
        if not is_pair(v) or not all(is_int(x) for x in v):
            self.bad(item, f"{key} is {v!r}, not one whole number per player")

    def seat_bools(self, key: str, item: str) -> None:
        """The state's ``key`` holds one True/False per seat."""
        v: Any = getattr(self.st, key)
        if not is_pair(v) or not all(is_bool(x) for x in v):
            self.bad(item, f"{key} is {v!r}, not one True/False per player")

    def end_shape(self, item: str) -> None:
        """``done`` and ``truncated`` are flags and ``reason`` is text."""
        st = self.st
        for key in ("done", "truncated"):
            if not is_bool(getattr(st, key)):
                self.bad(item, f"{key} is {getattr(st, key)!r}, not True or False")
        if not isinstance(st.reason, str):
            self.bad(item, f"the reason is {st.reason!r}, not text")

    def check_agenda(
        self, tasks: Mapping[str, Callable[..., Any]], args: Mapping[str, tuple[str, int | None, int | None]]
    ) -> None:
        """Every agenda task is a step of the rules with arguments in range (``agenda_problems``)."""
        for line in agenda_problems(self.st.agenda, tasks, args):
            self.bad("5 agenda", line)

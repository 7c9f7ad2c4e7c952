"""The engine protocol every ruleset's ``State`` implements.

Engines are pure Python and deterministic: all randomness comes from one
``random.Random`` owned by the state. Seats are ints ``0..n-1``; agent names are an
environment concern.
"""

from __future__ import annotations

import enum
import itertools
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Protocol, Self, TypeVar

K = TypeVar("K")
E = TypeVar("E", bound=enum.IntEnum)


def block_offsets(counts: Mapping[K, int] | Iterable[tuple[K, int]]) -> dict[K, int]:
    """First index of each block of a flat action index space whose blocks follow in order.

    ``counts`` gives each block's size (a mapping, or ``(key, size)`` pairs).
    """
    pairs = list(counts.items()) if isinstance(counts, Mapping) else list(counts)
    starts = itertools.accumulate((n for _, n in pairs), initial=0)
    return {k: start for (k, _), start in zip(pairs, starts, strict=False)}


def action_text(
    kinds: type[E],
    kind: int,
    arg: Any,
    bare: Collection[E] = (),
    arg_names: Mapping[E, Sequence[str]] | None = None,
) -> str:
    """An action ``(kind, arg)`` as text: ``NAME``, ``NAME(arg name)`` or ``NAME(arg)``.

    Args:
        kinds: the ruleset's enum of action kinds.
        kind: the action's kind, a value of ``kinds``.
        arg: the action's argument.
        bare: the kinds written without their argument.
        arg_names: per kind, the names of its arguments ``0..len - 1``; another argument is
            written as its number.

    A kind that ``kinds`` does not hold gives ``Action(kind=..., arg=...)``.
    """
    try:
        k = kinds(kind)
    except ValueError:
        return f"Action(kind={kind!r}, arg={arg!r})"
    if k in bare:
        return k.name
    names = arg_names.get(k) if arg_names is not None else None
    if names is not None and isinstance(arg, int) and 0 <= arg < len(names):
        return f"{k.name}({names[arg]})"
    return f"{k.name}({arg})"


class State(Protocol):
    """A game position with the hooks of OpenSpiel's ``State``."""

    @property
    def current_player(self) -> int:
        """The seat that must decide now (not always the turn player); -1 when the game is over."""
        ...

    @property
    def num_players(self) -> int:
        """Number of seats."""
        ...

    def legal_actions(self) -> list[Any]:
        """The options at this decision point, in a deterministic order; never empty while live."""
        ...

    def apply(self, action: Any) -> None:
        """Play ``action`` and every automatic step after it, up to the next decision point.

        Raises:
            IllegalActionError: the action is not legal here; the state is unchanged.
        """
        ...

    def is_terminal(self) -> bool:
        """Whether the game has ended (decided or truncated)."""
        ...

    #: Whether the game was stopped by a cap rather than decided.
    truncated: bool

    def returns(self) -> list[float]:
        """Per-seat outcome: +1 win, -1 loss, 0 draw, truncation or unfinished."""
        ...

    def clone(self) -> Self:
        """An independent copy (for search)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe description that ``from_dict`` turns back into an equal state."""
        ...

    def resample_hidden(self, seat: int, rng: random.Random) -> Self:
        """A new state equally likely from ``seat``'s point of view (hidden cards redrawn)."""
        ...

"""The engine protocol every ruleset's ``State`` implements.

Engines are pure Python and deterministic: all randomness comes from one
``random.Random`` owned by the state. Seats are ints ``0..n-1``; agent names are an
environment concern.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, Self, runtime_checkable


@runtime_checkable
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

    @property
    def truncated(self) -> bool:
        """Whether the game was stopped by a cap rather than decided."""
        ...

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

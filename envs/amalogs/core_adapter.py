"""The core-game adapter contract (spec D31, A1-A9) that every ruleset used in AMALOGS provides.

A *side* is one player's persistent half of a two-player core game (D19); a *table* is one
turn of the host's ruleset with the host at seat 0 and the champion, or a vacant seat, at
seat 1 (D20, D21). Both are opaque to the meta engine: it only calls these methods. Every
method is pure Python and deterministic; all randomness comes from the ``rng`` handed in,
which is the meta state's one RNG. Observation and action-index encoding of a core game live
in ``envs.amalogs.encode`` (``CoreEncoding``), outside the engine.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple, Protocol


class CoreSummary(NamedTuple):
    """A8: the public summary of a side (the active-turn count is kept by the meta engine)."""

    life: int
    hand: int
    deck: int
    units: int


class CoreAdapter(Protocol):
    """What AMALOGS needs from a core ruleset (D31)."""

    slot: int
    name: str

    def default_deck(self) -> list[str]:
        """D28: the ruleset's first ready-made deck (card ids)."""
        ...

    def resolve_deck(self, value: Any, label: str) -> list[str]:
        """A deck option (name, path, mapping or list) as validated card ids; raises on a bad deck."""
        ...

    def new_side(self, deck: list[str], rng: random.Random) -> Any:
        """A1: a new side from a deck list."""
        ...

    def solo_table(self, side: Any, rng: random.Random, turn: int) -> Any:
        """A2, D30: the opening and first-player first turn of ``side`` with a vacant seat 1, started."""
        ...

    def compose(self, host: Any, champion: Any | None, rng: random.Random, turn: int) -> Any:
        """A3: a table of core turn ``turn`` (host at seat 0, champion or ``None`` = vacant), not started."""
        ...

    def begin(self, table: Any) -> None:
        """Run a composed table up to its first decision."""
        ...

    def to_act(self, table: Any) -> int:
        """A4: the seat that decides now, or -1 once the table is over."""
        ...

    def legal_actions(self, table: Any) -> list[Any]:
        """A4: the seat's options (the core engine's own actions)."""
        ...

    def step(self, table: Any, action: Any) -> None:
        """A4: play one core action (the core engine raises ``IllegalActionError`` on a bad one)."""
        ...

    def auto_action(self, table: Any) -> Any:
        """A9, D32: the pass/end option if legal, else the lowest-index legal action."""
        ...

    def loss_flags(self, table: Any) -> tuple[bool, bool]:
        """A5: per seat, whether that side met its loss condition."""
        ...

    def split(self, table: Any) -> tuple[Any, Any | None]:
        """A6: the two updated sides (``None`` for a vacant seat)."""
        ...

    def lose_core_life(self, side: Any, n: int) -> bool:
        """A7: lose ``n`` core life without decisions; True if the side met its loss condition."""
        ...

    def summary(self, side: Any) -> CoreSummary:
        """A8: the public summary of a side."""
        ...

    def table_summary(self, table: Any, seat: int) -> CoreSummary:
        """A8 for the side at ``seat`` of a running table."""
        ...

    def side_cards(self, side: Any) -> list[str]:
        """Every card id the side holds, in any zone (I9)."""
        ...

    def clone_side(self, side: Any) -> Any:
        """An independent copy of a side."""
        ...

    def clone_table(self, table: Any, rng: random.Random) -> Any:
        """An independent copy of a table that draws from ``rng``."""
        ...

    def side_to_dict(self, side: Any) -> dict[str, Any]:
        """JSON-safe form of a side."""
        ...

    def side_from_dict(self, data: dict[str, Any]) -> Any:
        """Inverse of ``side_to_dict``."""
        ...

    def table_to_dict(self, table: Any) -> dict[str, Any]:
        """JSON-safe form of a table."""
        ...

    def table_from_dict(self, data: dict[str, Any], rng: random.Random) -> Any:
        """Inverse of ``table_to_dict``; the table draws from ``rng``."""
        ...

    def resample_side(self, side: Any, rng: random.Random, keep_private: bool) -> Any:
        """The side with its deck order (and, unless ``keep_private``, its hidden cards) redrawn."""
        ...

    def resample_table(self, table: Any, keep_seat: int, rng: random.Random) -> Any:
        """The table with everything ``keep_seat`` (-1: nobody) may not see redrawn."""
        ...

    def render_table(self, table: Any, viewer: int | None) -> str:
        """The table as text for humans (``viewer`` a seat, or None for everything)."""
        ...

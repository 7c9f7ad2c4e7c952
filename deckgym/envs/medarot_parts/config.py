"""Rules configuration: one frozen ``RulesConfig`` holding the numbers of the game (spec section 3)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from deckgym.envs.core.errors import StateError
from deckgym.envs.core.options import check_int, check_known, check_table_seat


@dataclass(frozen=True)
class RulesConfig:
    """The numbers and caps of the game; every field has the spec's value as default.

    Attributes:
        deck_size: exact number of cards in a deck (D2).
        max_copies: copies of one non-energy card name allowed in a deck (D2).
        hand_size: the draw phase fills hands to this size; the end phase trims to it (D8, D17).
        hand_cap: a hand never holds more cards (D36); also the HAND(h) block of the actions.
        start_assets: assets before the starter parts are paid for (D3).
        disposal_cost: extra cost of exchanging a destroyed part (D32).
        max_turns: the game is truncated after the end phase of this turn (D35).
        max_steps: safety cap on decisions; the game is truncated when it is reached.
        vacant_seat: seat 1 is an empty seat (a core-game table of the AMALOGS meta-game with
            no opponent): it holds no cards, never decides and meets no loss condition; only
            seat 0 is set up, and it has priority.
        proxy: what sits at a vacant seat 1 (AMALOGS D37, D40; ``envs.core.proxy``): 0 nothing,
            1 a guest proxy (the defender's stand-in), 2 a base proxy (the enemy base). A
            proxy is one stand-in medarot with only a head, whose remaining armor is the life
            P (``GameState.proxy_life``); the host's attacks hit it. Only with ``vacant_seat``.
    """

    deck_size: int = 40
    max_copies: int = 4
    hand_size: int = 7
    hand_cap: int = 16
    start_assets: int = 10000
    disposal_cost: int = 200
    max_turns: int = 30
    max_steps: int = 20000
    vacant_seat: bool = False
    proxy: int = 0

    def __post_init__(self) -> None:
        check_table_seat({"vacant_seat": self.vacant_seat, "proxy": self.proxy})

    def to_dict(self) -> dict[str, Any]:
        """The config as a plain dict."""
        return dataclasses.asdict(self)


def make_config(**overrides: Any) -> RulesConfig:
    """The default ``RulesConfig`` with ``overrides``; unknown keys and non-positive caps are errors.

    ``proxy`` is 0, 1 or 2 (a proxy also needs ``vacant_seat``, which tables set, ``RulesConfig``).
    """
    check_known(RulesConfig, overrides)
    check_table_seat(overrides)
    for key, value in overrides.items():
        if key not in ("vacant_seat", "proxy"):
            check_int(key, value, 1)
    if overrides.get("hand_cap", 16) > 16:
        raise StateError("hand_cap is at most 16 (the HAND(h) block of the action encoding)")
    return RulesConfig(**overrides)

"""Rules configuration and constants of Master of the World (spec section 4.1).

MoW has a single rule set; ``RulesConfig`` holds its caps and the few table options
(first player, copy limit) with the spec's values as defaults.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from deckgym.envs.core.errors import StateError
from deckgym.envs.core.options import check_int, check_known, check_table_seat

LIFE_START: Final = 20
DECK_SIZE: Final = 40
OPENING_HAND: Final = 5
DRAW_PER_TURN: Final = 1
CHARGE_LIMIT: Final = 2
MAX_LEVEL_CAP: Final = 5
P_MAX: Final = 64
M_MAX: Final = 8
MAX_ACT_ABILITIES: Final = 2
MAX_TURNS: Final = 100
MAX_DECISIONS_PER_TURN: Final = 500
CHAIN_OBS: Final = 8
MAX_MONSTERS: Final = MAX_LEVEL_CAP
#: Copy limit the packaged starter decks keep (D6: the rules themselves set none).
STARTER_MAX_COPIES: Final = 3
#: The standard level table (R12): (experience threshold, attack, guard) for levels 0..3.
STANDARD_LEVELS: Final[tuple[tuple[int, int, int], ...]] = ((0, 0, 0), (2, 1, 1), (4, 2, 2), (8, 3, 3))


@dataclass(frozen=True)
class RulesConfig:
    """The caps and table options of a game.

    Attributes:
        max_turns: the game is a truncated draw after the end step of this turn (D42).
        max_decisions_per_turn: safety cap; a turn with more decisions is truncated (D42).
        first_player: 0 or 1 fixes the first player; -1 draws it with the game's RNG (D1).
        max_copies: copies allowed per card name in a deck; 0 means no limit (D6).
        first_turn: the number of the game's first turn, on which the first player's master
            cannot attack (R9, D32); 0 means no turn is the game's first (a table of the
            AMALOGS meta-game, whose turn numbers come from a match-wide counter).
        vacant_seat: seat 1 is an empty seat (a core-game table of the AMALOGS meta-game with
            no opponent): it holds no cards and no master, never decides, is no attack or
            effect target and meets no loss condition; only seat 0 plays the opening.
        proxy: what sits at a vacant seat 1 (``envs.core.proxy``, AMALOGS D37, D40): 0 nothing;
            1 a guest proxy (the defender of another player) or 2 a base proxy (the enemy base),
            a proxy master whose life P is ``GameState.life[1]``, with attack and guard 0 and no
            card. The host's monsters and master attack it; for a guest proxy, effects that
            damage the opponent's master lower P too. P reaching 0 ends the game with seat 1 as
            the loser. Needs ``vacant_seat``: every other rule treats seat 1 as vacant.
    """

    max_turns: int = MAX_TURNS
    max_decisions_per_turn: int = MAX_DECISIONS_PER_TURN
    first_player: int = -1
    max_copies: int = 0
    first_turn: int = 1
    vacant_seat: bool = False
    proxy: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The config as a plain dict."""
        return dataclasses.asdict(self)


def make_config(**overrides: Any) -> RulesConfig:
    """Build a ``RulesConfig`` from overrides; unknown keys and bad values are errors."""
    check_known(RulesConfig, overrides)
    values: dict[str, Any] = {
        k: (-1 if k == "first_player" and v is None else v) for k, v in overrides.items()
    }
    for key in ("max_turns", "max_decisions_per_turn"):
        check_int(key, values.get(key, 1), 1)
    if values.get("first_player", -1) not in (-1, 0, 1):
        raise StateError(f"first_player must be None, 0 or 1, got {values['first_player']!r}")
    check_int("max_copies", values.get("max_copies", 0), 0)
    check_int("first_turn", values.get("first_turn", 1), 0)
    check_table_seat(values)
    return RulesConfig(**values)

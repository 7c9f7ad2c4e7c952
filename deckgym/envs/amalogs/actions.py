"""Actions, phases and directions of the AMALOGS meta-game (spec sections 5 and 6).

An ``Action`` is a small immutable ``(kind, arg)`` pair. ``arg`` is a direction (STEP, PUSH,
SWAP), a square (SQUARE), a ruleset slot (RULESET), an enemy team slot (STRIKE_PLAYER) or,
for CORE, the core ruleset's own engine action.
"""

from __future__ import annotations

import enum
from typing import Any, Final, NamedTuple

from deckgym.envs.core.protocol import action_text


class Kind(enum.IntEnum):
    """Action kinds, in the order of the index blocks of section 6."""

    END_TURN = 0
    HAND_OVER = 1
    DUEL = 2
    MOVE = 3
    GUARD = 4
    STEP = 5
    PUSH = 6
    SWAP = 7
    SQUARE = 8
    RULESET = 9
    STRIKE_NONE = 10
    STRIKE_BASE = 11
    STRIKE_PLAYER = 12
    CORE = 13


class Action(NamedTuple):
    """One option at a decision point."""

    kind: int
    arg: Any = 0

    def __str__(self) -> str:
        return action_text(Kind, self.kind, self.arg, _BARE, _ARG_NAMES)


#: Kinds written without their argument, and how ``str(Action)`` names the directions.
_BARE: Final = (
    Kind.END_TURN,
    Kind.HAND_OVER,
    Kind.DUEL,
    Kind.MOVE,
    Kind.GUARD,
    Kind.STRIKE_NONE,
    Kind.STRIKE_BASE,
)
_DIRECTIONS: Final = tuple(f"d{d}" for d in range(8))
_ARG_NAMES: Final = {Kind.STEP: _DIRECTIONS, Kind.PUSH: _DIRECTIONS, Kind.SWAP: _DIRECTIONS}


class Phase(enum.IntEnum):
    """Phases of section 7.4 (the observation's phase one-hot follows this order)."""

    STARTUP_RULESET = 0
    STARTUP_CORE = 1
    STARTUP_PLACE = 2
    META_FIELD = 3
    MOVE_DEST = 4
    DUEL_CORE = 5
    STRIKE = 6
    RESPAWN_RULESET = 7
    RESPAWN_CORE = 8
    RESPAWN_PLACE = 9
    GAME_OVER = 10


#: The phases that run a core table (a solo first turn or a duel): their decisions are the table's own.
CORE_PHASES: Final = frozenset({Phase.STARTUP_CORE, Phase.RESPAWN_CORE, Phase.DUEL_CORE})


class Role(enum.IntEnum):
    """Duel roles (R17, D21); the observation's role one-hot follows this order."""

    NONE = 0
    HOST = 1
    CAST = 2
    GUEST = 3
    CHAMPION = 4
    DEFENDER = 5


#: D13: directions d0..d7 as (delta row, delta column), the same for both teams.
DIRECTIONS: Final[tuple[tuple[int, int], ...]] = (
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
)

END_TURN: Final = Action(Kind.END_TURN)
HAND_OVER: Final = Action(Kind.HAND_OVER)
DUEL: Final = Action(Kind.DUEL)
MOVE: Final = Action(Kind.MOVE)
GUARD: Final = Action(Kind.GUARD)
STEP: Final = tuple(Action(Kind.STEP, d) for d in range(8))
PUSH: Final = tuple(Action(Kind.PUSH, d) for d in range(8))
SWAP: Final = tuple(Action(Kind.SWAP, d) for d in range(8))
SQUARE: Final = tuple(Action(Kind.SQUARE, s) for s in range(77))
RULESET: Final = tuple(Action(Kind.RULESET, k) for k in range(8))
STRIKE_NONE: Final = Action(Kind.STRIKE_NONE)
STRIKE_BASE: Final = Action(Kind.STRIKE_BASE)
STRIKE_PLAYER: Final = tuple(Action(Kind.STRIKE_PLAYER, j) for j in range(3))

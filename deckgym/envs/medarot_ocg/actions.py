"""Actions and decision points of the Medarot OCG (spec sections 5 and 6).

An ``Action`` is a small immutable ``(kind, arg)`` pair. Squares in engine actions are
absolute square ids (section 4.2); the encoder turns them into the agent-relative frame.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from deckgym.envs.core.protocol import action_text


class Kind(enum.IntEnum):
    """Action kinds, in the order of the index blocks of section 6."""

    PASS = 0
    HAND = 1
    SET = 2
    STOCK = 3
    MASTER = 4
    SQUARE = 5
    MOVE = 6
    COUNT = 7
    MEDAFORCE = 8
    SUBSTITUTE = 9
    RELEASE = 10
    SPECIAL = 11
    OPP_STOCK = 12
    EFFECT = 13


class Action(NamedTuple):
    """One option at a decision point: a kind and its argument (hand slot, square, count...)."""

    kind: int
    arg: int = 0

    def __str__(self) -> str:
        return action_text(
            Kind,
            self.kind,
            self.arg,
            (Kind.PASS, Kind.MASTER, Kind.SUBSTITUTE, Kind.RELEASE, Kind.SPECIAL),
            _ARG_NAMES,
        )


#: How ``str(Action)`` names MOVE's directions.
_ARG_NAMES: Final = {Kind.MOVE: ("F", "FR", "R", "BR", "B", "BL", "L", "FL")}


class DP(enum.IntEnum):
    """Decision points of section 5."""

    MASTER_SELECT = 0
    OPENING_STOCK = 1
    PLACE_CARD = 2
    PLACE_SQUARE = 3
    OPT_DRAW = 4
    LATE_MASTER = 5
    HAND_LIMIT = 6
    TIE_BREAK = 7
    ACTION_START = 8
    STOCK_TRASH = 9
    SUB_CARD = 10
    SUB_SQUARE = 11
    MOVE_BEFORE = 12
    SUPPORT = 13
    EFFECT_CHOICE = 14
    PAY_SPLIT = 15
    EFFECT_TARGET = 16
    DECLARE = 17
    DEFENCE = 18
    WEAK_DISCARD = 19
    DESTROY_DRAW = 20
    EFFECT_DRAW = 21
    EFFECT_DISCARD = 22
    MOVE_AFTER = 23
    DRAW_STOCK = 24


# Interned actions: the hot paths build option lists from these instead of allocating.
PASS: Final = Action(Kind.PASS, 0)
MASTER: Final = Action(Kind.MASTER, 0)
SUBSTITUTE: Final = Action(Kind.SUBSTITUTE, 0)
RELEASE: Final = Action(Kind.RELEASE, 0)
SPECIAL: Final = Action(Kind.SPECIAL, 0)
HAND: Final = tuple(Action(Kind.HAND, i) for i in range(16))
SET: Final = tuple(Action(Kind.SET, i) for i in range(16))
STOCK: Final = tuple(Action(Kind.STOCK, j) for j in range(3))
SQUARE: Final = tuple(Action(Kind.SQUARE, s) for s in range(15))
MOVE: Final = tuple(Action(Kind.MOVE, d) for d in range(8))
COUNT = tuple(Action(Kind.COUNT, k) for k in range(4))
MEDAFORCE: Final = tuple(Action(Kind.MEDAFORCE, k) for k in range(6))
OPP_STOCK: Final = tuple(Action(Kind.OPP_STOCK, j) for j in range(3))
EFFECT: Final = tuple(Action(Kind.EFFECT, e) for e in range(2))

#: How many distinct arguments each kind takes (the blocks of the action encoding, section 6).
ARG_COUNT: Final = {
    Kind.PASS: 1,
    Kind.HAND: 16,
    Kind.SET: 16,
    Kind.STOCK: 3,
    Kind.MASTER: 1,
    Kind.SQUARE: 15,
    Kind.MOVE: 8,
    Kind.COUNT: 4,
    Kind.MEDAFORCE: 6,
    Kind.SUBSTITUTE: 1,
    Kind.RELEASE: 1,
    Kind.SPECIAL: 1,
    Kind.OPP_STOCK: 3,
    Kind.EFFECT: 2,
}
#: Every action value there is, in encoding order.
ALL_ACTIONS: Final = tuple(Action(k, i) for k, n in ARG_COUNT.items() for i in range(n))

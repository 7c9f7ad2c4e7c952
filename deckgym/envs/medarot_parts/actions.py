"""Actions and decision points of the Medarot parts game (spec sections 5 and 6).

An ``Action`` is a small immutable ``(kind, arg)`` pair; the kinds follow the index blocks
of the action encoding (section 6), so index = block offset + arg.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from deckgym.envs.core.protocol import action_text, block_offsets


class Kind(enum.IntEnum):
    """Action kinds, in the order of the index blocks of section 6."""

    PASS = 0
    USE_PART = 1
    HAND = 2
    ENERGY = 3
    PAY_MEDAL = 4
    MEDAROT = 5
    PART = 6
    EVADE = 7
    PROTECT = 8
    AMOUNT = 9
    ATTACH_EFFECT = 10


#: How many arguments each kind takes (the sizes of the index blocks).
ARG_COUNT: Final = {
    Kind.PASS: 1,
    Kind.USE_PART: 3,
    Kind.HAND: 16,
    Kind.ENERGY: 4,
    Kind.PAY_MEDAL: 1,
    Kind.MEDAROT: 2,
    Kind.PART: 4,
    Kind.EVADE: 1,
    Kind.PROTECT: 3,
    Kind.AMOUNT: 10,
    Kind.ATTACH_EFFECT: 1,
}
#: First index of each kind's block.
OFFSET: Final = block_offsets(ARG_COUNT)
ACTION_SIZE: Final = sum(ARG_COUNT.values())

_NO_ARG: Final = frozenset({Kind.PASS, Kind.PAY_MEDAL, Kind.EVADE, Kind.ATTACH_EFFECT})
_ARG_NAMES: Final = {
    Kind.USE_PART: ("head", "right arm", "left arm"),
    Kind.PROTECT: ("head", "right arm", "left arm"),
    Kind.PART: ("head", "right arm", "left arm", "legs"),
    Kind.ENERGY: ("shoot", "melee", "defense", "support"),
}


class Action(NamedTuple):
    """One option at a decision point: a kind and its argument (slot, hand position, kind...)."""

    kind: int
    arg: int = 0

    def __str__(self) -> str:
        return action_text(Kind, self.kind, self.arg, _NO_ARG, _ARG_NAMES)


class DP(enum.IntEnum):
    """Decision points of section 5 (DP1..DP16)."""

    ACTION_MEDAROT_TIE = 1
    ENERGY_PLACE = 2
    ACTION = 3
    PAYMENT = 4
    POWER_WINDOW = 5
    DEFENDER_CHOICE = 6
    DEFENSE_WINDOW = 7
    RESPONSE = 8
    PROTECT_AMOUNT = 9
    ALLOCATE = 10
    EFFECT_ATTACH = 11
    EFFECT_TARGET = 12
    REPAIR_MEDAROT = 13
    REPAIR_PART = 14
    TARGET = 15
    DISCARD = 16


# Interned actions: the hot paths build option lists from these instead of allocating.
PASS: Final = Action(Kind.PASS, 0)
USE_PART: Final = tuple(Action(Kind.USE_PART, s) for s in range(3))
HAND: Final = tuple(Action(Kind.HAND, h) for h in range(16))
ENERGY: Final = tuple(Action(Kind.ENERGY, k) for k in range(4))
PAY_MEDAL: Final = Action(Kind.PAY_MEDAL, 0)
MEDAROT: Final = tuple(Action(Kind.MEDAROT, i) for i in range(2))
PART: Final = tuple(Action(Kind.PART, s) for s in range(4))
EVADE: Final = Action(Kind.EVADE, 0)
PROTECT: Final = tuple(Action(Kind.PROTECT, s) for s in range(3))
AMOUNT: Final = tuple(Action(Kind.AMOUNT, k) for k in range(10))
ATTACH_EFFECT: Final = Action(Kind.ATTACH_EFFECT, 0)
#: Every action value, in encoding order (index i is ``ALL_ACTIONS[i]``).
ALL_ACTIONS: Final = tuple(Action(k, i) for k, n in ARG_COUNT.items() for i in range(n))
assert len(ALL_ACTIONS) == ACTION_SIZE == 46

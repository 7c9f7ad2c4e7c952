"""Actions and decision points of Master of the World (spec sections 5.8 and 6).

An ``Action`` is a small immutable ``(kind, arg)`` pair whose blocks are exactly the index
blocks of section 6, so the encoder is a table lookup. Sides and positions in ``TARGET``,
``ABILITY`` and ``ATTACKER`` are relative to the deciding player (side 0 = self).
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from deckgym.envs.core.protocol import action_text, block_offsets


class Kind(enum.IntEnum):
    """Action kinds, in the order of the index blocks of section 6."""

    PASS = 0
    HAND = 1
    USE = 2
    FAST = 3
    SLOT_SPELL = 4
    ABILITY = 5
    ATTACKER = 6
    TARGET = 7
    CARD_TYPE = 8


#: Arguments per kind (the sizes of the index blocks, 294 in all).
ARG_COUNT: Final = {
    Kind.PASS: 1,
    Kind.HAND: 64,
    Kind.USE: 64,
    Kind.FAST: 64,
    Kind.SLOT_SPELL: 1,
    Kind.ABILITY: 14,
    Kind.ATTACKER: 6,
    Kind.TARGET: 16,
    Kind.CARD_TYPE: 64,
}
#: First index of each block.
OFFSET: Final = block_offsets(ARG_COUNT)
ACTION_SIZE: Final = sum(ARG_COUNT.values())

#: Positions of ABILITY / ATTACKER / TARGET arguments.
MASTER_POS: Final = 0
WEAPON_POS: Final = 6
SPELL_POS: Final = 7
_POS_NAMES: Final[tuple[str, ...]] = (
    "master",
    "monster 0",
    "monster 1",
    "monster 2",
    "monster 3",
    "monster 4",
    "weapon",
    "spell",
)
#: How ``str(Action)`` names the arguments of the position kinds.
_ARG_NAMES: Final = {
    Kind.ABILITY: tuple(f"{_POS_NAMES[i // 2]}, {i % 2}" for i in range(14)),
    Kind.ATTACKER: _POS_NAMES[:6],
    Kind.TARGET: tuple(f"{'self' if i < 8 else 'opp'} {_POS_NAMES[i % 8]}" for i in range(16)),
}


class Action(NamedTuple):
    """One option at a decision point: a kind and its argument."""

    kind: int
    arg: int = 0

    def __str__(self) -> str:
        return action_text(Kind, self.kind, self.arg, (Kind.PASS, Kind.SLOT_SPELL), _ARG_NAMES)


class DP(enum.IntEnum):
    """Decision points K1-K13 of section 5.8 (0 is NONE, used by the observation)."""

    NONE = 0
    CHARGE = 1
    MAIN = 2
    ATTACK_DECLARE = 3
    ATTACK_TARGET = 4
    COUNTER_WINDOW = 5
    COST_DISCARD = 6
    COST_SACRIFICE = 7
    EFFECT_TARGET = 8
    EFFECT_DISCARD = 9
    EXP_FROM_HAND = 10
    SEARCH_CHOICE = 11
    RECOVER_CHOICE = 12
    OVERFLOW_DISCARD = 13


class Use(enum.IntEnum):
    """Kinds of chain entry (R41 card uses, plus a 対抗 ability)."""

    SUMMON = 0
    EQUIP = 1
    CAST = 2
    ACTIVATE = 3
    ABILITY = 4


class Phase(enum.IntEnum):
    """Turn steps of 5.2."""

    START = 0
    DRAW = 1
    CHARGE = 2
    MAIN = 3
    ATTACK = 4
    END = 5


# Interned actions: the hot paths build option lists from these instead of allocating.
ALL_ACTIONS: Final = tuple(Action(k, i) for k, n in ARG_COUNT.items() for i in range(n))
PASS: Final = ALL_ACTIONS[0]
SLOT_SPELL: Final = ALL_ACTIONS[OFFSET[Kind.SLOT_SPELL]]
HAND: Final = ALL_ACTIONS[OFFSET[Kind.HAND] : OFFSET[Kind.HAND] + 64]
USE: Final = ALL_ACTIONS[OFFSET[Kind.USE] : OFFSET[Kind.USE] + 64]
FAST: Final = ALL_ACTIONS[OFFSET[Kind.FAST] : OFFSET[Kind.FAST] + 64]
ABILITY: Final = ALL_ACTIONS[OFFSET[Kind.ABILITY] : OFFSET[Kind.ABILITY] + 14]
ATTACKER: Final = ALL_ACTIONS[OFFSET[Kind.ATTACKER] : OFFSET[Kind.ATTACKER] + 6]
TARGET: Final = ALL_ACTIONS[OFFSET[Kind.TARGET] : OFFSET[Kind.TARGET] + 16]
CARD_TYPE: Final = ALL_ACTIONS[OFFSET[Kind.CARD_TYPE] : OFFSET[Kind.CARD_TYPE] + 64]

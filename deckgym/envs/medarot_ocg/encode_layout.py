"""The observation layout of the Medarot OCG encoder (spec section 7): pieces, card features, scalars.

Observations are float32 vectors built from the named pieces of ``LAYOUT``; everything is
seen from the observing seat (own row first, columns from its own left). Card identities
appear as feature rows (kind, type, stats, arrows and effect records); a card the seat may
not see (opponent's hand, face-down cards, deck order) is an all-zero row, and only counts
of hidden zones are given.
"""

from __future__ import annotations

import struct
from typing import Final

from deckgym.envs.core.targets import Target
from deckgym.envs.encoding.layout import ObsLayout
from deckgym.envs.medarot_ocg.actions import DP
from deckgym.envs.medarot_ocg.cards import (
    CARD_TIMINGS,
    KINDS,
    TRASH_TIMINGS,
    TYPE_FILTERS,
    TYPES,
    UNIT_TIMINGS,
    CardDef,
)
from deckgym.envs.medarot_ocg.ops import OPS

_TIMINGS: Final = UNIT_TIMINGS + CARD_TIMINGS
_OPS: Final = tuple(OPS.names())
_EFFECT_F: Final = len(_TIMINGS) + len(_OPS) + 1 + len(Target) + len(TYPE_FILTERS) + 1 + len(TRASH_TIMINGS)
CARD_F: Final = len(KINDS) + len(TYPES) + 7 + 8 + 2 * _EFFECT_F
_SQ_F: Final = 21
_SLOT_F: Final = 4
_SCALARS: Final = 47
_N_CARD_SLOTS: Final = 15 + 16 + 3 + 3 + 1 + 1 + 1


def _card_row(c: CardDef) -> list[float]:
    row = [0.0] * CARD_F
    row[KINDS.index(c.kind)] = 1.0
    o = len(KINDS)
    if c.type:
        row[o + TYPES.index(c.type)] = 1.0
    o += len(TYPES)
    row[o : o + 7] = [
        c.speed / 10,
        c.cost / 5,
        c.power / 100,
        c.armor / 100,
        c.n_arrows / 8,
        float(c.power_form),
        c.hp_mod / 5,
    ]
    o += 7
    for d in range(8):
        row[o + d] = float(c.arrows >> d & 1)
    o += 8
    for e in c.effects:
        row[o + _TIMINGS.index(e.timing)] = 1.0
        p = o + len(_TIMINGS)
        row[p + _OPS.index(e.op)] = 1.0
        p += len(_OPS)
        row[p] = e.amount / (40 if e.op in ("MOD_POWER", "MOD_ARMOR") else 3)
        p += 1
        row[p + int(e.target)] = 1.0
        p += len(Target)
        row[p + TYPE_FILTERS.index(e.type_filter)] = 1.0
        p += len(TYPE_FILTERS)
        row[p] = e.cost / 3
        p += 1
        if e.trash:
            row[p + TRASH_TIMINGS.index(e.trash)] = 1.0
        o += _EFFECT_F
    return row


#: The pieces before the card-count tables (their sizes do not depend on the pool).
_FRONT: Final[list[tuple[str, tuple[int, ...], str]]] = [
    ("decision", (len(DP),), "one-hot of the current decision point"),
    (
        "scalars",
        (_SCALARS,),
        "turn, HP, zone counts, mode, who moves, the action and attack under way",
    ),
    (
        "board",
        (15, _SQ_F),
        "per square (own frame): occupied, own, enemy, face up, identity known, acted, placed this turn, acting, attack target, transformed, sideways, disabled, rooted, guard, the active speed/10, power/100, armor/100 modifiers, threat/100 and reach/100 (highest power of a known enemy / own Medarot that can attack the square), own Medarot destroyable, enemy Medarot destroyable",
    ),
    (
        "masters",
        (2, _SLOT_F),
        "own then opponent master: present, face up, used this turn, NEGATE charge",
    ),
    (
        "stock_flags",
        (6, _SLOT_F),
        "own then opponent stock slots: present, face up, in use, NEGATE charge",
    ),
    (
        "acting_moves",
        (8, 3),
        (
            "while the acting Medarot's owner decides (A3-A9), per direction F FR R BR B BL L FL (its "
            "owner's, as MOVE(d)): legal move, the destination is in range of an enemy that destroys it, "
            "a destroyable target from there"
        ),
    ),
    (
        "acting_attacks",
        (15, 2),
        (
            "while the acting Medarot's owner decides (A3-A9), per square (own frame): the acting "
            "Medarot destroys the known enemy there now (power >= armor), its cost/5"
        ),
    ),
    ("board_cards", (15, CARD_F), "top card features per square; zero if the seat cannot see it"),
    ("hand_cards", (16, CARD_F), "own hand in order (HAND(i) refers to row i)"),
    ("stock_cards", (6, CARD_F), "own stock cards, then the opponent's face-up stock cards"),
    ("master_cards", (2, CARD_F), "own master, then the opponent's if face up"),
    ("used_card", (1, CARD_F), "the Medaroter being played right now (public)"),
]

#: The pieces after them. They come last so that a model trained without them loads with zero
#: weights for them (``agents.pretrained.widen``): new pieces go at the end.
_BACK: Final[list[tuple[str, tuple[int, ...], str]]] = [
    (
        "move_tactics",
        (8, 4),
        (
            "while the acting Medarot's owner decides (A3-A9), per direction as in acting_moves: the "
            "destination is in the neutral row, an enemy Medarot in range from there (face-down ones "
            "too), the highest cost/5 of a known enemy it destroys from there, a face-down enemy "
            "Medarot in range from there"
        ),
    ),
    (
        "attack_range",
        (15,),
        (
            "while the acting Medarot's owner decides (A3-A9), per square (own frame): an enemy "
            "Medarot there is in the acting Medarot's range now (face-down ones too)"
        ),
    ),
    (
        "attack",
        (5,),
        (
            "while a Medarot acts, what the seat knows of its attack: the acting Medarot's power/100, "
            "its target's armor/100, (power - armor)/40, the attack destroys the target (power >= "
            "armor), and before a target is declared (armor - power)/40 of the weakest known enemy in "
            "range (each 0 when a Medarot in it is unknown to the seat or there is none)"
        ),
    ),
]


def build_layout(n_cards: int) -> ObsLayout:
    """The observation layout for a pool of ``n_cards`` card definitions."""
    return ObsLayout(
        [
            *_FRONT,
            ("trash", (2, n_cards), "own and opponent trash contents, count per card / 3"),
            ("reserve", (2, n_cards), "own and opponent MedaForce reserve, count per card / 3"),
            *_BACK,
        ]
    )


#: Names of the ``scalars`` piece, in order (ratios as in ``_write_scalars``).
SCALARS: Final[tuple[str, ...]] = (
    "turn/max_turns",
    "first player",
    "to move",
    "hp/20",
    "opp hp/20",
    "deck/30",
    "opp deck/30",
    "hand/16",
    "opp hand/16",
    "trash/30",
    "opp trash/30",
    "reserve/30",
    "opp reserve/30",
    "mulligans/3",
    "opp mulligans/3",
    "beginner",
    "normal",
    "advance",
    "action under way",
    "own action",
    "action card used",
    "defence card used",
    "moved",
    "MedaChanged or released",
    "penalty cancelled",
    "free far attack",
    "far attack",
    "attack negated",
    "attack redirected",
    "disabled",
    "attacking",
    "own TRAP/3",
    "opp TRAP/3",
    "own DOT/2",
    "opp DOT/2",
    "own power mod/40",
    "own armor mod/40",
    "own speed mod/3",
    "opp power mod/40",
    "opp armor mod/40",
    "opp speed mod/3",
    "count in decision/9",
    "own failed draw",
    "opp failed draw",
    "own master used",
    "opp master used",
    "game over",
)
#: Scalars 0-14 (turn to mulligans): packed into the buffer in one call, as ``array("f")`` stores floats.
_DENSE_SCALARS: Final = struct.Struct("15f")
_MODE_INDEX: Final = {"beginner": 0, "normal": 1, "advance": 2}
assert len(SCALARS) == _SCALARS
#: The flags of the action under way, in the order of ``SCALARS`` (the per-seat view names them too).
ACT_FLAG_NAMES: Final[tuple[str, ...]] = (
    "action_used",
    "defence_used",
    "moved",
    "changed",
    "cancel_penalty",
    "free_far",
    "far",
    "negated",
    "redirected",
    "disabled",
)
#: Decision points whose context ends with a count (cards to discard or draw, HP to split).
COUNT_DPS: Final = frozenset({DP.WEAK_DISCARD, DP.EFFECT_DISCARD, DP.EFFECT_DRAW, DP.PAY_SPLIT})

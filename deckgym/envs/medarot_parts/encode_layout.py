"""The parts game's observation layout and card feature rows (spec section 7).

``envs.medarot_parts.encode`` builds observations from these pieces; both names are also
importable from there.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.encoding.layout import ObsLayout
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.cards import OPS, SLOTS, TIMINGS, TYPES, CardDef, Target

_SOURCES: Final[tuple[str, ...]] = ("STATIC", "ON_USE", "EFFECT")
_TARGETS: Final = tuple(Target)
_ABILITY_F: Final = len(_SOURCES) + len(OPS) + 1 + len(_TARGETS) + len(SLOTS) + 1
CARD_F: Final = 6 + 4 + 7 + 4 + 4 + 1 + 1 + 1 + 4 + 3 + 1 + 4 + 2 * _ABILITY_F
SCALARS: Final = 34
MED_F: Final = 11
PART_F: Final = 10
N_FIELD: Final = 20  # 2 players x 2 medarots x (medal + 4 parts)
N_CARD_ROWS: Final = N_FIELD + 16 + 1


def card_row(c: CardDef) -> list[float]:
    """The feature row of a card definition (type, slot, action, stats, abilities)."""
    row = [0.0] * CARD_F
    row[TYPES.index(c.type)] = 1.0
    o = 6
    if c.slot >= 0:
        row[o + c.slot] = 1.0
    o += 4
    if c.action >= 0:
        row[o + c.action] = 1.0
    o += 7
    if c.attribute >= 0:
        row[o + c.attribute] = 1.0
    o += 4
    row[o : o + 7] = [
        c.armor / 9,
        c.charge / 9,
        c.power / 9,
        c.mobility / 9,
        c.price / 3000,
        float(c.effect_part),
        c.efficient / 2,
    ]
    o += 7
    if c.kind >= 0:
        row[o + c.kind] = 1.0
    o += 4
    if c.timing:
        row[o + TIMINGS.index(c.timing)] = 1.0
    o += 3
    row[o] = c.cost / 5
    o += 1
    if c.duration >= 0:
        row[o + c.duration] = 1.0
    o += 4
    for ab in c.abilities:
        if ab.source in _SOURCES:
            row[o + _SOURCES.index(ab.source)] = 1.0
        p = o + len(_SOURCES)
        row[p + OPS.index(ab.op)] = 1.0
        p += len(OPS)
        row[p] = ab.amount / 3
        p += 1
        row[p + _TARGETS.index(ab.target)] = 1.0
        p += len(_TARGETS)
        if ab.slot >= 0:
            row[p + ab.slot] = 1.0
        p += len(SLOTS)
        row[p] = float(bool(ab.condition))
        o += _ABILITY_F
    return row


def build_layout(n_cards: int) -> ObsLayout:
    """The observation layout for a pool of ``n_cards`` card definitions."""
    return ObsLayout(
        [
            ("decision", (len(DP) + 1,), "one-hot of the pending decision point DP1..DP16 (0: none)"),
            (
                "scalars",
                (SCALARS,),
                (
                    "I decide, turn, round, priority / first / turn-to-act are mine, passes, assets, hand, "
                    "deck and trash sizes (own, opponent), action medarots present, battle (active, I attack, "
                    "damage, response, protect amount, NO_EVADE, dealt, defender chosen), payment (active, "
                    "mine, needed and paid EP, medal eligible), a card or support use under way (active, mine)"
                ),
            ),
            (
                "medarots",
                (4, MED_F),
                (
                    "own medarots 0, 1 then the opponent's: medal attribute, efficient/2, medal tapped, stopped, "
                    "action medarot, attacking, defending, mobility/9"
                ),
            ),
            (
                "parts",
                (16, PART_F),
                (
                    "per medarot (as above) head, right arm, left arm, legs: tapped, destroyed, counters/9, "
                    "remaining armor/9, effect card, attached cards/3, current power/9, current charge/9, "
                    "attack part, protect part"
                ),
            ),
            (
                "energy",
                (2, 8),
                "own then opponent stock: untapped count per kind/10, tapped count per kind/10",
            ),
            (
                "field_cards",
                (N_FIELD, CARD_F),
                "per medarot (as above): medal, head, right arm, left arm, legs",
            ),
            ("hand_cards", (16, CARD_F), "own hand in canonical order (HAND(h) refers to row h)"),
            ("use_card", (1, CARD_F), "the medaroter card or support part being used (public)"),
            ("play_area", (2, n_cards), "own and opponent play areas, count per card"),
            ("trash", (2, n_cards), "own and opponent trash contents, count per card / 4"),
        ]
    )

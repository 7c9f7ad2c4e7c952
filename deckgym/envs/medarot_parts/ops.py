"""The effect vocabulary of the Medarot parts game (section 4.3): selectors, timings and primitives.

The ``Target`` selectors, the sources and timings an effect appears in, and each op's spec
(its amount range, the targets it accepts, the sources and timings it may appear in) live
here, in a module that imports neither the card loader nor the rules: ``cards`` validates
card data against ``OPS_REGISTRY`` at load time, and ``rules.effects`` binds each op's
handler (``OPS_REGISTRY.handler``). ``cards`` re-exports the names its callers know it by.
"""

from __future__ import annotations

import enum
from typing import Final

from deckgym.envs.core.effects import OpRegistry

#: Medaroter card timings (a card's ``timing``).
TIMINGS: Final[tuple[str, ...]] = ("ACTION", "POWER", "DEFENSE")
#: Sources of a part's abilities.
SOURCES: Final[tuple[str, ...]] = ("STATIC", "ON_USE", "EFFECT")


class Target(enum.IntEnum):
    """Effect targets of section 4.3: the selectors of this ruleset's card data."""

    SELF = 0  # the part carrying the ability
    PLAYER = 1  # the user of the effect
    ATTACK_PART = 2  # the current battle's attack part
    ATTACHED_PART = 3  # the part an ATTACHED medaroter card is attached to
    OWN_MEDAROT = 4  # a chosen own medarot: its head and arms
    OPP_SLOT = 5  # the part in a slot of a chosen opposing medarot
    OWN_PART = 6  # a chosen part of a chosen own medarot
    BATTLE = 7  # the current battle


#: Targets that need a decision of the effect's user (DP12, DP15).
CHOSEN_TARGETS: Final = frozenset(
    {Target.OWN_MEDAROT, Target.OPP_SLOT, Target.OWN_PART, Target.ATTACHED_PART}
)

OPS_REGISTRY: Final = OpRegistry("medarot_parts", Target)
#: Targets of the stat modifiers POWER and CHARGE (CHARGE takes all but the attack part).
_MOD_TARGETS: Final = (
    Target.ATTACK_PART,
    Target.SELF,
    Target.ATTACHED_PART,
    Target.OWN_MEDAROT,
    Target.OPP_SLOT,
)

OPS_REGISTRY.declare("POWER", targets=_MOD_TARGETS, amount=(1, 3), timings=(*SOURCES, "ACTION", "POWER"))
OPS_REGISTRY.declare("CHARGE", targets=_MOD_TARGETS[1:], amount=(1, 2), timings=(*SOURCES, "ACTION"))
OPS_REGISTRY.declare("DAMAGE", targets=(Target.BATTLE,), amount=(1, 3), timings=("DEFENSE",))
OPS_REGISTRY.declare("REPAIR", targets=(Target.OWN_PART,), amount=(1, 3), timings=("ON_USE", "ACTION"))
OPS_REGISTRY.declare("DRAW", targets=(Target.PLAYER,), amount=(1, 2), timings=("ON_USE", "ACTION"))
OPS_REGISTRY.declare(
    "UNTAP_ENERGY", targets=(Target.PLAYER,), amount=(1, 2), timings=("ON_USE", "ACTION", "POWER")
)
OPS_REGISTRY.declare("NO_EVADE", targets=(Target.BATTLE,), timings=("ON_USE", "POWER"))

#: The primitives' names, in the encoder's order.
OPS: Final = tuple(OPS_REGISTRY.names())

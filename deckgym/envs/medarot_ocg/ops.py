"""The effect vocabulary of the Medarot OCG: the primitives P1-P16 of spec section 4.4.

Each op's spec (its amount range, the targets it accepts, the timings it may appear in) is
declared here, in a module that imports neither the card loader nor the rules: ``cards``
validates card data against it at load time, and ``rules.effects`` binds each op's handler
(``OPS.handler``). The order of the declarations is the order of the ops in the encoder.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core.effects import OpRegistry
from deckgym.envs.core.targets import PLAYER_TARGETS, UNIT_TARGETS, Target

OPS: Final = OpRegistry("medarot_ocg", Target)

OPS.declare("MOD_POWER", targets=UNIT_TARGETS, amount=(10, 40), step=10, lasting=True)  # P1
OPS.declare("MOD_ARMOR", targets=UNIT_TARGETS, amount=(10, 40), step=10, lasting=True)  # P2
OPS.declare("MOD_SPEED", targets=UNIT_TARGETS, amount=(1, 3), lasting=True)  # P3
OPS.declare("NEGATE", targets=(Target.ATTACKED,), timings=("ACTION", "DEFENCE", "TRIGGER"))  # P4
OPS.declare("GUARD", targets=UNIT_TARGETS, lasting=True)  # P5
OPS.declare("TRAP", targets=(Target.OWNER,), amount=(1, 3), lasting=True)  # P6
OPS.declare("GAIN_HP", targets=PLAYER_TARGETS, amount=(1, 3))  # P7
OPS.declare("DAMAGE", targets=PLAYER_TARGETS, amount=(1, 3))  # P8
OPS.declare("DOT", targets=(Target.OPPONENT,), amount=(1, 2), lasting=True)  # P9
OPS.declare("DRAW", targets=(Target.OWNER,), amount=(1, 3))  # P10
OPS.declare("DISCARD", targets=(Target.OPPONENT,), amount=(1, 2))  # P11
OPS.declare("TRASH_STOCK", targets=(Target.OPPONENT,), amount=(1, 1))  # P12
OPS.declare("DISABLE", targets=UNIT_TARGETS, lasting=True)  # P13
OPS.declare("ROOT", targets=UNIT_TARGETS, lasting=True)  # P14
OPS.declare("CANCEL_PENALTY", targets=(Target.ACTING,), timings=("ACTION",))  # P15
OPS.declare("FREE_FAR", targets=(Target.ACTING,), timings=("ACTION",))  # P16

#: The stat modifiers (P1-P3): the only ops a ``type_filter`` may narrow.
MOD_OPS: Final[tuple[str, ...]] = ("MOD_POWER", "MOD_ARMOR", "MOD_SPEED")
#: Ops whose effect lasts (a Medarot's lasts until that Medarot acts again, D37).
LASTING_OPS: Final = tuple(name for name in OPS.names() if OPS[name].lasting)

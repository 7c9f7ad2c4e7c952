"""The effect vocabulary of MoW: the 13 primitives of spec 4.7 over the selectors of 4.8 (D45).

Each op's spec (its amount range, the selectors it accepts, the timings it may appear in) is
declared here, in a module that imports neither the card loader nor the rules: ``card_parse``
validates card data against it at load time, and ``rules.effects`` binds each op's handler
(``OPS.handler``). Player primitives name a ``player`` instead of a target, and SEARCH,
RECOVER and NEGATE take none. The card model itself (``Target``, the timings, which kinds an
op may affect) is in ``card_defs``.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core.effects import OpRegistry
from deckgym.envs.mow.card_defs import ACTIVATED, COUNTER, COUNTER_SPELL, PLAYER_OPS, SPELL_EFFECT, Target

OPS: Final = OpRegistry("mow", Target)

_ANY: Final = tuple(Target)
#: Masters are never destroyed or bounced (D45).
_FIELD: Final = tuple(t for t in Target if t not in (Target.OWN_MASTER, Target.OPP_MASTER))
_COUNTER_ONLY: Final = (COUNTER, COUNTER_SPELL)
#: D45: BOUNCE and RECOVER only on spells and 起動/対抗 abilities.
_LOOP_SAFE: Final = (SPELL_EFFECT, COUNTER_SPELL, ACTIVATED, COUNTER)

OPS.declare("DAMAGE", targets=_ANY, amount=(0, 10))
OPS.declare("HEAL", targets=_ANY, amount=(0, 10))
OPS.declare("DESTROY", targets=_FIELD)
OPS.declare("BOUNCE", targets=_FIELD, timings=_LOOP_SAFE)
OPS.declare("BUFF", targets=_ANY)
for _op in PLAYER_OPS:  # DRAW, DISCARD, MILL, EXP_GAIN, EXP_LOSE: each runs unit by unit
    OPS.declare(_op, amount=(0, 10))
OPS.declare("SEARCH")
OPS.declare("RECOVER", timings=_LOOP_SAFE)
OPS.declare("NEGATE", timings=_COUNTER_ONLY)

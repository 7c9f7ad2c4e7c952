"""Conversions between the core lives of different rulesets (D38, D41), in exact arithmetic.

Each ruleset has a nominal life L0 (D38: OCG beginner 10, OCG normal and advance 20, Master
of the World 20, the parts game the head armor its side started with). A defender's core life
becomes the proxy's life in the host's units, rounded half up with a floor of 1; damage goes
back to the guest rounded up. Only integers and ``Fraction`` are used: no floating point.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor
from typing import Final

#: D41: a strike's value S is counted in units of a nominal life of 20.
STRIKE_UNIT: Final = 20


def to_host(life: int, host_l0: int, guest_l0: int) -> int:
    """D38: P = max(1, floor(x · L0_host / L0_guest + 1/2)) for a defender of core life ``life``."""
    return max(1, floor(Fraction(life * host_l0, guest_l0) + Fraction(1, 2)))


def to_guest(damage: int, host_l0: int, guest_l0: int) -> int:
    """D38: the core life a defender loses for proxy damage ``damage``: ceil(d · L0_guest / L0_host), 0 for 0."""
    if damage <= 0:
        return 0
    return ceil(Fraction(damage * guest_l0, host_l0))


def strike_loss(strike: int, guest_l0: int) -> int:
    """D41: the core life a struck guest loses: ceil(S · L0_guest / 20)."""
    return to_guest(strike, STRIKE_UNIT, guest_l0)

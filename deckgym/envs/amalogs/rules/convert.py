"""Conversions between the core lives of different rulesets (D38, D41, D43), in exact arithmetic.

Each side has a nominal life L0 (D38, calibrated by D43): its ruleset's ``life_scale`` times
the core life the side starts with (``config.RULESETS``), rounded half up, at least 1. A host
counts a defender's proxy life in its game's stand-in unit U (``unit``): a defender of core
life x and nominal life L0 is P = x · U / L0, rounded half up with a floor of 1; damage goes
back to the guest as d · L0 / U, rounded up. A base proxy counts ``base`` successful attacks
per base life. Only integers and ``Fraction`` are used: no floating point.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor
from typing import Final

from deckgym.envs.amalogs.config import RULESETS

#: D41: a strike's value S is counted in units of a nominal life of 20.
STRIKE_UNIT: Final = 20


def nominal_of(slot: int, start_life: int) -> int:
    """D43: a side's L0, ``max(1, floor(life_scale · start_life + 1/2))``."""
    return max(1, floor(RULESETS[slot].life_scale * start_life + Fraction(1, 2)))


def host_units(slot: int) -> Fraction:
    """D43: the stand-in unit U of a host of ``slot``: the proxy life one point of a defender's L0 is worth."""
    return RULESETS[slot].unit


def base_units(slot: int, life: int) -> int:
    """D43: the base proxy's life P for a host of ``slot``: the successful attacks that take ``life`` base life."""
    return max(1, ceil(life * RULESETS[slot].base))


def base_lost(slot: int, attacks: int) -> int:
    """D43: the base life that ``attacks`` successful attacks of a host of ``slot`` take, rounded down."""
    return floor(attacks / RULESETS[slot].base)


def to_host(life: int, host_l0: Fraction | int, guest_l0: int) -> int:
    """D38: P = max(1, floor(x · L0_host / L0_guest + 1/2)) for a defender of core life ``life``."""
    return max(1, floor(life * Fraction(host_l0) / guest_l0 + Fraction(1, 2)))


def to_guest(damage: int, host_l0: Fraction | int, guest_l0: int) -> int:
    """D38: the core life a defender loses for proxy damage ``damage``: ceil(d · L0_guest / L0_host), 0 for 0."""
    if damage <= 0:
        return 0
    return ceil(damage * guest_l0 / Fraction(host_l0))


def strike_loss(strike: int, guest_l0: int) -> int:
    """D41: the core life a struck guest loses: ceil(S · L0_guest / 20)."""
    return to_guest(strike, STRIKE_UNIT, guest_l0)

"""The stand-in at seat 1 of an AMALOGS table (``docs/rules/amalogs.md`` D37, D40).

A core-game table of the AMALOGS meta-game may seat a *proxy* instead of a second player: a
life counter P and nothing else. Every step the host's rules give to seat 1 is skipped as for
a vacant seat; the host's attacks (and, for a guest proxy, its effects that damage the
opponent) may target the proxy. A ruleset's table config carries the kind (``proxy``) and its
state carries P; the arithmetic that every ruleset shares is here.

* ``GUEST`` (D37): the defender of another player. An attack lowers P by its hit, an effect
  that damages the opponent lowers P by its amount. P reaching 0 ends the table at once with
  seat 1 as the loser.
* ``BASE`` (D40): the enemy team's base. An attack whose hit is at least 1 lowers P by exactly
  1 ("1 base life per successful attack"); effects never change it. P reaching 0 ends the table
  at once (the meta-game ends there).

P never rises and never drops below 0; damage beyond what is left is lost.
"""

from __future__ import annotations

from typing import Final, NamedTuple

#: No proxy: seat 1 holds a player or is vacant.
NONE: Final = 0
#: A guest proxy (D37): a defender of another ruleset.
GUEST: Final = 1
#: A base proxy (D40): the enemy team's base.
BASE: Final = 2
#: Names of the kinds, by value (the ``proxy`` field of the meta-game's ``duel`` event).
KINDS: Final[tuple[str, ...]] = ("none", "guest", "base")


class Proxy(NamedTuple):
    """What sits at seat 1 of a table to compose: the proxy's kind and its life P at composition."""

    kind: int
    life: int


#: No proxy at seat 1 (its life is not used).
NO_PROXY: Final = Proxy(NONE, 0)


def after_attack(life: int, hit: int, kind: int) -> int:
    """P after an attack on the proxy whose hit is ``hit`` (D37: lowers P by the hit; D40: by 1 if the hit is at least 1)."""
    if kind == NONE:
        raise ValueError("after_attack: the table has no proxy at seat 1")
    if hit < 1:
        return life
    return max(0, life - (1 if kind == BASE else hit))


def after_effect(life: int, amount: int, kind: int) -> int:
    """P after an effect that damages the opponent by ``amount`` (D37: a guest proxy only; D40: never a base)."""
    if kind == NONE:
        raise ValueError("after_effect: the table has no proxy at seat 1")
    if kind == BASE or amount < 1:
        return life
    return max(0, life - amount)

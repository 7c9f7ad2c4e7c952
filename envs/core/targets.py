"""Target-selector vocabulary shared by card data, legality, effects and encoding.

Selectors are written as strings in card data (``target = "ONE_ENEMY"``). The same
selector decides which targets are legal, whether a choice decision is needed, and how
many target slots the action encoding reserves, so the three cannot drift apart.
"""

from __future__ import annotations

import enum


class Target(enum.IntEnum):
    """Who an effect applies to, seen from the effect's user."""

    SELF = 0
    ACTING = 1
    ATTACKED = 2
    ATTACKER = 3
    ONE_ALLY = 4
    ONE_ENEMY = 5
    ALL_ALLIES = 6
    ALL_ENEMIES = 7
    OWNER = 8
    OPPONENT = 9


#: Selectors that pick units on the board.
UNIT_TARGETS = frozenset(
    {
        Target.SELF,
        Target.ACTING,
        Target.ATTACKED,
        Target.ATTACKER,
        Target.ONE_ALLY,
        Target.ONE_ENEMY,
        Target.ALL_ALLIES,
        Target.ALL_ENEMIES,
    }
)
#: Selectors that pick a player.
PLAYER_TARGETS = frozenset({Target.OWNER, Target.OPPONENT})
#: Selectors that need a decision by the user (one unit out of several).
CHOSEN_TARGETS = frozenset({Target.ONE_ALLY, Target.ONE_ENEMY})
#: Selectors that only exist while an attack is under way.
ATTACK_TARGETS = frozenset({Target.ATTACKED, Target.ATTACKER})


def parse_target(name: str) -> Target:
    """Turn a selector string of card data into a ``Target``; ``KeyError`` names unknown ones."""
    try:
        return Target[name]
    except KeyError:
        raise KeyError(f"unknown target {name!r} (known: {', '.join(t.name for t in Target)})") from None

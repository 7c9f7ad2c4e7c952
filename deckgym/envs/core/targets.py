"""Target selectors: the shared unit-and-player vocabulary, and parsing of any ruleset's own.

Selectors are written as strings in card data (``target = "ONE_ENEMY"``). The same
selector decides which targets are legal, whether a choice decision is needed, and how
many target slots the action encoding reserves, so the three cannot drift apart.

:class:`Target` is the default vocabulary. A ruleset whose cards pick other things (parts,
masters, the card that triggered a counter) declares its own enum of selectors and gives it
to its :class:`~envs.core.effects.OpRegistry` and to :func:`parse_target`.
"""

from __future__ import annotations

import enum
from typing import Any, Final, TypeVar, overload

#: A ruleset's selector vocabulary: the members of one enum.
SelectorT = TypeVar("SelectorT", bound=enum.Enum)


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
UNIT_TARGETS: Final = frozenset(
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
PLAYER_TARGETS: Final = frozenset({Target.OWNER, Target.OPPONENT})
#: Selectors that need a decision by the user (one unit out of several).
CHOSEN_TARGETS: Final = frozenset({Target.ONE_ALLY, Target.ONE_ENEMY})
#: Selectors that only exist while an attack is under way.
ATTACK_TARGETS: Final = frozenset({Target.ATTACKED, Target.ATTACKER})


@overload
def parse_target(name: str) -> Target: ...


@overload
def parse_target(name: str, selectors: type[SelectorT]) -> SelectorT: ...


def parse_target(name: str, selectors: type[Any] = Target) -> Any:
    """Turn a selector string of card data into a member of ``selectors``.

    Args:
        name: the selector as written in card data.
        selectors: the ruleset's selector enum (default: the shared ``Target``).

    Returns:
        The member named ``name``.

    Raises:
        KeyError: ``name`` is not a selector; the message lists the known ones.
    """
    try:
        return selectors[name]
    except KeyError:
        known = ", ".join(t.name for t in selectors)
        raise KeyError(f"unknown target {name!r} (known: {known})") from None

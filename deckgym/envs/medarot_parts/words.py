"""Names for people: how the event log, the move sentences and the boards call medarots and parts.

A medarot is called after its medal ("the Ember medarot" for the Ember Medal; a side whose two
medals share a name gets "Ember medarot 1" and "Ember medarot 2"); a part by its card name and
where it sits ("Thunder Bore (right arm of P0's Ember medarot)"). Players are ``P0`` and ``P1``
in the log, which every seat reads alike.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core import proxy
from deckgym.envs.medarot_parts.cards import ENERGY_KINDS, SLOT_WORDS
from deckgym.envs.medarot_parts.state import GameState

#: Energy kind names as their cards are called ("Shooting Energy"...), by kind index.
ENERGY_NAMES: Final[tuple[str, ...]] = ("Shooting Energy", "Melee Energy", "Defense Energy", "Support Energy")
assert len(ENERGY_NAMES) == len(ENERGY_KINDS)


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def proxy_name(st: GameState) -> str:
    """What seat 1 of an AMALOGS proxy table is (D37, D40): ``the defender's stand-in`` or ``the enemy base``."""
    return "the enemy base" if st.config.proxy == proxy.BASE else "the defender's stand-in"


def medarot_label(st: GameState, p: int, m: int) -> str:
    """``"Ember medarot"``: player ``p``'s medarot ``m`` named after its medal (no article, no owner).

    The proxy of an AMALOGS table (seat 1's only medarot, no medal) is the ``stand-in medarot``.
    """
    if p == 1 and st.config.proxy and not st.field[1]:
        return "stand-in medarot"
    row = st.field[p]
    name = st.cards[row[m].medal].name
    base = name.removesuffix(" Medal")
    same = [i for i, med in enumerate(row) if st.cards[med.medal].name == name]
    return f"{base} medarot" if len(same) < 2 else f"{base} medarot {m + 1}"


def medarot_of(st: GameState, p: int, m: int) -> str:
    """``"P0's Ember medarot"`` (for the log)."""
    return f"P{p}'s {medarot_label(st, p, m)}"


def part_name(st: GameState, p: int, m: int, s: int) -> str:
    """The card name of the part in slot ``s`` of ``p``'s medarot ``m``."""
    return st.cards[st.field[p][m].parts[s].card].name


def part_of(st: GameState, p: int, m: int, s: int) -> str:
    """``"Thunder Bore (right arm of P0's Ember medarot)"`` (for the log)."""
    return f"{part_name(st, p, m, s)} ({SLOT_WORDS[s]} of {medarot_of(st, p, m)})"

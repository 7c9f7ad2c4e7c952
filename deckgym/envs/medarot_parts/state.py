"""The game state of the Medarot parts game: zones, medarots, modifiers and the control agenda.

The state is plain data. Control flow is an *agenda*: a stack of small tasks
(``[name, *int_args]``) that the rules pop and run until one of them sets a decision point
(``decision_point``). Because the agenda is data, any position, even one in the middle of a battle, can be
cloned, written to JSON and read back exactly.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from deckgym.envs.core.declare import Frozen, Record, Row, renamed, seats
from deckgym.envs.core.state import CardGameState, card_game_constants
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.cards import CardDef, load_pool
from deckgym.envs.medarot_parts.config import make_config

#: Modifier fields (``GameState.mods`` rows): stat 0 power / 1 charge, signed amount, the part uid it
#: follows (-1: bound to slots instead), the bound slots (player, medarot, slot bit mask), how long it
#: lasts and the uid of the part whose card carries it (CARD duration).
STAT_POWER, STAT_CHARGE = 0, 1
UNTIL_BATTLE, UNTIL_TURN, UNTIL_CARD = 0, 1, 2


@dataclass
class Part(Record):
    """A part card on the field and its state (4.2): tapped, destroyed, counters, attached cards."""

    uid: int
    card: str
    tapped: bool = False
    destroyed: bool = False
    counters: int = 0
    effect: str | None = None
    attached: list[str] = dataclasses.field(default_factory=list)


@dataclass
class Medarot(Record):
    """A medal and its four parts (head, right arm, left arm, legs)."""

    medal: str
    parts: list[Part]
    medal_tapped: bool = False

    @property
    def stopped(self) -> bool:
        """A medarot whose head is destroyed is stopped (D33)."""
        return self.parts[0].destroyed

    def cards(self) -> list[str]:
        """Every card this medarot holds: its medal, its parts, their effect and attached cards."""
        out = [self.medal]
        for part in self.parts:
            out.append(part.card)
            if part.effect is not None:
                out.append(part.effect)
            out += part.attached
        return out


@dataclass
class Battle(Record):
    """The battle under way (steps B1-B9).

    Attributes:
        amount: the charge paid for the protect part.
        attacker: the attacking player (A).
        damage: the current damage (B4 onwards).
        dealt: the damage allocated to the defending medarot (block shock excluded).
        defender: the defending medarot of B (-1 before B5).
        medarot: A's action medarot.
        no_evade: NO_EVADE applies in this battle.
        protect: the protect part's slot (-1 none).
        response: -1 not chosen, 0 nothing, 1 evade, 2 protect.
        slot: the attack part's slot; ``uid`` its part uid.
    """

    amount: int = 0
    attacker: int = 0
    damage: int = 0
    dealt: int = 0
    defender: int = -1
    medarot: int = 0
    no_evade: bool = False
    protect: int = -1
    response: int = -1
    slot: int = 0
    uid: int = 0


@dataclass(eq=False, init=False, repr=False)
class GameState(CardGameState):
    """A Medarot parts position. See ``envs.medarot_parts.rules`` for the rules that move it.

    Public methods follow the engine protocol of ``envs.core.protocol``. Seat-indexed lists
    hold one entry per player. ``hand[p]`` is kept in canonical order (sorted by card id, D40).
    ``stock[p]`` is the energy stock as ``[card id, tapped]`` rows; ``play[p]`` the play area.

    On an AMALOGS proxy table (``config.proxy``, D37, D40) seat 1's field stays empty: the
    stand-in medarot is ``proxy_armor`` (P0, the armor of its only part, a head) and
    ``proxy_life`` (P = P0 - the counters on that head; 0 once it is destroyed). Both are 0
    on every other table.
    """

    turn: int = 0
    round: int = 0
    #: the player with priority on odd turns (D5)
    odd_turn_priority: int = renamed("prio1", 0)
    priority: int = 0
    first: int = -1
    to_act: int = -1
    passes: int = 0
    #: action medarot of each player this round (-1: none)
    action_medarot: list[int] = seats(-1, was="am")
    field: list[list[Medarot]] = seats([])
    trash: list[list[str]] = seats([])
    stock: list[list[Row]] = seats([])
    play: list[list[str]] = seats([])
    assets: list[int] = seats(0)
    #: modifier rows ``[stat, amount, part uid, player, medarot, slot mask, duration, card uid]``
    mods: list[list[int]] = dataclasses.field(default_factory=list)
    battle: Battle | None = None
    #: ``[payer, needed EP, paid EP, medal player, medal index, efficient kind]``
    pay: list[int] | None = None
    #: ``[player, card id, source slot (-1 a card), targets [[i, s], ...]]``
    use: list[Any] | None = None
    agenda: list[list[Frozen]] = dataclasses.field(default_factory=list)
    next_uid: int = 1
    steps: int = 0
    proxy_armor: int = dataclasses.field(default=0, metadata={"optional": True})
    proxy_life: int = dataclasses.field(default=0, metadata={"optional": True})

    # ----------------------------------------------------------------- lookups
    def card(self, cid: str) -> CardDef:
        """The definition of card ``cid``."""
        return self.cards[cid]

    def resample_hidden(self, seat: int, rng: random.Random) -> GameState:
        """A state equally likely from ``seat``'s view: the opponent's hand and both deck orders redrawn.

        Public facts are kept: every card on the field, in stocks, play areas and trashes, and
        the size of each hand and deck. ``seat``'s own deck keeps its contents (it knows its list).
        A proxy's life is public and kept.
        """
        s = self._resample_start(seat, rng)
        o = 1 - seat
        unseen = s.deck[o] + s.hand[o]
        rng.shuffle(unseen)
        s._redeal(o, unseen)
        s.hand[o].sort()
        return s


card_game_constants(GameState, "medarot_parts", DP, make_config, load_pool, ("turn", "round"))

"""The game state of Master of the World: zones, masters, the chain and the control agenda.

The state is plain data. Control flow is an *agenda*: a stack of small tasks
(``[name, *args]`` with JSON-safe, never-mutated arguments) that the rules pop and run
until one of them sets a decision point (``decision_point``). Because the agenda is data, any
position, even one in the middle of a counter chain, can be cloned, written to JSON and
read back exactly.

Card references: zones hold card ids. Cards on the field (monsters, weapons, face-down
spells) carry a ``uid``; an effect's target is a uid, or ``-1 - p`` for player p's master.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any, Final

from deckgym.envs.core.declare import Frozen, Record, Row, renamed, seats
from deckgym.envs.core.state import CardGameState, card_game_constants
from deckgym.envs.mow.actions import DP
from deckgym.envs.mow.cards import SPELL, load_pool
from deckgym.envs.mow.config import LIFE_START, make_config

#: Modifier durations (BUFF, 4.7).
TURN, PERMANENT = 0, 1

#: The proxy at seat 1 of an AMALOGS table in words, by kind (``RulesConfig.proxy``: 1 guest, 2 base).
STAND_IN: Final = {1: "the defender's stand-in", 2: "the enemy base"}


def master_ref(p: int) -> int:
    """Target reference of player ``p``'s master."""
    return -1 - p


@dataclass
class Monster(Record):
    """A monster on the field (4.3): damage, modifiers ``[d_atk, d_tough, duration]``, entry turn."""

    uid: int
    card: str
    entered: int
    damage: int = 0
    mods: list[list[int]] = dataclasses.field(default_factory=list)
    attacked: bool = False


@dataclass(eq=False, init=False, repr=False)
class GameState(CardGameState):
    """A Master of the World position. See ``envs.mow.rules`` for the rules that move it.

    Public methods follow the engine protocol of ``envs.core.protocol``. Per-player lists
    are indexed by seat. ``weapon[p]`` is ``[card, uid]`` or None; ``spell[p]`` is
    ``[card, cast_turn, uid]`` or None; a chain entry is
    ``[user, use_kind, card, uid, negated, in_chain_area, ability]``.
    """

    turn: int = renamed("t", 0)
    active: int = 0
    first: int = 0
    phase: int = 0
    masters: list[str] = seats("")
    life: list[int] = seats(LIFE_START)
    level: list[int] = seats(0)
    exp: list[list[str]] = seats([])
    discard: list[list[str]] = seats([])
    monsters: list[list[Monster]] = seats([])
    weapon: list[Row | None] = seats(None)
    spell: list[Row | None] = seats(None)
    setaside: list[str | None] = seats(None)
    master_mods: list[list[list[int]]] = seats([])
    master_attacked: list[bool] = seats(False)
    fast_used: list[bool] = seats(False)
    charges: int = 0
    turn_uses: list[dict[str, int]] = seats({})
    chain: list[Row] = dataclasses.field(default_factory=list)
    triggers: list[Row] = dataclasses.field(default_factory=list)
    agenda: list[Frozen] = dataclasses.field(default_factory=list)
    pending: Frozen = None
    decisions: int = 0
    next_uid: int = 1

    @classmethod
    def _upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A dict of an earlier release in the current form.

        A decision point written as ``[kind, player]`` (before every card game's had a
        context) reads as ``[kind, player, []]``.
        """
        for key in ("decision_point", "dp"):
            point = data.get(key)
            if isinstance(point, list) and len(point) == 2:
                data = {**data, key: [*point, []]}
        return data

    # ----------------------------------------------------------------- lookups
    def seats(self) -> tuple[int, ...]:
        """The seats that hold a player (a vacant seat 1 holds no cards, no master)."""
        return (0,) if self.config.vacant_seat else (0, 1)

    def is_proxy(self, p: int) -> bool:
        """Whether seat ``p`` holds the proxy of an AMALOGS table (seat 1 with ``config.proxy``).

        The proxy is a master with life ``life[1]`` (P), attack and guard 0, and no card, level,
        experience or zones; seat 1 is otherwise vacant (``seats()`` leaves it out).
        """
        return p == 1 and self.config.proxy != 0

    def stand_in(self) -> str:
        """The proxy in words: the defender's stand-in (guest) or the enemy base (base)."""
        return STAND_IN[self.config.proxy]

    def name(self, cid: str) -> str:
        """Printed name of a card id."""
        return self.cards[cid].name

    def resample_hidden(self, seat: int, rng: random.Random) -> GameState:
        """A state equally likely from ``seat``'s view: what ``seat`` cannot see is redrawn.

        ``seat``'s own deck is reshuffled; the opponent's hand, deck and face-down spell
        (and its cast entry on the chain) are redealt from the same multiset, keeping every
        count and the public fact that the slot holds a spell its master may cast. The
        future random stream is reseeded.
        """
        s = self._resample_start(seat, rng)
        o = 1 - seat
        hidden = s.deck[o] + s.hand[o]
        slot = s.spell[o]
        if slot is not None:
            hidden.append(slot[0])
        rng.shuffle(hidden)
        if slot is not None:
            banned = self.cards[s.masters[o]].restrictions
            i = next(
                i
                for i, c in enumerate(hidden)
                if self.cards[c].kind == SPELL and self.cards[c].cls not in banned
            )
            card = hidden.pop(i)
            s.spell[o] = [card, slot[1], slot[2]]
            for e in s.chain:
                if e[3] == slot[2]:
                    e[2] = card
        s._redeal(o, hidden)
        return s


card_game_constants(GameState, "mow", DP, make_config, load_pool, ("turn", "life", "level"), event_cap=300)

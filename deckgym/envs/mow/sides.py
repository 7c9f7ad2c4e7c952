"""One player's half of a Master of the World game, and two-seat tables composed from such halves.

The AMALOGS meta-game (``docs/rules/amalogs.md`` D19-D23, D31) keeps every player's core
game as a persistent *side*: its master, life, level, deck, hand, experience, discard pile,
monsters, weapon, face-down spell, modifiers and per-player turn flags. A duel is one turn
of the ordinary engine on a *table*, a real ``GameState`` composed from the host's side at
seat 0 (the active player) and the champion's side (or a vacant seat) at seat 1; the
unchanged rules run that turn, and the table is split back into sides.

Conventions:

* Turn numbers come from the meta-game's match-wide counter (A3): a table of core turn ``t``
  has ``st.turn == t`` and its turn cap is ``t``, so the unchanged end step stops it
  ("truncated") when the turn is over. Summoning sickness (``entered >= t``) and spell
  readiness (``t > cast_turn``) compare those numbers across tables. The master-attack bar
  of the game's first turn (``config.first_turn``) is set on every solo first turn and on
  no table.
* Field cards are numbered in a side ``1..n``: monsters in field order, then the weapon,
  then the face-down spell. The champion's numbers are shifted past the host's on a table.
* A6: what the rules store on a card (damage, PERMANENT modifiers of a monster or master)
  stays with that card's side; TURN modifiers end with the turn. Static effects are
  computed from the cards on the table, so those aimed at the other side end at the split.
* Proxy (amalogs D37, D40): seat 1 may hold a *proxy* instead, a guest proxy (the defender
  of another player) or a base proxy (the enemy base): a master with life P (``st.life[1]``,
  not capped at 20), attack and guard 0, and nothing else. The table is a vacant-seat table
  (``config.vacant_seat``) whose ``config.proxy`` is the kind; the host's ready monsters and
  master attack the proxy master with the ordinary actions. P reaching 0 ends the table at
  once with seat 1 as the loser. The nominal life L0 of Master of the World is 20 (D38).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from dataclasses import dataclass
from typing import Final

from deckgym.envs.core.declare import Record, Row
from deckgym.envs.core.proxy import BASE, GUEST, NO_PROXY, NONE, Proxy
from deckgym.envs.core.tables import seat_sides, table_decks
from deckgym.envs.mow.actions import Use
from deckgym.envs.mow.cards import CardPool, load_pool
from deckgym.envs.mow.config import LIFE_START, RulesConfig
from deckgym.envs.mow.rules import phases
from deckgym.envs.mow.rules.flow import run
from deckgym.envs.mow.state import TURN, GameState, Monster

#: A table never stops on the engine's own decision cap (the meta-game has its own, D32).
_NO_DECISION_CAP: Final = 1 << 40


@dataclass(init=False, repr=False)
class Side(Record):
    """One player's Master of the World game between duels (D19).

    Its fields are one seat's part of ``GameState`` (the same names and types) and the deck
    list; ``copy`` (or ``clone``), ``to_dict`` and ``from_dict`` come from the declaration.
    """

    decklist: list[str]
    master: str
    life: int
    level: int
    deck: list[str]
    hand: list[str]
    exp: list[str]
    discard: list[str]
    monsters: list[Monster]
    weapon: Row | None
    spell: Row | None
    master_mods: list[list[int]]
    master_attacked: bool
    fast_used: bool
    turn_uses: dict[str, int]

    def __init__(self, decklist: list[str] | None = None) -> None:
        """A side at the start of its first duel (a blank one without a deck list, for a copy)."""
        if decklist is None:
            return
        self.decklist = list(decklist)
        self.master = ""
        self.life = LIFE_START
        self.level = 0
        self.deck = []
        self.hand = []
        self.exp = []
        self.discard = []
        self.monsters = []
        self.weapon = None
        self.spell = None
        self.master_mods = []
        self.master_attacked = False
        self.fast_used = False
        self.turn_uses = {}

    def cards(self) -> list[str]:
        """Every card id this side holds, in any zone (card conservation, I9)."""
        out = [self.master, *self.deck, *self.hand, *self.exp, *self.discard]
        out += [m.card for m in self.monsters]
        if self.weapon is not None:
            out.append(self.weapon[0])
        if self.spell is not None:
            out.append(self.spell[0])
        return out

    def units(self) -> int:
        """Number of its monsters on the field."""
        return len(self.monsters)


Side.JSON_FORM = "dict"


# ----------------------------------------------------------------------------- configs
@functools.cache
def table_config(turn: int, vacant: bool, solo: bool, proxy: int = NONE) -> RulesConfig:
    """Config of a one-turn table: turn cap ``turn``, no decision cap, host first, optional vacant seat 1.

    ``solo``: the turn is the side's first turn (its master cannot attack); a table never is.
    ``proxy``: the kind of proxy at the vacant seat 1 (``envs.core.proxy``: NONE, GUEST, BASE).
    """
    if proxy not in (NONE, GUEST, BASE) or (proxy != NONE and not vacant):
        raise ValueError(f"table_config: proxy {proxy!r} needs a vacant seat 1 and a kind 0, 1 or 2")
    return dataclasses.replace(
        RulesConfig(),
        max_turns=turn,
        max_decisions_per_turn=_NO_DECISION_CAP,
        first_player=0,
        first_turn=turn if solo else 0,
        vacant_seat=vacant,
        proxy=proxy,
    )


@functools.cache
def pool() -> CardPool:
    """The packaged card pool (loaded once)."""
    return load_pool()


# ----------------------------------------------------------------------------- A1, A2
def new_side(decklist: list[str]) -> Side:
    """A1: a new side with ``decklist`` (validated by the caller), before its opening."""
    return Side(decklist)


def solo_table(side: Side, rng: random.Random, turn: int) -> GameState:
    """A2, D30: the opening (shuffle, 5 cards) and the first player's first turn with seat 1 vacant.

    The turn is numbered ``turn`` (A3); it is the game's first turn (no master attack). Run to
    its first decision.
    """
    st = GameState(table_config(turn, True, True), pool(), table_decks(side, None), 0)
    st.rng = rng
    st.life = [side.life, 0]
    phases.setup(st)
    st.turn = turn
    run(st)
    return st


# ----------------------------------------------------------------------------- A3 compose
def compose(
    host: Side, champion: Side | None, rng: random.Random, turn: int, proxy: Proxy = NO_PROXY
) -> GameState:
    """A3: a table of core turn ``turn``: ``host`` at seat 0 (active, first) and ``champion`` or a vacant seat 1.

    With ``proxy.kind`` GUEST or BASE (amalogs D36, D37, D40) ``champion`` must be None and
    seat 1 holds a proxy master of life ``proxy.life`` (an int >= 1; not capped at 20); without
    a proxy ``proxy.life`` is not used. The table is set at the start step; ``run`` plays it to
    its first decision. Nothing is drawn from ``rng`` here. The AMALOGS adapter
    (``SidesCore.compose``) checks the proxy arguments before it calls this.
    """
    st = GameState(
        table_config(turn, champion is None, False, proxy.kind), pool(), table_decks(host, champion), 0
    )
    st.rng = rng
    st.turn = turn
    st.active = st.first = 0
    st.life = [host.life, proxy.life if proxy.kind != NONE else 0]
    return seat_sides(st, host, champion, _seat_side, "turn_start")


def _seat_side(st: GameState, side: Side, seat: int, offset: int) -> int:
    """Put ``side`` at ``seat`` with its field numbers shifted by ``offset``; the last number used."""
    st.masters[seat] = side.master
    st.life[seat] = side.life
    st.level[seat] = side.level
    st.deck[seat] = list(side.deck)
    st.hand[seat] = list(side.hand)
    st.exp[seat] = list(side.exp)
    st.discard[seat] = list(side.discard)
    st.master_mods[seat] = [list(x) for x in side.master_mods]
    st.master_attacked[seat] = side.master_attacked
    st.fast_used[seat] = side.fast_used
    st.turn_uses[seat] = dict(side.turn_uses)
    last = offset
    for m in side.monsters:
        n = m.copy()
        n.uid += offset
        last = max(last, n.uid)
        st.monsters[seat].append(n)
    if side.weapon is not None:
        st.weapon[seat] = [side.weapon[0], side.weapon[1] + offset]
        last = max(last, side.weapon[1] + offset)
    if side.spell is not None:
        st.spell[seat] = [side.spell[0], side.spell[1], side.spell[2] + offset]
        last = max(last, side.spell[2] + offset)
    return last


# ----------------------------------------------------------------------------- D37, D38, A6
def stored_proxy_life(st: GameState) -> int:
    """D37, D40: the life P of a proxy at seat 1, which the table keeps as seat 1's life."""
    return int(st.life[1])


def nominal_life(side: Side) -> int:
    """D38: the nominal life L0 of Master of the World, 20 for every side (the starting life)."""
    return LIFE_START


def _keep(mods: list[list[int]]) -> list[list[int]]:
    """Modifiers that outlast the turn (PERMANENT); TURN ones end with it (D46)."""
    return [list(x) for x in mods if x[2] != TURN]


def side_of(st: GameState, seat: int) -> Side:
    """The side at ``seat`` of a table, renumbered ``1..n`` (A6).

    A card still in use when the table ended early (set aside, or an activated spell in the
    chain area) goes to its owner's discard pile, so no card is lost.
    """
    side = Side(st.decks[seat])
    side.master = st.masters[seat]
    side.life = st.life[seat]
    side.level = st.level[seat]
    side.deck = list(st.deck[seat])
    side.hand = list(st.hand[seat])
    side.exp = list(st.exp[seat])
    side.discard = list(st.discard[seat])
    if st.setaside[seat] is not None:
        side.discard.append(st.setaside[seat])  # type: ignore[arg-type]
    for user, kind, card, _uid, _neg, here, _ai in st.chain:
        if user == seat and kind == Use.ACTIVATE and here:
            side.discard.append(card)
    side.master_mods = _keep(st.master_mods[seat])
    side.master_attacked = st.master_attacked[seat]
    side.fast_used = st.fast_used[seat]
    side.turn_uses = dict(st.turn_uses[seat])
    n = 0
    for m in st.monsters[seat]:
        n += 1
        side.monsters.append(Monster(n, m.card, m.entered, m.damage, _keep(m.mods), m.attacked))
    w = st.weapon[seat]
    if w is not None:
        n += 1
        side.weapon = [w[0], n]
    s = st.spell[seat]
    if s is not None:
        n += 1
        side.spell = [s[0], s[1], n]
    return side


# ----------------------------------------------------------------------------- A7, A8
def lose_core_life(side: Side, n: int) -> bool:
    """A7: the master loses ``n`` life, without decisions; True if life is now 0 or less (a loss)."""
    if n > 0:
        side.life -= n
    return side.life <= 0


def summary(side: Side) -> tuple[int, int, int, int]:
    """A8: public summary (master life, hand size, deck size, monsters on the field)."""
    return (side.life, len(side.hand), len(side.deck), side.units())

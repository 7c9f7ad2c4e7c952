"""One player's half of a Medarot parts game, and two-seat tables composed from such halves.

The AMALOGS meta-game (``docs/rules/amalogs.md`` D19-D23, D31) keeps every player's core
game as a persistent *side*: its deck, hand, trash, energy stock, play area, assets, its two
medarots (medals, parts, counters, attached cards) and the modifiers that affect only them.
A duel is one turn of the ordinary engine on a *table*, a real ``GameState`` composed from the
host's side at seat 0 and the champion's side (or a vacant seat) at seat 1; the unchanged
rules run that turn (the host has priority), and the table is split back into sides.

Conventions of a side:

* It is stored as player 0: slot-bound modifiers name player 0; part uids are ``1..8`` in
  field order (medarot, then head, right arm, left arm, legs), and modifiers name those uids.
* Its deck list (``decklist``) is ``[medarot 1 starter, medarot 2 starter, deck]`` as the
  engine's ``GameState.decks`` rows; the flat form used by AMALOGS (``flat_deck``) is the
  two 5-card starters followed by the 40 deck cards.
* A table is a one-turn game: it starts at the reset phase of turn ``t`` and its turn cap is
  ``t``, so the unchanged end of turn stops it ("truncated") when the turn is over.
* Its nominal life L0 (D38, ``nominal_life``) is the sum of its two starter heads' armor
  (7, 6 and 9 with the three packaged starter sets), fixed for the side's life.

A *proxy table* (D37, D40) seats at seat 1 a stand-in for the defender (a guest proxy) or for
the enemy base (a base proxy): one medarot with only a head of armor P0 = P at composition, no
legs, medal, energy or cards. It is a vacant-seat table whose ``config.proxy`` is set; the
stand-in is ``GameState.proxy_armor`` (P0) and ``proxy_life`` (P). The host's attacks hit it
(``rules.damage.hit_proxy``): a guest loses the damage, a base 1 per attack dealing at least 1.
P reaching 0 ends the table at once with seat 1 the loser. No effect of this ruleset damages
the opponent without an attack (DAMAGE only lowers a battle's damage), so no effect lowers P.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from dataclasses import dataclass
from typing import Any, Final

from deckgym.envs.core import proxy as proxy_kinds
from deckgym.envs.core.declare import Record, Row
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.proxy import NO_PROXY, Proxy
from deckgym.envs.core.tables import seat_sides, solo_start, table_decks
from deckgym.envs.medarot_parts.cards import HEAD, TURN, CardPool, Target, load_pool
from deckgym.envs.medarot_parts.config import RulesConfig
from deckgym.envs.medarot_parts.rules import damage, phases
from deckgym.envs.medarot_parts.rules.flow import AGENDA, run  # noqa: F401  (run: the adapter's hook)
from deckgym.envs.medarot_parts.state import UNTIL_BATTLE, GameState, Medarot, Part

#: A table never stops on the engine's own decision cap (the meta-game has its own, D32).
_NO_STEP_CAP: Final = 1 << 40
#: Slot mask of an OWN_MEDAROT modifier (head and both arms, ``rules.effects._modify``); an
#: OPP_SLOT modifier binds one slot of an opposing medarot, so its mask has a single bit.
OWN_MEDAROT_MASK: Final = 0b0111


@dataclass(init=False, repr=False)
class Side(Record):
    """One player's core game between duels (D19), stored as player 0.

    Its fields are one seat's part of ``GameState`` (the same names and types), plus the
    deck list and ``nominal``; ``copy`` (``clone``) and ``to_dict`` come from the declaration.
    """

    decklist: list[list[str]]
    deck: list[str]
    hand: list[str]
    trash: list[str]
    stock: list[Row]
    play: list[str]
    assets: int
    field: list[Medarot]
    mods: list[list[int]]
    #: L0 (D38): the armor of the two starter heads, fixed for the side's life.
    nominal: int

    def __init__(self, decklist: list[list[str]] | None = None) -> None:
        """A side at the start of its first duel (a blank one without a deck list, for a copy)."""
        if decklist is None:
            return
        self.decklist = decklist
        self.deck = list(decklist[2])
        self.hand = []
        self.trash = []
        self.stock = []
        self.play = []
        self.assets = 0
        self.field = []
        self.mods = []
        self.nominal = starter_life(decklist)

    @classmethod
    def from_dict(cls, values: Any, path: str = "") -> Any:
        """Inverse of ``to_dict`` (a dict without ``nominal``, written before D38, gets the starters' value)."""
        if isinstance(values, dict) and "nominal" not in values:
            try:
                values = {**values, "nominal": starter_life(values["decklist"])}
            except (KeyError, TypeError, IndexError) as exc:
                raise StateError(f"{path or cls.__name__}.decklist: not a parts deck list ({exc})") from exc
        return cls.from_list(values, path)

    def cards(self) -> list[str]:
        """Every card id this side holds, in any zone (card conservation, spec 10.1)."""
        out = self.deck + self.hand + self.trash + self.play + [e[0] for e in self.stock]
        for med in self.field:
            out += med.cards()
        return out

    def units(self) -> int:
        """Number of its non-stopped medarots (A8)."""
        return sum(1 for m in self.field if not m.stopped)

    def life(self) -> int:
        """A8 core life: the remaining armor (armor - counters) of its non-destroyed heads."""
        return head_armor(self.field, pool())


Side.JSON_FORM = "dict"


def head_armor(field: list[Medarot], cards: CardPool) -> int:
    """Sum of the remaining armor of the non-destroyed head parts of ``field``."""
    return sum(
        cards[m.parts[HEAD].card].armor - m.parts[HEAD].counters for m in field if not m.parts[HEAD].destroyed
    )


def starter_life(decklist: list[list[str]]) -> int:
    """L0 of a deck list (D38): the sum of the armor of its starter medarots' heads."""
    cards = pool()
    return sum(cards[row[1 + HEAD]].armor for row in decklist[:2])


def nominal_life(side: Side) -> int:
    """A8, D38: the side's nominal life L0 (the sum of its starter heads' armor, fixed at creation)."""
    return side.nominal


def flat_deck(decklist: list[list[str]]) -> list[str]:
    """The flat form of a deck list: 10 starter ids (medal, head, right arm, left arm, legs twice), then 40."""
    return [c for row in decklist for c in row]


def structured_deck(flat: list[str]) -> list[list[str]]:
    """Inverse of ``flat_deck``."""
    return [list(flat[:5]), list(flat[5:10]), list(flat[10:])]


# ----------------------------------------------------------------------------- configs
@functools.cache
def table_config(turn: int, vacant: bool, proxy: int = proxy_kinds.NONE) -> RulesConfig:
    """Config of a one-turn table: turn cap ``turn``, no decision cap, optional vacant seat 1 or proxy."""
    return dataclasses.replace(
        RulesConfig(), max_turns=turn, max_steps=_NO_STEP_CAP, vacant_seat=vacant or bool(proxy), proxy=proxy
    )


@functools.cache
def pool() -> CardPool:
    """The packaged card pool (loaded once)."""
    return load_pool()


def _priority_on(turn: int) -> int:
    """``odd_turn_priority`` that gives seat 0 (the host) priority on ``turn`` (D5 alternates it by parity)."""
    return 0 if turn % 2 else 1


# ----------------------------------------------------------------------------- A1, A2
def new_side(decklist: list[list[str]]) -> Side:
    """A1: a new side before its opening: starters on the field (unpaid parts priced in), deck unshuffled."""
    side = Side(decklist)
    cards = pool()
    uid = 1
    price = 0
    for medal, *parts in decklist[:2]:
        row = []
        for cid in parts:
            row.append(Part(uid, cid))
            uid += 1
            price += cards[cid].price
        side.field.append(Medarot(medal, row))
    side.assets = RulesConfig().start_assets - price
    return side


def solo_table(side: Side, rng: random.Random, turn: int) -> GameState:
    """A2, D30: the setup (D2-D4) and turn ``turn`` with seat 1 vacant, run to its first decision."""
    st = GameState(table_config(turn, True), pool(), table_decks(side, None), 0)
    return solo_start(st, rng, turn, AGENDA, phases.setup)


# ----------------------------------------------------------------------------- A3 compose
def compose(
    host: Side, champion: Side | None, rng: random.Random, turn: int, proxy: Proxy = NO_PROXY
) -> GameState:
    """A3: a table with ``host`` at seat 0 (priority) and ``champion``, a proxy or a vacant seat at seat 1.

    The table is set at the start of turn ``turn``; ``run`` plays it to its first decision.
    The two sides share nothing on the parts game's field, so nothing conflicts. With
    ``proxy.kind`` ``GUEST`` or ``BASE`` (``envs.core.proxy``; D37, D40) ``champion`` is None
    and seat 1 holds the stand-in medarot: a head of armor ``proxy.life`` (an int >= 1), so
    P = ``proxy.life``. ``proxy.life`` is ignored without a proxy. The AMALOGS adapter
    (``SidesCore.compose``) checks the proxy arguments before it calls this.
    """
    st = GameState(table_config(turn, champion is None, proxy.kind), pool(), table_decks(host, champion), 0)
    if proxy.kind:
        st.proxy_armor = st.proxy_life = proxy.life
    st.rng = rng
    st.turn = turn - 1
    st.odd_turn_priority = _priority_on(turn)
    return seat_sides(st, host, champion, _seat_side, "turn_start")


def _seat_side(st: GameState, side: Side, seat: int, offset: int) -> int:
    """Put ``side``'s zones, medarots and modifiers at ``seat`` (uids shifted by ``offset``); the last uid."""
    st.deck[seat] = list(side.deck)
    st.hand[seat] = list(side.hand)
    st.trash[seat] = list(side.trash)
    st.stock[seat] = [list(e) for e in side.stock]
    st.play[seat] = list(side.play)
    st.assets[seat] = side.assets
    st.field[seat] = [m.copy() for m in side.field]
    top = offset
    for med in st.field[seat]:
        for part in med.parts:
            part.uid += offset
            top = max(top, part.uid)
    for m in side.mods:
        mod = list(m)
        if mod[2] >= 0:
            mod[2] += offset
        if mod[3] >= 0:
            mod[3] = seat
        if mod[7] >= 0:
            mod[7] += offset
        st.mods.append(mod)
    return top


# ----------------------------------------------------------------------------- D37, D38, A6
def stored_proxy_life(st: GameState) -> int:
    """D37, D40: the life P of the proxy at seat 1 (P0 minus the counters on its head; 0 once destroyed)."""
    return st.proxy_life


def side_of(st: GameState, seat: int) -> Side:
    """A6: the updated side at ``seat`` of a table, as player 0, part uids renumbered ``1..n``.

    What one side applies to the other ends, as if its source had left play: OPP_SLOT
    modifiers (effect bindings and TURN-duration modifiers) are dropped, and an effect card
    whose binding points to the other side goes to its owner's trash. Modifiers on a side's
    own parts and slots stay with it. A battle or use cut short by a loss ends too (its
    BATTLE modifiers end, cards on their way go to the trash).
    """
    cards = st.cards
    side = Side(st.decks[seat])  # L0 from the deck list's starter heads, as when the side was created
    side.deck = list(st.deck[seat])
    side.hand = list(st.hand[seat])
    side.trash = list(st.trash[seat])
    side.stock = [list(e) for e in st.stock[seat]]
    side.assets = st.assets[seat]
    for cid in st.play[seat]:
        (side.play if cards[cid].duration == TURN else side.trash).append(cid)
    uids: dict[int, int] = {}
    for med in st.field[seat]:
        copy = med.copy()
        for part in copy.parts:
            uids[part.uid] = part.uid = len(uids) + 1
            if part.effect is not None and _effect_target(st, part.card) == Target.OPP_SLOT:
                side.trash.append(part.effect)
                part.effect = None
        side.field.append(copy)
    for m in st.mods:
        if m[6] == UNTIL_BATTLE:
            continue
        if m[2] >= 0:
            if m[2] not in uids:
                continue
            mod = list(m)
            mod[2] = uids[m[2]]
        elif m[3] == seat and m[5] == OWN_MEDAROT_MASK:
            mod = list(m)
            mod[3] = 0
        else:
            continue  # OPP_SLOT: aimed at the other side, or this side's own slots by the other side
        if mod[7] >= 0:
            if mod[7] not in uids:
                continue
            mod[7] = uids[mod[7]]
        side.mods.append(mod)
    return side


def _effect_target(st: GameState, cid: str) -> Target | None:
    """The target of the EFFECT ability of part ``cid`` (OPP_SLOT always names the opponent, D28)."""
    return next((a.target for a in st.cards[cid].abilities if a.source == "EFFECT"), None)


# ----------------------------------------------------------------------------- A7, A8
def lose_core_life(side: Side, n: int) -> bool:
    """A7: ``n`` damage counters on the head of the side's lowest-index non-stopped medarot.

    No decision is taken. If the counters reach the head's armor it is destroyed by the
    engine's destroyed part processing (R22; the medarot stops, D33); surplus counters are
    discarded. Returns True if the side met its loss condition (all medarots stopped, D34).
    """
    live = [m for m in side.field if not m.stopped]
    if not live:
        return True
    if n <= 0:
        return False
    st = compose(side, None, random.Random(0), 1)
    p, m = 0, side.field.index(live[0])
    head = st.field[p][m].parts[HEAD]
    head.counters += n
    if head.counters >= st.cards[head.card].armor:
        damage.destroy_part(st, p, m, HEAD)
    updated = side_of(st, 0)
    for f in dataclasses.fields(Side):
        if f.name != "nominal":  # L0 is fixed for the side's life (D38)
            setattr(side, f.name, getattr(updated, f.name))
    return all(med.stopped for med in side.field)


def summary(side: Side) -> tuple[int, int, int, int]:
    """A8: public summary (core life, hand size, deck size, non-stopped medarots)."""
    return (side.life(), len(side.hand), len(side.deck), side.units())


def table_summary(st: GameState, seat: int) -> tuple[int, int, int, int]:
    """A8 of the side at ``seat`` of a running table (the proxy: life P, no cards, its one medarot)."""
    if seat == 1 and st.config.proxy:
        return (st.proxy_life, 0, 0, int(st.proxy_life > 0))
    field = st.field[seat]
    units = sum(1 for m in field if not m.stopped)
    return (head_armor(field, st.pool), len(st.hand[seat]), len(st.deck[seat]), units)

"""One player's half of a Medarot OCG game, and two-seat tables composed from such halves.

The AMALOGS meta-game (``docs/rules/amalogs.md`` D19-D23, D31) keeps every player's core
game as a persistent *side*: its deck, hand, stock, master, piles, HP, its Medarots and the
lasting effects it applies to them. A duel is one turn of the ordinary engine on a *table*,
a real ``GameState`` composed from the host's side at seat 0 and the champion's side (or a
vacant seat) at seat 1; the unchanged rules run that turn, and the table is split back into
sides.

Conventions of a side:

* Squares are in the owner's frame (spec 4.2): row' 0 its own row, 1 the neutral row. At
  seat 0 the absolute square is the stored one; at seat 1 it is ``to_relative(s, 1)``.
* Stacks are owned by player 0 and numbered ``1..n`` in square order; effects name their
  user as player 0 and, for player-level or dynamic effects, their scope as player 0.
* A table is a one-turn game: it starts at the start phase of turn ``t`` and its turn cap is
  ``t``, so the unchanged end phase stops it ("truncated") when the turn is over.
* Seat 1 may hold a *proxy* (D36-D40): a life counter P kept as seat 1's HP and nothing else,
  on a vacant-seat table whose config names its kind (``RulesConfig.proxy``). The host's
  Medarots may attack the empty squares of seat 1's row (``rules.board.proxy_targets``); P
  reaching 0 ends the table at once with seat 1 as the loser.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from dataclasses import dataclass
from typing import Final

from deckgym.envs.core import proxy as proxy_kind
from deckgym.envs.core.declare import Record, Row
from deckgym.envs.core.proxy import NO_PROXY, Proxy
from deckgym.envs.core.tables import solo_start, table_decks
from deckgym.envs.medarot_ocg.cards import CardPool, load_pool
from deckgym.envs.medarot_ocg.config import RulesConfig, make_config
from deckgym.envs.medarot_ocg.rules import phases
from deckgym.envs.medarot_ocg.rules.board import to_relative
from deckgym.envs.medarot_ocg.rules.flow import AGENDA, run  # noqa: F401  (run: the adapter's hook)
from deckgym.envs.medarot_ocg.state import Eff, GameState, Slot, Stack

#: A table never stops on the engine's own decision cap (the meta-game has its own, D32).
_NO_STEP_CAP: Final = 1 << 40
#: D38: the nominal life L0 of each mode.
NOMINAL_LIFE: Final = {"beginner": 10, "normal": 20, "advance": 20}


@dataclass(init=False, repr=False)
class Side(Record):
    """One player's core game between duels (D19), stored in its owner's frame.

    Its fields are one seat's part of ``GameState`` (the same names and types); ``copy``
    (``clone``), ``to_dict`` and ``from_dict`` come from the declaration.
    """

    mode: str
    decklist: list[str]
    hp: int
    deck: list[str]
    hand: list[str]
    stock: list[Slot | None]
    master: Slot | None
    master_used: bool
    trash: list[str]
    reserve: list[str]
    board: list[Stack | None]
    effects: list[Eff]
    limbo: Row | None
    failed_draw: bool
    draw_mark: int
    mulligans: int

    def __init__(self, mode: str = "", decklist: list[str] | None = None, hp: int = 0) -> None:
        """A side at the start of its first duel (a blank one without a deck list, for a copy)."""
        if decklist is None:
            return
        self.mode = mode
        self.decklist = list(decklist)
        self.hp = hp
        self.deck = list(decklist)
        self.hand = []
        self.stock = [None, None, None]
        self.master = None
        self.master_used = False
        self.trash = []
        self.reserve = []
        self.board = [None] * 15
        self.effects = []
        self.limbo = None
        self.failed_draw = False
        self.draw_mark = 0
        self.mulligans = 0

    def cards(self) -> list[str]:
        """Every card id this side holds, in any zone (for card conservation, I1)."""
        out = self.deck + self.hand + self.trash + self.reserve
        out += [x.card for x in self.stock if x is not None]
        if self.master is not None:
            out.append(self.master.card)
        for x in self.board:
            if x is not None:
                out.append(x.base)
                if x.change:
                    out.append(x.change)
        if self.limbo is not None:
            out.append(self.limbo[0])
        return out

    def units(self) -> int:
        """Number of its Medarots on the board."""
        return sum(1 for x in self.board if x is not None)


Side.JSON_FORM = "dict"


# ----------------------------------------------------------------------------- configs
@functools.cache
def mode_config(mode: str) -> RulesConfig:
    """The preset of ``mode`` (cached)."""
    return make_config(mode)


@functools.cache
def table_config(mode: str, turn: int, vacant: bool, proxy: int = proxy_kind.NONE) -> RulesConfig:
    """Config of a one-turn table: turn cap ``turn``, no decision cap, optional vacant seat 1 and proxy there."""
    return dataclasses.replace(
        mode_config(mode), max_turns=turn, max_steps=_NO_STEP_CAP, vacant_seat=vacant, proxy=proxy
    )


@functools.cache
def pool() -> CardPool:
    """The packaged card pool (loaded once)."""
    return load_pool()


# ----------------------------------------------------------------------------- A1, A2
def new_side(mode: str, decklist: list[str]) -> Side:
    """A1: a new side of ``mode`` with ``decklist`` (validated by the caller), before its opening."""
    return Side(mode, decklist, mode_config(mode).start_hp)


def solo_table(side: Side, rng: random.Random, turn: int) -> GameState:
    """A2, D30: the opening and the first player's first turn with seat 1 vacant, run to its first decision."""
    st = GameState(table_config(side.mode, turn, True), pool(), table_decks(side, None), 0)
    st.hp = [side.hp, 0]
    return solo_start(st, rng, turn, AGENDA, phases.setup)


# ----------------------------------------------------------------------------- A3 compose
def compose(
    host: Side, champion: Side | None, rng: random.Random, turn: int, proxy: Proxy = NO_PROXY
) -> GameState:
    """A3: a table with ``host`` at seat 0 (first player) and ``champion``, a proxy or a vacant seat at seat 1.

    The table is set at the start of turn ``turn``; ``run`` plays it to its first decision.
    A seat-1 Medarot whose neutral square holds a seat-0 Medarot moves to the own-row square
    of its column if empty, else to the lowest-numbered empty own-row square (its frame).
    With ``proxy.kind`` GUEST or BASE (D37, D40) seat 1 is a vacant seat holding a proxy of life
    ``proxy.life`` (seat 1's HP). The AMALOGS adapter (``SidesCore.compose``) checks the
    proxy arguments before it calls this.
    """
    st = GameState(
        table_config(host.mode, turn, champion is None, proxy.kind), pool(), table_decks(host, champion), 0
    )
    st.rng = rng
    st.turn = turn - 1
    st.first = 0
    st.hp = [host.hp, proxy.life if proxy.kind != proxy_kind.NONE else 0]
    _seat_side(st, host, 0, 0)
    if champion is not None:
        _seat_side(st, champion, 1, host.units())
    st.next_uid = 1 + sum(1 for x in st.board if x is not None)
    st.agenda = [["start_phase"]]
    return st


def _seat_side(st: GameState, side: Side, seat: int, uid_offset: int) -> None:
    """Put ``side``'s zones, Medarots and effects at ``seat`` (uids shifted by ``uid_offset``)."""
    st.hp[seat] = side.hp
    st.deck[seat] = list(side.deck)
    st.hand[seat] = list(side.hand)
    st.stock[seat] = [x.copy() if x else None for x in side.stock]
    st.master[seat] = side.master.copy() if side.master else None
    st.master_used[seat] = side.master_used
    st.trash[seat] = list(side.trash)
    st.reserve[seat] = list(side.reserve)
    st.limbo[seat] = list(side.limbo) if side.limbo else None
    st.failed_draw[seat] = side.failed_draw
    st.draw_mark[seat] = side.draw_mark
    st.mulligans[seat] = side.mulligans
    for s, x in enumerate(side.board):
        if x is None:
            continue
        y = x.copy()
        y.owner = seat
        y.uid = x.uid + uid_offset
        square = s if seat == 0 else to_relative(s, 1)
        if st.board[square] is not None:
            square = _yield_square(st, side, s)
        st.board[square] = y
    for e in side.effects:
        f = e.copy()
        f.owner = seat
        if f.scope == 0:
            f.scope = seat
        if f.src_uid >= 0:
            f.src_uid += uid_offset
        if f.src_slot >= 0:
            f.src_slot = 4 * seat + f.src_slot % 4
        if f.targets is not None:
            f.targets = [u + uid_offset for u in f.targets]
        st.effects.append(f)


def _yield_square(st: GameState, side: Side, s: int) -> int:
    """Where a seat-1 Medarot goes when a seat-0 Medarot holds its neutral square (A3)."""
    column = s % 5
    if st.board[to_relative(column, 1)] is None:
        return to_relative(column, 1)
    return next(to_relative(c, 1) for c in range(5) if st.board[to_relative(c, 1)] is None)


# ----------------------------------------------------------------------------- D37, D38, A6
def stored_proxy_life(st: GameState) -> int:
    """D37, D40: the life P of a proxy at seat 1, which the table keeps as seat 1's HP."""
    return st.hp[1]


def nominal_life(side: Side) -> int:
    """D38: the nominal life L0 of the side's mode (beginner 10, normal and advance 20)."""
    return NOMINAL_LIFE[side.mode]


def side_of(st: GameState, seat: int) -> Side:
    """A6: the updated side at ``seat`` of a table, in its owner's frame, Medarots numbered ``1..n``.

    Effects end at the split unless they belong to the side that used them and affect only
    that side: targeted effects keep only their user's own Medarots (and end with none
    left); player-level and dynamic effects stay only when their scope is their user.
    """
    side = Side(st.config.mode, st.decks[seat], st.hp[seat])
    side.deck = list(st.deck[seat])
    side.hand = list(st.hand[seat])
    side.stock = [x.copy() if x else None for x in st.stock[seat]]
    side.master = st.master[seat].copy() if st.master[seat] else None  # type: ignore[union-attr]
    side.master_used = st.master_used[seat]
    side.trash = list(st.trash[seat])
    side.reserve = list(st.reserve[seat])
    side.limbo = list(st.limbo[seat]) if st.limbo[seat] else None  # type: ignore[arg-type]
    side.failed_draw = st.failed_draw[seat]
    side.draw_mark = st.draw_mark[seat]
    side.mulligans = st.mulligans[seat]
    uids: dict[int, int] = {}
    for s in range(15):
        frame = s if seat == 0 else to_relative(s, 1)
        x = st.board[frame]
        if x is None or x.owner != seat:
            continue
        y = x.copy()
        y.owner = 0
        y.uid = uids[x.uid] = len(uids) + 1
        side.board[s] = y
    for e in st.effects:
        kept = _kept_effect(e, seat, uids)
        if kept is not None:
            side.effects.append(kept)
    return side


def _kept_effect(e: Eff, seat: int, uids: dict[int, int]) -> Eff | None:
    """``e`` in ``seat``'s side frame if it stays with that side at the split, else ``None``."""
    if e.owner != seat:
        return None
    f = e.copy()
    f.owner = 0
    if f.targets is not None:
        f.targets = [uids[u] for u in f.targets if u in uids]
        if not f.targets:
            return None
    elif f.scope != seat:
        return None
    if f.scope == seat:
        f.scope = 0
    if f.src_uid >= 0:
        if f.src_uid not in uids:
            return None
        f.src_uid = uids[f.src_uid]
    if f.src_slot >= 0:
        f.src_slot %= 4
    return f


# ----------------------------------------------------------------------------- A7, A8
def lose_core_life(side: Side, n: int) -> bool:
    """A7: pay ``n`` HP as one mandatory payment (D27); True if the side cannot and so meets its loss."""
    if n <= 0:
        return False
    if n > side.hp:
        return True
    side.hp -= n
    return False


def summary(side: Side) -> tuple[int, int, int, int]:
    """A8: public summary (HP, hand size, deck size, Medarots on the board)."""
    return (side.hp, len(side.hand), len(side.deck), side.units())

"""Observation and action encoding of the Medarot OCG (spec sections 6 and 7).

Actions: one ``Discrete(78)``; the meaning of an index depends on the decision point
(which is part of the observation). Squares are in the acting agent's own frame.

| indices | name | | indices | name |
|---|---|---|---|---|
| 0 | PASS | | 52-59 | MOVE(d), F FR R BR B BL L FL |
| 1-16 | HAND(i) | | 60-63 | COUNT(k) |
| 17-32 | SET(i) | | 64-69 | MEDAFORCE(k) |
| 33-35 | STOCK(j) | | 70 | SUBSTITUTE |
| 36 | MASTER | | 71 | RELEASE |
| 37-51 | SQUARE(s') | | 72 | SPECIAL |
| 73-75 | OPP_STOCK(j) | | 76-77 | EFFECT(e) |

Observations are float32 vectors built from the named pieces of ``LAYOUT``; everything is
seen from the observing seat (own row first, columns from its own left). Card identities
appear as feature rows (kind, type, stats, arrows and effect records); a card the seat may
not see (opponent's hand, face-down cards, deck order) is an all-zero row, and only counts
of hidden zones are given.
"""

from __future__ import annotations

import array
import itertools
import operator
import struct

import numpy as np

from envs.core.protocol import block_offsets
from envs.core.targets import Target
from envs.encoding.codec import Encoder
from envs.encoding.layout import ObsLayout
from envs.medarot_ocg.actions import ARG_COUNT, DP, Action, Kind
from envs.medarot_ocg.cards import (
    CARD_TIMINGS,
    KINDS,
    TRASH_TIMINGS,
    TYPE_FILTERS,
    TYPES,
    UNIT_TIMINGS,
    CardDef,
    CardPool,
)
from envs.medarot_ocg.rules.board import NEIGHBOUR, move_options_from, to_relative
from envs.medarot_ocg.rules.effects import OPS
from envs.medarot_ocg.state import GameState

ACTION_SIZE = 78
#: First index of each action kind (section 6): the blocks follow each other in ``Kind`` order.
OFFSET = block_offsets(ARG_COUNT)
_OFF = [OFFSET[Kind(k)] for k in range(len(Kind))]
#: index -> (kind, arg in the agent's frame)
_DECODE = [(k, i) for k in Kind for i in range(ARG_COUNT[k])]
assert len(_DECODE) == ACTION_SIZE

_TIMINGS = UNIT_TIMINGS + CARD_TIMINGS
_OPS = tuple(OPS.names())
_EFFECT_F = len(_TIMINGS) + len(_OPS) + 1 + len(Target) + len(TYPE_FILTERS) + 1 + len(TRASH_TIMINGS)
CARD_F = len(KINDS) + len(TYPES) + 7 + 8 + 2 * _EFFECT_F
_SQ_F = 21
_SLOT_F = 4
_SCALARS = 47
_N_CARD_SLOTS = 15 + 16 + 3 + 3 + 1 + 1 + 1
_TYPE_INDEX = {"SHOOTING": 0, "MELEE": 1}


def _reach(owner: int, square: int, kind: int) -> tuple[tuple[int, int], ...]:
    """Squares a Medarot could attack from ``square`` (D11-D13), each with the square that must be empty."""
    step = 5 if owner == 0 else -5
    out = []
    one, two = square + step, square + 2 * step
    if kind == 0 and 0 <= two < 15:
        out.append((two, -1))
    if kind == 1:
        if 0 <= one < 15:
            out.append((one, -1))
        if 0 <= two < 15:
            out.append((two, one))
    if square // 5 == 1:
        out += [(t, -1) for t in (square - 1, square + 1) if t // 5 == 1]
    return tuple(out)


#: _REACH[owner][square][0 shooting | 1 melee] -> ((target, square that must be empty or -1), ...)
_REACH = tuple(tuple(tuple(_reach(p, s, k) for k in range(2)) for s in range(15)) for p in range(2))
_ACTIONS = tuple(Action(k, i) for k, i in _DECODE)  # interned: decoding allocates nothing
_SQUARE_ACTIONS = tuple(Action(Kind.SQUARE, s) for s in range(15))
_REL = tuple(tuple(to_relative(r, seat) for r in range(15)) for seat in range(2))  # relative -> absolute
#: seat -> index -> engine action when ``seat`` is to move (squares from its own frame)
_ACTION_OF = tuple(
    tuple(
        _SQUARE_ACTIONS[_REL[seat][arg]] if k == Kind.SQUARE else _ACTIONS[i]
        for i, (k, arg) in enumerate(_DECODE)
    )
    for seat in range(2)
)
#: seat -> {engine action: its index when ``seat`` is to move} (the inverse of ``_ACTION_OF``)
_INDEX_OF = tuple({a: i for i, a in enumerate(actions)} for actions in _ACTION_OF)
#: dtypes for ``np.frombuffer`` (a dtype object passed by position is the cheapest form to parse)
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)


def _card_row(c: CardDef) -> list[float]:
    row = [0.0] * CARD_F
    row[KINDS.index(c.kind)] = 1.0
    o = len(KINDS)
    if c.type:
        row[o + TYPES.index(c.type)] = 1.0
    o += len(TYPES)
    row[o : o + 7] = [
        c.speed / 10,
        c.cost / 5,
        c.power / 100,
        c.armor / 100,
        c.n_arrows / 8,
        float(c.power_form),
        c.hp_mod / 5,
    ]
    o += 7
    for d in range(8):
        row[o + d] = float(c.arrows >> d & 1)
    o += 8
    for e in c.effects:
        row[o + _TIMINGS.index(e.timing)] = 1.0
        p = o + len(_TIMINGS)
        row[p + _OPS.index(e.op)] = 1.0
        p += len(_OPS)
        row[p] = e.amount / (40 if e.op in ("MOD_POWER", "MOD_ARMOR") else 3)
        p += 1
        row[p + int(e.target)] = 1.0
        p += len(Target)
        row[p + TYPE_FILTERS.index(e.type_filter)] = 1.0
        p += len(TYPE_FILTERS)
        row[p] = e.cost / 3
        p += 1
        if e.trash:
            row[p + TRASH_TIMINGS.index(e.trash)] = 1.0
        o += _EFFECT_F
    return row


def build_layout(n_cards: int) -> ObsLayout:
    """The observation layout for a pool of ``n_cards`` card definitions."""
    return ObsLayout(
        [
            ("decision", (len(DP),), "one-hot of the current decision point"),
            (
                "scalars",
                (_SCALARS,),
                "turn, HP, zone counts, mode, who moves, the action and attack under way",
            ),
            (
                "board",
                (15, _SQ_F),
                "per square (own frame): occupied, own, enemy, face up, identity known, acted, placed this turn, acting, attack target, transformed, sideways, disabled, rooted, guard, the active speed/10, power/100, armor/100 modifiers, threat/100 and reach/100 (highest power of a known enemy / own Medarot that can attack the square), own Medarot destroyable, enemy Medarot destroyable",
            ),
            (
                "masters",
                (2, _SLOT_F),
                "own then opponent master: present, face up, used this turn, NEGATE charge",
            ),
            (
                "stock_flags",
                (6, _SLOT_F),
                "own then opponent stock slots: present, face up, in use, NEGATE charge",
            ),
            (
                "acting_moves",
                (8, 3),
                (
                    "while the acting Medarot's owner decides (A3-A9), per direction F FR R BR B BL L FL (its "
                    "owner's, as MOVE(d)): legal move, the destination is in range of an enemy that destroys it, "
                    "a destroyable target from there"
                ),
            ),
            (
                "acting_attacks",
                (15, 2),
                (
                    "while the acting Medarot's owner decides (A3-A9), per square (own frame): the acting "
                    "Medarot destroys the known enemy there now (power >= armor), its cost/5"
                ),
            ),
            ("board_cards", (15, CARD_F), "top card features per square; zero if the seat cannot see it"),
            ("hand_cards", (16, CARD_F), "own hand in order (HAND(i) refers to row i)"),
            ("stock_cards", (6, CARD_F), "own stock cards, then the opponent's face-up stock cards"),
            ("master_cards", (2, CARD_F), "own master, then the opponent's if face up"),
            ("used_card", (1, CARD_F), "the Medaroter being played right now (public)"),
            ("trash", (2, n_cards), "own and opponent trash contents, count per card / 3"),
            ("reserve", (2, n_cards), "own and opponent MedaForce reserve, count per card / 3"),
        ]
    )


class MedarotEncoder(Encoder):
    """Encoder of one card pool (the table of card features is built once)."""

    action_size = ACTION_SIZE

    def __init__(self, pool: CardPool) -> None:
        self.pool = pool
        self.n_cards = len(pool)
        self.layout = build_layout(self.n_cards)
        table = [[0.0] * CARD_F] + [_card_row(c) for c in pool.cards.values()]
        self.table = np.asarray(table, dtype=np.float32)
        self.row = {cid: c.index for cid, c in pool.cards.items()}
        self.deck_types = self.n_cards
        #: card id -> (power, armor, speed, 0 shooting / 1 melee / -1 other, cost)
        self._stats = {
            cid: (c.power, c.armor, c.speed, _TYPE_INDEX.get(c.type, -1), c.cost)
            for cid, c in pool.cards.items()
        }
        self._zero = array.array("f", bytes(4 * self.layout.size))
        self._zero_mask = array.array("b", bytes(ACTION_SIZE))
        L = self.layout
        self._dec = L["decision"].start
        self._sc = L["scalars"].start
        self._act_flag_slots = range(self._sc + 20, self._sc + 30)  # where ``_ACT_FLAGS`` are written
        self._board = L["board"].start
        self._board_end = self._board + L["board"].size
        self._flags = L["masters"].start
        self._moves = L["acting_moves"].start
        self._attacks = L["acting_attacks"].start
        self._attacks_end = self._attacks + L["acting_attacks"].size
        assert self._attacks == self._moves + L["acting_moves"].size  # one contiguous block
        self._cards = L["board_cards"].start
        self._trash = L["trash"].start
        self._reserve_end = L["reserve"].start + L["reserve"].size
        assert L["reserve"].start == self._trash + L["trash"].size  # one contiguous block
        self.card_region = (self._cards, _N_CARD_SLOTS, CARD_F)
        self._board_cards_end = self._cards + 15 * CARD_F
        #: seat -> absolute square -> start of the square's row in the ``board`` piece (own frame)
        self._square_rows = tuple(tuple(self._board + r * _SQ_F for r in rel) for rel in _REL)
        self._reserve = L["reserve"].start
        #: card id -> its feature row as an ``array.array`` (copied into an observation by slice)
        self._card_rows = {
            cid: array.array("f", self.table[c.index].tobytes()) for cid, c in pool.cards.items()
        }

    def deck_type(self, card: str) -> int:
        """The global state's deck column of a card: its pool row minus one."""
        return self.row[card] - 1

    # ------------------------------------------------------------------ actions
    def action_to_index(self, action: Action, state: GameState) -> int:
        """Index of an engine action for the player to move (squares to the agent's frame)."""
        k, arg = action
        if k == Kind.SQUARE:
            arg = _REL[state.current_player][arg]  # the map is its own inverse
        return _OFF[k] + arg

    def index_to_action(self, index: int, state: GameState) -> Action:
        """Engine action of an index for the player to move."""
        if not 0 <= index < ACTION_SIZE:
            raise ValueError(f"action index {index} out of range 0..{ACTION_SIZE - 1}")
        return _ACTION_OF[state.current_player][index]

    def legal_indices(self, state: GameState) -> list[int]:
        """Indices of the legal actions of the player to move."""
        p = state.current_player
        index = _INDEX_OF[max(p, 0)]
        return [index[a] for a in state.legal_actions()]

    def action_mask(self, state: GameState, seat: int | None = None) -> np.ndarray:
        """int8 mask of shape ``(78,)``; all zeros for a seat that is not to move."""
        buf = self._zero_mask[:]
        p = state.current_player
        if p >= 0 and (seat is None or seat == p):
            index = _INDEX_OF[p]
            for a in state.legal_actions():
                buf[index[a]] = 1
        return np.frombuffer(buf, _INT8)

    def action_label(self, index: int, state: GameState) -> str:
        """E.g. ``SQUARE(12) attack Bolt`` or ``HAND(2) Field Wrench``."""
        a = self.index_to_action(index, state)
        p = state.current_player
        text = str(a)
        if a.kind in (Kind.HAND, Kind.SET) and p >= 0 and a.arg < len(state.hand[p]):
            text += f" {state.cards[state.hand[p][a.arg]].name}"
        elif a.kind == Kind.SQUARE and (x := state.board[a.arg]) is not None:
            name = state.cards[x.top()].name if x.face_up or x.owner == p else "face-down card"
            text += f" {name}"
        return text

    # ------------------------------------------------------------------ observations
    def observe(self, st: GameState, seat: int) -> np.ndarray:
        """The observation of ``seat`` (spec section 7): public state plus its own private cards.

        The vector is written into a zeroed ``array.array`` (cheap element writes, and card
        rows copied in by slice) and handed to numpy without a copy: every call returns a new
        array that the env never writes to again.
        """
        buf = self._zero[:]
        dp = st.dp
        if dp is not None and not st.done:
            buf[self._dec + dp[0]] = 1.0
        # The board and tactical pieces (and the effect totals of the scalars) depend only on the
        # board and the lasting effects: they are kept on the state, one memo per seat, until
        # ``board_version`` changes (clones start with no cache).
        cache = st.__dict__.get("_tactics_cache")
        if cache is None or cache[0] != st.board_version:
            cache = st._tactics_cache = (st.board_version, ({}, {}))  # type: ignore[attr-defined]
        memo = cache[1][seat]
        bo, be = self._board, self._board_end
        co, ce = self._cards, self._board_cards_end
        view = memo.get("board")
        if view is None:
            statuses, sideways, mods, tot, dyn = _effect_summary(st, seat)
            tactics = _tactics(st, seat, mods, self._stats)
            self._write_board(buf, st, seat, statuses, sideways, mods, tactics)
            memo["board"] = (mods, tot, dyn, tactics, buf[bo:be], buf[co:ce])
        else:
            mods, tot, dyn, tactics, board, board_cards = view
            buf[bo:be] = board
            buf[co:ce] = board_cards
        act = st.act
        if act is not None:  # the markers of the acting Medarot and of its target
            marks_key = ("marks", act.uid, act.target)
            marks = memo.get(marks_key)
            if marks is None:
                marks = memo[marks_key] = self._marks(st, seat, act.uid, act.target)
            for i in marks:
                buf[i] = 1.0
            if dp is not None and dp[0] in _ACTING_DPS:
                a, b = self._moves, self._attacks_end
                acting_key = ("acting", act.uid)
                block = memo.get(acting_key)
                if block is None:
                    self._write_acting(buf, st, seat, mods, tactics)
                    memo[acting_key] = buf[a:b]
                else:
                    buf[a:b] = block
        self._write_cards(buf, st, seat)
        self._write_piles(buf, st, seat)
        self._write_scalars(buf, st, seat, tot, dyn)
        return np.frombuffer(buf, _FLOAT32)

    def _marks(self, st: GameState, seat: int, uid: int, target: int) -> list[int]:
        """Buffer positions of the acting-Medarot and target markers of the ``board`` piece."""
        out = []
        for i, x in zip(self._square_rows[seat], st.board, strict=True):
            if x is not None:
                if x.uid == uid:
                    out.append(i + 7)
                elif x.uid == target:
                    out.append(i + 8)
        return out

    def _write_board(
        self,
        buf: array.array,
        st: GameState,
        seat: int,
        statuses: dict[int, int],
        sideways: set[int],
        mods: dict[int, list[int]],
        tactics: tuple[list[int], list[int], list[int]],
    ) -> None:
        """Piece ``board`` (but the acting and target markers) and the board rows of ``board_cards``.

        Besides each Medarot's own flags, every square carries two tactical sums of public
        facts: ``threat`` (the highest effective power of a face-up enemy Medarot whose range
        covers the square) and ``reach`` (the same for the seat's own Medarots), plus whether
        the Medarot standing there could be destroyed by them (power >= armor).
        """
        card_rows = self._card_rows
        stats = self._stats
        rows = self._square_rows[seat]
        threat, reach, armor = tactics
        # the threat and reach columns, on every square
        for i, th, rc in zip(rows, threat, reach, strict=True):
            if th:
                buf[i + 17] = th / 100
            if rc:
                buf[i + 18] = rc / 100
        co = self._cards
        rel = _REL[seat]
        for s, x in enumerate(st.board):
            if x is None:
                continue
            i = rows[s]
            mine = x.owner == seat
            buf[i] = 1.0
            buf[i + 1 + (not mine)] = 1.0
            if x.acted:
                buf[i + 5] = 1.0
            if x.placed:
                buf[i + 6] = 1.0
            uid = x.uid
            if x.face_up or mine:
                if x.face_up:
                    buf[i + 3] = 1.0
                buf[i + 4] = 1.0
                cid = x.change or x.base
                if x.change is not None:
                    buf[i + 9] = 1.0
                c = co + rel[s] * CARD_F
                buf[c : c + CARD_F] = card_rows[cid]
                if mods and uid in mods:
                    d = mods[uid]
                    pw, ar, sp = stats[cid][:3]
                    buf[i + 14] = (max(0, sp + d[2]) - sp) / 10  # effective = max(0, printed + modifiers)
                    buf[i + 15] = (max(0, pw + d[0]) - pw) / 100
                    buf[i + 16] = (max(0, ar + d[1]) - ar) / 100
                if mine:
                    if threat[s] and threat[s] >= armor[s]:
                        buf[i + 19] = 1.0
                elif reach[s] and reach[s] >= armor[s]:
                    buf[i + 20] = 1.0
            if sideways and uid in sideways:
                buf[i + 10] = 1.0
            if statuses and uid in statuses:
                b = statuses[uid]
                buf[i + 11] = float(b & 1)
                buf[i + 12] = float(b >> 1 & 1)
                buf[i + 13] = float(b >> 2 & 1)

    def _write_acting(
        self,
        buf: array.array,
        st: GameState,
        seat: int,
        mods: dict[int, list[int]],
        tactics: tuple[list[int], list[int], list[int]],
    ) -> None:
        """Pieces ``acting_moves`` and ``acting_attacks``: one-step tactics of the acting Medarot."""
        act = st.act
        assert act is not None
        board = st.board
        uid = act.uid
        s = -1
        prey: list[int] = []  # squares of known units of the other side (filtered by power below)
        for k, y in enumerate(board):
            if y is None:
                continue
            if y.uid == uid:
                s = k
            elif y.face_up or y.owner == seat:
                prey.append(k)
        if s < 0:
            return
        x = board[s]
        assert x is not None
        q = x.owner
        power, own_armor, _speed, kind, _cost = self._stats[x.change or x.base]
        if mods and uid in mods:
            power = max(0, power + mods[uid][0])
            own_armor = max(0, own_armor + mods[uid][1])
        threat, reach, armor = tactics
        danger = threat if q == seat else reach
        stats = self._stats
        targets = set()
        if kind >= 0:
            for t in prey:
                y = board[t]
                if y.owner != q and power >= armor[t]:  # type: ignore[union-attr]
                    targets.add(t)
        if targets:
            for t, between in _REACH[q][s][kind]:
                if t in targets and (between < 0 or board[between] is None):
                    y = board[t]
                    assert y is not None
                    i = self._attacks + 2 * _REL[seat][t]
                    buf[i] = 1.0
                    buf[i + 1] = (stats[y.base][4] + (stats[y.change][4] if y.change else 0)) / 5
        moves = self._moves
        for direction in move_options_from(st, x, s):
            t = NEIGHBOUR[q][s][direction]
            i = moves + 3 * direction
            buf[i] = 1.0
            if danger[t] >= own_armor:
                buf[i + 1] = 1.0
            if targets:
                for u, between in _REACH[q][t][kind]:
                    if u in targets and (between < 0 or between == s or board[between] is None):
                        buf[i + 2] = 1.0
                        break

    def _write_cards(self, buf: array.array, st: GameState, seat: int) -> None:
        """The ``masters`` / ``stock_flags`` pieces, and the rows of hand, stock, masters and used card.

        A card the seat may not see keeps its all-zero row.
        """
        o = 1 - seat
        card_rows = self._card_rows
        F = CARD_F
        at = self._cards + 15 * F  # the hand rows follow the 15 board rows
        for cid in st.hand[seat][:16]:
            buf[at : at + F] = card_rows[cid]
            at += F
        use = st.use
        fl = self._flags
        stock_at = self._cards + 31 * F
        for k, p in enumerate((seat, o)):
            m = st.master[p]
            if m is not None:
                i = fl + 4 * k
                buf[i] = 1.0
                if m.face_up:
                    buf[i + 1] = 1.0
                if st.master_used[p]:
                    buf[i + 2] = 1.0
                if m.charge:
                    buf[i + 3] = float(m.charge)
                if m.face_up or p == seat:
                    at = self._cards + (37 + k) * F
                    buf[at : at + F] = card_rows[m.card]
            for jj, sl in enumerate(st.stock[p]):
                if sl is None:
                    continue
                i = fl + 8 + 4 * (3 * k + jj)
                buf[i] = 1.0
                if sl.face_up:
                    buf[i + 1] = 1.0
                if use is not None and use[0] == p and use[1] == jj:
                    buf[i + 2] = 1.0
                if sl.charge:
                    buf[i + 3] = float(sl.charge)
                if sl.face_up or p == seat:
                    at = stock_at + (3 * k + jj) * F
                    buf[at : at + F] = card_rows[sl.card]
        used = None
        if use is not None and use[1] >= 0:
            h = st.master[use[0]] if use[1] == 3 else st.stock[use[0]][use[1]]
            used = h.card if h is not None else None
        for p in (seat, o):
            lim = st.limbo[p]
            if lim is not None and (lim[1] or p == seat):
                used = lim[0]
        if used is not None:
            at = self._cards + 39 * F
            buf[at : at + F] = card_rows[used]

    def _write_piles(self, buf: array.array, st: GameState, seat: int) -> None:
        """Public trash and reserve contents as counts per card.

        Within one state a trash only grows and a reserve card only leaves for its owner's
        trash, so the four pile sizes identify the contents: the block is kept on the state
        under that key (clones start without it).
        """
        key = (len(st.trash[0]), len(st.trash[1]), len(st.reserve[0]), len(st.reserve[1]))
        a, b = self._trash, self._reserve_end
        cached = st.__dict__.get("_piles_cache")
        if cached is None or cached[0] != key:
            cached = st._piles_cache = (key, {})  # type: ignore[attr-defined]
        block = cached[1].get(seat)
        if block is not None:
            buf[a:b] = block
            return
        o = 1 - seat
        row = self.row
        n = self.n_cards
        third = 1.0 / 3.0
        for base, zones in ((self._trash, st.trash), (self._reserve, st.reserve)):
            for k, p in enumerate((seat, o)):
                off = base + k * n - 1
                for c in zones[p]:
                    buf[off + row[c]] += third
        cached[1][seat] = buf[a:b]

    def _write_scalars(
        self, buf: array.array, st: GameState, seat: int, tot: list[int], dyn: list[int]
    ) -> None:
        """Piece ``scalars`` (see ``SCALARS`` for the names).

        The first 15 entries are packed in one call; of the others only non-zero entries are written.
        """
        o = 1 - seat
        sc = self._sc
        cfg = st.config
        hp, deck, hand, trash, reserve, mulligans = (
            st.hp,
            st.deck,
            st.hand,
            st.trash,
            st.reserve,
            st.mulligans,
        )
        _DENSE_SCALARS.pack_into(
            buf,
            4 * sc,
            st.turn / cfg.max_turns,
            st.first == seat,
            st.current_player == seat,
            hp[seat] / 20,
            hp[o] / 20,
            len(deck[seat]) / 30,
            len(deck[o]) / 30,
            len(hand[seat]) / 16,
            len(hand[o]) / 16,
            len(trash[seat]) / 30,
            len(trash[o]) / 30,
            len(reserve[seat]) / 30,
            len(reserve[o]) / 30,
            mulligans[seat] / 3,
            mulligans[o] / 3,
        )
        buf[sc + 15 + _MODE_INDEX[cfg.mode]] = 1.0
        a = st.act
        if a is not None:
            buf[sc + 18] = 1.0
            if a.owner == seat:
                buf[sc + 19] = 1.0
            for k in itertools.compress(self._act_flag_slots, _ACT_FLAGS(a)):
                buf[k] = 1.0
            if a.target >= 0:
                buf[sc + 30] = 1.0
        if any(tot):
            buf[sc + 31] = tot[0] / 3
            buf[sc + 32] = tot[1] / 3
            buf[sc + 33] = tot[2] / 2
            buf[sc + 34] = tot[3] / 2
        if any(dyn):
            for k, scale in enumerate((40, 40, 3, 40, 40, 3)):
                buf[sc + 35 + k] = dyn[k] / scale
        dp = st.dp
        if dp is not None and dp[0] in COUNT_DPS:
            buf[sc + 41] = dp[2][-1] / 9
        failed, used = st.failed_draw, st.master_used
        if failed[seat]:
            buf[sc + 42] = 1.0
        if failed[o]:
            buf[sc + 43] = 1.0
        if used[seat]:
            buf[sc + 44] = 1.0
        if used[o]:
            buf[sc + 45] = 1.0
        if st.done:
            buf[sc + 46] = 1.0


#: Names of the ``scalars`` piece, in order (ratios as in ``_write_scalars``).
SCALARS = (
    "turn/max_turns",
    "first player",
    "to move",
    "hp/20",
    "opp hp/20",
    "deck/30",
    "opp deck/30",
    "hand/16",
    "opp hand/16",
    "trash/30",
    "opp trash/30",
    "reserve/30",
    "opp reserve/30",
    "mulligans/3",
    "opp mulligans/3",
    "beginner",
    "normal",
    "advance",
    "action under way",
    "own action",
    "action card used",
    "defence card used",
    "moved",
    "MedaChanged or released",
    "penalty cancelled",
    "free far attack",
    "far attack",
    "attack negated",
    "attack redirected",
    "disabled",
    "attacking",
    "own TRAP/3",
    "opp TRAP/3",
    "own DOT/2",
    "opp DOT/2",
    "own power mod/40",
    "own armor mod/40",
    "own speed mod/3",
    "opp power mod/40",
    "opp armor mod/40",
    "opp speed mod/3",
    "count in decision/9",
    "own failed draw",
    "opp failed draw",
    "own master used",
    "opp master used",
    "game over",
)
#: The summary of a board without lasting effects (shared, never written to).
_NO_EFFECTS: tuple[dict[int, int], set[int], dict[int, list[int]], list[int], list[int]] = (
    {},
    set(),
    {},
    [0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
)
#: Scalars 0-14 (turn to mulligans): packed into the buffer in one call, as ``array("f")`` stores floats.
_DENSE_SCALARS = struct.Struct("15f")
_MODE_INDEX = {"beginner": 0, "normal": 1, "advance": 2}
assert len(SCALARS) == _SCALARS


def _tactics(
    st: GameState, seat: int, mods: dict[int, list[int]], stats: dict[str, tuple[int, int, int, int, int]]
) -> tuple[list[int], list[int], list[int]]:
    """Per absolute square: highest known enemy power reaching it, the same for own Medarots, and the armor there."""
    board = st.board
    threat = [0] * 15
    reach = [0] * 15
    armor = [0] * 15
    for s, x in enumerate(board):
        if x is None:
            continue
        mine = x.owner == seat
        if not (x.face_up or mine):
            continue
        power, arm, _speed, kind, _cost = stats[x.change or x.base]
        if mods and x.uid in mods:
            d = mods[x.uid]
            power = max(0, power + d[0])
            arm = max(0, arm + d[1])
        armor[s] = arm
        if kind < 0 or power == 0:
            continue
        into = reach if mine else threat
        for t, between in _REACH[x.owner][s][kind]:
            if power > into[t] and (between < 0 or board[between] is None):
                into[t] = power
    return threat, reach, armor


def _effect_summary(
    st: GameState, seat: int
) -> tuple[dict[int, int], set[int], dict[int, list[int]], list[int], list[int]]:
    """Statuses, sideways uids, modifier sums per uid, TRAP/DOT totals and dynamic modifiers."""
    if not st.effects:
        return _NO_EFFECTS
    statuses: dict[int, int] = {}
    sideways: set[int] = set()
    mods: dict[int, list[int]] = {}
    tot = [0, 0, 0, 0]  # TRAP own, TRAP opp, DOT own, DOT opp
    dyn = [0, 0, 0, 0, 0, 0]  # own power/armor/speed, then the opponent's (END_OF_TURN scope)
    cards = st.cards
    if st.effects:
        units = {x.uid: x for x in st.board if x is not None}
        for e in st.effects:
            op = e.op
            src = e.src_uid
            if src >= 0:
                sideways.add(src)
            k = _MOD_INDEX.get(op, -1)
            flt = e.flt
            if e.targets is None:
                if op == "TRAP" or op == "DOT":
                    tot[(2 if op == "DOT" else 0) + (e.scope != seat)] += e.amount
                elif k >= 0:
                    dyn[3 * (e.scope != seat) + k] += e.amount
                    for x in units.values():
                        if x.owner == e.scope and (flt == "ANY" or cards[x.change or x.base].type == flt):
                            mods.setdefault(x.uid, [0, 0, 0])[k] += e.amount
                continue
            bit = _STATUS_BIT.get(op, 0)
            for u in e.targets:
                if src >= 0:
                    sideways.add(u)
                if bit:
                    statuses[u] = statuses.get(u, 0) | bit
                elif k >= 0:
                    x = units.get(u)
                    if x is not None and (flt == "ANY" or cards[x.change or x.base].type == flt):
                        mods.setdefault(u, [0, 0, 0])[k] += e.amount
    return statuses, sideways, mods, tot, dyn


#: The flags of the action under way, in the order of ``SCALARS`` (the per-seat view names them too).
ACT_FLAG_NAMES = (
    "action_used",
    "defence_used",
    "moved",
    "changed",
    "cancel_penalty",
    "free_far",
    "far",
    "negated",
    "redirected",
    "disabled",
)
_ACT_FLAGS = operator.attrgetter(*ACT_FLAG_NAMES)  # one C call reads them all
_MOD_INDEX = {"MOD_SPEED": 2, "MOD_POWER": 0, "MOD_ARMOR": 1}
_STATUS_BIT = {"DISABLE": 1, "ROOT": 2, "GUARD": 4}
#: Decision points of the acting Medarot's owner where its one-step tactics are written.
_ACTING_DPS = frozenset({DP.ACTION_START, DP.MOVE_BEFORE, DP.SUPPORT, DP.DECLARE, DP.MOVE_AFTER})
#: Decision points whose context ends with a count (cards to discard or draw, HP to split).
COUNT_DPS = frozenset({DP.WEAK_DISCARD, DP.EFFECT_DISCARD, DP.EFFECT_DRAW, DP.PAY_SPLIT})

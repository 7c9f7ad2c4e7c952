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

import numpy as np

from envs.core.targets import Target
from envs.encoding.codec import Encoder
from envs.encoding.layout import ObsLayout
from envs.medarot_ocg.actions import DP, Action, Kind
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
from envs.medarot_ocg.rules.board import to_relative
from envs.medarot_ocg.rules.effects import OPS
from envs.medarot_ocg.state import GameState

ACTION_SIZE = 78
#: First index of each action kind (section 6).
OFFSET = {
    Kind.PASS: 0,
    Kind.HAND: 1,
    Kind.SET: 17,
    Kind.STOCK: 33,
    Kind.MASTER: 36,
    Kind.SQUARE: 37,
    Kind.MOVE: 52,
    Kind.COUNT: 60,
    Kind.MEDAFORCE: 64,
    Kind.SUBSTITUTE: 70,
    Kind.RELEASE: 71,
    Kind.SPECIAL: 72,
    Kind.OPP_STOCK: 73,
    Kind.EFFECT: 76,
}
_SIZES = {
    Kind.PASS: 1,
    Kind.HAND: 16,
    Kind.SET: 16,
    Kind.STOCK: 3,
    Kind.MASTER: 1,
    Kind.SQUARE: 15,
    Kind.MOVE: 8,
    Kind.COUNT: 4,
    Kind.MEDAFORCE: 6,
    Kind.SUBSTITUTE: 1,
    Kind.RELEASE: 1,
    Kind.SPECIAL: 1,
    Kind.OPP_STOCK: 3,
    Kind.EFFECT: 2,
}
_OFF = [OFFSET[Kind(k)] for k in range(len(Kind))]
#: index -> (kind, arg in the agent's frame)
_DECODE = [(k, i) for k in Kind for i in range(_SIZES[k])]
assert len(_DECODE) == ACTION_SIZE

_TIMINGS = UNIT_TIMINGS + CARD_TIMINGS
_OPS = tuple(OPS.names())
_EFFECT_F = len(_TIMINGS) + len(_OPS) + 1 + len(Target) + len(TYPE_FILTERS) + 1 + len(TRASH_TIMINGS)
CARD_F = len(KINDS) + len(TYPES) + 7 + 8 + 2 * _EFFECT_F
_SQ_F = 17
_SLOT_F = 4
_SCALARS = 47
_N_CARD_SLOTS = 15 + 16 + 3 + 3 + 1 + 1 + 1
_REL = tuple(tuple(to_relative(r, seat) for r in range(15)) for seat in range(2))  # relative -> absolute


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
                "per square (own frame): occupied, own, enemy, face up, identity known, acted, placed this turn, acting, attack target, transformed, sideways, disabled, rooted, guard, then the active speed/10, power/100, armor/100 modifiers",
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
        self._rows = [array.array("f", r) for r in table]
        self._zero = array.array("f", bytes(4 * self.layout.size))
        self._zero_mask = array.array("b", bytes(ACTION_SIZE))
        L = self.layout
        self._dec = L["decision"].start
        self._sc = L["scalars"].start
        self._board = L["board"].start
        self._flags = L["masters"].start
        self._cards = L["board_cards"].start
        self._trash = L["trash"].start
        self.card_region = (self._cards, _N_CARD_SLOTS, CARD_F)
        self._reserve = L["reserve"].start

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
        k, arg = _DECODE[index]
        if k == Kind.SQUARE:
            arg = _REL[state.current_player][arg]
        return Action(k, arg)

    def legal_indices(self, state: GameState) -> list[int]:
        """Indices of the legal actions of the player to move."""
        off = _OFF
        rel = _REL[state.current_player] if state.current_player >= 0 else _REL[0]
        sq = Kind.SQUARE
        return [off[k] + (rel[a] if k == sq else a) for k, a in state.legal_actions()]

    def action_mask(self, state: GameState, seat: int | None = None) -> np.ndarray:
        """int8 mask of shape ``(78,)``; all zeros for a seat that is not to move."""
        buf = self._zero_mask[:]
        if seat is None or seat == state.current_player:
            for i in self.legal_indices(state):
                buf[i] = 1
        return np.frombuffer(buf, dtype=np.int8)

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

        The vector is written into a zeroed ``array.array`` (cheap element writes and row
        copies) and handed to numpy without a copy.
        """
        buf = self._zero[:]
        dp = st.dp
        if dp is not None and not st.done:
            buf[self._dec + dp[0]] = 1.0
        statuses, sideways, mods, tot, dyn = _effect_summary(st, seat)
        self._write_board(buf, st, seat, statuses, sideways, mods)
        self._write_cards(buf, st, seat)
        self._write_piles(buf, st, seat)
        self._write_scalars(buf, st, seat, tot, dyn)
        return np.frombuffer(buf, dtype=np.float32)

    def _write_board(
        self,
        buf: array.array,
        st: GameState,
        seat: int,
        statuses: dict[int, int],
        sideways: set[int],
        mods: dict[int, list[int]],
    ) -> None:
        """Piece ``board`` and the board rows of ``board_cards``."""
        row = self.row
        rows = self._rows
        F = CARD_F
        cards = st.cards
        act = st.act
        acting = act.uid if act is not None else -1
        target = act.target if act is not None else -1
        bo = self._board
        cb = self._cards
        for r, s in enumerate(_REL[seat]):
            x = st.board[s]
            if x is None:
                continue
            i = bo + r * _SQ_F
            mine = x.owner == seat
            known = x.face_up or mine
            buf[i] = 1.0
            buf[i + 1 + (not mine)] = 1.0
            if x.face_up:
                buf[i + 3] = 1.0
            if x.acted:
                buf[i + 5] = 1.0
            if x.placed:
                buf[i + 6] = 1.0
            if x.uid == acting:
                buf[i + 7] = 1.0
            if x.uid == target:
                buf[i + 8] = 1.0
            if known:
                buf[i + 4] = 1.0
                cid = x.change or x.base
                if x.change is not None:
                    buf[i + 9] = 1.0
                j = cb + r * F
                buf[j : j + F] = rows[row[cid]]
                d = mods.get(x.uid)
                if d is not None:
                    c = cards[cid]  # effective value = max(0, printed + modifiers) (4.3)
                    buf[i + 14] = (max(0, c.speed + d[2]) - c.speed) / 10
                    buf[i + 15] = (max(0, c.power + d[0]) - c.power) / 100
                    buf[i + 16] = (max(0, c.armor + d[1]) - c.armor) / 100
            if x.uid in sideways:
                buf[i + 10] = 1.0
            b = statuses.get(x.uid, 0)
            if b:
                buf[i + 11] = float(b & 1)
                buf[i + 12] = float(b >> 1 & 1)
                buf[i + 13] = float(b >> 2 & 1)

    def _write_cards(self, buf: array.array, st: GameState, seat: int) -> None:
        """Hand, stock, master and used-card rows, and the ``masters`` / ``stock_flags`` pieces."""
        o = 1 - seat
        row = self.row
        rows = self._rows
        F = CARD_F
        cb = self._cards
        j = cb + 15 * F
        for cid in st.hand[seat][:16]:
            buf[j : j + F] = rows[row[cid]]
            j += F
        use = st.use
        fl = self._flags
        for k, p in enumerate((seat, o)):
            m = st.master[p]
            if m is not None:
                i = fl + 4 * k
                buf[i] = 1.0
                buf[i + 1] = float(m.face_up)
                buf[i + 2] = float(st.master_used[p])
                buf[i + 3] = float(m.charge)
                if m.face_up or p == seat:
                    j = cb + (37 + k) * F
                    buf[j : j + F] = rows[row[m.card]]
            for jj, sl in enumerate(st.stock[p]):
                if sl is None:
                    continue
                i = fl + 8 + 4 * (3 * k + jj)
                buf[i] = 1.0
                buf[i + 1] = float(sl.face_up)
                buf[i + 2] = float(use is not None and use[0] == p and use[1] == jj)
                buf[i + 3] = float(sl.charge)
                if sl.face_up or p == seat:
                    j = cb + (31 + 3 * k + jj) * F
                    buf[j : j + F] = rows[row[sl.card]]
        used = None
        if use is not None and use[1] >= 0:
            h = st.master[use[0]] if use[1] == 3 else st.stock[use[0]][use[1]]
            used = h.card if h is not None else None
        for p in (seat, o):
            lim = st.limbo[p]
            if lim is not None and (lim[1] or p == seat):
                used = lim[0]
        if used is not None:
            j = cb + 39 * F
            buf[j : j + F] = rows[row[used]]

    def _write_piles(self, buf: array.array, st: GameState, seat: int) -> None:
        """Public trash and reserve contents as counts per card."""
        o = 1 - seat
        row = self.row
        n = self.n_cards
        third = 1.0 / 3.0
        for base, zones in ((self._trash, st.trash), (self._reserve, st.reserve)):
            for k, p in enumerate((seat, o)):
                off = base + k * n - 1
                for c in zones[p]:
                    buf[off + row[c]] += third

    def _write_scalars(
        self, buf: array.array, st: GameState, seat: int, tot: list[int], dyn: list[int]
    ) -> None:
        """Piece ``scalars``."""
        o = 1 - seat
        dp = st.dp
        act = st.act
        cfg = st.config
        ctx_n = float(dp[2][-1]) / 9 if dp is not None and dp[0] in _COUNT_DPS else 0.0
        a = act
        sc = self._sc
        buf[sc : sc + _SCALARS] = array.array(
            "f",
            (
                st.turn / cfg.max_turns,
                float(st.first == seat),
                float(st.current_player == seat),
                st.hp[seat] / 20,
                st.hp[o] / 20,
                len(st.deck[seat]) / 30,
                len(st.deck[o]) / 30,
                len(st.hand[seat]) / 16,
                len(st.hand[o]) / 16,
                len(st.trash[seat]) / 30,
                len(st.trash[o]) / 30,
                len(st.reserve[seat]) / 30,
                len(st.reserve[o]) / 30,
                st.mulligans[seat] / 3,
                st.mulligans[o] / 3,
                float(cfg.mode == "beginner"),
                float(cfg.mode == "normal"),
                float(cfg.mode == "advance"),
                float(a is not None),
                float(a is not None and a.owner == seat),
                *(
                    (
                        float(a.action_used),
                        float(a.defence_used),
                        float(a.moved),
                        float(a.changed),
                        float(a.cancel_penalty),
                        float(a.free_far),
                        float(a.far),
                        float(a.negated),
                        float(a.redirected),
                        float(a.disabled),
                        float(a.target >= 0),
                    )
                    if a is not None
                    else _ZERO11
                ),
                tot[0] / 3,
                tot[1] / 3,
                tot[2] / 2,
                tot[3] / 2,
                dyn[0] / 40,
                dyn[1] / 40,
                dyn[2] / 3,
                dyn[3] / 40,
                dyn[4] / 40,
                dyn[5] / 3,
                ctx_n,
                float(st.failed_draw[seat]),
                float(st.failed_draw[o]),
                float(st.master_used[seat]),
                float(st.master_used[o]),
                float(st.done),
            ),
        )


def _effect_summary(
    st: GameState, seat: int
) -> tuple[dict[int, int], set[int], dict[int, list[int]], list[int], list[int]]:
    """Statuses, sideways uids, modifier sums per uid, TRAP/DOT totals and dynamic modifiers."""
    # lasting effects: statuses, sideways cards, modifier sums, player-level totals
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


_MOD_INDEX = {"MOD_SPEED": 2, "MOD_POWER": 0, "MOD_ARMOR": 1}
_STATUS_BIT = {"DISABLE": 1, "ROOT": 2, "GUARD": 4}
_COUNT_DPS = frozenset({DP.WEAK_DISCARD, DP.EFFECT_DISCARD, DP.EFFECT_DRAW, DP.PAY_SPLIT})
_ZERO11 = (0.0,) * 11

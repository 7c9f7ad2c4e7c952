"""The piece writers of the Medarot OCG observation: board, acting tactics, cards, piles, scalars.

``ObservationWriter`` fills the pieces of ``encode_layout.build_layout`` into an ``array("f")``
buffer from the observing seat's point of view; ``MedarotEncoder.observe`` calls them and
hands the buffer to numpy.
"""

from __future__ import annotations

import array
from typing import Final

from deckgym.envs.encoding.codec import write_hand
from deckgym.envs.medarot_ocg.actions import DP
from deckgym.envs.medarot_ocg.encode_actions import _REL, ActionCodec
from deckgym.envs.medarot_ocg.encode_layout import _DENSE_SCALARS, _MODE_INDEX, CARD_F, COUNT_DPS
from deckgym.envs.medarot_ocg.encode_tactics import _REACH
from deckgym.envs.medarot_ocg.rules.board import NEIGHBOUR, move_options_from
from deckgym.envs.medarot_ocg.state import Act, GameState

#: Decision points of the acting Medarot's owner where its one-step tactics are written.
_ACTING_DPS: Final = frozenset({DP.ACTION_START, DP.MOVE_BEFORE, DP.SUPPORT, DP.DECLARE, DP.MOVE_AFTER})
#: The scales of the effect totals and of the modifier sums in ``scalars`` (entries 31-34 and 35-40).
_TOT_SCALE: Final[tuple[int, ...]] = (3, 3, 2, 2)
_DYN_SCALE: Final[tuple[int, ...]] = (40, 40, 3, 40, 40, 3)
#: The packer of scalars 0-14, bound once (a method looked up by name at every call costs more).
_PACK_DENSE: Final = _DENSE_SCALARS.pack_into


class ObservationWriter(ActionCodec):
    """The encoder's writers of observation pieces (the offsets are set by ``MedarotEncoder``)."""

    n_cards: int
    row: dict[str, int]
    #: card id -> (power, armor, speed, 0 shooting / 1 melee / -1 other, cost)
    _stats: dict[str, tuple[int, int, int, int, int]]
    _card_rows: dict[str, array.array]
    #: a hand (its first 16 cards) -> its card rows as one array (``codec.write_hand``)
    _hands: dict[tuple[str, ...], array.array]
    #: per seat, its last hand and that hand's rows (``codec.write_hand``)
    _last_hands: list[tuple[list[str], array.array] | None]
    #: seat -> absolute square -> start of the square's row within the ``board`` piece (own frame)
    _square_rows: tuple[tuple[int, ...], ...]
    #: the ``board`` piece's start in the observation, and the piece zeroed (``_write_board``)
    _board: int
    _board_zero: array.array
    _sc: int
    _flags: int
    _moves: int
    _attacks: int
    _attack: int
    _more: int
    _range: int
    _cards: int
    _trash: int
    _reserve: int
    _reserve_end: int

    def _marks(self, st: GameState, seat: int, uid: int, target: int) -> list[int]:
        """Buffer positions of the acting-Medarot and target markers of the ``board`` piece."""
        out = []
        bo = self._board
        for i, x in zip(self._square_rows[seat], st.board, strict=True):
            if x is not None:
                if x.uid == uid:
                    out.append(bo + i + 7)
                elif x.uid == target:
                    out.append(bo + i + 8)
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
    ) -> array.array:
        """Piece ``board`` (but the acting and target markers), returned; ``board_cards``'s board rows, into ``buf``.

        The piece is written into an array of its own, whose small indices are cached int
        objects in the compiled build (an index into the whole observation is a new one at
        every write); the caller copies it in.

        Besides each Medarot's own flags, every square carries two tactical sums of public
        facts: ``threat`` (the highest effective power of a face-up enemy Medarot whose range
        covers the square) and ``reach`` (the same for the seat's own Medarots), plus whether
        the Medarot standing there could be destroyed by them (power >= armor).
        """
        card_rows = self._card_rows
        stats = self._stats
        rows = self._square_rows[seat]
        threat, reach, armor = tactics
        piece = self._board_zero[:]
        # the threat and reach columns, on every square
        for s in range(len(rows)):  # (indexed: compiled, a zip is a generic iterator)
            th = threat[s]
            if th:
                piece[rows[s] + 17] = th / 100
            rc = reach[s]
            if rc:
                piece[rows[s] + 18] = rc / 100
        co = self._cards
        rel = _REL[seat]
        for s, x in enumerate(st.board):
            if x is None:
                continue
            i = rows[s]
            mine = x.owner == seat
            piece[i] = 1.0
            piece[i + 1 + (not mine)] = 1.0
            if x.acted:
                piece[i + 5] = 1.0
            if x.placed:
                piece[i + 6] = 1.0
            uid = x.uid
            if x.face_up or mine:
                if x.face_up:
                    piece[i + 3] = 1.0
                piece[i + 4] = 1.0
                cid = x.change or x.base
                if x.change is not None:
                    piece[i + 9] = 1.0
                c = co + rel[s] * CARD_F
                buf[c : c + CARD_F] = card_rows[cid]
                if mods and uid in mods:
                    d = mods[uid]
                    pw, ar, sp = stats[cid][:3]
                    piece[i + 14] = (max(0, sp + d[2]) - sp) / 10  # effective = max(0, printed + modifiers)
                    piece[i + 15] = (max(0, pw + d[0]) - pw) / 100
                    piece[i + 16] = (max(0, ar + d[1]) - ar) / 100
                if mine:
                    if threat[s] and threat[s] >= armor[s]:
                        piece[i + 19] = 1.0
                elif reach[s] and reach[s] >= armor[s]:
                    piece[i + 20] = 1.0
            if sideways and uid in sideways:
                piece[i + 10] = 1.0
            if statuses and uid in statuses:
                b = statuses[uid]
                piece[i + 11] = float(b & 1)
                piece[i + 12] = float(b >> 1 & 1)
                piece[i + 13] = float(b >> 2 & 1)
        return piece

    def _write_acting(
        self,
        buf: array.array,
        st: GameState,
        seat: int,
        mods: dict[int, list[int]],
        tactics: tuple[list[int], list[int], list[int]],
    ) -> None:
        """Pieces ``acting_moves``, ``acting_attacks``, ``move_tactics`` and ``attack_range``: one-step tactics of the acting Medarot."""
        act = st.act
        assert act is not None
        board = st.board
        uid = act.uid
        s = -1
        prey: list[int] = []  # squares of known units of the other side (filtered by power below)
        hidden = set()  # squares of face-down units the seat cannot see
        for k, y in enumerate(board):
            if y is None:
                continue
            if y.uid == uid:
                s = k
            elif y.face_up or y.owner == seat:
                prey.append(k)
            else:
                hidden.add(k)
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
        enemies = set()  # every enemy unit of the acting Medarot, face-down ones too
        if kind >= 0:
            for t in prey:
                y = board[t]
                if y.owner != q:  # type: ignore[union-attr]
                    enemies.add(t)
                    if power >= armor[t]:
                        targets.add(t)
            if q == seat:  # the units hidden from the seat are the opponent's: enemies of its own Medarot
                enemies |= hidden
        if enemies:
            rng = self._range
            for t, between in _REACH[q][s][kind]:
                if t in enemies and (between < 0 or board[between] is None):
                    r = _REL[seat][t]
                    buf[rng + r] = 1.0
                    if t in targets:
                        y = board[t]
                        assert y is not None
                        i = self._attacks + 2 * r
                        buf[i] = 1.0
                        buf[i + 1] = (stats[y.base][4] + (stats[y.change][4] if y.change else 0)) / 5
        self._write_moves(buf, st, seat, s, own_armor, danger, (enemies, targets, hidden))

    def _write_moves(
        self,
        buf: array.array,
        st: GameState,
        seat: int,
        s: int,
        own_armor: int,
        danger: list[int],
        sets: tuple[set[int], set[int], set[int]],
    ) -> None:
        """Per move of the acting Medarot on ``s``: rows of ``acting_moves`` and ``move_tactics``.

        ``sets``: the squares of its enemies (face-down ones too), of the known enemies it
        destroys, and of the units hidden from ``seat``.
        """
        board = st.board
        x = board[s]
        assert x is not None
        q = x.owner
        kind = self._stats[x.change or x.base][3]
        stats = self._stats
        enemies, targets, hidden = sets
        moves, more = self._moves, self._more
        for direction in move_options_from(st, x, s):
            t = NEIGHBOUR[q][s][direction]
            i = moves + 3 * direction
            j = more + 4 * direction
            buf[i] = 1.0
            if danger[t] >= own_armor:
                buf[i + 1] = 1.0
            if t // 5 == 1:
                buf[j] = 1.0
            if enemies:
                best = -1
                for u, between in _REACH[q][t][kind]:
                    if u in enemies and (between < 0 or between == s or board[between] is None):
                        buf[j + 1] = 1.0
                        if u in hidden:
                            buf[j + 3] = 1.0
                        elif u in targets:
                            y = board[u]
                            assert y is not None
                            best = max(best, stats[y.base][4] + (stats[y.change][4] if y.change else 0))
                if best >= 0:
                    buf[i + 2] = 1.0
                    buf[j + 2] = best / 5

    def _write_attack(
        self,
        buf: array.array,
        st: GameState,
        seat: int,
        mods: dict[int, list[int]],
        tactics: tuple[list[int], list[int], list[int]],
    ) -> None:
        """Piece ``attack``: the acting Medarot's power against its target's armor, as far as ``seat`` knows them."""
        act = st.act
        assert act is not None
        board = st.board
        s = -1
        for k, y in enumerate(board):
            if y is not None and y.uid == act.uid:
                s = k
                break
        if s < 0:
            return
        x = board[s]
        assert x is not None
        if not (x.face_up or x.owner == seat):
            return
        power, _armor, _speed, kind, _cost = self._stats[x.change or x.base]
        if mods and x.uid in mods:
            power = max(0, power + mods[x.uid][0])
        armor = tactics[2]  # effective armor of every Medarot the seat knows
        i = self._attack
        buf[i] = power / 100
        if act.target >= 0:
            for t, y in enumerate(board):
                if y is not None and y.uid == act.target:
                    if y.face_up or y.owner == seat:
                        buf[i + 1] = armor[t] / 100
                        buf[i + 2] = (power - armor[t]) / 40
                        if power >= armor[t]:
                            buf[i + 3] = 1.0
                    break
            return
        if kind < 0:
            return
        weakest = -1
        for t, between in _REACH[x.owner][s][kind]:
            y = board[t]
            if y is None or y.owner == x.owner or not (y.face_up or y.owner == seat):
                continue
            if (between < 0 or board[between] is None) and (weakest < 0 or armor[t] < weakest):
                weakest = armor[t]
        if weakest >= 0:
            buf[i + 4] = (weakest - power) / 40

    def _write_cards(self, buf: array.array, st: GameState, seat: int) -> None:
        """The ``masters`` / ``stock_flags`` pieces, and the rows of hand, stock, masters and used card.

        A card the seat may not see keeps its all-zero row.
        """
        o = 1 - seat
        card_rows = self._card_rows
        F = CARD_F
        hand = st.hand[seat]
        if hand:
            write_hand(  # after the 15 board rows
                buf,
                self._cards + 15 * F,
                hand if len(hand) <= 16 else hand[:16],
                card_rows,
                self._hands,
                self._last_hands,
                seat,
            )
        use = st.use
        fl = self._flags
        stock_at = self._cards + 31 * F
        for k in range(2):
            p = seat if k == 0 else o
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
        for side in range(2):
            p = seat if side == 0 else o
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
        cached = st._piles_cache
        if cached is None or cached[0] != key:
            cached = st._piles_cache = (key, {})
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
        _PACK_DENSE(
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
            _write_act_flags(buf, a, sc + 20)
            if a.target >= 0:
                buf[sc + 30] = 1.0
        for k in range(4):  # the non-zero effect totals (the others stay zero)
            if tot[k]:
                buf[sc + 31 + k] = tot[k] / _TOT_SCALE[k]
        for k in range(6):
            if dyn[k]:
                buf[sc + 35 + k] = dyn[k] / _DYN_SCALE[k]
        point = st.decision_point
        if point is not None and point[0] in COUNT_DPS:
            buf[sc + 41] = point[2][-1] / 9
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


def _write_act_flags(buf: array.array, a: Act, k: int) -> None:
    """The flags of the action under way from ``buf[k]`` on, in the order of ``ACT_FLAG_NAMES``.

    Read one by one: in the compiled build each is a field read.
    """
    if a.action_used:
        buf[k] = 1.0
    if a.defence_used:
        buf[k + 1] = 1.0
    if a.moved:
        buf[k + 2] = 1.0
    if a.changed:
        buf[k + 3] = 1.0
    if a.cancel_penalty:
        buf[k + 4] = 1.0
    if a.free_far:
        buf[k + 5] = 1.0
    if a.far:
        buf[k + 6] = 1.0
    if a.negated:
        buf[k + 7] = 1.0
    if a.redirected:
        buf[k + 8] = 1.0
    if a.disabled:
        buf[k + 9] = 1.0

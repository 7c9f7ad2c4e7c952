"""Observation and action encoding of the Medarot parts game (spec sections 6 and 7).

Actions: one ``Discrete(46)``; the meaning of an index depends on the decision point (which
is part of the observation).

| indices | name | decision points |
|---|---|---|
| 0 | PASS / NOTHING / DECLINE | DP2, DP3, DP5, DP7, DP8, DP11, DP15, DP16 |
| 1-3 | USE_PART(s), s = head, right arm, left arm | DP3 |
| 4-19 | HAND(h), canonical hand order | DP2, DP3, DP5, DP7, DP16 |
| 20-23 | PAY_ENERGY(k) / ENERGY_KIND(k), k = shoot, melee, defense, support | DP4, DP15 |
| 24 | PAY_MEDAL | DP4 |
| 25-26 | MEDAROT(i) of the player named by the decision | DP1, DP6, DP12, DP13, DP15 |
| 27-30 | PART(s), s = head, right arm, left arm, legs | DP10, DP14, DP15 |
| 31 | EVADE | DP8 |
| 32-34 | PROTECT(s) | DP8 |
| 35-44 | AMOUNT(k), k = 0..9 | DP9 |
| 45 | ATTACH_EFFECT | DP11 |

Observations are float32 vectors built from the named pieces of the layout, seen from the
observing seat (own side first). Card identities appear as feature rows; the opponent's hand
appears only as a count, and deck contents and order never appear.

The proxy of an AMALOGS table (amalogs D37, D42) fills seat 1's first medarot rows: a medarot
row with only ``stopped`` and ``defending`` set, and a head row with its counters and
remaining armor (= its life P; /9 like every armor, so above 1 when P > 9), ``destroyed`` at
P = 0; it has no other part and no card rows.
"""

from __future__ import annotations

import struct
from array import array
from typing import Final

import numpy as np

from deckgym.envs.encoding.codec import FLOAT32, Encoder, write_hand
from deckgym.envs.medarot_parts.actions import ACTION_SIZE, ALL_ACTIONS, OFFSET, Action, Kind
from deckgym.envs.medarot_parts.cards import LEGS, CardPool
from deckgym.envs.medarot_parts.encode_layout import (
    CARD_F,
    MED_F,
    N_CARD_ROWS,
    PART_F,
    build_layout,
    card_row,
)
from deckgym.envs.medarot_parts.state import STAT_POWER, GameState, Medarot

__all__ = ["CARD_F", "PartsEncoder", "build_layout", "card_row"]

_OFF: Final = [OFFSET[Kind(k)] for k in range(len(Kind))]
#: Most memoised medarot blocks an encoder keeps (the memo is emptied when it is full); an entry
#: takes about 0.9 kB (its key, two small arrays and a reference to shared card rows).
_MEMO_SIZE: Final = 1 << 15
#: Most memoised blocks of a medarot's card rows (``_rows_of``; 1.8 kB each).
_ROWS_MEMO: Final = 1024
_FIXED: Final = build_layout(0)
_SCALARS: Final = _FIXED["scalars"].start
_MEDAROTS: Final = _FIXED["medarots"].start
_PARTS: Final = _FIXED["parts"].start
_ENERGY: Final = _FIXED["energy"].start
_FIELD: Final = _FIXED["field_cards"].start
_HAND: Final = _FIXED["hand_cards"].start
_USE: Final = _FIXED["use_card"].start
#: A medarot's part rows and card rows.
_PARTS_F: Final = 4 * PART_F
_FIELD_F: Final = 5 * CARD_F
#: The packers of the scalars' runs of 16, 10 and 5 entries (``PartsEncoder._scalars``).
_PACK_16: Final = struct.Struct("16f").pack_into
_PACK_10: Final = struct.Struct("10f").pack_into
_PACK_5: Final = struct.Struct("5f").pack_into


def _deltas(mods: list[list[int]], p: int, m: int, uids: tuple[int, int, int]) -> tuple[int, ...]:
    """The modifier sums on player ``p``'s medarot ``m``: power on head, arms, then charge on them.

    A modifier row counts on a part it is bound to (by uid) or on the slots of the medarot it
    names (D28, D42), as in ``rules.values``.
    """
    d = [0, 0, 0, 0, 0, 0]
    for mod in mods:
        uid = mod[2]
        k = 0 if mod[0] == STAT_POWER else 3
        slots = mod[5] if uid < 0 and mod[3] == p and mod[4] == m else 0
        for s in range(3):
            if uid == uids[s] or slots & (1 << s):
                d[k + s] += mod[1]
    return tuple(d)


class PartsEncoder(Encoder):
    """Encoder of one card pool (the table of card features is built once)."""

    action_size = ACTION_SIZE
    #: per medarot slot (2 player + medarot), the last block written there and its key: a
    #: medarot seldom changes between two observations, and comparing a key is cheaper than
    #: hashing it (the memo is asked only when the key differs)
    _last: list[tuple[tuple[object, ...], tuple[array, array, array]] | None]
    #: per pile (2 area + player), its last cards and counts piece (the same shortcut)
    _last_piles: list[tuple[list[str], array] | None]

    def __init__(self, pool: CardPool) -> None:
        self.pool = pool
        self.n_cards = len(pool)
        self.layout = build_layout(self.n_cards)
        table = [[0.0] * CARD_F] + [card_row(c) for c in pool.cards.values()]
        self.table = np.asarray(table, dtype=np.float32)
        self.row = {cid: c.index for cid, c in pool.cards.items()}
        self.deck_types = self.n_cards
        L = self.layout
        self.card_region = (L["field_cards"].start, N_CARD_ROWS, CARD_F)
        #: Medarot blocks by the medarot's state (``observe``): its medarot row, its part rows and
        #: its card rows; the pool is fixed, so a key's block is too.
        self._memo: dict[tuple[object, ...], tuple[array, array, array]] = {}
        #: a medarot's card ids (medal, then parts) -> their feature rows as one array (``_rows_of``)
        self._rows: dict[tuple[str, ...], array] = {}
        #: a hand's card ids -> their feature rows as one array (``codec.write_hand``)
        self._hands: dict[tuple[str, ...], array] = {}
        #: per seat, its last hand and that hand's rows (``codec.write_hand``)
        self._last_hands: list[tuple[list[str], array] | None] = [None, None]
        #: the feature table's rows as float32 arrays, by card id.
        self._card_rows = {cid: array("f", self.table[i].tobytes()) for cid, i in self.row.items()}
        self._last = [None] * 4
        self._last_piles = [None] * 4
        #: card id -> its energy kind (the ``energy`` piece's column)
        self._kind = {cid: c.kind for cid, c in pool.cards.items()}
        self._zero = array("f", bytes(4 * L.size))
        self._play = L["play_area"].start
        assert self._play == _FIXED["play_area"].start, (
            "the pieces before the piles do not depend on the pool"
        )

    def deck_type(self, card: str) -> int:
        """The global state's deck column of a card: its pool row minus one."""
        return self.row[card] - 1

    # ------------------------------------------------------------------ actions
    def action_to_index(self, action: Action, state: GameState) -> int:
        """Index of an engine action (section 6)."""
        return _OFF[action[0]] + action[1]

    def index_to_action(self, index: int, state: GameState) -> Action:
        """Engine action of an index."""
        if not 0 <= index < ACTION_SIZE:
            raise ValueError(f"action index {index} out of range 0..{ACTION_SIZE - 1}")
        return ALL_ACTIONS[index]

    def legal_indices(self, state: GameState) -> list[int]:
        """Indices of the legal actions of the player to move."""
        off = _OFF
        return [off[k] + a for k, a in state.legal_actions()]

    def action_label(self, index: int, state: GameState) -> str:
        """E.g. ``HAND(2) Overdrive Chip`` or ``USE_PART(right arm) Rust Bloom``."""
        a = self.index_to_action(index, state)
        text = str(a)
        p = state.current_player
        if p < 0:
            return text
        if a.kind == Kind.HAND and a.arg < len(state.hand[p]):
            text += f" {state.cards[state.hand[p][a.arg]].name}"
        elif a.kind in (Kind.USE_PART, Kind.PROTECT):
            m = (
                state.action_medarot[p]
                if a.kind == Kind.USE_PART
                else (state.battle.defender if state.battle else -1)
            )
            if m >= 0:
                text += f" {state.cards[state.field[p][m].parts[a.arg].card].name}"
        return text

    # ------------------------------------------------------------------ observations
    def observe(self, st: GameState, seat: int) -> np.ndarray:
        """The observation of ``seat`` (spec section 7): public state plus its own hand.

        The vector is written into a zeroed ``array.array`` (memoised medarot blocks and card
        rows copied in by slice, the few other entries one by one) and handed to numpy without
        a copy: every call returns a new array.
        """
        buf = self._zero[:]
        o = 1 - seat
        point = st.decision_point
        if point is not None and not st.done:
            buf[point[0]] = 1.0
            if point[1] == seat:  # the seat decides (``current_player``)
                buf[_SCALARS] = 1.0
        self._scalars(buf, st, seat)
        b = st.battle
        mods = st.mods
        k = 0  # medarot blocks written so far (a vacant seat 1 of an AMALOGS table has none)
        for side in range(2):  # (a range: compiled, a loop over a tuple is a generic iterator)
            p = seat if side == 0 else o
            if p == 1 and st.config.proxy:
                self._proxy(buf, st, k)
                k += 2
                continue
            am = st.action_medarot[p]
            for m, med in enumerate(st.field[p]):
                attacking = b is not None and b.attacker == p and b.medarot == m
                defending = b is not None and b.attacker != p and b.defender == m
                hd, ra, la, lg = med.parts
                delta = _deltas(mods, p, m, (hd.uid, ra.uid, la.uid)) if mods else None
                # the block is a function of the medarot's own state and its modifiers: memoised
                key = (
                    med.medal,
                    med.medal_tapped,
                    am == m,
                    (1, b.slot) if attacking else (2, b.protect) if defending else 0,  # type: ignore[union-attr]
                    delta,
                    hd.card, hd.tapped, hd.destroyed, hd.counters, hd.effect, len(hd.attached),
                    ra.card, ra.tapped, ra.destroyed, ra.counters, ra.effect, len(ra.attached),
                    la.card, la.tapped, la.destroyed, la.counters, la.effect, len(la.attached),
                    lg.card, lg.tapped, lg.destroyed, lg.counters, lg.effect, len(lg.attached),
                )  # fmt: skip
                block = self._block(st, p, m, med, key, attacking, defending, delta)
                i = _MEDAROTS + k * MED_F
                buf[i : i + MED_F] = block[0]
                i = _PARTS + k * _PARTS_F
                buf[i : i + _PARTS_F] = block[1]
                i = _FIELD + k * _FIELD_F
                buf[i : i + _FIELD_F] = block[2]
                k += 1
        stock0, stock1 = st.stock[seat], st.stock[o]
        if stock0 or stock1:
            kind = self._kind
            energy = [0.0] * 16
            for cid, tapped in stock0:
                energy[4 * tapped + kind[cid]] += 0.1
            for cid, tapped in stock1:
                energy[8 + 4 * tapped + kind[cid]] += 0.1
            for j, value in enumerate(energy):  # the few non-zero entries, one by one
                if value:
                    buf[_ENERGY + j] = value
        hand = st.hand[seat]
        if hand:
            write_hand(buf, _HAND, hand, self._card_rows, self._hands, self._last_hands, seat)
        use = st.use
        if use is not None:
            buf[_USE : _USE + CARD_F] = self._card_rows[use[1]]
        n = self.n_cards
        i = self._play
        for a in range(2):
            area, step = (st.play, 1.0) if a == 0 else (st.trash, 0.25)
            for side in range(2):
                p = seat if side == 0 else o
                cards = area[p]
                if cards:
                    buf[i : i + n] = self._pile(2 * a + p, step, cards)
                i += n
        return np.frombuffer(buf, FLOAT32)

    def _block(
        self,
        st: GameState,
        p: int,
        m: int,
        med: Medarot,
        key: tuple[object, ...],
        attacking: bool,
        defending: bool,
        delta: tuple[int, ...] | None,
    ) -> tuple[array, array, array]:
        """Medarot ``m`` of player ``p``: its medarot row, part rows and card rows, memoised by ``key``.

        The slot's last block is tried first (``_last``), then the memo.
        """
        last = self._last[2 * p + m]
        if last is not None and last[0] == key:
            return last[1]
        memo = self._memo
        block = memo.get(key)
        if block is None:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            meds, parts = self._medarot(st, p, m, med, attacking, defending, delta)
            ids = (med.medal, *(part.card for part in med.parts))
            block = memo[key] = (array("f", meds), array("f", parts), self._rows_of(ids))
        self._last[2 * p + m] = (key, block)
        return block

    def _proxy(self, buf: array, st: GameState, k: int) -> None:
        """Seat 1's medarot block on a proxy table (D37, D42), the ``k``-th block; the next one stays empty.

        The proxy's block is a medarot row, a head row and three empty part rows, and no card rows.
        """
        b = st.battle
        life = st.proxy_life
        i = _MEDAROTS + k * MED_F
        buf[i + 6] = float(life == 0)
        buf[i + 9] = float(b is not None and b.attacker == 0 and b.defender == 0)
        i = _PARTS + k * _PARTS_F
        buf[i + 1] = float(life == 0)
        buf[i + 2] = (st.proxy_armor - life if life else 0) / 9
        buf[i + 3] = life / 9

    def _rows_of(self, cards: tuple[str, ...]) -> array:
        """The feature rows of ``cards``, in order, as one float32 array, memoised."""
        out = self._rows.get(cards)
        if out is None:
            out = array("f")
            for cid in cards:
                out += self._card_rows[cid]
            if len(self._rows) >= _ROWS_MEMO:
                self._rows.clear()
            self._rows[cards] = out
        return out

    def _pile(self, slot: int, step: float, cards: list[str]) -> array:
        """A pile's counts piece (``step`` per copy of each card) as float32 entries.

        ``slot`` (2 area + player) names the pile, whose last cards and piece are kept
        (``_last_piles``): a pile seldom changes between two observations, and one that did
        is seldom one seen before, so no memo of older piles is kept.
        """
        seen = self._last_piles[slot]
        if seen is not None and seen[0] == cards:
            return seen[1]
        out = array("f", bytes(4 * self.n_cards))  # zeroed; only the pile's own cards are written
        row = self.row
        for cid in cards:
            out[row[cid] - 1] += step
        self._last_piles[slot] = (list(cards), out)
        return out

    def _medarot(
        self,
        st: GameState,
        p: int,
        m: int,
        med: Medarot,
        attacking: bool,
        defending: bool,
        delta: tuple[int, ...] | None,
    ) -> tuple[list[float], list[float]]:
        """One medarot's pieces: its medarot row and its four part rows (its card rows are ``_rows_of``).

        ``delta``: the modifiers' power and charge sums on the head and arms (``_deltas``), or
        None without modifiers. Current values as in ``rules.values``: printed value, STATIC
        abilities of a part in working order, modifiers, clamped to 0..9.
        """
        cards = st.cards
        b = st.battle
        mc = cards[med.medal]
        attr = [0.0, 0.0, 0.0, 0.0]
        attr[mc.attribute] = 1.0
        mparts = med.parts
        stopped = mparts[0].destroyed
        meds = attr + [
            mc.efficient / 2,
            float(med.medal_tapped),
            float(stopped),
            float(st.action_medarot[p] == m),
            float(attacking),
            float(defending),
            min(9, cards[mparts[LEGS].card].mobility) / 9,
        ]
        parts: list[float] = []
        for s, part in enumerate(mparts):
            c = cards[part.card]
            destroyed = part.destroyed
            if s >= 3:
                pw = ch = 0.0
            else:
                pw_v, ch_v = c.power, c.charge
                if not destroyed and not stopped:
                    sums = c.statics
                    pw_v += sums[0]
                    ch_v += sums[2]
                    if (sums[1] or sums[3]) and mc.attribute == c.attribute:
                        pw_v += sums[1]
                        ch_v += sums[3]
                if delta is not None:
                    pw_v += delta[s]
                    ch_v += delta[3 + s]
                pw = (0 if pw_v < 0 else min(pw_v, 9)) / 9
                ch = (0 if ch_v < 0 else min(ch_v, 9)) / 9
            parts += [
                float(part.tapped),
                float(destroyed),
                part.counters / 9,
                (0 if destroyed else c.armor - part.counters) / 9,
                float(part.effect is not None),
                len(part.attached) / 3,
                pw,
                ch,
                float(attacking and b is not None and b.slot == s),
                float(defending and b is not None and b.protect == s),
            ]
        return meds, parts

    def _scalars(self, buf: array, st: GameState, seat: int) -> None:
        """Piece ``scalars`` but its first entry (whether ``seat`` decides).

        Each run of entries is packed in one call (``array("f")`` stores native float32, as
        ``struct``'s ``f`` does): one call costs less than its entries written one by one.
        """
        o = 1 - seat
        cfg = st.config
        i = _SCALARS
        assets, hand, deck, trash, am = st.assets, st.hand, st.deck, st.trash, st.action_medarot
        _PACK_16(
            buf,
            4 * (i + 1),
            st.turn / cfg.max_turns,
            st.round / 2,
            st.priority == seat,
            st.first == seat,
            st.to_act == seat,
            st.passes / 2,
            assets[seat] / cfg.start_assets,
            assets[o] / cfg.start_assets,
            len(hand[seat]) / 16,
            len(hand[o]) / 16,
            len(deck[seat]) / cfg.deck_size,
            len(deck[o]) / cfg.deck_size,
            len(trash[seat]) / 50,
            len(trash[o]) / 50,
            am[seat] >= 0,
            am[o] >= 0,
        )
        b = st.battle
        if b is not None:
            r = b.response
            _PACK_10(
                buf,
                4 * (i + 17),
                1.0,
                b.attacker == seat,
                b.damage / 9,
                r == 0,
                r == 1,
                r == 2,
                b.amount / 9,
                b.no_evade,
                b.dealt / 9,
                b.defender >= 0,
            )
        pay = st.pay
        if pay is not None:
            _PACK_5(buf, 4 * (i + 27), 1.0, pay[0] == seat, pay[1] / 18, pay[2] / 18, pay[3] >= 0)
        use = st.use
        if use is not None:
            buf[i + 32] = 1.0
            buf[i + 33] = float(use[0] == seat)

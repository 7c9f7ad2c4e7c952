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

from array import array
from operator import attrgetter

import numpy as np

from deckgym.envs.encoding.codec import Encoder
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

_OFF = [OFFSET[Kind(k)] for k in range(len(Kind))]
#: Most memoised medarot blocks an encoder keeps (the memo is emptied when it is full); an entry
#: takes about 0.7 kB (its key, two small byte strings and references to shared card rows).
_MEMO_SIZE = 1 << 15
#: A part's state in a memo key (besides the number of cards attached to it).
_PART_KEY = attrgetter("card", "tapped", "destroyed", "counters", "effect")
#: One float32 zero.
_ZERO4 = bytes(4)


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
        #: Medarot blocks by the medarot's state (``observe``); the pool is fixed, so a key's block is too.
        self._memo: dict[tuple[object, ...], tuple[bytes, bytes, tuple[bytes, ...]]] = {}
        #: (count per copy, pile's cards) -> the pile's counts piece as float32 bytes
        self._piles: dict[tuple[float, tuple[str, ...]], bytes] = {}
        #: float32 bytes of the feature table's rows, by row and by card id.
        self._row_bytes = [r.tobytes() for r in self.table]
        self._card_bytes = {cid: self._row_bytes[i] for cid, i in self.row.items()}
        #: float32 bytes of the decision piece, by decision point (-1: none pending).
        dec = L["decision"].size
        self._decision = [
            bytes(4 * i) + array("f", [1.0]).tobytes() + bytes(4 * (dec - i - 1)) for i in range(dec)
        ]
        self._decision.append(bytes(4 * dec))
        order = [
            "decision", "scalars", "medarots", "parts", "energy", "field_cards", "hand_cards", "use_card",
            "play_area", "trash",
        ]  # fmt: skip
        assert list(L.pieces) == order, "observe joins the pieces in this order"

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

        The vector is joined from float32 bytes in layout order: memoised medarot blocks, card
        rows of the feature table, and the few pieces computed afresh.
        """
        o = 1 - seat
        point = st.decision_point
        pieces = [self._decision[point[0] if point is not None and not st.done else -1]]
        pieces.append(array("f", self._scalars(st, seat)).tobytes())
        b = st.battle
        mods = st.mods
        memo = self._memo
        pk = _PART_KEY
        blocks = []
        for p in (seat, o):
            if p == 1 and st.config.proxy:
                blocks += self._proxy(st)
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
                    pk(hd), len(hd.attached),
                    pk(ra), len(ra.attached),
                    pk(la), len(la.attached),
                    pk(lg), len(lg.attached),
                )  # fmt: skip
                block = memo.get(key)
                if block is None:
                    if len(memo) >= _MEMO_SIZE:
                        memo.clear()
                    meds, parts, rows = self._medarot(st, p, m, med, attacking, defending, delta)
                    rb = self._row_bytes
                    block = memo[key] = (
                        array("f", meds).tobytes(),
                        array("f", parts).tobytes(),
                        tuple(rb[r] for r in rows),  # the table's own row bytes, not copies
                    )
                blocks.append(block)
        vacant = 4 - len(blocks)  # a vacant seat 1 (AMALOGS) has no medarots
        pieces += [bl[0] for bl in blocks]
        pieces.append(_ZERO4 * (vacant * MED_F))
        pieces += [bl[1] for bl in blocks]
        pieces.append(_ZERO4 * (vacant * 4 * PART_F))
        energy = [0.0] * 16
        for j, p in enumerate((seat, o)):
            for cid, tapped in st.stock[p]:
                energy[8 * j + 4 * tapped + st.cards[cid].kind] += 0.1
        pieces.append(array("f", energy).tobytes())
        for bl in blocks:
            pieces += bl[2]
        pieces.append(_ZERO4 * (vacant * 5 * CARD_F))
        hand = st.hand[seat]
        cb = self._card_bytes
        pieces += [cb[cid] for cid in hand]
        pieces.append(_ZERO4 * ((16 - len(hand)) * CARD_F))
        pieces.append(_ZERO4 * CARD_F if st.use is None else cb[st.use[1]])
        for area, step in ((st.play, 1.0), (st.trash, 0.25)):
            for p in (seat, o):
                pieces.append(self._pile(step, area[p]))
        return np.frombuffer(bytearray(b"".join(pieces)), dtype=np.float32)

    def _proxy(self, st: GameState) -> list[tuple[bytes, bytes, tuple[bytes, ...]]]:
        """Seat 1's two medarot blocks on a proxy table (D37, D42): the proxy, then an empty one.

        The proxy's block is a medarot row, a head row and three empty part rows, and no card rows.
        """
        b = st.battle
        life = st.proxy_life
        defending = b is not None and b.attacker == 0 and b.defender == 0
        meds = [0.0] * MED_F
        meds[6] = float(life == 0)
        meds[9] = float(defending)
        head = [0.0] * PART_F
        head[1] = float(life == 0)
        head[2] = (st.proxy_armor - life if life else 0) / 9
        head[3] = life / 9
        empty = (_ZERO4 * (5 * CARD_F),)
        return [
            (array("f", meds).tobytes(), array("f", head).tobytes() + _ZERO4 * (3 * PART_F), empty),
            (_ZERO4 * MED_F, _ZERO4 * (4 * PART_F), empty),
        ]

    def _pile(self, step: float, cards: list[str]) -> bytes:
        """A pile's counts piece (``step`` per copy of each card) as float32 bytes, memoised."""
        key = (step, tuple(cards))
        out = self._piles.get(key)
        if out is None:
            counts = [0.0] * self.n_cards
            row = self.row
            for cid in cards:
                counts[row[cid] - 1] += step
            out = array("f", counts).tobytes()
            if len(self._piles) >= _MEMO_SIZE:
                self._piles.clear()
            self._piles[key] = out
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
    ) -> tuple[list[float], list[float], list[int]]:
        """One medarot's pieces: its medarot row, its four part rows and its five card rows.

        ``delta``: the modifiers' power and charge sums on the head and arms (``_deltas``), or
        None without modifiers. Current values as in ``rules.values``: printed value, STATIC
        abilities of a part in working order, modifiers, clamped to 0..9.
        """
        cards = st.cards
        row = self.row
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
        rows = [row[med.medal]]
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
            rows.append(row[part.card])
        return meds, parts, rows

    def _scalars(self, st: GameState, seat: int) -> list[float]:
        o = 1 - seat
        cfg = st.config
        sc = [
            float(st.current_player == seat),
            st.turn / cfg.max_turns,
            st.round / 2,
            float(st.priority == seat),
            float(st.first == seat),
            float(st.to_act == seat),
            st.passes / 2,
            st.assets[seat] / cfg.start_assets,
            st.assets[o] / cfg.start_assets,
            len(st.hand[seat]) / 16,
            len(st.hand[o]) / 16,
            len(st.deck[seat]) / cfg.deck_size,
            len(st.deck[o]) / cfg.deck_size,
            len(st.trash[seat]) / 50,
            len(st.trash[o]) / 50,
            float(st.action_medarot[seat] >= 0),
            float(st.action_medarot[o] >= 0),
        ]
        b = st.battle
        if b is None:
            sc += [0.0] * 10
        else:
            resp = [0.0, 0.0, 0.0]
            if b.response >= 0:
                resp[b.response] = 1.0
            sc += [1.0, float(b.attacker == seat), b.damage / 9, *resp]
            sc += [b.amount / 9, float(b.no_evade), b.dealt / 9, float(b.defender >= 0)]
        pay = st.pay
        if pay is None:
            sc += [0.0] * 5
        else:
            sc += [1.0, float(pay[0] == seat), pay[1] / 18, pay[2] / 18, float(pay[3] >= 0)]
        use = st.use
        sc += [0.0, 0.0] if use is None else [1.0, float(use[0] == seat)]
        return sc

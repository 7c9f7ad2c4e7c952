"""Observation and action encoding of Master of the World (spec sections 6 and 7, D48).

Actions: one ``Discrete(294)``; an engine ``Action(kind, arg)`` is index ``OFFSET[kind] + arg``.

| indices | name | meaning |
|---|---|---|
| 0 | PASS | end charge / main / attack, pass a counter window |
| 1-64 | HAND[k] | a hand card of type k: charge, cost discard, effect discard, experience from hand |
| 65-128 | USE[k] | summon / equip / cast card type k from hand |
| 129-192 | FAST[k] | activate spell type k from hand without casting (高速) |
| 193 | SLOT_SPELL | activate the own face-down spell |
| 194-207 | ABILITY[p][i] | 194+2p+i; p 0 master, 1-5 monster p-1, 6 weapon; i-th 起動/対抗 ability |
| 208-213 | ATTACKER[p] | 208+p; p 0 master, 1-5 monster p-1 |
| 214-229 | TARGET[s][q] | 214+8s+q; s 0 self, 1 opponent; q 0 master, 1-5 monster q-1, 6 weapon, 7 face-down spell |
| 230-293 | CARD_TYPE[k] | card type k for SEARCH_CHOICE / RECOVER_CHOICE |

Observations are float32 vectors of the named pieces of ``LAYOUT``, seen from the observing
seat (self first). Values are scaled but not clipped (D48). Hidden information never enters:
the opponent's hand and deck appear as counts, the identity of the opponent's face-down
spell (and of its cast entry on the chain) as zeros, and deck order nowhere.

At an AMALOGS table a vacant seat 1 leaves its blocks zero; a proxy at seat 1 (amalogs D42)
is an opponent master with life P/20 and every other entry zero (no master id, attack and
guard 0, no cards).
"""

from __future__ import annotations

import array
import math
from typing import Final

import numpy as np

from deckgym.envs.encoding.codec import FLOAT32, Encoder
from deckgym.envs.encoding.layout import ObsLayout
from deckgym.envs.mow.actions import ACTION_SIZE, ALL_ACTIONS, DP, OFFSET, Action, Kind, Phase, Use
from deckgym.envs.mow.cards import MASTER, OPS_ORDER, CardPool
from deckgym.envs.mow.config import CHAIN_OBS, LIFE_START, M_MAX, MAX_MONSTERS, P_MAX
from deckgym.envs.mow.rules.field import ref_at
from deckgym.envs.mow.rules.values import (
    Active,
    active_statics,
    master_stats,
    max_toughness,
    monster_attack,
    sick,
)
from deckgym.envs.mow.state import GameState

_OFF: Final = [OFFSET[Kind(k)] for k in range(len(Kind))]
_MON_F: Final = 6 + P_MAX
_CHAIN_F: Final = 3 + len(Use) + P_MAX
#: Where a chain entry's card id one-hot starts in its row.
_CHAIN_CARD: Final = 2 + len(Use)
_EFFECT_DPS: Final = (
    DP.EFFECT_TARGET,
    DP.EFFECT_DISCARD,
    DP.EXP_FROM_HAND,
    DP.SEARCH_CHOICE,
    DP.RECOVER_CHOICE,
)

LAYOUT: Final = ObsLayout(
    [
        ("decision", (len(DP),), "one-hot of the decision kind (NONE when the observer is not deciding)"),
        ("phase", (len(Phase),), "one-hot of the turn step: start, draw, charge, main, attack, end"),
        (
            "scalars",
            (6,),
            "is my turn, I am first, turn/100, charges this phase/4, fast used: self, opponent",
        ),
        ("master_id", (2, M_MAX), "self then opponent: master id one-hot"),
        (
            "master",
            (2, 8),
            "self then opponent: life/20, level/5, experience/40, attack/10, guard/10, deck/40, hand/40, attacked",
        ),
        ("weapon", (2, 1 + P_MAX), "self then opponent: weapon present, id one-hot"),
        (
            "spell_slot",
            (2, 2 + P_MAX),
            "self then opponent: filled, ready, id one-hot (zeros for the opponent)",
        ),
        (
            "monsters",
            (2 * MAX_MONSTERS, _MON_F),
            (
                "self positions 0-4 then opponent's: present, id one-hot, attack/10, toughness/12, "
                "max toughness/12, sick, attacked"
            ),
        ),
        ("discard", (2, P_MAX), "self then opponent: discard pile count per type /4"),
        ("experience", (2, P_MAX), "self then opponent: experience count per type /4"),
        ("turn_uses", (2, 2 * P_MAX), "self then opponent: ターンn uses per (type, ability index 0/1)"),
        ("hand", (P_MAX,), "own hand count per type /4"),
        ("deck", (P_MAX,), "own remaining deck count per type /4 (order hidden)"),
        (
            "chain",
            (CHAIN_OBS, _CHAIN_F),
            (
                "top 8 entries, top first: present, user is self, kind one-hot (summon, equip, cast, "
                "activate, ability), card id one-hot (zeros for the opponent's cast and for masters), negated"
            ),
        ),
        (
            "pending",
            (P_MAX + len(OPS_ORDER) + 1,),
            "effect being resolved at an effect decision: source card id one-hot, primitive one-hot, amount/10",
        ),
    ]
)
_P = {n: p.start for n, p in LAYOUT.pieces.items()}
_PHASE: Final = _P["phase"]
_SCALARS: Final = _P["scalars"]
_MASTER_ID: Final = _P["master_id"]
_MASTER: Final = _P["master"]
_WEAPON: Final = _P["weapon"]
_SPELL: Final = _P["spell_slot"]
_MONSTERS: Final = _P["monsters"]
_DISCARD: Final = _P["discard"]
_EXPERIENCE: Final = _P["experience"]
_TURN_USES: Final = _P["turn_uses"]
_HAND: Final = _P["hand"]
_DECK: Final = _P["deck"]
_CHAIN: Final = _P["chain"]
_PENDING: Final = _P["pending"]
#: Most piles ``MowEncoder._count`` keeps.
COUNT_MEMO: Final = 4096


class MowEncoder(Encoder):
    """Encoder of one card pool."""

    action_size = ACTION_SIZE
    layout = LAYOUT
    card_region: tuple[int, int, int] | None = (_P["monsters"], 2 * MAX_MONSTERS, _MON_F)
    #: D48: scaled values are not clipped, so the observation is unbounded.
    obs_bounds = (-math.inf, math.inf)
    deck_types = P_MAX

    def __init__(self, pool: CardPool) -> None:
        self.pool = pool
        self.index = {cid: c.index for cid, c in pool.cards.items()}
        self.is_master = {cid: c.kind == MASTER for cid, c in pool.cards.items()}
        #: a pile's cards -> its ``P_MAX`` count entries (``_count``): a pile changes far less
        #: often than a decision is observed, so most calls find their entries here
        self._counts: dict[tuple[str, ...], array.array] = {}
        #: ``turn_uses`` key -> its column in a side's ``turn_uses`` piece (-1: a master's)
        self._use_cols: dict[str, int] = {}
        self._zero = array.array("f", bytes(4 * LAYOUT.size))

    def deck_type(self, card: str) -> int:
        """The global state's deck column of a main-deck card: its card type k."""
        return self.index[card]

    # ------------------------------------------------------------------ actions
    def action_to_index(self, action: Action, state: GameState) -> int:
        """Index of an engine action."""
        return _OFF[action[0]] + action[1]

    def index_to_action(self, index: int, state: GameState) -> Action:
        """Engine action of an index."""
        return ALL_ACTIONS[index]

    def legal_indices(self, state: GameState) -> list[int]:
        """Indices of the legal actions of the player to move."""
        off = _OFF
        return [off[k] + a for k, a in state.legal_actions()]

    def action_label(self, index: int, state: GameState) -> str:
        """A readable name, with card names where the index refers to a card."""
        a = ALL_ACTIONS[index]
        k = Kind(a.kind)
        main = self.pool.main
        if k in (Kind.HAND, Kind.USE, Kind.FAST, Kind.CARD_TYPE) and a.arg < len(main):
            return f"{k.name} {main[a.arg].name}"
        if k == Kind.TARGET and state.current_player >= 0:
            try:
                ref = ref_at(state, state.current_player, a.arg)
            except (IndexError, TypeError):
                return str(a)
            return f"{a} = {_ref_name(state, ref)}"
        return str(a)

    # ------------------------------------------------------------------ observation
    def observe(self, state: GameState, seat: int) -> np.ndarray:
        """float32 vector of ``LAYOUT.size`` with only what ``seat`` may know.

        The entries are written into a zeroed ``array.array`` and handed to numpy without a
        copy: every call returns a new array.
        """
        st = state
        buf = self._zero[:]
        o = 1 - seat
        point = st.decision_point
        if point is not None and point[1] == seat and not st.done:
            buf[point[0]] = 1.0
        else:
            buf[0] = 1.0
        buf[_PHASE + st.phase] = 1.0
        s = _SCALARS
        if st.active == seat:
            buf[s] = 1.0
        if st.first == seat:
            buf[s + 1] = 1.0
        buf[s + 2] = st.turn / 100
        buf[s + 3] = st.charges / 4
        fast = st.fast_used
        buf[s + 4] = fast[seat]
        buf[s + 5] = fast[o]
        active = active_statics(st, "stat_mods")
        self._player(st, buf, 0, seat, True, active)
        self._player(st, buf, 1, o, False, active)
        count = self._count
        count(buf, _HAND, st.hand[seat])
        count(buf, _DECK, st.deck[seat])
        if st.chain:
            self._chain(st, buf, seat)
        if point is not None and st.pending is not None and point[0] in _EFFECT_DPS:
            self._pending(st, buf)
        return np.frombuffer(buf, FLOAT32)

    def _player(self, st: GameState, buf: array.array, side: int, p: int, own: bool, active: Active) -> None:
        master = st.masters[p]
        if not master:
            if st.is_proxy(p):  # the proxy master (amalogs D42): life P, attack and guard 0
                buf[_MASTER + 8 * side] = st.life[p] / LIFE_START
            return  # a vacant seat (AMALOGS table): its block stays zero
        idx = self.index
        buf[_MASTER_ID + M_MAX * side + idx[master]] = 1.0
        m = _MASTER + 8 * side
        buf[m] = st.life[p] / LIFE_START
        buf[m + 1] = st.level[p] / 5
        exp = st.exp[p]
        buf[m + 2] = len(exp) / 40
        attack, guard = master_stats(st, p, active)
        buf[m + 3] = attack / 10
        buf[m + 4] = guard / 10
        buf[m + 5] = len(st.deck[p]) / 40
        buf[m + 6] = len(st.hand[p]) / 40
        buf[m + 7] = st.master_attacked[p]
        wp = st.weapon[p]
        if wp is not None:
            b = _WEAPON + (1 + P_MAX) * side
            buf[b] = 1.0
            buf[b + 1 + idx[wp[0]]] = 1.0
        sp = st.spell[p]
        if sp is not None:
            b = _SPELL + (2 + P_MAX) * side
            buf[b] = 1.0
            if st.turn > sp[1]:
                buf[b + 1] = 1.0
            if own:
                buf[b + 2 + idx[sp[0]]] = 1.0
        b = _MONSTERS + _MON_F * MAX_MONSTERS * side
        for mon in st.monsters[p][:MAX_MONSTERS]:
            buf[b] = 1.0
            buf[b + 1 + idx[mon.card]] = 1.0
            mt = max_toughness(st, p, mon, active)
            t = b + 1 + P_MAX
            buf[t] = monster_attack(st, p, mon, active) / 10
            buf[t + 1] = (mt - mon.damage) / 12
            buf[t + 2] = mt / 12
            if sick(st, mon):
                buf[t + 3] = 1.0
            buf[t + 4] = mon.attacked
            b += _MON_F
        self._count(buf, _DISCARD + P_MAX * side, st.discard[p])
        self._count(buf, _EXPERIENCE + P_MAX * side, exp)
        uses = st.turn_uses[p]
        if uses:
            u = _TURN_USES + 2 * P_MAX * side
            cols = self._use_cols
            for key, n in uses.items():
                col = cols.get(key)
                if col is None:
                    cid, _, use = key.partition("/")
                    col = cols[key] = -1 if self.is_master[cid] else 2 * idx[cid] + int(use)
                if col >= 0:
                    buf[u + col] = n

    def _count(self, buf: array.array, base: int, cards: list[str]) -> None:
        """Write 0.25 per copy at ``base + k`` for every card of type ``k`` in ``cards``.

        The ``P_MAX`` entries of a pile are worked out once and kept (at most ``COUNT_MEMO``
        piles; the memo starts over when full), and copied in by slice: ``base`` must start a
        piece of ``P_MAX`` entries that nothing else writes.
        """
        if not cards:
            return
        key = tuple(cards)
        row = self._counts.get(key)
        if row is None:
            row = array.array("f", bytes(4 * P_MAX))
            idx = self.index
            for cid in cards:
                row[idx[cid]] += 0.25
            if len(self._counts) >= COUNT_MEMO:
                self._counts.clear()
            self._counts[key] = row
        buf[base : base + P_MAX] = row

    def _chain(self, st: GameState, buf: array.array, seat: int) -> None:
        b = _CHAIN
        is_master = self.is_master
        idx = self.index
        for user, kind, card, _uid, negated, _here, _ai in reversed(st.chain[-CHAIN_OBS:]):
            buf[b] = 1.0
            mine = user == seat
            if mine:
                buf[b + 1] = 1.0
            buf[b + 2 + kind] = 1.0
            if (mine or kind != Use.CAST) and not is_master[card]:
                buf[b + _CHAIN_CARD + idx[card]] = 1.0
            buf[b + _CHAIN_F - 1] = negated
            b += _CHAIN_F

    def _pending(self, st: GameState, buf: array.array) -> None:
        pending = st.pending
        f = pending[1]
        card = f[1]
        e = st.cards[card].effect_list(f[2])[f[3]]
        b = _PENDING
        if not self.is_master[card]:
            buf[b + self.index[card]] = 1.0
        buf[b + P_MAX + OPS_ORDER.index(e.op)] = 1.0
        left = pending[3] if pending[0] == "unit" else max(e.amount, 0)
        buf[b + P_MAX + len(OPS_ORDER)] = left / 10


def _ref_name(st: GameState, ref: int) -> str:
    if ref < 0:
        if st.is_proxy(-1 - ref):
            return st.stand_in()
        return f"P{-1 - ref}'s master {st.name(st.masters[-1 - ref])}"
    for p in (0, 1):
        for m in st.monsters[p]:
            if m.uid == ref:
                return st.name(m.card)
        w = st.weapon[p]
        if w is not None and w[1] == ref:
            return st.name(w[0])
        if st.spell[p] is not None and st.spell[p][2] == ref:  # type: ignore[index]
            return "a face-down spell"
    return "?"

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

import math

import numpy as np

from deckgym.envs.encoding.codec import Encoder
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

_OFF = [OFFSET[Kind(k)] for k in range(len(Kind))]
_MON_F = 6 + P_MAX
_CHAIN_F = 3 + len(Use) + P_MAX
_EFFECT_DPS = (DP.EFFECT_TARGET, DP.EFFECT_DISCARD, DP.EXP_FROM_HAND, DP.SEARCH_CHOICE, DP.RECOVER_CHOICE)

LAYOUT = ObsLayout(
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
#: Most (piece, cards) pairs ``MowEncoder._count`` keeps.
COUNT_MEMO = 4096


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
        #: (piece start, cards) -> that piece's non-zero entries (``_count``): a pile changes
        #: far less often than a decision is observed, so most calls find their entries here
        self._counts: dict[tuple[int, tuple[str, ...]], dict[int, float]] = {}

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

        The non-zero entries are gathered in a dict (index -> value) and written in one call.
        """
        st = state
        w: dict[int, float] = {}
        o = 1 - seat
        if st.decision_point is not None and st.decision_point[1] == seat and not st.done:
            w[st.decision_point[0]] = 1.0
        else:
            w[0] = 1.0
        w[_P["phase"] + st.phase] = 1.0
        s = _P["scalars"]
        w[s] = st.active == seat
        w[s + 1] = st.first == seat
        w[s + 2] = st.turn / 100
        w[s + 3] = st.charges / 4
        w[s + 4] = st.fast_used[seat]
        w[s + 5] = st.fast_used[o]
        active = active_statics(st)
        for side, p in enumerate((seat, o)):
            self._player(st, w, side, p, p == seat, active)
        count = self._count
        count(w, _P["hand"], st.hand[seat])
        count(w, _P["deck"], st.deck[seat])
        self._chain(st, w, seat)
        self._pending(st, w)
        obs = np.zeros(LAYOUT.size, dtype=np.float32)
        obs[np.fromiter(w, np.intp, len(w))] = np.fromiter(w.values(), np.float64, len(w))
        return obs

    def _player(
        self, st: GameState, w: dict[int, float], side: int, p: int, own: bool, active: Active
    ) -> None:
        if not st.masters[p]:
            if st.is_proxy(p):  # the proxy master (amalogs D42): life P, attack and guard 0
                w[_P["master"] + 8 * side] = st.life[p] / LIFE_START
            return  # a vacant seat (AMALOGS table): its block stays zero
        idx = self.index
        w[_P["master_id"] + M_MAX * side + idx[st.masters[p]]] = 1.0
        m = _P["master"] + 8 * side
        w[m] = st.life[p] / LIFE_START
        w[m + 1] = st.level[p] / 5
        w[m + 2] = len(st.exp[p]) / 40
        attack, guard = master_stats(st, p, active)
        w[m + 3] = attack / 10
        w[m + 4] = guard / 10
        w[m + 5] = len(st.deck[p]) / 40
        w[m + 6] = len(st.hand[p]) / 40
        w[m + 7] = st.master_attacked[p]
        wp = st.weapon[p]
        if wp is not None:
            b = _P["weapon"] + (1 + P_MAX) * side
            w[b] = 1.0
            w[b + 1 + idx[wp[0]]] = 1.0
        sp = st.spell[p]
        if sp is not None:
            b = _P["spell_slot"] + (2 + P_MAX) * side
            w[b] = 1.0
            w[b + 1] = st.turn > sp[1]
            if own:
                w[b + 2 + idx[sp[0]]] = 1.0
        base = _P["monsters"] + _MON_F * MAX_MONSTERS * side
        for i, mon in enumerate(st.monsters[p][:MAX_MONSTERS]):
            b = base + _MON_F * i
            w[b] = 1.0
            w[b + 1 + idx[mon.card]] = 1.0
            mt = max_toughness(st, p, mon, active)
            t = b + 1 + P_MAX
            w[t] = monster_attack(st, p, mon, active) / 10
            w[t + 1] = (mt - mon.damage) / 12
            w[t + 2] = mt / 12
            w[t + 3] = sick(st, mon)
            w[t + 4] = mon.attacked
        self._count(w, _P["discard"] + P_MAX * side, st.discard[p])
        self._count(w, _P["experience"] + P_MAX * side, st.exp[p])
        u = _P["turn_uses"] + 2 * P_MAX * side
        for key, n in st.turn_uses[p].items():
            cid, _, use = key.partition("/")
            if not self.is_master[cid]:
                w[u + 2 * idx[cid] + int(use)] = n

    def _count(self, w: dict[int, float], base: int, cards: list[str]) -> None:
        """Write 0.25 per copy at ``base + k`` for every card of type ``k`` in ``cards``.

        The entries of a (piece, cards) pair are worked out once and kept (at most
        ``COUNT_MEMO`` pairs; the memo starts over when full). ``base`` must start a piece
        that nothing else writes.
        """
        key = (base, tuple(cards))
        entries = self._counts.get(key)
        if entries is None:
            entries = {}
            idx = self.index
            for cid in cards:
                k = base + idx[cid]
                entries[k] = entries.get(k, 0.0) + 0.25
            if len(self._counts) >= COUNT_MEMO:
                self._counts.clear()
            self._counts[key] = entries
        w.update(entries)

    def _chain(self, st: GameState, w: dict[int, float], seat: int) -> None:
        c = _P["chain"]
        for j, (user, kind, card, _uid, negated, _here, _ai) in enumerate(reversed(st.chain[-CHAIN_OBS:])):
            b = c + _CHAIN_F * j
            w[b] = 1.0
            w[b + 1] = user == seat
            w[b + 2 + kind] = 1.0
            visible = not (kind == Use.CAST and user != seat) and not self.is_master[card]
            if visible:
                w[b + 2 + len(Use) + self.index[card]] = 1.0
            w[b + _CHAIN_F - 1] = negated

    def _pending(self, st: GameState, w: dict[int, float]) -> None:
        if st.decision_point is None or st.decision_point[0] not in _EFFECT_DPS or st.pending is None:
            return
        f = st.pending[1]
        card = f[1]
        e = st.cards[card].effect_list(f[2])[f[3]]
        b = _P["pending"]
        if not self.is_master[card]:
            w[b + self.index[card]] = 1.0
        w[b + P_MAX + OPS_ORDER.index(e.op)] = 1.0
        left = st.pending[3] if st.pending[0] == "unit" else max(e.amount, 0)
        w[b + P_MAX + len(OPS_ORDER)] = left / 10


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

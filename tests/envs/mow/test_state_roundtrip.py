"""Exact to_dict / from_dict round trips (mid-game and mid-chain), clones and determinism (I18)."""

from __future__ import annotations

import json
import random

import pytest

from deckgym.envs.core.errors import StateError
from deckgym.envs.mow.actions import DP
from deckgym.envs.mow.state import GameState
from tests.envs.mow import fixtures as fx
from tests.envs.mow.test_invariants import start


def _json(st: GameState) -> str:
    return json.dumps(st.to_dict(), sort_keys=True)


def _walk(seed: int, steps: int = 10_000):
    st = start(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.done:
            return
        yield st, rng
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])


def test_round_trip_is_exact_and_the_game_continues_identically():
    checked = chain_checked = 0
    for seed in range(8):
        for st, rng in _walk(seed):
            if rng.random() < 0.15 or st.chain:
                data = json.loads(_json(st))
                back = GameState.from_dict(data)
                assert _json(back) == _json(st)
                assert back.legal_actions() == st.legal_actions()
                tail = random.Random(seed)
                a, b = st.clone(), back
                for _ in range(25):
                    if a.done:
                        break
                    legal = a.legal_actions()
                    move = legal[tail.randrange(len(legal))]
                    a.apply(move)
                    b.apply(move)
                assert _json(a) == _json(b)
                checked += 1
                chain_checked += bool(st.chain)
    assert checked > 100 and chain_checked > 20


def test_round_trip_in_the_middle_of_a_chain_and_a_cost():
    """E8's chain, saved at B's and then A's counter window, and E7's cost decision."""
    st = fx.make_state(
        turn=7,
        exp=(2, 0),
        hands=(["SCOUT", "DENIAL", "QBOLT", "GRUNT"], []),
        decks=(30, 20),
        spells=(None, ("SHATTER", 6)),
    )
    fx.do(st, fx.use("SCOUT"), DP.MAIN, 0)
    fx.do(st, fx.A.SLOT_SPELL, DP.COUNTER_WINDOW, 1)
    assert len(st.chain) == 2
    back = GameState.from_dict(json.loads(_json(st)))
    for s in (st, back):
        fx.do(s, fx.fast("DENIAL"), DP.COUNTER_WINDOW, 0)
        fx.do(s, fx.A.PASS, DP.COUNTER_WINDOW, 1)
    assert _json(back) == _json(st)
    cost = fx.make_state(exp=(2, 0), hands=(["AXE", "GRUNT"], []))
    fx.do(cost, fx.use("AXE"), DP.MAIN, 0)
    assert cost.decision == "COST_DISCARD" and cost.setaside[0] == "AXE"
    again = GameState.from_dict(cost.to_dict())
    assert again.setaside[0] == "AXE" and _json(again) == _json(cost)


def test_clone_is_independent():
    st = start(4)
    c = st.clone()
    c.apply(c.legal_actions()[-1])
    c.hand[0].append("MN01")
    c.monsters[1].clear()
    assert _json(start(4)) == _json(st)


def test_from_dict_rejects_bad_input():
    with pytest.raises(StateError):
        GameState.from_dict({"ruleset": "medarot_ocg"})
    data = start(1).to_dict()
    del data["chain"]
    with pytest.raises(StateError):
        GameState.from_dict(data)


def test_I18_determinism_same_seed_decks_and_actions_same_states():
    for seed in range(5):
        runs = []
        for _ in range(2):
            st = start(seed)
            rng = random.Random(seed * 7)
            trace = []
            while not st.done:
                legal = st.legal_actions()
                st.apply(legal[rng.randrange(len(legal))])
                trace.append(hash(_json(st)) if len(trace) % 10 == 0 else len(trace))
            runs.append((trace, _json(st)))
        assert runs[0] == runs[1]
    assert _json(start(1)) != _json(start(2))

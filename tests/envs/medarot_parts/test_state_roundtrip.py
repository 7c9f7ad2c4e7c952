"""Clone, to_dict / from_dict round trip, determinism and the illegal-action contract of the engine."""

from __future__ import annotations

import json
import random

import pytest

from deckgym.envs.core.errors import IllegalActionError, StateError
from deckgym.envs.medarot_parts.actions import Action, Kind
from deckgym.envs.medarot_parts.state import GameState
from tests.envs.medarot_parts.test_invariants import start


def walk(seed: int, steps: int) -> GameState:
    st = start(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    return st


def finish(st: GameState, seed: int) -> list[Action]:
    rng = random.Random(seed)
    out = []
    while not st.is_terminal():
        a = rng.choice(st.legal_actions())
        out.append(a)
        st.apply(a)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_to_dict_from_dict_round_trip_mid_game_is_exact(seed):
    for steps in (0, 7, 23, 61):
        st = walk(seed, steps)
        data = json.loads(json.dumps(st.to_dict()))
        back = GameState.from_dict(data)
        assert back.to_dict() == st.to_dict()
        assert back.legal_actions() == st.legal_actions()
        a, b = st.clone(), back
        assert finish(a, seed + 99) == finish(b, seed + 99) and a.to_dict() == b.to_dict()


def test_round_trip_inside_a_battle():
    for seed in range(30):
        st = walk(seed, 0)
        rng = random.Random(seed)
        while not st.is_terminal() and st.battle is None:
            st.apply(rng.choice(st.legal_actions()))
        if st.battle is not None:
            back = GameState.from_dict(json.loads(json.dumps(st.to_dict())))
            assert back.to_dict() == st.to_dict() and back.battle.to_list() == st.battle.to_list()
            return
    pytest.fail("no battle reached")


def test_clone_is_independent():
    st = walk(1, 15)
    c = st.clone()
    finish(c, 5)
    assert c.to_dict() != st.to_dict()
    assert walk(1, 15).to_dict() == st.to_dict()


def test_same_seed_same_game():
    a, b = walk(3, 0), walk(3, 0)
    assert finish(a, 8) == finish(b, 8) and a.to_dict() == b.to_dict()


def test_illegal_action_raises_with_decision_and_options_and_leaves_the_state_untouched():
    st = walk(2, 5)
    before = json.dumps(st.to_dict(), sort_keys=True)
    bad = next(Action(k, i) for k in Kind for i in range(16) if Action(k, i) not in st.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        st.apply(bad)
    assert st.decision in str(err.value) and "legal options" in str(err.value)
    assert json.dumps(st.to_dict(), sort_keys=True) == before
    with pytest.raises(IllegalActionError):
        st.apply("nonsense")
    finish(st, 1)
    with pytest.raises(IllegalActionError, match="game over"):
        st.apply(Action(Kind.PASS, 0))


def test_from_dict_rejects_foreign_or_broken_dicts():
    with pytest.raises(StateError):
        GameState.from_dict({"ruleset": "medarot_ocg"})
    data = walk(0, 3).to_dict()
    missing = dict(data)
    del missing["field"]
    with pytest.raises(StateError, match="^field: missing$"):
        GameState.from_dict(missing)
    # a value of the wrong type is named by its place in the declaration
    bad = json.loads(json.dumps(data))
    bad["field"][0][1][1][2][4] = "three"
    with pytest.raises(
        StateError, match=r"^field\[0\]\[1\]\.parts\[2\]\.counters: expected an integer, got 'three'$"
    ):
        GameState.from_dict(bad)
    bad = json.loads(json.dumps(data))
    bad["field"][0][0][1][0] = [1, "H01"]
    with pytest.raises(
        StateError, match=r"^field\[0\]\[0\]\.parts\[0\]: expected a Part list of 7 \(uid, card,"
    ):
        GameState.from_dict(bad)
    with pytest.raises(StateError, match="^turn: expected an integer, got True$"):
        GameState.from_dict({**data, "turn": True})
    with pytest.raises(StateError, match="^colour: unknown field; GameState has done, truncated"):
        GameState.from_dict({**data, "colour": 1})


def test_dicts_written_before_the_renames_load():
    # action_medarot was "am" and odd_turn_priority "prio1" in dicts written by deckgym 0.2.0
    data = walk(1, 40).to_dict()
    old = dict(data)
    old["am"] = old.pop("action_medarot")
    old["prio1"] = old.pop("odd_turn_priority")
    assert GameState.from_dict(old).to_dict() == data

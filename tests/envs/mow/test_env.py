"""The mow_v1 environment: PettingZoo contract, masks, hidden information, errors, rendering."""

from __future__ import annotations

import json
import random

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

from deckgym import envs
from deckgym.envs import mow_v1
from deckgym.envs.core.errors import DeckError, IllegalActionError, StateError
from deckgym.envs.mow.actions import Use
from tests.envs.positions import (
    assert_one_live_mask,
    illegal_index,
    live_observations,
    random_positions,
    random_states,
)


def test_pettingzoo_api_test():
    api_test(mow_v1.env(), num_cycles=400)


def test_pettingzoo_seed_test():
    seed_test(lambda: mow_v1.env(), num_cycles=400)


@pytest.mark.parametrize("kwargs", [{"decks": ["tide_control"]}, {"max_turns": 8, "first_player": 1}])
def test_api_test_with_options(kwargs):
    api_test(mow_v1.env(**kwargs), num_cycles=200)


def test_registry_and_pettingzoo_make():
    assert "mow_v1" in envs.names()
    env = pettingzoo.make("aec", "deckgym/mow-v1", decks=["iron_bulwark", "star_ascent"])
    env.reset(seed=1)
    assert {env.unwrapped.game.masters[0], env.unwrapped.game.masters[1]} == {"MS03", "MS04"}
    assert envs.make("mow_v1").unwrapped.encoder.action_size == 294


def test_D48_observation_box_is_unbounded():
    box = mow_v1.env().observation_space("player_0")["observation"]
    assert np.all(box.low == -np.inf) and np.all(box.high == np.inf)


def test_I9_exactly_one_agent_has_a_mask_equal_to_the_legal_actions():
    for env in random_positions(mow_v1.env(), 6, every=3):
        assert assert_one_live_mask(env).dtype == np.int8


def test_D23_counter_window_belongs_to_the_opponent_of_the_user():
    seen = 0
    for env in random_positions(mow_v1.env(), 6):
        st = env.unwrapped.game
        if st.decision == "COUNTER_WINDOW":
            assert env.agent_selection == f"player_{1 - st.chain[-1][0]}"
            seen += 1
    assert seen > 20


def test_action_encoding_round_trips_and_labels():
    for st, enc in random_states(mow_v1.env(), 4, every=5):
        for a in st.legal_actions():
            i = enc.action_to_index(a, st)
            assert enc.index_to_action(i, st) == a
            assert enc.action_label(i, st)


def test_illegal_action_raises_names_the_options_and_changes_nothing():
    env = mow_v1.env(illegal_action="raise")
    env.reset(seed=3)
    st = env.unwrapped.game
    before = json.dumps(st.to_dict(), sort_keys=True)
    bad = illegal_index(env)
    with pytest.raises(IllegalActionError) as info:
        env.step(bad)
    assert "CHARGE" in str(info.value) and "PASS" in str(info.value)
    assert json.dumps(st.to_dict(), sort_keys=True) == before
    with pytest.raises(IllegalActionError):
        env.step(999)
    with pytest.raises(IllegalActionError):
        st.apply((99, 0))
    assert json.dumps(st.to_dict(), sort_keys=True) == before


def test_illegal_action_penalize_ends_the_game():
    env = mow_v1.env(illegal_action="penalize")
    env.reset(seed=3)
    offender = env.agent_selection
    env.step(illegal_index(env))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0


def test_R1_R2_rewards_at_the_end_and_D42_truncation():
    env = mow_v1.env(max_turns=3)
    rng = random.Random(0)
    for obs in live_observations(env, [5]):
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    st = env.unwrapped.game
    assert st.done and st.truncated and st.turn == 3
    assert all(env.truncations.values()) and st.returns() == [0.0, 0.0]


def test_D1_first_player_option_and_random_choice():
    firsts = set()
    for s in range(12):
        env = mow_v1.env()
        env.reset(seed=s)
        firsts.add(env.unwrapped.game.first)
    assert firsts == {0, 1}
    env = mow_v1.env(first_player=1)
    env.reset(seed=0)
    assert env.unwrapped.game.first == 1 and env.agent_selection == "player_1"


def _obs(env, seat):
    return env.unwrapped.encoder.observe(env.unwrapped.game, seat)


def test_I16_hidden_information_swaps_do_not_change_the_observation():
    """Opponent's hand permuted or replaced, deck orders shuffled, opponent's face-down spell swapped."""
    checked = 0
    for st, enc in random_states(mow_v1.env(), 6, every=4):
        for seat in (0, 1):
            o = 1 - seat
            base = enc.observe(st, seat)
            alt = st.clone()
            random.Random(checked).shuffle(alt.hand[o])
            random.Random(checked + 1).shuffle(alt.deck[0])
            random.Random(checked + 2).shuffle(alt.deck[1])
            if alt.hand[o] and alt.deck[o]:
                alt.hand[o][0], alt.deck[o][-1] = alt.deck[o][-1], alt.hand[o][0]
            if alt.spell[o] is not None:
                other = next((c for c in alt.hand[o] + alt.deck[o] if st.cards[c].kind == "SPELL"), None)
                if other is not None:
                    alt.spell[o][0] = other
                    for e in alt.chain:
                        if e[1] == Use.CAST and e[0] == o and e[3] == alt.spell[o][2]:
                            e[2] = other
            assert np.array_equal(enc.observe(alt, seat), base)
            checked += 1
    assert checked > 100


def test_resample_hidden_keeps_counts_and_the_seat_observation():
    for st, enc in random_states(mow_v1.env(), 4, every=7):
        for seat in (0, 1):
            alt = st.resample_hidden(seat, random.Random(1))
            assert np.array_equal(enc.observe(alt, seat), enc.observe(st, seat))
            o = 1 - seat
            assert len(alt.hand[o]) == len(st.hand[o]) and len(alt.deck[o]) == len(st.deck[o])
            assert alt.hand[seat] == st.hand[seat]
            assert sorted(alt.deck[seat]) == sorted(st.deck[seat])
            assert (alt.spell[o] is None) == (st.spell[o] is None)


def test_decks_option_errors():
    with pytest.raises(DeckError, match="no starter deck"):
        mow_v1.env(decks=["nope"])
    with pytest.raises(StateError):
        mow_v1.env(decks="tide_control")
    with pytest.raises(StateError, match="unknown rules option"):
        mow_v1.env(colour="red")
    with pytest.raises(StateError, match="first_player"):
        mow_v1.env(first_player=3)


def test_render_ansi_and_human(capsys):
    env = mow_v1.env(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "turn 1" in text and "life 20" in text and "hand:" in text
    st = env.unwrapped.game
    viewer_text = env.unwrapped.ruleset.render_text(st, 1 - st.current_player)
    hidden_hand = ", ".join(st.name(c) for c in st.hand[st.current_player])
    assert hidden_hand not in viewer_text
    human = mow_v1.env(render_mode="human")
    human.reset(seed=2)
    human.step(0)
    assert "turn 1" in capsys.readouterr().out


def test_state_option_resumes_a_position():
    env = mow_v1.env()
    env.reset(seed=9)
    for _ in range(30):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    data = env.unwrapped.game.to_dict()
    other = mow_v1.env()
    other.reset(options={"state": data})
    assert other.unwrapped.game.to_dict() == data
    assert np.array_equal(_obs(other, 0), _obs(env, 0))

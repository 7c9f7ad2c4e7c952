"""The medarot_parts_v1 environment: PettingZoo contract, masks, hidden information (I11), errors."""

from __future__ import annotations

import random

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

from deckgym import envs
from deckgym.envs import medarot_parts_v1
from deckgym.envs.core.errors import DeckError, IllegalActionError, StateError
from tests.envs.positions import assert_one_live_mask, illegal_index, random_positions, random_states


def test_pettingzoo_api_test():
    api_test(medarot_parts_v1.env(), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(medarot_parts_v1.env, num_cycles=300)


def test_registry_and_pettingzoo_make():
    assert "medarot_parts_v1" in envs.names()
    env = pettingzoo.make("aec", "deckgym/medarot_parts-v1", max_turns=12)
    env.reset(seed=1)
    assert env.unwrapped.game.config.max_turns == 12
    assert envs.make("medarot_parts_v1").unwrapped.encoder.action_size == 46


def test_I9_exactly_one_agent_has_a_mask_equal_to_the_legal_actions():
    for env in random_positions(medarot_parts_v1.env(), 6, max_iter=20_000):
        assert assert_one_live_mask(env).sum() >= 2  # single options are played by the engine (D37)


def test_action_encoding_round_trips():
    for st, enc in random_states(medarot_parts_v1.env(), 4, max_iter=20_000):
        for a in st.legal_actions():
            assert enc.index_to_action(enc.action_to_index(a, st), st) == a
            assert enc.action_label(enc.action_to_index(a, st), st)


def test_I11_resample_hidden_leaves_the_seats_observation_unchanged():
    rng = random.Random(3)
    for st, enc in random_states(medarot_parts_v1.env(), 4, max_iter=20_000, every=3):
        for seat in (0, 1):
            alt = st.resample_hidden(seat, random.Random(rng.random()))
            assert np.array_equal(enc.observe(alt, seat), enc.observe(st, seat))
            assert len(alt.hand[1 - seat]) == len(st.hand[1 - seat]) and len(alt.deck[seat]) == len(
                st.deck[seat]
            )
            assert sorted(alt.deck[seat]) == sorted(st.deck[seat])


def test_I11_opponent_hand_and_deck_order_swaps_do_not_change_the_observation():
    checked = 0
    for st, enc in random_states(medarot_parts_v1.env(), 3, max_iter=20_000, every=5):
        for seat in (0, 1):
            o = 1 - seat
            base = enc.observe(st, seat)
            alt = st.clone()
            if alt.hand[o] and alt.deck[o]:
                alt.hand[o][0], alt.deck[o][0] = alt.deck[o][0], alt.hand[o][0]
                alt.hand[o].sort()
            alt.deck[seat].reverse()
            alt.deck[o].reverse()
            assert np.array_equal(enc.observe(alt, seat), base)
            checked += 1
    assert checked > 20


def test_observation_is_float32_of_the_declared_size_and_layout_pieces():
    env = medarot_parts_v1.env()
    env.reset(seed=0)
    enc = env.unwrapped.encoder
    obs = env.observe(env.agent_selection)["observation"]
    assert obs.dtype == np.float32 and obs.shape == (enc.obs_size,)
    layout = enc.observation_layout()
    assert list(layout)[:3] == ["decision", "scalars", "medarots"]
    start, rows, width = enc.card_region
    assert start == layout["field_cards"].start and rows * width == layout["use_card"].stop - start


def test_illegal_action_raises_names_the_options_and_changes_nothing():
    env = medarot_parts_v1.env(illegal_action="raise")
    env.reset(seed=2)
    st = env.unwrapped.game
    before = st.to_dict()
    bad = illegal_index(env)
    with pytest.raises(IllegalActionError, match="legal options"):
        env.step(bad)
    assert env.unwrapped.game.to_dict() == before
    with pytest.raises(IllegalActionError):
        env.step(99)


def test_penalize_policy_ends_the_game_with_minus_1_for_the_offender():
    env = medarot_parts_v1.env(illegal_action="penalize")
    env.reset(seed=2)
    agent = env.agent_selection
    env.step(illegal_index(env))
    assert env.terminations[agent] and env.rewards[agent] == -1.0


def test_decks_option_and_bad_decks():
    env = medarot_parts_v1.env(decks=["fang_brawler"])
    env.reset(seed=0)
    assert env.unwrapped.game.field[0][0].medal == env.unwrapped.game.field[1][0].medal == "M1"
    with pytest.raises(DeckError, match="no deck of that name"):
        medarot_parts_v1.env(decks=["nope"])
    with pytest.raises(StateError):
        medarot_parts_v1.env(decks="fang_brawler")
    with pytest.raises(StateError, match="unknown rules option"):
        medarot_parts_v1.env(turns=3)


def test_render_ansi_shows_both_sides_and_hides_the_other_hand():
    env = medarot_parts_v1.env(render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert "P0" in text and "P1" in text and "medarot 0" in text
    st = env.unwrapped.game
    seen = env.unwrapped.ruleset.render_text(st, 0)
    assert f"{len(st.hand[1])} cards" in seen


def test_rewards_and_truncation_at_the_turn_cap():
    env = medarot_parts_v1.env(max_turns=2)
    env.reset(seed=0)
    rng = random.Random(0)
    for _agent in env.agent_iter(max_iter=5000):
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    st = env.unwrapped.game
    assert st.done and st.turn <= 2
    if st.truncated:
        assert st.returns() == [0.0, 0.0]

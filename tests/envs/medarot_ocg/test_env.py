"""The medarot_ocg_v1 environment: PettingZoo contract, masks, hidden information, errors."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

from deckgym import envs
from deckgym.envs import medarot_ocg_v1
from deckgym.envs.core.errors import DeckError, IllegalActionError, StateError
from deckgym.envs.medarot_ocg.actions import Kind
from tests.envs.positions import assert_one_live_mask, illegal_index, random_positions, random_states

MODES = ["beginner", "normal", "advance"]


@pytest.mark.parametrize("mode", MODES)
def test_pettingzoo_api_test(mode):
    api_test(medarot_ocg_v1.env(mode=mode), num_cycles=300)


@pytest.mark.parametrize("mode", MODES)
def test_pettingzoo_seed_test(mode):
    seed_test(lambda: medarot_ocg_v1.env(mode=mode), num_cycles=300)


def test_registry_and_pettingzoo_make():
    assert "medarot_ocg_v1" in envs.names()
    env = pettingzoo.make("aec", "deckgym/medarot_ocg-v1", mode="advance")
    env.reset(seed=1)
    assert env.unwrapped.game.config.mode == "advance"
    assert envs.make("medarot_ocg_v1", mode="normal").unwrapped.ruleset.config.deck_size == 30
    with pytest.raises(KeyError, match="unknown environment"):
        envs.make("no_such_env_v0")


@pytest.mark.parametrize("mode", MODES)
def test_I8_exactly_one_agent_has_a_mask_equal_to_the_legal_actions(mode):
    for env in random_positions(medarot_ocg_v1.env(mode=mode), 15, max_iter=20_000):
        assert assert_one_live_mask(env).dtype == np.int8


@pytest.mark.parametrize("mode", MODES)
def test_action_encoding_round_trips(mode):
    for st, enc in random_states(medarot_ocg_v1.env(mode=mode), 10, max_iter=20_000):
        for a in st.legal_actions():
            i = enc.action_to_index(a, st)
            assert 0 <= i < enc.action_size
            assert enc.index_to_action(i, st) == a


@pytest.mark.parametrize("mode", MODES)
def test_I11_resampling_hidden_information_leaves_the_observation_unchanged(mode):
    rng = random.Random(5)
    checked = 0
    for st, enc in random_states(medarot_ocg_v1.env(mode=mode), 12, max_iter=20_000, every=3):
        for seat in (0, 1):
            alt = st.resample_hidden(seat, random.Random(rng.random()))
            assert np.array_equal(enc.observe(alt, seat), enc.observe(st, seat))
            if seat == st.current_player:
                assert np.array_equal(enc.action_mask(alt), enc.action_mask(st))
            checked += 1
    assert checked > 100


def _first_position_with(mode, pred):
    for env in random_positions(medarot_ocg_v1.env(mode=mode), 30, max_iter=20_000):
        if pred(env.unwrapped.game):
            return env
    raise AssertionError("no such position")


def test_I11_opponent_hand_and_deck_order_never_reach_the_observation():
    env = _first_position_with("normal", lambda st: len(st.hand[1]) >= 2 and len(st.deck[1]) >= 2)
    st = env.unwrapped.game
    enc = env.unwrapped.encoder
    base = enc.observe(st, 0)
    swapped = st.clone()
    other = next(c for c in st.pool.ids() if c != swapped.hand[1][0])
    swapped.hand[1][0] = other  # a different card in the opponent's hand
    swapped.deck[1].reverse()  # another deck order, both players
    swapped.deck[0].reverse()
    assert np.array_equal(enc.observe(swapped, 0), base)
    mine = st.clone()  # positive control: the own hand is visible
    mine.hand[0][0] = next(c for c in st.pool.ids() if st.cards[c].type != st.cards[mine.hand[0][0]].type)
    assert not np.array_equal(enc.observe(mine, 0), base)


def test_I11_face_down_opponent_cards_are_hidden():
    def has_facedown(st):
        return any(x is not None and x.owner == 1 and not x.face_up for x in st.board) and any(
            s is not None and not s.face_up for s in st.stock[1]
        )

    env = _first_position_with("advance", has_facedown)
    st = env.unwrapped.game
    enc = env.unwrapped.encoder
    base = enc.observe(st, 0)
    alt = st.clone()
    stack = next(x for x in alt.board if x is not None and x.owner == 1 and not x.face_up)
    stack.base = next(c for c in st.pool.ids() if st.cards[c].kind == "MEDAROT" and c != stack.base)
    slot = next(s for s in alt.stock[1] if s is not None and not s.face_up)
    slot.card = next(c for c in st.pool.ids() if st.cards[c].kind == "MEDAROTER" and c != slot.card)
    assert np.array_equal(enc.observe(alt, 0), base)
    assert not np.array_equal(enc.observe(alt, 1), enc.observe(st, 1))


@pytest.mark.parametrize("mode", MODES)
def test_to_dict_round_trip_keeps_observations_masks_and_continuation(mode):
    rng = random.Random(11)
    for st, enc in random_states(medarot_ocg_v1.env(mode=mode), 6, max_iter=20_000, every=17):
        back = type(st).from_dict(json.loads(json.dumps(st.to_dict())))
        for seat in (0, 1):
            assert np.array_equal(enc.observe(back, seat), enc.observe(st, seat))
        assert np.array_equal(enc.action_mask(back), enc.action_mask(st))
        a, b = st.clone(), back
        for _ in range(40):
            if a.is_terminal():
                break
            move = rng.choice(a.legal_actions())
            a.apply(move)
            b.apply(move)
        assert a.to_dict() == b.to_dict()


def test_illegal_action_raises_names_action_and_options_and_changes_nothing():
    env = medarot_ocg_v1.env(mode="normal", illegal_action="raise")
    env.reset(seed=3)
    st = env.unwrapped.game
    before = json.dumps(st.to_dict(), sort_keys=True)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    text = str(err.value)
    assert f"{bad} = " in text and st.decision in text and "legal options" in text
    assert json.dumps(env.unwrapped.game.to_dict(), sort_keys=True) == before
    for wrong in (-1, 78, 2.5, "x"):
        with pytest.raises(IllegalActionError, match="illegal action"):
            env.step(wrong)
    assert json.dumps(env.unwrapped.game.to_dict(), sort_keys=True) == before


def test_engine_illegal_action_raises():
    env = medarot_ocg_v1.env(mode="beginner")
    env.reset(seed=0)
    st = env.unwrapped.game
    with pytest.raises(IllegalActionError, match="legal options"):
        st.apply((Kind.SPECIAL, 0)) if (Kind.SPECIAL, 0) not in st.legal_actions() else st.apply(
            (Kind.EFFECT, 1)
        )


def test_penalize_ends_the_game_with_minus_one_for_the_offender():
    env = medarot_ocg_v1.env(mode="beginner", illegal_action="penalize")
    env.reset(seed=4)
    offender = env.agent_selection
    env.step(illegal_index(env))
    assert all(env.terminations.values())
    rewards = {a: env._cumulative_rewards[a] for a in env.agents}
    assert rewards[offender] == -1 and sum(rewards.values()) == -1


def test_step_before_reset_is_a_clear_error():
    env = medarot_ocg_v1.env()
    with pytest.raises(StateError, match="reset"):
        env.step(0)


def test_bad_options_are_clear_errors():
    with pytest.raises(StateError, match="unknown mode"):
        medarot_ocg_v1.env(mode="expert")
    with pytest.raises(ValueError, match="illegal_action"):
        medarot_ocg_v1.env(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        medarot_ocg_v1.env(render_mode="rgb_array")
    with pytest.raises(DeckError, match="exactly 15"):
        medarot_ocg_v1.env(mode="beginner", decks=[{"MD01": 3}])
    with pytest.raises(StateError, match="unknown rules option"):
        medarot_ocg_v1.env(mode="beginner", handsize=9)


def test_explicit_decks_and_rewards_are_zero_sum():
    env = medarot_ocg_v1.env(mode="beginner", decks=["beginner_blaze", "beginner_sparks"])
    rng = random.Random(0)
    for g in range(5):
        env.reset(seed=g)
        st = env.unwrapped.game
        totals = dict.fromkeys(env.agents, 0.0)
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            totals[agent] += r
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert sum(totals.values()) == 0
        assert sorted(st.decks[0]) != sorted(st.decks[1])


def test_render_ansi_and_reset_from_state():
    env = medarot_ocg_v1.env(mode="advance", render_mode="ansi")
    env.reset(seed=2)
    for _ in range(30):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    text = env.render()
    assert isinstance(text, str) and "turn" in text
    saved = env.unwrapped.game.to_dict()
    other = medarot_ocg_v1.env(mode="advance")
    other.reset(options={"state": saved})
    assert other.agent_selection == env.agent_selection
    assert other.unwrapped.game.to_dict() == saved


def test_observation_layout_is_named_and_covers_the_vector():
    env = medarot_ocg_v1.env(mode="advance")
    env.reset(seed=0)
    layout = env.unwrapped.encoder.observation_layout()
    assert {"decision", "board", "hand_cards", "trash"} <= set(layout)
    size = env.observation_space("player_0")["observation"].shape[0]
    covered = sorted((s.start, s.stop) for s in layout.values())
    assert covered[0][0] == 0 and covered[-1][1] == size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(covered))

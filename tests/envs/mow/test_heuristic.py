"""The MoW heuristic: legal, honest about hidden information, stronger than random."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.arena import match, play_game
from agents.heuristic.mow import MowHeuristic, choose
from agents.random_agent import RandomAgent
from envs import mow_v0
from envs.mow.actions import ATTACKER, PASS
from tests.envs.mow import fixtures as fx


class Checked:
    """Wraps an agent and asserts that every action it picks is legal."""

    def __init__(self, agent):
        self.agent = agent
        self.name = agent.name
        self.moves = 0

    def bind(self, env):
        if hasattr(self.agent, "bind"):
            self.agent.bind(env)

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, observation, action_mask):
        a = self.agent.act(observation, action_mask)
        assert action_mask[a] == 1
        self.moves += 1
        return a


def test_heuristic_only_picks_legal_actions():
    env = mow_v0.env()
    h, r = Checked(MowHeuristic()), Checked(RandomAgent(1))
    for g in range(10):
        play_game(env, [h, r] if g % 2 else [r, h], seed=g)
        play_game(env, [h, Checked(MowHeuristic())], seed=100 + g)
    assert h.moves > 1000


def test_heuristic_uses_only_what_its_seat_may_know():
    """Its choice never changes when everything its seat cannot see is redrawn."""
    env = mow_v0.env()
    rng = random.Random(0)
    checked = 0
    for g in range(6):
        env.reset(seed=g)
        while not env.unwrapped.state.is_terminal():
            st = env.unwrapped.state
            seat = st.current_player
            mine = choose(st, seat)
            for k in range(2):
                alt = st.resample_hidden(seat, random.Random(rng.random() + k))
                assert choose(alt, seat) == mine, (st.decision, mine)
            checked += 1
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert checked > 300


@pytest.mark.slow
def test_heuristic_beats_random():
    res = match("heuristic", "random", "mow_v0", games=40, seed=7, workers=1)
    assert res.win_rate >= 0.75, res.line()


# ----------------------------------------------------------------------------- the deck clock
def test_a_drawing_summon_waits_while_the_deck_clock_is_not_ahead():
    st = fx.make_state(exp=(2, 0), hands=(["SCOUT", "PEBBLE"], []), decks=(10, 10))
    assert choose(st, 0) != fx.use("SCOUT")
    st = fx.make_state(exp=(2, 0), hands=(["SCOUT", "PEBBLE"], []), decks=(25, 10))
    assert choose(st, 0) == fx.use("SCOUT")


def test_a_level_that_draws_is_charged_only_when_the_clock_allows():
    hand = ["PEBBLE"] * 4
    st = fx.make_state(
        masters=("SAGE", "TM"), exp=(3, 0), hands=(hand, []), decks=(10, 10), start="charge_phase"
    )
    assert choose(st, 0) == PASS
    st = fx.make_state(
        masters=("SAGE", "TM"), exp=(3, 0), hands=(hand, []), decks=(25, 10), start="charge_phase"
    )
    assert choose(st, 0) == fx.hand("PEBBLE")


def test_the_master_does_not_attack_into_a_hit_back_it_cannot_afford():
    kw = {"exp": (8, 8), "weapons": ("AXE", "AXE"), "start": "attack_phase"}
    assert choose(fx.make_state(life=(20, 20), **kw), 0) == ATTACKER[0]
    assert choose(fx.make_state(life=(5, 20), **kw), 0) == PASS

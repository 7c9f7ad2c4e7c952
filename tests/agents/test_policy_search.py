"""``PolicySearchAgent``: a trained policy proposes the candidates, heuristic rollouts decide."""

from __future__ import annotations

import math

import numpy as np
import pytest

from deckgym import agents as agent_lib
from deckgym import envs
from deckgym.agents.arena import play_game
from deckgym.agents.random_agent import RandomAgent
from deckgym.agents.search import PolicySearchAgent
from deckgym.agents.training.policy import masked_probabilities
from tests.agents.checked import Checked
from tests.envs.positions import random_positions


class Prior:
    """A stand-in policy: fixed preferences over action indices, set per position by ``favour``."""

    name = "prior"

    def __init__(self, size: int) -> None:
        self.weights = np.ones(size)
        self.calls = 0

    def favour(self, order: list[int]) -> None:
        """``order[0]`` likeliest, then ``order[1]``...; every other index shares the lowest weight."""
        self.weights = np.ones(len(self.weights))
        for rank, i in enumerate(order):
            self.weights[i] = 2.0 + len(order) - rank

    def probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        assert observation is not None and observation.dtype == np.float32
        self.calls += 1
        p = np.where(action_mask.astype(bool), self.weights, 0.0)
        return p / p.sum()


def _positions(env, n: int, least: int):
    ps = [e.unwrapped.game.clone() for e in random_positions(env, games=3, every=7)]
    return [p for p in ps if len(p.legal_actions()) >= least][:n]


def _agent(name, env, prior, **kw):
    agent = PolicySearchAgent(agent_lib.make("heuristic", name), prior, seed=5, **kw)
    agent.bind(env)
    return agent


def test_masked_probabilities_match_a_hand_computed_softmax():
    p = masked_probabilities(np.array([1.0, 2.0, 3.0, 50.0]), np.array([1, 0, 1, 0], dtype=np.int8))
    e1, e3 = math.exp(1.0), math.exp(3.0)
    assert p.tolist() == pytest.approx([e1 / (e1 + e3), 0.0, e3 / (e1 + e3), 0.0])
    with pytest.raises(ValueError, match="no legal action"):
        masked_probabilities(np.zeros(3), np.zeros(3, dtype=np.int8))


def test_candidates_are_the_policys_top_actions_then_the_heuristics_choice():
    env = envs.make("medarot_parts_v1")
    enc = env.unwrapped.encoder
    prior = Prior(enc.action_size)
    agent = _agent("medarot_parts_v1", env, prior, top=2)
    positions = _positions(env, 15, least=4)
    assert len(positions) >= 8
    for st in positions:
        seat = st.current_player
        legal = st.legal_actions()
        idx = [enc.action_to_index(a, st) for a in legal]
        order = [idx[-1], idx[1], idx[0]]  # the policy's ranking: last legal, second, first
        prior.favour(order)
        got = agent.candidates(st, seat)
        assert got[:2] == [legal[-1], legal[1]]
        heuristic = agent.rollout.choose(st, seat)
        assert got[2:] == ([] if heuristic in got[:2] else [heuristic])


def test_over_every_action_led_by_the_heuristics_choice_it_chooses_as_plain_search():
    """Candidates = all legal actions, the heuristic's first and the rest in engine order: that is
    exactly the plain search's order, so the choices and the worlds drawn are the same."""
    for name, kwargs in [("medarot_ocg_v1", {"mode": "normal"}), ("mow_v1", {})]:
        env = envs.make(name, **kwargs)
        enc = env.unwrapped.encoder
        prior = Prior(enc.action_size)
        agent = _agent(name, env, prior, top=10_000, worlds=3)
        plain = agent_lib.make("search:3", name, seed=5, **kwargs)
        positions = _positions(env, 10, least=2)
        assert len(positions) >= 6
        for st in positions:
            seat = st.current_player
            legal = st.legal_actions()
            first = enc.action_to_index(plain.rollout.choose(st, seat), st)
            prior.favour(
                [first] + [enc.action_to_index(a, st) for a in legal if enc.action_to_index(a, st) != first]
            )
            assert agent.choose(st, seat) == plain.choose(st, seat)
        assert agent._rng.random() == plain._rng.random()


def test_a_forced_move_asks_neither_the_policy_nor_the_worlds():
    env = envs.make("mow_v1")
    prior = Prior(env.unwrapped.encoder.action_size)
    agent = _agent("mow_v1", env, prior)
    forced = [p for p in _positions(env, 200, least=1) if len(p.legal_actions()) == 1][:3]
    assert forced
    before = agent._rng.random()
    agent.reset(5)
    assert all(agent.choose(p, p.current_player) == p.legal_actions()[0] for p in forced)
    assert prior.calls == 0 and agent._rng.random() == before


def test_the_shipped_policy_guides_legal_games():
    name, kwargs = "medarot_ocg_v1", {"mode": "normal"}
    env = envs.make(name, **kwargs)
    agent = Checked(agent_lib.make("search:1:ppo:pretrained", name, seed=3, **kwargs))
    assert agent.name == "search:1:ppo:pretrained"
    for g in range(2):
        players = [RandomAgent(10), RandomAgent(11)]
        players[g % 2] = agent
        play_game(env, players, seed=g)
    assert agent.moves > 20


def test_the_ppo_agents_probabilities_agree_with_its_greedy_move():
    name = "mow_v1"
    env = envs.make(name)
    ppo = agent_lib.make("ppo:pretrained", name)
    for e in random_positions(env, games=1, every=5):
        obs = e.observe(e.agent_selection)
        p = ppo.probabilities(obs["observation"], obs["action_mask"])
        assert p.sum() == pytest.approx(1.0)
        assert not p[obs["action_mask"] == 0].any()
        assert int(np.argmax(p)) == ppo.act(obs["observation"], obs["action_mask"])


def test_bad_priors_and_specs_are_refused():
    rollout = agent_lib.make("heuristic", "mow_v1")
    with pytest.raises(ValueError, match="top >= 1, got 0"):
        PolicySearchAgent(rollout, Prior(3), top=0)
    with pytest.raises(TypeError, match=r"probabilities\(observation, action_mask\)"):
        PolicySearchAgent(rollout, RandomAgent(0))
    with pytest.raises(ValueError, match="as in 'search:4:ppo:pretrained'"):
        agent_lib.make("search:4:heuristic", "mow_v1")

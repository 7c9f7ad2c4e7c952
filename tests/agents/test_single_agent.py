"""SingleAgentEnv: the learner's reward is its own, whichever seat's move ends the game."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from stable_baselines3.common.env_checker import check_env

from deckgym.agents.random_agent import RandomAgent
from deckgym.agents.training import SingleAgentEnv
from deckgym.envs import medarot_ocg_v1


class Scripted:
    """Replays a fixed list of action indices (its own moves of a recorded game)."""

    name = "scripted"

    def __init__(self, actions: list[int]) -> None:
        self.actions = list(actions)

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, action_mask) -> int:
        a = self.actions.pop(0)
        assert action_mask[a] == 1
        return a


def record_game(mode: str, seed: int, max_turns: int = 60):
    """A random game: the state dict before each move, the mover and the action index."""
    env = medarot_ocg_v1.env(mode=mode, max_turns=max_turns)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = []
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        st = env.unwrapped.game
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        steps.append((json.loads(json.dumps(st.to_dict())), st.current_player, a))
        env.step(a)
    return steps, env.unwrapped.game


def replay_tail(mode, steps, final, learner, start, max_turns=60):
    """Resume the recorded game at ``start`` with the learner in ``learner``'s seat; return its rewards."""
    tail = steps[start:]
    opp_moves = [a for _d, p, a in tail if p != learner]
    env = SingleAgentEnv(
        "medarot_ocg_v1",
        [Scripted(opp_moves)],
        {"mode": mode, "max_turns": max_turns},
        learner_seat=learner,
        skip_forced=False,
    )
    _obs, _info = env.reset(seed=0, options={"state": tail[0][0]})
    rewards, done = [], False
    for _d, p, a in tail:
        if p != learner:
            continue
        assert env.action_masks()[a]
        _obs, r, term, trunc, _info = env.step(a)
        rewards.append(r)
        done = term or trunc
        if done:
            break
    if not done:  # the game ended on the opponent's moves right after reset
        assert env.raw.game.is_terminal()
    return rewards, env, done


def find_games(mode, want, max_turns=60, tries=300):
    """Random games whose last move was made by a seat that matches ``want(ender, winner)``."""
    for seed in range(tries):
        steps, final = record_game(mode, seed, max_turns)
        ender = steps[-1][1]
        if want(ender, final.winner, final):
            return steps, final
    raise AssertionError("no such game found")


@pytest.mark.parametrize("mode", ["beginner", "normal"])
def test_learner_wins_on_its_own_move(mode):
    steps, final = find_games(mode, lambda e, w, f: w == e)
    learner = steps[-1][1]
    idx = [i for i, (_d, p, _a) in enumerate(steps) if p == learner]
    start = idx[-3] if len(idx) >= 3 else idx[0]  # a few learner decisions before the end
    rewards, _env, done = replay_tail(mode, steps, final, learner, start)
    assert done and rewards[-1] == 1.0 == final.returns()[learner]
    assert all(r == 0.0 for r in rewards[:-1])


@pytest.mark.parametrize("mode", ["beginner", "normal"])
def test_game_ended_by_the_opponents_move_gives_the_learner_its_own_reward(mode):
    steps, final = find_games(mode, lambda e, w, f: w in (0, 1))
    ender = steps[-1][1]
    learner = 1 - ender
    idx = [i for i, (_d, p, _a) in enumerate(steps) if p == learner]
    start = idx[-1]  # the learner's last decision, then the opponent ends the game
    rewards, env, done = replay_tail(mode, steps, final, learner, start)
    assert done
    assert rewards[-1] == final.returns()[learner]
    assert rewards[-1] == (1.0 if final.winner == learner else -1.0)
    assert env._info()["winner"] == final.winner


def test_learner_loses_and_the_reward_is_not_the_opponents():
    steps, final = find_games("beginner", lambda e, w, f: w in (0, 1))
    loser = 1 - final.winner
    idx = [i for i, (_d, p, _a) in enumerate(steps) if p == loser]
    rewards, _env, done = replay_tail("beginner", steps, final, loser, idx[-1])
    assert done and rewards[-1] == -1.0


def test_draw_by_truncation_gives_zero_and_truncated():
    steps, _final = find_games("normal", lambda e, w, f: f.truncated, max_turns=2)
    learner = steps[-1][1]
    idx = [i for i, (_d, p, _a) in enumerate(steps) if p == learner]
    env = SingleAgentEnv(
        "medarot_ocg_v1",
        [Scripted([a for _d, p, a in steps[idx[-1] :] if p != learner])],
        {"mode": "normal", "max_turns": 2},
        learner_seat=learner,
        skip_forced=False,
    )
    env.reset(seed=0, options={"state": steps[idx[-1]][0]})
    _obs, r, term, trunc, _info = env.step(steps[idx[-1]][2])
    while not (term or trunc):
        a = next(a for _d, p, a in steps[idx[-1] + 1 :] if p == learner)
        _obs, r, term, trunc, _info = env.step(a)
    assert trunc and not term and r == 0.0


def test_check_env_and_seat_alternation():
    env = SingleAgentEnv("medarot_ocg_v1", [RandomAgent(0)], {"mode": "beginner"})
    check_env(env)
    seats = []
    for k in range(4):
        _obs, info = env.reset(seed=k)
        seats.append(info["seat"])
        assert env.raw.game.current_player == info["seat"]
        assert env.action_masks().any()
    assert seats == [0, 1, 0, 1] or seats == [1, 0, 1, 0]


def test_illegal_action_policy():
    env = SingleAgentEnv("medarot_ocg_v1", [RandomAgent(0)], {"mode": "beginner"})
    env.reset(seed=1)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _obs, r, term, trunc, info = env.step(bad)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, bad)
    assert not env.action_masks().any()
    strict = SingleAgentEnv("medarot_ocg_v1", [RandomAgent(0)], {"mode": "beginner"}, illegal_action="raise")
    strict.reset(seed=1)
    from deckgym.envs.core.errors import IllegalActionError

    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


def test_skip_forced_leaves_the_learner_only_real_choices():
    env = SingleAgentEnv("medarot_ocg_v1", [RandomAgent(0)], {"mode": "normal"})
    rng = np.random.default_rng(0)
    steps = 0
    for k in range(6):
        env.reset(seed=k)
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.sum() >= 2
            _obs, r, term, trunc, _info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = term or trunc
            steps += 1
        assert r == env.raw.game.returns()[env.seat]
    assert steps > 50


def test_global_critic_observation_holds_the_seat_vector_and_the_whole_game():
    check_env(
        SingleAgentEnv("medarot_ocg_v1", [RandomAgent(1)], {"mode": "beginner"}, critic="global"),
        warn=False,
        skip_render_check=True,
    )
    env = SingleAgentEnv("medarot_ocg_v1", [RandomAgent(1)], {"mode": "beginner"}, critic="global")
    obs, _info = env.reset(seed=3)
    assert set(obs) == {"observation", "state"} and env.observation_space.contains(obs)
    raw = env.raw
    assert np.array_equal(obs["observation"], raw.encoder.observe(raw.game, env.seat))
    assert np.array_equal(obs["state"], raw.state())
    seat_env = SingleAgentEnv("medarot_ocg_v1", [RandomAgent(1)], {"mode": "beginner"})
    seat_obs, _ = seat_env.reset(seed=3)
    assert seat_env.seat == env.seat
    assert np.array_equal(seat_obs, obs["observation"])  # the same game, the same own view
    with pytest.raises(ValueError, match="critic must be one of \\('seat', 'global'\\), got 'oracle'"):
        SingleAgentEnv("medarot_ocg_v1", [RandomAgent(1)], critic="oracle")


class _Observing:
    """A heuristic behind a proxy that does not say it reads the engine: it is given observations."""

    name = "observing"

    def __init__(self, inner) -> None:
        self.inner, self.seen = inner, 0

    def bind(self, env) -> None:
        self.inner.bind(env)

    def reset(self, seed=None) -> None:
        self.inner.reset(seed)

    def act(self, observation, action_mask) -> int:
        assert observation is not None
        self.seen += 1
        return self.inner.act(observation, action_mask)


@pytest.mark.parametrize("env_name", ["medarot_ocg_v1", "medarot_parts_v1", "mow_v1"])
def test_an_engine_reading_opponent_plays_the_same_games_without_observations(env_name):
    """The self-play env skips encoding for heuristic opponents; the games stay the same."""
    from deckgym.agents import make

    def run(opponent):
        env = SingleAgentEnv(env_name, [opponent], {})
        rng = random.Random(1)
        trace = []
        obs, _ = env.reset(seed=4)
        for _ in range(300):
            a = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, r, done, trunc, _ = env.step(a)
            trace.append((hash(obs.tobytes()), r, done, trunc))
            if done or trunc:
                obs, _ = env.reset()
        return trace

    plain = make("heuristic", env_name, seed=0)
    assert plain.reads_engine
    proxy = _Observing(make("heuristic", env_name, seed=0))
    assert run(plain) == run(proxy)
    assert proxy.seen > 50  # the proxy really played, with observations

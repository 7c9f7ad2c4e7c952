"""The map-only learner of AMALOGS: ``TeamMapEnv`` and ``TrainConfig(learner="map")``."""

from __future__ import annotations

import numpy as np
import pytest

from deckgym import agents, envs
from deckgym.agents.composite import map_size, map_view
from deckgym.agents.training.team_env import TeamMapEnv
from deckgym.envs.amalogs.encode import CORE_OFFSET
from deckgym.envs.core.errors import IllegalActionError
from tests.agents.tiny_runs import quick_config


def _env(**kw):
    return TeamMapEnv(
        "amalogs_v2",
        [agents.make("heuristic", "amalogs_v2")],
        agents.make("heuristic", "amalogs_v2"),
        **kw,
    )


def test_the_learner_sees_only_its_teams_map_decisions_and_the_map_view():
    env = _env()
    full = envs.make("amalogs_v2")
    size = map_size(full)
    assert env.observation_space.shape == (size,) and env.action_space.n == CORE_OFFSET
    assert size == full.unwrapped.encoder.layout["core"].start
    rng = np.random.default_rng(0)
    for episode in range(4):
        obs, info = env.reset(seed=100 + episode) if episode == 0 else env.reset()
        team = env.teams[info["team"]]
        assert info["team"] == (100 + episode) % 2  # the team alternates from the reset seed
        done, steps = False, 0
        while not done:
            st = env.raw.game
            seat = st.current_player
            whole = env.raw.encoder.action_mask(st)
            assert seat in team and not whole[CORE_OFFSET:].any()  # a map decision of its team
            mask = env.action_masks()
            assert mask.sum() > 1 and np.array_equal(mask, whole[:CORE_OFFSET])
            assert np.array_equal(obs, env.raw.encoder.observe(st, seat)[:size])
            assert env.observation_space.contains(obs)
            obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done, steps = term or trunc, steps + 1
            if not done:
                assert reward == 0.0
        assert reward == env.raw.game.returns()[team[0]] == info["outcome"]
        assert steps > 0


def test_a_map_learner_refuses_other_actions_and_other_envs():
    env = _env(team=0)
    env.reset(seed=1)
    mask = env.action_masks()
    bad = int(np.flatnonzero(~mask)[0])
    before = env.raw.game.to_dict() if hasattr(env.raw.game, "to_dict") else None
    with pytest.raises(IllegalActionError, match=f"illegal action {bad}"):
        env.step(bad)
    with pytest.raises(IllegalActionError):
        env.step(CORE_OFFSET)  # a core action is not the map learner's
    if before is not None:
        assert env.raw.game.to_dict() == before
    with pytest.raises(ValueError, match="plays amalogs_v2, not 'mow_v1'"):
        TeamMapEnv("mow_v1", [agents.make("heuristic", "mow_v1")], agents.make("heuristic", "mow_v1"))
    with pytest.raises(ValueError, match="team must be"):
        _env(team=2)


def test_map_view_is_none_at_core_decisions():
    obs = np.arange(10.0)
    mask = np.zeros(CORE_OFFSET + 5, dtype=bool)
    mask[[3, 7]] = True
    o, m = map_view(obs, mask, 4)
    assert list(o) == [0.0, 1.0, 2.0, 3.0] and list(np.flatnonzero(m)) == [3, 7] and len(m) == CORE_OFFSET
    mask[CORE_OFFSET + 1] = True
    assert map_view(obs, mask, 4) is None


@pytest.mark.train
def test_a_map_learner_trains_and_plays_inside_the_composite(tmp_path):
    pytest.importorskip("sb3_contrib")
    from deckgym.agents.composite import CompositeAgent
    from deckgym.agents.training.imitation import heuristic_dataset
    from deckgym.agents.training.loop import train

    cfg = quick_config(
        tmp_path,
        "amalogs_v2",
        timesteps=256,
        learner="map",
        card_agent="heuristic",
        dagger_rounds=1,
        dagger_games=2,
        dagger_epochs=1,
        eval_every=256,
        eval_games=2,
    )
    obs, masks, acts, _rets, _st = heuristic_dataset(cfg)
    size = map_size(envs.make("amalogs_v2"))
    assert obs.shape[1] == size and masks.shape[1] == CORE_OFFSET
    assert len(acts) > 0 and all(masks[i, a] for i, a in enumerate(acts)) and (masks.sum(1) > 1).all()
    summary = train(cfg, log=lambda _m: None)
    assert summary["timesteps"] >= 256
    assert {"random", "heuristic"} <= set(summary["history"][-1])
    agent = agents.make(f"ppo:{tmp_path / 'model.zip'}", "amalogs_v2")
    assert isinstance(agent, CompositeAgent) and agent.map_model is not None
    from deckgym.agents.arena import play_game

    calls = []
    inner = agent.map_model.act
    agent.map_model.act = lambda o, m: calls.append(len(o)) or inner(o, m)
    env = envs.make("amalogs_v2", illegal_action="raise")  # an illegal choice would raise
    play_game(
        env,
        [agent, agent, agents.make("heuristic", "amalogs_v2"), agents.make("heuristic", "amalogs_v2")],
        seed=4,
    )
    assert env.unwrapped.game.is_terminal()
    assert calls and set(calls) == {size}  # the map model played the team's map decisions, from the map view


def test_map_learner_settings_are_checked():
    from deckgym.agents.training.config import TrainConfig

    with pytest.raises(ValueError, match="learner 'map' plays amalogs_v2 only"):
        TrainConfig(env="mow_v1", learner="map").validate()
    with pytest.raises(ValueError, match="learner must be 'seat' or 'map'"):
        TrainConfig(learner="team").validate()
    with pytest.raises(ValueError, match="no 'self' opponents"):
        TrainConfig(env="amalogs_v2", env_kwargs={}, learner="map").validate()
    with pytest.raises(ValueError, match="card_agent must be"):
        TrainConfig(
            env="amalogs_v2", env_kwargs={}, learner="map", card_agent="search", opponents={"heuristic": 1.0}
        ).validate()

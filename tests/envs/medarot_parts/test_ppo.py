"""A tiny MaskablePPO smoke run on medarot_parts_v0 trains, reloads and plays legal games."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.train


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    pytest.importorskip("sb3_contrib")
    from agents.ppo import TrainConfig, train

    out = tmp_path_factory.mktemp("ppo_parts")
    cfg = TrainConfig(
        env="medarot_parts_v0",
        env_kwargs={},
        timesteps=2048,
        n_envs=2,
        n_steps=256,
        batch_size=128,
        eval_every=0,
        eval_games=2,
        snapshot_every=1024,
        checkpoint_every=4096,
        out=str(out),
        progress_bar=False,
        pretrain_games=2,
        pretrain_epochs=1,
    )
    summary = train(cfg, log=lambda _line: None)
    return out, summary


def test_ppo_trains_and_plays_only_legal_actions(trained):
    from agents.arena import play_game
    from agents.ppo import PPOAgent
    from agents.random_agent import RandomAgent
    from envs import medarot_parts_v0

    out, summary = trained
    assert summary["timesteps"] >= 2048 and (out / "model.zip").exists()
    agent = PPOAgent(out / "model.zip")
    moves = 0

    class Checked:
        name = "checked"

        def reset(self, seed=None):
            agent.reset(seed)

        def act(self, obs, mask):
            nonlocal moves
            a = agent.act(obs, mask)
            assert mask[a] == 1
            moves += 1
            return a

    env = medarot_parts_v0.env()
    for g in range(4):
        play_game(env, [Checked(), RandomAgent(g)] if g % 2 == 0 else [RandomAgent(g), Checked()], seed=g)
    assert moves > 20

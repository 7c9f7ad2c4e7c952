"""A tiny MaskablePPO run on mow_v0 trains, saves, reloads and plays legal games."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.train


def test_maskable_ppo_smoke_run_plays_legal_games(tmp_path):
    pytest.importorskip("sb3_contrib")
    import torch

    torch.set_num_threads(1)  # the smoke run is tiny; threads only contend with the other test worker
    from agents.arena import play_game
    from agents.ppo import PPOAgent, TrainConfig, train
    from agents.random_agent import RandomAgent
    from envs import mow_v0

    cfg = TrainConfig(
        env="mow_v0",
        env_kwargs={},
        timesteps=2048,
        n_envs=2,
        n_steps=512,
        batch_size=128,
        n_epochs=2,
        eval_every=2048,
        eval_games=2,
        snapshot_every=1024,
        checkpoint_every=0,
        out=str(tmp_path),
        progress_bar=False,
        pretrain_games=2,
        pretrain_epochs=1,
    )
    summary = train(cfg, log=lambda _line: None)
    assert summary["timesteps"] >= 2048 and (tmp_path / "model.zip").exists()
    agent = PPOAgent(tmp_path / "model.zip")
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

    env = mow_v0.env()
    for g in range(2):
        play_game(env, [Checked(), RandomAgent(g)] if g % 2 == 0 else [RandomAgent(g), Checked()], seed=g)
    assert moves > 50

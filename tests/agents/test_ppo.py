"""A MaskablePPO smoke run trains, saves, reloads and plays legal games."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.arena import match, play_game
from agents.ppo import PPOAgent, TrainConfig, plot_learning_curve, train
from envs import medarot_ocg_v0

pytestmark = pytest.mark.train


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("ppo")
    cfg = TrainConfig(
        timesteps=3000,
        n_envs=2,
        n_steps=512,
        batch_size=128,
        eval_every=1500,
        eval_games=4,
        snapshot_every=1000,
        checkpoint_every=2000,
        out=str(out),
        progress_bar=False,
        pretrain_games=6,
        pretrain_epochs=2,
    )
    lines: list[str] = []
    summary = train(cfg, log=lines.append)
    summary["log"] = lines
    return out, summary


def test_training_writes_model_history_curve_and_snapshots(trained):
    out, summary = trained
    assert summary["timesteps"] >= 3000
    for name in ("model.zip", "train.json", "history.json", "learning_curve.png"):
        assert (out / name).exists(), name
    assert list((out / "snapshots").glob("step_*.zip")), "self-play snapshots"
    assert list((out / "tb").iterdir()), "tensorboard logs"
    history = json.loads((out / "history.json").read_text())
    assert next(h["timesteps"] for h in history) == 0 and len(history) >= 3
    assert all(0.0 <= h["random"]["win"] <= 1.0 for h in history)


def test_imitation_pretraining_ran_before_ppo(trained):
    _out, summary = trained
    imitation = [line for line in summary["log"] if line.startswith("imitation epoch")]
    assert len(imitation) == 2 and "agrees with the heuristic" in imitation[-1]


def test_saved_model_reloads_and_plays_only_legal_actions(trained):
    out, _ = trained
    agent = PPOAgent(out / "model.zip")
    env = medarot_ocg_v0.env(mode="beginner")
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

    from agents.random_agent import RandomAgent

    for g in range(4):
        play_game(env, [Checked(), RandomAgent(g)] if g % 2 == 0 else [RandomAgent(g), Checked()], seed=g)
    assert moves > 50
    res = match(f"ppo:{out / 'model.zip'}", "random", "medarot_ocg_v0", games=4, workers=1, mode="beginner")
    assert res.games == 4


def test_learning_curve_plot(tmp_path):
    hist = [
        {"timesteps": t, "random": {"win": w, "games": 20}, "heuristic": {"win": w / 2, "games": 20}}
        for t, w in ((0, 0.3), (100, 0.8))
    ]
    plot_learning_curve(hist, tmp_path / "c.png")
    assert (tmp_path / "c.png").stat().st_size > 1000
    assert np.frombuffer((tmp_path / "c.png").read_bytes()[:4], dtype=np.uint8).tolist() == [137, 80, 78, 71]

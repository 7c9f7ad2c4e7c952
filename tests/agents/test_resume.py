"""``deckgym train --resume``: N steps, then a resume to 2N, finish like one run of 2N steps."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib")

from typer.testing import CliRunner

from deckgym.agents.cli import app
from deckgym.agents.training.config import TrainConfig
from deckgym.agents.training.loop import RESUME_FILE, resume_config, train

runner = CliRunner()


def _cfg(out, timesteps):
    return TrainConfig(
        env="mow_v1",
        env_kwargs={},
        timesteps=timesteps,
        n_envs=2,
        n_steps=256,
        batch_size=128,
        eval_every=512,
        eval_games=2,
        snapshot_every=256,
        checkpoint_every=512,
        pretrain_games=0,
        opponents={"heuristic": 0.5, "random": 0.25, "self": 0.25},
        out=str(out),
        progress_bar=False,
    )


def test_n_steps_and_a_resume_to_2n_end_like_a_run_of_2n(tmp_path):
    whole = train(_cfg(tmp_path / "whole", 1024), log=lambda _m: None)
    half = tmp_path / "half"
    train(_cfg(half, 512), log=lambda _m: None)
    first = json.loads((half / RESUME_FILE).read_text())
    assert first["step"] == 512 and first["checkpoint"] == "model.zip" and first["snapshots"]
    logs: list[str] = []
    resumed = train(resume_config(half, 1024), log=logs.append, resume=True)
    assert logs[0].startswith("resumed from") and "512 steps" in logs[0]
    assert resumed["timesteps"] == whole["timesteps"] == 1024
    steps = [row["timesteps"] for row in resumed["history"]]
    assert steps == [row["timesteps"] for row in whole["history"]]  # the same evaluations, in order
    assert resumed["history"][:2] == json.loads((half / "history.json").read_text())[:2]
    for name in ("model.zip", "learning_curve.png", "train.json", "history.json", f"checkpoint_{1024}.zip"):
        assert (half / name).is_file(), name
    assert resumed["train_seconds"] > first["seconds"] and resumed["ppo_seconds"] > first["ppo_seconds"]


def test_the_optimizer_state_comes_back_with_the_model(tmp_path):
    from sb3_contrib import MaskablePPO

    out = tmp_path / "run"
    train(_cfg(out, 512), log=lambda _m: None)
    saved = MaskablePPO.load(out / "model.zip", device="cpu")
    steps = [s["step"] for s in saved.policy.optimizer.state_dict()["state"].values()]
    assert steps and all(float(x) > 0 for x in steps)  # Adam's step counts: not a fresh optimizer


def test_the_command_resumes_and_refuses_what_it_cannot(tmp_path):
    out = tmp_path / "cli"
    train(_cfg(out, 512), log=lambda _m: None)
    r = runner.invoke(
        app, ["train", "--resume", str(out), "--timesteps", "768", "--final-games", "2", "--workers", "1"]
    )
    assert r.exit_code == 0, r.output
    assert (
        "resuming MaskablePPO on mow_v1" in r.output
        and json.loads((out / "train.json").read_text())["timesteps"] == 768
    )
    assert json.loads((out / "eval.json").read_text())["timesteps"] == 768
    r = runner.invoke(app, ["train", "--resume", str(out), "--timesteps", "256"])
    assert r.exit_code != 0
    with pytest.raises(ValueError, match="must be more than the 768 steps already trained"):
        resume_config(out, 256)
    with pytest.raises(FileNotFoundError, match="nothing to resume"):
        resume_config(tmp_path / "empty")


def test_a_run_with_the_kl_anchor_resumes_with_it(tmp_path):
    import dataclasses

    out = tmp_path / "anchored"
    cfg = dataclasses.replace(_cfg(out, 512), kl_coef=1.0, kl_decay_steps=4096)
    train(cfg, log=lambda _m: None)
    resumed = train(resume_config(out, 1024), log=lambda _m: None, resume=True)
    assert resumed["timesteps"] == 1024
    assert json.loads((out / "train.json").read_text())["config"]["kl_coef"] == 1.0

"""Training configurations small enough for a test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deckgym.agents.training.config import TrainConfig


def tiny_config(out: Path, **settings: Any) -> TrainConfig:
    """A training run small enough for a test: two envs, small batches, no progress bar (``settings`` override any)."""
    return TrainConfig(**{"n_envs": 2, "batch_size": 128, "out": str(out), "progress_bar": False, **settings})


def quick_config(out: Path, env: str, **settings: Any) -> TrainConfig:
    """A ``tiny_config`` run on ``env`` (its default options) against the heuristic, after an
    imitation of two games for one epoch, without evaluations, checkpoints or snapshots;
    ``settings`` override any of it."""
    quiet: dict[str, Any] = {
        "env_kwargs": {},
        "eval_every": 0,
        "eval_games": 2,
        "checkpoint_every": 0,
        "snapshot_every": 0,
        "opponents": {"heuristic": 1.0},
        "pretrain_games": 2,
        "pretrain_epochs": 1,
    }
    return tiny_config(out, env=env, **{**quiet, **settings})


def fast_mow_config(out: Path, **settings: Any) -> TrainConfig:
    """A ``quick_config`` run of 2048 steps on Master of the World without imitation, whose large
    learning rate makes PPO move the policy far."""
    return quick_config(
        out, "mow_v1", timesteps=2048, n_steps=512, learning_rate=3e-3, pretrain_games=0, seed=3, **settings
    )

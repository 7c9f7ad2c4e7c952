"""Torch threads in training: one count while the learner plays, another while it learns."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")


def _cfg(tmp_path, **over):
    from deckgym.agents.training.config import TrainConfig

    settings = {
        "env": "mow_v1",
        "env_kwargs": {},
        "timesteps": 1024,
        "n_envs": 2,
        "n_steps": 512,
        "batch_size": 256,
        "eval_every": 0,
        "eval_games": 2,
        "checkpoint_every": 0,
        "snapshot_every": 0,
        "pretrain_games": 0,
        "opponents": {"heuristic": 1.0},
        "out": str(tmp_path),
        "progress_bar": False,
        "seed": 5,
    }
    settings.update(over)
    return TrainConfig(**settings)


def test_the_context_sets_the_count_and_restores_it(monkeypatch):
    from deckgym.agents.training.policy import torch_threads

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    before = torch.get_num_threads()
    with torch_threads(3):
        assert torch.get_num_threads() == 3
    with torch_threads(0):  # the default setting: one thread
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with pytest.raises(RuntimeError), torch_threads(2):
        assert torch.get_num_threads() == 2
        raise RuntimeError
    assert torch.get_num_threads() == before


def test_ppo_collects_on_torch_threads_and_updates_on_update_threads(tmp_path, monkeypatch):
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from deckgym.agents.training.loop import train

    seen: dict[str, list[int]] = {"step": [], "update": []}
    step, update = DummyVecEnv.step_wait, MaskablePPO.train

    def spy_step(self, *args, **kwargs):
        seen["step"].append(torch.get_num_threads())
        return step(self, *args, **kwargs)

    def spy_update(self, *args, **kwargs):
        seen["update"].append(torch.get_num_threads())
        return update(self, *args, **kwargs)

    monkeypatch.setattr(DummyVecEnv, "step_wait", spy_step)
    monkeypatch.setattr(MaskablePPO, "train", spy_update)
    before = torch.get_num_threads()
    train(_cfg(tmp_path, torch_threads=1, update_threads=2), log=lambda _m: None)
    assert seen["step"] and set(seen["step"]) == {1}, "the envs stepped on more than one torch thread"
    assert seen["update"] == [2, 2], "the two updates did not run on update_threads"
    assert torch.get_num_threads() == 1  # back to the playing count once training ends
    torch.set_num_threads(before)


def test_imitation_passes_run_on_update_threads(tmp_path, monkeypatch):
    from deckgym.agents.training import imitation
    from deckgym.agents.training.loop import train

    seen: list[int] = []
    epoch = imitation._epoch

    def spy(*args, **kwargs):
        seen.append(torch.get_num_threads())
        return epoch(*args, **kwargs)

    monkeypatch.setattr(imitation, "_epoch", spy)
    before = torch.get_num_threads()
    cfg = _cfg(
        tmp_path,
        timesteps=512,
        pretrain_games=6,
        pretrain_epochs=2,
        dagger_rounds=1,
        dagger_games=2,
        dagger_epochs=1,
        torch_threads=1,
        update_threads=2,
    )
    train(cfg, log=lambda _m: None)
    assert seen == [2, 2, 2], "cloning's 2 passes and DAgger's 1 did not all run on update_threads"
    torch.set_num_threads(before)


@pytest.mark.parametrize("name", ["torch_threads", "update_threads"])
def test_a_negative_thread_count_is_refused(tmp_path, name):
    from deckgym.agents.training.loop import train

    with pytest.raises(ValueError, match=f"{name} must be an integer in 0..1024.*, got -1"):
        train(_cfg(tmp_path, **{name: -1}), log=lambda _m: None)


@pytest.mark.parametrize(
    ("setting", "omp", "count"),
    [
        (0, None, 1),  # the default: one thread, however many cores
        (0, "3", 3),  # OMP_NUM_THREADS is honoured
        (0, "4,2", 4),  # a nested list: its outer count
        (0, "lots", 1),  # not a count: the default
        (0, "0", 1),
        (2, None, 2),  # a count given is used as it is
        (2, "3", 2),
    ],
)
def test_updates_run_on_one_thread_unless_told_otherwise(monkeypatch, setting, omp, count):
    from deckgym.agents.training.config import TrainConfig
    from deckgym.agents.training.loop import _thread_counts

    if omp is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", omp)
    assert TrainConfig().update_threads == 0
    assert _thread_counts(TrainConfig(update_threads=setting)) == (1, count)

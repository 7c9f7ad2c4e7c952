"""``TrainConfig.init_model``: a run that starts PPO from a model's weights instead of an imitation."""

from __future__ import annotations

import pytest
import torch

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO

from deckgym.agents.pretrained import model_path
from deckgym.agents.training import train
from tests.agents.tiny_runs import quick_config


def _weights(path) -> dict[str, torch.Tensor]:
    return MaskablePPO.load(str(path), device="cpu").policy.state_dict()


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_a_run_starts_from_the_shipped_model_and_skips_the_imitation(tmp_path):
    cfg = quick_config(tmp_path / "run", "mow_v1", timesteps=0, init_model="pretrained", pretrain_games=5)
    train(cfg, log=lambda s: None)
    start = _weights(tmp_path / "run" / "start.zip")
    assert _same(start, _weights(model_path("mow_v1")))
    assert not (tmp_path / "run" / "imitation.zip").exists()  # the imitation did not run


def test_a_run_starts_from_an_earlier_runs_model_and_then_learns(tmp_path):
    first = quick_config(tmp_path / "a", "mow_v1", timesteps=0, pretrain_games=2, seed=1)
    train(first, log=lambda s: None)
    lines: list[str] = []
    second = quick_config(
        tmp_path / "b",
        "mow_v1",
        timesteps=512,
        n_steps=512,
        learning_rate=3e-3,
        seed=2,
        init_model=str(tmp_path / "a" / "model.zip"),
    )
    train(second, log=lines.append)
    assert _same(_weights(tmp_path / "b" / "start.zip"), _weights(tmp_path / "a" / "model.zip"))
    assert not _same(_weights(tmp_path / "b" / "model.zip"), _weights(tmp_path / "a" / "model.zip"))
    assert any("starting from the weights of" in line for line in lines)


def test_a_model_of_another_shape_is_refused_by_name(tmp_path):
    cfg = quick_config(tmp_path / "run", "mow_v1", timesteps=0, init_model="pretrained", net_arch=(64,))
    with pytest.raises(ValueError, match=r"does not fit this run's network \(net_arch \[64\]"):
        train(cfg, log=lambda s: None)


def test_a_missing_model_file_is_refused_before_any_work(tmp_path):
    cfg = quick_config(tmp_path / "run", "mow_v1", init_model=str(tmp_path / "nope.zip"))
    with pytest.raises(ValueError, match="init_model must be a model file, 'pretrained' or ''.*no such file"):
        cfg.validate()
    assert not (tmp_path / "run").exists()

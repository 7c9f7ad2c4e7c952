"""Value warm-up (``TrainConfig.value_warmup_steps``): only the critic learns at the start of PPO."""

from __future__ import annotations

import pytest

from tests.agents.tiny_runs import fast_mow_config

torch = pytest.importorskip("torch")


def _params(path):
    from sb3_contrib import MaskablePPO

    from deckgym.agents.training.policy import value_parameters

    policy = MaskablePPO.load(path, device="cpu").policy
    value = {id(p) for p in value_parameters(policy)}
    own = [p.detach().clone() for p in policy.parameters() if id(p) in value]
    rest = [p.detach().clone() for p in policy.parameters() if id(p) not in value]
    return own, rest


def _same(a, b) -> bool:
    return all(torch.equal(x, y) for x, y in zip(a, b, strict=True))


def test_during_the_warm_up_only_the_value_function_moves(tmp_path):
    from deckgym.agents.training.loop import train

    # value_warmup_steps: of the updates after 512 and 1024 steps, the first only
    cfg = fast_mow_config(tmp_path, checkpoint_every=512, value_warmup_steps=1024)
    train(cfg, log=lambda _m: None)
    # a checkpoint is written while the rollout that reaches it is collected, before its update
    v0, p0 = _params(tmp_path / "checkpoint_512.zip")  # no update yet
    v1, p1 = _params(tmp_path / "checkpoint_1024.zip")  # after one update, inside the warm-up
    v2, p2 = _params(tmp_path / "checkpoint_1536.zip")  # after a second update, past it
    assert _same(p0, p1), "the policy and the shared extractor moved during the warm-up"
    assert not _same(v0, v1), "the value function did not learn during the warm-up"
    assert not _same(p1, p2), "the policy did not learn after the warm-up"
    assert not _same(v1, v2)


def test_a_negative_warm_up_is_refused(tmp_path):
    from deckgym.agents.training.config import TrainConfig
    from deckgym.agents.training.loop import train

    with pytest.raises(
        ValueError, match=r"value_warmup_steps must be an integer in 0\.\.10,000,000,000, got -1"
    ):
        train(TrainConfig(out=str(tmp_path), value_warmup_steps=-1, progress_bar=False))


def test_the_warm_up_and_the_kl_anchor_run_together(tmp_path):
    """The anchor has nothing to pull while the warm-up freezes the policy; it acts after it."""
    from deckgym.agents.training.loop import train

    cfg = fast_mow_config(
        tmp_path, checkpoint_every=512, value_warmup_steps=1024, kl_coef=1.0, kl_decay_steps=4096
    )
    train(cfg, log=lambda _m: None)
    _v0, p0 = _params(tmp_path / "checkpoint_512.zip")
    _v1, p1 = _params(tmp_path / "checkpoint_1024.zip")
    _v2, p2 = _params(tmp_path / "checkpoint_1536.zip")
    assert _same(p0, p1), "the anchor moved the policy during the warm-up"
    assert not _same(p1, p2), "the policy did not learn after the warm-up"

"""The KL anchor toward the imitated policy (``agents.training.anchor``)."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")

from deckgym.agents.training.anchor import anchor_coef, masked_kl
from tests.agents.tiny_runs import fast_mow_config
from tests.envs.positions import live_observations


def test_masked_kl_matches_a_hand_computed_value_and_ignores_illegal_entries():
    # ref (0.5, 0.5) and new (0.25, 0.75) over the two legal actions; the third is illegal
    ref = torch.log(torch.tensor([[0.5, 0.5, 1e-9]]))
    new = torch.log(torch.tensor([[0.25, 0.75, 0.999]]))
    mask = torch.tensor([[1, 1, 0]])
    want = 0.5 * math.log(0.5 / 0.25) + 0.5 * math.log(0.5 / 0.75)  # 0.143841...
    assert float(masked_kl(ref, new, mask)) == pytest.approx(want, abs=1e-6)
    garbage = new.clone()
    garbage[0, 2] = -1e8  # what the masked distribution holds for an illegal action
    assert float(masked_kl(ref, garbage, mask)) == pytest.approx(want, abs=1e-6)
    assert float(masked_kl(ref, ref, mask)) == pytest.approx(0.0, abs=1e-7)


def test_masked_kl_is_the_mean_over_the_batch():
    ref = torch.log(torch.tensor([[0.5, 0.5], [0.5, 0.5]]))
    new = torch.log(torch.tensor([[0.25, 0.75], [0.5, 0.5]]))
    one = 0.5 * math.log(2) + 0.5 * math.log(2 / 3)
    assert float(masked_kl(ref, new, torch.ones(2, 2))) == pytest.approx(one / 2, abs=1e-6)


def test_the_anchor_weight_falls_linearly_to_zero():
    assert anchor_coef(0.5, 100, 0) == 0.5
    assert anchor_coef(0.5, 100, 50) == pytest.approx(0.25)
    assert anchor_coef(0.5, 100, 100) == 0.0 and anchor_coef(0.5, 100, 500) == 0.0
    assert anchor_coef(0.0, 100, 0) == 0.0 and anchor_coef(0.5, 0, 0) == 0.0


def _drift(tmp_path, kl_coef):
    """KL(start || end) of a short, fast-moving run on fixed observations from the heuristic."""
    import numpy as np
    from sb3_contrib import MaskablePPO

    from deckgym import envs
    from deckgym.agents.training.loop import train
    from deckgym.agents.training.policy import policy_action  # noqa: F401 - the policy module loads

    out = tmp_path / f"kl{kl_coef}"
    cfg = fast_mow_config(out, n_epochs=8, checkpoint_every=1024, kl_coef=kl_coef, kl_decay_steps=10_000)
    train(cfg, log=lambda _m: None)
    start = MaskablePPO.load(out / "checkpoint_1024.zip", device="cpu")
    end = MaskablePPO.load(out / "model.zip", device="cpu")
    env = envs.make("mow_v1")
    obs, masks = [], []
    for o in live_observations(env, range(3), max_iter=300):
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        env.step(int(np.flatnonzero(o["action_mask"])[0]))
    x = torch.as_tensor(np.array(obs))
    m = torch.as_tensor(np.array(masks))
    with torch.no_grad():
        lp = [
            torch.log_softmax(p.policy.get_distribution(x, action_masks=m).distribution.logits, -1)
            for p in (start, end)
        ]
    return float(masked_kl(lp[0], lp[1], m))


def test_the_anchor_keeps_the_policy_nearer_its_start(tmp_path):
    """From the same seed, a strong anchor leaves the policy nearer its 1,024-step self than none."""
    free = _drift(tmp_path, 0.0)
    anchored = _drift(tmp_path, 20.0)
    assert anchored < free, (anchored, free)

"""``envs.rllib``: deckgym envs as RLlib multi-agent envs with action masks, and the PPO example."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the [rllib] extra (make test installs it)")

from deckgym.envs.core.errors import IllegalActionError
from deckgym.envs.rllib import RllibEnv
from tests.scripts import ROOT


def _play(env: RllibEnv, seed: int) -> tuple[int, dict[str, float], dict, dict]:
    obs, _info = env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while True:
        assert len(obs) == 1  # turn-based: only the seat to move observes
        ((me, o),) = obs.items()
        assert set(o) == {"action_mask", "observations"} and o["action_mask"].dtype == np.float32
        assert env.observation_spaces[me].contains(o)
        legal = np.flatnonzero(o["action_mask"])
        obs, rew, term, trunc, _ = env.step({me: int(rng.choice(legal))})
        steps += 1
        for a, r in rew.items():
            totals[a] += r
        if term["__all__"] or trunc["__all__"]:
            return steps, totals, obs, {**term, **{f"trunc:{k}": v for k, v in trunc.items()}}


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("medarot_ocg_v1", {"mode": "beginner"}),
        ("medarot_parts_v1", {}),
        ("mow_v1", {}),
        ("amalogs_v2", {"team_sizes": [1, 1]}),
    ],
)
def test_random_legal_games_end_with_every_seat_observed_and_zero_sum_rewards(name, options):
    env = RllibEnv({"env": name, **options})
    for seed in range(2):
        steps, totals, last, flags = _play(env, seed)
        assert steps > 0 and set(last) == set(env.possible_agents)  # every seat's last observation
        assert flags["__all__"] or flags["trunc:__all__"]
        assert abs(sum(totals.values())) < 1e-9 and set(totals.values()) <= {-1.0, 0.0, 1.0}


def test_an_illegal_action_ends_the_game_with_minus_one_and_is_counted():
    env = RllibEnv({"env": "mow_v1"})
    obs, _ = env.reset(seed=1)
    ((me, o),) = obs.items()
    bad = int(np.flatnonzero(o["action_mask"] == 0)[0])
    before = RllibEnv.illegal_actions
    obs, rew, term, _trunc, _ = env.step({me: bad})
    assert RllibEnv.illegal_actions == before + 1
    assert rew[me] == -1.0 and term["__all__"] and set(obs) == set(env.possible_agents)
    strict = RllibEnv({"env": "mow_v1", "illegal_action": "raise"})
    obs, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step({me: bad})
    with pytest.raises(ValueError, match="illegal_action must be"):
        RllibEnv({"env": "mow_v1", "illegal_action": "ignore"})


def test_rllibs_own_env_checker_accepts_the_env():
    """The checker steps random actions without the mask; the env must neither raise nor break."""
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(RllibEnv({"env": "medarot_ocg_v1", "mode": "beginner"}))


def _example(*args: str) -> dict:
    proc = subprocess.run(
        [
            sys.executable,
            "scripts/rllib_ppo.py",
            "--batch",
            "300",
            "--minibatch",
            "100",
            "--epochs",
            "1",
            *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout[proc.stdout.index("{") :])


def test_the_ppo_example_trains_evaluates_checkpoints_and_resumes(tmp_path):
    """It never sends an illegal action, reports each seat's return and its rate beside the bare
    adapter's, scores the policy against the heuristic, and a run continues from its checkpoint."""
    ck = tmp_path / "ck"
    report = _example("--iterations", "2", "--eval-games", "4", "--checkpoint", str(ck), "--json")
    assert report["illegal_actions"] == 0 and len(report["iterations"]) == 2
    last = report["iterations"][-1]
    assert last["env_steps"] >= 600 and last["episodes"] >= 1
    assert set(last["return_mean_by_seat"]) == {"player_0", "player_1"}
    assert sum(last["return_mean_by_seat"].values()) == pytest.approx(0.0, abs=1.0)  # zero-sum seats
    assert 0 < report["env_steps_per_second"] < report["adapter_steps_per_second"]
    ev = report["evaluation_vs_heuristic"]
    assert ev["games"] == 4 and ev["opponent"] == "heuristic"
    lo, hi = ev["score_ci95"]
    assert ev["score"] == pytest.approx(ev["win_rate"] + ev["draw_rate"] / 2) and lo <= ev["score"] <= hi
    assert (ck / "rllib_checkpoint.json").is_file()
    more = _example("--resume", str(ck), "--iterations", "1", "--eval-games", "0", "--json")
    assert more["iterations"][0]["env_steps"] >= last["env_steps"] + 300  # counted on from the checkpoint
    assert more["evaluation_vs_heuristic"] is None


def test_the_ppo_example_trains_on_the_batched_env_through_rllibs_vector_entry_point():
    """``--batched N``: RLlib's single-agent env runner takes ``envs.vector`` whole (N games, the
    heuristic inside), the masking module learns from ``{"observations", "action_mask"}``, and the
    rate is reported beside the bare adapter's and the batched env's own random rates."""
    report = _example(
        "--batched", "8", "--iterations", "2", "--eval-games", "2", "--sample-seconds", "0.5", "--json"
    )
    last = report["iterations"][-1]
    assert len(report["iterations"]) == 2 and last["env_steps"] >= 600 and last["episodes"] >= 1
    assert (
        set(last["return_mean_by_seat"]) == {"learner"}
        and -1.0 <= last["return_mean_by_seat"]["learner"] <= 1.0
    )
    assert 0 < report["env_steps_per_second"] < report["batched_env_steps_per_second"]
    assert report["adapter_steps_per_second"] > 0 and report["evaluation_vs_heuristic"]["games"] == 2
    # RLlib's own sampling, timed after training: it steps the batched env, so it is no faster
    assert 0 < report["sampling_steps_per_second"] < report["batched_env_steps_per_second"]

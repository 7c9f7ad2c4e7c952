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
        ("medarot_parts_v0", {}),
        ("mow_v0", {}),
        ("amalogs_v1", {"team_sizes": [1, 1]}),
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
    env = RllibEnv({"env": "mow_v0"})
    obs, _ = env.reset(seed=1)
    ((me, o),) = obs.items()
    bad = int(np.flatnonzero(o["action_mask"] == 0)[0])
    before = RllibEnv.illegal_actions
    obs, rew, term, _trunc, _ = env.step({me: bad})
    assert RllibEnv.illegal_actions == before + 1
    assert rew[me] == -1.0 and term["__all__"] and set(obs) == set(env.possible_agents)
    strict = RllibEnv({"env": "mow_v0", "illegal_action": "raise"})
    obs, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step({me: bad})
    with pytest.raises(ValueError, match="illegal_action must be"):
        RllibEnv({"env": "mow_v0", "illegal_action": "ignore"})


def test_rllibs_own_env_checker_accepts_the_env():
    """The checker steps random actions without the mask; the env must neither raise nor break."""
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(RllibEnv({"env": "medarot_ocg_v1", "mode": "beginner"}))


def test_the_ppo_example_trains_with_a_masking_module_and_never_sends_an_illegal_action():
    proc = subprocess.run(
        [
            sys.executable,
            "scripts/rllib_ppo.py",
            "--iterations",
            "2",
            "--batch",
            "300",
            "--minibatch",
            "100",
            "--epochs",
            "1",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout[proc.stdout.index("{") :])
    assert report["illegal_actions"] == 0 and len(report["iterations"]) == 2
    assert report["iterations"][-1]["env_steps"] >= 600 and report["iterations"][-1]["episodes"] >= 1

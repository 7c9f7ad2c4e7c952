"""scripts/bench.py runs end to end on a tiny budget and reports ratios to the references."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.envs.positions import live_observations
from tests.scripts import ROOT, load_script


def test_bench_json_smoke():
    out = subprocess.run(
        [
            sys.executable,
            "scripts/bench.py",
            "--seconds",
            "0.3",
            "--rounds",
            "1",
            "--json",
            "--envs",
            "medarot_ocg_v1:beginner",
            "--tournament-games",
            "8",
            "--latency-decisions",
            "12",
            "--train-steps",
            "256",
            "--agent-seconds",
            "0.8",
            "--worlds",
            "2",
            "--against",
            str(ROOT),
            "--vector-seconds",
            "1.5",
            "--vector-envs",
            "4",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result = json.loads(out.stdout)
    vec = result["vector"]  # the batched-env rows: learner steps/s of each vector env, ratios in one run
    assert vec["num_envs"] == 4 and set(vec["steps_per_s"]) == {"single", "batch", "sync", "processes"}
    assert min(vec["steps_per_s"].values()) > 0 and vec["ratio"]["batch_to_single"] > 0
    t = result["tournaments"]["medarot_ocg_v1:beginner"]  # the deck-tournament row, same run
    assert t["ratio"] == pytest.approx(t["heuristic_games_per_s"] / t["random_games_per_s"])
    lat = result["latency"]["medarot_ocg_v1:beginner"]  # the AI's time per decision, p50 <= p95 <= max
    assert lat["level"] == "search" and lat["decisions"] == 12
    assert 0 < lat["p50_s"] <= lat["p95_s"] <= lat["max_s"]
    assert lat["ratio_p50"] == pytest.approx(lat["p50_s"] / lat["heuristic_p50_s"])
    ag = result["agents"]["medarot_ocg_v1:beginner"]  # construction, fresh-env, heuristic and search rows
    c4 = result["agents"]["reference"]["connect_four_v3"]
    assert ag["ratio"]["constructions"] == pytest.approx(
        ag["constructions_per_s"] / c4["constructions_per_s"]
    )
    assert ag["ratio"]["fresh_env"] == pytest.approx(
        ag["fresh_env_decisions_per_s"] / c4["fresh_env_decisions_per_s"]
    )
    assert ag["ratio"]["search"] == pytest.approx(ag["search_decisions_per_s"] / c4["aec_decisions_per_s"])
    assert c4["aec_decisions_per_s"] == result["references"]["connect_four_v3"]["decisions_per_s"]
    assert ag["heuristic_games_per_s"] > 0 and ag["search_decisions_per_s"] > 0
    assert set(ag["speedup"]) == set(ag["before"])  # --against: the same rows of that copy, same run
    assert ag["speedup"]["search_decisions_per_s"] == pytest.approx(
        ag["search_decisions_per_s"] / ag["before"]["search_decisions_per_s"]
    )
    row = result["rulesets"]["medarot_ocg_v1:beginner"]
    tr = result["training"]["medarot_ocg_v1:beginner"]  # PPO steps/s over the AEC decisions/s, same run
    assert tr["steps"] >= 256 and tr["ppo_steps_per_s"] >= tr["run_steps_per_s"] > 0
    assert tr["ratio_to_aec"] == pytest.approx(tr["ppo_steps_per_s"] / row["aec"]["decisions_per_s"])
    assert (
        set(row["aec"]["ratio"])
        == set(result["references"])
        == {"connect_four_v3", "texas_holdem_no_limit_v6"}
    )
    for via in ("aec", "engine"):  # every ratio is the row's rate over the reference's, timed around it
        for ref, ratio in row[via]["ratio"].items():
            ref_rate = row[via]["reference_decisions_per_s"][ref]
            assert ratio == pytest.approx(row[via]["decisions_per_s"] / ref_rate)
            assert ref_rate > 0


def test_bench_counts_the_decisions_of_real_games():
    """The loops' decision counts are those of the random legal games they played (replayed here)."""
    import random

    import numpy as np

    from deckgym import envs

    bench = load_script("bench")
    make = lambda: envs.make("mow_v1")
    decisions, games, seconds = bench.aec_loop(make, 0.3, 40)
    assert games >= 1 and seconds >= 0.3
    env, rng, replayed = make(), random.Random(40), 0
    # the loop plays whole games, checking the clock between them
    for obs in live_observations(env, range(40, 40 + games)):
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        replayed += 1
    assert replayed == decisions
    engine_decisions, engine_games, _s = bench.engine_loop(make, 0.3, 40)
    ruleset, rng, replayed = make().unwrapped.ruleset, random.Random(40), 0
    for g in range(engine_games):
        st = ruleset.new_state(40 + g)
        while not st.is_terminal():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            replayed += 1
    assert replayed == engine_decisions


def test_bench_labels_and_nested_split():
    bench = load_script("bench")
    assert bench.label_of("mow_v1", {}) == "mow_v1"
    assert bench.label_of("medarot_ocg_v1", {"mode": "advance"}) == "medarot_ocg_v1:advance"
    assert bench.label_of("amalogs_v2", {"team_sizes": (2, 2)}) == "amalogs_v2:team_sizes=2x2"
    out = subprocess.run(
        [
            sys.executable,
            "scripts/bench.py",
            "--seconds",
            "0.5",
            "--rounds",
            "1",
            "--json",
            "--latency-decisions",
            "0",
            "--agent-seconds",
            "0",
            "--vector-seconds",
            "0",
            "--envs",
            "amalogs_v2:team_sizes=1x1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    aec = json.loads(out.stdout)["rulesets"]["amalogs_v2:team_sizes=1x1"]["aec"]
    assert aec["meta_decisions_per_s"] > 0 and aec["core_decisions_per_s"] > 0
    assert aec["meta_decisions_per_s"] + aec["core_decisions_per_s"] == pytest.approx(aec["decisions_per_s"])


def test_the_rounds_of_side_by_side_runs_combine_by_median():
    """Numbers are the median over the runs that have them; other values are the first run's."""
    bench = load_script("bench")
    runs = [
        {
            "machine": {"build": "pure", "cpus": 2},
            "rows": {"a": {"per_s": 10.0, "ratio": 1.0}, "b": {"per_s": 4}},
        },
        {"machine": {"build": "pure", "cpus": 2}, "rows": {"a": {"per_s": 30.0, "ratio": 3.0}}},
        {"machine": {"build": "pure", "cpus": 2}, "rows": {"a": {"per_s": 20.0, "ratio": 5.0}}},
    ]
    assert bench.median_result(runs) == {
        "machine": {"build": "pure", "cpus": 2},
        "rows": {"a": {"per_s": 20.0, "ratio": 3.0}, "b": {"per_s": 4}},
    }
    assert bench.median_result([{"ok": True}, {"ok": False}]) == {"ok": True}  # a flag is no number

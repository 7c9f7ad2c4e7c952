"""scripts/bench.py runs end to end on a tiny budget and reports ratios to the references."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


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
            "medarot_ocg_v0:beginner",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result = json.loads(out.stdout)
    row = result["rulesets"]["medarot_ocg_v0:beginner"]
    assert row["aec"]["decisions_per_s"] > 0 and row["engine"]["decisions_per_s"] > 0
    assert (
        set(row["aec"]["ratio"])
        == set(result["references"])
        == {"connect_four_v3", "texas_holdem_no_limit_v6"}
    )


def test_bench_labels_and_nested_split():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench", ROOT / "scripts" / "bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.label_of("mow_v0", {}) == "mow_v0"
    assert bench.label_of("medarot_ocg_v0", {"mode": "advance"}) == "medarot_ocg_v0:advance"
    assert bench.label_of("amalogs_v0", {"team_sizes": (2, 2)}) == "amalogs_v0:team_sizes=2x2"
    out = subprocess.run(
        [
            sys.executable,
            "scripts/bench.py",
            "--seconds",
            "0.5",
            "--rounds",
            "1",
            "--json",
            "--envs",
            "amalogs_v0:team_sizes=1x1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    aec = json.loads(out.stdout)["rulesets"]["amalogs_v0:team_sizes=1x1"]["aec"]
    assert aec["meta_decisions_per_s"] > 0 and aec["core_decisions_per_s"] > 0
    assert aec["meta_decisions_per_s"] + aec["core_decisions_per_s"] == pytest.approx(aec["decisions_per_s"])

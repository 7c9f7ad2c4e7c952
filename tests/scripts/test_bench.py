"""scripts/bench.py runs end to end on a tiny budget and reports ratios to the references."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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

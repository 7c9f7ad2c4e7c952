"""Every JSON result says what made it: package version and build, env id, options, seeds, command."""

from __future__ import annotations

import json
import subprocess
import sys

import deckgym


def _cli(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "deckgym", *args], capture_output=True, text=True, check=True, cwd=cwd
    )


def test_evaluate_json_carries_the_provenance(tmp_path):
    args = ["evaluate", "medarot_ocg_v1", "--mode", "beginner", "--agent", "random", "--games", "2"]
    out = json.loads(_cli(*args, "--seed", "3", "--workers", "1", "--json", cwd=tmp_path).stdout)
    prov = out["provenance"]
    assert prov["deckgym"] == deckgym.__version__ and prov["compiled"] is deckgym.COMPILED
    assert prov["env"] == "medarot_ocg_v1" and prov["options"] == {"mode": "beginner"} and prov["seed"] == 3
    assert prov["command"] == "deckgym " + " ".join([*args, "--seed", "3", "--workers", "1", "--json"])
    assert out["games"] == 2  # the result itself is unchanged beside it


def test_deck_compare_json_carries_the_provenance(tmp_path):
    out = json.loads(
        _cli(
            "decks",
            "compare",
            "mow_v1",
            "ashen_aggro",
            "tide_control",
            "--max-games",
            "4",
            "--seed",
            "9",
            "--workers",
            "1",
            "--json",
            cwd=tmp_path,
        ).stdout
    )
    assert out["provenance"]["env"] == "mow_v1" and out["provenance"]["seed"] == 9
    assert out["provenance"]["deckgym"] == deckgym.__version__

"""scripts/amalogs_balance.py: the balance check of AMALOGS spec D43 (plans, matrix, turn caps, rates)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from tests.scripts import ROOT, load_script

GAMES = ("med_beg", "med_norm", "med_adv", "parts", "mow")


@pytest.fixture(scope="module")
def script():
    return load_script("amalogs_balance")


def _last_json(script, capsys, *args: str) -> dict:
    assert script.main([*args, "--json", "--quiet", "--workers", "1"]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_the_last_line_holds_every_figure_the_check_names(script, capsys):
    r = _last_json(script, capsys, "--games", "2", "--cell-games", "1", "--teams", "1v1,2v2", "--seed", "3")
    assert set(r["plans"]) == set(GAMES)
    for plan in r["plans"].values():
        assert plan["games"] == 2 and plan["wins"] + plan["draws"] + plan["losses"] == 2
        assert 0.0 <= plan["lo"] <= plan["score"] <= plan["hi"] <= 1.0
        assert plan["score"] == pytest.approx((plan["wins"] + plan["draws"] / 2) / 2)
    m = r["plan_matrix"]
    for a in GAMES:
        assert m[a][a] == 0.5
        for b in GAMES:
            assert m[a][b] == pytest.approx(1.0 - m[b][a])  # a cell is one match seen from both sides
    assert set(r["turn_cap_share"]) == {"1v1", "2v2"}
    assert set(r["pool_turn_cap_share"]) == set(GAMES)
    for share in (*r["turn_cap_share"].values(), *r["pool_turn_cap_share"].values()):
        assert 0.0 <= share <= 1.0
    assert 0.0 <= r["cross_game_share"] <= 1.0 and 0.0 < r["opposed_share"] <= 1.0
    assert r["exits_per_game"] >= 0.0 and sum(r["choices"].values()) == pytest.approx(1.0)
    # plans: 5 x 2, matrix: 10 x 2 (a pair per cell), caps: 2 x 1, pools: 5 x 1
    assert r["games"] == 10 + 20 + 2 + 5


def test_a_plan_team_opens_only_its_game_and_the_seed_fixes_the_result(script):
    a = script.play_one((2, 2), ("medarot_parts", None), ("heuristic", "heuristic"), 11)
    assert a == script.play_one((2, 2), ("medarot_parts", None), ("heuristic", "heuristic"), 11)
    mine = {k.split(":")[1] for k in a["opened"] if k.startswith("0:")}
    assert mine == {"parts"}
    swapped = script._play_job(("k", (2, 2), ("medarot_parts", None), ("heuristic", "heuristic"), [11], True))
    assert [r["pair"] for r in swapped] == [11, 11]
    # the second game of the pair is played with the sides swapped and seen from the plan's side
    assert {k.split(":")[1] for k in swapped[1]["opened"] if k.startswith("0:")} == {"parts"}


def test_rates_probe_copies_of_the_table_and_leave_the_game_alone(script):
    rows = script._rate_job(("medarot_ocg_beginner", [2]))
    assert rows, "a heuristic game declares duels"
    r = script.rates(rows)
    assert r["tables"] == len(rows) and r["nominal"] > 0
    assert r["standin_damage"] > 0 and r["base_hits"] > 0  # a stand-in never defends
    assert 0.0 <= r["champion_ko"] <= 1.0
    # an OCG host's attacks on the stand-in are reported by their effective power
    assert all(p > 0 and p % 10 == 0 for p in r["powers"])


def test_constants_replace_the_table_for_the_run_and_bad_ones_are_refused(script):
    from deckgym.envs.amalogs.config import RULESETS, SLOT_OF

    slot = SLOT_OF["master_of_the_world"]
    kept = RULESETS[slot]
    try:
        assert script.set_constants('{"mow": [1, "45/2", 2]}') == {"mow": ["1", "45/2", "2"]}
        assert RULESETS[slot].unit == Fraction(45, 2) and RULESETS[slot].base == 2
        assert script.constants()["mow"] == ["1", "45/2", "2"]
    finally:
        RULESETS[slot] = kept
    for bad in ('{"chess": [1, 1, 1]}', '{"mow": [1, 0, 1]}', '{"mow": [1, 1, "1/2"]}', "[1]", "{"):
        with pytest.raises(Exception, match="--constants"):
            script.set_constants(bad)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--games", "0"], "--games"),
        (["--only", "plans,chess"], "unknown section 'chess'"),
        (["--teams", "4v4"], "unknown team size '4v4'"),
        (["--only", "versus"], "needs --versus"),
        (["--versus", "heuristic:flying", "heuristic"], "unknown skill 'flying'"),
        (["--constants", '{"mow": [1, 1, 0]}'], "--constants"),
    ],
)
def test_bad_command_lines_are_one_line_and_exit_2(args, words):
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "amalogs_balance.py"), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1

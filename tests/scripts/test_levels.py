"""scripts/levels.py: each level's score against Easy and its reply times, merged and tabled."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import levels


def test_a_small_run_measures_scores_and_times_and_a_merge_keeps_them(tmp_path: Path) -> None:
    out = tmp_path / "levels.json"
    args = ["--variants", "mow_v1", "--levels", "Beginner,Easy", "--default-games", "4", "--replies", "3"]
    assert levels.main([*args, "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    easy = data["levels"]["mow_v1"]["Easy"]
    assert easy["games"] == 4 and easy["wins"] + easy["draws"] + easy["losses"] == 4
    assert easy["score"] == 0.5  # the heuristic against itself: every seat-swapped pair splits
    assert easy["replies"] == 3 and 0 <= easy["reply_p50_s"] <= easy["reply_p95_s"]
    # 0 games and 0 replies keep what is stored
    assert (
        levels.main(
            [
                "--variants",
                "mow_v1",
                "--levels",
                "Easy",
                "--default-games",
                "0",
                "--replies",
                "0",
                "--merge",
                str(out),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert json.loads(out.read_text())["levels"]["mow_v1"]["Easy"] == easy
    text = levels.table(json.loads(out.read_text()))
    assert "| mow_v1 | Easy (`heuristic`) | 0.500 [" in text and "| 4 (" in text


def test_bad_game_counts_are_refused_with_the_allowed_values() -> None:
    assert levels.parse_games("Expert=40", 400)["Expert"] == 40
    for bad in ("Expert", "Grandmaster=3", "Hard=1", "Hard=x"):
        with pytest.raises(SystemExit, match="levels are Beginner|not LEVEL=GAMES"):
            levels.parse_games(bad, 400)


def test_hints_are_timed_with_the_tables_limit_and_tabled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each hint is timed at a decision of the person's with two or more moves; the table lists them."""
    from deckgym.agents.play import session as play_session

    monkeypatch.setattr(play_session, "REPLY_SECONDS", 0.2)  # a short limit keeps the test short
    times = levels.hint_times("mow_v1", {}, 2, seed=3)
    assert len(times) == 2 and all(0 < t < 0.2 + 5 for t in times)
    out = tmp_path / "levels.json"
    data = {"levels": {}, "hints": {"mow_v1": {"hints": 2, "hint_p50_s": 0.25, "hint_p95_s": 1.5}}}
    out.write_text(json.dumps(data))
    shown = levels.table(json.loads(out.read_text()))
    assert "| mow_v1 | 2 | 0.25 s | 1.50 s |" in shown

"""Arena: Wilson intervals against hand-computed values, seat-swapped pairs, worker independence."""

from __future__ import annotations

import pytest

from agents.arena import MatchResult, match, wilson


def test_wilson_matches_hand_computed_values():
    # n = 10, k = 8, z = 1.96: centre = (0.8 + 0.19208) / 1.38416, half = 1.96 * sqrt(0.025604) / 1.38416
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.49016, abs=1e-4) and hi == pytest.approx(0.94332, abs=1e-4)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.16113, abs=1e-4)
    lo, hi = wilson(50, 100)
    assert (lo + hi) / 2 == pytest.approx(0.5) and hi - lo == pytest.approx(2 * 0.09617, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_match_result_rates_and_dict():
    r = MatchResult("a", "b", "medarot_ocg_v0", 10, 8, 1, 1)
    d = r.to_dict()
    assert d["win_rate"] == 0.8 and d["draw_rate"] == 0.1 and d["loss_rate"] == 0.1
    assert d["win_ci95"] == pytest.approx(list(wilson(8, 10)))
    assert r.score == pytest.approx(0.85)
    assert "win 80.0%" in r.line()


def test_match_plays_seat_swapped_pairs_and_is_independent_of_workers():
    one = match("random", "random", "medarot_ocg_v0", games=11, seed=3, workers=1, mode="beginner")
    two = match("random", "random", "medarot_ocg_v0", games=11, seed=3, workers=2, mode="beginner")
    assert one.games == 12  # rounded up to pairs
    assert (one.wins, one.draws, one.losses) == (two.wins, two.draws, two.losses)
    assert one.wins + one.draws + one.losses == 12


def test_self_play_of_a_deterministic_agent_is_symmetric():
    # the same deterministic agent on both seats: each pair is the same game with seats swapped
    res = match("heuristic", "heuristic", "medarot_ocg_v0", games=8, seed=0, workers=1, mode="normal")
    assert res.wins == res.losses

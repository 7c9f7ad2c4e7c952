"""The AMALOGS heuristic team against a random team (known-value test, seat-swapped pairs)."""

from __future__ import annotations

import pytest

from agents.arena import match


@pytest.mark.slow
def test_heuristic_team_beats_random_team() -> None:
    """Approach the enemy base, duel, strike it: at least 90% of 40 2v2 games."""
    result = match("heuristic", "random", "amalogs_v0", games=40, seed=11, workers=1)
    assert result.wins >= 36, result.line()


def test_heuristic_plays_1v1_and_3v3_to_the_end() -> None:
    """The heuristic always returns a legal action in every phase."""
    for sizes in ((1, 1), (3, 3)):
        result = match("heuristic", "heuristic", "amalogs_v0", games=2, seed=1, workers=1, team_sizes=sizes)
        assert result.games == 2

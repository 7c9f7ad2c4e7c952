"""The AMALOGS heuristic team against a random team (known-value test, seat-swapped pairs)."""

from __future__ import annotations

import pytest

from agents.arena import match


@pytest.mark.slow
def test_heuristic_team_beats_random_team() -> None:
    """Approach the enemy base, duel, strike it: at least 90% of 40 2v2 games."""
    result = match("heuristic", "random", "amalogs_v1", games=40, seed=11, workers=1)
    assert result.wins >= 36, result.line()


def test_heuristic_plays_1v1_and_3v3_to_a_decided_end() -> None:
    """Every seat a checked heuristic: every choice legal, and each game ends with a base destroyed."""
    import agents
    import envs
    from agents.arena import play_game
    from tests.agents.checked import Checked

    for sizes in ((1, 1), (3, 3)):
        env = envs.make("amalogs_v1", team_sizes=sizes)
        players = [Checked(agents.make("heuristic", "amalogs_v1")) for _ in env.possible_agents]
        for seed in (1, 2):
            returns = play_game(env, players, seed)
            st = env.unwrapped.game
            assert st.is_terminal() and not st.truncated, (sizes, seed, st.reason)
            assert sorted(set(returns)) == [-1.0, 1.0], (sizes, seed, returns)
        assert sum(p.moves for p in players) > 200

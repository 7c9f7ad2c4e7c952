"""The AMALOGS heuristic team against a random team (known-value test, seat-swapped pairs)."""

from __future__ import annotations

import pytest

from deckgym.agents.arena import match


@pytest.mark.slow
def test_heuristic_team_beats_random_team() -> None:
    """Seek contact and duel: at least 90% of 40 2v2 games."""
    result = match("heuristic", "random", "amalogs_v2", games=40, seed=11, workers=1)
    assert result.wins >= 36, result.line()


def test_heuristic_plays_1v1_and_3v3_to_the_end() -> None:
    """Every seat a checked heuristic: every choice legal; each game ends, decided by the bases (D33, D34)."""
    from deckgym import agents, envs
    from deckgym.agents.arena import play_game
    from tests.agents.checked import Checked

    for sizes in ((1, 1), (3, 3)):
        env = envs.make("amalogs_v2", team_sizes=sizes)
        players = [Checked(agents.make("heuristic", "amalogs_v2")) for _ in env.possible_agents]
        for seed in (1, 2):
            returns = play_game(env, players, seed)
            st = env.unwrapped.game
            assert st.is_terminal(), (sizes, seed, st.reason)
            a, b = st.life
            if not st.truncated:
                assert min(a, b) <= 0 or max(a, b) >= 2 * st.config.start_life, (sizes, seed, st.life)
            if a != b:
                assert sorted(set(returns)) == [-1.0, 1.0], (sizes, seed, returns)
        assert sum(p.moves for p in players) > 200

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


def _heuristic_game(seed: int, skills: frozenset[str] | None = None, **options):
    """One heuristic game on the engine; its final state with the whole event log."""
    from deckgym.agents.heuristic.amalogs import SKILLS, choose
    from deckgym.envs import amalogs_v2

    env = amalogs_v2.env(**options)
    env.reset(seed=seed)
    st = env.unwrapped.game
    st.event_cap = 10**9
    while not st.is_terminal():
        st.apply(choose(st, st.current_player, SKILLS if skills is None else skills))
    return st


def test_an_unknown_skill_is_refused_by_name() -> None:
    from deckgym.agents.heuristic.amalogs import AmalogsHeuristic

    with pytest.raises(ValueError, match="unknown heuristic skill 'flying'; known: base, choice, guard"):
        AmalogsHeuristic(skills=frozenset({"flying"}))


def test_the_heuristic_uses_every_command_and_every_core_game() -> None:
    """Push, swap, hand-over and guard are played, and all five core games are chosen (2v2, 12 games)."""
    kinds: dict[str, int] = {}
    games: set[str] = set()
    for seed in range(12):
        st = _heuristic_game(seed)
        for r in st.records:
            kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
            if r["kind"] == "core_game":
                games.add(r["ruleset"])
    for command in ("push", "swap", "hand_over", "guard", "step", "move"):
        assert kinds.get(command, 0) > 0, command
    assert len(games) == 5, games


def test_without_skills_it_is_the_first_version_never_pushing_swapping_or_handing_over() -> None:
    for seed in range(4):
        st = _heuristic_game(seed, frozenset())
        played = {r["kind"] for r in st.records}
        assert not played & {"push", "swap", "hand_over"}, played


def test_duel_value_prefers_a_defended_base_to_an_empty_seat() -> None:
    """D43's siege: a duel reaching the enemy base while a defender stands there is worth its 1 base life."""
    from deckgym.agents.heuristic.amalogs import duel_value
    from tests.envs.amalogs.fixtures import ADV, position

    MOW = 3
    far = position([ADV, ADV, MOW, ADV], [(5, 3), (1, 1), (9, 6), (4, 0)], acting=0)
    assert duel_value(far, 0) == 0.0  # nobody in reach: the seat is empty
    near = position([ADV, ADV, MOW, ADV], [(8, 3), (1, 1), (9, 3), (4, 0)], acting=0)
    assert duel_value(near, 0) > 1.0  # the defender's stand-in, and the base besieged

"""Arena: Wilson intervals against hand-computed values, seat-swapped pairs, worker independence."""

from __future__ import annotations

import pytest

from deckgym.agents.arena import MatchResult, match, wilson
from tests.envs.variants import AMALOGS, MOW, OCG, PARTS, ids


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
    r = MatchResult("a", "b", "medarot_ocg_v1", 10, 8, 1, 1)
    d = r.to_dict()
    assert d["win_rate"] == 0.8 and d["draw_rate"] == 0.1 and d["loss_rate"] == 0.1
    assert d["win_ci95"] == pytest.approx(list(wilson(8, 10)))
    assert r.score == pytest.approx(0.85)
    assert "win 80.0%" in r.line()


def test_score_and_its_interval_over_pairs_match_hand_computed_values():
    # pairs (win, draw) and (draw, loss): 1 win, 2 draws, 1 loss; score (1 + 2/2) / 4 = 0.5.
    # Pair means 0.75 and 0.25: mean 0.5, sample variance (0.25^2 + 0.25^2) / 1 = 0.125,
    # standard error sqrt(0.125 / 2) = 0.25, half width 1.959964 * 0.25 = 0.489991.
    r = MatchResult("a", "b", "mow_v1", 4, 1, 2, 1, pairs=[(1.0, 0.5), (0.5, 0.0)])
    assert r.score == 0.5
    lo, hi = r.score_ci95
    assert lo == pytest.approx(0.010009, abs=1e-6) and hi == pytest.approx(0.989991, abs=1e-6)
    d = r.to_dict()
    assert d["score"] == 0.5 and d["score_ci95"] == pytest.approx([0.010009, 0.989991], abs=1e-6)
    assert "score 50.0% [1.0%, 99.0%]" in r.line()
    # three pairs (W, W), (W, D), (L, D): score (3 + 2/2) / 6 = 2/3; pair means 1, 0.75, 0.25,
    # variance ((1/3)^2 + (1/12)^2 + (5/12)^2) / 2 = 0.145833, half 1.959964 * sqrt(0.145833 / 3)
    # = 0.432131: [0.234535, 1.098798] clipped to [0.234535, 1].
    r = MatchResult("a", "b", "mow_v1", 6, 3, 2, 1, pairs=[(1.0, 1.0), (1.0, 0.5), (0.0, 0.5)])
    assert r.score == pytest.approx(2 / 3)
    assert r.score_ci95 == pytest.approx((0.234535, 1.0), abs=1e-6)
    # every pair the same (no spread): the Wilson interval of 2 successes in 2 pairs
    r = MatchResult("a", "b", "mow_v1", 4, 4, 0, 0, pairs=[(1.0, 1.0), (1.0, 1.0)])
    assert r.score == 1.0 and r.score_ci95 == pytest.approx((0.342380, 1.0), abs=1e-6)
    assert r.score_ci95 == wilson(2, 2)
    # one pair: no interval to estimate
    assert MatchResult("a", "b", "mow_v1", 2, 1, 0, 1, pairs=[(1.0, 0.0)]).score_ci95 == (0.0, 1.0)


def test_match_plays_seat_swapped_pairs_and_is_independent_of_workers():
    one = match("random", "random", "medarot_ocg_v1", games=11, seed=3, workers=1, mode="beginner")
    two = match("random", "random", "medarot_ocg_v1", games=11, seed=3, workers=2, mode="beginner")
    assert one.games == 12  # rounded up to pairs
    assert (one.wins, one.draws, one.losses) == (two.wins, two.draws, two.losses)
    assert one.wins + one.draws + one.losses == 12


def test_self_play_of_a_deterministic_agent_is_symmetric():
    # the same deterministic agent on both seats: each pair is the same game with seats swapped
    res = match("heuristic", "heuristic", "medarot_ocg_v1", games=8, seed=0, workers=1, mode="normal")
    assert res.wins == res.losses


def test_sides_are_single_seats_or_the_two_teams():
    from deckgym import envs
    from deckgym.agents.arena import sides

    assert sides(envs.make("medarot_ocg_v1")) == ([0], [1])
    assert sides(envs.make("amalogs_v2", team_sizes=(2, 2))) == ([0, 1], [2, 3])
    assert sides(envs.make("amalogs_v2", team_sizes=(1, 3))) == ([0], [1, 2, 3])


def test_team_pairs_seat_an_agent_on_every_seat_of_one_team():
    from deckgym import envs
    from deckgym.agents.arena import play_pairs

    env = envs.make("amalogs_v2", team_sizes=(2, 1))
    games: dict[int, dict[str, set[int]]] = {}  # game (state object) -> agent tag -> seats it played

    class Recorder:
        """Plays the first legal action and records the seats it is asked to play."""

        def __init__(self, tag: str) -> None:
            self.tag = tag

        def reset(self, seed=None) -> None:
            pass

        def act(self, observation, action_mask) -> int:
            st = env.unwrapped.game
            games.setdefault(id(st), {"a": set(), "b": set()})[self.tag].add(st.current_player)
            return int(action_mask.nonzero()[0][0])

    w, d, lo = play_pairs(env, Recorder("a"), Recorder("b"), [3])
    assert w + d + lo == 2
    first, second = games.values()
    assert first == {"a": {0, 1}, "b": {2}}  # a is team A (seats 0, 1), then team B (seat 2)
    assert second == {"a": {2}, "b": {0, 1}}


LEAN_VARIANTS = [OCG[0], OCG[2], PARTS, MOW, AMALOGS[1]]


def _observed_game(env, agents, seed):
    """The reference loop: every decision observes, as PettingZoo's own examples do."""
    from deckgym.agents.base import bind

    env.reset(seed=seed)
    for i, a in enumerate(agents):
        bind(a, env)
        a.reset(seed=seed * 7919 + i)
    for name in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(agents[env.possible_agents.index(name)].act(obs["observation"], obs["action_mask"]))
    return list(env.unwrapped.game.returns()), list(env.unwrapped.game.events)


@pytest.mark.parametrize(("name", "kw"), LEAN_VARIANTS, ids=ids(LEAN_VARIANTS))
def test_agents_that_do_not_read_observations_play_the_same_games_without_encoding(name, kw):
    from deckgym import agents, envs
    from deckgym.agents.arena import play_game

    for seed in (3, 4):
        specs = [
            "heuristic" if i % 2 == 0 else "random" for i in range(len(envs.make(name, **kw).possible_agents))
        ]
        ref_env = envs.make(name, **kw)
        ref = _observed_game(ref_env, [agents.make(s, name, seed=i, **kw) for i, s in enumerate(specs)], seed)
        env = envs.make(name, **kw)
        enc = env.unwrapped.encoder
        calls: list[int] = []

        def counted(st, seat, calls=calls, original=enc.observe):
            calls.append(seat)
            return original(st, seat)

        enc.observe = counted
        try:
            got = play_game(env, [agents.make(s, name, seed=i, **kw) for i, s in enumerate(specs)], seed)
        finally:
            del enc.observe
        assert (got, list(env.unwrapped.game.events)) == ref
        assert calls == [], f"{len(calls)} observations encoded"

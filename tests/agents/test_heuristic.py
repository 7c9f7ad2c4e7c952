"""Every ruleset's heuristic: legal, honest about hidden information, stronger than random."""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import numpy as np
import pytest

import agents as agent_lib
import envs
from agents.arena import match, play_game
from agents.random_agent import RandomAgent
from tests.agents.checked import Checked


class Case(NamedTuple):
    """How hard one environment variant is tested."""

    env: str
    kwargs: dict[str, Any]
    legal_games: int  # games the legality sweep plays (pairs of games)
    legal_moves: int  # fewest heuristic moves the sweep must check
    honest_games: int  # games whose positions are resampled (0: not a two-seat game of hidden cards)
    honest_positions: int  # fewest positions the honesty check must cover
    versus_random: tuple[int, float]  # games against random, least win rate (0 games: tested elsewhere)


CASES = [
    *(
        Case("medarot_ocg_v0", {"mode": m}, 12, 500, 8, 500, (40, 0.8))
        for m in ("beginner", "normal", "advance")
    ),
    Case("medarot_parts_v0", {}, 30, 1000, 6, 200, (60, 0.8)),
    Case("mow_v0", {}, 10, 1000, 6, 300, (40, 0.75)),
    Case("amalogs_v0", {"team_sizes": (1, 1)}, 2, 20, 0, 0, (0, 0.0)),
]


def _id(case: Case) -> str:
    return "-".join([case.env, *(str(v) for v in case.kwargs.values())])


def test_every_registered_environment_has_a_case():
    assert {c.env for c in CASES} == set(envs.names())


def _heuristic(case: Case) -> Any:
    return agent_lib.make("heuristic", case.env, seed=0)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_heuristic_only_picks_legal_actions(case):
    env = envs.make(case.env, **case.kwargs)
    seats = len(env.possible_agents)
    h = Checked(_heuristic(case))
    for g in range(case.legal_games):
        others = [Checked(RandomAgent(1 + i)) for i in range(seats - 1)]
        play_game(env, [*others, h] if g % 2 else [h, *others], seed=g)
        play_game(env, [h, *(Checked(_heuristic(case)) for _ in range(seats - 1))], seed=100 + g)
    assert h.moves > case.legal_moves


@pytest.mark.parametrize("case", [c for c in CASES if c.honest_games], ids=_id)
def test_heuristic_uses_only_what_its_seat_may_know(case):
    """Its choice never changes when everything its seat cannot see is redrawn."""
    env = envs.make(case.env, **case.kwargs)
    choose = _heuristic(case).choose
    rng = random.Random(0)
    checked = 0
    for g in range(case.honest_games):
        env.reset(seed=g)
        while not env.unwrapped.game.is_terminal():
            st = env.unwrapped.game
            seat = st.current_player
            mine = choose(st, seat)
            for k in range(2):
                alt = st.resample_hidden(seat, random.Random(rng.random() + k))
                assert choose(alt, seat) == mine, (st.decision, mine)
            checked += 1
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert checked > case.honest_positions


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c.versus_random[0]], ids=_id)
def test_heuristic_beats_random(case):
    games, least = case.versus_random
    res = match("heuristic", "random", case.env, games=games, seed=7, workers=1, **case.kwargs)
    assert res.win_rate >= least, res.line()

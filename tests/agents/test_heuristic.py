"""Every ruleset's heuristic: a rule for every decision point, legal or loud, stronger than random.

Honesty about hidden information is ``test_honesty.py``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from deckgym import agents as agent_lib
from deckgym import envs
from deckgym.agents.arena import match, play_game
from deckgym.agents.random_agent import RandomAgent
from tests.agents.checked import Checked


class Case(NamedTuple):
    """How hard one environment variant is tested."""

    env: str
    kwargs: dict[str, Any]
    legal_games: int  # games the legality sweep plays (pairs of games)
    legal_moves: int  # fewest heuristic moves the sweep must check
    versus_random: tuple[int, float]  # games against random, least win rate (0 games: tested elsewhere)


CASES = [
    *(Case("medarot_ocg_v1", {"mode": m}, 12, 500, (40, 0.8)) for m in ("beginner", "normal", "advance")),
    Case("medarot_parts_v1", {}, 30, 1000, (60, 0.8)),
    Case("mow_v1", {}, 10, 1000, (40, 0.75)),
    Case("amalogs_v2", {"team_sizes": (1, 1)}, 2, 20, (0, 0.0)),
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


def test_every_decision_point_has_a_named_rule():
    """No decision falls through to a default: each ruleset's rule table covers its decisions."""
    from deckgym.agents.heuristic import amalogs, medarot_ocg, medarot_parts
    from deckgym.envs.amalogs.actions import Phase
    from deckgym.envs.medarot_ocg.actions import DP as OcgDP
    from deckgym.envs.medarot_parts.actions import DP as PartsDP

    assert set(medarot_ocg._RULES) == set(OcgDP)
    assert set(medarot_parts._CHOOSERS) == set(PartsDP)
    assert set(amalogs._RULES) == set(Phase) - {Phase.GAME_OVER}


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_a_heuristic_that_picks_an_illegal_action_raises_naming_agent_decision_and_index(case):
    from deckgym.agents.base import IllegalMoveError

    env = envs.make(case.env, **case.kwargs)
    agent = _heuristic(case)
    agent.bind(env)
    env.reset(seed=1)
    enc = env.unwrapped.encoder
    st = env.unwrapped.game
    allowed = set(enc.legal_indices(st))
    bad = next(i for i in range(enc.action_size) if i not in allowed)
    agent.choose = lambda state, seat: enc.index_to_action(bad, state)
    obs = env.observe(env.agent_selection)
    with pytest.raises(IllegalMoveError) as err:
        agent.act(obs["observation"], obs["action_mask"])
    msg = str(err.value)
    assert msg.startswith(f"agent heuristic ({case.env}) chose an illegal action {bad} = ")
    assert f"at decision point {st.decision} (player {st.current_player})" in msg
    assert env.unwrapped.game is st and st.legal_actions()  # the game is untouched


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c.versus_random[0]], ids=_id)
def test_heuristic_beats_random(case):
    games, least = case.versus_random
    res = match("heuristic", "random", case.env, games=games, seed=7, workers=1, **case.kwargs)
    assert res.win_rate >= least, res.line()

"""The per-seat view of every ruleset (``envs.core.view``): JSON-safe, shaped alike, and honest.

The leak test is the one the observations pass: ``view(state, seat)`` must not change when
what ``seat`` cannot see is redrawn with ``resample_hidden``. A planted cheat (a view that adds
the opponent's hand, or the deck order) shows the test can fail.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from deckgym import envs
from deckgym.agents import make
from deckgym.agents.base import bind
from deckgym.envs.core.errors import StateError
from tests.envs.variants import AMALOGS, MOW, OCG, PARTS, ids

#: Each card game and AMALOGS in its default team sizes (2v2).
VARIANTS = [*OCG, PARTS, MOW, AMALOGS[1]]
IDS = ids(VARIANTS)
TOP_KEYS = {"env", "seat", "turn", "to_move", "decision", "done", "result", "players", "board", "events"}


def positions(name: str, kw: dict[str, Any], games: int = 3, every: int = 7) -> list[Any]:
    """Positions from random and heuristic play (every ``every``-th decision, and the last)."""
    out = []
    for g in range(games):
        env = envs.make(name, **kw)
        env.reset(seed=100 + g)
        pilots = ["random", "heuristic"][g % 2]
        agent = bind(make(pilots, name, seed=g), env)
        rng = random.Random(g)
        k = 0
        while env.agents:
            st = env.unwrapped.game
            if k % every == 0:
                out.append(st.clone())
            if st.is_terminal():
                break
            obs = env.observe(env.agent_selection)
            if pilots == "random":
                legal = [i for i, m in enumerate(obs["action_mask"]) if m]
                env.step(rng.choice(legal))
            else:
                env.step(agent.act(obs["observation"], obs["action_mask"]))
            k += 1
        out.append(env.unwrapped.game.clone())
    return out


def _views_unchanged(ruleset: Any, states: list[Any], resamples: int = 4) -> list[str]:
    problems = []
    rng = random.Random(5)
    for st in states:
        for seat in range(st.num_players):
            v = ruleset.view(st, seat)
            for _ in range(resamples):
                if ruleset.view(st.resample_hidden(seat, rng), seat) != v:
                    problems.append(f"seat {seat} at turn {v['turn']} ({v['decision']})")
                    break
    return problems


@pytest.fixture(scope="module", params=VARIANTS, ids=IDS)
def variant(request):  # type: ignore[no-untyped-def]
    name, kw = request.param
    env = envs.make(name, **kw)
    return name, kw, env.unwrapped.ruleset, positions(name, kw)


def test_a_view_is_json_safe_and_has_the_common_keys(variant):  # type: ignore[no-untyped-def]
    name, _, ruleset, states = variant
    for st in states:
        for seat in range(st.num_players):
            v = ruleset.view(st, seat)
            assert set(v) >= TOP_KEYS, set(v) ^ TOP_KEYS
            assert json.loads(json.dumps(v)) == v  # plain JSON types only
            assert v["env"] == name and v["seat"] == seat
            assert v["done"] == st.is_terminal()
            assert v["to_move"] == (-1 if st.is_terminal() else st.current_player)
            assert [p["seat"] for p in v["players"]] == list(range(st.num_players))
            assert [p["you"] for p in v["players"]] == [i == seat for i in range(st.num_players)]


def test_a_view_holds_nothing_the_seat_cannot_see(variant):  # type: ignore[no-untyped-def]
    _, _, ruleset, states = variant
    assert len(states) >= 6
    assert _views_unchanged(ruleset, states) == []


def test_a_view_follows_the_game(variant):  # type: ignore[no-untyped-def]
    """A view that ignored the state would pass the leak test: views must differ along a game."""
    _, _, ruleset, states = variant
    seen = {json.dumps(ruleset.view(st, 0), sort_keys=True) for st in states}
    assert len(seen) >= len(states) // 2


class _Cheat:
    """A ruleset whose view adds what the seat must not know."""

    def __init__(self, ruleset: Any, leak: str) -> None:
        self.ruleset, self.leak = ruleset, leak

    def view(self, st: Any, seat: int) -> dict[str, Any]:
        v = dict(self.ruleset.view(st, seat))
        d = st.to_dict()
        if self.leak == "rng":
            v["cheat"] = repr(st.rng.getstate()[1][:4])
        else:
            v["cheat"] = json.dumps(d, sort_keys=True)  # everything, hidden cards included
        return v


@pytest.mark.parametrize("leak", ["state", "rng"])
def test_the_leak_test_catches_a_planted_cheat(variant, leak):  # type: ignore[no-untyped-def]
    _, _, ruleset, states = variant
    assert _views_unchanged(_Cheat(ruleset, leak), states) != []


def test_the_env_view_names_seats_by_index_or_agent() -> None:
    env = envs.make("medarot_ocg_v1")
    env.reset(seed=1)
    assert env.unwrapped.view("player_1") == env.unwrapped.view(1)
    with pytest.raises(StateError, match="unknown agent"):
        env.unwrapped.view("player_9")
    with pytest.raises(StateError, match="seat must be"):
        env.unwrapped.view(2)

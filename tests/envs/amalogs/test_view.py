"""The per-seat view of AMALOGS (``envs.amalogs.view``): the state's numbers, named, and nothing hidden."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from deckgym import envs
from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.rules.commands import move_destinations
from deckgym.envs.amalogs.rules.geometry import BASES, SPAWN
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.amalogs.view import view
from tests.envs.amalogs.fixtures import ADV, BEG, NOR, auto, position, walk


def _duel() -> AmalogsState:
    """Host P0 (A0), cast P1 (A1), champion P2 (B0); P3 (B1) far away and out of the duel."""
    st = position([ADV] * 4, [(5, 3), (4, 3), (7, 3), (1, 6)])
    st.apply(A.DUEL)
    assert st.phase == Phase.DUEL_CORE and st.duel is not None and st.duel.champion == 2
    return st


def _summary(st: AmalogsState, i: int) -> Any:
    k = st.seat_of(i)
    if k >= 0:
        return adapter(st.table_ruleset).table_summary(st.table, k)
    return adapter(st.avatars[i].ruleset).summary(st.avatars[i].side)


def _hand(st: AmalogsState, i: int) -> list[str]:
    k = st.seat_of(i)
    return list(st.table.hand[k] if k >= 0 else st.avatars[i].side.hand)


def _states() -> list[AmalogsState]:
    """Positions of a seeded random game through the env: every 5th decision, every first decision
    of a new kind (so every phase the game visits is there), and the last."""
    env = envs.make("amalogs_v2")
    env.reset(seed=3)
    out = []
    last = None
    for k, _ in enumerate(walk(env, random.Random(3), 3000)):
        st = env.unwrapped.game
        kind = st.decision.split("/")[0] if not st.done else None
        if k % 5 == 0 or kind != last:
            out.append(st.clone())
        last = kind
    out.append(env.unwrapped.game.clone())
    return out


@pytest.fixture(scope="module")
def states() -> list[AmalogsState]:
    return _states()


def test_the_numbers_are_the_states(states: list[AmalogsState]) -> None:
    for st in states[::7]:
        for seat in range(st.num_players):
            v = view(st, seat)
            assert json.loads(json.dumps(v)) == v
            assert v["turn"] == st.team_turn and v["board"]["team_turn"] == st.team_turn
            assert [t["life"] for t in v["board"]["teams"]] == st.life
            assert [t["square"] for t in v["board"]["teams"]] == list(BASES)
            assert v["board"]["dice"] == st.dice and v["board"]["phase"] == Phase(st.phase).name
            assert v["board"]["map"]["spawn"] == {"A": list(SPAWN[0]), "B": list(SPAWN[1])}
            for i, (p, a) in enumerate(zip(v["players"], st.avatars, strict=True)):
                assert (p["ap"], p["we"], p["range"]) == (a.ap, a.we, a.range)
                assert (p["dueled"], p["guarding"], p["exited"]) == (a.dueled, a.guarding, a.exited)
                assert p["square"] == (a.square if a.on_map else None)
                if a.on_map:
                    assert 7 * p["row"] + p["col"] == a.square
                assert p["ruleset"] == (RULESETS[a.ruleset].name if a.ruleset >= 0 else None)
                if a.side is None and st.seat_of(i) < 0:
                    assert p["core"] is None
                    continue
                s = _summary(st, i)
                core = p["core"]
                assert (core["life"], core["hand"], core["deck"], core["units"]) == tuple(s)
                assert core["turns"] == a.core_turns and core["at_table"] == (st.seat_of(i) >= 0)


def test_the_team_of_each_player_is_given() -> None:
    st = position(
        [ADV, BEG, NOR, ADV, BEG, NOR], [(5, 0), (5, 1), (5, 2), (7, 4), (7, 5), (7, 6)], team_sizes=(3, 3)
    )
    for seat in range(6):
        v = view(st, seat)
        assert [p["team"] for p in v["players"]] == ["A", "A", "A", "B", "B", "B"]
        assert [p["name"] for p in v["players"]] == ["A0", "A1", "A2", "B0", "B1", "B2"]
        assert [p["ally"] for p in v["players"]] == [(i < 3) == (seat < 3) for i in range(6)]
        assert [t["players"] for t in v["board"]["teams"]] == [[0, 1, 2], [3, 4, 5]]
        assert v["board"]["acting"] == "A" and v["board"]["teams"][0]["acting"]


def test_own_cards_are_named_and_others_only_counted(states: list[AmalogsState]) -> None:
    checked = 0
    for st in states:
        for seat in range(st.num_players):
            v = view(st, seat)
            for i, p in enumerate(v["players"]):
                if i != seat:
                    assert "hand" not in p  # teammates' too
                elif st.avatars[i].side is not None or st.seat_of(i) >= 0:
                    assert [c["id"] for c in p["hand"]] == _hand(st, i)
                    assert p["core"]["hand"] == len(p["hand"])
                    checked += bool(p["hand"])
    assert checked > 10


def test_nothing_hidden_changes_the_view_in_a_duel() -> None:
    st = _duel()
    rng = random.Random(1)
    for seat in range(4):
        v = view(st, seat)
        for _ in range(5):
            assert view(st.resample_hidden(seat, rng), seat) == v


def test_the_duel_and_the_table_from_each_seat() -> None:
    st = _duel()
    v = view(st, 3)
    d = v["board"]["duel"]
    assert (d["host"], d["casts"], d["guests"], d["champion"]) == (0, [1], [2], 2)
    assert (d["defender"], d["proxy"], d["proxy_life"], d["base_hits"]) == (-1, None, None, 0)
    assert [p["role"] for p in v["players"]] == ["host", "cast", "champion", None]
    assert v["board"]["table"] == {
        "ruleset": RULESETS[ADV].name,
        "kind": "duel",
        "seats": [0, 2],
        "proxy": None,
        "to_move": adapter(ADV).to_act(st.table),
        "decision": st.table.decision,
    }
    for seat, source, k in ((0, "table", 0), (2, "table", 1), (1, "own_side", 0), (3, "own_side", 0)):
        core = view(st, seat)["board"]["core"]
        assert (core["source"], core["seat"]) == (source, k)
        assert core["seats"] == ([0, 2] if source == "table" else [seat, -1])
        assert [p["player"] for p in core["players"]] == core["seats"]
        assert [p["you"] for p in core["players"]] == [j == k for j in range(2)]
    host = view(st, 0)["board"]["core"]
    assert host["decision"] == st.table.decision and host["to_move"] == st.table.current_player


def test_the_summary_stands_in_for_a_ruleset_without_a_view() -> None:
    st = _duel()
    asked: list[int] = []
    core = view(st, 0, core_views=lambda slot: asked.append(slot))["board"]["core"]
    assert (
        asked == [ADV] and view(st, 0)["board"]["core"]["board"] != {}
    )  # with its view, the ruleset's board
    host, champion = core["players"]
    assert [c["id"] for c in host["hand_cards"]] == list(st.table.hand[0])
    assert "hand_cards" not in champion and champion["hand"] == len(st.table.hand[1])
    assert champion["life"] == adapter(ADV).table_summary(st.table, 1).life and core["board"] == {}


def test_the_decision_is_the_states(states: list[AmalogsState]) -> None:
    names = set()
    for st in states:
        v = view(st, max(st.current_player, 0))
        assert v["decision"] == (None if st.done else st.decision)
        assert v["to_move"] == st.current_player
        if not st.done:
            names.add(v["decision"].split("/")[0])
    assert {"META_FIELD", "DUEL_CORE", "STRIKE"} <= names


def test_a_pending_move_shows_its_destinations() -> None:
    st = position([ADV] * 4, [(5, 3), (1, 1), (9, 6), (9, 0)], ap=[9, 9, 0, 0])
    st.apply(A.MOVE)
    assert st.phase == Phase.MOVE_DEST
    board = view(st, 2)["board"]
    assert board["map"]["move_destinations"] == move_destinations(st)
    assert board["move_allowance"] == st.move_allowance > 0
    assert view(st, 0)["board"]["map"]["in_range"] == [
        s for s in range(77) if max(abs(s // 7 - 5), abs(s % 7 - 3)) <= 2
    ]


def test_a_finished_game_has_its_result(states: list[AmalogsState]) -> None:
    st = states[-1]
    while not st.done:
        st.apply(auto(st))
    for seat in range(st.num_players):
        v = view(st, seat)
        assert v["done"] and v["to_move"] == -1 and v["decision"] is None
        assert v["result"] == {"returns": st.returns(), "reason": st.reason, "truncated": st.truncated}
        assert v["board"]["winner"] == {0: "A", 1: "B", 2: "draw"}.get(st.winner)


def test_the_env_serves_the_view_by_agent_name() -> None:
    env = envs.make("amalogs_v2")
    env.reset(seed=2)
    assert env.unwrapped.view("player_1") == env.unwrapped.view(1) == view(env.unwrapped.game, 1)
    assert env.unwrapped.view(0)["env"] == "amalogs_v2"

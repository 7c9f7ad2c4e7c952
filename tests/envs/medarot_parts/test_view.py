"""The per-seat view of the Medarot parts game (``envs.medarot_parts.view``): named, exact and honest."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from deckgym import envs
from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.cards import ENERGY_KINDS, SLOTS
from deckgym.envs.medarot_parts.rules.values import charge, mobility, power
from deckgym.envs.medarot_parts.state import GameState
from deckgym.envs.medarot_parts.view import view
from tests.envs.medarot_parts import fixtures as fx
from tests.envs.medarot_parts.fixtures import RA


def _games(games: int = 2, seed0: int = 11) -> list[GameState]:
    """Every position of ``games`` random seeded games, the final one included."""
    out = []
    for g in range(games):
        env = envs.make("medarot_parts_v1")
        env.reset(seed=seed0 + g)
        rng = random.Random(g)
        while True:
            st = env.unwrapped.game
            out.append(st.clone())
            if st.is_terminal():
                break
            legal = [i for i, m in enumerate(env.observe(env.agent_selection)["action_mask"]) if m]
            env.step(rng.choice(legal))
    return out


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    return _games()


def _public_ids(st: GameState, seat: int) -> set[str]:
    """Card ids that ``seat`` sees: both fields, stocks, play areas, trashes, its own hand, the use."""
    ids = set(st.hand[seat])
    for p in range(st.num_players):
        ids |= set(st.play[p]) | set(st.trash[p]) | {c for c, _ in st.stock[p]}
        for med in st.field[p]:
            ids.add(med.medal)
            for part in med.parts:
                ids |= {part.card, *part.attached} | ({part.effect} if part.effect else set())
    if st.use is not None:
        ids.add(st.use[1])
    return ids


def test_the_ruleset_and_the_env_give_this_view(states: list[GameState]) -> None:
    env = envs.make("medarot_parts_v1")
    env.reset(seed=11)
    assert (
        env.unwrapped.view(0)
        == view(env.unwrapped.game, 0)
        == env.unwrapped.ruleset.view(env.unwrapped.game, 0)
    )
    with pytest.raises(ValueError, match="seat must be"):
        view(states[0], 2)


def test_own_hand_is_named_and_the_opponent_hand_only_counted(states: list[GameState]) -> None:
    for st in states[::5]:
        for seat in (0, 1):
            v = view(st, seat)
            me, opp = v["players"][seat], v["players"][1 - seat]
            assert [c["id"] for c in me["hand"]] == st.hand[seat]
            assert [c["name"] for c in me["hand"]] == [st.cards[c].name for c in st.hand[seat]]
            assert all(c["text"] == st.cards[c["id"]].describe() for c in me["hand"])
            for c in me["hand"]:
                if c["type"] == "MEDAROTER":
                    assert c["cost"] == st.cards[c["id"]].cost and c["effects"]
            assert "hand" not in opp and opp["hand_count"] == len(st.hand[1 - seat])
            assert me["hand_count"] == len(st.hand[seat])


def test_numbers_equal_the_state(states: list[GameState]) -> None:
    for st in states[::3]:
        seat = st.turn % 2
        v = view(st, seat)
        assert v["turn"] == st.turn and v["board"]["round"] == st.round
        assert v["board"]["priority"] == st.priority and v["board"]["passes"] == st.passes
        for p in (0, 1):
            pv, side = v["players"][p], v["board"]["sides"][p]
            assert pv["assets"] == st.assets[p]
            assert pv["deck_count"] == len(st.deck[p]) and pv["trash_count"] == len(st.trash[p])
            assert [c["id"] for c in side["trash"]] == st.trash[p]
            assert [c["id"] for c in side["play_area"]] == st.play[p]
            assert [[c["id"], c["tapped"]] for c in side["stock"]] == st.stock[p]
            for k, name in enumerate(ENERGY_KINDS):
                rows = [t for c, t in st.stock[p] if st.cards[c].kind == k]
                assert pv["energy"][name] == {"untapped": rows.count(False), "total": len(rows)}
            for m, med in enumerate(st.field[p]):
                mv = side["medarots"][m]
                assert mv["medal"]["id"] == med.medal and mv["stopped"] == med.stopped
                assert mv["mobility"] == mobility(st, p, m) and mv["action_medarot"] == (
                    st.action_medarot[p] == m
                )
                for s, part in enumerate(med.parts):
                    pt = mv["parts"][s]
                    assert pt["slot"] == SLOTS[s] and pt["card"]["id"] == part.card
                    assert (pt["counters"], pt["destroyed"], pt["tapped"]) == (
                        part.counters,
                        part.destroyed,
                        part.tapped,
                    )
                    armor = st.cards[part.card].armor
                    assert pt["armor_left"] == (0 if part.destroyed else armor - part.counters)
                    if s < 3:
                        assert (pt["power"], pt["charge"]) == (power(st, p, m, s), charge(st, p, m, s))
                    else:
                        assert pt["power"] is None and pt["charge"] is None


def test_the_decision_and_the_seat_to_move_are_the_state_s(states: list[GameState]) -> None:
    names = set()
    for st in states:
        v = view(st, 0)
        if st.is_terminal():
            assert v["decision"] is None and v["to_move"] == -1
        else:
            assert (
                v["decision"] == st.decision == DP(st.decision_point[0]).name
                and v["to_move"] == st.current_player
            )
            names.add(v["decision"])
    assert len(names) >= 3


def test_a_finished_game_has_done_and_result(states: list[GameState]) -> None:
    finals = [st for st in states if st.is_terminal()]
    assert len(finals) == 2
    for st in finals:
        for seat in (0, 1):
            v = view(st, seat)
            assert v["done"] is True
            assert v["result"] == {
                "returns": st.returns(),
                "reason": st.reason,
                "truncated": st.truncated,
            }
            assert v["result"]["reason"]
    assert view(states[0], 0)["done"] is False and view(states[0], 0)["result"] is None


def test_a_battle_under_way_is_shown() -> None:
    a1 = ("MA3", "HEAD", "HIT3", "ARM_L", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), stocks=(("E_U",), ("E_U", "E_U")), hands=(("POWUP",), ("JAMMER",)))
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    fx.do(st, A.HAND[0], DP.POWER_WINDOW, 0)  # Power Up: +2
    v = view(st, 1)
    b = v["board"]["battle"]
    assert v["decision"] == "POWER_WINDOW" and v["to_move"] == 1
    assert (b["attacker"], b["medarot"], b["slot"]) == (0, 0, "RIGHT_ARM")
    assert b["part"]["name"] == "Hitter Three" and b["damage"] == st.battle.damage
    assert b["defender"] is None and b["response"] is None
    mv = v["board"]["sides"][0]["medarots"][0]
    assert mv["attacking"] and mv["parts"][RA]["attack_part"] and mv["parts"][RA]["power"] == 5
    assert [c["name"] for c in v["board"]["sides"][0]["play_area"]] == ["Power Up"]
    assert [c["name"] for c in v["players"][1]["hand"]] == ["Jammer"]


def test_the_opponent_s_hidden_card_appears_nowhere_in_the_view() -> None:
    st = fx.make_state((fx.PLAIN, fx.PLAIN), hands=((), ("JAMMER", "DRAW2")))
    assert "JAMMER" not in _public_ids(st, 0)
    text0, text1 = json.dumps(view(st, 0)), json.dumps(view(st, 1))
    for word in ('"JAMMER"', '"Jammer"', '"DRAW2"', '"Test Draw"'):
        assert word not in text0 and word in text1


def test_no_unseen_opponent_card_leaks_in_real_games(states: list[GameState]) -> None:
    checked = 0
    for st in states:
        for seat in (0, 1):
            o = 1 - seat
            seen = _public_ids(st, seat)
            log = " ".join(st.events)
            hidden = [c for c in set(st.hand[o]) if c not in seen and st.cards[c].name not in log]
            if not hidden:
                continue
            text = json.dumps(view(st, seat))
            for c in hidden:
                assert f'"{c}"' not in text and f'"{st.cards[c].name}"' not in text, (c, st)
                checked += 1
    assert checked > 50


def _json_types(x: Any) -> bool:
    if isinstance(x, dict):
        return all(isinstance(k, str) and _json_types(v) for k, v in x.items())
    if isinstance(x, list):
        return all(_json_types(v) for v in x)
    return x is None or isinstance(x, (bool, int, float, str))


def test_views_are_plain_json_and_unchanged_by_resampling(states: list[GameState]) -> None:
    rng = random.Random(3)
    for st in states[::4]:
        for seat in (0, 1):
            v = view(st, seat)
            assert _json_types(v) and json.loads(json.dumps(v)) == v
            assert view(st.resample_hidden(seat, rng), seat) == v

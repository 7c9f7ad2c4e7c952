"""Tests of the per-seat view of the Medarot OCG (envs/medarot_ocg/view.py).

Positions are built with ``fixtures.make_state``; each test checks that a seat sees its own
private cards named with their stats, the other seat's private cards only as counts or
``{"hidden": true}``, and the public numbers as the state holds them.
"""

from __future__ import annotations

import json
import random
from typing import Any

from deckgym import envs
from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP
from deckgym.envs.medarot_ocg.state import Eff, GameState
from deckgym.envs.medarot_ocg.view import view
from tests.envs.medarot_ocg import fixtures as fx


def position(mode: str = "normal", **kw: Any) -> GameState:
    """P0's Ash (sq 2) acting; P1's Cog (sq 7, face up) and face-down Bolt (sq 12)."""
    spec: dict[str, Any] = {
        "units": {2: "ASH", 7: ("COG", 1), 12: {"card": "BOLT", "face_up": False}},
        "hands": (["KITE", "POW"], ["SNIPE", "WALL"]),
        "decks": (["A", "B", "X"], ["Y"]),
        "stock": (["MEMO", None, "ORA"], ["SPIKE"]),
        "trash": (["GAIN"], ["HURT"]),
        "hp": (17, 12),
        "start": 2,
    }
    spec.update(kw)
    return fx.make_state(mode, **spec)


def text(v: dict[str, Any]) -> str:
    return json.dumps(v, sort_keys=True)


def test_own_hand_is_named_with_stats_and_the_other_hand_only_counted():
    st = position()
    v = view(st, 0)
    me, opp = v["players"]
    assert me["you"] and not opp["you"]
    kite, pow_ = me["hand"]
    assert (kite["id"], kite["name"], kite["kind"], kite["type"]) == ("KITE", "Kite", "MEDAROT", "SHOOTING")
    assert (kite["speed"], kite["cost"], kite["power"], kite["armor"]) == (7, 2, 20, 10)
    assert kite["arrows"] == ["F", "FR", "R", "BR", "B", "BL", "L", "FL"]
    assert pow_["name"] == "Pow" and pow_["hp_mod"] == 0
    assert pow_["effects"][0]["op"] == "MOD_POWER" and pow_["effects"][0]["amount"] == 20
    assert pow_["effects"][0]["text"].startswith("Action")
    assert "the acting Medarot gets +20 power" in pow_["effects"][0]["text"]
    assert "hand" not in opp and opp["hand_count"] == 2 == me["hand_count"]
    assert view(st, 1)["players"][1]["hand"][0]["id"] == "SNIPE"


def test_public_numbers_equal_the_state():
    st = position()
    for seat in (0, 1):
        v = view(st, seat)
        for p, pv in enumerate(v["players"]):
            assert pv["hp"] == st.hp[p]
            assert pv["deck"] == len(st.deck[p])
            assert [c["id"] for c in pv["trash"]] == st.trash[p]
            assert pv["first"] == (st.first == p)
        assert v["turn"] == st.turn
        assert v["decision"] == st.decision == "ACTION_START"
        assert v["to_move"] == st.current_player == 0
        assert v["board"]["mode"] == "normal"
        assert not v["done"] and v["result"] is None


def test_a_face_down_enemy_medarot_shows_no_card_but_its_owner_sees_it():
    st = position()
    hidden = view(st, 0)["board"]["squares"][12]
    assert hidden["owner"] == 1 and hidden["hidden"] is True and not hidden["face_up"]
    assert "card" not in hidden and "power" not in hidden
    assert "BOLT" not in text(hidden) and "Bolt" not in text(hidden)
    own = view(st, 1)["board"]["squares"][12]
    assert own["card"]["id"] == "BOLT" and own["power"] == 30 and own["armor"] == 40
    assert "hidden" not in own


def test_board_keeps_absolute_squares_with_effective_stats():
    st = position()
    sq = view(st, 1)["board"]["squares"]
    assert len(sq) == 15 and [s for s, x in enumerate(sq) if x] == [2, 7, 12]
    assert all(x is None or x["square"] == s for s, x in enumerate(sq))
    ash = sq[2]
    assert ash["owner"] == 0 and ash["card"]["name"] == "Ash"
    assert (ash["power"], ash["armor"], ash["speed"]) == (30, 20, 5)
    layout = view(st, 0)["board"]["layout"]
    assert (layout["count"], layout["width"], layout["height"]) == (15, 5, 3)
    action = view(st, 1)["board"]["action"]
    assert action["player"] == 0 and action["square"] == 2 and action["target"] is None


def test_lasting_effects_change_the_shown_stats_and_name_their_squares():
    st = position()
    cog = fx.stack(st, 7)
    st.effects.append(Eff("MOD_POWER", 10, "ANY", 0, -1, 2, [cog.uid], 0, "END_OF_TURN"))
    st.effects.append(Eff("ROOT", 0, "ANY", 0, -1, -1, [cog.uid], 0, "END_OF_TURN"))
    v = view(st, 0)
    assert v["board"]["squares"][7]["power"] == 30
    assert v["board"]["squares"][7]["statuses"] == ["ROOT"]
    mod = v["board"]["effects"][0]
    assert mod["op"] == "MOD_POWER" and mod["amount"] == 10 and mod["squares"] == [7]
    assert mod["source"] == {"player": 0, "slot": 2} and mod["until"] == "END_OF_TURN"


def test_stock_own_face_down_cards_are_shown_the_others_hidden():
    st = position()
    mine = view(st, 0)["players"][0]["stock"]
    assert [s and s["card"]["id"] for s in mine] == ["MEMO", None, "ORA"]
    assert not mine[0]["face_up"]
    theirs = view(st, 0)["players"][1]["stock"]
    assert theirs[0] == {"slot": 0, "face_up": False, "hidden": True, "charge": 0, "in_use": False}
    assert theirs[1] is None and theirs[2] is None
    assert view(st, 1)["players"][1]["stock"][0]["card"]["id"] == "SPIKE"
    assert view(st, 0)["players"][1]["master"]["card"]["id"] == "BLANK"  # face-up masters are public


def test_no_hidden_card_of_the_opponent_appears_anywhere():
    # Sniper, Wall (hand), Spike (face-down stock) and Bolt (face-down Medarot) are P1's private cards.
    st = position()
    mine = text(view(st, 0))
    for secret in ("SNIPE", "Sniper", "WALL", "Wall", "SPIKE", "Spike", "BOLT", "Bolt", '"Y"'):
        assert secret not in mine, secret
    theirs = text(view(st, 1))
    for secret in ("Sniper", "Wall", "Spike", "Bolt"):
        assert secret in theirs
    for secret in ("Kite", "Memo", "Ora"):  # and P0's private cards stay out of P1's view
        assert secret not in theirs and secret in mine


def test_the_view_is_unchanged_when_hidden_cards_are_redrawn():
    st = position()
    rng = random.Random(3)
    for seat in (0, 1):
        v = view(st, seat)
        for _ in range(5):
            assert view(st.resample_hidden(seat, rng), seat) == v


def test_modes_show_their_zones():
    beginner = view(position("beginner", master=None, stock=([], [])), 0)["players"][0]
    assert "master" not in beginner and "reserve" not in beginner
    normal = view(position(), 0)["players"][0]
    assert "master" in normal and "master_used" in normal and "reserve" not in normal
    advance = view(position("advance", reserve=(["DOME"], [])), 1)["players"][0]
    assert [c["name"] for c in advance["reserve"]] == ["Dome"]


def test_a_medachanged_medarot_shows_the_change_and_its_base():
    st = position("advance", units={2: {"card": "COG", "change": "MC_COG"}, 12: "BOLT"})
    sq = view(st, 1)["board"]["squares"][2]
    assert sq["transformed"] and sq["card"]["id"] == "MC_COG" and sq["base"]["id"] == "COG"
    assert (sq["power"], sq["speed"]) == (40, 7)


def test_a_private_pending_card_is_hidden_from_the_other_seat():
    st = position()
    st.limbo[1] = ["SNIPE", False]
    assert view(st, 0)["players"][1]["pending"] == {"public": False, "hidden": True}
    assert view(st, 1)["players"][1]["pending"]["card"]["id"] == "SNIPE"
    st.limbo[1] = ["SNIPE", True]
    assert view(st, 0)["players"][1]["pending"]["card"]["name"] == "Sniper"


def test_a_count_decision_gives_its_number():
    st = position()
    assert view(st, 0)["board"]["count"] is None
    st.decision_point = (DP.EFFECT_DRAW, 0, (0, 2))
    v = view(st, 0)
    assert v["decision"] == "EFFECT_DRAW" and v["board"]["count"] == 2


def test_a_finished_game_has_done_and_result():
    # P0 cannot draw at the start phase: once P1 has drawn, P0 loses (L2).
    st = fx.make_state(
        "normal",
        units={2: "ASH", 12: "BOLT"},
        decks=([], ["X", "Y"]),
        hands=(["KITE"], []),
        start="start_phase",
    )
    fx.do(st, DP.OPT_DRAW, A.COUNT[0], player=1)
    fx.run_until(st, lambda s: s.done)
    assert st.winner == 1
    for seat in (0, 1):
        v = view(st, seat)
        assert v["done"] and v["to_move"] == -1 and v["decision"] is None
        assert v["result"]["returns"] == [-1.0, 1.0] and "cannot draw" in v["result"]["reason"]
        assert v["board"]["action"] is None
        assert json.loads(json.dumps(v)) == v


def test_the_env_view_is_the_ruleset_view():
    env = envs.make("medarot_ocg_v1", mode="advance")
    env.reset(seed=4)
    game = env.unwrapped.game
    for seat in (0, 1):
        v = env.unwrapped.view(seat)
        assert v == view(game, seat) == env.unwrapped.ruleset.view(game, seat)
        assert v["env"] == "medarot_ocg_v1" and v["seat"] == seat
        assert [c["id"] for c in v["players"][seat]["hand"]] == game.hand[seat]
        assert "hand" not in v["players"][1 - seat]

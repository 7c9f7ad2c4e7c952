"""Moves, decisions and effects of the Medarot OCG in words (``envs.medarot_ocg.describe``)."""

from __future__ import annotations

import random
import re

import pytest

from deckgym import envs
from deckgym.envs.core.describe import ROLES, place_key
from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP
from deckgym.envs.medarot_ocg.cards import load_pool
from deckgym.envs.medarot_ocg.describe import card_names, decision_text, describe_action
from deckgym.envs.medarot_ocg.encode_actions import ActionCodec
from deckgym.envs.medarot_ocg.rules.board import NEIGHBOUR
from tests.envs.medarot_ocg.fixtures import do, make_state, passes

MODES = ("beginner", "normal", "advance")
CODEC = ActionCodec()
CODE = re.compile(r"[A-Z]{2,}_[A-Z]+")
ZONES = {"square", "hand", "stock", "master", "deck", "reserve", "trash"}
DIRS = "forward|forward-right|right|back-right|back|back-left|left|forward-left"


def _games(mode: str, seeds: range):
    """(env, state) at every decision of seeded random games."""
    for seed in seeds:
        env = envs.make("medarot_ocg_v1", mode=mode)
        env.reset(seed=seed)
        u = env.unwrapped
        rng = random.Random(seed)
        while not u.game.done:
            yield u, u.game
            env.step(rng.choice(u.encoder.legal_indices(u.game)))


def _texts(st, seat):  # type: ignore[no-untyped-def]
    return {i: describe_action(st, seat, i) for i in CODEC.legal_indices(st)}


@pytest.mark.parametrize("mode", MODES)
def test_every_option_of_a_decision_reads_differently_and_plainly(mode):
    decisions = set()
    for u, st in _games(mode, range(3)):
        p = st.current_player
        for seat in (0, 1):
            out = _texts(st, seat)
            texts = [d["text"] for d in out.values()]
            if seat == p:
                assert len(set(texts)) == len(texts), (st.decision, texts)
                decisions.add(st.decision)
            for d in out.values():
                assert d["text"][:1].isupper() and not CODE.search(d["text"]), d
                for pl in d["places"]:
                    assert pl["role"] in ROLES and pl["zone"] in ZONES, pl
                    if pl["zone"] == "square":
                        assert pl["player"] is None and 0 <= pl["index"] < 15
            if seat != p:
                assert all(d["text"].startswith("The opponent") for d in out.values()), texts
        assert u.describe_action(p, CODEC.legal_indices(st)[0]) == describe_action(
            st, p, CODEC.legal_indices(st)[0]
        )
    assert {"OPT_DRAW", "PLACE_SQUARE", "DECLARE"} <= decisions


def test_the_opponents_hidden_cards_are_never_named_in_the_opening():
    """Before turn 1 every card is in a hand or face down: the other seat reads no card name."""
    names = {c.name for c in load_pool().cards.values()}
    seen = 0
    for _u, st in _games("normal", range(4)):
        if st.turn >= 1:
            continue
        other = 1 - st.current_player
        for d in _texts(st, other).values():
            seen += 1
            assert not any(n in d["text"] for n in names), d["text"]
        assert decision_text(st, other).startswith("The opponent is choosing")
    assert seen > 0


def test_a_move_names_the_medarot_its_square_the_direction_and_where_it_goes():
    st = make_state("normal", units={1: "BRUTE", 12: "TANK"}, start=1, master=None)
    passes(st, "ACTION_START")
    assert st.decision == "MOVE_BEFORE"
    forward = CODEC.action_to_index(A.MOVE[0], st)
    d = describe_action(st, 0, forward)
    assert d["text"] == "Brute (square 1) moves forward to square 6"
    assert [place_key(p) for p in d["places"]] == ["square//1", "square//6"]
    assert [p["role"] for p in d["places"]] == ["from", "to"]
    right = describe_action(st, 0, CODEC.action_to_index(A.MOVE[2], st))
    assert right["text"] == "Brute (square 1) moves right to square 2"
    assert (
        describe_action(st, 1, forward)["text"] == "The opponent's Brute (square 1) moves forward to square 6"
    )
    assert decision_text(st, 0) == "Move Brute (square 1) before it acts, or not yet"
    assert decision_text(st, 1) == "The opponent is choosing whether to move its Medarot"


def test_directions_are_the_owners_so_seat_1_moves_forward_down_the_board():
    st = make_state("normal", units={1: "TANK", 12: "BRUTE"}, start=12, master=None)
    passes(st, "ACTION_START")
    for i in CODEC.legal_indices(st):
        a = CODEC.index_to_action(i, st)
        text = describe_action(st, 1, i)["text"]
        if a.kind == A.Kind.MOVE:
            m = re.fullmatch(rf"Brute \(square 12\) moves ({DIRS}) to square (\d+)", text)
            assert m, text
            assert int(m.group(2)) == NEIGHBOUR[1][12][a.arg]
    forward = describe_action(st, 1, CODEC.action_to_index(A.MOVE[0], st))
    assert forward["text"] == "Brute (square 12) moves forward to square 7"


def test_an_attack_names_both_medarots_and_compares_power_and_armor():
    st = make_state("normal", units={2: "BRUTE", 7: ("TANK", 1)}, start=2, master=None)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    assert st.decision == "DECLARE"
    d = describe_action(st, 0, CODEC.action_to_index(A.SQUARE[7], st))
    assert d["text"] == "Brute (square 2) attacks Tank (square 7) (power 50 against armor 90)"
    assert [(p["role"], place_key(p)) for p in d["places"]] == [
        ("card", "square//2"),
        ("target", "square//7"),
    ]
    assert (
        describe_action(st, 0, CODEC.action_to_index(A.PASS, st))["text"]
        == "Don't attack with Brute (square 2)"
    )
    assert decision_text(st, 0) == "Declare an attack or end the action of Brute (square 2)"


def test_a_face_down_target_is_not_named_to_the_attacker():
    st = make_state(
        "normal", units={2: "BRUTE", 7: {"card": "TANK", "owner": 1, "face_up": False}}, start=2, master=None
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    text = describe_action(st, 0, CODEC.action_to_index(A.SQUARE[7], st))["text"]
    assert text == "Brute (square 2) attacks the face-down Medarot on square 7"


def test_a_support_card_says_what_it_does_and_the_opponent_reads_only_its_name():
    st = make_state("normal", units={2: "BRUTE", 12: "TANK"}, hands=(["POW"], []), start=2, master=None)
    passes(st, "ACTION_START", "MOVE_BEFORE")
    i = CODEC.action_to_index(A.HAND[0], st)
    assert describe_action(st, 0, i)["text"] == (
        "Use Pow, cost 1 HP: the acting Medarot gets +20 power (from your hand)"
    )
    assert describe_action(st, 1, i)["text"] == "The opponent uses a card from its hand"
    assert describe_action(st, 0, CODEC.action_to_index(A.PASS, st))["text"] == "Use no more cards and go on"


def test_setting_a_stock_card_names_the_card_and_the_slot():
    st = make_state(
        "normal",
        units={2: "BRUTE", 12: "TANK"},
        hands=(["POW", "POW"], []),
        start=2,
        master=None,
        stock=(["POW", None, None], []),
    )
    assert st.decision == "ACTION_START"
    first = describe_action(st, 0, CODEC.action_to_index(A.SET[0], st))
    second = describe_action(st, 0, CODEC.action_to_index(A.SET[1], st))
    assert first["text"] == "Set Pow (hand card 1) face down in stock slot 2"
    assert second["text"] == "Set Pow (hand card 2) face down in stock slot 2"
    assert [place_key(p) for p in first["places"]] == ["hand/0/0", "stock/0/1"]
    assert describe_action(st, 1, CODEC.action_to_index(A.SET[0], st))["text"] == (
        "The opponent sets a card from its hand face down in stock slot 2"
    )


def test_the_optional_draw_says_it_costs_1_hp():
    for _u, st in _games("beginner", range(2)):
        if st.decision == "OPT_DRAW":
            p = st.current_player
            texts = {CODEC.index_to_action(i, st).arg: d["text"] for i, d in _texts(st, p).items()}
            assert texts[0] == "Draw no extra cards"
            assert texts[2] == "Pay 1 HP to draw 2 cards"
            assert texts[1] == "Pay 1 HP to draw 1 card"
            assert decision_text(st, p) == "Pay 1 HP to draw up to 3 more cards, or draw none"
            return
    pytest.fail("no optional draw")


def test_a_game_over_has_no_moves_and_says_who_won():
    st = None
    for _u, st in _games("beginner", range(1)):  # noqa: B007  (the last state is the end)
        pass
    assert st is not None and st.done
    assert describe_action(st, 0, 0)["text"] == "No move: the game is over"
    if not st.truncated and st.winner in (0, 1):
        assert decision_text(st, st.winner) == "The game is over: you win"
        assert decision_text(st, 1 - st.winner) == "The game is over: the opponent wins"


def test_card_names_cover_the_pool():
    st = make_state("normal", units={2: "BRUTE", 12: "TANK"}, start=2, master=None)
    names = card_names(st)
    assert names["BRUTE"] == "Brute" and names["POW"] == "Pow"
    assert set(names) == set(st.cards)


def test_every_effect_of_the_pool_reads_as_a_sentence():
    pool = load_pool()
    for card in pool.cards.values():
        for e in card.effects:
            text = e.describe()
            assert text.endswith(".") and not CODE.search(text), (card.name, text)
    wrench = next(c for c in pool.cards.values() if c.name == "Field Wrench")
    assert (
        wrench.effects[0].describe()
        == "Action: the acting Medarot gets +10 power (until the end of this action)."
    )


def test_the_event_lines_are_plain_english():
    st = make_state("normal", units={1: "BRUTE", 12: "TANK"}, start=1, master=None)
    passes(st, "ACTION_START")
    do(st, "MOVE_BEFORE", A.MOVE[0])
    assert st.events[-1] == "P0's Brute moves forward from square 1 to square 6"
    assert st.decision == DP.SUPPORT.name

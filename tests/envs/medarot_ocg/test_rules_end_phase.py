"""End phase and the turn cap (spec 2.9, 3.6, 5.4, 8): R56-R59, D38, D43."""

from __future__ import annotations

import pytest

from deckgym.envs.medarot_ocg import actions as A
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state, run_until, at = fx.do, fx.passes, fx.make_state, fx.run_until, fx.at
F, FR, R, BR, B, BL, L, FL = range(8)
DECKS = (["MEMO"] * 3, ["MEMO"] * 3)


def test_R58_each_player_heals_1_per_own_medarot_in_the_neutral_row():
    units = {
        5: {"card": "SLOW", "owner": 0, "acted": True},
        6: {"card": "SLOW", "owner": 0, "acted": True},
        8: {"card": "SLOW", "owner": 1, "acted": True},
        0: {"card": "SLOW", "acted": True},
        12: {"card": "SLOW", "acted": True},
    }
    st = make_state("normal", units=units, decks=DECKS)
    assert st.turn == 2 and st.decision == "OPT_DRAW"  # nothing left to act: straight to the end phase
    assert st.hp == [22, 21]


def test_R58_healing_counts_the_squares_at_the_end_phase():
    st = make_state("beginner", units={7: ("ASH", 0), 12: "SLOW"}, decks=DECKS, start=7)
    passes(st, "ACTION_START")
    do(st, "MOVE_BEFORE", A.MOVE[B])  # leaves the neutral row before the end phase
    passes(st, "SUPPORT", "DECLARE")
    run_until(st, at("OPT_DRAW"))
    assert st.hp == [10, 9]  # no heal for P0; P1 paid its penalty


def test_R57_D38_end_of_turn_medaroters_are_trashed_at_e2():
    st = make_state("normal", units={2: "BRUTE", 12: "TANK"}, stock=(["RALLY"], []), decks=DECKS, start=2)
    passes(st, "ACTION_START", "MOVE_BEFORE")
    do(st, "SUPPORT", A.STOCK[0])  # RALLY, END_OF_TURN
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert fx.power(st, 2) == 60 and st.stock[0][0].face_up  # still in effect after the action
    run_until(st, at("OPT_DRAW"))
    assert st.stock[0][0] is None and st.trash[0] == ["RALLY"] and fx.power(st, 2) == 50


def test_R57_D36_an_end_of_turn_master_effect_ends_but_the_master_stays():
    st = make_state(
        "normal",
        units={2: "BRUTE", 12: "ASH"},
        master=("SPIKE", None),
        hands=(["MEMO"] * 3, []),
        decks=DECKS,
        start=2,
    )
    passes(st, "ACTION_START", "MOVE_BEFORE")
    do(st, "SUPPORT", A.MASTER)  # TRAP 2 until the end phase
    assert [e.op for e in st.effects] == ["TRAP"]
    run_until(st, at("OPT_DRAW"))
    assert st.effects == [] and st.master[0].card == "SPIKE" and st.trash[0] == []


@pytest.mark.parametrize("first, loser", [(0, 1), (1, 0)])
def test_D38_dot_payments_come_first_p_first_sources_first_and_before_healing(first, loser):
    units = {2: "BRUTE", 13: "ASH"}
    st = make_state(
        "normal",
        units=units,
        hands=(["POISON"], ["POISON"]),
        hp=(1, 1),
        first=first,
        master=None,
        decks=DECKS,
    )
    # each moves into the neutral row (it would heal 1 at E3) and plays Poison (DOT 2 on the opponent)
    passes(st, "ACTION_START")
    do(st, "MOVE_BEFORE", A.MOVE[F])
    do(st, "SUPPORT", A.HAND[0])
    passes(st, "SUPPORT", "DECLARE")
    passes(st, "ACTION_START")
    do(st, "MOVE_BEFORE", A.MOVE[F], player=1)
    do(st, "SUPPORT", A.HAND[0])
    passes(st, "SUPPORT", "DECLARE")
    assert st.done and st.winner == 1 - loser
    assert st.hp == [1, 1]  # E1 failed before any E3 healing


def test_D43_the_turn_cap_truncates_the_game():
    st = make_state("normal", units={0: "SLOW", 12: "SLOW"}, decks=DECKS, max_turns=1)
    run_until(st, lambda s: False)
    assert st.done and st.truncated and st.winner == -1 and st.returns() == [0.0, 0.0]
    assert st.turn == 1
    st = make_state("normal", units={0: "SLOW", 12: "SLOW"}, decks=DECKS, max_turns=2)
    run_until(st, at("OPT_DRAW"))
    assert not st.done and st.turn == 2

"""Turn structure, start phase, draw-event chain and loss checks (spec 2.5, 3.6, 5.2, 8).

Items: R5-R7, R13 (drawn Medarots), R15, R16, R21-R26, D5, D10, D23, D33-D36. D23 and D35 follow
seeds 001 and 000: after every draw event the player may SET the Medaroters just drawn
(decision DRAW_STOCK); docs/rules/medarot_ocg.md records it.
"""

from __future__ import annotations

import pytest

from deckgym.envs.medarot_ocg import actions as A
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state, run_until, at = fx.do, fx.passes, fx.make_state, fx.run_until, fx.at

THREE = {0: "SLOW", 1: "SLOW", 2: "SLOW", 10: "SLOW", 11: "SLOW", 12: "SLOW"}


def _start(mode="normal", **kw):  # type: ignore[no-untyped-def]
    kw.setdefault("units", dict(THREE))
    kw.setdefault("decks", (["MEMO"] * 6, ["MEMO"] * 6))
    return make_state(mode, start="start_phase", **kw)


# ----------------------------------------------------------------------------- turn structure
def test_R22_R59_a_turn_is_start_action_end_then_the_next_start_phase():
    st = _start("beginner", turn=1)
    assert st.turn == 1 and st.decision == "OPT_DRAW"
    run_until(st, at("ACTION_START"))  # both start phases, then the action phase
    assert st.turn == 1
    run_until(st, lambda s: s.turn == 2)  # six actions, end phase, next start phase
    assert st.decision == "OPT_DRAW" and all(not fx.stack(st, s).acted for s in THREE)


def test_R21_both_players_act_in_the_same_turn_ordered_by_speed():
    st = make_state("normal", units={0: "SLOW", 1: "ASH", 10: "KITE", 11: "DOME"})
    assert fx.action_order(st, 4) == ["KITE", "ASH", "DOME", "SLOW"]


def test_R23_D33_start_phase_reveals_and_clears_flags_for_both_players():
    units = {
        0: {"card": "SLOW", "face_up": False, "placed": True},
        1: {"card": "ASH", "acted": True},
        10: {"card": "SLOW", "face_up": False},
        11: {"card": "DOME", "placed": True},  # placed face down, then revealed as an attack's target
    }
    st = _start("normal", units=units, master=(fx.Slot("PLUS", False), fx.Slot("BLANK", True)))
    for s in units:
        x = fx.stack(st, s)
        assert x.face_up and not x.acted and not x.placed
    assert st.master[0].face_up and st.hp[0] == 23
    st = make_state("normal", units=units, decks=(["MEMO"], ["MEMO"]), start=None)
    st.master_used = [True, True]  # both masters were used in the previous turn
    st.agenda = [["start_phase"]]
    fx.flow.run(st)
    assert st.decision == "OPT_DRAW" and st.master_used == [False, False]


def test_D33_start_phase_steps_run_for_p_first_then_p_second():
    st = _start("normal", first=1)
    assert st.decision == "OPT_DRAW" and st.current_player == 1
    do(st, "OPT_DRAW", A.COUNT[0])
    run_until(st, at("OPT_DRAW"))
    assert st.current_player == 0


def test_R24_start_phase_draws_1_card():
    st = _start("normal", decks=(["MEMO", "PLUS", "GAIN"], ["MEMO"] * 3))
    assert st.decision == "OPT_DRAW" and st.current_player == 0
    assert st.hand[0] == ["GAIN"] and st.deck[0] == ["MEMO", "PLUS"]


def test_R25_D34_optional_draw_pays_1_hp_for_up_to_3_cards():
    st = _start("normal", decks=(["MEMO"] * 6, ["MEMO"] * 6))
    assert st.legal_actions() == [A.COUNT[k] for k in range(4)]
    do(st, "OPT_DRAW", A.COUNT[2])
    assert st.hp[0] == 19 and len(st.hand[0]) == 3 and len(st.deck[0]) == 3
    do(st, "DRAW_STOCK", A.PASS)
    assert st.decision == "OPT_DRAW" and st.current_player == 1
    do(st, "OPT_DRAW", A.COUNT[0])  # COUNT(0) is free
    assert st.hp[1] == 20 and len(st.hand[1]) == 1


def test_D34_optional_draw_masks_more_than_the_deck_and_any_draw_at_hp_0():
    st = _start("normal", decks=(["MEMO"] * 3, ["MEMO"] * 3), hp=(20, 0))
    assert st.legal_actions() == [A.COUNT[0], A.COUNT[1], A.COUNT[2]]  # deck 2 after the S2 draw
    do(st, "OPT_DRAW", A.COUNT[0])
    run_until(st, at("OPT_DRAW", 1))
    assert st.legal_actions() == [A.COUNT[0]]  # HP 0: the paid draw is masked


def test_R26_D35_hand_over_7_discards_or_sets_into_an_empty_slot():
    hand = ["MEMO", "PLUS", "GAIN", "HURT", "DRAW", "TRIG", "DUO"]
    st = _start(
        "normal",
        hands=(list(hand), []),
        decks=(["POW"] * 5, ["MEMO"] * 5),
        stock=(["BLANK", "BLANK", None], []),
    )
    do(st, "OPT_DRAW", A.COUNT[3])
    assert len(st.hand[0]) == 11
    do(st, "DRAW_STOCK", A.PASS)
    assert st.decision == "HAND_LIMIT" and A.PASS not in st.legal_actions()
    legal = st.legal_actions()
    assert [a for a in legal if a.kind == A.Kind.HAND] == [A.HAND[i] for i in range(11)]
    assert [a for a in legal if a.kind == A.Kind.SET] == [A.SET[i] for i in range(11)]  # all are Medaroters
    do(st, "HAND_LIMIT", A.SET[0])
    assert st.stock[0][2] is not None and st.stock[0][2].card == "MEMO" and not st.stock[0][2].face_up
    assert all(a.kind == A.Kind.HAND for a in st.legal_actions())  # stock full: only discards remain
    for _ in range(3):
        do(st, "HAND_LIMIT", A.HAND[0])
    assert len(st.hand[0]) == 7 and st.trash[0] == ["PLUS", "GAIN", "HURT"]
    assert st.decision == "OPT_DRAW" and st.current_player == 1


# ----------------------------------------------------------------------------- loss checks
def test_R6_a_player_who_cannot_draw_at_the_start_phase_loses():
    st = _start("normal", decks=(["MEMO"] * 3, []))
    run_until(st, lambda s: False)
    assert st.done and st.winner == 0 and "P1 cannot draw" in st.reason


def test_R6_both_players_failing_the_draw_is_a_draw():
    st = _start("normal", decks=([], []))
    assert st.done and st.winner == 2 and st.returns() == [0.0, 0.0]


def test_R7_a_player_with_no_medarot_on_the_board_after_the_start_phase_loses():
    st = _start("normal", units={0: "SLOW"})
    run_until(st, lambda s: False)
    assert st.done and st.winner == 0 and "P1 has no Medarot" in st.reason
    assert st.returns() == [1.0, -1.0]


def test_D5_the_draw_and_no_medarot_losses_also_apply_in_beginner():
    st = _start("beginner", decks=([], ["MEMO"] * 3))
    run_until(st, lambda s: False)
    assert st.winner == 1 and "P0 cannot draw" in st.reason
    st = _start("beginner", units={10: "SLOW"})
    run_until(st, lambda s: False)
    assert st.winner == 1 and "P0 has no Medarot" in st.reason


def test_R5_hp_0_is_not_a_loss_but_a_payment_due_at_0_is():
    st = make_state("normal", units={2: "SLOW", 12: "SLOW"}, hp=(1, 5), start=2)
    fx.finish_action(st)  # no move: penalty 1 -> HP 0
    assert st.hp[0] == 0 and not st.done
    st = make_state("normal", units={2: "SLOW", 12: "SLOW"}, hp=(0, 5), start=2)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.done and st.winner == 1 and st.hp[0] == 0  # HP is left as it was (D27)


# ----------------------------------------------------------------------------- master (R16, D36)
def test_R16_D36_master_hp_modifier_is_applied_when_first_revealed():
    st = _start("normal", master=(fx.Slot("PLUS", False), fx.Slot("ORA", False)))
    assert st.hp == [23, 18]  # +3 (no upper cap), -2 (a mandatory payment)
    assert st.master[0].face_up and st.master[1].face_up
    run_until(st, lambda s: s.turn == 2)
    assert st.hp == [23 - 3, 18 - 3]  # only the three penalties of turn 1: applied once, not every S1


def test_D36_a_negative_master_modifier_that_cannot_be_paid_loses():
    st = _start("normal", hp=(1, 20), master=(fx.Slot("ORA", False), "BLANK"))
    assert st.done and st.winner == 1 and st.hp[0] == 1


def test_R15_D35_late_master_the_start_phase_draw_becomes_master_at_once():
    st = _start("normal", master=(None, "BLANK"), decks=(["MEMO", "MEMO", "PLUS"], ["MEMO"] * 3))
    # S2 drew Plus; the optional draw adds two more Medaroters, but the S2 card was first
    do(st, "OPT_DRAW", A.COUNT[2])
    assert st.master[0] is not None and st.master[0].card == "PLUS" and st.master[0].face_up
    assert st.hp[0] == 19 + 3  # paid 1 for the draw; +3 applied at once
    assert st.hand[0] == ["MEMO", "MEMO"]


def test_R15_D35_late_master_several_drawn_together_the_player_chooses():
    st = _start(
        "normal",
        master=(None, "BLANK"),
        decks=(["GAIN", "PLUS", "JADE"], ["MEMO"] * 3),
        units={0: "SLOW", 1: "SLOW", 2: "SLOW", 10: "SLOW"},
    )
    do(st, "OPT_DRAW", A.COUNT[2])  # S2 drew Jade (a Medarot); then Plus and Gain together
    assert st.decision == "LATE_MASTER" and st.legal_actions() == [A.HAND[1], A.HAND[2]]
    do(st, "LATE_MASTER", A.HAND[2])
    assert st.master[0].card == "GAIN" and st.hand[0] == ["JADE", "PLUS"]


def test_R15_late_master_exactly_one_medaroter_is_automatic_and_beginner_has_none():
    st = _start("normal", master=(None, "BLANK"), decks=(["PLUS", "JADE"], ["MEMO"] * 3))
    do(st, "OPT_DRAW", A.COUNT[1])
    assert st.master[0].card == "PLUS" and st.hand[0] == ["JADE"]
    st = _start("beginner", decks=(["PLUS", "JADE"], ["MEMO"] * 3))
    do(st, "OPT_DRAW", A.COUNT[1])
    assert st.master[0] is None
    assert st.decision == "DRAW_STOCK"


# ----------------------------------------------------------------------------- refill of drawn Medarots
def test_R13_D10_a_drawn_medarot_is_placed_face_down_and_cannot_act_that_turn():
    st = _start("normal", units={0: "SLOW", 1: "SLOW", 10: "SLOW"}, decks=(["MEMO", "KITE"], ["MEMO"] * 3))
    do(st, "OPT_DRAW", A.COUNT[0])
    assert st.decision == "PLACE_CARD" and st.legal_actions() == [A.HAND[0]]  # mandatory, no pass
    do(st, "PLACE_CARD", A.HAND[0])
    assert st.legal_actions() == [A.SQUARE[s] for s in (2, 3, 4)]
    do(st, "PLACE_SQUARE", A.SQUARE[4])
    kite = fx.stack(st, 4)
    assert not kite.face_up and kite.placed
    run_until(st, lambda s: s.turn == 2)
    assert not kite.acted  # speed 7, but placed this turn: never selected
    assert kite.face_up  # revealed at the next S1


def test_D10_refill_stops_at_3_on_the_board():
    st = _start(
        "normal", units={0: "SLOW", 10: "SLOW"}, decks=(["MEMO", "JADE", "PUG", "KITE"], ["MEMO"] * 3)
    )
    do(st, "OPT_DRAW", A.COUNT[2])
    for square in (1, 2):
        do(st, "PLACE_CARD", A.HAND[0])
        do(st, "PLACE_SQUARE", A.SQUARE[square])
    assert len(fx.units_of(st, 0)) == 3 and st.hand[0] == ["JADE"]
    assert st.decision == "OPT_DRAW" and st.current_player == 1


# ----------------------------------------------------------------------------- D23, D35: DRAW_STOCK
def test_d23_d35_draw_stock_sets_only_the_medaroters_just_drawn():
    st = _start(
        "normal",
        hands=(["GAIN"], []),
        decks=(["MEMO", "PLUS", "JADE", "HURT"], ["MEMO"] * 3),
        units={0: "SLOW", 1: "SLOW", 2: "SLOW", 10: "SLOW"},
    )
    do(st, "OPT_DRAW", A.COUNT[2])  # hand: Gain (old), Hurt (S2), Jade, Plus
    assert st.hand[0] == ["GAIN", "HURT", "JADE", "PLUS"]
    assert st.decision == "DRAW_STOCK"
    assert st.legal_actions() == [A.PASS, A.SET[1], A.SET[3]]  # not the old Gain, not the Medarot
    do(st, "DRAW_STOCK", A.SET[3])
    assert st.stock[0][0].card == "PLUS" and not st.stock[0][0].face_up
    assert st.legal_actions() == [A.PASS, A.SET[1]]
    do(st, "DRAW_STOCK", A.PASS)
    assert st.hand[0] == ["GAIN", "HURT", "JADE"] and st.current_player == 1


def test_d23_d25_draw_stock_into_a_full_stock_trashes_one_first():
    st = _start("normal", decks=(["MEMO", "PLUS"], ["MEMO"] * 3), stock=(["BLANK", "TRIG", "DUO"], []))
    do(st, "OPT_DRAW", A.COUNT[0])
    do(st, "DRAW_STOCK", A.SET[0])
    assert st.decision == "STOCK_TRASH" and st.legal_actions() == [A.STOCK[0], A.STOCK[1], A.STOCK[2]]
    do(st, "STOCK_TRASH", A.STOCK[1])
    assert st.trash[0] == ["TRIG"] and st.stock[0][1].card == "PLUS" and not st.stock[0][1].face_up
    assert st.decision == "OPT_DRAW" and st.current_player == 1


@pytest.mark.parametrize("mode", ["beginner", "normal"])
def test_d35_draw_stock_after_a_destroy_draw(mode):
    st = make_state(mode, units={2: "SNIPE", 12: "SLOW", 10: "SLOW"}, decks=([], ["GAIN", "PLUS"]), start=2)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    do(st, "DESTROY_DRAW", A.COUNT[2], player=1)
    assert st.decision == "DRAW_STOCK" and st.current_player == 1
    do(st, "DRAW_STOCK", A.SET[0])
    do(st, "DRAW_STOCK", A.SET[0])
    assert [s.card for s in st.stock[1] if s] == ["PLUS", "GAIN"] and st.hand[1] == []
    assert st.decision == "MOVE_AFTER"


def test_D35_late_master_after_a_destroy_draw_then_refill_then_draw_stock():
    st = make_state(
        "normal",
        units={2: "SNIPE", 12: "SLOW", 10: "SLOW"},
        master=("BLANK", None),
        decks=([], ["MEMO", "GAIN", "JADE", "PLUS"]),
        start=2,
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    do(st, "DESTROY_DRAW", A.COUNT[3], player=1)  # Plus, Jade, Gain
    assert st.decision == "LATE_MASTER" and st.legal_actions() == [A.HAND[0], A.HAND[2]]
    do(st, "LATE_MASTER", A.HAND[2])  # Gain (hp_mod 0)
    assert st.master[1].card == "GAIN" and st.master[1].face_up
    do(st, "PLACE_CARD", A.HAND[1], player=1)  # 2. refill: Jade
    do(st, "PLACE_SQUARE", A.SQUARE[12], player=1)
    assert st.decision == "DRAW_STOCK" and st.legal_actions() == [A.PASS, A.SET[0]]  # Plus
    do(st, "DRAW_STOCK", A.PASS)
    assert st.decision == "MOVE_AFTER" and st.hand[1] == ["PLUS"]


def test_D36_a_late_master_with_a_negative_modifier_that_cannot_be_paid_loses_at_once():
    st = _start("normal", master=(None, "BLANK"), hp=(1, 20), decks=(["ORA"], ["MEMO"] * 3))
    do(st, "OPT_DRAW", A.COUNT[0])
    assert st.done and st.winner == 1 and st.hp[0] == 1


def test_R44_a_player_that_cannot_refill_places_the_next_medarot_it_draws():
    st = make_state(
        "normal",
        units={2: "SNIPE", 12: "SLOW", 10: "SLOW"},
        hands=([], ["MEMO"]),
        decks=(["MEMO"] * 3, ["JADE", "MEMO"]),
        start=2,
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    do(st, "DESTROY_DRAW", A.COUNT[0])  # no Medarot in hand: no refill now
    assert st.decision == "MOVE_AFTER" and len(fx.units_of(st, 1)) == 1
    run_until(st, at("OPT_DRAW", 1))
    do(st, "OPT_DRAW", A.COUNT[1])  # S2 drew Memo, then Jade
    assert st.hand[1] == ["MEMO", "MEMO", "JADE"]
    assert st.decision == "PLACE_CARD" and st.legal_actions() == [A.HAND[2]]
    do(st, "PLACE_CARD", A.HAND[2])
    do(st, "PLACE_SQUARE", A.SQUARE[12])
    do(st, "DRAW_STOCK", A.PASS)  # the Memo drawn at S2 may be set (D23, D35)
    assert len(fx.units_of(st, 1)) == 2 and not fx.stack(st, 12).face_up

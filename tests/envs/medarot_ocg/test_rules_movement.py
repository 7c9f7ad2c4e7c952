"""Movement and the movement penalty (spec 2.6, 3.2, 3.3): R29-R31, D4, D7, D8, D21, D22, D44."""

from __future__ import annotations

from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.rules.board import NEIGHBOUR
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state = fx.do, fx.passes, fx.make_state
F, FR, R, BR, B, BL, L, FL = range(8)


def _moves(st):  # type: ignore[no-untyped-def]
    return [a.arg for a in st.legal_actions() if a.kind == A.Kind.MOVE]


def _at_move_before(mode, square, units, **kw):  # type: ignore[no-untyped-def]
    st = make_state(mode, units=units, start=square, **kw)
    do(st, "ACTION_START", A.PASS)
    assert st.decision == "MOVE_BEFORE" and A.PASS in st.legal_actions()
    return st


def test_R29_D4_beginner_moves_one_square_in_all_8_directions_whatever_the_arrows():
    st = _at_move_before("beginner", 2, {2: "HOOK", 12: "SLOW"})  # Hook has only the F arrow
    assert _moves(st) == [F, FR, R, L, FL]  # B, BR, BL are off the board
    st = _at_move_before("beginner", 7, {7: ("HOOK", 0), 12: "SLOW"})
    assert _moves(st) == [R, BR, B, BL, L]  # F, FR, FL would enter P1's row


def test_R29_D44_normal_and_advance_move_by_the_printed_arrows():
    for mode in ("normal", "advance"):
        st = _at_move_before(mode, 2, {2: "HOOK", 12: "SLOW"})
        assert _moves(st) == [F]
        st = _at_move_before(mode, 7, {7: ("COG", 0), 12: "SLOW"})  # arrows F, R, B, L, FL
        assert _moves(st) == [R, B, L]


def test_R29_D8_no_entry_to_the_opponent_row_or_an_occupied_square_neutral_allowed():
    st = _at_move_before("normal", 7, {7: ("KITE", 0), 8: ("SLOW", 1), 2: "SLOW", 12: "SLOW"})
    assert _moves(st) == [BR, BL, L]  # 8 and 2 occupied; 11, 12, 13 are P1's row
    do(st, "MOVE_BEFORE", A.MOVE[L])
    assert fx.stack(st, 6).base == "KITE" and st.board[7] is None
    st = _at_move_before("normal", 1, {1: "KITE", 12: "SLOW"})
    assert _moves(st) == [F, FR, R, L, FL]  # into the neutral row or along the own row


def test_D7_p1_faces_down_the_board_and_its_right_is_minus_column():
    assert NEIGHBOUR[0][7] == (12, 13, 8, 3, 2, 1, 6, 11)
    assert NEIGHBOUR[1][7] == (2, 1, 6, 11, 12, 13, 8, 3)
    st = _at_move_before("normal", 7, {7: ("KITE", 1), 2: "SLOW"})
    assert _moves(st) == [R, BR, B, BL, L]
    do(st, "MOVE_BEFORE", A.MOVE[R])
    assert fx.stack(st, 6).base == "KITE"


def test_R30_one_move_before_the_action_means_no_move_after():
    st = _at_move_before("normal", 2, {2: "ASH", 12: "SLOW"})
    do(st, "MOVE_BEFORE", A.MOVE[F])  # 2 -> 7
    do(st, "SUPPORT", A.PASS)
    do(st, "DECLARE", A.PASS)
    assert st.decision != "MOVE_AFTER" and fx.acting_card(st) == "SLOW"
    assert st.hp[0] == 20


def test_R30_D21_no_move_before_then_move_after_is_offered():
    st = _at_move_before("normal", 2, {2: "ASH", 12: "SLOW"})
    passes(st, "MOVE_BEFORE", "SUPPORT", "DECLARE")
    assert st.decision == "MOVE_AFTER" and _moves(st) == [F, R, L]
    do(st, "MOVE_AFTER", A.MOVE[R])
    assert fx.stack(st, 3).base == "ASH" and st.hp[0] == 20


def test_R31_D22_no_move_costs_the_owner_1_hp():
    st = make_state("beginner", units={2: "ASH", 12: "SLOW"}, start=2)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.hp == [9, 10]
    st = make_state("normal", units={2: "ASH", 12: "SLOW"}, start=12)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.hp == [20, 19]


def test_R31_D22_a_medarot_that_cannot_move_still_pays():
    # Hook (arrow F only) boxed in by an ally at 7: its only legal answer is PASS
    st = make_state("normal", units={2: "HOOK", 7: ("SLOW", 0), 12: "SLOW"}, start=2)
    do(st, "ACTION_START", A.PASS)
    assert st.legal_actions() == [A.PASS]
    passes(st, "MOVE_BEFORE", "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.hp[0] == 19

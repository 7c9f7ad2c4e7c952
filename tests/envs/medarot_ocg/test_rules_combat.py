"""Action order, ranges, judgement and destruction (spec 2.6, 3.2, 3.3, 3.5, 5.3).

Items: R27, R28, R33-R36, R39-R45, R54, D9, D11-D17, D29-D31. D31 follows seed 001 in beginner
mode (「3枚(2枚でも1枚でも可)」): DESTROY_DRAW offers COUNT(1..3), at least 1 while the deck is
not empty; docs/rules/medarot_ocg.md records it.
"""

from __future__ import annotations

import pytest

from deckgym.envs.medarot_ocg import actions as A
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state, run_until, at = fx.do, fx.passes, fx.make_state, fx.run_until, fx.at


def _declare(mode, square, units, **kw):  # type: ignore[no-untyped-def]
    """A state at the DECLARE decision of the Medarot on ``square``."""
    st = make_state(mode, units=units, start=square, **kw)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    assert st.decision == "DECLARE"
    return st


def _targets(st):  # type: ignore[no-untyped-def]
    return [a.arg for a in st.legal_actions() if a.kind == A.Kind.SQUARE]


# ----------------------------------------------------------------------------- order (R27, R28, D15, D16)
def test_R27_R45_fastest_first_each_acts_once_then_the_end_phase():
    st = make_state(
        "normal", units={0: "SLOW", 1: "EDGE", 10: "KITE", 11: "FORT"}, decks=(["MEMO"] * 2, ["MEMO"] * 2)
    )
    assert fx.action_order(st, 4) == ["KITE", "EDGE", "FORT", "SLOW"]  # no Medarot acts twice
    assert st.decision == "OPT_DRAW" and st.turn == 2  # every Medarot acted: end phase, next turn


def test_R28_speed_ties_break_by_more_arrows_then_lower_cost():
    units = {0: "Y", 1: "B", 10: "X"}  # all speed 5: Y 3 arrows; B 4 arrows cost 3; X 4 arrows cost 2
    st = make_state("normal", units=units)
    assert fx.action_order(st, 3) == ["X", "B", "Y"]


def test_D16_tied_allies_the_owner_chooses_with_tie_break():
    st = make_state("normal", units={0: "X", 3: "X", 12: "SLOW"})
    assert st.decision == "TIE_BREAK" and st.current_player == 0
    assert st.legal_actions() == [A.SQUARE[0], A.SQUARE[3]]
    do(st, "TIE_BREAK", A.SQUARE[3])
    assert fx.acting_card(st) == "X" and fx.stack(st, 3).acted and not fx.stack(st, 0).acted


def test_D16_tied_enemies_a_fresh_coin_each_time_and_the_winner_chooses_among_its_own():
    units = {0: "X", 3: "X", 12: "X", 13: "X"}
    st = make_state("normal", units=units, rng=fx.ScriptedRng(0, ranges=[0, 1, 1]))
    assert st.decision == "TIE_BREAK" and st.current_player == 0  # coin 0: P0 picks one of its two
    do(st, "TIE_BREAK", A.SQUARE[0])
    fx.finish_action(st)
    assert st.decision == "TIE_BREAK" and st.current_player == 1  # a new coin (1): P1 picks
    do(st, "TIE_BREAK", A.SQUARE[13])
    fx.finish_action(st)
    assert st.decision == "ACTION_START" and fx.stack(st, 12).acted  # coin 1 again: P1's last one acts
    fx.finish_action(st)
    assert fx.stack(st, 3).acted


def test_D15_selection_uses_current_effective_speed():
    # Hornet's ON_HIT gives its target -3 speed: Ash (5 -> 2) now acts after Cog (4)
    st = make_state("beginner", units={2: "HORN", 12: "ASH", 0: "COG"})
    assert fx.acting_card(st) == "HORN"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert fx.speed(st, 12) == 2
    fx.finish_action(st)
    assert fx.action_order(st, 2) == ["COG", "ASH"]


def test_D15_D14_face_down_and_placed_medarots_never_act():
    units = {
        0: "SLOW",
        12: {"card": "KITE", "placed": True},
        13: {"card": "EDGE", "face_up": False, "placed": True},
    }
    st = make_state("normal", units=units, decks=(["MEMO"], ["MEMO"]))
    assert fx.action_order(st, 1) == ["SLOW"]
    assert st.turn == 2


def test_D17_the_steps_of_one_action_come_in_order():
    st = make_state("normal", units={2: "ASH", 12: "BOLT"}, hands=([], ["MEMO"] * 5), start=2)
    seen = []
    while st.act is not None and fx.acting_card(st) == "ASH":
        seen.append(st.decision)
        st.apply(A.SQUARE[12] if st.decision == "DECLARE" else fx.default_choice(st))
    assert seen == [
        "ACTION_START",
        "MOVE_BEFORE",
        "SUPPORT",
        "DECLARE",
        "DEFENCE",
        "WEAK_DISCARD",
        "WEAK_DISCARD",
        "WEAK_DISCARD",
        "MOVE_AFTER",
    ]


# ----------------------------------------------------------------------------- ranges
def test_R33_not_acting_is_allowed():
    st = _declare("normal", 2, {2: "ASH", 12: "SLOW"})
    assert st.legal_actions() == [A.PASS, A.SQUARE[12]]
    do(st, "DECLARE", A.PASS)
    assert st.decision == "MOVE_AFTER" and fx.stack(st, 12).base == "SLOW"


def test_R34_D11_shooting_hits_2_ahead_and_jumps_over_any_medarot():
    st = _declare("normal", 2, {2: "ASH", 7: ("SLOW", 1), 12: "SLOW"})
    assert _targets(st) == [12]  # the enemy 1 ahead is not in a shooter's range
    st = _declare("normal", 2, {2: "ASH", 7: ("SLOW", 0), 12: "SLOW"})
    assert _targets(st) == [12]  # jumps over an ally too
    st = _declare("normal", 2, {2: "ASH", 13: "SLOW", 11: "SLOW"})
    assert _targets(st) == []  # straight ahead means the same column


def test_D11_a_shooter_in_the_neutral_row_has_no_forward_target():
    st = _declare("normal", 7, {7: ("ASH", 0), 12: "SLOW", 2: ("SLOW", 0)})
    assert _targets(st) == []


def test_R35_D11_melee_hits_1_ahead_for_free():
    st = _declare("normal", 2, {2: "BRUTE", 7: ("SLOW", 1), 12: "SLOW"})
    assert _targets(st) == [7]  # 2 ahead is blocked by the Medarot at 7
    do(st, "DECLARE", A.SQUARE[7])
    assert st.hp[0] == 20
    st = _declare("normal", 7, {7: ("BRUTE", 0), 12: "SLOW"})
    assert _targets(st) == [12]  # from the neutral row: 1 ahead is the opponent's row


def test_R35_D12_melee_2_ahead_costs_1_hp_and_needs_an_empty_path():
    st = _declare("normal", 3, {3: "HOOK", 13: "SLOW"})
    assert _targets(st) == [13]
    do(st, "DECLARE", A.SQUARE[13])
    assert st.hp[0] == 19 and st.act.far
    for between in (("SLOW", 0), ("SLOW", 1), {"card": "SLOW", "owner": 1, "face_up": False, "placed": True}):
        st = _declare("normal", 3, {3: "HOOK", 8: between, 13: "SLOW"})
        assert 13 not in _targets(st)  # ally, enemy or face-down Medarot in between blocks it


def test_D12_D27_the_2_square_attack_is_masked_at_hp_0():
    st = _declare("normal", 3, {3: "HOOK", 13: "SLOW"}, hp=(0, 20))
    assert st.legal_actions() == [A.PASS]


@pytest.mark.parametrize("mode", ["beginner", "normal"])
def test_R36_D13_in_the_neutral_row_both_types_may_attack_the_side_squares(mode):
    st = _declare(mode, 7, {7: ("BRUTE", 0), 6: ("SLOW", 1), 8: ("SLOW", 1), 12: "SLOW"})
    assert _targets(st) == [6, 8, 12]
    st = _declare(mode, 7, {7: ("ASH", 0), 6: ("SLOW", 1), 8: ("SLOW", 0), 12: "SLOW"})
    assert _targets(st) == [6]  # a shooter too; allies are never targets
    st = _declare(mode, 2, {2: "BRUTE", 1: "SLOW", 12: "SLOW"})
    assert _targets(st) == [12]  # from the own row: only the forward range (here 2 ahead)


def test_D14_a_face_down_enemy_is_a_target_and_is_revealed_at_judgement():
    units = {2: "ASH", 12: {"card": "TANK", "face_up": False, "placed": True}}
    st = _declare("beginner", 2, units)
    assert _targets(st) == [12]
    do(st, "DECLARE", A.SQUARE[12])
    assert not fx.stack(st, 12).face_up
    do(st, "DEFENCE", A.PASS)
    assert fx.stack(st, 12).face_up and fx.stack(st, 12).placed


# ----------------------------------------------------------------------------- judgement
def test_R39_beginner_weaker_hit_does_nothing_but_on_hit_still_applies():
    st = _declare("beginner", 2, {2: "LEECH", 12: "ASH"}, hands=([], ["MEMO"] * 3))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "MOVE_AFTER"
    assert fx.stack(st, 12).base == "ASH" and len(st.hand[1]) == 3
    assert st.hp[0] == 11  # Leech's ON_HIT GAIN_HP 1


def test_R40_R54_advance_destroy_pays_the_cost_and_goes_to_the_reserve():
    st = _declare("advance", 2, {2: "SNIPE", 12: "TANK", 10: "SLOW"}, decks=([], ["MEMO"]))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.hp[1] == 16 and st.reserve[1] == ["TANK"] and st.trash[1] == []


def test_R41_D29_weak_attack_the_defender_discards_power_div_10_of_its_choice():
    st = _declare("normal", 2, {2: "FORT", 12: "TANK"}, hands=([], ["MEMO", "PLUS", "GAIN", "HURT"]))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "WEAK_DISCARD" and st.current_player == 1
    assert st.legal_actions() == [A.HAND[i] for i in range(4)]
    do(st, "WEAK_DISCARD", A.HAND[3])
    do(st, "WEAK_DISCARD", A.HAND[1])
    do(st, "WEAK_DISCARD", A.HAND[0])
    assert st.hand[1] == ["GAIN"] and st.trash[1] == ["HURT", "PLUS", "MEMO"]
    assert st.decision == "MOVE_AFTER" and fx.stack(st, 12).base == "TANK" and st.hp[1] == 20


def test_D29_hand_equal_need_weak_destroys():
    st = _declare(
        "normal",
        2,
        {2: "FORT", 12: "TANK", 10: "SLOW"},
        hands=([], ["MEMO", "PLUS", "GAIN"]),
        decks=([], ["HURT"]),
    )
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    # need 3 = hand 3: the whole hand goes automatically and Tank is weak-destroyed
    assert st.board[12] is None and st.trash[1] == ["MEMO", "PLUS", "GAIN", "TANK"]
    assert st.hp[1] == 19  # R42: the weak-destroy cost is 1, not Tank's cost 4
    assert st.decision == "DESTROY_DRAW" and st.current_player == 1


def test_R42_D29_weak_destroy_with_an_empty_hand_costs_1():
    st = _declare("advance", 2, {2: "ASH", 12: "TANK", 10: "SLOW"}, decks=([], []))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.board[12] is None and st.reserve[1] == ["TANK"] and st.hp[1] == 19
    assert st.legal_actions() == [A.COUNT[0]]  # D31: drawing from an empty deck is not a loss
    do(st, "DESTROY_DRAW", A.COUNT[0])
    assert not st.done and st.decision == "MOVE_AFTER"


def test_D29_need_0_does_nothing():
    # Weaken (DEFENCE MOD_POWER -20 ATTACKER): power 20 -> 0, need 0: no discard, no destroy
    st = _declare("normal", 2, {2: "QUILL", 12: "TANK"}, hands=([], ["WEAKEN"]))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.HAND[0])
    assert fx.power(st, 2) == 0
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "MOVE_AFTER" and st.hand[1] == [] and fx.stack(st, 12).base == "TANK"
    assert st.hp[1] == 20


def test_R43_D31_beginner_destroyed_procedure_pay_trash_draw_place():
    st = _declare(
        "beginner",
        2,
        {2: "SNIPE", 12: "EDGE", 10: "SLOW"},
        hands=([], ["MEMO"]),
        decks=([], ["GAIN", "HOOK", "PLUS"]),
    )
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.hp[1] == 8 and st.trash[1] == ["EDGE"] and st.board[12] is None  # (1) pay 2, (2) trash
    do(st, "DESTROY_DRAW", A.COUNT[2])  # (3) draw: Plus, Hook
    assert st.hand[1] == ["MEMO", "PLUS", "HOOK"]
    do(st, "PLACE_CARD", A.HAND[2])  # (4) place face down on the own row
    assert st.legal_actions() == [A.SQUARE[s] for s in (11, 12, 13, 14)]
    do(st, "PLACE_SQUARE", A.SQUARE[14])
    assert not fx.stack(st, 14).face_up and fx.stack(st, 14).placed


def test_d31_beginner_destroy_draw_offers_1_to_3_as_seed_001_reads():
    st = _declare("beginner", 2, {2: "SNIPE", 12: "EDGE", 10: "SLOW"}, decks=([], ["MEMO"] * 5))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.legal_actions() == [A.COUNT[1], A.COUNT[2], A.COUNT[3]]
    do(st, "DESTROY_DRAW", A.COUNT[1])
    assert len(st.hand[1]) == 1 and len(st.deck[1]) == 4
    st = _declare("beginner", 2, {2: "SNIPE", 12: "EDGE", 10: "SLOW"}, decks=([], ["MEMO"] * 2))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.legal_actions() == [A.COUNT[1], A.COUNT[2]]  # never more than the deck
    st = _declare("beginner", 2, {2: "SNIPE", 12: "EDGE", 10: "SLOW"})
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.legal_actions() == [A.COUNT[0]]  # empty deck: 0 is the only option


@pytest.mark.parametrize("mode", ["normal", "advance"])
def test_D31_normal_and_advance_destroy_draw_offers_0_to_3(mode):
    st = _declare(mode, 2, {2: "SNIPE", 12: "EDGE", 10: "SLOW"}, decks=([], ["MEMO"] * 5))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.legal_actions() == [A.COUNT[k] for k in range(4)]


def test_R44_D30_advance_procedure_then_the_additional_effect():
    # Leech destroys; its ON_HIT (GAIN_HP 1) comes after the draw and the refill (R44 step 5)
    st = _declare("advance", 2, {2: "LEECH", 12: "SLOW", 10: "SLOW"}, decks=([], ["JADE"]))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.reserve[1] == ["SLOW"] and st.hp == [20, 19]
    do(st, "DESTROY_DRAW", A.COUNT[1])
    do(st, "PLACE_CARD", A.HAND[0])
    assert st.hp[0] == 20
    do(st, "PLACE_SQUARE", A.SQUARE[12])
    assert st.hp[0] == 21 and st.decision == "MOVE_AFTER"


def test_D30_an_additional_effect_aimed_at_the_target_is_skipped_if_it_left():
    st = _declare("normal", 2, {2: "PIN", 12: "SLOW", 10: "SLOW"})
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    do(st, "DESTROY_DRAW", A.COUNT[0])
    assert st.effects == []  # ROOT ATTACKED: the target is gone
    st = _declare("beginner", 2, {2: "PIN", 12: "TANK"})
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert [e.op for e in st.effects] == ["ROOT"]  # not destroyed: applies (R39)


def test_D31_a_destroyed_medarot_that_had_not_acted_loses_its_action():
    st = make_state(
        "normal", units={2: "SNIPE", 12: "KITE", 10: "SLOW", 0: "SLOW"}, decks=(["MEMO"], ["MEMO"])
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    do(st, "DESTROY_DRAW", A.COUNT[0])
    fx.finish_action(st)
    order = fx.action_order(st, 2)
    assert "KITE" not in order and st.turn == 2


def test_D31_a_destroyed_cost_that_cannot_be_paid_loses():
    st = _declare("normal", 2, {2: "SNIPE", 12: "TANK", 10: "SLOW"}, hp=(20, 3))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.done and st.winner == 0 and st.hp[1] == 3


def test_D9_D10_refill_after_a_destroy_stops_at_3():
    st = _declare(
        "normal",
        2,
        {2: "SNIPE", 12: "SLOW", 10: "SLOW", 11: "SLOW"},
        hands=([], ["JADE", "PUG"]),
        decks=([], ["IVY"]),
    )
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    do(st, "DESTROY_DRAW", A.COUNT[1])
    assert st.legal_actions() == [A.HAND[0], A.HAND[1], A.HAND[2]]
    do(st, "PLACE_CARD", A.HAND[2])
    do(st, "PLACE_SQUARE", A.SQUARE[12])
    assert len(fx.units_of(st, 1)) == 3 and st.hand[1] == ["JADE", "PUG"]
    assert st.decision == "MOVE_AFTER"

"""Medaroter cards: stock, windows, limits, costs, MedaForce and the master (spec 2.3, 2.4, 3.4).

Items: R12, R17-R20, R32, R38, R55, D3, D23-D28, D36, D45.
"""

from __future__ import annotations

from deckgym.envs.medarot_ocg import actions as A
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state, run_until, at = fx.do, fx.passes, fx.make_state, fx.run_until, fx.at


def _action_start(mode="normal", square=2, units=None, **kw):  # type: ignore[no-untyped-def]
    """A state at the ACTION_START decision of the Medarot on ``square``; unless ``units`` says
    otherwise, P0's Brute stands on square 2 and P1's Tank on 12."""
    return make_state(mode, units=units or {2: "BRUTE", 12: "TANK"}, start=square, **kw)


def _support(mode="normal", square=2, units=None, **kw):  # type: ignore[no-untyped-def]
    """A state at the SUPPORT decision of the Medarot on ``square``."""
    st = _action_start(mode, square, units, **kw)
    passes(st, "ACTION_START", "MOVE_BEFORE")
    assert st.decision == "SUPPORT"
    return st


def _defence(mode="normal", units=None, **kw):  # type: ignore[no-untyped-def]
    """P0's Ash (square 2) attacks P1's Medarot on 12; a state at P1's DEFENCE decision."""
    st = make_state(mode, units=units or {2: "ASH", 12: "TANK"}, start=2, **kw)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.decision == "DEFENCE" and st.current_player == 1
    return st


def _slot(st, p, j):  # type: ignore[no-untyped-def]
    x = st.stock[p][j]
    return None if x is None else (x.card, x.face_up)


# ----------------------------------------------------------------------------- windows (R12, R20, R32, R38, D23)
def test_R12_D23_trigger_effects_only_from_a_face_down_stock_card():
    st = _support(hands=(["TRIG"], []), stock=(["TRIG"], []), master=("TRIG", None))
    assert st.legal_actions() == [A.PASS, A.STOCK[0]]  # not from the hand, never from the master
    do(st, "SUPPORT", A.STOCK[0])
    assert st.hp[0] == 21 and _slot(st, 0, 0) == ("TRIG", True)


def test_R18_D23_medaroters_are_set_face_down_before_an_own_action():
    st = _action_start(hands=(["POW", "JADE", "GAIN"], []))
    assert st.legal_actions() == [A.PASS, A.SET[0], A.SET[2], A.SUBSTITUTE]
    do(st, "ACTION_START", A.SET[2])
    do(st, "ACTION_START", A.SET[0])
    assert [_slot(st, 0, j) for j in range(3)] == [("GAIN", False), ("POW", False), None]
    assert st.legal_actions() == [A.PASS, A.SUBSTITUTE]
    do(st, "ACTION_START", A.PASS)
    passes(st, "MOVE_BEFORE")
    assert not any(a.kind == A.Kind.SET for a in st.legal_actions())  # no SET in the support window


def test_R19_D25_setting_into_a_full_stock_trashes_a_chosen_card_first():
    st = _action_start(hands=(["POW"], []), stock=(["GAIN", "HURT", "DRAW"], []))
    do(st, "ACTION_START", A.SET[0])
    assert st.decision == "STOCK_TRASH" and st.legal_actions() == [A.STOCK[0], A.STOCK[1], A.STOCK[2]]
    do(st, "STOCK_TRASH", A.STOCK[1])
    assert st.trash[0] == ["HURT"] and _slot(st, 0, 1) == ("POW", False)
    assert st.decision == "ACTION_START"


def test_R20_R32_D26_a_hand_card_enters_the_stock_face_up_and_is_trashed_after_use():
    st = _support(hands=(["GAIN"], []), stock=(["MEMO", None, "MEMO"], []), master=None)
    do(st, "SUPPORT", A.HAND[0])
    assert st.hp[0] == 22 and _slot(st, 0, 1) == ("GAIN", True)  # the lowest empty slot (D45)
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.stock[0][1] is None and st.trash[0] == ["GAIN"]  # AFTER_USE: trashed at A11


def test_R32_a_stock_card_is_turned_face_up_and_used():
    st = _support(stock=(["MEMO", "POW"], []), master=None)
    assert st.legal_actions() == [A.PASS, A.STOCK[1]]  # Memo (TRIGGER NEGATE) has nothing to act on
    do(st, "SUPPORT", A.STOCK[1])
    assert _slot(st, 0, 1) == ("POW", True) and st.hp[0] == 19 and fx.power(st, 2) == 70


def test_R32_D24_one_action_effect_per_action_but_several_triggers():
    st = _support(hands=(["GAIN"], []), stock=(["TRIG", "TRIG", "POW"], []), master=None)
    assert st.legal_actions() == [A.PASS, A.HAND[0], A.STOCK[0], A.STOCK[1], A.STOCK[2]]
    do(st, "SUPPORT", A.STOCK[0])
    do(st, "SUPPORT", A.STOCK[2])  # the one ACTION effect
    assert st.legal_actions() == [A.PASS, A.STOCK[1]]  # no second ACTION; the other TRIGGER stays usable
    do(st, "SUPPORT", A.STOCK[1])
    assert st.legal_actions() == [A.PASS]
    assert st.hp[0] == 20 + 1 - 1 + 1


def test_R32_two_usable_effects_ask_effect_choice():
    st = _support(hands=(["DUO"], []), master=None)
    do(st, "SUPPORT", A.HAND[0])
    assert st.decision == "EFFECT_CHOICE" and st.legal_actions() == [A.EFFECT[0], A.EFFECT[1]]
    do(st, "EFFECT_CHOICE", A.EFFECT[1])  # DAMAGE 1 to the opponent
    assert st.hp == [20, 19]


def test_R38_D24_the_defender_uses_one_defence_effect_and_any_triggers():
    st = _defence(hands=([], ["WALL", "MIX"]), stock=([], ["TRIG"]), master=None)
    assert st.legal_actions() == [A.PASS, A.HAND[0], A.HAND[1], A.STOCK[0]]
    assert not any(a.kind == A.Kind.SET for a in st.legal_actions())
    do(st, "DEFENCE", A.HAND[0])  # Wall, cost 2
    assert st.hp[1] == 18 and fx.armor(st, 12) == 110
    assert st.legal_actions() == [A.PASS, A.STOCK[0]]  # Mix's DEFENCE effect is masked now
    do(st, "DEFENCE", A.STOCK[0])
    assert st.hp[1] == 19 and st.legal_actions() == [A.PASS]


def test_D23_action_cards_are_not_usable_in_the_defence_window():
    st = _defence(hands=([], ["POW", "GAIN"]), stock=([], ["POW"]), master=None)
    assert st.legal_actions() == [A.PASS]


# ----------------------------------------------------------------------------- full stock (D25)
def test_D25_a_face_up_card_in_effect_may_be_trashed_for_room_and_its_effect_ends():
    st = _action_start(
        units={2: "BRUTE", 12: "ASH"},
        hands=(["WALL"], []),
        stock=(["RALLY", "MEMO", "MEMO"], []),
        master=None,
    )
    passes(st, "ACTION_START", "MOVE_BEFORE")
    assert st.legal_actions() == [A.PASS, A.STOCK[0]]
    do(st, "SUPPORT", A.STOCK[0])  # Rally: +10 power to P0's melee Medarots until the end phase
    assert fx.power(st, 2) == 60
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert fx.acting_card(st) == "ASH" and fx.power(st, 2) == 60
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[2])
    do(st, "DEFENCE", A.HAND[0], player=0)  # Wall from hand into a full stock
    assert st.decision == "STOCK_TRASH" and st.legal_actions() == [A.STOCK[0], A.STOCK[1], A.STOCK[2]]
    do(st, "STOCK_TRASH", A.STOCK[0])
    assert st.trash[0] == ["RALLY"] and fx.power(st, 2) == 50  # Rally's effect ended at once
    assert _slot(st, 0, 0) == ("WALL", True) and fx.armor(st, 2) == 70


# ----------------------------------------------------------------------------- costs (D3, D27, D28, R55)
def test_D3_beginner_ignores_medaroter_costs_but_not_other_payments():
    st = _support("beginner", hands=(["POW"], []), hp=(0, 10))
    assert A.HAND[0] in st.legal_actions()
    do(st, "SUPPORT", A.HAND[0])
    assert st.hp[0] == 0 and fx.power(st, 2) == 70
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.done and st.winner == 1  # the movement penalty is still due, and HP 0 cannot pay it


def test_D27_an_unaffordable_medaroter_is_masked():
    st = _support(hands=(["POW", "GAIN"], []), hp=(0, 20), master=None)
    assert st.legal_actions() == [A.PASS, A.HAND[1]]  # Pow costs 1; Gain costs 0


def test_R55_D28_medaforce_pays_part_of_a_medaroter_cost():
    st = _support("advance", hands=(["MIX"], []), hp=(1, 20), reserve=(["SLOW", "ASH"], []), master=None)
    assert A.HAND[0] in st.legal_actions()  # HP 1 + reserve 2 covers cost 3
    do(st, "SUPPORT", A.HAND[0])
    assert st.decision == "PAY_SPLIT" and st.legal_actions() == [A.MEDAFORCE[2]]  # 3 - k <= HP 1
    do(st, "PAY_SPLIT", A.MEDAFORCE[2])
    assert st.reserve[0] == [] and st.trash[0] == ["ASH", "SLOW"]
    assert st.hp[0] == 0 + 3  # paid 1 HP, then GAIN_HP 3


def test_R55_D28_medaforce_is_optional_when_hp_covers_the_cost():
    st = _support("advance", hands=(["POW"], []), reserve=(["SLOW"], []), master=None)
    do(st, "SUPPORT", A.HAND[0])
    assert st.legal_actions() == [A.MEDAFORCE[0], A.MEDAFORCE[1]]
    do(st, "PAY_SPLIT", A.MEDAFORCE[0])
    assert st.hp[0] == 19 and st.reserve[0] == ["SLOW"]


def test_R55_D28_medaforce_never_pays_the_penalty():
    st = _action_start("advance", hp=(0, 20), reserve=(["SLOW"] * 3, []))
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.done and st.winner == 1 and st.reserve[0] == ["SLOW"] * 3


# ----------------------------------------------------------------------------- card life (D26, D45)
def test_D26_an_after_use_modifier_affects_only_the_acting_medarot_for_this_action():
    st = _support(units={2: "BRUTE", 0: "COG", 12: "TANK"}, hands=(["POW"], []), master=None)
    do(st, "SUPPORT", A.HAND[0])
    assert fx.power(st, 2) == 70 and fx.power(st, 0) == 20
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert fx.power(st, 2) == 50 and st.trash[0] == ["POW"]


def test_D26_D45_an_end_of_turn_modifier_covers_every_matching_medarot_even_placed_later():
    units = {2: "BRUTE", 0: {"card": "COG", "acted": False}, 1: "ASH", 12: "SLOW"}
    st = _support(
        units=units, stock=(["RALLY"], []), hands=(["JADE"], []), master=None, decks=(["MEMO"], ["MEMO"])
    )
    do(st, "SUPPORT", A.STOCK[0])
    assert (fx.power(st, 2), fx.power(st, 0), fx.power(st, 1)) == (60, 30, 30)  # Ash is SHOOTING: +0
    assert fx.power(st, 12) == 10  # only the user's Medarots
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    run_until(st, lambda s: s.act is not None and fx.acting_card(s) == "COG")
    do(st, "ACTION_START", A.SUBSTITUTE)
    do(st, "SUB_CARD", A.HAND[0])  # Jade (MELEE) placed on 0 after Rally was used
    assert fx.power(st, 0) == 30
    run_until(st, at("OPT_DRAW"))  # E2: Rally is trashed and its effect ends
    assert st.trash[0] == ["COG", "RALLY"] and fx.power(st, 2) == 50 and fx.power(st, 0) == 20


def test_D45_a_stored_negate_charge_is_spent_without_counting_as_the_defence_use():
    units = {10: "KITE", 2: "ASH", 12: "TANK"}
    st = make_state("normal", units=units, hands=([], ["WALL"]), stock=([], ["NEGA"]), master=None)
    assert fx.acting_card(st) == "KITE"
    passes(st, "ACTION_START", "MOVE_BEFORE")
    do(st, "SUPPORT", A.STOCK[0])  # ACTION NEGATE: one charge stored on the face-up card
    assert _slot(st, 1, 0) == ("NEGA", True) and st.stock[1][0].charge == 1
    fx.finish_action(st)
    assert fx.acting_card(st) == "ASH"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.legal_actions() == [A.PASS, A.HAND[0], A.STOCK[0]]
    do(st, "DEFENCE", A.HAND[0])  # the one DEFENCE use of this attack
    assert A.STOCK[0] in st.legal_actions()  # the charge is still available
    do(st, "DEFENCE", A.STOCK[0])
    assert st.act.negated and st.stock[1][0].charge == 0
    assert st.decision == "MOVE_AFTER" and st.hand[1] == []
    assert _slot(st, 1, 0) == ("NEGA", True)  # END_OF_TURN: stays until the end phase


def test_D45_cleanup_trashes_an_after_defence_card_used_in_an_action_without_attack():
    st = _support(stock=(["TRIGD"], []), master=None)
    do(st, "SUPPORT", A.STOCK[0])
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.stock[0][0] is None and st.trash[0] == ["TRIGD"]


# ----------------------------------------------------------------------------- master (R17, D36)
def test_R17_D36_master_defence_once_per_turn_and_it_never_leaves_the_slot():
    units = {2: "ASH", 12: "TANK", 14: "SLOW"}
    st = _defence(units=units, master=(None, "MIX"), hands=([], ["MEMO"] * 5), decks=(["MEMO"], ["MEMO"]))
    assert A.MASTER in st.legal_actions()
    do(st, "DEFENCE", A.MASTER)  # DEFENCE MOD_ARMOR +10, cost 1
    assert st.hp[1] == 19 and fx.armor(st, 12) == 100 and st.master_used[1]
    do(st, "DEFENCE", A.PASS)
    for _ in range(3):
        do(st, "WEAK_DISCARD", A.HAND[0])
    assert st.master[1].card == "MIX" and st.trash[1] == ["MEMO"] * 3  # not trashed
    assert fx.armor(st, 12) == 90
    run_until(st, at("SUPPORT", 1))
    assert A.MASTER not in st.legal_actions()  # used this turn (its ACTION effect is affordable)
    run_until(st, lambda s: s.turn == 2 and s.decision == "SUPPORT" and s.current_player == 1)
    assert A.MASTER in st.legal_actions() and st.master[1].card == "MIX"


def test_D45_a_negate_charge_on_the_master_is_spent_with_master():
    st = make_state(
        "normal",
        units={10: "W", 2: "SNIPE", 12: "SLOW"},
        master=(None, "NEGA"),
        decks=(["MEMO"] * 2, ["MEMO"] * 2),
    )
    passes(st, "ACTION_START", "MOVE_BEFORE")
    do(st, "SUPPORT", A.MASTER)
    assert st.master[1].charge == 1 and st.master_used[1]
    fx.finish_action(st)
    assert fx.acting_card(st) == "SNIPE"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.legal_actions() == [A.PASS, A.MASTER]  # used this turn, but its stored charge is spendable
    do(st, "DEFENCE", A.MASTER)
    assert st.act.negated and st.master[1].charge == 0 and fx.stack(st, 12).base == "SLOW"
    run_until(st, at("OPT_DRAW"))
    assert st.master[1].card == "NEGA"

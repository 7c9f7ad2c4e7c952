"""Substitution and MedaChange (spec 2.7, 3.3): R46-R53, D18, D19."""

from __future__ import annotations

import pytest

from deckgym.envs.medarot_ocg import actions as A
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state, run_until, at = fx.do, fx.passes, fx.make_state, fx.run_until, fx.at
F, FR, R, BR, B, BL, L, FL = range(8)


# ----------------------------------------------------------------------------- substitution
@pytest.mark.parametrize("mode", ["normal", "advance"])
def test_R46_D19_substitution_replaces_the_action_in_the_same_square_for_free(mode):
    st = make_state(mode, units={2: "BRUTE", 12: "SLOW"}, hands=(["QUILL", "MEMO", "JADE"], []), start=2)
    assert A.SUBSTITUTE in st.legal_actions()
    do(st, "ACTION_START", A.SUBSTITUTE)
    assert st.legal_actions() == [A.HAND[0], A.HAND[2]]  # Medarot cards only
    do(st, "SUB_CARD", A.HAND[2])
    new = fx.stack(st, 2)  # own row: same square, no SUB_SQUARE
    assert new.base == "JADE" and not new.face_up and new.placed
    assert st.trash[0] == ["BRUTE"] and st.reserve[0] == []  # never to the reserve
    assert st.hp[0] == 20 and fx.acting_card(st) == "SLOW"  # no move, no attack, no penalty
    assert st.hand[0] == ["QUILL", "MEMO"]


def test_D19_substitution_needs_a_medarot_card_in_hand():
    st = make_state("normal", units={2: "BRUTE", 12: "SLOW"}, hands=(["MEMO"], []), start=2)
    assert st.legal_actions() == [A.PASS, A.SET[0]]


def test_D19_the_substitute_counts_as_placed_this_turn():
    st = make_state(
        "normal", units={2: "BRUTE", 12: "SLOW"}, hands=(["KITE"], []), decks=(["MEMO"], ["MEMO"])
    )
    do(st, "ACTION_START", A.SUBSTITUTE)
    do(st, "SUB_CARD", A.HAND[0])
    assert fx.action_order(st, 1) == ["SLOW"]  # Kite (speed 7) does not act this turn
    assert st.turn == 2 and fx.stack(st, 2).face_up


# ----------------------------------------------------------------------------- MedaChange
def test_R47_D18_medachange_with_a_same_name_card_is_free_and_once_per_action():
    st = make_state("advance", units={7: ("COG", 0), 12: "TANK"}, hands=(["MC_EDGE", "MC_COG"], []), start=7)
    assert st.legal_actions() == [A.PASS, A.HAND[1]]  # only the card named Cog
    do(st, "ACTION_START", A.HAND[1])
    x = fx.stack(st, 7)
    assert x.base == "COG" and x.change == "MC_COG" and st.hand[0] == ["MC_EDGE"]
    assert st.legal_actions() == [A.PASS]  # no second change, no release in the same action
    do(st, "ACTION_START", A.PASS)
    assert st.hp[0] == 20  # not a power form: free


def test_R47_medachange_is_advance_only():
    st = make_state("normal", units={7: ("COG", 0), 12: "TANK"}, hands=(["MC_COG"], []), start=7)
    assert st.legal_actions() == [A.PASS]


def test_R47_D18_release_sends_the_medachange_card_to_the_trash():
    st = make_state(
        "advance",
        units={7: {"card": "COG", "owner": 0, "change": "MC_COG"}, 12: "TANK"},
        hands=(["MC_COG"], []),
        start=7,
    )
    assert st.legal_actions() == [A.PASS, A.RELEASE]  # at most one MedaChange card per Medarot
    do(st, "ACTION_START", A.RELEASE)
    x = fx.stack(st, 7)
    assert x.change is None and st.trash[0] == ["MC_COG"] and fx.power(st, 7) == 20
    assert st.legal_actions() == [A.PASS]


def test_R51_D15_the_top_card_values_are_used_and_earlier_effects_stay():
    st = make_state("advance", units={2: "RUNE", 7: ("COG", 0), 12: "TANK"}, hands=(["MC_COG"], []))
    assert fx.acting_card(st) == "RUNE"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SPECIAL)  # +20 armor to all of P0's Medarots, Cog included
    fx.finish_action(st)
    assert fx.acting_card(st) == "COG" and fx.armor(st, 7) == 40
    do(st, "ACTION_START", A.HAND[0])
    assert (fx.power(st, 7), fx.armor(st, 7), fx.speed(st, 7)) == (40, 30 + 20, 7)
    do(st, "ACTION_START", A.PASS)
    passes(st, "MOVE_BEFORE", "SUPPORT")
    assert st.legal_actions() == [A.PASS]  # now a SHOOTING Medarot: 2 ahead of 7 is off the board


def test_R49_D17_the_one_move_uses_the_changed_form():
    st = make_state("advance", units={7: ("EDGE", 0), 12: "TANK"}, hands=(["MC_EDGE"], []), start=7)
    do(st, "ACTION_START", A.HAND[0])
    do(st, "ACTION_START", A.PASS)
    assert [a.arg for a in st.legal_actions() if a.kind == A.Kind.MOVE] == [R, BR, B, BL, L]  # 8 arrows
    do(st, "MOVE_BEFORE", A.MOVE[BL])
    assert fx.stack(st, 1).change == "MC_EDGE"


def test_R48_D18_a_power_form_costs_1_hp_in_every_action():
    st = make_state(
        "advance",
        units={7: ("EDGE", 0), 12: "SLOW", 10: "SLOW"},
        hands=(["MC_EDGE"], []),
        decks=(["MEMO"] * 3, ["MEMO"] * 3),
        start=7,
    )
    do(st, "ACTION_START", A.HAND[0])
    assert st.hp[0] == 20
    do(st, "ACTION_START", A.PASS)  # leaving A3 in power form
    assert st.hp[0] == 19
    do(st, "MOVE_BEFORE", A.MOVE[L])
    run_until(st, lambda s: s.turn == 2 and s.decision == "ACTION_START")
    assert fx.acting_card(st) == "MC_EDGE" and st.hp[0] == 20  # +1 at E3: it stood in the neutral row
    do(st, "ACTION_START", A.PASS)
    assert st.hp[0] == 19


def test_D18_power_form_options_are_masked_at_hp_0():
    st = make_state(
        "advance", units={7: ("EDGE", 0), 12: "TANK"}, hands=(["MC_EDGE"], []), hp=(0, 20), start=7
    )
    assert st.legal_actions() == [A.PASS]  # the power-form change would cost 1
    st = make_state(
        "advance",
        units={7: {"card": "EDGE", "owner": 0, "change": "MC_EDGE"}, 12: "TANK"},
        hp=(0, 20),
        start=7,
    )
    assert st.legal_actions() == [A.RELEASE]  # keeping the form is masked; release is legal
    do(st, "ACTION_START", A.RELEASE)
    do(st, "ACTION_START", A.PASS)
    assert st.hp[0] == 0 and st.decision == "MOVE_BEFORE"


def test_R50_substituting_a_transformed_medarot_trashes_all_its_cards():
    st = make_state(
        "advance", units={2: {"card": "EDGE", "change": "MC_EDGE"}, 12: "TANK"}, hands=(["JADE"], []), start=2
    )
    do(st, "ACTION_START", A.SUBSTITUTE)
    do(st, "SUB_CARD", A.HAND[0])
    assert st.trash[0] == ["EDGE", "MC_EDGE"] and st.reserve[0] == [] and st.hp[0] == 20
    assert fx.stack(st, 2).base == "JADE" and fx.stack(st, 2).change is None


def test_R52_R53_R54_a_destroyed_transformed_medarot_pays_both_costs_and_both_cards_go_to_the_reserve():
    st = make_state(
        "advance", units={2: "SNIPE", 12: {"card": "EDGE", "change": "MC_EDGE"}, 10: "SLOW"}, start=2
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.hp[1] == 20 - (2 + 2)
    assert st.reserve[1] == ["EDGE", "MC_EDGE"]  # the cards are treated separately


def test_R53_a_weak_destroyed_transformed_medarot_pays_2():
    st = make_state(
        "advance", units={2: "QUILL", 12: {"card": "COG", "change": "MC_COG"}, 10: "SLOW"}, start=2
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])  # 20 < 30 with an empty hand: weak destroy
    do(st, "DEFENCE", A.PASS)
    assert st.hp[1] == 18 and st.reserve[1] == ["COG", "MC_COG"]

"""Rule details that the other OCG rule tests left open (found by mutation testing).

Items: P12 (TRASH_STOCK may take slot 0), D23/D24 (which effects of a two-effect card a window
offers), L5 (the step cap), D20 (a disabled action is recorded as such), P6/P9 (a player effect
belongs to its user), P8/D27 (a DAMAGE payment is logged as such), P5 (a GUARD log line has no
amount), AMALOGS D21 (a vacant seat 1 meets no loss condition), R41/D29 (the weak-attack log names
a whole number of cards).
"""

from __future__ import annotations

from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.render import render_text
from deckgym.envs.medarot_ocg.state import Eff
from deckgym.envs.medarot_ocg.view import view
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state = fx.do, fx.passes, fx.make_state

# Two-effect Medaroters whose first effect never fits the support window but the second does.
TRIG_FIRST = fx._roter(
    "TRIGACT",
    "Trig Act",
    0,
    fx._card("TRIGGER", "GAIN_HP", "OWNER", 1),
    fx._card("ACTION", "GAIN_HP", "OWNER", 2),
)
DEF_FIRST = fx._roter(
    "DEFACT",
    "Def Act",
    0,
    fx._card("DEFENCE", "MOD_ARMOR", "ATTACKED", 10, trash="AFTER_DEFENCE"),
    fx._card("ACTION", "GAIN_HP", "OWNER", 2),
)
EXTRA = fx.pool_toml([*fx.TEST_CARDS, TRIG_FIRST, DEF_FIRST])


def _support(units=None, **kw):  # type: ignore[no-untyped-def]
    st = make_state("normal", units=units or {2: "BRUTE", 12: "TANK"}, start=2, master=None, **kw)
    passes(st, "ACTION_START", "MOVE_BEFORE")
    assert st.decision == "SUPPORT"
    return st


def _special(units, **kw):  # type: ignore[no-untyped-def]
    st = make_state("normal", units=units, start=0, master=None, **kw)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SPECIAL)
    return st


# ----------------------------------------------------------------------------- P12
def test_P12_trash_stock_can_trash_the_card_in_the_opponents_slot_0():
    st = _support(hands=(["BREAK"], []), stock=([], ["WALL", None, None]))
    do(st, "SUPPORT", A.HAND[0])
    assert st.decision == "EFFECT_TARGET" and st.legal_actions() == [A.OPP_STOCK[0]]
    do(st, "EFFECT_TARGET", A.OPP_STOCK[0])
    assert st.stock[1][0] is None and st.trash[1] == ["WALL"]


# ----------------------------------------------------------------------------- D23, D24
def test_D23_a_trigger_first_card_in_hand_offers_its_action_effect_in_the_support_window():
    # 【発動】 is never usable from the hand, but the card's second (【行動】) effect is.
    st = _support(hands=(["TRIGACT"], []), cards=EXTRA)
    assert A.HAND[0] in st.legal_actions()
    do(st, "SUPPORT", A.HAND[0])
    assert st.hp[0] == 22  # the ACTION effect (GAIN_HP 2), no EFFECT_CHOICE


def test_D23_a_defence_first_card_offers_its_action_effect_in_the_support_window():
    st = _support(hands=(["DEFACT"], []), cards=EXTRA)
    assert A.HAND[0] in st.legal_actions()
    do(st, "SUPPORT", A.HAND[0])
    assert st.hp[0] == 22


def test_D23_an_action_first_card_offers_its_defence_effect_in_the_defence_window():
    # Mix: ACTION GAIN_HP 3 (cost 3), then DEFENCE MOD_ARMOR +10 (cost 1).
    st = make_state("normal", units={2: "QUILL", 12: "SLOW"}, hands=([], ["MIX"]), start=2, master=None)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.decision == "DEFENCE" and A.HAND[0] in st.legal_actions()
    do(st, "DEFENCE", A.HAND[0])
    assert fx.armor(st, 12) == 20 and st.hp[1] == 19


# ----------------------------------------------------------------------------- L5
def test_L5_the_step_cap_truncates_the_game():
    st = make_state("normal", units={2: "BRUTE", 12: "TANK"}, start=2, master=None, max_steps=2)
    do(st, "ACTION_START", A.PASS)
    assert not st.done
    do(st, "MOVE_BEFORE", A.PASS)
    assert st.done and st.truncated and st.winner == -1
    assert st.reason == "step cap 2" and st.legal_actions() == []


# ----------------------------------------------------------------------------- D20
def test_D20_a_disabled_action_is_recorded_as_disabled_when_its_penalty_ends_the_game():
    # Ash is disabled by P1's Hex; P0 has 0 HP, so the movement penalty of the skipped action loses.
    st = make_state("normal", units={2: "ASH", 12: "HEX"}, hp=(0, 20), start=None, master=None)
    hex_uid = fx.stack(st, 12).uid
    st.effects.append(Eff("DISABLE", 0, "ANY", 1, hex_uid, -1, [fx.stack(st, 2).uid], -1, ""))
    fx.stack(st, 12).acted = True
    st.agenda = [["select"]]
    fx.flow.run(st)
    assert st.done and st.winner == 1
    assert st.act is not None and st.act.disabled is True
    assert "it is disabled and cannot act" in st.events
    assert st.to_dict()["act"] == st.act.to_list()
    assert type(st).from_dict(st.to_dict()).act.disabled is True  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- P6, P9
def test_P6_P9_a_player_effect_is_owned_by_its_user():
    st = _support(hands=(["SPIKE", "POISON"], []))
    do(st, "SUPPORT", A.HAND[0])
    (e,) = st.effects
    assert (e.op, e.owner, e.scope) == ("TRAP", 0, 0)
    assert (
        view(st, 0)["board"]["effects"][0]["owner"] == 0 and view(st, 1)["board"]["effects"][0]["owner"] == 0
    )
    assert "(by P0, from P0 stock[0] Spike)" in render_text(st, 0)
    st = make_state("normal", units={2: "BRUTE", 12: "TANK"}, hands=([], ["POISON"]), start=12, master=None)
    passes(st, "ACTION_START", "MOVE_BEFORE")
    do(st, "SUPPORT", A.HAND[0])
    (e,) = st.effects
    assert (e.op, e.owner, e.scope) == ("DOT", 1, 1)
    assert view(st, 0)["board"]["effects"][0]["owner"] == 1


# ----------------------------------------------------------------------------- P8, D27
def test_P8_D27_a_damage_effect_is_logged_as_a_damage_payment():
    st = _support(hands=(["HURT"], []))
    do(st, "SUPPORT", A.HAND[0])
    assert st.hp[1] == 18
    assert "P1 pays 2 HP for an effect's damage (HP 18)" in st.events


# ----------------------------------------------------------------------------- P5
def test_P5_a_guard_is_logged_without_an_amount():
    st = _special({0: "SENTRY", 12: "ASH"})
    assert "P0's effect: Sentry (square 0) guards the Medarots next to it" in st.events
    assert not any("guards +" in line for line in st.events)


def test_P1_a_modifier_is_logged_with_its_signed_amount():
    st = _support(hands=(["POW"], []))
    do(st, "SUPPORT", A.HAND[0])
    assert "P0's effect: Brute (square 2) gets +20 power" in st.events


# ----------------------------------------------------------------------------- AMALOGS D21
def test_D21_a_vacant_seat_1_meets_no_loss_condition_at_the_start_phase():
    # Seat 1 has no Medarot, no deck and no cards: at a vacant seat that is no loss (AMALOGS D21).
    st = make_state(
        "normal",
        units={2: "ASH"},
        decks=(["MEMO"] * 3, []),
        start="start_phase",
        master=None,
        vacant_seat=True,
    )
    fx.run_until(st, fx.at("ACTION_START"))
    assert not st.done and fx.acting_card(st) == "ASH"
    # the same position without a vacant seat: P1 has no Medarot on the board (L3) and loses
    st = make_state("normal", units={2: "ASH"}, decks=(["MEMO"] * 3, []), start="start_phase", master=None)
    fx.run_until(st, fx.at("ACTION_START"))
    assert st.done and st.winner == 0


# ----------------------------------------------------------------------------- R41, D29
def test_R41_D29_the_weak_attack_log_names_a_whole_number_of_cards():
    # Fort (power 30) vs Tank (armor 90), hand 4 > 3: P1 discards 3.
    st = make_state(
        "normal",
        units={2: "FORT", 12: "TANK"},
        hands=([], ["MEMO", "PLUS", "GAIN", "HURT"]),
        start=2,
        master=None,
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "WEAK_DISCARD"
    assert "weak attack: P1 discards 3" in st.events

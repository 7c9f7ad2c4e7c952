"""The effect primitives P1-P16 of spec 4.4 and the lasting-effect rules R37, D20, D32, D37, D46, D47."""

from __future__ import annotations

from deckgym.envs.medarot_ocg import actions as A
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state, run_until, at = fx.do, fx.passes, fx.make_state, fx.run_until, fx.at
F, FR, R, BR, B, BL, L, FL = range(8)


def _support(mode="normal", square=2, units=None, master=None, **kw):  # type: ignore[no-untyped-def]
    st = make_state(mode, units=units or {2: "BRUTE", 12: "TANK"}, start=square, master=master, **kw)
    passes(st, "ACTION_START", "MOVE_BEFORE")
    assert st.decision == "SUPPORT"
    return st


def _special(mode="normal", units=None, square=0, **kw):  # type: ignore[no-untyped-def]
    st = make_state(mode, units=units, start=square, master=None, **kw)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    assert A.SPECIAL in st.legal_actions()
    do(st, "DECLARE", A.SPECIAL)
    return st


# ----------------------------------------------------------------------------- modifiers P1-P3
def test_P1_mod_power_adds_to_the_effective_power_with_its_type_filter():
    st = _support(units={2: "BRUTE", 1: "ASH", 0: "COG", 12: "TANK"}, hands=(["POW", "RALLY"], []))
    do(st, "SUPPORT", A.HAND[0])
    assert fx.power(st, 2) == 70 and fx.power(st, 0) == 20  # ACTING only
    st = _support(units={2: "BRUTE", 1: "ASH", 0: "COG", 12: "TANK"}, hands=(["RALLY"], []))
    do(st, "SUPPORT", A.HAND[0])
    assert (fx.power(st, 2), fx.power(st, 1), fx.power(st, 0)) == (60, 30, 30)  # MELEE filter


def test_P1_a_negative_modifier_floors_power_at_0():
    st = make_state("normal", units={2: "QUILL", 12: "TANK"}, hands=([], ["WEAKEN"]), start=2, master=None)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.HAND[0])
    assert fx.power(st, 2) == 0  # 20 - 20


def test_P2_mod_armor_is_the_barrier():
    st = make_state(
        "normal", units={2: "SNIPE", 12: "SLOW"}, hands=([], ["WALL"] + ["MEMO"] * 9), start=2, master=None
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.HAND[0])
    assert fx.armor(st, 12) == 30
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "DESTROY_DRAW"  # 90 >= 30 still destroys
    st = make_state(
        "normal", units={2: "QUILL", 12: "SLOW"}, hands=([], ["WALL"] + ["MEMO"] * 4), start=2, master=None
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.HAND[0])
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "WEAK_DISCARD" and fx.stack(st, 12).base == "SLOW"  # 20 < 10 + 20


def test_P3_mod_speed_changes_later_selections_D47_one_ally_may_choose_the_source():
    st = _special(units={0: "HASTE", 1: "COG", 12: "ASH"})
    assert st.decision == "EFFECT_TARGET" and st.legal_actions() == [A.SQUARE[0], A.SQUARE[1]]
    do(st, "EFFECT_TARGET", A.SQUARE[1])
    assert fx.speed(st, 1) == 7 and fx.speed(st, 0) == 9
    fx.finish_action(st)
    assert fx.action_order(st, 2) == ["COG", "ASH"]  # Cog (4 + 3) now acts before Ash (5)


def test_P3_mod_speed_on_the_source_itself():
    st = _special(units={0: "HASTE", 1: "COG", 12: "ASH"})
    do(st, "EFFECT_TARGET", A.SQUARE[0])
    assert fx.speed(st, 0) == 12 and fx.speed(st, 1) == 4  # no effect on the order: it already acted


# ----------------------------------------------------------------------------- NEGATE, GUARD, TRAP (P4-P6)
def _trap_then_attack(attacker: str, target: dict, p1_hand: list[str]):  # type: ignore[no-untyped-def]
    """P1's Kite uses Spike (TRAP 2); then P0's ``attacker`` on square 2 attacks P1's square 12."""
    st = make_state(
        "normal",
        units={10: "KITE", 2: attacker, 12: target},
        hands=([], p1_hand),
        stock=([], ["SPIKE"]),
        master=None,
    )
    assert fx.acting_card(st) == "KITE"
    passes(st, "ACTION_START", "MOVE_BEFORE")
    do(st, "SUPPORT", A.STOCK[0])
    fx.finish_action(st)
    assert fx.acting_card(st) == attacker
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    return st


def test_P6_D32_trap_the_attackers_owner_pays_after_the_judgement():
    st = _trap_then_attack("LEECH", {"card": "TANK"}, ["MEMO"] * 3)
    do(st, "DEFENCE", A.PASS)
    do(st, "WEAK_DISCARD", A.HAND[0])  # Leech 10 vs 90: need 1
    assert st.hp[0] == 20 - 2 + 1  # ON_HIT GAIN_HP 1, then the TRAP's 2
    assert st.decision == "MOVE_AFTER"


def test_P4_D46_negate_no_judgement_no_reveal_no_on_hit_no_trap():
    st = _trap_then_attack("LEECH", {"card": "TANK", "face_up": False, "placed": True}, ["NEGD", "MEMO"])
    do(st, "DEFENCE", A.HAND[0])  # DEFENCE NEGATE, cost 1
    assert st.hp[1] == 18  # Kite's penalty (1) and Negate Guard's cost (1)
    assert st.decision == "MOVE_AFTER"  # negated: no more defence, no judgement, no WEAK_DISCARD
    tank = fx.stack(st, 12)
    assert not tank.face_up  # not revealed
    assert st.hp[0] == 20  # no ON_HIT (GAIN_HP), no TRAP payment
    assert st.trash[1] == ["NEGD"] and st.hand[1] == ["MEMO"]  # AFTER_DEFENCE card trashed at A8's end


def test_P4_negate_as_a_trigger_from_the_stock():
    st = make_state("normal", units={2: "SNIPE", 12: "SLOW"}, stock=([], ["NEGT"]), start=2, master=None)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.legal_actions() == [A.PASS, A.STOCK[0]]
    do(st, "DEFENCE", A.STOCK[0])
    assert st.decision == "MOVE_AFTER" and fx.stack(st, 12).base == "SLOW" and st.trash[1] == ["NEGT"]


def test_P4_action_negate_stores_a_charge_spent_later():
    st = make_state(
        "normal",
        units={10: "W", 2: "SNIPE", 12: "SLOW"},
        stock=([], ["NEGA"]),
        master=None,
        decks=(["MEMO"], ["MEMO"]),
    )
    passes(st, "ACTION_START", "MOVE_BEFORE")
    do(st, "SUPPORT", A.STOCK[0])
    assert st.stock[1][0].charge == 1 and not st.effects
    fx.finish_action(st)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.STOCK[0])
    assert st.decision == "MOVE_AFTER" and fx.stack(st, 12).base == "SLOW"
    run_until(st, at("OPT_DRAW"))
    assert st.stock[1][0] is None and st.trash[1] == ["NEGA"]  # END_OF_TURN


def test_P5_D32_D46_guard_takes_one_redirect_without_range_check():
    units = {11: "SENTRY", 12: "TANK", 2: "ASH"}
    st = make_state("normal", units=units, hands=([], ["MEMO"] * 5), master=None)
    assert fx.acting_card(st) == "SENTRY"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SPECIAL)  # GUARD on itself
    fx.finish_action(st)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.legal_actions() == [A.PASS, A.SQUARE[11]]
    do(st, "DEFENCE", A.SQUARE[11])
    assert st.legal_actions() == [A.PASS]  # at most one redirect
    do(st, "DEFENCE", A.PASS)
    # the judgement is on Sentry (armor 90), although 11 is not in Ash's range
    for _ in range(3):
        do(st, "WEAK_DISCARD", A.HAND[0])
    assert fx.stack(st, 11).base == "SENTRY" and fx.stack(st, 12).base == "TANK"


def test_P5_D46_guard_redirect_does_not_refund_the_2_square_payment():
    units = {12: "SENTRY", 13: "SLOW", 3: "HOOK"}
    st = make_state("normal", units=units, master=None)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SPECIAL)
    fx.finish_action(st)
    assert fx.acting_card(st) == "HOOK"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[13])
    assert st.hp[0] == 19
    do(st, "DEFENCE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.hp[0] == 19 and fx.stack(st, 13).base == "SLOW"
    assert st.board[12] is None  # Sentry: weak-destroyed (P1's hand is empty)


def test_P5_guard_only_covers_8_adjacent_allies():
    units = {10: "SENTRY", 12: "TANK", 2: "ASH"}
    st = make_state("normal", units=units, hands=([], ["MEMO"] * 5), master=None)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SPECIAL)
    fx.finish_action(st)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.legal_actions() == [A.PASS]


# ----------------------------------------------------------------------------- player effects P7-P12
def test_P7_gain_hp_has_no_upper_cap():
    st = _support(hands=(["GAIN"], []))
    do(st, "SUPPORT", A.HAND[0])
    assert st.hp[0] == 22


def test_P8_damage_is_a_mandatory_payment():
    st = _support(hands=(["HURT"], []))
    do(st, "SUPPORT", A.HAND[0])
    assert st.hp[1] == 18
    st = _support(hands=(["HURT"], []), hp=(20, 1))
    do(st, "SUPPORT", A.HAND[0])
    assert st.done and st.winner == 0 and st.hp[1] == 1


def test_P8_damage_from_a_special_medarot():
    st = _special(units={0: "DRAIN", 12: "TANK"})
    assert st.hp[1] == 18 and st.decision == "MOVE_AFTER"


def test_P9_R56_dot_the_opponent_pays_at_end_phase_e1():
    st = _support(hands=(["POISON"], []), decks=(["MEMO"], ["MEMO"]))
    do(st, "SUPPORT", A.HAND[0])
    assert st.hp == [20, 20]
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    fx.finish_action(st)  # Tank's action: P1 pays its penalty (1)
    run_until(st, at("OPT_DRAW"))
    assert st.hp == [19, 20 - 1 - 2] and st.trash[0] == ["POISON"]


def test_P9_R56_an_on_hit_dot_lasts_until_its_source_acts_again():
    st = make_state("beginner", units={2: "STING", 12: "TANK"}, decks=(["MEMO"] * 3, ["MEMO"] * 3))
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    do(st, "MOVE_AFTER", A.MOVE[R])
    run_until(st, at("OPT_DRAW"))
    assert st.hp == [10, 10 - 1 - 1]  # Tank's penalty, then DOT 1 at E1
    run_until(st, at("DECLARE"))
    assert fx.acting_card(st) == "STING" and not st.effects  # ended at Sting's A1 in turn 2


def test_P10_draw_the_owner_draws_up_to_amount_then_the_draw_chain():
    st = _support(
        units={2: "BRUTE", 12: "TANK"},
        hands=(["DRAW"], []),
        decks=(["HURT", "MEMO", "JADE"], []),
        master="default",
    )
    do(st, "SUPPORT", A.HAND[0])
    assert st.decision == "EFFECT_DRAW" and st.legal_actions() == [A.COUNT[0], A.COUNT[1], A.COUNT[2]]
    do(st, "EFFECT_DRAW", A.COUNT[2])
    assert st.hand[0] == ["JADE", "MEMO"]
    do(st, "PLACE_CARD", A.HAND[0])  # refill (D10): fewer than 3 on the board
    do(st, "PLACE_SQUARE", A.SQUARE[0])
    do(st, "DRAW_STOCK", A.PASS)
    assert st.decision == "SUPPORT" and st.hand[0] == ["MEMO"] and st.deck[0] == ["HURT"]


def test_P11_discard_the_opponent_chooses_up_to_amount_cards():
    st = _support(hands=(["DISC"], ["MEMO", "PLUS", "GAIN"]))
    do(st, "SUPPORT", A.HAND[0])
    assert st.decision == "EFFECT_DISCARD" and st.current_player == 1
    do(st, "EFFECT_DISCARD", A.HAND[2])
    do(st, "EFFECT_DISCARD", A.HAND[0])
    assert st.hand[1] == ["PLUS"] and st.trash[1] == ["GAIN", "MEMO"] and st.decision == "SUPPORT"
    st = _support(hands=(["DISC"], ["MEMO"]))
    do(st, "SUPPORT", A.HAND[0])
    do(st, "EFFECT_DISCARD", A.HAND[0])
    assert st.hand[1] == [] and st.decision == "SUPPORT"


def test_P12_trash_stock_trashes_a_chosen_opponent_stock_card():
    st = _support(hands=(["BREAK"], []), stock=([], ["WALL", None, "TRIG"]))
    do(st, "SUPPORT", A.HAND[0])
    assert st.decision == "EFFECT_TARGET" and st.legal_actions() == [A.OPP_STOCK[0], A.OPP_STOCK[2]]
    do(st, "EFFECT_TARGET", A.OPP_STOCK[2])
    assert st.trash[1] == ["TRIG"] and st.stock[1][2] is None
    st = _support(hands=(["BREAK"], []))
    assert st.legal_actions() == [A.PASS]  # no target: masked


# ----------------------------------------------------------------------------- statuses P13-P16
def test_P13_D20_R31_disabled_skips_its_action_pays_the_penalty_and_counts_as_acted():
    st = _special(units={0: "HEX", 12: "ASH", 1: "SLOW"}, decks=(["MEMO"], ["MEMO"]))
    assert st.legal_actions() == [A.SQUARE[12]]
    do(st, "EFFECT_TARGET", A.SQUARE[12])
    do(st, "MOVE_AFTER", A.MOVE[F])
    # Ash (speed 5) is skipped without a decision; the next decision is Slowpoke's
    assert fx.acting_card(st) == "SLOW" and fx.stack(st, 12).acted
    assert st.hp[1] == 19


def test_P13_disable_from_a_medaroter_ends_at_the_end_phase():
    st = _support(units={2: "BRUTE", 12: "ASH", 1: "SLOW"}, hands=(["STUN"], []), decks=(["MEMO"], ["MEMO"]))
    do(st, "SUPPORT", A.HAND[0])
    do(st, "EFFECT_TARGET", A.SQUARE[12])
    fx.finish_action(st)
    assert fx.acting_card(st) == "SLOW" and st.hp[1] == 19
    run_until(st, lambda s: s.turn == 2 and s.decision == "ACTION_START")
    assert fx.acting_card(st) == "BRUTE" and not st.effects
    fx.finish_action(st)
    assert fx.acting_card(st) == "ASH"  # acts again in turn 2


def test_P14_root_no_move_before_or_after_and_the_penalty_applies():
    st = _support(units={2: "BRUTE", 12: "ASH"}, hands=(["SNARE"], []))
    do(st, "SUPPORT", A.HAND[0])
    do(st, "EFFECT_TARGET", A.SQUARE[12])
    fx.finish_action(st)
    assert fx.acting_card(st) == "ASH"
    do(st, "ACTION_START", A.PASS)
    assert st.legal_actions() == [A.PASS]  # no MOVE
    passes(st, "MOVE_BEFORE", "SUPPORT", "DECLARE")
    assert st.decision != "MOVE_AFTER" and st.hp[1] == 19


def test_P15_cancel_penalty_waives_the_movement_penalty():
    st = _support(hands=(["REST"], []))
    do(st, "SUPPORT", A.HAND[0])
    passes(st, "SUPPORT", "DECLARE", "MOVE_AFTER")
    assert st.hp[0] == 20


def test_P16_free_far_makes_the_2_square_melee_attack_free():
    st = _support(square=3, units={3: "HOOK", 13: "SLOW", 10: "SLOW"}, hands=(["LEAP"], []), hp=(0, 20))
    assert A.HAND[0] in st.legal_actions()
    do(st, "SUPPORT", A.HAND[0])
    do(st, "SUPPORT", A.PASS)
    assert A.SQUARE[13] in st.legal_actions()  # no longer masked at HP 0
    do(st, "DECLARE", A.SQUARE[13])
    assert st.hp[0] == 0 and st.decision == "DEFENCE"


# ----------------------------------------------------------------------------- durations R37, D37, D47
def test_R37_D37_a_special_effect_ends_when_its_source_leaves_the_board():
    st = make_state(
        "normal", units={2: "RUNE", 1: "SLOW", 12: "SNIPE"}, decks=(["MEMO"], ["MEMO"]), master=None
    )
    assert fx.acting_card(st) == "SNIPE"  # speed 8 first; Rune acts later
    fx.finish_action(st)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SPECIAL)
    assert fx.armor(st, 1) == 30
    fx.finish_action(st)
    fx.finish_action(st)
    run_until(st, lambda s: s.turn == 2 and s.decision == "DECLARE")
    assert fx.acting_card(st) == "SNIPE"
    do(st, "DECLARE", A.SQUARE[2])  # Snipe destroys Rune
    do(st, "DEFENCE", A.PASS)
    do(st, "DESTROY_DRAW", A.COUNT[0])
    assert fx.armor(st, 1) == 10 and st.effects == []


def test_D47_affected_medarots_are_fixed_when_applied():
    st = make_state("normal", units={2: "RUNE", 0: "COG", 12: "SLOW"}, hands=(["JADE"], []), master=None)
    assert fx.acting_card(st) == "RUNE"  # speed tie 4: Rune has more arrows than Cog
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SPECIAL)
    rune, cog = fx.stack(st, 2), fx.stack(st, 0)
    (eff,) = st.effects
    assert sorted(eff.targets) == sorted([rune.uid, cog.uid])  # ALL_ALLIES includes the source
    assert fx.armor(st, 0) == 40
    fx.finish_action(st)
    assert fx.acting_card(st) == "COG"
    do(st, "ACTION_START", A.SUBSTITUTE)
    do(st, "SUB_CARD", A.HAND[0])  # Jade is placed on 0 after the effect was applied
    assert fx.armor(st, 0) == 20 and fx.armor(st, 2) == 50
    assert eff.targets == [rune.uid]  # Cog left the board and lost it

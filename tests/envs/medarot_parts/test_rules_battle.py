"""The battle rules of the seed (R1-R28) and the battle decisions (D18-D28), one test per rule.

Player 0 attacks (A), player 1 defends (B). ``STOP`` in a hand gives that player a real
decision at its next turn-to-act, so a test can look at the position after a battle.
"""

from __future__ import annotations

from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.rules.values import power
from tests.envs.medarot_parts import fixtures as fx
from tests.envs.medarot_parts.fixtures import HEAD, LA, LEGS, RA

STOP = "DRAW2"
HIT5 = ("MA3", "HEAD", "HIT5", "ARM_L", "LEGS5")


def attack(a1=HIT5, b1=fx.PLAIN, b2=fx.PLAIN, slot=RA, **kw):
    kw.setdefault("hands", ((), (STOP,)))
    st = fx.make_state((a1, fx.PLAIN), (b1, b2), **kw)
    fx.do(st, A.USE_PART[slot], DP.ACTION, 0)
    return st


def test_R1_D12_attacking_is_optional_and_two_passes_end_the_action_step():
    st = fx.make_state((HIT5, fx.PLAIN), hands=((), (STOP,)))
    assert A.PASS in st.legal_actions() and A.USE_PART[RA] in st.legal_actions()
    fx.do(st, A.PASS, DP.ACTION, 0)
    assert st.passes == 1 and st.current_player == 1
    fx.do(st, A.PASS, DP.ACTION, 1)
    assert any("P1 passes" in e for e in st.events) and st.round == 2


def test_R2_D18_attack_part_must_be_untapped_not_destroyed_and_of_an_attack_line():
    a1 = ("MA3", "SCOPE", "HIT5", "KIT", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), tapped=[(0, 0, HEAD)], destroyed=[(0, 0, LA)])
    legal = st.legal_actions()
    assert A.USE_PART[RA] in legal and A.USE_PART[HEAD] not in legal and A.USE_PART[LA] not in legal
    st = fx.make_state((("MA3", "GLASS", "HIT5", "GUARD_L", "LEGS5"), fx.PLAIN))
    assert [a for a in st.legal_actions() if a.kind == A.Kind.USE_PART] == [A.USE_PART[RA]]
    st = attack()
    assert fx.part(st, 0, 0, RA).tapped


def test_R3_D18_an_unpayable_charge_cannot_be_declared():
    a1 = ("MA0", "HEAD", "CANNON", "ARM_L", "LEGS5")
    assert A.USE_PART[RA] not in fx.make_state((a1, fx.PLAIN)).legal_actions()
    assert A.USE_PART[RA] in fx.make_state((a1, fx.PLAIN), stocks=(("E_M", "E_D"), ())).legal_actions()


def test_R4_R5_D19_D20_energy_points_matching_substitute_and_medal():
    a1 = ("MA0", "HEAD", "RIFLE", "ARM_L", "LEGS5")  # charge 2 -> 4 EP, shoot energy is efficient
    st = attack(a1, stocks=(("E_M", "E_D", "E_S"), ()))
    fx.do(st, A.ENERGY[1], DP.PAYMENT, 0)
    assert st.pay[2] == 1
    fx.do(st, A.ENERGY[0], DP.PAYMENT, 0)
    assert any("Shooting Energy: 3 of 4 EP paid" in e for e in st.events)
    assert fx.forced(st, "ENERGY(defense)") and st.pay is None and st.battle.damage == 5
    # A surplus is lost: the payment ends as soon as 4 EP are reached.
    st = attack(a1, stocks=(("E_S", "E_S", "E_S"), ()))
    assert fx.untapped(st, 0, "E_S") == 1


def test_R6_D21_power_windows_attacker_then_defender_modifiers_add_up():
    a1 = ("MA3", "HEAD", "HIT3", "ARM_L", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), stocks=(("E_U",), ("E_U", "E_U")), hands=(("POWUP",), ("JAMMER",)))
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert st.decision == "POWER_WINDOW" and st.current_player == 0
    fx.do(st, A.HAND[0], DP.POWER_WINDOW, 0)
    assert power(st, 0, 0, RA) == 5 and st.play[0] == ["POWUP"]
    fx.do(st, A.HAND[0], DP.POWER_WINDOW, 1)
    assert power(st, 0, 0, RA) == 2 and st.battle.damage == 2


def test_R7_R28_damage_0_ends_the_battle_and_taps_the_attacking_legs():
    st = attack(("MA3", "HEAD", "ZERO", "ARM_L", "LEGS5"))
    assert st.battle is None and fx.part(st, 0, 0, LEGS).tapped
    assert not any("defends" in e or "takes" in e for e in st.events)


def test_R28_legs_tapped_after_a_battle_with_damage():
    st = attack()
    fx.do(st, A.PART[LA], DP.ALLOCATE, 1)
    assert fx.part(st, 0, 0, LEGS).tapped and st.battle is None


def test_R8_defending_medarot_is_the_action_medarot_normally():
    st = attack()
    assert st.battle.defender == 0 and st.decision == "ALLOCATE"


def test_R8_a_destroyed_defending_legs_lets_the_attacker_designate():
    st = attack(destroyed=[(1, 0, LEGS)])
    assert st.decision == "DEFENDER_CHOICE" and st.current_player == 0
    fx.do(st, A.MEDAROT[1])
    assert st.battle.defender == 1


def test_R8_b_an_aimed_attack_lets_the_attacker_designate():
    st = attack(("MA3", "SCOPE", "ARM_R", "ARM_L", "LEGS5"), slot=HEAD)
    assert st.decision == "DEFENDER_CHOICE" and st.legal_actions() == [A.MEDAROT[0], A.MEDAROT[1]]


def test_R8_c_no_defending_action_medarot_lets_the_attacker_designate():
    st = attack(am=(0, -1))
    assert st.decision == "DEFENDER_CHOICE"
    # Stopped medarots cannot be designated (D33): only one option, applied by the engine.
    st = attack(am=(0, -1), destroyed=[(1, 0, HEAD)])
    assert fx.forced(st, "DEFENDER_CHOICE: MEDAROT(1)") and st.battle.defender == 1


def test_R9_evade_needs_untapped_intact_legs_an_evade_card_and_no_NO_EVADE():
    st = attack(hands=((), ("EVD", STOP)))
    assert A.EVADE in st.legal_actions()
    st = attack(hands=((), ("EVD", STOP)), tapped=[(1, 0, LEGS)])
    assert A.EVADE not in st.legal_actions()
    st = attack(("MA3", "HEAD", "NEEDLE", "ARM_L", "LEGS5"), hands=((), ("EVD", STOP)))
    fx.do(st, A.MEDAROT[0], DP.DEFENDER_CHOICE, 0)
    assert st.battle.no_evade and A.EVADE not in st.legal_actions()


def test_R10_D24_protect_needs_every_intact_reckless_part_untapped():
    b1 = ("MA3", "GLASS", "ARM_R", "RECK", "LEGS5")
    st = attack(b1=b1)
    assert A.PROTECT[HEAD] in st.legal_actions()
    st = attack(b1=b1, tapped=[(1, 0, LA)])
    assert A.PROTECT[HEAD] not in st.legal_actions()
    st = attack(b1=b1, destroyed=[(1, 0, LA)])
    assert A.PROTECT[HEAD] in st.legal_actions()


def test_R11_D25_protect_amount_is_capped_by_charge_and_energy_and_partial_payment_reduces_by_k():
    b1 = ("MA0", "GLASS", "ARM_R", "ARM_L", "LEGS5")
    st = attack(b1=b1, stocks=((), ("E_D", "E_S")))  # 3 EP: at most 1 charge
    fx.do(st, A.PROTECT[HEAD])
    assert st.legal_actions() == [A.AMOUNT[0], A.AMOUNT[1]]
    st = attack(b1=b1, stocks=((), ("E_D",) * 5))
    fx.do(st, A.PROTECT[HEAD])
    assert st.legal_actions() == [A.AMOUNT[k] for k in range(4)]  # never more than the charge
    fx.do(st, A.AMOUNT[2])
    assert any("reduced by 2 to 3" in e for e in st.events)


def test_R12_R13_R19_block_shock_after_protect_reduces_damage_by_1():
    st = attack(b1=("MA0", "GLASS", "ARM_R", "ARM_L", "LEGS5"))
    fx.do(st, A.PROTECT[HEAD])
    assert fx.forced(st, "PROTECT_AMOUNT: AMOUNT(0)")
    assert fx.part(st, 1, 0, HEAD).counters == 1 and st.battle.damage == 4
    fx.do(st, A.PART[HEAD], DP.ALLOCATE, 1)  # the protect part itself may take the rest
    assert fx.part(st, 1, 0, HEAD).destroyed


def test_R14_R20_D26_block_shock_never_destroys_and_skips_a_part_at_armor_minus_1():
    st = attack(b1=("MA0", "GLASS", "ARM_R", "ARM_L", "LEGS5"), counters={(1, 0, HEAD): 3})
    fx.do(st, A.PROTECT[HEAD])
    head = fx.part(st, 1, 0, HEAD)
    assert head.counters == 3 and not head.destroyed
    assert st.battle.damage == 5  # no counter, no reduction (D26)


def test_R15_no_response_takes_the_damage_unchanged():
    st = attack(b1=("MA0", "GLASS", "ARM_R", "ARM_L", "LEGS5"))
    fx.do(st, A.PASS, DP.RESPONSE, 1)
    assert st.battle.damage == 5 and st.decision == "ALLOCATE"


def test_R16_R17_D27_all_damage_on_one_chosen_intact_part():
    st = attack(destroyed=[(1, 0, LA)])
    assert st.legal_actions() == [A.PART[HEAD], A.PART[RA], A.PART[LEGS]]
    fx.do(st, A.PART[LEGS])
    assert [p.counters for p in st.field[1][0].parts] == [0, 0, 0, 0] and fx.part(st, 1, 0, LEGS).destroyed
    st = attack(("MA3", "HEAD", "HIT3", "ARM_L", "LEGS5"))
    fx.do(st, A.PART[RA])
    assert [p.counters for p in st.field[1][0].parts] == [0, 3, 0, 0]


def test_R18_R22_counters_reaching_armor_destroy_the_part_which_is_processed():
    st = attack(b1=("MA3", "HEAD", "ARM_R", "ARM_L3", "LEGS5"), counters={(1, 0, LA): 2})
    fx.do(st, A.PART[LA])
    arm = fx.part(st, 1, 0, LA)
    assert arm.destroyed and arm.tapped and arm.counters == 0


def test_R21_block_shock_is_not_damage_dealt_for_the_effect_step():
    def protected():
        """A power-2 attack on Glass Ward, which the defender protects."""
        a1 = ("MA3", "HEAD", "SELFFX", "ARM_L", "LEGS5")  # power 2
        b1 = ("MA0", "GLASS", "ARM_R", "ARM_L", "LEGS5")
        st = attack(a1, b1=b1, stocks=((), ("E_D",) * 3), hands=(("EFC",), (STOP,)))
        fx.do(st, A.PROTECT[HEAD])
        return st

    st = protected()
    fx.do(st, A.AMOUNT[0])
    assert fx.part(st, 1, 0, HEAD).counters == 1 and st.decision == "ALLOCATE"
    fx.do(st, A.PART[LEGS])
    assert st.decision == "EFFECT_ATTACH"  # 1 damage dealt after block shock
    st = protected()
    fx.do(st, A.AMOUNT[1])
    assert st.battle is None and st.hand[0] == ["EFC"]  # only block shock: no effect step


def test_R23_R24_effect_function_only_with_an_effect_card_attached_after_damage():
    a1 = ("MA3", "HEAD", "SELFFX", "ARM_L", "LEGS5")
    st = attack(a1, hands=(("EFC",), (STOP,)))
    assert st.battle.damage == 2
    fx.do(st, A.PART[LEGS])
    fx.do(st, A.ATTACH_EFFECT, DP.EFFECT_ATTACH, 0)
    assert fx.part(st, 0, 0, RA).effect == "EFC" and power(st, 0, 0, RA) == 4
    # Without an effect card in hand there is no effect step.
    st = attack(a1)
    fx.do(st, A.PART[LEGS])
    assert st.battle is None and power(st, 0, 0, RA) == 2


def test_R25_effect_card_stays_across_turns_and_leaves_with_an_exchange():
    a1 = ("MA3", "HEAD", "SELFFX", "ARM_L", "LEGS5")
    st = attack(a1, hands=(("EFC", "HIT3"), (STOP,)))
    fx.do(st, A.PART[LEGS])
    fx.do(st, A.ATTACH_EFFECT)
    from tests.envs.medarot_parts.test_worked_examples import next_turn_action_step

    next_turn_action_step(st)
    assert fx.part(st, 0, 0, RA).effect == "EFC" and power(st, 0, 0, RA) == 4
    fx.do(st, A.HAND[0], DP.ACTION, 0)  # exchange the right arm for HIT3
    assert "EFC" in st.trash[0] and "SELFFX" in st.trash[0] and not st.mods and power(st, 0, 0, RA) == 3


def test_R26_D28_effect_binding_follows_the_slot_into_an_exchanged_part():
    a1 = ("MA3", "HEAD", "BLOOM", "ARM_L", "LEGS5")
    st = attack(a1, stocks=(("E_M", "E_M"), ()), hands=(("EFC",), ("HIT4",)), am=(0, 1))
    fx.do(st, A.PART[LEGS], DP.ALLOCATE, 1)
    fx.do(st, A.ATTACH_EFFECT)
    fx.do(st, A.MEDAROT[1], DP.EFFECT_TARGET, 0)
    assert power(st, 1, 1, RA) == 0  # plain right arm 1 - 2, clamped (D39)
    fx.do(st, A.HAND[0], DP.ACTION, 1)  # B exchanges B2's right arm for a power 4 part
    assert fx.part(st, 1, 1, RA).card == "HIT4" and power(st, 1, 1, RA) == 2


def test_R27_D31_medaroter_card_cost_is_paid_in_full_and_instant_cards_are_trashed():
    st = fx.make_state(hands=(("WELD",), (STOP,)), stocks=(("E_S",), ()), counters={(0, 0, HEAD): 1})
    assert fx.forced(st, "P0 ACTION: PASS")  # cost 1 = 2 EP, the shoot card gives 1
    st = fx.make_state(hands=(("WELD",), (STOP,)), stocks=(("E_U",), ()), counters={(0, 1, HEAD): 2})
    fx.do(st, A.HAND[0], DP.ACTION, 0)
    assert fx.forced(st, "ENERGY(support)") and fx.part(st, 0, 1, HEAD).counters == 0
    assert st.trash[0] == ["WELD"] and st.play[0] == []


def test_D22_defense_window_damage_card_can_end_the_battle_without_a_response():
    st = attack(("MA3", "HEAD", "HIT3", "ARM_L", "LEGS5"), hands=((), ("WALL", "EVD", STOP)))
    fx.do(st, A.HAND[2], DP.DEFENSE_WINDOW, 1)
    assert st.battle is None and "EVD" in st.hand[1] and all(p.counters == 0 for p in st.field[1][0].parts)


def test_D23_exactly_one_response():
    st = attack(b1=("MA0", "GLASS", "ARM_R", "GUARD_L", "LEGS5"), hands=((), ("EVD", STOP)))
    assert st.legal_actions() == [A.PASS, A.EVADE, A.PROTECT[HEAD], A.PROTECT[LA]]
    fx.do(st, A.PROTECT[LA])
    assert fx.part(st, 1, 0, LA).counters == 1 and not fx.part(st, 1, 0, HEAD).tapped
    assert st.decision == "ALLOCATE" and "EVD" in st.hand[1]


def test_D10_defender_stays_the_action_medarot_after_its_legs_are_tapped():
    st = attack(tapped=[(1, 0, LEGS)])
    assert st.battle.defender == 0 and st.decision == "ALLOCATE"


def test_D14_an_action_medarot_may_attack_again_with_tapped_legs():
    a1 = ("MA3", "SCOPE", "HIT5", "ARM_L", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), hands=((), (STOP,)))
    fx.do(st, A.USE_PART[RA])
    fx.do(st, A.PART[LA])
    fx.do(st, A.PASS, DP.ACTION, 1)
    assert fx.part(st, 0, 0, LEGS).tapped and A.USE_PART[HEAD] in st.legal_actions()

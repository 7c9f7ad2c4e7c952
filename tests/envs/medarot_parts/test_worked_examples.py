"""The worked examples of spec section 9 (E1-E14), each reproduced step by step.

A listed action is stepped only where its decision offers two or more options; a forced one
(D37) is checked in the event log with ``fx.forced``. Player 0 is A, player 1 is B.
"""

from __future__ import annotations

from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.rules import flow, phases
from deckgym.envs.medarot_parts.rules.values import add_mod, power
from deckgym.envs.medarot_parts.state import UNTIL_CARD
from tests.envs.medarot_parts import fixtures as fx
from tests.envs.medarot_parts.fixtures import HEAD, LA, LEGS, RA

A1_HIT = ("MA3", "HEAD", "HIT5", "ARM_L", "LEGS5")
#: A card that gives B a real decision at its next turn-to-act, so that a test can stop there.
STOP = "DRAW2"


def glass_ward_battle(attack: str = "HIT5", clear_counters: int = 0, head: str = "GLASS"):
    """E1-E5 start: A1 attacks B1, whose head is Glass Ward; B holds 3 defence energy."""
    a1 = ("MA3", "HEAD", attack, "ARM_L", "LEGS5")
    b1 = ("MA0", head, "ARM_R", "ARM_L", "LEGS5")
    st = fx.make_state(
        (a1, fx.PLAIN),
        (b1, fx.PLAIN),
        stocks=((), ("E_D",) * 3),
        hands=((), (STOP,)),
        counters={(1, 0, HEAD): clear_counters},
    )
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert fx.forced(st, "POWER_WINDOW: PASS") and fx.forced(st, "DEFENSE_WINDOW: PASS")
    assert st.decision == "RESPONSE" and st.current_player == 1
    return st


def test_Ex1_E1_protect_paying_0_block_shock_then_4_to_legs():
    st = glass_ward_battle()
    assert st.battle.damage == 5
    fx.do(st, A.PROTECT[HEAD], DP.RESPONSE, 1)
    assert st.legal_actions() == [A.AMOUNT[k] for k in range(4)]
    fx.do(st, A.AMOUNT[0], DP.PROTECT_AMOUNT, 1)
    assert fx.part(st, 1, 0, HEAD).counters == 1 and st.battle.damage == 4
    fx.do(st, A.PART[LEGS], DP.ALLOCATE, 1)
    legs = fx.part(st, 1, 0, LEGS)
    assert legs.counters == 4 and not legs.destroyed
    assert fx.part(st, 1, 0, HEAD).tapped and fx.untapped(st, 1, "E_D") == 3
    assert fx.part(st, 0, 0, LEGS).tapped
    assert any("takes 4 damage" in e for e in st.events)


def test_Ex2_E2_protect_paying_1():
    st = glass_ward_battle()
    fx.do(st, A.PROTECT[HEAD])
    fx.do(st, A.AMOUNT[1])
    assert fx.forced(st, "PAYMENT: PAY_ENERGY") or fx.forced(st, "PAYMENT: ENERGY(defense)")
    assert fx.untapped(st, 1, "E_D") == 2
    assert fx.part(st, 1, 0, HEAD).counters == 1 and st.battle.damage == 3
    fx.do(st, A.PART[LEGS], DP.ALLOCATE, 1)
    assert fx.part(st, 1, 0, LEGS).counters == 3


def test_Ex3_E3_protect_paying_3_full_reduction_no_allocation():
    st = glass_ward_battle()
    fx.do(st, A.PROTECT[HEAD])
    fx.do(st, A.AMOUNT[3])
    assert fx.untapped(st, 1, "E_D") == 0
    assert fx.part(st, 1, 0, HEAD).counters == 1
    assert st.battle is None and all(p.counters == 0 for p in st.field[1][0].parts[1:])
    assert any("reduced by 4 to 1" in e for e in st.events) and any("damage 0" in e for e in st.events)
    assert st.decision == "ACTION" or st.current_player == 1  # the turn-to-act went to B


def test_Ex4_E4_damage_3_paying_3_block_shock_still_happens():
    st = glass_ward_battle("HIT3")
    assert st.battle.damage == 3
    fx.do(st, A.PROTECT[HEAD])
    fx.do(st, A.AMOUNT[3])
    assert fx.part(st, 1, 0, HEAD).counters == 1
    assert all(p.counters == 0 for p in st.field[1][0].parts[1:])


def test_Ex5_E5_remaining_armor_1_no_block_shock():
    st = glass_ward_battle("HIT3", clear_counters=3)
    fx.do(st, A.PROTECT[HEAD])
    fx.do(st, A.AMOUNT[3])
    head = fx.part(st, 1, 0, HEAD)
    assert head.counters == 3 and not head.destroyed and head.tapped
    assert fx.untapped(st, 1, "E_D") == 0
    assert any("block shock: none" in e for e in st.events)
    # A protect part of armor 1 with no counters gives the same outcome.
    st = glass_ward_battle("HIT3", head="GLASS1")
    fx.do(st, A.PROTECT[HEAD])
    fx.do(st, A.AMOUNT[3])
    head = fx.part(st, 1, 0, HEAD)
    assert head.counters == 0 and not head.destroyed and head.tapped


def test_Ex6_E6_destruction_processing():
    b1 = ("MA3", "HEAD", "ARM_R", "ARM_L3", "LEGS5")
    a1 = ("MA3", "HEAD", "HIT4", "ARM_L", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), (b1, fx.PLAIN), counters={(1, 0, LA): 2}, hands=((), ("EVD",)))
    arm = fx.part(st, 1, 0, LA)
    arm.attached.append("BOLT")
    add_mod(st, 0, 1, UNTIL_CARD, uid=arm.uid, src=arm.uid)
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert st.battle.damage == 4
    fx.do(st, A.PASS, DP.RESPONSE, 1)
    fx.do(st, A.PART[LA], DP.ALLOCATE, 1)
    arm = fx.part(st, 1, 0, LA)
    assert arm.destroyed and arm.tapped and arm.counters == 0 and arm.attached == []
    assert "BOLT" in st.trash[1] and not st.mods
    # It cannot be used or receive counters afterwards.
    st.turn += 1
    phases.reset_phase(st)
    assert arm.tapped
    st.action_medarot = [0, 0]
    st.to_act = 0
    st.passes = 0
    flow.push(st, ["action_turn"])
    st.decision_point = None
    flow.run(st)
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    fx.do(st, A.PASS, DP.RESPONSE, 1)
    assert A.PART[LA] not in st.legal_actions() and st.decision == "ALLOCATE"


def next_turn_action_step(st, am=(0, 0), first=0):
    """Jump to the action step of the next turn: reset phase (D7), then a round with ``am``."""
    st.agenda.clear()
    st.decision_point = None
    st.turn += 1
    phases.reset_phase(st)
    st.round = 1
    st.action_medarot = list(am)
    st.first = st.to_act = first
    st.passes = 0
    flow.push(st, ["action_turn"])
    flow.run(st)


def test_Ex7_E7_rust_bloom_effect_card_attached_once():
    a1 = ("MA3", "HEAD", "BLOOM", "ARM_L", "LEGS5")
    b1 = ("MA3", "HEAD", "ARM_R", "ARM_L", "LEGS5")
    b2 = ("MA3", "HEAD", "CANNON", "ARM_L", "LEGS5")
    st = fx.make_state(
        (a1, fx.PLAIN), (b1, b2), stocks=(("E_M", "E_M"), ()), hands=(("EFC", "EFC"), (STOP,)), turn=5
    )
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert fx.forced(st, "ENERGY(melee)") and fx.untapped(st, 0, "E_M") == 0
    assert st.battle.damage == 3 and fx.forced(st, "RESPONSE: PASS")
    fx.do(st, A.PART[LA], DP.ALLOCATE, 1)
    assert fx.part(st, 1, 0, LA).counters == 3
    fx.do(st, A.ATTACH_EFFECT, DP.EFFECT_ATTACH, 0)
    fx.do(st, A.MEDAROT[1], DP.EFFECT_TARGET, 0)
    assert fx.part(st, 0, 0, RA).effect == "EFC" and st.hand[0] == ["EFC"]
    assert power(st, 1, 1, RA) == 3
    # Turn 6: A hits again with Rust Bloom; no effect step, the first binding simply continues.
    next_turn_action_step(st)
    assert st.turn == 6 and fx.untapped(st, 0, "E_M") == 2
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    fx.do(st, A.PART[LEGS], DP.ALLOCATE, 1)
    assert fx.part(st, 1, 0, LEGS).counters == 3
    assert st.battle is None and st.decision != "EFFECT_ATTACH"
    assert st.hand[0] == ["EFC"] and power(st, 1, 1, RA) == 3


def test_Ex8_E8_evade():
    b1 = ("MA3", "HEAD", "HIT3", "KIT", "LEGS5")
    st = fx.make_state(
        (A1_HIT, fx.PLAIN),
        (b1, fx.PLAIN),
        hands=((), ("EVD", "GATLING")),
        stocks=((), ("E_D", "E_D")),
        counters={(1, 0, HEAD): 1},
    )
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert st.legal_actions() == [A.PASS, A.EVADE]
    fx.do(st, A.EVADE, DP.RESPONSE, 1)
    assert "EVD" in st.trash[1] and fx.part(st, 1, 0, LEGS).tapped
    assert all(p.counters == 0 for p in st.field[1][0].parts[1:]) and fx.part(st, 1, 0, HEAD).counters == 1
    assert fx.part(st, 0, 0, LEGS).tapped and st.battle is None
    # B1 may still attack, but can no longer repair or exchange.
    assert st.decision == "ACTION" and st.current_player == 1
    legal = st.legal_actions()
    assert A.USE_PART[RA] in legal and A.USE_PART[LA] not in legal and A.HAND[1] not in legal


def test_Ex9_E9_payment_with_medal_and_substitute():
    a1 = ("MA0", "HEAD", "MISSILE", "ARM_L", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), stocks=(("E_S", "E_M", "E_M"), ()))
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert set(st.legal_actions()) == {A.ENERGY[0], A.ENERGY[1], A.PAY_MEDAL}
    fx.do(st, A.PAY_MEDAL, DP.PAYMENT, 0)
    assert st.pay[2] == 4
    fx.do(st, A.ENERGY[0], DP.PAYMENT, 0)
    assert st.field[0][0].medal_tapped and fx.untapped(st, 0, "E_S") == 0 and fx.untapped(st, 0, "E_M") == 2
    # The other order wastes 2 EP and leaves everything tapped.
    st = fx.make_state((a1, fx.PLAIN), stocks=(("E_S", "E_M", "E_M"), ()))
    fx.do(st, A.USE_PART[RA])
    fx.do(st, A.ENERGY[1])
    fx.do(st, A.ENERGY[1])
    fx.do(st, A.ENERGY[0])
    assert fx.forced(st, "PAY_MEDAL") and any("taps the Medal Zero: 8 of 6 EP paid" in e for e in st.events)
    assert st.field[0][0].medal_tapped and all(t for _, t in st.stock[0])
    # With a medal of attribute 1 only 4 EP are available: the attack is masked.
    a1 = ("MA1", "HEAD", "MISSILE", "ARM_L", "LEGS5")
    st = fx.make_state((a1, fx.PLAIN), stocks=(("E_S", "E_M", "E_M"), ()))
    assert A.USE_PART[RA] not in st.legal_actions()


def test_Ex10_E10_power_windows():
    a1 = ("MA3", "HEAD", "RIFLE", "ARM_L", "LEGS5")
    st = fx.make_state(
        (a1, fx.PLAIN), stocks=(("E_S", "E_S", "E_U"), ("E_U", "E_D", "E_D")), hands=(("POWUP",), ("JAMMER",))
    )
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    fx.do(st, A.ENERGY[0], DP.PAYMENT, 0)
    fx.do(st, A.ENERGY[0], DP.PAYMENT, 0)
    fx.do(st, A.HAND[0], DP.POWER_WINDOW, 0)
    assert fx.forced(st, "ENERGY(support)") and fx.forced(st, "POWER_WINDOW: PASS")
    fx.do(st, A.HAND[0], DP.POWER_WINDOW, 1)
    fx.do(st, A.ENERGY[3], DP.PAYMENT, 1)
    assert fx.forced(st, "PAYMENT: ENERGY(defense)")
    assert any("Defense Energy: 3 of 4 EP paid" in e for e in st.events) and any(
        "Defense Energy: 4 of 4 EP paid" in e for e in st.events
    )
    assert st.battle.damage == 4 and st.decision == "ALLOCATE"
    assert all(t for _, t in st.stock[0]) and all(t for _, t in st.stock[1])
    fx.do(st, A.PART[LEGS])
    assert st.trash[0] == ["POWUP"] and st.trash[1] == ["JAMMER"] and st.play == [[], []]


def test_Ex11_E11_repair():
    a1 = ("MA0", "HEAD", "ARM_R", "KIT", "LEGS5")
    st = fx.make_state(
        (a1, fx.PLAIN), stocks=(("E_D", "E_U", "E_S"), ()), hands=((), (STOP,)), counters={(0, 1, RA): 3}
    )
    fx.do(st, A.USE_PART[LA], DP.ACTION, 0)
    fx.do(st, A.ENERGY[2], DP.PAYMENT, 0)
    fx.do(st, A.ENERGY[3], DP.PAYMENT, 0)
    assert fx.forced(st, "ENERGY(shoot)")
    assert fx.forced(st, "REPAIR_MEDAROT: MEDAROT(1)") and fx.forced(st, "REPAIR_PART: PART(right arm)")
    assert fx.part(st, 0, 1, RA).counters == 1
    assert fx.part(st, 0, 0, LA).tapped and fx.part(st, 0, 0, LEGS).tapped
    assert all(t for _, t in st.stock[0])


def test_Ex12_E12_rounds():
    b2 = ("MA3", "HEAD", "HIT3", "ARM_L", "LEGS5")
    a2 = ("MA3", "HEAD", "ARM_R", "ARM_L", "LEGS3")
    st = fx.make_state(
        (fx.PLAIN, a2),
        (fx.PLAIN, b2),
        decks=(("HEAD",) * 20, ("HEAD",) * 20),
        assets=(0, 0),
        turn=2,
        start="turn",
    )
    assert st.turn == 2 and st.priority == 1
    assert st.decision == "ACTION_MEDAROT_TIE" and st.current_player == 1
    fx.do(st, A.MEDAROT[1], DP.ACTION_MEDAROT_TIE, 1)
    assert st.action_medarot == [0, 1]
    assert st.first == 1 and st.current_player == 1 and st.decision == "ACTION"
    fx.do(st, A.USE_PART[RA], DP.ACTION, 1)
    fx.do(st, A.PART[LEGS], DP.ALLOCATE, 0)
    # A passes (forced), B passes (forced): the step ends and A1's legs are tapped (D15).
    assert st.round == 2 and fx.part(st, 0, 0, LEGS).tapped and fx.part(st, 1, 1, LEGS).tapped
    assert st.action_medarot == [-1, -1] or st.decision == "DISCARD"
    chosen = {
        (r["player"], r["medarot"], r["mobility"])
        for r in st.records
        if r["kind"] == "action_medarot" and r["round"] == 2
    }
    assert chosen == {(0, 1, 3), (1, 0, 5)}
    assert st.decision == "DISCARD"
    assert all(m.parts[LEGS].tapped for p in (0, 1) for m in st.field[p])


def test_Ex13_E13_parts_exchange():
    st = fx.make_state(hands=(("GATLING",), (STOP,)), assets=(2400, 10000), destroyed=[(0, 0, LA)])
    fx.do(st, A.HAND[0], DP.ACTION, 0)
    assert st.assets[0] == 700 and st.trash[0] == ["ARM_L"]
    new = fx.part(st, 0, 0, LA)
    assert new.card == "GATLING" and not new.tapped and not new.destroyed and new.counters == 0
    assert not fx.part(st, 0, 0, LEGS).tapped and st.to_act == 1


def _end_phase(a_hand: int, b_hand: int, a_deck: int, b_deck: int):
    return fx.make_state(
        hands=(("HEAD",) * a_hand, ("HEAD",) * b_hand),
        decks=(("HEAD",) * a_deck, ("HEAD",) * b_deck),
        assets=(0, 0),
        turn=7,
        odd_turn_priority=0,
    )


def test_Ex14_E14_end_phase_and_deck_out():
    st = _end_phase(9, 4, 20, 2)
    assert st.decision == "DISCARD" and st.current_player == 0 and A.PASS not in st.legal_actions()
    fx.do(st, A.HAND[0], DP.DISCARD, 0)
    fx.do(st, A.HAND[0], DP.DISCARD, 0)
    assert A.PASS in st.legal_actions()
    fx.do(st, A.PASS, DP.DISCARD, 0)
    fx.do(st, A.PASS, DP.DISCARD, 1)
    assert st.done and st.winner == 0 and st.turn == 8 and "P1 cannot draw" in st.reason
    # Had A also been unable to reach 7 in that draw phase, the game would be a draw.
    st = _end_phase(9, 4, 0, 2)
    for _ in range(3):
        fx.do(st, A.HAND[0], DP.DISCARD, 0)
    fx.do(st, A.PASS, DP.DISCARD, 0)
    fx.do(st, A.PASS, DP.DISCARD, 1)
    assert st.done and st.winner == 2 and st.returns() == [0.0, 0.0] and not st.truncated

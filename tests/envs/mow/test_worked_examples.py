"""The worked examples E1-E15 of spec section 9, reproduced step by step on the fixture pool."""

from __future__ import annotations

import pytest

from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import DP
from deckgym.envs.mow.config import make_config
from deckgym.envs.mow.rules import new_game
from deckgym.envs.mow.rules.card_use import slot_ready
from deckgym.envs.mow.rules.values import master_attack, master_guard, slots, toughness
from tests.envs.mow import fixtures as fx
from tests.envs.mow.fixtures import do, fast, hand, make_state, use

SELF_MASTER, OPP_MASTER = A.TARGET[0], A.TARGET[8]


def self_mon(i: int) -> A.Action:
    return A.TARGET[1 + i]


def opp_mon(i: int) -> A.Action:
    return A.TARGET[9 + i]


def grunt_game():
    """E1's setup with all-Grunt decks, A = P0 first."""
    decks = [fx.deck_of("GRUNT"), fx.deck_of("GRUNT")]
    return new_game(make_config(first_player=0), fx.POOL, decks, seed=1)


def test_Ex1_setup_R3_R4_R5_D3():
    """E1: 35 deck, 5 hand, life 20, level 0, 0/0, no slots; A draws on turn 1 (D3)."""
    st = grunt_game()
    a, b = 0, 1
    assert st.turn == 1 and st.active == a and st.decision == "CHARGE"
    assert len(st.deck[b]) == 35 and len(st.hand[b]) == 5
    assert len(st.hand[a]) == 6 and len(st.deck[a]) == 34
    assert len(st.deck[a]) + len(st.hand[a]) + 1 == 41
    for p in (a, b):
        assert st.life[p] == 20 and st.exp[p] == [] and st.level[p] == 0 and st.discard[p] == []
        assert (master_attack(st, p), master_guard(st, p), slots(st, p)) == (0, 0, 0)


def test_Ex2_first_turns_sickness_counter_damage_guard_persistent_damage_R9_R15_R23_R24_D36_D37_D38():
    st = grunt_game()
    # turn 1: A charges 2 and summons Grunt; no eligible attacker.
    do(st, hand("GRUNT"), DP.CHARGE, 0)
    do(st, hand("GRUNT"), DP.CHARGE, 0)
    assert (len(st.exp[0]), st.level[0], master_attack(st, 0), master_guard(st, 0), slots(st, 0)) == (
        2,
        1,
        1,
        1,
        1,
    )
    assert len(st.hand[0]) == 4 and st.decision == "MAIN"
    do(st, use("GRUNT"), DP.MAIN, 0)
    assert len(st.hand[0]) == 3
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    do(st, A.PASS, DP.MAIN, 0)
    # attack phase ended without a decision: turn 2 is B's, at its charge phase
    assert st.turn == 2 and st.active == 1 and st.decision == "CHARGE"
    assert len(st.hand[1]) == 6 and len(st.deck[1]) == 34
    do(st, hand("GRUNT"), DP.CHARGE, 1)
    do(st, hand("GRUNT"), DP.CHARGE, 1)
    assert st.level[1] == 1 and len(st.hand[1]) == 4
    do(st, A.PASS, DP.MAIN, 1)
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 1)
    assert st.legal_actions() == [opp_mon(0)]  # R23: Grunt, not A's master
    do(st, opp_mon(0), DP.ATTACK_TARGET, 1)
    grunt = st.monsters[0][0]
    assert grunt.damage == 1 and toughness(st, 0, grunt) == 1
    assert st.life[1] == 19
    # turn end: Grunt keeps damage 1 (D38); turn 3
    assert st.turn == 3 and st.active == 0 and st.monsters[0][0].damage == 1
    assert len(st.hand[0]) == 4 and len(st.deck[0]) == 33
    do(st, A.PASS, DP.CHARGE, 0)
    do(st, A.PASS, DP.MAIN, 0)
    do(st, A.ATTACKER[1], DP.ATTACK_DECLARE, 0)
    assert st.legal_actions() == [OPP_MASTER]
    do(st, OPP_MASTER, DP.ATTACK_TARGET, 0)
    assert st.life[1] == 18 and st.monsters[0] == [] and st.discard[0] == ["GRUNT"]
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, OPP_MASTER, DP.ATTACK_TARGET, 0)
    assert st.life == [20, 18]
    assert (
        len(st.deck[0]) + len(st.hand[0]) + len(st.exp[0]) + len(st.discard[0]) + 1
        == 41
        == 33 + 4 + 2 + 1 + 1
    )


def test_Ex3_level_table_and_up_timing_between_exp_gain_cards_R10_R11_R12_D7_D8_D10():
    st = make_state(
        masters=("SAGE", "TM"),
        exp=(1, 0),
        hands=(["INSIGHT", "GRUNT", "GRUNT", "BRUTE", "WALL"], []),
        decks=(20, 20),
        start="charge_phase",
    )
    do(st, hand("GRUNT"), DP.CHARGE, 0)
    assert (len(st.exp[0]), st.level[0], len(st.hand[0]), len(st.deck[0])) == (2, 1, 5, 19)
    do(st, hand("GRUNT"), DP.CHARGE, 0)
    assert (len(st.exp[0]), st.level[0], len(st.hand[0])) == (3, 1, 4)
    assert st.decision == "MAIN"  # the limit of 2 is reached
    do(st, fast("INSIGHT"), DP.MAIN, 0)
    assert len(st.hand[0]) == 3
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert (len(st.exp[0]), st.level[0], len(st.hand[0]), len(st.deck[0])) == (6, 2, 4, 15)
    assert st.discard[0] == ["INSIGHT"]
    assert (master_attack(st, 0), master_guard(st, 0), slots(st, 0)) == (2, 2, 2)
    assert len(st.exp[0]) + len(st.hand[0]) + len(st.deck[0]) + len(st.discard[0]) == 26
    i = st.events.index("P0 gains experience: Pebble")
    assert st.events[i + 1 : i + 4] == [
        "P0 is now level 2",
        "P0's Sage: level-up effect (level 2)",
        "P0 draws a card",
    ]


@pytest.mark.parametrize(
    ("n_exp", "level"), [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (7, 2), (8, 3), (9, 3), (40, 3)]
)
def test_Ex3_R12_level_table(n_exp, level):
    st = make_state(exp=(n_exp, 0))
    assert st.level[0] == level and master_attack(st, 0) == level and master_guard(st, 0) == level


def test_Ex4_monster_against_monster_R15_R26_D38():
    st = make_state(exp=(2, 2), monsters=(["BRUTE"], ["GRUNT"]), start="attack_phase")
    do(st, A.ATTACKER[1], DP.ATTACK_DECLARE, 0)
    do(st, opp_mon(0), DP.ATTACK_TARGET, 0)
    assert st.monsters[1] == [] and st.discard[1] == ["GRUNT"]
    assert st.monsters[0][0].damage == 2 and toughness(st, 0, st.monsters[0][0]) == 2
    fx.pass_to(st, DP.MAIN, 1)  # B's next turn
    assert st.monsters[0][0].damage == 2
    variant = make_state(exp=(2, 2), monsters=(["BRUTE"], ["WALL"]), start="attack_phase")
    do(variant, A.ATTACKER[1], DP.ATTACK_DECLARE, 0)
    do(variant, opp_mon(0), DP.ATTACK_TARGET, 0)
    assert variant.monsters[1][0].damage == 3 and toughness(variant, 1, variant.monsters[1][0]) == 2
    assert variant.monsters[0][0].damage == 0


def test_Ex5_guard_against_combat_and_effect_damage_R7_R8_R29_D36():
    st = make_state(exp=(4, 2), monsters=(["BRUTE"], []), weapons=(None, "SHIELD"), hands=(["QBOLT"], []))
    assert (master_attack(st, 1), master_guard(st, 1)) == (1, 3)
    do(st, fast("QBOLT"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    do(st, OPP_MASTER, DP.EFFECT_TARGET, 0)
    assert st.life[1] == 18
    do(st, A.PASS, DP.MAIN, 0)
    do(st, A.ATTACKER[1], DP.ATTACK_DECLARE, 0)
    do(st, OPP_MASTER, DP.ATTACK_TARGET, 0)
    assert st.life[1] == 18 and st.monsters[0][0].damage == 1
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, OPP_MASTER, DP.ATTACK_TARGET, 0)
    assert st.life == [20, 18] and st.monsters[0][0].damage == 1


@pytest.mark.parametrize(("pick", "dmg", "life"), [(1, 3, 19), (0, 3, 20)])
def test_Ex6_must_attack_monsters_first_master_attacking_a_monster_R23_D34_D36_D37(pick, dmg, life):
    st = make_state(
        exp=(4, 4), weapons=("SWORD", None), monsters=([], ["WALL", "BRUTE"]), start="attack_phase"
    )
    assert (master_attack(st, 0), master_guard(st, 0)) == (3, 2)
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    assert st.legal_actions() == [opp_mon(0), opp_mon(1)]  # B's master is masked
    do(st, opp_mon(pick), DP.ATTACK_TARGET, 0)
    assert st.monsters[1][pick].damage == dmg and st.life[0] == life


def test_Ex7_weapon_replacement_and_discard_cost_R28_R30_D16_D18():
    st = make_state(exp=(2, 0), hands=(["SWORD", "AXE", "GRUNT", "WALL"], []))
    windows = 0
    do(st, use("SWORD"), DP.MAIN, 0)
    windows += st.decision == "COUNTER_WINDOW"
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert (master_attack(st, 0), master_guard(st, 0), len(st.hand[0])) == (2, 1, 3)
    do(st, use("AXE"), DP.MAIN, 0)
    assert st.setaside[0] == "AXE" and fx.names(st.hand[0]) == ["GRUNT", "WALL"]
    assert st.legal_actions() == [hand("GRUNT"), hand("WALL")]
    do(st, hand("GRUNT"), DP.COST_DISCARD, 0)
    windows += st.decision == "COUNTER_WINDOW"
    assert st.weapon[0][0] == "AXE" and st.discard[0] == ["GRUNT", "SWORD"]
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert (master_attack(st, 0), master_guard(st, 0), len(st.hand[0]), windows) == (4, 2, 1, 2)
    alone = make_state(exp=(2, 0), hands=(["AXE"], []))
    assert use("AXE") not in alone.legal_actions()


def _e8_start():
    return make_state(
        turn=7,
        exp=(2, 0),
        hands=(["SCOUT", "DENIAL", "QBOLT", "GRUNT"], []),
        decks=(30, 20),
        spells=(None, ("SHATTER", 6)),
    )


def test_Ex8a_counter_chain_summon_counter_destroy_then_on_enter_R42_D23_D24_D25():
    st = _e8_start()
    do(st, use("SCOUT"), DP.MAIN, 0)
    assert [m.card for m in st.monsters[0]] == ["SCOUT"] and len(st.hand[0]) == 3
    assert [e[2] for e in st.chain] == ["SCOUT"]
    do(st, A.SLOT_SPELL, DP.COUNTER_WINDOW, 1)
    assert st.spell[1] is None and [e[2] for e in st.chain] == ["SCOUT", "SHATTER"]
    do(st, A.PASS, DP.COUNTER_WINDOW, 0)
    assert st.chain == [] and st.monsters[0] == []
    assert len(st.hand[0]) == 4 and len(st.deck[0]) == 29
    assert st.discard[0] == ["SCOUT"] and st.discard[1] == ["SHATTER"]
    assert st.decision == "MAIN" and use("GRUNT") in st.legal_actions()
    i = st.events.index("P1's Shatter resolves")
    assert "Scout is discarded" in st.events[i - 1] and st.events[i + 1] == "P0 draws a card"


def test_Ex8b_negate_the_counter_D21_D28():
    st = _e8_start()
    do(st, use("SCOUT"), DP.MAIN, 0)
    do(st, A.SLOT_SPELL, DP.COUNTER_WINDOW, 1)
    do(st, fast("DENIAL"), DP.COUNTER_WINDOW, 0)
    assert st.fast_used[0] and len(st.hand[0]) == 2
    assert [e[2] for e in st.chain] == ["SCOUT", "SHATTER", "DENIAL"]
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.chain == [] and len(st.hand[0]) == 3 and len(st.deck[0]) == 29
    assert [m.card for m in st.monsters[0]] == ["SCOUT"] and st.monsters[0][0].entered == 7
    assert st.discard[0] == ["DENIAL"] and st.discard[1] == ["SHATTER"]
    assert st.decision == "MAIN" and fast("QBOLT") not in st.legal_actions()


def test_Ex9_spell_readiness_R32_D19_D20():
    st = make_state(
        turn=3,
        exp=(2, 2),
        hands=(["FIREBALL", "QBOLT", "GRUNT"], ["SHATTER"]),
        monsters=([], ["BRUTE"]),
    )
    do(st, use("FIREBALL"), DP.MAIN, 0)
    assert st.spell[0][:2] == ["FIREBALL", 3]
    assert st.decision == "COUNTER_WINDOW" and st.chain[-1][1] == A.Use.CAST
    assert A.SLOT_SPELL not in st.legal_actions() and use("QBOLT") not in st.legal_actions()  # D19
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert A.SLOT_SPELL not in st.legal_actions()
    fx.pass_to(st, DP.MAIN, 1)  # turn 4, B's
    assert st.turn == 4 and st.spell[0] is not None
    do(st, use("SHATTER"), DP.MAIN, 1)
    do(st, A.PASS, DP.COUNTER_WINDOW, 0)  # A's window: Fireball is no counter, never offered
    assert slot_ready(st, 1) is None  # cast on turn 4: not ready on turn 4
    fx.pass_to(st, DP.MAIN, 0)
    assert st.turn == 5 and A.SLOT_SPELL in st.legal_actions()
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    assert st.spell[0] is None
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)  # Shatter answers only summons
    do(st, opp_mon(0), DP.EFFECT_TARGET, 0)
    assert st.monsters[1][0].damage == 3 and toughness(st, 1, st.monsters[1][0]) == 1
    assert "FIREBALL" in st.discard[0]
    do(st, use("QBOLT"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.spell[0][:2] == ["QBOLT", 5] and A.SLOT_SPELL not in st.legal_actions()
    do(st, use("GRUNT"), DP.MAIN, 0)
    assert A.SLOT_SPELL in st.legal_actions()  # B's Shatter (cast turn 4) is ready on turn 5


def test_Ex10_turn_n_with_same_names_and_reentry_R39_D30():
    st = make_state(
        turn=9,
        exp=(4, 0),
        monsters=([("ALCH", 7, 0), ("ALCH", 7, 0)], []),
        spells=(("RECALL", 7), None),
        hands=(["PEBBLE", "PEBBLE", "PEBBLE"], []),
        decks=(25, 25),
    )
    assert A.ABILITY[2] in st.legal_actions() and A.ABILITY[4] in st.legal_actions()
    do(st, A.ABILITY[2], DP.MAIN, 0)  # Alchemist #1's 起動
    assert (len(st.hand[0]), len(st.deck[0])) == (4, 24)
    assert st.turn_uses[0] == {"ALCH/0": 1} and A.ABILITY[4] not in st.legal_actions()
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    do(st, self_mon(0), DP.EFFECT_TARGET, 0)
    assert len(st.hand[0]) == 5 and st.discard[0] == ["RECALL"]
    do(st, use("ALCH"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert len(st.hand[0]) == 4 and st.monsters[0][1].entered == 9
    assert not any(a.kind == A.Kind.ABILITY for a in st.legal_actions())
    assert (len(st.hand[0]), len(st.deck[0]), st.discard[0], len(st.monsters[0])) == (4, 24, ["RECALL"], 2)
    do(st, A.PASS, DP.MAIN, 0)
    fx.pass_to(st, DP.MAIN, 0)
    assert st.turn == 11
    assert [a for a in st.legal_actions() if a.kind == A.Kind.ABILITY] == [A.ABILITY[2], A.ABILITY[4]]
    do(st, A.ABILITY[4], DP.MAIN, 0)
    assert not any(a.kind == A.Kind.ABILITY for a in st.legal_actions())


def test_Ex11_deck_out_at_the_draw_phase_R2_D40():
    st = make_state(turn=41, decks=(1, 3), hands=(["PEBBLE", "PEBBLE"], []), start="turn_start")
    assert st.done and not st.truncated and st.winner == 1 and st.returns() == [-1.0, 1.0]
    assert len(st.deck[0]) == 0 and len(st.hand[0]) == 3
    assert not any("charges" in e for e in st.events)


def test_Ex12_summoning_condition_R21_R25_D9():
    st = make_state(exp=(3, 0), hands=(["OGRE", "GRUNT"], []))
    assert st.level[0] == 1 and slots(st, 0) == 1 and use("OGRE") not in st.legal_actions()
    st = make_state(exp=(3, 0), hands=(["OGRE", "GRUNT", "PEBBLE"], []), start="charge_phase")
    do(st, hand("PEBBLE"), DP.CHARGE, 0)
    assert (len(st.exp[0]), st.level[0], slots(st, 0)) == (4, 2, 2)
    do(st, A.PASS, DP.CHARGE, 0)
    assert use("OGRE") in st.legal_actions()
    do(st, use("OGRE"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert use("GRUNT") in st.legal_actions()  # 1 slot still free


def test_Ex13_level_loss_and_overflow_D9_D11_D12():
    st = make_state(exp=(0, 4), monsters=([], ["GRUNT", "BRUTE"]), spells=(("FORGET", 2), None))
    b_discard = len(st.discard[1])
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.level[1] == 1 and len(st.exp[1]) == 3
    assert st.legal_actions() == [self_mon(0), self_mon(1)]
    do(st, self_mon(0), DP.OVERFLOW_DISCARD, 1)
    assert (master_attack(st, 1), master_guard(st, 1)) == (1, 1)
    assert [m.card for m in st.monsters[1]] == ["BRUTE"]
    assert len(st.discard[1]) == b_discard + 2 and st.discard[1] == ["PEBBLE", "GRUNT"]


def test_Ex14_simultaneous_loss_is_a_draw_D41():
    st = make_state(exp=(2, 8), life=(1, 1), weapons=("AXE", None), start="attack_phase")
    assert (master_attack(st, 0), master_guard(st, 0), master_attack(st, 1), master_guard(st, 1)) == (
        4,
        2,
        3,
        3,
    )
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, OPP_MASTER, DP.ATTACK_TARGET, 0)
    assert st.life == [0, 0] and st.done and not st.truncated
    assert st.winner == 2 and st.returns() == [0.0, 0.0]


def test_Ex15_no_engagement_when_the_target_is_gone_R16_D35():
    st = make_state(exp=(2, 2), monsters=(["SNIPER"], ["GRUNT"]), start="attack_phase")
    do(st, A.ATTACKER[1], DP.ATTACK_DECLARE, 0)
    do(st, opp_mon(0), DP.ATTACK_TARGET, 0)
    assert st.monsters[1] == [] and st.discard[1] == ["GRUNT"]
    assert st.monsters[0][0].damage == 0 and st.life == [20, 20]
    assert any("no engagement" in e for e in st.events)

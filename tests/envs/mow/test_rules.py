"""Rules of sections 2 and 3 not already shown by a worked example, one test per rule."""

from __future__ import annotations

import random

from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import DP, Phase
from deckgym.envs.mow.cards import Effect
from deckgym.envs.mow.rules.effects import OPS
from deckgym.envs.mow.rules.state_check import check, frame
from deckgym.envs.mow.rules.values import master_attack, monster_attack, slots, toughness
from tests.envs.mow import fixtures as fx
from tests.envs.mow.fixtures import CK, core_state, do, make_state, use
from tests.envs.mow.test_invariants import start


def cuse(cid):
    return A.USE[CK[cid]]


def test_D2_turns_count_up_and_the_first_player_plays_odd_turns_R13_turn_flow():
    st = start(11, first_player=1)
    rng = random.Random(0)
    phases = {}
    while not st.done and st.turn < 12:
        assert (st.active == st.first) == (st.turn % 2 == 1)
        phases.setdefault(st.decision, set()).add(st.phase)
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    assert phases["CHARGE"] == {Phase.CHARGE} and phases["MAIN"] == {Phase.MAIN}
    assert phases["ATTACK_DECLARE"] == {Phase.ATTACK}


def test_D4_no_mulligan_D5_one_card_per_draw_phase():
    st = start(2)
    assert st.decision == "CHARGE" and len(st.hand[st.first]) == 6 and len(st.hand[1 - st.first]) == 5
    assert not any("mulligan" in e for e in st.events)
    before = len(st.deck[1 - st.first])
    fx.pass_to(st, DP.CHARGE, 1 - st.first)
    assert st.turn == 2 and len(st.deck[1 - st.first]) == before - 1


def _run(st, f, op, refs=None, **kw):
    e = Effect(op, **kw)
    if refs is None:
        OPS[op].handler(st, f, e)
    else:
        OPS[op].handler(st, f, e, refs)


def test_D13_life_never_exceeds_20_and_HEAL_on_monsters():
    st = make_state(life=(18, 20), monsters=([("BRUTE", 1, 3)], []), exp=(2, 0))
    f = frame(0, "FIREBALL", -1, 0)
    _run(st, f, "HEAL", [-1, st.monsters[0][0].uid], amount=5)
    assert st.life[0] == 20 and st.monsters[0][0].damage == 0


def test_D14_cards_are_used_only_in_the_own_main_phase_and_counters_elsewhere_R35():
    st = make_state(exp=(2, 2), hands=(["GRUNT"], ["GRUNT", "DENIAL"]), start="charge_phase")
    assert all(a.kind in (A.Kind.PASS, A.Kind.HAND) for a in st.legal_actions())
    do(st, A.PASS, DP.CHARGE, 0)
    do(st, use("GRUNT"), DP.MAIN, 0)
    kinds = {a.kind for a in st.legal_actions()}
    assert kinds == {A.Kind.PASS, A.Kind.FAST}  # B: only its 高速+対抗 Denial


def test_D15_R20_no_limit_on_uses_and_summons_cost_nothing():
    st = make_state(exp=(8, 0), hands=(["GRUNT", "GRUNT", "SWORD", "SHIELD"], []))
    for card in ("GRUNT", "GRUNT", "SWORD", "SHIELD"):
        do(st, use(card), DP.MAIN, 0)
        do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert len(st.monsters[0]) == 2 and st.weapon[0][0] == "SHIELD" and st.life[0] == 20
    assert st.discard[0] == ["SWORD"] and st.hand[0] == []


def test_R17_R18_R19_slots_by_level_one_weapon_one_spell_and_zones():
    st = make_state(exp=(2, 0), hands=(["GRUNT", "GRUNT", "FIREBALL", "QBOLT"], []))
    assert slots(st, 0) == 1
    do(st, use("GRUNT"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert use("GRUNT") not in st.legal_actions()  # R19: no free slot
    do(st, use("FIREBALL"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert use("QBOLT") not in st.legal_actions()  # one spell slot
    for zone in (st.deck, st.hand, st.exp, st.discard):
        assert len(zone) == 2


def test_D22_an_activated_spell_waits_in_the_chain_area_then_is_discarded():
    st = make_state(exp=(2, 2), monsters=([], ["GRUNT"]), spells=(("FIREBALL", 2), None))
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    assert st.spell[0] is None and st.chain[-1][1] == A.Use.ACTIVATE and st.chain[-1][5]
    assert "FIREBALL" not in st.discard[0]
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.chain[-1][5]  # still in the chain area while its target is chosen
    do(st, A.TARGET[9], DP.EFFECT_TARGET, 0)
    assert st.chain == [] and st.discard[0] == ["FIREBALL"]


def test_D26_trigger_order_active_player_first_R47_on_discard():
    st = core_state(exp=(10, 2), monsters=(["MN07"], ["MN07"]), hands=(["SP14"], []))
    assert fx.cast_and_resolve(st, "SP14", 0) == [
        "P1's master takes 2 effect damage (life 18)",
        "P0's master takes 2 effect damage (life 18)",
    ]


def test_D27_targets_chosen_at_resolution_and_no_target_is_skipped():
    st = core_state(exp=(2, 0), hands=(["MN06"], []))
    do(st, cuse("MN06"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.decision == "MAIN"  # Hex Archer's 登場時 had no opposing monster: skipped
    st = core_state(exp=(2, 4), hands=(["MN06"], []), monsters=([], ["MN01", "MN02"]))
    do(st, cuse("MN06"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.legal_actions() == [A.TARGET[9], A.TARGET[10]]
    do(st, A.TARGET[9], DP.EFFECT_TARGET, 0)
    assert [m.card for m in st.monsters[1]] == ["MN02"]


def test_D29_on_discard_only_from_the_field_not_bounce_or_hand():
    st = core_state(
        exp=(2, 2), monsters=(["MN07"], []), spells=(("SP09", 1), None), hands=(["WP03", "MN07"], [])
    )
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    do(st, A.TARGET[1], DP.EFFECT_TARGET, 0)
    assert st.life[1] == 20 and st.hand[0].count("MN07") == 2  # bounced: no 廃棄時
    do(st, A.USE[CK["WP03"]], DP.MAIN, 0)
    do(st, A.HAND[CK["MN07"]], DP.COST_DISCARD, 0)
    assert st.life[1] == 20  # discarded from hand: no 廃棄時


def test_D31_R38_activated_abilities_main_phase_no_window_sick_monsters_too():
    st = make_state(exp=(2, 0), hands=(["ALCH"], []))
    do(st, use("ALCH"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert A.ABILITY[2] in st.legal_actions()  # sick, but 起動 is allowed
    do(st, A.ABILITY[2], DP.MAIN, 0)
    assert st.decision == "MAIN" and st.chain == []  # R41: not a card use, no window


def test_D32_D33_a_zero_attack_monster_may_attack_sickness_lasts_the_turn():
    st = make_state(exp=(4, 0), monsters=(["WALL", ("GRUNT", 3, 0)], []), start="attack_phase")
    assert st.legal_actions() == [A.PASS, A.ATTACKER[0], A.ATTACKER[1]]  # Grunt entered this turn
    do(st, A.ATTACKER[1], DP.ATTACK_DECLARE, 0)
    do(st, A.TARGET[8], DP.ATTACK_TARGET, 0)
    assert st.life[1] == 20
    do(st, A.PASS, DP.ATTACK_DECLARE, 0)
    fx.pass_to(st, DP.ATTACK_DECLARE, 0)
    assert A.ATTACKER[2] in st.legal_actions()


def test_D39_attack_floored_at_0_toughness_not_floored():
    st = core_state(masters=("MS01", "MS05"), exp=(2, 2), monsters=(["MN03"], []))
    assert monster_attack(st, 0, st.monsters[0][0]) == 0  # 0 - 1 from Grave Tactician's skill
    f = frame(1, "SP01", -1, 0)
    _run(st, f, "BUFF", [st.monsters[0][0].uid], d_atk=-2, d_def=-7, duration="TURN")
    assert toughness(st, 0, st.monsters[0][0]) == -1
    check(st)
    assert st.monsters[0] == []


def test_D43_no_hand_size_limit():
    st = make_state(hands=(["PEBBLE"] * 15, []), start="attack_phase")
    fx.pass_to(st, DP.MAIN, 0)
    assert len(st.hand[0]) == 16


def test_D46_turn_modifiers_expire_at_turn_end_then_a_state_check():
    st = make_state(exp=(2, 0), monsters=([("WALL", 1, 5)], []), start="attack_phase")
    st.monsters[0][0].mods.append([0, 1, 0])
    assert toughness(st, 0, st.monsters[0][0]) == 1
    do(st, A.PASS, DP.ATTACK_DECLARE, 0)
    assert st.monsters[0] == [] and st.discard[0] == ["WALL"]


def test_D47_R37_level_up_effects_in_printed_order():
    st = core_state(
        masters=("MS04", "MS01"), exp=(13, 0), life=(15, 20), hands=(["MN01"], []), start="charge_phase"
    )
    do(st, A.HAND[CK["MN01"]], DP.CHARGE, 0)
    i = st.events.index("P0 is now level 4")
    assert st.events[i + 1 : i + 6] == [
        "P0's Star Sovereign: level-up effect (level 4)",
        "P0 draws a card",
        "P0 draws a card",
        "P0's Star Sovereign: level-up effect (level 4)",
        "P0's master heals to 16",
    ]


def test_R6_R43_skills_follow_the_level_and_the_field():
    st = core_state(exp=(4, 0), monsters=(["MN02", "MN11"], []))
    grunt = st.monsters[0][0]
    assert monster_attack(st, 0, grunt) == 3  # Banner Knight: +1 to the others
    assert monster_attack(st, 0, st.monsters[0][1]) == 3
    st.exp[0] += ["MN01"] * 4
    st.level[0] = 3
    assert monster_attack(st, 0, grunt) == 4 and master_attack(st, 0) == 3  # Ashen Regent level 3 skill
    st.monsters[0].pop()
    assert monster_attack(st, 0, grunt) == 3


def test_R14_R22_an_attack_is_attacker_then_target_and_monsters_stay():
    st = make_state(exp=(2, 2), monsters=(["GRUNT"], ["WALL"]), start="attack_phase")
    do(st, A.ATTACKER[1], DP.ATTACK_DECLARE, 0)
    assert st.decision == "ATTACK_TARGET" and A.PASS not in st.legal_actions()
    do(st, A.TARGET[9], DP.ATTACK_TARGET, 0)
    fx.pass_to(st, DP.MAIN, 0)
    assert [m.card for m in st.monsters[0]] == ["GRUNT"] and [m.card for m in st.monsters[1]] == ["WALL"]


def test_R40_counter_ability_answers_a_summon_and_ends_chain_building():
    st = core_state(exp=(2, 2), hands=(["MN02"], []), monsters=([], ["MN10"]))
    do(st, cuse("MN02"), DP.MAIN, 0)
    assert A.ABILITY[2] in st.legal_actions()
    do(st, A.ABILITY[2], DP.COUNTER_WINDOW, 1)
    assert st.life[1] == 19 and st.monsters[0] == [] and st.decision == "MAIN"


def test_R41_each_card_use_opens_a_window():
    st = make_state(exp=(2, 0), hands=(["GRUNT", "SWORD", "FIREBALL", "QBOLT"], []))
    for a in (use("GRUNT"), use("SWORD"), use("FIREBALL"), fx.fast("QBOLT")):
        do(st, a, DP.MAIN, 0)
        assert st.decision == "COUNTER_WINDOW" and st.current_player == 1
        do(st, A.PASS, DP.COUNTER_WINDOW, 1)
        if st.decision == "EFFECT_TARGET":
            do(st, A.TARGET[8], DP.EFFECT_TARGET, 0)


def test_R44_R21_condition_not_met_card_cannot_be_used():
    st = core_state(exp=(2, 2), hands=(["MN21", "MN20", "MN16"], []), monsters=([], ["MN01"]))
    legal = st.legal_actions()
    for cid in ("MN21", "MN20", "MN16"):  # OPP_MONSTERS 2, OWN_MONSTERS 1, DISCARD 3
        assert cuse(cid) not in legal


def test_R45_R46_on_enter_and_on_attack_with_the_weapon_when_the_master_attacks():
    st = core_state(exp=(2, 2), weapons=("WP04", None), monsters=([], ["MN02"]), start="attack_phase")
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, A.TARGET[9], DP.ATTACK_TARGET, 0)
    assert st.monsters[1] == []  # Venom Dagger 1 + master attack 3 >= 2
    st = make_state(exp=(2, 0), hands=(["SCOUT"], []))
    n = len(st.hand[0])
    do(st, use("SCOUT"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert len(st.hand[0]) == n  # -1 Scout, +1 draw


def test_R37_monster_up_timing_fires_per_level_gained():
    st = core_state(exp=(1, 0), monsters=([], []), hands=(["MN01", "MN01"], []), start="charge_phase")
    st.exp[0].append("MN01")
    st.level[0] = 1
    st.monsters[0].append(fx.Monster(90, "MN08", 1))
    st.exp[0].append("MN01")
    hand = len(st.hand[0])
    do(st, A.HAND[CK["MN01"]], DP.CHARGE, 0)
    assert st.level[0] == 2 and len(st.hand[0]) == hand  # -1 charged, +1 Rune Apprentice


def _denial_waits(hand0, **kw):
    """Turn 7: A has 2 experience and ``hand0``; B's face-down Denial (NEGATE) was cast on turn 6."""
    return make_state(
        turn=7, exp=(2, 0), hands=(hand0, []), decks=(20, 20), spells=(None, ("DENIAL", 6)), **kw
    )


def test_R42_D28_a_negated_summon_is_discarded_then_its_on_enter_still_draws():
    """The issue's reproduction: 使役→対抗廃棄→登場時の効果発動, so A ends with hand 1, deck 19."""
    st = _denial_waits(["SCOUT"])
    do(st, use("SCOUT"), DP.MAIN, 0)
    do(st, A.SLOT_SPELL, DP.COUNTER_WINDOW, 1)
    do(st, A.PASS, DP.COUNTER_WINDOW, 0)
    assert st.chain == [] and st.monsters[0] == []
    assert st.discard[0] == ["SCOUT"] and st.discard[1] == ["DENIAL"]
    assert (len(st.hand[0]), len(st.deck[0])) == (1, 19)
    i = st.events.index("P1 negates P0's summon")
    j = st.events.index("P0's negated Scout still resolves its on-entry effect")
    assert i < j and st.events[j + 1] == "P0 draws a card"
    assert st.decision == "MAIN" and st.current_player == 0


def test_R42_D28_D27_a_negated_summon_skips_its_self_damage_but_still_hits_the_master():
    """Martyr's 登場時 is DAMAGE SELF 1 then DAMAGE OPP_MASTER 2: Martyr has left the field, so the
    SELF primitive is skipped (D27) and the master damage still happens (D28)."""
    st = _denial_waits(["MARTYR"])
    do(st, use("MARTYR"), DP.MAIN, 0)
    do(st, A.SLOT_SPELL, DP.COUNTER_WINDOW, 1)
    do(st, A.PASS, DP.COUNTER_WINDOW, 0)
    assert st.monsters[0] == [] and st.discard[0] == ["MARTYR"]
    assert st.life == [20, 18]
    unnegated = make_state(turn=7, exp=(2, 0), hands=(["MARTYR"], []))
    do(unnegated, use("MARTYR"), DP.MAIN, 0)
    do(unnegated, A.PASS, DP.COUNTER_WINDOW, 1)
    assert unnegated.monsters[0] == [] and unnegated.discard[0] == ["MARTYR"]  # 1 damage kills it
    assert unnegated.life == [20, 18]


def test_R42_D28_a_negated_equip_discards_the_weapon_fires_its_on_discard_then_its_on_enter():
    """Lens: 登場時 DRAW 1, 廃棄時 DAMAGE OPP_MASTER 1. Negated, it goes to the discard pile (廃棄時
    first, as it is discarded by the counter), then its 登場時 still draws."""
    st = _denial_waits(["LENS"])
    do(st, use("LENS"), DP.MAIN, 0)
    assert st.weapon[0][0] == "LENS"
    do(st, A.SLOT_SPELL, DP.COUNTER_WINDOW, 1)
    do(st, A.PASS, DP.COUNTER_WINDOW, 0)
    assert st.weapon[0] is None and st.discard[0] == ["LENS"]
    assert st.life == [20, 19] and (len(st.hand[0]), len(st.deck[0])) == (1, 19)
    assert master_attack(st, 0) == 1  # level 1 table value, no weapon bonus left
    assert st.events[-7:] == [
        "P1 negates P0's equip",
        "P0's Lens is discarded",
        "P0's Lens: when-discarded effect",
        "P1's master takes 1 effect damage (life 19)",
        "P1's Denial resolves",
        "P0's negated Lens still resolves its on-entry effect",
        "P0 draws a card",
    ]


def test_D28_a_negated_spell_activation_still_loses_its_effects():
    """The amendment keeps D28 for spells: Fireball negated by Denial deals no damage."""
    st = make_state(
        turn=7, exp=(2, 2), hands=([], []), monsters=([], ["BRUTE"]), spells=(("FIREBALL", 5), ("DENIAL", 6))
    )
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    do(st, A.SLOT_SPELL, DP.COUNTER_WINDOW, 1)
    do(st, A.PASS, DP.COUNTER_WINDOW, 0)
    assert st.decision == "MAIN" and st.monsters[1][0].damage == 0 and st.life == [20, 20]
    assert "FIREBALL" in st.discard[0] and st.discard[1] == ["DENIAL"]

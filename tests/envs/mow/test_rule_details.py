"""Rule details of sections 2-5 that the other tests leave open: one test per rule, each citing it.

Fixture cards added for these tests (``fixture_cards.toml``): the master Duelist (攻撃時
DAMAGE(ATTACK_TARGET, 1)); the weapons Brittle Blade 3/0 (攻撃時 DESTROY(SELF)) and Tome 0/0
(up時 DRAW(SELF, 1)); the monsters Drainer 3/3 (condition COST_EXP(2)) and Packling 1/1
(登場時 SEARCH(MONSTER, same_name)); the spells Quake (DAMAGE(ALL(ANY, {MASTER}), 1)) and Sift
(MILL(OPP, 2), then DISCARD(OPP, 1, RANDOM)).
"""

from __future__ import annotations

from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import DP
from deckgym.envs.mow.rules.values import master_attack
from deckgym.envs.mow.state import TURN
from tests.envs.mow import fixtures as fx
from tests.envs.mow.fixtures import CK, core_state, do, make_state, use


def _names(st, p):
    return [m.card for m in st.monsters[p]]


# ----------------------------------------------------------------------------- 攻撃時 (R46, D35)
def test_R46_D35_a_masters_on_attack_hits_the_declared_target_before_engagement():
    """Duelist (level 1, 1/1) attacks Grunt 2/2: its 攻撃時 deals 1 to Grunt, the engagement 1 more."""
    st = make_state(masters=("DUELIST", "TM"), exp=(2, 2), monsters=([], ["GRUNT"]), start="attack_phase")
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, A.TARGET[9], DP.ATTACK_TARGET, 0)
    assert "Grunt takes 1 effect damage" in st.events
    assert st.monsters[1] == [] and st.discard[1] == ["GRUNT"]
    assert st.life == [19, 20]  # Grunt's 2 minus the master's guard 1


def test_D35_the_masters_weapon_on_attack_hits_the_masters_declared_target():
    """Venom Dagger (2/0, 攻撃時 DAMAGE(ATTACK_TARGET, 1)) on a level-1 master (attack 3): the
    dagger's 1 plus the engagement's 3 discard Thorn Beast 4/4; without the 1 it would live."""
    st = core_state(exp=(2, 2), weapons=("WP04", None), monsters=([], ["MN12"]), start="attack_phase")
    assert master_attack(st, 0) == 3
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, A.TARGET[9], DP.ATTACK_TARGET, 0)
    assert "Thorn Beast takes 1 effect damage" in st.events
    assert st.monsters[1] == [] and st.discard[1] == ["MN12"]
    assert st.life == [17, 20]  # Thorn Beast's 4 minus guard 1


def test_D35_the_weapons_on_attack_self_is_the_weapon_itself():
    """Brittle Blade (3/0, 攻撃時 DESTROY(SELF)): it breaks when its master attacks, before the
    engagement, so the level-1 master deals only its table attack 1."""
    st = make_state(exp=(2, 0), weapons=("BRITTLE", None), start="attack_phase")
    assert master_attack(st, 0) == 4
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, A.TARGET[8], DP.ATTACK_TARGET, 0)
    assert st.weapon[0] is None and st.discard[0] == ["BRITTLE"]
    assert st.life == [20, 19]


def test_R7_D36_a_buff_on_the_master_adds_to_its_combat_damage():
    """Iron Marshal's 攻撃時 BUFF(SELF, +1, TURN): the level-1 master deals 1 + 1 = 2."""
    st = core_state(masters=("MS03", "MS01"), exp=(2, 0), start="attack_phase")
    assert master_attack(st, 0) == 1
    do(st, A.ATTACKER[0], DP.ATTACK_DECLARE, 0)
    do(st, A.TARGET[8], DP.ATTACK_TARGET, 0)
    assert st.life == [20, 18]
    st = core_state(masters=("MS03", "MS01"), exp=(2, 0))
    st.master_mods[0].append([2, 0, TURN])
    assert master_attack(st, 0) == 3


# ----------------------------------------------------------------------------- up時 (R37, D10)
def test_R37_D10_an_equipped_weapons_up_time_fires_for_each_level_gained():
    """Tome (up時 DRAW 1): charging to experience 2 (level 1) draws; the next charge gains no level."""
    st = make_state(
        exp=(1, 0), weapons=("TOME", None), hands=(["PEBBLE", "PEBBLE"], []), start="charge_phase"
    )
    do(st, fx.hand("PEBBLE"), DP.CHARGE, 0)
    assert st.level[0] == 1 and (len(st.hand[0]), len(st.deck[0])) == (2, 19)
    do(st, fx.hand("PEBBLE"), DP.CHARGE, 0)
    assert st.level[0] == 1 and (len(st.hand[0]), len(st.deck[0])) == (1, 19)


# ----------------------------------------------------------------------------- D26 order
def test_D26_simultaneous_triggers_resolve_the_active_players_first_in_the_second_players_turn():
    """Turn 4, B (P1) active: Cataclysm destroys both Bone Rattlers at once; B's 廃棄時 (hitting
    A's master) resolves before A's."""
    st = core_state(turn=4, active=1, exp=(2, 10), monsters=(["MN07"], ["MN07"]), hands=([], ["SP14"]))
    assert fx.cast_and_resolve(st, "SP14", 1) == [
        "P0's master takes 2 effect damage (life 18)",
        "P1's master takes 2 effect damage (life 18)",
    ]


# ----------------------------------------------------------------------------- conditions (R44, D16, 4.6)
def test_R44_life_at_most_is_met_at_exactly_that_life():
    """Vengeful Spirit, condition LIFE_AT_MOST(10): usable at life 10 (and below), not at 11."""
    for life, usable in ((10, True), (9, True), (11, False)):
        st = core_state(exp=(2, 0), life=(life, 20), hands=(["MN19"], []))
        assert (A.USE[CK["MN19"]] in st.legal_actions()) is usable, life


def test_D16_K2_the_summon_room_is_counted_at_the_level_left_after_cost_exp():
    """Drainer, condition COST_EXP(2): paying it lowers the level first (D9), so a slot must be
    free at the level that is left."""
    level2_one_monster = make_state(exp=(4, 0), monsters=(["GRUNT"], []), hands=(["DRAINER"], []))
    assert level2_one_monster.level[0] == 2 and use("DRAINER") not in level2_one_monster.legal_actions()
    level1_empty = make_state(exp=(3, 0), hands=(["DRAINER"], []))
    assert level1_empty.level[0] == 1 and use("DRAINER") not in level1_empty.legal_actions()
    st = make_state(exp=(4, 0), hands=(["DRAINER"], []))
    do(st, use("DRAINER"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert _names(st, 0) == ["DRAINER"] and st.level[0] == 1 and len(st.exp[0]) == 2
    assert st.discard[0] == ["PEBBLE", "PEBBLE"]


# ----------------------------------------------------------------------------- turn end (D46, D42)
def test_D46_the_turn_end_state_check_runs_before_the_next_turn():
    """Wall 0/5 with damage 5 lives on a +1 toughness TURN modifier; at turn end it expires and the
    state check discards Wall in that same turn, before the turn cap or the next turn."""
    st = make_state(turn=3, exp=(2, 0), monsters=([("WALL", 1, 5)], []), start="attack_phase", max_turns=3)
    st.monsters[0][0].mods.append([0, 1, TURN])
    do(st, A.PASS, DP.ATTACK_DECLARE, 0)
    assert st.done and st.truncated
    assert st.monsters[0] == [] and st.discard[0] == ["WALL"]
    st = make_state(turn=3, exp=(2, 0), monsters=([("WALL", 1, 5)], []), start="attack_phase")
    st.monsters[0][0].mods.append([0, 1, TURN])
    do(st, A.PASS, DP.ATTACK_DECLARE, 0)
    assert st.events.index("P0's Wall is discarded") < st.events.index("-- turn 4: P1")


def test_D42_a_turn_may_take_exactly_the_decision_cap_but_not_one_more():
    st = make_state(exp=(4, 0), hands=(["GRUNT", "GRUNT"], []), max_decisions_per_turn=4)
    do(st, use("GRUNT"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    do(st, use("GRUNT"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.decisions == 4 and not st.done and st.decision == "MAIN"
    do(st, A.PASS, DP.MAIN, 0)
    assert st.done and st.truncated


# ----------------------------------------------------------------------------- selectors and primitives (4.7, 4.8)
def test_R45_an_on_enter_search_with_same_name_finds_only_copies_of_its_own_card():
    """Packling's 登場時 SEARCH(MONSTER, same_name): only Packling is offered, not the other
    monsters in the deck; with no Packling left in the deck nothing is offered."""
    st = make_state(
        exp=(2, 0), hands=(["PACKLING"], []), decks=(["PEBBLE", "PACKLING", "GRUNT", "PEBBLE"], 20)
    )
    do(st, use("PACKLING"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.decision == "SEARCH_CHOICE" and st.legal_actions() == [A.CARD_TYPE[fx.K["PACKLING"]]]
    do(st, A.CARD_TYPE[fx.K["PACKLING"]], DP.SEARCH_CHOICE, 0)
    assert st.hand[0] == ["PACKLING"] and fx.names(st.deck[0]) == ["GRUNT", "PEBBLE", "PEBBLE"]
    st = make_state(exp=(2, 0), hands=(["PACKLING"], []), decks=(["PEBBLE", "GRUNT"], 20))
    do(st, use("PACKLING"), DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.decision == "MAIN" and st.hand[0] == [] and len(st.deck[0]) == 2


def test_R8_an_all_masters_effect_damage_hits_both_masters_through_guard():
    """Quake, DAMAGE(ALL(ANY, {MASTER}), 1): both masters lose 1; B's Shield guard does not reduce it."""
    st = make_state(exp=(2, 2), weapons=(None, "SHIELD"), spells=(("QUAKE", 1), None))
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.life == [19, 19] and st.decision == "MAIN"
    assert "P1's master takes 1 effect damage (life 19)" in st.events


def test_D44_milled_and_discarded_cards_are_named_in_the_public_log_one_at_a_time():
    """Sift: MILL(OPP, 2) takes B's top two cards one at a time, then DISCARD(OPP, 1, RANDOM) takes
    B's only hand card; each card becomes public as it goes (section 7), and the log says which."""
    st = make_state(
        spells=(("SIFT", 1), None), hands=([], ["GRUNT"]), decks=(20, ["PEBBLE", "WALL", "BRUTE"])
    )
    do(st, A.SLOT_SPELL, DP.MAIN, 0)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1)
    assert st.discard[1] == ["BRUTE", "WALL", "GRUNT"] and st.deck[1] == ["PEBBLE"] and st.hand[1] == []
    assert st.events[-4:] == ["P1 mills Brute", "P1 mills Wall", "P1 discards Grunt", "P0's Sift resolves"]

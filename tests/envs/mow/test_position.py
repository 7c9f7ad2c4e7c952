"""The public MoW position builder ``envs.mow.position.position``: start steps, checks, mid-turn
situations, round trips and agents asked what they do there."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from deckgym import agents
from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.mow.actions import ATTACKER, DP, FAST, HAND, PASS, SLOT_SPELL, TARGET, USE, Kind
from deckgym.envs.mow.cards import load_pool
from deckgym.envs.mow.position import STEPS, position
from deckgym.envs.mow.rules.values import master_attack, slots
from deckgym.envs.mow.state import GameState
from tests.envs.mow import fixtures as fx

CORE = load_pool()
K = {c.id: c.index for c in CORE.main}


def _json(st: GameState) -> str:
    return json.dumps(st.to_dict(), sort_keys=True)


def _attackers(st: GameState) -> list:
    return [a for a in st.legal_actions() if a.kind == Kind.ATTACKER]


# ----------------------------------------------------------------------------- start steps
def test_main_phase_start_reaches_the_active_players_main_decision():
    st = position(
        masters=("MS01", "MS03"),
        hands=(["MN02", "MN12"], ["SP02"]),
        experience=(4, 2),
        turn=5,
        active=0,
    )
    assert st.decision == "MAIN" and st.current_player == 0 and not st.done
    legal = st.legal_actions()
    # level 2 from 4 experience: Pike Soldier and Thorn Beast (LEVEL_AT_LEAST 2) can be summoned
    assert PASS in legal and USE[K["MN02"]] in legal and USE[K["MN12"]] in legal
    st.apply(USE[K["MN02"]])
    assert st.decision == "COUNTER_WINDOW" and st.current_player == 1


def test_attack_phase_start_reaches_attack_declare_with_the_attackers():
    st = position(
        masters=("MS01", "MS01"),
        experience=(2, 2),
        monsters=(["MN02"], ["MN03"]),
        turn=4,
        active=0,
        start="attack_phase",
    )
    assert st.decision == "ATTACK_DECLARE" and st.current_player == 0
    assert st.legal_actions() == [PASS, ATTACKER[0], ATTACKER[1]]
    st.apply(ATTACKER[1])
    assert st.decision == "ATTACK_TARGET" and st.legal_actions() == [TARGET[9]]


def test_charge_phase_start_offers_the_hand_and_counts_charges_made():
    st = position(masters=("MS01", "MS01"), hands=(["MN01", "SP01"], []), start="charge_phase")
    assert st.decision == "CHARGE" and st.legal_actions() == [PASS, HAND[K["MN01"]], HAND[K["SP01"]]]
    # two charges already made this turn: the limit (2, D7) is reached, so the phase moves on
    done = position(masters=("MS01", "MS01"), hands=(["MN01"], []), start="charge", charges=2)
    assert done.decision == "MAIN" and done.charges == 2


def test_turn_start_draws_the_first_card_given_as_the_deck_top():
    st = position(
        masters=("MS01", "MS01"),
        decks=(["SP01", "MN02", "MN03"], 5),
        turn=4,
        active=1,
        start="turn_start",
        hands=([], ["MN04"]),
    )
    # P1 is active: its deck is 5 fillers; P0's deck keeps its order (top = "SP01" = last stored)
    assert st.deck[0] == ["MN03", "MN02", "SP01"]
    assert st.decision == "CHARGE" and st.current_player == 1 and len(st.hand[1]) == 2
    st = position(masters=("MS01", "MS01"), decks=(["SP01", "MN02", "MN03"], 5), start="turn_start")
    assert st.hand[0] == ["SP01"] and st.deck[0] == ["MN03", "MN02"]
    assert st.decision == "CHARGE" and st.current_player == 0


def test_end_phase_start_passes_the_turn_to_the_opponent():
    st = position(masters=("MS01", "MS01"), hands=([], ["MN01"]), turn=6, active=0, start="end")
    assert st.turn == 7 and st.active == 1
    assert st.decision == "CHARGE" and st.current_player == 1


@pytest.mark.parametrize("start", [*STEPS, "start", "draw", "charge", "main", "attack", "end"])
def test_every_start_step_reaches_a_decision_with_legal_actions(start):
    st = position(
        masters=("MS02", "MS05"),
        hands=(["MN01", "SP02"], ["MN02"]),
        experience=(2, 2),
        monsters=(["MN02"], ["MN01"]),
        start=start,
    )
    assert not st.done and st.decision_point is not None and st.legal_actions()


# ----------------------------------------------------------------------------- zones and uids
def test_piles_are_given_top_first_and_field_cards_numbered_in_seat_order():
    st = position(
        masters=("MS01", "MS03"),
        decks=(["MN01", "MN02"], ["MN03"]),
        experience=(["SP01", "MN04", "MN07", "MN08"], []),
        discards=(["MN05", "MN06"], []),
        monsters=(["MN02", "MN01"], []),
        weapons=("WP01", "WP02"),
        spells=(("SP02", 2), ("SP01", 1)),
    )
    assert st.deck[0] == ["MN02", "MN01"] and st.exp[0] == ["MN08", "MN07", "MN04", "SP01"]
    assert st.discard[0] == ["MN06", "MN05"]
    assert [m.uid for m in st.monsters[0]] == [1, 2]
    assert st.weapon == [["WP01", 3], ["WP02", 5]]
    assert st.spell == [["SP02", 2, 4], ["SP01", 1, 6]]
    assert st.next_uid == 7 and st.level == [2, 0]
    # the registered deck lists: the master plus every card the seat holds
    assert st.decks[1] == ["MS03", "MN03", "WP02", "SP01"]
    held = ["MN01", "MN02", "SP01", "MN04", "MN07", "MN08", "MN05", "MN06", "MN02", "MN01", "WP01", "SP02"]
    assert st.decks[0][0] == "MS01" and sorted(st.decks[0][1:]) == sorted(held)


def test_levels_come_from_the_experience_pile():
    st = position(masters=("MS04", "MS01"), experience=(14, 3))
    assert st.level == [4, 1] and slots(st, 0) == 4 and master_attack(st, 0) == 4


# ----------------------------------------------------------------------------- the checks
BAD = [
    (
        {"hands": (["NOPE"], [])},
        r"P0 hand \(card 0\): unknown card id 'NOPE' \(not in the pool .*core\.toml\)",
    ),
    ({"decks": (5, ["MN01", "XX9"])}, r"P1 deck \(card 1\): unknown card id 'XX9' \(not in the pool"),
    (
        {"masters": ("MN01", "MS01")},
        r"P0 master: 'MN01' \(Moss Sprite\) is a MONSTER card; this place holds MASTER",
    ),
    ({"masters": ("MS01", "NOPE")}, r"P1 master: unknown card id 'NOPE'"),
    (
        {"hands": (["MS02"], [])},
        r"P0 hand \(card 0\): 'MS02' \(Tide Oracle\) is a MASTER card; this place holds MONSTER or WEAPON or SPELL \(R3\)",
    ),
    (
        {"experience": (2, 0), "monsters": (["SP01"], [])},
        r"P0 monsters\[0\]: 'SP01' \(Fire Bolt\) is a SPELL card; this place holds MONSTER",
    ),
    (
        {"weapons": (None, "MN01")},
        r"P1 weapon: 'MN01' \(Moss Sprite\) is a MONSTER card; this place holds WEAPON",
    ),
    (
        {"spells": (("WP01", 1), None)},
        r"P0 spell: 'WP01' \(Rusted Blade\) is a WEAPON card; this place holds SPELL",
    ),
    (
        {"experience": (4, 0), "monsters": (["MN01", "MN02", "MN03"], [])},
        r"rule: I4 P0 has 3 monsters at level 2: more than its summon slots \(R17, D11\)",
    ),
    (
        {"experience": (0, 0), "monsters": ([], ["MN01"])},
        r"rule: I4 P1 has 1 monsters at level 0: more than its summon slots \(R17, D11\)",
    ),
    (
        {"masters": ("MS04", "MS01"), "experience": (14, 0), "monsters": (["MN01"] * 6, [])},
        r"I4 P0 has 6 monsters; at most MAX_MONSTERS = 5 \(R17\)",
    ),
    (
        {
            "decks": (["MN02", "MN02"], 3),
            "hands": (["MN02"], []),
            "discards": (["MN02"], []),
            "max_copies": 3,
        },
        r"rule: D6 P0 holds 4 copies of Pike Soldier \(MN02\); at most max_copies = 3$",
    ),
    (
        {"decks": (30, 20), "experience": (11, 0)},
        r"rule: I1 P0 holds 41 main-deck cards; a seat owns 40 and 1 master \(R3\)$",
    ),
    ({"life": (20, 0)}, r"rule: I7 P1's life is 0 in a live game; it is 1\.\.20 at a decision \(R1, 5\.7\)$"),
    ({"life": (21, 20)}, r"rule: I2 P0's life 21 is above 20 \(R6, D13\)"),
    ({"turn": 0}, r"turn: must be a whole number in 1\.\.100, got 0 \(D42\)$"),
    ({"turn": 11, "max_turns": 10}, r"turn: must be a whole number in 1\.\.10, got 11 \(D42\)$"),
    ({"active": 2}, r"active: must be a whole number in 0\.\.1, got 2$"),
    ({"first": -1}, r"first: must be a whole number in 0\.\.1, got -1$"),
    ({"start": "combat"}, r"start: unknown value 'combat'; allowed: turn_start, draw_phase"),
    ({"colour": "red"}, r"rules options: unknown rules option\(s\) colour"),
    ({"first_player": 1}, r"first_player=1 disagrees with first=0"),
    (
        {"masters": ("MS02", "MS01"), "experience": (8, 0), "monsters": (["MN14"], [])},
        r"rule: D17 P0's Colossus of Ash \(MN14\) is GIGANT, which master Tide Oracle is restricted from",
    ),
    (
        {"experience": (2, 0), "monsters": ([("MN03", 1, 6)], [])},
        r"rule: I5 P0's Stone Sentinel \(MN03\) has toughness 0 at a decision; 0 or less is discarded \(R26\)$",
    ),
    (
        {"experience": (2, 0), "monsters": ([("MN03", 4)], [])},
        r"P0 monsters\[0\] entered: must be a turn number up to turn=3, got 4 \(D2\)$",
    ),
    (
        {"experience": (2, 0), "monsters": ([("MN03", 1, -1)], [])},
        r"P0 monsters\[0\] damage: must be a whole number in 0 or more, got -1 \(D38\)$",
    ),
    (
        {"experience": (2, 0), "monsters": ([{"card": "MN03", "hp": 1}], [])},
        r"P0 monsters\[0\]: unknown key 'hp'; the keys are card, entered, damage, attacked, mods$",
    ),
    (
        {"spells": (("SP01", 4), None)},
        r"P0 spell cast_turn: must be a whole number in 0\.\.3, got 4 \(D20\)$",
    ),
    ({"hands": (["MN01"], [], [])}, r"hands: give one entry per seat, as \(P0, P1\)"),
    ({"hands": ("MN01", [])}, r"P0 hand: give a list of card ids"),
    ({"charges": 3}, r"rule: D7 P0 made 3 charges this turn; the charge limit is at most 2$"),
    (
        {"master_mods": ([[1, 0, 7]], [])},
        r"P0 master_mods: modifier \[1, 0, 7\] is not \[d_atk, d_def, duration\]",
    ),
    ({"turn_uses": ({"NOPE": 1}, {})}, r"P0 turn_uses: unknown card id 'NOPE'"),
    ({"decks": (-1, 20)}, r"P0 deck: must be a whole number in 0 or more, got -1$"),
    ({"vacant_seat": True, "active": 0}, r"P1 master: seat 1 is vacant \(vacant_seat\), so it has no master"),
    ({"master_attacked": ("yes", False)}, r"P0 master_attacked: must be True or False, got 'yes'$"),
]


#: Test ids from the messages, with the regex escapes and brackets left out (some runners,
#: mutmut's among them, cannot select a test whose id holds a backslash).
BAD_IDS = [re.sub(r"[^\w :,.-]+", "", m)[:40].strip() for _, m in BAD]


@pytest.mark.parametrize(("kwargs", "message"), BAD, ids=BAD_IDS)
def test_a_bad_position_is_refused_with_a_message_naming_the_problem(kwargs, message):
    kw = {"masters": ("MS01", "MS01"), **kwargs}
    with pytest.raises(PositionError, match=message):
        position(**kw)


def test_position_error_is_a_state_error_and_a_value_error():
    with pytest.raises(StateError):
        position(life=(0, 20))
    with pytest.raises(ValueError, match="P0's life"):
        position(life=(0, 20))


def test_unknown_ids_name_the_pool_they_were_looked_up_in():
    with pytest.raises(
        PositionError, match=r"unknown card id 'MN01' \(not in the pool .*fixture_cards\.toml\)"
    ):
        position(pool=fx.POOL, masters=("TM", "TM"), hands=(["MN01"], []))


def test_lenient_keeps_what_only_a_reachable_position_needs():
    st = position(
        masters=("MS01", "MS01"),
        decks=(30, 20),
        experience=(11, 0),
        monsters=([("MN03", 1, 6)], []),
        start="attack_phase",
        lenient=True,
    )
    assert len(st.deck[0]) + len(st.exp[0]) == 41 and st.monsters[0][0].damage == 6
    # the rule checks still apply
    with pytest.raises(PositionError, match="R17"):
        position(masters=("MS01", "MS01"), monsters=(["MN01"], []), lenient=True)


def test_a_vacant_seat_holds_nothing():
    st = position(masters=("MS01", None), decks=(10, 0), life=(20, 20), vacant_seat=True, first_turn=0)
    assert st.masters == ["MS01", ""] and st.life[1] == 0 and st.decks[1] == []
    assert st.decision == "MAIN" and st.current_player == 0
    with pytest.raises(PositionError, match="P1 hands: seat 1 is vacant"):
        position(masters=("MS01", None), decks=(10, 0), hands=([], ["MN01"]), vacant_seat=True)


def test_a_live_position_with_an_empty_deck_is_refused_I7_R2_D40():
    """The state check after the draw that empties a deck ends the game, so no decision has one."""
    with pytest.raises(
        PositionError,
        match=r"^the position breaks a rule: I7 P1's deck is empty in a live game: .* \(R2, D40\)$",
    ):
        position(masters=("MS01", "MS01"), decks=(20, 0))
    with pytest.raises(
        PositionError, match=r"^the position breaks a rule: I7 P0's deck is empty in a live game"
    ):
        position(masters=("MS01", "MS01"), decks=(0, 5), start="attack_phase", experience=(2, 0))
    with pytest.raises(PositionError, match=r"^the position breaks a rule: I7 P0's deck is empty"):
        fx.make_state(decks=(0, 20))  # the lenient fixture builder too
    # from the turn start, the draw phase's state check ends the game instead (E11): not refused
    st = position(masters=("MS01", "MS01"), decks=(0, 20), start="turn_start")
    assert st.done and st.winner == 1 and st.reason == "P0 loses with an empty deck"
    assert position(masters=("MS01", "MS01"), decks=(1, 20), start="draw").winner == 1


def test_a_start_at_the_turn_start_plays_the_rules_that_refuse_the_same_position_at_a_decision():
    """Life 0, a monster past its toughness and monsters beyond the slots are refused at a main
    decision; from the turn start, the state check and the overflow discard apply them instead."""
    kw = {"masters": ("MS01", "MS01"), "start": "turn_start"}
    over = position(life=(0, 20), **kw)
    assert over.done and over.winner == 1 and over.reason == "P0 loses with life 0"
    st = position(experience=(2, 0), monsters=([("MN03", 1, 6)], []), **kw)
    assert st.monsters[0] == [] and st.discard[0] == ["MN03"] and st.decision == "CHARGE"
    st = position(monsters=(["MN01"], []), **kw)
    assert st.decision == "OVERFLOW_DISCARD" and st.current_player == 0
    with pytest.raises(PositionError, match=r"rule: I4 P0 has 1 monsters at level 0"):
        position(masters=("MS01", "MS01"), monsters=(["MN01"], []))


def test_a_monster_that_attacked_on_the_turn_it_entered_is_refused_I12_R24_D33():
    kw = {"masters": ("MS01", "MS01"), "experience": (2, 0), "turn": 5, "start": "attack_phase"}
    with pytest.raises(
        PositionError,
        match=r"^the position breaks a rule: I12 P0's Ember Hound \(MN04\) attacked on turn 5, the turn it entered the field: a "
        r"just-summoned monster cannot attack until its controller's next turn \(R24, D33\)$",
    ):
        position(monsters=([{"card": "MN04", "entered": 5, "attacked": True}], []), **kw)
    # one that entered on an earlier turn may have attacked already
    st = position(monsters=([{"card": "MN04", "entered": 3, "attacked": True}], []), **kw)
    assert st.decision == "ATTACK_DECLARE" and ATTACKER[1] not in st.legal_actions()


def test_the_first_players_master_that_attacked_on_turn_1_is_refused_I12_R9():
    with pytest.raises(
        PositionError,
        match=r"^the position breaks a rule: I12 P0's master attacked on turn 1, the game's first turn \(R9",
    ):
        position(masters=("MS01", "MS01"), turn=1, master_attacked=(True, False))


# ----------------------------------------------------------------------------- mid-turn situations
def test_a_monster_that_already_attacked_this_turn_cannot_attack_again():
    kw = {"masters": ("MS01", "MS01"), "experience": (4, 0), "start": "attack_phase", "turn": 5}
    st = position(monsters=([{"card": "MN02", "attacked": True}, "MN04"], []), **kw)
    assert _attackers(st) == [ATTACKER[0], ATTACKER[2]]
    # the tuple form (card, entered, damage, attacked) says the same
    st = position(monsters=([("MN02", 3, 0, True), "MN04"], []), master_attacked=(True, False), **kw)
    assert _attackers(st) == [ATTACKER[2]]
    # nobody left to attack: the attack phase ends and the opponent's turn begins
    st = position(monsters=([("MN02", 3, 0, True)], []), master_attacked=(True, False), **kw)
    assert st.turn == 6 and st.active == 1 and st.current_player == 1


def test_a_monster_that_entered_this_turn_is_sick_and_cannot_attack():
    kw = {"masters": ("MS01", "MS01"), "experience": (2, 0), "start": "attack_phase", "turn": 5}
    sick = position(monsters=([{"card": "MN04", "entered": 5}], []), **kw)
    assert _attackers(sick) == [ATTACKER[0]]
    ready = position(monsters=([{"card": "MN04", "entered": 3}], []), **kw)
    assert _attackers(ready) == [ATTACKER[0], ATTACKER[1]]


def test_the_master_cannot_attack_on_the_games_first_turn():
    st = position(masters=("MS01", "MS01"), turn=1, start="attack_phase", hands=([], ["MN01"]))
    assert st.turn == 2 and st.active == 1  # no attacker on turn 1 (R9, D32): the turn ended


def test_a_face_down_spell_cast_last_turn_is_ready_and_one_cast_this_turn_is_not():
    kw = {"masters": ("MS01", "MS01"), "turn": 7}
    ready = position(spells=(("SP01", 6), None), **kw)
    assert SLOT_SPELL in ready.legal_actions()
    fresh = position(spells=(("SP01", 7), None), **kw)
    assert SLOT_SPELL not in fresh.legal_actions()
    assert position(spells=({"card": "SP01", "cast_turn": 5}, None), **kw).spell[0] == ["SP01", 5, 1]


def test_damage_on_a_monster_persists_into_the_position():
    st = position(
        masters=("MS01", "MS01"),
        experience=(2, 2),
        monsters=(["MN01"], [{"card": "MN03", "damage": 5}]),
        start="attack_phase",
    )
    st.apply(ATTACKER[1])
    st.apply(TARGET[9])
    # Moss Sprite (1/1) deals 1 to Stone Sentinel (0/6, 5 damage): it is destroyed; the Sprite lives
    assert st.monsters[1] == [] and st.discard[1] == ["MN03"]
    assert [m.card for m in st.monsters[0]] == ["MN01"] and st.monsters[0][0].damage == 0


def test_a_used_fast_spell_and_spent_turn_counters_are_kept_mid_turn():
    kw = {"masters": ("MS01", "MS01"), "experience": (2, 2), "hands": (["SP02"], [])}
    kw["monsters"] = ([], ["MN01"])
    fresh = position(**kw)
    assert FAST[K["SP02"]] in fresh.legal_actions()
    assert any(a.kind == Kind.ABILITY for a in fresh.legal_actions())  # Ashen Regent's 起動, ターン1
    used = position(fast_used=(True, False), turn_uses=({"MS01": 1}, {}), **kw)
    assert FAST[K["SP02"]] not in used.legal_actions()
    assert not any(a.kind == Kind.ABILITY for a in used.legal_actions())
    assert used.turn_uses[0] == {"MS01/0": 1}


def test_modifiers_on_monsters_and_masters():
    st = position(
        masters=("MS01", "MS01"),
        experience=(2, 0),
        monsters=([{"card": "MN03", "damage": 6, "mods": [[0, 1, 0]]}], []),
        master_mods=([[2, 0, 1]], []),
        start="attack_phase",
    )
    assert master_attack(st, 0) == 3  # level 1 (1) + a permanent +2
    st.apply(PASS)  # the TURN modifier expires at the end step; the Sentinel is destroyed (D46)
    assert st.monsters[0] == [] and "MN03" in st.discard[0]


# ----------------------------------------------------------------------------- round trip, agents
def test_a_built_position_round_trips_exactly_and_plays_on_identically():
    st = position(
        masters=("MS03", "MS02"),
        hands=(["MN02", "SP02", "WP01"], ["SP05", "MN01"]),
        decks=(["MN01", "MN04", "SP01"], ["MN08", "MN09", "MN10", "MN11", "MN08"]),
        experience=(["MN01", "MN02", "MN01", "SP01"], ["MN09", "MN10"]),
        life=(13, 7),
        monsters=(
            [{"card": "MN07", "damage": 1, "attacked": True}, {"card": "MN02", "entered": 9}],
            ["MN03"],
        ),
        weapons=("WP02", None),
        spells=(None, ("SP05", 8)),
        discards=(["MN06"], ["MN05", "SP02"]),
        turn=9,
        active=0,
        first=0,
        max_copies=4,
    )
    data = json.loads(_json(st))
    back = GameState.from_dict(data)
    assert _json(back) == _json(st)
    assert back.legal_actions() == st.legal_actions()
    a, b = st.clone(), back
    for _ in range(40):
        if a.done:
            break
        move = a.legal_actions()[-1]
        a.apply(move)
        b.apply(move)
    assert _json(a) == _json(b)


@pytest.mark.parametrize("start", ["main_phase", "attack_phase"])
def test_the_heuristic_and_search_choose_a_legal_action_in_a_built_position(start):
    st = position(
        masters=("MS01", "MS03"),
        hands=(["MN02", "SP02", "MN04"], ["SP05", "MN01"]),
        decks=(8, 8),
        experience=(4, 2),
        life=(9, 6),
        monsters=(["MN04", {"card": "MN02", "attacked": start == "attack_phase"}], ["MN07"]),
        spells=(None, ("SP05", 3)),
        turn=5,
        start=start,
    )
    seat = st.current_player
    legal = st.legal_actions()
    assert seat == 0 and len(legal) > 1
    before = _json(st)
    for spec in ("heuristic", "search:2"):
        agent = agents.make(spec, "mow_v1", seed=3)
        move = agent.choose(st, seat)
        assert move in legal, (spec, move)
        assert _json(st) == before  # choosing never moves the position
    st.apply(agents.make("search:2", "mow_v1", seed=3).choose(st, seat))


def test_the_documented_example_builds_the_position_it_describes():
    """The example of ``docs/positions.md`` ("Master of the World"), up to its first print."""
    page = (Path(__file__).resolve().parents[3] / "docs" / "positions.md").read_text()
    section = page.split("\n## Master of the World\n", 1)[1]
    block = section.split("```python\n", 1)[1].split("\nprint(", 1)[0]
    scope: dict = {}
    exec(block, scope)  # noqa: S102  (the documented example, as written)
    st = scope["st"]
    assert st.decision == "ATTACK_DECLARE" and st.legal_actions() == [PASS, ATTACKER[0]]
    assert st.level == [2, 1] and st.monsters[0][1].entered == st.turn


def test_the_fixture_is_a_thin_caller_of_the_builder():
    st = fx.make_state(exp=(2, 0), decks=(["GRUNT", "PEBBLE", "SWORD"], 4), discards=(["WALL", "OGRE"], []))
    assert st.deck[0] == ["GRUNT", "PEBBLE", "SWORD"]  # the fixture's lists are top LAST
    assert st.discard[0] == ["WALL", "OGRE"] and st.decks[0] == fx.deck_of("PEBBLE", "TM")
    assert st.decision == DP.MAIN.name

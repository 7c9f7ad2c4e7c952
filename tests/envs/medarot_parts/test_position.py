"""The public position builder ``envs.medarot_parts.position.position``.

Positions use the test pool of ``fixtures`` (inert filler parts keep the options small) and,
for the documented example and the agents, the packaged pool.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from deckgym import agents
from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.position import START_STEPS, position
from deckgym.envs.medarot_parts.rules.values import charge, power
from deckgym.envs.medarot_parts.state import UNTIL_CARD, UNTIL_TURN, GameState
from tests.envs.medarot_parts import fixtures as fx
from tests.envs.medarot_parts.fixtures import HEAD, LA, LEGS, RA

PLAIN = fx.PLAIN
STOP = "DRAW2"  # an ACTION card that is always playable: the action step is never forced
HITTER = ("MA3", "HEAD", "HIT5", "ARM_L", "LEGS5")
TAPPED_LEGS = ("MA3", "HEAD", "ARM_R", "ARM_L", {"card": "LEGS5", "tapped": True})


def build(field=((HITTER, PLAIN), (PLAIN, PLAIN)), **kw):
    kw.setdefault("pool", fx.pool())
    kw.setdefault("decks", (("E_S",) * 20, ("E_S",) * 20))
    return position(field=field, **kw)


# ----------------------------------------------------------------------------- start steps
START_CASES = {
    "action": ({"hands": ((STOP,), (STOP,)), "action_medarots": (0, 0), "first": 1}, "ACTION", 1),
    "action, turn-to-act with the second player": (
        {"hands": ((STOP,), (STOP,)), "action_medarots": (0, 0), "first": 0, "to_act": 1},
        "ACTION",
        1,
    ),
    "energy": ({"hands": (("E_S",), ("E_D",)), "priority": 1}, "ENERGY_PLACE", 1),
    "energy, second player's step": (
        {"hands": (("E_S",), ("E_D",)), "priority": 1, "to_act": 0},
        "ENERGY_PLACE",
        0,
    ),
    "round": ({"hands": ((STOP,), (STOP,))}, "ACTION_MEDAROT_TIE", 0),
    "turn": ({"turn": 2, "priority": 1}, "ACTION_MEDAROT_TIE", 1),
    "draw": ({"turn": 4, "hands": (("E_S",) * 3, ())}, "ACTION_MEDAROT_TIE", 0),
    "end": (
        {"field": ((TAPPED_LEGS, TAPPED_LEGS), (TAPPED_LEGS, TAPPED_LEGS)), "hands": ((), ("E_S",) * 9)},
        "DISCARD",
        1,
    ),
}


@pytest.mark.parametrize("case", list(START_CASES))
def test_a_built_position_stops_at_its_first_decision(case):
    kw, decision, player = START_CASES[case]
    start = case.split(",")[0]
    st = build(start=start, **kw)
    assert st.decision == decision and st.current_player == player
    assert len(st.legal_actions()) >= 2 and not st.is_terminal()


def test_every_documented_start_step_is_covered():
    assert set(START_STEPS) == {c.split(",")[0] for c in START_CASES}


def test_the_reference_names_every_argument_and_start_step():
    page = (Path(__file__).parents[3] / "docs" / "positions.md").read_text(encoding="utf-8")
    section = page.split("### Reference: `envs.medarot_parts.position.position`", 1)[1].split("\n## ", 1)[0]
    rows = {row.split(" | ", 1)[0] for row in section.splitlines() if row.startswith("| `")}
    named = {name for row in rows for name in re.findall(r"`(\w+)`", row)}
    assert named == set(inspect.signature(position).parameters) - {"rules"}
    start_row = next(row for row in section.splitlines() if row.startswith("| `start` |"))
    assert re.findall(r"`(\w+)` \(", start_row) == list(START_STEPS)


def test_the_start_steps_run_the_rules_from_where_they_say():
    st = build(start="turn", turn=3, field=((TAPPED_LEGS, PLAIN), (PLAIN, PLAIN)))
    assert st.turn == 3 and all(len(h) == 7 for h in st.hand)  # reset untapped the legs, draw filled
    assert not st.field[0][0].parts[LEGS].tapped
    st = build(start="draw", turn=2, hands=(("E_S",) * 7, ()), decks=(("E_D",), ("E_D",) * 7))
    assert st.hand == [["E_S"] * 7, ["E_D"] * 7] and st.deck[0] == ["E_D"]
    # A draw phase that cannot fill a hand ends the game at once (D8): the state comes back finished.
    st = build(start="draw", turn=2, hands=((), ()), decks=(("E_S",) * 7, ("E_S",) * 6))
    assert st.is_terminal() and st.winner == 0 and st.legal_actions() == []


def test_round_and_action_medarots_default_to_D9():
    fast = ("MA3", "HEAD", "HIT5", "ARM_L", "LEGS7")
    st = build(field=((PLAIN, fast), (PLAIN, PLAIN)), start="action", hands=((STOP,), (STOP,)))
    assert st.action_medarot == [1, 0] and st.first == 0 and st.round == 1  # mobility 7 beats 5
    st = build(field=((PLAIN, fast), (PLAIN, PLAIN)), start="round", hands=((STOP,), (STOP,)))
    assert st.decision == "ACTION_MEDAROT_TIE" and st.current_player == 1 and st.action_medarot[0] == 1


def test_a_vacant_seat_1_holds_nothing_and_seat_0_decides():
    st = build(
        field=((HITTER, PLAIN), ()),
        decks=(("E_S",) * 20, ()),
        hands=((STOP,), ()),
        vacant_seat=True,
    )
    assert st.decision == "ACTION" and st.current_player == 0 and st.field[1] == []
    with pytest.raises(PositionError, match="seat 1: a vacant seat .* holds no cards"):
        build(field=((HITTER, PLAIN), ()), hands=((), ("E_S",)), vacant_seat=True)


def test_decks_are_given_top_first():
    st = build(start="draw", hands=(("E_S",) * 6, ("E_S",) * 6), decks=(("EFC", "E_D", "E_U"), ("E_U",)))
    assert "EFC" in st.hand[0] and st.deck[0] == ["E_U", "E_D"]  # E_D is the next card drawn


# ----------------------------------------------------------------------------- bad positions
def arm(card):
    return ("MA3", "HEAD", card, "ARM_L", "LEGS5")


BAD = {
    "unknown card id": (
        {"hands": (("NOPE",), ())},
        r"seat 0 hand \(card 0\): unknown card id 'NOPE' \(not in the pool .*medarot_parts_test_pool",
    ),
    "unknown id on the field": (
        {"field": ((arm("NOPE"), PLAIN), (PLAIN, PLAIN))},
        r"seat 0 medarot 0 right arm: unknown card id 'NOPE' \(not in the pool ",
    ),
    "leg part in an arm slot": (
        {"field": ((arm("LEGS5"), PLAIN), (PLAIN, PLAIN))},
        r"seat 0 medarot 0 right arm: 'LEGS5' \(Legs Five\) is a LEGS part card; this place holds RIGHT_ARM part \(D1\)",
    ),
    "energy card in a head slot": (
        {"field": ((HITTER, PLAIN), (PLAIN, ("MA3", "E_S", "ARM_R", "ARM_L", "LEGS5")))},
        r"seat 1 medarot 1 head: 'E_S' .* is a ENERGY card; this place holds HEAD part \(D1\)",
    ),
    "non-medal as medal": (
        {"field": ((HITTER, PLAIN), (PLAIN, ("HEAD", "HEAD", "ARM_R", "ARM_L", "LEGS5")))},
        r"seat 1 medarot 1 medal: 'HEAD' \(Plain Head\) is a HEAD part card; this place holds MEDAL \(D1\)",
    ),
    "too many medarots": (
        {"field": ((HITTER, PLAIN, PLAIN), (PLAIN, PLAIN))},
        r"seat 0 field: 3 medarots \(too many\); each player fields exactly 2 \(D1\)",
    ),
    "too few medarots": ({"field": ((HITTER,), (PLAIN, PLAIN))}, r"seat 0 field: 1 medarots \(too few\)"),
    "a medarot of four cards": (
        {"field": ((HITTER[:4], PLAIN), (PLAIN, PLAIN))},
        r"seat 0 medarot 0: 'legs' is required",
    ),
    "copies of a card": (
        {"hands": (("POWUP",) * 3, ()), "decks": (("POWUP", "POWUP"), ())},
        r"D2 deck regulation: player 0 holds 5 copies of Power Up \(POWUP\); at most 4",
    ),
    "copies of a part, starter copies included": (
        {"field": ((HITTER, HITTER), (PLAIN, PLAIN)), "decks": (("HIT5",) * 4, ()), "trash": (("HIT5",), ())},
        r"D2 deck regulation: player 0 holds 7 copies of Hitter Five \(HIT5\); at most 6",
    ),
    "more cards than a seat has": (
        {"decks": (("E_S",) * 41, ())},
        r"D2 deck regulation: player 0 holds 51 cards; a seat has 50",
    ),
    "medal in a hand": (
        {"hands": (("MA0",), ())},
        r"D2 medals: player 0's hand holds the medal .*\(MA0\); medals stay on the field",
    ),
    "non-energy in the stock": (
        {"stocks": ((), ("EVD",))},
        r"seat 1 energy stock \(card 0\): 'EVD' .* is a EVADE card; this place holds ENERGY \(D11\)",
    ),
    "battle card in the play area": (
        {"play": (("POWUP",), ())},
        r"seat 0 play area \(card 0\): 'POWUP' .* is a BATTLE MEDAROTER card; this place holds TURN MEDAROTER \(D31\)",
    ),
    "counters beyond armor": (
        {
            "field": (
                (HITTER, PLAIN),
                (("MA3", {"card": "HEAD", "counters": 5}, "ARM_R", "ARM_L", "LEGS5"), PLAIN),
            )
        },
        r"I3 damage counters: player 1's medarot 0 head .* holds 5 counters; .* holds 0\.\.4 \(armor 5, R18\)",
    ),
    "counters on a destroyed part": (
        {
            "field": (
                (
                    ("MA3", "HEAD", {"card": "HIT5", "destroyed": True, "counters": 1}, "ARM_L", "LEGS5"),
                    PLAIN,
                ),
                (PLAIN, PLAIN),
            )
        },
        r"I3 damage counters: player 0's medarot 0 right arm .* is destroyed, so it is tapped and holds no counters",
    ),
    "a destroyed part marked untapped": (
        {"field": ((arm({"card": "HIT5", "destroyed": True, "tapped": False}), PLAIN), (PLAIN, PLAIN))},
        r"I3 damage counters: player 0's medarot 0 right arm .* is destroyed, so it is tapped .*\(R22\)",
    ),
    "effect card on a part that is no effect part": (
        {"field": ((arm({"card": "HIT5", "effect": "EFC"}), PLAIN), (PLAIN, PLAIN))},
        r"I5 effect cards: player 0's medarot 0 right arm .*\(HIT5\)\) is not a melee effect part, .*\(R23, R24\)",
    ),
    "OPP_SLOT effect without its target": (
        {"field": ((arm({"card": "BLOOM", "effect": "EFC"}), PLAIN), (PLAIN, PLAIN))},
        r"seat 0 medarot 0 right arm: give effect_target",
    ),
    "unknown part key": (
        {"field": ((arm({"card": "HIT5", "damage": 2}), PLAIN), (PLAIN, PLAIN))},
        r"seat 0 medarot 0 right arm: unknown key 'damage'; the keys are card, tapped, destroyed, counters",
    ),
    "turn 0": ({"turn": 0}, r"turn: must be a whole number in 1\.\.30, got 0 \(D35\)"),
    "turn past the cap": (
        {"turn": 5, "max_turns": 4},
        r"turn: must be a whole number in 1\.\.4, got 5 \(D35\)",
    ),
    "round 3": ({"round": 3}, r"round: must be a whole number in 1\.\.2, got 3 \(D15\)"),
    "round before the main phase": ({"start": "turn", "round": 1}, r"round: start step 'turn' begins before"),
    "priority seat 2": ({"priority": 2}, r"priority: must be a whole number in 0\.\.1, got 2 \(D5\)"),
    "first player not a seat": ({"first": -1}, r"first: must be a whole number in 0\.\.1, got -1 \(D9\)"),
    "turn-to-act a bool": (
        {"to_act": True},
        r"to_act: must be a whole number in 0\.\.1, got True \(D12\)",
    ),
    "three passes": ({"passes": 2}, r"passes: must be a whole number in 0\.\.1, got 2 \(D12\)"),
    "first player at a turn start": (
        {"start": "turn", "first": 0},
        r"first: set by the rules at start step 'turn'",
    ),
    "action medarots at a new round": (
        {"start": "round", "action_medarots": (0, 0)},
        r"action_medarots: set by the rules at start step 'round'",
    ),
    "action medarot out of range": (
        {"action_medarots": (2, 0)},
        r"seat 0 action medarot: must be a whole number in -1\.\.1, got 2 \(D9\)",
    ),
    "stopped action medarot": (
        {
            "field": (
                (("MA3", {"card": "HEAD", "destroyed": True}, "HIT5", "ARM_L", "LEGS5"), PLAIN),
                (PLAIN, PLAIN),
            ),
            "action_medarots": (0, 0),
        },
        r"I4 stopped medarots: player 0's action medarot 0 is stopped \(head destroyed, D33\)",
    ),
    "unknown start step": (
        {"start": "battle"},
        r"start: unknown value 'battle'; allowed: turn, draw, round, energy, action, end \(5\)",
    ),
    "unknown rules option": ({"hand_limit": 5}, r"rules: unknown rules option\(s\) hand_limit; known: "),
    "game already over": (
        {
            "field": (
                (HITTER, PLAIN),
                (("MA3", {"card": "HEAD", "destroyed": True}, "ARM_R", "ARM_L", "LEGS5"),) * 2,
            )
        },
        r"I4 stopped medarots: every medarot of player 1 is stopped, yet the game goes on \(D34\)",
    ),
    "end phase with a medarot left to act": (
        {"start": "end"},
        r"seat 0 medarot 0 legs: untapped: the main phase ends only",
    ),
    "round 2 with two medarots left to act": (
        {"round": 2, "action_medarots": (0, 0)},
        r"seat 0 medarot 1 legs: untapped in round 2",
    ),
    "energy step with a slower action medarot": (
        {
            "field": ((PLAIN, ("MA3", "HEAD", "ARM_R", "ARM_L", "LEGS7")), (PLAIN, PLAIN)),
            "start": "energy",
            "action_medarots": (0, 0),
        },
        r"seat 0 action medarot: medarot 0 is not a fastest candidate",
    ),
    "energy step with nobody to act": (
        {"start": "energy", "field": ((TAPPED_LEGS, TAPPED_LEGS), (TAPPED_LEGS, TAPPED_LEGS))},
        r"action_medarots: none on either side: no round starts",
    ),
    "energy step with the wrong first player": (
        {"start": "energy", "first": 1},
        r"first: seat 1 is not the first player of this round by D9 \(seat 0 is\)",
    ),
    "draw phase with a tapped part": (
        {"start": "draw", "field": ((TAPPED_LEGS, PLAIN), (PLAIN, PLAIN))},
        r"seat 0 medarot 0 legs: tapped at the draw phase: the reset phase untapped it \(D7\)",
    ),
    "a battle modifier": (
        {"modifiers": [{"stat": "power", "amount": 1, "part": (0, 0, "right_arm"), "until": "battle"}]},
        r"modifier 0: a BATTLE modifier lasts only during a battle",
    ),
    "a modifier on the legs": (
        {"modifiers": [{"stat": "charge", "amount": 1, "seat": 1, "medarot": 0, "slots": ["legs"]}]},
        r"modifier 0 slots: unknown value 'legs'; allowed: head, right_arm, left_arm \(D39\)",
    ),
    "a modifier beyond the vocabulary": (
        {"modifiers": [{"stat": "charge", "amount": 3, "seat": 1, "medarot": 0, "slots": ["head"]}]},
        r"modifier 0 amount: must be a whole number in -2\.\.2, got 3 \(4\.3\)",
    ),
    "a hand over the cap": (
        {"hands": (("E_S",) * 17, ())},
        r"I6 hand size: player 0 holds 17 cards; a hand holds at most 16 \(D36\)",
    ),
    "negative assets": (
        {"assets": (-1, 0)},
        r"seat 0 assets: must be a whole number in 0 or more, got -1 \(D3\)",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_position_raises_PositionError_naming_the_problem(case):
    kw, message = BAD[case]
    with pytest.raises(PositionError, match=message) as info:
        build(**kw)
    assert isinstance(info.value, StateError) and isinstance(info.value, ValueError)


def test_deck_rules_false_lifts_the_copy_limits_only():
    st = build(hands=(("POWUP",) * 3, ()), decks=(("POWUP", "POWUP"), ()), deck_rules=False)
    assert st.hand[0] == ["POWUP"] * 3
    with pytest.raises(PositionError, match="unknown card id"):
        build(hands=(("NOPE",), ()), deck_rules=False)


def test_six_copies_of_a_part_are_allowed_two_of_them_starters():
    st = build(field=((HITTER, HITTER), (PLAIN, PLAIN)), decks=(("HIT5",) * 4, ()), hands=((STOP,), (STOP,)))
    assert st.decision == "ACTION"


# ----------------------------------------------------------------------------- mid-turn situations
def test_a_tapped_part_cannot_be_used_and_an_untapped_one_can():
    hands = ((STOP,), (STOP,))
    st = build(hands=hands, action_medarots=(0, 0), first=0)
    assert A.USE_PART[RA] in st.legal_actions()
    st = build(
        field=((arm({"card": "HIT5", "tapped": True}), PLAIN), (PLAIN, PLAIN)),
        hands=hands,
        action_medarots=(0, 0),
        first=0,
    )
    assert st.decision == "ACTION" and A.USE_PART[RA] not in st.legal_actions()


def test_a_destroyed_head_stops_the_medarot():
    dead = ("MA3", {"card": "HEAD", "destroyed": True}, "HIT5", "ARM_L", "LEGS7")
    st = build(field=((dead, HITTER), (PLAIN, PLAIN)), start="round", hands=((STOP,), (STOP,)))
    # The faster medarot 0 is stopped: medarot 1 is seat 0's action medarot (D9, D33).
    assert st.field[0][0].stopped and st.action_medarot[0] == 1
    assert st.field[0][0].parts[HEAD].tapped and st.decision == "ACTION_MEDAROT_TIE"
    # It is no target of the opponent's attacks either: the attacker designates only medarot 1.
    st = build(
        field=(
            (HITTER, PLAIN),
            (("MA3", {"card": "HEAD", "destroyed": True}, "ARM_R", "ARM_L", "LEGS5"), PLAIN),
        ),
        hands=((STOP,), (STOP,)),
        action_medarots=(0, -1),
    )
    fx.do(st, A.USE_PART[RA], DP.ACTION, 0)
    assert fx.forced(st, "DEFENDER_CHOICE: MEDAROT(1)") and st.battle.defender == 1


def test_a_medarot_that_already_acted_may_attack_but_not_repair():
    healer = ("MA3", "HEAD", "HIT5", "KIT", "LEGS5")
    damaged = ("MA3", {"card": "HEAD", "counters": 2}, "ARM_R", "ARM_L", "LEGS5")
    kw = {"hands": ((STOP,), (STOP,)), "stocks": (("E_D", "E_D"), ()), "action_medarots": (0, 0), "first": 0}
    st = build(field=((healer, damaged), (PLAIN, PLAIN)), **kw)
    assert {A.USE_PART[RA], A.USE_PART[LA]} <= set(st.legal_actions())
    acted = ("MA3", "HEAD", "HIT5", "KIT", {"card": "LEGS5", "tapped": True})
    st = build(field=((acted, damaged), (PLAIN, PLAIN)), **kw)
    assert A.USE_PART[RA] in st.legal_actions() and A.USE_PART[LA] not in st.legal_actions()  # D14, D29


def test_passes_one_means_the_next_pass_ends_the_action_step():
    field = ((HITTER, TAPPED_LEGS), (PLAIN, TAPPED_LEGS))
    kw = {"field": field, "hands": ((STOP,), (STOP,)), "action_medarots": (0, 0), "first": 0}
    st = build(**kw)
    fx.do(st, A.PASS, DP.ACTION, 0)
    assert st.decision == "ACTION" and st.current_player == 1  # seat 1's turn-to-act
    st = build(passes=1, **kw)
    fx.do(st, A.PASS, DP.ACTION, 0)
    # Two passes in a row: the step ends (D12), no medarot is left to act (D16): the end phase.
    assert st.decision == "DISCARD" and st.current_player == 0 and st.action_medarot == [-1, -1]
    assert st.field[0][0].parts[LEGS].tapped and st.turn == 1


def test_a_slot_modifier_is_active_and_bound_to_the_slot():
    mods = [
        {"stat": "power", "amount": 2, "seat": 0, "medarot": 0, "slots": ["right_arm"]},
        {"stat": "CHARGE", "amount": 1, "part": (1, 0, 1)},
    ]
    field = ((HITTER, PLAIN), (HITTER, PLAIN))
    st = build(field=field, hands=(("HIT3",), (STOP,)), modifiers=mods, action_medarots=(0, 0), first=0)
    assert power(st, 0, 0, RA) == 7 and charge(st, 1, 0, RA) == 1
    assert st.mods == [[0, 2, -1, 0, 0, 0b0010, UNTIL_TURN, -1], [1, 1, 10, -1, -1, 0, UNTIL_TURN, -1]]
    fx.do(st, A.HAND[0], DP.ACTION, 0)  # exchange the right arm for HIT3: the slot keeps +2 (D42)
    assert fx.part(st, 0, 0, RA).card == "HIT3" and power(st, 0, 0, RA) == 5


def test_an_effect_card_and_an_attached_card_bring_their_modifiers():
    bloom = ("MA3", "HEAD", {"card": "BLOOM", "effect": "EFC", "effect_target": 1}, "ARM_L", "LEGS5")
    bolted = ("MA3", "HEAD", {"card": "CANNON", "attached": ["BOLT"]}, "ARM_L", "LEGS5")
    st = build(field=((bloom, PLAIN), (PLAIN, bolted)), hands=((STOP,), (STOP,)))
    # Cannon: power 5, +1 from Bolt-on, -2 from Rust Bloom's effect bound to B2's right arm.
    assert power(st, 1, 1, RA) == 4
    assert [m[6] for m in st.mods] == [UNTIL_CARD, UNTIL_CARD]
    assert fx.part(st, 0, 0, RA).effect == "EFC" and fx.part(st, 1, 1, RA).attached == ["BOLT"]


def test_part_uids_follow_the_field_order():
    st = build(hands=((STOP,), (STOP,)))
    uids = [x.uid for row in st.field for med in row for x in med.parts]
    assert uids == list(range(1, 17)) and st.next_uid == 17


# ----------------------------------------------------------------------------- round trip and agents
def rich_position(**kw):
    bloom = ("MA1", "HEAD", {"card": "BLOOM", "effect": "EFC", "effect_target": 0}, "ARM_L", "LEGS5")
    guard = (
        "MA0",
        "GLASS",
        {"card": "CANNON", "attached": ["BOLT"]},
        {"card": "ARM_L", "destroyed": True},
        "LEGS5",
    )
    args = {
        "field": ((("MA3", {"card": "HEAD", "counters": 2}, "HIT5", "KIT", "LEGS3"), bloom), (guard, PLAIN)),
        "hands": (("EVD", "POWUP", STOP), ("JAMMER", "EVD")),
        "stocks": (("E_S", ("E_D", True), "E_U"), (("E_D", False), ("E_U", True))),
        "play": (("HYMN",), ()),
        "trash": (("WELD",), ("ZERO",)),
        "assets": (3000, 4500),
        "modifiers": [
            {
                "stat": "power",
                "amount": 1,
                "seat": 0,
                "medarot": 0,
                "slots": ["head", "right_arm", "left_arm"],
            }
        ],
        "turn": 3,
    }
    args.update(kw)
    return build(**args)


def test_to_dict_from_dict_round_trip_of_a_built_position_is_exact():
    st = rich_position(action_medarots=(0, 0), first=0)
    data = json.loads(json.dumps(st.to_dict()))
    back = GameState.from_dict(data)
    assert back.to_dict() == st.to_dict() and back.legal_actions() == st.legal_actions()
    for a in (st, back):
        a.apply(A.USE_PART[RA])
    assert back.to_dict() == st.to_dict()


@pytest.mark.parametrize("spec", ["heuristic", "search:2"])
def test_agents_choose_a_legal_action_at_a_built_position(spec):
    agent = agents.make(spec, "medarot_parts_v1", seed=3)
    for start in ("action", "energy"):
        st = rich_position(
            start=start,
            hands=(("EVD", "POWUP", STOP, "E_S"), ("JAMMER", "EVD")),
            decks=(("E_S",) * 8, ("E_D",) * 8),
        )
        seat = st.current_player
        before = st.to_dict()
        move = agent.choose(st, seat)
        assert move in st.legal_actions() and st.to_dict() == before  # the agent does not move the state
        st.apply(move)


def test_the_documented_example_builds_the_position_it_describes():
    page = (Path(__file__).parents[3] / "docs" / "positions.md").read_text(encoding="utf-8")
    section = page.split("## The parts game", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL).group(1)
    scope: dict = {}
    exec(block.split("\nprint(", 1)[0], scope)  # noqa: S102 - the page is ours: its imports and position(...)
    st = scope["st"]
    assert st.decision == "ACTION" and st.legal_actions() == [A.PASS, A.USE_PART[HEAD], A.USE_PART[LA]]

"""The public AMALOGS position builder ``envs.amalogs.position.position``."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import deckgym.envs.amalogs.position as position_module
import tests.envs.amalogs.fixtures as fx
from deckgym import agents
from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.env import AmalogsRuleset
from deckgym.envs.amalogs.position import START_PHASES, position
from deckgym.envs.amalogs.rules.geometry import SPAWN, square
from deckgym.envs.core.errors import PositionError

ADV, PARTS, MOW = 1, 2, 3
E4 = {"rulesets": (ADV, PARTS, MOW, ADV), "squares": ((5, 3), (3, 2), (7, 4), (8, 5))}


# ----------------------------------------------------------------------------- first decisions
def test_meta_field_2v2_reaches_the_holders_command_with_the_flags_as_given() -> None:
    st = position(
        rulesets=("medarot_ocg_advance", ADV, ADV, "medarot_parts"),
        squares=((5, 3), 8, (7, 3), (9, 6)),  # 8 = (1, 1)
        ap=(4, 0, 2, 0),
        life=(15, 11),
        team_turn=4,
        acting=1,
    )
    assert st.decision == "META_FIELD" and st.phase == Phase.META_FIELD
    assert st.current_player == st.control == 2 and st.acting == 1 and st.first_team == 0
    assert [a.square for a in st.avatars] == [square(5, 3), square(1, 1), square(7, 3), square(9, 6)]
    assert [a.ap for a in st.avatars] == [4, 0, 2, 0] and st.life == [15, 11] and st.team_turn == 4
    assert [a.ruleset for a in st.avatars] == [ADV, ADV, ADV, PARTS]
    assert all(a.side is not None for a in st.avatars)
    legal = st.legal_actions()
    assert legal and A.DUEL in legal and A.GUARD in legal and A.END_TURN not in legal
    assert A.HAND_OVER in legal  # D6 (b): nothing happened yet in this meta-field phase


def test_ap_gain_1v1_runs_the_action_point_gain_before_the_first_decision() -> None:
    st = position(
        team_sizes=(1, 1),
        rulesets=(ADV, MOW),
        squares=((5, 3), (7, 3)),
        ap=(8, 2),
        guarding=(True, True),
        dueled=(True, True),
        ended=(True, True),
        team_turn=3,
        acting=0,
        start="ap_gain",
    )
    assert st.decision == "META_FIELD" and st.current_player == 0 and st.team_turn == 3
    a0, b0 = st.avatars
    assert (a0.ap, a0.guarding, a0.dueled, a0.ended) == (9, False, False, False)  # E2: min(9, 8 + 3)
    assert (b0.ap, b0.guarding) == (2, True)  # the enemy keeps its Guard until its own AP gain (D26)
    assert st.events[-1] == "Team turn 3: team A acts"
    assert A.DUEL in st.legal_actions()


def test_move_dest_offers_the_squares_within_the_allowance_E3() -> None:
    st = position(
        rulesets=(ADV,) * 4,
        squares=((3, 3), (0, 0), (4, 3), (4, 4)),
        ap=(2, 0, 0, 0),  # 5 points, MOVE paid
        dice=(4, 1),
        start="move_dest",
    )
    assert st.decision == "MOVE_DEST" and st.move_allowance == 3 and st.dice == [4, 1]
    legal = st.legal_actions()
    assert A.SQUARE[square(6, 3)] in legal and A.SQUARE[square(3, 3)] in legal
    assert A.SQUARE[square(7, 3)] not in legal and A.SQUARE[square(4, 3)] not in legal
    st.apply(A.SQUARE[square(6, 3)])
    assert st.decision == "META_FIELD" and st.avatars[0].square == square(6, 3) and st.commanded


def test_strike_E4_roles_champion_and_strike_value() -> None:
    st = position(**E4, ap=(4, 0, 0, 0), start="strike")
    d = st.duel
    assert st.decision == "STRIKE" and st.current_player == 0
    assert (d.host, d.casts, d.guests, d.champion, d.bases, d.strike) == (0, [1], [2, 3], 3, [], 3)
    assert st.legal_actions() == [A.STRIKE_NONE, A.STRIKE_PLAYER[0]]  # B0 only: B1 is the champion


def test_strike_with_a_lost_champion_exits_both_E5() -> None:
    st = position(**E4, ap=(4, 0, 0, 0), start="strike", champion_lost=True)
    st.apply(A.STRIKE_NONE)
    assert st.life == [24, 14]  # A0 wins +3 x 2, B1 loses -2 x 2
    assert [a.exited for a in st.avatars] == [True, False, False, True]
    assert st.decision == "META_FIELD" and st.control == 1  # control passes to A1 (D7)


def test_respawn_start_respawns_the_exited_player_then_the_next_team_turn() -> None:
    st = position(
        pools=[[ADV], [MOW, ADV], [ADV], [ADV]],
        rulesets=(ADV, None, ADV, ADV),
        squares=((5, 3), None, (7, 4), (9, 6)),
        exited=(False, True, False, False),
        start="respawn",
    )
    assert st.decision == "RESPAWN_RULESET" and st.current_player == 1
    assert st.legal_actions() == [A.RULESET[MOW], A.RULESET[ADV]]
    assert st.avatars[0].dueled and st.avatars[0].ended  # the team turn is over
    st.apply(A.RULESET[MOW])
    while st.phase == Phase.RESPAWN_CORE:
        st.apply(fx.auto(st))
    assert st.decision == "RESPAWN_PLACE"
    assert {a.arg for a in st.legal_actions()} == set(SPAWN[0])
    st.apply(A.SQUARE[square(2, 5)])
    assert st.decision == "META_FIELD" and st.acting == 1 and st.team_turn == 2
    assert st.avatars[1].ruleset == MOW and not st.avatars[1].exited


#: The AMALOGS section of the positions page: the example and the builder's reference.
DOC = Path(__file__).parents[3] / "docs" / "positions.md"


def _doc_section() -> str:
    return DOC.read_text().split("\n## AMALOGS\n", 1)[1].split("\n## ", 1)[0]


def test_every_start_phase_is_documented() -> None:
    assert set(START_PHASES) == {"ap_gain", "meta_field", "move_dest", "strike", "respawn"}
    section = _doc_section()
    assert "docs/positions.md" in (position_module.__doc__ or "")
    for name in START_PHASES:
        assert f'- `"{name}"`:' in section
    for name in inspect.signature(position).parameters:
        assert f"| `{name}` |" in section, name


# ----------------------------------------------------------------------------- rules at work
def test_a_player_who_already_dueled_may_end_but_not_duel_again() -> None:
    st = position(rulesets=(ADV,) * 4, squares=fx.WIDE, dueled=(True, False, False, False), commanded=True)
    legal = st.legal_actions()
    assert A.END_TURN in legal and A.DUEL not in legal  # D4, D16
    st.apply(A.END_TURN)
    assert st.avatars[0].ended and st.control == 1 and A.DUEL in st.legal_actions()


def test_a_guarding_avatar_cannot_guard_again() -> None:
    st = position(rulesets=(ADV,) * 4, squares=fx.WIDE, ap=(5, 5, 0, 0), guarding=(True, False, False, False))
    assert A.GUARD not in st.legal_actions()  # D16: not already guarding
    st.apply(A.HAND_OVER)
    assert A.GUARD in st.legal_actions()


def _e6(b0_guarding: bool):
    return position(
        rulesets=(ADV, MOW, ADV, ADV),
        squares=((4, 0), (9, 2), (9, 4), (5, 5)),
        guarding=(False, False, b0_guarding, False),
        life=(18, 12),
        control=1,
        phase_moved=True,  # A0 handed control over to A1
    )


def test_the_defender_protects_its_base_E6() -> None:
    """E6 as amended (D36, D40, D41, D43): B0 defends at seat 1, so base B is not at the table and nothing
    is struck; the defended base is besieged and loses 1 (12 -> 11)."""
    for guarding in (True, False):
        st = _e6(b0_guarding=guarding)
        assert st.current_player == 1
        st.apply(A.DUEL)
        assert st.duel is not None and st.duel.defender == 2 and st.duel.proxy == 1
        fx.finish_table(st)
        sieges = [r for r in st.records if r["kind"] == "siege"]
        assert sieges == [{"kind": "siege", "host": 1, "team": 1, "base_life": 11}]
        assert st.decision == "META_FIELD" and st.life[1] == 11


def test_next_dice_fixes_the_next_move_roll() -> None:
    st = position(rulesets=(ADV,) * 4, squares=fx.WIDE, ap=(3, 0, 0, 0), next_dice=(4, 1))
    st.apply(A.MOVE)
    assert st.dice == [4, 1] and st.move_allowance == 3 and st.decision == "MOVE_DEST"


# ----------------------------------------------------------------------------- refused positions
BAD = [
    ({"squares": ((0, 3), (1, 1), (9, 1), (9, 5))}, r"I3 P0 \(a_0\) stands on team A's base square \(D12\)"),
    ({"squares": ((1, 1), (1, 5), (9, 1), 73)}, r"I3 P3 \(b_1\) stands on team B's base square"),
    (
        {"squares": ((1, 1), (1, 1), (9, 1), (9, 5))},
        r"I3 P1 \(a_1\) and P0 \(a_0\) stand on square 8 \(D12\)",
    ),
    (
        {"squares": ((11, 1), (1, 1), (9, 1), (9, 5))},
        r"P0 \(a_0\) square row: must be a whole number in 0..10, got 11 \(D9\)",
    ),
    ({"squares": (77, 8, 9, 10)}, r"P0 \(a_0\) square: must be a whole number in 0..76, got 77 \(D9\)"),
    ({"squares": ((1, 1), (1, 5), (9, 1))}, r"D2 squares: give one entry per seat, as \(P0, P1, P2, P3\)"),
    ({"squares": ((1, 1), None, (9, 1), (9, 5))}, r"P1 \(a_1\) square: None, but the avatar is on the MAP"),
    (
        {"exited": (True, False, False, False)},
        r"P0 \(a_0\) square: give None: an exited avatar is off the MAP, got \(1, 1\) \(D27\)",
    ),
    ({"rulesets": (9, ADV, ADV, ADV)}, r"P0 \(a_0\) ruleset: unknown ruleset 9; known slots: 0 \(medarot"),
    ({"rulesets": (ADV, ADV, "chess", ADV)}, r"P2 \(b_0\) ruleset: unknown ruleset 'chess'"),
    (
        {"rulesets": (ADV, ADV, MOW, ADV), "pools": [[ADV], [ADV], [ADV, PARTS], [ADV]]},
        r"P2 \(b_0\) ruleset: master_of_the_world \(slot 3\) is not in its pool .*D28",
    ),
    ({"pools": [["chess"]] * 4}, r"options: unknown ruleset 'chess'"),
    ({"team_sizes": (4, 1)}, r"options: team_sizes must be two integers in 1..3"),
    ({"life": (0, 18)}, r"I1 team A's base life is 0 in a live match; it is 1..35"),
    ({"life": (18, 36)}, r"I1 team B's base life is 36 in a live match; it is 1..35"),
    ({"ap": (10, 0, 0, 0)}, r"I2 P0 \(a_0\) has 10 action points; an avatar has 0..9"),
    ({"team_turn": 0}, r"team_turn: must be a whole number in 1 or more, got 0 \(5.2\)"),
    ({"team_turn": 5, "max_team_turns": 4}, r"I11 team turn 5 \(1..4\)"),
    ({"acting": 2}, r"acting: must be a whole number in 0..1, got 2 \(5.2\)"),
    (
        {"team_turn": 2, "acting": 0, "first_team": 0},
        r"5.2 team A acts on team turn 2, but the first team A acts on odd turns",
    ),
    ({"start": "duel_core"}, r"start: unknown value 'duel_core'; allowed: ap_gain, meta_field"),
    ({"ended": (True, False, False, False)}, r"D5 P0 \(a_0\) ended its part of the turn without dueling"),
    ({"guarding": (1, 0, 0, 0)}, r"P0 \(a_0\) guarding: must be True or False, got 1 \(D26\)"),
    ({"control": 2}, r"D6 control is with P2 \(b_0\), not an on-map avatar of team A"),
    (
        {"dueled": (True, True, False, False), "ended": (True, True, False, False)},
        r"control: no avatar of team A can hold control .*start at 'respawn'",
    ),
    ({"control": 1}, r"D6 phase_moved is False, yet .* control left the first avatar P0 \(a_0\)"),
    (
        {"dueled": (True, False, False, False), "phase_moved": False},
        r"D6 phase_moved is False, yet something happened",
    ),
    (
        {"start": "ap_gain", "control": 0},
        r"control: at start='ap_gain' nobody holds control yet; leave it None \(D6\)",
    ),
    (
        {
            "start": "ap_gain",
            "squares": (None, (1, 5), (9, 1), (9, 5)),
            "exited": (True, False, False, False),
        },
        r"P0 \(a_0\) exited: at start='ap_gain' every player is on the MAP \(I4",
    ),
    (
        {"start": "respawn", "dueled": (False, True, False, False)},
        r"P0 \(a_0\) dueled/ended: at start='respawn'",
    ),
    ({"start": "move_dest"}, r"dice: start='move_dest' needs the MOVE's roll"),
    (
        {"start": "move_dest", "dice": (1, 1)},
        r"D17 a MOVE destination with allowance 0 after dice \[1, 1\] and WE 2",
    ),
    ({"dice": (7, 1)}, r"dice: \(7, 1\) is not two d6 results"),
    (
        {"start": "strike"},
        r"D24 a strike decision with no exposed target \(no guest other than the champion or the defender",
    ),
    ({"champion_lost": True}, r"champion_lost: only a position at start='strike'"),
    (
        {"start": "respawn", "team_turn": 60},
        r"team_turn: the automatic steps end the match at once \(team-turn cap 60",
    ),
]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    BAD,
    ids=[re.sub(r"[^\w.-]+", "", m.split(":")[0]) + f"-{i}" for i, (_, m) in enumerate(BAD)],
)
def test_a_bad_position_raises_position_error_naming_the_rule(kwargs: dict, message: str) -> None:
    args = {"rulesets": (ADV,) * 4, "squares": fx.WIDE, **kwargs}
    with pytest.raises(PositionError, match=message) as e:
        position(**args)
    assert RULE.search(str(e.value)), f"names no spec item: {e.value}"


#: A spec item (R7, D12, I4) anywhere, or a section first in the message (or in the rules check's part of it) or
#: in parentheses.
RULE = re.compile(r"\b[RDI]\d+\b|(^|: )\d+(\.\d+)* |\(\d+\.\d+\b")


@pytest.mark.parametrize(
    ("options", "item"),
    [
        ({"team_sizes": (4, 1)}, "D2"),
        ({"max_team_turns": 0}, "D34"),
        ({"duel_cap": -1}, "D32"),
        ({"pools": [["chess"]] * 4}, "D28"),
        ({"decks": [{"chess": "x"}] * 4}, "D28"),
    ],
)
def test_a_refused_option_starts_with_its_spec_item(options: dict, item: str) -> None:
    with pytest.raises(PositionError, match=rf"^{item} options: "):
        position(**options)


def test_a_strike_guarded_by_a_guest_is_refused_E6a() -> None:
    with pytest.raises(PositionError, match=r"Guarded by P2 \(b_0\) \(D26\)"):
        position(
            rulesets=(ADV, MOW, ADV, ADV),
            squares=((4, 0), (9, 2), (9, 4), (5, 5)),
            guarding=(False, False, True, False),
            control=1,
            phase_moved=True,
            start="strike",
        )


# ----------------------------------------------------------------------------- round trip, agents, docs
@pytest.mark.parametrize("start", ["meta_field", "strike"])
def test_exact_to_dict_from_dict_round_trip(start: str) -> None:
    st = position(**E4, ap=(4, 0, 0, 0), start=start, guarding=(False, True, False, False))
    fx.assert_exact_round_trip(AmalogsRuleset(team_sizes=(2, 2)), st)


def test_heuristic_and_search_choose_a_legal_action_at_a_built_position() -> None:
    table = {"team_sizes": (1, 1)}  # the position's and the agents'
    st = position(
        **table, rulesets=(ADV, ADV), squares=((4, 3), (6, 3)), ap=(6, 2), team_turn=3, max_team_turns=4
    )
    legal = st.legal_actions()
    assert len(legal) > 2
    heuristic = agents.make("heuristic", "amalogs_v2", **table)
    assert heuristic.choose(st, st.current_player) in legal
    before = st.to_dict()
    search = agents.make("search:2", "amalogs_v2", **table, seed=1)
    assert search.choose(st, st.current_player) in legal
    assert st.to_dict() == before  # the agents only read the state


def test_the_documented_example_builds_the_position_it_describes() -> None:
    block = _doc_section().split("```python\n", 1)[1].split("\nprint(", 1)[0]
    scope: dict = {}
    exec(block, scope)  # noqa: S102  (the documented example, as written)
    st = scope["st"]
    assert st.decision == "META_FIELD" and st.legal_actions()[:3] == [A.END_TURN, A.HAND_OVER, A.MOVE]
    assert st.avatars[0].dueled and st.avatars[2].guarding and st.life == [15, 11]
    assert [a.ruleset for a in st.avatars] == [ADV, MOW, ADV, PARTS]


def test_the_fixture_is_a_thin_caller_of_the_builder() -> None:
    got = fx.position([ADV, MOW, ADV, PARTS], fx.WIDE, acting=1, ap=[1, 2, 3, 4], life=(9, 20), seed=3)
    want = position(
        pools=[[ADV], [MOW], [ADV], [PARTS]],
        rulesets=(ADV, MOW, ADV, PARTS),
        squares=fx.WIDE,
        acting=1,
        ap=(1, 2, 3, 4),
        life=(9, 20),
        seed=3,
    )
    assert got.to_dict() == want.to_dict()
    assert got.first_team == got.acting == 1 and got.team_turn == 1 and got.control == 2

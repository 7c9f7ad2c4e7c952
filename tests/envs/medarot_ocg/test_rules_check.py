"""``rules.check``, the rules check of one Medarot OCG position (``envs/medarot_ocg/rules/invariants.py``).

* It accepts real positions, also after a JSON round trip, and every line of a refusal starts
  with the spec item it applies.
* It is robust: real positions scrambled field by field into values of the right types but
  arbitrary contents either pass or raise ``StateError``, nothing else (and a scrambled state
  that passes still has legal options the engine can work out).
* The position builder records each seat's cards as its deck list and refuses, through the
  check, a position that breaks an invariant.

Every invariant at every step of random games is in ``test_invariants.py``.
"""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.medarot_ocg import rules
from deckgym.envs.medarot_ocg.config import MODES
from deckgym.envs.medarot_ocg.position import position
from deckgym.envs.medarot_ocg.rules import invariants
from deckgym.envs.medarot_ocg.state import GameState
from tests.envs import rules_check as shared
from tests.envs.medarot_ocg.test_invariants import policy, start
from tests.envs.rules_check import played

#: A line of a refusal: a spec item (``I1``, ``D36``, ``R47``, ``L2``, ``P4``, ``4.3``, ``5``...) first.
LINE = re.compile(r"^(I\d+|[RDLP]\d+|\d+(\.\d+)?) \S.*|^\.\.\. and \d+ more problems$")


@functools.cache
def bank() -> tuple[GameState, ...]:
    """Positions of a few random games of every mode: every 9th step and the end."""
    return tuple(
        gs for mode in MODES for seed in range(4) for gs in played(start(mode, seed), policy(seed), every=9)
    )


def refusal(gs: GameState) -> str | None:
    """The message of ``rules.check``'s ``StateError``, or None when the state passes."""
    return shared.refusal(rules.check, gs)


def test_check_is_the_rules_packages_check() -> None:
    assert rules.check is invariants.check


def test_real_positions_pass_also_after_a_json_round_trip() -> None:
    shared.assert_pass_also_after_a_json_round_trip(rules.check, bank()[::5])


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=hs.data())
def test_scrambled_positions_pass_or_raise_state_error(data: hs.DataObject) -> None:
    shared.assert_scramble_passes_or_names_items(data, bank(), rules.check, LINE)


def test_a_refusal_lists_every_problem_each_with_its_item() -> None:
    gs = bank()[3].clone()
    gs.hp = [-1, -2]
    gs.hand = [[*gs.hand[0], "NOPE"], list(gs.hand[1])]
    message = refusal(gs)
    assert message is not None
    lines = message.splitlines()
    last = len(gs.hand[0]) - 1
    assert lines[0] == f"4.3 cards: player 0's hand[{last}] holds 'NOPE', which is not a card of the pool"
    gs.hand = [list(base) for base in bank()[3].hand]
    message = refusal(gs)
    assert message is not None
    assert message.splitlines() == [
        "I2 HP: player 0 has -1 HP; HP is never below 0 (a failed payment ends the game)",
        "I2 HP: player 1 has -2 HP; HP is never below 0 (a failed payment ends the game)",
    ]


def test_the_builder_records_every_card_of_a_seat_as_its_deck_list() -> None:
    st = position(
        "normal",
        board={2: "MD04", 12: "MD15"},
        hands=(["MD01", "MR01"], ["MD03"]),
        decks=(["MD02"], ["MD09", "MR06"]),
        trash=(["MR02"], []),
        masters=("MR19", None),
    )
    assert st.decks == [
        sorted(["MD04", "MD01", "MR01", "MD02", "MR02", "MR19"]),
        sorted(["MD15", "MD03", "MD09", "MR06"]),
    ]
    rules.check(st)


def test_the_builder_refuses_through_the_check_what_breaks_an_invariant() -> None:
    face_down = {"card": "MD04", "face_up": False, "placed": False}
    with pytest.raises(
        PositionError,
        match=r"^the position breaks a rule: I7 acting: player 0's Scattergale \(MD04\) on square 2 is face down",
    ):
        position("normal", board={2: face_down, 12: "MD15"}, start=None)
    with pytest.raises(
        PositionError, match=r"^the position breaks a rule: I7 acting: .* was placed this turn and has acted"
    ):
        position("normal", board={2: {"card": "MD04", "placed": True, "acted": True}, 12: "MD15"}, start=None)


def test_a_position_built_to_run_nothing_passes_only_as_not_at_rest() -> None:
    st = position("normal", board={2: "MD04", 12: "MD15"}, start=None)
    rules.check(st, at_rest=False)
    with pytest.raises(
        StateError, match=r"^I8 decision point: the game is live but waits at no decision point"
    ):
        rules.check(st)


def test_limits_and_deck_rules_can_be_lifted_as_in_the_builder() -> None:
    board = {0: "MD01", 1: "MD02", 2: "MD04", 3: "MD18", 12: "MD15"}
    st = position("normal", board=board, limits=False)
    with pytest.raises(
        StateError, match=r"I3 board: player 0 has 4 Medarots on the board, more than 3 \(D9\)"
    ):
        rules.check(st)
    rules.check(st, limits=False)
    st = position("normal", board={2: "MD04", 12: "MD15"}, hands=(["MD01"] * 5, []), deck_rules=False)
    with pytest.raises(
        StateError, match=r"D42 deck regulation: player 0 holds 5 copies of the MEDAROT 'Quillshot'"
    ):
        rules.check(st)
    rules.check(st, deck_rules=False)


def test_a_face_down_master_is_the_openings_only() -> None:
    st = position("normal", board={2: "MD04", 12: "MD15"}, masters=("MR06", None), start=None)
    st.master[0].face_up = False  # type: ignore[union-attr]
    st.agenda = [["start_phase"]]  # turn 1's start phase is next: the opening (D36)
    st.turn = 0
    rules.check(st, at_rest=False)
    st.turn = 3  # turn 4's start phase is next: S1 of turn 1 revealed it long ago
    with pytest.raises(StateError, match=r"^D36 master: player 0's master is face down after the opening"):
        rules.check(st, at_rest=False)


def test_no_card_is_in_use_when_the_start_phase_is_next() -> None:
    in_use = {"stocks": (["MR02"], []), "effects": [{"stock": (0, 0), "targets": [2]}]}
    st = position("normal", board={2: "MD04", 12: "MD15"}, start=None, **in_use)  # type: ignore[arg-type]
    rules.check(st, at_rest=False)
    st.agenda = [["start_phase"]]  # E2 has trashed every END_OF_TURN card (D38)
    with pytest.raises(
        StateError, match=r"^D26 card life: player 0's stock slot 0 .* is in use at the start phase"
    ):
        rules.check(st, at_rest=False)

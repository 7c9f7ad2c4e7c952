"""``rules.check``, the rules check of one Medarot parts position (``envs/medarot_parts/rules/invariants.py``).

* It accepts real positions, also after a JSON round trip, and every line of a refusal starts
  with the spec item it applies.
* It is robust: real positions scrambled field by field into values of the right types but
  arbitrary contents either pass or raise ``StateError``, nothing else (and a scrambled state
  that passes still has legal options the engine can work out).
* The position builder records each seat's cards as its starter set and deck list, refuses
  through the check a position that breaks an invariant, and names the spec item of its own
  refusals.

Every invariant at every step of random games is in ``test_invariants.py``.
"""

from __future__ import annotations

import functools
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import deckgym.envs.medarot_parts.position as position_module
from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.medarot_parts import rules
from deckgym.envs.medarot_parts.rules import invariants
from deckgym.envs.medarot_parts.state import GameState
from tests.envs.medarot_parts.test_invariants import start
from tests.envs.medarot_parts.test_position import PLAIN, STOP, build
from tests.envs.rules_check import assert_scramble_passes_or_names_items, played

#: A line of a refusal: a spec item (``I1``, ``D2``, ``R22``, ``4.2``, ``5``, ``AMALOGS D37``...) first.
LINE = re.compile(r"^(AMALOGS )?(I\d+|[RD]\d+|\d+(\.\d+)?) \S.*|^\.\.\. and \d+ more problems$")


@functools.cache
def bank() -> tuple[GameState, ...]:
    """Positions of a few random games: every 5th step and the end."""
    return tuple(st for seed in range(10) for st in played(start(seed), random.Random(seed).choice, every=5))


def test_check_is_the_rules_packages_check() -> None:
    assert rules.check is invariants.check


def test_real_positions_pass_also_after_a_json_round_trip() -> None:
    for st in bank()[::4]:
        rules.check(st)
        rules.check(GameState.from_dict(json.loads(json.dumps(st.to_dict()))))


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=hs.data())
def test_scrambled_positions_pass_or_raise_state_error(data: hs.DataObject) -> None:
    assert_scramble_passes_or_names_items(data, bank(), rules.check, LINE)


def test_the_builder_records_the_starters_and_every_other_card_as_the_deck_list() -> None:
    st = build(
        field=((PLAIN, PLAIN), (PLAIN, PLAIN)),
        hands=((STOP, "EFC"), (STOP,)),
        decks=(("E_D",) * 3, ("E_U",)),
        trash=(("E_S",), ()),
    )
    assert st.decks[0][:2] == [list(PLAIN), list(PLAIN)]
    assert st.decks[0][2] == sorted(["E_D"] * 3 + [STOP, "EFC", "E_S"])
    assert st.decks[1][2] == sorted(["E_U", STOP])
    rules.check(st)


def test_the_builder_refuses_through_the_check() -> None:
    """Whatever the check refuses, the builder refuses as a PositionError carrying the same message."""
    seen: list[tuple[GameState, bool]] = []

    def refuse(st: GameState, *, deck_rules: bool = True) -> None:
        seen.append((st, deck_rules))
        raise StateError("I1 card conservation: player 0 holds 49 cards in all, not 50")

    with pytest.raises(
        PositionError,
        match=r"^the position breaks a rule: I1 card conservation: player 0 holds 49 cards in all, not 50$",
    ):
        build(hands=((STOP,), (STOP,)), deck_rules=False, check=refuse)
    [(st, deck_rules)] = seen  # the built state, run to its first decision, and the builder's option
    assert st.decision == "ACTION" and st.hand == [[STOP], [STOP]] and deck_rules is False
    assert position_module.position.__kwdefaults__["check"] is rules.check  # the rules check by default


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"assets": (-100, 0)}, r"^seat 0 assets: must be a whole number in 0 or more, got -100 \(D3\)$"),
        ({"turn": 0}, r"^turn: must be a whole number in 1\.\.30, got 0 \(D35\)$"),
        ({"priority": 2}, r"^priority: must be a whole number in 0\.\.1, got 2 \(D5\)$"),
        ({"hands": (("NOPE",), ())}, r"^seat 0 hand \(card 0\): unknown card id 'NOPE'"),
        (
            {"stocks": (("E_S", ("E_S", 1)), ())},
            r"^seat 0 energy stock \(card 1\) tapped: must be True or False, got 1$",
        ),
        ({"round": 3}, r"^round: must be a whole number in 1\.\.2, got 3 \(D15\)$"),
        ({"passes": 2}, r"^passes: must be a whole number in 0\.\.1, got 2 \(D12\)$"),
    ],
)
def test_the_builders_refusals_name_the_place_and_the_spec_item(kw: dict, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        build(**{"hands": ((STOP,), (STOP,)), **kw})

"""The shared reader of the position builders (``envs.core.position``): each refusal names its place."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.core.position import Reader


@dataclass
class Card:
    id: str
    name: str
    kind: str


class Pool(dict):
    files = ("toy.toml",)


POOL = Pool(
    {
        c.id: c
        for c in [Card("M1", "Pike", "monster"), Card("S1", "Bolt", "spell"), Card("X1", "Lord", "master")]
    }
)


def test_per_seat_pairs_and_defaults() -> None:
    rd = Reader(POOL)
    assert rd.per_seat("life", (3, 4)) == [3, 4]
    assert rd.per_seat("life", None, default=20) == [20, 20]
    with pytest.raises(PositionError, match=r"^life: give one entry per seat, as \(P0, P1\); got 3$"):
        rd.per_seat("life", 3)
    with pytest.raises(PositionError, match="got 'ab'"):
        rd.per_seat("life", "ab")
    assert Reader(None, seats=3).per_seat("ap", [1, 2, 3]) == [1, 2, 3]


def test_whole_numbers_flags_and_choices_name_the_rule() -> None:
    rd = Reader(POOL)
    assert rd.whole("P0 life", 5, 1, 20) == 5
    with pytest.raises(PositionError, match=r"^P0 life: must be a whole number in 1\.\.20, got 0 \(R6\)$"):
        rd.whole("P0 life", 0, 1, 20, rule="R6")
    with pytest.raises(PositionError, match="got True"):
        rd.whole("turn", True, 1)
    with pytest.raises(PositionError, match=r"in 0 or more, got -1"):
        rd.whole("count", -1, 0)
    assert rd.flag("attacked", False) is False
    with pytest.raises(PositionError, match=r"^attacked: must be True or False, got 1$"):
        rd.flag("attacked", 1)
    assert rd.choice("start", "Attack Phase", ["draw_phase", "attack_phase"]) == "attack_phase"
    with pytest.raises(
        PositionError, match=r"^start: unknown value 'lunch'; allowed: draw_phase, attack_phase$"
    ):
        rd.choice("start", "lunch", ["draw_phase", "attack_phase"])


def test_records_from_mappings_tuples_and_bare_values() -> None:
    rd = Reader(POOL)
    fields = ("card", "entered", "damage")
    defaults = {"entered": 0, "damage": 0}
    assert rd.record("m", {"card": "M1", "damage": 2}, fields, defaults) == {
        "card": "M1",
        "entered": 0,
        "damage": 2,
    }
    assert rd.record("m", ("M1", 3), fields, defaults) == {"card": "M1", "entered": 3, "damage": 0}
    assert rd.record("m", "M1", fields, defaults, first="card") == {"card": "M1", "entered": 0, "damage": 0}
    with pytest.raises(PositionError, match=r"^m: unknown key 'hp'; the keys are card, entered, damage$"):
        rd.record("m", {"card": "M1", "hp": 1}, fields, defaults)
    with pytest.raises(PositionError, match=r"^m: 'card' is required$"):
        rd.record("m", {"damage": 1}, fields, defaults)
    with pytest.raises(PositionError, match="at most 3 values"):
        rd.record("m", ("M1", 1, 2, 3), fields, defaults)


def test_cards_zones_piles_and_copies() -> None:
    rd = Reader(POOL)
    assert rd.cards("P0 hand", ["M1", "S1"], seat=0) == ["M1", "S1"]
    with pytest.raises(
        PositionError, match=r"^P0 hand \(card 1\): unknown card id 'Q9' \(not in the pool toy\.toml\)$"
    ):
        rd.cards("P0 hand", ["M1", "Q9"], seat=0)
    with pytest.raises(
        PositionError, match=r"'X1' \(Lord\) is a master card; this place holds monster or spell \(R3\)"
    ):
        rd.cards("P0 hand", ["X1"], kinds=("monster", "spell"), rule="R3")
    assert rd.pile("P1 deck", ["M1", "S1"], "M1", seat=1) == ["S1", "M1"]  # given top first, kept top last
    assert rd.pile("P1 deck", 4, "M1", seat=1) == ["M1"] * 4
    with pytest.raises(PositionError, match="give a list of card ids"):
        rd.cards("P0 hand", "M1")
    rd.copies(0, 4, "D6")
    with pytest.raises(PositionError, match=r"^P1: 5 copies of 'M1' \(at most 4\) \(D6\)$"):
        rd.copies(1, 4, "D6")


def test_checked_gives_the_rules_refusal_as_a_position_error() -> None:
    def check(state: object, *, strict: bool = True) -> None:
        if state == "bad" or (strict and state == "odd"):
            raise StateError("I1 card conservation: P0 holds 49 cards in all, not 50")

    assert Reader.checked("good", check) == "good"
    assert Reader.checked("odd", check, strict=False) == "odd"  # the builder's options reach the check
    with pytest.raises(PositionError, match=r"^the position breaks a rule: I1 card conservation"):
        Reader.checked("bad", check)
    with pytest.raises(PositionError, match=r"^the position breaks a rule: I1 card conservation"):
        Reader.checked("odd", check)

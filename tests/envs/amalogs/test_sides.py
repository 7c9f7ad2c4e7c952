"""The core-game adapter of the Medarot OCG (spec D19-D23, D30-D32, A1-A9) over ``envs.medarot_ocg.sides``."""

from __future__ import annotations

import json
import random

import pytest

from deckgym.envs.amalogs.cores import IMPLEMENTED, adapter
from deckgym.envs.amalogs.cores.medarot_ocg import MedarotCore
from deckgym.envs.medarot_ocg import sides
from deckgym.envs.medarot_ocg.actions import PASS
from deckgym.envs.medarot_ocg.rules.board import to_relative
from deckgym.envs.medarot_ocg.state import Eff, Stack

#: The Medarot OCG slots (beginner, advance, normal); other rulesets have their own test files.
MEDAROT = [s for s in IMPLEMENTED if s in (0, 1, 4)]


def played_side(slot: int, seed: int, turn: int = 1) -> sides.Side:
    """A side after its solo first turn (random core choices)."""
    ad = adapter(slot)
    rng = random.Random(seed)
    table = ad.solo_table(ad.new_side(ad.default_deck(), rng), rng, turn)
    while ad.to_act(table) >= 0:
        assert ad.to_act(table) == 0, "only seat 0 acts in a solo first turn"
        ad.step(table, rng.choice(ad.legal_actions(table)))
    side, vacant = ad.split(table)
    assert vacant is None
    return side


@pytest.mark.parametrize("slot", MEDAROT)
def test_D30_A2_solo_first_turn_has_seat_1_vacant_and_conserves_cards(slot: int) -> None:
    """D30, R2: the opening and first turn run with seat 1 vacant; the side keeps all its cards (I9)."""
    for seed in range(5):
        side = played_side(slot, seed)
        assert sorted(side.cards()) == sorted(adapter(slot).default_deck())
        assert side.units() >= 1


@pytest.mark.parametrize("slot", MEDAROT)
def test_D31_adapter_round_trip_side_table_side_unchanged(slot: int) -> None:
    """A3/A6: side -> table -> side leaves a side unchanged when the table does nothing."""
    ad = adapter(slot)
    for seed in range(6):
        a, b = played_side(slot, seed), played_side(slot, seed + 100)
        rng = random.Random(seed)
        for champion in (None, b):
            host, _ = ad.split(ad.compose(a, champion, rng, 7))
            assert host.to_dict() == a.to_dict()
        solo, _ = ad.split(ad.compose(b, None, rng, 7))
        assert solo.to_dict() == b.to_dict()
        assert sides.Side.from_dict(json.loads(json.dumps(a.to_dict()))).to_dict() == a.to_dict()


def test_A3_seat_1_yields_a_conflicting_neutral_square() -> None:
    """A3: a seat-1 Medarot on a neutral square held by seat 0 moves to its own-row square of that column."""
    a, b = played_side(1, 1), played_side(1, 2)
    a.board = [None] * 15
    b.board = [None] * 15
    a.board[5 + 2] = Stack(1, 0, "MD01", face_up=True, acted=False, placed=False)
    b.board[5 + 2] = Stack(1, 0, "MD03", face_up=True, acted=False, placed=False)
    table = sides.compose(a, b, random.Random(0), 3)
    assert table.board[7].owner == 0 and table.board[7].base == "MD01"
    moved = table.board[to_relative(2, 1)]
    assert moved is not None and moved.owner == 1 and moved.base == "MD03"
    b.board[2] = Stack(2, 0, "MD04", face_up=True, acted=False, placed=False)
    table = sides.compose(a, b, random.Random(0), 3)
    assert table.board[to_relative(0, 1)].base == "MD03"


def test_A6_effects_on_the_other_side_end_at_the_split() -> None:
    """A6: an effect the champion's Medarot applies to a host Medarot ends; a host's own effect stays."""
    a, b = played_side(1, 3), played_side(1, 4)
    table = sides.compose(a, b, random.Random(0), 3)
    host_uid = next(x.uid for x in table.board if x is not None and x.owner == 0)
    champ_uid = next(x.uid for x in table.board if x is not None and x.owner == 1)
    table.effects = [
        Eff("MOD_ARMOR", 20, "ANY", 1, champ_uid, -1, [host_uid], -1, ""),
        Eff("MOD_POWER", 10, "ANY", 0, host_uid, -1, [host_uid], -1, ""),
        Eff("TRAP", 1, "ANY", 0, -1, 1, None, 0, "END_OF_TURN"),
    ]
    host, champ = MedarotCore.split(table)
    assert [e.op for e in host.effects] == ["MOD_POWER", "TRAP"]
    assert champ is not None and champ.effects == []


def test_A7_lose_core_life_is_one_mandatory_payment() -> None:
    """A7: pay n HP; with HP < n the side meets its loss and HP is left as it was."""
    side = played_side(0, 5)
    side.hp = 5
    assert sides.lose_core_life(side, 3) is False and side.hp == 2
    assert sides.lose_core_life(side, 3) is True and side.hp == 2
    assert sides.lose_core_life(side, 0) is False


def test_A8_summary_is_public_counts() -> None:
    """A8: core life (HP), hand size, deck size, Medarots on the board."""
    side = played_side(4, 6)
    assert adapter(4).summary(side) == (side.hp, len(side.hand), len(side.deck), side.units())


def test_D21_vacant_seat_never_decides_pays_or_loses() -> None:
    """D21: a table with a vacant seat 1 runs the host's turn; seat 1 never acts and never loses."""
    for seed in range(10):
        a = played_side(0, seed)
        rng = random.Random(seed)
        table = sides.compose(a, None, rng, 5)
        MedarotCore.begin(table)
        while not table.done:
            assert table.current_player == 0
            table.apply(rng.choice(table.legal_actions()))
        assert MedarotCore.loss_flags(table)[1] is False


def test_D23_loss_flags_from_the_table_result() -> None:
    """D23/A5: a finished turn is no loss; an empty deck at the start phase loses (L2)."""
    a, b = played_side(1, 7), played_side(1, 8)
    b.trash += b.deck
    b.deck = []
    table = sides.compose(a, b, random.Random(0), 4)
    MedarotCore.begin(table)
    while not table.done:
        table.apply(adapter(1).auto_action(table))
    assert MedarotCore.loss_flags(table) == (False, True)


def test_A9_auto_action_prefers_pass() -> None:
    """A9, D32: the automatic choice is PASS when legal."""
    a = played_side(1, 9)
    table = sides.compose(a, None, random.Random(0), 4)
    MedarotCore.begin(table)
    while not table.done:
        choice = adapter(1).auto_action(table)
        assert choice == PASS or PASS not in table.legal_actions()
        table.apply(choice)

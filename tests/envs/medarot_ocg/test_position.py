"""The public position builder ``envs.medarot_ocg.position.position``.

Built positions reach the first decision of each start kind; every rule the builder checks
raises ``PositionError`` naming the seat, the square or zone and the rule; mid-turn situations
(acted, placed, lasting effects, a used master, a disabled Medarot) behave as the rules say;
a built state round-trips through ``to_dict`` exactly; and the heuristic and search agents
answer a built position with a legal action. Card ids are those of the packaged pool.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest

import deckgym.envs.medarot_ocg.position as position_module
from deckgym import agents
from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.position import position
from deckgym.envs.medarot_ocg.rules.board import eff_armor, eff_power, eff_speed
from deckgym.envs.medarot_ocg.state import GameState
from tests.envs.medarot_ocg import fixtures as fx

# Packaged cards used below (speed / type):
#   MD01 Quillshot 8 SHOOTING, MD04 Scattergale 5 SHOOTING (5 arrows), MD02 Emberlance 6 SHOOTING
#   (3 arrows), MD18 Tidewarden 6 MELEE (4 arrows), MD13 Rivetclaw 10 MELEE, MD15 Stonetusk 1 MELEE,
#   MD19 Mendlight (GAIN_HP, instant), MD21 Hexlamp (DISABLE ONE_ENEMY), MD23 Banneret 9
#   (MOD_POWER +10 ALL_ALLIES), MD24 Aegis Moth (MOD_ARMOR +20 ONE_ALLY)
#   MR01 Field Wrench (ACTION +10 power, AFTER_USE), MR02 Overclock Coil (ACTION MOD_SPEED +1
#   ALL_ALLIES, END_OF_TURN), MR06 Riveted Shield (hp +3), MR10 Venom Drip (TRIGGER DOT 1,
#   END_OF_TURN), MR12 Jammer Spike (ACTION DISABLE ONE_ENEMY, END_OF_TURN), MR19 Counter Charge
#   (ACTION NEGATE, END_OF_TURN), MC01 Brassfang MedaChange.

DUEL = {2: "MD04", 12: "MD15"}


def acting_square(st: GameState) -> int:
    assert st.act is not None
    return next(s for s, x in enumerate(st.board) if x is not None and x.uid == st.act.uid)


# ----------------------------------------------------------------------------- start kinds
@pytest.mark.parametrize("mode", ["beginner", "normal", "advance"])
def test_select_starts_the_fastest_eligible_medarots_action(mode: str) -> None:
    st = position(mode, board={2: "MD04", 7: ("MD13", 1), 12: "MD15"}, decks=(["MD01"], ["MD02"]))
    assert st.decision == "ACTION_START" and st.current_player == 1
    assert acting_square(st) == 7 and st.board[7].acted  # type: ignore[union-attr]
    assert A.PASS in st.legal_actions()
    assert st.turn == 1 and st.hp == [st.config.start_hp] * 2


def test_a_square_start_begins_that_medarots_action_whatever_the_speed_order() -> None:
    st = position("normal", board={2: "MD15", 7: ("MD13", 1), 12: "MD04"}, start=2)
    assert st.decision == "ACTION_START" and st.current_player == 0 and acting_square(st) == 2
    assert st.legal_actions()


@pytest.mark.parametrize("first", [0, 1])
def test_a_start_phase_start_counts_the_turn_and_draws_the_deck_top_first(first: int) -> None:
    st = position(
        "beginner",
        board=DUEL,
        decks=(["MD01", "MD02", "MD18"], ["MR01", "MR02"]),
        turn=4,
        first=first,
        start="start_phase",
    )
    assert st.turn == 4 and st.decision == "OPT_DRAW" and st.current_player == first
    assert st.legal_actions() == [A.COUNT[k] for k in range(3 if first == 0 else 2)]  # deck left
    top = ["MD01", "MR01"][first]
    assert st.hand[first] == [top]  # S2 drew the first card given
    assert st.deck[0][-1] == ("MD02" if first == 0 else "MD01")  # the engine keeps the top at the end


def test_start_none_builds_the_zones_only() -> None:
    st = position("normal", board=DUEL, start=None)
    assert st.decision == "" and st.legal_actions() == [] and st.agenda == []
    assert st.board[2].base == "MD04" and not st.board[2].acted  # type: ignore[union-attr]


def test_the_board_may_be_given_as_square_medarot_pairs_and_with_owners_in_the_neutral_row() -> None:
    st = position(
        "beginner",
        board=[(2, "MD04"), (6, ("MD01", 0)), (8, {"card": "MD02", "owner": 1}), (12, "MD15")],
        start=None,
    )
    assert [(s, x.owner, x.base) for s, x in enumerate(st.board) if x] == [
        (2, 0, "MD04"),
        (6, 0, "MD01"),
        (8, 1, "MD02"),
        (12, 1, "MD15"),
    ]
    assert len({x.uid for x in st.board if x}) == 4


def test_a_custom_pool_is_accepted() -> None:
    st = position("beginner", pool=fx.pool(), board={2: "ASH", 12: "BOLT"})
    assert st.decision == "ACTION_START" and acting_square(st) == 2


def test_the_reference_page_describes_every_argument() -> None:
    doc = position_module.__doc__ or ""
    assert "docs/positions.md" in doc
    page = (Path(__file__).parents[3] / "docs" / "positions.md").read_text()
    section = page.split("### Reference: `envs.medarot_ocg.position.position`")[1].split("\n## ")[0]
    names = [n for n in inspect.signature(position).parameters if n != "rules"]
    assert [n for n in names if f"`{n}`" not in section] == []
    assert all(f'`"{s}"`' in section for s in position_module.STARTS)


# ----------------------------------------------------------------------------- what it refuses
BAD: list[tuple[str, dict[str, Any], str]] = [
    (
        "unknown card in a hand",
        {"hands": (["NOPE"], [])},
        r"P0 hand \(card 0\): unknown card id 'NOPE' \(not in the pool .*core\.toml\)",
    ),
    (
        "unknown card on the board",
        {"board": {2: "MD04", 12: "XX"}},
        r"P1 square 12: unknown card id 'XX'",
    ),
    ("unknown card in a deck", {"decks": ([], ["MD01", 7])}, r"P1 deck \(card 1\): unknown card id 7"),
    (
        "square given twice",
        {"board": [(2, "MD04"), (2, "MD01"), (12, "MD15")]},
        r"square 2: given twice.*\(D8\)",
    ),
    (
        "square off the board",
        {"board": {15: "MD04"}},
        r"board square: must be a whole number in 0\.\.14, got 15 \(s = 5 \* row \+ column, 4\.2\)",
    ),
    ("negative square", {"board": {-1: "MD04"}}, r"board square: must be a whole number in 0\.\.14, got -1"),
    (
        "neutral square with no owner",
        {"board": {7: "MD04"}},
        r"square 7: in the neutral row: give its owner",
    ),
    (
        "opponent's row",
        {"board": {12: ("MD04", 0)}},
        r"I3 board: player 0's Scattergale \(MD04\) on square 12 stands in its opponent's row \(D8\)",
    ),
    (
        "Medaroter on the board",
        {"board": {2: "MR01"}},
        r"P0 square 2: MR01 is a MEDAROTER card; only Medarots stand on the board \(D8, R47\)",
    ),
    (
        "MedaChange as a base",
        {"board": {2: "MC01"}},
        r"MC01 is a MEDACHANGE card.*goes on top of its Medarot",
    ),
    (
        "MedaChange outside advance",
        {"board": {2: {"card": "MD10", "change": "MC01"}}},
        r"I3 board: player 0's Brassfang \(MC01\) on square 2 is MedaChanged in normal mode; MedaChange is advance only",
    ),
    (
        "Medarot in the stock",
        {"stocks": (["MR01", "MD01"], [])},
        r"P0 stock slot 1: 'MD01' \(Quillshot\) is a MEDAROT card; this place holds MEDAROTER \(R11, R12, R18\)",
    ),
    ("Medarot as master", {"masters": (None, "MD01")}, r"P1 master: 'MD01' \(Quillshot\) is a MEDAROT card"),
    (
        "stock beyond its cap",
        {"stocks": (["MR01", "MR02", "MR03", "MR06"], [])},
        r"P0 stock: 4 slots given; the stock holds at most 3 \(R12, R18, D25\)",
    ),
    (
        "four Medarots of a seat",
        {"board": {0: "MD01", 1: "MD02", 2: "MD04", 3: "MD18", 12: "MD15"}},
        r"I3 board: player 0 has 4 Medarots on the board, more than 3 \(D9\)",
    ),
    (
        "hand beyond the limit",
        {"hands": ([], ["MR01"] * 2 + ["MR02"] * 2 + ["MR03"] * 2 + ["MR06"] * 2)},
        r"I5 hand limit: player 1 holds 8 cards at no decision, outside a draw-event chain \(R26, D35\)",
    ),
    (
        "four copies across zones",
        {"hands": (["MD01", "MD01"], []), "decks": (["MD01", "MD01"], [])},
        r"D42 deck regulation: player 0 holds 4 copies of the MEDAROT 'Quillshot'; a deck holds at most 3 \(R1, R2\)",
    ),
    (
        "copies on the board count",
        {"board": {2: "MD04", 12: "MD15"}, "trash": ([], ["MD15"] * 3)},
        r"D42 deck regulation: player 1 holds 4 copies of the MEDAROT 'Stonetusk'",
    ),
    (
        "MedaChange card in a normal hand",
        {"hands": (["MC01"], [])},
        r"I6 mode rules: player 0 holds the MedaChange cards Brassfang \(MC01\) in normal mode",
    ),
    ("negative HP", {"hp": (-1, 20)}, r"P0 HP: must be a whole number in 0 or more, got -1 \(4\.1, I2\)"),
    ("HP not a number", {"hp": (20, "x")}, r"P1 HP: must be a whole number in 0 or more, got 'x'"),
    ("HP for one seat", {"hp": (20,)}, r"hp: give one entry per seat"),
    ("turn 0", {"turn": 0}, r"turn: must be a whole number in 1\.\.60, got 0 \(4\.1, L5\)"),
    (
        "turn past the cap",
        {"turn": 11, "max_turns": 10},
        r"turn: must be a whole number in 1\.\.10, got 11",
    ),
    ("first player 2", {"first": 2}, r"first: must be a whole number in 0\.\.1, got 2 \(D39\)"),
    ("unknown start", {"start": "action"}, r"start: 'action' is not a start; use 'select'"),
    ("start on an empty square", {"start": 4}, r"start: square 4 holds no Medarot"),
    (
        "start on an acted Medarot",
        {"board": {2: {"card": "MD04", "acted": True}, 12: "MD15"}, "start": 2},
        r"start: P0's Medarot on square 2 cannot act now: it has already acted this turn \(D14, D15\)",
    ),
    (
        "start on a placed Medarot",
        {"board": {2: {"card": "MD04", "placed": True}, 12: "MD15"}, "start": 2},
        r"cannot act now: it was placed this turn",
    ),
    (
        "start on a face-down Medarot",
        {"board": {2: {"card": "MD04", "face_up": False}, 12: "MD15"}, "start": 2},
        r"cannot act now: it is face down",
    ),
    (
        "face-down master mid-turn",
        {"masters": ({"card": "MR06", "face_up": False}, None)},
        r"D36 master: player 0's master is face down after the opening; S1 of turn 1 reveals it",
    ),
    ("unknown rules option", {"max_turn": 5}, r"rules: .*max_turn"),
    (
        "unknown Medarot key",
        {"board": {2: {"card": "MD04", "acted_": True}}},
        r"square 2: unknown key 'acted_'; the keys are card, owner, face_up, placed, acted, change",
    ),
    (
        "reserve outside advance",
        {"reserve": (["MD01"], [])},
        r"I6 mode rules: player 0's MedaForce reserve holds 1 cards in normal mode",
    ),
    ("a hand that is not a list", {"hands": ("MD01", [])}, r"P0 hand: give a list of card ids, got 'MD01'"),
]


@pytest.mark.parametrize("kw, pattern", [(kw, pat) for _, kw, pat in BAD], ids=[name for name, _, _ in BAD])
def test_a_bad_position_raises_position_error_naming_the_problem(kw: dict[str, Any], pattern: str) -> None:
    kw = {"board": DUEL, **kw}
    with pytest.raises(PositionError, match=pattern):
        position("normal", **kw)


def test_more_cards_than_a_beginner_deck_holds() -> None:
    deck = ["MD01", "MD02", "MD04", "MD18", "MD13"] * 3 + ["MR01"]
    with pytest.raises(
        PositionError,
        match=r"D42 deck regulation: player 0 holds 17 cards; a beginner deck has 15 \(R1, R2\)",
    ):
        position("beginner", board=DUEL, decks=(deck, []))


def test_beginner_has_no_master_and_advance_checks_the_reserve_kind() -> None:
    with pytest.raises(PositionError, match=r"I4 stock and master: player 0 has a master in beginner mode"):
        position("beginner", board=DUEL, masters=("MR01", None))
    with pytest.raises(
        PositionError,
        match=r"I6 mode rules: player 1's reserve holds the Medaroter Field Wrench \(MR01\); only destroyed Medarots go there \(R54\)",
    ):
        position("advance", board=DUEL, reserve=([], ["MR01"]))


def test_a_vacant_seat_holds_nothing_and_never_goes_first() -> None:
    with pytest.raises(PositionError, match=r"I1 card conservation: seat 1 is vacant but holds 1 cards"):
        position("beginner", board=DUEL, vacant_seat=True)
    with pytest.raises(
        PositionError, match=r"D39 first player: the first player is 1, not 0 \(seat 1 is vacant\)"
    ):
        position("beginner", board={2: "MD04"}, vacant_seat=True, first=1)
    st = position("beginner", board={2: "MD04"}, vacant_seat=True)
    assert st.decision == "ACTION_START" and st.current_player == 0


def test_the_relaxed_checks_accept_what_they_name() -> None:
    st = position("normal", board=DUEL, hands=(["MD01"] * 5, []), deck_rules=False)
    assert st.hand[0] == ["MD01"] * 5
    st = position("normal", board={0: "MD01", 1: "MD02", 2: "MD04", 3: "MD18", 12: "MD15"}, limits=False)
    assert sum(1 for x in st.board if x and x.owner == 0) == 4
    with pytest.raises(PositionError, match="hand_cap"):
        position("normal", board=DUEL, hands=(["MR01"] * 17, []), deck_rules=False, limits=False)


def test_position_error_is_a_state_error_and_a_value_error() -> None:
    with pytest.raises(StateError):
        position("normal", turn=0)
    with pytest.raises(ValueError):
        position("normal", turn=0)


LASTING_BAD: list[tuple[str, dict[str, Any], str]] = [
    (
        "instant effect",
        {"board": {2: "MD19", 12: "MD15"}, "effects": [{"square": 2, "targets": [2]}]},
        r"I10 lasting effects: lasting effect 0 \(GAIN_HP\): 'GAIN_HP' is not a lasting primitive",
    ),
    (
        "ally effect on an enemy",
        {"board": {2: "MD23", 12: "MD15"}, "effects": [{"square": 2, "targets": [12]}]},
        r"I10 lasting effects: lasting effect 0 \(MOD_POWER\) \(ALL_ALLIES\) applies to player 1's Medarot, not its user's",
    ),
    (
        "enemy effect on an ally",
        {"board": {2: "MD21", 3: "MD01", 12: "MD15"}, "effects": [{"square": 2, "targets": [3]}]},
        r"I10 lasting effects: lasting effect 0 \(DISABLE\) \(ONE_ENEMY\) applies to its user's own Medarot",
    ),
    (
        "one-target effect on two",
        {"board": {2: "MD24", 3: "MD01", 12: "MD15"}, "effects": [{"square": 2, "targets": [2, 3]}]},
        r"I10 lasting effects: lasting effect 0 \(MOD_ARMOR\) \(ONE_ALLY\) applies to 2 Medarots, not 1",
    ),
    ("no source", {"effects": [{"targets": [2]}]}, r"effects\[0\]: name exactly one source"),
    (
        "empty source square",
        {"effects": [{"square": 4, "targets": [2]}]},
        r"source square 4 holds no Medarot",
    ),
    (
        "target on an empty square",
        {"board": {2: "MD23", 12: "MD15"}, "effects": [{"square": 2, "targets": [3]}]},
        r"target square 3 holds no Medarot",
    ),
    (
        "same source twice",
        {"board": {2: "MD23", 12: "MD15"}, "effects": [{"square": 2, "targets": [2]}] * 2},
        r"I10 lasting effects: 2 lasting effects come from one source \(uid 1\); a source gives one",
    ),
    (
        "AFTER_USE card in use",
        {"stocks": ([{"card": "MR01", "face_up": True}], [])},
        r"D26 card life: player 0's stock slot 0 \(Field Wrench \(MR01\)\) is in use with trash timing AFTER_USE outside an action \(D45\)",
    ),
    (
        "empty stock source",
        {"effects": [{"stock": (0, 1), "targets": [2]}]},
        r"effects\[0\]: P0 stock slot 1 is empty",
    ),
    (
        "DOT card in use without its effect",
        {"stocks": ([], [{"card": "MR10", "face_up": True}])},
        r"I10 lasting effects: player 1's stock slot 0 \(Venom Drip \(MR10\)\) is in use with DOT, but the effect is not in play \(D26\)",
    ),
    (
        "targets for a player effect",
        {"stocks": ([], ["MR10"]), "effects": [{"stock": (1, 0), "targets": [2]}]},
        r"DOT applies to a player; give no targets",
    ),
    (
        "charge without NEGATE",
        {
            "stocks": ([{"card": "MR02", "face_up": True, "charge": 1}], []),
            "effects": [{"stock": (0, 0), "targets": [2]}],
        },
        r"P4 negate: player 0's stock slot 0 \(Overclock Coil \(MR02\)\) stores 1 charges; one use of an ACTION NEGATE stores 1",
    ),
]


@pytest.mark.parametrize(
    "kw, pattern", [(kw, pat) for _, kw, pat in LASTING_BAD], ids=[n for n, _, _ in LASTING_BAD]
)
def test_a_lasting_effect_the_rules_could_not_leave_raises(kw: dict[str, Any], pattern: str) -> None:
    kw = {"board": DUEL, **kw}
    with pytest.raises(PositionError, match=pattern):
        position("normal", **kw)


def test_no_medaroter_is_in_use_at_the_start_phase() -> None:
    with pytest.raises(
        PositionError,
        match=r"D26 card life: player 0's stock slot 0 \(Overclock Coil \(MR02\)\) is in use at the start phase; E2 trashed it \(D38\)",
    ):
        position(
            "normal",
            board=DUEL,
            stocks=(["MR02"], []),
            effects=[{"stock": (0, 0), "targets": [2]}],
            start="start_phase",
        )


# ----------------------------------------------------------------------------- mid-turn situations
def test_a_medarot_that_already_acted_is_not_selected_again() -> None:
    board = {2: {"card": "MD13", "owner": 0, "acted": True}, 3: "MD04", 12: "MD15"}
    st = position("normal", board=board, decks=(["MD01"], ["MD02"]))
    assert acting_square(st) == 3  # Rivetclaw (speed 10) has acted: Scattergale goes
    fx.finish_action(st)
    assert acting_square(st) == 12  # then P1's Stonetusk; Rivetclaw is never offered


def test_when_every_medarot_has_acted_the_end_phase_then_the_next_start_phase_runs() -> None:
    board = {7: {"card": "MD04", "owner": 0, "acted": True}, 12: {"card": "MD15", "acted": True}}
    st = position("normal", board=board, decks=(["MD01"], ["MD02"]), hp=(5, 5), turn=3)
    assert st.turn == 4 and st.decision == "OPT_DRAW"  # E3 healed P0's neutral Medarot
    assert st.hp == [6, 5]


def test_a_medarot_placed_this_turn_does_not_act() -> None:
    board = {2: {"card": "MD13", "placed": True}, 3: "MD04", 12: "MD15"}
    st = position("normal", board=board)
    assert acting_square(st) == 3


def test_an_active_medarot_effect_changes_power_until_its_source_acts_again() -> None:
    board = {0: "MD23", 2: "MD04", 12: "MD15"}
    st = position("normal", board=board, effects=[{"square": 0, "targets": [0, 2]}], start=None)
    assert eff_power(st, st.board[2]) == 40  # type: ignore[arg-type]  # 30 + Banneret's 10
    assert eff_power(st, st.board[12]) == 70  # type: ignore[arg-type]
    st = position("normal", board=board, effects=[{"square": 0, "targets": [0, 2]}], start=0)
    assert st.effects == [] and eff_power(st, st.board[2]) == 30  # type: ignore[arg-type]  # D37: A1 ends it


def test_an_active_armor_effect_decides_a_judgement() -> None:
    # P0's Quillshot (power 20) attacks P1's Copperjay (armor 20) on 12: destroyed, unless
    # P1's Aegis Moth (ONE_ALLY +20 armor) still covers it.
    board = {2: "MD01", 12: "MD07", 13: "MD24"}
    plain = position("beginner", board=board, start=2)
    shielded = position("beginner", board=board, effects=[{"square": 13, "targets": [12]}], start=2)
    assert eff_armor(shielded, shielded.board[12]) == 40  # type: ignore[arg-type]
    for st in (plain, shielded):
        fx.passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
        fx.do(st, "DECLARE", A.SQUARE[12])
        fx.do(st, "DEFENCE", A.PASS, player=1)
    assert plain.board[12] is None and plain.trash[1] == ["MD07"]
    assert shielded.board[12] is not None and shielded.trash[1] == []


def test_an_end_of_turn_speed_card_in_use_changes_the_order_then_is_trashed() -> None:
    board = {2: "MD18", 12: "MD02"}  # both speed 6: Tidewarden first on arrows (4 > 3)
    st = position("normal", board=board, decks=(["MD01"], ["MD04"]))
    assert acting_square(st) == 2
    st = position(
        "normal",
        board=board,
        decks=(["MD01"], ["MD04"]),
        stocks=([], [None, "MR02"]),
        effects=[{"stock": (1, 1), "targets": [12]}],
    )
    assert acting_square(st) == 12 and eff_speed(st, st.board[12]) == 7  # type: ignore[arg-type]
    slot = st.stock[1][1]
    assert slot is not None and slot.face_up and slot.trash == "END_OF_TURN"
    fx.run_until(st, fx.at("OPT_DRAW"))  # the end phase trashes it (E2) and its bonus ends
    assert st.stock[1][1] is None and "MR02" in st.trash[1] and eff_speed(st, st.board[12]) == 6  # type: ignore[arg-type]


def test_a_disabled_medarot_skips_its_action_and_pays_the_penalty() -> None:
    st = position(
        "normal",
        board={2: "MD04", 12: "MD13"},
        stocks=(["MR12"], []),
        effects=[{"stock": (0, 0), "targets": [12]}],
        decks=(["MD01"], ["MD02"]),
    )
    # Rivetclaw (speed 10) is selected first but is disabled (D20): no decision of its own.
    assert st.board[12].acted and st.hp[1] == 19  # type: ignore[union-attr]
    assert acting_square(st) == 2 and st.decision == "ACTION_START"


def test_a_master_used_this_turn_is_not_offered_again() -> None:
    def support(used: bool) -> GameState:
        st = position("normal", board=DUEL, masters=("MR01", "MR06"), master_used=(used, False), start=2)
        fx.passes(st, "ACTION_START", "MOVE_BEFORE")
        assert st.decision == "SUPPORT"
        return st

    assert A.MASTER in support(False).legal_actions()
    assert A.MASTER not in support(True).legal_actions()


def test_a_stored_negate_charge_can_be_spent_in_defence() -> None:
    st = position(
        "normal",
        board={2: "MD01", 12: "MD07"},
        stocks=([], [{"card": "MR19", "face_up": True, "charge": 1}]),
        start=2,
    )
    fx.passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    fx.do(st, "DECLARE", A.SQUARE[12])
    assert st.decision == "DEFENCE" and A.STOCK[0] in st.legal_actions()
    fx.do(st, "DEFENCE", A.STOCK[0], player=1)
    assert st.board[12] is not None  # negated: no judgement


def test_a_face_down_master_is_revealed_at_turn_one_and_its_modifier_applies() -> None:
    st = position(
        "normal",
        board=DUEL,
        masters=({"card": "MR06", "face_up": False}, "MR01"),
        decks=(["MD01"], ["MD02"]),
        start="start_phase",
    )
    assert st.master[0] is not None and st.master[0].face_up
    assert st.hp == [23, 20]  # MR06 +3 at its reveal; P1's face-up master was already counted


def test_a_medachanged_medarot_uses_its_top_card() -> None:
    st = position("advance", board={2: {"card": "MD10", "change": "MC01"}, 12: "MD15"}, start=None)
    assert eff_power(st, st.board[2]) == 50  # type: ignore[arg-type]  # MC01, not MD10's 30


# ----------------------------------------------------------------------------- copies
def _rich() -> GameState:
    return position(
        "advance",
        board={
            2: {"card": "MD10", "change": "MC01"},
            7: {"card": "MD23", "owner": 0, "acted": True},
            12: "MD15",
            13: {"card": "MD04", "face_up": False},
        },
        masters=("MR19", "MR06"),
        stocks=(["MR12", {"card": "MR19", "face_up": True, "charge": 1}], ["MR02"]),
        hands=(["MD01", "MR01"], ["MR03"]),
        decks=(["MD02", "MD18"], ["MD13"]),
        trash=(["MR10"], []),
        reserve=(["MD21"], []),
        hp=(7, 9),
        turn=6,
        first=1,
        effects=[
            {"square": 7, "targets": [2, 7]},
            {"stock": (0, 0), "targets": [12]},
            {"stock": (1, 0), "targets": [12]},
        ],
    )


def test_a_built_position_round_trips_through_to_dict_exactly() -> None:
    st = _rich()
    data = json.loads(json.dumps(st.to_dict()))
    back = GameState.from_dict(data)
    assert back.to_dict() == st.to_dict()
    assert back.legal_actions() == st.legal_actions() and back.current_player == st.current_player
    for s in (st, back):
        s.apply(s.legal_actions()[0])
    assert back.to_dict() == st.to_dict()


# ----------------------------------------------------------------------------- agents
@pytest.mark.parametrize("spec", ["heuristic", "search:2"])
@pytest.mark.parametrize("start", ["select", 2, "start_phase"])
def test_the_agents_answer_a_built_position_with_a_legal_action(spec: str, start: Any) -> None:
    st = position(
        "beginner",
        board={2: "MD04", 3: "MD01", 7: ("MD13", 1), 12: "MD15"},
        hands=(["MR01"], ["MD02"]),
        decks=(["MD18", "MR02"], ["MD21", "MR06"]),
        hp=(4, 3),
        turn=7,
        start=start,
    )
    agent = agents.make(spec, "medarot_ocg_v1", seed=0, mode="beginner")
    before = json.dumps(st.to_dict())
    move = agent.choose(st, st.current_player)
    assert move in st.legal_actions()
    assert json.dumps(st.to_dict()) == before  # asking does not change the position


def test_the_heuristic_plays_a_built_position_to_the_end() -> None:
    st = position("beginner", board=DUEL, decks=(["MD01"], ["MD02"]), hp=(2, 2), turn=9)
    agent = agents.make("heuristic", "medarot_ocg_v1", mode="beginner")
    for _ in range(200):
        if st.done:
            break
        st.apply(agent.choose(st, st.current_player))
    assert st.done and st.winner in (0, 1, 2)

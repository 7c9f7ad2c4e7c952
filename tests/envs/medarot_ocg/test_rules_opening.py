"""Opening phase, decks and modes (spec 2.1, 2.2, 3.1, 5.1): R1-R4, R8-R14, D1, D2, D4, D6, D36, D39-D42."""

from __future__ import annotations

import pytest

from deckgym.envs.core.errors import DeckError
from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.cards import load_pool, resolve_deck, starter_decks, validate_deck
from deckgym.envs.medarot_ocg.config import make_config
from deckgym.envs.medarot_ocg.rules import new_game
from deckgym.envs.medarot_ocg.rules.board import MOVABLE, OWN_SQUARES
from tests.envs.medarot_ocg import fixtures as fx

do, passes = fx.do, fx.passes

UNITS9 = ["COG"] * 3 + ["EDGE"] * 3 + ["ASH"] * 3
ROTERS = ["MEMO"] * 3 + ["PLUS"] * 3 + ["GAIN"] * 3 + ["HURT"] * 3 + ["DRAW"] * 3
BEGINNER = [
    "COG",
    "EDGE",
    "ASH",
    "HOOK",
    "PUG",
    "QUILL",
    "JADE",
    "IVY",
    "MOSS",
    "NIB",
    "MEMO",
    "PLUS",
    "GAIN",
    "HURT",
    "DRAW",
]


def _starter(mode: str, i: int = 0) -> list[str]:
    pool = load_pool()
    return resolve_deck(starter_decks(mode)[i], pool, make_config(mode)).expand()


def _game(mode: str, seed: int = 0):  # type: ignore[no-untyped-def]
    return new_game(make_config(mode), load_pool(), [_starter(mode, 0), _starter(mode, 1)], seed)


#: Opening hands of the beginner deck: seven Medarots (no Medaroter); two Medarots and five Medaroters.
MEDAROTS_ONLY = ["COG", "EDGE", "ASH", "HOOK", "PUG", "QUILL", "JADE"]
TWO_UNITS = ["COG", "MEMO", "PLUS", "GAIN", "HURT", "DRAW", "EDGE"]


def _scripted(
    mode: str,
    top0: list[str],
    top1: list[str],
    deck0: list[str] = BEGINNER,
    deck1: list[str] = BEGINNER,
    first: int = 0,
    extra: tuple = (),
):  # type: ignore[no-untyped-def]
    """A new game whose shuffles put ``top0`` and ``top1`` on top of the decks (the opening hands)."""
    rng = fx.ScriptedRng(0, shuffles=[fx.put_on_top(*top0), fx.put_on_top(*top1), *extra], ranges=[first])
    return fx.new_game_scripted(mode, (deck0, deck1), rng)


# ----------------------------------------------------------------------------- decks (R1, R2, D42)
def test_R1_beginner_deck_is_15_cards_with_at_most_3_copies_per_name():
    pool, cfg = fx.pool(), make_config("beginner")
    ok = ["COG"] * 3 + ["EDGE"] * 3 + ["ASH"] * 3 + ["HOOK"] + ["MEMO"] * 3 + ["PLUS"] * 2
    validate_deck(resolve_deck(ok, pool, cfg), pool, cfg)
    with pytest.raises(DeckError, match="exactly 15"):
        resolve_deck(ok[:-1], pool, cfg)
    with pytest.raises(DeckError, match="at most 3"):
        resolve_deck(ok[:-1] + ["COG"], pool, cfg)


def test_R2_advance_deck_30_and_a_medachange_counts_apart_from_its_medarot():
    pool, cfg = fx.pool(), make_config("advance")
    deck = UNITS9 + ["MC_COG"] * 3 + ROTERS + ["TRIG"] * 3
    assert len(deck) == 30
    resolve_deck(deck, pool, cfg)  # 3 Cog Medarots + 3 Cog MedaChanges is legal
    with pytest.raises(DeckError, match="exactly 30"):
        resolve_deck(deck[:-1], pool, cfg)


def test_D42_deck_needs_exact_size_a_medarot_and_medachange_only_in_advance():
    pool = fx.pool()
    normal = make_config("normal")
    no_unit = ROTERS + ["TRIG"] * 3 + ["DUO"] * 3 + ["MIX"] * 3 + ["POW"] * 3 + ["WALL"] * 3
    with pytest.raises(DeckError, match="no Medarot"):
        resolve_deck(no_unit, pool, normal)
    with_change = UNITS9 + ["MC_COG"] * 3 + ROTERS + ["TRIG"] * 3
    with pytest.raises(DeckError, match="only legal in advance"):
        resolve_deck(with_change, pool, normal)
    with pytest.raises(DeckError, match="unknown card"):
        resolve_deck(["NOPE"] * 30, pool, normal)


def test_D1_normal_mode_is_advance_without_medaforce_and_medachange():
    n, a = make_config("normal"), make_config("advance")
    assert (
        (
            n.deck_size,
            n.start_hp,
            n.master,
            n.arrow_movement,
            n.substitution,
            n.weak_attack,
            n.medaroter_costs,
        )
        == (
            a.deck_size,
            a.start_hp,
            a.master,
            a.arrow_movement,
            a.substitution,
            a.weak_attack,
            a.medaroter_costs,
        )
        == (30, 20, True, True, True, True, True)
    )
    assert not n.medaforce and not n.medachange and a.medaforce and a.medachange
    # a destroyed Medarot goes to the trash in normal mode (to the reserve in advance, R54)
    st = fx.make_state("normal", units={2: "SNIPE", 12: "SLOW", 10: "SLOW"}, decks=([], ["MEMO"]), start=2)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.trash[1] == ["SLOW"] and st.reserve[1] == []


def test_D4_beginner_has_no_master_substitution_weak_attack_medaforce_or_medachange():
    b = make_config("beginner")
    assert not (
        b.master or b.substitution or b.weak_attack or b.medaforce or b.medachange or b.arrow_movement
    )
    st = _game("beginner")
    assert st.decision == "OPENING_STOCK"  # no MASTER_SELECT in beginner
    fx.run_until(st, fx.at("OPT_DRAW"))
    assert st.master == [None, None]
    # no SUBSTITUTE even with a Medarot in hand; power < armor does nothing (no weak attack)
    st = fx.make_state("beginner", units={2: "FORT", 12: "BOLT"}, hands=(["QUILL"], ["MEMO"] * 5), start=2)
    assert A.SUBSTITUTE not in st.legal_actions()
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "MOVE_AFTER" and len(st.hand[1]) == 5


# ----------------------------------------------------------------------------- HP and board
@pytest.mark.parametrize("mode", ["normal", "advance"])
def test_R3_R10_starting_hp_is_20_in_normal_and_advance(mode):
    st = _game(mode)
    assert st.hp == [20, 20]


def test_D2_beginner_starting_hp_is_10():
    assert _game("beginner").hp == [10, 10]


def test_R4_D6_board_is_3_rows_by_5_columns_own_neutral_own():
    st = _game("beginner")
    assert len(st.board) == 15
    assert OWN_SQUARES == ((0, 1, 2, 3, 4), (10, 11, 12, 13, 14))
    assert MOVABLE[0] == frozenset(range(10)) and MOVABLE[1] == frozenset(range(5, 15))


# ----------------------------------------------------------------------------- opening steps
@pytest.mark.parametrize("mode", ["beginner", "normal", "advance"])
def test_R8_each_player_draws_7_as_the_starting_hand(mode):
    st = _game(mode, seed=3)
    assert [len(h) for h in st.hand] == [7, 7]
    assert [len(d) for d in st.deck] == [make_config(mode).deck_size - 7] * 2


def test_R9_D39_first_player_is_chosen_by_the_seeded_rng_and_decides_first():
    firsts = {seed: _game("beginner", seed).first for seed in range(12)}
    assert set(firsts.values()) == {0, 1}
    for seed, first in firsts.items():
        st = _game("beginner", seed)
        assert st.first == first  # same seed, same choice
        assert st.current_player == first  # P_first's opening decisions come first


def test_R11_D36_master_is_chosen_face_down_from_the_hand_and_is_mandatory():
    deck = UNITS9 + ROTERS + ["TRIG"] * 6
    st = _scripted(
        "normal",
        ["COG", "EDGE", "MEMO", "PLUS", "ASH", "GAIN", "HURT"],
        ["COG", "EDGE", "ASH", "COG", "EDGE", "ASH", "COG"],
        deck,
        list(deck),
    )
    assert st.decision == "MASTER_SELECT" and st.current_player == 0
    assert A.PASS not in st.legal_actions()  # no pass: a player holding a Medaroter must choose
    assert st.legal_actions() == [A.HAND[2], A.HAND[3], A.HAND[5], A.HAND[6]]
    do(st, "MASTER_SELECT", A.HAND[3])
    assert st.master[0] is not None and st.master[0].card == "PLUS" and not st.master[0].face_up
    assert len(st.hand[0]) == 6
    # P1 holds no Medaroter: no MASTER_SELECT for it, start without a master (R15)
    fx.run_until(st, lambda s: s.current_player == 1)
    assert st.decision == "OPENING_STOCK"
    fx.run_until(st, fx.at("OPT_DRAW"))
    assert st.master[1] is None
    assert st.master[0].face_up and st.hp[0] == 23  # revealed at turn 1's S1, hp_mod +3 (R16)


def test_R12_opening_stock_holds_at_most_3_face_down_cards():
    st = _scripted("beginner", TWO_UNITS, MEDAROTS_ONLY)
    assert st.decision == "OPENING_STOCK"
    assert st.legal_actions() == [A.PASS] + [A.SET[i] for i in range(1, 6)]
    for _ in range(3):
        do(st, "OPENING_STOCK", A.SET[1])
    assert [(s.card, s.face_up) for s in st.stock[0]] == [("MEMO", False), ("PLUS", False), ("GAIN", False)]
    assert st.legal_actions() == [A.PASS]


def test_D41_a_decision_with_one_option_is_still_presented():
    st = _scripted("beginner", MEDAROTS_ONLY, MEDAROTS_ONLY)
    assert st.decision == "OPENING_STOCK" and st.legal_actions() == [A.PASS]  # no Medaroter in hand
    st = fx.make_state("normal", units={2: "ASH", 12: "SLOW"}, start=2)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.decision == "DEFENCE" and st.legal_actions() == [A.PASS]


def test_R13_opening_places_up_to_3_medarots_face_down_in_the_own_row():
    st = _scripted("beginner", ["COG", "EDGE", "ASH", "HOOK", "MEMO", "PLUS", "GAIN"], TWO_UNITS)
    passes(st, "OPENING_STOCK")
    for square in (0, 1, 2):
        assert st.decision == "PLACE_CARD"
        do(st, "PLACE_CARD", A.HAND[0])
        assert st.legal_actions() == [A.SQUARE[s] for s in range(5) if st.board[s] is None]  # own row only
        do(st, "PLACE_SQUARE", A.SQUARE[square])
    # three on the board: the 4th Medarot (Hook) stays in hand
    assert st.current_player == 1 and "HOOK" in st.hand[0]
    assert all(not fx.stack(st, s).face_up for s in (0, 1, 2))
    # P1 holds only 2 Medarots: it places both
    passes(st, "OPENING_STOCK")
    for square, i in ((10, 0), (14, 5)):
        do(st, "PLACE_CARD", A.HAND[i], player=1)
        do(st, "PLACE_SQUARE", A.SQUARE[square], player=1)
    assert fx.units_of(st, 1) == [10, 14]
    assert st.decision == "OPT_DRAW" and st.turn == 1
    assert all(fx.stack(st, s).face_up for s in (0, 1, 2, 10, 14))  # turned face up at S1


def test_R14_D40_mulligan_reveals_and_redraws_as_often_as_needed():
    deck = UNITS9[:3] + ROTERS + ["TRIG"] * 3 + ["DUO"] * 3 + ["MIX"] * 3 + ["POW"] * 3
    no_unit = ["MEMO", "PLUS", "GAIN", "HURT", "DRAW", "TRIG", "DUO"]
    # shuffles: P0's deck, P1's deck, then P0's two mulligan reshuffles
    rng = fx.ScriptedRng(
        0,
        shuffles=[
            fx.put_on_top(*no_unit),
            fx.put_on_top("COG", *no_unit[:6]),
            fx.put_on_top(*no_unit),
            fx.put_on_top("COG", *no_unit[:6]),
        ],
        ranges=[1],
    )
    st = fx.new_game_scripted("normal", (list(deck), list(deck)), rng)
    assert st.first == 1
    assert st.mulligans == [2, 0]  # P0 got no Medarot twice; unlimited mulligans
    reveals = [e for e in st.events if "mulligans, revealing" in e]
    assert len(reveals) == 2 and all(e.startswith("P0 mulligans, revealing: Memo, Plus") for e in reveals)
    assert st.hand[0][0] == "COG" and len(st.hand[0]) == 7
    assert len(st.deck[0]) == 23 and fx.conserved(st, 0) == 30

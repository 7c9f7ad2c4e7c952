"""Details of judgement, destruction and the acting Medarot's own effect (spec 5.3 A6-A8).

Items: D23 (beginner DESTROY_DRAW seed 1-3), R42/D29/D30 (weak destroy, then the additional
effect and the rest of A8), D25 (a unit's own effect is not tied to any stock slot), D30 (an
ON_HIT effect aimed at a chosen ally asks EFFECT_TARGET).
"""

from __future__ import annotations

from envs.medarot_ocg import actions as A
from envs.medarot_ocg.rules.medaroter import trash_slot
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state = fx.do, fx.passes, fx.make_state

BOOST = fx._unit(
    "BOOST", "Booster", "SHOOTING", 7, 1, 10, 10, ["F", "B"], fx._eff("ON_HIT", "MOD_ARMOR", "ONE_ALLY", 20)
)


def _declare(mode, square, units, **kw):  # type: ignore[no-untyped-def]
    st = make_state(mode, units=units, start=square, **kw)
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    assert st.decision == "DECLARE"
    return st


def test_D23_beginner_destroy_draw_with_one_card_left_must_draw_it():
    st = _declare("beginner", 2, {2: "SNIPE", 12: "EDGE", 10: "SLOW"}, decks=([], ["MEMO"]))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "DESTROY_DRAW" and st.current_player == 1
    assert st.legal_actions() == [A.COUNT[1]]  # seed: 1 to 3 cards, capped by the deck (1)


def test_R42_D30_weak_destroy_is_followed_by_the_additional_effect():
    # Leech (power 10) vs Tank (armor 90), empty hand: weak-destroyed; then ON_HIT GAIN_HP 1 still comes
    st = _declare("normal", 2, {2: "LEECH", 12: "TANK", 10: "SLOW"}, decks=([], []), hands=([], []))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.board[12] is None and st.hp[1] == 19  # R42: weak-destroy cost 1
    hp0 = st.hp[0]
    do(st, "DESTROY_DRAW", A.COUNT[0])
    assert st.hp[0] == hp0 + 1  # D30: the additional effect after the destroyed procedure
    assert st.decision == "MOVE_AFTER"


def test_D26_weak_destroy_still_trashes_the_after_defence_cards():
    # Memo master/stock aside: the defender's AFTER_DEFENCE card (Wall, used) is trashed at the end of A8
    st = _declare(
        "normal", 2, {2: "LEECH", 12: "TANK", 10: "SLOW"}, decks=([], []), hands=([], ["WALL"]), hp=(20, 20)
    )
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.HAND[0])  # Wall: +20 armor, AFTER_DEFENCE
    do(st, "DEFENCE", A.PASS)
    assert st.board[12] is None  # weak-destroyed (hand now empty)
    do(st, "DESTROY_DRAW", A.COUNT[0])
    assert "WALL" in st.trash[1] and all(s is None or s.card != "WALL" for s in st.stock[1])


def test_D30_on_hit_effect_on_a_chosen_ally_asks_effect_target():
    st = _declare(
        "beginner", 2, {2: "BOOST", 12: "TANK", 0: "SLOW"}, cards=fx.pool_toml([*fx.TEST_CARDS, BOOST])
    )
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert st.decision == "EFFECT_TARGET" and st.current_player == 0
    assert A.SQUARE[0] in st.legal_actions()
    do(st, "EFFECT_TARGET", A.SQUARE[0])
    assert fx.armor(st, 0) == 30


def test_D25_a_special_effect_is_not_ended_by_trashing_a_stock_card():
    st = _declare("beginner", 2, {2: "RUNE", 0: "SLOW", 12: "TANK"}, stock=([None, "MEMO", "MEMO"], []))
    do(st, "DECLARE", A.SPECIAL)
    assert fx.armor(st, 0) == 30
    trash_slot(st, 0, 1)
    assert fx.armor(st, 0) == 30  # D25: only effects given by that stock card end


def test_D25_an_on_hit_effect_is_not_ended_by_trashing_a_stock_card():
    st = _declare("beginner", 2, {2: "HORN", 12: "ASH"}, stock=([None, "MEMO", "MEMO"], []))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    assert fx.speed(st, 12) == 2
    trash_slot(st, 0, 1)
    assert fx.speed(st, 12) == 2

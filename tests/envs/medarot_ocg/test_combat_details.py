"""Details of judgement, destruction and the acting Medarot's own effect (spec 5.3 A6-A8).

Items: D23 (beginner DESTROY_DRAW seed 1-3), R42/D29/D30 (weak destroy, then the additional
effect and the rest of A8), D25 (a unit's own effect is not tied to any stock slot), D30 (an
ON_HIT effect aimed at a chosen ally asks EFFECT_TARGET).
"""

from __future__ import annotations

import random

from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.rules.board import trash_slot
from deckgym.envs.medarot_ocg.state import Eff
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


def test_D25_a_units_own_effect_records_no_medaroter_slot():
    # state.Eff: src_slot is 4 * player + slot of a source Medaroter card, or -1; a unit's effect has none
    st = _declare("beginner", 2, {2: "RUNE", 0: "SLOW", 12: "TANK"})
    do(st, "DECLARE", A.SPECIAL)
    rune = fx.stack(st, 2)
    assert [(e.src_uid, e.src_slot) for e in st.effects] == [(rune.uid, -1)]


def test_R35_D12_R39_the_log_names_what_each_payment_is_for():
    st = _declare("normal", 3, {3: "HOOK", 13: "SLOW"})
    do(st, "DECLARE", A.SQUARE[13])
    assert "P0 spends 1 HP on a 2-square melee attack (HP 19)" in st.events
    do(st, "DEFENCE", A.PASS)
    slow = st.cards["SLOW"]
    assert f"power {st.cards['HOOK'].power} >= armor {slow.armor}: {slow.name} is destroyed" in st.events
    assert any(e.startswith(f"P1 pays {slow.cost} HP for destroyed {slow.name}") for e in st.events)


def test_P6_two_traps_both_charge_the_attackers_owner():
    # Two TRAP 2 effects of P1 are active: P0's attack on P1's Medarot costs P0 both (2 + 2).
    st = _declare("normal", 2, {2: "SNIPE", 12: "SLOW"}, hands=([], []))
    for _ in range(2):
        st.effects.append(Eff("TRAP", 2, "ANY", 1, -1, 4 + 0, None, 1, "END_OF_TURN"))
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS)
    while st.decision == "DESTROY_DRAW":
        do(st, "DESTROY_DRAW", st.legal_actions()[0])
    assert st.hp[0] == 20 - 2 - 2
    assert sum("P0 pays 2 HP for a trap" in e for e in st.events) == 2


def test_board_version_only_grows_over_a_game():
    """``board_version`` is the encoders' cache key: a rule may bump it, never set it back."""
    from deckgym.envs import medarot_ocg_v1

    bumps = 0
    for mode in ("beginner", "normal", "advance"):
        env = medarot_ocg_v1.env(mode=mode)
        for g in range(15):
            env.reset(seed=g)
            st = env.unwrapped.game
            rng = random.Random(g)
            last = st.board_version
            while not st.is_terminal():
                st.apply(rng.choice(st.legal_actions()))
                assert st.board_version >= last, (mode, g, st.decision)
                bumps += st.board_version > last
                last = st.board_version
    assert bumps > 500

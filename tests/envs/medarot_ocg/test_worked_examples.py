"""The worked examples Ex1-Ex13 of spec section 9, each driven through ``GameState.apply``.

Every decision point an example does not list is answered PASS. Squares are absolute (4.2).
"""

from __future__ import annotations

import pytest

from deckgym.envs.medarot_ocg import actions as A
from tests.envs.medarot_ocg import fixtures as fx

do, passes, make_state, run_until, at = fx.do, fx.passes, fx.make_state, fx.run_until, fx.at
L, R, B = fx.L, fx.R, fx.B


def test_ex1_power_30_vs_weak_defence_discards_3_normal():
    p1_hand = ["MEMO", "PLUS", "GAIN", "HURT", "DRAW"]
    st = make_state("normal", units={1: "ASH", 11: "BOLT"}, hands=([], p1_hand))
    assert fx.acting_card(st) == "ASH"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    assert A.SQUARE[11] in st.legal_actions()  # 2 ahead, same column
    do(st, "DECLARE", A.SQUARE[11], player=0)
    do(st, "DEFENCE", A.PASS, player=1)
    # 30 < 40: weak attack, need = 3 < hand 5, so P1 chooses 3 cards
    do(st, "WEAK_DISCARD", A.HAND[4], player=1)
    do(st, "WEAK_DISCARD", A.HAND[0], player=1)
    do(st, "WEAK_DISCARD", A.HAND[0], player=1)
    assert st.decision == "MOVE_AFTER"
    do(st, "MOVE_AFTER", A.PASS, player=0)
    # penalty paid; the next Medarot (Bolt) is now starting its action
    assert fx.acting_card(st) == "BOLT"
    assert st.hand[1] == ["GAIN", "HURT"]
    assert st.trash[1] == ["DRAW", "MEMO", "PLUS"]
    assert fx.stack(st, 11).base == "BOLT"
    assert st.hp == [19, 20]


def test_ex2_power_20_vs_weak_defence_discards_2_advance():
    st = make_state(
        "advance",
        units={7: ("COG", 0), 12: "DOME"},
        hands=([], ["MEMO", "PLUS", "GAIN", "HURT"]),
        decks=(["MEMO"] * 3, ["MEMO"] * 3),
    )
    assert fx.acting_card(st) == "COG"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])  # 1 ahead of 7 for P0
    do(st, "DEFENCE", A.PASS, player=1)
    do(st, "WEAK_DISCARD", A.HAND[0], player=1)
    do(st, "WEAK_DISCARD", A.HAND[0], player=1)
    do(st, "MOVE_AFTER", A.MOVE[L])  # 7 -> 6
    assert fx.acting_card(st) == "DOME"
    assert fx.stack(st, 6).base == "COG" and st.board[7] is None
    assert len(st.hand[1]) == 2 and len(st.trash[1]) == 2
    assert st.reserve == [[], []]
    assert st.hp[0] == 20  # no penalty: Cog moved after acting
    run_until(st, at("OPT_DRAW"))  # Dome passes (P1 pays its penalty); end phase; next start phase
    assert st.turn == 2
    assert st.hp[0] == 21  # +1 at the end phase: Cog is in the neutral row


def test_ex3_same_hit_in_beginner_mode_does_nothing():
    st = make_state(
        "beginner", units={0: "ASH", 11: "BOLT"}, hands=([], ["MEMO", "PLUS", "GAIN", "HURT", "DRAW"])
    )
    assert st.hp == [10, 10]
    do(st, "ACTION_START", A.PASS)
    do(st, "MOVE_BEFORE", A.MOVE[R])  # 0 -> 1
    do(st, "SUPPORT", A.PASS)
    do(st, "DECLARE", A.SQUARE[11])
    do(st, "DEFENCE", A.PASS, player=1)
    # 30 < 40 in beginner: no damage, no discard, no MOVE_AFTER (Ash already moved)
    assert fx.acting_card(st) == "BOLT" and st.decision == "ACTION_START"
    assert len(st.hand[1]) == 5 and st.trash[1] == []
    assert fx.stack(st, 11).base == "BOLT" and fx.stack(st, 1).base == "ASH"
    assert st.hp[0] == 10


def test_ex4_full_destroy_in_advance_mode():
    deck1 = ["MEMO"] * 7 + ["GAIN", "HURT", "GALE"]  # the top (end) three: Gale, Hurt, Gain
    st = make_state(
        "advance",
        units={7: ("EDGE", 0), 12: "FORT", 10: "SLOW", 14: "SLOW"},
        hands=([], ["MEMO", "PLUS"]),
        decks=(["MEMO"] * 3, deck1),
        hp=(20, 15),
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS, player=1)
    # 40 >= 40: Fort destroyed, P1 pays 3, Fort goes face down to the reserve
    assert st.hp[1] == 12 and st.reserve[1] == ["FORT"] and st.board[12] is None
    do(st, "DESTROY_DRAW", A.COUNT[3], player=1)
    assert st.hand[1] == ["MEMO", "PLUS", "GALE", "HURT", "GAIN"]
    do(st, "PLACE_CARD", A.HAND[2], player=1)  # Gale
    do(st, "PLACE_SQUARE", A.SQUARE[12], player=1)
    do(st, "DRAW_STOCK", A.PASS, player=1)  # D23, D35: the drawn Medaroters may be set; keep them
    do(st, "MOVE_AFTER", A.PASS, player=0)
    assert st.hp == [19, 12]  # P0's penalty
    assert len(st.reserve[1]) == 1 and len(st.deck[1]) == 7 and len(st.hand[1]) == 4
    assert len(fx.units_of(st, 1)) == 3
    gale = fx.stack(st, 12)
    assert gale.base == "GALE" and not gale.face_up and gale.placed
    assert fx.action_order(st, 2) == ["SLOW", "SLOW"]  # Gale cannot act this turn
    run_until(st, at("OPT_DRAW"))
    assert st.turn == 2 and not gale.acted


def test_ex5_paying_a_medaroter_cost_with_medaforce_advance():
    st = make_state(
        "advance",
        units={7: ("COG", 0), 12: "GALE"},
        hp=(20, 12),
        hands=([], ["WALL", "MEMO", "PLUS", "GAIN"]),
        reserve=([], ["FORT"]),
        stock=([], ["BLANK", "BLANK", None]),
        start=7,
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    assert st.decision == "DEFENCE" and A.HAND[0] in st.legal_actions()
    do(st, "DEFENCE", A.HAND[0], player=1)  # Wall
    assert st.legal_actions() == [A.MEDAFORCE[0], A.MEDAFORCE[1]]
    do(st, "PAY_SPLIT", A.MEDAFORCE[1], player=1)
    # 1 from the reserve (to the trash) + 1 HP; Wall face up in the empty slot
    assert st.reserve[1] == [] and st.trash[1] == ["FORT"] and st.hp[1] == 11
    slot = st.stock[1][2]
    assert slot is not None and slot.card == "WALL" and slot.face_up
    assert fx.armor(st, 12) == 40  # 20 + 20 for this judgement
    do(st, "DEFENCE", A.PASS, player=1)  # one DEFENCE use per attack: only PASS is left
    # power 20 < armor 40: not destroyed (it would be without Wall); weak attack, need 2 of 3 cards
    do(st, "WEAK_DISCARD", A.HAND[0], player=1)
    do(st, "WEAK_DISCARD", A.HAND[0], player=1)
    assert fx.stack(st, 12).base == "GALE" and fx.armor(st, 12) == 20
    # Wall went to the trash at the end of the judgement: trash +2 from the payment and Wall
    # (plus the two cards the weak attack discarded).
    assert st.trash[1] == ["FORT", "MEMO", "PLUS", "WALL"]
    assert st.stock[1][2] is None and st.hp[1] == 11


def test_ex6_melee_2_square_attack_then_destroy_with_0_draw_and_forced_refill_normal():
    st = make_state(
        "normal",
        units={3: "HOOK", 13: "IVY", 10: "SLOW", 11: "SLOW"},
        hp=(10, 7),
        hands=([], ["MEMO", "JADE", "PLUS"]),
        decks=([], ["MEMO"] * 5),
    )
    assert fx.acting_card(st) == "HOOK"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    assert A.SQUARE[13] in st.legal_actions()
    do(st, "DECLARE", A.SQUARE[13])  # path 8 empty: pays 1
    assert st.hp[0] == 9
    do(st, "DEFENCE", A.PASS, player=1)
    assert st.hp[1] == 6 and st.trash[1] == ["IVY"]
    do(st, "DESTROY_DRAW", A.COUNT[0], player=1)
    assert st.legal_actions() == [A.HAND[1]]  # refill is mandatory: Jade is the only Medarot
    do(st, "PLACE_CARD", A.HAND[1], player=1)
    do(st, "PLACE_SQUARE", A.SQUARE[13], player=1)
    do(st, "MOVE_AFTER", A.MOVE[fx.F], player=0)  # 3 -> 8
    assert fx.stack(st, 8).base == "HOOK"
    assert st.hp == [9, 6]  # no penalty
    assert len(st.hand[1]) == 2 and len(st.deck[1]) == 5 and st.trash[1] == ["IVY"]
    jade = fx.stack(st, 13)
    assert jade.base == "JADE" and not jade.face_up and jade.placed


def test_ex7_neutral_side_attack_by_a_shooter_beginner():
    st = make_state(
        "beginner",
        units={6: ("KITE", 0), 7: ("LARK", 1), 10: "SLOW", 14: "SLOW"},
        hands=([], ["MEMO"] * 4),
        decks=(["MEMO"] * 4, ["PLUS", "GAIN", "HURT"]),
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    assert st.legal_actions() == [A.PASS, A.SQUARE[7]]  # no forward target; the side square 7
    do(st, "DECLARE", A.SQUARE[7])
    do(st, "DEFENCE", A.PASS, player=1)
    assert st.hp[1] == 8 and st.trash[1] == ["LARK"]
    do(st, "DESTROY_DRAW", A.COUNT[3], player=1)
    do(st, "DRAW_STOCK", A.PASS, player=1)
    do(st, "MOVE_AFTER", A.MOVE[B], player=0)  # 6 -> 1
    assert fx.stack(st, 1).base == "KITE"
    assert st.hp[1] == 8 and len(st.hand[1]) == 7 and st.deck[1] == []
    assert len(fx.units_of(st, 1)) == 2
    run_until(st, lambda s: False)  # to the next start phase: P1 cannot draw at S2
    assert st.done and st.winner == 0 and "cannot draw" in st.reason


def _ex8_state(coin: int):
    rng = fx.ScriptedRng(0, ranges=[coin])
    units = {0: "A", 1: "B", 10: "X", 11: "Y", 12: "Z", 13: {"card": "W", "face_up": False, "placed": True}}
    return make_state("normal", units=units, decks=(["MEMO"] * 3, ["MEMO"] * 3), rng=rng)


@pytest.mark.parametrize("coin, order", [(1, ["Z", "A", "X", "B", "Y"]), (0, ["A", "Z", "X", "B", "Y"])])
def test_ex8_speed_order_with_tie_breaks_normal(coin, order):
    st = _ex8_state(coin)
    assert fx.action_order(st, 5) == order
    run_until(st, at("OPT_DRAW"))  # W never acts: the next decision is turn 2's start phase
    assert st.turn == 2
    assert not fx.stack(st, 13).acted


def test_ex9_mulligan_advance():
    deck0 = (
        ["COG"] * 3
        + ["EDGE"] * 3
        + ["ASH"] * 3
        + ["MEMO"] * 3
        + ["PLUS"] * 3
        + ["GAIN"] * 3
        + ["HURT"] * 3
        + ["DRAW"] * 3
        + ["MC_COG"] * 3
        + ["MC_EDGE"] * 3
    )
    deck1 = ["MEMO"] * 20 + ["SLOW"] * 10
    rng = fx.ScriptedRng(
        0,
        shuffles=[
            fx.put_on_top("MEMO", "PLUS", "GAIN", "HURT", "DRAW", "MC_COG", "MC_EDGE"),  # P0: no Medarot
            None,  # P1's deck as given (Medarots on top)
            fx.put_on_top("COG", "EDGE", "ASH", "MEMO", "PLUS", "GAIN", "HURT"),  # P0's redraw
        ],
        ranges=[0],
    )
    st = fx.new_game_scripted("advance", (deck0, deck1), rng)
    assert st.first == 0 and st.mulligans == [1, 0]
    revealed = next(e for e in st.events if e.startswith("P0 mulligans, revealing"))
    assert sorted(revealed.split(": ")[1].split(", ")) == sorted(
        ["Memo", "Plus", "Gain", "Hurt", "Draw", "Cog", "Edge"]
    )
    assert st.hand[0] == ["COG", "EDGE", "ASH", "MEMO", "PLUS", "GAIN", "HURT"]
    do(st, "MASTER_SELECT", A.HAND[3], player=0)  # Memo
    do(st, "OPENING_STOCK", A.SET[3])  # Plus
    do(st, "OPENING_STOCK", A.SET[3])  # Gain
    do(st, "OPENING_STOCK", A.PASS)
    for square in (0, 2, 4):
        do(st, "PLACE_CARD", A.HAND[0], player=0)
        do(st, "PLACE_SQUARE", A.SQUARE[square], player=0)
    assert st.current_player == 1  # P1's opening follows
    assert len(st.deck[0]) == 23 and st.hand[0] == ["HURT"]
    assert [s.face_up for s in st.stock[0] if s is not None] == [False, False]
    assert st.master[0] is not None and st.master[0].card == "MEMO" and not st.master[0].face_up
    assert all(not fx.stack(st, s).face_up for s in (0, 2, 4)) and fx.units_of(st, 0) == [0, 2, 4]
    assert 23 + 1 + 2 + 1 + 3 == fx.conserved(st, 0) == 30


def test_ex10_hp_may_reach_exactly_0_normal():
    st = make_state(
        "normal",
        units={2: "FORT", 12: "MOSS", 8: ("NIB", 1)},
        hp=(20, 2),
        hands=(["MEMO"] * 5, ["MEMO"]),
        decks=(["MEMO"] * 3, ["MEMO"] * 3),
        start=2,
    )
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[12])
    do(st, "DEFENCE", A.PASS, player=1)
    assert st.hp[1] == 0 and not st.done  # 2 -> 0 is not a loss
    do(st, "DESTROY_DRAW", A.COUNT[0], player=1)
    do(st, "MOVE_AFTER", A.PASS, player=0)
    assert fx.acting_card(st) == "NIB"
    do(st, "ACTION_START", A.PASS, player=1)
    do(st, "MOVE_BEFORE", A.MOVE[R], player=1)  # P1's right is -column: 8 -> 7
    assert fx.stack(st, 7).base == "NIB"
    do(st, "SUPPORT", A.PASS)
    do(st, "DECLARE", A.SQUARE[2], player=1)  # 1 ahead of 7 for P1; no HP cost
    assert st.hp[1] == 0
    do(st, "DEFENCE", A.PASS, player=0)
    do(st, "WEAK_DISCARD", A.HAND[0], player=0)
    do(st, "WEAK_DISCARD", A.HAND[0], player=0)
    run_until(st, at("OPT_DRAW"))  # end phase: Nib in neutral heals 1
    assert st.turn == 2 and not st.done
    assert st.hp[1] == 1


def test_ex11_master_hp_modifier_and_once_per_turn_use_normal():
    st = make_state(
        "normal",
        units={0: "A", 2: "B", 12: "SLOW"},
        master=(fx.Slot("ORA", False), "BLANK"),
        decks=(["MEMO"] * 5, ["MEMO"] * 5),
        start="start_phase",
    )
    assert st.turn == 1 and st.hp[0] == 18  # S1 reveal: mandatory payment of 2
    assert st.master[0].face_up
    run_until(st, at("ACTION_START"))
    assert fx.acting_card(st) == "A"
    do(st, "ACTION_START", A.PASS)
    do(st, "MOVE_BEFORE", A.MOVE[fx.F])  # 0 -> 5 (moves, so no penalty)
    assert A.MASTER in st.legal_actions()
    do(st, "SUPPORT", A.MASTER)
    assert st.hp[0] == 17
    assert fx.power(st, 5) == 20  # +10 for this action
    passes(st, "SUPPORT", "DECLARE")
    assert fx.power(st, 5) == 10  # AFTER_USE: the bonus ended with the action
    assert fx.acting_card(st) == "B"
    do(st, "ACTION_START", A.PASS)
    do(st, "MOVE_BEFORE", A.MOVE[fx.F])  # 2 -> 7
    assert st.legal_actions() == [A.PASS]  # MASTER masked: used this turn
    passes(st, "SUPPORT", "DECLARE")
    assert st.hp[0] == 17
    assert st.master[0].card == "ORA"
    run_until(st, lambda s: s.turn == 2 and s.decision == "SUPPORT")
    assert st.master[0].face_up and not st.master_used[0]
    assert A.MASTER in st.legal_actions()  # usable again in turn 2
    assert st.master[0].card == "ORA"


@pytest.mark.parametrize("mode", ["normal", "advance"])
def test_ex12_substitution_from_the_neutral_row_normal(mode):
    st = make_state(
        mode, units={8: ("PUG", 0), 1: "SLOW", 3: "SLOW", 12: "SLOW"}, hands=(["QUILL"], []), start=8
    )
    assert A.SUBSTITUTE in st.legal_actions()
    do(st, "ACTION_START", A.SUBSTITUTE)
    do(st, "SUB_CARD", A.HAND[0])
    assert st.legal_actions() == [A.SQUARE[0], A.SQUARE[2], A.SQUARE[4]]
    do(st, "SUB_SQUARE", A.SQUARE[0])
    assert st.trash[0] == ["PUG"] and st.reserve == [[], []]
    quill = fx.stack(st, 0)
    assert quill.base == "QUILL" and not quill.face_up and quill.placed
    assert st.board[8] is None
    assert st.hp == [20, 20]  # no penalty
    assert st.decision == "ACTION_START" and fx.acting_card(st) == "SLOW"  # the next Medarot


def test_ex13_special_effect_duration_beginner():
    st = make_state(
        "beginner",
        turn=3,
        units={2: "RUNE", 0: "SLOW", 12: "RAM", 10: {"card": "KITE", "acted": True}},
        decks=(["MEMO"] * 3, ["MEMO"] * 3),
    )
    assert fx.acting_card(st) == "RUNE"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SPECIAL)
    rune, ally = fx.stack(st, 2), fx.stack(st, 0)
    (eff,) = [e for e in st.effects if e.src_uid == rune.uid]
    assert sorted(eff.targets) == sorted([rune.uid, ally.uid])  # all P0 Medarots turned sideways
    assert fx.armor(st, 2) == 50 and fx.armor(st, 0) == 30
    do(st, "MOVE_AFTER", A.PASS)
    assert fx.acting_card(st) == "RAM"
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    do(st, "DECLARE", A.SQUARE[2])
    do(st, "DEFENCE", A.PASS, player=0)
    assert fx.stack(st, 2).base == "RUNE"  # 40 < 50: no effect in beginner
    run_until(st, lambda s: s.turn == 4 and s.decision == "ACTION_START")
    assert fx.acting_card(st) == "KITE"  # P1's speed-7 Medarot acts first in turn 4
    assert fx.armor(st, 2) == 50 and fx.armor(st, 0) == 30
    fx.finish_action(st)
    run_until(st, at("ACTION_START"))
    assert fx.acting_card(st) == "RUNE"
    assert fx.armor(st, 2) == 30 and fx.armor(st, 0) == 10  # ended at Rune's step A1
    assert not [e for e in st.effects if e.src_uid == rune.uid]
    passes(st, "ACTION_START", "MOVE_BEFORE", "SUPPORT")
    assert A.SPECIAL in st.legal_actions()  # may activate again

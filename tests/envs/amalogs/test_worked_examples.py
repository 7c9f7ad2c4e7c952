"""The worked examples of spec section 9 (Ex1-Ex13), one test each.

Every ruleset is played as the spec says: the parts game (slot 2), Master of the World
(slot 3) and the Medarot OCG modes.
"""

from __future__ import annotations

import pytest

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.encode import AmalogsEncoder
from deckgym.envs.amalogs.rules import duel as duel_rules
from deckgym.envs.amalogs.rules import new_game
from deckgym.envs.amalogs.rules.geometry import square
from deckgym.envs.core.errors import IllegalActionError
from tests.envs.amalogs import fixtures as fx
from tests.envs.amalogs.fixtures import ADV, BEG, config, position

MOW = 3  # master_of_the_world (WE3, range 1)


def _end_turns(st) -> None:  # type: ignore[no-untyped-def]
    """Every player of the acting team duels (tables answered automatically) and ends."""
    team = st.acting
    while st.acting == team and st.phase in (Phase.META_FIELD, Phase.DUEL_CORE, Phase.STRIKE):
        if st.phase == Phase.META_FIELD:
            st.apply(A.END_TURN if st.avatars[st.control].dueled else A.DUEL)
        elif st.phase == Phase.STRIKE:
            st.apply(A.STRIKE_NONE)
        else:
            fx.finish_table(st)


def test_Ex1_startup_points_18_2_plus_3_total_5() -> None:
    """E1 (R1, R5, R7, R8): bases 18; second team 2 points; +3 per turn; 5 on its first turn."""
    st = new_game(config((2, 2), [ADV]), 3)
    fx.finish_startup(st)
    assert st.life == [18, 18]
    first = st.first_team
    second = [a for a in st.avatars if a.team != first]
    firsts = [a for a in st.avatars if a.team == first]
    assert [a.ap for a in firsts] == [3, 3]
    assert [a.ap for a in second] == [2, 2]
    assert set(st.legal_actions()) <= {A.DUEL, A.HAND_OVER, A.MOVE, A.GUARD, *A.STEP, *A.PUSH, *A.SWAP}
    st2 = position([ADV, ADV, ADV, ADV], [(1, 1), (1, 5), (9, 1), (9, 5)], acting=0, ap=[3, 3, 2, 2])
    _end_turns(st2)
    assert st2.acting == 1 and [a.ap for a in st2.avatars[2:]] == [5, 5]
    _end_turns(st2)
    assert st2.acting == 0 and [a.ap for a in st2.avatars[:2]] == [6, 6]


def test_Ex2_points_cap_at_9() -> None:
    """E2 (R7): 8 + 3 is capped at 9; a turn with only DUEL starts the next at 9 again."""
    st = position([ADV] * 4, [(1, 1), (1, 5), (9, 1), (9, 5)], acting=1, ap=[8, 8, 0, 0])
    _end_turns(st)
    assert st.acting == 0 and st.avatars[0].ap == 9
    _end_turns(st)
    _end_turns(st)
    assert st.acting == 0 and st.avatars[0].ap == 9


def test_Ex3_move_dice_allowance_and_destinations() -> None:
    """E3 (D17): MOVE pays 3, dice 4+1 - WE2 = 3 squares; occupied and too-far squares are illegal."""
    st = position([ADV, ADV, ADV, ADV], [(3, 3), (0, 0), (4, 3), (4, 4)], acting=0, ap=[5, 0, 0, 0])
    st.rng = fx.seeded_dice(4, 1)
    st.apply(A.MOVE)
    assert st.avatars[0].ap == 2 and st.move_allowance == 3 and st.phase == Phase.MOVE_DEST
    enc = AmalogsEncoder([ADV])
    legal = set(enc.legal_indices(st))
    assert 29 + square(6, 3) == 74 and 74 in legal
    assert 29 + square(7, 3) not in legal and 29 + square(4, 3) not in legal
    assert 29 + square(3, 3) in legal
    st.apply(A.SQUARE[square(6, 3)])
    assert st.avatars[0].square == square(6, 3) and st.avatars[0].ap == 2 and st.phase == Phase.META_FIELD


def test_Ex3_variant_zero_allowance_spends_points_without_moving() -> None:
    """E3 variant: A1 (MoW, WE3) with 3 AP, dice 1+1: m = max(0, 2 - 3) = 0: points spent, no destination."""
    st = position([ADV, MOW, ADV, ADV], [(0, 0), (3, 3), (8, 3), (8, 4)], acting=0, ap=[0, 3, 0, 0])
    st.apply(A.HAND_OVER)
    st.rng = fx.seeded_dice(1, 1)
    st.apply(A.MOVE)
    assert st.avatars[1].ap == 0 and st.avatars[1].square == square(3, 3)
    assert st.phase == Phase.META_FIELD and st.dice == [1, 1]


PARTS = 2  # medarot_parts (WE2, range 2)


def _e4():  # type: ignore[no-untyped-def]
    """E4: A0 host med_adv at (5,3), A1 parts at (3,2), B0 MoW at (7,4), B1 med_adv at (8,5)."""
    return position([ADV, PARTS, MOW, ADV], [(5, 3), (3, 2), (7, 4), (8, 5)], acting=0, ap=[4, 0, 0, 0])


def test_Ex4_participants_roles_champion_strike_value() -> None:
    """E4 (D18, D21, D24): A1 cast by range, B0 guest by range, B1 by chain; champion B1; S = 3."""
    st = _e4()
    players, bases = duel_rules.participants(st, 0)
    assert players == [0, 1, 2, 3] and bases == []
    assert duel_rules.champion(st, 0, [2, 3]) == 3
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.host == 0 and d.casts == [1] and d.guests == [2, 3] and d.champion == 3
    assert d.strike == 2 + 1
    assert st.seat_of(0) == 0 and st.seat_of(3) == 1 and st.seat_of(1) == -1


def test_Ex5_win_and_loss_exits() -> None:
    """E5 (R21-R23, D25, D27): champion loses (-2 x 2), host wins (+3 x 2); strike on B0 14 -> 11."""
    st = _e4()
    fx.empty_deck(st, 3)
    st.avatars[2].side.life = 14
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.phase == Phase.STRIKE and st.actor == 0
    assert set(st.legal_actions()) == {A.STRIKE_NONE, A.STRIKE_PLAYER[0]}
    st.apply(A.STRIKE_PLAYER[0])
    assert st.avatars[2].side.life == 11
    assert st.life == [24, 14]
    assert not st.avatars[0].on_map and not st.avatars[3].on_map and st.avatars[0].ap == 0
    assert st.avatars[0].exited and st.avatars[3].exited
    assert st.control == 1 and st.phase == Phase.META_FIELD


@pytest.mark.parametrize("guarding", [True, False])
def test_Ex6_base_chain_guard_and_base_strike(guarding: bool) -> None:
    """E6 as amended by section 11 (D18, D36, D40, D41): base B in range pulls in B0 by adjacency.

    A1 hosts with MoW (range 1) at (9,2); B0 (med_adv, no MoW guest) at (9,4) is the defender at
    seat 1, so base B is defended and cannot be attacked, and no strike target remains: whether
    B0 Guards or not, there is no strike. The defended base is besieged (D43): unless A1's own game
    was lost, base B loses 1 (12 -> 11), and otherwise only an exit changes it.
    """
    st = position([ADV, MOW, ADV, ADV], [(4, 0), (9, 2), (9, 4), (5, 5)], acting=0, life=(18, 12))
    st.avatars[2].guarding = guarding
    st.apply(A.HAND_OVER)
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.bases == [1] and d.guests == [2] and d.casts == [] and d.champion == -1
    assert d.defender == 2 and d.proxy == 1
    fx.finish_table(st)
    assert st.phase != Phase.STRIKE
    assert not any(r["kind"] in ("strike", "base_hit") for r in st.records)
    exits = [r for r in st.records if r["kind"] == "exit"]
    sieges = [r for r in st.records if r["kind"] == "siege"]
    assert len(sieges) == (0 if any(r["player"] == 1 and r["result"] == "loss" for r in exits) else 1)
    if not exits:
        assert st.life[1] == 12 - len(sieges) == 11
    assert st.avatars[1].on_map


@pytest.mark.parametrize("b0", [PARTS, BEG], ids=["B0_parts", "B0_med_beg"])
def test_Ex7_own_base_pulls_in_an_enemy(b0: int) -> None:
    """E7 as amended (D18, D21, D36): host A0 (parts) at (2,5); its own base pulls in the adjacent B0.

    B0 with the parts game is the champion; otherwise it is the defender at seat 1. Either way
    no strike target remains, and base A, the host's own, is never attacked.
    """
    st = position([PARTS, ADV, b0, ADV], [(2, 5), (6, 0), (0, 2), (9, 3)], acting=0)
    players, bases = duel_rules.participants(st, 0)
    assert bases == [0] and players == [0, 2]
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.guests == [2]
    assert (d.champion, d.defender) == ((2, -1) if b0 == PARTS else (-1, 2))
    assert d.proxy == (0 if b0 == PARTS else 1)
    fx.finish_table(st)
    assert st.phase != Phase.STRIKE
    assert st.life[0] == 18 or any(r["kind"] == "exit" for r in st.records)
    assert not any(r["kind"] == "base_hit" for r in st.records)


def test_Ex8_reaching_36_wins() -> None:
    """E8 (R23, D33): host A0 (MoW), champion B1 (MoW) loses: A 33 + 3 x 3 = 42 >= 36 wins, B 15 - 6 = 9."""
    st = position([MOW, ADV, ADV, MOW], [(5, 3), (1, 1), (9, 5), (6, 3)], acting=0, life=(33, 15))
    side = st.avatars[3].side
    side.discard.extend(side.deck)  # MoW: an empty deck loses at the first state check (D40)
    side.deck.clear()
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert any(r["kind"] == "duel" and r["champion"] == 3 for r in st.records)
    assert st.done and st.winner == 0 and st.life == [42, 9]
    assert st.returns() == [1.0, 1.0, -1.0, -1.0]


def test_Ex9_base_to_exactly_zero_loses() -> None:
    """E9 (R22, D33): host B0 loses (B 4 - 4 = 0), champion A1 wins (A 20 + 6): team A wins."""
    st = position([ADV, ADV, ADV, ADV], [(1, 1), (4, 3), (6, 3), (9, 5)], acting=1, life=(20, 4))
    fx.empty_deck(st, 2)
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.done and st.winner == 0 and st.life == [26, 0]


def test_Ex10_step_push_swap_and_masks() -> None:
    """E10 (D16): PUSH d4, STEP d4, SWAP d7; then only DUEL and HAND_OVER remain."""
    st = position([PARTS, ADV, ADV, ADV], [(4, 3), (4, 2), (5, 3), (9, 6)], acting=0, ap=[5, 0, 0, 0])
    enc = AmalogsEncoder([PARTS, ADV])
    assert 17 in enc.legal_indices(st)
    st.apply(A.PUSH[4])
    assert st.avatars[2].square == square(6, 3) and st.avatars[0].ap == 3
    st.apply(A.STEP[4])
    assert st.avatars[0].square == square(5, 3) and st.avatars[0].ap == 2
    assert 28 in enc.legal_indices(st)
    st.apply(A.SWAP[7])
    assert st.avatars[0].square == square(4, 2) and st.avatars[1].square == square(5, 3)
    assert st.avatars[0].ap == 0
    assert enc.legal_indices(st) == [1, 2]


def test_Ex11_table_draw_is_not_fatal() -> None:
    """E11 (D23): both seats lose: -4 each, no strike; A 14, B 6, play continues."""
    st = position([ADV, ADV, ADV, ADV], [(5, 3), (1, 1), (7, 3), (9, 6)], acting=0, life=(18, 10))
    fx.empty_deck(st, 0)
    fx.empty_deck(st, 2)
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert not st.done and st.life == [14, 6]
    assert st.avatars[0].exited and st.avatars[2].exited and st.control == 1


def test_Ex12_hand_over_sequence() -> None:
    """E12 (D6, D7, D5): HAND_OVER first, not twice; STEP then HAND_OVER; duels, ends, respawn phase."""
    st = position([ADV, ADV, ADV, ADV], [(1, 1), (1, 5), (9, 1), (9, 5)], acting=0, ap=[3, 3, 0, 0])
    st.team_turn = 5
    assert st.control == 0
    st.apply(A.HAND_OVER)
    assert st.control == 1 and A.HAND_OVER not in st.legal_actions()
    with pytest.raises(IllegalActionError):
        st.apply(A.HAND_OVER)
    st.apply(A.STEP[0])
    st.apply(A.HAND_OVER)
    assert st.control == 0
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.control == 0
    st.apply(A.END_TURN)
    assert st.control == 1
    st.apply(A.DUEL)
    fx.finish_table(st)
    st.apply(A.END_TURN)
    assert st.team_turn == 6 and st.acting == 1


def test_Ex13_respawn_ruleset_solo_turn_and_square() -> None:
    """E13 (R25-R28, D29): exited A0 and B1 respawn in index order, 0 points; +3 in their team turns.

    A0 chooses RULESET 3 (MoW, index 109); squares (2,5) for A0 and (9,3) for B1 as in the spec.
    """
    st = new_game(config((2, 2), [[ADV, MOW], [ADV], [ADV], [ADV, BEG]]), 1)
    while st.phase != Phase.META_FIELD:
        st.apply(fx.auto(st))
    for p, sq in ((0, (5, 3)), (1, (1, 1)), (2, (9, 0)), (3, (7, 3))):
        st.avatars[p].square = square(*sq)
    st.acting = st.first_team = 0
    st.control = st.actor = 0
    st.avatars[0].ap = 4
    st.avatars[0].ruleset = st.avatars[3].ruleset = ADV
    st._legal = None
    fx.empty_deck(st, 3)
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.avatars[0].exited and st.avatars[3].exited
    assert st.control == 1
    st.apply(A.DUEL)
    fx.finish_table(st)
    if st.phase == Phase.STRIKE:
        st.apply(A.STRIKE_NONE)
    st.apply(A.END_TURN)
    assert st.phase == Phase.RESPAWN_RULESET and st.actor == 0
    assert 106 + MOW == 109
    st.apply(A.RULESET[MOW])
    while st.phase == Phase.RESPAWN_CORE:
        st.apply(fx.auto(st))
    assert st.phase == Phase.RESPAWN_PLACE and st.actor == 0
    legal = st.legal_actions()
    assert A.SQUARE[square(2, 5)] in legal and A.SQUARE[square(2, 6)] not in legal
    assert A.SQUARE[square(0, 3)] not in legal
    st.apply(A.SQUARE[square(2, 5)])
    assert st.phase == Phase.RESPAWN_RULESET and st.actor == 3
    st.apply(A.RULESET[BEG])
    while st.phase == Phase.RESPAWN_CORE:
        st.apply(fx.auto(st))
    st.apply(A.SQUARE[square(9, 3)])
    assert st.avatars[0].ap == 0 and adapter(MOW).name == "master_of_the_world"
    assert st.avatars[0].ruleset == MOW and st.avatars[3].ruleset == BEG
    assert st.acting == 1 and st.avatars[3].ap == 3

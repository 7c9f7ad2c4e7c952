"""Details of the AMALOGS rules that the item-by-item tests leave open (found by mutation testing).

Geometry functions are called directly as well as through their precomputed tables, so a
change in the function itself is caught even where the tables were built before it.
"""

from __future__ import annotations

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.rules import geometry, new_game
from deckgym.envs.amalogs.rules.geometry import BASES, DIST, NEIGHBOUR, reachable, square
from tests.envs.amalogs import fixtures as fx
from tests.envs.amalogs.fixtures import ADV, BEG, WIDE, config, position

#: D13: (drow, dcol) of directions d0..d7.
D13 = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]


def _duel_with_two_team_b_losses():  # type: ignore[no-untyped-def]
    """Host A0 (med_adv) beats champion B0 (med_adv, empty deck) and strikes guest B1 (med_beg, 0 HP).

    A0 at (5,3), A1 far at (1,1), B0 at (7,3) in range, B1 at (8,3) pulled in next to B0. S = WE 2,
    which costs an OCG beginner game ceil(2 x 10 / 20) = 1 HP (D41): with 0 HP B1 cannot pay (A7).
    """
    st = position([ADV, ADV, ADV, BEG], [(5, 3), (1, 1), (7, 3), (8, 3)])
    fx.empty_deck(st, 2)
    st.avatars[3].side.hp = 0
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.champion == 2 and d.guests == [2, 3] and d.strike == 2
    fx.finish_table(st)
    assert st.phase == Phase.STRIKE and A.STRIKE_PLAYER[1] in st.legal_actions()
    st.apply(A.STRIKE_PLAYER[1])
    return st


def _respawn_place():  # type: ignore[no-untyped-def]
    """A0 (Guarding) loses its duel and exits; A1 duels and ends: A0's respawn placement decision."""
    st = position([BEG, ADV, ADV, ADV], WIDE, ap=[5, 0, 0, 0])
    st.apply(A.GUARD)
    assert st.avatars[0].guarding
    fx.empty_deck(st, 0)
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.avatars[0].exited and st.control == 1
    st.apply(A.DUEL)
    fx.finish_table(st)
    st.apply(A.END_TURN)
    while st.phase == Phase.RESPAWN_CORE:
        st.apply(fx.auto(st))
    assert st.phase == Phase.RESPAWN_PLACE and st.actor == 0
    return st


# ----------------------------------------------------------------------------- geometry D10-D13
def test_D10_dist_is_chebyshev_distance() -> None:
    """D10: dist((r1,c1),(r2,c2)) = max(|r1-r2|, |c1-c2|) for every pair of squares, table included."""
    assert geometry.dist(square(5, 3), square(3, 2)) == 2
    assert geometry.dist(square(0, 0), square(10, 6)) == 10
    assert geometry.dist(square(2, 6), square(3, 0)) == 6  # no wrap between rows
    for a in range(77):
        ra, ca = divmod(a, 7)
        for b in range(77):
            rb, cb = divmod(b, 7)
            expected = max(abs(ra - rb), abs(ca - cb))
            assert geometry.dist(a, b) == expected == DIST[a][b]


def test_D13_neighbours_follow_the_direction_vectors_and_stop_at_the_grid_edge() -> None:
    """D9, D13: the square in direction d is (r+dr, c+dc), or none (-1) outside the 11 x 7 grid."""
    assert geometry._neighbour(square(4, 3), 0) == square(3, 3)
    assert geometry._neighbour(square(1, 2), 0) == square(0, 2)  # into row 0
    assert geometry._neighbour(square(1, 1), 7) == square(0, 0)
    assert geometry._neighbour(square(0, 0), 0) == -1
    assert geometry._neighbour(square(0, 6), 2) == -1  # no wrap into the next row
    assert geometry._neighbour(square(10, 0), 4) == -1
    for s in range(77):
        r, c = divmod(s, 7)
        for d, (dr, dc) in enumerate(D13):
            nr, nc = r + dr, c + dc
            expected = 7 * nr + nc if 0 <= nr < 11 and 0 <= nc < 7 else -1
            assert geometry._neighbour(s, d) == expected == NEIGHBOUR[s][d]


def test_D12_the_corner_square_0_is_free_and_can_be_entered() -> None:
    """D12: square 0 = (0,0) is in the grid and not a base: STEP and MOVE may enter it."""
    assert geometry.is_free(0, {}) and not geometry.is_free(-1, {}) and not geometry.is_free(BASES[0], {})
    assert 0 in reachable(square(1, 1), 1, {})
    st = position([ADV] * 4, [(1, 1), (1, 5), (9, 1), (9, 5)], ap=[1, 0, 0, 0])
    assert A.STEP[7] in st.legal_actions()
    st.apply(A.STEP[7])
    assert st.avatars[0].square == 0 and st.avatars[0].ap == 0


# ----------------------------------------------------------------------------- commands D16
def test_D16_swap_with_player_0_as_the_ally() -> None:
    """D16 SWAP: A1 may swap with the allied avatar of player index 0 next to it."""
    st = position([ADV] * 4, [(4, 3), (4, 2), (9, 1), (9, 5)], ap=[0, 3, 0, 0])
    st.apply(A.HAND_OVER)
    assert st.control == 1
    assert A.SWAP[2] in st.legal_actions()  # A0 stands at (0,+1) = d2 from A1
    st.apply(A.SWAP[2])
    assert st.avatars[1].square == square(4, 3) and st.avatars[0].square == square(4, 2)
    assert st.avatars[1].ap == 1


# ----------------------------------------------------------------------------- exits R21-R23, D25, D27
def test_D25_R22_R23_base_life_changes_of_one_duel_are_summed_per_team() -> None:
    """D25 (4): champion B0 (-2 x 2) and struck guest B1 (-2 x 1) both exit: base B 18 - 6; A0 +3 x 2."""
    st = _duel_with_two_team_b_losses()
    assert [st.avatars[p].exited for p in range(4)] == [True, False, True, True]
    assert st.life == [18 + 6, 18 - 4 - 2]
    assert not st.done and st.phase == Phase.META_FIELD and st.control == 1


def test_R21_R22_R23_exit_events_name_the_loss_or_the_win() -> None:
    """R21-R23: each exit is logged as a loss (-2 x WE) or a win (+3 x WE)."""
    st = _duel_with_two_team_b_losses()
    exits = [e for e in st.events if " leaves the map after a " in e]
    assert exits == [
        "A0 leaves the map after a win: base A +6 (+3 x weight 2)",
        "B0 leaves the map after a loss: base B -4 (-2 x weight 2)",
        "B1 leaves the map after a loss: base B -2 (-2 x weight 1)",
    ]
    result = next(r for r in st.records if r["kind"] == "duel_result")
    assert result == {"kind": "duel_result", "host": 0, "winners": [0], "losers": [2, 3], "change": [6, -6]}
    assert [r["result"] for r in st.records if r["kind"] == "exit"] == ["win", "loss", "loss"]
    assert next(r for r in st.records if r["kind"] == "base_life")["life"] == [24, 12]


def test_D27_an_exited_avatar_keeps_nothing_of_its_core_game() -> None:
    """D27 (R21): off the MAP, core game deleted, 0 points, flags cleared; its turn count is gone too."""
    st = _duel_with_two_team_b_losses()
    a = st.avatars[0]
    assert a.exited and not a.on_map and a.side is None and a.ruleset == -1
    assert a.ap == 0 and not a.guarding and not a.dueled
    assert a.core_turns == 0


# ----------------------------------------------------------------------------- respawn R25-R28, D29
def test_D29_I10_a_respawned_avatar_is_not_guarding() -> None:
    """D29, I10: an avatar that guarded before its exit comes back with 0 points, not Guarding, not dueled."""
    st = _respawn_place()
    st.apply(st.legal_actions()[0])
    a = st.avatars[0]
    assert a.on_map and not a.exited and a.ap == 0 and not a.dueled
    assert not a.guarding
    assert st.phase == Phase.META_FIELD and st.acting == 1  # team B's turn: A0's flag is not reset by a gain


def test_D5_R25_nobody_holds_control_in_the_respawn_phase() -> None:
    """D5, R25, 5.5: the team turn is over; the respawning player acts but no one holds meta control."""
    st = _respawn_place()
    assert st.control == -1 and st.current_player == 0


# ----------------------------------------------------------------------------- start-up, team turns
def test_D30_no_solo_table_or_table_owner_is_left_after_the_start_up() -> None:
    """D30, D8: after the last solo first turn the table is closed: no table, no ruleset, no owner, no seat."""
    st = position([ADV] * 4, WIDE)
    assert st.table is None and st.table_ruleset == -1 and st.table_owner == -1
    assert [st.seat_of(p) for p in range(4)] == [-1, -1, -1, -1]


def test_R6_team_turn_events_name_the_acting_team() -> None:
    """R6, 5.2: each team turn is announced with its number and acting team, the first team on odd turns."""
    st = new_game(config((1, 1), [ADV]), 0)
    fx.finish_startup(st)
    first = "AB"[st.first_team]
    second = "AB"[1 - st.first_team]
    assert f"Team turn 1: team {first} acts" in st.events
    st.apply(A.DUEL)
    fx.finish_table(st)
    if st.phase == Phase.STRIKE:
        st.apply(A.STRIKE_NONE)
    st.apply(A.END_TURN)
    while st.phase != Phase.META_FIELD:
        st.apply(fx.auto(st))
    assert f"Team turn 2: team {second} acts" in st.events

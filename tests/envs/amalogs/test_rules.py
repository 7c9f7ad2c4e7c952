"""Rules of the AMALOGS meta-game, one test per spec item (R1-R28, D1-D35)."""

from __future__ import annotations

import pytest

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.rules import new_game
from deckgym.envs.amalogs.rules.geometry import BASES, DIST, NEIGHBOUR, SPAWN, reachable, square
from deckgym.envs.amalogs.rules.startup import placement_order
from deckgym.envs.amalogs.state import AmalogsState
from tests.envs.amalogs import fixtures as fx
from tests.envs.amalogs.fixtures import ADV, BEG, NOR, WIDE, config, position


def test_R1_R2_D8_startup_lives_and_solo_first_turns_in_index_order() -> None:
    """R1 base lives 18; R2/D8 each player in index order chooses a ruleset then plays its solo turn."""
    st = new_game(config((2, 2)), 0)
    assert st.life == [18, 18] and st.phase == Phase.STARTUP_RULESET and st.actor == 0
    seen = []
    while st.phase != Phase.STARTUP_PLACE:
        if st.phase == Phase.STARTUP_RULESET:
            seen.append(st.actor)
        if st.phase == Phase.STARTUP_CORE:
            assert st.seat_of(st.actor) == 0 and st.duel is None
        st.apply(fx.auto(st))
    assert seen == [0, 1, 2, 3]
    assert all(a.side is not None and not a.on_map for a in st.avatars)


def test_R3_D11_spawn_area_is_distance_1_or_2_without_the_base() -> None:
    """R3, D11: 14 squares per team, rows 0-2 / 8-10, columns 1-5, base excluded."""
    for team, base in enumerate(BASES):
        assert len(SPAWN[team]) == 14 and base not in SPAWN[team]
        assert all(1 <= DIST[s][base] <= 2 for s in SPAWN[team])


def test_R3_D8_placement_order_alternates_teams() -> None:
    """D8 (3): A0, B0, A1, B1, A2, B2 with absent slots skipped."""
    st = new_game(config((3, 1), [ADV]), 0)
    assert placement_order(st) == [0, 3, 1, 2]


def test_R4_D8_first_team_drawn_by_the_rng() -> None:
    """R4: both teams go first for some seed."""
    firsts = set()
    for seed in range(12):
        st = new_game(config((1, 1), [BEG]), seed)
        fx.finish_startup(st)
        firsts.add(st.first_team)
    assert firsts == {0, 1}


def test_R5_R7_R8_D3_points_per_avatar() -> None:
    """R5 second team 2, R7 +3 each with cap 9, R8 total 5 (points are per avatar, D3)."""
    st = new_game(config((2, 2), [ADV]), 2)
    fx.finish_startup(st)
    second = [a.ap for a in st.avatars if a.team != st.first_team]
    assert second == [2, 2]


def test_R6_teams_alternate() -> None:
    """R6: team turns alternate."""
    st = position([ADV] * 4, WIDE)
    for expected in (0, 1, 0, 1):
        assert st.acting == expected
        while st.acting == expected:
            st.apply(A.END_TURN if st.avatars[st.control].dueled else A.DUEL)
            fx.finish_table(st)
            if st.phase == Phase.STRIKE:
                st.apply(A.STRIKE_NONE)


def test_R9_R10_D16_commands_operate_own_allied_and_enemy_avatars() -> None:
    """R9/R10/D16: STEP (own), SWAP (ally), PUSH (enemy) with their costs; GUARD once."""
    st = position([ADV] * 4, [(4, 3), (4, 2), (5, 3), (9, 6)], ap=[9, 0, 0, 0])
    st.apply(A.PUSH[4])
    st.apply(A.SWAP[6])
    st.apply(A.STEP[0])
    st.apply(A.GUARD)
    assert st.avatars[0].ap == 9 - 2 - 2 - 1 - 2 and st.avatars[0].guarding
    assert A.GUARD not in st.legal_actions()


def test_R11_D4_duel_exactly_once_and_end_turn_only_after() -> None:
    """R11, D4: DUEL is legal until used; END_TURN only afterwards."""
    st = position([ADV] * 4, WIDE)
    assert A.DUEL in st.legal_actions() and A.END_TURN not in st.legal_actions()
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert A.DUEL not in st.legal_actions() and A.END_TURN in st.legal_actions()


def test_R12_D16_costs_mask_commands() -> None:
    """R12/D16: MOVE needs 3 points, GUARD/PUSH/SWAP 2, STEP 1."""
    st = position([ADV] * 4, [(4, 3), (4, 2), (5, 3), (9, 6)], ap=[1, 0, 0, 0])
    legal = st.legal_actions()
    assert A.MOVE not in legal and A.GUARD not in legal and any(a.kind == A.Kind.STEP for a in legal)
    assert not any(a.kind in (A.Kind.PUSH, A.Kind.SWAP) for a in legal)


def test_R13_R20_D20_duel_is_one_turn_of_the_host_ruleset() -> None:
    """R13, R20, D20: the duel runs the host's ruleset with the host at seat 0."""
    st = position([NOR, ADV, ADV, NOR], [(5, 3), (1, 1), (9, 6), (7, 3)])
    st.apply(A.DUEL)
    assert st.phase == Phase.DUEL_CORE and st.table_ruleset == NOR and st.seat_of(0) == 0
    assert st.table.config.mode == "normal" and st.seat_of(3) == 1


def test_R14_R15_R16_D18_participants_chain_is_compulsory() -> None:
    """R14-R16, D18: range, then chained adjacency; the host itself always participates."""
    st = position([ADV] * 4, [(5, 3), (1, 1), (7, 3), (8, 4)])
    st.apply(A.DUEL)
    assert st.duel is not None and st.duel.guests == [2, 3]


def test_R17_D18_roles() -> None:
    """R17: host, casts (allies), guests (enemies)."""
    st = position([ADV] * 4, [(5, 3), (4, 3), (7, 3), (1, 6)])
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and (d.host, d.casts, d.guests) == (0, [1], [2])


def test_R18_D22_non_participants_and_casts_make_no_duel_decisions() -> None:
    """R18, D22: only the host and the champion are asked during the table."""
    st = position([ADV] * 4, [(5, 3), (4, 3), (7, 3), (1, 6)])
    st.apply(A.DUEL)
    while st.phase == Phase.DUEL_CORE:
        assert st.actor in (0, 2)
        st.apply(fx.auto(st))


def test_R19_D21_no_guest_means_vacant_seat() -> None:
    """R19, D21: a duel without guests is played against a vacant seat."""
    st = position([ADV] * 4, WIDE)
    st.apply(A.DUEL)
    assert st.duel is not None and st.duel.champion == -1 and st.table.config.vacant_seat


def test_D21_champion_is_nearest_same_ruleset_guest_lowest_index_on_ties() -> None:
    """D21: nearest guest with the host's ruleset; ties to the lower index; other rulesets never."""
    squares = [(5, 3), (0, 0), (0, 6), (7, 2), (7, 4), (6, 3)]
    st = position([ADV, ADV, ADV, ADV, ADV, BEG], squares, team_sizes=(3, 3))
    st.apply(A.DUEL)
    assert st.duel is not None and st.duel.guests == [3, 4, 5] and st.duel.champion == 3


def test_R21_R22_D27_loss_exit_costs_2_we() -> None:
    """R21, R22, D27: a host whose core game loses exits; its base loses 2 x WE (beginner WE 1)."""
    st = position([BEG, ADV, ADV, ADV], WIDE, ap=[5, 0, 0, 0])
    fx.empty_deck(st, 0)
    st.apply(A.DUEL)
    fx.finish_table(st)
    a = st.avatars[0]
    assert st.life[0] == 18 - 2 * RULESETS[BEG].we and a.exited and a.ap == 0 and a.side is None
    assert not a.on_map and not a.guarding


def test_R23_D23_win_exit_gains_3_we_and_needs_a_champion() -> None:
    """R23, D23: only a host facing a champion can win; +3 x WE."""
    st = position([ADV] * 4, [(5, 3), (1, 1), (7, 3), (9, 6)])
    fx.empty_deck(st, 2)
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.life == [24, 14]


def test_R24_D40_base_at_zero_after_a_base_hit_loses_before_exits() -> None:
    """R24, D40: a base hit that takes a base to 0 ends the game at once, mid-table, before any exit."""
    st = position([2, ADV, BEG, ADV], [(8, 3), (1, 1), (4, 0), (4, 6)], life=(18, 1))  # 2: the parts game
    st.apply(A.DUEL)
    assert st.duel is not None and st.duel.proxy == 2
    fx.attack_proxy(st)
    assert st.done and st.winner == 0 and st.life[1] == 0
    assert not any(r["kind"] == "exit" for r in st.records)


def _respawning(ap: list[int] | None = None) -> AmalogsState:
    """A0 (beginner, empty deck) loses its duel and exits; team A duels once more and ends its turn."""
    st = position([BEG, ADV, ADV, ADV], WIDE, ap=ap)
    fx.empty_deck(st, 0)
    st.apply(A.DUEL)
    fx.finish_table(st)
    st.apply(A.DUEL)
    fx.finish_table(st)
    st.apply(A.END_TURN)
    return st


def test_R25_D29_respawn_after_every_team_turn() -> None:
    """R25, D29: exited players respawn at the end of the team turn with 0 points."""
    st = _respawning(ap=[5, 0, 0, 0])
    assert st.phase == Phase.RESPAWN_CORE and st.actor == 0


def test_R26_D28_new_core_game_is_fresh_from_the_configured_deck() -> None:
    """R26, D28: the new side is the full deck, freshly shuffled (no continuity)."""
    st = _respawning()
    while st.phase == Phase.RESPAWN_CORE:
        st.apply(fx.auto(st))
    side = st.avatars[0].side
    assert sorted(side.cards()) == sorted(st.config.deck(0, BEG)) and side.deck


def test_R27_R28_respawn_solo_turn_without_casts_then_spawn_square() -> None:
    """R27: the solo turn has no cast or guest (no duel); R28: a square of the own spawn area."""
    st = _respawning()
    while st.phase == Phase.RESPAWN_CORE:
        assert st.duel is None
        st.apply(fx.auto(st))
    assert st.phase == Phase.RESPAWN_PLACE
    assert {a.arg for a in st.legal_actions()} <= set(SPAWN[0])


def test_D1_D2_agents_and_team_order() -> None:
    """D1, D2: one agent per player, team A's players first."""
    st = new_game(config((3, 2), [ADV]), 0)
    assert [a.team for a in st.avatars] == [0, 0, 0, 1, 1] and [a.slot for a in st.avatars] == [0, 1, 2, 0, 1]


def test_D5_team_turn_ends_when_all_ended_or_exited() -> None:
    """D5: after every on-map avatar of the acting team ended, the other team acts."""
    st = position([ADV] * 4, WIDE)
    st.apply(A.DUEL)
    fx.finish_table(st)
    st.apply(A.END_TURN)
    assert st.control == 1 and st.acting == 0


def test_D6_hand_over_rules() -> None:
    """D6: HAND_OVER first in the phase, or after a command since receiving control."""
    st = position([ADV] * 4, WIDE, ap=[3, 3, 0, 0])
    assert A.HAND_OVER in st.legal_actions()
    st.apply(A.STEP[0])
    assert A.HAND_OVER in st.legal_actions()
    st.apply(A.HAND_OVER)
    assert A.HAND_OVER not in st.legal_actions()


def test_D7_control_after_duel_returns_to_host_or_passes_on() -> None:
    """D7: back to the host (HAND_OVER then legal); to the next teammate if the host exited."""
    st = position([ADV] * 4, WIDE)
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.control == 0 and A.HAND_OVER in st.legal_actions()


def test_D9_D10_D12_D13_map_geometry() -> None:
    """D9 11x7 grid, D10 Chebyshev distance, D12 bases are never entered, D13 direction vectors."""
    assert BASES == (3, 73) and square(10, 3) == 73
    assert DIST[square(5, 3)][square(3, 2)] == 2
    assert NEIGHBOUR[square(4, 3)][4] == square(5, 3) and NEIGHBOUR[square(0, 0)][0] == -1
    assert 3 not in reachable(square(1, 3), 3, {})


def test_D14_D15_we_and_range_of_the_held_ruleset() -> None:
    """D14, D15: WE and range follow the held core game."""
    st = position([BEG, ADV, NOR, ADV], WIDE)
    assert [(a.we, a.range) for a in st.avatars] == [(1, 2), (2, 2), (2, 2), (2, 2)]


def test_D17_move_never_passes_through_avatars() -> None:
    """D17: a walled-in avatar reaches only its own square."""
    occupied = {NEIGHBOUR[square(5, 3)][d]: 1 for d in range(8)}
    assert reachable(square(5, 3), 6, occupied) == [square(5, 3)]


def test_D19_side_persists_between_duels() -> None:
    """D19: a non-participant's side is not touched by other duels."""
    st = position([ADV] * 4, [(5, 3), (1, 1), (7, 3), (10, 6)])
    before = st.avatars[3].side.to_dict()
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.avatars[3].side.to_dict() == before


def test_D24_strike_value_and_targets() -> None:
    """D24: S = WE + casts; never the own base; the champion is never a target."""
    st = position([ADV, ADV, ADV, BEG], [(2, 3), (3, 3), (3, 4), (9, 6)])
    st.apply(A.DUEL)
    assert st.duel is not None and st.duel.strike == 3 and st.duel.champion == 2 and st.duel.bases == [0]
    fx.finish_table(st)
    assert st.phase == Phase.META_FIELD and st.life == [18, 18]


def test_D26_guard_ends_at_next_point_gain() -> None:
    """D26, I10: Guarding lasts until the team's next action-point gain."""
    st = position([ADV] * 4, WIDE, ap=[2, 0, 0, 0])
    st.apply(A.GUARD)
    for _ in range(2):
        team = st.acting
        while st.acting == team:
            st.apply(A.END_TURN if st.avatars[st.control].dueled else A.DUEL)
            fx.finish_table(st)
    assert not st.avatars[0].guarding


def test_D32_core_decision_cap_auto_completes() -> None:
    """D32: after duel_cap core decisions the table finishes by itself."""
    st = new_game(config((1, 1), [ADV], duel_cap=3), 0)
    while st.phase == Phase.STARTUP_CORE and st.actor == 0:
        st.apply(fx.auto(st))
        assert st.table is None or st.table_steps <= 3
    kinds = [r["kind"] for r in st.records]
    assert kinds[:2] == ["core_game", "core_cap"] and st.records[1]["cap"] == 3
    autos = [r for r in st.records if r["kind"] == "auto"]
    assert autos and kinds[2 : 2 + len(autos)] == ["auto"] * len(autos)
    for r in autos:
        assert (
            r["player"] == 0 and r["decision"].startswith("STARTUP_CORE/") and r["action"].startswith("CORE ")
        )


def test_D33_both_bases_at_zero_is_a_draw() -> None:
    """D33: both <= 0 draws."""
    st = position([ADV] * 4, [(5, 3), (1, 1), (7, 3), (9, 6)], life=(4, 4))
    fx.empty_deck(st, 0)
    fx.empty_deck(st, 2)
    st.apply(A.DUEL)
    fx.finish_table(st)
    assert st.done and st.winner == 2 and st.returns() == [0.0] * 4


@pytest.mark.parametrize(
    ("life", "winner", "reason"),
    [
        ((0, 5), 1, "base A fell to 0"),
        ((5, -3), 0, "base B fell to -3"),
        ((-2, 0), 2, "both bases fell to 0 or less"),
        ((36, 10), 0, "base A reached 36"),
        ((10, 37), 1, "base B reached 37"),
        ((36, 0), 0, "base B fell to 0"),  # a fallen base decides before a doubled one
        ((1, 1), None, ""),  # the boundaries: 1 is still standing...
        ((35, 35), None, ""),  # ...and 35 is not yet twice the start life of 18
    ],
)
def test_D33_end_checks_both_ways_and_at_the_boundaries(life, winner, reason) -> None:
    """D33 on its own: a base at 0 or less loses, both is a draw, twice the start life wins."""
    from deckgym.envs.amalogs.rules.end import end_check

    st = new_game(config((1, 1), [ADV]), 0)
    assert st.config.start_life == 18
    actor = st.actor
    st.life = list(life)
    assert end_check(st) is (winner is not None)
    if winner is None:
        assert not st.done and st.actor == actor and st.phase != Phase.GAME_OVER
        return
    assert st.done and st.winner == winner and st.reason == reason and not st.truncated
    assert (st.phase, st.actor, st.control, st.duel, st.current_player) == (Phase.GAME_OVER, -1, -1, None, -1)
    assert st.events[-1] == f"The match is over: {reason}"


@pytest.mark.parametrize(("life", "winner"), [((18, 11), 0), ((9, 18), 1), ((14, 14), 2)])
def test_D34_truncation_adjudicates_by_base_life(life: tuple[int, int], winner: int) -> None:
    """D34: after max_team_turns the higher base life wins (either team), equal is a draw; a truncation."""
    st = new_game(config((1, 1), [ADV], max_team_turns=2), 0)
    while not st.done:
        if st.phase == Phase.META_FIELD:
            if st.team_turn == 2:
                st.life = list(life)  # the bases as they stand in the last team turn
            st.apply(A.END_TURN if st.avatars[st.control].dueled else A.DUEL)
        elif st.phase == Phase.STRIKE:
            st.apply(A.STRIKE_NONE)
        else:
            st.apply(fx.auto(st))
    assert st.truncated and st.team_turn <= 2 and st.life == list(life)
    assert st.winner == winner and st.reason == f"team-turn cap 2: base life A {life[0]}, B {life[1]}"
    expected = {0: [1.0, -1.0], 1: [-1.0, 1.0], 2: [0.0, 0.0]}[winner]
    assert st.returns() == expected


@pytest.mark.parametrize("winner", [0, 1])
def test_D35_rewards_per_team(winner: int) -> None:
    """D35: +1 to each winner, -1 to each loser."""
    st = position([ADV] * 4, WIDE)
    st.done, st.winner = True, winner
    expected = [1.0, 1.0, -1.0, -1.0] if winner == 0 else [-1.0, -1.0, 1.0, 1.0]
    assert st.returns() == expected


def test_phases_hand_over_by_task_name() -> None:
    """The team turn, the respawn phase and the start-up start one another through named tasks."""
    from deckgym.envs.amalogs.rules import flow, respawn, turn

    assert flow.AGENDA.tasks["next_team_turn"] is turn.next_team_turn
    assert flow.AGENDA.tasks["begin_respawn"] is respawn.begin_respawn
    st = new_game(config((1, 1)), 0)
    fx.finish_startup(st)
    assert st.team_turn == 1
    flow.run_task(st, "next_team_turn")
    assert st.team_turn == 2 and st.phase == Phase.META_FIELD
    with pytest.raises(
        KeyError, match=r"no AMALOGS step named 'next_turn'; registered: begin_respawn, next_team_turn"
    ):
        flow.run_task(st, "next_turn")

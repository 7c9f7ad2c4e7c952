"""Cross-ruleset duels (spec section 11, D36-D42): the defender, the proxy seat, the base at the table.

The worked examples E14-E18 and the amended E6/E7 are played through the meta engine with the
real core engines. A host's turn at a table is played by ``attack_proxy``: at each decision it
takes the action after which, within two of its own decisions, the proxy's life is lowest (the
ruleset's pass/lowest option when nothing lowers it), so every attack the rules allow is made.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Kind, Phase, Role
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.encode import GLOBALS, PLAYER_F, AmalogsEncoder, duel_roles
from deckgym.envs.amalogs.rules import duel as duel_rules
from deckgym.envs.amalogs.rules.convert import (
    base_lost,
    base_units,
    host_units,
    nominal_of,
    strike_loss,
    to_guest,
    to_host,
)
from deckgym.envs.amalogs.view import view
from deckgym.envs.core import proxy
from deckgym.envs.core.proxy import Proxy
from tests.envs.amalogs.fixtures import (
    ADV,
    BEG,
    NOR,
    assert_exact_round_trip,
    attack_proxy,
    finish_table,
    position,
    proxy_after,
)

PARTS, MOW = 2, 3


def _records(st: Any, kind: str) -> list[dict[str, Any]]:
    return [r for r in st.records if r["kind"] == kind]


def _ocg_hp(st: Any, player: int, hp: int) -> None:
    st.avatars[player].side.hp = hp


# ----------------------------------------------------------------------------- E14, D36-D39
def _e14(hp: int = 24) -> Any:
    """E14: 2v2, host A0 (MoW, range 1) at (5,3), defender B0 (OCG advance) at (6,3); all others far."""
    st = position([MOW, ADV, ADV, ADV], [(5, 3), (1, 1), (6, 3), (9, 6)], acting=0)
    _ocg_hp(st, 2, hp)
    side = st.avatars[0].side
    side.level = 2  # the master attacks for 2 (E14)
    return st


def test_E14_mow_host_against_an_ocg_defender() -> None:
    """E14 (D36-D39, D43): B0 (HP 24, L0 23) defends at seat 1 with P = floor(24 · 52/23 + 1/2) = 54; it pays ceil(d · 23/52) HP."""
    st = _e14()
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.guests == [2] and d.champion == -1
    assert st.avatars[2].nominal == 23 and host_units(MOW) == 52
    assert d.defender == 2 and d.proxy == proxy.GUEST and d.proxy_start == 54
    assert adapter(MOW).proxy_life(st.table) == 54
    assert st.seat_of(2) == -1 and st.player_at(1) == -1  # the defender never decides (D37)
    duel_event = _records(st, "duel")[-1]
    assert duel_event["defender"] == 2 and duel_event["proxy"] == "guest" and duel_event["champion"] == -1
    attack_proxy(st)
    dmg = _records(st, "proxy_damage")[-1]
    assert dmg["defender"] == 2 and dmg["host"] == 0
    assert dmg["damage"] >= 2  # at least the level-2 master's attack went in
    assert dmg["core_damage"] == to_guest(dmg["damage"], 52, 23) == -(-dmg["damage"] * 23 // 52)
    assert dmg["proxy_life"] == 54 - dmg["damage"]
    assert st.avatars[2].side.hp == 24 - dmg["core_damage"]
    assert st.life == [18, 18] and not _records(st, "exit")
    assert not _records(st, "strike")  # B0 was the only guest, and it was seated (D41)


def test_E15_proxy_at_zero_ends_the_table_and_exits_both() -> None:
    """E15 (D37, D39): P reaches 0: seat 1 lost; the defender loses its game (-2 x WE), the host wins (+3 x WE).

    Host A0 is MoW (WE 3) whose level-2 master hits for 2; defender B0 is OCG advance (WE 2) with
    HP 1, so P = floor(1 · 52/23 + 1/2) = 2 and one master attack ends the table.
    """
    st = _e14(hp=1)
    st.apply(A.DUEL)
    assert st.duel is not None and st.duel.proxy_start == 2
    attack_proxy(st)
    dmg = _records(st, "proxy_damage")[-1]
    assert dmg["damage"] == 2 and dmg["proxy_life"] == 0 and dmg["core_damage"] == 1
    result = _records(st, "duel_result")[-1]
    assert result["winners"] == [0] and result["losers"] == [2]
    assert result["change"] == [3 * 3, -2 * 2]
    assert st.life == [18 + 9, 18 - 4]
    assert st.avatars[0].exited and st.avatars[2].exited


def test_E16_base_at_the_table_counts_successful_attacks_in_base_units() -> None:
    """E16 (D36, D40, D43): no guest, base B in range: base B sits at seat 1 with P = ceil(18 · 29/21) = 25.

    The OCG advance host's one successful attack takes 21/29 of a base life: none yet (rounded down).
    """
    st = position([ADV, ADV, ADV, ADV], [(8, 3), (1, 1), (4, 0), (4, 6)], acting=0)
    players, bases = duel_rules.participants(st, 0)
    assert players == [0] and bases == [1]
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.proxy == proxy.BASE and d.defender == -1
    assert d.proxy_start == base_units(ADV, 18) == 25
    attacks = _attack_base(st, ADV)
    assert attacks == 1, "the OCG advance host attacks the open row once in this position"
    assert base_lost(ADV, 1) == 0 and base_lost(ADV, 2) == 1 and base_lost(ADV, 29) == 21
    assert not _records(st, "base_hit") and st.life == [18, 18]
    assert not _records(st, "proxy_damage") and not _records(st, "exit")
    assert A.STRIKE_BASE not in st.legal_actions()


def test_E16_a_parts_host_takes_one_base_life_per_successful_attack() -> None:
    """D40, D43: the parts game's base unit is 1: each successful attack costs 1, whatever the hit."""
    st = position([PARTS, ADV, ADV, ADV], [(8, 3), (1, 1), (4, 0), (4, 6)], acting=0)
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.proxy == proxy.BASE and d.proxy_start == base_units(PARTS, 18) == 18
    attacks = _attack_base(st, PARTS)
    hits = _records(st, "base_hit")
    assert attacks >= 1, "the parts host could not attack the base in this position"
    assert len(hits) == attacks and st.life == [18, 18 - attacks]
    assert [h["base_life"] for h in hits] == list(range(17, 17 - len(hits), -1))
    assert all(h["team"] == 1 for h in hits)


def _attack_base(st: Any, slot: int) -> int:
    """Play the host's table attacking the base proxy whenever it can; the successful attacks made.

    After every core action the base life is what the attacks so far take (D43: the host game's
    base unit of attacks per base life, rounded down), and one action attacks at most once.
    """
    ad = adapter(slot)
    d = st.duel
    start = d.proxy_start
    while st.phase == Phase.DUEL_CORE:
        p = ad.proxy_life(st.table)
        assert st.life[1] == 18 - base_lost(slot, start - p)
        legal = ad.legal_actions(st.table)
        best = min(range(len(legal)), key=lambda i: proxy_after(ad, st.table, legal[i], 1))
        pick = legal[best] if proxy_after(ad, st.table, legal[best], 1) < p else ad.auto_action(st.table)
        st.apply(Action(Kind.CORE, pick))
        if st.phase == Phase.DUEL_CORE:
            assert ad.proxy_life(st.table) >= p - 1  # one core action attacks at most once
    return start - d.proxy_life


def test_base_at_zero_ends_the_match_mid_table() -> None:
    """D40 with R24: a base proxy reaching 0 ends the match in the middle of the table."""
    st = position([PARTS, ADV, ADV, ADV], [(8, 3), (1, 1), (4, 0), (4, 6)], acting=0, life=(18, 1))
    st.apply(A.DUEL)
    attack_proxy(st)
    assert _records(st, "base_hit"), "the parts host could not attack the base in this position"
    assert st.done and st.winner == 0 and st.life[1] == 0
    assert not _records(st, "exit")


def test_E17_conversion_with_the_parts_game() -> None:
    """E17 (D38, D43): an OCG beginner host (U 52) against a parts defender (L0 = 6/5 of its heads' armor)."""
    st = position([BEG, ADV, PARTS, ADV], [(5, 3), (1, 1), (6, 3), (9, 6)], acting=0)
    dav = st.avatars[2]
    armor = adapter(PARTS).nominal_life(dav.side)
    assert armor in (6, 7, 9) and dav.nominal == nominal_of(PARTS, armor) == {6: 7, 7: 8, 9: 11}[armor]
    life = adapter(PARTS).summary(dav.side).life
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.defender == 2
    assert d.proxy_start == to_host(life, host_units(BEG), dav.nominal) == to_host(life, 52, dav.nominal)
    attack_proxy(st)
    dmg = _records(st, "proxy_damage")[-1]
    assert dmg["core_damage"] == to_guest(dmg["damage"], 52, dav.nominal)
    assert adapter(PARTS).summary(st.avatars[2].side).life == max(0, life - dmg["core_damage"]) or 2 in (
        st.duel.lost if st.duel else [2]
    )


def test_E17_with_the_calibrated_units() -> None:
    """E17's numbers under D43: L0 = floor(7 · 6/5 + 1/2) = 8; P = floor(5 · 52/8 + 1/2) = 33; d = 4 costs 1."""
    assert nominal_of(PARTS, 7) == 8 and nominal_of(BEG, 10) == 15 and nominal_of(MOW, 20) == 17
    assert nominal_of(ADV, 20) == 23 and nominal_of(NOR, 20) == 24
    assert to_host(5, host_units(BEG), 8) == 33
    assert to_guest(4, host_units(BEG), 8) == 1


def test_E17_arithmetic() -> None:
    """E17's numbers: P = floor(5 · 10/7 + 1/2) = 7; d = 4 gives ceil(4 · 7/10) = 3."""
    assert to_host(5, 10, 7) == 7
    assert to_guest(4, 10, 7) == 3
    assert to_guest(0, 10, 7) == 0
    assert to_host(0, 20, 20) == 1  # D38: never below 1
    assert to_host(24, 20, 20) == 24  # E14: not capped
    assert to_host(3, 20, 20) == 3  # E15


def test_E18_champion_before_defender_and_converted_strike() -> None:
    """E18 (D21, D36, D41, D43): B1 (MoW) is the champion; B0 (OCG normal, L0 24) is exposed; S = 3 costs 4 HP."""
    st = position([MOW, ADV, NOR, MOW], [(5, 3), (0, 0), (6, 3), (6, 4)], acting=0)
    st.apply(A.DUEL)
    d = st.duel
    assert d is not None and d.champion == 3 and d.defender == -1 and d.proxy == proxy.NONE
    assert duel_roles(st) == {0: Role.HOST, 2: Role.GUEST, 3: Role.CHAMPION}
    hp = st.avatars[2].side.hp
    finish_table(st)
    assert st.phase == Phase.STRIKE
    assert set(st.legal_actions()) == {A.STRIKE_NONE, A.STRIKE_PLAYER[0]}
    st.apply(A.STRIKE_PLAYER[0])
    strike = _records(st, "strike")[-1]
    assert st.avatars[2].nominal == 24 and d.strike == 3
    assert strike["amount"] == strike_loss(d.strike, 24) == 4  # ceil(3 · 24/20)
    assert strike["base"] is None and strike["life"] is None
    assert st.avatars[2].side.hp == hp - 4


@pytest.mark.parametrize("guarding", [True, False])
def test_E18_a_guarding_guest_hides_its_team_from_the_strike(guarding: bool) -> None:
    """D41 (D26): if a guest of team B Guards, the champion included, no avatar of team B is exposed."""
    st = position([MOW, ADV, NOR, MOW], [(5, 3), (0, 0), (6, 3), (6, 4)], acting=0)
    st.avatars[3].guarding = guarding
    st.apply(A.DUEL)
    finish_table(st)
    assert st.phase == (Phase.META_FIELD if guarding else Phase.STRIKE)


def test_strike_converts_to_the_guest_nominal_life() -> None:
    """D41: ceil(S · L0 / 20): S = 3 costs an OCG beginner 2, a parts game of L0 7 2, MoW 3."""
    assert strike_loss(3, 10) == 2
    assert strike_loss(3, 7) == 2
    assert strike_loss(3, 20) == 3
    assert strike_loss(1, 6) == 1


def test_I5_defender_is_the_nearest_guest_lowest_index_on_ties() -> None:
    """I5 (amended), D36: no guest shares the host's ruleset: the nearest guest defends, lowest index on ties."""
    st = position([MOW, ADV, ADV, ADV], [(5, 3), (1, 1), (6, 2), (6, 4)], acting=0)
    players, bases = duel_rules.participants(st, 0)
    guests = [p for p in players if st.avatars[p].team == 1]
    assert guests == [2, 3]
    assert duel_rules.seat_one(st, 0, guests, bases) == (-1, 2, proxy.GUEST)


def test_D36_own_base_alone_leaves_the_seat_vacant() -> None:
    """D36: with no guest and only the host's own base participating, seat 1 is vacant."""
    st = position([ADV, ADV, ADV, ADV], [(2, 3), (5, 6), (9, 0), (9, 6)], acting=0)
    players, bases = duel_rules.participants(st, 0)
    assert bases == [0] and players == [0]
    assert duel_rules.seat_one(st, 0, [], bases) == (-1, -1, proxy.NONE)


def test_D42_observation_and_view_of_a_proxy_duel() -> None:
    """D42: the proxy kind one-hot and P/20 in the global piece; the defender role; L0/20 per slot; views."""
    st = _e14()
    st.apply(A.DUEL)
    enc = AmalogsEncoder([MOW, ADV])
    layout = enc.layout
    host_obs = enc.observe(st, 0)
    g = layout.view(host_obs, "global")
    assert g.shape == (GLOBALS,) and GLOBALS == 25
    assert list(g[21:24]) == [0.0, 1.0, 0.0] and g[24] == pytest.approx(54 / 20)
    players = layout.view(host_obs, "players").reshape(6, PLAYER_F)
    assert players[3][20 + Role.DEFENDER] == 1.0  # slot B0 is player 2 (2v2: slots A0 A1 A2 B0 ...)
    assert players[0][31] == pytest.approx(17 / 20) and players[3][31] == pytest.approx(23 / 20)
    v = view(st, 0)
    duel = v["board"]["duel"]
    assert duel["defender"] == 2 and duel["proxy"] == "guest" and duel["proxy_life"] == 54
    assert v["players"][2]["role"] == "defender"
    # the defender's core view is its own side (view kind 2), not the host's table
    dv = view(st, 2)
    assert dv["board"]["core"]["source"] == "own_side"


def test_proxy_duel_round_trip_mid_table() -> None:
    """A match in the middle of a proxy table reads back exactly and plays on alike."""
    from deckgym.envs.amalogs.env import AmalogsRuleset

    st = _e14()
    st.apply(A.DUEL)
    raw = AmalogsRuleset(team_sizes=(2, 2), pools=[["master_of_the_world"], ["medarot_ocg_advance"]] * 2)
    assert_exact_round_trip(raw, st)


@pytest.mark.parametrize("slot", [BEG, PARTS, MOW])
def test_A3_D37_every_ruleset_checks_the_proxy_arguments_alike(slot: int) -> None:
    """A3, D37: the adapter's checks of a proxy at seat 1 are the same for every ruleset.

    The kind is NONE, GUEST or BASE as an int (not a bool), a proxy never comes with a champion
    and its life is an int of at least 1; ``proxy_life`` needs a proxy table.
    """
    ad = adapter(slot)
    rng = random.Random(slot)
    side, other = (ad.new_side(ad.default_deck(), rng) for _ in range(2))
    for kind in (3, -1, True, "guest"):
        with pytest.raises(ValueError, match="proxy kind"):
            ad.compose(side, None, rng, 3, Proxy(kind, 5))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="champion"):
        ad.compose(side, other, rng, 3, Proxy(proxy.GUEST, 5))
    for life in (0, -2, True, 2.0):
        with pytest.raises(ValueError, match="life must be an int"):
            ad.compose(side, None, rng, 3, Proxy(proxy.BASE, life))  # type: ignore[arg-type]
    plain = ad.compose(side, None, rng, 3)
    with pytest.raises(ValueError, match="no proxy"):
        ad.proxy_life(plain)
    table = ad.compose(side, None, rng, 3, Proxy(proxy.GUEST, 7))
    assert table.config.proxy == proxy.GUEST and ad.proxy_life(table) == 7
    assert ad.loss_flags(table) == (False, False) == ad.loss_flags(plain)
    host, seat_1 = ad.split(table)
    assert seat_1 is None and sorted(host.cards()) == sorted(side.cards())

"""The core-game adapter of Master of the World, slot 3 (spec D19-D23, D30-D32, A1-A9), over ``envs.mow.sides``."""

from __future__ import annotations

import json
import random

from deckgym.envs import amalogs_v2
from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.cores import IMPLEMENTED, adapter
from deckgym.envs.amalogs.encode import AmalogsEncoder, core_encoding
from deckgym.envs.amalogs.rules import new_game
from deckgym.envs.mow import sides
from deckgym.envs.mow.actions import ATTACKER, DP, PASS, SLOT_SPELL, TARGET, USE
from deckgym.envs.mow.rules.combat import master_can_attack
from deckgym.envs.mow.rules.values import level_for
from deckgym.envs.mow.state import PERMANENT, TURN, GameState, Monster
from tests.envs.amalogs import fixtures as fx
from tests.envs.amalogs.fixtures import ADV, BEG, auto, config, finish_table, position

MOW = 3
AD = adapter(MOW)


def played_side(seed: int, turn: int = 1, quiet: bool = False) -> sides.Side:
    """A side after its solo first turn (random core choices; ``quiet``: PASS throughout, an empty field)."""
    rng = random.Random(seed)
    table = AD.solo_table(AD.new_side(AD.default_deck(), rng), rng, turn)
    while AD.to_act(table) >= 0:
        assert AD.to_act(table) == 0, "only seat 0 acts in a solo first turn"
        legal = AD.legal_actions(table)
        AD.step(table, AD.auto_action(table) if quiet else rng.choice(legal))
    side, vacant = AD.split(table)
    assert vacant is None
    return side


def field(side: sides.Side, cards: list[str], entered: int) -> list[Monster]:
    """Put ``cards`` from the side's deck (or hand) onto its field, charging deck cards so the level has room."""
    for c in cards:
        zone = side.deck if c in side.deck else side.hand
        zone.remove(c)
        side.monsters.append(Monster(0, c, entered))
    master = sides.pool()[side.master]
    while level_for(master, len(side.exp)) < len(side.monsters):
        side.exp.append(side.deck.pop())
    side.level = level_for(master, len(side.exp))
    for i, m in enumerate(side.monsters):
        m.uid = i + 1
    n = len(side.monsters)
    if side.weapon is not None:
        n += 1
        side.weapon[1] = n
    if side.spell is not None:
        side.spell[2] = n + 1
    return side.monsters


def run_to(table: GameState, dp: DP) -> None:
    """PASS every decision until ``dp`` is asked (or the table ends)."""
    while table.decision_point is not None and table.decision_point[0] != dp:
        table.apply(PASS)


def conserved(side: sides.Side) -> bool:
    return sorted(side.cards()) == sorted(side.decklist)


# ----------------------------------------------------------------------------- A1-A3, A6 round trip
def test_slot_3_is_implemented_with_its_encoder() -> None:
    """D15, D28: MoW is slot 3 of every default pool; its core encoder has 294 actions, 2314 floats."""
    assert MOW in IMPLEMENTED and AD.name == "master_of_the_world"
    assert all(MOW in pool for pool in config((2, 2)).pools)
    enc = core_encoding(MOW)
    assert (enc.action_size, enc.obs_size) == (294, 2314)
    meta = AmalogsEncoder(IMPLEMENTED)
    assert meta.action_size == 119 + max(core_encoding(s).action_size for s in IMPLEMENTED)
    assert meta.obs_size == 1152 + max(core_encoding(s).obs_size for s in IMPLEMENTED)


def test_A2_solo_first_turn_has_seat_1_vacant_and_conserves_cards() -> None:
    """D30, A2: opening (5 cards) and first turn with seat 1 vacant; the side keeps its 41 cards (I9)."""
    for seed in range(6):
        side = played_side(seed, 1 + seed)
        assert conserved(side) and len(side.decklist) == 41
        assert side.master == "MS01" and side.life <= 20


def test_A3_A6_round_trip_side_table_side_unchanged() -> None:
    """A3/A6: side -> table -> side leaves both sides unchanged when the table does nothing."""
    for seed in range(6):
        a, b = played_side(seed), played_side(seed + 100)
        field(a, [c for c in ("MN02", "MN12") if c in a.deck][:1], 1)
        field(b, [c for c in ("MN12", "MN01") if c in b.deck][:2], 2)
        b.monsters[0].damage = 1
        b.monsters[0].mods = [[1, -1, PERMANENT]]
        a.master_mods = [[0, 1, PERMANENT]]
        rng = random.Random(seed)
        for champion in (None, b):
            table = AD.compose(a, champion, rng, 7)
            host, champ = AD.split(table)
            assert host.to_dict() == a.to_dict()
            assert (champ is None) == (champion is None)
            if champ is not None:
                assert champ.to_dict() == b.to_dict()
        assert sides.Side.from_dict(json.loads(json.dumps(a.to_dict()))).to_dict() == a.to_dict()
        assert AD.clone_side(b).to_dict() == b.to_dict()


def test_A3_compose_numbers_the_champion_after_the_host() -> None:
    """A3: field numbers of seat 1 are shifted past the host's; new cards get fresh numbers."""
    a, b = played_side(1, quiet=True), played_side(2, quiet=True)
    field(a, ["MN02"], 1)
    field(b, ["MN12", "MN01"], 1)
    table = AD.compose(a, b, random.Random(0), 5)
    uids = [m.uid for ms in table.monsters for m in ms]
    assert uids == [1, 2, 3] and table.next_uid == 4
    assert table.turn == 5 and table.active == 0 and table.first == 0


# ----------------------------------------------------------------------------- A3 turn numbers
def test_A3_summoning_sickness_compares_match_wide_turn_numbers() -> None:
    """A3, D33: a monster that entered on core turn 5 is sick on a table of turn 5, not on turn 6."""
    a, b = played_side(3, quiet=True), played_side(4, quiet=True)
    field(a, ["MN02"], 5)
    field(b, ["MN12"], 2)
    for turn, can in ((5, False), (6, True), (40, True)):
        table = AD.compose(a, b, random.Random(0), turn)
        AD.begin(table)
        run_to(table, DP.ATTACK_DECLARE)
        assert table.decision_point is not None and table.decision_point[0] == DP.ATTACK_DECLARE
        assert (ATTACKER[1] in table.legal_actions()) is can


def test_A3_spell_readiness_compares_match_wide_turn_numbers() -> None:
    """A3, D20: a spell cast on core turn 6 (a solo first turn) is ready on a table of turn 7, not turn 6."""
    a = played_side(5, quiet=True)
    a.spell = ["SP12", 6, 1]
    for turn, ready in ((6, False), (7, True)):
        table = AD.compose(a, None, random.Random(0), turn)
        AD.begin(table)
        run_to(table, DP.MAIN)
        assert (SLOT_SPELL in table.legal_actions()) is ready


def test_A3_no_master_attack_in_solo_first_turns_but_in_every_table() -> None:
    """A3, R9: the game's-first-turn bar applies to every solo first turn and to no table, turn 1 included."""
    for turn in (1, 9):
        rng = random.Random(turn)
        solo = AD.solo_table(AD.new_side(AD.default_deck(), rng), rng, turn)
        assert solo.turn == turn and solo.config.first_turn == turn
        assert not master_can_attack(solo, 0)
    a, b = played_side(6, quiet=True), played_side(7, quiet=True)
    for turn in (1, 2, 9):
        table = AD.compose(a, b, random.Random(0), turn)
        AD.begin(table)
        run_to(table, DP.ATTACK_DECLARE)
        assert ATTACKER[0] in table.legal_actions()


# ----------------------------------------------------------------------------- D21 vacant seat
def test_D21_vacant_seat_never_decides_is_no_target_and_never_loses() -> None:
    """D21: seat 1 vacant: no counter window, no attacker, OPP_MASTER effects do nothing, no loss check."""
    for seed in range(8):
        a = played_side(seed, quiet=True)
        field(a, ["MN02"], 1)
        a.spell = ["SP12", 1, 2]
        rng = random.Random(seed)
        table = AD.compose(a, None, rng, 4)
        AD.begin(table)
        while AD.to_act(table) >= 0:
            assert AD.to_act(table) == 0
            assert table.decision_point is not None and table.decision_point[0] not in (
                DP.COUNTER_WINDOW,
                DP.ATTACK_DECLARE,
            )
            AD.step(table, rng.choice(AD.legal_actions(table)))
        assert AD.loss_flags(table)[1] is False
        assert table.life[1] == 0 and table.deck[1] == [] and table.masters[1] == ""
        host, vacant = AD.split(table)
        assert vacant is None and host.master == "MS01"
    a = played_side(1, quiet=True)
    a.spell = ["SP12", 1, 1]
    table = AD.compose(a, None, random.Random(0), 3)
    AD.begin(table)
    run_to(table, DP.MAIN)
    table.apply(SLOT_SPELL)
    assert table.decision_point is not None and table.decision_point[1] == 0 and table.life[1] == 0
    assert "SP12" in table.discard[0]


def test_seat_1_answers_with_a_ready_counter_spell() -> None:
    """D20, 5.3: the champion's counter spell cast on its turn 6 is ready in a table of turn 7 (seat 1 decides)."""
    a, b = played_side(8, quiet=True), played_side(9, quiet=True)
    b.spell = ["SP05", 6, 1]
    card = next(c for c in ("MN02", "MN12", "MN01") if c in a.hand or c in a.deck)
    if card not in a.hand:
        a.deck.remove(card)
        a.hand.append(card)
    a.exp += [a.deck.pop(), a.deck.pop()]
    a.level = 1
    table = AD.compose(a, b, random.Random(0), 7)
    AD.begin(table)
    run_to(table, DP.MAIN)
    k = sides.pool()[card].index
    table.apply(USE[k])
    assert table.decision_point == (int(DP.COUNTER_WINDOW), 1, ())
    assert SLOT_SPELL in table.legal_actions()
    table.apply(SLOT_SPELL)
    while AD.to_act(table) >= 0:
        table.apply(AD.auto_action(table))
    host, champ = AD.split(table)
    assert champ is not None and champ.spell is None and "SP05" in champ.discard
    assert card in host.discard and host.units() == 0


# ----------------------------------------------------------------------------- A5, A6
def test_A6_damage_and_permanent_modifiers_stay_turn_modifiers_end() -> None:
    """A6: combat damage on the champion's monster stays with it; TURN modifiers end; PERMANENT ones stay."""
    a, b = played_side(10, quiet=True), played_side(11, quiet=True)
    (pike,) = field(a, ["MN02"], 1)
    (beast,) = field(b, ["MN12"], 1)
    table = AD.compose(a, b, random.Random(0), 4)
    table.monsters[1][0].mods = [[0, 1, PERMANENT], [0, 1, TURN]]
    table.master_mods[0] = [[2, 0, TURN], [1, 0, PERMANENT]]
    AD.begin(table)
    run_to(table, DP.ATTACK_DECLARE)
    table.apply(ATTACKER[1])
    table.apply(TARGET[9])
    while AD.to_act(table) >= 0:
        table.apply(AD.auto_action(table))
    assert AD.loss_flags(table) == (False, False)
    host, champ = AD.split(table)
    assert champ is not None
    assert host.units() == 0 and "MN02" in host.discard  # 4 damage on a 2/2
    assert [(m.card, m.damage, m.mods) for m in champ.monsters] == [("MN12", 2, [[0, 1, PERMANENT]])]
    assert host.master_mods == [[1, 0, PERMANENT]]
    assert conserved(host) and conserved(champ)
    assert pike.card == "MN02" and beast.card == "MN12"


def test_A5_A6_a_table_that_ends_early_keeps_every_card_and_drops_turn_modifiers() -> None:
    """A5: the champion's empty deck loses at the first state check; A6 still splits cleanly."""
    a, b = played_side(12, quiet=True), played_side(13, quiet=True)
    field(a, ["MN02"], 1)
    b.discard += b.deck
    b.deck = []
    table = AD.compose(a, b, random.Random(0), 3)
    table.monsters[0][0].mods = [[3, 0, TURN]]
    AD.begin(table)
    assert table.done and AD.loss_flags(table) == (False, True)
    host, champ = AD.split(table)
    assert host.monsters[0].mods == [] and conserved(host) and conserved(champ)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- A7, A8, A9
def test_A7_lose_core_life_is_master_life() -> None:
    """A7: master life - n without decisions; life <= 0 is a loss."""
    side = played_side(14)
    side.life = 5
    assert AD.lose_core_life(side, 3) is False and side.life == 2
    assert AD.lose_core_life(side, 2) is True and side.life == 0
    side.life = 1
    assert AD.lose_core_life(side, 4) is True and side.life == -3


def test_A8_summary_is_public_counts() -> None:
    """A8: core life (master life), hand size, deck size, monsters on the field; same on a running table."""
    a, b = played_side(15, quiet=True), played_side(16, quiet=True)
    field(b, ["MN12"], 1)
    b.life = 13
    assert AD.summary(b) == (13, len(b.hand), len(b.deck), 1)
    table = AD.compose(a, b, random.Random(0), 5)
    assert AD.table_summary(table, 1) == AD.summary(b)
    assert AD.table_summary(table, 0) == AD.summary(a)


def test_A9_auto_action_prefers_pass_and_completes_the_turn() -> None:
    """A9, D32: PASS when legal, else the lowest index; the automatic turn ends the table (truncated)."""
    a, b = played_side(17), played_side(18)
    table = AD.compose(a, b, random.Random(0), 4)
    AD.begin(table)
    while AD.to_act(table) >= 0:
        choice = AD.auto_action(table)
        assert choice == PASS or PASS not in table.legal_actions()
        table.apply(choice)
    assert table.done and table.truncated and AD.loss_flags(table) == (False, False)


# ----------------------------------------------------------------------------- in a match
def _mow_duel(seed: int = 0):  # type: ignore[no-untyped-def]
    """A0 (MoW) at (5,3) hosts; B0 (MoW) at (6,3) is the champion; A1, B1 med_adv far away."""
    return position(
        [MOW, ADV, MOW, ADV], [(5, 3), (1, 1), (6, 3), (9, 6)], acting=0, ap=[4, 0, 0, 0], seed=seed
    )


def test_duel_runs_one_mow_turn_and_splits_back() -> None:
    """D20, A3, A6: one host turn at turn number = counter; the sides come back with their cards."""
    st = _mow_duel()
    host, champ = st.avatars[0], st.avatars[2]
    (pike,) = field(host.side, ["MN02"], 1)
    (beast,) = field(champ.side, ["MN12"], 1)
    champ.side.monsters[0].mods = [[0, 2, PERMANENT]]
    deck_before = len(host.side.deck)
    turn = st.core_turn + 1
    st.apply(A.DUEL)
    assert st.duel is not None and st.duel.champion == 2 and st.table_ruleset == MOW
    assert st.table.turn == turn and st.seat_of(0) == 0 and st.seat_of(2) == 1
    assert host.side is None and champ.side is None
    st.table.master_mods[0] = [[1, 0, TURN]]
    while st.phase == Phase.DUEL_CORE:
        t = st.table
        if t.decision_point[0] == DP.ATTACK_DECLARE and ATTACKER[1] in t.legal_actions():
            st.apply(A.Action(A.Kind.CORE, ATTACKER[1]))
        elif t.decision_point[0] == DP.ATTACK_TARGET:
            st.apply(A.Action(A.Kind.CORE, TARGET[9]))
        else:
            st.apply(auto(st))
    assert st.table is None and host.side is not None and champ.side is not None
    assert len(host.side.deck) == deck_before - 1 and host.core_turns == 2
    assert host.side.master_mods == [] and host.side.units() == 0
    assert [(m.damage, m.mods) for m in champ.side.monsters] == [(2, [[0, 2, PERMANENT]])]
    assert conserved(host.side) and conserved(champ.side)
    assert pike.card == "MN02" and beast.card == "MN12"


def test_strike_on_a_mow_guest_lowers_its_master_life() -> None:
    """D41, A7: a struck MoW guest loses ceil(S x 20 / 20) master life; at 0 it exits with a loss (-2 x WE 3).

    Host A0 (OCG advance, S = 2) at (5,3); B1 (OCG beginner) at (6,3), the nearest guest, defends
    (D36); B0 (MoW) at (7,3), at distance 2, is exposed.
    """
    st = position([ADV, ADV, MOW, BEG], [(5, 3), (1, 1), (7, 3), (6, 3)], acting=0, ap=[4, 0, 0, 0])
    st.avatars[2].side.life = 2
    st.apply(A.DUEL)
    assert st.duel is not None and st.duel.champion == -1 and st.duel.strike == 2
    assert st.duel.defender == 3
    finish_table(st)
    assert A.STRIKE_PLAYER[0] in st.legal_actions() and A.STRIKE_PLAYER[1] not in st.legal_actions()
    st.apply(A.STRIKE_PLAYER[0])
    assert st.avatars[2].exited and st.life == [18, 18 - 6]


def test_invariants_hold_in_random_2v2_games_with_mow() -> None:
    """Section 10: I1-I11, I13 at every step of random 2v2 games whose pools include slot 3."""
    pools_list = ([MOW], [[MOW], [MOW, 0], [1, MOW], [MOW, 4]], None)
    bad = [
        f"pools {pools} seed {seed} {m}"
        for pools in pools_list
        for seed in range(3)
        for m in fx.checked_game(new_game(config((2, 2), pools), seed), random.Random(seed))
    ]
    assert not bad, "\n".join(bad)


def test_I12_resampling_others_private_mow_info_leaves_observations() -> None:
    """I12, 7.2: resampling hands, face-down spells and deck orders others cannot see changes no observation."""
    env = amalogs_v2.env(pools=[MOW, ADV])
    checked = changed = 0
    for k, st in fx.sampled(env, seed=7, steps=1500, every=13):
        for seat in range(4):
            alt = fx.resampled(env, st, seat, k)
            checked += 1
            other = st.avatars[(seat + 2) % 4]
            if other.side is not None and other.ruleset == MOW:
                changed += alt.avatars[(seat + 2) % 4].side.to_dict() != other.side.to_dict()
    assert checked > 100 and changed > 0


def test_state_round_trip_with_mow_tables_is_exact() -> None:
    """to_dict / from_dict through JSON with MoW sides and tables: same dict, observations, continuation."""
    assert fx.round_trip_tables(amalogs_v2.env(pools=[MOW]), seed=4, steps=1200, every=29) > 0

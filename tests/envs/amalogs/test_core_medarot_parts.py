"""The core-game adapter of the Medarot parts game (slot 2; spec D19-D23, D28, D30-D32, A1-A9).

Sides and tables are built by ``envs.medarot_parts.sides`` on the engine's own ``GameState``;
the random AMALOGS games reuse the invariant checker of ``test_invariants``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from deckgym.envs import amalogs_v2
from deckgym.envs.amalogs.actions import Action, Phase
from deckgym.envs.amalogs.actions import Kind as MetaKind
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import IMPLEMENTED, adapter
from deckgym.envs.amalogs.encode import CORE_OFFSET, AmalogsEncoder, core_encoding
from deckgym.envs.amalogs.rules import new_game
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core.errors import DeckError
from deckgym.envs.medarot_parts import sides
from deckgym.envs.medarot_parts.actions import PASS, Kind
from deckgym.envs.medarot_parts.cards import ATTACK_ACTIONS, HEAD, MEDAROTER, RIGHT_ARM, TURN
from deckgym.envs.medarot_parts.rules import effects
from deckgym.envs.medarot_parts.rules.values import power
from deckgym.envs.medarot_parts.sides import OWN_MEDAROT_MASK, Side
from deckgym.envs.medarot_parts.state import UNTIL_CARD, UNTIL_TURN, GameState
from tests.envs.amalogs import fixtures as fx
from tests.envs.amalogs.fixtures import config

PARTS = 2
AD = adapter(PARTS)


def played_side(seed: int, deck: str | None = None, turn: int = 1, auto: bool = False) -> Side:
    """A side after its solo first turn (random core choices, or the D32 automatic ones)."""
    rng = random.Random(seed)
    cards = AD.default_deck() if deck is None else AD.resolve_deck(deck, "test")
    table = AD.solo_table(AD.new_side(cards, rng), rng, turn)
    while AD.to_act(table) >= 0:
        assert AD.to_act(table) == 0, "only seat 0 acts in a solo first turn"
        AD.step(table, AD.auto_action(table) if auto else rng.choice(AD.legal_actions(table)))
    side, vacant = AD.split(table)
    assert vacant is None
    return side


def run_table(table: GameState, rng: random.Random, choose=None) -> None:  # type: ignore[no-untyped-def]
    """Answer every decision of a begun table (random by default)."""
    while AD.to_act(table) >= 0:
        legal = AD.legal_actions(table)
        AD.step(table, choose(table, legal, rng) if choose else rng.choice(legal))


def test_slot_2_is_implemented_with_the_spec_numbers_and_default_pools_include_it() -> None:
    """D15, D28: slot 2 is medarot_parts (WE 2, range 2); default pools are every implemented ruleset."""
    assert PARTS in IMPLEMENTED and AD.name == RULESETS[PARTS].name == "medarot_parts"
    assert (RULESETS[PARTS].we, RULESETS[PARTS].range) == (2, 2)
    cfg = config((2, 2))
    assert all(PARTS in pool for pool in cfg.pools)
    assert cfg.deck(0, PARTS) == AD.default_deck()


def test_D28_decks_flat_named_and_invalid() -> None:
    """A deck is 10 starter ids (medal, head, right arm, left arm, legs, twice) then 40 cards."""
    deck = AD.default_deck()
    assert len(deck) == 50 and deck[:5] == ["M0", "H02", "R02", "L01", "G02"]
    assert AD.resolve_deck(deck, "flat") == deck
    fang = AD.resolve_deck("fang_brawler", "named")
    assert fang[:10] == ["M1", "H04", "R01", "L06", "G05", "M2", "H06", "R04", "L05", "G03"]
    with pytest.raises(DeckError, match="40"):
        AD.resolve_deck(deck[:-1], "short")
    with pytest.raises(ValueError):
        AD.resolve_deck([deck[1], *deck[1:]], "no medal")
    assert config((1, 1), [PARTS], decks={"medarot_parts": "fang_brawler"}).deck(1, PARTS) == fang


def test_A1_A2_D30_solo_first_turn_with_a_vacant_seat_conserves_cards() -> None:
    """A1, A2, D30: setup and turn t with seat 1 vacant; the side keeps its 50 cards (spec 10.1)."""
    for seed in range(6):
        rng = random.Random(seed)
        side = AD.new_side(AD.default_deck(), rng)
        price = sum(sides.pool()[c].price for c in AD.default_deck()[:10] if sides.pool()[c].type == "PART")
        assert sorted(side.cards()) == sorted(AD.default_deck()) and side.assets == 10000 - price
        table = AD.solo_table(side, rng, 4)
        assert table.turn == 4 and table.priority == 0 and table.field[1] == [] and table.hand[1] == []
        run_table(table, rng)
        assert table.truncated and table.turn == 4 and AD.loss_flags(table) == (False, False)
        out, vacant = AD.split(table)
        assert vacant is None and sorted(out.cards()) == sorted(AD.default_deck())
        assert len(out.field) == 2 and len(out.hand) <= 7 and out.units() == 2


def test_D31_adapter_round_trip_side_table_side_unchanged() -> None:
    """A3/A6: side -> table -> side leaves sides unchanged when the table does nothing; JSON round trip."""
    for seed in range(6):
        a, b = played_side(seed), played_side(seed + 100, "chorus_support", 2)
        rng = random.Random(seed)
        for champion in (None, b):
            host, champ = AD.split(AD.compose(a, champion, rng, 7))
            assert host.to_dict() == a.to_dict()
            assert (champ is None) == (champion is None)
            if champ is not None:
                assert champ.to_dict() == b.to_dict()
        back = AD.side_from_dict(json.loads(json.dumps(AD.side_to_dict(a))))
        assert back.to_dict() == a.to_dict() and AD.clone_side(a).to_dict() == a.to_dict()
        kept = AD.resample_side(a, random.Random(seed), keep_private=True)
        assert (
            kept.hand == a.hand
            and sorted(kept.deck) == sorted(a.deck)
            and kept.field[0].to_list() == (a.field[0].to_list())
        )


def test_A3_table_is_turn_t_with_the_host_first_and_stops_after_it() -> None:
    """A3: turn number t of the match-wide counter, seat 0 has priority, the table ends with the turn."""
    for seed in range(8):
        a, b = played_side(seed, "fang_brawler"), played_side(seed + 50, "chorus_support")
        rng = random.Random(seed)
        table = AD.compose(a, b, rng, 5 + seed)
        uids = [p.uid for row in table.field for m in row for p in m.parts]
        assert len(set(uids)) == 16 and table.next_uid == 17
        AD.begin(table)
        assert table.turn == 5 + seed and table.priority == 0
        run_table(table, rng)
        assert table.done and table.turn == 5 + seed
        host, champ = AD.split(table)
        assert champ is not None
        if table.truncated:
            assert AD.loss_flags(table) == (False, False)
        for side, deck in ((host, "fang_brawler"), (champ, "chorus_support")):
            assert sorted(side.cards()) == sorted(AD.resolve_deck(deck, "d"))
            assert [p.uid for m in side.field for p in m.parts] == list(range(1, 9))


def test_A7_lose_core_life_puts_counters_on_the_first_working_head() -> None:
    """A7 worked numbers (Blaze Striker: medarot 0 head H02 armor 3, medarot 1 head H01 armor 4).

    Life 3 + 4 = 7. Lose 2: H02 2/3, life 5. Lose 4: 6 >= 3, H02 destroyed (counters removed,
    attached cards trashed, tapped), medarot 0 stopped, surplus 3 discarded: life 4. Lose 1: H01
    1/4, life 3. Lose 3: 4 >= 4, both stopped: the side meets its loss condition, life 0.
    """
    side = played_side(3, auto=True)
    assert [m.parts[HEAD].card for m in side.field] == ["H02", "H01"] and side.life() == 7
    card = next(c for c in side.deck if sides.pool()[c].type == MEDAROTER)
    side.deck.remove(card)
    side.field[0].parts[RIGHT_ARM].attached.append(card)
    assert AD.lose_core_life(side, 0) is False and side.life() == 7
    assert AD.lose_core_life(side, 2) is False
    assert side.field[0].parts[HEAD].counters == 2 and AD.summary(side).life == 5
    assert AD.lose_core_life(side, 4) is False
    head = side.field[0].parts[HEAD]
    assert head.destroyed and head.tapped and head.counters == 0 and side.field[0].stopped
    assert side.field[0].parts[RIGHT_ARM].attached == [] and side.trash[-1] == card
    assert side.field[1].parts[HEAD].counters == 0 and AD.summary(side) == (
        4,
        len(side.hand),
        len(side.deck),
        1,
    )
    assert AD.lose_core_life(side, 1) is False and side.field[1].parts[HEAD].counters == 1
    assert side.life() == 3
    assert AD.lose_core_life(side, 3) is True
    assert side.field[1].stopped and AD.summary(side).life == 0 and side.units() == 0
    assert sorted(side.cards()) == sorted(AD.default_deck())


def test_A8_public_summary() -> None:
    """A8: core life = remaining armor of non-destroyed heads; hand, deck, non-stopped medarots."""
    a, b = played_side(4, auto=True), played_side(5, "fang_brawler", auto=True)
    a.field[1].parts[HEAD].counters = 1
    assert AD.summary(a) == (3 + 4 - 1, len(a.hand), len(a.deck), 2)
    table = AD.compose(a, b, random.Random(0), 3)
    assert AD.table_summary(table, 0) == AD.summary(a)
    assert AD.table_summary(table, 1) == AD.summary(b) == (4 + 5, len(b.hand), len(b.deck), 2)


def _opp_slot(mod: list[int]) -> bool:
    return mod[2] < 0 and mod[5] != OWN_MEDAROT_MASK


def _aggressive(table: GameState, legal: list, rng: random.Random):  # type: ignore[no-untyped-def, type-arg]
    """Attack and attach effect cards whenever possible; play cards often; else random."""
    for kind in (Kind.ATTACH_EFFECT, Kind.USE_PART):
        options = [a for a in legal if a.kind == kind]
        if options:
            return rng.choice(options)
    cards = [a for a in legal if a.kind == Kind.HAND]
    if table.decision == "ACTION" and cards and rng.random() < 0.7:
        return rng.choice(cards)
    return rng.choice(legal)


def test_A6_a_parts_table_runs_one_turn_and_splits_with_cleanup() -> None:
    """A6: effect bindings and TURN modifiers aimed at the other side end at the split.

    A bound effect card (Rust Bloom, Rust Brand) goes to its owner's trash; the bound slot gets its
    value back; OWN_MEDAROT modifiers (Battle Hymn) and SELF effects stay with their side.
    """
    seen: Counter[str] = Counter()
    assert effects._ALL_SLOTS == OWN_MEDAROT_MASK
    for seed in range(60):
        a, b = played_side(seed, "fang_brawler"), played_side(seed + 1, "chorus_support", 2)
        rng = random.Random(seed)
        table = AD.compose(a, b, rng, 3)
        AD.begin(table)
        run_table(table, rng, _aggressive)
        bound = {m[7] for m in table.mods if _opp_slot(m) and m[6] == UNTIL_CARD}
        own = [sum(1 for m in table.mods if m[2] < 0 and m[3] == q and not _opp_slot(m)) for q in (0, 1)]
        seen["binding"] += bool(bound)
        seen["turn_opp"] += any(_opp_slot(m) and m[6] == UNTIL_TURN for m in table.mods)
        seen["own"] += any(own)
        effect_cards = [
            (q, part.uid, part.effect is not None and part.uid in bound)
            for q in (0, 1)
            for med in table.field[q]
            for part in med.parts
            if part.effect is not None
        ]
        seen["trashed"] += any(gone for _, _, gone in effect_cards)
        trash_before = [len(table.trash[q]) for q in (0, 1)]
        host, champ = AD.split(table)
        assert champ is not None
        for q, side, deck in ((0, host, "fang_brawler"), (1, champ, "chorus_support")):
            assert not any(_opp_slot(m) for m in side.mods)
            assert sum(1 for m in side.mods if m[2] < 0) == own[q]
            assert all(m[3] in (-1, 0) for m in side.mods)
            trashed = sum(1 for p, _, gone in effect_cards if p == q and gone)
            assert len(side.trash) == trash_before[q] + trashed + sum(
                1 for c in table.play[q] if sides.pool()[c].duration != TURN
            )
            assert sum(1 for m in side.field for p in m.parts if p.effect) == sum(
                1 for p, _, gone in effect_cards if p == q and not gone
            )
            assert sorted(side.cards()) == sorted(AD.resolve_deck(deck, "d"))
        if bound:
            again = AD.compose(host, champ, random.Random(0), 4)
            for m in [m for m in table.mods if _opp_slot(m) and m[6] == UNTIL_CARD]:
                bare = table.clone()
                bare.mods = [x for x in bare.mods if x[7] != m[7]]
                slot = m[5].bit_length() - 1
                assert power(again, m[3], m[4], slot) == power(bare, m[3], m[4], slot)
                seen["restored"] += power(again, m[3], m[4], slot) != power(table, m[3], m[4], slot)
    assert all(seen[k] for k in ("binding", "turn_opp", "own", "trashed", "restored")), seen


def test_D21_vacant_seat_never_decides_attacks_or_loses() -> None:
    """D21: with seat 1 vacant only the host acts; no attack has a target; seat 1 never loses."""
    for seed in range(10):
        a = played_side(seed, "chorus_support")
        rng = random.Random(seed)
        table = AD.compose(a, None, rng, 5)
        AD.begin(table)
        while AD.to_act(table) >= 0:
            assert AD.to_act(table) == 0 and table.battle is None
            legal = AD.legal_actions(table)
            for act in legal:
                if act.kind == Kind.USE_PART:
                    part = table.field[0][table.action_medarot[0]].parts[act.arg]
                    assert sides.pool()[part.card].action not in ATTACK_ACTIONS
            AD.step(table, _aggressive(table, legal, rng))
        assert AD.loss_flags(table)[1] is False and table.field[1] == []


def test_D23_A5_loss_flags_from_the_table_result() -> None:
    """A5: a finished turn is no loss; a deck that cannot refill the hand loses (D8); both: a draw."""
    a, b = played_side(7), played_side(8)
    b.trash += b.deck
    b.deck = []
    table = AD.compose(a, b, random.Random(0), 4)
    AD.begin(table)
    assert table.done and AD.loss_flags(table) == (False, True)
    a.trash += a.deck
    a.deck = []
    table = AD.compose(a, b, random.Random(0), 4)
    AD.begin(table)
    assert AD.loss_flags(table) == (True, True)
    host, champ = AD.split(table)
    assert champ is not None and sorted(host.cards()) == sorted(AD.default_deck())


def test_A9_D32_auto_action_prefers_pass_and_finishes_the_turn() -> None:
    """A9, D32: the automatic choice is PASS when legal, else the lowest index; the turn completes."""
    for seed in range(4):
        a, b = played_side(seed), played_side(seed + 9, "fang_brawler")
        table = AD.compose(a, b, random.Random(seed), 2)
        AD.begin(table)
        while AD.to_act(table) >= 0:
            legal = AD.legal_actions(table)
            choice = AD.auto_action(table)
            assert choice == (PASS if PASS in legal else min(legal))
            AD.step(table, choice)
        assert table.truncated


def test_encoder_core_block_fits_the_largest_core() -> None:
    """Section 6/7: N = 119 + max N_r, the core observation padded to the largest O_r."""
    parts = core_encoding(PARTS)
    assert parts.action_size == 46
    solo = AmalogsEncoder([PARTS])
    assert solo.action_size == 119 + 46 and solo.core_obs_size == parts.obs_size
    mixed = AmalogsEncoder(IMPLEMENTED)
    assert mixed.action_size == 119 + max(core_encoding(s).action_size for s in IMPLEMENTED)
    assert mixed.core_obs_size == max(core_encoding(s).obs_size for s in IMPLEMENTED)
    st = new_game(config((1, 1), [[PARTS, 1], [PARTS]]), 0)
    rng = random.Random(0)
    seen = 0
    while not st.done and seen < 200:
        if (
            st.phase in (Phase.STARTUP_CORE, Phase.RESPAWN_CORE, Phase.DUEL_CORE)
            and st.table_ruleset == PARTS
        ):
            idx = mixed.legal_indices(st)
            assert idx and all(CORE_OFFSET <= i < CORE_OFFSET + 46 for i in idx)
            for i in idx:
                assert mixed.action_to_index(mixed.index_to_action(i, st), st) == i
            seen += 1
        obs = mixed.observe(st, st.current_player)
        assert obs.shape == (mixed.obs_size,) and np.isfinite(obs).all()
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    assert seen


def test_invariants_of_random_2v2_games_with_parts_in_the_pools() -> None:
    """Spec section 10 at every step of random 2v2 games whose pools include the parts game."""
    pools = ([PARTS], [PARTS, 1], [[PARTS], [1], [PARTS], [PARTS, 0]])
    kinds: Counter[str] = Counter()

    def watch(st: AmalogsState, action: Action) -> None:
        if st.phase == Phase.DUEL_CORE and st.table_ruleset == PARTS:
            kinds["champion" if st.duel and st.duel.champion >= 0 else "vacant"] += 1
        if action.kind == MetaKind.STRIKE_PLAYER:
            kinds["strike"] += 1

    for k, pool in enumerate(pools):
        for seed in range(4):
            bad = fx.checked_game(new_game(config((2, 2), pool), 100 * k + seed), random.Random(seed), watch)
            assert not bad, f"pools {pool} seed {seed}: {bad}"
    assert kinds["champion"] and kinds["vacant"] and kinds["strike"], kinds


def test_I12_resampling_others_private_core_info_leaves_observations() -> None:
    """I12: resampling what a player cannot see (other hands, deck orders) leaves its observation."""
    env = amalogs_v2.env(team_sizes=(2, 2), pools=["medarot_parts"])
    checked = changed = 0
    for k, st in fx.sampled(env, seed=4, steps=1500, every=13):
        for seat in range(4):
            alt = fx.resampled(env, st, seat, k)
            other = (seat + 1) % 4
            if alt.avatars[other].side is not None and st.avatars[other].side is not None:
                changed += alt.avatars[other].side.to_dict() != st.avatars[other].side.to_dict()
            checked += 1
    assert checked > 100 and changed


def test_state_round_trip_with_parts_sides_and_tables() -> None:
    """to_dict / from_dict through JSON: same dict, same observations, same continuation."""
    env = amalogs_v2.env(team_sizes=(2, 2), pools=["medarot_parts"])
    assert fx.round_trip_tables(env, seed=6, steps=1200, every=29)

"""AMALOGS moves in words (``envs.amalogs.describe``): sentences, places, prompts and honesty."""

from __future__ import annotations

import importlib
import random
import re

import pytest

from deckgym import envs
from deckgym.envs import games
from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import IMPLEMENTED, adapter
from deckgym.envs.amalogs.describe import (
    TABLE,
    card_names,
    core_describer,
    decision_text,
    describe_action,
    direction_word,
    who,
)
from deckgym.envs.amalogs.encode import CORE_OFFSET, OFFSET
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.amalogs.view import core_view_function
from deckgym.envs.core.describe import ROLES, place_key
from tests.envs.amalogs.fixtures import ADV, BEG, finish_table, position
from tests.envs.positions import sampled_states

MOW, PARTS = 3, 2
CODE = re.compile(r"[A-Z]{2,}_[A-Z]+")
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def _games() -> list[tuple[str, dict[str, object], int]]:
    return [
        ("1v1", {"team_sizes": (1, 1)}, 3),
        ("2v2", {"team_sizes": (2, 2)}, 5),
        ("3v3 mixed", {"team_sizes": (3, 3)}, 8),
        ("1v1 parts and MoW", {"team_sizes": (1, 1), "pools": ["medarot_parts", "master_of_the_world"]}, 2),
    ]


def _random_states(
    kwargs: dict[str, object], seed: int, every: int = 3, cap: int = 900
) -> list[AmalogsState]:
    """Every ``every``-th state of one random game (cloned), and its last one."""
    env = envs.make("amalogs_v2", **kwargs)
    env.reset(seed=seed)
    enc = env.unwrapped.encoder
    rng = random.Random(seed)
    return sampled_states(
        env.unwrapped.game, lambda s: enc.index_to_action(rng.choice(enc.legal_indices(s)), s), every, cap
    )


def _legal(st: AmalogsState) -> list[int]:
    from deckgym.envs.amalogs.encode import AmalogsEncoder

    enc = AmalogsEncoder([s for pool in st.config.pools for s in pool])
    return enc.legal_indices(st)


@pytest.mark.parametrize(("label", "kwargs", "seed"), _games(), ids=[g[0] for g in _games()])
def test_every_legal_action_reads_as_plain_distinct_english(
    label: str, kwargs: dict[str, object], seed: int
) -> None:
    """Each option of a decision has its own sentence; no op codes, no CJK, no card ids, valid places."""
    del label
    ids: set[str] = set()
    phases = set()
    for st in _random_states(kwargs, seed):
        ids |= set(card_names(st))
        word_ids = re.compile(r"\b(" + "|".join(map(re.escape, sorted(ids))) + r")\b")
        legal = _legal(st)
        for seat in range(st.num_players):
            texts = []
            for i in legal:
                d = describe_action(st, seat, i)
                texts.append(d["text"])
                assert d["text"] and not CODE.search(d["text"]) and not CJK.search(d["text"]), d["text"]
                assert not word_ids.search(d["text"]), d["text"]
                for p in d["places"]:
                    assert p["role"] in ROLES
                    if p["zone"] == "map":
                        assert p["index"] is not None and 0 <= p["index"] < 77 and p["player"] is None
                    elif p["zone"] == "player":
                        assert p["player"] == st.current_player and p["index"] is None
                    else:
                        assert p["zone"].startswith(TABLE), p
            if seat == st.current_player:
                assert len(set(texts)) == len(texts), (st.decision, texts)
            prompt = decision_text(st, seat)
            assert prompt and not CODE.search(prompt) and not CJK.search(prompt), prompt
        phases.add(st.phase)
    assert {Phase.META_FIELD, Phase.DUEL_CORE} <= phases


def test_a_seated_readers_sentence_hides_what_it_may_not_know() -> None:
    """Redrawing what the reader may not see changes none of its sentences (its own or others')."""
    rng = random.Random(4)
    checked = 0
    for st in _random_states({"team_sizes": (2, 2)}, 11, every=2):
        if st.done:
            continue
        legal = _legal(st)
        for seat in range(st.num_players):
            other = st.resample_hidden(seat, rng)
            both = set(legal) & set(_legal(other))
            for i in both:
                assert describe_action(st, seat, i) == describe_action(other, seat, i), (st.decision, seat, i)
                checked += 1
    assert checked > 500


def test_a_reader_away_from_the_table_is_told_the_moves_public_part() -> None:
    """Section 7.1: the table's public part, as its other seat reads it, with the players' names."""
    st = position([ADV, ADV, ADV, ADV], [(4, 3), (1, 1), (5, 3), (9, 5)], acting=0)
    st.apply(A.DUEL)
    assert st.phase == Phase.DUEL_CORE and st.duel is not None and st.duel.champion == 2
    actor = st.current_player
    k = st.seat_of(actor)
    names = card_names(st)
    hidden = {names[c] for c in st.table.hand[k]} - {names[c] for c in st.table.hand[1 - k]}
    seen = set()
    for seat in (1, 3):  # the cast and a player outside the duel
        for i in _legal(st):
            d = describe_action(st, seat, i)
            text = d["text"]
            seen.add(text)
            assert [place_key(p) for p in d["places"]] == [f"player/{actor}/"]
            assert text.startswith(f"{who(st, seat, actor)[:1].upper()}{who(st, seat, actor)[1:]}")
            assert text.endswith(" (at the Medarot OCG advance table)")
            assert "opponent" not in text and "your" not in text.lower()
            assert not any(n in text for n in hidden), text  # the actor's hand stays its own
    assert len(seen) > 2  # the moves read differently, not one sentence for all
    prompt = decision_text(st, 3)
    assert prompt.startswith("Duel of Medarot OCG advance, A0 against B0: ") and "A0 is playing" in prompt


def test_core_moves_are_the_core_rulesets_sentences_with_table_places() -> None:
    st = position([ADV, ADV, ADV, ADV], [(4, 3), (1, 1), (5, 3), (9, 5)], acting=0)
    st.apply(A.DUEL)
    mod = core_describer(ADV)
    if mod is None:
        pytest.skip("the Medarot OCG has no describe module yet")
    k = st.seat_of(st.current_player)
    for i in _legal(st):
        core = mod.describe_action(st.table, k, i - CORE_OFFSET)
        mine = describe_action(st, st.current_player, i)
        assert mine["text"][1:] == core["text"][1:]
        assert [(p["role"], p["zone"], p["player"], p["index"]) for p in mine["places"]] == [
            (p["role"], TABLE + p["zone"], p["player"], p["index"]) for p in core["places"]
        ]


def test_each_slots_names_and_modules_come_from_its_adapter() -> None:
    """A slot's env name, modules, card names and words are its core adapter's (from the ruleset's ``GAME``)."""
    for slot in IMPLEMENTED:
        ad = adapter(slot)
        package = games.game(ad.env).package
        assert ad.name == RULESETS[slot].name
        assert getattr(core_describer(slot), "__name__", "") == f"{package}.describe"
        assert getattr(core_view_function(slot), "__module__", "") == f"{package}.view"
        assert set(ad.card_names()) == set(importlib.import_module(f"{package}.sides").pool().cards)
    assert [adapter(s).env for s in (ADV, MOW, PARTS)] == ["medarot_ocg_v1", "mow_v1", "medarot_parts_v1"]
    assert [(adapter(s).title, adapter(s).short) for s in IMPLEMENTED] == [
        ("Medarot OCG beginner", "OCG beg."),
        ("Medarot OCG advance", "OCG adv."),
        ("the Medarot parts game", "Parts"),
        ("Master of the World", "MoW"),
        ("Medarot OCG normal", "OCG norm."),
    ]


def test_commands_name_the_avatars_squares_and_directions_from_the_readers_side() -> None:
    # 2v2, team A acts: A0 (4,3) next to enemy B0 (5,3) and ally A1 (4,4); B1 far away.
    st = position([MOW, ADV, MOW, ADV], [(4, 3), (4, 4), (5, 3), (9, 5)], acting=0, ap=[9, 0, 0, 0])
    text = {i: describe_action(st, 0, i)["text"] for i in _legal(st)}
    assert text[OFFSET[A.Kind.DUEL]] == (
        "Duel: Master of the World against enemy B0 (cast A1; strike value 4)"
    )
    assert text[OFFSET[A.Kind.STEP] + 0] == "Step back to row 4, column 4 (1 AP)"  # d0: row - 1
    assert text[OFFSET[A.Kind.STEP] + 6] == "Step left to row 5, column 3 (1 AP)"
    assert text[OFFSET[A.Kind.PUSH] + 4] == "Push enemy B0 forward to row 7, column 4 (2 AP)"
    assert text[OFFSET[A.Kind.SWAP] + 2] == "Swap squares with ally A1 on row 5, column 5 (2 AP)"
    assert text[OFFSET[A.Kind.MOVE]].startswith("Move: pay 3 AP, roll two dice")
    push = describe_action(st, 0, OFFSET[A.Kind.PUSH] + 4)["places"]
    assert [(p["role"], p["index"]) for p in push] == [("from", 31), ("target", 38), ("to", 45)]
    # Team B reads the same moves told, and its own directions turned around.
    assert (
        describe_action(st, 2, OFFSET[A.Kind.PUSH] + 4)["text"]
        == "Enemy A0 pushes your avatar B0 to row 7, column 4"
    )
    assert describe_action(st, 1, OFFSET[A.Kind.STEP] + 0)["text"] == "Ally A0 steps to row 4, column 4"
    assert direction_word(st, 0, 1) == "back-right" and direction_word(st, 2, 1) == "forward-left"


def test_strike_and_move_destination_sentences() -> None:
    # Host A0 (OCG advance, S = 2) at (8,3); guests B0 (MoW) at (9,2) and B1 (OCG beginner) at (9,4),
    # both at distance 1: B0 defends (lowest index on the tie, D36) and B1 is exposed (D41).
    st = position([ADV, ADV, MOW, BEG], [(8, 3), (1, 1), (9, 2), (9, 4)], acting=0)
    st.apply(A.DUEL)
    finish_table(st)
    assert st.phase == Phase.STRIKE
    text = {i: describe_action(st, 0, i) for i in _legal(st)}
    assert text[OFFSET[A.Kind.STRIKE_NONE]]["text"] == "Strike nothing"
    assert OFFSET[A.Kind.STRIKE_BASE] not in text  # bases are never struck (D41)
    guest = text[OFFSET[A.Kind.STRIKE_PLAYER] + 1]
    # S = 2 in units of a nominal life of 20 is ceil(2 x 15 / 20) = 2 HP of an OCG beginner game (L0 15, D43)
    assert guest["text"] == "Strike enemy B1 for 2 core life" and guest["places"][0]["index"] == 7 * 9 + 4
    assert (
        describe_action(st, 3, OFFSET[A.Kind.STRIKE_PLAYER] + 1)["text"]
        == "Enemy A0 strikes your avatar B1 for 2 core life"
    )
    assert decision_text(st, 0) == "Choose what to strike for 2, or strike nothing"


def test_prompts_for_the_actor_and_for_the_others() -> None:
    st = position([MOW, ADV, MOW, ADV], [(4, 3), (4, 4), (5, 3), (9, 5)], acting=0, ap=[5, 0, 0, 0])
    assert decision_text(st, 0) == "Choose a command for your avatar A0 (5 AP)"
    assert decision_text(st, 1) == "Ally A0 is choosing a command"
    assert decision_text(st, 2) == "Enemy A0 is choosing a command"


def test_card_names_cover_every_card_of_the_match() -> None:
    st = _random_states({"team_sizes": (1, 1), "pools": ["medarot_parts", "master_of_the_world"]}, 2)[0]
    names = card_names(st)
    assert names and all(isinstance(v, str) and v for v in names.values())
    for a in st.avatars:
        if a.side is not None:
            assert set(adapter(a.ruleset).side_cards(a.side)) <= set(names)


def test_the_env_describes_through_the_ruleset() -> None:
    env = envs.make("amalogs_v2", team_sizes=(1, 1))
    env.reset(seed=1)
    st = env.unwrapped.game
    i = _legal(st)[0]
    assert env.unwrapped.describe_action(0, i) == describe_action(st, 0, i)


def test_base_units_read_as_the_board_writes_them() -> None:
    """D43: a fractional base unit in at most two decimals, as the boards print it (29/21 is 1.38)."""
    from deckgym.envs.amalogs.describe import _base_rate

    assert _base_rate(1) == "1 per 1.38 successful attacks"  # OCG advance, 29/21
    assert _base_rate(0) == "1 per 2.5 successful attacks"  # OCG beginner, 5/2
    assert _base_rate(2) == "1 per successful attack"  # the parts game, 1

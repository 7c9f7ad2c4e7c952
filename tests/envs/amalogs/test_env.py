"""The ``amalogs_v2`` environment: PettingZoo API and seed tests for 1v1, 2v2 and 3v3, spaces,
hidden information (I12), exact state round trips, illegal actions and bad options."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from deckgym import envs
from deckgym.envs import amalogs_v2
from deckgym.envs.amalogs.actions import Action, Kind
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import IMPLEMENTED
from deckgym.envs.amalogs.encode import core_encoding
from deckgym.envs.amalogs.rules.geometry import square
from deckgym.envs.core.errors import IllegalActionError
from tests.envs.amalogs import fixtures as fx

SIZES = [(1, 1), (2, 2), (3, 3)]


@pytest.mark.parametrize("sizes", SIZES, ids=lambda s: f"{s[0]}v{s[1]}")
def test_api_test(sizes: tuple[int, int]) -> None:
    """PettingZoo's api_test."""
    api_test(amalogs_v2.env(team_sizes=sizes), num_cycles=200)


@pytest.mark.parametrize("sizes", SIZES, ids=lambda s: f"{s[0]}v{s[1]}")
def test_seed_test(sizes: tuple[int, int]) -> None:
    """PettingZoo's seed_test: the same seed gives the same game."""
    seed_test(lambda: amalogs_v2.env(team_sizes=sizes), num_cycles=200)


def test_registry_and_spaces() -> None:
    """Section 6/7.4: Discrete(119 + C), observation 1152 + O (C, O: largest core); agents player_0..player_{n-1}."""
    env = envs.make("amalogs_v2", team_sizes=(3, 2))
    env.reset(seed=0)
    enc = env.unwrapped.encoder
    assert env.possible_agents == [f"player_{i}" for i in range(5)]
    assert env.action_space("player_0").n == 119 + max(core_encoding(s).action_size for s in IMPLEMENTED)
    assert enc.core_obs_size == max(core_encoding(s).obs_size for s in IMPLEMENTED)
    assert enc.obs_size == 1152 + enc.core_obs_size
    assert (
        enc.layout["map"].size == 924
        and enc.layout["global"].size == 25
        and enc.layout["players"].size == 192
    )


@pytest.mark.parametrize("sizes", [(2, 2), (3, 3)], ids=["2v2", "3v3"])
def test_I12_observations_ignore_others_private_core_info_and_deck_orders(sizes: tuple[int, int]) -> None:
    """I12, 7.2, 7.3: resampling what a player cannot see (teammates' cards too) leaves its observation."""
    env = amalogs_v2.env(team_sizes=sizes)
    checked = 0
    for k, st in fx.sampled(env, seed=3, steps=3000, every=11):
        for seat in range(len(env.possible_agents)):
            fx.resampled(env, st, seat, k)
            checked += 1
    assert checked > 100


def test_I12_resampling_changes_hidden_cards() -> None:
    """The resample really redraws: another player's hand or deck order differs for some seed."""
    env = amalogs_v2.env()
    env.reset(seed=5)
    st = env.unwrapped.game
    while st.avatars[3].side is None:
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    changed = any(
        st.resample_hidden(0, random.Random(k)).avatars[3].side.to_dict() != st.avatars[3].side.to_dict()
        for k in range(5)
    )
    assert changed


def test_I7_masks_one_agent_at_a_time() -> None:
    """I7: exactly one agent has a non-zero mask while live; all zero after the end."""
    env = amalogs_v2.env(team_sizes=(2, 2))
    env.reset(seed=1)
    rng = random.Random(1)
    for _ in fx.walk(env, rng, 100_000):
        if env.unwrapped.game.done:
            break
        masks = [env.observe(a)["action_mask"] for a in env.possible_agents]
        live = [a for a, m in zip(env.possible_agents, masks, strict=True) if m.any()]
        assert live == [env.agent_selection]
    st = env.unwrapped.game
    assert st.done
    assert not any(env.observe(a)["action_mask"].any() for a in env.possible_agents)


def test_state_round_trip_is_exact() -> None:
    """to_dict / from_dict through JSON: same dict, same observations, same continuation."""
    fx.round_trip_tables(amalogs_v2.env(), seed=2, steps=1500, every=37)


def test_illegal_action_raises_and_changes_nothing() -> None:
    """An illegal index raises IllegalActionError naming action, decision and options; the state stays."""
    env = amalogs_v2.env(illegal_action="raise")
    env.reset(seed=4)
    st = env.unwrapped.game
    before = json.dumps(st.to_dict(), sort_keys=True)
    bad = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    assert "STARTUP_RULESET" in str(err.value) and "legal options" in str(err.value)
    assert json.dumps(st.to_dict(), sort_keys=True) == before
    with pytest.raises(IllegalActionError):
        env.step(119 + 77)
    with pytest.raises(IllegalActionError):
        env.step(10_000)


def test_illegal_engine_action_raises() -> None:
    """The engine rejects an action outside ``legal_actions`` and changes nothing."""
    env = amalogs_v2.env()
    env.reset(seed=4)
    st = env.unwrapped.game
    before = st.to_dict()
    with pytest.raises(IllegalActionError, match="RULESET"):
        st.apply((8, square(5, 3)))
    assert st.to_dict() == before


def test_core_actions_are_checked_against_the_running_table() -> None:
    """At a core decision: a core option not on the table's list, a meta action or a plain tuple
    that is no option is refused with the AMALOGS decision and options, and nothing changes; a
    legal core option given as a plain tuple is played."""
    env = amalogs_v2.env()
    env.reset(seed=4)
    st = env.unwrapped.game
    rng = random.Random(4)
    while st.table is None:
        st.apply(rng.choice(st.legal_actions()))
    legal = st.legal_actions()
    assert legal and all(a.kind == Kind.CORE for a in legal)
    before = st.to_dict()
    for bad in [Action(Kind.CORE, "no such option"), Action(Kind.END_TURN, 0), (Kind.CORE, None), "CORE"]:
        with pytest.raises(IllegalActionError, match="STARTUP_CORE") as err:
            st.apply(bad)
        assert "legal options" in str(err.value)
        assert st.to_dict() == before
    steps = st.table_steps
    st.apply(tuple(legal[0]))
    assert st.table_steps == steps + 1 or st.table is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"team_sizes": (0, 2)}, "team_sizes"),
        ({"team_sizes": (4, 1)}, "team_sizes"),
        ({"team_sizes": 2}, "team_sizes"),
        ({"pools": ["chess"]}, "unknown ruleset"),
        *[
            ({"pools": [RULESETS[s].name]}, "not available")
            for s in sorted(set(RULESETS) - set(IMPLEMENTED))[:1]
        ],
        ({"pools": [[1], [1]]}, "entries for 4 players"),
        ({"pools": [[]] * 4}, "non-empty"),
        ({"decks": {"medarot_ocg_advance": "beginner_blaze"}}, "30"),
        ({"pools": [1], "decks": {"medarot_ocg_beginner": "beginner_blaze"}}, "not in its pool"),
        ({"max_team_turns": 0}, "max_team_turns"),
        ({"duel_cap": -1}, "duel_cap"),
    ],
)
def test_bad_options_raise_clear_value_errors(kwargs: dict, message: str) -> None:
    """Bad options raise ValueError naming the problem."""
    with pytest.raises(ValueError, match=message):
        amalogs_v2.env(**kwargs)


def test_options_pools_and_decks() -> None:
    """Pools by name or slot, per player; decks per ruleset."""
    env = amalogs_v2.env(
        team_sizes=(1, 2),
        pools=[["medarot_ocg_beginner"], [1], [0, 4]],
        decks=[{"medarot_ocg_beginner": "beginner_sparks"}, None, None],
    )
    cfg = env.unwrapped.ruleset.config
    assert cfg.pools == ((0,), (1,), (0, 4))
    assert len(cfg.deck(0, 0)) == 15 and len(cfg.deck(1, 1)) == 30


def test_render_ansi() -> None:
    """The ansi render draws the MAP with both bases."""
    env = amalogs_v2.env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "[A]" in text and "[B]" in text and "AMALOGS" in text


def test_shaping_potential_follows_base_lives() -> None:
    """The training potential is the base-life difference over the winning margin, own team first,
    equal for teammates, opposite for the two teams, and clipped to [-0.5, 0.5]."""
    env = envs.make("amalogs_v2", team_sizes=(2, 2))
    env.reset(seed=3)
    ruleset, st = env.unwrapped.ruleset, env.unwrapped.game
    teams = [a.team for a in st.avatars]
    assert all(ruleset.potential(st, p) == 0.0 for p in range(4))  # both bases at their start
    st.life = [st.config.start_life + 9, st.config.start_life - 3]
    phi = [ruleset.potential(st, p) for p in range(4)]
    for p, team in enumerate(teams):
        assert phi[p] == pytest.approx((12 if team == 0 else -12) / (2 * st.config.start_life))
    st.life = [2 * st.config.start_life, 0]
    assert sorted({ruleset.potential(st, p) for p in range(4)}) == [-0.5, 0.5]

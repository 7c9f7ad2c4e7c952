"""The composite AMALOGS agent: the heuristic on the map, a card model per core game at the tables."""

from __future__ import annotations

import numpy as np
import pytest

from deckgym import agents, envs
from deckgym.agents.composite import DEFAULT_SLOTS, SLOT_MODELS, CompositeAgent, parse_slots, slots_for
from deckgym.envs.amalogs.encode import CORE_OFFSET, core_encoding


class _Recorder:
    """A card model that plays the last legal core action and records what it was shown."""

    def __init__(self, size: int) -> None:
        self._size = size
        self.seen: list[tuple[np.ndarray, np.ndarray]] = []

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, action_mask) -> int:
        self.seen.append((np.array(observation), np.array(action_mask)))
        return int(np.flatnonzero(action_mask)[-1])


def _play(env, players, seed, record):
    """Play one game, every seat by ``players[seat]``; ``record(state, seat, obs, mask, action)``."""
    env.reset(seed=seed)
    for p in players:
        p.reset(seed)
    raw = env.unwrapped
    while not raw.game.is_terminal():
        st = raw.game
        seat = st.current_player
        obs = raw.encoder.observe(st, seat)
        mask = raw.encoder.action_mask(st)
        a = players[seat].act(obs, mask)
        record(st, seat, obs, mask, a)
        env.step(a)


def test_the_composite_without_models_plays_as_the_heuristic():
    env = envs.make("amalogs_v2")
    comp = agents.make("composite:", "amalogs_v2")
    heur = agents.make("heuristic", "amalogs_v2")
    comp.bind(env)
    heur.bind(env)
    decisions = []

    def check(st, seat, obs, mask, a):
        decisions.append(a)
        assert a == heur.act(obs, mask)

    _play(env, [comp] * len(env.possible_agents), 11, check)
    assert len(decisions) > 50


@pytest.mark.parametrize("slot", [0, 2, 3])
def test_core_decisions_go_to_the_model_with_the_core_games_own_observation(slot):
    """At the tables of its slot the model is shown the core game's observation from the seat
    (byte for byte what the core env gives) and its mask; every other decision is the heuristic's."""
    env = envs.make("amalogs_v2", pools=[slot])
    enc = core_encoding(slot)
    rec = _Recorder(enc.obs_size)
    comp = CompositeAgent(slots=(slot,), models={slot: rec})
    heur = agents.make("heuristic", "amalogs_v2")
    comp.bind(env)
    heur.bind(env)
    core, other = [0], [0]

    def check(st, seat, obs, mask, a):
        if mask[CORE_OFFSET:].any():
            core[0] += 1
            seen_obs, seen_mask = rec.seen[-1]
            k = st.seat_of(seat)
            assert np.array_equal(seen_obs, enc.observe(st.table, k))
            assert list(np.flatnonzero(seen_mask)) == sorted(enc.legal_indices(st.table))
            assert a == CORE_OFFSET + int(np.flatnonzero(seen_mask)[-1])
        else:
            other[0] += 1
            assert a == heur.act(obs, mask)

    _play(env, [comp] * len(env.possible_agents), 5, check)
    assert core[0] == len(rec.seen) > 0 and other[0] > 0


def test_slots_are_checked_and_named():
    assert parse_slots("3, 0,3") == (0, 3)
    assert parse_slots("") == ()
    assert slots_for("composite:2,0") == (0, 2) and slots_for("composite:") == ()
    assert (
        slots_for("composite") == slots_for("ppo:pretrained") == DEFAULT_SLOTS
        and slots_for("heuristic") == ()
    )
    with pytest.raises(ValueError, match=r"unknown ruleset slot '7'; known: 0 \(medarot_ocg_beginner\)"):
        parse_slots("7")
    with pytest.raises(ValueError, match="unknown ruleset slot 'x'"):
        agents.make("composite:x", "amalogs_v2")
    with pytest.raises(ValueError, match="plays amalogs_v2 only"):
        agents.make("composite", "mow_v1")
    with pytest.raises(ValueError, match="no card model given for slot 2"):
        CompositeAgent(slots=(2,), models={})
    assert set(SLOT_MODELS) == {0, 1, 2, 3, 4}


def test_the_composite_refuses_another_env():
    comp = CompositeAgent(slots=())
    with pytest.raises(ValueError, match="AMALOGS only"):
        comp.bind(envs.make("mow_v1"))


@pytest.mark.train
def test_pretrained_amalogs_is_the_composite_with_the_shipped_card_models():
    pytest.importorskip("sb3_contrib")
    from deckgym.agents.composite import DEFAULT_SLOTS
    from deckgym.agents.ppo import PPOAgent
    from deckgym.agents.pretrained import MODELS

    agent = agents.make("ppo:pretrained", "amalogs_v2")
    assert isinstance(agent, CompositeAgent) and agent.name == "ppo:pretrained"
    assert agent.slots == DEFAULT_SLOTS
    assert all(isinstance(m, PPOAgent) for m in agent.models.values())
    # the shipped map policy plays the map where one is shipped, and reads the map view
    assert (agent.map_model is not None) == (MODELS / "amalogs_v2.zip").is_file()
    if agent.map_model is not None:
        from deckgym.agents.composite import map_size

        assert agent.map_model._size == map_size(envs.make("amalogs_v2"))
    env = envs.make("amalogs_v2")
    agent.bind(env)
    env.reset(seed=3)
    raw = env.unwrapped
    steps = 0
    while not raw.game.is_terminal() and steps < 400:
        st = raw.game
        mask = raw.encoder.action_mask(st)
        a = agent.act(raw.encoder.observe(st, st.current_player), mask)
        assert mask[a]
        env.step(a)
        steps += 1


@pytest.mark.train
def test_amalogs_offers_the_composite_as_medium():
    pytest.importorskip("sb3_contrib")
    from deckgym.agents.play.session import levels_for

    for options in ({}, {"team_sizes": [3, 3]}):
        levels = {lv.name: lv.spec for lv in levels_for("amalogs_v2", options)}
        assert levels["Medium"] == "ppo:pretrained"
        assert isinstance(agents.make(levels["Medium"], "amalogs_v2", **options), CompositeAgent)


def test_a_match_of_the_composite_over_forked_workers_ends_after_torch_ran_in_the_parent():
    """A worker forked after the parent ran torch used to wait forever on the inherited thread pool."""
    import subprocess
    import sys

    code = (
        "import numpy as np, torch\n"
        "from deckgym.agents import arena\n"
        "torch.set_num_threads(2); torch.ones(64, 64) @ torch.ones(64, 64)  # the parent's pool runs\n"
        "r = arena.match('composite', 'heuristic', 'amalogs_v2', games=4, seed=3, workers=2)\n"
        "print(r.games, r.wins + r.draws + r.losses)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["4", "4"]

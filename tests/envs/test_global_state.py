"""PettingZoo's global state, ``env.state()`` / ``env.state_space``, in every ruleset.

``state()`` is the whole game as a float32 vector (every seat's own observation, then the
deck orders; ``encoder.state_layout``) for centralized critics and oracle training, while the
engine state is ``env.unwrapped.game``. The global state must see what the seats cannot
(resampling hidden information changes it), must round-trip through ``to_dict``, and no
observation may be derived from it.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import state_test

from deckgym import envs
from deckgym.envs.core.errors import StateError
from tests.envs.positions import random_positions

#: Every env with its option sets (modes, team sizes, fixed decks, caps).
OPTION_SETS = [
    ("medarot_ocg_v1", {"mode": "beginner"}),
    ("medarot_ocg_v1", {"mode": "normal"}),
    ("medarot_ocg_v1", {"mode": "advance"}),
    ("medarot_ocg_v1", {"mode": "advance", "max_turns": 6}),
    ("medarot_parts_v1", {}),
    ("mow_v1", {}),
    ("mow_v1", {"max_turns": 8}),
    ("amalogs_v2", {"team_sizes": (1, 1)}),
    ("amalogs_v2", {"team_sizes": (2, 2)}),
    ("amalogs_v2", {"team_sizes": (3, 3)}),
    ("amalogs_v2", {"team_sizes": (1, 1), "pools": ["master_of_the_world", "medarot_parts"]}),
]
IDS = [f"{n}-{k}" for n, k in OPTION_SETS]


def _env(name, kwargs, **more):
    return envs.make(name, **kwargs, **more)


@pytest.mark.parametrize(("name", "kwargs"), OPTION_SETS, ids=IDS)
def test_pettingzoo_state_test(name, kwargs):
    """PettingZoo's own ``state_test``.

    It samples actions without the mask, so the env runs with ``illegal_action="penalize"``.
    Its last part reads only ``reset``, ``state_space`` and ``state()``; a turn-based env is not
    parallelizable, so the AEC env itself stands in for the parallel one there.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MoW's unbounded scaled values (D48) warn, as intended
        state_test(_env(name, kwargs, illegal_action="penalize"), _env(name, kwargs), num_cycles=50)


@pytest.mark.parametrize(("name", "kwargs"), OPTION_SETS, ids=IDS)
def test_state_is_in_its_space_along_legal_games(name, kwargs):
    env = _env(name, kwargs)
    layout = env.unwrapped.encoder.state_layout(env.max_num_agents)
    assert env.state_space.shape == (max(s.stop for s in layout.values()),)
    n = 0
    for e in random_positions(env, games=2, every=7):
        s = e.state()
        assert s.dtype == np.float32 and env.state_space.contains(s)
        for i in range(env.max_num_agents):  # every seat's own observation is a piece of it
            seat_obs = e.unwrapped.encoder.observe(e.unwrapped.game, i)
            assert np.array_equal(s[layout[f"seat_{i}"]], seat_obs)
        n += 1
    assert n > 10


def test_state_before_reset_and_the_engine_state_name():
    env = envs.make("medarot_ocg_v1")
    with pytest.raises(StateError, match="reset"):
        env.state()
    env.reset(seed=3)
    assert callable(env.state) and not callable(env.unwrapped.game)
    assert env.unwrapped.game.legal_actions()
    assert not hasattr(type(env.unwrapped), "engine_state")


@pytest.mark.parametrize(
    ("name", "kwargs"), OPTION_SETS[:1] + OPTION_SETS[2:3] + OPTION_SETS[4:6] + OPTION_SETS[7:9]
)
def test_resampling_hidden_cards_changes_the_global_state_but_never_the_observation(name, kwargs):
    env = _env(name, kwargs)
    enc = env.unwrapped.encoder
    rng = random.Random(5)
    changed = positions = 0
    for e in random_positions(env, games=3, every=5):
        st = e.unwrapped.game
        seat = st.current_player
        base_obs, base_state = enc.observe(st, seat), enc.global_state(st)
        for _ in range(4):
            other = st.resample_hidden(seat, rng)
            assert np.array_equal(enc.observe(other, seat), base_obs)
            changed += not np.array_equal(enc.global_state(other), base_state)
        positions += 1
    assert positions >= 10 and changed >= positions  # most resamples change what nobody sees


@pytest.mark.parametrize(("name", "kwargs"), OPTION_SETS[2:3] + OPTION_SETS[4:6] + OPTION_SETS[8:9])
def test_global_state_round_trips_through_to_dict(name, kwargs):
    env = _env(name, kwargs)
    other = _env(name, kwargs)
    for e in random_positions(env, games=1, every=11):
        other.reset(options={"state": e.unwrapped.game.to_dict()})
        assert np.array_equal(other.state(), e.state())


class _NoGlobalState:
    """An encoder whose ``global_state`` raises; everything else is the real encoder's."""

    def __init__(self, real: object) -> None:
        self.real = real

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def global_state(self, *_a: object, **_k: object) -> None:
        raise AssertionError("an observation path read the global state")


@pytest.mark.parametrize(("name", "kwargs"), OPTION_SETS[2:3] + OPTION_SETS[4:6] + OPTION_SETS[8:9])
def test_no_observation_is_derived_from_the_global_state(name, kwargs):
    """With ``global_state`` broken, games, observations, masks and renders still work."""
    env = _env(name, kwargs, render_mode="ansi")
    env.unwrapped.encoder = _NoGlobalState(env.unwrapped.encoder)
    steps = sum(1 for e in random_positions(env, games=1, every=1) if e.render())
    assert steps > 20
    with pytest.raises(AssertionError, match="global state"):
        env.state()
    # the env is the only caller of global_state, so the broken one above sees every call
    root = Path(__file__).resolve().parents[2] / "envs"
    assert [
        p.relative_to(root).as_posix() for p in root.rglob("*.py") if ".global_state(" in p.read_text()
    ] == ["aec.py"]

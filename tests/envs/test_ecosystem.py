"""The ecosystem's own checkers on every variant, with the envs' defaults.

PettingZoo: ``state_test`` and, through ``turn_based_aec_to_parallel``, ``parallel_api_test``
and ``parallel_seed_test`` (they sample actions without the mask, which the default
``illegal_action="penalize"`` answers as PettingZoo's classic envs do). Gymnasium: every
variant's single-agent id and its ``check_env``. RLlib: its env checker.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test, parallel_seed_test, state_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from deckgym import envs
from deckgym.envs.core.errors import IllegalActionError, IllegalActionWarning
from tests.envs.variants import AMALOGS, EVERY, MOW, OCG, PARTS, ids

VARIANTS = EVERY
IDS = ids(VARIANTS)
#: One variant of each card game and AMALOGS 1v1.
TWO_PLAYER = [OCG[0], PARTS, MOW, AMALOGS[0]]


@pytest.fixture(autouse=True)
def _quiet_illegal_actions():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        yield


@pytest.mark.parametrize(("name", "kw"), VARIANTS, ids=IDS)
def test_pettingzoo_state_and_parallel_checkers_pass_with_the_defaults(name, kw):
    state_test(envs.make(name, **kw), turn_based_aec_to_parallel(envs.make(name, **kw)), num_cycles=100)
    parallel_api_test(turn_based_aec_to_parallel(envs.make(name, **kw)), num_cycles=100)
    parallel_seed_test(lambda: turn_based_aec_to_parallel(envs.make(name, **kw)), num_cycles=100)


@pytest.mark.parametrize(("name", "kw"), TWO_PLAYER, ids=ids(TWO_PLAYER))
def test_the_default_ends_the_game_on_an_illegal_action_and_raise_stays_available(name, kw):
    env = envs.make(name, **kw)
    env.reset(seed=5)
    offender = env.agent_selection
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning, match=f"illegal action {illegal} = .* by {offender}"):
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0 and sum(env.rewards.values()) == -1.0
    assert env.infos[offender]["illegal_action"] == illegal

    strict = envs.make(name, illegal_action="raise", **kw)
    strict.reset(seed=5)
    before = strict.unwrapped.game.to_dict()
    with pytest.raises(IllegalActionError, match="legal options"):
        strict.step(illegal)
    assert strict.unwrapped.game.to_dict() == before  # unchanged


@pytest.mark.parametrize("env_id", list(envs.gym_ids()))
def test_gymnasium_make_and_check_env_on_every_variant(env_id):
    env = gymnasium.make(env_id)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=42)
    again, info2 = env.reset(seed=42)
    assert np.array_equal(obs, again) and info["seat"] == info2["seat"]  # the seat comes from the seed
    assert np.array_equal(info["action_mask"], env.unwrapped.action_masks()) and info["action_mask"].any()
    action = int(np.flatnonzero(info["action_mask"])[0])
    _obs, _r, _term, _trunc, info = env.step(action)
    assert np.array_equal(info["action_mask"], env.unwrapped.action_masks())


def test_every_gymnasium_id_enters_through_the_package_roots_entry_point():
    """The ids name ``deckgym.gym_entry:make`` (a string: ``deckgym.envs`` imports nothing above it)."""
    import deckgym.gym_entry

    specs = [gymnasium.spec(env_id) for env_id in envs.gym_ids()]
    assert specs and {spec.entry_point for spec in specs} == {deckgym.gym_entry.ENTRY_POINT}
    assert {spec.vector_entry_point for spec in specs} == {deckgym.gym_entry.VECTOR_ENTRY_POINT}
    env = deckgym.gym_entry.make(env_name="mow_v1", opponent="random")
    assert env.reset(seed=1)[1]["action_mask"].any()


def test_make_vec_gives_the_batched_env_and_sync_on_request():
    batch = gymnasium.make_vec("deckgym/MasterOfTheWorld-v1", 3, opponent="random")
    assert type(batch).__name__ == "BatchEnv" and batch.num_envs == 3 and batch.opponent_names == ["random"]
    obs, _info = batch.reset(seed=1)
    single = gymnasium.make("deckgym/MasterOfTheWorld-v1", opponent="random")
    assert np.array_equal(obs[2], single.reset(seed=3)[0])  # game i: the single env's seed + i
    sync = gymnasium.make_vec("deckgym/MasterOfTheWorld-v1", 2, vectorization_mode="sync", opponent="random")
    assert type(sync).__name__ == "SyncVectorEnv"


def test_gymnasium_seats_alternate_after_a_seeded_reset():
    env = gymnasium.make("deckgym/MedarotOCG-beginner-v1", opponent="random")
    seats = [env.reset(seed=7)[1]["seat"]] + [env.reset()[1]["seat"] for _ in range(3)]
    assert seats == [1, 0, 1, 0]  # 7 mod 2 first, then every seat in turn
    assert env.reset(seed=8)[1]["seat"] == 0


@pytest.mark.parametrize(("name", "kw"), VARIANTS, ids=IDS)
def test_rllibs_env_checker_builds_and_steps_every_variant_with_the_defaults(name, kw):
    pytest.importorskip("ray.rllib", reason="the [rllib] extra (make test installs it)")
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from deckgym.envs.rllib import RllibEnv

    check_multiagent_environments(RllibEnv({"env": name, **kw}))


@pytest.mark.parametrize(("old", "new"), [("medarot_parts_v0", "medarot_parts_v1"), ("mow_v0", "mow_v1")])
def test_every_old_id_is_refused_with_its_new_one(old, new):
    with pytest.raises(KeyError, match=f"'{old}' is now '{new}': its .* starter decks were rebalanced"):
        envs.make(old)
    assert old not in envs.names() and new in envs.names()


def test_an_old_id_names_the_new_one_and_what_changed(tmp_path):
    import subprocess
    import sys

    with pytest.raises(KeyError, match="'medarot_ocg_v0' is now 'medarot_ocg_v1': its starter decks"):
        envs.make("medarot_ocg_v0", mode="beginner")
    done = subprocess.run(
        [sys.executable, "-m", "deckgym", "evaluate", "medarot_ocg_v0", "--games", "2"],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        (
            "Error: environment 'medarot_ocg_v0' is now 'medarot_ocg_v1': its starter decks were "
            "rebalanced and its observation grew from 4,761 to 4,813 entries"
        )
    ]

"""The imitation data before PPO (agents.training.imitation): its teacher and its worker pool."""

from __future__ import annotations

import numpy as np
import pytest

import agents as agent_lib
import envs
from agents.training import TrainConfig, heuristic_dataset, train

pytestmark = pytest.mark.train


def _data(**settings):
    cfg = TrainConfig(env="medarot_parts_v0", env_kwargs={}, pretrain_games=3, progress_bar=False, **settings)
    return heuristic_dataset(cfg)


@pytest.fixture(scope="module")
def search_data():
    return _data(teacher="search:1", pretrain_samples=60)


def test_the_data_does_not_depend_on_the_number_of_workers(search_data):
    two = _data(teacher="search:1", pretrain_samples=60, teacher_workers=2)
    for one_part, two_part in zip(search_data[:4], two[:4], strict=True):
        assert np.array_equal(one_part, two_part)


def test_the_search_teacher_is_imitated_and_plays_only_legal_moves(search_data):
    obs, masks, acts, rets, states = search_data
    assert states is None
    # whole games are kept until the cap: at least 60 decisions, and fewer than one more game
    assert 60 <= len(acts) < 60 + 400
    assert len(obs) == len(masks) == len(acts) == len(rets)
    assert all(masks[i, a] for i, a in enumerate(acts))  # every imitated action was legal
    assert all(m.sum() > 1 for m in masks)  # forced moves teach nothing and are left out
    # each return is the game's +-1 discounted by the seat's later decisions: 0.995 ** k
    k = np.log(np.abs(rets[rets != 0]).astype(np.float64)) / np.log(0.995)
    assert len(k) and np.allclose(k, np.round(k), atol=1e-2)
    # the teacher's choices are the search's: replay the first game with the same seeds
    env = envs.make("medarot_parts_v0")
    raw = env.unwrapped
    cfg = TrainConfig(env="medarot_parts_v0", env_kwargs={})
    env.reset(seed=cfg.seed * 1_000_003 + 0)
    players = [agent_lib.make("search:1", "medarot_parts_v0", seed=cfg.seed + i) for i in range(2)]
    for i, p in enumerate(players):
        p.bind(env)
        p.reset(seed=(cfg.seed * 1_000_003 + 0) * 16 + i)
    k = 0
    while not raw.game.is_terminal() and k < 20:
        mask = raw.encoder.action_mask(raw.game)
        a = players[raw.game.current_player].act(None, mask)
        if mask.sum() > 1:
            assert a == acts[k]
            k += 1
        env.step(a)
    assert k == 20


def test_a_search_teacher_plays_otherwise_than_the_heuristic(search_data):
    heur = _data(pretrain_samples=60)
    n = min(len(heur[2]), len(search_data[2]))
    assert not np.array_equal(heur[2][:n], search_data[2][:n])


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"teacher": "minimax"}, "teacher must be 'heuristic', 'search' or 'search:WORLDS', got 'minimax'"),
        ({"teacher": "search:x"}, "got 'search:x'"),
        ({"teacher_workers": 0}, "teacher_workers must be at least 1, got 0"),
    ],
)
def test_bad_teacher_settings_are_refused_before_training(tmp_path, settings, message):
    with pytest.raises(ValueError, match=message):
        train(TrainConfig(out=str(tmp_path), progress_bar=False, **settings))

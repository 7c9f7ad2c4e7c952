"""The imitation data before PPO (agents.training.imitation): its teacher and its worker pool."""

from __future__ import annotations

import numpy as np
import pytest

from deckgym import agents as agent_lib
from deckgym import envs
from deckgym.agents.training import TrainConfig, heuristic_dataset, train
from tests.agents.tiny_runs import quick_config

pytestmark = pytest.mark.train


def _data(**settings):
    cfg = TrainConfig(env="medarot_parts_v1", env_kwargs={}, pretrain_games=3, progress_bar=False, **settings)
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
    env = envs.make("medarot_parts_v1")
    raw = env.unwrapped
    cfg = TrainConfig(env="medarot_parts_v1", env_kwargs={})
    env.reset(seed=cfg.seed * 1_000_003 + 0)
    players = [agent_lib.make("search:1", "medarot_parts_v1", seed=cfg.seed + i) for i in range(2)]
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
        ({"teacher_workers": 0}, "teacher_workers must be an integer in 1..1024, got 0"),
    ],
)
def test_bad_teacher_settings_are_refused_before_training(tmp_path, settings, message):
    with pytest.raises(ValueError, match=message):
        train(TrainConfig(out=str(tmp_path), progress_bar=False, **settings))


def _last_legal(policy, observation, mask, **_):
    """A stand-in policy for DAgger's games: the last legal action."""
    return int(np.flatnonzero(mask)[-1])


def test_dagger_data_is_the_policys_positions_labelled_by_the_teacher(monkeypatch):
    from deckgym.agents.training import imitation, policy

    monkeypatch.setattr(policy, "policy_action", _last_legal)
    cfg = TrainConfig(env="medarot_parts_v1", env_kwargs={}, dagger_games=2, progress_bar=False)
    obs, masks, acts, rets, states = imitation.student_dataset(None, cfg, round_=1)
    assert states is None and len(acts) == len(obs) == len(masks) == len(rets) > 0
    # replay both games: the policy (last legal action) in seat g % 2, the heuristic elsewhere
    env = envs.make("medarot_parts_v1")
    raw = env.unwrapped
    heuristic = agent_lib.make("heuristic", "medarot_parts_v1")
    heuristic.bind(env)
    k = 0
    for g in range(2):
        env.reset(seed=imitation.DAGGER_SEEDS + 1 * 2 + g)  # round 1 of 2-game rounds, seed 0
        first = k
        while not raw.game.is_terminal():
            mask = raw.encoder.action_mask(raw.game)
            if raw.game.current_player == g % 2 and mask.sum() > 1:
                assert np.array_equal(obs[k], raw.encoder.observe(raw.game, g % 2).astype(np.float16))
                assert np.array_equal(masks[k], mask)
                assert acts[k] == heuristic.act(None, mask)  # the label is the teacher's choice
                k += 1
                env.step(_last_legal(None, None, mask))  # the move played is the policy's
            else:
                env.step(
                    heuristic.act(None, mask) if raw.game.current_player != g % 2 else int(mask.argmax())
                )
        result = raw.game.returns()[g % 2]
        expected = [result * 0.995**j for j in reversed(range(k - first))]
        assert np.allclose(rets[first:k], expected)
    assert k == len(acts)
    # the policy and the teacher disagree somewhere, or DAgger would teach nothing here
    assert any(acts[i] != np.flatnonzero(masks[i])[-1] for i in range(len(acts)))


def test_dagger_rounds_add_the_policys_decisions_to_the_imitation(tmp_path):
    logs: list[str] = []
    dagger = {"dagger_rounds": 2, "dagger_games": 2, "dagger_epochs": 1}
    cfg = quick_config(tmp_path, "medarot_parts_v1", timesteps=0, pretrain_games=4, **dagger)
    train(cfg, log=logs.append)
    rounds = [m for m in logs if m.startswith("DAgger round")]
    assert [m.split(":")[0] for m in rounds] == ["DAgger round 1/2", "DAgger round 2/2"]
    epochs = [m for m in logs if m.startswith("DAgger") and "epoch" in m]
    assert len(epochs) == 2  # one pass over the grown data after each round


def test_bad_dagger_settings_are_refused_before_training(tmp_path):
    with pytest.raises(ValueError, match=r"dagger_rounds must be an integer in 0\.\.100, got -1"):
        train(TrainConfig(out=str(tmp_path), progress_bar=False, dagger_rounds=-1))


def test_a_dagger_teacher_labels_the_rounds_while_the_games_stay_against_the_teacher(monkeypatch):
    from deckgym.agents.training import imitation, policy

    monkeypatch.setattr(policy, "policy_action", _last_legal)
    base = {"env": "medarot_parts_v1", "env_kwargs": {}, "dagger_games": 1, "progress_bar": False}
    own = imitation.student_dataset(None, TrainConfig(**base), round_=0)
    other = imitation.student_dataset(None, TrainConfig(**base, dagger_teacher="search:1"), round_=0)
    # the same game (the policy's moves and the teacher's replies), other labels
    assert np.array_equal(own[0], other[0]) and np.array_equal(own[1], other[1])
    assert np.allclose(own[3], other[3])
    assert all(other[1][i, a] for i, a in enumerate(other[2]))
    assert not np.array_equal(own[2], other[2])


def test_a_bad_dagger_teacher_is_refused(tmp_path):
    with pytest.raises(ValueError, match="dagger_teacher must be 'heuristic', 'search' or 'search:WORLDS'"):
        train(TrainConfig(out=str(tmp_path), progress_bar=False, dagger_teacher="mcts"))

"""The batched env (``envs.vector``): the single-learner env's games, stepped many at once.

Each game of a ``BatchEnv`` seeded with ``s`` must play, move for move, what the single-learner
env of ``gymnasium.make`` plays after ``reset(seed=s + i)`` (the same seat, opponent and game
seeds), through autoresets; the process-split env must play the same games as the batch.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from deckgym import agents, envs
from deckgym.envs.batch import BatchEnv, ProcessBatchEnv
from deckgym.envs.core.errors import IllegalActionError

OCG = ("medarot_ocg_v1", {"mode": "beginner"})


def _gym_id(name: str, options: dict) -> str:
    game = envs.games.game(name)
    return game.gym_id(game.variant_of(options))


def _pick(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(1)


def _compare_with_single(
    name: str, options: dict, opponent: str, steps: int, n: int = 3, seed: int = 5
) -> int:
    """Step a batch and ``n`` single envs side by side; assert every array agrees; return the episodes ended."""
    batch = agents.vector(name, n, opponent, **options)
    obs, info = batch.reset(seed=seed)
    singles = [gym.make(_gym_id(name, options), opponent=opponent) for _ in range(n)]
    outs = [s.reset(seed=seed + i) for i, s in enumerate(singles)]
    rng = np.random.default_rng(1)
    ended = 0
    for t in range(steps):
        for i in range(n):
            assert np.array_equal(obs[i], outs[i][0]), f"step {t}, game {i}: observations differ"
            assert np.array_equal(info["action_mask"][i], outs[i][1]["action_mask"]), f"step {t}, game {i}"
            assert info["seat"][i] == outs[i][1]["seat"]
        acts = _pick(rng, info["action_mask"])
        obs, rewards, terms, truncs, info = batch.step(acts)
        for i, single in enumerate(singles):
            o, r, term, trunc, inf = single.step(int(acts[i]))
            assert (r, term, trunc) == (rewards[i], terms[i], truncs[i]), f"step {t}, game {i}"
            if term or trunc:
                ended += 1
                assert info["_final_obs"][i] and np.array_equal(info["final_obs"][i], o)
                assert info["final_info"][i]["outcome"] == inf["outcome"]
                assert info["_episode"][i] and info["episode"]["r"][i] == r
                o, inf = single.reset()
            else:
                assert "_final_obs" not in info or not info["_final_obs"][i]
            outs[i] = (o, inf)
    batch.close()
    return ended


@pytest.mark.parametrize(
    ("name", "options", "opponent"),
    [
        ("medarot_ocg_v1", {"mode": "beginner"}, "random"),
        ("medarot_ocg_v1", {"mode": "advance"}, "heuristic"),
        ("medarot_parts_v1", {}, "heuristic"),
        ("mow_v1", {}, "random"),
    ],
)
def test_each_game_plays_what_the_single_env_plays_on_its_seed(
    name: str, options: dict, opponent: str
) -> None:
    assert _compare_with_single(name, options, opponent, steps=120) >= 2  # autoresets were crossed


def test_amalogs_games_match_the_single_env_too() -> None:
    _compare_with_single("amalogs_v2", {"team_sizes": (1, 1)}, "random", steps=40, n=2)


def test_shapes_spaces_and_same_step_autoreset() -> None:
    env = BatchEnv(*OCG[:1], 8, **OCG[1])
    obs, info = env.reset(seed=0)
    assert obs.shape == (8, env.encoder.obs_size) and obs.dtype == np.float32
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (8, env.encoder.action_size) and info["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(0)
    finished = 0
    while finished < 8:
        obs, rewards, terms, truncs, info = env.step(_pick(rng, info["action_mask"]))
        assert env.observation_space.contains(obs) and rewards.shape == (8,)
        done = terms | truncs
        finished += int(done.sum())
        for i in np.flatnonzero(done):
            assert rewards[i] in (-1.0, 0.0, 1.0)
            assert info["episode"]["l"][i] >= 1 and info["final_info"][i]["reason"]
            # the game has started again: the row is a new game's first observation, with legal actions
            assert info["action_mask"][i].any() and not env.states[i].is_terminal() and env._lengths[i] == 0
    assert env.action_masks().shape == (8, env.encoder.action_size)


def test_one_seed_gives_the_same_trajectories_every_time() -> None:
    def run() -> list[np.ndarray]:
        env = envs.vector(OCG[0], 4, "random", **OCG[1])
        obs, info = env.reset(seed=11)
        rng = np.random.default_rng(3)
        seen = [obs]
        for _ in range(60):
            obs, rewards, _te, _tr, info = env.step(_pick(rng, info["action_mask"]))
            seen += [obs, rewards]
        return seen

    first, second = run(), run()
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_a_list_of_seeds_seeds_each_game() -> None:
    env = envs.vector(OCG[0], 2, "random", **OCG[1])
    a, _ = env.reset(seed=[7, 9])
    b, _ = env.reset(seed=7)
    assert np.array_equal(a[0], b[0]) and not np.array_equal(a[1], b[1])
    with pytest.raises(ValueError, match="2 seeds for 3 games"):
        envs.vector(OCG[0], 3, "random", **OCG[1]).reset(seed=[1, 2])


def test_an_illegal_action_raises_before_any_game_moves() -> None:
    env = envs.vector(OCG[0], 3, "random", **OCG[1])
    _obs, info = env.reset(seed=0)
    before = [st.to_dict() for st in env.states]
    acts = info["action_mask"].argmax(1)
    acts[2] = int(np.flatnonzero(~info["action_mask"][2])[0])
    with pytest.raises(IllegalActionError, match="game 2 of the batch"):
        env.step(acts)
    assert [st.to_dict() for st in env.states] == before


def test_penalize_ends_only_the_offending_game_with_minus_one() -> None:
    env = envs.vector(OCG[0], 3, "random", illegal_action="penalize", **OCG[1])
    _obs, info = env.reset(seed=0)
    acts = info["action_mask"].argmax(1)
    acts[1] = int(np.flatnonzero(~info["action_mask"][1])[0])
    _obs, rewards, terms, _tr, info = env.step(acts)
    assert rewards[1] == -1.0 and terms[1] and info["illegal_action"][1] == acts[1]
    assert info["_illegal_action"].tolist() == [False, True, False]


def test_a_pool_draws_opponents_with_the_single_envs_draws() -> None:
    env = agents.vector(OCG[0], 6, ["random", "heuristic"], weights=[1.0, 3.0], **OCG[1])
    env.reset(seed=0)
    names = ["random" if a is None else a.name for a in env._current]
    rng_names = []
    for i in range(6):  # the single env's draw: its seeded generator, one seat draw skipped ("alternate")
        rng = np.random.default_rng(i)
        rng_names.append(["random", "heuristic"][int(rng.choice(2, p=np.array([0.25, 0.75])))])
    assert names == rng_names
    env.set_pool(["random"], [1.0])
    env.reset()
    assert all(a is None for a in env._current)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": 0}, "num_envs must be"),
        ({"opponent": 3}, "opponent must be"),
        ({"learner_seat": 5}, "learner_seat must be"),
        ({"illegal_action": "ignore"}, "illegal_action must be"),
        ({"workers": 0}, "workers must be"),
    ],
)
def test_bad_options_are_refused_by_name(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        envs.vector(OCG[0], **{"num_envs": 2, **kwargs}, **OCG[1])


def test_worker_processes_play_the_same_games_as_one_batch() -> None:
    one = envs.vector(OCG[0], 5, "random", **OCG[1])
    two = envs.vector(OCG[0], 5, "random", workers=2, **OCG[1])
    assert isinstance(two, ProcessBatchEnv)
    try:
        a, ia = one.reset(seed=3)
        b, ib = two.reset(seed=3)
        assert np.array_equal(ia["seat"], ib["seat"])
        bad = ib["action_mask"].argmax(1)
        bad[4] = int(np.flatnonzero(~ib["action_mask"][4])[0])  # game 4 is a worker's
        with pytest.raises(IllegalActionError, match="game 4 of the batch"):
            two.step(bad)  # refused before any process moved a game: the two still agree below
        rng = np.random.default_rng(0)
        for _ in range(50):
            assert np.array_equal(a, b) and np.array_equal(ia["action_mask"], ib["action_mask"])
            acts = _pick(rng, ia["action_mask"])
            a, ra, ta, _tr, ia = one.step(acts)
            b, rb, tb, _tr2, ib = two.step(acts)
            assert (
                np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ia["seat"], ib["seat"])
            )
            if ta.any():
                i = int(np.flatnonzero(ta)[0])
                assert np.array_equal(ia["final_obs"][i], ib["final_obs"][i])
        assert np.array_equal(one.action_masks(), two.action_masks())
    finally:
        two.close()
    assert all(not p.is_alive() for p in two._procs)


def test_envs_vector_leaves_agent_specs_to_the_agents_layer() -> None:
    with pytest.raises(ValueError, match=r"deckgym.agents.vector"):
        envs.vector(OCG[0], 2, "heuristic", **OCG[1])
    with pytest.raises(ValueError, match="unknown agent|spec"):
        agents.vector(OCG[0], 2, "grandmaster", **OCG[1])
    heuristic = agents.make("heuristic", OCG[0])
    env = envs.vector(OCG[0], 2, lambda i: agents.make("heuristic", OCG[0], seed=i), **OCG[1])
    assert env.opponent_names == [heuristic.name]


def test_a_worker_error_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="opponent must be"):
        envs.vector(OCG[0], 4, 3.5, workers=2, **OCG[1])


def test_maskable_ppo_learns_on_the_batch_through_the_sb3_adapter() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from deckgym.agents.training.batch_vec import BatchVecEnv

    vec = VecMonitor(BatchVecEnv(agents.vector(OCG[0], 8, ["random", "heuristic"], shaping=1.0, **OCG[1])))
    vec.seed(0)
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=64, n_epochs=1, device="cpu", seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    vec.env_method("set_pool", ["random"], [1.0])
    masks = np.stack(vec.env_method("action_masks"))
    assert masks.shape == (8, vec.action_space.n) and masks.any(axis=1).all()
    with pytest.raises(AttributeError, match="no per-game method"):
        vec.env_method("render_board")
    vec.close()


#: Two PPO rollouts of 256 steps over 4 games, no imitation, heuristic and random opponents.
SMALL_RUN = {
    "n_envs": 4,
    "timesteps": 512,
    "n_steps": 256,
    "batch_size": 64,
    "n_epochs": 1,
    "pretrain_games": 0,
    "final_games": 2,
    "opponents": {"heuristic": 0.7, "random": 0.3},
}


def test_deckgym_train_on_the_batch_trains_the_same_model_as_on_dummy_envs(tmp_path) -> None:
    """``vec_env="batch"`` plays the same games as ``"dummy"``: the same seed gives the same weights."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from deckgym.agents.training import train
    from tests.agents.tiny_runs import quick_config

    def weights(vec_env: str) -> torch.Tensor:
        out = tmp_path / vec_env
        cfg = quick_config(out, OCG[0], env_kwargs=dict(OCG[1]), vec_env=vec_env, **SMALL_RUN)
        train(cfg, log=lambda _line: None)
        model = MaskablePPO.load(out / "model.zip", device="cpu")
        return torch.cat([p.detach().flatten() for p in model.policy.parameters()])

    assert torch.equal(weights("dummy"), weights("batch"))


@pytest.mark.parametrize("workers", [1, 2])
def test_dict_observations_carry_the_mask_as_rllibs_masking_modules_read_it(workers: int) -> None:
    env = envs.vector(OCG[0], 4, "random", observation="dict", workers=workers, **OCG[1])
    plain = envs.vector(OCG[0], 4, "random", **OCG[1])
    try:
        obs, info = env.reset(seed=2)
        same, _ = plain.reset(seed=2)
        assert set(obs) == {"observations", "action_mask"} and env.observation_space.contains(obs)
        assert env.single_observation_space["action_mask"].shape == (env.single_action_space.n,)
        assert np.array_equal(obs["observations"], same)
        assert np.array_equal(obs["action_mask"], info["action_mask"].astype(np.float32))
        rng = np.random.default_rng(0)
        ended = 0
        while ended == 0:
            obs, _r, terms, truncs, info = env.step(_pick(rng, info["action_mask"]))
            for i in np.flatnonzero(terms | truncs):
                ended += 1
                final = info["final_obs"][i]
                assert set(final) == {"observations", "action_mask"} and not final["action_mask"].any()
        with pytest.raises(ValueError, match="observation must be one of"):
            envs.vector(OCG[0], 2, "random", observation="tuple", **OCG[1])
    finally:
        env.close()

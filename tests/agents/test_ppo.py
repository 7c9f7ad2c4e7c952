"""MaskablePPO runs train, save, reload and play legal games (a fuller run on medarot_ocg_v1)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from deckgym import envs
from deckgym.agents.arena import match, play_game
from deckgym.agents.ppo import PPOAgent
from deckgym.agents.training import plot_learning_curve, train
from tests.agents.checked import Checked
from tests.agents.tiny_runs import quick_config, tiny_config
from tests.envs.positions import live_observations

pytestmark = pytest.mark.train


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("ppo")
    cfg = tiny_config(
        out,
        timesteps=3000,
        n_steps=512,
        eval_every=1500,
        eval_games=4,
        snapshot_every=1000,
        checkpoint_every=2000,
        pretrain_games=16,
        pretrain_epochs=4,
    )
    lines: list[str] = []
    summary = train(cfg, log=lines.append)
    summary["log"] = lines
    return out, summary


def test_training_writes_model_history_curve_and_snapshots(trained):
    out, summary = trained
    assert summary["timesteps"] >= 3000
    for name in ("model.zip", "train.json", "history.json", "learning_curve.png"):
        assert (out / name).exists(), name
    assert list((out / "snapshots").glob("step_*.zip")), "self-play snapshots"
    assert list((out / "tb").iterdir()), "tensorboard logs"
    history = json.loads((out / "history.json").read_text())
    assert next(h["timesteps"] for h in history) == 0 and len(history) >= 3
    steps = [h["timesteps"] for h in history]
    assert steps == sorted(set(steps))  # no step is evaluated twice
    # TensorBoard: the evaluations with their intervals, and the episodes' returns and lengths
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    evals = EventAccumulator(str(out / "tb" / "evaluation")).Reload()
    for opp in ("random", "heuristic"):
        for key in ("score", "score_lo95", "score_hi95", "win", "draw", "loss"):
            points = evals.Scalars(f"eval_vs_{opp}/{key}")
            assert [p.step for p in points] == steps, (opp, key)
        assert [p.value for p in evals.Scalars(f"eval_vs_{opp}/score")] == pytest.approx(
            [h[opp]["score"] for h in history]
        )
    (run,) = [d for d in (out / "tb").iterdir() if d.name.startswith("maskable_ppo")]
    tags = EventAccumulator(str(run)).Reload().Tags()["scalars"]
    assert {"rollout/ep_rew_mean", "rollout/ep_len_mean"} <= set(tags)
    # the last row is a real evaluation of the saved model: replaying it gives the same figures
    from sb3_contrib import MaskablePPO

    from deckgym.agents.training import evaluate_live

    assert json.loads((out / "train.json").read_text())["history"] == history
    for row in history:  # each evaluation: the score with its 95% interval over pairs, and the rates
        for opp in ("random", "heuristic"):
            r = row[opp]
            lo, hi = r["score_ci95"]
            assert r["score"] == pytest.approx(r["win"] + r["draw"] / 2) and 0 <= lo <= r["score"] <= hi <= 1
            assert r["win"] + r["draw"] + r["loss"] == pytest.approx(1.0) and r["games"] == 4
    assert any("vs heuristic: score" in line for line in summary["log"])
    last = history[-1]
    model = MaskablePPO.load(out / "model.zip", device="cpu")
    for opp in ("random", "heuristic"):
        again = evaluate_live(
            model, "medarot_ocg_v1", {"mode": "beginner"}, opp, 4, 10_000 + last["timesteps"]
        )
        assert again == last[opp], opp


def test_the_envs_of_a_process_share_one_copy_of_each_snapshot(trained):
    from deckgym.agents.training import SingleAgentEnv

    out, _ = trained
    snap = f"ppo:{max((out / 'snapshots').glob('step_*.zip'))}"
    a = SingleAgentEnv("medarot_ocg_v1", ["random"], {"mode": "beginner"})
    b = SingleAgentEnv("medarot_ocg_v1", ["random"], {"mode": "beginner"})
    a.set_pool(["random", snap], [1.0, 1.0])
    b.set_pool(["random", snap], [1.0, 1.0])
    assert a._built[snap] is b._built[snap]  # loaded once, shared
    assert a._built["random"] is not b._built["random"]  # agents with state stay per env
    a.reset(seed=3)
    for _ in range(20):  # the shared snapshot plays legal moves for both
        _obs, _r, done, trunc, _i = a.step(int(next(i for i, m in enumerate(a.action_masks()) if m)))
        if done or trunc:
            a.reset()


def test_saved_model_loads_without_the_modules_that_define_its_network(trained):
    """sb3 saves the extractor class (in policy_kwargs) with cloudpickle, by value: a model does
    not depend on where the class is defined, so models saved before training moved from
    agents.ppo to agents.training still load."""
    import subprocess
    import sys

    out, _ = trained
    code = (
        "import sys, warnings\n"
        "warnings.filterwarnings('error', message='Could not deserialize')\n"
        "sys.modules['deckgym.agents.ppo'] = sys.modules['deckgym.agents.training'] = None  # importing them fails\n"
        "from sb3_contrib import MaskablePPO\n"
        f"model = MaskablePPO.load({str(out / 'model.zip')!r}, device='cpu')\n"
        "print(type(model.policy.features_extractor).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["CardSetExtractor"]


def test_imitation_pretraining_ran_before_ppo(trained):
    _out, summary = trained
    imitation = [line for line in summary["log"] if line.startswith("imitation epoch")]
    assert len(imitation) == 4 and "agrees with the heuristic" in imitation[-1]


def _plays_only_legal_actions(model, env_name: str, games: int, **env_kwargs) -> int:
    """Games of the saved PPO model in one seat, random in the others (the seat moves on each
    game); returns its move count."""
    from deckgym.agents.random_agent import RandomAgent

    checked = Checked(PPOAgent(model))
    env = envs.make(env_name, **env_kwargs)
    n = len(env.possible_agents)
    for g in range(games):
        seats: list[Any] = [RandomAgent(100 * g + i) for i in range(n)]
        seats[g % n] = checked
        play_game(env, seats, seed=g)
    return checked.moves


def test_saved_model_reloads_and_plays_only_legal_actions(trained):
    out, _ = trained
    assert _plays_only_legal_actions(out / "model.zip", "medarot_ocg_v1", 4, mode="beginner") > 50


def test_reloaded_model_beats_random_where_a_broken_policy_would_not(trained):
    """100 seat-swapped games: the tiny imitated run wins about 99%; a policy that plays at random
    (broken weights, a wrong observation) wins 62 or more with probability about 1%."""
    out, _ = trained
    res = match(f"ppo:{out / 'model.zip'}", "random", "medarot_ocg_v1", games=100, workers=1, mode="beginner")
    assert res.wins >= 62, res.line()


#: Per environment: the smoke run's settings that differ from the defaults, games played, fewest moves.
SMOKE = {
    "medarot_parts_v1": ({"n_steps": 256, "eval_every": 0, "checkpoint_every": 4096}, 4, 20),
    "mow_v1": ({"n_steps": 512, "n_epochs": 2, "eval_every": 2048, "checkpoint_every": 0}, 2, 50),
}


@pytest.mark.parametrize("env_name", sorted(SMOKE))
def test_maskable_ppo_smoke_run_plays_legal_games(env_name, tmp_path):
    import torch

    torch.set_num_threads(1)  # the smoke run is tiny; threads only contend with the other test worker
    overrides, games, least_moves = SMOKE[env_name]
    cfg = tiny_config(
        tmp_path,
        env=env_name,
        env_kwargs={},
        timesteps=2048,
        eval_games=2,
        snapshot_every=1024,
        pretrain_games=2,
        pretrain_epochs=1,
        **overrides,
    )
    summary = train(cfg, log=lambda _line: None)
    assert summary["timesteps"] >= 2048 and (tmp_path / "model.zip").exists()
    assert _plays_only_legal_actions(tmp_path / "model.zip", env_name, games) > least_moves


def _row(win: float, draw: float, lo: float, hi: float) -> dict:
    return {"score": win + draw / 2, "score_ci95": [lo, hi], "win": win, "draw": draw, "games": 20}


@pytest.mark.parametrize("scored", [True, False], ids=["score", "win-rates-only"])
def test_learning_curve_plot(tmp_path, scored):
    """The score with its band; a history from before scores were recorded draws win rates."""
    if scored:
        hist = [
            {"timesteps": 0, "random": _row(0.3, 0.1, 0.2, 0.5), "heuristic": _row(0.1, 0.0, 0.0, 0.3)},
            {"timesteps": 100, "random": _row(0.8, 0.1, 0.7, 0.95), "heuristic": _row(0.4, 0.2, 0.3, 0.7)},
        ]
    else:
        hist = [
            {"timesteps": t, "random": {"win": w, "games": 20}, "heuristic": {"win": w / 2, "games": 20}}
            for t, w in ((0, 0.3), (100, 0.8))
        ]
    plot_learning_curve(hist, tmp_path / "c.png")
    assert (tmp_path / "c.png").stat().st_size > 1000
    assert np.frombuffer((tmp_path / "c.png").read_bytes()[:4], dtype=np.uint8).tolist() == [137, 80, 78, 71]


def test_imitation_cache_gives_the_same_run_and_refuses_other_settings(tmp_path):
    import torch

    torch.set_num_threads(1)
    cache = tmp_path / "imitated.pt"

    def run(name: str, pretrain_epochs: int = 1) -> tuple[list[str], dict]:
        cfg = quick_config(
            tmp_path / name,
            "medarot_parts_v1",
            timesteps=256,
            n_steps=128,
            n_epochs=2,
            pretrain_epochs=pretrain_epochs,
            imitation_cache=str(cache),
        )
        lines: list[str] = []
        train(cfg, log=lines.append)
        model = PPOAgent(tmp_path / name / "model.zip").policy
        return lines, {k: v.clone() for k, v in model.state_dict().items()}

    first_log, first = run("first")
    assert cache.exists() and any(line.startswith("imitation epoch") for line in first_log)
    second_log, second = run("second")
    assert f"imitated policy loaded from {cache}" in second_log
    assert not any(line.startswith("imitation epoch") for line in second_log)
    assert first.keys() == second.keys()
    assert all(torch.equal(first[k], second[k]) for k in first)  # loading is the same as imitating
    with pytest.raises(ValueError, match="other imitation settings"):
        run("third", pretrain_epochs=2)


def test_global_critic_reads_the_whole_game_while_the_policy_reads_only_the_seat(tmp_path):
    """critic="global": the value function sees env.state(); the policy's action ignores it."""
    import torch

    from deckgym.agents.training import policy_action

    torch.set_num_threads(1)
    cfg = quick_config(tmp_path, "mow_v1", critic="global", timesteps=512, n_steps=256, n_epochs=1)
    summary = train(cfg, log=lambda _line: None)
    assert summary["config"]["critic"] == "global"
    agent = PPOAgent(tmp_path / "model.zip")
    policy = agent.policy
    assert not policy.share_features_extractor
    assert policy.pi_features_extractor.role == "pi" and policy.vf_features_extractor.role == "vf"
    env = envs.make("mow_v1")
    env.reset(seed=4)
    st = env.unwrapped.game
    obs = env.unwrapped.encoder.observe(st, st.current_player)
    mask = env.unwrapped.encoder.action_mask(st)
    full = torch.as_tensor(env.state()[None])
    own = torch.as_tensor(obs[None])
    with torch.no_grad():
        v = policy.predict_values({"observation": own, "state": full})
        v0 = policy.predict_values({"observation": own, "state": torch.zeros_like(full)})
    assert float(v) != float(v0)  # the value function reads the global state
    a = policy_action(policy, obs, mask)
    assert mask[a] and a == agent.act(obs, mask)
    assert _plays_only_legal_actions(tmp_path / "model.zip", "mow_v1", 2) > 50


def test_a_slim_copy_plays_exactly_as_the_model_and_is_smaller(trained, tmp_path):
    from deckgym.agents.pretrained import slim

    out, _ = trained
    copy = slim(out / "model.zip", tmp_path / "slim.zip")
    assert copy.stat().st_size < (out / "model.zip").stat().st_size
    full, thin = PPOAgent(out / "model.zip"), PPOAgent(copy)
    env = envs.make("medarot_ocg_v1", mode="beginner")
    rng = np.random.default_rng(0)
    checked = 0
    for obs in live_observations(env, range(3)):
        a = full.act(obs["observation"], obs["action_mask"])
        assert thin.act(obs["observation"], obs["action_mask"]) == a
        checked += 1
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(a if rng.random() < 0.5 else rng.choice(legal)))
    assert checked > 100


def test_pretrained_names_the_shipped_model_or_says_which_exist(monkeypatch, trained, tmp_path):
    import deckgym.agents.pretrained as pre
    from deckgym import agents

    out, _ = trained
    monkeypatch.setattr(pre, "MODELS", tmp_path)
    with pytest.raises(ValueError, match=r"no pretrained model for medarot_ocg_v1-normal; shipped: none"):
        agents.make("ppo:pretrained", "medarot_ocg_v1", mode="normal")
    pre.slim(out / "model.zip", tmp_path / "medarot_ocg_v1-beginner.zip")
    assert pre.shipped() == ["medarot_ocg_v1-beginner"]
    agent = agents.make("ppo:pretrained", "medarot_ocg_v1", mode="beginner")
    assert agent.name == "ppo:pretrained"
    assert _plays_only_legal_actions(
        pre.model_path("medarot_ocg_v1", {}), "medarot_ocg_v1", 2, mode="beginner"
    )
    with pytest.raises(ValueError, match="shipped: medarot_ocg_v1-beginner"):
        agents.make("ppo:pretrained", "mow_v1")


def test_every_shipped_model_loads_and_plays_legal_games():
    """The models in ``agents/models/`` load through ``ppo:pretrained`` and play only legal moves."""
    from deckgym.agents.composite import ENVS
    from deckgym.agents.pretrained import MODELS, shipped

    assert "medarot_ocg_v1-beginner" in shipped()
    for key in shipped():
        env_name, _, mode = key.partition("-")
        options = {"mode": mode} if mode else {}
        if env_name in ENVS:  # a map policy: it plays inside the composite (tests/agents/test_composite.py)
            continue
        assert _plays_only_legal_actions(MODELS / f"{key}.zip", env_name, 2, **options) > 20, key


def test_widen_carries_a_model_to_a_longer_observation_and_it_plays_the_same(trained, tmp_path):
    """New trailing entries get zero weights: the widened model's probabilities ignore them."""
    from gymnasium import spaces

    from deckgym.agents.pretrained import widen

    out, _ = trained
    old = PPOAgent(out / "model.zip")
    space = old.model.observation_space
    n = space.shape[0]
    extra = 7
    wider = spaces.Box(
        np.concatenate([space.low, np.full(extra, -5.0, np.float32)]),
        np.concatenate([space.high, np.full(extra, 5.0, np.float32)]),
        dtype=np.float32,
    )
    new = PPOAgent(widen(out / "model.zip", tmp_path / "wide.zip", wider))
    assert new.model.observation_space.shape == (n + extra,)
    env = envs.make("medarot_ocg_v1", mode="beginner")
    rng = np.random.default_rng(1)
    checked = 0
    for obs in live_observations(env, range(2)):
        o, m = obs["observation"], obs["action_mask"]
        longer = np.concatenate([o, rng.uniform(-5, 5, extra).astype(np.float32)])
        assert np.allclose(new.probabilities(longer, m), old.probabilities(o, m), atol=1e-6)
        assert new.act(longer, m) == old.act(o, m)
        checked += 1
        env.step(int(rng.choice(np.flatnonzero(m))))
    assert checked > 50
    # the old model names the mismatch instead of failing inside torch
    with pytest.raises(
        ValueError, match=rf"trained on observations of {n} entries, and this env gives {n + extra}"
    ):
        old.act(longer, m)


def test_widen_refuses_a_shorter_or_other_observation(trained, tmp_path):
    from gymnasium import spaces

    from deckgym.agents.pretrained import widen

    out, _ = trained
    space = PPOAgent(out / "model.zip").model.observation_space
    shorter = spaces.Box(space.low[:-3], space.high[:-3], dtype=np.float32)
    with pytest.raises(ValueError, match="shorter than the model's"):
        widen(out / "model.zip", tmp_path / "w.zip", shorter)
    other = spaces.Box(space.low - 1, space.high, dtype=np.float32)
    with pytest.raises(ValueError, match="other bounds"):
        widen(out / "model.zip", tmp_path / "w.zip", other)
    with pytest.raises(ValueError, match="flat Box"):
        widen(out / "model.zip", tmp_path / "w.zip", spaces.Dict({"observation": space}))
    assert not (tmp_path / "w.zip").exists()

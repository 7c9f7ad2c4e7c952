"""MaskablePPO training with self-play, and ``PPOAgent`` to play a saved model.

Training runs sb3-contrib's ``MaskablePPO`` over vectorised ``SingleAgentEnv`` workers (one
process per core). Each episode the learner meets an opponent drawn from a pool: the random
agent, the ruleset's heuristic and, as training goes on, frozen snapshots of itself
(self-play). The learner's seat alternates. Every ``eval_every`` steps the current policy
plays the baselines; the history becomes ``learning_curve.png``. Checkpoints, TensorBoard
logs and a progress bar come with it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


@dataclass
class TrainConfig:
    """Settings of one training run.

    Attributes:
        env: registered environment name.
        env_kwargs: environment options (``mode``...).
        timesteps: learner decisions to train for.
        seed: seed of everything (envs, opponents, network init).
        n_envs: parallel environments (0: one per core); the policy runs on all of them at once.
        vec_env: "subproc" (worker processes spread over the cores) or "dummy" (in process).
        opponents: opponent kinds with drawing weights; "self" means past snapshots.
        snapshot_every: steps between self-play snapshots added to the pool.
        max_snapshots: most recent snapshots kept in the pool.
        eval_every: steps between evaluations against the baselines.
        eval_games: games per baseline at each evaluation.
        checkpoint_every: steps between checkpoints (0: none).
        n_steps: rollout length, summed over the environments.
        batch_size: minibatch size.
        n_epochs: optimisation epochs per rollout.
        learning_rate: Adam step size.
        clip_range: PPO's clipping of the policy ratio.
        gamma: discount.
        ent_coef: entropy bonus.
        shaping: weight of the ruleset's potential-based reward shaping (0: only the final +-1).
        pretrain_games: heuristic-vs-heuristic games whose decisions (with two or more legal
            options) the policy imitates before PPO starts, and whose discounted outcomes
            pretrain the value head (0: start from scratch).
        pretrain_epochs: passes over the imitation data.
        pretrain_lr: Adam step size of the imitation (PPO's own is restored after it).
        pretrain_samples: stop adding imitation games once this many decisions are collected
            (bounds the memory and time of rulesets with long games).
        imitation_cache: a file for the imitated policy ("": none). When it exists and was
            written by a run with the same imitation settings (env, options, seed, pretrain and
            network settings), training starts from it instead of imitating again; otherwise the
            imitation runs and is written there (with the optimizer's state, so a run from the
            cache is the run that imitates). Experiments that vary only PPO's settings then
            share one imitated start.
        critic: "seat" (default): the value function reads the learner's observation, as the
            policy does. "global": the value function also reads the whole game
            (``env.state()``: the opponent's cards and the deck orders), a centralized critic;
            the policy still reads only the learner's observation, so the trained agent plays
            from its own view. Imitation then fits the value head on global states too.
        net_arch: hidden layer sizes of the policy and value heads (after the shared extractor).
        features_dim: width of the shared ``CardSetExtractor`` output.
        out: output folder.
        progress_bar: show a progress bar.
        verbose: SB3 verbosity.
    """

    env: str = "medarot_ocg_v0"
    env_kwargs: dict[str, Any] = field(default_factory=lambda: {"mode": "beginner"})
    timesteps: int = 400_000
    seed: int = 0
    n_envs: int = 16
    vec_env: str = "dummy"
    opponents: dict[str, float] = field(
        default_factory=lambda: {"heuristic": 0.8, "random": 0.05, "self": 0.15}
    )
    snapshot_every: int = 50_000
    max_snapshots: int = 5
    eval_every: int = 100_000
    eval_games: int = 40
    checkpoint_every: int = 100_000
    n_steps: int = 2048
    batch_size: int = 512
    n_epochs: int = 8
    learning_rate: float = 1e-4
    clip_range: float = 0.1
    gamma: float = 0.995
    ent_coef: float = 0.003
    shaping: float = 1.0
    pretrain_games: int = 1500
    pretrain_epochs: int = 15
    pretrain_lr: float = 3e-4
    pretrain_samples: int = 250_000
    imitation_cache: str = ""
    critic: str = "seat"
    net_arch: tuple[int, ...] = (256,)
    features_dim: int = 256
    out: str = "runs/ppo"
    progress_bar: bool = True
    verbose: int = 0


#: Opponent pools that differ from ``TrainConfig``'s default, by environment. In Master of the
#: World a policy trained with the default pool beat the heuristic (63.5% of 400 games) but
#: lost 16.5% of 400 games to the random agent; a larger share of random opponents keeps the
#: random agent's play in view.
OPPONENTS_BY_ENV: dict[str, dict[str, float]] = {
    "mow_v0": {"heuristic": 0.6, "random": 0.25, "self": 0.15},
}


def default_opponents(env: str) -> dict[str, float]:
    """The default opponent pool of training on ``env``."""
    return dict(OPPONENTS_BY_ENV.get(env, TrainConfig().opponents))


def card_set_extractor() -> type:
    """``CardSetExtractor``: one small layer shared by every card-feature row, then a dense layer.

    Card rows (board, hand, stock, masters...) are described by the same features, so one
    ``Linear(card_features, embed)`` applied to each row learns a card embedding; the rest of
    the observation joins it in a dense layer. This is several times cheaper than a dense
    layer over the raw vector and generalises across slots.
    """
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    class CardSetExtractor(BaseFeaturesExtractor):
        def __init__(
            self,
            observation_space: Any,
            card_region: tuple[int, int, int] | None = None,
            embed: int = 24,
            features_dim: int = 256,
        ) -> None:
            super().__init__(observation_space, features_dim)
            n = int(observation_space.shape[0])
            start, rows, dim = card_region if card_region else (0, 0, 0)
            self.start, self.rows, self.dim = start, rows, dim
            self.stop = start + rows * dim
            self.card_net = nn.Sequential(nn.Linear(dim, embed), nn.ReLU()) if rows else None
            width = rows * embed + n - rows * dim
            self.head = nn.Sequential(nn.Linear(width, features_dim), nn.ReLU())

        def forward(self, obs: torch.Tensor) -> torch.Tensor:
            if self.card_net is None:
                return self.head(obs)
            b = obs.shape[0]
            cards = self.card_net(obs[:, self.start : self.stop].reshape(b, self.rows, self.dim)).reshape(
                b, -1
            )
            return self.head(torch.cat([obs[:, : self.start], cards, obs[:, self.stop :]], dim=1))

    return CardSetExtractor


def global_critic_policy() -> type:
    """``GlobalCriticPolicy``: MaskablePPO's policy with a value function that reads the whole game.

    Observations are ``{"observation": own vector, "state": global state}``. The policy's
    extractor is a ``CardSetExtractor`` over ``"observation"`` alone; the value function has
    its own extractor, the same over ``"observation"`` joined with a dense layer over ``"state"``.
    """
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    card_set = card_set_extractor()

    class SplitExtractor(BaseFeaturesExtractor):
        def __init__(
            self,
            observation_space: Any,
            card_region: tuple[int, int, int] | None = None,
            features_dim: int = 256,
            role: str = "pi",
        ) -> None:
            super().__init__(observation_space, features_dim)
            self.role = role
            self.own = card_set(observation_space["observation"], card_region, features_dim=features_dim)
            if role == "vf":
                n = int(observation_space["state"].shape[0])
                self.state_net = nn.Sequential(nn.Linear(n, features_dim), nn.ReLU())
                self.join = nn.Sequential(nn.Linear(2 * features_dim, features_dim), nn.ReLU())

        def forward(self, obs: dict[str, torch.Tensor]) -> torch.Tensor:
            own = self.own(obs["observation"])
            if self.role == "pi":
                return own  # type: ignore[no-any-return]
            return self.join(torch.cat([own, self.state_net(obs["state"])], dim=1))  # type: ignore[no-any-return]

    class GlobalCriticPolicy(MaskableActorCriticPolicy):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["share_features_extractor"] = False
            super().__init__(*args, **kwargs)

        def make_features_extractor(self) -> BaseFeaturesExtractor:
            # the first extractor built is the policy's, the second the value function's
            role = "vf" if "features_extractor" in self._modules else "pi"
            return SplitExtractor(self.observation_space, role=role, **self.features_extractor_kwargs)

    return GlobalCriticPolicy


class PPOAgent:
    """A saved MaskablePPO model as an agent (greedy over the legal actions)."""

    def __init__(self, path: str | Path, deterministic: bool = True) -> None:
        import torch
        from sb3_contrib import MaskablePPO

        self.path = str(path)
        self.name = f"ppo:{Path(path).name}"
        self.model = MaskablePPO.load(self.path, device="cpu")
        self.policy = self.model.policy
        self.policy.set_training_mode(False)
        self.deterministic = deterministic
        self._torch = torch
        self._rng = np.random.default_rng(0)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling RNG (used only when not deterministic)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The policy's action among the legal ones."""
        return policy_action(self.policy, observation, action_mask, self.deterministic, self._rng)


def policy_action(
    policy: Any,
    observation: np.ndarray,
    action_mask: np.ndarray,
    deterministic: bool = True,
    rng: np.random.Generator | None = None,
) -> int:
    """One forward pass of a MaskablePPO policy, masked; argmax or a sample."""
    import torch
    from stable_baselines3.common.policies import BaseModel

    with torch.no_grad():
        obs: Any = torch.as_tensor(np.asarray(observation, dtype=np.float32)[None])
        if _reads_dict(policy):
            obs = {"observation": obs}  # the policy's extractor reads only the seat's own vector
        # the policy's own extractor only (BaseModel's: MaskablePPO's would also run a split value one)
        features = BaseModel.extract_features(policy, obs, policy.pi_features_extractor)
        latent = policy.mlp_extractor.forward_actor(features)
        logits = policy.action_net(latent)[0].numpy().astype(np.float64)
    legal = np.asarray(action_mask, dtype=bool)
    if not legal.any():
        raise ValueError("policy_action: the action mask has no legal action")
    logits[~legal] = -np.inf
    if deterministic:
        return int(np.argmax(logits))
    p = np.exp(logits - logits.max())
    p /= p.sum()
    return int((rng or np.random.default_rng()).choice(len(p), p=p))


def _reads_dict(policy: Any) -> bool:
    """Whether a policy's observations are ``{"observation", "state"}`` (``critic="global"``)."""
    import gymnasium as gym

    return isinstance(policy.observation_space, gym.spaces.Dict)


class _LiveAgent:
    """The model being trained, as an agent (for in-process evaluation)."""

    name = "learner"

    def __init__(self, model: Any) -> None:
        self.model = model

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Greedy masked action."""
        return policy_action(self.model.policy, observation, action_mask)


def evaluate_live(
    model: Any, env_name: str, env_kwargs: dict[str, Any], opponent: str, games: int, seed: int
) -> dict[str, float]:
    """Win/draw/loss rates of the live model against a baseline, seat-swapped pairs, in process."""
    import agents as agent_lib
    import envs
    from agents.arena import play_pairs

    env = envs.make(env_name, **env_kwargs)
    opp = agent_lib.make(opponent, env_name, seed=seed)
    w, d, lo = play_pairs(env, _LiveAgent(model), opp, range(seed, seed + (games + 1) // 2))
    n = w + d + lo
    return {"win": w / n, "draw": d / n, "loss": lo / n, "games": n}


def _opponent_factory(env_name: str, specs: list[str], seed: int) -> Callable[[], list[Any]]:
    def build() -> list[Any]:
        import agents as agent_lib

        return [agent_lib.make(s, env_name, seed=seed + i) for i, s in enumerate(specs)]

    return build


def policy_kwargs(cfg: TrainConfig) -> dict[str, Any]:
    """Policy settings: the shared card-set extractor, then small policy and value heads."""
    import envs

    region = envs.make(cfg.env, **cfg.env_kwargs).unwrapped.encoder.card_region
    if cfg.critic == "global":
        return {
            "features_extractor_kwargs": {"card_region": region, "features_dim": cfg.features_dim},
            "net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)},
        }
    return {
        "features_extractor_class": card_set_extractor(),
        "features_extractor_kwargs": {"card_region": region, "features_dim": cfg.features_dim},
        "net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)},
    }


def train(cfg: TrainConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train, evaluate and save; return the run summary (also written to ``out/train.json``)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from envs.single_agent import CRITICS, make_single_agent_env

    if cfg.critic not in CRITICS:  # before any worker env is built, so the error is this one line
        raise ValueError(f"critic must be one of {CRITICS}, got {cfg.critic!r}")
    out = Path(cfg.out)
    (out / "snapshots").mkdir(parents=True, exist_ok=True)
    n_envs = cfg.n_envs or max(1, os.cpu_count() or 1)
    torch.manual_seed(cfg.seed)
    base = [k for k in cfg.opponents if k != "self"]
    if not base:
        raise ValueError("opponents need at least one of 'random' or 'heuristic' besides 'self'")
    weights = [cfg.opponents[k] for k in base]
    factories = [
        make_single_agent_env(
            cfg.env,
            _opponent_factory(cfg.env, base, cfg.seed + 101 * i),
            cfg.env_kwargs,
            weights=weights,
            shaping=cfg.shaping,
            gamma=cfg.gamma,
            critic=cfg.critic,
        )
        for i in range(n_envs)
    ]
    if cfg.vec_env not in ("subproc", "dummy"):
        raise ValueError(f"vec_env must be 'subproc' or 'dummy', got {cfg.vec_env!r}")
    subproc = cfg.vec_env == "subproc" and n_envs > 1
    vec = SubprocVecEnv(factories, start_method="fork") if subproc else DummyVecEnv(factories)
    vec.seed(cfg.seed)
    model = MaskablePPO(
        global_critic_policy() if cfg.critic == "global" else "MlpPolicy",
        vec,
        n_steps=max(16, cfg.n_steps // n_envs),
        batch_size=cfg.batch_size,
        n_epochs=cfg.n_epochs,
        learning_rate=cfg.learning_rate,
        gamma=cfg.gamma,
        ent_coef=cfg.ent_coef,
        clip_range=cfg.clip_range,
        policy_kwargs=policy_kwargs(cfg),
        seed=cfg.seed,
        device="cpu",
        tensorboard_log=str(out / "tb"),
        verbose=cfg.verbose,
    )
    history: list[dict[str, Any]] = []
    snapshots: list[str] = []
    t0 = time.perf_counter()

    def evaluate(step: int) -> None:
        row: dict[str, Any] = {"timesteps": step, "seconds": time.perf_counter() - t0}
        for opp in ("random", "heuristic"):
            row[opp] = evaluate_live(model, cfg.env, cfg.env_kwargs, opp, cfg.eval_games, 10_000 + step)
        history.append(row)
        (out / "history.json").write_text(json.dumps(history, indent=1))
        log(
            f"[{step:>9,} steps, {row['seconds']:6.0f}s] win vs random {row['random']['win']:.0%}, "
            f"vs heuristic {row['heuristic']['win']:.0%}"
        )

    class Hooks(BaseCallback):
        def _on_step(self) -> bool:
            n = self.num_timesteps
            if cfg.eval_every and n // cfg.eval_every != (n - self.training_env.num_envs) // cfg.eval_every:
                evaluate(n)
            if (
                "self" in cfg.opponents
                and cfg.snapshot_every
                and n // cfg.snapshot_every != (n - self.training_env.num_envs) // cfg.snapshot_every
            ):
                path = out / "snapshots" / f"step_{n}.zip"
                model.save(path)
                snapshots.append(str(path))
                del snapshots[: -cfg.max_snapshots]
                pool = base + [f"ppo:{p}" for p in snapshots]
                share = cfg.opponents["self"] / len(snapshots)
                self.training_env.env_method("set_pool", pool, weights + [share] * len(snapshots))
            if (
                cfg.checkpoint_every
                and n // cfg.checkpoint_every != (n - self.training_env.num_envs) // cfg.checkpoint_every
            ):
                model.save(out / f"checkpoint_{n}.zip")
            return True

    if cfg.pretrain_games:
        start_from_imitation(model, cfg, log)
    evaluate(0)
    model.learn(
        total_timesteps=cfg.timesteps,
        callback=Hooks(),
        progress_bar=cfg.progress_bar,
        tb_log_name="maskable_ppo",
    )
    elapsed = time.perf_counter() - t0
    model.save(out / "model.zip")
    vec.close()
    evaluate(model.num_timesteps)
    summary = {
        "config": {**asdict(cfg), "n_envs": n_envs},
        "timesteps": int(model.num_timesteps),
        "train_seconds": elapsed,
        "steps_per_second": model.num_timesteps / elapsed,
        "history": history,
    }
    (out / "train.json").write_text(json.dumps(summary, indent=1))
    plot_learning_curve(history, out / "learning_curve.png", title=f"{cfg.env} {cfg.env_kwargs}")
    return summary


#: The settings that decide the imitated policy (the key of ``TrainConfig.imitation_cache``).
IMITATION_KEYS = (
    "env",
    "env_kwargs",
    "seed",
    "gamma",
    "batch_size",
    "pretrain_games",
    "pretrain_epochs",
    "pretrain_lr",
    "pretrain_samples",
    "net_arch",
    "features_dim",
    "critic",
)


def start_from_imitation(model: Any, cfg: TrainConfig, log: Callable[[str], None] = print) -> None:
    """Imitate the heuristic, or load the imitated policy of ``cfg.imitation_cache`` when it fits."""
    import torch

    key = json.loads(json.dumps({k: getattr(cfg, k) for k in IMITATION_KEYS}))
    cache = Path(cfg.imitation_cache) if cfg.imitation_cache else None
    if cache is not None and cache.exists():
        saved = torch.load(cache, map_location="cpu", weights_only=True)
        if not isinstance(saved, dict) or saved.get("key") != key:
            found = saved.get("key") if isinstance(saved, dict) else None
            raise ValueError(
                f"imitation cache {cache} was written with other imitation settings: "
                f"it has {found}, this run needs {key}; remove it or name another file"
            )
        model.policy.load_state_dict(saved["policy"])
        model.policy.optimizer.load_state_dict(saved["optimizer"])
        log(f"imitated policy loaded from {cache}")
        return
    imitate_heuristic(model, cfg, log)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        state = {
            "key": key,
            "policy": model.policy.state_dict(),
            "optimizer": model.policy.optimizer.state_dict(),
        }
        torch.save(state, cache)
        log(f"imitated policy saved to {cache}")


def heuristic_dataset(
    cfg: TrainConfig,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """(observations, masks, actions, discounted returns, global states) of heuristic self-play.

    Both seats' decisions with two or more legal options are kept. The global states
    (``env.state()`` at each decision) are collected only for ``critic="global"``, else None.
    """
    import agents as agent_lib
    import envs

    env = envs.make(cfg.env, **cfg.env_kwargs)
    raw = env.unwrapped
    enc = raw.encoder
    players = [
        agent_lib.make("heuristic", cfg.env, seed=cfg.seed + i) for i in range(len(env.possible_agents))
    ]
    for p in players:
        p.bind(env)
    obs, masks, acts, rets, states = [], [], [], [], []
    want_states = cfg.critic == "global"
    seat_slices = [enc.global_layout(len(players))[f"seat_{i}"].slice for i in range(len(players))]
    for g in range(cfg.pretrain_games):
        if len(acts) >= cfg.pretrain_samples:
            break
        env.reset(seed=cfg.seed * 1_000_003 + g)
        st = raw.game
        rows: list[tuple[int, int]] = []  # (seat, sample index)
        while not st.is_terminal():
            seat = st.current_player
            mask = enc.action_mask(st)
            full = enc.global_state(st) if want_states else None  # it holds the seat's observation
            o = enc.observe(st, seat) if full is None else full[seat_slices[seat]]
            a = players[seat].act(o, mask)
            if int(mask.sum()) > 1:
                rows.append((seat, len(acts)))
                obs.append(o.astype(np.float16))  # half the memory; the values are 0/1 and small ratios
                if full is not None:
                    states.append(full.astype(np.float16))
                masks.append(mask.astype(bool))
                acts.append(a)
                rets.append(0.0)
            env.step(a)
            st = raw.game
        final = st.returns()
        for seat in range(len(final)):
            mine = [i for s_, i in rows if s_ == seat]
            for k, i in enumerate(reversed(mine)):
                rets[i] = final[seat] * cfg.gamma**k
    return (
        np.asarray(obs),
        np.asarray(masks),
        np.asarray(acts),
        np.asarray(rets, dtype=np.float32),
        np.asarray(states) if want_states else None,
    )


def imitate_heuristic(model: Any, cfg: TrainConfig, log: Callable[[str], None] = print) -> dict[str, float]:
    """Behaviour cloning of the heuristic (policy) and of its outcomes (value) before PPO."""
    import torch

    t0 = time.perf_counter()
    obs, masks, acts, rets, states = heuristic_dataset(cfg)
    policy = model.policy
    opt = policy.optimizer
    rng = np.random.default_rng(cfg.seed)
    order = rng.permutation(len(acts))
    held, train_idx = order[: len(acts) // 20], order[len(acts) // 20 :]  # 5% held out for agreement
    n = len(train_idx)
    ppo_lr = [g["lr"] for g in opt.param_groups]
    for g in opt.param_groups:
        g["lr"] = cfg.pretrain_lr
    stats = {"samples": float(n)}
    for epoch in range(cfg.pretrain_epochs):
        policy.set_training_mode(True)
        shuffled = rng.permutation(train_idx)
        total = 0.0
        for start in range(0, n, cfg.batch_size):
            idx = shuffled[start : start + cfg.batch_size]
            o: Any = torch.as_tensor(obs[idx], dtype=torch.float32)
            if states is not None:
                o = {"observation": o, "state": torch.as_tensor(states[idx], dtype=torch.float32)}
            a = torch.as_tensor(acts[idx])
            values, log_prob, _ent = policy.evaluate_actions(o, a, action_masks=masks[idx])
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(
                values.flatten(), torch.as_tensor(rets[idx])
            )
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            opt.step()
            total += loss.item() * len(idx)
        policy.set_training_mode(False)
        stats = {
            "samples": float(n),
            "loss": total / n,
            "agreement": _agreement(policy, obs, masks, acts, held),
        }
        log(
            f"imitation epoch {epoch + 1}/{cfg.pretrain_epochs}: loss {stats['loss']:.3f}, "
            f"agrees with the heuristic on {stats['agreement']:.1%} of {len(held):,} held-out decisions"
        )
    for g, lr in zip(opt.param_groups, ppo_lr, strict=True):
        g["lr"] = lr
    policy.set_training_mode(False)
    stats["seconds"] = time.perf_counter() - t0
    return stats


def _agreement(policy: Any, obs: np.ndarray, masks: np.ndarray, acts: np.ndarray, idx: np.ndarray) -> float:
    """Share of the decisions ``idx`` on which the policy's most likely action is the heuristic's."""
    import torch

    if not len(idx):
        return float("nan")
    same = 0
    with torch.no_grad():
        for start in range(0, len(idx), 4096):
            part = idx[start : start + 4096]
            o: Any = torch.as_tensor(obs[part], dtype=torch.float32)
            if _reads_dict(policy):
                o = {"observation": o}
            probs = policy.get_distribution(o, action_masks=masks[part]).distribution.probs
            same += int((probs.argmax(1) == torch.as_tensor(acts[part])).sum())
    return same / len(idx)


def plot_learning_curve(history: list[dict[str, Any]], path: str | Path, title: str = "") -> None:
    """Win rate against each baseline over training, with 95% Wilson bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from agents.arena import wilson

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [h["timesteps"] for h in history]
    for opp, colour in (("random", "tab:blue"), ("heuristic", "tab:red")):
        rates = [h[opp]["win"] for h in history]
        bands = [wilson(h[opp]["win"] * h[opp]["games"], int(h[opp]["games"])) for h in history]
        ax.plot(steps, rates, marker="o", color=colour, label=f"vs {opp}")
        ax.fill_between(steps, [b[0] for b in bands], [b[1] for b in bands], color=colour, alpha=0.15)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel("PPO learner decisions (0: after imitating the heuristic, when enabled)")
    ax.set_ylabel("win rate")
    ax.set_title(title or "learning curve")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

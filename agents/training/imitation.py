"""Imitation of the heuristic before PPO: behaviour cloning of its play and of its outcomes.

The heuristic plays itself; its decisions with two or more legal options train the policy
(cross-entropy) and their discounted outcomes the value head. The imitated policy can be
cached in a file keyed by the settings that decide it (``IMITATION_KEYS``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from agents.training.config import TrainConfig
from agents.training.policy import _reads_dict

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

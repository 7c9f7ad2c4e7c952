"""Imitation before PPO: behaviour cloning of a teacher's play and of its outcomes.

The teacher (``TrainConfig.teacher``: the heuristic by default, or ``search:WORLDS``, which
is slower and stronger) plays itself; its decisions with two or more legal options train the
policy (cross-entropy) and their discounted outcomes the value head. The games are played
over ``TrainConfig.teacher_workers`` processes, and each game reseeds its players, so the
data does not depend on the number of workers.

Then come ``TrainConfig.dagger_rounds`` rounds of DAgger (Ross, Gordon and Bagnell, 2011): the
imitated policy plays games against the teacher, the teacher labels every decision the policy
met with what it would have played, the labelled decisions join the data, and the policy
trains again. Cloning the teacher's own games shows the policy only the positions the teacher
reaches; its first mistakes take it to positions it never saw, where it errs more. DAgger's
data comes from the positions the policy itself reaches. Their value targets are the policy's
own outcomes, so the value head also starts closer to the policy PPO fine-tunes. With
``TrainConfig.dagger_teacher`` another agent labels the rounds (a stronger one, e.g.
``search:4``, while the games stay against the teacher); the rounds then train on its labels
alone, so the policy can move past the teacher it cloned first.

The imitated policy can be cached in a file keyed by the settings that decide it
(``IMITATION_KEYS``).
"""

from __future__ import annotations

import json
import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from deckgym.agents.training.config import TrainConfig
from deckgym.agents.training.policy import _reads_dict, torch_threads

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
    "teacher",
    "dagger_rounds",
    "dagger_games",
    "dagger_epochs",
    "dagger_teacher",
    "learner",
    "card_agent",
)

#: Games per task of the worker pool that plays the teacher's games.
GAMES_PER_TASK = 8


def imitation_key(cfg: TrainConfig) -> dict[str, Any]:
    """The settings that decide ``cfg``'s imitated policy, as JSON reads them back."""
    return json.loads(json.dumps({k: getattr(cfg, k) for k in IMITATION_KEYS}))


#: What ``torch.load`` raises for a file that is not one it wrote (pickle's and zip's errors).
_UNREADABLE = (pickle.UnpicklingError, RuntimeError, EOFError, KeyError, ValueError, OSError, IndexError)


def read_imitation_cache(cfg: TrainConfig) -> dict[str, Any] | None:
    """The saved imitation of ``cfg.imitation_cache`` (None when there is no such file yet).

    Raises:
        ValueError: the file is not an imitation cache, or was written with other imitation
            settings (both named), or is a folder.
    """
    import torch

    cache = Path(cfg.imitation_cache) if cfg.imitation_cache else None
    if cache is None or not cache.exists():
        return None
    if not cache.is_file():
        raise ValueError(f"imitation cache {cache} is a folder; give a file name")
    try:
        saved = torch.load(cache, map_location="cpu", weights_only=True)
    except _UNREADABLE as exc:  # what torch raises for a file it cannot read
        raise ValueError(
            f"imitation cache {cache} is not a file deckgym train wrote ({type(exc).__name__}); "
            "remove it or name another file"
        ) from None
    key = imitation_key(cfg)
    if not isinstance(saved, dict) or saved.get("key") != key or not {"policy", "optimizer"} <= set(saved):
        found = saved.get("key") if isinstance(saved, dict) else None
        raise ValueError(
            f"imitation cache {cache} was written with other imitation settings: "
            f"it has {found}, this run needs {key}; remove it or name another file"
        )
    return saved


def start_from_imitation(model: Any, cfg: TrainConfig, log: Callable[[str], None] = print) -> None:
    """Imitate the heuristic, or load the imitated policy of ``cfg.imitation_cache`` when it fits."""
    import torch

    key = imitation_key(cfg)
    cache = Path(cfg.imitation_cache) if cfg.imitation_cache else None
    saved = read_imitation_cache(cfg)
    if cache is not None and saved is not None:
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
    """(observations, masks, actions, discounted returns, global states) of the teacher's self-play.

    Both seats' decisions with two or more legal options are kept (a "map" learner's: the map
    decisions alone, as its view), game after game until
    ``pretrain_samples`` decisions are collected. The global states (``env.state()`` at each
    decision) are collected only for ``critic="global"``, else None. The games are played over
    ``cfg.teacher_workers`` processes (1: in this process) with the same result.
    """
    import contextlib

    from deckgym.agents.arena import pool, run_chunks

    games: list[Game] = []
    total = 0
    start = 0
    workers = max(1, cfg.teacher_workers)
    step = GAMES_PER_TASK * workers  # the games the workers play at once, in game order
    # one pool for all the games when there are several workers (run_chunks uses it)
    with pool("process", workers) if workers > 1 else contextlib.nullcontext():
        while start < cfg.pretrain_games and total < cfg.pretrain_samples:
            chunks = [
                (cfg, list(range(g, min(g + GAMES_PER_TASK, cfg.pretrain_games))))
                for g in range(start, min(start + step, cfg.pretrain_games), GAMES_PER_TASK)
            ]
            for chunk in run_chunks(_teacher_games, chunks, workers):
                for game in chunk:
                    if total < cfg.pretrain_samples:
                        games.append(game)
                        total += len(game[2])
            start += step
    want_states = cfg.critic == "global"
    obs = [o for g in games for o in g[0]]
    return (
        np.asarray(obs),
        np.asarray([m for g in games for m in g[1]]),
        np.asarray([a for g in games for a in g[2]]),
        np.asarray([r for g in games for r in g[3]], dtype=np.float32),
        np.asarray([x for g in games for x in g[4]]) if want_states else None,
    )


#: One game's samples: observations, masks, actions, discounted returns, global states.
Game = tuple[list[np.ndarray], list[np.ndarray], list[int], list[float], list[np.ndarray]]


def _teacher_games(args: tuple[TrainConfig, list[int]]) -> list[Game]:
    """The samples of the teacher's self-play games ``numbers`` (a task of the worker pool)."""
    from deckgym import agents as agent_lib
    from deckgym import envs

    cfg, numbers = args
    env = envs.make(cfg.env, **cfg.env_kwargs)
    raw = env.unwrapped
    enc = raw.encoder
    seats = len(env.possible_agents)
    players = [
        agent_lib.make(cfg.teacher, cfg.env, seed=cfg.seed + i, **cfg.env_kwargs) for i in range(seats)
    ]
    for p in players:
        p.bind(env)
    want_states = cfg.critic == "global"
    seat_slices = [enc.global_layout(seats)[f"seat_{i}"].slice for i in range(seats)]
    view = learner_view(cfg, env)
    out: list[Game] = []
    for g in numbers:
        env.reset(seed=cfg.seed * 1_000_003 + g)
        for i, p in enumerate(players):
            p.reset(seed=(cfg.seed * 1_000_003 + g) * 16 + i)  # the game alone decides its play
        st = raw.game
        obs: list[np.ndarray] = []
        masks: list[np.ndarray] = []
        acts: list[int] = []
        states: list[np.ndarray] = []
        mover: list[int] = []
        while not st.is_terminal():
            seat = st.current_player
            mask = enc.action_mask(st)
            full = enc.global_state(st) if want_states else None  # it holds the seat's observation
            o = enc.observe(st, seat) if full is None else full[seat_slices[seat]]
            a = players[seat].act(o, mask)
            seen = view(o, mask)
            if seen is not None and int(seen[1].sum()) > 1:
                mover.append(seat)
                obs.append(seen[0].astype(np.float16))  # half the memory; the values are 0/1 and small ratios
                if full is not None:
                    states.append(full.astype(np.float16))
                masks.append(seen[1].astype(bool))
                acts.append(a)
            env.step(a)
            st = raw.game
        final = st.returns()
        rets = [0.0] * len(acts)
        for seat in range(len(final)):
            mine = [i for i, s_ in enumerate(mover) if s_ == seat]
            for k, i in enumerate(reversed(mine)):
                rets[i] = final[seat] * cfg.gamma**k
        out.append((obs, masks, acts, rets, states))
    return out


def imitate_heuristic(model: Any, cfg: TrainConfig, log: Callable[[str], None] = print) -> dict[str, float]:
    """Behaviour cloning of the teacher (policy) and of its outcomes (value) before PPO, then DAgger.

    Returns the number of training samples, the last epoch's loss, the agreement with the
    teacher on held-out decisions of its own games, and after DAgger ``student_agreement``:
    the share of the last round's decisions (the policy's own positions) on which the policy's
    choice was the teacher's, measured before it trained on them.
    """
    t0 = time.perf_counter()
    obs, masks, acts, rets, states = heuristic_dataset(cfg)
    data: Data = (obs, masks, acts, rets, states)
    policy = model.policy
    opt = policy.optimizer
    rng = np.random.default_rng(cfg.seed)
    order = rng.permutation(len(acts))
    held, train_idx = order[: len(acts) // 20], order[len(acts) // 20 :]  # 5% held out for agreement
    ppo_lr = [g["lr"] for g in opt.param_groups]
    for g in opt.param_groups:
        g["lr"] = cfg.pretrain_lr
    stats = _fit(policy, cfg, data, train_idx, held, cfg.pretrain_epochs, rng, log, "imitation")
    labeller = cfg.dagger_teacher or cfg.teacher
    if labeller != cfg.teacher:  # the rounds follow the other labeller: the teacher's labels leave
        train_idx = train_idx[:0]
    for r in range(cfg.dagger_rounds):
        new = student_dataset(policy, cfg, r)
        if not len(new[2]):
            continue
        agreement = _agreement(policy, new[0], new[1], new[2], np.arange(len(new[2])))
        log(
            f"DAgger round {r + 1}/{cfg.dagger_rounds}: the policy chose the {labeller}'s action on "
            f"{agreement:.1%} of the {len(new[2]):,} decisions of its own games"
        )
        first = len(data[2])
        data = tuple(  # type: ignore[assignment]
            None if a is None else np.concatenate([a, b]) for a, b in zip(data, new, strict=True)
        )
        train_idx = np.concatenate([train_idx, np.arange(first, len(data[2]))])
        stats = _fit(policy, cfg, data, train_idx, held, cfg.dagger_epochs, rng, log, f"DAgger {r + 1}")
        stats["student_agreement"] = agreement
    for g, lr in zip(opt.param_groups, ppo_lr, strict=True):
        g["lr"] = lr
    policy.set_training_mode(False)
    stats["seconds"] = time.perf_counter() - t0
    return stats


Data = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, "np.ndarray | None"]


def _fit(
    policy: Any,
    cfg: TrainConfig,
    data: Data,
    train_idx: np.ndarray,
    held: np.ndarray,
    epochs: int,
    rng: np.random.Generator,
    log: Callable[[str], None],
    label: str,
) -> dict[str, float]:
    """``epochs`` passes of cross-entropy and value error over ``train_idx`` (on ``update_threads``)."""
    opt = policy.optimizer
    n = len(train_idx)
    stats = {"samples": float(n)}
    with torch_threads(cfg.update_threads):
        for epoch in range(epochs):
            stats = _epoch(policy, cfg, data, train_idx, held, rng, opt)
            log(
                f"{label} epoch {epoch + 1}/{epochs}: loss {stats['loss']:.3f}, "
                f"agrees with the {cfg.teacher} on {stats['agreement']:.1%} of {len(held):,} held-out decisions"
            )
    return stats


def _epoch(
    policy: Any,
    cfg: TrainConfig,
    data: Data,
    train_idx: np.ndarray,
    held: np.ndarray,
    rng: np.random.Generator,
    opt: Any,
) -> dict[str, float]:
    """One pass over ``train_idx`` in shuffled minibatches; the loss and held-out agreement after it."""
    import torch

    obs, masks, acts, rets, states = data
    n = len(train_idx)
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
    return {
        "samples": float(n),
        "loss": total / n,
        "agreement": _agreement(policy, obs, masks, acts, held),
    }


#: Where the reset seeds of DAgger's games start (the teacher's games use the seeds below it).
DAGGER_SEEDS = 1 << 40


def student_dataset(policy: Any, cfg: TrainConfig, round_: int) -> Data:
    """DAgger's data: the policy's own decisions, labelled with the teacher's choice.

    The policy (greedy) plays ``cfg.dagger_games`` games (at most ``cfg.pretrain_games``,
    so that a small imitation gets small rounds), in the seat ``g % seats`` of game
    ``g`` (a "map" learner: the map decisions of team ``g % 2``, its card decisions by
    ``cfg.card_agent``), against the teacher in every other seat. At each of its decisions with two or more
    legal options the labeller (``cfg.dagger_teacher``, by default the teacher) names its
    action for the same position; the policy's action is the one played. Returns
    (observations, masks, the labeller's actions, the policy's discounted returns, global
    states or None), as ``heuristic_dataset``.
    """
    from deckgym import envs

    env = envs.make(cfg.env, **cfg.env_kwargs)
    players = _dagger_players(cfg, env)
    seats = len(env.possible_agents)
    # what the policy reads of a decision, and each seat's part of the global state
    views = (
        learner_view(cfg, env),
        [env.unwrapped.encoder.global_layout(seats)[f"seat_{i}"].slice for i in range(seats)],
    )
    student_seats = _student_seats(cfg, env)
    rows: dict[str, list[Any]] = {"obs": [], "masks": [], "acts": [], "rets": [], "states": []}
    games = min(cfg.dagger_games, cfg.pretrain_games)
    for g in range(games):
        seed = DAGGER_SEEDS + cfg.seed * 1_000_003 + round_ * games + g
        _student_game(policy, cfg, env, players, views, student_seats[g % len(student_seats)], seed, rows)
    return (
        np.asarray(rows["obs"], dtype=np.float16),
        np.asarray(rows["masks"], dtype=bool),
        np.asarray(rows["acts"], dtype=np.int64),
        np.asarray(rows["rets"], dtype=np.float32),
        np.asarray(rows["states"]) if cfg.critic == "global" else None,
    )


def _dagger_players(cfg: TrainConfig, env: Any) -> tuple[Any, Any, Any]:
    """The teacher (every seat but the student's), the labeller and a "map" learner's card player (or None)."""
    from deckgym import agents as agent_lib

    def bound(spec: str) -> Any:
        agent = agent_lib.make(spec, cfg.env, seed=cfg.seed, **cfg.env_kwargs)
        agent.bind(env)
        return agent

    teacher = bound(cfg.teacher)
    labeller = (
        bound(cfg.dagger_teacher) if cfg.dagger_teacher and cfg.dagger_teacher != cfg.teacher else teacher
    )
    cards = bound(cfg.card_agent) if cfg.learner == "map" else None  # the team's card decisions
    return teacher, labeller, cards


def _student_game(
    policy: Any,
    cfg: TrainConfig,
    env: Any,
    players: tuple[Any, Any, Any],
    views: tuple[Callable[[np.ndarray, np.ndarray], Any], list[slice]],
    student: Any,
    seed: int,
    rows: dict[str, list[Any]],
) -> None:
    """One DAgger game: the policy plays the seats ``student``, the labeller labels its decisions into ``rows``."""
    from deckgym.agents.training.policy import policy_action

    teacher, labeller, cards = players
    view, seat_slices = views
    raw = env.unwrapped
    enc = raw.encoder
    want_states = cfg.critic == "global"
    env.reset(seed=seed)
    teacher.reset(seed=seed)
    if labeller is not teacher:
        labeller.reset(seed=seed + 1)
    if cards is not None:
        cards.reset(seed=seed + 2)
    st = raw.game
    mine = 0
    while not st.is_terminal():
        seat = st.current_player
        mask = enc.action_mask(st)
        if seat not in student:
            env.step(teacher.act(None, mask))
        elif int(mask.sum()) == 1:
            env.step(int(np.flatnonzero(mask)[0]))
        else:
            full = enc.global_state(st) if want_states else None
            o = enc.observe(st, seat) if full is None else full[seat_slices[seat]]
            seen = view(o, mask)
            if seen is None:  # a card decision of a map learner's team
                env.step(int(cards.act(o, mask)))
            elif int(seen[1].sum()) == 1:
                env.step(int(np.flatnonzero(seen[1])[0]))
            else:
                rows["acts"].append(labeller.act(o, mask))
                rows["obs"].append(seen[0].astype(np.float16))
                if full is not None:
                    rows["states"].append(full.astype(np.float16))
                rows["masks"].append(seen[1].astype(bool))
                mine += 1
                env.step(policy_action(policy, seen[0], seen[1]))
        st = raw.game
    result = st.returns()[student[0]]
    rows["rets"].extend(result * cfg.gamma**k for k in reversed(range(mine)))


def learner_view(cfg: TrainConfig, env: Any) -> Callable[[np.ndarray, np.ndarray], Any]:
    """What the learner sees of a decision: ``(observation, mask)``, or None when it is not its own.

    A "seat" learner sees every decision whole; a "map" learner (``TrainConfig.learner``) only
    the map decisions, as the map view (``agents.composite.map_view``).
    """
    if cfg.learner != "map":
        return lambda o, m: (o, m)
    from deckgym.agents.composite import map_size, map_view

    size = map_size(env)
    return lambda o, m: map_view(o, m, size)


def _student_seats(cfg: TrainConfig, env: Any) -> list[list[int]]:
    """The seats the policy takes in DAgger's games, game after game: one seat, or a whole team."""
    if cfg.learner == "map":
        from deckgym.agents.arena import sides

        return [list(t) for t in sides(env)]
    return [[i] for i in range(len(env.possible_agents))]


def _agreement(policy: Any, obs: np.ndarray, masks: np.ndarray, acts: np.ndarray, idx: np.ndarray) -> float:
    """Share of the decisions ``idx`` on which the policy's most likely action is the teacher's."""
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

"""The training loop: MaskablePPO over self-play workers, live evaluations, checkpoints.

Training runs sb3-contrib's ``MaskablePPO`` over vectorised ``SingleAgentEnv`` workers (one
process per core). Each episode the learner meets an opponent drawn from a pool: the random
agent, the ruleset's heuristic and, as training goes on, frozen snapshots of itself
(self-play). The learner's seat alternates. Every ``eval_every`` steps the current policy
plays seat-swapped pairs against the baselines (``evaluate_live``): the score (wins +
draws/2) with its 95% interval over pairs, and the win/draw/loss rates. The history goes to
``history.json`` and ``train.json`` and becomes ``learning_curve.png``. Checkpoints,
TensorBoard logs and a progress bar come with it.

Every checkpoint (and the end of a run) also writes ``resume.json``: the settings, the step,
the checkpoint file, the self-play snapshots in the opponent pool, the learning-curve history
and the time spent so far. ``train(cfg, resume=True)`` (``deckgym train --resume DIR``)
continues from it: the model with its optimizer state, the opponent pool, the step count and
the history, up to ``cfg.timesteps`` steps in all. The random generators of the envs and
opponents start afresh, so a resumed run is not bitwise the run that did not stop.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from deckgym.agents.training.config import TrainConfig
from deckgym.agents.training.imitation import start_from_imitation
from deckgym.agents.training.plots import plot_learning_curve
from deckgym.agents.training.policy import (
    global_critic_policy,
    policy_action,
    policy_kwargs,
    update_thread_count,
    value_only,
)
from deckgym.agents.training.selfplay_env import make_single_agent_env

#: The baselines the live policy plays at each evaluation.
BASELINES = ("random", "heuristic")


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
    model: Any,
    env_name: str,
    env_kwargs: dict[str, Any],
    opponent: str,
    games: int,
    seed: int,
    agent: Any = None,
) -> dict[str, Any]:
    """The live model against a baseline over seat-swapped pairs, in process.

    Returns the score (wins + draws/2 per game) with its 95% interval over the pairs
    (``score``, ``score_ci95``, as ``MatchResult`` computes them) and the win/draw/loss rates.
    """
    from deckgym import agents as agent_lib
    from deckgym import envs
    from deckgym.agents.arena import MatchResult, pair_points, tally

    env = envs.make(env_name, **env_kwargs)
    opp = agent_lib.make(opponent, env_name, seed=seed, **env_kwargs)
    player = _LiveAgent(model) if agent is None else agent
    pairs = pair_points(env, player, opp, range(seed, seed + (games + 1) // 2))
    w, d, lo = tally(pairs)
    n = w + d + lo
    res = MatchResult("learner", opponent, env_name, n, w, d, lo, dict(env_kwargs), pairs)
    return {
        "score": res.score,
        "score_ci95": list(res.score_ci95),
        "win": w / n,
        "draw": d / n,
        "loss": lo / n,
        "games": n,
    }


def _record(history: list[dict[str, Any]], row: dict[str, Any]) -> None:
    """Append an evaluation; one of the same step (the model before the last update) gives way to it."""
    if history and history[-1]["timesteps"] == row["timesteps"]:
        history.pop()
    history.append(row)


def _crossed(n: int, k: int, every: int) -> bool:
    """Whether the last ``k`` steps up to step ``n`` crossed a multiple of ``every`` (0: never)."""
    return bool(every) and n // every != (n - k) // every


class _EvalBoard:
    """The evaluations in TensorBoard (``OUT/tb/evaluation``).

    Per baseline: the score with the ends of its 95% interval, and the win, draw and loss
    rates, at the step they were measured.
    """

    def __init__(self, folder: Path) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(str(folder / "evaluation"))

    def write(self, row: dict[str, Any]) -> None:
        step = int(row["timesteps"])
        for opp in BASELINES:
            r = row[opp]
            lo, hi = r["score_ci95"]
            for key, value in (("score", r["score"]), ("score_lo95", lo), ("score_hi95", hi)):
                self.writer.add_scalar(f"eval_vs_{opp}/{key}", value, step)
            for key in ("win", "draw", "loss"):
                self.writer.add_scalar(f"eval_vs_{opp}/{key}", r[key], step)
        self.writer.flush()


def _summary(opponent: str, r: dict[str, Any]) -> str:
    """One evaluation as text: the score with its 95% interval, then the win rate."""
    lo, hi = r["score_ci95"]
    return f"vs {opponent}: score {r['score']:.0%} [{lo:.0%}, {hi:.0%}], win {r['win']:.0%}"


def _worker_factories(cfg: TrainConfig, n_envs: int, base: list[str], weights: list[float]) -> list[Any]:
    """The factories of the ``n_envs`` training envs, each with its own opponents (and card player)."""
    if cfg.learner == "map":  # the map decisions of a whole AMALOGS team (agents.training.team_env)
        from deckgym.agents.training.team_env import make_team_map_env

        return [
            make_team_map_env(
                cfg.env,
                _opponent_factory(cfg.env, base, cfg.seed + 101 * i),
                _card_factory(cfg, cfg.seed + 101 * i),
                cfg.env_kwargs,
                weights=weights,
            )
            for i in range(n_envs)
        ]
    return [
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


def _card_factory(cfg: TrainConfig, seed: int) -> Callable[[], Any]:
    """The card player of a "map" learner's team (``cfg.card_agent``), built in the worker."""

    def build() -> Any:
        from deckgym import agents as agent_lib

        return agent_lib.make(cfg.card_agent, cfg.env, seed=seed, **cfg.env_kwargs)

    return build


def live_agent(model: Any, cfg: TrainConfig) -> Any:
    """The model being trained as an agent of the whole game.

    For a "map" learner: inside the composite (its card decisions by ``cfg.card_agent``'s card
    models); else the policy itself.
    """
    if cfg.learner != "map":
        return _LiveAgent(model)
    from deckgym.agents.composite import CompositeAgent, slots_for

    team = CompositeAgent(slots=slots_for(cfg.card_agent), map_model=_LiveAgent(model))
    team.name = "learner"
    return team


def _opponent_factory(env_name: str, specs: list[str], seed: int) -> Callable[[], list[Any]]:
    def build() -> list[Any]:
        from deckgym import agents as agent_lib

        return [agent_lib.make(s, env_name, seed=seed + i) for i, s in enumerate(specs)]

    return build


#: The file a run writes beside its checkpoints for ``--resume``.
RESUME_FILE = "resume.json"


def resume_config(out: str | Path, timesteps: int | None = None) -> TrainConfig:
    """The settings of the run in ``out`` (from its ``resume.json``), with more ``timesteps`` if given.

    Raises:
        FileNotFoundError: ``out`` holds no ``resume.json`` (no checkpoint was written there).
        ValueError: ``timesteps`` is not more than the steps already trained.
    """
    path = Path(out) / RESUME_FILE
    if not path.is_file():
        raise FileNotFoundError(
            f"no {RESUME_FILE} in {out}: nothing to resume (no checkpoint was written there)"
        )
    state = json.loads(path.read_text())
    cfg = TrainConfig(**{**state["config"], "out": str(out)})
    if timesteps is not None:
        if timesteps <= state["step"]:
            raise ValueError(
                f"--timesteps {timesteps} must be more than the {state['step']:,} steps already trained"
            )
        cfg.timesteps = timesteps
    return cfg


def _thread_counts(cfg: TrainConfig) -> tuple[int, int]:
    """Torch's threads while the learner plays and while it updates (``torch_threads``, ``update_threads``)."""
    import torch

    play = cfg.torch_threads or torch.get_num_threads()
    return play, update_thread_count(cfg.update_threads)


def _ppo_class(cfg: TrainConfig) -> Any:
    """MaskablePPO, or its anchored form when ``cfg.kl_coef`` is set (``agents.training.anchor``)."""
    if cfg.kl_coef > 0:
        from deckgym.agents.training.anchor import anchored_ppo

        return anchored_ppo()
    from sb3_contrib import MaskablePPO

    return MaskablePPO


def _restore(
    state: dict[str, Any],
    out: Path,
    vec: Any,
    base: list[str],
    weights: list[float],
    cfg: TrainConfig,
    log: Callable[[str], None],
    ppo_class: Any,
) -> tuple[Any, list[dict[str, Any]], list[str]]:
    """The model of a resumed run (with its optimizer and step count), its history and its snapshots.

    The self-play snapshots that still exist go back into every env's opponent pool.
    """
    # the run's own class: the anchored one when kl_coef is set (a plain load has no set_anchor)
    model = ppo_class.load(out / state["checkpoint"], env=vec, device="cpu", tensorboard_log=str(out / "tb"))
    snapshots = [s for s in state["snapshots"] if Path(s).is_file()]
    if snapshots:
        share = cfg.opponents["self"] / len(snapshots)
        vec.env_method("set_pool", base + [f"ppo:{p}" for p in snapshots], weights + [share] * len(snapshots))
    log(f"resumed from {out / state['checkpoint']} at {model.num_timesteps:,} steps")
    return model, list(state["history"]), snapshots


def _load_start(model: Any, cfg: TrainConfig, log: Callable[[str], None]) -> None:
    """Put the weights of ``cfg.init_model`` into ``model`` (its policy, value head and extractor).

    Raises:
        ValueError: the file's network has another shape than the run's (``net_arch``,
            ``features_dim``, ``critic``, or the env's observation and actions).
    """
    from stable_baselines3.common.save_util import load_from_zip_file

    from deckgym.agents.pretrained import model_path

    # validate() checked the file (or that a model is shipped for the env and mode)
    path = model_path(cfg.env, cfg.env_kwargs) if cfg.init_model == "pretrained" else Path(cfg.init_model)
    _, params, _ = load_from_zip_file(str(path), device="cpu", load_data=False)
    try:
        # the policy's weights only: the run keeps its own optimizer, step count and settings
        model.policy.load_state_dict(params["policy"], strict=True)
    except RuntimeError as e:  # load_state_dict's missing, unexpected or mis-sized weights
        first = str(e).strip().splitlines()[1:2] or [str(e)]
        raise ValueError(
            f"init_model {str(path)!r} does not fit this run's network (net_arch {list(cfg.net_arch)}, "
            f"features_dim {cfg.features_dim}, critic {cfg.critic!r}): {first[0].strip()}"
        ) from None
    log(f"starting from the weights of {path}")


def _vec_env(cfg: TrainConfig, n_envs: int, base: list[str], weights: list[float]) -> Any:
    """The training workers (in process or one per process), seeded, with episode statistics."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if cfg.vec_env == "batch":  # every game in one batched env (envs.vector)
        from deckgym.agents import vector
        from deckgym.agents.training.batch_vec import BatchVecEnv

        batch = vector(
            cfg.env,
            n_envs,
            list(base),
            weights=list(weights),
            workers=min(cfg.batch_workers, n_envs),
            shaping=cfg.shaping,
            gamma=cfg.gamma,
            illegal_action="penalize",
            **cfg.env_kwargs,
        )
        vec: Any = BatchVecEnv(batch)
    else:
        factories = _worker_factories(cfg, n_envs, base, weights)
        subproc = cfg.vec_env == "subproc" and n_envs > 1
        vec = SubprocVecEnv(factories, start_method="fork") if subproc else DummyVecEnv(factories)
    vec.seed(cfg.seed)
    return VecMonitor(vec)  # episode returns and lengths (rollout/ep_rew_mean, ep_len_mean in TensorBoard)


def _new_model(cfg: TrainConfig, vec: Any, n_envs: int, out: Path) -> Any:
    """A fresh MaskablePPO (anchored when ``cfg.kl_coef`` is set) over ``vec``."""
    return _ppo_class(cfg)(
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


class _Run:
    """One training run: its folder, model, learning-curve history, self-play snapshots and clocks.

    ``evaluate``, ``snapshot`` and ``checkpoint`` are what the callbacks call during ``learn``
    (``_schedule_callback``); ``start`` and ``finish`` come before and after it.
    """

    def __init__(self, cfg: TrainConfig, log: Callable[[str], None], resume: bool) -> None:
        import torch

        self.cfg, self.log = cfg, log
        self.out = Path(cfg.out)
        (self.out / "snapshots").mkdir(parents=True, exist_ok=True)
        self.n_envs = cfg.env_count()
        torch.manual_seed(cfg.seed)
        self.play_threads, self.update_threads = _thread_counts(cfg)
        torch.set_num_threads(self.play_threads)
        self.base = [k for k in cfg.opponents if k != "self"]
        self.weights = [cfg.opponents[k] for k in self.base]
        self.vec = _vec_env(cfg, self.n_envs, self.base, self.weights)
        self.model = _new_model(cfg, self.vec, self.n_envs, self.out)
        self.history: list[dict[str, Any]] = []
        self.snapshots: list[str] = []
        self.t0 = time.perf_counter()
        self.eval_seconds = 0.0  # time spent in evaluations, kept out of the PPO loop's own rate
        self.ppo_before = 0.0  # the PPO loop's time before this process (a resumed run's)
        self.state: dict[str, Any] | None = None
        if resume:
            self.state = json.loads((self.out / RESUME_FILE).read_text())
            self.model, self.history, self.snapshots = _restore(
                self.state, self.out, self.vec, self.base, self.weights, cfg, log, _ppo_class(cfg)
            )
            self.t0 -= self.state["seconds"]
            self.eval_seconds = self.state["eval_seconds"]
            self.ppo_before = self.state["ppo_seconds"]
        self.board = _EvalBoard(self.out / "tb")
        self.learn_start, self.eval_before = time.perf_counter(), self.eval_seconds

    def ppo_seconds(self) -> float:
        """Time inside the PPO loop so far: rollouts, updates and snapshots, without evaluations."""
        learning = time.perf_counter() - self.learn_start - (self.eval_seconds - self.eval_before)
        return self.ppo_before + learning

    def checkpoint(self, step: int, name: str) -> None:
        """Save the model as ``name`` and what a resume needs beside it (``resume.json``)."""
        self.model.save(self.out / name)
        record = {
            "config": asdict(self.cfg),
            "step": step,
            "checkpoint": name,
            "snapshots": list(self.snapshots),
            "history": self.history,
            "seconds": time.perf_counter() - self.t0,
            "eval_seconds": self.eval_seconds,
            "ppo_seconds": self.ppo_seconds(),
        }
        tmp = self.out / (RESUME_FILE + ".tmp")
        tmp.write_text(json.dumps(record, indent=1))
        tmp.replace(self.out / RESUME_FILE)  # a run killed while writing keeps the previous one

    def evaluate(self, step: int) -> None:
        """The live policy against each baseline; the row joins the history, TensorBoard and the log."""
        started = time.perf_counter()
        row: dict[str, Any] = {"timesteps": step, "seconds": started - self.t0}
        cfg = self.cfg
        for opp in BASELINES:
            agent = live_agent(self.model, cfg)
            row[opp] = evaluate_live(
                self.model, cfg.env, cfg.env_kwargs, opp, cfg.eval_games, 10_000 + step, agent
            )
        _record(self.history, row)
        self.board.write(row)
        (self.out / "history.json").write_text(json.dumps(self.history, indent=1))
        self.log(
            f"[{step:>9,} steps, {row['seconds']:6.0f}s] "
            + "; ".join(_summary(opp, row[opp]) for opp in BASELINES)
        )
        self.eval_seconds += time.perf_counter() - started

    def snapshot(self, step: int) -> None:
        """Freeze the policy into the self-play pool (the last ``max_snapshots``), in every worker."""
        path = self.out / "snapshots" / f"step_{step}.zip"
        self.model.save(path)
        self.snapshots.append(str(path))
        del self.snapshots[: -self.cfg.max_snapshots]
        pool = self.base + [f"ppo:{p}" for p in self.snapshots]
        share = self.cfg.opponents["self"] / len(self.snapshots)
        self.vec.env_method("set_pool", pool, self.weights + [share] * len(self.snapshots))

    def start(self) -> None:
        """Before PPO: the imitation and its evaluation (a new run), the KL anchor (when set)."""
        if self.state is None:
            if self.cfg.init_model:
                _load_start(self.model, self.cfg, self.log)
                self.model.save(self.out / "start.zip")  # the start, to evaluate beside the model
            elif self.cfg.pretrain_games:
                start_from_imitation(self.model, self.cfg, self.log)
                self.model.save(self.out / "imitation.zip")  # the start, to evaluate beside the model
            self.evaluate(0)
        if self.cfg.kl_coef > 0:  # the anchor: the policy as PPO starts (a resumed run: as it resumes)
            self.model.set_anchor(self.cfg.kl_coef, self.cfg.kl_decay_steps)
        self.learn_start, self.eval_before = time.perf_counter(), self.eval_seconds

    def learn(self) -> None:
        """PPO up to ``cfg.timesteps`` steps, with the threads and schedule callbacks."""
        import torch
        from stable_baselines3.common.callbacks import CallbackList

        remaining = self.cfg.timesteps - self.model.num_timesteps
        if remaining > 0:
            self.model.learn(
                total_timesteps=remaining,
                callback=CallbackList([_threads_callback(self), _schedule_callback(self)]),
                progress_bar=self.cfg.progress_bar,
                tb_log_name="maskable_ppo",
                reset_num_timesteps=self.state is None,
            )
            torch.set_num_threads(self.play_threads)

    def finish(self) -> dict[str, Any]:
        """The end: the model, its evaluation, the last checkpoint, train.json and the curve."""
        from deckgym import provenance

        cfg, model = self.cfg, self.model
        elapsed = time.perf_counter() - self.t0
        ppo_seconds = self.ppo_seconds()
        model.save(self.out / "model.zip")
        self.evaluate(model.num_timesteps)  # the end, once: before the checkpoint, so a resume keeps its row
        self.checkpoint(int(model.num_timesteps), "model.zip")  # the end of a run can be extended too
        self.vec.close()
        summary = {
            "provenance": provenance(cfg.env, cfg.env_kwargs, seed=cfg.seed),
            "config": {**asdict(cfg), "n_envs": self.n_envs},
            "timesteps": int(model.num_timesteps),
            "train_seconds": elapsed,
            "steps_per_second": model.num_timesteps / elapsed,
            # inside the PPO loop alone: rollouts, updates and snapshots, without imitation or evaluations
            "ppo_seconds": ppo_seconds,
            "ppo_steps_per_second": model.num_timesteps / max(1e-9, ppo_seconds),
            "history": self.history,
        }
        (self.out / "train.json").write_text(json.dumps(summary, indent=1))
        plot_learning_curve(
            self.history, self.out / "learning_curve.png", title=f"{cfg.env} {cfg.env_kwargs}"
        )
        return summary


def _threads_callback(run: _Run) -> Any:
    """Torch's threads: ``play_threads`` during rollouts, ``update_threads`` during updates.

    No env runs in the learner's process during an update, so it may take more threads (one
    unless told otherwise: more collapse beside other CPU work, ``policy.update_thread_count``).
    During the value warm-up only the value function learns in the update that follows.
    """
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    class Threads(BaseCallback):
        def _on_rollout_start(self) -> None:
            torch.set_num_threads(run.play_threads)

        def _on_rollout_end(self) -> None:
            value_only(run.model.policy, self.num_timesteps < run.cfg.value_warmup_steps)
            torch.set_num_threads(run.update_threads)

        def _on_step(self) -> bool:
            return True

    return Threads()


def _schedule_callback(run: _Run) -> Any:
    """Evaluations, self-play snapshots and checkpoints at their periods of steps."""
    from stable_baselines3.common.callbacks import BaseCallback

    cfg = run.cfg

    class Schedule(BaseCallback):
        def _on_step(self) -> bool:
            n, k = self.num_timesteps, self.training_env.num_envs
            if _crossed(n, k, cfg.eval_every) and n < cfg.timesteps:  # the end is evaluated after it
                run.evaluate(n)
            if "self" in cfg.opponents and _crossed(n, k, cfg.snapshot_every):
                run.snapshot(n)
            if _crossed(n, k, cfg.checkpoint_every):
                run.checkpoint(n, f"checkpoint_{n}.zip")
            return True

    return Schedule()


def train(cfg: TrainConfig, log: Callable[[str], None] = print, resume: bool = False) -> dict[str, Any]:
    """Train, evaluate and save; return the run summary (also written to ``out/train.json``).

    With ``resume``, continue the run in ``cfg.out`` from its last checkpoint (``resume.json``).
    """
    cfg.validate()  # settings errors before any worker env is built or file written
    run = _Run(cfg, log, resume)
    run.start()
    run.learn()
    return run.finish()

"""RLlib PPO with an action-masking RLModule on a deckgym env (self-play, one shared policy).

    python scripts/rllib_ppo.py                                   # OCG beginner, 5 iterations
    python scripts/rllib_ppo.py --iterations 50 --batch 4000 --env-runners 2 --json
    python scripts/rllib_ppo.py --env mow_v1 --options '{}' --checkpoint runs/rllib_mow
    python scripts/rllib_ppo.py --resume runs/rllib_mow --iterations 10 --checkpoint runs/rllib_mow
    python scripts/rllib_ppo.py --batched 64 --batch 4096 --minibatch 512 --epochs 1   # the batched env

Both seats play the same policy, RLlib's ``ActionMaskingTorchRLModule`` (the example module
that ships with RLlib: it adds -inf to the logits of masked actions), over ``envs.rllib``'s
``RllibEnv``. Sampling runs in the driver (``--env-runners 0``, the default) or in that many
env-runner processes, each with ``--envs-per-runner`` envs.

The report gives, per iteration, the env steps sampled, the episodes, their mean length and
the mean return of each seat (in zero-sum self-play the two seats' returns sum to about 0, so
the mean over all agents says nothing), and the env steps per second; beside them, the rate of
the bare adapter (random legal actions through ``RllibEnv``, no learning) measured in the same
run. At the end the greedy policy plays ``--eval-games`` games against the heuristic in
seat-swapped pairs: its score (wins + draws/2) with the 95% interval over the pairs, and win,
draw and loss. ``--checkpoint DIR`` saves the algorithm there after training (RLlib's own
checkpoint format), ``--resume DIR`` continues from one. The exit status is 1 if the policy
sent an action the mask forbade (every illegal action ends a game with -1 and is counted).
``--batched N`` trains on the batched env instead (``envs.vector`` through ``gymnasium.make_vec``'s
vector entry point, which RLlib's single-agent env runners take whole): N games per env runner,
the learner's seat in each against ``--opponent`` (the heuristic) inside the env, one policy
with the same masking module over ``{"observations", "action_mask"}``; beside the bare
adapter's rate the report then gives the batched env's own (random legal actions for the
learner), both measured in the same run.

Needs the ``rllib`` extra (``pip install -e '.[rllib]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def build(args: argparse.Namespace, options: dict[str, Any]) -> Any:
    """The PPO algorithm with one masking module, set up by ``main``'s parsed options.

    It reads ``--env``, ``--batch``, ``--minibatch``, ``--epochs``, ``--seed``, ``--env-runners``
    (0: sampling in the driver), ``--envs-per-runner``, and ``--batched`` with ``--opponent``.
    """
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from deckgym.envs.rllib import RllibEnv

    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [128, 128]}
    )
    config = PPOConfig()
    if args.batched:  # one learner seat per game, N games per env runner in one batched env
        from ray.tune.registry import register_env

        register_env("deckgym-batched", _batched_env)
        config = (
            config.environment(
                "deckgym-batched", env_config={"env": args.env, "opponent": args.opponent, **options}
            )
            .env_runners(
                num_env_runners=args.env_runners,
                num_envs_per_env_runner=args.batched,
                gym_env_vectorize_mode="vector_entry_point",
            )
            .rl_module(rl_module_spec=module)
        )
    else:  # self-play: both seats of the turn-based adapter share one module
        config = (
            config.environment(RllibEnv, env_config={"env": args.env, **options})
            .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": module}))
            .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner)
        )
    return (
        config.learners(num_learners=0)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=3e-4,
        )
        .debugging(seed=args.seed)
        .build_algo()
    )


def _batched_env(ctx: dict[str, Any]) -> Any:
    """The batched env of an env runner (RLlib passes ``num_envs`` beside the env config)."""
    from deckgym import agents

    config = dict(ctx)
    name, opponent, n = config.pop("env"), config.pop("opponent"), int(config.pop("num_envs", 1))
    return agents.vector(name, n, opponent, observation="dict", illegal_action="penalize", **config)


def batched_rate(
    env: str, options: dict[str, Any], num_envs: int, opponent: str, seconds: float, seed: int
) -> float:
    """Learner steps per second of the batched env alone, random legal actions (no learning)."""
    import numpy as np

    from deckgym import agents

    batch = agents.vector(env, num_envs, opponent, observation="dict", **options)
    rng = np.random.default_rng(seed)
    obs, _info = batch.reset(seed=seed)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        masks = obs["action_mask"]
        obs, _r, _te, _tr, _info = batch.step((rng.random(masks.shape) * masks).argmax(1))
        steps += num_envs
    return steps / (time.perf_counter() - t0)


class GreedyModule:
    """The trained RLModule as a deckgym agent (``act(observation, mask)``): the best legal logit."""

    name = "rllib"

    def __init__(self, module: Any) -> None:
        import torch

        self.module = module
        self.torch = torch

    def reset(self, seed: int | None = None) -> None:
        """No state between games."""

    def act(self, observation: Any, action_mask: Any) -> int:
        """The legal action with the highest logit."""
        import numpy as np

        torch = self.torch
        obs = {
            "observations": torch.as_tensor(np.asarray(observation, dtype=np.float32)[None]),
            "action_mask": torch.as_tensor(np.asarray(action_mask, dtype=np.float32)[None]),
        }
        with torch.no_grad():
            logits = self.module.forward_inference({"obs": obs})["action_dist_inputs"][0].numpy()
        legal = np.flatnonzero(action_mask)
        return int(legal[np.argmax(logits[legal])])


def evaluate(
    algo: Any, env: str, options: dict[str, Any], games: int, seed: int, module_id: str = "shared"
) -> dict[str, Any]:
    """The greedy policy against the heuristic over seat-swapped pairs (``agents.arena``'s score)."""
    from deckgym import agents, envs
    from deckgym.agents.arena import MatchResult, pair_points, tally

    aec = envs.make(env, **options)
    me = GreedyModule(algo.get_module(module_id))
    them = agents.make("heuristic", env, seed=seed, **options)
    pairs = pair_points(aec, me, them, range(seed, seed + (games + 1) // 2))
    w, d, lo = tally(pairs)
    res = MatchResult("rllib", "heuristic", env, w + d + lo, w, d, lo, dict(options), pairs)
    return res.to_dict()


def adapter_rate(env: str, options: dict[str, Any], seconds: float, seed: int) -> float:
    """Env steps per second of ``RllibEnv`` alone, with random legal actions (no learning)."""
    import random

    import numpy as np

    from deckgym.envs.rllib import RllibEnv

    rllib_env = RllibEnv({"env": env, **options})
    rng = random.Random(seed)
    steps, t0 = 0, time.perf_counter()
    obs, _ = rllib_env.reset(seed=seed)
    while time.perf_counter() - t0 < seconds:
        ((me, o),) = obs.items()
        obs, _r, term, trunc, _i = rllib_env.step({me: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        steps += 1
        if term["__all__"] or trunc["__all__"]:
            obs, _ = rllib_env.reset(seed=seed + steps)
    return steps / (time.perf_counter() - t0)


def sampling_rate(algo: Any, seconds: float) -> float:
    """Env steps per second of RLlib's own sampling in the driver (the policy exploring), with no update."""
    # the driver's runner: _parse allows --sample-seconds with --env-runners 0 only
    runner = algo.env_runner_group.local_env_runner
    runner.sample(num_timesteps=1024)  # warm up
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        steps += sum(len(e) for e in runner.sample(num_timesteps=4096))
    return steps / (time.perf_counter() - t0)


def _get(result: dict[str, Any], *keys: str) -> Any:
    for k in keys:
        if not isinstance(result, dict) or k not in result:
            return None
        result = result[k]
    return result


def _parser() -> argparse.ArgumentParser:
    """The command-line options."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="medarot_ocg_v1")
    ap.add_argument("--options", default='{"mode": "beginner"}', help="env options as a JSON object")
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--batch", type=int, default=1000, help="env steps per iteration")
    ap.add_argument("--minibatch", type=int, default=250)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--env-runners", type=int, default=0, help="env-runner processes (0: sample in the driver)"
    )
    ap.add_argument("--envs-per-runner", type=int, default=1, help="envs in each env runner")
    ap.add_argument(
        "--batched",
        type=int,
        default=0,
        help="games per env runner in one batched env (0: the self-play adapter)",
    )
    ap.add_argument("--opponent", default="heuristic", help="the learner's opponent inside the batched env")
    ap.add_argument(
        "--eval-games", type=int, default=40, help="games against the heuristic at the end (0: none)"
    )
    ap.add_argument("--checkpoint", type=Path, default=None, help="save the algorithm here after training")
    ap.add_argument(
        "--resume", type=Path, default=None, help="continue from a checkpoint saved by --checkpoint"
    )
    ap.add_argument(
        "--sample-seconds",
        type=float,
        default=0.0,
        help="after training, time RLlib's own sampling (no update) this long (0: no)",
    )
    ap.add_argument(
        "--address",
        default=os.environ.get("RAY_ADDRESS", ""),
        help="a Ray cluster to join (host:port of its head; default: $RAY_ADDRESS, else a local Ray)",
    )
    ap.add_argument("--json", action="store_true")
    return ap


def _parse(argv: list[str] | None) -> tuple[argparse.Namespace, dict[str, Any]]:
    """Parse and check the command line: the options and the env options."""
    ap = _parser()
    args = ap.parse_args(argv)
    options = json.loads(args.options)
    if not isinstance(options, dict):
        ap.error(f"--options must be a JSON object, got {args.options!r}")
    if min(args.iterations, args.batch, args.minibatch, args.epochs, args.envs_per_runner) < 1:
        ap.error("--iterations, --batch, --minibatch, --epochs and --envs-per-runner must be at least 1")
    if min(args.env_runners, args.eval_games, args.batched, args.sample_seconds) < 0:
        ap.error("--env-runners, --eval-games, --batched and --sample-seconds must be at least 0")
    if args.sample_seconds and args.env_runners:
        ap.error("--sample-seconds times the driver's env runner: give it with --env-runners 0")
    if args.resume is not None and not (args.resume / "rllib_checkpoint.json").is_file():
        ap.error(f"--resume {args.resume}: no RLlib checkpoint there (write one with --checkpoint)")
    return args, options


def _iteration_row(i: int, result: dict[str, Any], t0: float) -> dict[str, Any]:
    """The report row of one training iteration from RLlib's result."""
    from deckgym.envs.rllib import RllibEnv

    returns = _get(result, "env_runners", "agent_episode_returns_mean") or {}
    if len(returns) <= 1 and _get(result, "env_runners", "episode_return_mean") is not None:
        returns = {"learner": _get(result, "env_runners", "episode_return_mean")}  # the batched env: one seat
    return {
        "iteration": i + 1,
        "env_steps": _get(result, "env_runners", "num_env_steps_sampled_lifetime"),
        "env_steps_this_iteration": _get(result, "env_runners", "num_env_steps_sampled") or 0,
        "episodes": _get(result, "env_runners", "num_episodes_lifetime"),
        "episode_len_mean": _get(result, "env_runners", "episode_len_mean"),
        "return_mean_by_seat": {str(k): v for k, v in sorted(returns.items())},
        "illegal_actions": RllibEnv.illegal_actions,
        "seconds": time.perf_counter() - t0,
    }


def _print_row(row: dict[str, Any]) -> None:
    """Print one iteration's row as a line of text."""
    seats = ", ".join(f"{k} {v:+.2f}" for k, v in row["return_mean_by_seat"].items())
    print(
        f"iteration {row['iteration']}: {row['env_steps']} env steps, {row['episodes']} episodes, "
        f"mean length {row['episode_len_mean']}, mean return {seats or '-'}, "
        f"illegal actions {row['illegal_actions']}",
        flush=True,
    )


def _train(algo: Any, args: argparse.Namespace) -> tuple[list[dict[str, Any]], float]:
    """Run the training iterations, printing each unless ``--json``: the rows and the seconds taken."""
    rows = []
    t0 = time.perf_counter()
    for i in range(args.iterations):
        row = _iteration_row(i, algo.train(), t0)
        rows.append(row)
        if not args.json:
            _print_row(row)
    return rows, time.perf_counter() - t0


def _train_and_evaluate(args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    """Measure the bare adapter, then train, checkpoint and evaluate the policy inside Ray."""
    import ray

    from deckgym.envs.rllib import RllibEnv

    bare = adapter_rate(args.env, options, 2.0, args.seed)
    batched = (
        batched_rate(args.env, options, args.batched, args.opponent, 2.0, args.seed) if args.batched else None
    )
    # a cluster (--address, or RAY_ADDRESS) gives its nodes' CPUs; otherwise a local Ray of 2 CPUs
    where = {"address": args.address} if args.address else {"num_cpus": 2}
    ray.init(**where, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        algo = build(args, options)
        if args.resume is not None:
            algo.restore_from_path(str(args.resume.resolve()))
        RllibEnv.illegal_actions = 0  # RLlib's env checker stepped random actions while building
        rows, seconds = _train(algo, args)
        # after training: the steps it samples would otherwise count in the first iteration's
        sampling = sampling_rate(algo, args.sample_seconds) if args.sample_seconds else None
        sampled = sum(r["env_steps_this_iteration"] for r in rows)
        if args.checkpoint is not None:
            algo.save_to_path(str(args.checkpoint.resolve()))
        evaluation = (
            evaluate(
                algo,
                args.env,
                options,
                args.eval_games,
                args.seed + 900_000,
                "default_policy" if args.batched else "shared",
            )
            if args.eval_games
            else None
        )
        algo.stop()
    finally:
        ray.shutdown()
    return {
        "bare": bare,
        "batched": batched,
        "sampling": sampling,
        "rows": rows,
        "seconds": seconds,
        "sampled": sampled,
        "evaluation": evaluation,
    }


def _print_summary(
    args: argparse.Namespace,
    rate: float,
    bare: float,
    evaluation: dict[str, Any] | None,
    batched: float | None,
    sampling: float | None,
) -> None:
    """Print the rate, the evaluation, the checkpoint and the illegal actions as text."""
    from deckgym.envs.rllib import RllibEnv

    print(
        f"{rate:,.0f} env steps/s while training ({rate / bare:.3f}x the bare adapter's {bare:,.0f} "
        "random steps/s)"
    )
    if batched is not None:
        print(f"  and {rate / batched:.3f}x the batched env's own {batched:,.0f} random learner steps/s")
    if sampling is not None:
        print(
            f"RLlib's sampling alone (no update): {sampling:,.0f} env steps/s, {sampling / bare:.3f}x the bare adapter's"
        )
    if evaluation is not None:
        lo, hi = evaluation["score_ci95"]
        print(
            f"vs heuristic over {evaluation['games']} games: score {evaluation['score']:.3f} [{lo:.3f}, {hi:.3f}] "
            f"(win {evaluation['win_rate']:.3f}, draw {evaluation['draw_rate']:.3f}, loss {evaluation['loss_rate']:.3f})"
        )
    if args.checkpoint is not None:
        print(f"checkpoint: {args.checkpoint} (continue with --resume {args.checkpoint})")
    print(f"illegal actions sent by the policy: {RllibEnv.illegal_actions}")


def main(argv: list[str] | None = None) -> int:
    """Train; print one line per iteration (or JSON); exit 1 if the policy sent an illegal action."""
    args, options = _parse(argv)
    run = _train_and_evaluate(args, options)
    from deckgym import provenance
    from deckgym.envs.rllib import RllibEnv

    rate = run["sampled"] / run["seconds"]
    report = {
        "provenance": provenance(args.env, options, seed=args.seed),
        "env": args.env,
        "options": options,
        "iterations": run["rows"],
        "env_steps_per_second": rate,
        "adapter_steps_per_second": run["bare"],
        "batched_env_steps_per_second": run["batched"],
        "sampling_steps_per_second": run["sampling"],
        "evaluation_vs_heuristic": run["evaluation"],
        "checkpoint": str(args.checkpoint) if args.checkpoint else None,
        "illegal_actions": RllibEnv.illegal_actions,
    }
    if args.json:
        print(json.dumps(report, indent=1, default=str))
    else:
        _print_summary(args, rate, run["bare"], run["evaluation"], run["batched"], run["sampling"])
    return 1 if RllibEnv.illegal_actions else 0


if __name__ == "__main__":
    sys.exit(main())

"""RLlib PPO with an action-masking RLModule on a deckgym env (self-play, one shared policy).

    python scripts/rllib_ppo.py                                   # OCG beginner, 5 iterations
    python scripts/rllib_ppo.py --iterations 50 --batch 4000 --json
    python scripts/rllib_ppo.py --env mow_v0 --options '{}'

Both seats play the same policy, RLlib's ``ActionMaskingTorchRLModule`` (the example module
that ships with RLlib: it adds -inf to the logits of masked actions), over ``envs.rllib``'s
``RllibEnv``. The report gives, per iteration, the env steps sampled and the mean episode
length and return, and at the end the number of actions the mask forbade that the policy
sent (it must be 0: every illegal action ends a game with -1, and is counted). Needs the
``rllib`` extra (``pip install -e '.[rllib]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def build(env: str, options: dict[str, Any], batch: int, minibatch: int, epochs: int, seed: int) -> Any:
    """The PPO algorithm: local sampling (no remote env runners), one shared masking module."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from deckgym.envs.rllib import RllibEnv

    config = (
        PPOConfig()
        .environment(RllibEnv, env_config={"env": env, **options})
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [128, 128]},
                    )
                }
            )
        )
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch, num_epochs=epochs, lr=3e-4)
        .debugging(seed=seed)
    )
    return config.build_algo()


def _get(result: dict[str, Any], *keys: str) -> Any:
    for k in keys:
        if not isinstance(result, dict) or k not in result:
            return None
        result = result[k]
    return result


def main(argv: list[str] | None = None) -> int:
    """Train; print one line per iteration (or JSON); exit 1 if the policy sent an illegal action."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="medarot_ocg_v1")
    ap.add_argument("--options", default='{"mode": "beginner"}', help="env options as a JSON object")
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--batch", type=int, default=1000, help="env steps per iteration")
    ap.add_argument("--minibatch", type=int, default=250)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    options = json.loads(args.options)
    if not isinstance(options, dict):
        ap.error(f"--options must be a JSON object, got {args.options!r}")
    if min(args.iterations, args.batch, args.minibatch, args.epochs) < 1:
        ap.error("--iterations, --batch, --minibatch and --epochs must be at least 1")

    import ray

    from deckgym.envs.rllib import RllibEnv

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        algo = build(args.env, options, args.batch, args.minibatch, args.epochs, args.seed)
        RllibEnv.illegal_actions = 0  # RLlib's env checker stepped random actions while building
        rows = []
        t0 = time.perf_counter()
        for i in range(args.iterations):
            result = algo.train()
            row = {
                "iteration": i + 1,
                "env_steps": _get(result, "env_runners", "num_env_steps_sampled_lifetime"),
                "episodes": _get(result, "env_runners", "num_episodes_lifetime"),
                "episode_len_mean": _get(result, "env_runners", "episode_len_mean"),
                "episode_return_mean": _get(result, "env_runners", "episode_return_mean"),
                "illegal_actions": RllibEnv.illegal_actions,
                "seconds": time.perf_counter() - t0,
            }
            rows.append(row)
            if not args.json:
                print(
                    f"iteration {row['iteration']}: {row['env_steps']} env steps, {row['episodes']} episodes, "
                    f"mean length {row['episode_len_mean']}, illegal actions {row['illegal_actions']}",
                    flush=True,
                )
        algo.stop()
    finally:
        ray.shutdown()
    report = {
        "env": args.env,
        "options": options,
        "iterations": rows,
        "illegal_actions": RllibEnv.illegal_actions,
    }
    if args.json:
        print(json.dumps(report, indent=1, default=str))
    else:
        print(f"illegal actions sent by the policy: {RllibEnv.illegal_actions}")
    return 1 if RllibEnv.illegal_actions else 0


if __name__ == "__main__":
    sys.exit(main())

"""The batched-env rows of ``scripts/bench.py``: learner steps per second, as ratios in one run.

Every row plays the same learner, a uniformly random legal action per game drawn from the
masks with one numpy call per step, against the random opponent inside the env:

- ``single``: the single-learner env, ``gymnasium.make("deckgym/<Id>-v1", opponent="random")``;
- ``sync``: Gymnasium's ``SyncVectorEnv`` of ``num_envs`` of those (same-step autoreset);
- ``batch``: ``envs.vector(name, num_envs)`` in one process;
- ``processes``: ``envs.vector(name, num_envs, workers=K)``, beside ``batch`` of the same size.

The rows take turns for ``rounds`` rounds; each ratio is the median over the rounds of the
two rates measured next to each other, so a machine whose speed drifts moves both alike.

    python scripts/bench_vector.py --env medarot_ocg_v1:beginner --num-envs 64 --seconds 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _variant(label: str) -> tuple[str, dict[str, Any], str]:
    """A variant's row label (``ENV`` or ``ENV:MODE``, as ``bench.py`` labels them): its env name, options and Gymnasium id."""
    from deckgym.envs import games

    game = games.game(label.partition(":")[0])
    for variant in game.variants:
        if game.label(variant.options) == label:
            return game.name, dict(variant.options), game.gym_id(variant)
    labels = ", ".join(game.label(v.options) for v in game.variants)
    raise SystemExit(f"unknown variant {label!r}; {game.name}'s variants: {labels}")


def _pick(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row of ``masks``."""
    return (rng.random(masks.shape) * masks).argmax(1)


def single_rate(gym_id: str, seconds: float) -> float:
    """Learner steps per second of one single-learner env."""
    import gymnasium as gym

    env = gym.make(gym_id, opponent="random")
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        action = int(_pick(rng, info["action_mask"][None])[0])
        _obs, _r, term, trunc, info = env.step(action)
        steps += 1
        if term or trunc:
            _obs, info = env.reset()
    rate = steps / (time.perf_counter() - t0)
    env.close()
    return rate


def vector_rate(make: Callable[[], Any], seconds: float) -> float:
    """Learner steps per second of a vector env (masks from ``infos["action_mask"]``)."""
    env = make()
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    masks = info["action_mask"] if "action_mask" in info else np.stack(env.call("action_masks"))
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _obs, _r, _te, _tr, info = env.step(_pick(rng, masks))
        masks = info["action_mask"]
        steps += env.num_envs
    rate = steps / (time.perf_counter() - t0)
    env.close()
    return rate


def makers(
    name: str, options: dict[str, Any], gym_id: str, num_envs: int, workers: int
) -> dict[str, Callable[[], Any]]:
    """The vector envs of the rows, as factories."""
    import gymnasium as gym
    from gymnasium.vector import AutoresetMode

    from deckgym import envs

    def sync() -> Any:
        return gym.vector.SyncVectorEnv(
            [lambda: gym.make(gym_id, opponent="random") for _ in range(num_envs)],
            autoreset_mode=AutoresetMode.SAME_STEP,
        )

    out: dict[str, Callable[[], Any]] = {
        "batch": lambda: envs.vector(name, num_envs, "random", **options),
        "sync": sync,
    }
    if workers > 1:
        out["processes"] = lambda: envs.vector(name, num_envs, "random", workers=workers, **options)
    return out


def section(label: str, num_envs: int, workers: int, seconds: float, rounds: int) -> dict[str, Any]:
    """The rows' rates per round and the ratios (medians over the rounds)."""
    name, options, gym_id = _variant(label)
    rows = makers(name, options, gym_id, num_envs, workers)
    per = seconds / max(1, rounds) / (len(rows) + 1)
    rates: dict[str, list[float]] = {k: [] for k in ["single", *rows]}
    for r in range(rounds):
        print(f"vector rows, round {r + 1}/{rounds}", file=sys.stderr)
        rates["single"].append(single_rate(gym_id, per))
        for key, make in rows.items():
            rates[key].append(vector_rate(make, per))
    ratio = {
        "batch_to_single": statistics.median(
            b / s for b, s in zip(rates["batch"], rates["single"], strict=True)
        ),
        "batch_to_sync": statistics.median(b / s for b, s in zip(rates["batch"], rates["sync"], strict=True)),
        "sync_to_single": statistics.median(
            b / s for b, s in zip(rates["sync"], rates["single"], strict=True)
        ),
    }
    if "processes" in rates:
        ratio["processes_to_batch"] = statistics.median(
            p / b for p, b in zip(rates["processes"], rates["batch"], strict=True)
        )
    return {
        "env": label,
        "num_envs": num_envs,
        "workers": workers,
        "steps_per_s": {k: statistics.median(v) for k, v in rates.items()},
        "ratio": ratio,
    }


def table(result: dict[str, Any]) -> str:
    """The section as text rows."""
    lines = [f"batched env, {result['env']}, {result['num_envs']} games (learner steps/s, ratio)"]
    for key, rate in result["steps_per_s"].items():
        lines.append(f"  {key:<10} {rate:>10,.0f}")
    for key, value in result["ratio"].items():
        lines.append(f"  {key:<20} {value:.2f}x")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="medarot_ocg_v1:beginner", help="ENV or ENV:MODE")
    ap.add_argument("--num-envs", type=int, default=64, help="games per vector env")
    ap.add_argument("--workers", type=int, default=2, help="processes of the processes row (1: skip it)")
    ap.add_argument("--seconds", type=float, default=24.0, help="total time, over the rows and rounds")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median kept)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = ap.parse_args(argv)
    result = section(args.env, args.num_envs, args.workers, args.seconds, args.rounds)
    print(json.dumps(result, indent=2) if args.json else table(result))
    return result


if __name__ == "__main__":
    main()

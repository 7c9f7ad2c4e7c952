"""Positions of random legal games played through an environment's AEC API (shared by env tests)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np


def random_positions(
    env: Any, games: int, seed0: int = 0, every: int = 1, max_iter: int = 50_000
) -> Iterator[Any]:
    """Yield ``env`` at every ``every``-th decision of ``games`` random games (seeds ``seed0``...)."""
    for g in range(games):
        rng = random.Random(seed0 + g)
        env.reset(seed=seed0 + g)
        step = 0
        for _agent in env.agent_iter(max_iter=max_iter):
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            if step % every == 0:
                yield env
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            step += 1

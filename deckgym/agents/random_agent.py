"""Uniformly random legal actions: the baseline every other agent must beat."""

from __future__ import annotations

import random

import numpy as np


class RandomAgent:
    """Picks uniformly among the legal actions of the mask, with its own seeded RNG."""

    name = "random"
    #: ``act`` reads the mask only (``agents.base.needs_observation``).
    needs_observation = False

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed (``None`` keeps the current stream)."""
        if seed is not None:
            self._rng.seed(seed)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray) -> int:
        """A uniformly random index among those with ``action_mask == 1``."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomAgent.act: the action mask has no legal action")
        return int(legal[self._rng.randrange(legal.size)])

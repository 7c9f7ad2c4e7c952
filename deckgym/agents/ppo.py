"""``PPOAgent``: a saved MaskablePPO model as an agent (``agents.make("ppo:PATH", env)``).

Training lives in ``agents.training`` (settings, networks, the self-play env, imitation, the
loop and its plots).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

# Old models: ``card_set_extractor`` and ``global_critic_policy`` were defined in this module
# before training moved to ``agents.training``. stable-baselines3 saves ``policy_kwargs`` (the
# extractor class) and the policy class with cloudpickle, and a model saved then carries those
# classes with ``__module__ == "deckgym.agents.ppo"``. They are pickled by value (they are built inside
# functions), so loading one does not look them up here (tests/agents/test_ppo.py loads a
# saved model with this module and ``agents.training`` blocked); the names stay importable
# under their old path all the same, for anything that does look them up.
from deckgym.agents.training.policy import (
    card_set_extractor,
    global_critic_policy,
    masked_probabilities,
    policy_action,
    policy_logits,
)

__all__ = ["PPOAgent", "card_set_extractor", "global_critic_policy", "policy_action"]


class PPOAgent:
    """A saved MaskablePPO model as an agent (greedy over the legal actions)."""

    def __init__(self, path: str | Path, deterministic: bool = True) -> None:
        import torch
        from sb3_contrib import MaskablePPO

        self.path = str(path)
        if not Path(self.path).is_file() and not Path(self.path + ".zip").is_file():
            raise FileNotFoundError(f"no model file {self.path} (a model.zip written by deckgym train)")
        self.name = f"ppo:{Path(path).name}"
        self.model = MaskablePPO.load(self.path, device="cpu")
        self.policy = self.model.policy
        self.policy.set_training_mode(False)
        self.deterministic = deterministic
        self._torch = torch
        self._rng = np.random.default_rng(0)
        space = self.model.observation_space
        self._size = int(space.shape[0]) if getattr(space, "shape", None) else None

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling RNG (used only when not deterministic)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The policy's action among the legal ones.

        Raises:
            ValueError: the observation has another length than the model was trained on.
        """
        self._check(observation)
        return policy_action(self.policy, observation, action_mask, self.deterministic, self._rng)

    def probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The policy's probability of every action index, 0 for the illegal ones."""
        self._check(observation)
        return masked_probabilities(policy_logits(self.policy, observation), action_mask)

    def _check(self, observation: np.ndarray) -> None:
        if self._size is not None and len(observation) != self._size:
            raise ValueError(
                f"{self.name} was trained on observations of {self._size} entries, and this env gives "
                f"{len(observation)}: it belongs to another env or encoder version (a model whose "
                "observation gained entries at its end can be carried over with agents.pretrained.widen)"
            )

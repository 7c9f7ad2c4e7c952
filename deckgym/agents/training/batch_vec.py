"""``BatchVecEnv``: the batched env (``envs.vector``) as a stable-baselines3 ``VecEnv``.

SB3 and sb3-contrib's ``MaskablePPO`` step a ``VecEnv``: its ``step_wait`` returns one info
dict per env, with ``"terminal_observation"`` for a finished episode (the env has already
started the next one), and ``MaskablePPO`` reads the masks through
``env_method("action_masks")``. This adapter gives the batched env's arrays that shape
without stepping any game twice: it is ``deckgym train``'s ``vec_env="batch"``.

    from deckgym import envs
    from deckgym.agents.training.batch_vec import BatchVecEnv
    from sb3_contrib import MaskablePPO

    vec = BatchVecEnv(envs.vector("medarot_ocg_v1", 64, "random", mode="beginner"))
    MaskablePPO("MlpPolicy", vec, n_steps=64).learn(8192)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

#: The batched env's own methods that ``env_method`` answers once for the whole batch.
BATCH_METHODS = ("set_pool",)


class BatchVecEnv(VecEnv):
    """A ``BatchEnv`` or ``ProcessBatchEnv`` behind SB3's ``VecEnv`` interface."""

    def __init__(self, env: Any) -> None:
        self.env = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        """Start every game (seeded by ``seed()`` before, game ``i`` with ``seed + i``)."""
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, _info = self.env.reset(seed=seeds)
        self._reset_seeds()
        return np.asarray(obs)

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the actions for ``step_wait``."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Step every game once; finished games have already started again (SB3's convention)."""
        obs, rewards, terms, truncs, infos = self.env.step(self._actions)
        dones = terms | truncs
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones).tolist():
            final = infos["final_info"][i]
            out[i] = {
                **final,
                "terminal_observation": infos["final_obs"][i],
                "TimeLimit.truncated": bool(truncs[i] and not terms[i]),
            }
        return np.asarray(obs), rewards.astype(np.float32), dones, out

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions, one row per game."""
        masks: np.ndarray = self.env.action_masks()
        return masks

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` row by row; a batch method (``set_pool``) once for every game."""
        idx = self._get_indices(indices)
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i] for i in idx]
        if method_name in BATCH_METHODS:
            if len(list(idx)) != self.num_envs:
                raise ValueError(f"{method_name} applies to every game of the batch at once")
            result = getattr(self.env, method_name)(*method_args, **method_kwargs)
            return [result] * self.num_envs
        raise AttributeError(
            f"the batched env has no per-game method {method_name!r}; it answers action_masks and {', '.join(BATCH_METHODS)}"
        )

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The batched env's attribute, once per game asked for."""
        value = getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the batched env (every game shares it)."""
        setattr(self.env, attr_name, value)

    def has_attr(self, attr_name: str) -> bool:
        """Whether the batch answers ``attr_name`` (``MaskablePPO`` asks for ``action_masks``)."""
        return attr_name == "action_masks" or attr_name in BATCH_METHODS or hasattr(self.env, attr_name)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """No game of the batch is wrapped."""
        return [False for _ in self._get_indices(indices)]

    def close(self) -> None:
        """Close the batched env (and its worker processes)."""
        self.env.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        """The batch renders text, not images."""
        return [None] * self.num_envs

    def _get_indices(self, indices: Any) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

"""The entry point of every Gymnasium id of deckgym (``deckgym.envs.gym_ids()``).

``gymnasium.make("deckgym/MoW-v1")`` calls :func:`make`: one learner against an agent, the
single-learner env of ``deckgym.agents.training.selfplay_env``. ``deckgym.envs`` registers the
ids with this module's name as Gymnasium's entry point (a ``"module:function"`` string), so
the engines' package names no agent and imports nothing above it; this module, at the top of
the package, imports the agents when Gymnasium first makes one of its envs.
"""

from __future__ import annotations

from typing import Any

#: Gymnasium's entry point for every deckgym id.
ENTRY_POINT = "deckgym.gym_entry:make"
#: Gymnasium's vector entry point (``gymnasium.make_vec``): the batched env of ``envs.vector``.
VECTOR_ENTRY_POINT = "deckgym.gym_entry:make_vector"


def make(**kwargs: Any) -> Any:
    """One learner against an agent (``selfplay_env.gym_env``'s keywords: ``env_name``, the options, ``opponent``...)."""
    from deckgym.agents.training.selfplay_env import gym_env

    return gym_env(**kwargs)


def make_vector(num_envs: int = 1, env_name: str = "", opponent: str = "heuristic", **kwargs: Any) -> Any:
    """``gymnasium.make_vec(id, num_envs)``: ``num_envs`` games in one batched env (``envs.vector``).

    The opponent is the single env's (``"heuristic"`` unless named); the other keywords are the
    id's options and ``envs.batch.BatchEnv``'s. ``vectorization_mode="sync"`` still gives
    Gymnasium's ``SyncVectorEnv`` of single envs.
    """
    from deckgym.agents import vector

    kwargs.pop("render_mode", None)  # the batch renders text on request only
    return vector(env_name, num_envs, opponent, **kwargs)

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


def make(**kwargs: Any) -> Any:
    """One learner against an agent (``selfplay_env.gym_env``'s keywords: ``env_name``, the options, ``opponent``...)."""
    from deckgym.agents.training.selfplay_env import gym_env

    return gym_env(**kwargs)

"""The Agent protocol: every agent plays through observations and action masks.

An agent is usable as an opponent inside an env, in arena matches and against a human,
with one interface: ``act(observation, action_mask) -> int`` and ``reset(seed)``.
Agents that need the engine (heuristics, search) read it through ``bind(env)``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """A player of one seat."""

    name: str

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (reseed any randomness)."""
        ...

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action index for the given observation and mask."""
        ...


def bind(agent: Any, env: Any) -> Any:
    """Give ``agent`` access to ``env`` if it asks for it (``agent.bind(env)``); return the agent."""
    hook = getattr(agent, "bind", None)
    if callable(hook):
        hook(env)
    return agent

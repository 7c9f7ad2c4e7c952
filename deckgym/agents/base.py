"""The Agent protocol: every agent plays through observations and action masks.

An agent is usable as an opponent inside an env, in arena matches and against a human,
with one interface: ``act(observation, action_mask) -> int`` and ``reset(seed)``.
Agents that need the engine (heuristics, search) read it through ``bind(env)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from deckgym.envs.core.errors import IllegalActionError


class IllegalMoveError(IllegalActionError):
    """An agent chose an action that is not legal: a bug in the agent, never replaced silently.

    The message names the agent, the decision point, the choice and the legal options.
    """

    def __init__(self, agent: str, decision: str, choice: object, legal: Iterable[object]) -> None:
        super().__init__(choice, decision, legal)
        self.agent = agent
        self.args = (f"agent {agent} chose an {self.args[0]}",)


def checked_move(agent: str, state: Any, move: Any, legal: list[Any]) -> Any:
    """``move`` if it is one of ``legal``; otherwise raise ``IllegalMoveError`` (naming ``state.decision``).

    The decision's name is read only for the error: a rollout calls this on every move.
    """
    if move not in legal:
        raise IllegalMoveError(agent, state.decision, move, legal)
    return move


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


def needs_observation(agent: Any) -> bool:
    """Whether ``agent.act`` reads its observation argument.

    An agent that reads the bound engine instead (``reads_engine = True``, the heuristics and
    search) or only the mask (``needs_observation = False``, the random agent) is passed None,
    and the game loop saves the encoding.
    """
    return not getattr(agent, "reads_engine", False) and bool(getattr(agent, "needs_observation", True))


def bind(agent: Any, env: Any) -> Any:
    """Give ``agent`` access to ``env`` if it asks for it (``agent.bind(env)``); return the agent."""
    hook = getattr(agent, "bind", None)
    if callable(hook):
        hook(env)
    return agent

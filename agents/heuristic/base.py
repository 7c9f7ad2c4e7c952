"""The agent shell every rule-of-thumb player shares: it reads the bound env's state."""

from __future__ import annotations

from typing import Any

import numpy as np


class RuleOfThumbAgent:
    """Rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``.

    A ruleset's heuristic subclasses it and implements ``choose``, which picks an action from
    the state for the seat to move using only what that seat may know.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.env: Any = None

    def bind(self, env: Any) -> None:
        """Attach to the env whose state this agent reads."""
        self.env = env

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the agent is deterministic."""

    def choose(self, state: Any, seat: int) -> Any:
        """The action for ``seat`` (the player to move) at ``state``."""
        raise NotImplementedError

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The chosen action index (always one the mask allows)."""
        st = self.env.unwrapped.game
        idx: int = self.env.unwrapped.encoder.action_to_index(self.choose(st, st.current_player), st)
        if not action_mask[idx]:  # defensive: never play an illegal index
            idx = int(np.flatnonzero(action_mask)[0])
        return idx

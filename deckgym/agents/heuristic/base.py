"""The agent shell every rule-of-thumb player shares: it reads the bound env's state."""

from __future__ import annotations

from typing import Any

import numpy as np
from mypy_extensions import mypyc_attr

from deckgym.agents.base import IllegalMoveError


# a ruleset outside the package subclasses it, on the compiled build too
@mypyc_attr(allow_interpreted_subclasses=True)
class RuleOfThumbAgent:
    """Rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``.

    A ruleset's heuristic subclasses it and implements ``choose``, which picks an action from
    the state for the seat to move using only what that seat may know.
    """

    name = "heuristic"
    #: ``act`` reads the engine, never its observation argument: callers may pass None for it
    #: and save the encoding (the self-play env does for its heuristic opponents).
    reads_engine = True

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

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray) -> int:
        """The chosen action index (``observation`` is not read: see ``reads_engine``).

        Raises:
            IllegalMoveError: the choice is not allowed by ``action_mask`` (a bug in the agent;
                it is never replaced by another action).
        """
        st = self.env.unwrapped.game
        enc = self.env.unwrapped.encoder
        move = self.choose(st, st.current_player)
        idx: int = enc.action_to_index(move, st)
        if not 0 <= idx < len(action_mask) or not action_mask[idx]:
            legal = [f"{i}={enc.action_label(int(i), st)}" for i in np.flatnonzero(action_mask)]
            raise IllegalMoveError(
                f"{self.name} ({self.env.unwrapped.metadata.get('name', '?')})",
                f"{st.decision} (player {st.current_player})",
                f"{idx} = {move}",
                legal,
            )
        return idx

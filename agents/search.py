"""A look-ahead player: the ruleset's heuristic improved by determinized Monte Carlo rollouts.

At each decision with two or more legal actions, ``SearchAgent``:

1. samples ``worlds`` states that are equally likely from its seat's point of view
   (``state.resample_hidden(seat, rng)``: the opponents' hidden cards and every deck order
   are redrawn; what the seat knows is kept), so it uses only what its seat may know;
2. plays each legal action in each world, then finishes the game with the ruleset's heuristic
   for every seat (a rollout);
3. picks the action with the best mean return for its seat. Ties go to the heuristic's own
   choice, so with no information the agent plays like the heuristic.

Every action is tried in the same worlds (common random numbers): the comparison between two
actions is then not drowned by the luck of the draw, which matters in card games where the
draw decides more than any single choice. This is flat Monte Carlo over determinizations
(perfect-information Monte Carlo), the simplest member of the family of information-set
searches: it looks one decision ahead and trusts the heuristic for the rest.

It is much slower than the heuristic (``worlds`` x legal actions rollouts per decision) and
much stronger: use it as a capable opponent, or to measure how far a policy is from what
look-ahead over the same rules of thumb achieves. ``agents.make("search", env)`` uses 4
worlds; ``"search:16"`` uses 16.
"""

from __future__ import annotations

import random
from typing import Any

from agents.heuristic.base import RuleOfThumbAgent


class SearchAgent(RuleOfThumbAgent):
    """Determinized Monte Carlo look-ahead over a heuristic; call ``bind(env)`` before ``act``.

    It plays through ``RuleOfThumbAgent``'s ``bind`` and ``act``, with a searched ``choose``.

    Args:
        rollout: the heuristic whose ``choose(state, seat)`` plays every seat in the rollouts
            and breaks ties. A rollout plays a forced move (one legal option) without asking
            it, so it should be deterministic, as the shipped heuristics are.
        worlds: determinizations sampled per decision (each legal action is tried in each).
        seed: seed of the sampling of worlds.
    """

    def __init__(self, rollout: Any, worlds: int = 4, seed: int | None = None) -> None:
        if worlds < 1:
            raise ValueError(f"SearchAgent needs at least 1 world per decision, got {worlds}")
        super().__init__(seed)
        self.rollout = rollout
        self.worlds = int(worlds)
        self.name = f"search:{self.worlds}"
        self._rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling of worlds (with ``None``, go on with the current generator)."""
        if seed is not None:
            self._rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> Any:
        """The engine action with the best mean rollout return for ``seat`` (the player to move)."""
        legal = state.legal_actions()
        default = self.rollout.choose(state, seat)
        if len(legal) < 2:
            return default
        worlds = [state.resample_hidden(seat, self._rng) for _ in range(self.worlds)]
        best, best_value = default, self.action_value(worlds, default, seat)
        for a in legal:
            if a == default:
                continue
            value = self.action_value(worlds, a, seat)
            if value > best_value:
                best, best_value = a, value
        return best

    def action_value(self, worlds: list[Any], action: Any, seat: int) -> float:
        """Mean return for ``seat`` of playing ``action`` in each world, then the heuristic to the end."""
        total = 0.0
        choose = self.rollout.choose
        for world in worlds:
            s = world.clone()
            s.apply(action)
            while not s.is_terminal():
                legal = s.legal_actions()  # a forced move needs no thought (the heuristics are deterministic)
                s.apply(legal[0] if len(legal) == 1 else choose(s, s.current_player))
            total += s.returns()[seat]
        return total / len(worlds)

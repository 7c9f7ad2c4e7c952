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

Returns are +1, 0 or -1 (the protocol's ``returns``), so a search can stop early without
changing its choice: an action stops being rolled out once even winning every remaining world
could not lift its total above the best action's (ties keep the earlier action, so an equal
total never wins), and the other actions are skipped once one action wins in every world.
The rollouts it skips could not have changed the choice, and the worlds are sampled before
any rollout, so the choice and the generator's stream are those of the full search.

It is much slower than the heuristic (``worlds`` x legal actions rollouts per decision) and
much stronger: use it as a capable opponent, or to measure how far a policy is from what
look-ahead over the same rules of thumb achieves. ``agents.make("search", env)`` uses 4
worlds; ``"search:16"`` uses 16.

With ``seconds`` (a time budget per decision) or a ``deadline`` (for a whole reply, as the card
table sets it), no rollout starts after the time is spent: the choice is then the best of the
candidates played in every world so far (the heuristic's own move, first, when the time runs
out on it). Within the time the search is the same as without it, move for move, so a limit
that is not reached changes nothing; one that is reached makes the choice depend on the
machine's speed: evaluations use the fixed ``worlds`` alone.
"""

from __future__ import annotations

import random
import time
from typing import Any, Final

from deckgym.agents.heuristic.base import RuleOfThumbAgent

#: The best return a seat can get (the protocol's ``returns``: +1 win, 0 draw, -1 loss).
WIN: Final = 1.0


class OutOfTime(Exception):
    """A search's time is spent: it plays the best candidate it has played in every world."""


class SearchAgent(RuleOfThumbAgent):
    """Determinized Monte Carlo look-ahead over a heuristic; call ``bind(env)`` before ``act``.

    It plays through ``RuleOfThumbAgent``'s ``bind`` and ``act``, with a searched ``choose``.

    Args:
        rollout: the heuristic whose ``choose(state, seat)`` plays every seat in the rollouts
            and breaks ties. A rollout plays a forced move (one legal option) without asking
            it, so it should be deterministic, as the shipped heuristics are.
        worlds: determinizations sampled per decision (each legal action is tried in each).
        seed: seed of the sampling of worlds.
        seconds: a time budget per decision (None: every world is played); see the module docs.
    """

    def __init__(
        self, rollout: Any, worlds: int = 4, seed: int | None = None, seconds: float | None = None
    ) -> None:
        if worlds < 1:
            raise ValueError(f"SearchAgent needs at least 1 world per decision, got {worlds}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"SearchAgent's time budget must be > 0 seconds, got {seconds}")
        super().__init__(seed)
        self.rollout = rollout
        self.worlds = int(worlds)
        self.seconds = seconds
        self.deadline: float | None = None
        self.name = f"search:{self.worlds}"
        self._rng = random.Random(seed)

    def budget(self) -> float | None:
        """Seconds this decision may take: ``seconds``, cut to what is left before ``deadline``; None: no limit.

        ``deadline`` (a ``time.monotonic()`` instant, None by default) bounds a whole reply: the
        card table sets it before the AI's moves and clears it after.
        """
        left = None if self.deadline is None else self.deadline - time.monotonic()
        if self.seconds is None:
            return left
        return self.seconds if left is None else min(self.seconds, left)

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
        return self.best_of(state, seat, [default] + [a for a in legal if a != default])

    def best_of(self, state: Any, seat: int, candidates: list[Any]) -> Any:
        """The candidate with the best summed return over freshly sampled worlds.

        ``candidates`` are tried in order; a later one must do strictly better, so a tie keeps
        the earlier (the first is the default).
        """
        worlds = [state.resample_hidden(seat, self._rng) for _ in range(self.worlds)]
        budget = self.budget()
        deadline = None if budget is None else time.monotonic() + budget
        best, *rest = candidates
        try:
            best_total = self.action_total(worlds, best, seat, deadline=deadline)
            assert best_total is not None  # no bound to beat: every world is played
            for a in rest:
                if best_total >= WIN * len(worlds):  # a win in every world: nothing can beat it
                    break
                total = self.action_total(worlds, a, seat, beat=best_total, deadline=deadline)
                if total is not None and total > best_total:
                    best, best_total = a, total
        except OutOfTime:  # the best of the candidates played in every world so far
            pass
        return best

    def world_return(self, world: Any, action: Any, seat: int) -> float:
        """``seat``'s return of ``action`` in ``world``, the heuristic playing every seat to the end."""
        choose = self.rollout.choose
        s = world.clone()
        if getattr(s, "mute", None) is not None:
            s.mute()  # nobody reads a rollout's events
        s.apply(action)
        while not s.is_terminal():
            legal = s.legal_actions()  # a forced move needs no thought (the heuristics are deterministic)
            s.apply(legal[0] if len(legal) == 1 else choose(s, s.current_player))
        return float(s.returns()[seat])

    def action_value(self, worlds: list[Any], action: Any, seat: int) -> float:
        """Mean return for ``seat`` of playing ``action`` in each world, then the heuristic to the end."""
        total = self.action_total(worlds, action, seat)
        assert total is not None  # no bound to beat: every world is played
        return total / len(worlds)

    def action_total(
        self,
        worlds: list[Any],
        action: Any,
        seat: int,
        beat: float | None = None,
        deadline: float | None = None,
    ) -> float | None:
        """Summed return for ``seat`` of ``action`` over ``worlds``, in order.

        With ``beat``, None as soon as the total can no longer exceed ``beat`` (each remaining
        world adds at most ``WIN``): the rest of the worlds are not played.

        Raises:
            OutOfTime: a rollout would start after ``deadline`` (a ``time.monotonic()`` instant).
        """
        total = 0.0
        left = len(worlds)
        for world in worlds:
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime
            total += self.world_return(world, action, seat)
            left -= 1
            if beat is not None and total + WIN * left <= beat:
                return None
        return total


class PolicySearchAgent(SearchAgent):
    """``SearchAgent`` whose candidates come from a trained policy (a prior), with heuristic rollouts.

    At a decision with two or more legal actions, the policy (for example
    ``agents.make("ppo:pretrained", env)``) reads the seat's own observation. Its ``top``
    likeliest legal actions, and the heuristic's choice, are the candidates. Each is played in
    the same ``worlds`` determinizations and finished by the heuristic, as in ``SearchAgent``;
    the best mean return wins, and ties go to the policy's favourite. So the policy proposes
    and the rollouts decide: a search over fewer actions than the plain one, led by a stronger
    first guess.

    Args:
        rollout: the heuristic that plays the rollouts.
        prior: an agent with ``probabilities(observation, action_mask)`` (``PPOAgent``).
        worlds: determinizations per decision.
        top: how many of the policy's likeliest actions are searched (at least 1).
        seed: seed of the sampling of worlds.
    """

    def __init__(
        self, rollout: Any, prior: Any, worlds: int = 4, top: int = 3, seed: int | None = None
    ) -> None:
        if top < 1:
            raise ValueError(f"PolicySearchAgent needs top >= 1, got {top}")
        if not callable(getattr(prior, "probabilities", None)):
            raise TypeError(f"the prior must offer probabilities(observation, action_mask); got {prior!r}")
        super().__init__(rollout, worlds, seed)
        self.prior = prior
        self.top = int(top)
        self.name = f"search:{self.worlds}:{getattr(prior, 'name', 'policy')}"

    def candidates(self, state: Any, seat: int) -> list[Any]:
        """The actions searched at ``state``: the policy's ``top`` likeliest, then the heuristic's choice.

        The first is the policy's favourite (the default on a tie); none repeats.
        """
        enc = self.env.unwrapped.encoder
        probs = self.prior.probabilities(enc.observe(state, seat), enc.action_mask(state))
        legal = state.legal_actions()
        ranked = sorted(
            legal, key=lambda a: -probs[enc.action_to_index(a, state)]
        )  # stable: engine order on ties
        out = ranked[: self.top]
        heuristic = self.rollout.choose(state, seat)
        if heuristic not in out:
            out.append(heuristic)
        return out

    def choose(self, state: Any, seat: int) -> Any:
        """The candidate with the best mean rollout return for ``seat`` (ties: the policy's favourite)."""
        legal = state.legal_actions()
        if len(legal) < 2:
            return legal[0]
        return self.best_of(state, seat, self.candidates(state, seat))

"""The toy duel's rule-of-thumb player: it reads only its own hand, its score and the target.

Win now with the smallest card that reaches the target; otherwise play the highest card,
unless every card in hand is a 1 or a 2 and the deck can refill: then discard the lowest.
"""

from __future__ import annotations

from deckgym.agents.heuristic.base import RuleOfThumbAgent
from tests.toy_game.state import DISCARD, PLAY, ToyState


def choose(state: ToyState, seat: int) -> tuple[int, int]:
    """The heuristic's action for ``seat`` (the seat to move)."""
    hand = state.hands[seat]
    need = state.target - state.scores[seat]
    winning = [v for v in hand if v >= need]
    if winning:
        return (PLAY, min(winning))
    if max(hand) <= 2 and (DISCARD, min(hand)) in state.legal_actions():
        return (DISCARD, min(hand))
    return (PLAY, max(hand))


class ToyHeuristic(RuleOfThumbAgent):
    """The toy rule-of-thumb agent; ``bind(env)`` (``agents.make`` does) before ``act``."""

    def choose(self, state: ToyState, seat: int) -> tuple[int, int]:
        """See ``choose``."""
        return choose(state, seat)

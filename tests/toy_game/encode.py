"""Observation and action encoding of the toy duel.

Actions: ``Discrete(10)``; index ``5 * kind + value - 1`` (0-4 PLAY 1..5, 5-9 DISCARD 1..5).
The observation holds what the observing seat may know: its own hand and the contents of its
deck (never the order), both scores, the counts of the opponent's hand and deck, and both
seats' played and discarded cards. Every value lies in 0..1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from deckgym.envs.encoding.codec import Encoder
from deckgym.envs.encoding.layout import ObsLayout
from tests.toy_game.state import COPIES, HAND, VALUES, ToyState, action_text

N = len(VALUES)
DECK = N * COPIES

LAYOUT = ObsLayout(
    [
        ("turn", (3,), "is my turn, I went first, turns played / max_turns"),
        ("score", (2,), "self then opponent: score / target (at most 1)"),
        ("hand", (N,), "own hand: copies of each value / copies"),
        ("deck", (N,), "own remaining deck: copies of each value / copies (order hidden)"),
        ("counts", (2, 2), "self then opponent: hand size / hand, deck size / deck"),
        ("played", (2, N), "self then opponent: played copies of each value / copies"),
        ("discarded", (2, N), "self then opponent: discarded copies of each value / copies"),
    ]
)


def _counts(cards: list[int]) -> list[float]:
    return [cards.count(v) / COPIES for v in VALUES]


class ToyEncoder(Encoder):
    """The toy duel's encoder (one for every configuration)."""

    deck_types = N

    def __init__(self) -> None:
        # instance attributes, not class ones: on the compiled build the base's fields are slots
        self.action_size = 2 * N
        self.layout = LAYOUT
        self.obs_bounds = (0.0, 1.0)

    def deck_type(self, card: int) -> int:
        """The global state's deck column of a card: its value - 1."""
        return card - 1

    def action_to_index(self, action: Any, state: Any) -> int:
        """``5 * kind + value - 1``."""
        kind, value = action
        return int(N * kind + value - 1)

    def index_to_action(self, index: int, state: Any) -> tuple[int, int]:
        """``(kind, value)`` of an index."""
        return (index // N, index % N + 1)

    def action_label(self, index: int, state: Any) -> str:
        """``PLAY 3`` / ``DISCARD 1``."""
        return action_text(self.index_to_action(index, state))

    def observe(self, state: ToyState, seat: int) -> np.ndarray:
        """float32 vector of ``LAYOUT.size`` with only what ``seat`` may know."""
        st, o = state, 1 - seat
        out: list[float] = [
            float(st.current_player == seat),
            float(st.first == seat),
            st.turn / st.max_turns,
            *(min(1.0, st.scores[p] / st.target) for p in (seat, o)),
            *_counts(st.hands[seat]),
            *_counts(st.deck[seat]),
            *(x for p in (seat, o) for x in (len(st.hands[p]) / HAND, len(st.deck[p]) / DECK)),
            *(x for p in (seat, o) for x in _counts(st.played[p])),
            *(x for p in (seat, o) for x in _counts(st.discarded[p])),
        ]
        return np.asarray(out, dtype=np.float32)

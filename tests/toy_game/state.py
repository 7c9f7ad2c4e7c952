"""The engine of the toy duel: pure Python, plain data, deterministic from its seed.

Each seat has its own shuffled deck of the numbered cards 1..5 (``COPIES`` of each) and a
hand of ``HAND`` cards. On a turn the seat to move plays a hand card (it scores the card's
value) or, while its deck is not empty, discards one (face up) to draw; either way it then
draws back up from its deck. A seat that reaches ``target`` points wins; a seat that must
move with an empty hand ends the game, and the higher score wins (equal scores: a draw);
after ``max_turns`` turns the game stops undecided (truncated). Hands and deck orders are
hidden; played and discarded cards are public.

An action is ``(kind, value)``: ``(PLAY, v)`` or ``(DISCARD, v)``. A card is its value in
the state and its id ``str(value)`` in events and views.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

from deckgym.envs.core.errors import IllegalActionError
from deckgym.envs.core.events import known_to, make_record

VALUES = (1, 2, 3, 4, 5)
COPIES = 3
HAND = 3
PLAY, DISCARD = 0, 1
KIND_NAMES = ("PLAY", "DISCARD")
#: The name of the only decision point.
TURN = "TURN"

#: Every event kind -> its public fields (``envs.core.events``).
KINDS: dict[str, tuple[str, ...]] = {
    "start": ("first",),
    "draw": ("player", "count", "deck"),
    "play": ("player", "card", "score"),
    "discard": ("player", "card"),
    "end": ("winner", "reason"),
    "truncated": ("reason",),
}
#: Kind -> the fields only its player sees: the cards a seat draws.
PRIVATE: dict[str, tuple[str, ...]] = {"draw": ("cards",)}
#: The fields that hold card ids.
CARD_FIELDS = ("card", "cards")


def action_text(action: Any) -> str:
    """``PLAY 3`` / ``DISCARD 1``."""
    kind, value = action
    return f"{KIND_NAMES[kind]} {value}"


@dataclass
class ToyState:
    """A toy-duel position (the engine protocol of ``envs.core.protocol``)."""

    target: int
    max_turns: int
    deck: list[list[int]]
    hands: list[list[int]] = field(default_factory=lambda: [[], []])
    scores: list[int] = field(default_factory=lambda: [0, 0])
    played: list[list[int]] = field(default_factory=lambda: [[], []])
    discarded: list[list[int]] = field(default_factory=lambda: [[], []])
    first: int = 0
    to_move: int = 0
    turn: int = 0
    done: bool = False
    truncated: bool = False
    winner: int = -1
    reason: str = ""
    events: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)

    num_players = 2

    # ----------------------------------------------------------------- protocol
    @property
    def current_player(self) -> int:
        """The seat to move; -1 once the game is over."""
        return -1 if self.done else self.to_move

    @property
    def decision(self) -> str:
        """The decision point's name ("" once the game is over)."""
        return "" if self.done else TURN

    def legal_actions(self) -> list[tuple[int, int]]:
        """Play any distinct hand value; discard one too while the deck holds a card."""
        if self.done:
            return []
        p = self.to_move
        values = sorted(set(self.hands[p]))
        out = [(PLAY, v) for v in values]
        if self.deck[p]:
            out += [(DISCARD, v) for v in values]
        return out

    def apply(self, action: Any) -> None:
        """Play ``action`` for the seat to move; ``IllegalActionError`` leaves the state unchanged."""
        legal = self.legal_actions()
        key = tuple(action) if isinstance(action, (list, tuple)) else action
        if key not in legal:
            raise IllegalActionError(action, self.decision or "game over", [action_text(a) for a in legal])
        kind, value = key
        p = self.to_move
        self.hands[p].remove(value)
        if kind == PLAY:
            self.scores[p] += value
            self.played[p].append(value)
            self.emit("play", f"P{p} plays a {value}", player=p, card=str(value), score=self.scores[p])
        else:
            self.discarded[p].append(value)
            self.emit("discard", f"P{p} discards a {value}", player=p, card=str(value))
        self._draw(p, 1)
        self.turn += 1
        other = 1 - p
        if self.scores[p] >= self.target:
            self._end(p, f"P{p} reached {self.target} points")
        elif self.turn >= self.max_turns:
            self.done = self.truncated = True
            self.reason = f"turn cap ({self.max_turns} turns)"
            self.emit("truncated", f"stopped after {self.max_turns} turns", reason=self.reason)
        elif not self.hands[other]:
            s = self.scores
            self._end(p if s[p] > s[other] else other if s[other] > s[p] else -1, f"P{other} has no cards")
        else:
            self.to_move = other

    def is_terminal(self) -> bool:
        """Whether the game is over (decided or truncated)."""
        return self.done

    def returns(self) -> list[float]:
        """+1 / -1 for a decided game, 0 each for a draw, a truncation or a live game."""
        if not self.done or self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else -1.0 for p in range(2)]

    def clone(self) -> ToyState:
        """An independent copy."""
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-safe data."""
        return copy.deepcopy({f.name: getattr(self, f.name) for f in dataclasses.fields(self)})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToyState:
        """The state ``to_dict`` wrote."""
        return cls(**copy.deepcopy(data))

    def resample_hidden(self, seat: int, rng: random.Random) -> ToyState:
        """A state ``seat`` cannot tell apart: its deck reshuffled, the opponent's hand and deck redealt.

        The other seat's private event fields (its drawn cards) are dropped (``known_to``).
        """
        s = self.clone()
        rng.shuffle(s.deck[seat])
        o = 1 - seat
        unseen = s.hands[o] + s.deck[o]
        rng.shuffle(unseen)
        n = len(s.hands[o])
        s.hands[o], s.deck[o] = unseen[:n], unseen[n:]
        s.records = known_to(s.records, seat)
        return s

    # ----------------------------------------------------------------- helpers
    def emit(
        self, kind: str, text: str, only: tuple[int, dict[str, Any]] | None = None, **fields: Any
    ) -> None:
        """Log one event: its text line and its record."""
        self.events.append(text)
        self.records.append(make_record(kind, only, fields))

    def _draw(self, p: int, n: int) -> None:
        cards = [self.deck[p].pop() for _ in range(min(n, len(self.deck[p])))]
        if cards:
            self.hands[p].extend(cards)
            self.emit(
                "draw",
                f"P{p} draws {len(cards)} card{'s' if len(cards) > 1 else ''}",
                only=(p, {"cards": [str(c) for c in cards]}),
                player=p,
                count=len(cards),
                deck=len(self.deck[p]),
            )

    def _end(self, winner: int, reason: str) -> None:
        self.done = True
        self.winner = winner
        self.reason = reason
        self.emit("end", f"game over: {reason}", winner=winner, reason=reason)


def new_game(target: int, max_turns: int, seed: int) -> ToyState:
    """A new game for ``seed``: both decks shuffled, the first seat drawn, opening hands dealt."""
    rng = random.Random(seed)
    decks = []
    for _ in range(2):
        deck = [v for v in VALUES for _ in range(COPIES)]
        rng.shuffle(deck)
        decks.append(deck)
    first = rng.randrange(2)
    st = ToyState(target=target, max_turns=max_turns, deck=decks, first=first, to_move=first)
    st.emit("start", f"P{first} goes first", first=first)
    for p in (first, 1 - first):
        st._draw(p, HAND)
    return st

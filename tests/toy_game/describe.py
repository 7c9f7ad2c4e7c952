"""Moves of the toy duel in words (``envs.core.describe``), the decision as a prompt, and card names.

Places: ``hand`` (a seat's hand; the slot of the card for the reader's own moves), ``played``
and ``discarded`` (a seat's piles).
"""

from __future__ import annotations

from deckgym.envs.core.describe import Described, described, place
from tests.toy_game.state import PLAY, VALUES, ToyState

NAMES = {v: n for v, n in zip(VALUES, ("One", "Two", "Three", "Four", "Five"), strict=True)}


def card_names(state: ToyState) -> dict[str, str]:
    """Card id -> card name."""
    return {str(v): n for v, n in NAMES.items()}


def describe_action(state: ToyState, seat: int, index: int) -> Described:
    """Action ``index`` of the seat to move, as ``seat`` reads it (the other seat's hand slots stay unknown)."""
    kind, value = divmod(index, len(VALUES))
    value += 1
    p = state.current_player if state.current_player >= 0 else seat
    mine = p == seat
    slot = state.hands[p].index(value) if mine and value in state.hands[p] else None
    card = NAMES[value].lower()
    if kind == PLAY:
        text = f"{'play' if mine else 'the opponent plays'} a {card} for {value} points"
        pile = "played"
    else:
        text = (
            f"{'discard' if mine else 'the opponent discards'} a {card} and draw{'' if mine else 's'} a card"
        )
        pile = "discarded"
    return described(text, place("card", "hand", slot, p), place("to", pile, None, p))


def decision_text(state: ToyState, seat: int) -> str:
    """The decision now as a prompt for ``seat``."""
    if state.done:
        if state.truncated or state.winner < 0:
            return "The game is over: a draw"
        return f"The game is over: {'you win' if state.winner == seat else 'the opponent wins'}"
    if state.current_player != seat:
        return "The opponent is choosing a card"
    return f"Play a card for its points or discard one to draw ({state.target} points win)"

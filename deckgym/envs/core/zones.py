"""Zone helpers shared by engines: ordered lists of card ids moved between zones."""

from __future__ import annotations

import random


def shuffle(cards: list[str], rng: random.Random) -> None:
    """Shuffle a zone in place with the state's own RNG (never the global one)."""
    rng.shuffle(cards)


def draw(deck: list[str], hand: list[str], n: int) -> list[str]:
    """Move up to ``n`` cards from the top (end) of ``deck`` to the end of ``hand``; return them."""
    k = min(n, len(deck))
    if k <= 0:
        return []
    drawn = deck[-k:]
    del deck[-k:]
    drawn.reverse()
    hand.extend(drawn)
    return drawn


def take(zone: list[str], index: int) -> str:
    """Remove and return the card at ``index`` of ``zone``."""
    return zone.pop(index)

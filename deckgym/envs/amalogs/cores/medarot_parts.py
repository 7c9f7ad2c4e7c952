"""Core adapter of the Medarot parts card game (slot 2) over ``envs.medarot_parts.sides``.

A deck is the flat list of ``sides.flat_deck``: the two 5-card starter medarots (medal, head,
right arm, left arm, legs), then the 40 deck cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from deckgym.envs.amalogs.core_adapter import SidesCore
from deckgym.envs.games import Game
from deckgym.envs.medarot_parts import GAME, sides
from deckgym.envs.medarot_parts.actions import PASS, Action
from deckgym.envs.medarot_parts.cards import deck_names, resolve_deck
from deckgym.envs.medarot_parts.config import RulesConfig
from deckgym.envs.medarot_parts.sides import Side
from deckgym.envs.medarot_parts.state import GameState


class PartsCore(SidesCore):
    """The Medarot parts game as an AMALOGS core game (D31)."""

    sides: ClassVar[ModuleType] = sides
    state_type = GameState
    game: ClassVar[Game] = GAME

    def __init__(self, slot: int, _arg: str = "") -> None:
        super().__init__(slot, "the Medarot parts game", "Parts")
        self.config = RulesConfig()

    def default_deck(self) -> list[str]:
        """D28: the first ready-made deck of the package (its own starter set)."""
        return self.resolve_deck(deck_names()[0], self.name)

    def resolve_deck(self, value: Any, label: str) -> list[str]:
        """A validated deck in flat form (``DeckError``, a ``ValueError``, names the broken rule).

        Accepts what the parts game accepts (a deck name, a file path, ``{"starter", "cards"}``)
        and the flat list of 50 card ids (10 starter ids first).
        """
        if isinstance(value, Sequence) and not isinstance(value, str) and not isinstance(value, Mapping):
            flat = [str(c) for c in value]
            value = {"starter": [flat[:5], flat[5:10]], "cards": flat[10:]}
        deck = resolve_deck(value, sides.pool(), self.config, label)
        return sides.flat_deck(deck.to_list())

    def new_side(self, deck: list[str], rng: random.Random) -> Side:
        """A1 (the setup of the solo first turn shuffles the deck)."""
        return sides.new_side(sides.structured_deck(deck))

    def resample_side(self, side: Side, rng: random.Random, keep_private: bool) -> Side:
        """Deck order (and, unless ``keep_private``, the hand) redrawn; the side keeps its own L0 (D38)."""
        out: Side = super().resample_side(side, rng, keep_private)
        out.nominal = side.nominal
        return out

    def auto_action(self, table: GameState) -> Action:
        """D32: PASS if legal, else the legal action of lowest index (action kinds are in index order)."""
        legal = table.legal_actions()
        return PASS if PASS in legal else min(legal)

    def table_counts(self, table: GameState, seat: int) -> tuple[int, int, int, int]:
        """A8 of a seat of a running table."""
        return sides.table_summary(table, seat)

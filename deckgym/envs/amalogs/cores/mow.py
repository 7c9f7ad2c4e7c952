"""Core adapter of Master of the World (slot 3) over ``envs.mow.sides``."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any, ClassVar

from deckgym.envs.amalogs.core_adapter import SidesCore
from deckgym.envs.games import Game
from deckgym.envs.mow import GAME, sides
from deckgym.envs.mow.actions import PASS, Action
from deckgym.envs.mow.cards import deck_names, resolve_deck
from deckgym.envs.mow.sides import Side
from deckgym.envs.mow.state import GameState


class MowCore(SidesCore):
    """Master of the World as an AMALOGS core game (D31)."""

    sides: ClassVar[ModuleType] = sides
    state_type = GameState
    game: ClassVar[Game] = GAME

    def __init__(self, slot: int, _arg: str = "") -> None:
        super().__init__(slot, GAME.title, "MoW")

    def default_deck(self) -> list[str]:
        """D28: the first ready-made deck (master first, then the 40 main-deck cards)."""
        return self.resolve_deck(deck_names()[0], self.name)

    def resolve_deck(self, value: Any, label: str) -> list[str]:
        """A validated deck (``DeckError``, a ``ValueError``, names the broken rule)."""
        return resolve_deck(value, sides.pool(), 0, label).expand()

    def new_side(self, deck: list[str], rng: random.Random) -> Side:
        """A1 (the opening of the solo first turn shuffles the deck)."""
        return sides.new_side(deck)

    def auto_action(self, table: GameState) -> Action:
        """A9, D32: PASS if legal, else the legal action of lowest index (index order is (kind, arg))."""
        legal = table.legal_actions()
        return PASS if PASS in legal else min(legal)

    def table_counts(self, table: GameState, seat: int) -> tuple[int, int, int, int]:
        """A8 of a seat of a running table: master life, hand, deck, monsters on the field."""
        return (table.life[seat], len(table.hand[seat]), len(table.deck[seat]), len(table.monsters[seat]))

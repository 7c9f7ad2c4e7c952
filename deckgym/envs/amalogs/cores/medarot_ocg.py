"""Core adapter of the Medarot OCG (slots 0 beginner, 1 advance, 4 normal) over ``envs.medarot_ocg.sides``."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any, ClassVar, Final

from deckgym.envs.amalogs.core_adapter import SidesCore
from deckgym.envs.games import Game
from deckgym.envs.medarot_ocg import GAME, sides
from deckgym.envs.medarot_ocg.actions import PASS, Action, Kind
from deckgym.envs.medarot_ocg.cards import resolve_deck, starter_decks
from deckgym.envs.medarot_ocg.rules.board import to_relative
from deckgym.envs.medarot_ocg.sides import Side
from deckgym.envs.medarot_ocg.state import GameState

#: Mode -> the mode's short name on the map (its name for people is "Medarot OCG <mode>").
_SHORT: Final[dict[str, str]] = {"beginner": "OCG beg.", "advance": "OCG adv.", "normal": "OCG norm."}


class MedarotCore(SidesCore):
    """One Medarot OCG mode as an AMALOGS core game (D31)."""

    sides: ClassVar[ModuleType] = sides
    state_type = GameState
    game: ClassVar[Game] = GAME

    def __init__(self, slot: int, mode: str) -> None:
        super().__init__(slot, f"Medarot OCG {mode}", _SHORT[mode])
        self.mode = mode
        self.config = sides.mode_config(mode)

    def default_deck(self) -> list[str]:
        """D28: the first ready-made deck of the mode."""
        return self.resolve_deck(starter_decks(self.mode)[0], self.name)

    def resolve_deck(self, value: Any, label: str) -> list[str]:
        """A validated deck of this mode (``DeckError``, a ``ValueError``, names the broken rule)."""
        return resolve_deck(value, sides.pool(), self.config, label).expand()

    def new_side(self, deck: list[str], rng: random.Random) -> Side:
        """A1 (the opening of the solo first turn shuffles the deck)."""
        return sides.new_side(self.mode, deck)

    def auto_action(self, table: GameState) -> Action:
        """D32: PASS if legal, else the legal action of lowest index (squares in the seat's frame)."""
        legal = table.legal_actions()
        if PASS in legal:
            return PASS
        seat = table.current_player

        def index(a: Action) -> tuple[int, int]:
            return (a.kind, to_relative(a.arg, seat) if a.kind == Kind.SQUARE else a.arg)

        return min(legal, key=index)

    def table_counts(self, table: GameState, seat: int) -> tuple[int, int, int, int]:
        """A8 of a seat of a running table: HP, hand, deck, Medarots on the board."""
        units = 0
        for x in table.board:
            if x is not None and x.owner == seat:
                units += 1
        return (table.hp[seat], len(table.hand[seat]), len(table.deck[seat]), units)

"""Core adapter of the Medarot OCG (slots 0 beginner, 1 advance, 4 normal) over ``envs.medarot_ocg.sides``."""

from __future__ import annotations

import random
from typing import Any

from envs.amalogs.config import RULESETS
from envs.amalogs.core_adapter import CoreSummary
from envs.medarot_ocg import sides
from envs.medarot_ocg.actions import PASS, Action, Kind
from envs.medarot_ocg.cards import resolve_deck, starter_decks
from envs.medarot_ocg.rules.board import to_relative
from envs.medarot_ocg.sides import Side
from envs.medarot_ocg.state import GameState


class MedarotCore:
    """One Medarot OCG mode as an AMALOGS core game (D31)."""

    def __init__(self, slot: int, mode: str) -> None:
        self.slot = slot
        self.name = RULESETS[slot].name
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

    def solo_table(self, side: Side, rng: random.Random, turn: int) -> GameState:
        """A2."""
        return sides.solo_table(side, rng, turn)

    def compose(self, host: Side, champion: Side | None, rng: random.Random, turn: int) -> GameState:
        """A3."""
        return sides.compose(host, champion, rng, turn)

    def begin(self, table: GameState) -> None:
        """Run the table to its first decision."""
        sides.begin(table)

    def to_act(self, table: GameState) -> int:
        """A4."""
        return table.current_player

    def legal_actions(self, table: GameState) -> list[Action]:
        """A4."""
        return table.legal_actions()

    def step(self, table: GameState, action: Action) -> None:
        """A4."""
        table.apply(action)

    def auto_action(self, table: GameState) -> Action:
        """D32: PASS if legal, else the legal action of lowest index (squares in the seat's frame)."""
        legal = table.legal_actions()
        if PASS in legal:
            return PASS
        seat = table.current_player

        def index(a: Action) -> tuple[int, int]:
            return (a.kind, to_relative(a.arg, seat) if a.kind == Kind.SQUARE else a.arg)

        return min(legal, key=index)

    def loss_flags(self, table: GameState) -> tuple[bool, bool]:
        """A5."""
        return sides.loss_flags(table)

    def split(self, table: GameState) -> tuple[Side, Side | None]:
        """A6."""
        return sides.split(table)

    def lose_core_life(self, side: Side, n: int) -> bool:
        """A7: one mandatory payment of ``n`` HP."""
        return sides.lose_core_life(side, n)

    def summary(self, side: Side) -> CoreSummary:
        """A8."""
        return CoreSummary(*sides.summary(side))

    def table_summary(self, table: GameState, seat: int) -> CoreSummary:
        """A8 of a seat of a running table."""
        units = sum(1 for x in table.board if x is not None and x.owner == seat)
        return CoreSummary(table.hp[seat], len(table.hand[seat]), len(table.deck[seat]), units)

    def side_cards(self, side: Side) -> list[str]:
        """I9."""
        return side.cards()

    def clone_side(self, side: Side) -> Side:
        """Copy."""
        return side.clone()

    def clone_table(self, table: GameState, rng: random.Random) -> GameState:
        """Copy drawing from ``rng``."""
        t = table.clone()
        t.rng = rng
        return t

    def side_to_dict(self, side: Side) -> dict[str, Any]:
        """JSON form."""
        return side.to_dict()

    def side_from_dict(self, data: dict[str, Any]) -> Side:
        """Inverse of ``side_to_dict``."""
        return Side.from_dict(data)

    def table_to_dict(self, table: GameState) -> dict[str, Any]:
        """JSON form."""
        return table.to_dict()

    def table_from_dict(self, data: dict[str, Any], rng: random.Random) -> GameState:
        """Inverse of ``table_to_dict``."""
        t = GameState.from_dict(data)
        t.rng = rng
        return t

    def resample_side(self, side: Side, rng: random.Random, keep_private: bool) -> Side:
        """Hidden cards and deck order redrawn."""
        return sides.resample_side(side, rng, keep_private)

    def resample_table(self, table: GameState, keep_seat: int, rng: random.Random) -> GameState:
        """Everything ``keep_seat`` may not see redrawn (both seats' when -1)."""
        own_rng = table.rng
        if keep_seat >= 0:
            t = table.resample_hidden(keep_seat, rng)
        else:
            t = table.resample_hidden(0, rng).resample_hidden(1, rng)
        t.rng = own_rng
        return t

    def render_table(self, table: GameState, viewer: int | None) -> str:
        """The Medarot OCG board as text."""
        from envs.medarot_ocg.render import render_text

        return render_text(table, viewer)

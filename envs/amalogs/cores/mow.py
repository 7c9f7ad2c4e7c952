"""Core adapter of Master of the World (slot 3) over ``envs.mow.sides``."""

from __future__ import annotations

import random
from typing import Any

from envs.amalogs.config import RULESETS
from envs.amalogs.core_adapter import CoreSummary
from envs.mow import sides
from envs.mow.actions import PASS, Action
from envs.mow.cards import deck_names, resolve_deck
from envs.mow.sides import Side
from envs.mow.state import GameState


class MowCore:
    """Master of the World as an AMALOGS core game (D31)."""

    def __init__(self, slot: int, _arg: str = "") -> None:
        self.slot = slot
        self.name = RULESETS[slot].name

    def default_deck(self) -> list[str]:
        """D28: the first ready-made deck (master first, then the 40 main-deck cards)."""
        return self.resolve_deck(deck_names()[0], self.name)

    def resolve_deck(self, value: Any, label: str) -> list[str]:
        """A validated deck (``DeckError``, a ``ValueError``, names the broken rule)."""
        return resolve_deck(value, sides.pool(), 0, label).expand()

    def new_side(self, deck: list[str], rng: random.Random) -> Side:
        """A1 (the opening of the solo first turn shuffles the deck)."""
        return sides.new_side(deck)

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
        """A9, D32: PASS if legal, else the legal action of lowest index (index order is (kind, arg))."""
        legal = table.legal_actions()
        return PASS if PASS in legal else min(legal)

    def loss_flags(self, table: GameState) -> tuple[bool, bool]:
        """A5."""
        return sides.loss_flags(table)

    def split(self, table: GameState) -> tuple[Side, Side | None]:
        """A6."""
        return sides.split(table)

    def lose_core_life(self, side: Side, n: int) -> bool:
        """A7: master life - n; life <= 0 is a loss."""
        return sides.lose_core_life(side, n)

    def summary(self, side: Side) -> CoreSummary:
        """A8."""
        return CoreSummary(*sides.summary(side))

    def table_summary(self, table: GameState, seat: int) -> CoreSummary:
        """A8 of a seat of a running table."""
        return CoreSummary(
            table.life[seat], len(table.hand[seat]), len(table.deck[seat]), len(table.monsters[seat])
        )

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
        """Deck order (and, unless ``keep_private``, hand and face-down spell) redrawn."""
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
        """The Master of the World board as text."""
        from envs.mow.render import render_text

        return render_text(table, viewer)

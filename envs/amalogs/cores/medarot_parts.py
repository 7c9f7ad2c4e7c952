"""Core adapter of the Medarot parts card game (slot 2) over ``envs.medarot_parts.sides``.

A deck is the flat list of ``sides.flat_deck``: the two 5-card starter medarots (medal, head,
right arm, left arm, legs), then the 40 deck cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from envs.amalogs.config import RULESETS
from envs.amalogs.core_adapter import CoreSummary
from envs.medarot_parts import sides
from envs.medarot_parts.actions import PASS, Action
from envs.medarot_parts.cards import deck_names, resolve_deck
from envs.medarot_parts.config import RulesConfig
from envs.medarot_parts.sides import Side
from envs.medarot_parts.state import GameState


class PartsCore:
    """The Medarot parts game as an AMALOGS core game (D31)."""

    def __init__(self, slot: int, _arg: str = "") -> None:
        self.slot = slot
        self.name = RULESETS[slot].name
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
        """D32: PASS if legal, else the legal action of lowest index (action kinds are in index order)."""
        legal = table.legal_actions()
        return PASS if PASS in legal else min(legal)

    def loss_flags(self, table: GameState) -> tuple[bool, bool]:
        """A5."""
        return sides.loss_flags(table)

    def split(self, table: GameState) -> tuple[Side, Side | None]:
        """A6."""
        return sides.split(table)

    def lose_core_life(self, side: Side, n: int) -> bool:
        """A7: ``n`` counters on the head of the lowest-index non-stopped medarot."""
        return sides.lose_core_life(side, n)

    def summary(self, side: Side) -> CoreSummary:
        """A8."""
        return CoreSummary(*sides.summary(side))

    def table_summary(self, table: GameState, seat: int) -> CoreSummary:
        """A8 of a seat of a running table."""
        return CoreSummary(*sides.table_summary(table, seat))

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
        """Deck order (and, unless ``keep_private``, the hand) redrawn."""
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
        """The parts-game field as text."""
        from envs.medarot_parts.render import render_text

        return render_text(table, viewer)

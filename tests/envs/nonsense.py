"""Type-correct nonsense: a real position with some fields turned into values of the right types.

``scramble(state, bank, draw)`` clones ``state`` and replaces a few of its attributes with values
of the same types but arbitrary contents: numbers out of range, lists of the wrong length, card
ids that are not in the pool or sit in the wrong zone, records with scrambled fields, agenda
tasks with unknown names, or the value the same attribute has in another position of ``bank``
(a decision point, an action record or a battle from another game). ``draw`` is the source of
every choice (hypothesis's ``data.draw`` in the tests), so a failing example shrinks and replays.

A rules check must either accept the result or raise ``StateError``: the result is what
``GameState.from_dict`` builds from any JSON whose values have the right types.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as hs

#: Numbers a scrambled int takes: boundaries of the usual ranges, and a few far outside them.
NUMBERS = (-1000, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 14, 15, 16, 17, 30, 40, 50, 1000)
#: Words a scrambled string takes besides the pool's card ids.
WORDS = (
    "",
    "NOPE",
    "select",
    "start_phase",
    "payment",
    "battle_end",
    "MOD_POWER",
    "POWER",
    "ANY",
    "END_OF_TURN",
)

Draw = Callable[[hs.SearchStrategy[Any]], Any]


class Scrambler:
    """Turns values into others of the same type, drawing every choice from ``draw``."""

    def __init__(self, draw: Draw, words: Sequence[str], bank: Sequence[Any]) -> None:
        self.draw = draw
        self.words = tuple(words) + WORDS
        self.bank = bank

    def number(self, v: int) -> int:
        return int(self.draw(hs.sampled_from(NUMBERS) | hs.integers(v - 3, v + 3)))

    def word(self) -> str:
        return str(self.draw(hs.sampled_from(self.words)))

    def value(self, v: Any, depth: int = 0) -> Any:
        """A value of the type of ``v`` with arbitrary contents (``v`` itself is not changed)."""
        if isinstance(v, bool):
            return not v
        if isinstance(v, int):
            return self.number(v)
        if isinstance(v, str):
            return self.word()
        if isinstance(v, tuple):
            return tuple(self.sequence(list(v), depth))
        if isinstance(v, list):
            return self.sequence(list(v), depth)
        if v is None or depth > 4:
            return v
        return self.record(v, depth)

    def sequence(self, items: list[Any], depth: int) -> list[Any]:
        """Drop, copy, swap or scramble entries of a list (a copy)."""
        how = self.draw(hs.sampled_from(("change", "change", "drop", "grow", "swap", "empty")))
        if how == "empty":
            return []
        if not items:
            return [self.number(0)] if how == "grow" else items
        i = self.draw(hs.integers(0, len(items) - 1))
        if how == "drop":
            del items[i]
        elif how == "grow":
            items.insert(self.draw(hs.integers(0, len(items))), copy.deepcopy(items[i]))
        elif how == "swap":
            j = self.draw(hs.integers(0, len(items) - 1))
            items[i], items[j] = items[j], items[i]
        elif items[i] is None:
            others = [x for x in items if x is not None]
            if others:
                items[i] = copy.deepcopy(self.draw(hs.sampled_from(others)))
        else:
            items[i] = self.value(items[i], depth + 1)
        return items

    def record(self, v: Any, depth: int) -> Any:
        """A copy of a declared record (a dataclass) with one field scrambled."""
        slots = [f.name for f in dataclasses.fields(v)] if dataclasses.is_dataclass(v) else []
        if not slots:
            return v
        out = copy.deepcopy(v)
        key = self.draw(hs.sampled_from(slots))
        old = getattr(out, key)
        if old is None:
            new = self.filled(type(v).__name__, key)
        else:
            new = self.value(old, depth + 1)
        setattr(out, key, new)
        return out

    def filled(self, owner: str, key: str) -> Any:
        """A value for a field that holds None: a card id, or a list of numbers (effect targets)."""
        if key == "targets":
            return [self.number(1) for _ in range(self.draw(hs.integers(0, 3)))]
        return self.word()


def scramble(
    state: Any, attributes: Sequence[str], bank: Sequence[Any], words: Sequence[str], draw: Draw
) -> Any:
    """A clone of ``state`` with 1 to 3 of ``attributes`` scrambled (or taken from a position of ``bank``)."""
    s = state.clone()
    s._legal = None
    sc = Scrambler(draw, words, bank)
    for _ in range(draw(hs.integers(1, 3))):
        key = draw(hs.sampled_from(list(attributes)))
        old = getattr(s, key)
        if draw(hs.booleans()) and bank:
            other = draw(hs.sampled_from(list(bank)))
            new = copy.deepcopy(getattr(other, key))
        elif old is None:
            donors = [getattr(b, key) for b in bank if getattr(b, key) is not None]
            new = copy.deepcopy(draw(hs.sampled_from(donors))) if donors else None
        else:
            new = sc.value(copy.deepcopy(old))
        setattr(s, key, new)
    return s

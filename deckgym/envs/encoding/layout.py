"""Named pieces over one flat observation buffer (OpenSpiel's observer ``pieces`` pattern).

An ``ObsLayout`` is declared once per ruleset; it gives each piece a name, a shape and a
slice of the flat float32 vector, so a researcher can read an observation by name and the
layout doubles as the documentation of the observation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Piece:
    """One named block of the observation."""

    name: str
    shape: tuple[int, ...]
    start: int
    doc: str = ""

    @property
    def size(self) -> int:
        """Number of floats in the piece."""
        return math.prod(self.shape)

    @property
    def slice(self) -> slice:
        """Where the piece lies in the flat vector."""
        return slice(self.start, self.start + self.size)


class ObsLayout:
    """An ordered set of pieces; ``size`` is the observation length."""

    def __init__(self, pieces: Sequence[tuple[str, tuple[int, ...], str]]) -> None:
        self.pieces: dict[str, Piece] = {}
        start = 0
        for name, shape, doc in pieces:
            if name in self.pieces:
                raise ValueError(f"duplicate observation piece {name!r}")
            piece = Piece(name, tuple(shape), start, doc)
            self.pieces[name] = piece
            start += piece.size
        self.size = start

    def __getitem__(self, name: str) -> Piece:
        return self.pieces[name]

    def slices(self) -> dict[str, slice]:
        """Piece name -> slice of the flat vector."""
        return {n: p.slice for n, p in self.pieces.items()}

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """The named piece of ``obs``, reshaped to its declared shape."""
        p = self.pieces[name]
        return obs[p.slice].reshape(p.shape)

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Every piece of ``obs`` by name."""
        return {n: self.view(obs, n) for n in self.pieces}

    def describe(self) -> str:
        """A markdown table of the pieces (for env docs)."""
        rows = ["| piece | shape | slice | meaning |", "|---|---|---|---|"]
        for p in self.pieces.values():
            rows.append(f"| `{p.name}` | {p.shape} | {p.start}:{p.start + p.size} | {p.doc} |")
        return "\n".join(rows)

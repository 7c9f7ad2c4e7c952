"""The MAP (spec D9-D13): an 11 x 7 grid, Chebyshev distance, bases, spawn areas and reachability.

Square index ``s = 7 * row + column``. Team A's base is (0, 3) = 3, team B's (10, 3) = 73.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.amalogs.actions import DIRECTIONS

ROWS: Final = 11
COLS: Final = 7
SQUARES: Final = ROWS * COLS
#: D9: base square of team A (0) and team B (1).
BASES: Final[tuple[int, ...]] = (3, 73)


def square(row: int, col: int) -> int:
    """Square index of (row, col)."""
    return COLS * row + col


def coords(s: int) -> tuple[int, int]:
    """(row, col) of a square."""
    return divmod(s, COLS)


def dist(a: int, b: int) -> int:
    """D10: Chebyshev distance between two squares."""
    ra, ca = divmod(a, COLS)
    rb, cb = divmod(b, COLS)
    return max(abs(ra - rb), abs(ca - cb))


def _neighbour(s: int, d: int) -> int:
    r, c = divmod(s, COLS)
    dr, dc = DIRECTIONS[d]
    r, c = r + dr, c + dc
    return square(r, c) if 0 <= r < ROWS and 0 <= c < COLS else -1


#: NEIGHBOUR[s][d]: the square next to ``s`` in direction ``d`` (D13), or -1 outside the grid.
NEIGHBOUR: Final = tuple(tuple(_neighbour(s, d) for d in range(8)) for s in range(SQUARES))
#: D11: spawn area of each team: squares at distance 1 or 2 from its base.
SPAWN: Final = tuple(tuple(s for s in range(SQUARES) if 1 <= dist(s, b) <= 2) for b in BASES)
#: DIST[a][b], precomputed.
DIST: Final = tuple(tuple(dist(a, b) for b in range(SQUARES)) for a in range(SQUARES))


def is_free(s: int, occupied: set[int] | dict[int, int]) -> bool:
    """D12: in the grid, not a base, no avatar on it."""
    return s >= 0 and s not in BASES and s not in occupied


def reachable(start: int, steps: int, occupied: set[int] | dict[int, int]) -> list[int]:
    """D17: squares reachable from ``start`` in at most ``steps`` king steps through free squares.

    The start square itself is always included (a MOVE may end where it began).
    """
    seen = {start}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for s in frontier:
            for t in NEIGHBOUR[s]:
                if t not in seen and is_free(t, occupied):
                    seen.add(t)
                    nxt.append(t)
        if not nxt:
            break
        frontier = nxt
    return sorted(seen)

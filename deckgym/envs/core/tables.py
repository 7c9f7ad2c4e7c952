"""What every ruleset's ``sides`` module shares when it lays out an AMALOGS table (A2, A3).

A table is one turn of a core game with the host's side at seat 0 and, at seat 1, the
champion's side or a vacant seat (``docs/rules/amalogs.md`` D19-D21; a proxy, D37, sits at a
vacant seat). The ruleset's ``sides`` module builds its own ``GameState`` and knows how to
put one side's zones on it; the order of the seats and the numbering are the same everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from deckgym.envs.core.flow import Agenda


def table_decks(host: Any, champion: Any | None) -> list[Any]:
    """The deck lists of a table: the host's at seat 0, the champion's at seat 1 (empty when vacant)."""
    return [host.decklist, [] if champion is None else champion.decklist]


def solo_start(
    st: Any, rng: random.Random, turn: int, agenda: Agenda[Any], setup: Callable[[Any], None]
) -> Any:
    """A2: the one-turn table ``st`` (seat 1 vacant) through ``setup``, its opening, run to its first decision.

    ``rng`` becomes the table's random source, and its turn counter stands one before ``turn``,
    so that the turn the opening leads into is numbered ``turn``.
    """
    st.rng = rng
    st.turn = turn - 1
    return agenda.start(st, setup)


def seat_sides(
    st: Any, host: Any, champion: Any | None, seat_side: Callable[[Any, Any, int, int], int], task: str
) -> Any:
    """``st`` with ``host`` at seat 0 and ``champion`` (if any) at seat 1, its agenda the one task ``task``.

    ``seat_side(st, side, seat, offset)`` puts a side at a seat with its uids shifted by
    ``offset`` and returns the last uid used; the champion's uids follow the host's and the
    table's next uid follows both.
    """
    offset = seat_side(st, host, 0, 0)
    if champion is not None:
        offset = seat_side(st, champion, 1, offset)
    st.next_uid = offset + 1
    st.agenda = [[task]]
    return st

"""The per-seat view: what one seat may know, as a JSON-safe dict with named, readable fields.

Every ruleset's ``view(state, seat)`` (``envs/<ruleset>/view.py``, reached through
``Ruleset.view`` and ``CardGameEnv.view``) returns a dict built by :func:`frame`, so that the
terminal, the web page and the replay viewer can draw any ruleset from the same top-level keys:

``env``
    the env name (``"medarot_ocg_v1"``...).
``seat``
    the seat the view is for.
``turn``
    the turn (or round) number.
``to_move``
    the seat that decides now, -1 when the game is over.
``decision``
    the name of the decision point (``"DECLARE"``...), or None when the game is over.
``done`` / ``result``
    whether the game is over; then ``{"returns": [...], "reason": str, "truncated": bool}``.
``players``
    one dict per seat, in seat order, each with ``seat`` and ``you`` (whether it is this seat),
    plus the ruleset's public numbers (life, HP, energy, counts of hidden zones) and, for this
    seat only, its own private cards (hand...).
``board``
    the ruleset's open zones, with the cards named and their stats given; face-down cards of
    other seats appear as ``{"hidden": true}`` (or their count) and nothing more.
``events``
    the latest entries of the text log (the engines log only public facts);
``records``
    the same entries as structured events (``envs.core.events``), each with its ``text``:
    public fields for everyone, and the fields only this seat may see (the cards it drew).

A card is ``{"id": ..., "name": ..., <stats>}``. Nothing in a view depends on what the seat
cannot see: the tests check that ``view(state, seat)`` is unchanged by
``state.resample_hidden(seat, rng)``.
"""

from __future__ import annotations

from typing import Any

from deckgym.envs.core.events import events_for

#: How many of the latest events a view carries.
EVENTS_IN_VIEW = 30


def result_of(state: Any) -> dict[str, Any] | None:
    """The result block of a finished game (None while it is live)."""
    if not state.is_terminal():
        return None
    return {
        "returns": [float(r) for r in state.returns()],
        "reason": str(getattr(state, "reason", "") or ""),
        "truncated": bool(state.truncated),
    }


def frame(
    env: str,
    state: Any,
    seat: int,
    *,
    turn: int,
    decision: str | None,
    players: list[dict[str, Any]],
    board: dict[str, Any],
    events: list[str] | None = None,
    records: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The common top level of every view (see the module docs).

    ``events`` and ``records`` default to the tail of the state's logs as ``seat`` sees them;
    a ruleset that shows another log (AMALOGS, a core table's) passes both.
    """
    n = state.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat!r}")
    done = bool(state.is_terminal())
    for i, p in enumerate(players):
        p.setdefault("seat", i)
        p.setdefault("you", i == seat)
    if events is None:
        recs = events_for(state, seat, last=EVENTS_IN_VIEW)
        log = [e["text"] for e in recs]
    else:
        log = [str(e) for e in events][-EVENTS_IN_VIEW:]
        recs = list(records or [])[-EVENTS_IN_VIEW:]
    return {
        "env": env,
        "seat": seat,
        "turn": int(turn),
        "to_move": -1 if done else int(state.current_player),
        "decision": None if done else decision,
        "done": done,
        "result": result_of(state),
        "players": players,
        "board": board,
        "events": log,
        "records": recs,
    }

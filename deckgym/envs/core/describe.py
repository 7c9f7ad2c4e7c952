"""Moves in words: what an action means, as a sentence and the board places it concerns.

Every ruleset has ``describe_action(state, seat, index)`` in ``envs/<ruleset>/describe.py``
(reached through ``Ruleset.describe_action`` and ``CardGameEnv.describe_action``). It returns a
:class:`Described`: a plain-English ``text`` ("Hailgunner (square 6) moves forward-right to
square 7", "Pay 1 HP to draw 2 cards") and ``places``, the spots of the board the move is about,
so that a front end can highlight them or let a person play the move by clicking them.

**The reader.** ``seat`` is the seat that reads the sentence, not always the one that acts. A
move of another seat is told as ``seat`` may know it: a card set face down from that seat's
hand is "a card", never its name. Describing a move changes nothing in ``state``.

**Places.** A place is ``{"role", "zone", "player", "index"}``:

``role``
    what the place is to the move: ``"card"`` (the card played or used), ``"from"`` (where a
    piece leaves), ``"to"`` (where it goes), ``"target"`` (what it aims at).
``zone``
    a zone name of the ruleset's board, as its per-seat view and its board drawings name it
    (``"square"``, ``"hand"``, ``"stock"``...; each ruleset's ``describe.py`` lists its own).
``player``
    the seat the zone belongs to, or None for a shared zone (the OCG's 15 squares, the map).
``index``
    the position in that zone (a square number, a hand slot), or None for the zone as a whole.

:func:`place_key` writes a place as one string, ``"zone/player/index"`` (empty parts for None);
the web page tags every clickable spot of a board with that key (``data-place``).
"""

from __future__ import annotations

from typing import Any, TypedDict

#: The roles a place may have in a move.
ROLES = ("card", "from", "to", "target")


class Place(TypedDict):
    """One spot of the board that a move concerns (see the module docs)."""

    role: str
    zone: str
    player: int | None
    index: int | None


class Described(TypedDict):
    """A move in words: the sentence and the places it concerns."""

    text: str
    places: list[Place]


def place(role: str, zone: str, index: int | None = None, player: int | None = None) -> Place:
    """A place of a move; ``ValueError`` for a role not in ``ROLES``."""
    if role not in ROLES:
        raise ValueError(f"a place's role must be one of {', '.join(ROLES)}, got {role!r}")
    return {
        "role": role,
        "zone": zone,
        "player": None if player is None else int(player),
        "index": None if index is None else int(index),
    }


def place_key(p: Place | dict[str, Any]) -> str:
    """A place as one string, ``"zone/player/index"`` (what the page's ``data-place`` holds)."""
    player = "" if p.get("player") is None else str(p["player"])
    index = "" if p.get("index") is None else str(p["index"])
    return f"{p['zone']}/{player}/{index}"


def described(text: str, *places: Place) -> Described:
    """A :class:`Described` from a sentence and its places (the sentence starts upper case)."""
    text = text.strip()
    return {"text": text[:1].upper() + text[1:], "places": list(places)}


def ordinal_list(words: list[str]) -> str:
    """``["a", "b", "c"]`` as ``"a, b and c"`` (plain English lists)."""
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]

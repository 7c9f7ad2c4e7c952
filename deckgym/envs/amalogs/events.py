"""The structured events of AMALOGS (``envs.core.events``): kinds, their fields, what is private.

These are the meta-game's own events (``AmalogsState.records``). A running core table keeps
its own log, with the events of its ruleset (``envs.<ruleset>.events``); the AMALOGS view gives
it to the players seated there (``board.core.events`` / ``board.core.records``).

Players are AMALOGS player indices (``P0``..``P5``: team A first, then team B); a ``team`` or a
base is 0 (A) or 1 (B); squares are ``s = 7 * row + col`` on the MAP; a direction is 0..7.
No meta-game event names a card, and nothing of it is private.
"""

from __future__ import annotations

from typing import Final

#: kind -> its public fields, in the order the rules emit them.
KINDS: Final[dict[str, tuple[str, ...]]] = {
    "core_game": ("player", "ruleset", "core_turn"),
    "core_cap": ("cap",),
    "auto": ("player", "decision", "action"),
    "place": ("player", "square"),
    "first_team": ("team",),
    "team_turn": ("turn", "team"),
    "roll": ("player", "dice", "we", "allowance"),
    "move": ("player", "square"),
    "step": ("player", "direction", "square"),
    "push": ("player", "target", "direction", "square"),
    "swap": ("player", "ally"),
    "guard": ("player",),
    "hand_over": ("player", "to"),
    "end_turn": ("player",),
    "duel": ("host", "guests", "casts", "bases", "champion", "defender", "proxy", "strike"),
    "base_hit": ("team", "base_life"),
    "siege": ("host", "team", "base_life"),
    "proxy_damage": ("host", "defender", "damage", "core_damage", "proxy_life"),
    "strike": ("player", "base", "target", "amount", "life"),
    "duel_result": ("host", "winners", "losers", "change"),
    "exit": ("player", "result", "per_we", "we"),
    "base_life": ("life",),
    "respawn": ("player", "square"),
    "end": ("winner", "reason"),
}

#: kind -> the fields it may hold for one seat only: the meta-game has no private facts.
PRIVATE: Final[dict[str, tuple[str, ...]]] = {}

#: Fields that hold card ids: no meta-game event names a card.
CARD_FIELDS: Final[tuple[str, ...]] = ()

#: Kinds whose public cards may be out of every view: none (no event names a card).
REVEALS: Final[frozenset[str]] = frozenset()

#: kind -> what it means and what its fields are.
DESCRIPTIONS: Final[dict[str, str]] = {
    "core_game": "`player` opens a new core game of ruleset `ruleset` (its name) for its solo first "
    "turn, core turn number `core_turn` (D28, D30).",
    "core_cap": "a core table reached the decision cap `cap`: the engine completes the turn (D32).",
    "auto": "the engine plays the core action `action` (`CORE <action>`) for `player` at the decision "
    "`decision` while completing a core turn at the cap (D32).",
    "place": "`player` places its avatar on `square` in the start-up (D8).",
    "first_team": "the RNG draws team `team` (0 A, 1 B) to go first (R4).",
    "team_turn": "team turn `turn` begins; team `team` (0 A, 1 B) acts (R6).",
    "roll": "`player` commands MOVE: 2D6 `dice` ([d1, d2]), its `we`, and the resulting `allowance` (D17).",
    "move": "`player`'s avatar moves to `square` (the MOVE destination).",
    "step": "`player` steps one square in `direction` (0..7) to `square`.",
    "push": "`player` pushes the enemy `target` one square in `direction` to `square`.",
    "swap": "`player` and its `ally` next to it exchange squares.",
    "guard": "`player`'s avatar is Guarding until its team's next action-point gain (D26).",
    "hand_over": "`player` hands control over to its teammate `to` (D6).",
    "end_turn": "`player` ends its part of the team turn (D5).",
    "duel": "`host` declares a duel (or a position starts at its strike): the `guests`, `casts`, "
    "participating `bases` (teams), the `champion` (-1 if none), the `defender` whose stand-in sits at "
    "seat 1 (null if none), the `proxy` at seat 1 (`guest`, `base` or null) and the strike value `strike` "
    "(R13-R17, D21, D36).",
    "base_hit": "the successful attacks on the base proxy take one more life from team `team`'s base (every "
    "attack for the parts game, one life per the host game's base unit of attacks for the others); `base_life` "
    "is its base life after (D40, D43).",
    "siege": "after `host`'s table against a champion or a defender, with the base of team `team` "
    "participating and the host's game not lost, the besieged base loses 1 life; `base_life` is its base "
    "life after (D43, amending D40).",
    "proxy_damage": "after a table with the `defender`'s stand-in at seat 1: the `damage` it took in "
    "`host`'s units, the `core_damage` its own game loses (A7) and the stand-in's life `proxy_life` at "
    "the end (D38, D39); also when the damage is 0.",
    "strike": "the duel's host `player` strikes the guest `target` for `amount` core life, converted "
    "to its game (D41); `base` and `life` are always null (bases are never struck).",
    "duel_result": "`host`'s duel resolves: the seats that won (`winners`), the players that lost "
    "(`losers`) and the base-life `change` per team [A, B] their exits bring (all 0 when a base "
    "fell and the match ends) (D23, D25).",
    "exit": "`player` exits after a `result` (`loss`/`win`), `per_we` base life per point of its `we` (R21-R23).",
    "base_life": "the base lives `life` [A, B] after the exits of a duel (R22, R23).",
    "respawn": "`player` respawns on `square` of its spawn area (D29).",
    "end": "the match is over: `winner` 0 (team A), 1 (team B) or 2 (a draw), for `reason` (D33, D34).",
}


# ----------------------------------------------------------------------------- words for people
# (A ruleset's name for people and its short name are its adapter's: ``cores.adapter(slot).title``.)
_TEAMS: Final = "AB"


def player_name(st: object, player: int) -> str:
    """``A0``..``B2``: the team letter and the slot in the team (the names the view uses)."""
    a = st.avatars[player]  # type: ignore[attr-defined]
    return f"{_TEAMS[a.team]}{a.slot}"


def square_name(s: int) -> str:
    """A MAP square for people: ``"row 3, column 5"``, counted from 1 (row 1 is team A's base row)."""
    r, c = divmod(int(s), 7)
    return f"row {r + 1}, column {c + 1}"


def names(st: object, players: list[int]) -> str:
    """Players as ``"A0, A1 and B0"`` (``"nobody"`` for none)."""
    words = [player_name(st, p) for p in players]
    if not words:
        return "nobody"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

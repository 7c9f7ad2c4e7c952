"""The per-seat view of an AMALOGS match (``envs.core.view``): what one player may know, named.

It holds the same facts as the player's observation (``envs.amalogs.encode``), read from the
state. Players are named ``A0``..``B2`` (team letter, slot in the team); squares are
``s = 7 * row + col`` on the 11 x 7 MAP and are given with their ``row`` and ``col`` where an
avatar or a base stands.

``turn`` is the team turn, ``decision`` the state's decision name (``META_FIELD``,
``DUEL_CORE/<core decision>``...). Each entry of ``players``:

``name``, ``team`` (``"A"``/``"B"``), ``team_slot``, ``ally`` (same team as the viewer)
    who the player is.
``square`` / ``row`` / ``col`` (None off the MAP), ``on_map``, ``exited``
    where its avatar stands.
``ap``, ``we``, ``range``, ``ruleset`` (name, None before the choice), ``ruleset_slot``
    its numbers and core ruleset.
``dueled``, ``guarding``, ``ended``, ``role`` (``host``/``cast``/``guest``/``champion``/``defender``/None)
    its flags in this team turn and its part in the duel under way.
``core``
    the public summary of its core game: ``life``, ``hand``, ``deck``, ``units`` (counts),
    ``turns`` (core turns as active player), ``nominal`` (its nominal life, the unit by which
    a stand-in's life is converted, D38) and ``at_table``; None before it holds one.
``hand``
    the viewer's own entry only: its core hand as named cards ``{"id", "name"}``.

``board``:

``map``
    ``rows``, ``cols``, ``spawn`` (per team letter, its spawn squares), ``in_range`` (squares
    within the viewer's duel range), ``move_destinations`` (legal squares of a pending MOVE).
``teams``
    per team: ``name``, ``players``, base ``square``/``row``/``col``/``life``, ``acting``,
    ``first``.
``rulesets``
    per ruleset of the match's pools (by its ``ruleset`` name): ``title`` (its name for people),
    ``short`` (a few letters for a map square), ``we``, ``range`` and ``env`` (the env name whose
    board draws its tables).
``phase``, ``team_turn``, ``max_team_turns``, ``acting`` / ``first_team`` (letters or None),
``control`` (player or -1), ``dice``, ``move_allowance``, ``core_turn``, ``winner``
    the meta-game's public numbers.
``duel``
    the duel under way or None: ``host``, ``casts``, ``guests``, ``champion`` (-1 if none),
    ``defender`` (the guest whose stand-in sits at seat 1, -1 if none), ``proxy`` (``guest``,
    ``base`` or None: what sits at seat 1 when no champion does), ``proxy_life`` (the
    stand-in's life now, in the host's game; the enemy base's life for a base), ``proxy_start``
    (its life when the table was composed), ``base_hits`` (successful attacks on the base in
    this duel), ``bases`` (team letters), ``squares`` (participants'), ``strike``, ``lost``,
    ``struck``.
``table``
    the running core table, public part, or None: ``ruleset``, ``kind`` (``duel``/``solo``),
    ``seats`` (the player at seat 0 and 1, -1 vacant or a stand-in), ``proxy`` (as in ``duel``),
    ``to_move`` (its seat), ``decision``.
``core``
    the viewer's core game as its observation holds it: the running table from its seat when
    it sits there, else its own side alone (a table with seat 1 vacant); None without a side.
    ``ruleset``, ``env`` (the core ruleset's env name, whose board draws it), ``title``,
    ``source`` (``table``/``own_side``), ``seat``, ``seats`` (players, -1 vacant),
    ``turn`` (the core table's), ``decision`` and ``to_move`` (its seat; None and -1 off a live
    table), and ``players`` / ``board`` / ``events`` / ``records`` from the core ruleset's own
    ``view(table, seat)`` (each player entry gets its AMALOGS ``player``; ``records`` are the
    table's structured events as that seat sees them). A ruleset without a view module gives a
    summary instead: per seat ``life``/``hand``/``deck``/``units`` and, for the viewer's seat,
    its ``hand`` as named cards; ``board`` is then empty, ``events`` and ``records`` too.

The top-level ``events`` and ``records`` are the meta-game's own log (``envs.amalogs.events``).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from deckgym.envs.amalogs.actions import Phase, Role
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.encode import duel_roles, proxy_life
from deckgym.envs.amalogs.rules.commands import move_destinations
from deckgym.envs.amalogs.rules.geometry import BASES, COLS, DIST, ROWS, SPAWN, SQUARES
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core.proxy import BASE as BASE_PROXY
from deckgym.envs.core.proxy import KINDS as PROXY_KINDS
from deckgym.envs.core.proxy import NONE as NO_PROXY
from deckgym.envs.core.view import frame

ENV = "amalogs_v2"
TEAMS = "AB"
#: A ruleset's own ``view(state, seat)``.
CoreView = Callable[[Any, int], dict[str, Any]]


def view(
    state: AmalogsState, seat: int, *, core_views: Callable[[int], CoreView | None] | None = None
) -> dict[str, Any]:
    """What player ``seat`` may know of the match (see the module docs for the fields).

    ``core_views(slot)`` gives ruleset ``slot``'s own ``view(state, seat)``, or None for the
    summary that stands in for it (default ``core_view_function``).
    """
    st = state
    if not 0 <= seat < st.num_players:
        raise ValueError(f"seat must be in 0..{st.num_players - 1}, got {seat!r}")
    roles = _roles(st)
    players = [_player(st, i, seat, roles) for i in range(st.num_players)]
    own = _own_core(st, seat)
    if own is not None:
        players[seat]["hand"] = [_card(own[0], c) for c in own[0].hand[own[1]]]
    return frame(
        ENV,
        st,
        seat,
        turn=st.team_turn,
        decision=st.decision,
        players=players,
        board=_board(st, seat, own, core_views or core_view_function),
    )


def name(st: AmalogsState, player: int) -> str:
    """``A0``..``B2``."""
    a = st.avatars[player]
    return f"{TEAMS[a.team]}{a.slot}"


def _letter(team: int) -> str | None:
    return TEAMS[team] if team in (0, 1) else None


def _where(s: int) -> dict[str, Any]:
    return {"square": s, "row": s // COLS, "col": s % COLS}


def _roles(st: AmalogsState) -> dict[int, str]:
    return {p: Role(r).name.lower() for p, r in duel_roles(st).items()}


def _player(st: AmalogsState, i: int, seat: int, roles: dict[int, str]) -> dict[str, Any]:
    a = st.avatars[i]
    on = a.on_map
    out: dict[str, Any] = {
        "name": name(st, i),
        "team": TEAMS[a.team],
        "team_slot": a.slot,
        "ally": a.team == st.avatars[seat].team,
        "square": a.square if on else None,
        "row": a.square // COLS if on else None,
        "col": a.square % COLS if on else None,
        "on_map": on,
        "exited": a.exited,
        "ap": a.ap,
        "we": a.we,
        "range": a.range,
        "ruleset": RULESETS[a.ruleset].name if a.ruleset >= 0 else None,
        "ruleset_slot": a.ruleset,
        "dueled": a.dueled,
        "guarding": a.guarding,
        "ended": a.ended,
        "role": roles.get(i),
        "core": None,
    }
    k = st.seat_of(i)
    summary = None
    if k >= 0:
        summary = adapter(st.table_ruleset).table_summary(st.table, k)
    elif a.side is not None:
        summary = adapter(a.ruleset).summary(a.side)
    if summary is not None:
        out["core"] = {
            "life": int(summary.life),
            "hand": int(summary.hand),
            "deck": int(summary.deck),
            "units": int(summary.units),
            "turns": a.core_turns,
            "nominal": a.nominal,
            "at_table": k >= 0,
        }
    return out


def _own_core(st: AmalogsState, seat: int) -> tuple[Any, int, int, str] | None:
    """``(table, seat at it, ruleset slot, source)``: what the observation's core view reads."""
    k = st.seat_of(seat)
    if k >= 0:
        return st.table, k, st.table_ruleset, "table"
    a = st.avatars[seat]
    if a.side is None:
        return None
    # The encoder's own-side table; a throwaway generator, since composing draws nothing.
    table = adapter(a.ruleset).compose(a.side, None, random.Random(0), max(1, a.last_turn))
    return table, 0, a.ruleset, "own_side"


def _card(table: Any, cid: str) -> dict[str, Any]:
    return {"id": cid, "name": str(table.cards[cid].name)}


def _board(
    st: AmalogsState,
    seat: int,
    own: tuple[Any, int, int, str] | None,
    core_views: Callable[[int], CoreView | None],
) -> dict[str, Any]:
    me = st.avatars[seat]
    moving = st.phase == Phase.MOVE_DEST and not st.done
    teams = [
        {
            "name": TEAMS[t],
            "players": [i for i, a in enumerate(st.avatars) if a.team == t],
            **_where(BASES[t]),
            "life": st.life[t],
            "acting": st.acting == t,
            "first": st.first_team == t,
        }
        for t in (0, 1)
    ]
    return {
        "map": {
            "rows": ROWS,
            "cols": COLS,
            "spawn": {TEAMS[t]: list(SPAWN[t]) for t in (0, 1)},
            "in_range": [s for s in range(SQUARES) if DIST[me.square][s] <= me.range] if me.on_map else [],
            "move_destinations": [int(s) for s in move_destinations(st)] if moving else [],
        },
        "teams": teams,
        "rulesets": _rulesets(st),
        "phase": Phase(st.phase).name,
        "team_turn": st.team_turn,
        "max_team_turns": st.config.max_team_turns,
        "acting": _letter(st.acting),
        "first_team": _letter(st.first_team),
        "control": st.control,
        "dice": list(st.dice),
        "move_allowance": st.move_allowance if moving else None,
        "core_turn": st.core_turn,
        "winner": None if st.winner < 0 else "draw" if st.winner == 2 else TEAMS[st.winner],
        "duel": _duel(st),
        "table": _table(st),
        "core": None if own is None else _core(st, seat, *own, core_views),
    }


def _rulesets(st: AmalogsState) -> dict[str, dict[str, Any]]:
    slots = sorted({s for pool in st.config.pools for s in pool})
    return {
        RULESETS[s].name: {
            "title": adapter(s).title,
            "short": adapter(s).short,
            "we": RULESETS[s].we,
            "range": RULESETS[s].range,
            "stand_in_unit": float(RULESETS[s].unit),
            "base_unit": float(RULESETS[s].base),
            "env": adapter(s).env,
        }
        for s in slots
    }


def _duel(st: AmalogsState) -> dict[str, Any] | None:
    d = st.duel
    if d is None:
        return None
    return {
        "host": d.host,
        "casts": list(d.casts),
        "guests": list(d.guests),
        "champion": d.champion,
        "defender": d.defender,
        "proxy": None if d.proxy == NO_PROXY else PROXY_KINDS[d.proxy],
        "proxy_life": proxy_life(st) if d.proxy != NO_PROXY else None,
        "proxy_start": d.proxy_start if d.proxy != NO_PROXY else None,
        "base_hits": d.proxy_start - d.proxy_life if d.proxy == BASE_PROXY else 0,
        "bases": [TEAMS[t] for t in d.bases],
        "squares": [st.avatars[p].square for p in d.participants() if st.avatars[p].on_map],
        "strike": d.strike,
        "lost": list(d.lost),
        "struck": list(d.struck),
    }


def _table(st: AmalogsState) -> dict[str, Any] | None:
    if st.table is None:
        return None
    ad = adapter(st.table_ruleset)
    return {
        "ruleset": RULESETS[st.table_ruleset].name,
        "kind": "solo" if st.duel is None else "duel",
        "seats": [st.player_at(0), st.player_at(1)],
        "proxy": None if st.duel is None or st.duel.proxy == NO_PROXY else PROXY_KINDS[st.duel.proxy],
        "to_move": int(ad.to_act(st.table)),
        "decision": str(getattr(st.table, "decision", "")),
    }


@functools.cache
def core_view_function(slot: int) -> CoreView | None:
    """The ``view(state, seat)`` of ruleset ``slot``'s own view module, or None if it has none."""
    fn = getattr(adapter(slot).ruleset_module("view"), "view", None)
    return fn if callable(fn) else None


def _core(
    st: AmalogsState,
    player: int,
    table: Any,
    k: int,
    slot: int,
    source: str,
    core_views: Callable[[int], CoreView | None],
) -> dict[str, Any]:
    seats = [st.player_at(0), st.player_at(1)] if source == "table" else [player, -1]
    live = source == "table" and not table.is_terminal()
    ad = adapter(slot)
    out: dict[str, Any] = {
        "ruleset": RULESETS[slot].name,
        "env": ad.env,
        "title": ad.title,
        "source": source,
        "seat": k,
        "seats": seats,
        "turn": table.turn,
        "decision": str(getattr(table, "decision", "")) if live else None,
        "to_move": int(table.current_player) if live else -1,
        "done": not live,
    }
    fn = core_views(slot)
    if fn is not None:
        inner = fn(table, k)
        players = [dict(p) for p in inner.get("players", [])]
        for j, p in enumerate(players):
            p["player"] = seats[j] if j < len(seats) else -1
        out.update(
            players=players,
            board=inner.get("board", {}),
            events=list(inner.get("events", [])),
            records=list(inner.get("records", [])),
        )
        return out
    summary = []
    for j, who in enumerate(seats):
        s = ad.table_summary(table, j)
        entry: dict[str, Any] = {"seat": j, "you": j == k, "player": who}
        entry.update(life=int(s.life), hand=int(s.hand), deck=int(s.deck), units=int(s.units))
        if j == k:
            entry["hand_cards"] = [_card(table, c) for c in table.hand[j]]
        summary.append(entry)
    out.update(players=summary, board={}, events=[], records=[])
    return out

"""The rules check of one AMALOGS position: ``check(state)`` (spec section 10).

``check`` raises ``StateError`` when the meta-game state breaks a rule that one position can
show: the invariants of section 10 that are not about two positions (I1-I5, I7, I10, I11) and
the position rules that a position built by ``envs.amalogs.position`` is held to (squares,
action points, the flags of D5, D6 and D27, base lives, the team turn and the first team of
5.2, the dice and allowance of D17), plus what each phase implies (who decides, the queue of
the start-up and respawn phases, the duel and its roles, D18-D41, a strike decision only with
an exposed target, 5.3 step 4) and the outcome of a finished match (D33, D34). Invariants between two positions (I6, I8, I12, I13) stay with the tests, which follow
whole matches.

The core games inside are read only as far as the meta-game reads them: a side or a table is
of its ruleset's type, and a running table says which seat decides. Their own rules (I9 among
them) are the cores' checks, not this one.

Each problem is named by the spec item it applies, first in its line: ``I3 P1 (a_1) stands on
team B's base square ...``. The shapes are checked first, and the first malformed one is the
whole message; the rules are then checked together, every broken one a ``;``-separated part.
For any state whose attributes hold values of the right Python types with arbitrary contents,
``check`` raises nothing but ``StateError``.
"""

from __future__ import annotations

from typing import Any, Final

from deckgym.envs.amalogs.actions import CORE_PHASES, Phase
from deckgym.envs.amalogs.config import RULESETS, AmalogsConfig
from deckgym.envs.amalogs.cores import IMPLEMENTED, adapter
from deckgym.envs.amalogs.rules import duel as duel_rules
from deckgym.envs.amalogs.rules import flow, startup, turn
from deckgym.envs.amalogs.rules.convert import base_lost
from deckgym.envs.amalogs.rules.geometry import BASES, SQUARES
from deckgym.envs.amalogs.state import AmalogsState, Avatar, Duel
from deckgym.envs.core import proxy as proxy_kind
from deckgym.envs.core.checks import Shape, is_int
from deckgym.envs.core.errors import StateError

__all__ = ["check"]

#: Phases of the start-up (R1-R5).
STARTUP: Final = frozenset({Phase.STARTUP_RULESET, Phase.STARTUP_CORE, Phase.STARTUP_PLACE})
#: Phases of the respawn (R25-R28).
RESPAWN: Final = frozenset({Phase.RESPAWN_RULESET, Phase.RESPAWN_CORE, Phase.RESPAWN_PLACE})
#: Phases with a control holder of the acting team (D6, D7).
CONTROL: Final = frozenset({Phase.META_FIELD, Phase.MOVE_DEST, Phase.DUEL_CORE, Phase.STRIKE})
_TEAM: Final = "AB"


def _ints(v: Any) -> bool:
    return isinstance(v, list) and all(is_int(x) for x in v)


def check(state: AmalogsState) -> None:
    """Raise ``StateError`` if ``state`` breaks a rule that one position can show.

    Raises:
        StateError: the message names each broken rule by its spec item, first in its part.
    """
    try:
        _shapes(state)
    except Shape as e:
        raise StateError(str(e)) from None
    bad: list[str] = []
    _rules(state, bad)
    if bad:
        raise StateError("; ".join(bad))


def _who(st: AmalogsState, i: int) -> str:
    """``P2 (b_0)``: the player index and its agent name (D2)."""
    return f"P{i} ({'ab'[st.config.team_of(i)]}_{st.config.slot_of(i)})"


# ----------------------------------------------------------------------------- shapes
def _shapes(st: AmalogsState) -> None:
    if not isinstance(st, AmalogsState):
        raise Shape(f"4.1 not an AMALOGS state: {type(st).__name__}")
    _config_shape(st.config)
    n = st.config.num_players
    for key in (
        "team_turn",
        "first_team",
        "acting",
        "actor",
        "control",
        "move_allowance",
        "core_turn",
        "table_ruleset",
        "table_owner",
        "table_steps",
        "winner",
    ):
        if not is_int(getattr(st, key)):
            raise Shape(f"4.1 {key} is not an integer: {getattr(st, key)!r}")
    for key in ("commanded", "phase_moved", "done", "truncated"):
        if not isinstance(getattr(st, key), bool):
            raise Shape(f"4.1 {key} is not True or False: {getattr(st, key)!r}")
    if not isinstance(st.reason, str) or not isinstance(st.events, list) or not isinstance(st.records, list):
        raise Shape("4.1 the outcome's reason or the event logs are malformed")
    if not is_int(st.phase) or st.phase not in {int(p) for p in Phase}:
        raise Shape(f"7.4 phase {st.phase!r} is not a phase 0..10")
    for key, size in (("life", 2), ("dice", 2)):
        v = getattr(st, key)
        if not _ints(v) or len(v) != size:
            raise Shape(f"4.1 {key} is not a list of {size} integers: {v!r}")
    if not _ints(st.queue) or any(not 0 <= i < n for i in st.queue) or len(set(st.queue)) != len(st.queue):
        raise Shape(f"5.1 the queue is not a list of distinct player indices 0..{n - 1}: {st.queue!r}")
    if not isinstance(st.avatars, list) or len(st.avatars) != n:
        raise Shape(f"D2 the match has {n} players, one avatar each; got {st.avatars!r}")
    for i, a in enumerate(st.avatars):
        _avatar_shape(st, i, a)
    _table_shape(st)
    if st.duel is not None:
        _duel_shape(st, st.duel)


def _config_shape(cfg: Any) -> None:
    if not isinstance(cfg, AmalogsConfig):
        raise Shape(f"4.1 the match config is not an AmalogsConfig: {type(cfg).__name__}")
    sizes = cfg.team_sizes
    if not (isinstance(sizes, tuple) and len(sizes) == 2 and all(is_int(k) and 1 <= k <= 3 for k in sizes)):
        raise Shape(f"D2 team_sizes are two integers in 1..3, got {sizes!r}")
    for key, least, item in (("max_team_turns", 1, "D34"), ("duel_cap", 1, "D32"), ("start_life", 1, "R1")):
        v = getattr(cfg, key)
        if not is_int(v) or v < least:
            raise Shape(f"{item} config {key} must be an integer >= {least}, got {v!r}")
    n = sizes[0] + sizes[1]
    pools, decks = cfg.pools, cfg.decks
    if not isinstance(pools, tuple) or len(pools) != n or not isinstance(decks, tuple) or len(decks) != n:
        raise Shape(f"D28 the config has one ruleset pool and one deck set per player ({n})")
    for i in range(n):
        pool, deck = pools[i], decks[i]
        if (
            not isinstance(pool, tuple)
            or not pool
            or any(not is_int(s) or s not in IMPLEMENTED for s in pool)
        ):
            raise Shape(f"D28 player {i}'s pool {pool!r} is not a non-empty tuple of available rulesets")
        ok = isinstance(deck, tuple) and all(
            isinstance(x, tuple)
            and len(x) == 2
            and is_int(x[0])
            and isinstance(x[1], tuple)
            and all(isinstance(c, str) for c in x[1])
            for x in deck
        )
        if not ok or sorted(x[0] for x in deck) != sorted(pool):
            raise Shape(f"D28 player {i}'s decks are not one (ruleset, card ids) per ruleset of its pool")


def _avatar_shape(st: AmalogsState, i: int, a: Any) -> None:
    who = _who(st, i)
    if not isinstance(a, Avatar):
        raise Shape(f"4.1 {who} is not an Avatar: {a!r}")
    for key in ("team", "slot", "square", "ap", "ruleset", "core_turns", "last_turn", "nominal"):
        if not is_int(getattr(a, key)):
            raise Shape(f"4.1 {who} {key} is not an integer: {getattr(a, key)!r}")
    for key in ("dueled", "guarding", "ended", "exited"):
        if not isinstance(getattr(a, key), bool):
            raise Shape(f"4.1 {who} {key} is not True or False: {getattr(a, key)!r}")
    if a.team != st.config.team_of(i) or a.slot != st.config.slot_of(i):
        raise Shape(
            f"D2 {who} is of team {a.team} slot {a.slot}; player {i} is team {_TEAM[st.config.team_of(i)]} slot {st.config.slot_of(i)}"
        )
    if not -1 <= a.square < SQUARES:
        raise Shape(
            f"I3 {who} stands on square {a.square}: off the MAP (0..{SQUARES - 1}, or -1 for none, D9)"
        )
    if a.ruleset != -1 and a.ruleset not in st.config.pools[i]:
        raise Shape(
            f"D28 {who} holds ruleset {a.ruleset!r}, which is not in its pool {list(st.config.pools[i])}"
        )
    if a.side is not None:
        kind = getattr(getattr(adapter(a.ruleset), "sides", None), "Side", None) if a.ruleset >= 0 else None
        if kind is None or not isinstance(a.side, kind):
            raise Shape(f"D19 {who}'s core side is not a side of its ruleset {a.ruleset}")


def _table_shape(st: AmalogsState) -> None:
    if st.table is None:
        if st.table_ruleset != -1:
            raise Shape(f"D20 no table runs, yet its ruleset is {st.table_ruleset}")
        return
    if st.table_ruleset not in IMPLEMENTED:
        raise Shape(f"D15 the running table's ruleset {st.table_ruleset!r} is not an available slot")
    kind = getattr(adapter(st.table_ruleset), "state_type", None)
    if kind is None or not isinstance(st.table, kind):
        raise Shape(f"D20 the running table is not a {RULESETS[st.table_ruleset].name} game")
    point = st.table.decision_point
    if not isinstance(st.table.done, bool) or not (
        point is None or (isinstance(point, tuple) and len(point) >= 2 and is_int(point[1]))
    ):
        raise Shape("D31 the running table does not say which seat decides (A4)")


def _duel_shape(st: AmalogsState, d: Any) -> None:
    n = st.config.num_players
    if not isinstance(d, Duel):
        raise Shape(f"4.1 the duel is not a Duel: {d!r}")
    for key in ("host", "champion", "defender", "proxy", "proxy_start", "proxy_life", "strike"):
        if not is_int(getattr(d, key)):
            raise Shape(f"4.1 the duel's {key} is not an integer: {getattr(d, key)!r}")
    for key in ("casts", "guests", "bases", "lost", "struck"):
        if not _ints(getattr(d, key)):
            raise Shape(f"4.1 the duel's {key} is not a list of integers: {getattr(d, key)!r}")
    players = [d.host, *d.casts, *d.guests]
    if any(not 0 <= i < n for i in players + d.lost + d.struck) or len(set(players)) != len(players):
        raise Shape(f"D18 the duel's participants {players} are not distinct players 0..{n - 1}")
    if any(t not in (0, 1) for t in d.bases) or len(set(d.bases)) != len(d.bases):
        raise Shape(f"D18 the duel's bases {d.bases} are not distinct teams 0, 1")
    outside = [x for x in (d.champion, d.defender) if x != -1 and x not in d.guests]
    if outside or d.proxy not in (0, 1, 2):
        raise Shape("D21 the champion and the defender are guests (or -1), the proxy kind 0, 1 or 2 (D36)")


# ----------------------------------------------------------------------------- rules
def _rules(st: AmalogsState, bad: list[str]) -> None:
    cfg = st.config
    live = not st.done
    phase = Phase(st.phase)
    top = 2 * cfg.start_life
    for t in (0, 1):
        if live and not 0 < st.life[t] < top:
            bad.append(
                f"I1 team {_TEAM[t]}'s base life is {st.life[t]} in a live match; it is 1..{top - 1} (D33)"
            )
    _avatar_rules(st, phase, bad)
    _match_rules(st, phase, bad)
    _control_rules(st, phase, bad)
    if st.duel is not None:
        _duel_rules(st, phase, st.duel, bad)
    elif phase in (Phase.DUEL_CORE, Phase.STRIKE) and live:
        bad.append(f"D25 phase {phase.name} with no duel under way")
    _outcome(st, phase, bad)
    if live and not bad:
        _decider(st, phase, bad)


def _avatar_rules(st: AmalogsState, phase: Phase, bad: list[str]) -> None:
    """I2, I3, I4, I10, D5, D27, D28, D38 for every player."""
    seen: dict[int, int] = {}
    respawning = st.queue[0] if phase in (Phase.RESPAWN_CORE, Phase.RESPAWN_PLACE) and st.queue else -1
    for i, a in enumerate(st.avatars):
        who = _who(st, i)
        if not 0 <= a.ap <= turn.AP_CAP:
            bad.append(f"I2 {who} has {a.ap} action points; an avatar has 0..{turn.AP_CAP} (R7)")
        if a.square in BASES:
            bad.append(f"I3 {who} stands on team {_TEAM[BASES.index(a.square)]}'s base square (D12)")
        elif a.square >= 0 and a.square in seen:
            bad.append(f"I3 {who} and {_who(st, seen[a.square])} stand on square {a.square} (D12)")
        seen.setdefault(a.square, i)
        if a.exited:
            # D27 clears the flags but ``ended``, which may stay from the avatar's own last turn
            if a.ap:
                bad.append(f"I2 {who} has exited with {a.ap} action points; an exited avatar has 0 (D27)")
            if a.guarding:
                bad.append(f"I10 {who} has exited yet is Guarding (D27)")
            if a.dueled or a.square >= 0:
                bad.append(f"D27 {who} has exited: it is off the MAP and its dueled flag is cleared")
            if i != respawning and (a.side is not None or a.ruleset != -1):
                bad.append(f"D27 {who} has exited, so its core game is deleted; it still holds one")
        if a.ended and not a.dueled and not a.exited:
            bad.append(f"D5 {who} ended its part of the turn without dueling (D16: END_TURN only after DUEL)")
        if (a.ruleset == -1) != (a.nominal == 0) or a.nominal < 0 or (a.ruleset == -1 and a.core_turns):
            bad.append(
                f"D38 {who} has nominal life {a.nominal} and {a.core_turns} core turns with ruleset {a.ruleset}"
            )
        if not 0 <= a.last_turn <= st.core_turn or a.core_turns < 0:
            bad.append(f"D31 {who}'s last core turn {a.last_turn} is outside 0..{st.core_turn} (A3, A8)")
        if phase in CONTROL and not st.done:
            seated = st.seat_of(i) >= 0
            holds = a.side is not None or seated
            if not (
                (a.square >= 0 and holds and not a.exited) or (a.exited and a.side is None and a.square < 0)
            ):
                bad.append(f"I4 {who} is neither on the MAP holding its core game nor exited holding none")


def _match_rules(st: AmalogsState, phase: Phase, bad: list[str]) -> None:
    """5.1, 5.2, D34: the team turn, the acting and the first team."""
    cfg = st.config
    if phase in STARTUP:
        if st.team_turn or st.acting != -1 or st.first_team != -1:
            bad.append("5.1 in the start-up no team turn has begun and no first team is drawn (R4)")
        if any(a.ap or a.exited for a in st.avatars):
            bad.append("5.1 in the start-up every avatar has 0 action points and none has exited")
    elif (
        not 1 <= st.team_turn <= cfg.max_team_turns or st.first_team not in (0, 1) or st.acting not in (0, 1)
    ):
        bad.append(
            f"I11 team turn {st.team_turn} (1..{cfg.max_team_turns}), first team {st.first_team} and acting "
            f"team {st.acting} (0 or 1) (D34, 5.2)"
        )
    elif st.acting != (st.first_team if st.team_turn % 2 == 1 else 1 - st.first_team):
        bad.append(
            f"5.2 team {_TEAM[st.acting]} acts on team turn {st.team_turn}, but the first team "
            f"{_TEAM[st.first_team]} acts on odd turns"
        )
    _queue_rules(st, phase, bad)
    _move_rules(st, phase, bad)
    _table_rules(st, phase, bad)


def _queue_rules(st: AmalogsState, phase: Phase, bad: list[str]) -> None:
    """D8, D28, D29, R28: the players the start-up or the respawn goes through, in index order."""
    queue = st.queue
    if phase in (Phase.STARTUP_RULESET, Phase.STARTUP_CORE):
        ok = bool(queue) and queue == list(range(queue[0], st.config.num_players))
    elif phase == Phase.STARTUP_PLACE:
        order = startup.placement_order(st)
        ok = bool(queue) and queue == order[len(order) - len(queue) :]
    elif phase in RESPAWN:
        ok = bool(queue) and queue == sorted(queue) and all(st.avatars[i].exited for i in queue)
    else:
        ok = not queue
    if not ok:
        bad.append(f"D8 the queue {queue} does not fit phase {phase.name} (D8, D29: players in index order)")
        return
    if phase in (Phase.STARTUP_RULESET, Phase.RESPAWN_RULESET) and len(st.config.pools[queue[0]]) < 2:
        bad.append(f"D28 a ruleset choice for {_who(st, queue[0])}, whose pool has one ruleset (skipped)")
    if phase in (Phase.STARTUP_PLACE, Phase.RESPAWN_PLACE):
        a = st.avatars[queue[0]]
        if a.square >= 0 or a.side is None or a.exited != (phase == Phase.RESPAWN_PLACE):
            bad.append(
                f"R28 {_who(st, queue[0])} is placed while off the MAP, holding its new core game (D29)"
            )


def _move_rules(st: AmalogsState, phase: Phase, bad: list[str]) -> None:
    """D17: the dice shown and the allowance of a pending MOVE."""
    d1, d2 = st.dice
    if [d1, d2] != [0, 0] and not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        bad.append(f"D17 the last dice {st.dice} are not two d6 results 1..6 (or 0, 0 before any roll)")
    if phase == Phase.MOVE_DEST:
        we = st.avatars[st.control].we if 0 <= st.control < st.config.num_players else 0
        if st.move_allowance < 1 or st.move_allowance != d1 + d2 - we:
            bad.append(
                f"D17 a MOVE destination with allowance {st.move_allowance} after dice {st.dice} and WE {we}"
            )
    elif st.move_allowance:
        bad.append(f"D17 a MOVE allowance {st.move_allowance} outside a MOVE destination choice")


def _table_rules(st: AmalogsState, phase: Phase, bad: list[str]) -> None:
    """D20, D30, D32: a core table runs exactly in the core phases; a solo one is its owner's."""
    cap = st.config.duel_cap
    if phase in CORE_PHASES:
        if st.table is None or not 0 <= st.table_steps < cap:
            bad.append(
                f"D32 a core decision with {st.table_steps} core decisions taken (cap {cap}) or no table"
            )
    elif st.table is not None:
        bad.append(f"D20 a core table runs in phase {phase.name}")
    if phase in (Phase.STARTUP_CORE, Phase.RESPAWN_CORE):
        owner, queue = st.table_owner, st.queue
        if (
            not queue
            or owner != queue[0]
            or st.table_ruleset != st.avatars[owner].ruleset
            or st.avatars[owner].side is not None
        ):
            bad.append(f"D30 the solo first turn is not the queued player's, at its ruleset (owner {owner})")
    elif st.table_owner != -1:
        bad.append(f"D30 a solo table owner {st.table_owner} outside a solo first turn")


def _control_rules(st: AmalogsState, phase: Phase, bad: list[str]) -> None:
    """D6, D7: the control holder and its bookkeeping."""
    n = st.config.num_players
    if phase not in CONTROL or st.done:
        if st.control != -1:
            bad.append(
                f"D6 {_who(st, st.control) if 0 <= st.control < n else st.control} holds control in phase {phase.name}"
            )
        return
    h = st.control
    acting_on = [i for i, a in enumerate(st.avatars) if a.team == st.acting and a.square >= 0]
    if not 0 <= h < n or h not in acting_on or st.avatars[h].ended:
        bad.append(
            f"D6 control is with {_who(st, h) if 0 <= h < n else h}, not an on-map avatar of team "
            f"{_TEAM[st.acting] if st.acting in (0, 1) else st.acting} that has not ended"
        )
        return
    if not st.phase_moved:
        happened = (
            st.commanded or any(st.avatars[i].dueled for i in acting_on) or any(a.exited for a in st.avatars)
        )
        if happened or h != acting_on[0]:
            bad.append(
                "D6 phase_moved is False, yet something happened in this meta-field phase or control left "
                f"the first avatar {_who(st, acting_on[0])}"
            )
    if phase in (Phase.MOVE_DEST, Phase.STRIKE, Phase.DUEL_CORE) and not st.commanded:
        bad.append(f"D6 the holder just declared a command at {phase.name}, so commanded is True")


def _duel_rules(st: AmalogsState, phase: Phase, d: Duel, bad: list[str]) -> None:
    """I5, D18-D41: the duel's participants, roles, seat 1 and result so far."""
    if phase not in (Phase.DUEL_CORE, Phase.STRIKE) or st.done:
        bad.append(f"D25 a duel is under way in phase {phase.name}")
        return
    host = st.avatars[d.host]
    if d.host != st.control or not host.dueled or host.square < 0 or host.ruleset < 0:
        bad.append(
            f"I5 the duel's host {_who(st, d.host)} holds control, has dueled and stands on the MAP (5.3)"
        )
        return
    players, bases = duel_rules.participants(st, d.host)
    casts = [i for i in players if i != d.host and st.avatars[i].team == host.team]
    guests = [i for i in players if st.avatars[i].team != host.team]
    if (casts, guests, sorted(bases)) != (sorted(d.casts), sorted(d.guests), sorted(d.bases)):
        bad.append(
            f"I5 the duel's casts {d.casts}, guests {d.guests} and bases {d.bases}; the MAP gives casts {casts}, "
            f"guests {guests} and bases {bases} (D18)"
        )
        return
    seat = duel_rules.seat_one(st, d.host, guests, bases)
    if seat != (d.champion, d.defender, d.proxy):
        bad.append(
            f"I5 seat 1 holds champion {d.champion}, defender {d.defender}, proxy {d.proxy}; the rules seat "
            f"champion {seat[0]}, defender {seat[1]}, proxy {seat[2]} (D21, D36)"
        )
    if d.strike != host.we + len(casts):
        bad.append(f"D24 the strike value is {d.strike}; S = WE {host.we} + {len(casts)} casts")
    if d.proxy == proxy_kind.NONE and (d.proxy_start or d.proxy_life):
        bad.append("D37 no proxy sits at seat 1, yet the duel holds a proxy life")
    if not 0 <= d.proxy_life <= d.proxy_start:
        bad.append(
            f"D37 the proxy's life {d.proxy_life} is outside 0..{d.proxy_start}, its life at composition"
        )
    if d.proxy == proxy_kind.BASE:
        left = base_lost(host.ruleset, d.proxy_start) - base_lost(host.ruleset, d.proxy_start - d.proxy_life)
        if left != st.life[1 - host.team]:
            bad.append(
                f"D40, D43 the base proxy's life {d.proxy_life} of {d.proxy_start} leaves base "
                f"{_TEAM[1 - host.team]} {left} life, not its {st.life[1 - host.team]}"
            )
    if phase == Phase.DUEL_CORE:
        if d.lost or d.struck or st.table_ruleset != host.ruleset or host.side is not None:
            bad.append("D20 while the table runs, the host's side is on it and nothing is lost or struck yet")
        if d.champion >= 0 and st.avatars[d.champion].side is not None:
            bad.append("D20 while the table runs, the champion's side is on it")
    elif d.host in d.lost or d.struck or d.host != st.actor:
        bad.append(
            "D24 the strike is the host's choice, after a table it did not lose, before any strike (D41)"
        )
    elif not duel_rules.exposed(st):
        guard = [_who(st, g) for g in d.guests if st.avatars[g].guarding]
        why = (
            f"Guarded by {', '.join(guard)} (D26)"
            if guard
            else "no guest other than the champion or the defender (D41)"
        )
        bad.append(f"D24 a strike decision with no exposed target ({why}); 5.3 step 4 then skips the strike")


def _outcome(st: AmalogsState, phase: Phase, bad: list[str]) -> None:
    """D33-D35: a finished match has its winner from the base lives; a live one none."""
    if not st.done:
        if phase == Phase.GAME_OVER or st.winner != -1 or st.truncated:
            bad.append(f"8 a live match has phase {phase.name}, winner {st.winner}, truncated {st.truncated}")
        return
    if phase != Phase.GAME_OVER or st.actor != -1 or st.duel is not None or st.table is not None:
        bad.append("8 a finished match is in phase GAME_OVER with no one to act, no duel and no table")
    a, b = st.life
    top = 2 * st.config.start_life
    if st.truncated:
        want = 0 if a > b else 1 if b > a else 2
        item = "D34"
    elif a <= 0 and b <= 0:
        want, item = 2, "D33"
    elif a <= 0 or b <= 0:
        want, item = (1 if a <= 0 else 0), "D33"
    elif a >= top or b >= top:
        want, item = (0 if a >= top else 1), "D33"
    else:
        want, item = -2, "D33"
    if st.winner != want:
        bad.append(
            f"{item} the match is over with winner {st.winner}; base lives A {a}, B {b} give {want if want >= 0 else 'no end'}"
        )


def _decider(st: AmalogsState, phase: Phase, bad: list[str]) -> None:
    """I7: the player to act is the one the phase names, and has an option."""
    n = st.config.num_players
    if phase in CORE_PHASES:
        table = st.table
        seat = -1 if table.done or table.decision_point is None else table.decision_point[1]
        if seat not in (0, 1) or st.player_at(seat) != st.actor or st.actor < 0:
            bad.append(f"I7 {st.actor} acts, but the table's seat {seat} decides (A4, 5.5)")
        return
    want = (st.queue[0] if st.queue else -1) if phase in STARTUP | RESPAWN else st.control
    if not 0 <= st.actor < n or st.actor != want:
        bad.append(f"I7 player {st.actor} acts in phase {phase.name}; it is {want}'s decision (5.5)")
        return
    if not flow.AGENDA.legal[phase](st):
        bad.append(f"I7 {_who(st, st.actor)} has no legal option in phase {phase.name}")

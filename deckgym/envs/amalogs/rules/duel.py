"""Duel phase (R13-R24, D18-D27, D36-D41).

Participants by range and chained adjacency, roles, who sits at seat 1 (the champion, the
defender's proxy, the enemy base's proxy or nobody), one turn of the host's core game, the
proxy's result, the strike on the other guests, exits and the end checks.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Kind, Phase
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.events import names, player_name
from deckgym.envs.amalogs.rules import core, turn
from deckgym.envs.amalogs.rules.convert import (
    base_lost,
    base_units,
    host_units,
    strike_loss,
    to_guest,
    to_host,
)
from deckgym.envs.amalogs.rules.end import end_check
from deckgym.envs.amalogs.rules.flow import ask, decision
from deckgym.envs.amalogs.rules.geometry import BASES, DIST
from deckgym.envs.amalogs.state import AmalogsState, Avatar, Duel
from deckgym.envs.core import proxy as proxy_kind
from deckgym.envs.core.proxy import Proxy

#: R22, R23: base-life change per point of WE of an exited core game.
LOSS_PER_WE: Final = -2
WIN_PER_WE: Final = 3


# ----------------------------------------------------------------------------- D18, D21
def participants(st: AmalogsState, host: int) -> tuple[list[int], list[int]]:
    """D18 (R14, R15): avatars and bases in the host's range, then avatars adjacent to any participant, chained.

    Returns the participating players (sorted) and the participating bases (team indices).
    Bases join only through range; a participating base pulls in the avatars next to it.
    """
    h = st.avatars[host]
    r = h.range
    d_host = DIST[h.square]
    bases = [team for team, b in enumerate(BASES) if d_host[b] <= r]
    players = {i for i, a in enumerate(st.avatars) if a.on_map and d_host[a.square] <= r}
    squares = [st.avatars[i].square for i in players] + [BASES[t] for t in bases]
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(st.avatars):
            if i not in players and a.on_map and any(DIST[a.square][s] == 1 for s in squares):
                players.add(i)
                squares.append(a.square)
                changed = True
    return sorted(players), bases


def champion(st: AmalogsState, host: int, guests: list[int]) -> int:
    """D21: the guest with the host's ruleset nearest to the host (lowest index on ties), or -1."""
    h = st.avatars[host]
    same = [g for g in guests if st.avatars[g].ruleset == h.ruleset]
    return nearest(st, host, same)


def nearest(st: AmalogsState, host: int, players: list[int]) -> int:
    """The player nearest to the host (D10), ties to the lowest index; -1 for none."""
    if not players:
        return -1
    square = st.avatars[host].square
    return min(players, key=lambda g: (DIST[square][st.avatars[g].square], g))


def seat_one(st: AmalogsState, host: int, guests: list[int], bases: list[int]) -> tuple[int, int, int]:
    """D21, D36: who sits at seat 1, as (champion, defender, proxy kind).

    The champion comes first; else the nearest guest is the defender (a guest proxy); else a
    participating enemy base sits there (a base proxy); else the seat is vacant.
    """
    champ = champion(st, host, guests)
    if champ >= 0:
        return champ, -1, proxy_kind.NONE
    if guests:
        return -1, nearest(st, host, guests), proxy_kind.GUEST
    if 1 - st.avatars[host].team in bases:
        return -1, -1, proxy_kind.BASE
    return -1, -1, proxy_kind.NONE


def declare_duel(st: AmalogsState, host: int) -> None:
    """DUEL (R13, R16, R17, 5.3 step 1): roles, seat 1 (D21, D36), strike value S = WE(host) + casts; the table runs."""
    h = st.avatars[host]
    h.dueled = True
    players, bases = participants(st, host)
    casts = [i for i in players if i != host and st.avatars[i].team == h.team]
    guests = [i for i in players if st.avatars[i].team != h.team]
    champ, defender, kind = seat_one(st, host, guests, bases)
    d = st.duel = Duel(host, casts, guests, bases, champ, defender, kind)
    d.strike = h.we + len(casts)
    ad = adapter(h.ruleset)
    if kind == proxy_kind.GUEST:
        dav = st.avatars[defender]
        life = adapter(dav.ruleset).summary(dav.side).life
        d.proxy_start = to_host(life, host_units(h.ruleset), dav.nominal)
    elif kind == proxy_kind.BASE:
        d.proxy_start = base_units(h.ruleset, st.life[1 - h.team])
    d.proxy_life = d.proxy_start
    st.emit(
        "duel",
        duel_line(st, d),
        **d.declared(),
    )
    st.core_turn += 1
    other = st.avatars[champ] if champ >= 0 else None
    st.seat_table(
        ad.compose(
            h.side, None if other is None else other.side, st.rng, st.core_turn, Proxy(kind, d.proxy_start)
        )
    )
    st.table_ruleset = h.ruleset
    h.side = None
    h.core_turns += 1
    h.last_turn = st.core_turn
    if other is not None:
        other.side = None
        other.last_turn = st.core_turn
    core.start_table(st, Phase.DUEL_CORE)


@core.after_step(Phase.DUEL_CORE)
def watch_base(st: AmalogsState) -> None:
    """D40, D43: successful attacks on a base proxy cost its team base life at once (R24 may end the match).

    The proxy's life P counts successful attacks; every ``base`` of them (D43, per host game)
    takes 1 base life, the base life reaching 0 exactly when P does.
    """
    d = st.duel
    assert d is not None
    if d.proxy != proxy_kind.BASE:
        return
    life = adapter(st.table_ruleset).proxy_life(st.table)
    if life >= d.proxy_life:
        return
    slot = st.avatars[d.host].ruleset
    team = 1 - st.avatars[d.host].team
    lost = base_lost(slot, d.proxy_start - life) - base_lost(slot, d.proxy_start - d.proxy_life)
    d.proxy_life = life
    for _ in range(lost):
        st.life[team] -= 1
        st.emit(
            "base_hit",
            f"{player_name(st, d.host)} hits base {'AB'[team]} (base life {st.life[team]})",
            team=team,
            base_life=st.life[team],
        )


def duel_line(st: AmalogsState, d: Duel) -> str:
    """The ``duel`` event's line: the host's game, who sits at the table, the other participants."""
    host = player_name(st, d.host)
    game = adapter(st.avatars[d.host].ruleset).title
    if d.champion >= 0:
        seat = f"against {player_name(st, d.champion)}"
    elif d.proxy == proxy_kind.GUEST:
        seat = f"against {player_name(st, d.defender)}, who defends with {d.proxy_start} life"
    elif d.proxy == proxy_kind.BASE:
        team = 1 - st.avatars[d.host].team
        seat = f"against base {'AB'[team]} ({st.life[team]} life)"
    else:
        seat = "with the opponent's seat empty"
    parts = [f"{host} declares a duel of {game} {seat}"]
    others = [g for g in d.guests if g not in (d.champion, d.defender)]
    if others:
        parts.append(f"guests {names(st, others)}" if len(others) > 1 else f"guest {names(st, others)}")
    if d.casts:
        parts.append(f"casts {names(st, d.casts)}" if len(d.casts) > 1 else f"cast {names(st, d.casts)}")
    if d.bases:
        parts.append(
            " and ".join(f"base {'AB'[t]}" for t in d.bases) + (" join" if len(d.bases) > 1 else " joins")
        )
    parts.append(f"strike value {d.strike}")
    return "; ".join(parts)


def result_line(st: AmalogsState, d: Duel, won: list[int], lost: list[int], change: list[int]) -> str:
    """The ``duel_result`` event's line: who won, who lost, and what the exits do to the bases."""
    out = f"{player_name(st, d.host)}'s duel is over: "
    if not won and not lost:
        return out + "nobody won or lost"
    words = []
    if won:
        words.append(f"{names(st, won)} won")
    if lost:
        words.append(f"{names(st, lost)} lost")
    out += " and ".join(words)
    if change != [0, 0]:
        out += f" (base life A {change[0]:+d}, B {change[1]:+d})"
    return out


# ----------------------------------------------------------------------------- D23 table result
@core.after_table(Phase.DUEL_CORE)
def after_duel_table(st: AmalogsState) -> None:
    """5.3 step 3: split the table, read the loss flags; the proxy's result (D39); then the strike (D41) or the resolution."""
    d = st.duel
    assert d is not None
    ad = adapter(st.table_ruleset)
    host_lost, seat1_lost = ad.loss_flags(st.table)
    damage = ad.proxy_damage(st.table, d.proxy_start) if d.proxy != proxy_kind.NONE else 0
    host_side, champ_side = ad.split(st.table)
    st.avatars[d.host].side = host_side
    if d.champion >= 0:
        st.avatars[d.champion].side = champ_side
    st.table = None
    st.table_ruleset = -1
    d.lost = [p for p, lost in ((d.host, host_lost), (d.champion, seat1_lost)) if lost and p >= 0]
    if d.proxy == proxy_kind.GUEST:
        proxy_result(st, d, damage, seat1_lost)
    besiege(st, d)
    if d.host not in d.lost and exposed(st) and min(st.life) > 0:
        ask(st, Phase.STRIKE, d.host)
    else:
        resolve(st)


def besiege(st: AmalogsState, d: Duel) -> None:
    """D43 (amending D40): a defended enemy base in the duel loses 1 base life unless the host's game was lost.

    The enemy base participates and seat 1 holds a champion or a defender (who kept the base
    from the table, D40); R24 then applies as for any base hit.
    """
    team = 1 - st.avatars[d.host].team
    if team not in d.bases or d.host in d.lost or (d.champion < 0 and d.proxy != proxy_kind.GUEST):
        return
    st.life[team] -= 1
    st.emit(
        "siege",
        f"{player_name(st, d.host)} besieges base {'AB'[team]} (base life {st.life[team]})",
        host=d.host,
        team=team,
        base_life=st.life[team],
    )


def proxy_result(st: AmalogsState, d: Duel, damage: int, zeroed: bool) -> None:
    """D39 (D25 step 2b): the defender loses to_guest(d) core life (A7); P at 0 or that loss is its loss."""
    av = st.avatars[d.defender]
    host = st.avatars[d.host]
    core_damage = to_guest(damage, host_units(host.ruleset), av.nominal)
    lost = adapter(av.ruleset).lose_core_life(av.side, core_damage) if core_damage > 0 else False
    d.proxy_life = d.proxy_start - damage
    if zeroed or lost:
        d.lost.append(d.defender)
    st.emit(
        "proxy_damage",
        f"{player_name(st, d.defender)} takes {damage} damage at the table, {core_damage} core life in its own game"
        + (" and loses its game" if d.defender in d.lost else ""),
        host=d.host,
        defender=d.defender,
        damage=damage,
        core_damage=core_damage,
        proxy_life=d.proxy_life,
    )


def winners(d: Duel) -> list[int]:
    """D23, D39: a seat wins iff the other seat is a player or a guest proxy that lost while it did not."""
    host_lost = d.host in d.lost
    if d.champion >= 0:
        champ_lost = d.champion in d.lost
        if champ_lost and not host_lost:
            return [d.host]
        if host_lost and not champ_lost:
            return [d.champion]
        return []
    if d.proxy == proxy_kind.GUEST and d.proxy_life == 0 and not host_lost:
        return [d.host]
    return []


# ----------------------------------------------------------------------------- D41, D26 strike
def exposed(st: AmalogsState) -> list[Action]:
    """D41: strike options on the guests that are neither champion nor defender, unless their team Guards (D26)."""
    d = st.duel
    assert d is not None
    if any(st.avatars[g].guarding for g in d.guests):
        return []
    return [A.STRIKE_PLAYER[st.avatars[g].slot] for g in d.guests if g not in (d.champion, d.defender)]


@decision(Phase.STRIKE, legal=lambda st: [A.STRIKE_NONE, *exposed(st)])
def on_strike(st: AmalogsState, a: Action) -> None:
    """D41: a guest's core game loses ceil(S · L0 / 20) core life (A7); bases are never struck."""
    d = st.duel
    assert d is not None
    if a.kind == Kind.STRIKE_PLAYER:
        target = next(g for g in d.guests if st.avatars[g].slot == a.arg)
        av = st.avatars[target]
        amount = strike_loss(d.strike, av.nominal)
        d.struck.append(target)
        if adapter(av.ruleset).lose_core_life(av.side, amount):
            d.lost.append(target)
        st.emit(
            "strike",
            f"{player_name(st, d.host)} strikes {player_name(st, target)} for {amount} core life",
            player=d.host,
            base=None,
            target=target,
            amount=amount,
            life=None,
        )
    resolve(st)


# ----------------------------------------------------------------------------- D25 resolution
def resolve(st: AmalogsState) -> None:
    """D25 steps 3-6: base check (R24), exits with summed base-life changes (R21-R23), end checks, return."""
    d = st.duel
    assert d is not None
    won = winners(d)
    leaving = sorted(set(d.lost) | set(won))
    change = [0, 0]
    for p in leaving:
        av = st.avatars[p]
        change[av.team] += (LOSS_PER_WE if p in d.lost else WIN_PER_WE) * av.we
    # R24 comes first: with a base at 0 or less the match ends and nobody exits.
    fallen = any(life <= 0 for life in st.life)
    duel_result(st, d, won, [0, 0] if fallen else change)
    if fallen and end_check(st):
        return
    for p in leaving:
        av = st.avatars[p]
        result = "loss" if p in d.lost else "win"
        per_we = LOSS_PER_WE if p in d.lost else WIN_PER_WE
        st.emit(
            "exit",
            f"{player_name(st, p)} leaves the map after a {result}: base {'AB'[av.team]} {per_we * av.we:+d} ({per_we:+d} x weight {av.we})",
            player=p,
            result=result,
            per_we=per_we,
            we=av.we,
        )
        exit_avatar(av)
    if leaving:
        st.life[0] += change[0]
        st.life[1] += change[1]
        st.emit("base_life", f"Base life: A {st.life[0]}, B {st.life[1]}", life=list(st.life))
        if end_check(st):
            return
    st.duel = None
    turn.return_control(st, d.host)


def duel_result(st: AmalogsState, d: Duel, won: list[int], change: list[int]) -> None:
    """Log the outcome of a duel (D23, D25): who won, who lost and the base-life change per team."""
    lost = sorted(d.lost)
    st.emit(
        "duel_result",
        result_line(st, d, won, lost, change),
        host=d.host,
        winners=list(won),
        losers=lost,
        change=list(change),
    )


def exit_avatar(av: Avatar) -> None:
    """D27: the avatar leaves the MAP; its core game is deleted; points 0; flags cleared."""
    av.square = -1
    av.side = None
    av.ruleset = -1
    av.ap = 0
    av.guarding = False
    av.dueled = False
    av.exited = True
    av.core_turns = 0
    av.nominal = 0

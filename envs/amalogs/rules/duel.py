"""Duel phase (R13-R24, D18-D27).

Participants by range and chained adjacency, roles, the champion or a vacant seat, one turn
of the host's core game, the strike, exits and the end checks.
"""

from __future__ import annotations

from envs.amalogs import actions as A
from envs.amalogs.actions import Action, Kind, Phase
from envs.amalogs.cores import adapter
from envs.amalogs.events import TITLES, names, player_name
from envs.amalogs.rules import core, turn
from envs.amalogs.rules.end import end_check
from envs.amalogs.rules.flow import ask, decision
from envs.amalogs.rules.geometry import BASES, DIST
from envs.amalogs.state import AmalogsState, Avatar, Duel

#: R22, R23: base-life change per point of WE of an exited core game.
LOSS_PER_WE = -2
WIN_PER_WE = 3


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
    """D21: the guest with the host's ruleset nearest to the host (lowest index on ties), or -1 (vacant)."""
    h = st.avatars[host]
    same = [g for g in guests if st.avatars[g].ruleset == h.ruleset]
    if not same:
        return -1
    return min(same, key=lambda g: (DIST[h.square][st.avatars[g].square], g))


def declare_duel(st: AmalogsState, host: int) -> None:
    """DUEL (R13, R16, R17, 5.3 step 1): roles, champion, strike value S = WE(host) + casts; the table runs."""
    h = st.avatars[host]
    h.dueled = True
    players, bases = participants(st, host)
    casts = [i for i in players if i != host and st.avatars[i].team == h.team]
    guests = [i for i in players if st.avatars[i].team != h.team]
    champ = champion(st, host, guests)
    d = st.duel = Duel(host, casts, guests, bases, champ)
    d.strike = h.we + len(casts)
    st.emit(
        "duel",
        duel_line(st, d),
        **d.declared(),
    )
    ad = adapter(h.ruleset)
    st.core_turn += 1
    other = st.avatars[champ] if champ >= 0 else None
    st.table = ad.compose(h.side, None if other is None else other.side, st.rng, st.core_turn)
    st.table_ruleset = h.ruleset
    h.side = None
    h.core_turns += 1
    h.last_turn = st.core_turn
    if other is not None:
        other.side = None
        other.last_turn = st.core_turn
    core.start_table(st, Phase.DUEL_CORE)


def duel_line(st: AmalogsState, d: Duel) -> str:
    """The ``duel`` event's line: the host's game, who sits at the table, the other participants."""
    host = player_name(st, d.host)
    game = TITLES[st.avatars[d.host].ruleset]
    seat = f"against {player_name(st, d.champion)}" if d.champion >= 0 else "with the opponent's seat empty"
    parts = [f"{host} declares a duel of {game} {seat}"]
    others = [g for g in d.guests if g != d.champion]
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
    """5.3 step 3: split the table, read the loss flags; then the strike (D24) or the resolution."""
    d = st.duel
    assert d is not None
    ad = adapter(st.table_ruleset)
    host_lost, champ_lost = ad.loss_flags(st.table)
    host_side, champ_side = ad.split(st.table)
    st.avatars[d.host].side = host_side
    if d.champion >= 0:
        st.avatars[d.champion].side = champ_side
    st.table = None
    st.table_ruleset = -1
    d.lost = [p for p, lost in ((d.host, host_lost), (d.champion, champ_lost)) if lost and p >= 0]
    if d.host not in d.lost and exposed(st):
        ask(st, Phase.STRIKE, d.host)
    else:
        resolve(st)


def winners(d: Duel) -> list[int]:
    """D23: a seat wins iff the other seat is occupied and lost while it did not."""
    if d.champion < 0:
        return []
    host_lost, champ_lost = d.host in d.lost, d.champion in d.lost
    if champ_lost and not host_lost:
        return [d.host]
    if host_lost and not champ_lost:
        return [d.champion]
    return []


# ----------------------------------------------------------------------------- D24, D26 strike
def exposed(st: AmalogsState) -> list[Action]:
    """D24, D26: strike options on the enemy base (if it participates) and non-champion guests, unless Guarded."""
    d = st.duel
    assert d is not None
    if any(st.avatars[g].guarding for g in d.guests):
        return []
    enemy = 1 - st.avatars[d.host].team
    out = [A.STRIKE_BASE] if enemy in d.bases else []
    out += [A.STRIKE_PLAYER[st.avatars[g].slot] for g in d.guests if g != d.champion]
    return out


@decision(Phase.STRIKE, legal=lambda st: [A.STRIKE_NONE, *exposed(st)])
def on_strike(st: AmalogsState, a: Action) -> None:
    """D24: lower the enemy base by S, or make a guest's core game lose S core life (A7)."""
    d = st.duel
    assert d is not None
    enemy = 1 - st.avatars[d.host].team
    if a.kind == Kind.STRIKE_BASE:
        st.life[enemy] -= d.strike
        st.emit(
            "strike",
            f"{player_name(st, d.host)} strikes base {'AB'[enemy]} for {d.strike} (base life {st.life[enemy]})",
            player=d.host,
            base=enemy,
            target=None,
            amount=d.strike,
            life=st.life[enemy],
        )
    elif a.kind == Kind.STRIKE_PLAYER:
        target = next(g for g in d.guests if st.avatars[g].slot == a.arg)
        av = st.avatars[target]
        d.struck.append(target)
        if adapter(av.ruleset).lose_core_life(av.side, d.strike):
            d.lost.append(target)
        st.emit(
            "strike",
            f"{player_name(st, d.host)} strikes {player_name(st, target)} for {d.strike} core life",
            player=d.host,
            base=None,
            target=target,
            amount=d.strike,
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

"""Fixed-width text rendering of an AMALOGS match (standard library only).

``render_text(state, viewer)`` draws the header (team turn, base lives, phase), the MAP with
bases (``[A]``, ``[B]``) and avatars (``A0``..``B2``, lower case when Guarding, ``*`` after one
that has dueled), one line per player (ruleset, WE, range, AP, duel role, core summary), the
running core table (drawn by its ruleset, from ``viewer``'s seat) and the last events.
"""

from __future__ import annotations

from deckgym.envs.amalogs.actions import Phase
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.rules.geometry import BASES, COLS, ROWS, SPAWN
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core.events import lines_for

EVENTS_SHOWN = 8


def name(st: AmalogsState, player: int) -> str:
    """``A0``..``B2``."""
    a = st.avatars[player]
    return f"{'AB'[a.team]}{a.slot}"


def render_text(st: AmalogsState, viewer: int | None = None) -> str:
    """The match as text; ``viewer`` (a player index) limits the core table to what it may see."""
    first = "AB"[st.first_team] if st.first_team >= 0 else "-"
    actor = name(st, st.actor) if st.actor >= 0 else "-"
    header = (
        f"AMALOGS  team turn {st.team_turn}/{st.config.max_team_turns}  base A {st.life[0]}  base B {st.life[1]}  "
        f"first {first}  phase {Phase(st.phase).name}  to act {actor}"
    )
    lines = [header]
    if st.done:
        lines.append(f"game over: {st.reason}")
    lines += _grid(st)
    lines += [_player_line(st, i) for i in range(len(st.avatars))]
    if st.table is not None:
        seat = None if viewer is None else st.seat_of(viewer)
        if seat is None or seat >= 0:
            lines.append(f"--- core table ({RULESETS[st.table_ruleset].name}) ---")
            lines.append(adapter(st.table_ruleset).render_table(st.table, seat))
    lines.append("events:")
    lines += [f"  {e}" for e in lines_for(st, viewer, last=EVENTS_SHOWN)]
    return "\n".join(lines)


def _grid(st: AmalogsState) -> list[str]:
    cells = {BASES[0]: "[A]", BASES[1]: "[B]"}
    for i, a in enumerate(st.avatars):
        if a.on_map:
            label = name(st, i)
            cells[a.square] = (label.lower() if a.guarding else label) + ("*" if a.dueled else " ")
    spawn = set(SPAWN[0]) | set(SPAWN[1])
    out = ["     " + "".join(f" c{c} " for c in range(COLS))]
    for r in range(ROWS - 1, -1, -1):
        row = "".join(cells.get(7 * r + c, " :  " if 7 * r + c in spawn else " .  ") for c in range(COLS))
        out.append(f"r{r:<3} {row}")
    return out


def _player_line(st: AmalogsState, i: int) -> str:
    a = st.avatars[i]
    where = f"({a.square // 7},{a.square % 7})" if a.on_map else "exited" if a.exited else "off map"
    ruleset = RULESETS[a.ruleset].name if a.ruleset >= 0 else "-"
    role = ""
    d = st.duel
    if d is not None:
        role = (
            " host"
            if i == d.host
            else " champion"
            if i == d.champion
            else " cast"
            if i in d.casts
            else " guest"
            if i in d.guests
            else ""
        )
    core = ""
    k = st.seat_of(i)
    if k >= 0:
        s = adapter(st.table_ruleset).table_summary(st.table, k)
        core = f" life {s.life} hand {s.hand} deck {s.deck} units {s.units} (at the table)"
    elif a.side is not None:
        s = adapter(a.ruleset).summary(a.side)
        core = f" life {s.life} hand {s.hand} deck {s.deck} units {s.units}"
    return (
        f"P{i} {name(st, i)} {where:8} {ruleset} WE {a.we} range {a.range} AP {a.ap}"
        f"{' guarding' if a.guarding else ''}{' ended' if a.ended else ''}{role}{core}"
    )

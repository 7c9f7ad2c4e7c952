"""The AMALOGS match in the terminal: a rich drawing of one player's view.

The header gives the team turn, both base lives and what is being decided. The 11 x 7 map is
drawn with the viewer's team at the bottom (team B sees it turned half a turn), rows and columns
numbered from 1 as the move sentences name them ("row 4, column 3"). A square shows a base and
its life, or an avatar: its name (``A0``..``B2``), its card game in a few letters, its action
points, ``G`` when it is Guarding and ``d`` when it has dueled this team turn; the acting
avatar's duel range is shaded yellow, the squares a Move can reach green, spawn areas in the
team's pale colour; in a duel each participant's square names its role (host, cast, guest,
champion, defender) and a base at the table says so. Below: one line per player, the duel under
way with its roles and who sits opposite the host (the champion, the defender through its
stand-in and the stand-in's life as it falls, the enemy base with its life and hits, or
nobody), and the running core table drawn by that card game's own terminal board
(``agents.play.boards.<core>``), or the viewer's own core game between duels. ``details`` adds
square and player numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

ROWS, COLS = 11, 7
TEAM_STYLE = {"A": "bold white on blue", "B": "bold white on red"}
TEAM_COLOUR = {"A": "blue", "B": "red"}
SPAWN_STYLE = {"A": "on #dce8fb", "B": "on #fbe1de"}
ROLE_WORDS = {
    "host": "host (declared the duel)",
    "champion": "champion (plays the host at the table)",
    "cast": "cast (an ally of the host)",
    "guest": "guest (an enemy of the host)",
    "defender": "defender (its stand-in sits opposite the host)",
}
PHASES = {
    "STARTUP_RULESET": "start-up: choosing card games",
    "STARTUP_CORE": "start-up: first turns of the core games",
    "STARTUP_PLACE": "start-up: placing the avatars",
    "META_FIELD": "commands on the map",
    "MOVE_DEST": "choosing where to move",
    "DUEL_CORE": "duel at the table",
    "STRIKE": "the host's strike",
    "RESPAWN_RULESET": "respawn: choosing a new card game",
    "RESPAWN_CORE": "respawn: first turn of a new core game",
    "RESPAWN_PLACE": "respawn: back on the map",
    "GAME_OVER": "the match is over",
}


def _square_name(s: int) -> str:
    return f"row {s // COLS + 1}, column {s % COLS + 1}"


def _dist(a: int, b: int) -> int:
    return max(abs(a // COLS - b // COLS), abs(a % COLS - b % COLS))


def _who(view: dict[str, Any], i: int) -> str:
    p = view["players"][i]
    if i == view["seat"]:
        return f"you ({p['name']})"
    return f"{'ally' if p['ally'] else 'enemy'} {p['name']}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _ruleset(view: dict[str, Any], rid: str | None) -> dict[str, Any]:
    info: dict[str, Any] | None = (view["board"].get("rulesets") or {}).get(rid or "")
    if info:
        return info
    return {"title": rid or "no card game yet", "short": (rid or "")[:6], "we": "?", "range": "?"}


def _acting(view: dict[str, Any]) -> int:
    control = view["board"].get("control", -1)
    if control is not None and control >= 0:
        return int(control)
    return int(view.get("to_move", -1))


def render(view: dict[str, Any], details: bool = False) -> RenderableType:
    """The board of ``view`` (an ``amalogs_v2`` per-player view) as a rich renderable."""
    parts: list[RenderableType] = [_header(view), _map(view, details), _roster(view, details)]
    duel = _duel(view)
    if duel is not None:
        parts.append(duel)
    parts += _core(view, details)
    return Group(*parts)


def _header(view: dict[str, Any]) -> Text:
    b = view["board"]
    me = view["players"][view["seat"]]
    t = Text()
    t.append(f"Team turn {b['team_turn']} of {b['max_team_turns']}", style="bold")
    for team in b["teams"]:
        mine = " (yours)" if team["name"] == me["team"] else ""
        t.append("   ")
        t.append(f" Base {team['name']}{mine}: {team['life']} ", style=TEAM_STYLE[team["name"]])
    if b.get("acting"):
        t.append(f"   team {b['acting']} acts" + (" (your team)" if b["acting"] == me["team"] else ""))
    t.append(f"   {PHASES.get(b['phase'], '')}")
    if b.get("move_allowance"):
        t.append(f"   dice {b['dice'][0]} + {b['dice'][1]}: move up to {b['move_allowance']} squares")
    if b.get("winner"):
        t.append("   a draw" if b["winner"] == "draw" else f"   team {b['winner']} won", style="bold")
    return t


def _map(view: dict[str, Any], details: bool) -> Table:
    b = view["board"]
    me = view["players"][view["seat"]]
    flip = me["team"] == "B"
    spawn = {s: team for team, squares in b["map"]["spawn"].items() for s in squares}
    dest = set(b["map"].get("move_destinations") or [])
    in_duel = set((b.get("duel") or {}).get("squares") or [])
    bases = {t["square"]: t for t in b["teams"]}
    occupant = {p["square"]: i for i, p in enumerate(view["players"]) if p.get("on_map")}
    acting = _acting(view)
    reach: set[int] = set()
    if 0 <= acting < len(view["players"]) and b["phase"] != "GAME_OVER":
        a = view["players"][acting]
        if a.get("on_map"):
            reach = {s for s in range(ROWS * COLS) if _dist(s, a["square"]) <= a["range"]}
    rows = list(range(ROWS)) if flip else list(reversed(range(ROWS)))
    cols = list(reversed(range(COLS))) if flip else list(range(COLS))
    table = Table(box=box.SQUARE, show_lines=True, padding=(0, 0), title="The map", title_justify="left")
    table.add_column("", justify="right", width=3)
    for c in cols:
        table.add_column(str(c + 1), justify="center", width=9)
    for r in rows:
        cells: list[RenderableType] = [Text(str(r + 1), style="dim")]
        for c in cols:
            s = r * COLS + c
            cells.append(
                _cell(view, s, bases, occupant, spawn, s in reach, s in dest, s in in_duel, acting, details)
            )
        table.add_row(*cells)
    return table


def _cell(
    view: dict[str, Any],
    s: int,
    bases: dict[int, dict[str, Any]],
    occupant: dict[int, int],
    spawn: dict[int, str],
    reach: bool,
    dest: bool,
    in_duel: bool,
    acting: int,
    details: bool,
) -> Text:
    style = ""
    if s in spawn:
        style = SPAWN_STYLE[spawn[s]]
    if reach:
        style = "on #fff2b8"
    if dest:
        style = "on #b9ecc1"
    if s in bases:
        team = bases[s]
        t = Text(f"Base {team['name']}\n{team['life']}", style=TEAM_STYLE[team["name"]], justify="center")
        if _base_at_table(view) == team:
            t.append("\nat table", style="magenta")
        return t
    if s in occupant:
        i = occupant[s]
        p = view["players"][i]
        name = p["name"] + ("*" if i == acting else "")
        flags = ("G" if p.get("guarding") else "") + ("d" if p.get("dueled") else "")
        short = _ruleset(view, p.get("ruleset"))["short"]
        t = Text(justify="center")
        t.append(
            f"{name} {short}\n", style=TEAM_STYLE[p["team"]] + (" underline" if i == view["seat"] else "")
        )
        t.append(f"{p['ap']}AP {flags}".strip(), style=TEAM_COLOUR[p["team"]] + (" bold" if in_duel else ""))
        if p.get("role"):
            t.append(f"\n{p['role']}", style="bold magenta")
        return t
    mark = "+" if dest else "#" if in_duel else "."
    text = f"{mark}\n{s}" if details else f"{mark}\n"
    return Text(text, style=style + " dim" if not (reach or dest) else style, justify="center")


def _roster(view: dict[str, Any], details: bool) -> Table:
    me = view["players"][view["seat"]]
    table = Table(box=box.SIMPLE_HEAD, title="Players", title_justify="left", padding=(0, 1))
    for head in ("who", "card game", "AP", "where", "core game", "flags"):
        table.add_column(head)
    order = sorted(range(len(view["players"])), key=lambda i: (view["players"][i]["team"] == me["team"], i))
    for i in order:
        p = view["players"][i]
        r = _ruleset(view, p.get("ruleset"))
        game = f"{r['title']} (weight {p['we']}, range {p['range']})" if p.get("ruleset") else "none yet"
        if p.get("on_map"):
            where = _square_name(p["square"])
        else:
            where = "off the map (back after the team turn)" if p.get("exited") else "not on the map yet"
        core = p.get("core")
        summary = (
            f"life {core['life']}, hand {core['hand']}, deck {core['deck']}, units {core['units']}"
            if core
            else ""
        )
        flags = [
            w
            for w, on in (
                ("Guarding", p.get("guarding")),
                ("dueled", p.get("dueled")),
                ("ended", p.get("ended")),
            )
            if on
        ]
        if p.get("role"):
            flags.append(p["role"])
        name = _who(view, i) + (f" [player {i}]" if details else "")
        table.add_row(
            Text(name, style=TEAM_COLOUR[p["team"]] + " bold"),
            game,
            str(p["ap"]),
            where,
            summary,
            ", ".join(flags),
        )
    return table


def _base_at_table(view: dict[str, Any]) -> dict[str, Any] | None:
    """The enemy base that sits opposite the host (a base proxy), or None."""
    d = view["board"].get("duel") or {}
    if d.get("proxy") != "base":
        return None
    host_team = view["players"][d["host"]]["team"]
    return next((t for t in view["board"]["teams"] if t["name"] != host_team), None)


def _nominal(view: dict[str, Any], i: int) -> tuple[str, int | None]:
    p = view["players"][i]
    core = p.get("core") or {}
    return _ruleset(view, p.get("ruleset"))["title"], core.get("nominal")


def _number(x: float) -> str:
    """A unit for people: a whole number as it is, else at most two decimals (45.5, 1.38)."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0").rstrip(".")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _seat_one(view: dict[str, Any]) -> list[str]:
    """Who sits opposite the host in the duel under way, in sentences (the web board says the same)."""
    d = view["board"].get("duel")
    if not d:
        return []
    if d["champion"] >= 0:
        who = _who(view, d["champion"])
        return [f"Champion at the table: {who} (the same card game as the host, with its own cards)"]
    if d.get("proxy") == "guest" and d.get("defender", -1) >= 0:
        i = d["defender"]
        verb = "defend" if i == view["seat"] else "defends"
        life, start = d.get("proxy_life"), d.get("proxy_start")
        line = f"{_capital(_who(view, i))} {verb} through a stand-in with {life} life"
        if start is not None and life is not None and life < start:
            line += f" (it started with {start})"
        lines = [line]
        host_info = _ruleset(view, view["players"][d["host"]].get("ruleset"))
        (guest_game, guest_l0) = _nominal(view, i)
        unit = host_info.get("stand_in_unit")
        if unit and guest_l0:
            loses = "you lose" if i == view["seat"] else f"{view['players'][i]['name']} loses"
            lines.append(
                f"Life converts by {host_info['title']}'s stand-in unit {_number(unit)} and {guest_game}'s"
                f" nominal life {guest_l0}: when the table ends {loses} the stand-in's damage, converted,"
                f" in {guest_game}"
            )
        return lines
    if d.get("proxy") == "base":
        base = _base_at_table(view)
        name = base["name"] if base else "?"
        life = d.get("proxy_life") if d.get("proxy_life") is not None else (base or {}).get("life")
        hits = int(d.get("base_hits") or 0)
        line = f"Base {name} is at the table: {life} life, {_plural(hits, 'hit')} this duel"
        per = _ruleset(view, view["players"][d["host"]].get("ruleset")).get("base_unit") or 1
        if per == 1:
            return [line + " (each successful attack costs it 1 base life)"]
        return [line + f" (every {_number(per)} successful attacks cost it 1 base life)"]
    return ["Nobody sits opposite: the opponent's seat is empty"]


def _duel(view: dict[str, Any]) -> Panel | None:
    d = view["board"].get("duel")
    if not d:
        return None
    host = view["players"][d["host"]]
    game = _ruleset(view, host.get("ruleset"))["title"]
    lines = [f"Host: {_who(view, d['host'])}", *_seat_one(view)]
    if d["casts"]:
        lines.append("Casts: " + ", ".join(_who(view, i) for i in d["casts"]))
    others = [g for g in d["guests"] if g not in (d["champion"], d.get("defender", -1))]
    if others:
        lines.append("Other guests: " + ", ".join(_who(view, i) for i in others))
    if d["bases"]:
        at_table = _base_at_table(view)
        words = []
        for b in d["bases"]:
            if at_table is not None and b == at_table["name"]:
                words.append(f"{b} (at the table)")
            elif b == host["team"]:
                words.append(f"{b} (the host's own)")
            else:
                words.append(f"{b} (defended, cannot be attacked)")
        lines.append("Bases in the duel: " + ", ".join(words))
    lines.append(f"Strike value {d['strike']} (a strike hits only the other guests, never a base)")
    if d.get("lost"):
        lines.append("Lost their game: " + ", ".join(_who(view, i) for i in d["lost"]))
    if d.get("struck"):
        lines.append("Struck: " + ", ".join(_who(view, i) for i in d["struck"]))
    return Panel("\n".join(lines), title=f"Duel: {game}", title_align="left", border_style="magenta")


def _core_view(core: dict[str, Any]) -> dict[str, Any]:
    """The core game in the shape of its own ruleset's per-seat view."""
    return {
        "env": core.get("env"),
        "seat": core["seat"],
        "turn": core.get("turn", 0),
        "to_move": core.get("to_move", -1),
        "decision": core.get("decision"),
        "done": bool(core.get("done")),
        "result": None,
        "players": core.get("players", []),
        "board": core.get("board", {}),
        "events": core.get("events", []),
        "records": core.get("records", []),
    }


def _core_draw(env: str) -> Callable[..., RenderableType] | None:
    """The terminal board of the core ruleset ``env`` (the play package's lookup by env name), if any."""
    from deckgym.agents.play.terminal import board_for

    return board_for(env)


def _core_board(core: dict[str, Any], details: bool) -> RenderableType:
    draw = _core_draw(str(core.get("env")))
    if draw is not None:
        drawn: RenderableType = draw(_core_view(core), details)
        return drawn
    lines = []
    for j, p in enumerate(core.get("players", [])):
        numbers = ", ".join(
            f"{k.removesuffix('_count')} {v}"
            for k, v in p.items()
            if k in ("life", "hp", "hand", "hand_count", "deck", "units")
            and isinstance(v, int)
            and not isinstance(v, bool)
        )
        cards = p.get("hand_cards") or (p["hand"] if isinstance(p.get("hand"), list) else [])
        hand = ", ".join(c.get("name", "") for c in cards if isinstance(c, dict))
        lines.append(f"Seat {j + 1}: {numbers}" + (f"; hand: {hand}" if hand else ""))
    return Text("\n".join(lines))


def _opposite(view: dict[str, Any]) -> str:
    """What sits at seat 1 of a duel table whose seat 1 no player holds: a stand-in, a base or nobody."""
    d = view["board"].get("duel") or {}
    if d.get("proxy") == "guest" and d.get("defender", -1) >= 0:
        i = d["defender"]
        owner = "your" if i == view["seat"] else f"{_who(view, i)}'s"
        return f"{owner} stand-in ({d.get('proxy_life')} life)"
    base = _base_at_table(view)
    if base is not None:
        return f"base {base['name']} ({d.get('proxy_life', base['life'])} life)"
    return "an empty seat"


def _core(view: dict[str, Any], details: bool) -> list[RenderableType]:
    b = view["board"]
    core = b.get("core")
    table = b.get("table")
    out: list[RenderableType] = []
    if table and (not core or core.get("source") != "table"):
        seats = [_who(view, p) for p in table["seats"] if p >= 0]
        title = _ruleset(view, table["ruleset"])["title"]
        if table["kind"] == "duel":
            against = " against ".join(seats) + (
                f" against {_opposite(view)}" if table["seats"][1] < 0 else ""
            )
            out.append(Text(f"{title}: {against} at the table (you do not see it)", style="italic"))
        else:
            out.append(Text(f"{title}: {seats[0]} plays the first turn of a new core game", style="italic"))
    if not core:
        return out
    duel = b.get("duel") or {}
    if core.get("source") == "table":
        if not b.get("duel"):
            title = f"First turn of your new {core.get('title')} game"
        elif duel.get("proxy") and core.get("seat") == 0:
            title = f"The duel table: {core.get('title')}, against {_opposite(view)}"
        else:
            title = f"The duel table: {core.get('title')}"
    elif duel.get("defender", -1) == view["seat"]:
        title = f"Your core game: {core.get('title')} (your stand-in is at the table)"
    else:
        title = f"Your core game: {core.get('title')} (between duels)"
    out.append(Panel(_core_board(core, details), title=title, title_align="left"))
    return out

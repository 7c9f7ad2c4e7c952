"""The Medarot OCG table in the terminal: a rich drawing of one seat's view.

The opponent's side on top, the 3x5 board in the middle with the viewer's field at the bottom
(seat 1 sees the grid turned round, as the web board draws it), the viewer's side below. Each
Medarot shows its name, type, power / armor / speed and its movement arrows (turned as the
viewer sees its owner), with the acting Medarot and its target marked; a face-down Medarot the
viewer may not see is only "face down". Each side shows HP, deck, hand (the opponent's only
counted), stock (face-down cards unnamed), master, MedaForce reserve (advance) and trash (every
card by name). The lasting effects are listed in words. ``details`` adds card ids, seats and
the action's flags. At an AMALOGS proxy table the opponent is a stand-in (the defender's, or the
enemy base) with HP and an open row: only its HP and what attacking it does are drawn.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_TYPE_WORDS = {"SHOOTING": "Shooting", "MELEE": "Melee", "SPECIAL": "Special"}
_DIRS = ("F", "FR", "R", "BR", "B", "BL", "L", "FL")
#: Screen directions clockwise from up: glyph and (row, column) of a 3x3 grid.
_SCREEN = (
    ("↑", 0, 1),
    ("↗", 0, 2),
    ("→", 1, 2),
    ("↘", 2, 2),
    ("↓", 2, 1),
    ("↙", 2, 0),
    ("←", 1, 0),
    ("↖", 0, 0),
)
_DIR_WORDS = {
    "F": "forward",
    "FR": "forward-right",
    "R": "right",
    "BR": "back-right",
    "B": "back",
    "BL": "back-left",
    "L": "left",
    "FL": "forward-left",
}
_STATUS_WORDS = {"DISABLE": "cannot act", "ROOT": "cannot move", "GUARD": "guard"}


def _arrows(card: dict[str, Any], turned: bool) -> list[str]:
    """Three short lines drawing the card's movement arrows (turned for the opponent's Medarots)."""
    cells = [[" "] * 3 for _ in range(3)]
    cells[1][1] = "·"
    for d in card.get("arrows", []):
        if d in _DIRS:
            glyph, r, c = _SCREEN[(_DIRS.index(d) + (4 if turned else 0)) % 8]
            cells[r][c] = glyph
    return ["".join(row) for row in cells]


def _unit_label(view: dict[str, Any], s: int) -> str:
    sq = view["board"]["squares"][s]
    if sq is None:
        seat1 = view["players"][1] if len(view["players"]) > 1 else {}
        if seat1.get("proxy") and s >= 10:  # an attack on a stand-in's open row (amalogs D37)
            return f"{_proxy_name(seat1)} on square {s}"
        return f"square {s}"
    if sq.get("hidden") or not sq.get("card"):
        return f"the face-down Medarot on square {s}"
    return f"{sq['card']['name']} (square {s})"


def _cell(view: dict[str, Any], s: int, details: bool) -> Text:
    sq = view["board"]["squares"][s]
    out = Text(f"{s}\n", style="dim")
    if sq is None:
        return out
    me = view["seat"]
    mine = sq["owner"] == me
    colour = "blue" if mine else "red"
    act = view["board"].get("action") or {}
    if act.get("square") == s:
        out.append("▶ acting\n", style="bold black on yellow")
    if act.get("target") == s:
        out.append("◎ target\n", style="bold white on red")
    if sq.get("hidden") or not sq.get("card"):
        out.append("[face down]\n", style=f"bold {colour}")
    else:
        card = sq["card"]
        out.append(f"{card['name']}\n", style=f"bold {colour}")
        kind = _TYPE_WORDS.get(card.get("type", ""), card.get("type", ""))
        extra = " MedaChange" if sq.get("transformed") else ""
        down = " (face down)" if not sq.get("face_up") else ""
        out.append(f"{kind}{extra}{down}\n")
        out.append(f"P{sq['power']} A{sq['armor']} S{sq['speed']}\n")
        out.append("\n".join(_arrows(card, not mine)) + "\n", style="magenta")
        if details:
            out.append(f"{card['id']} cost {card['cost']}\n", style="dim")
    flags = [*(["acted"] if sq.get("acted") else []), *(["placed this turn"] if sq.get("placed") else [])]
    flags += [_STATUS_WORDS.get(x, x.lower()) for x in sq.get("statuses", [])]
    if flags:
        out.append(", ".join(flags), style="italic")
    if not mine:
        out.append("\n(opponent)", style="dim red")
    return out


def _proxy_name(pl: dict[str, Any]) -> str:
    return "the enemy base" if pl.get("proxy") == "base" else "the defender's stand-in"


def _grid(view: dict[str, Any], details: bool) -> Table:
    me = view["seat"]
    opponent = view["players"][1 - me] if len(view["players"]) > 1 - me else {}
    theirs = "Base's row" if opponent.get("proxy") == "base" else "Stand-in's row"
    if not opponent.get("proxy"):
        theirs = "Opponent's field"
    rows = (0, 1, 2) if me == 1 else (2, 1, 0)
    cols = (4, 3, 2, 1, 0) if me == 1 else (0, 1, 2, 3, 4)
    own_row = 2 if me == 1 else 0
    table = Table(box=box.SQUARE, show_header=False, show_lines=True, padding=(0, 1))
    table.add_column("row", width=16, style="dim")
    for _ in cols:
        table.add_column(width=15)
    for r in rows:
        label = "Neutral field" if r == 1 else "Your field" if r == own_row else theirs
        table.add_row(label, *[_cell(view, 5 * r + c, details) for c in cols])
    return table


def _slot(slot: dict[str, Any] | None) -> str:
    if slot is None:
        return "empty"
    if slot.get("hidden") or not slot.get("card"):
        return "face down"
    text = slot["card"]["name"]
    notes = []
    if not slot.get("face_up"):
        notes.append("face down")
    if slot.get("in_use"):
        notes.append("in use")
    if slot.get("charge"):
        notes.append(f"{slot['charge']} negate charge(s)")
    return text + (f" ({', '.join(notes)})" if notes else "")


def _card_line(card: dict[str, Any]) -> str:
    """A hand card: name, kind and numbers, and its effects in words."""
    if card["kind"] == "MEDAROTER":
        head = f"{card['name']} - Medaroter (HP {card['hp_mod']:+d} as a master)"
    else:
        kind = "MedaChange " if card["kind"] == "MEDACHANGE" else ""
        head = (
            f"{card['name']} - {kind}{_TYPE_WORDS.get(card['type'], card['type'])}, "
            f"P{card['power']} A{card['armor']} S{card['speed']} cost {card['cost']}, "
            f"moves {', '.join(_DIR_WORDS.get(d, d) for d in card.get('arrows', []))}"
        )
    effects = " ".join(e["text"] for e in card.get("effects", []))
    return f"{head}{'  ' + effects if effects else ''}"


def _proxy_side(pl: dict[str, Any], details: bool) -> Panel:
    """An AMALOGS stand-in (amalogs D37, D40): HP and an open row, no cards, no decisions."""
    name = _proxy_name(pl)
    head = Text(f"HP {pl['hp']}", style="bold")
    if details:
        head.append(f"  (seat {pl['seat']})", style="dim")
    text = str(pl.get("text", "")).removeprefix("Seat 1 is ")
    lines: list[RenderableType] = [head, Text(text[:1].upper() + text[1:])]
    lines.append(
        Text("Its row is open: an empty square there is a target wherever your Medarot could attack one.")
    )
    return Panel(Group(*lines), title=f"Opponent: {name}", border_style="red", box=box.ROUNDED)


def _side(view: dict[str, Any], p: int, details: bool) -> Panel:
    pl = view["players"][p]
    mine = p == view["seat"]
    if pl.get("proxy") and not mine:
        return _proxy_side(pl, details)
    facts = [f"HP {pl['hp']}", f"deck {pl['deck']}", f"hand {pl['hand_count']}"]
    if pl.get("first"):
        facts.append("first player")
    if details:
        facts.append(f"seat {p}, mulligans {pl.get('mulligans', 0)}")
    lines: list[RenderableType] = [Text(" | ".join(facts), style="bold")]
    stock = "  ".join(f"[{j + 1}] {_slot(s)}" for j, s in enumerate(pl.get("stock", [])))
    lines.append(Text(f"Stock: {stock}"))
    if "master" in pl:
        used = " (used this turn)" if pl.get("master_used") else ""
        lines.append(Text(f"Master: {_slot(pl['master'])}{used}"))
    if "reserve" in pl:
        names = ", ".join(c["name"] for c in pl["reserve"]) or "empty"
        lines.append(Text(f"MedaForce reserve ({len(pl['reserve'])}): {names}"))
    trash = ", ".join(c["name"] for c in pl.get("trash", [])) or "empty"
    lines.append(Text(f"Trash ({len(pl.get('trash', []))}): {trash}"))
    pending = pl.get("pending")
    if pending:
        name = pending["card"]["name"] if pending.get("card") else "a face-down card"
        lines.append(Text(f"Waiting to be placed: {name}"))
    if mine:
        hand = pl.get("hand", [])
        lines.append(Text("Hand:" if hand else "Hand: empty", style="bold"))
        for i, c in enumerate(hand):
            lines.append(Text(f"  {i + 1}. {_card_line(c)}"))
    else:
        lines.append(Text(f"Hand: {pl['hand_count']} card(s), face down"))
    title = "You" if mine else "Opponent"
    return Panel(Group(*lines), title=title, border_style="blue" if mine else "red", box=box.ROUNDED)


def _status(view: dict[str, Any], details: bool) -> Group:
    board = view["board"]
    lines: list[RenderableType] = [
        Text(f"Turn {view.get('turn', 0)} ({board.get('mode', '')} mode)", style="bold")
    ]
    act = board.get("action")
    if act:
        whose = "Your" if act["player"] == view["seat"] else "The opponent's"
        text = f"{whose} {_unit_label(view, act['square'])} is acting" if act["square"] >= 0 else "Acting: -"
        if act.get("target") is not None and act["target"] >= 0:
            text += f", attacking {_unit_label(view, act['target'])}"
            if act.get("far"):
                text += " from 2 squares away"
        if act.get("negated"):
            text += " (the attack is negated)"
        lines.append(Text(text, style="yellow"))
        if details:
            flags = ", ".join(f"{k} {'yes' if v else 'no'}" for k, v in act.items() if isinstance(v, bool))
            lines.append(Text(flags, style="dim"))
    use = board.get("in_use")
    if use:
        whose = "You are" if use["player"] == view["seat"] else "The opponent is"
        name = use["card"]["name"] if use.get("card") else "a card"
        lines.append(Text(f"{whose} using {name}"))
    effects = board.get("effects", [])
    lines.append(Text("Lasting effects:" if effects else "Lasting effects: none"))
    for e in effects:
        lines.append(Text(f"  - {e.get('text', '')}"))
    if details and view.get("decision"):
        lines.append(Text(f"decision {view['decision']}", style="dim"))
    return Group(*lines)


def render(view: dict[str, Any], details: bool = False) -> RenderableType:
    """The table of ``view`` (``envs.medarot_ocg.view``) as a rich renderable."""
    me = view["seat"]
    return Group(
        _side(view, 1 - me, details),
        _grid(view, details),
        _status(view, details),
        _side(view, me, details),
    )

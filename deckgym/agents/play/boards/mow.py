"""The Master of the World table in the terminal: a rich drawing of one seat's view.

The opponent's side on top, the turn and the chain in the middle, the viewer's side at the
bottom. Each side shows its master (level, life, attack / guard, experience), its monster slots
(attack / toughness, damage, this-turn flags), its weapon and spell slot (the opponent's
face-down spell as a back), its discard and experience piles (every card, by name and count),
its deck and hand counts; the viewer's hand is listed with each card's text. ``details`` adds
ids, seats and bookkeeping numbers. At an AMALOGS proxy table the opponent is a stand-in (the
defender's, or the enemy base): only its life and what attacking it does are drawn.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_USE = {"summon": "summons", "equip": "equips", "cast": "casts", "activate": "activates", "ability": "uses"}


def _who(p: int, seat: int) -> str:
    return "You" if p == seat else "The opponent"


def _rest(card: dict[str, Any]) -> str:
    """A card's text without its leading name."""
    text = str(card.get("text", ""))
    head = f"{card.get('name', '')}: "
    return text.removeprefix(head)


def _abilities(card: dict[str, Any]) -> str:
    """A card's text after its kind and stats sentence (its conditions and abilities)."""
    rest = _rest(card)
    _, _, after = rest.partition(". ")
    return after


def _pile(cards: list[dict[str, Any]]) -> str:
    """A pile by name and count, newest first: ``Moss Sprite x2, Fire Bolt``."""
    counts = Counter(c["name"] for c in cards)
    order = list(dict.fromkeys(c["name"] for c in reversed(cards)))
    return ", ".join(f"{n} x{counts[n]}" if counts[n] > 1 else n for n in order) or "empty"


def _master_line(player: dict[str, Any], details: bool) -> Text:
    m = player["master"]
    t = Text()
    t.append(m["name"], style="bold")
    t.append(f"  level {m['level']} of {m['max_level']}  ")
    t.append(f"life {player['life']}", style="bold red" if player["life"] <= 5 else "bold")
    t.append(f"  attack {m['attack']} / guard {m['guard']}  experience {m['experience']}")
    if m.get("attacked"):
        t.append("  (has attacked)", style="dim")
    if details:
        t.append(f"  [{m['id']}]", style="dim")
    return t


def _monsters(side: dict[str, Any], level: int, details: bool) -> RenderableType:
    if not side.get("monsters") and level == 0:
        return Text("Monsters: no slots at level 0", style="dim")
    table = Table(box=box.SIMPLE, show_header=True, header_style="dim", pad_edge=False, expand=False)
    table.add_column("slot", justify="right")
    table.add_column("monster")
    table.add_column("attack", justify="right")
    table.add_column("toughness", justify="right")
    table.add_column("damage", justify="right")
    table.add_column("")
    table.add_column("text", style="dim")
    mons = side.get("monsters", [])
    for i in range(max(level, len(mons))):
        if i < len(mons):
            m = mons[i]
            flags = []
            if m.get("sick"):
                flags.append("summoned this turn")
            if m.get("attacked"):
                flags.append("has attacked")
            if details:
                flags.append(f"uid {m['uid']}, entered turn {m['entered']}, {m['card']['id']}")
            table.add_row(
                str(i + 1),
                Text(m["card"]["name"], style="bold"),
                str(m["attack"]),
                f"{m['toughness']} of {m['max_toughness']}",
                str(m["damage"]) if m["damage"] else "-",
                ", ".join(flags),
                _abilities(m["card"]),
            )
        else:
            table.add_row(str(i + 1), Text("empty slot", style="dim"), "", "", "", "", "")
    return table


def _slots(side: dict[str, Any], details: bool) -> Text:
    t = Text()
    w = side.get("weapon")
    t.append("Weapon: ", style="dim")
    if w:
        t.append(w["card"]["name"], style="bold")
        t.append(f" - {_rest(w['card'])}")
        if details:
            t.append(f" [uid {w['uid']}]", style="dim")
    else:
        t.append("none")
    t.append("\nSpell slot: ", style="dim")
    s = side.get("spell")
    if not s:
        t.append("empty")
    else:
        ready = "ready" if s.get("ready") else f"ready from turn {s['cast_turn'] + 1}"
        card = s.get("card", {})
        if card.get("hidden"):
            t.append("a face-down spell", style="bold")
        else:
            t.append(f"{card['name']} (face down)", style="bold")
        t.append(f", {ready}")
        if details:
            t.append(f" [uid {s['uid']}, cast on turn {s['cast_turn']}]", style="dim")
    return t


def _piles(player: dict[str, Any], side: dict[str, Any], mine: bool) -> Text:
    t = Text()
    t.append(f"Deck: {player['deck']}   Hand: {player['hand_count']}", style="dim")
    if not mine:
        t.append("  " + "[#]" * min(player["hand_count"], 12), style="blue")
    t.append(f"\nDiscard ({len(side.get('discard', []))}): ", style="dim")
    t.append(_pile(side.get("discard", [])))
    t.append(f"\nExperience ({len(side.get('experience', []))}): ", style="dim")
    t.append(_pile(side.get("experience", [])))
    return t


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _proxy_side(player: dict[str, Any], details: bool) -> Panel:
    """An AMALOGS stand-in (amalogs D37, D40): a master with life and nothing else."""
    m = player["master"]
    t = Text()
    t.append(_capital(str(m["name"])), style="bold")
    t.append("  ")
    t.append(f"life {player['life']}", style="bold red" if player["life"] <= 5 else "bold")
    t.append(f"  attack {m['attack']} / guard {m['guard']}")
    if details:
        t.append(f"  (seat {player['seat']})", style="dim")
    _, _, rest = str(m.get("text", "")).partition(": ")
    lines: list[RenderableType] = [t]
    if rest:
        lines.append(Text(_capital(rest)))
    lines.append(
        Text("It has no cards and never decides; your master and ready monsters attack it.", style="dim")
    )
    return Panel(
        Group(*lines), title=f"Opponent: {m['name']}", title_align="left", box=box.ROUNDED, border_style="red"
    )


def _side(view: dict[str, Any], p: int, details: bool) -> RenderableType:
    seat = view["seat"]
    player = view["players"][p]
    if player.get("proxy"):
        return _proxy_side(player, details)
    side = view["board"]["sides"][p]
    mine = p == seat
    title = "You" if mine else "Opponent"
    if details:
        title += f" (seat {p})"
    if player.get("vacant"):
        return Panel(Text("an empty seat", style="dim"), title=title, box=box.ROUNDED)
    if view["board"].get("active") == p:
        title += " - this player's turn"
    parts: list[RenderableType] = [
        _master_line(player, details),
        _monsters(side, player["level"], details),
        _slots(side, details),
        _piles(player, side, mine),
    ]
    if player.get("fast_used"):
        parts.append(Text("Fast spell used this turn", style="dim"))
    if mine:
        parts.append(_hand(player, details))
    return Panel(
        Group(*parts),
        title=title,
        title_align="left",
        box=box.ROUNDED,
        border_style="green" if mine else "red",
    )


def _hand(player: dict[str, Any], details: bool) -> RenderableType:
    hand = player.get("hand", [])
    table = Table(box=box.SIMPLE, show_header=False, pad_edge=False, title="Your hand", title_justify="left")
    table.add_column("card", style="bold", no_wrap=True)
    table.add_column("text")
    for c in hand:
        table.add_row(c["name"] + (f" [{c['id']}]" if details else ""), _rest(c))
    if not hand:
        table.add_row(Text("empty", style="dim"), "")
    return table


def _chain(view: dict[str, Any]) -> list[str]:
    seat = view["seat"]
    out = []
    for i, e in enumerate(view["board"].get("chain", [])):
        mine = e["user"] == seat
        who = _who(e["user"], seat)
        card = e["card"]
        if card.get("hidden"):
            what = f"{'cast' if mine else 'casts'} a face-down spell"
        elif e["use"] == "ability":
            what = f"{'use' if mine else 'uses'} {card['name']}'s counter ability"
        else:
            verb = e["use"] if mine else _USE.get(e["use"], e["use"])
            what = f"{verb} {card['name']}" + (" face down" if e["use"] == "cast" else "")
        out.append(f"{i + 1}. {who} {what}" + (" (negated)" if e.get("negated") else ""))
    return out


def _middle(view: dict[str, Any], details: bool) -> RenderableType:
    board = view["board"]
    seat = view["seat"]
    t = Text()
    t.append(f"Turn {view['turn']}", style="bold")
    active = board.get("active")
    t.append(
        f" - {'your' if active == seat else 'the opponent' + chr(39) + 's'} turn, {board['phase']} phase"
    )
    if board["phase"] == "charge":
        t.append(f" ({board.get('charges', 0)} charged)")
    if view.get("done"):
        t.append("  - the game is over", style="bold")
    lines: list[RenderableType] = [t]
    for u in board.get("using", []):
        lines.append(
            Text(
                f"{_who(u['player'], seat)} {'are' if u['player'] == seat else 'is'} using {u['card']['name']}"
            )
        )
    chain = _chain(view)
    if chain:
        lines.append(Text("Chain (resolves from the top):", style="bold"))
        lines += [Text("  " + line) for line in reversed(chain)]
    pending = board.get("pending")
    if pending:
        if pending["kind"] == "effect":
            lines.append(Text(f"Resolving {pending['source']['name']}: {pending['effect']}"))
        else:
            lines.append(Text(f"Paying a cost: {pending.get('text', '')} ({pending['left']} left)"))
    if details:
        lines.append(
            Text(f"decision {view.get('decision')}, to move: seat {view.get('to_move')}", style="dim")
        )
    return Group(*lines)


def render(view: dict[str, Any], details: bool = False) -> RenderableType:
    """The board of ``view`` (a ``mow_v1`` per-seat view) as a rich renderable."""
    seat = view["seat"]
    others = [p for p in range(len(view["players"])) if p != seat]
    return Group(
        *(_side(view, p, details) for p in others), _middle(view, details), _side(view, seat, details)
    )

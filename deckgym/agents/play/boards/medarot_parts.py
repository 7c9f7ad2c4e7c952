"""The Medarot parts game table in the terminal: a rich drawing of one seat's view.

The opponent's side on top, the turn, the round and what is being resolved in the middle, the
viewer's side at the bottom. Each side shows its two medarots (medal, mobility, action medarot
or stopped; each part with its action, current power and charge, armor left, damage counters,
tapped or destroyed, and the effect or medaroter cards on it), its energy stock by kind, its
play area, deck and trash (every card, by name and count) and its assets; the viewer's hand is
listed with each card's text, the opponent's only counted. ``details`` adds ids, seats and
bookkeeping numbers. At an AMALOGS proxy table the opponent is a stand-in (the defender's, or the
enemy base): one stand-in medarot with only a head, whose armor left is its life.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

_SLOT_WORDS = {"HEAD": "head", "RIGHT_ARM": "right arm", "LEFT_ARM": "left arm", "LEGS": "legs"}
_ACTION_WORDS = {
    "SHOOT": "shoot",
    "AIMED": "aimed shot",
    "PUNCH": "punch",
    "RECKLESS": "reckless",
    "PROTECT": "protect",
    "REPAIR": "repair",
    "SUPPORT": "support",
}
_ENERGY = (("SHOOT", "shooting"), ("MELEE", "melee"), ("DEFENSE", "defense"), ("SUPPORT", "support"))


def _rest(card: dict[str, Any]) -> str:
    """A card's text without its leading name."""
    return str(card.get("text", "")).removeprefix(f"{card.get('name', '')}: ")


def _pile(cards: list[dict[str, Any]]) -> str:
    """A pile by name and count, newest first: ``Shooting Energy x2, Sidestep``."""
    counts = Counter(c["name"] for c in cards)
    order = list(dict.fromkeys(c["name"] for c in reversed(cards)))
    return ", ".join(f"{n} x{counts[n]}" if counts[n] > 1 else n for n in order) or "empty"


def _medarot_name(med: dict[str, Any]) -> str:
    name = str(med["medal"]["name"])
    return f"{name.removesuffix(' Medal')} medarot"


def _medarot(med: dict[str, Any], details: bool) -> Panel:
    table = Table(box=box.SIMPLE, show_header=True, header_style="dim", pad_edge=False, expand=False)
    for col in ("part", "card", "action", "power", "charge", "armor", "state"):
        table.add_column(col, no_wrap=col != "state")
    for part in med["parts"]:
        c = part["card"]
        legs = part["slot"] == "LEGS"
        if part["destroyed"]:
            armor = Text("0", style="red")
            state = Text("destroyed", style="bold red")
        else:
            armor = Text(f"{part['armor_left']}/{c['armor']}")
            bits = []
            if part["counters"]:
                bits.append(f"{part['counters']} damage")
            bits.append("tapped" if part["tapped"] else "ready")
            state = Text(", ".join(bits), style="dim" if part["tapped"] else "")
        if part["attack_part"]:
            state.append(", attacking", style="bold")
        if part["protect_part"]:
            state.append(", protecting", style="bold")
        if part["effect"]:
            state.append(f", effect on ({part['effect']['name']})", style="yellow")
        for x in part["attached"]:
            state.append(f", with {x['name']}", style="magenta")
        name = Text(c["name"], style="strike" if part["destroyed"] else "bold")
        if details:
            name.append(f" [{c['id']}, attribute {c['attribute']}]", style="dim")
        table.add_row(
            _SLOT_WORDS[part["slot"]],
            name,
            f"mobility {c['mobility']}" if legs else _ACTION_WORDS.get(c.get("action", ""), ""),
            "" if legs else str(part["power"]),
            "" if legs else str(part["charge"]),
            armor,
            state,
        )
    medal = med["medal"]
    title = Text(_medarot_name(med), style="bold")
    title.append(f"  mobility {med['mobility']}")
    flags = []
    if med["stopped"]:
        flags.append("stopped")
    if med["action_medarot"]:
        flags.append("action medarot")
    if med["attacking"]:
        flags.append("attacking")
    if med["defending"]:
        flags.append("defending")
    if flags:
        title.append("  " + ", ".join(flags), style="bold cyan")
    medal_line = Text(f"medal: {medal['name']} (attribute {medal['attribute']}, ")
    medal_line.append("tapped" if med["medal_tapped"] else "untapped")
    medal_line.append(")")
    if details:
        medal_line.append(f" [{medal['id']}, medarot {med['index']}]", style="dim")
    style = "grey50" if med["stopped"] else ("cyan" if med["action_medarot"] else "white")
    return Panel(Group(title, medal_line, table), border_style=style, box=box.ROUNDED, expand=False)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _proxy_side(view: dict[str, Any], p: int, details: bool) -> Panel:
    """An AMALOGS stand-in (amalogs D37, D40): one medarot with only a head; its armor left is its life."""
    proxy = view["board"].get("proxy") or {}
    med = view["board"]["sides"][p]["medarots"][0]
    head_part = med["parts"][0]
    name = str(proxy.get("name") or med["medal"]["name"])
    life = proxy.get("life", head_part["armor_left"])
    head = Text(f"The opponent: {name}", style="bold")
    if details:
        head.append(f" (seat {p})", style="dim")
    head.append(f"  life {life}", style="bold red" if life <= 2 else "bold")
    text = str(proxy.get("text", "")).removeprefix("Seat 1 is ")
    armor = Text(f"stand-in medarot, head only: armor {head_part['armor_left']}/{head_part['card']['armor']}")
    if head_part["counters"]:
        armor.append(f", {head_part['counters']} damage")
    if head_part["destroyed"]:
        armor.append(", destroyed", style="bold red")
    if med.get("defending"):
        armor.append(", defending", style="bold cyan")
    lines: list[RenderableType] = [head, armor]
    if text:
        lines.append(Text(_capital(text), style="dim"))
    lines.append(Text("No medal, legs, energy or cards; it never decides.", style="dim"))
    return Panel(Group(*lines), border_style="red", box=box.ROUNDED)


def _side(view: dict[str, Any], p: int, details: bool) -> Panel:
    seat = view["seat"]
    player = view["players"][p]
    side = view["board"]["sides"][p]
    mine = p == seat
    if not mine and any(m.get("proxy") for m in side.get("medarots", [])):
        return _proxy_side(view, p, details)
    head = Text("You" if mine else "The opponent", style="bold")
    if details:
        head.append(f" (seat {p})", style="dim")
    head.append(f"  assets {player['assets']} G")
    flags = []
    if player.get("has_priority"):
        flags.append("priority this turn")
    if player.get("first"):
        flags.append("first this round")
    if player.get("turn_to_act"):
        flags.append("turn to act")
    if flags:
        head.append("  " + ", ".join(flags), style="green")
    energy = Text("energy stock (untapped/all): ")
    energy.append(
        "  ".join(
            f"{word} {player['energy'][k]['untapped']}/{player['energy'][k]['total']}" for k, word in _ENERGY
        )
    )
    zones = Text(f"deck {player['deck_count']}   play area: {_pile(side['play_area'])}")
    trash = Text(f"trash ({len(side['trash'])}): {_pile(side['trash'])}")
    medarots = Group(*[_medarot(m, details) for m in side["medarots"]])
    if mine:
        hand = Table(box=box.SIMPLE, show_header=False, pad_edge=False, expand=False)
        hand.add_column("card", style="bold", no_wrap=True)
        hand.add_column("text")
        for c in player.get("hand", []):
            name = Text(c["name"])
            if details:
                name.append(f" [{c['id']}]", style="dim")
            hand.add_row(name, _rest(c))
        hand_part: RenderableType = Group(Text(f"your hand ({len(player.get('hand', []))}):"), hand)
        parts: list[RenderableType] = [head, medarots, energy, zones, trash, hand_part]
    else:
        backs = Text(f"hand: {player['hand_count']} cards ", style="")
        backs.append("[#] " * player["hand_count"], style="blue")
        parts = [head, backs, energy, zones, trash, medarots]
    return Panel(
        Group(*parts), border_style="blue" if mine else "red", box=box.HEAVY if mine else box.ROUNDED
    )


def _middle(view: dict[str, Any], details: bool) -> RenderableType:
    b = view["board"]
    seat = view["seat"]
    t = Text(f"Turn {view['turn']}", style="bold")
    if b.get("round"):
        t.append(f"  round {b['round']}")
    if b.get("turn_to_act", -1) >= 0:
        t.append("  your turn to act" if b["turn_to_act"] == seat else "  the opponent's turn to act")
    if view.get("done"):
        t.append("  the game is over", style="bold red")
    if details:
        t.append(
            f"  decision {view.get('decision')}, seat {view.get('to_move')} to move, passes {b.get('passes')}"
        )
    lines: list[RenderableType] = [t]
    if b.get("resolving"):
        lines.append(Text(str(b["resolving"]), style="cyan"))
    return Group(*lines)


def render(view: dict[str, Any], details: bool = False) -> RenderableType:
    """The board of ``view`` (``envs.medarot_parts.view``) as a rich renderable, the viewer at the bottom."""
    seat = view["seat"]
    others = [p for p in range(len(view["players"])) if p != seat]
    return Group(
        *[_side(view, p, details) for p in others], _middle(view, details), _side(view, seat, details)
    )

"""The per-seat view of a Medarot parts position (``envs.core.view``): what one seat may know, named.

``view(state, seat)`` holds the same information as the seat's observation
(``envs.medarot_parts.encode``), as plain JSON types. Besides the common top level (``turn`` is
the turn number; ``decision`` the decision point's name, e.g. ``"ACTION"``), it has:

``players[p]``
    ``assets`` (G), ``hand_count``, ``deck_count``, ``trash_count``, ``energy`` (per energy
    kind ``{"untapped": n, "total": n}``), ``action_medarot`` (index or None), ``has_priority``,
    ``first``, ``turn_to_act``; for the viewing seat only, ``hand``: its cards in canonical
    order (``HAND(h)`` is ``hand[h]``). The opponent's hand is only counted; no deck is listed.
``board``
    ``round``, ``priority``, ``first``, ``turn_to_act`` (seats, -1 none), ``passes``;
    ``sides[p]``: ``medarots`` (below), ``stock`` (energy cards with ``tapped``),
    ``play_area`` and ``trash`` (cards, open to both);
    ``battle``: None or ``{attacker, medarot, slot, part, damage, defender, response,
    protect_slot, protect_amount, no_evade, dealt}`` (``defender`` is the defending
    medarot of seat ``1 - attacker``, None before it is chosen);
    ``payment``: None or ``{payer, needed_ep, paid_ep, medal, efficient_kind}``;
    ``resolving``: what is being resolved now in words for the seat (None when nothing is);
    ``use``: None or the medaroter card or support part being used
    ``{player, card, source_slot, targets}`` (``source_slot`` None for a card from the hand;
    ``targets`` one ``{medarot, slot}`` per effect, None where not chosen or not needed).

A medarot is ``{index, medal, medal_tapped, stopped, action_medarot, mobility, attacking,
defending, parts}``; a part is ``{slot, card, tapped, destroyed, counters, armor_left,
power, charge, effect, attached, attack_part, protect_part}`` with the *current* power and
charge (modifiers applied; legs have neither) and ``effect`` / ``attached`` the cards on it.
A card is ``{id, name, type, ...}`` with the stats of its type (a part's slot, action,
attribute, armor, charge, power or mobility, price and abilities in words; a medal's attribute and
efficient value; an energy card's kind; a medaroter card's timing, cost, duration and effects
in words) and ``text``, its one-line description in plain English.

On an AMALOGS proxy table (amalogs D37, D40, D42) ``board.proxy`` is ``{kind, name, life,
armor, text}`` (``kind`` ``"guest"`` or ``"base"``; ``name`` the defender's stand-in or the
enemy base; ``life`` P; ``armor`` P0; ``text`` what it is, in words), and ``board.sides[1]``
has one medarot, the stand-in: ``proxy`` is its kind, ``medal`` a card-like
``{id: None, name, type: "MEDAL", attribute: None, efficient: None, text}``, ``mobility``
None, and its only part is the head, whose ``card`` is card-like (``id`` None, ``armor`` P0,
no action, power or charge) with ``armor_left`` P. ``board.proxy`` is None on other tables.
"""

from __future__ import annotations

from typing import Any

from deckgym.envs.core import proxy
from deckgym.envs.core.view import frame
from deckgym.envs.medarot_parts.cards import (
    ACTIONS,
    DURATIONS,
    ENERGY,
    ENERGY_KINDS,
    LEGS,
    MEDAL,
    MEDAROTER,
    PART,
    SLOTS,
    CardDef,
)
from deckgym.envs.medarot_parts.describe import resolving_text
from deckgym.envs.medarot_parts.rules.values import charge, mobility, power
from deckgym.envs.medarot_parts.state import Battle, GameState, Medarot
from deckgym.envs.medarot_parts.words import proxy_name

ENV = "medarot_parts_v1"
_RESPONSES = ("NOTHING", "EVADE", "PROTECT")


def card_view(c: CardDef) -> dict[str, Any]:
    """A card definition as ``{id, name, type, <stats of its type>, text}``."""
    out: dict[str, Any] = {"id": c.id, "name": c.name, "type": c.type}
    if c.type == PART:
        out["slot"] = SLOTS[c.slot]
        if c.slot == LEGS:
            out["mobility"] = c.mobility
        else:
            out.update(action=ACTIONS[c.action], charge=c.charge, power=c.power)
        out.update(
            attribute=c.attribute,
            armor=c.armor,
            price=c.price,
            effect_part=c.effect_part,
            abilities=[a.sentence() for a in c.abilities],
        )
    elif c.type == MEDAL:
        out.update(attribute=c.attribute, efficient=c.efficient)
    elif c.type == ENERGY:
        out["kind"] = ENERGY_KINDS[c.kind]
    elif c.type == MEDAROTER:
        out.update(
            timing=c.timing,
            cost=c.cost,
            duration=DURATIONS[c.duration],
            effects=[a.text() for a in c.abilities],
        )
    out["text"] = c.describe()
    return out


def view(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may know of ``state`` (see the module docs); ``ValueError`` for a bad seat."""
    st = state
    if not 0 <= seat < st.num_players:
        raise ValueError(f"seat must be in 0..{st.num_players - 1}, got {seat!r}")
    players = [_player(st, p, seat) for p in range(st.num_players)]
    board = {
        "round": st.round,
        "priority": st.priority,
        "first": st.first,
        "turn_to_act": st.to_act,
        "passes": st.passes,
        "sides": [_side(st, p) for p in range(st.num_players)],
        "battle": _battle(st, st.battle),
        "payment": _payment(st),
        "use": _use(st),
        "resolving": resolving_text(st, seat),
        "proxy": _proxy(st),
    }
    return frame(ENV, st, seat, turn=st.turn, decision=st.decision or None, players=players, board=board)


def _cards(st: GameState, ids: list[str]) -> list[dict[str, Any]]:
    return [card_view(st.cards[c]) for c in ids]


def _player(st: GameState, p: int, seat: int) -> dict[str, Any]:
    cards = st.cards
    energy = {}
    for k, name in enumerate(ENERGY_KINDS):
        rows = [t for c, t in st.stock[p] if cards[c].kind == k]
        energy[name] = {"untapped": sum(1 for t in rows if not t), "total": len(rows)}
    out: dict[str, Any] = {
        "seat": p,
        "you": p == seat,
        "assets": st.assets[p],
        "hand_count": len(st.hand[p]),
        "deck_count": len(st.deck[p]),
        "trash_count": len(st.trash[p]),
        "energy": energy,
        "action_medarot": st.action_medarot[p] if st.action_medarot[p] >= 0 else None,
        "has_priority": st.priority == p,
        "first": st.first == p,
        "turn_to_act": st.to_act == p,
    }
    if p == seat:
        out["hand"] = _cards(st, st.hand[p])
    return out


def _proxy(st: GameState) -> dict[str, Any] | None:
    """The proxy of an AMALOGS table (D37, D40), or None."""
    if not st.config.proxy:
        return None
    name = proxy_name(st)
    if st.config.proxy == proxy.BASE:
        text = (
            f"Seat 1 is {name}: a stand-in medarot with only a head of armor {st.proxy_armor}; its life is"
            f" {st.proxy_life}, and each attack on it that deals at least 1 damage costs it exactly 1"
        )
    else:
        text = (
            f"Seat 1 is {name}: a stand-in medarot with only a head of armor {st.proxy_armor}; its life is"
            f" {st.proxy_life}, and each attack on it costs it the damage dealt (the defender loses as much"
            " when the table ends)"
        )
    return {
        "kind": proxy.KINDS[st.config.proxy],
        "name": name,
        "life": st.proxy_life,
        "armor": st.proxy_armor,
        "text": text,
    }


def _proxy_medarot(st: GameState) -> dict[str, Any]:
    """The stand-in medarot of an AMALOGS proxy table: no medal, no legs, one head (D37, D42)."""
    b = st.battle
    defending = b is not None and b.attacker == 0 and b.defender == 0
    life = st.proxy_life
    name = proxy_name(st)
    head: dict[str, Any] = {
        "id": None,
        "name": "Stand-in Head",
        "type": PART,
        "slot": SLOTS[0],
        "action": None,
        "charge": None,
        "power": None,
        "attribute": None,
        "armor": st.proxy_armor,
        "price": 0,
        "effect_part": False,
        "abilities": [],
        "text": f"Stand-in Head: the only part of {name}; its remaining armor is the stand-in's life",
    }
    medal = {
        "id": None,
        "name": name[:1].upper() + name[1:],
        "type": MEDAL,
        "attribute": None,
        "efficient": None,
        "text": f"{name[:1].upper() + name[1:]}: no medal, legs, energy or cards; the host's attacks hit its head",
    }
    part = {
        "slot": SLOTS[0],
        "card": head,
        "tapped": False,
        "destroyed": life == 0,
        "counters": st.proxy_armor - life if life else 0,
        "armor_left": life,
        "power": None,
        "charge": None,
        "effect": None,
        "attached": [],
        "attack_part": False,
        "protect_part": False,
    }
    return {
        "index": 0,
        "proxy": proxy.KINDS[st.config.proxy],
        "medal": medal,
        "medal_tapped": False,
        "stopped": life == 0,
        "action_medarot": False,
        "mobility": None,
        "attacking": False,
        "defending": defending,
        "parts": [part],
    }


def _side(st: GameState, p: int) -> dict[str, Any]:
    proxy_seat = p == 1 and st.config.proxy
    return {
        "seat": p,
        "medarots": [_proxy_medarot(st)]
        if proxy_seat
        else [_medarot(st, p, m, med) for m, med in enumerate(st.field[p])],
        "stock": [{**card_view(st.cards[c]), "tapped": bool(t)} for c, t in st.stock[p]],
        "play_area": _cards(st, st.play[p]),
        "trash": _cards(st, st.trash[p]),
    }


def _medarot(st: GameState, p: int, m: int, med: Medarot) -> dict[str, Any]:
    b = st.battle
    attacking = b is not None and b.attacker == p and b.medarot == m
    defending = b is not None and b.attacker != p and b.defender == m
    parts = []
    for s, part in enumerate(med.parts):
        c = st.cards[part.card]
        arm = s != LEGS
        parts.append(
            {
                "slot": SLOTS[s],
                "card": card_view(c),
                "tapped": part.tapped,
                "destroyed": part.destroyed,
                "counters": part.counters,
                "armor_left": 0 if part.destroyed else c.armor - part.counters,
                "power": power(st, p, m, s) if arm else None,
                "charge": charge(st, p, m, s) if arm else None,
                "effect": None if part.effect is None else card_view(st.cards[part.effect]),
                "attached": _cards(st, part.attached),
                "attack_part": attacking and b is not None and b.slot == s,
                "protect_part": defending and b is not None and b.protect == s,
            }
        )
    return {
        "index": m,
        "medal": card_view(st.cards[med.medal]),
        "medal_tapped": med.medal_tapped,
        "stopped": med.stopped,
        "action_medarot": st.action_medarot[p] == m,
        "mobility": mobility(st, p, m),
        "attacking": attacking,
        "defending": defending,
        "parts": parts,
    }


def _battle(st: GameState, b: Battle | None) -> dict[str, Any] | None:
    if b is None:
        return None
    part = st.field[b.attacker][b.medarot].parts[b.slot]
    return {
        "attacker": b.attacker,
        "medarot": b.medarot,
        "slot": SLOTS[b.slot],
        "part": card_view(st.cards[part.card]),
        "damage": b.damage,
        "defender": b.defender if b.defender >= 0 else None,
        "response": _RESPONSES[b.response] if b.response >= 0 else None,
        "protect_slot": SLOTS[b.protect] if b.protect >= 0 else None,
        "protect_amount": b.amount,
        "no_evade": bool(b.no_evade),
        "dealt": b.dealt,
    }


def _payment(st: GameState) -> dict[str, Any] | None:
    pay = st.pay
    if pay is None:
        return None
    payer, needed, paid, mp, mi, kind = pay[:6]
    return {
        "payer": payer,
        "needed_ep": needed,
        "paid_ep": paid,
        "medal": {"seat": mp, "medarot": mi} if mp >= 0 else None,
        "efficient_kind": ENERGY_KINDS[kind] if 0 <= kind < len(ENERGY_KINDS) else None,
    }


def _use(st: GameState) -> dict[str, Any] | None:
    use = st.use
    if use is None:
        return None
    p, cid, source, targets = use
    return {
        "player": p,
        "card": card_view(st.cards[cid]),
        "source_slot": SLOTS[source] if source >= 0 else None,
        "targets": [
            {"medarot": m if m >= 0 else None, "slot": SLOTS[s] if s >= 0 else None} for m, s in targets
        ],
    }

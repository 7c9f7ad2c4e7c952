"""The per-seat view of a Medarot OCG position (``envs.core.view``): what one seat may know, named.

It holds the same information as the seat's observation vector (``encode.py``), hidden as
``render.py`` hides it for a viewer (spec section 7). Besides the common keys of ``frame``:

``players[p]``
    ``hp``, ``deck`` (count), ``hand_count``, ``hand`` (this seat only: its cards, in hand
    order), ``trash`` (public, oldest first), ``reserve`` (the MedaForce reserve, public; advance
    only), ``stock`` (3 slots: None, or ``{"slot", "face_up", "card", "charge", "in_use"}``; the
    other seat's face-down cards are ``{"slot", "face_up": false, "hidden": true}``), ``master``
    (same form; modes with masters, with ``master_used``), ``pending`` (a card between two
    decisions: named when public or own, else hidden), ``mulligans``, ``failed_draw``, ``first``.
    On an AMALOGS proxy table (D37, D42) seat 1 also has ``proxy`` (``"guest"`` or ``"base"``) and
    ``text``: it is a stand-in whose ``hp`` is its life P, with no cards and an empty row.
``board``
    ``mode``; ``layout`` (``count`` 15, ``width`` 5, ``height`` 3; a square is ``5 * row +
    column``, absolute for both seats: row 0 is seat 0's field, row 1 the neutral field, row 2
    seat 1's field; columns from seat 0's left);
    ``squares`` (15 entries, None or a Medarot: ``square``, ``owner``, ``face_up``, ``acted``,
    ``placed``, ``statuses``, and when the seat may see it ``card`` (the card whose values are
    used), ``base`` (under a MedaChange), ``transformed``, effective ``power`` / ``armor`` /
    ``speed``; another seat's face-down Medarot has ``"hidden": true`` instead);
    ``effects`` (lasting effects: op, amount, filter, owner, squares or scope, source, until);
    ``action`` (the Medarot acting now, its target and the flags of its action, or None);
    ``in_use`` (the Medaroter card being used, or None); ``count`` (the number a COUNT-style
    decision is about: cards to discard, most cards to draw, cost to split; else None).

A card is ``{"id", "name", "kind", ...}``: a Medarot or MedaChange adds ``type``, ``speed``,
``cost``, ``power``, ``armor``, ``arrows`` (owner-relative directions) and ``power_form``; a
Medaroter adds ``hp_mod``; both add ``effects`` (``timing``, ``op``, ``amount``, ``target``,
``type_filter``, ``cost``, ``trash`` and a readable ``text``).
"""

from __future__ import annotations

from typing import Any

from deckgym.envs.core.proxy import BASE
from deckgym.envs.core.proxy import KINDS as PROXY_KINDS
from deckgym.envs.core.view import frame
from deckgym.envs.medarot_ocg.cards import DIRECTIONS, MEDAROTER, CardDef, Effect
from deckgym.envs.medarot_ocg.encode import ACT_FLAG_NAMES, COUNT_DPS
from deckgym.envs.medarot_ocg.rules.board import eff_armor, eff_power, eff_speed
from deckgym.envs.medarot_ocg.state import Eff, GameState, Slot, Stack

ENV = "medarot_ocg_v1"
#: The master's slot number in ``Eff.src_slot`` and ``GameState.use``.
MASTER_SLOT = 3
_STATUS_OPS = ("DISABLE", "ROOT", "GUARD")
_LAYOUT = {
    "count": 15,
    "width": 5,
    "height": 3,
    "index": "5 * row + column (absolute, the same for both seats)",
    "rows": {"0": "seat 0's field", "1": "neutral field", "2": "seat 1's field"},
    "columns": "0-4 from seat 0's left (seat 1 sees them from its right)",
}
HIDDEN: dict[str, Any] = {"hidden": True}


def view(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may know of ``state``, as a JSON-safe dict (see the module docs).

    Raises:
        ValueError: ``seat`` is not a seat of the game.
    """
    if not 0 <= seat < state.num_players:
        raise ValueError(f"seat must be in 0..{state.num_players - 1}, got {seat!r}")
    players = [_player(state, p, seat) for p in range(state.num_players)]
    point = state.decision_point
    board = {
        "mode": state.config.mode,
        "layout": dict(_LAYOUT),
        "squares": [_square(state, s, seat) for s in range(15)],
        "effects": [_effect(state, e, seat) for e in state.effects],
        "action": _action(state),
        "in_use": _in_use(state, seat),
        "count": int(point[2][-1])
        if point is not None and not state.done and point[0] in COUNT_DPS
        else None,
    }
    return frame(
        ENV, state, seat, turn=state.turn, decision=state.decision or None, players=players, board=board
    )


# ----------------------------------------------------------------------------- cards
def effect_dict(e: Effect) -> dict[str, Any]:
    """One effect record of a card, named."""
    return {
        "timing": e.timing,
        "op": e.op,
        "amount": e.amount,
        "target": e.target.name,
        "type_filter": e.type_filter,
        "cost": e.cost,
        "trash": e.trash,
        "text": e.describe(),
    }


def card_dict(c: CardDef) -> dict[str, Any]:
    """A card with its printed values and effects."""
    out: dict[str, Any] = {"id": c.id, "name": c.name, "kind": c.kind}
    if c.kind == MEDAROTER:
        out["hp_mod"] = c.hp_mod
    else:
        out.update(
            type=c.type,
            speed=c.speed,
            cost=c.cost,
            power=c.power,
            armor=c.armor,
            arrows=[d for i, d in enumerate(DIRECTIONS) if c.arrows >> i & 1],
            power_form=c.power_form,
        )
    out["effects"] = [effect_dict(e) for e in c.effects]
    return out


def _card(state: GameState, cid: str) -> dict[str, Any]:
    return card_dict(state.cards[cid])


# ----------------------------------------------------------------------------- players
def _slot(state: GameState, slot: Slot | None, j: int, owner: int, seat: int) -> dict[str, Any] | None:
    """A stock slot (``j`` 0-2) or the master (``j`` = 3) as ``seat`` sees it."""
    if slot is None:
        return None
    use = state.use
    out: dict[str, Any] = {"slot": "master" if j == MASTER_SLOT else j, "face_up": slot.face_up}
    if slot.face_up or owner == seat:
        out["card"] = _card(state, slot.card)
    else:
        out.update(HIDDEN)
    out["charge"] = slot.charge
    out["in_use"] = use is not None and use[0] == owner and use[1] == j
    return out


def _player(state: GameState, p: int, seat: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": p,
        "you": p == seat,
        "first": state.first == p,
        "hp": state.hp[p],
        "deck": len(state.deck[p]),
        "hand_count": len(state.hand[p]),
    }
    if p == seat:
        out["hand"] = [_card(state, c) for c in state.hand[p]]
    out["trash"] = [_card(state, c) for c in state.trash[p]]
    if state.config.medaforce:
        out["reserve"] = [_card(state, c) for c in state.reserve[p]]
    out["stock"] = [_slot(state, s, j, p, seat) for j, s in enumerate(state.stock[p])]
    if state.config.master:
        out["master"] = _slot(state, state.master[p], MASTER_SLOT, p, seat)
        out["master_used"] = bool(state.master_used[p])
    lim = state.limbo[p]
    if lim is None:
        out["pending"] = None
    elif lim[1] or p == seat:
        out["pending"] = {"public": bool(lim[1]), "card": _card(state, lim[0])}
    else:
        out["pending"] = {"public": False, **HIDDEN}
    out["mulligans"] = state.mulligans[p]
    out["failed_draw"] = bool(state.failed_draw[p])
    if p == 1 and state.config.proxy:
        out["proxy"] = PROXY_KINDS[state.config.proxy]
        out["text"] = proxy_words(state)
    return out


def proxy_words(state: GameState) -> str:
    """Seat 1 of a proxy table in words (AMALOGS D37, D40, D42)."""
    if state.config.proxy == BASE:
        who, cost = "the enemy base", "each attack on its row with a hit of at least 1 costs it 1 life"
    else:
        who, cost = "the defender's stand-in", "an attack on its row costs it the power ÷ 10"
    return f"Seat 1 is {who} with {state.hp[1]} life (its HP): {cost}; it has no cards and never decides"


# ----------------------------------------------------------------------------- board
def _square_of(state: GameState, uid: int) -> int:
    for s, x in enumerate(state.board):
        if x is not None and x.uid == uid:
            return s
    return -1


def _statuses(state: GameState, x: Stack) -> list[str]:
    ops = {e.op for e in state.effects if e.targets is not None and x.uid in e.targets}
    return [op for op in _STATUS_OPS if op in ops]


def _square(state: GameState, s: int, seat: int) -> dict[str, Any] | None:
    x = state.board[s]
    if x is None:
        return None
    out: dict[str, Any] = {"square": s, "owner": x.owner, "face_up": x.face_up}
    if x.face_up or x.owner == seat:
        out["card"] = _card(state, x.top())
        out["base"] = _card(state, x.base) if x.change else None
        out["transformed"] = x.change is not None
        out.update(power=eff_power(state, x), armor=eff_armor(state, x), speed=eff_speed(state, x))
    else:
        out.update(HIDDEN)
    out.update(acted=x.acted, placed=x.placed, statuses=_statuses(state, x))
    return out


def _source(state: GameState, e: Eff) -> dict[str, Any]:
    """Where a lasting effect comes from: a Medarot's square or a player's Medaroter slot."""
    if e.src_uid >= 0:
        return {"square": _square_of(state, e.src_uid)}
    if e.src_slot < 0:
        return {"player": e.owner}
    p, j = divmod(e.src_slot, 4)
    slot = state.master[p] if j == MASTER_SLOT else state.stock[p][j]
    out: dict[str, Any] = {"player": p, "slot": "master" if j == MASTER_SLOT else j}
    # Name the card only while a face-up card with that op is there (as render.py does).
    if slot is not None and slot.face_up and any(fx.op == e.op for fx in state.cards[slot.card].effects):
        out["card"] = state.cards[slot.card].name
    return out


def _effect(state: GameState, e: Eff, seat: int) -> dict[str, Any]:
    return {
        "text": effect_words(state, e, seat),
        "op": e.op,
        "amount": e.amount,
        "type_filter": e.flt,
        "owner": e.owner,
        "squares": None if e.targets is None else [_square_of(state, u) for u in e.targets],
        "scope": e.scope if e.targets is None else None,
        "source": _source(state, e),
        "until": e.trash or None,
    }


_STAT = {"MOD_POWER": "power", "MOD_ARMOR": "armor", "MOD_SPEED": "speed"}
_UNTIL = {
    "AFTER_USE": "until the end of this action",
    "AFTER_DEFENCE": "until the end of this attack",
    "END_OF_TURN": "until the end of the turn",
}


def _unit_words(state: GameState, uid: int, seat: int) -> str:
    s = _square_of(state, uid)
    x = state.board[s] if s >= 0 else None
    if x is None:
        return "a Medarot that left the board"
    if x.face_up or x.owner == seat:
        return f"{state.cards[x.top()].name} (square {s})"
    return f"the face-down Medarot on square {s}"


def effect_words(state: GameState, e: Eff, seat: int) -> str:
    """A lasting effect in words for ``seat``: who it is on, what it does, until when, and its source."""
    mine = "your" if e.owner == seat else "the opponent's"
    if e.op == "TRAP":
        whose = "your" if e.scope == seat else "the opponent's"
        what = f"Trap: every attack on {whose} Medarots costs the attacker's owner {e.amount} HP"
    elif e.op == "DOT":
        who = "you pay" if e.owner != seat else "the opponent pays"
        when = "every end of turn" if e.src_uid >= 0 else "the end of the turn"
        what = f"Lasting attack: {who} {e.amount} HP at {when}"
    else:
        if e.targets is None:
            on = "your Medarots" if e.scope == seat else "the opponent's Medarots"
        else:
            on = ", ".join(_unit_words(state, u, seat) for u in e.targets) or "no Medarot"
        flt = "" if e.flt == "ANY" else f" (if {e.flt.lower()})"
        if e.op in _STAT:
            does = f"{e.amount:+d} {_STAT[e.op]}{flt}"
        else:
            does = {
                "GUARD": "guards the Medarots next to it",
                "DISABLE": "cannot act",
                "ROOT": "cannot move",
            }.get(e.op, e.op.replace("_", " ").lower())
        what = f"{on[:1].upper()}{on[1:]}: {does}"
    if e.src_uid >= 0:
        until = f"until {_unit_words(state, e.src_uid, seat)} acts again"
        src = ""
    else:
        until = _UNTIL.get(e.trash, "")
        source = _source(state, e)
        src = f" ({mine} {source['card']})" if "card" in source else f" ({mine} Medaroter card)"
    return f"{what}{', ' + until if until else ''}{src}"


def _action(state: GameState) -> dict[str, Any] | None:
    a = state.act
    if a is None or state.done:
        return None
    return {
        "player": a.owner,
        "square": _square_of(state, a.uid),
        "target": _square_of(state, a.target) if a.target >= 0 else None,
        **{k: bool(getattr(a, k)) for k in ACT_FLAG_NAMES},
    }


def _in_use(state: GameState, seat: int) -> dict[str, Any] | None:
    """The Medaroter card being used (from hand, stock or master), named when ``seat`` may see it."""
    use = state.use
    if use is None:
        return None
    p, j = use[0], use[1]
    out: dict[str, Any] = {"player": p, "slot": "master" if j == MASTER_SLOT else (j if j >= 0 else "hand")}
    cid: str | None = None
    if j >= 0:
        h = state.master[p] if j == MASTER_SLOT else state.stock[p][j]
        if h is not None and (h.face_up or p == seat):
            cid = h.card
    lim = state.limbo[p]
    if cid is None and lim is not None and (lim[1] or p == seat):
        cid = lim[0]
    out["card"] = None if cid is None else _card(state, cid)
    return out

"""The per-seat view of a Master of the World position (``envs.core.view``): what one seat may know.

It holds the same information as the seat's observation vector (``envs.mow.encode``), named:

``turn`` / ``decision`` / ``to_move``
    the turn number, the decision point's name (``"MAIN"``...) and the seat that decides.
``players[p]``
    ``seat``, ``you``, ``vacant`` (an empty seat of the AMALOGS table holds nothing else),
    ``proxy`` (only at the proxy of an AMALOGS table, amalogs D42: ``"guest"`` or ``"base"``;
    its master is named ``the defender's stand-in`` or ``the enemy base``, with ``id`` None,
    life P, attack and guard 0, level 0, and every zone empty);
    ``master`` (id, name, level, max level, experience count, attack, guard, attacked, text);
    ``life``, ``level``, ``experience``, ``deck``, ``hand_count``, ``discard_count``,
    ``charge_limit``, ``fast_used`` and ``turn_uses`` (ターンn counts: card, name, ability, uses).
    For this seat only: ``hand`` (cards in hand order) and ``deck_contents`` (the remaining
    deck as sorted ``{id, name, count}``: its order is hidden).
``board``
    ``phase`` (start, draw, charge, main, attack, end), ``active``, ``first``, ``charges`` (made
    this charge phase); ``sides[p]``: ``monsters`` (position, uid, card, attack, toughness,
    max toughness, damage, sick, attacked, entered), ``weapon`` (card, uid), ``spell`` (own: the
    card; the opponent's: ``{"hidden": true}``; both with ``cast_turn`` and ``ready``),
    ``discard`` and ``experience`` (cards, in order); ``using`` (a card set aside while its use's
    costs are paid); ``chain`` (bottom first: user, use, card or ``{"hidden": true}`` for the
    opponent's cast, negated); ``pending`` (at an effect decision: the source card, the
    primitive, its English ``effect`` text and the amount left; at a cost decision: the cost, the
    amount left and the cost in words, ``text``).
``events``
    the tail of the (public) event log.

A card is ``{"id", "name", "kind", "class", <stats>, "condition", "text"}``: stats are attack and
toughness for a monster, attack and guard for a weapon, fast / counter / turn limit for a spell.
Nothing depends on the opponent's hand, deck order, face-down spell or cast chain entry, nor on
the own deck order: ``view(state, seat)`` is unchanged by ``state.resample_hidden(seat, rng)``.
"""

from __future__ import annotations

from typing import Any

from deckgym.envs.core import proxy
from deckgym.envs.core.view import frame
from deckgym.envs.mow.actions import DP, Phase, Use
from deckgym.envs.mow.card_defs import CONDITION_WORDS
from deckgym.envs.mow.cards import MONSTER, SPELL, WEAPON, CardDef
from deckgym.envs.mow.rules.values import (
    charge_limit,
    master_attack,
    master_guard,
    max_toughness,
    monster_attack,
    sick,
)
from deckgym.envs.mow.state import GameState

ENV = "mow_v1"
HIDDEN: dict[str, Any] = {"hidden": True}
#: Decision points whose context is an effect being resolved (as in the observation's ``pending``).
_EFFECT_DPS = (DP.EFFECT_TARGET, DP.EFFECT_DISCARD, DP.EXP_FROM_HAND, DP.SEARCH_CHOICE, DP.RECOVER_CHOICE)
_COST_DPS = (DP.COST_DISCARD, DP.COST_SACRIFICE)


def card(st: GameState, cid: str) -> dict[str, Any]:
    """A card by id: name, kind, class, printed stats, condition and a text summary."""
    c: CardDef = st.cards[cid]
    out: dict[str, Any] = {"id": c.id, "name": c.name, "kind": c.kind.lower(), "class": c.cls.lower()}
    if c.kind == MONSTER:
        out.update(attack=c.attack, toughness=c.toughness)
    elif c.kind == WEAPON:
        out.update(attack=c.attack, guard=c.guard)
    elif c.kind == SPELL:
        out.update(fast=c.fast, counter=c.counter, turn_limit=c.turn_limit)
    out["condition"] = {code: n for code, n in c.condition}
    out["text"] = c.describe()
    return out


def _master(st: GameState, p: int) -> dict[str, Any]:
    m = st.cards[st.masters[p]]
    return {
        "id": m.id,
        "name": m.name,
        "level": st.level[p],
        "max_level": m.max_level,
        "experience": len(st.exp[p]),
        "attack": master_attack(st, p),
        "guard": master_guard(st, p),
        "attacked": bool(st.master_attacked[p]),
        "text": m.describe(),
    }


def _turn_uses(st: GameState, p: int) -> list[dict[str, Any]]:
    out = []
    for key, n in sorted(st.turn_uses[p].items()):
        cid, _, i = key.partition("/")
        out.append({"card": cid, "name": st.name(cid), "ability": int(i), "uses": int(n)})
    return out


def _deck_contents(st: GameState, p: int) -> list[dict[str, Any]]:
    counts: dict[str, int] = {}
    for cid in st.deck[p]:
        counts[cid] = counts.get(cid, 0) + 1
    return [{"id": cid, "name": st.name(cid), "count": n} for cid, n in sorted(counts.items())]


def _proxy_master(st: GameState) -> dict[str, Any]:
    """The proxy master of an AMALOGS table (amalogs D37, D42): no card, attack and guard 0."""
    if st.config.proxy == proxy.BASE:
        text = "The enemy team's base: each attack on it that deals at least 1 damage costs it 1 life."
    else:
        text = (
            "The defender's stand-in: attacks and effects that damage the opponent's master lower "
            "its life; the defender loses as much when the table ends."
        )
    return {
        "id": None,
        "name": st.stand_in(),
        "level": 0,
        "max_level": 0,
        "experience": 0,
        "attack": 0,
        "guard": 0,
        "attacked": False,
        "text": text,
    }


def _player(st: GameState, p: int, seat: int) -> dict[str, Any]:
    if st.is_proxy(p):
        return {
            "seat": p,
            "you": p == seat,
            "vacant": False,
            "proxy": proxy.KINDS[st.config.proxy],
            "master": _proxy_master(st),
            "life": st.life[p],
            "level": 0,
            "experience": 0,
            "deck": 0,
            "hand_count": 0,
            "discard_count": 0,
            "charge_limit": 0,
            "fast_used": False,
            "turn_uses": [],
        }
    if p not in st.seats() or not st.masters[p]:
        return {"seat": p, "you": p == seat, "vacant": True}
    out: dict[str, Any] = {
        "seat": p,
        "you": p == seat,
        "vacant": False,
        "master": _master(st, p),
        "life": st.life[p],
        "level": st.level[p],
        "experience": len(st.exp[p]),
        "deck": len(st.deck[p]),
        "hand_count": len(st.hand[p]),
        "discard_count": len(st.discard[p]),
        "charge_limit": charge_limit(st, p),
        "fast_used": bool(st.fast_used[p]),
        "turn_uses": _turn_uses(st, p),
    }
    if p == seat:
        out["hand"] = [card(st, cid) for cid in st.hand[p]]
        out["deck_contents"] = _deck_contents(st, p)
    return out


def _side(st: GameState, p: int, seat: int) -> dict[str, Any]:
    if st.is_proxy(p):
        return {
            "seat": p,
            "vacant": False,
            "monsters": [],
            "weapon": None,
            "spell": None,
            "discard": [],
            "experience": [],
        }
    if p not in st.seats() or not st.masters[p]:
        return {"seat": p, "vacant": True}
    monsters = []
    for i, m in enumerate(st.monsters[p]):
        mt = max_toughness(st, p, m)
        monsters.append(
            {
                "position": i,
                "uid": m.uid,
                "card": card(st, m.card),
                "attack": monster_attack(st, p, m),
                "toughness": mt - m.damage,
                "max_toughness": mt,
                "damage": m.damage,
                "sick": bool(sick(st, m)),
                "attacked": bool(m.attacked),
                "entered": m.entered,
            }
        )
    w = st.weapon[p]
    weapon = None if w is None else {"uid": w[1], "card": card(st, w[0])}
    s = st.spell[p]
    spell = None
    if s is not None:
        spell = {
            "uid": s[2],
            "card": card(st, s[0]) if p == seat else dict(HIDDEN),
            "cast_turn": s[1],
            "ready": st.turn > s[1],
        }
    return {
        "seat": p,
        "vacant": False,
        "monsters": monsters,
        "weapon": weapon,
        "spell": spell,
        "discard": [card(st, cid) for cid in st.discard[p]],
        "experience": [card(st, cid) for cid in st.exp[p]],
    }


def _chain(st: GameState, seat: int) -> list[dict[str, Any]]:
    out = []
    for user, kind, cid, _uid, negated, _here, _ai in st.chain:
        hide = kind == Use.CAST and user != seat
        out.append(
            {
                "user": user,
                "use": Use(kind).name.lower(),
                "card": dict(HIDDEN) if hide else card(st, cid),
                "negated": bool(negated),
            }
        )
    return out


def _pending(st: GameState) -> dict[str, Any] | None:
    if st.done or st.decision_point is None or st.pending is None:
        return None
    dp = st.decision_point[0]
    if dp in _COST_DPS:
        _, p, code, n = st.pending
        return {"kind": "cost", "player": p, "cost": code, "left": n, "text": CONDITION_WORDS[code](n)}
    if dp not in _EFFECT_DPS:
        return None
    f = st.pending[1]
    e = st.cards[f[1]].effect_list(f[2])[f[3]]
    left = st.pending[3] if st.pending[0] == "unit" else max(e.amount, 0)
    return {
        "kind": "effect",
        "controller": f[0],
        "source": card(st, f[1]),
        "op": e.op,
        "effect": e.describe(),
        "left": left,
    }


def view(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may know of ``state``, as a JSON-safe dict (see the module docs)."""
    st = state
    if not 0 <= seat < st.num_players:
        raise ValueError(f"seat must be in 0..{st.num_players - 1}, got {seat!r}")
    using = [{"player": p, "card": card(st, cid)} for p, cid in enumerate(st.setaside) if cid is not None]
    board = {
        "phase": Phase(st.phase).name.lower(),
        "active": st.active,
        "first": st.first,
        "charges": st.charges,
        "sides": [_side(st, p, seat) for p in range(st.num_players)],
        "using": using,
        "chain": _chain(st, seat),
        "pending": _pending(st),
    }
    players = [_player(st, p, seat) for p in range(st.num_players)]
    return frame(ENV, st, seat, turn=st.turn, decision=st.decision or None, players=players, board=board)

"""Moves of the Medarot OCG in words (``envs.core.describe``): sentences and board places.

``describe_action(state, seat, index)`` turns an action index (the encoder's, as in the action
mask) into a plain-English sentence and the places of the board it concerns;
``decision_text(state, seat)`` words the decision now open; ``card_names(state)`` maps card
ids to names. ``seat`` is the reader: a move of the other seat is told as ``seat`` may know
it (a card from that seat's hand or a face-down card is never named).

Sentences of the deciding seat are orders ("Set Field Wrench face down in stock slot 1",
"Pay 1 HP to draw 2 cards"); a move of the other seat is told in the third person ("The
opponent sets a card face down in stock slot 2"). A Medarot is its name and square
("Hailgunner (square 6)"), squares numbered as in the view (``5 * row + column``, 0-14,
the same for both seats); directions are seen from the Medarot's owner (forward is toward the
enemy). Stock slots are numbered 1-3 in sentences.

**Places** (``envs.core.describe.place``; the board drawings tag the same keys):

``square`` (player None, index 0-14)
    a square of the shared 3x5 board.
``hand`` (player, index)
    a card of that player's hand, by position (the other seat's cards are drawn as backs).
``stock`` (player, index 0-2)
    a stock slot.
``master`` (player, index None)
    the master slot (normal and advance).
``deck`` (player, index None)
    the deck (draws).
``reserve`` (player, index None)
    the MedaForce reserve (advance: paying costs with it).
``trash`` (player, index None)
    the trash (drawn on the boards; no move names it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from deckgym.envs.core.describe import Described, described, ordinal_list, place
from deckgym.envs.medarot_ocg.actions import DP, Action, Kind
from deckgym.envs.medarot_ocg.cards import DIRECTION_WORDS, CardDef, Effect, effect_action
from deckgym.envs.medarot_ocg.encode_actions import ActionCodec
from deckgym.envs.medarot_ocg.rules.board import (
    NEIGHBOUR,
    attack_targets,
    eff_armor,
    eff_power,
    proxy_targets,
    square_of,
)
from deckgym.envs.medarot_ocg.rules.flow import PROXY_NAMES
from deckgym.envs.medarot_ocg.rules.medaroter import (
    FROM_HAND,
    FROM_MASTER,
    FROM_STOCK,
    MASTER_SLOT,
    cost_of,
    free_slot,
    usable_effects,
)
from deckgym.envs.medarot_ocg.state import GameState, Stack

_CODEC = ActionCodec()
_SUPPORT, _DEFENCE = 0, 1


def card_names(state: GameState) -> dict[str, str]:
    """Card id -> card name for every card of the state's pool."""
    return {cid: c.name for cid, c in state.cards.items()}


# ----------------------------------------------------------------------------- small words
def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _slot_no(j: int) -> str:
    return f"stock slot {j + 1}"


def _unit(state: GameState, s: int, reader: int) -> str:
    """The Medarot on square ``s`` as ``reader`` may name it."""
    x = state.board[s] if 0 <= s < 15 else None
    if x is None:
        return f"square {s}"
    if x.face_up or x.owner == reader:
        return f"{state.cards[x.top()].name} (square {s})"
    return f"the face-down Medarot on square {s}"


def _acting(state: GameState) -> tuple[int, Stack | None]:
    act = state.act
    if act is None:
        return -1, None
    s = square_of(state, act.uid)
    return s, (state.board[s] if s >= 0 else None)


def _hand_name(state: GameState, p: int, i: int) -> str:
    hand = state.hand[p]
    return state.cards[hand[i]].name if 0 <= i < len(hand) else "a card"


def _hand_tag(state: GameState, p: int, i: int) -> str:
    """`` (hand card 3)`` when another card of that name is in the hand, so options differ."""
    hand = state.hand[p]
    if not 0 <= i < len(hand):
        return ""
    name = state.cards[hand[i]].name
    if sum(1 for c in hand if state.cards[c].name == name) > 1:
        return f" (hand card {i + 1})"
    return ""


def _holder_card(state: GameState, p: int, j: int) -> tuple[CardDef | None, bool]:
    """The card in stock slot ``j`` (or the master for ``j`` 3) and whether it is face up."""
    h = state.master[p] if j == MASTER_SLOT else state.stock[p][j]
    if h is None:
        return None, False
    return state.cards[h.card], h.face_up


def _limbo_name(state: GameState, p: int, reader: int) -> str | None:
    lim = state.limbo[p]
    if lim is None or not (lim[1] or p == reader):
        return None
    return state.cards[lim[0]].name


def _effects_words(state: GameState, card: CardDef, idx: list[int], own: bool = True) -> str:
    """The usable effects ``idx`` of ``card``: its cost and (for its user) what it does.

    The effect's clause speaks to its user ("all your Medarots"), so the other seat reads the
    card's name and cost only (its tooltip has the effect).
    """
    if len(idx) != 1:
        return f"{card.name} (then choose one of its two effects)"
    e = card.effects[idx[0]]
    c = cost_of(state, e)
    if not own:
        return f"{card.name} (cost {c} HP)" if c else card.name
    cost = f", cost {c} HP" if c else ""
    return f"{card.name}{cost}: {effect_action(e)}"


# ----------------------------------------------------------------------------- describe
def describe_action(state: GameState, seat: int, index: int) -> Described:
    """Action ``index`` at ``state`` as a sentence and its board places, as ``seat`` may know it."""
    p = state.current_player
    if state.done or p < 0:
        return described("No move: the game is over")
    a = _CODEC.index_to_action(int(index), state)
    if a not in state.legal_actions():
        return described(f"Not possible now (option {int(index)})")
    text, places = _sentence(state, p, a, seat)
    return described(text, *places)


class _M(NamedTuple):
    """One action to describe, with what its sentence needs."""

    state: GameState
    p: int
    a: Action
    reader: int
    own: bool
    ctx: tuple[int, ...]
    s: int
    x: Stack | None
    actor: str
    whose: str


_OPP = "The opponent"


def _sentence(state: GameState, p: int, a: Action, reader: int) -> tuple[str, list[Any]]:
    """(sentence, places) of action ``a`` of player ``p`` for ``reader``."""
    assert state.decision_point is not None
    dp = DP(state.decision_point[0])
    own = p == reader
    s, x = _acting(state)
    actor = _unit(state, s, reader) if x is not None else "the acting Medarot"
    m = _M(
        state,
        p,
        a,
        reader,
        own,
        tuple(state.decision_point[2]),
        s,
        x,
        actor,
        "" if own else "the opponent's ",
    )
    if a.kind == Kind.SET:
        return _set(m)
    return _HANDLERS[dp](m)


def _own_name(m: _M) -> str:
    return _hand_name(m.state, m.p, m.a.arg) + _hand_tag(m.state, m.p, m.a.arg)


def _hand_place(m: _M) -> list[Any]:
    return [place("card", "hand", m.a.arg, m.p)]


def _master_select(m: _M) -> tuple[str, list[Any]]:
    if m.own:
        return f"Make {_own_name(m)} your master (face down until the game starts)", _hand_place(m)
    return f"{_OPP} sets a card from its hand face down as its master", _hand_place(m)


def _set(m: _M) -> tuple[str, list[Any]]:
    j = free_slot(m.state, m.p)
    places = _hand_place(m)
    if j >= 0:
        places.append(place("to", "stock", j, m.p))
    if m.own:
        where = _slot_no(j) if j >= 0 else "the stock (it is full: you then trash one of its cards)"
        return f"Set {_own_name(m)} face down in {where}", places
    where = _slot_no(j) if j >= 0 else "its full stock"
    return f"{_OPP} sets a card from its hand face down in {where}", places


def _opening_stock(m: _M) -> tuple[str, list[Any]]:
    return ("Finish setting stock cards" if m.own else f"{_OPP} finishes setting stock cards"), []


def _draw_stock(m: _M) -> tuple[str, list[Any]]:
    if m.own:
        return "Keep the Medaroters you drew in your hand", []
    return f"{_OPP} keeps the Medaroters it drew in its hand", []


def _place_card(m: _M) -> tuple[str, list[Any]]:
    if m.own:
        return f"Place {_own_name(m)} on your field", _hand_place(m)
    return f"{_OPP} chooses a Medarot from its hand to place", _hand_place(m)


def _place_square(m: _M) -> tuple[str, list[Any]]:
    name = _limbo_name(m.state, m.p, m.reader) or "a Medarot"
    sub = DP(m.state.decision_point[0]) == DP.SUB_SQUARE if m.state.decision_point is not None else False
    what = f"the substitute {name}" if sub and m.own else name
    verb = "Place" if m.own else f"{_OPP} places"
    return f"{verb} {what} face down on square {m.a.arg}", [place("to", "square", m.a.arg)]


def _draw(m: _M) -> tuple[str, list[Any]]:
    """How many cards to draw: OPT_DRAW extra cards at 1 HP each, or a free DESTROY_DRAW / EFFECT_DRAW."""
    n = m.a.arg
    paid = m.state.decision_point is not None and DP(m.state.decision_point[0]) == DP.OPT_DRAW
    if n == 0:
        what = "no extra cards" if paid else "no cards"
        return (f"Draw {what}" if m.own else f"{_OPP} draws {what}"), []
    if paid:
        text = ("Pay" if m.own else f"{_OPP} pays") + f" 1 HP to draw {_cards(n)}"
    else:
        text = ("Draw" if m.own else f"{_OPP} draws") + f" {_cards(n)}"
    return text, [place("card", "deck", None, m.p)]


def _late_master(m: _M) -> tuple[str, list[Any]]:
    if m.own:
        return f"Make {_own_name(m)} your master (face up; its HP change applies now)", _hand_place(m)
    return f"{_OPP} makes one of the Medaroters it drew its master", _hand_place(m)


_WHY_DISCARD = {
    DP.HAND_LIMIT: "for the hand limit of 7",
    DP.WEAK_DISCARD: "for the weak attack",
    DP.EFFECT_DISCARD: "for the effect",
}


def _discard(m: _M) -> tuple[str, list[Any]]:
    assert m.state.decision_point is not None
    why = _WHY_DISCARD[DP(m.state.decision_point[0])]
    if m.own:
        return f"Discard {_own_name(m)} {why}", _hand_place(m)
    return f"{_OPP} discards a card from its hand {why}", _hand_place(m)


def _tie_break(m: _M) -> tuple[str, list[Any]]:
    return f"{m.whose}{_unit(m.state, m.a.arg, m.reader)} acts first", [place("card", "square", m.a.arg)]


def _stock_trash(m: _M) -> tuple[str, list[Any]]:
    j = m.a.arg
    card, up = _holder_card(m.state, m.p, j)
    new = _limbo_name(m.state, m.p, m.reader)
    room = f" to make room for {new}" if new else " to make room"
    places = [place("card", "stock", j, m.p)]
    if (m.own or up) and card is not None:
        verb = "Trash" if m.own else f"{_OPP} trashes"
        return f"{verb} {card.name} from {_slot_no(j)}{room}", places
    return f"{_OPP} trashes the face-down card in its {_slot_no(j)}{room}", places


def _sub_card(m: _M) -> tuple[str, list[Any]]:
    places = _hand_place(m)
    if m.s >= 0 and m.s // 5 != 1:
        places.append(place("to", "square", m.s))
    if m.own:
        return f"Put {_own_name(m)} in face down as the substitute", places
    return f"{_OPP} chooses a Medarot from its hand as the substitute", places


def _effect_choice(m: _M) -> tuple[str, list[Any]]:
    st = m.state
    card = _holder_card(st, m.p, st.use[1])[0] if st.use is not None else None
    arg = m.a.arg
    if card is None or arg >= len(card.effects):
        return f"Use effect {arg + 1}", []
    e = card.effects[arg]
    c = cost_of(st, e)
    cost = f" (cost {c} HP)" if c else ""
    nth = ("first", "second")[arg] if arg < 2 else f"number {arg + 1}"
    if not m.own:
        return f"{_OPP} uses the {nth} effect of {card.name}{cost}", _use_place(st, m.p)
    return f"Use the {nth} effect of {card.name}{cost}: {effect_action(e)}", _use_place(st, m.p)


def _pay_split(m: _M) -> tuple[str, list[Any]]:
    c = m.ctx[1] if len(m.ctx) > 1 else 0
    k = m.a.arg
    hp = c - k
    verb, own = ("Pay", "your") if m.own else (f"{_OPP} pays", "its")
    if k == 0:
        return f"{verb} the cost of {c} with {hp} HP", []
    tail = f" and {hp} HP" if hp else ""
    text = f"{verb} the cost of {c} with {_cards(k)} of {own} MedaForce reserve{tail}"
    return text, [place("card", "reserve", None, m.p)]


def _use_place(state: GameState, p: int) -> list[Any]:
    if state.use is None:
        return []
    j = state.use[1]
    if j == MASTER_SLOT:
        return [place("card", "master", None, p)]
    return [place("card", "stock", j, p)] if j >= 0 else []


def _action_start(
    state: GameState, p: int, a: Action, reader: int, s: int, x: Stack | None, actor: str
) -> tuple[str, list[Any]]:
    own = p == reader
    opp = "The opponent"
    here = [place("card", "square", s)] if s >= 0 else []
    if a.kind == Kind.PASS:
        power = x is not None and state.cards[x.top()].power_form
        cost = " (its power form costs 1 HP)" if power else ""
        if own:
            return f"Go on with the action of {actor}{cost}", []
        return f"{opp} goes on with the action of {actor}{cost}", []
    if a.kind == Kind.SUBSTITUTE:
        if own:
            return f"Substitute {actor}: trash it and put a Medarot from your hand in its place", here
        return f"{opp} substitutes {actor} with a Medarot from its hand", here
    if a.kind == Kind.RELEASE:
        if own:
            return f"Release the MedaChange of {actor} (the MedaChange card goes to the trash)", here
        return f"{opp} releases the MedaChange of {actor}", here
    if a.kind == Kind.HAND:
        card = state.cards[state.hand[p][a.arg]] if a.arg < len(state.hand[p]) else None
        places = [place("card", "hand", a.arg, p), *([place("to", "square", s)] if s >= 0 else [])]
        if own and card is not None:
            form = " into its power form (1 HP each action)" if card.power_form else ""
            tag = _hand_tag(state, p, a.arg)
            stats = f"{card.power} power, {card.armor} armor, speed {card.speed}"
            return f"MedaChange {actor}{form} with the card from your hand{tag} ({stats})", places
        return f"{opp} MedaChanges {actor} with a card from its hand", places
    return f"Option {a.arg}", []


def _move(
    state: GameState, p: int, a: Action, dp: DP, s: int, actor: str, whose: str, own: bool
) -> tuple[str, list[Any]]:
    opp = _OPP
    if a.kind == Kind.PASS:
        if dp == DP.MOVE_BEFORE:
            return ("Don't move yet" if own else f"{opp} does not move {actor} yet"), []
        act = state.act
        free = act is not None and act.cancel_penalty
        cost = "" if free else " (it did not move: pay 1 HP)"
        return (f"Leave {actor} where it is{cost}" if own else f"{opp} leaves {actor} where it is{cost}"), []
    t = NEIGHBOUR[p][s][a.arg] if s >= 0 else -1
    text = f"{whose}{actor} moves {DIRECTION_WORDS[a.arg]} to square {t}"
    return text, [place("from", "square", s), place("to", "square", t)]


def _window(state: GameState, p: int, a: Action, dp: DP, reader: int, own: bool) -> tuple[str, list[Any]]:
    """A card use in the support (acting player) or defence (attacked player) window."""
    opp = "The opponent"
    window = _SUPPORT if dp == DP.SUPPORT else _DEFENCE
    k, arg = a.kind, a.arg
    if k == Kind.PASS:
        if dp == DP.SUPPORT:
            return ("Use no more cards and go on" if own else f"{opp} uses no more cards"), []
        return ("Use no defence and take the attack" if own else f"{opp} uses no defence"), []
    if k == Kind.SQUARE:
        unit = _unit(state, arg, reader)
        verb = "Turn" if own else f"{opp} turns"
        return f"{verb} the attack onto the guard {unit}", [place("target", "square", arg)]
    if k == Kind.HAND:
        places = [place("card", "hand", arg, p)]
        if not own:
            return f"{opp} uses a card from its hand", places
        card = state.cards[state.hand[p][arg]]
        idx = usable_effects(state, card, p, window, FROM_HAND)
        return f"Use {_effects_words(state, card, idx)} (from your hand{_hand_tag(state, p, arg)})", places
    j = MASTER_SLOT if k == Kind.MASTER else arg
    held, up = _holder_card(state, p, j)
    where = "your master" if j == MASTER_SLOT else f"your {_slot_no(j)}"
    places = [place("card", "master", None, p)] if j == MASTER_SLOT else [place("card", "stock", j, p)]
    h = state.master[p] if j == MASTER_SLOT else state.stock[p][j]
    if dp == DP.DEFENCE and h is not None and h.face_up and h.charge > 0 and held is not None:
        if own:
            return f"Spend the negate charge stored on {held.name} ({where}) to negate the attack", places
        return f"{opp} spends the negate charge stored on {held.name} to negate the attack", places
    if held is None:
        return f"Use {where}", places
    if not own and not up:
        return f"{opp} uses the face-down card in its {_slot_no(j)}", places
    source = FROM_MASTER if j == MASTER_SLOT else FROM_STOCK
    idx = usable_effects(state, held, p, window, source)
    if own:
        return f"Use {_effects_words(state, held, idx)} ({where})", places
    return f"{opp} uses {_effects_words(state, held, idx, own=False)}", places


def _target_effect(state: GameState) -> tuple[Effect | None, str]:
    """The effect waiting for a target, and the name of its card."""
    if state.use is not None:
        p, j, _, e, _ = state.use
        card, _up = _holder_card(state, p, j)
        if card is None or e < 0:
            return None, "the card"
        return card.effects[e], card.name
    _s, x = _acting(state)
    if x is None:
        return None, "the Medarot"
    card = state.cards[x.top()]
    return (card.effects[0] if card.effects else None), card.name


def _effect_target(state: GameState, p: int, a: Action, reader: int, own: bool) -> tuple[str, list[Any]]:
    e, source = _target_effect(state)
    opp = "The opponent"
    if a.kind == Kind.OPP_STOCK:
        q = 1 - p
        card, up = _holder_card(state, q, a.arg)
        places = [place("target", "stock", a.arg, q)]
        if own:
            what = card.name if card is not None and up else "the face-down card"
            return f"Trash {what} from the opponent's {_slot_no(a.arg)} ({source})", places
        what = card.name if card is not None and (up or q == reader) else "the face-down card"
        return f"{opp} trashes {what} from your {_slot_no(a.arg)} ({source})", places
    unit = _unit(state, a.arg, reader)
    places = [place("target", "square", a.arg)]
    op = e.op if e is not None else ""
    stat = {"MOD_POWER": "power", "MOD_ARMOR": "armor", "MOD_SPEED": "speed"}.get(op)
    if stat is not None and e is not None:
        clause = f"give {unit} {e.amount:+d} {stat}"
    elif op == "DISABLE":
        clause = f"stop {unit} from acting"
    elif op == "ROOT":
        clause = f"stop {unit} from moving"
    elif op == "GUARD":
        clause = f"make {unit} a guard"
    else:
        clause = f"aim the effect at {unit}"
    if own:
        return f"{clause[:1].upper()}{clause[1:]} ({source})", places
    return f"{opp} chooses to {clause} ({source})", places


def _declare(
    state: GameState,
    a: Action,
    reader: int,
    s: int,
    x: Stack | None,
    actor: str,
    whose: str,
    own: bool,
) -> tuple[str, list[Any]]:
    opp = "The opponent"
    card = state.cards[x.top()] if x is not None else None
    if a.kind == Kind.PASS:
        if card is not None and card.type == "SPECIAL":
            return (
                f"Don't use the special effect of {actor}"
                if own
                else f"{opp} does not use the special effect of {actor}"
            ), []
        return (f"Don't attack with {actor}" if own else f"{opp} does not attack with {actor}"), []
    here = [place("card", "square", s)] if s >= 0 else []
    if a.kind == Kind.SPECIAL:
        if own and card is not None and card.effects:
            return f"{actor} uses its special effect: {effect_action(card.effects[0])}", here
        return f"{whose}{actor} uses its special effect", here
    t = a.arg
    far = dict(attack_targets(state, s) + proxy_targets(state, s)).get(t, False) if s >= 0 else False
    act = state.act
    extra = []
    if far:
        free = act is not None and act.free_far
        extra.append("a melee attack 2 squares ahead, " + ("free this action" if free else "costs 1 HP"))
    y = state.board[t]
    if x is not None and y is not None and (y.face_up or y.owner == reader):
        extra.append(f"power {eff_power(state, x)} against armor {eff_armor(state, y)}")
    target = _unit(state, t, reader)
    if y is None and state.config.proxy:  # AMALOGS D37, D40: the proxy's open row
        target = f"{PROXY_NAMES[state.config.proxy]} on square {t}"
        if x is not None:
            extra.append(f"hit {eff_power(state, x) // 10}: power {eff_power(state, x)} ÷ 10")
    tail = f" ({'; '.join(extra)})" if extra else ""
    text = f"{whose}{actor} attacks {target}{tail}"
    return text, [*here, place("target", "square", t)]


_HANDLERS: dict[DP, Callable[[_M], tuple[str, list[Any]]]] = {
    DP.MASTER_SELECT: _master_select,
    DP.OPENING_STOCK: _opening_stock,
    DP.PLACE_CARD: _place_card,
    DP.PLACE_SQUARE: _place_square,
    DP.OPT_DRAW: _draw,
    DP.LATE_MASTER: _late_master,
    DP.HAND_LIMIT: _discard,
    DP.TIE_BREAK: _tie_break,
    DP.ACTION_START: lambda m: _action_start(m.state, m.p, m.a, m.reader, m.s, m.x, m.actor),
    DP.STOCK_TRASH: _stock_trash,
    DP.SUB_CARD: _sub_card,
    DP.SUB_SQUARE: _place_square,
    DP.MOVE_BEFORE: lambda m: _move(m.state, m.p, m.a, DP.MOVE_BEFORE, m.s, m.actor, m.whose, m.own),
    DP.SUPPORT: lambda m: _window(m.state, m.p, m.a, DP.SUPPORT, m.reader, m.own),
    DP.EFFECT_CHOICE: _effect_choice,
    DP.PAY_SPLIT: _pay_split,
    DP.EFFECT_TARGET: lambda m: _effect_target(m.state, m.p, m.a, m.reader, m.own),
    DP.DECLARE: lambda m: _declare(m.state, m.a, m.reader, m.s, m.x, m.actor, m.whose, m.own),
    DP.DEFENCE: lambda m: _window(m.state, m.p, m.a, DP.DEFENCE, m.reader, m.own),
    DP.WEAK_DISCARD: _discard,
    DP.DESTROY_DRAW: _draw,
    DP.EFFECT_DRAW: _draw,
    DP.EFFECT_DISCARD: _discard,
    DP.MOVE_AFTER: lambda m: _move(m.state, m.p, m.a, DP.MOVE_AFTER, m.s, m.actor, m.whose, m.own),
    DP.DRAW_STOCK: _draw_stock,
}


# ----------------------------------------------------------------------------- decision text
def decision_text(state: GameState, seat: int) -> str:
    """The open decision as a prompt for ``seat``; the other seat's decision without its secrets."""
    if state.done:
        if state.truncated:
            return "The game is over: it stopped at a cap with no winner"
        if state.winner == 2:
            return "The game is over: a draw"
        return "The game is over: you win" if state.winner == seat else "The game is over: the opponent wins"
    if state.decision_point is None:
        return "Nothing to decide"
    dp = DP(state.decision_point[0])
    if state.current_player != seat:
        return f"The opponent is choosing {_OTHER[dp]}"
    s, x = _acting(state)
    actor = _unit(state, s, seat) if x is not None else "the acting Medarot"
    prompt = _PROMPTS[dp]
    return prompt if isinstance(prompt, str) else prompt(state, seat, tuple(state.decision_point[2]), actor)


def _n(ctx: tuple[int, ...]) -> int:
    return ctx[1] if len(ctx) > 1 else 1


def _action_start_prompt(state: GameState, seat: int, ctx: tuple[int, ...], actor: str) -> str:
    extra = ["set Medaroters in your stock"]
    if state.config.substitution:
        extra.append("substitute it")
    if state.config.medachange:
        extra.append("MedaChange or release")
    return f"{actor} is about to act: {', '.join(extra)}, or go on"


def _declare_prompt(state: GameState, seat: int, ctx: tuple[int, ...], actor: str) -> str:
    _s, x = _acting(state)
    if x is not None and state.cards[x.top()].type == "SPECIAL":
        return f"Use the special effect of {actor}, or not"
    return f"Declare an attack or end the action of {actor}"


def _defence_prompt(state: GameState, seat: int, ctx: tuple[int, ...], actor: str) -> str:
    act = state.act
    target = square_of(state, act.target) if act is not None and act.target >= 0 else -1
    what = _unit(state, target, seat) if target >= 0 else "Medarot"
    return f"{actor} attacks your {what}: use a defence, or take the attack"


def _stock_trash_prompt(state: GameState, seat: int, ctx: tuple[int, ...], actor: str) -> str:
    new = _limbo_name(state, seat, seat)
    return f"Your stock is full: choose a stock card to trash{' for ' + new if new else ''}"


Prompt = str | Callable[[GameState, int, tuple[int, ...], str], str]

#: The deciding seat's prompt for each decision.
_PROMPTS: dict[DP, Prompt] = {
    DP.MASTER_SELECT: "Choose a Medaroter from your hand as your master (face down until the game starts)",
    DP.OPENING_STOCK: "Set Medaroters face down in your stock, or finish",
    DP.PLACE_CARD: "Choose a Medarot from your hand to place on your field",
    DP.PLACE_SQUARE: lambda st, seat, ctx, actor: (
        f"Choose where to place {_limbo_name(st, seat, seat) or 'the Medarot'}"
    ),
    DP.OPT_DRAW: "Pay 1 HP to draw up to 3 more cards, or draw none",
    DP.LATE_MASTER: "Choose which Medaroter you drew becomes your master",
    DP.HAND_LIMIT: "Your hand holds more than 7 cards: discard one, or set a Medaroter in an empty stock slot",
    DP.TIE_BREAK: lambda st, seat, ctx, actor: (
        f"Your Medarots {ordinal_list([_unit(st, t, seat) for t in ctx])} are tied: choose which acts first"
    ),
    DP.ACTION_START: _action_start_prompt,
    DP.STOCK_TRASH: _stock_trash_prompt,
    DP.SUB_CARD: lambda st, seat, ctx, actor: f"Choose the Medarot from your hand that replaces {actor}",
    DP.SUB_SQUARE: "Choose where on your field to place the substitute",
    DP.MOVE_BEFORE: lambda st, seat, ctx, actor: f"Move {actor} before it acts, or not yet",
    DP.SUPPORT: lambda st, seat, ctx, actor: f"Use a Medaroter card for {actor}, or go on",
    DP.EFFECT_CHOICE: lambda st, seat, ctx, actor: f"Choose which effect of {_target_effect(st)[1]} to use",
    DP.PAY_SPLIT: lambda st, seat, ctx, actor: (
        f"Choose how to pay the cost of {_n(ctx)}: with MedaForce reserve cards, HP, or both"
    ),
    DP.EFFECT_TARGET: lambda st, seat, ctx, actor: f"Choose the target of {_target_effect(st)[1]}'s effect",
    DP.DECLARE: _declare_prompt,
    DP.DEFENCE: _defence_prompt,
    DP.WEAK_DISCARD: lambda st, seat, ctx, actor: f"Weak attack: discard {_cards(_n(ctx))} of your choice",
    DP.DESTROY_DRAW: "Your Medarot was destroyed: choose how many cards to draw (up to 3)",
    DP.EFFECT_DRAW: lambda st, seat, ctx, actor: f"Choose how many cards to draw (up to {_n(ctx)})",
    DP.EFFECT_DISCARD: lambda st, seat, ctx, actor: f"Discard {_cards(_n(ctx))} of your choice",
    DP.MOVE_AFTER: lambda st, seat, ctx, actor: f"Move {actor} now, or leave it where it is",
    DP.DRAW_STOCK: "Set the Medaroters you just drew face down in your stock, or keep them in hand",
}

#: The other seat's decision, as the end of "The opponent is choosing ...".
_OTHER = {
    DP.MASTER_SELECT: "its master",
    DP.OPENING_STOCK: "cards to set in its stock",
    DP.PLACE_CARD: "a Medarot to place",
    DP.PLACE_SQUARE: "where to place a Medarot",
    DP.OPT_DRAW: "whether to pay 1 HP for more cards",
    DP.LATE_MASTER: "its master among the Medaroters it drew",
    DP.HAND_LIMIT: "what to discard (hand limit 7)",
    DP.TIE_BREAK: "which of its tied Medarots acts first",
    DP.ACTION_START: "how to start its Medarot's action",
    DP.STOCK_TRASH: "a stock card to trash",
    DP.SUB_CARD: "a substitute Medarot",
    DP.SUB_SQUARE: "where to place its substitute",
    DP.MOVE_BEFORE: "whether to move its Medarot",
    DP.SUPPORT: "whether to use a Medaroter card",
    DP.EFFECT_CHOICE: "which effect of its card to use",
    DP.PAY_SPLIT: "how to pay a cost",
    DP.EFFECT_TARGET: "a target for its effect",
    DP.DECLARE: "whether to attack",
    DP.DEFENCE: "whether to defend",
    DP.WEAK_DISCARD: "cards to discard (weak attack)",
    DP.DESTROY_DRAW: "how many cards to draw",
    DP.EFFECT_DRAW: "how many cards to draw",
    DP.EFFECT_DISCARD: "cards to discard",
    DP.MOVE_AFTER: "whether to move its Medarot",
    DP.DRAW_STOCK: "whether to set the Medaroters it drew in its stock",
}

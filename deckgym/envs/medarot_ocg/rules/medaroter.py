"""Medaroter cards: the stock, the support and defence windows, costs and trash timings.

Spec: R12, R17-R20, R32, R38, R55, D23-D28, D45; decision points SUPPORT, DEFENCE,
STOCK_TRASH, EFFECT_CHOICE, PAY_SPLIT, EFFECT_TARGET (section 5.3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP, Action, Kind
from deckgym.envs.medarot_ocg.cards import MEDAROTER, CardDef, Effect
from deckgym.envs.medarot_ocg.rules.board import ADJACENT, end_effects, has_status, square_of, trash_slot
from deckgym.envs.medarot_ocg.rules.effects import (
    DEFENCE,
    SUPPORT,
    choice_squares,
    needs_choice,
    resolve,
    resolve_unit_effect,
    usable,
)
from deckgym.envs.medarot_ocg.rules.flow import ask, ask_acting, auto, decision, push, spend, task
from deckgym.envs.medarot_ocg.state import Eff, GameState, Slot

FROM_HAND, FROM_STOCK, FROM_MASTER = 0, 1, 2
MASTER_SLOT: Final = 3


# ----------------------------------------------------------------------------- stock helpers
def free_slot(st: GameState, p: int) -> int:
    """Lowest empty stock slot of ``p``, or -1 when the stock is full (D45)."""
    for j, x in enumerate(st.stock[p]):
        if x is None:
            return j
    return -1


def trash_timed(st: GameState, timings: tuple[str, ...]) -> None:
    """Trash every face-up stock card whose trash timing is in ``timings``; masters stay (D26, D36)."""
    order = (st.first, 1 - st.first)
    for p in order:
        for j, slot in enumerate(st.stock[p]):
            if slot is not None and slot.face_up and slot.trash in timings:
                trash_slot(st, p, j)
        m = st.master[p]
        if m is not None and m.trash in timings:
            end_effects(st, _keep_other_sources(4 * p + MASTER_SLOT))
            m.eff, m.trash, m.charge = -1, "", 0


def _keep_other_sources(key: int) -> Callable[[Eff], bool]:
    """The ``end_effects`` filter that ends the effects given by source slot ``key``."""
    return lambda e: e.src_slot != key


def holder(st: GameState, p: int, slot: int) -> Slot:
    """The stock slot or (slot 3) the master slot of ``p``."""
    x = st.master[p] if slot == MASTER_SLOT else st.stock[p][slot]
    assert x is not None
    return x


# ----------------------------------------------------------------------------- usability
def cost_of(st: GameState, effect: Effect) -> int:
    """The cost actually due (0 in beginner mode, D3)."""
    return effect.cost if st.config.medaroter_costs else 0


def affordable(st: GameState, p: int, cost: int) -> bool:
    """HP plus (advance) MedaForce covers the cost (D27, D28)."""
    return cost <= st.hp[p] + (len(st.reserve[p]) if st.config.medaforce else 0)


def usable_effects(st: GameState, card: CardDef, p: int, window: int, source: int) -> list[int]:
    """Indices of ``card``'s effects that ``p`` may use now from ``source`` (D23, D24)."""
    act = st.act
    if act is None:
        return []
    out = []
    for i, e in enumerate(card.effects):
        if e.timing == "TRIGGER":
            if source != FROM_STOCK:
                continue
        elif window == SUPPORT:
            if e.timing != "ACTION" or act.action_used:
                continue
        elif e.timing != "DEFENCE" or act.defence_used:
            continue
        if affordable(st, p, cost_of(st, e)) and usable(st, e, p, -1, window):
            out.append(i)
    return out


def _window_options(st: GameState, p: int, window: int) -> list[Action]:
    out = [A.PASS]
    cards = st.cards
    for i, cid in enumerate(st.hand[p]):
        c = cards[cid]
        if c.kind == MEDAROTER and usable_effects(st, c, p, window, FROM_HAND):
            out.append(A.HAND[i])
    for j, slot in enumerate(st.stock[p]):
        if slot is None:
            continue
        if not slot.face_up:
            if usable_effects(st, cards[slot.card], p, window, FROM_STOCK):
                out.append(A.STOCK[j])
        elif window == DEFENCE and slot.charge > 0:
            out.append(A.STOCK[j])
    m = st.master[p]
    if (
        m is not None
        and m.face_up
        and (
            (window == DEFENCE and m.charge > 0)
            or (not st.master_used[p] and usable_effects(st, cards[m.card], p, window, FROM_MASTER))
        )
    ):
        out.append(A.MASTER)
    return out


# ----------------------------------------------------------------------------- windows
def _support_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    assert st.act is not None
    return _window_options(st, st.act.owner, SUPPORT)


@task
def support(st: GameState) -> None:
    """A5: the acting player's support window (repeats until PASS)."""
    ask_acting(st, DP.SUPPORT)


@decision(DP.SUPPORT, legal=_support_legal)
def on_support(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Use a card in the support window, or PASS to go on to DECLARE."""
    if a.kind != Kind.PASS:
        push(st, ["support"])
        begin_use(st, st.act.owner if st.act else 0, a, SUPPORT)


def guard_squares(st: GameState) -> list[int]:
    """Squares of the defender's active guards that may take the current attack (P5, D46)."""
    act = st.act
    if act is None or act.redirected:
        return []
    t = square_of(st, act.target)
    if t < 0:
        return []
    q = st.board[t].owner  # type: ignore[union-attr]
    out = []
    for s in sorted(ADJACENT[t]):
        x = st.board[s]
        if x is not None and x.owner == q and has_status(st, x, "GUARD"):
            out.append(s)
    return out


def _defence_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    q = ctx[0]
    out = _window_options(st, q, DEFENCE)
    out.extend(A.SQUARE[s] for s in guard_squares(st))
    return out


@task
def defence(st: GameState) -> None:
    """A7: the defender's window, repeating until PASS or until the attack is negated."""
    act = st.act
    assert act is not None
    if act.negated:
        return
    q = 1 - act.owner
    ask(st, DP.DEFENCE, q, q)


@decision(DP.DEFENCE, legal=_defence_legal)
def on_defence(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Use a defence card, spend a NEGATE charge, redirect to a guard, or PASS."""
    q = ctx[0]
    act = st.act
    assert act is not None
    if a.kind == Kind.PASS:
        return
    push(st, ["defence"])
    if a.kind == Kind.SQUARE:
        x = st.board[a.arg]
        assert x is not None
        act.target = x.uid
        act.redirected = True
        st.emit(
            "redirect", f"P{q} redirects the attack to the guard on square {a.arg}", player=q, square=a.arg
        )
        return
    slot = MASTER_SLOT if a.kind == Kind.MASTER else a.arg
    if a.kind != Kind.HAND:
        h = holder(st, q, slot)
        if h.face_up and h.charge > 0:
            h.charge -= 1  # D45: spending a stored charge is not a new card use
            act.negated = True
            st.emit(
                "use_charge",
                f"P{q} spends the negate charge stored on {st.cards[h.card].name}: the attack is negated",
                player=q,
                slot="master" if slot == MASTER_SLOT else slot,
            )
            return
    begin_use(st, q, a, DEFENCE)


# ----------------------------------------------------------------------------- one card use
def begin_use(st: GameState, p: int, a: Action, window: int) -> None:
    """Start using a card: HAND(i), STOCK(j) or MASTER, then choice, payment and target (A5, A7)."""
    if a.kind == Kind.HAND:
        card = st.hand[p].pop(a.arg)
        st.limbo[p] = [card, True]
        st.use = [p, -1, window, -1, FROM_HAND]
        st.emit(
            "use_card", f"P{p} uses {st.cards[card].name} from its hand", player=p, card=card, source="hand"
        )
        push(st, ["use_slot"], ["use_choose"], ["use_pay"], ["use_target"])
        return
    if a.kind == Kind.MASTER:
        st.master_used[p] = True
        st.use = [p, MASTER_SLOT, window, -1, FROM_MASTER]
        card = holder(st, p, MASTER_SLOT).card
        st.emit(
            "use_card", f"P{p} uses its master {st.cards[card].name}", player=p, card=card, source="master"
        )
    else:
        slot = holder(st, p, a.arg)
        slot.face_up = True
        st.use = [p, a.arg, window, -1, FROM_STOCK]
        st.emit(
            "use_card",
            f"P{p} uses {st.cards[slot.card].name} from stock slot {a.arg + 1}",
            player=p,
            card=slot.card,
            source="stock",
        )
    push(st, ["use_choose"], ["use_pay"], ["use_target"])


@task
def use_slot(st: GameState) -> None:
    """A card used from hand enters the stock face up; a full stock first trashes one (R19, D25)."""
    assert st.use is not None
    p = st.use[0]
    j = free_slot(st, p)
    if j < 0:
        ask(st, DP.STOCK_TRASH, p, p)
        return
    _settle_limbo(st, p, j, face_up=True)


def _settle_limbo(st: GameState, p: int, j: int, face_up: bool) -> None:
    lim = st.limbo[p]
    assert lim is not None
    st.stock[p][j] = Slot(lim[0], face_up)
    st.limbo[p] = None
    if st.use is not None and st.use[0] == p and st.use[1] < 0:
        st.use[1] = j


def _stock_trash_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return [A.STOCK[j] for j in range(3) if st.stock[ctx[0]][j] is not None]


@decision(DP.STOCK_TRASH, legal=_stock_trash_legal)
def on_stock_trash(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Trash one stock card to make room for the card waiting in limbo."""
    p = ctx[0]
    trash_slot(st, p, a.arg)
    lim = st.limbo[p]
    assert lim is not None
    _settle_limbo(st, p, a.arg, face_up=bool(lim[1]))


def _use_card(st: GameState) -> tuple[int, Slot, CardDef]:
    assert st.use is not None
    p, slot = st.use[0], st.use[1]
    h = holder(st, p, slot)
    return p, h, st.cards[h.card]


@task
def use_choose(st: GameState) -> None:
    """EFFECT_CHOICE when two effects of the card are usable."""
    assert st.use is not None
    p, _, card = _use_card(st)
    idx = usable_effects(st, card, p, st.use[2], st.use[4])
    if len(idx) > 1:
        ask(st, DP.EFFECT_CHOICE, p, *idx)
    else:
        st.use[3] = idx[0]
        if len(card.effects) > 1:  # a card of two effects with one usable: the choice is forced
            auto(st, p, DP.EFFECT_CHOICE, A.EFFECT[idx[0]])


@decision(DP.EFFECT_CHOICE, legal=lambda st, ctx: [A.EFFECT[i] for i in ctx])
def on_effect_choice(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Pick which of the card's two effects to use."""
    assert st.use is not None
    st.use[3] = a.arg


@task
def use_pay(st: GameState) -> None:
    """Count the use toward the one-per-action/attack limit (D24) and pay its cost (D27, D28)."""
    assert st.use is not None and st.act is not None
    p, h, card = _use_card(st)
    e = card.effects[st.use[3]]
    if e.timing == "ACTION":
        st.act.action_used = True
    elif e.timing == "DEFENCE":
        st.act.defence_used = True
    h.eff = st.use[3]
    h.trash = e.trash
    c = cost_of(st, e)
    if c <= 0:
        return
    if st.config.medaforce and st.reserve[p]:
        ask(st, DP.PAY_SPLIT, p, p, c)
    else:
        if st.config.medaforce:  # an empty reserve: the split is forced to pay it all in HP
            auto(st, p, DP.PAY_SPLIT, A.MEDAFORCE[0])
        spend(st, p, c, card.name)


def _pay_split_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    p, c = ctx
    return [A.MEDAFORCE[k] for k in range(min(c, len(st.reserve[p])) + 1) if c - k <= st.hp[p]]


@decision(DP.PAY_SPLIT, legal=_pay_split_legal)
def on_pay_split(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Pay k of the cost with MedaForce reserve cards (to the trash) and the rest in HP (D28)."""
    p, c = ctx
    k = a.arg
    for _ in range(k):
        st.trash[p].append(st.reserve[p].pop())
    if k:
        st.emit(
            "medaforce",
            f"P{p} pays {k} of the cost with MedaForce (reserve cards to the trash)",
            player=p,
            count=k,
        )
    spend(st, p, c - k, "a Medaroter cost")


@task
def use_target(st: GameState) -> None:
    """EFFECT_TARGET when the effect picks one Medarot or an opponent's stock card; then resolve."""
    assert st.use is not None
    p, _, card = _use_card(st)
    e = card.effects[st.use[3]]
    if not needs_choice(e):
        _finish_use(st, -1)
        return
    ask(st, DP.EFFECT_TARGET, p, p)


def effect_target_options(st: GameState, e: Effect, p: int) -> list[Action]:
    """Options of EFFECT_TARGET for effect ``e`` of player ``p``."""
    if e.op == "TRASH_STOCK":
        return [A.OPP_STOCK[j] for j in range(3) if st.stock[1 - p][j] is not None]
    return [A.SQUARE[s] for s in choice_squares(st, e, p)]


def _current_effect(st: GameState) -> Effect:
    """The effect waiting for a target: a Medaroter in use or the acting Medarot's own effect."""
    if st.use is not None:
        _, _, card = _use_card(st)
        return card.effects[st.use[3]]
    assert st.act is not None
    x = st.board[square_of(st, st.act.uid)]
    assert x is not None
    return st.cards[x.top()].effects[0]


def _effect_target_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return effect_target_options(st, _current_effect(st), ctx[0])


@decision(DP.EFFECT_TARGET, legal=_effect_target_legal)
def on_effect_target(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Aim the effect: a square (ONE_ALLY / ONE_ENEMY) or an opponent stock slot (TRASH_STOCK)."""
    if st.use is not None:
        _finish_use(st, a.arg)
    else:
        resolve_unit_effect(st, a.arg)


def _finish_use(st: GameState, choice: int) -> None:
    assert st.use is not None
    p, slot, window, idx, _ = st.use
    card = st.cards[holder(st, p, slot).card]
    st.use = None
    resolve(st, card.effects[idx], p, -1, 4 * p + slot, window, choice)

"""Declaring, judgement, destruction, weak attack and additional effects (spec 5.3 A6-A8).

Rules: R33-R44, R53, D11-D14, D29-D31, D46; decision points DECLARE, WEAK_DISCARD,
DESTROY_DRAW, EFFECT_DRAW, EFFECT_DISCARD.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP, Action, Kind
from deckgym.envs.medarot_ocg.cards import SPECIAL
from deckgym.envs.medarot_ocg.rules.board import (
    attack_targets,
    eff_armor,
    eff_power,
    emit_unit,
    proxy_targets,
    remove_stack,
    square_of,
    stack_by_uid,
    top,
)
from deckgym.envs.medarot_ocg.rules.effects import SUPPORT, needs_choice, resolve_unit_effect, usable
from deckgym.envs.medarot_ocg.rules.flow import (
    PROXY_NAMES,
    ask,
    ask_acting,
    decision,
    hit_proxy,
    pay,
    push,
    spend,
    task,
)
from deckgym.envs.medarot_ocg.rules.medaroter import effect_target_options, trash_timed
from deckgym.envs.medarot_ocg.rules.phases import begin_chain, draw
from deckgym.envs.medarot_ocg.state import GameState

FAR_COST: Final = 1


def far_cost(st: GameState) -> int:
    """HP cost of a 2-square melee attack this action (D12; 0 with FREE_FAR, P16)."""
    assert st.act is not None
    return 0 if st.act.free_far else FAR_COST


# ----------------------------------------------------------------------------- A6 declare
@task
def declare(st: GameState) -> None:
    """A6: attack a square in range, activate a special, or PASS (R33-R37)."""
    ask_acting(st, DP.DECLARE)


def _declare_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    act = st.act
    assert act is not None
    s = square_of(st, act.uid)
    x = st.board[s]
    assert x is not None
    card = top(st, x)
    out = [A.PASS]
    if card.type == SPECIAL:
        if usable(st, card.effects[0], x.owner, x.uid, SUPPORT):
            out.append(A.SPECIAL)
        return out
    cost = far_cost(st)
    hp = st.hp[x.owner]
    for t, far in attack_targets(st, s) + proxy_targets(st, s):
        if not far or hp >= cost:
            out.append(A.SQUARE[t])
    return out


@decision(DP.DECLARE, legal=_declare_legal)
def on_declare(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Start the attack (then DEFENCE and JUDGEMENT) or the special effect."""
    act = st.act
    assert act is not None
    if a.kind == Kind.PASS:
        return
    s = square_of(st, act.uid)
    x = st.board[s]
    assert x is not None
    if a.kind == Kind.SPECIAL:
        effect = st.cards[x.top()].effects[0]
        emit_unit(st, "special", x, s, "activates its special effect")
        if needs_choice(effect):
            ask(st, DP.EFFECT_TARGET, x.owner, x.owner)
        else:
            resolve_unit_effect(st)
        return
    far = dict(attack_targets(st, s) + proxy_targets(st, s))[a.arg]
    if far:
        spend(st, x.owner, far_cost(st), "a 2-square melee attack")
    target = st.board[a.arg]
    if target is None:
        attack_proxy(st, s, a.arg, far)
        return
    act.target = target.uid
    act.far = far
    away = " from 2 squares away" if far else ""
    emit_unit(st, "attack", x, s, f"attacks {_unit_words(st, a.arg)}{away}", target=a.arg)
    push(st, ["defence"], ["judge"])


def attack_proxy(st: GameState, s: int, t: int, far: bool) -> None:
    """An attack on the proxy's open row (AMALOGS D37, D40): no defence, no judgement, then ON_HIT.

    The hit is the attacker's effective power ÷ 10, rounded down; it lowers P (``hit_proxy``).
    ON_HIT effects aimed at the attacked Medarot find none and do nothing; the others apply.
    P reaching 0 ends the table at once.
    """
    x = st.board[s]
    assert x is not None and st.act is not None
    st.act.far = far
    away = " from 2 squares away" if far else ""
    emit_unit(st, "attack", x, s, f"attacks {PROXY_NAMES[st.config.proxy]} on square {t}{away}", target=t)
    if hit_proxy(st, x.owner, eff_power(st, x)):
        push(st, ["on_hit"])


def _unit_words(st: GameState, square: int) -> str:
    """The Medarot on ``square`` as every seat may name it: its name when face up."""
    x = st.board[square]
    if x is None:
        return f"square {square}"
    if not x.face_up:
        return f"the face-down Medarot on square {square}"
    return f"{st.cards[x.top()].name} (square {square})"


# ----------------------------------------------------------------------------- A8 judgement
@task
def judge(st: GameState) -> None:
    """A8: destroy if power >= armor; otherwise weak attack (N, A) or nothing (B) (R39-R42, D29, D46)."""
    act = st.act
    assert act is not None
    t = stack_by_uid(st, act.target)
    if act.negated or t is None:
        push(st, ["after_defence"])
        return
    m = stack_by_uid(st, act.uid)
    assert m is not None
    t.face_up = True
    st.board_version += 1
    square = square_of(st, t.uid)
    q = t.owner
    power, armor = eff_power(st, m), eff_armor(st, t)
    tail = (["on_hit"], ["traps", q], ["after_defence"])
    name = st.cards[t.top()].name
    destroyed = power >= armor
    need = power // 10
    if destroyed or not st.config.weak_attack or need == 0:
        # a plain judgement: destroyed, or no damage when there is no weak attack
        verdict = f">= armor {armor}: {name} is destroyed" if destroyed else f"< armor {armor}: no damage"
        st.emit(
            "judge",
            f"power {power} {verdict}",
            player=q,
            card=t.top(),
            square=square,
            power=power,
            armor=armor,
            result="destroyed" if destroyed else "no_damage",
        )
        push(st, *([["destroy", square, 0]] if destroyed else []), *tail)
        return
    if len(st.hand[q]) > need:
        st.emit("weak_attack", f"weak attack: P{q} discards {need}", player=q, count=need)
        push(st, ["weak_discard", q, need], *tail)
        return
    st.emit(
        "weak_destroy",
        f"weak attack: P{q} discards the whole hand ({len(st.hand[q])}) and {name} is weak-destroyed",
        player=q,
        cards=list(st.hand[q]),
        card=t.top(),
        square=square,
    )
    st.trash[q].extend(st.hand[q])
    st.hand[q].clear()
    push(st, ["destroy", square, 1], *tail)


@task
def weak_discard(st: GameState, q: int, n: int) -> None:
    """WEAK_DISCARD: the defender discards one chosen card, ``n`` times (R41)."""
    ask(st, DP.WEAK_DISCARD, q, q, n)


def _discard_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return [A.HAND[i] for i in range(len(st.hand[ctx[0]]))]


@decision(DP.WEAK_DISCARD, legal=_discard_legal)
def on_weak_discard(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Discard the chosen card; repeat while more are due."""
    _discard(st, ctx, a.arg, "weak_attack", "weak_discard")


def _discard(st: GameState, ctx: tuple[int, ...], i: int, why: str, again: str) -> None:
    """Player ``q`` discards hand card ``i`` (``ctx = (q, n)``); task ``again`` asks for the next while ``n > 1``."""
    q, n = ctx
    card = st.hand[q].pop(i)
    st.trash[q].append(card)
    reason = {"weak_attack": " (weak attack)", "effect": " (an effect)"}.get(why, "")
    st.emit("discard", f"P{q} discards {st.cards[card].name}{reason}", player=q, card=card, why=why)
    if n > 1:
        push(st, [again, q, n - 1])


@task
def destroy(st: GameState, square: int, weak: int) -> None:
    """Destroyed procedure (D31): pay, move to trash or reserve, draw up to 3, then the draw chain."""
    x = st.board[square]
    assert x is not None
    q = x.owner
    if weak:
        cost = 2 if x.change else 1  # R42, R53
    else:
        cost = st.cards[x.base].cost + (st.cards[x.change].cost if x.change else 0)  # R40, R53
    if not pay(st, q, cost, f"destroyed {st.cards[x.top()].name}"):
        return
    remove_stack(st, square, to_reserve=st.config.medaforce)
    ask(st, DP.DESTROY_DRAW, q, q)


def _destroy_draw_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    n = min(3, len(st.deck[ctx[0]]))
    lo = 1 if st.config.mode == "beginner" and n > 0 else 0  # beginner seed: 3, 2 or 1 cards
    return [A.COUNT[k] for k in range(lo, n + 1)]


@decision(DP.DESTROY_DRAW, legal=_destroy_draw_legal)
def on_destroy_draw(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Draw k cards (R43 step 3, R44 step 3), then the draw-event chain places a new Medarot."""
    q = ctx[0]
    draw(st, q, a.arg)
    begin_chain(st, q, a.arg)


@task
def on_hit(st: GameState) -> None:
    """The attacker's additional effect after a judgement that was not negated (D30)."""
    act = st.act
    assert act is not None
    m = stack_by_uid(st, act.uid)
    if m is None:
        return
    card = st.cards[m.top()]
    if not card.effects or card.effects[0].timing != "ON_HIT":
        return
    effect = card.effects[0]
    if needs_choice(effect):
        if effect_target_options(st, effect, m.owner):
            ask(st, DP.EFFECT_TARGET, m.owner, m.owner)
        return
    resolve_unit_effect(st)


@task
def traps(st: GameState, q: int) -> None:
    """TRAP (P6): after the judgement of an attack on ``q``'s Medarots, the attacker's owner pays."""
    p = 1 - q
    for e in list(st.effects):
        if e.op == "TRAP" and e.scope == q and not pay(st, p, e.amount, "a TRAP"):
            return


@task
def after_defence(st: GameState) -> None:
    """End of A8: trash the AFTER_DEFENCE cards of both players (D26, D46)."""
    trash_timed(st, ("AFTER_DEFENCE",))


# ----------------------------------------------------------------------------- instant-effect decisions
@task
def effect_draw(st: GameState, p: int, amount: int) -> None:
    """DRAW (P10): EFFECT_DRAW decision."""
    ask(st, DP.EFFECT_DRAW, p, p, amount)


@decision(
    DP.EFFECT_DRAW, legal=lambda st, ctx: [A.COUNT[k] for k in range(min(ctx[1], len(st.deck[ctx[0]])) + 1)]
)
def on_effect_draw(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Draw k, then the draw-event chain."""
    p = ctx[0]
    draw(st, p, a.arg)
    begin_chain(st, p, a.arg)


@task
def effect_discard(st: GameState, q: int, n: int) -> None:
    """DISCARD (P11): EFFECT_DISCARD decision of the discarding player."""
    if st.hand[q]:
        ask(st, DP.EFFECT_DISCARD, q, q, n)


@decision(DP.EFFECT_DISCARD, legal=_discard_legal)
def on_effect_discard(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Discard the chosen card; repeat while more are due."""
    _discard(st, ctx, a.arg, "effect", "effect_discard")

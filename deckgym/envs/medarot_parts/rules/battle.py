"""The battle (R1-R28, D18-D28): steps B1-B9 of section 5 except the damage of B7 (``damage``).

The attacker (A) decides the attack part, its payment, its power window, the defending
medarot when R8 allows it and the effect step; the defender (B) decides its power window,
its defence window, the response, the protect amount and payment, and the allocation.

Against the proxy of an AMALOGS table (amalogs D37) seat 1 decides nothing: its power window,
defence window, response and allocation are skipped, it is always the defending medarot (it
has no legs, hence no action medarot, R8 (c)), and the damage goes to its head
(``damage.hit_proxy``).
"""

from __future__ import annotations

from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP, Action, Kind
from deckgym.envs.medarot_parts.cards import AIMED, BATTLE, E_DEFENSE, LEGS, PROTECT, RECKLESS, SLOTS, Target
from deckgym.envs.medarot_parts.rules.damage import hit_proxy
from deckgym.envs.medarot_parts.rules.effects import Use, live_medarots, playable_card, resolve, start_card
from deckgym.envs.medarot_parts.rules.flow import ask, decision, push, task
from deckgym.envs.medarot_parts.rules.payment import payment_task, use_part
from deckgym.envs.medarot_parts.rules.values import (
    available_ep,
    charge,
    end_duration,
    medal_pays,
    power,
)
from deckgym.envs.medarot_parts.state import UNTIL_BATTLE, UNTIL_CARD, Battle, GameState
from deckgym.envs.medarot_parts.words import medarot_label, medarot_of, part_of


def start_battle(st: GameState, p: int, s: int) -> None:
    """Declare an attack with the part in slot ``s`` of ``p``'s action medarot (R1, R2): schedule B1-B9."""
    m = st.action_medarot[p]
    st.battle = Battle(attacker=p, medarot=m, slot=s, uid=st.field[p][m].parts[s].uid)
    push(
        st,
        ["attack_part"],
        ["power_window", p],
        ["power_window", 1 - p],
        ["damage_step"],
    )


@task
def attack_part(st: GameState) -> None:
    """B1-B2 (R2, R4): tap the attack part, resolve its ON_USE abilities, then pay its charge."""
    b = st.battle
    assert b is not None
    p, m, s = b.attacker, b.medarot, b.slot
    push(st, use_part(st, p, m, s, "attack", "attacks with"))
    part = st.field[p][m].parts[s]
    for ab in st.cards[part.card].abilities:
        if ab.source == "ON_USE":
            resolve(st, ab, Use(p, UNTIL_BATTLE, part.uid))


@task
def power_window(st: GameState, p: int) -> None:
    """B3 (R6, D21): player ``p`` may play POWER cards one at a time (DP5); a proxy has no window (D37)."""
    if p == 1 and st.config.proxy:
        return
    ask(st, DP.POWER_WINDOW, p, p)


def _power_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return _window_options(st, "POWER")


def _defense_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return _window_options(st, "DEFENSE")


def _window_options(st: GameState, timing: str) -> list[Action]:
    """PASS and HAND(h) for every playable card of ``timing`` in the deciding player's hand."""
    assert st.decision_point is not None
    p = st.decision_point[1]
    out = [A.PASS]
    for h, cid in enumerate(st.hand[p]):
        if st.cards[cid].timing == timing and playable_card(st, p, cid, timing):
            out.append(A.HAND[h])
    return out


@decision(DP.POWER_WINDOW, legal=_power_legal)
def power_card(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Play a POWER card and come back to the same window, or pass (D21)."""
    if action.kind == Kind.HAND:
        start_card(st, ctx[0], action.arg, ["power_window", ctx[0]])


@task
def damage_step(st: GameState) -> None:
    """B4 (R7): the current power of the attack part is the damage; 0 ends the battle."""
    b = st.battle
    assert b is not None
    b.damage = power(st, b.attacker, b.medarot, b.slot)
    text = f"P{b.attacker}'s attack has power {b.damage}" + (
        ": no damage, the battle ends" if b.damage == 0 else ""
    )
    st.emit("attack_damage", text, player=b.attacker, amount=b.damage)
    if b.damage == 0:
        push(st, ["battle_end"])
    else:
        push(st, ["defender_step"], ["defense_window"], ["battle_end"])


@task
def defender_step(st: GameState) -> None:
    """B5 (R8): the defending medarot is B's action medarot, unless A may designate one (DP6).

    The proxy of an AMALOGS table is the defending medarot and takes the damage at once (D37);
    the effect step (B8) follows.
    """
    b = st.battle
    assert b is not None
    d = 1 - b.attacker
    if d == 1 and st.config.proxy:
        hit_proxy(st)
        if not st.done:
            push(st, ["effect_step"])
        return
    am = st.action_medarot[d]
    attack_action = st.cards[st.field[b.attacker][b.medarot].parts[b.slot].card].action
    if am < 0 or attack_action == AIMED or st.field[d][am].parts[LEGS].destroyed:
        ask(st, DP.DEFENDER_CHOICE, b.attacker)
    else:
        b.defender = am
        st.emit("defend", f"{medarot_of(st, d, am)} defends (P{d}'s action medarot)", player=d, medarot=am)


def _defending_medarots(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    """The live medarots of the side under attack (the defender, R8, and an effect's target, R26)."""
    b = st.battle
    assert b is not None
    return [A.MEDAROT[i] for i in live_medarots(st, 1 - b.attacker)]


@decision(DP.DEFENDER_CHOICE, legal=_defending_medarots)
def designate_defender(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """A designates the defending medarot (R8 a-c)."""
    b = st.battle
    assert b is not None
    b.defender = action.arg
    st.emit(
        "designate",
        f"P{b.attacker} designates {medarot_of(st, 1 - b.attacker, action.arg)} to defend",
        player=b.attacker,
        medarot=action.arg,
    )


@task
def defense_window(st: GameState) -> None:
    """B6 (D22): the defender may play DEFENSE cards (DP7); damage 0 skips to the end of battle.

    The proxy of an AMALOGS table has no window nor response (D37): it took the damage at B5.
    """
    b = st.battle
    assert b is not None
    if b.damage <= 0 or (b.attacker == 0 and st.config.proxy):
        return
    ask(st, DP.DEFENSE_WINDOW, 1 - b.attacker)


@decision(DP.DEFENSE_WINDOW, legal=_defense_legal)
def defense_card(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Play a DEFENSE card and come back to the window, or pass on to the response (DP8)."""
    b = st.battle
    assert b is not None
    d = 1 - b.attacker
    if action.kind == Kind.HAND:
        start_card(st, d, action.arg, ["defense_window"])
    else:
        ask(st, DP.RESPONSE, d)


# ----------------------------------------------------------------------------- response (B6')
def can_evade(st: GameState, b: Battle) -> bool:
    """Evade condition (R9): defending legs not destroyed and untapped, an evade card in hand, no NO_EVADE."""
    d = 1 - b.attacker
    legs = st.field[d][b.defender].parts[LEGS]
    if b.no_evade or legs.destroyed or legs.tapped:
        return False
    return any(st.cards[c].type == "EVADE" for c in st.hand[d])


def protect_slots(st: GameState, b: Battle) -> list[int]:
    """Usable protect parts (R10, D24): untapped non-destroyed PROTECT head/arms, reckless parts untapped."""
    parts = st.field[1 - b.attacker][b.defender].parts
    cards = st.cards
    if any(not x.destroyed and x.tapped and cards[x.card].action == RECKLESS for x in parts[:3]):
        return []
    return [
        s
        for s in range(3)
        if not parts[s].destroyed and not parts[s].tapped and cards[parts[s].card].action == PROTECT
    ]


def _response_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    b = st.battle
    assert b is not None
    out = [A.PASS]
    if can_evade(st, b):
        out.append(A.EVADE)
    out += [A.PROTECT[s] for s in protect_slots(st, b)]
    return out


@decision(DP.RESPONSE, legal=_response_legal)
def respond(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """One response (D23): evade (R9), protect with one part (R10) or nothing (R15)."""
    b = st.battle
    assert b is not None
    d = 1 - b.attacker
    if action.kind == Kind.EVADE:
        b.response = 1
        hand = st.hand[d]
        card = next(c for c in hand if st.cards[c].type == "EVADE")
        hand.remove(card)
        st.trash[d].append(card)
        st.field[d][b.defender].parts[LEGS].tapped = True
        b.damage = 0
        text = (
            f"P{d} evades with {st.cards[card].name}, tapping the legs of {medarot_of(st, d, b.defender)}:"
            " the damage is 0"
        )
        st.emit("evade", text, player=d, medarot=b.defender, card=card)
    elif action.kind == Kind.PROTECT:
        b.response = 2
        b.protect = action.arg
        st.field[d][b.defender].parts[action.arg].tapped = True
        st.emit(
            "protect",
            f"P{d} protects with {part_of(st, d, b.defender, action.arg)}",
            player=d,
            medarot=b.defender,
            slot=SLOTS[action.arg],
        )
        ask(st, DP.PROTECT_AMOUNT, d)
    else:
        b.response = 0
        text = f"P{d} does not respond: {medarot_of(st, d, b.defender)} takes the damage of {b.damage}"
        st.emit("no_response", text, player=d, medarot=b.defender)
        push(st, ["allocation"], ["effect_step"])


def _protect_payment(st: GameState, b: Battle) -> tuple[int, tuple[int, int] | None]:
    d = 1 - b.attacker
    medal = (d, b.defender) if medal_pays(st, d, b.defender, b.protect) else None
    return E_DEFENSE, medal


def _amount_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    b = st.battle
    assert b is not None
    d = 1 - b.attacker
    kind, medal = _protect_payment(st, b)
    ep = available_ep(st, d, kind, medal)
    top = min(charge(st, d, b.defender, b.protect), ep // 2)
    return list(A.AMOUNT[: top + 1])


@decision(DP.PROTECT_AMOUNT, legal=_amount_legal)
def protect_amount(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Choose the charge k to pay for the protect part (R11, D25), then pay it and reduce the damage."""
    b = st.battle
    assert b is not None
    b.amount = action.arg
    kind, medal = _protect_payment(st, b)
    push(
        st,
        payment_task(1 - b.attacker, action.arg, kind, medal),
        ["protect_reduction"],
        ["block_shock"],
        ["allocation"],
        ["effect_step"],
    )


@task
def protect_reduction(st: GameState) -> None:
    """Reduction (R11, D25): full charge paid -> the part's power; otherwise min(k, power)."""
    b = st.battle
    assert b is not None
    d = 1 - b.attacker
    full = charge(st, d, b.defender, b.protect)
    pw = power(st, d, b.defender, b.protect)
    cut = pw if b.amount >= full else min(b.amount, pw)
    b.damage = max(0, b.damage - cut)
    st.emit(
        "reduce",
        f"P{d} pays {b.amount} of the protect charge {full}: the damage is reduced by {cut} to {b.damage}",
        player=d,
        paid=b.amount,
        charge=full,
        reduction=cut,
        amount=b.damage,
    )


# ----------------------------------------------------------------------------- effect step and end
@task
def effect_step(st: GameState) -> None:
    """B8 (R23-R26): after 1+ damage dealt, A may attach an effect card to a bare effect part (DP11).

    An effect bound to an opposing slot needs an opposing medarot to bind to: the proxy of an
    AMALOGS table is never one (D37), so against it only effects on the part itself attach.
    """
    b = st.battle
    assert b is not None
    p = b.attacker
    part = st.field[p][b.medarot].parts[b.slot]
    card = st.cards[part.card]
    if b.dealt < 1 or part.effect is not None or not card.effect_part:
        return
    if not live_medarots(st, 1 - p) and any(
        a.source == "EFFECT" and a.target == Target.OPP_SLOT for a in card.abilities
    ):
        return
    if any(st.cards[c].type == "EFFECT" for c in st.hand[p]):
        ask(st, DP.EFFECT_ATTACH, p)


def _attach_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return [A.PASS, A.ATTACH_EFFECT]


@decision(DP.EFFECT_ATTACH, legal=_attach_legal)
def attach_effect(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Put an effect card from hand on the attack part (R24); its EFFECT ability binds (D28)."""
    if action.kind == Kind.PASS:
        return
    b = st.battle
    assert b is not None
    p = b.attacker
    part = st.field[p][b.medarot].parts[b.slot]
    card = next(c for c in st.hand[p] if st.cards[c].type == "EFFECT")
    st.hand[p].remove(card)
    part.effect = card
    st.emit(
        "attach_effect",
        f"P{p} attaches {st.cards[card].name} to {part_of(st, p, b.medarot, b.slot)}: its effect is on",
        player=p,
        card=card,
        medarot=b.medarot,
        slot=SLOTS[b.slot],
    )
    ab = next(a for a in st.cards[part.card].abilities if a.source == "EFFECT")
    if ab.target == Target.OPP_SLOT:
        ask(st, DP.EFFECT_TARGET, p)
    else:
        resolve(st, ab, Use(p, UNTIL_CARD, part.uid))


@decision(DP.EFFECT_TARGET, legal=_defending_medarots)
def effect_target(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Bind the effect to the chosen opposing medarot's slot (R26, D28)."""
    b = st.battle
    assert b is not None
    p = b.attacker
    part = st.field[p][b.medarot].parts[b.slot]
    ab = next(a for a in st.cards[part.card].abilities if a.source == "EFFECT")
    resolve(st, ab, Use(p, UNTIL_CARD, part.uid), action.arg)


@task
def battle_end(st: GameState) -> None:
    """B9 (R28): tap the attacking medarot's legs; BATTLE cards and modifiers end."""
    b = st.battle
    assert b is not None
    legs = st.field[b.attacker][b.medarot].parts[LEGS]
    legs.tapped = True
    end_duration(st, BATTLE, UNTIL_BATTLE)
    st.battle = None
    st.emit(
        "battle_end",
        f"The battle of P{b.attacker}'s {medarot_label(st, b.attacker, b.medarot)} is over",
        player=b.attacker,
    )

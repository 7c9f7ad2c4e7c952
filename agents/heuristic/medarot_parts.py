"""A rule-of-thumb player for the Medarot parts card game (``medarot_parts_v0``).

It reads the engine state but only what its seat may know: the public field, stocks, play
areas and trashes, hand and deck sizes, and its own hand. It is deterministic: the same
visible position always gives the same choice.

Rules of thumb, by decision point:

- **Action medarot tie / energy step**: act with the medarot that hits hardest; put into the
  stock the energy kind the own parts need most (charge of the parts that kind pays
  efficiently, minus what the stock already holds).
- **Turn-to-act**: exchange a destroyed arm when a replacement is in hand and affordable;
  repair a part holding counters of half its armor or more (the head first); otherwise attack
  with the strongest affordable part (ties: the cheaper charge); then use a support part;
  then play ACTION medaroter cards that have a use (repair a damaged part, draw when the hand
  is short, untap spent energy, power and charge boosts); otherwise pass.
- **Payment**: pay with the medal when its EP fit in what is still owed, then with the
  efficient energy kind, and finish an odd point with the kind the own parts need least.
- **Power window**: the attacker adds power cards and, against untapped defending legs,
  NO_EVADE; the defender plays power cuts against damage of 3 or more.
- **Defending medarot**: designate the opposing medarot that can neither evade nor protect,
  then the one with the least armor left.
- **Defence**: damage cards against damage of 2 or more; evade damage of 3 or more; otherwise
  protect against damage of 2 or more, paying just enough charge to bring it to 0 after block
  shock (or all it can); allocate damage to the part that survives with the most armor left,
  never the head unless forced, and when nothing survives lose the least useful part.
- **Effect step and targets**: always attach an effect card; aim opposing slot effects at the
  strongest part; boosts go to the own action medarot's best attack part; repairs to the part
  with the most counters, the head first.
- **Discards**: keep evade cards and usable energy; drop the card of least use first, and stop
  at 7 cards.
"""

from __future__ import annotations

from typing import Any

from agents.base import checked_move
from agents.heuristic.base import RuleOfThumbAgent
from envs.medarot_parts import actions as A
from envs.medarot_parts.actions import DP, Action, Kind
from envs.medarot_parts.cards import (
    ATTACK_ACTIONS,
    EFFICIENT_KIND,
    ENERGY,
    EVADE,
    LEGS,
    MEDAROTER,
    PART,
    PROTECT,
    REPAIR,
    SUPPORT,
    Target,
)
from envs.medarot_parts.rules.effects import use_abilities
from envs.medarot_parts.rules.values import charge, power
from envs.medarot_parts.state import GameState


class PartsHeuristic(RuleOfThumbAgent):
    """The Medarot parts game rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``."""

    def choose(self, state: GameState, seat: int) -> Action:
        """The heuristic's choice at ``state`` for ``seat`` (the player to move)."""
        return choose(state, seat)


def choose(st: GameState, seat: int) -> Action:
    """The heuristic's choice at ``st`` for ``seat`` (the player to move)."""
    legal = st.legal_actions()
    if len(legal) == 1:
        return legal[0]  # forced: the only option
    assert st.dp is not None, "the heuristic was asked to move in a finished game"
    choice = _CHOOSERS[DP(st.dp[0])](st, seat, legal)  # every decision point has its rule
    return checked_move("heuristic (medarot_parts)", st.decision, choice, legal)


# ----------------------------------------------------------------------------- helpers
def _energy_need(st: GameState, seat: int) -> list[int]:
    """Per energy kind: charge of own usable head/arm parts it pays efficiently, minus stock cards."""
    need = [0, 0, 0, 0]
    for m, med in enumerate(st.field[seat]):
        if med.stopped:
            continue
        for s in range(3):
            part = med.parts[s]
            if not part.destroyed:
                need[EFFICIENT_KIND[st.cards[part.card].action]] += charge(st, seat, m, s)
    for cid, _ in st.stock[seat]:
        need[st.cards[cid].kind] -= 1
    return need


def _remaining(st: GameState, p: int, m: int, s: int) -> int:
    part = st.field[p][m].parts[s]
    return 0 if part.destroyed else st.cards[part.card].armor - part.counters


def _best_attack_power(st: GameState, p: int, m: int) -> int:
    med = st.field[p][m]
    return max(
        (
            power(st, p, m, s)
            for s in range(3)
            if not med.parts[s].destroyed and st.cards[med.parts[s].card].action in ATTACK_ACTIONS
        ),
        default=0,
    )


# ----------------------------------------------------------------------------- decisions
def _tie(st: GameState, seat: int, legal: list[Action]) -> Action:
    return max(legal, key=lambda a: (_best_attack_power(st, seat, a.arg), -a.arg))


def _energy(st: GameState, seat: int, legal: list[Action]) -> Action:
    need = _energy_need(st, seat)
    hand = st.hand[seat]
    opts = [a for a in legal if a.kind == Kind.HAND]
    return max(opts, key=lambda a: (need[st.cards[hand[a.arg]].kind], -a.arg))


def _action(st: GameState, seat: int, legal: list[Action]) -> Action:
    hand = st.hand[seat]
    m = st.am[seat]
    uses = [a for a in legal if a.kind == Kind.USE_PART]
    cards = [a for a in legal if a.kind == Kind.HAND]
    if m >= 0:
        parts = st.field[seat][m].parts
        for a in cards:
            c = st.cards[hand[a.arg]]
            if c.type == PART and parts[c.slot].destroyed:
                return a
        for a in uses:
            if st.cards[parts[a.arg].card].action == REPAIR and _worst_damage(st, seat) >= 0.5:
                return a
        attacks = [a for a in uses if st.cards[parts[a.arg].card].action in ATTACK_ACTIONS]
        if attacks:
            return max(attacks, key=lambda a: (power(st, seat, m, a.arg), -charge(st, seat, m, a.arg)))
        for a in uses:
            if st.cards[parts[a.arg].card].action == SUPPORT:
                return a
    for a in cards:
        c = st.cards[hand[a.arg]]
        if c.type == MEDAROTER and _card_useful(st, seat, c.abilities):
            return a
    return A.PASS


def _worst_damage(st: GameState, seat: int) -> float:
    """The largest counters / armor ratio among own non-destroyed parts (heads count double)."""
    worst = 0.0
    for med in st.field[seat]:
        if med.stopped:
            continue
        for s, part in enumerate(med.parts):
            if not part.destroyed and part.counters:
                ratio = part.counters / st.cards[part.card].armor
                worst = max(worst, ratio * (2 if s == 0 else 1))
    return worst


def _card_useful(st: GameState, seat: int, abilities: Any) -> bool:
    for ab in abilities:
        if ab.op == "REPAIR" and _worst_damage(st, seat) < 0.3:
            return False
        if ab.op == "DRAW" and len(st.hand[seat]) > 5:
            return False
        if ab.op == "UNTAP_ENERGY" and sum(1 for _, t in st.stock[seat] if t) < ab.amount:
            return False
    return True


def _payment(st: GameState, seat: int, legal: list[Action]) -> Action:
    pay = st.pay
    assert pay is not None
    _, need, paid, mp, mi, kind = pay
    owed = need - paid
    if A.PAY_MEDAL in legal:
        medal_ep = 2 * st.cards[st.field[mp][mi].medal].efficient
        if medal_ep <= owed:
            return A.PAY_MEDAL
    if A.ENERGY[kind] in legal and owed >= 2:
        return A.ENERGY[kind]
    others = [a for a in legal if a.kind == Kind.ENERGY and a.arg != kind]
    if others:
        need_by_kind = _energy_need(st, seat)
        return min(others, key=lambda a: (need_by_kind[a.arg], a.arg))
    return A.ENERGY[kind] if A.ENERGY[kind] in legal else None


def _power_window(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    hand = st.hand[seat]
    attacking = b.attacker == seat
    dmg = power(st, b.attacker, b.medarot, b.slot)
    for a in legal:
        if a.kind != Kind.HAND:
            continue
        ab = st.cards[hand[a.arg]].abilities[0]
        if ab.op == "POWER" and (ab.amount > 0) == attacking and (attacking or dmg >= 3):
            return a
        if ab.op == "NO_EVADE" and attacking and not b.no_evade and len(st.hand[1 - seat]) > 0:
            return a
    return A.PASS


def _defender(st: GameState, seat: int, legal: list[Action]) -> Action:
    o = 1 - seat

    def score(a: Action) -> tuple[int, int, int]:
        parts = st.field[o][a.arg].parts
        legs = parts[LEGS]
        can_evade = not legs.destroyed and not legs.tapped
        can_protect = any(
            not x.destroyed and not x.tapped and st.cards[x.card].action == PROTECT for x in parts[:3]
        )
        armor = sum(_remaining(st, o, a.arg, s) for s in range(4))
        return (int(can_evade) + int(can_protect), _remaining(st, o, a.arg, 0), armor)

    return min(legal, key=score)


def _defense_window(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    cards = [a for a in legal if a.kind == Kind.HAND]
    if cards and b.damage >= 2:
        return cards[0]
    return A.PASS


def _response(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    if A.EVADE in legal and b.damage >= 3:
        return A.EVADE
    protects = [a for a in legal if a.kind == Kind.PROTECT]
    if protects and b.damage >= 2:
        return max(
            protects,
            key=lambda a: (power(st, seat, b.defender, a.arg), _remaining(st, seat, b.defender, a.arg)),
        )
    return A.PASS


def _amount(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    full = charge(st, seat, b.defender, b.protect)
    pw = power(st, seat, b.defender, b.protect)
    for a in legal:
        cut = pw if a.arg >= full else min(a.arg, pw)
        if b.damage - cut <= 1:
            return a
    return legal[-1]


def _allocate(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    m = b.defender
    parts = st.field[seat][m].parts

    def score(a: Action) -> tuple[int, int, int]:
        s = a.arg
        left = _remaining(st, seat, m, s) - b.damage
        survives = left > 0
        if survives:
            return (2, 0 if s == 0 else 1, left)
        # Nothing survives here: lose the least useful part, the head last of all.
        card = st.cards[parts[s].card]
        used = parts[s].tapped
        value = 100 if s == 0 else (40 if s == LEGS else card.power * 5 + card.armor - (10 if used else 0))
        return (1 if s != 0 else 0, 0, -value)

    return max(legal, key=score)


def _attach(st: GameState, seat: int, legal: list[Action]) -> Action:
    return A.ATTACH_EFFECT


def _strongest_opposing(st: GameState, seat: int, legal: list[Action], slot: int) -> Action:
    o = 1 - seat
    return max(
        legal,
        key=lambda a: (
            0 if st.field[o][a.arg].parts[slot].destroyed else 1,
            power(st, o, a.arg, slot),
            -a.arg,
        ),
    )


def _effect_target(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    card = st.cards[st.field[seat][b.medarot].parts[b.slot].card]
    ab = next(x for x in card.abilities if x.source == "EFFECT")
    return _strongest_opposing(st, seat, legal, ab.slot)


def _repair_medarot(st: GameState, seat: int, legal: list[Action]) -> Action:
    return max(
        legal,
        key=lambda a: (
            st.field[seat][a.arg].parts[0].counters,
            sum(x.counters for x in st.field[seat][a.arg].parts),
        ),
    )


def _repair_part(st: GameState, seat: int, legal: list[Action], m: int | None = None) -> Action:
    assert st.dp is not None
    target = st.dp[2][2] if m is None else m
    parts = st.field[seat][target].parts
    return max(legal, key=lambda a: (parts[a.arg].counters + (2 if a.arg == 0 else 0), -a.arg))


def _target(st: GameState, seat: int, legal: list[Action]) -> Action:
    assert st.dp is not None and st.use is not None
    e, stage = st.dp[2][0], st.dp[2][1]
    if stage == 2:
        need = _energy_need(st, seat)
        kinds = [a for a in legal if a.kind == Kind.ENERGY]
        return max(kinds, key=lambda a: (need[a.arg], -a.arg)) if kinds else A.PASS
    ab = use_abilities(st)[e]
    if stage == 1:
        if ab.target == Target.OWN_PART:
            return _repair_part(st, seat, legal, st.use[3][e][0])
        m = st.use[3][e][0]
        return max(
            legal,
            key=lambda a: (
                a.arg < 3 and not st.field[seat][m].parts[a.arg].destroyed,
                power(st, seat, m, a.arg) if a.arg < 3 else -1,
            ),
        )
    if ab.target == Target.OPP_SLOT:
        return _strongest_opposing(st, seat, legal, ab.slot)
    if ab.target == Target.OWN_PART:
        return _repair_medarot(st, seat, legal)
    am = st.am[seat]
    return next(
        (a for a in legal if a.arg == am), max(legal, key=lambda a: _best_attack_power(st, seat, a.arg))
    )


def _discard(st: GameState, seat: int, legal: list[Action]) -> Action:
    hand = st.hand[seat]
    if A.PASS in legal:
        return A.PASS
    need = _energy_need(st, seat)

    def value(a: Action) -> float:
        c = st.cards[hand[a.arg]]
        if c.type == EVADE:
            return 9.0
        if c.type == ENERGY:
            return 5.0 + min(need[c.kind], 4)
        if c.type == MEDAROTER:
            return 6.0
        if c.type == PART:
            return 4.0 if c.price <= st.assets[seat] else 1.0
        has_bare = any(
            not x.destroyed and x.effect is None and st.cards[x.card].effect_part
            for med in st.field[seat]
            for x in med.parts
        )
        return 5.0 if has_bare else 0.5

    return min(legal, key=lambda a: (value(a), a.arg))


_CHOOSERS = {
    DP.ACTION_MEDAROT_TIE: _tie,
    DP.ENERGY_PLACE: _energy,
    DP.ACTION: _action,
    DP.PAYMENT: _payment,
    DP.POWER_WINDOW: _power_window,
    DP.DEFENDER_CHOICE: _defender,
    DP.DEFENSE_WINDOW: _defense_window,
    DP.RESPONSE: _response,
    DP.PROTECT_AMOUNT: _amount,
    DP.ALLOCATE: _allocate,
    DP.EFFECT_ATTACH: _attach,
    DP.EFFECT_TARGET: _effect_target,
    DP.REPAIR_MEDAROT: _repair_medarot,
    DP.REPAIR_PART: _repair_part,
    DP.TARGET: _target,
    DP.DISCARD: _discard,
}

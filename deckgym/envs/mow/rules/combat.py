"""The attack phase (spec 5.5, R9, R14-R16, R23, R24, D32-D39).

An attack is declared, the attacker's 攻撃時 resolve, and then the engagement (交戦): both
sides deal their attack to each other at once, a master's guard reducing what it receives
(D36, D37). If either has left the field, nothing happens (R16).

At an AMALOGS table with a proxy at seat 1 (``config.proxy``, amalogs D37, D40) the proxy
master is the only attack target: the engagement deals the attacker's attack to P (no guard)
and nothing back; a guest proxy loses the hit, a base proxy 1 if the hit is at least 1.
"""

from __future__ import annotations

from deckgym.envs.core import proxy
from deckgym.envs.mow.actions import ATTACKER, DP, PASS, TARGET, Action, Kind, Phase
from deckgym.envs.mow.rules import state_check as chk
from deckgym.envs.mow.rules.field import locate, ref_at
from deckgym.envs.mow.rules.flow import ask, auto_pass, decision, push, task
from deckgym.envs.mow.rules.values import master_attack, master_guard, monster_attack, sick
from deckgym.envs.mow.state import GameState


def master_can_attack(st: GameState, p: int) -> bool:
    """R9, D32: once per turn, never on the game's first turn (the first player's; ``config.first_turn``)."""
    return st.turn != st.config.first_turn and not st.master_attacked[p]


def attackers(st: GameState) -> list[Action]:
    """K3: ATTACKER options: the master and every monster that is not sick and has not attacked.

    Facing a vacant seat there is no attack target, so no attacker is eligible; a proxy at
    seat 1 is a target (its master), so the ordinary attackers are.
    """
    p = st.active
    if st.config.vacant_seat and not st.config.proxy:
        return []
    out = [ATTACKER[0]] if master_can_attack(st, p) else []
    out += [ATTACKER[1 + i] for i, m in enumerate(st.monsters[p]) if not m.attacked and not sick(st, m)]
    return out


@task
def attack_phase(st: GameState) -> None:
    """5.2.5: ATTACK_DECLARE while an eligible attacker exists; otherwise the phase ends."""
    st.phase = int(Phase.ATTACK)
    if attackers(st):
        ask(st, DP.ATTACK_DECLARE, st.active)
    else:
        auto_pass(st, st.active, DP.ATTACK_DECLARE, "no attacker")
        push(st, ["end_phase"])


@decision(DP.ATTACK_DECLARE, legal=lambda st: [PASS, *attackers(st)])
def on_declare(st: GameState, p: int, a: Action) -> None:
    """PASS ends the attack phase; an attacker goes on to its target (R14)."""
    if a.kind == Kind.PASS:
        push(st, ["end_phase"])
        return
    ref = -1 - p if a.arg == 0 else st.monsters[p][a.arg - 1].uid
    ask(st, DP.ATTACK_TARGET, p, ["attack", ref])


def targets(st: GameState) -> list[Action]:
    """K4, R23, D34: the opponent's monsters, or its master when it has none."""
    o = 1 - st.active
    if st.monsters[o]:
        return [TARGET[9 + i] for i in range(len(st.monsters[o]))]
    return [TARGET[8]]


@decision(DP.ATTACK_TARGET, legal=targets)
def on_target(st: GameState, p: int, a: Action) -> None:
    """D35: mark the attacker, queue its 攻撃時 (resolved by the state check), then engage."""
    attacker = st.pending[1]
    target = ref_at(st, p, a.arg)
    if attacker < 0:
        st.master_attacked[p] = True
    else:
        next(m for m in st.monsters[p] if m.uid == attacker).attacked = True
    st.emit(
        "attack",
        f"{_label(st, attacker)} attacks {_label(st, target)}",
        player=p,
        attacker=_card(st, attacker),
        target_player=1 - p,
        target=_card(st, target),
    )
    chk.queue_attack(st, p, attacker, target)
    push(st, ["check"], ["engage", p, attacker, target], ["attack_phase"])


def _card(st: GameState, ref: int) -> str | None:
    """The card id of a master or monster reference (None once it has left the field)."""
    where = locate(st, ref)
    if where is None:
        return None
    if ref < 0:
        return st.masters[-1 - ref] or None  # the proxy master has no card
    return st.monsters[where[0]][where[2] - 1].card


def _label(st: GameState, ref: int) -> str:
    where = locate(st, ref)
    if where is None:
        return "a card that left"
    if ref < 0:
        return st.stand_in() if st.is_proxy(-1 - ref) else f"P{-1 - ref}'s master"
    return f"P{where[0]}'s {st.name(st.monsters[where[0]][where[2] - 1].card)}"


def attack_of(st: GameState, p: int, ref: int) -> int:
    """Effective attack of a master or monster reference of player ``p``."""
    if ref < 0:
        return master_attack(st, p)
    return monster_attack(st, p, next(m for m in st.monsters[p] if m.uid == ref))


def combat_damage(st: GameState, dealer: int, dealer_ref: int, taker: int, taker_ref: int) -> int:
    """D36: the dealer's attack, minus the taker's guard when the taker is a master (floor 0)."""
    dmg = attack_of(st, dealer, dealer_ref)
    if taker_ref < 0:
        dmg -= master_guard(st, taker)
    return max(0, dmg)


def _hurt(st: GameState, p: int, ref: int, n: int) -> None:
    if ref < 0:
        st.life[p] -= n
    else:
        next(m for m in st.monsters[p] if m.uid == ref).damage += n


@task
def engage(st: GameState, p: int, attacker: int, target: int) -> None:
    """R15, R16, D35-D37: mutual damage, simultaneously, if both are still on the field."""
    if locate(st, attacker) is None or locate(st, target) is None:
        st.emit("no_engagement", "no engagement: the attacker or the target has left the field", player=p)
        return
    o = 1 - p
    if st.is_proxy(o):
        _engage_proxy(st, p, attacker)
        push(st, ["check"])
        return
    to_target = combat_damage(st, p, attacker, o, target)
    to_attacker = combat_damage(st, o, target, p, attacker)
    _hurt(st, o, target, to_target)
    _hurt(st, p, attacker, to_attacker)
    st.emit(
        "engage",
        f"engagement: {_label(st, target)} takes {to_target}, {_label(st, attacker)} takes {to_attacker}",
        player=p,
        attacker=_card(st, attacker),
        target=_card(st, target),
        to_target=to_target,
        to_attacker=to_attacker,
    )
    push(st, ["check"])


def _engage_proxy(st: GameState, p: int, attacker: int) -> None:
    """Amalogs D37, D40: the attacker's attack goes to P (guard 0), the proxy deals 0 back.

    A guest proxy loses the hit, a base proxy exactly 1 when the hit is at least 1 (a
    successful attack); P never drops below 0. The state check that follows ends the game
    when P is 0.
    """
    hit = attack_of(st, p, attacker)
    st.life[1] = proxy.after_attack(st.life[1], hit, st.config.proxy)
    card = _card(st, attacker)
    st.emit(
        "engage",
        f"engagement: {st.stand_in()} takes {hit}, {_label(st, attacker)} takes 0",
        player=p,
        attacker=card,
        target=None,
        to_target=hit,
        to_attacker=0,
    )
    if st.config.proxy == proxy.BASE:
        what = "a successful attack costs it 1" if hit >= 1 else "no damage, no cost"
        after = f"{what}: base life {st.life[1]}"
    else:
        after = f"life {st.life[1]}"
    st.emit(
        "proxy_hit",
        f"{_label(st, attacker)} hits {st.stand_in()} for {hit}: {after}",
        player=p,
        attacker=card,
        proxy=proxy.KINDS[st.config.proxy],
        hit=hit,
        life=st.life[1],
    )

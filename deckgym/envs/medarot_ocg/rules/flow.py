"""The agenda runner of the Medarot OCG (``envs.core.flow``) and its payments.

Rules modules register *tasks* (automatic steps) with ``@task`` and *decision points*
with ``@decision(DP.X, legal=...)``. ``apply`` checks an action against the legal
options, hands it to the decision's handler, then pops and runs tasks until a task sets
the next decision point or the game ends; a game that reaches the step cap is truncated (L5).
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core import proxy as proxy_kind
from deckgym.envs.core.flow import Agenda, ask, end, push, truncate
from deckgym.envs.medarot_ocg.actions import DP, Action
from deckgym.envs.medarot_ocg.state import GameState

__all__ = [
    "apply",
    "ask",
    "ask_acting",
    "auto",
    "decision",
    "end",
    "hit_proxy",
    "legal_actions",
    "pay",
    "push",
    "run",
    "spend",
    "task",
    "truncate",
]


def _count_step(st: GameState) -> None:
    """Count the decision; truncate a live game that reaches the step cap (L5)."""
    st.steps += 1
    if not st.done and st.steps >= st.config.max_steps:
        truncate(st, f"step cap {st.config.max_steps}")


AGENDA: Final[Agenda[GameState]] = Agenda(Action, after=_count_step)
task = AGENDA.task
decision = AGENDA.decision
legal_actions = AGENDA.legal_actions
apply = AGENDA.apply
run = AGENDA.run


def ask_acting(st: GameState, kind: int) -> None:
    """Set the decision point ``kind`` of the acting Medarot's owner, unless its action has ended."""
    act = st.act
    assert act is not None
    if not act.ended:
        ask(st, kind, act.owner)


#: A payment's ``why`` (a record field) in words, where the field is a short name.
WHY_WORDS: Final = {
    "DOT": "a lasting attack",
    "DAMAGE": "an effect's damage",
    "a TRAP": "a trap",
}


def why_words(why: str) -> str:
    """What a payment is for, in words for a log line."""
    return WHY_WORDS.get(why, why)


#: Seat 1 as the log names it, by ``config.proxy`` (AMALOGS D37, D40).
PROXY_NAMES: Final[tuple[str, ...]] = ("the vacant seat", "the defender's stand-in", "the enemy base")


def hit_proxy(st: GameState, player: int, power: int) -> bool:
    """An attack of effective power ``power`` by ``player``'s Medarot on the proxy at seat 1 (AMALOGS D37, D40).

    The hit is ``power // 10``. A guest proxy loses the hit from its life P (``st.hp[1]``), a
    base proxy exactly 1 when the hit is at least 1 (``envs.core.proxy.after_attack``). P
    reaching 0 ends the table at once with seat 1 as the loser: the rest of the host's turn is
    abandoned. Returns whether the table goes on.
    """
    kind = st.config.proxy
    hit = power // 10
    before = st.hp[1]
    st.hp[1] = after = proxy_kind.after_attack(before, hit, kind)
    name = PROXY_NAMES[kind]
    if kind == proxy_kind.BASE and hit < 1:
        text = f"The attack on {name} hits 0 (power {power} ÷ 10) and does not count (life {after})"
    elif kind == proxy_kind.BASE:
        text = f"A successful attack on {name} (hit {hit}, power {power} ÷ 10): it loses 1 life, {before} → {after}"
    else:
        text = (
            f"{name[:1].upper()}{name[1:]} takes a hit of {hit} (power {power} ÷ 10): life {before} → {after}"
        )
    st.emit("proxy_hit", text, player=player, hit=hit, power=power, proxy_life=after, why="attack")
    return _proxy_alive(st, player)


def _proxy_loses(st: GameState, player: int, amount: int, why: str) -> bool:
    """An effect makes the guest proxy pay or lose ``amount`` (D37): P goes down instead. Returns whether the table goes on."""
    before = st.hp[1]
    st.hp[1] = after = proxy_kind.after_effect(before, amount, st.config.proxy)
    st.emit(
        "proxy_hit",
        f"The defender's stand-in loses {amount} life to {why_words(why)}: life {before} → {after}",
        player=player,
        hit=amount,
        power=None,
        proxy_life=after,
        why=why,
    )
    return _proxy_alive(st, player)


def _proxy_alive(st: GameState, player: int) -> bool:
    """End the table when the proxy's life is 0 (D37, D40: at once, seat 1 the loser)."""
    if st.hp[1] > 0:
        return True
    end(st, player, f"{PROXY_NAMES[st.config.proxy]} has no life left")
    return False


def pay(st: GameState, player: int, amount: int, why: str) -> bool:
    """A mandatory payment (D27): HP goes down, or the payer loses at once (L1). Returns success.

    A vacant seat (``config.vacant_seat``) pays nothing: effects aimed at it do nothing. A guest
    proxy there (AMALOGS D37) loses the amount from its life P instead, and ends the table at
    0 (then this returns False, as for a payer who loses); a base proxy (D40) loses nothing.
    """
    if amount <= 0 or (player == 1 and st.config.vacant_seat):
        if amount > 0 and st.config.proxy == proxy_kind.GUEST:
            return _proxy_loses(st, 1 - player, amount, why)
        return True
    if amount > st.hp[player]:
        text = f"P{player} cannot pay {amount} HP for {why_words(why)} (HP {st.hp[player]}) and loses"
        _hp_event(st, "cannot_pay", text, player, amount, why)
        end(st, 1 - player, f"P{player} could not pay {amount} for {why}")
        return False
    st.hp[player] -= amount
    text = f"P{player} pays {amount} HP for {why_words(why)} (HP {st.hp[player]})"
    _hp_event(st, "pay", text, player, amount, why)
    return True


def spend(st: GameState, player: int, amount: int, why: str) -> None:
    """A voluntary payment: the legal-options code has already checked it is affordable."""
    if amount > 0:
        st.hp[player] -= amount
        text = f"P{player} spends {amount} HP on {why} (HP {st.hp[player]})"
        _hp_event(st, "spend", text, player, amount, why)


def _hp_event(st: GameState, event: str, text: str, player: int, amount: int, why: str) -> None:
    """The event of a payment of ``amount`` HP for ``why``, with the payer's HP after it."""
    st.emit(event, text, player=player, amount=amount, why=why, hp=st.hp[player])


def auto(st: GameState, player: int, dp: DP, action: Action) -> None:
    """Record a decision the rules play for ``player`` (its only option) without asking it."""
    name = dp.name
    st.emit("auto", _auto_text(st, player, dp, action), player=player, decision=name, action=str(action))


def _auto_text(st: GameState, p: int, dp: DP, action: Action) -> str:
    """A forced decision in words (the card named is public by then)."""
    if dp == DP.LATE_MASTER:
        name = st.cards[st.hand[p][action.arg]].name
        return f"P{p} must make {name}, its first Medaroter drawn, its master"
    if dp == DP.EFFECT_CHOICE and st.use is not None:
        j = st.use[1]
        slot = st.master[p] if j == 3 else st.stock[p][j]
        name = st.cards[slot.card].name if slot is not None else "the card"
        return f"P{p} can use only one of the two effects of {name}"
    if dp == DP.PAY_SPLIT:
        return f"P{p} has no MedaForce in its reserve and pays the cost in HP"
    return f"P{p} has only one choice and takes it"

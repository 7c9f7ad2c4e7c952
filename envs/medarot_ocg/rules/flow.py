"""The agenda runner of the Medarot OCG (``envs.core.flow``) and its payments.

Rules modules register *tasks* (automatic steps) with ``@task`` and *decision points*
with ``@decision(DP.X, legal=...)``. ``apply`` checks an action against the legal
options, hands it to the decision's handler, then pops and runs tasks until a task sets
the next decision point or the game ends; a game that reaches the step cap is truncated (L5).
"""

from __future__ import annotations

from envs.core.flow import Agenda, ask, end, push, truncate
from envs.medarot_ocg.actions import DP, Action
from envs.medarot_ocg.state import GameState

__all__ = [
    "apply",
    "ask",
    "auto",
    "decision",
    "end",
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


AGENDA: Agenda[GameState] = Agenda(Action, after=_count_step)
task = AGENDA.task
decision = AGENDA.decision
legal_actions = AGENDA.legal_actions
apply = AGENDA.apply
run = AGENDA.run


#: A payment's ``why`` (a record field) in words, where the field is a short name.
WHY_WORDS = {
    "DOT": "a lasting attack",
    "DAMAGE": "an effect's damage",
    "a TRAP": "a trap",
}


def why_words(why: str) -> str:
    """What a payment is for, in words for a log line."""
    return WHY_WORDS.get(why, why)


def pay(st: GameState, player: int, amount: int, why: str) -> bool:
    """A mandatory payment (D27): HP goes down, or the payer loses at once (L1). Returns success.

    A vacant seat (``config.vacant_seat``) pays nothing: effects aimed at it do nothing.
    """
    if amount <= 0 or (player == 1 and st.config.vacant_seat):
        return True
    if amount > st.hp[player]:
        st.emit(
            "cannot_pay",
            f"P{player} cannot pay {amount} HP for {why_words(why)} (HP {st.hp[player]}) and loses",
            player=player,
            amount=amount,
            why=why,
            hp=st.hp[player],
        )
        end(st, 1 - player, f"P{player} could not pay {amount} for {why}")
        return False
    st.hp[player] -= amount
    st.emit(
        "pay",
        f"P{player} pays {amount} HP for {why_words(why)} (HP {st.hp[player]})",
        player=player,
        amount=amount,
        why=why,
        hp=st.hp[player],
    )
    return True


def spend(st: GameState, player: int, amount: int, why: str) -> None:
    """A voluntary payment: the legal-options code has already checked it is affordable."""
    if amount > 0:
        st.hp[player] -= amount
        st.emit(
            "spend",
            f"P{player} spends {amount} HP on {why} (HP {st.hp[player]})",
            player=player,
            amount=amount,
            why=why,
            hp=st.hp[player],
        )


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

"""The agenda runner: tasks, decision points, payments and the end of the game.

Rules modules register *tasks* (automatic steps) with ``@task`` and *decision points*
with ``@decision(DP.X, legal=...)``. ``apply`` checks an action against the legal
options, hands it to the decision's handler, then pops and runs tasks until a task sets
the next decision point or the game ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envs.core.errors import IllegalActionError, StateError
from envs.medarot_ocg.actions import DP, Action
from envs.medarot_ocg.state import GameState

Task = Callable[..., None]
Legal = Callable[[GameState, tuple[int, ...]], list[Action]]
Decide = Callable[[GameState, tuple[int, ...], Action], None]

TASKS: dict[str, Task] = {}
LEGAL: dict[int, Legal] = {}
DECIDE: dict[int, Decide] = {}


def task(fn: Task) -> Task:
    """Register an automatic step under its function name."""
    TASKS[fn.__name__] = fn
    return fn


def decision(kind: DP, legal: Legal) -> Callable[[Decide], Decide]:
    """Register the legal-options function and the handler of one decision point."""

    def deco(fn: Decide) -> Decide:
        LEGAL[kind] = legal
        DECIDE[kind] = fn
        return fn

    return deco


def push(st: GameState, *tasks: list[Any]) -> None:
    """Schedule tasks so that they run in the order given (before anything already scheduled)."""
    st.agenda.extend(reversed(tasks))


def ask(st: GameState, kind: DP, player: int, *ctx: int) -> None:
    """Set the decision point that the runner stops at."""
    st.dp = (kind, player, ctx)


def legal_actions(st: GameState) -> list[Action]:
    """Legal options at the current decision point (empty once the game is over)."""
    if st.done or st.dp is None:
        return []
    kind, _, ctx = st.dp
    return LEGAL[kind](st, ctx)


def apply(st: GameState, action: Any) -> None:
    """Validate and play ``action``; raise ``IllegalActionError`` and change nothing if illegal."""
    if st.done:
        raise IllegalActionError(action, "game over", [])
    legal = st.legal_actions()
    if not isinstance(action, Action):
        try:
            action = Action(*action)
        except TypeError:
            raise IllegalActionError(action, st.decision, legal) from None
    if action not in legal:
        raise IllegalActionError(action, f"{st.decision} (player {st.current_player})", legal)
    dp = st.dp
    assert dp is not None
    st.dp = None
    st._legal = None
    st.steps += 1
    DECIDE[dp[0]](st, dp[2], action)
    run(st)
    if not st.done and st.steps >= st.config.max_steps:
        truncate(st, f"step cap {st.config.max_steps}")


def run(st: GameState) -> None:
    """Pop and run tasks until a decision point is set or the game ends."""
    agenda = st.agenda
    tasks = TASKS
    while st.dp is None and not st.done:
        if not agenda:
            raise StateError("the agenda ran empty with no decision point; the state is corrupt")
        task = agenda.pop()
        tasks[task[0]](st, *task[1:])
    st._legal = None


def pay(st: GameState, player: int, amount: int, why: str) -> bool:
    """A mandatory payment (D27): HP goes down, or the payer loses at once (L1). Returns success.

    A vacant seat (``config.vacant_seat``) pays nothing: effects aimed at it do nothing.
    """
    if amount <= 0 or (player == 1 and st.config.vacant_seat):
        return True
    if amount > st.hp[player]:
        st.log(f"P{player} cannot pay {amount} HP for {why} (HP {st.hp[player]}) and loses")
        end(st, 1 - player, f"P{player} could not pay {amount} for {why}")
        return False
    st.hp[player] -= amount
    st.log(f"P{player} pays {amount} HP for {why} (HP {st.hp[player]})")
    return True


def spend(st: GameState, player: int, amount: int, why: str) -> None:
    """A voluntary payment: the legal-options code has already checked it is affordable."""
    if amount > 0:
        st.hp[player] -= amount
        st.log(f"P{player} spends {amount} HP on {why} (HP {st.hp[player]})")


def end(st: GameState, winner: int, reason: str) -> None:
    """End the game: ``winner`` 0 or 1, or 2 for a draw."""
    st.done = True
    st.winner = winner
    st.reason = reason
    st.dp = None
    st.agenda.clear()
    st.log(f"game over: {reason}")


def truncate(st: GameState, reason: str) -> None:
    """Stop the game at a cap (L5): no winner, both agents truncated."""
    st.done = True
    st.truncated = True
    st.winner = -1
    st.reason = reason
    st.dp = None
    st.agenda.clear()
    st.log(f"truncated: {reason}")

"""The agenda runner: tasks, decision points and the end of the game.

Rules modules register *tasks* (automatic steps) with ``@task`` and decision points with
``@decision(DP.X, legal=...)``. ``apply`` checks an action against the legal options, hands
it to the decision's handler, then pops and runs tasks until a task sets the next decision
point or the game ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envs.core.errors import IllegalActionError, StateError
from envs.mow.actions import DP, Action
from envs.mow.state import GameState

Task = Callable[..., None]
Legal = Callable[[GameState], list[Action]]
Decide = Callable[[GameState, int, Action], None]

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


def ask(st: GameState, kind: DP, player: int, pending: list[Any] | None = None) -> None:
    """Set the decision point the runner stops at; ``pending`` is the handler's context."""
    st.dp = (int(kind), player)
    st.pending = pending


def legal_actions(st: GameState) -> list[Action]:
    """Legal options at the current decision point (empty once the game is over)."""
    if st.done or st.dp is None:
        return []
    return LEGAL[st.dp[0]](st)


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
    kind, player = st.dp  # type: ignore[misc]
    st.dp = None
    st._legal = None
    st.decisions += 1
    DECIDE[kind](st, player, action)
    run(st)
    if not st.done and st.decisions > st.config.max_decisions_per_turn:
        truncate(st, f"more than {st.config.max_decisions_per_turn} decisions in turn {st.t} (D42)")


def run(st: GameState) -> None:
    """Pop and run tasks until a decision point is set or the game ends."""
    agenda = st.agenda
    tasks = TASKS
    while st.dp is None and not st.done:
        if not agenda:
            raise StateError("the agenda ran empty with no decision point; the state is corrupt")
        name, *args = agenda.pop()
        tasks[name](st, *args)
    st._legal = None


def end(st: GameState, winner: int, reason: str) -> None:
    """End the game (section 8): ``winner`` 0 or 1, or 2 for a draw; pending work is abandoned."""
    st.done = True
    st.winner = winner
    st.reason = reason
    st.dp = None
    st.pending = None
    st.agenda.clear()
    st.triggers.clear()
    st.log(f"game over: {reason}")


def truncate(st: GameState, reason: str) -> None:
    """Stop the game at a cap (D42, 8.5): no winner, both agents truncated."""
    end(st, -1, reason)
    st.truncated = True

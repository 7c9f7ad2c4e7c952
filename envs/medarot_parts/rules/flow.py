"""The agenda runner: tasks, decision points, forced decisions and the end of the game.

Rules modules register *tasks* (automatic steps) with ``@task`` and *decision points* with
``@decision(DP.X, legal=...)``. ``apply`` checks an action against the legal options, hands it
to the decision's handler, then pops and runs tasks until a task sets the next decision point
or the game ends. A decision with exactly one legal option is applied here, not presented to
the agent (D37).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envs.core.errors import IllegalActionError, StateError
from envs.medarot_parts.actions import DP, Action
from envs.medarot_parts.state import GameState

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
    st.steps += 1
    _decide(st, action)
    run(st)
    if not st.done and st.steps >= st.config.max_steps:
        truncate(st, f"step cap {st.config.max_steps}")


def _decide(st: GameState, action: Action) -> None:
    dp = st.dp
    assert dp is not None
    st.dp = None
    st._legal = None
    DECIDE[dp[0]](st, dp[2], action)


def run(st: GameState) -> None:
    """Pop and run tasks until a decision with two or more options is set or the game ends (D37)."""
    agenda = st.agenda
    tasks = TASKS
    while not st.done:
        if st.dp is not None:
            kind, _, ctx = st.dp
            legal = LEGAL[kind](st, ctx)
            if not legal:
                raise StateError(f"decision point {DP(kind).name} has no legal option; the state is corrupt")
            if len(legal) > 1:
                st._legal = legal
                return
            st.log(f"P{st.dp[1]} {DP(kind).name}: {legal[0]} (forced)")
            _decide(st, legal[0])
            continue
        if not agenda:
            raise StateError("the agenda ran empty with no decision point; the state is corrupt")
        name, *args = agenda.pop()
        tasks[name](st, *args)
    st._legal = None


def end(st: GameState, winner: int, reason: str) -> None:
    """End the game: ``winner`` 0 or 1, or 2 for a draw."""
    st.done = True
    st.winner = winner
    st.reason = reason
    st.dp = None
    st.agenda.clear()
    st.log(f"game over: {reason}")


def truncate(st: GameState, reason: str) -> None:
    """Stop the game at a cap (D35): no winner, both agents truncated."""
    st.done = True
    st.truncated = True
    st.winner = -1
    st.reason = reason
    st.dp = None
    st.agenda.clear()
    st.log(f"truncated: {reason}")

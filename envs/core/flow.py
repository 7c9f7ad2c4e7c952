"""The agenda runner: tasks, decision points and the end of the game.

A state's control flow is an *agenda*, a stack of small tasks (``[name, *args]``), and a
decision point ``dp = (kind, player, ...)`` where the runner stops. Rules modules register
tasks (automatic steps) with ``@agenda.task`` and decision points with
``@agenda.decision(kind, legal=...)``. ``apply`` checks an action against the legal options,
hands it to the decision's handler, then pops and runs tasks until a task sets the next
decision point or the game ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from envs.core.errors import IllegalActionError, StateError
from envs.core.protocol import State


class AgendaState(State, Protocol):
    """What the runner reads and writes on a state, beyond the engine protocol."""

    agenda: list[list[Any]]
    dp: Any
    done: bool
    truncated: bool
    winner: int
    reason: str
    _legal: list[Any] | None

    @property
    def decision(self) -> str:
        """Name of the current decision point."""
        ...

    def log(self, text: str) -> None:
        """Append to the event log."""
        ...


S = TypeVar("S", bound=AgendaState)
Task = Callable[..., None]
Legal = Callable[..., list[Any]]
Decide = Callable[..., None]


def push(st: AgendaState, *tasks: list[Any]) -> None:
    """Schedule tasks so that they run in the order given (before anything already scheduled)."""
    st.agenda.extend(reversed(tasks))


def ask(st: AgendaState, kind: int, player: int, *ctx: int) -> None:
    """Set the decision point ``(kind, player, ctx)`` that the runner stops at."""
    st.dp = (kind, player, ctx)


def end(st: AgendaState, winner: int, reason: str) -> None:
    """End the game: ``winner`` 0 or 1, or 2 for a draw; pending work is abandoned."""
    st.done = True
    st.winner = winner
    st.reason = reason
    st.dp = None
    st.agenda.clear()
    st.log(f"game over: {reason}")


def truncate(st: AgendaState, reason: str) -> None:
    """Stop the game at a cap: no winner, every agent truncated."""
    st.done = True
    st.truncated = True
    st.winner = -1
    st.reason = reason
    st.dp = None
    st.agenda.clear()
    st.log(f"truncated: {reason}")


class Agenda(Generic[S]):
    """The registered tasks and decision points of one ruleset, and the loop that runs them.

    Args:
        action: the ruleset's action type; ``apply`` converts plain tuples to it.
        context: which field of ``dp`` a decision handler receives after the state (by
            default the context tuple of ``dp = (kind, player, ctx)``); ``legal_actions``
            hands the legal-options function the same field.
        before: called after the decision point is cleared and before its handler runs.
        after: called after every decision once the runner stops (counters, caps).
    """

    def __init__(
        self,
        action: type,
        *,
        context: int = 2,
        before: Callable[[S], None] | None = None,
        after: Callable[[S], None] | None = None,
    ) -> None:
        self.action = action
        self.context = context
        self.after = after
        self.before = before
        self.tasks: dict[str, Task] = {}
        self.legal: dict[int, Legal] = {}
        self.decide: dict[int, Decide] = {}

    def task(self, fn: Task) -> Task:
        """Register an automatic step under its function name."""
        self.tasks[fn.__name__] = fn
        return fn

    def decision(self, *kinds: int, legal: Legal) -> Callable[[Decide], Decide]:
        """Register the legal-options function and the handler of one or more decision points."""

        def deco(fn: Decide) -> Decide:
            for kind in kinds:
                self.legal[kind] = legal
                self.decide[kind] = fn
            return fn

        return deco

    def legal_actions(self, st: S) -> list[Any]:
        """Legal options at the current decision point (empty once the game is over)."""
        dp = st.dp
        if st.done or dp is None:
            return []
        return self.legal[dp[0]](st, dp[self.context])

    def check(self, st: S, action: Any, over: str = "game over") -> Any:
        """``action`` as the ruleset's action type if it is legal now.

        Raises:
            IllegalActionError: it is not legal (``over`` names the decision once the game is over).
        """
        if st.done:
            raise IllegalActionError(action, over, [])
        legal = st.legal_actions()
        if not isinstance(action, self.action):
            try:
                action = self.action(*action)
            except TypeError:
                raise IllegalActionError(action, st.decision, legal) from None
        if action not in legal:
            raise IllegalActionError(action, f"{st.decision} (player {st.current_player})", legal)
        return action

    def apply(self, st: S, action: Any) -> None:
        """Validate and play ``action``; raise ``IllegalActionError`` and change nothing if illegal."""
        action = self.check(st, action)
        dp = st.dp
        st.dp = None
        st._legal = None
        if self.before is not None:
            self.before(st)
        self.decide[dp[0]](st, dp[self.context], action)
        self.run(st)
        if self.after is not None:
            self.after(st)

    def run(self, st: S) -> None:
        """Pop and run tasks until a decision point is set or the game ends."""
        agenda = st.agenda
        tasks = self.tasks
        while st.dp is None and not st.done:
            if not agenda:
                raise StateError("the agenda ran empty with no decision point; the state is corrupt")
            task = agenda.pop()
            tasks[task[0]](st, *task[1:])
        st._legal = None

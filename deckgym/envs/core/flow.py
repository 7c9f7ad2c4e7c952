"""The agenda runner: tasks, decision points and the end of the game.

A state's control flow is an *agenda*, a stack of small tasks (``[name, *args]``), and a
decision point ``decision_point = (kind, player, ...)`` where the runner stops. Rules modules register
tasks (automatic steps) with ``@agenda.task`` and decision points with
``@agenda.decision(kind, legal=...)``. ``apply`` checks an action against the legal options,
hands it to the decision's handler, then pops and runs tasks until a task sets the next
decision point or the game ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Generic, Protocol, TypeVar

from deckgym.envs.core.errors import IllegalActionError, StateError
from deckgym.envs.core.protocol import State


class AgendaState(State, Protocol):
    """What the runner reads and writes on a state, beyond the engine protocol."""

    agenda: list[list[Any]]
    decision_point: Any
    done: bool
    winner: int
    reason: str
    _legal: list[Any] | None

    @property
    def decision(self) -> str:
        """Name of the current decision point."""
        ...

    def emit(
        self, kind: str, text: str, only: tuple[int, dict[str, Any]] | None = None, **fields: Any
    ) -> None:
        """Log one event: its text line and its structured record (``envs.core.events``)."""
        ...


S = TypeVar("S", bound=AgendaState)

#: Automatic steps (tasks, and forced decisions where a ruleset plays them) that one ``apply``
#: may run. Real turns stay far below it (``scripts/soak.py`` reports the largest count seen);
#: past it the rules are looping, and the runner raises ``StateError`` instead of hanging.
MAX_AUTO_STEPS: Final = 100_000
#: Tasks named in the ``StateError`` of a runaway agenda.
RUNAWAY_TAIL: Final = 8
#: Every agenda runner built in this process (one per ruleset), for soak reports.
AGENDAS: Final[list[Agenda[Any]]] = []


def most_auto_steps(reset: bool = False) -> int:
    """The most automatic steps any ruleset's ``run`` took in this process; ``reset`` zeroes the marks."""
    most = max((a.most_auto_steps for a in AGENDAS), default=0)
    if reset:
        for a in AGENDAS:
            a.most_auto_steps = 0
    return most


Task = Callable[..., None]
Legal = Callable[..., list[Any]]
Decide = Callable[..., None]


def push(st: AgendaState, *tasks: list[Any]) -> None:
    """Schedule tasks so that they run in the order given (before anything already scheduled)."""
    agenda = st.agenda
    for k in range(len(tasks) - 1, -1, -1):  # (indexed: compiled, ``reversed`` is a generic iterator)
        agenda.append(tasks[k])


def run_task(tasks: dict[str, Task], st: Any, task: list[Any]) -> None:
    """Run one agenda entry ``[name, *args]`` with the registered task ``name``.

    The common arities are called with their arguments spelled out: in the compiled build that
    is a vector call, where ``fn(st, *args)`` builds a tuple and goes through the generic call.
    """
    fn = tasks[task[0]]
    n = len(task)
    if n == 1:
        fn(st)
    elif n == 2:
        fn(st, task[1])
    elif n == 3:
        fn(st, task[1], task[2])
    else:
        fn(st, *task[1:])


def ask(st: AgendaState, kind: int, player: int, *ctx: int) -> None:
    """Set the decision point ``(kind, player, ctx)`` that the runner stops at."""
    st.decision_point = (kind, player, ctx)


def end(st: AgendaState, winner: int, reason: str) -> None:
    """End the game: ``winner`` 0 or 1, or 2 for a draw; pending work is abandoned."""
    st.done = True
    st.winner = winner
    st.reason = reason
    st.decision_point = None
    st.agenda.clear()
    st.emit("end", f"game over: {reason}", winner=winner, reason=reason)


def truncate(st: AgendaState, reason: str) -> None:
    """Stop the game at a cap: no winner, every agent truncated."""
    st.done = True
    st.truncated = True
    st.winner = -1
    st.reason = reason
    st.decision_point = None
    st.agenda.clear()
    st.emit("truncated", f"truncated: {reason}", reason=reason)


class Agenda(Generic[S]):
    """The registered tasks and decision points of one ruleset, and the loop that runs them.

    Args:
        action: the ruleset's action type; ``apply`` converts plain tuples to it.
        context: which field of ``decision_point`` a decision handler receives after the state (by
            default the context tuple of ``decision_point = (kind, player, ctx)``); ``legal_actions``
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
        #: The bound on automatic steps per ``apply`` (see ``MAX_AUTO_STEPS``).
        self.max_auto_steps = MAX_AUTO_STEPS
        #: The most automatic steps one ``run`` has taken in this process (a high-water mark).
        self.most_auto_steps = 0
        AGENDAS.append(self)

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

    def start(self, st: S, setup: Callable[[S], None]) -> S:
        """``st`` after ``setup`` (the ruleset's automatic opening steps), run to its first decision."""
        setup(st)
        self.run(st)
        return st

    def legal_actions(self, st: S) -> list[Any]:
        """Legal options at the current decision point (empty once the game is over)."""
        point = st.decision_point
        if st.done or point is None:
            return []
        return self.legal[point[0]](st, point[self.context])

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
        point = st.decision_point
        st.decision_point = None
        st._legal = None
        if self.before is not None:
            self.before(st)
        self.decide[point[0]](st, point[self.context], action)
        self.run(st, origin=point)
        if self.after is not None:
            self.after(st)

    def run(self, st: S, origin: Any = None) -> None:
        """Pop and run tasks until a decision point is set or the game ends.

        ``origin`` is the decision point the last action was played at (for error messages).

        Raises:
            StateError: the agenda ran empty, or ran more than ``max_auto_steps`` tasks.
        """
        agenda = st.agenda
        tasks = self.tasks
        limit = self.max_auto_steps
        n = 0
        while st.decision_point is None and not st.done:
            if n > limit:
                self.runaway(st, origin)
            if not agenda:
                raise StateError("the agenda ran empty with no decision point; the state is corrupt")
            run_task(tasks, st, agenda.pop())
            n += 1
        self.most_auto_steps = max(self.most_auto_steps, n)
        st._legal = None

    def runaway(self, st: S, origin: Any) -> None:
        """Raise the ``StateError`` of an agenda that passed ``max_auto_steps`` without a decision.

        The message names the ruleset, the decision point the action was played at and the
        next tasks of the cycle (run to show them); the state stays dumpable with ``to_dict``.
        """
        seen: list[str] = []
        agenda = st.agenda
        while agenda and len(seen) < RUNAWAY_TAIL and st.decision_point is None and not st.done:
            task = agenda.pop()
            seen.append(task[0])
            run_task(self.tasks, st, task)
        ruleset = (
            type(st).__module__.split(".")[2]
            if type(st).__module__.startswith("deckgym.envs.")
            else type(st).__name__
        )
        names = getattr(st, "DECISIONS", None)
        where = "none (a run outside apply)" if origin is None else str(origin[0])
        if origin is not None and names is not None:
            try:
                where = names(origin[0]).name
            except ValueError:
                pass
        upcoming = [str(task[0]) for task in agenda[-RUNAWAY_TAIL:]][::-1]
        raise StateError(
            f"{ruleset}: the rules ran more than {self.max_auto_steps} automatic steps after decision "
            f"point {where} without reaching a decision (a rules loop); last tasks: "
            f"{', '.join(seen) or '(none: forced decisions)'}; next on the agenda: "
            f"{', '.join(upcoming) or '(empty)'}"
        )

"""The agenda runner of the Medarot parts game (``envs.core.flow``), with forced decisions.

Rules modules register *tasks* (automatic steps) with ``@task`` and *decision points* with
``@decision(DP.X, legal=...)``. ``apply`` checks an action against the legal options, hands it
to the decision's handler, then pops and runs tasks until a task sets the next decision point
or the game ends. A decision with exactly one legal option is applied here, not presented to
the agent (D37). A game that reaches the step cap is truncated (D35).
"""

from __future__ import annotations

import functools
from typing import Any, Final

from deckgym.envs.core.errors import StateError
from deckgym.envs.core.flow import Agenda, ask, end, push, run_task, truncate
from deckgym.envs.medarot_parts.actions import DP, Action
from deckgym.envs.medarot_parts.state import GameState


def narrate(st: GameState, action: Action) -> str:
    """A forced move in words for the log (``envs.medarot_parts.describe.narrate``)."""
    from deckgym.envs.medarot_parts.describe import narrate as words

    return words(st, action)


__all__ = ["apply", "ask", "decision", "end", "legal_actions", "push", "run", "task", "truncate"]


class ForcedAgenda(Agenda[GameState]):
    """The agenda runner that plays a decision with a single legal option itself (D37)."""

    def run(self, st: GameState, origin: Any = None) -> None:
        """Pop and run tasks until a decision with two or more options is set or the game ends.

        Tasks and forced decisions together count against ``max_auto_steps`` (``StateError`` past it).
        """
        agenda = st.agenda
        tasks = self.tasks
        n = 0
        while not st.done:
            n += 1
            if n > self.max_auto_steps:
                self.runaway(st, origin)
            if st.decision_point is not None:
                kind, player, ctx = st.decision_point
                legal = self.legal[kind](st, ctx)
                if not legal:
                    raise StateError(
                        f"decision point {DP(kind).name} has no legal option; the state is corrupt"
                    )
                if len(legal) > 1:
                    st._legal = legal
                    self.most_auto_steps = max(self.most_auto_steps, n - 1)
                    return
                name = _DP_NAMES[kind]
                label = _label(legal[0])
                # a muted state (a search's rollout) logs nothing: spare it the sentence
                st.emit(
                    "auto",
                    "" if st._muted else f"{narrate(st, legal[0])} (forced: the only option)",
                    player=int(player),
                    decision=name,
                    action=label,
                )
                st.decision_point = None
                st._legal = None
                self.decide[kind](st, ctx, legal[0])
                continue
            if not agenda:
                raise StateError("the agenda ran empty with no decision point; the state is corrupt")
            run_task(tasks, st, agenda.pop())
        self.most_auto_steps = max(self.most_auto_steps, n)
        st._legal = None


#: decision kind -> its name (the ``auto`` event's ``decision``)
_DP_NAMES: Final = {int(d): d.name for d in DP}


@functools.cache
def _label(action: Action) -> str:
    """``str(action)``, worked out once per action as forced moves are played (a few hundred exist)."""
    return str(action)


def _count_step(st: GameState) -> None:
    """Count the decision; truncate a live game that reaches the step cap (D35)."""
    st.steps += 1
    if not st.done and st.steps >= st.config.max_steps:
        truncate(st, f"step cap {st.config.max_steps}")


AGENDA: Final = ForcedAgenda(Action, after=_count_step)
task = AGENDA.task
decision = AGENDA.decision
legal_actions = AGENDA.legal_actions
apply = AGENDA.apply
run = AGENDA.run

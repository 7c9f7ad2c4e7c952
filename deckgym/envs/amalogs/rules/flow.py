"""Decision points and the apply loop of the meta-game (``envs.core.flow``).

Each phase registers the function listing its legal actions and the handler that plays a
chosen action (``@decision(Phase.X, legal=...)``). ``apply`` checks the action against the legal
options first, so an illegal action raises ``IllegalActionError`` and changes nothing; the
handler then runs every automatic step up to the next decision point or the end.

Phases hand over to one another by name: the step that opens a phase (the next team turn,
the respawn phase) is registered with ``@task`` and started with ``run_task(st, name)``, so
the modules of the start-up, the team turn and the respawn phase do not import one another.
"""

from __future__ import annotations

from typing import Any, Final

from deckgym.envs.amalogs.actions import CORE_PHASES, Action, Kind, Phase
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core.flow import Agenda

__all__ = ["apply", "ask", "decision", "legal_actions", "run_task", "task"]


# ``AmalogsState`` is no ``AgendaState``: it has no task stack (``agenda``), its phase being its
# decision point. ``PhaseAgenda`` overrides the methods that read ``decision_point`` and never
# calls ``run``, so it uses only the registry and ``check`` and is typed over ``Any``.
class PhaseAgenda(Agenda[Any]):
    """Decision points keyed by the phase; each handler runs its own automatic steps."""

    def legal_actions(self, st: AmalogsState) -> list[Action]:
        """Legal options of the player to act (empty once the game is over)."""
        if st.done:
            return []
        return self.legal[st.phase](st)

    def apply(self, st: AmalogsState, action: Any) -> None:
        """Validate and play ``action``; raise ``IllegalActionError`` and change nothing if it is illegal."""
        if not (
            st.phase in CORE_PHASES
            and not st.done
            and type(action) is Action
            and action[0] == Kind.CORE
            and action[1] in st.table.legal_actions()
        ):  # a legal core action is found in the table's own list; anything else is checked in full
            action = self.check(st, action, over="GAME_OVER")
        st._legal = None
        self.decide[st.phase](st, action)
        st._legal = None


def ask(st: AmalogsState, phase: Phase, player: int) -> None:
    """Stop at a decision of ``player`` in ``phase``."""
    st.phase = phase
    st.actor = player


AGENDA: Final = PhaseAgenda(Action)
decision = AGENDA.decision
task = AGENDA.task
legal_actions = AGENDA.legal_actions
apply = AGENDA.apply


def run_task(st: AmalogsState, name: str, *args: Any) -> None:
    """Run the step registered as ``name`` (with ``@task``) now, e.g. ``run_task(st, "next_team_turn")``.

    Raises:
        KeyError: no step has that name (the message lists the registered ones).
    """
    step = AGENDA.tasks.get(name)
    if step is None:
        raise KeyError(f"no AMALOGS step named {name!r}; registered: {', '.join(sorted(AGENDA.tasks))}")
    step(st, *args)

"""The agenda runner of MoW (``envs.core.flow``): decision points and the end of the game.

Rules modules register *tasks* (automatic steps) with ``@task`` and decision points with
``@decision(DP.X, legal=...)``. ``apply`` checks an action against the legal options, hands
it to the decision's handler, then pops and runs tasks until a task sets the next decision
point or the game ends. A decision point is ``(kind, player, ())`` (MoW's handlers read their context from ``pending``); its handler gets the player and
reads its context from ``st.pending``.
"""

from __future__ import annotations

from typing import Any, Final

from deckgym.envs.core import flow
from deckgym.envs.core.flow import Agenda, push
from deckgym.envs.mow.actions import DP, Action
from deckgym.envs.mow.state import GameState

__all__ = [
    "apply",
    "ask",
    "auto",
    "auto_pass",
    "auto_skip",
    "decision",
    "end",
    "legal_actions",
    "push",
    "run",
    "task",
    "truncate",
]


class MowAgenda(Agenda[GameState]):
    """The agenda runner whose legal-options functions read only the state."""

    def legal_actions(self, st: GameState) -> list[Action]:
        """Legal options at the current decision point (empty once the game is over)."""
        if st.done or st.decision_point is None:
            return []
        return self.legal[st.decision_point[0]](st)


def ask(st: GameState, kind: DP, player: int, pending: list[Any] | None = None) -> None:
    """Set the decision point the runner stops at; ``pending`` is the handler's context."""
    st.decision_point = (int(kind), player, ())
    st.pending = pending


def auto(st: GameState, player: int, kind: DP, action: str, text: str) -> None:
    """Record a decision the engine plays by itself (an ``auto`` event): ``action`` at ``kind``."""
    st.emit("auto", text, player=player, decision=kind.name, action=action)


#: What a player does not do when a decision point is passed by itself (``auto_pass``).
PASS_WORDS: Final = {
    DP.CHARGE: "charges no more cards",
    DP.ATTACK_DECLARE: "has no more attacks",
    DP.COUNTER_WINDOW: "does not counter",
}
#: The choice a skipped primitive would have asked for (``auto_skip``).
SKIP_WORDS: Final = {
    DP.EFFECT_TARGET: "has no target to choose",
    DP.EFFECT_DISCARD: "has no card to discard",
    DP.EXP_FROM_HAND: "has no card to put into experience",
    DP.SEARCH_CHOICE: "finds no card to take",
    DP.RECOVER_CHOICE: "finds no card to take back",
}


def auto_pass(st: GameState, player: int, kind: DP, why: str) -> None:
    """Record a decision point skipped as a PASS for ``player`` (``why``: the rule that skips it)."""
    words = PASS_WORDS.get(kind, "passes")
    auto(st, player, kind, "PASS", f"P{player} {words} ({why})")


def auto_skip(st: GameState, player: int, kind: DP, why: str) -> None:
    """Record a choice skipped because it has no option (``why``): the primitive is skipped."""
    words = SKIP_WORDS.get(kind, "has nothing to choose")
    auto(st, player, kind, "none", f"P{player} {words} ({why}): that part of the effect is skipped")


def end(st: GameState, winner: int, reason: str) -> None:
    """End the game (section 8): ``winner`` 0 or 1, or 2 for a draw; pending work is abandoned."""
    st.pending = None
    st.triggers.clear()
    flow.end(st, winner, reason)


def truncate(st: GameState, reason: str) -> None:
    """Stop the game at a cap (D42, 8.5): no winner, both agents truncated."""
    end(st, -1, reason)
    st.truncated = True


def _count_decision(st: GameState) -> None:
    """Count the decision against the per-turn cap (the turn start resets the count)."""
    st.decisions += 1


def _check_cap(st: GameState) -> None:
    """Truncate a live game whose turn has taken more decisions than the cap allows (D42)."""
    if not st.done and st.decisions > st.config.max_decisions_per_turn:
        truncate(st, f"more than {st.config.max_decisions_per_turn} decisions in turn {st.turn} (D42)")


AGENDA: Final = MowAgenda(Action, context=1, before=_count_decision, after=_check_cap)
task = AGENDA.task
decision = AGENDA.decision
legal_actions = AGENDA.legal_actions
apply = AGENDA.apply
run = AGENDA.run

"""Decision points and the apply loop of the meta-game.

Each phase registers the function listing its legal actions and the handler that plays a
chosen action (``@decision(Phase.X, legal)``). ``apply`` checks the action against the legal
options first, so an illegal action raises ``IllegalActionError`` and changes nothing; the
handler then runs every automatic step up to the next decision point or the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envs.amalogs.actions import Action, Phase
from envs.amalogs.state import AmalogsState
from envs.core.errors import IllegalActionError

Legal = Callable[[AmalogsState], list[Action]]
Decide = Callable[[AmalogsState, Action], None]

LEGAL: dict[Phase, Legal] = {}
DECIDE: dict[Phase, Decide] = {}


def decision(*phases: Phase, legal: Legal) -> Callable[[Decide], Decide]:
    """Register the legal-options function and the handler of one or more phases."""

    def deco(fn: Decide) -> Decide:
        for phase in phases:
            LEGAL[phase] = legal
            DECIDE[phase] = fn
        return fn

    return deco


def ask(st: AmalogsState, phase: Phase, player: int) -> None:
    """Stop at a decision of ``player`` in ``phase``."""
    st.phase = phase
    st.actor = player


def legal_actions(st: AmalogsState) -> list[Action]:
    """Legal options of the player to act (empty once the game is over)."""
    if st.done:
        return []
    return LEGAL[st.phase](st)


def apply(st: AmalogsState, action: Any) -> None:
    """Validate and play ``action``; raise ``IllegalActionError`` and change nothing if it is illegal."""
    if st.done:
        raise IllegalActionError(action, "GAME_OVER", [])
    legal = st.legal_actions()
    if not isinstance(action, Action):
        try:
            action = Action(*action)
        except TypeError:
            raise IllegalActionError(action, st.decision, legal) from None
    if action not in legal:
        raise IllegalActionError(action, f"{st.decision} (player {st.actor})", legal)
    st._legal = None
    DECIDE[st.phase](st, action)
    st._legal = None

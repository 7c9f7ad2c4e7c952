"""Respawn phase (R25-R28, D29).

After every team turn, each exited player in index order chooses a ruleset, plays the new
core game's solo first turn and places its avatar in its spawn area.
"""

from __future__ import annotations

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Phase
from deckgym.envs.amalogs.rules import core
from deckgym.envs.amalogs.rules.flow import ask, decision, run_task, task
from deckgym.envs.amalogs.rules.startup import place_avatar, spawn_squares
from deckgym.envs.amalogs.state import AmalogsState


@task
def begin_respawn(st: AmalogsState) -> None:
    """R25, D29: the respawn phase is held after every team turn, even when nobody has exited."""
    st.queue = [i for i, a in enumerate(st.avatars) if a.exited]
    next_respawn(st)


def next_respawn(st: AmalogsState) -> None:
    """Step 1 (R26) and step 2 (R27) for the next exited player; the next team turn when none is left."""
    if st.queue:
        core.offer_core_game(st, st.queue[0], respawn=True)
    else:
        run_task(st, "next_team_turn")


@core.after_table(Phase.RESPAWN_CORE)
def after_respawn_solo(st: AmalogsState) -> None:
    """Step 3 (R28): the player places its avatar in its spawn area."""
    player = core.end_solo(st)
    ask(st, Phase.RESPAWN_PLACE, player)


@decision(Phase.RESPAWN_PLACE, legal=lambda st: [A.SQUARE[s] for s in spawn_squares(st, st.actor)])
def on_respawn_place(st: AmalogsState, a: Action) -> None:
    """SQUARE s: the avatar is back with 0 points, not Guarding, not dueled (D29)."""
    av = st.avatars[st.actor]
    av.exited = False
    av.ap = 0
    av.guarding = False
    av.dueled = False
    av.ended = False
    place_avatar(st, a.arg, "respawn", "comes back on")
    next_respawn(st)

"""Start-up phase (R1-R5, D8).

Base lives, every player's core game and solo first turn, avatar placement in the order
A0, B0, A1, B1, A2, B2, and the first team drawn by the RNG.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Phase
from deckgym.envs.amalogs.config import AmalogsConfig
from deckgym.envs.amalogs.events import player_name, square_name
from deckgym.envs.amalogs.rules import core
from deckgym.envs.amalogs.rules.flow import ask, decision, run_task
from deckgym.envs.amalogs.rules.geometry import SPAWN, is_free
from deckgym.envs.amalogs.state import AmalogsState

#: R5: action points of each avatar of the second team at the start.
SECOND_TEAM_POINTS: Final = 2


def new_game(config: AmalogsConfig, seed: int) -> AmalogsState:
    """A new match stopped at its first decision (R1: both base lives are set by the state)."""
    st = AmalogsState(config, seed)
    st.queue = list(range(config.num_players))
    next_core_game(st)
    return st


def next_core_game(st: AmalogsState) -> None:
    """D8 (2): players in index order choose a ruleset and play its solo first turn; then placement."""
    if st.queue:
        core.offer_core_game(st, st.queue[0], respawn=False)
        return
    st.queue = placement_order(st)
    ask(st, Phase.STARTUP_PLACE, st.queue[0])


@core.after_table(Phase.STARTUP_CORE)
def after_startup_solo(st: AmalogsState) -> None:
    """The solo first turn is over: the next player's core game."""
    core.end_solo(st)
    st.queue.pop(0)
    next_core_game(st)


def placement_order(st: AmalogsState) -> list[int]:
    """D8 (3): A0, B0, A1, B1, A2, B2 (absent slots skipped)."""
    na, nb = st.config.team_sizes
    out = []
    for k in range(3):
        if k < na:
            out.append(k)
        if k < nb:
            out.append(na + k)
    return out


def spawn_squares(st: AmalogsState, player: int) -> list[int]:
    """R3, D11: free squares of the player's own spawn area."""
    occupied = {a.square for a in st.avatars if a.square >= 0}
    return [s for s in SPAWN[st.avatars[player].team] if is_free(s, occupied)]


def place_avatar(st: AmalogsState, square: int, event: str, words: str) -> None:
    """Put the actor's avatar on spawn ``square``, announce it (``event``) and end its turn in the queue."""
    st.avatars[st.actor].square = square
    st.emit(
        event,
        f"{player_name(st, st.actor)} {words} {square_name(square)}",
        player=st.actor,
        square=int(square),
    )
    st.queue.pop(0)


@decision(Phase.STARTUP_PLACE, legal=lambda st: [A.SQUARE[s] for s in spawn_squares(st, st.actor)])
def on_place(st: AmalogsState, a: Action) -> None:
    """SQUARE s: place the avatar; after the last placement the match begins."""
    place_avatar(st, a.arg, "place", "places its avatar on")
    if st.queue:
        ask(st, Phase.STARTUP_PLACE, st.queue[0])
    else:
        begin_match(st)


def begin_match(st: AmalogsState) -> None:
    """R4, R5, D8 (4-5): the RNG draws the first team; each avatar of the second team gets 2 points."""
    st.first_team = st.rng.randrange(2)
    for a in st.avatars:
        if a.team != st.first_team:
            a.ap = SECOND_TEAM_POINTS
    st.emit("first_team", f"Team {'AB'[st.first_team]} goes first", team=st.first_team)
    run_task(st, "next_team_turn")

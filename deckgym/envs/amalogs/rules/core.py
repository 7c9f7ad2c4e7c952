"""Core games inside the meta-game (D28, D30, D32).

Ruleset choice (D28), solo first turns (R2, R27, D30), core decisions at a running table
and the per-table decision cap (D32).

When a table is over, the phase that started it continues: the start-up (``startup``), the
respawn (``respawn``) or the duel (``duel``) registers what happens next with ``after_table``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import CORE_PHASES, Action, Kind, Phase
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.events import player_name
from deckgym.envs.amalogs.rules.convert import nominal_of
from deckgym.envs.amalogs.rules.flow import ask, decision
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.flow import MAX_AUTO_STEPS

#: phase of the running table -> what follows when the table is over
AFTER_TABLE: Final[dict[Phase, Callable[[AmalogsState], None]]] = {}
#: phase of the running table -> what the meta-game reads after each core action (a base proxy's hits, D40)
AFTER_STEP: Final[dict[Phase, Callable[[AmalogsState], None]]] = {}


def after_table(phase: Phase) -> Callable[[Callable[[AmalogsState], None]], Callable[[AmalogsState], None]]:
    """Register the continuation of a finished table of ``phase``."""

    def deco(fn: Callable[[AmalogsState], None]) -> Callable[[AmalogsState], None]:
        AFTER_TABLE[phase] = fn
        return fn

    return deco


def after_step(phase: Phase) -> Callable[[Callable[[AmalogsState], None]], Callable[[AmalogsState], None]]:
    """Register what to read after each core action of a table of ``phase``."""

    def deco(fn: Callable[[AmalogsState], None]) -> Callable[[AmalogsState], None]:
        AFTER_STEP[phase] = fn
        return fn

    return deco


def _stepped(st: AmalogsState) -> None:
    hook = AFTER_STEP.get(st.phase)
    if hook is not None:
        hook(st)


# ----------------------------------------------------------------------------- D28 ruleset choice
def offer_core_game(st: AmalogsState, player: int, respawn: bool) -> None:
    """D28: the player chooses a ruleset of its pool (skipped with a pool of one), then plays its solo turn."""
    pool = st.config.pools[player]
    if len(pool) == 1:
        start_solo(st, player, pool[0], respawn)
    else:
        ask(st, Phase.RESPAWN_RULESET if respawn else Phase.STARTUP_RULESET, player)


@decision(
    Phase.STARTUP_RULESET,
    Phase.RESPAWN_RULESET,
    legal=lambda st: [A.RULESET[k] for k in st.config.pools[st.actor]],
)
def on_ruleset(st: AmalogsState, a: Action) -> None:
    """RULESET k: the new core game is of ruleset k."""
    start_solo(st, st.actor, a.arg, st.phase == Phase.RESPAWN_RULESET)


# ----------------------------------------------------------------------------- solo first turn
def start_solo(st: AmalogsState, player: int, slot: int, respawn: bool) -> None:
    """R2, R27, D30: a new side of ``slot`` with the player's deck plays its solo first turn (seat 1 vacant)."""
    av = st.avatars[player]
    ad = adapter(slot)
    av.ruleset = slot
    side = ad.new_side(st.config.deck(player, slot), st.rng)
    st.core_turn += 1
    av.core_turns = 1
    av.nominal = nominal_of(slot, ad.nominal_life(side))
    av.last_turn = st.core_turn
    st.emit(
        "core_game",
        f"{player_name(st, player)} starts a new game of {ad.title} (core turn {st.core_turn})",
        player=player,
        ruleset=ad.name,
        core_turn=st.core_turn,
    )
    st.seat_table(ad.solo_table(side, st.rng, st.core_turn))
    st.table_ruleset = slot
    st.table_owner = player
    st.table_steps = 0
    st.phase = Phase.RESPAWN_CORE if respawn else Phase.STARTUP_CORE
    continue_table(st)


# ----------------------------------------------------------------------------- running tables
def start_table(st: AmalogsState, phase: Phase) -> None:
    """Run a freshly composed table up to its first decision."""
    st.table_steps = 0
    st.phase = phase
    adapter(st.table_ruleset).begin(st.table)
    _stepped(st)
    continue_table(st)


@decision(
    *sorted(CORE_PHASES),
    legal=lambda st: [Action(Kind.CORE, a) for a in adapter(st.table_ruleset).legal_actions(st.table)],
)
def on_core(st: AmalogsState, a: Action) -> None:
    """CORE a: the seated player's core action (A4)."""
    adapter(st.table_ruleset).step(st.table, a.arg)
    st.table_steps += 1
    _stepped(st)
    continue_table(st)


def continue_table(st: AmalogsState) -> None:
    """Hand the next core decision to the seated player, auto-complete at the cap (D32), or finish."""
    ad = adapter(st.table_ruleset)
    table = st.table
    if st.table_steps >= st.config.duel_cap and ad.to_act(table) >= 0:
        cap = st.config.duel_cap
        st.emit(
            "core_cap",
            f"The core turn reached {cap} decisions: the rest of it is played automatically",
            cap=cap,
        )
        for _ in range(MAX_AUTO_STEPS):
            if ad.to_act(table) < 0:
                break
            auto = ad.auto_action(table)
            player, point = st.player_at(ad.to_act(table)), st.decision
            st.emit(
                "auto",
                f"A move of {player_name(st, player)} is played automatically",
                player=player,
                decision=point,
                action=f"CORE {auto}",
            )
            ad.step(table, auto)
            _stepped(st)
        else:
            raise StateError(
                f"amalogs: completing the core turn at the cap took more than {MAX_AUTO_STEPS} "
                f"automatic actions (a rules loop) at {st.decision}"
            )
    seat = ad.to_act(table)
    if seat >= 0:
        player = st.player_at(seat)
        assert player >= 0, "a vacant seat was asked to decide"
        st.actor = player
        return
    AFTER_TABLE[st.phase](st)


def end_solo(st: AmalogsState) -> int:
    """Split a finished solo table: its owner holds the new side. Returns the owner."""
    side, _ = adapter(st.table_ruleset).split(st.table)
    owner = st.table_owner
    st.avatars[owner].side = side
    st.table = None
    st.table_ruleset = -1
    st.table_owner = -1
    return owner

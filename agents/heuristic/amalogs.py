"""A rule-of-thumb player for AMALOGS: readable meta rules, core decisions by the core ruleset's heuristic.

It reads the engine state but only what its player may know (positions, action points, base
lives, public core summaries; its own core cards through the core heuristic). Deterministic.

Rules of thumb, by decision:

- **Ruleset**: the ruleset of the pool that the fewest enemies hold (fewer champions means more
  duels against an empty seat, which cannot be lost to an opponent), heavier WE on ties (a
  heavier core game strikes harder).
- **Placement**: the free spawn square nearest to the enemy base.
- **Meta-field** (approach or avoid): duel at once when the enemy base is within range (the
  strike then hits the base); otherwise walk toward the enemy base (MOVE when far, STEP when
  one or two squares short) before dueling; after the duel GUARD when an enemy avatar could
  drag this avatar into a duel in its turn (Guard protects the team from strikes), then
  END_TURN. It never hands control over: each player acts in index order.
- **Move destination**: the reachable square nearest to the enemy base.
- **Strike** (whom to strike): the enemy base when exposed; else the guest whose core game
  the strike ends (core life below S); else the guest with the least core life.
- **Core decisions**: the core ruleset's own heuristic on the table, from the player's seat.
"""

from __future__ import annotations

import importlib
from typing import Any

from agents.base import checked_move
from agents.heuristic.base import RuleOfThumbAgent
from envs.amalogs import actions as A
from envs.amalogs.actions import Action, Kind, Phase
from envs.amalogs.config import RULESETS
from envs.amalogs.cores import adapter
from envs.amalogs.rules.geometry import BASES, DIST, NEIGHBOUR
from envs.amalogs.state import AmalogsState

#: An enemy avatar this close (MOVE allowance plus range) may pull us into its duel next turn.
_THREAT_DISTANCE = 5


class AmalogsHeuristic(RuleOfThumbAgent):
    """The AMALOGS rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``."""

    def choose(self, state: AmalogsState, seat: int) -> Action:
        """The heuristic's choice at ``state`` for ``seat`` (the player to move)."""
        return choose(state, seat)


def choose(st: AmalogsState, player: int) -> Action:
    """The heuristic's action for ``player`` at the current decision."""
    legal = st.legal_actions()
    move = _RULES[Phase(st.phase)](st, player, legal)  # every phase with a decision has its rule
    return checked_move("heuristic (amalogs)", st.decision, move, legal)


def _core(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """Core decisions: the core ruleset's heuristic on the table, from the player's seat."""
    seat = st.seat_of(player)
    return Action(Kind.CORE, core_choice(st.table_ruleset, st.table, seat))


def core_choice(slot: int, table: Any, seat: int) -> Any:
    """The core ruleset's own heuristic choice on a table.

    Every ruleset's heuristic module ``agents.heuristic.<ruleset package>`` offers
    ``choose(state, seat)``; the table is a state of that package's engine.
    """
    package = type(table).__module__.split(".")[1]  # envs.<package>.state
    return importlib.import_module(f"agents.heuristic.{package}").choose(table, seat)


def _ruleset(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """The least-held ruleset among the enemies, heavier WE on ties."""
    team = st.avatars[player].team
    held = [a.ruleset for a in st.avatars if a.team != team]
    return min(legal, key=lambda a: (held.count(a.arg), -RULESETS[a.arg].we, a.arg))


def _enemy_base(st: AmalogsState, player: int) -> int:
    return BASES[1 - st.avatars[player].team]


def _place(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """The free spawn square nearest to the enemy base."""
    base = _enemy_base(st, player)
    return min(legal, key=lambda a: (DIST[a.arg][base], abs(a.arg % 7 - 3), a.arg))


def _threatened(st: AmalogsState, player: int) -> bool:
    """Whether an enemy avatar stands close enough to drag this avatar into a duel next turn."""
    me = st.avatars[player]
    return any(
        a.on_map and a.team != me.team and DIST[a.square][me.square] <= _THREAT_DISTANCE for a in st.avatars
    )


def _meta_field(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """Approach the enemy base, duel, then guard or end the turn."""
    me = st.avatars[player]
    base = _enemy_base(st, player)
    gap = DIST[me.square][base] - me.range
    if not me.dueled:
        if gap <= 0:
            return A.DUEL
        if gap >= 3 and A.MOVE in legal:
            return A.MOVE
        steps = [
            a
            for a in legal
            if a.kind == Kind.STEP and DIST[NEIGHBOUR[me.square][a.arg]][base] < DIST[me.square][base]
        ]
        if steps:
            return min(steps, key=lambda a: (DIST[NEIGHBOUR[me.square][a.arg]][base], a.arg))
        return A.DUEL
    if A.GUARD in legal and _threatened(st, player):
        return A.GUARD
    return A.END_TURN


def _move_destination(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """The reachable square nearest to the enemy base."""
    base = _enemy_base(st, player)
    return min(legal, key=lambda a: (DIST[a.arg][base], a.arg))


def _strike(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """The enemy base if exposed; else a guest the strike knocks out; else the weakest guest."""
    if A.STRIKE_BASE in legal:
        return A.STRIKE_BASE
    d = st.duel
    assert d is not None
    targets = [a for a in legal if a.kind == Kind.STRIKE_PLAYER]
    if not targets:
        return A.STRIKE_NONE
    enemy = 1 - st.avatars[player].team

    def life(a: Action) -> int:
        i = next(i for i, x in enumerate(st.avatars) if x.team == enemy and x.slot == a.arg)
        x = st.avatars[i]
        return adapter(x.ruleset).summary(x.side).life

    return min(targets, key=lambda a: (life(a) >= d.strike, life(a), a.arg))


_RULES = {
    Phase.STARTUP_RULESET: _ruleset,
    Phase.RESPAWN_RULESET: _ruleset,
    Phase.STARTUP_CORE: _core,
    Phase.RESPAWN_CORE: _core,
    Phase.DUEL_CORE: _core,
    Phase.STARTUP_PLACE: _place,
    Phase.RESPAWN_PLACE: _place,
    Phase.META_FIELD: _meta_field,
    Phase.MOVE_DEST: _move_destination,
    Phase.STRIKE: _strike,
}

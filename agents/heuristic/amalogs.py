"""A rule-of-thumb player for AMALOGS: readable meta rules, core decisions by the core ruleset's heuristic.

It reads the engine state but only what its player may know (positions, action points, base
lives, public core summaries; its own core cards through the core heuristic). Deterministic.

Rules of thumb, by decision:

- **Ruleset** (for the position): when a target (an enemy avatar or the enemy base) is near
  the spawn area, the heaviest game (a win is worth 3 x WE base life); when every target is
  far, the longest duel range (contact sooner); the lower slot on ties.
- **Placement**: the free spawn square nearest to the nearest target.
- **Meta-field** (seek contact, or keep away when weak): duel at once when the duel would seat
  an opponent at the table (a champion, a defender's stand-in or the enemy base, D21, D36,
  D40). Otherwise walk toward the best target: the enemy avatar whose core game is weakest
  among the nearest, or the enemy base when it is nearer (MOVE when far, STEP when one or two
  squares short), then duel. After the duel, a weak avatar (a third of its nominal life or
  less) that an enemy could reach retreats with a MOVE; then GUARD when an enemy could drag
  it into a duel (Guard keeps its team from being struck), then END_TURN. It never hands
  control over: each player acts in index order.
- **Move destination**: toward the target before the duel, away from the enemies after it.
- **Strike** (whom to strike): the guest whose core game the strike ends; else the guest with
  the least core life for its nominal life.
- **Core decisions**: the core ruleset's own heuristic on the table, from the player's seat.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

from deckgym.agents.base import checked_move
from deckgym.agents.heuristic.base import RuleOfThumbAgent
from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Kind, Phase
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.rules.convert import strike_loss
from deckgym.envs.amalogs.rules.duel import participants, seat_one
from deckgym.envs.amalogs.rules.geometry import BASES, DIST, NEIGHBOUR, SPAWN
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core import proxy as proxy_kind

#: An enemy avatar this close (MOVE allowance plus range) may pull us into its duel next turn.
_THREAT_DISTANCE: Final = 5


class AmalogsHeuristic(RuleOfThumbAgent):
    """The AMALOGS rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``."""

    def choose(self, state: AmalogsState, seat: int) -> Action:
        """The heuristic's choice at ``state`` for ``seat`` (the player to move)."""
        return choose(state, seat)


def choose(st: AmalogsState, player: int) -> Action:
    """The heuristic's action for ``player`` at the current decision."""
    legal = st.legal_actions()
    # every phase with a decision has its rule (the keys are Phase values, an IntEnum: no conversion)
    move = _RULES[st.phase](st, player, legal)
    return checked_move("heuristic (amalogs)", st, move, legal)


def _core(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """Core decisions: the core ruleset's heuristic on the table, from the player's seat."""
    seat = st.seat_of(player)
    return Action(Kind.CORE, core_choice(st.table_ruleset, st.table, seat))


def core_choice(slot: int, table: Any, seat: int) -> Any:
    """The core ruleset's own heuristic choice on a table.

    Every ruleset's heuristic module ``agents.heuristic.<ruleset package>`` offers
    ``choose(state, seat)``; the table is a state of that package's engine.
    """
    module = type(table).__module__  # deckgym.envs.<package>.state
    heuristic = _HEURISTICS.get(module)
    if heuristic is None:
        package = module.split(".")[2]
        heuristic = _HEURISTICS[module] = importlib.import_module(
            f"deckgym.agents.heuristic.{package}"
        ).choose
    return heuristic(table, seat)


#: A core state's module -> its ruleset's heuristic ``choose`` (``core_choice``).
_HEURISTICS: Final[dict[str, Callable[[Any, int], Any]]] = {}


def _ruleset(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """Heaviest WE when a target is within reach of the spawn area, else the longest range."""
    me = st.avatars[player]
    spawn = SPAWN[me.team]
    near = min(DIST[q][t] for q in spawn for t in _target_squares(st, player))
    if near <= _THREAT_DISTANCE:
        return min(legal, key=lambda a: (-RULESETS[a.arg].we, -RULESETS[a.arg].range, a.arg))
    return min(legal, key=lambda a: (-RULESETS[a.arg].range, -RULESETS[a.arg].we, a.arg))


def _enemy_base(st: AmalogsState, player: int) -> int:
    return BASES[1 - st.avatars[player].team]


def _enemies(st: AmalogsState, player: int) -> list[int]:
    team = st.avatars[player].team
    return [i for i, a in enumerate(st.avatars) if a.on_map and a.team != team]


def _target_squares(st: AmalogsState, player: int) -> list[int]:
    """Squares worth a duel: the enemy avatars' and the enemy base."""
    return [st.avatars[i].square for i in _enemies(st, player)] + [_enemy_base(st, player)]


def _weakness(st: AmalogsState, player: int) -> float:
    """Core life over nominal life (1 without a core game): lower is weaker."""
    a = st.avatars[player]
    if a.side is None or not a.nominal:
        return 1.0
    return adapter(a.ruleset).summary(a.side).life / a.nominal


def _target(st: AmalogsState, player: int) -> int:
    """The square to approach: among the nearest targets the weakest enemy avatar, else the enemy base."""
    me = st.avatars[player]
    options = [
        (DIST[me.square][st.avatars[i].square], _weakness(st, i), st.avatars[i].square)
        for i in _enemies(st, player)
    ]
    base = _enemy_base(st, player)
    options.append((DIST[me.square][base], 1.0, base))
    reach = me.range + 2
    return min(options, key=lambda o: (max(o[0], reach), o[1], o[0], o[2]))[2]


def _place(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """The free spawn square nearest to the nearest target."""
    targets = _target_squares(st, player)
    return min(legal, key=lambda a: (min(DIST[a.arg][t] for t in targets), abs(a.arg % 7 - 3), a.arg))


def _threatened(st: AmalogsState, player: int) -> bool:
    """Whether an enemy avatar stands close enough to drag this avatar into a duel next turn."""
    me = st.avatars[player]
    return any(DIST[st.avatars[i].square][me.square] <= _THREAT_DISTANCE for i in _enemies(st, player))


def _contact(st: AmalogsState, player: int) -> bool:
    """Whether a duel declared now seats an opponent: a champion, a defender or the enemy base."""
    me = st.avatars[player]
    players, bases = participants(st, player)
    guests = [i for i in players if st.avatars[i].team != me.team]
    champ, defender, kind = seat_one(st, player, guests, bases)
    return champ >= 0 or defender >= 0 or kind != proxy_kind.NONE


def _weak(st: AmalogsState, player: int) -> bool:
    return _weakness(st, player) <= 1 / 3


def _meta_field(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """Seek contact and duel; then retreat when weak, guard when threatened, and end the turn."""
    me = st.avatars[player]
    if not me.dueled:
        if _contact(st, player):
            return A.DUEL
        target = _target(st, player)
        gap = DIST[me.square][target] - me.range
        if gap >= 3 and A.MOVE in legal:
            return A.MOVE
        here = DIST[me.square][target]
        steps = [a for a in legal if a.kind == Kind.STEP and DIST[NEIGHBOUR[me.square][a.arg]][target] < here]
        if steps:
            return min(steps, key=lambda a: (DIST[NEIGHBOUR[me.square][a.arg]][target], a.arg))
        return A.DUEL
    if _weak(st, player) and _threatened(st, player) and A.MOVE in legal and me.ap >= 5:
        return A.MOVE
    if A.GUARD in legal and _threatened(st, player):
        return A.GUARD
    return A.END_TURN


def _move_destination(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """Before the duel the square nearest to the target; after it the one farthest from the enemies."""
    me = st.avatars[player]
    if me.dueled:
        enemies = [st.avatars[i].square for i in _enemies(st, player)]
        return max(legal, key=lambda a: (min((DIST[a.arg][q] for q in enemies), default=0), -a.arg))
    target = _target(st, player)
    return min(legal, key=lambda a: (DIST[a.arg][target], a.arg))


def _strike(st: AmalogsState, player: int, legal: list[Action]) -> Action:
    """A guest the strike knocks out; else the guest weakest for its nominal life."""
    d = st.duel
    assert d is not None
    targets = [a for a in legal if a.kind == Kind.STRIKE_PLAYER]
    if not targets:
        return A.STRIKE_NONE
    enemy = 1 - st.avatars[player].team

    def guest(a: Action) -> int:
        return next(i for i, x in enumerate(st.avatars) if x.team == enemy and x.slot == a.arg)

    def key(a: Action) -> tuple[bool, float, int]:
        x = st.avatars[guest(a)]
        life = adapter(x.ruleset).summary(x.side).life
        return (life > strike_loss(d.strike, x.nominal), _weakness(st, guest(a)), a.arg)

    return min(targets, key=key)


_RULES: Final = {
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

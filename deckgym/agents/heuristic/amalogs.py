"""A rule-of-thumb player for AMALOGS: readable meta rules, core decisions by the core ruleset's heuristic.

It reads the engine state but only what its player may know (positions, action points, base
lives, public core summaries; its own core cards through the core heuristic). Deterministic.

At its centre is a **duel value**: what a duel declared from a given position is expected to
bring its team, in base life, from the public summaries and the duel rates of spec D43
(``DUEL_RATES``, measured by ``scripts/amalogs_balance.py --only rates``): against a champion
the share of the opponent's core life its game takes per table in its own game, against a
defender's stand-in the share of the stand-in's life the host's game takes per table, each
times what the exit would swing (3 x WE for a win, 2 x WE for the loser); against the enemy
base the successful attacks a table of its game makes; minus the same for what the host risks.

Rules of thumb, by decision (each skill of ``SKILLS`` can be switched off to measure it; with
none the player is the first version of this heuristic):

- **Ruleset** (skill ``choice``): the game that scores best against the map it sees: its
  ``PLAN_MATRIX`` score against the games the enemies hold (the nearer, the more weight), less
  for a mirror of an enemy's game that is slower in its own game than a cross-game duel and for
  a game a teammate holds, and a weight WE that suits the base lives (none whose loss would lose
  the match, one whose win would win it). Without the skill: the heaviest game when a target is
  near the spawn area, else the longest range.
- **Placement**: the free spawn square nearest to the nearest target.
- **Meta-field**: duel at once when the duel would seat an opponent and no one command (a STEP,
  a PUSH of an enemy, a SWAP with an ally; skills ``push`` and ``swap``) makes the duel worth
  clearly more; with skill ``base``, walk toward the enemy base when a duel there is worth more
  than the avatars in reach. Otherwise walk toward the best target (MOVE when far, STEP when
  one or two squares short), then duel. With skill ``hand_over``, the first holder lets a
  teammate whose duel is worth more go first (its exit may open a better duel). After the duel,
  a weak avatar that an enemy could reach retreats with a MOVE; then GUARD when an enemy could
  pull two of the team into its duel (skill ``guard``; without it, whenever an enemy is near),
  then END_TURN.
- **Move destination**: toward the target before the duel, away from the enemies after it.
- **Strike**: the guest whose core game the strike ends; else the guest with the least core
  life for its nominal life.
- **Core decisions**: the core ruleset's own heuristic on the table, from the player's seat.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from deckgym.agents.base import checked_move
from deckgym.agents.heuristic.base import RuleOfThumbAgent
from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Kind, Phase
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.rules.convert import host_units, strike_loss, to_host
from deckgym.envs.amalogs.rules.duel import LOSS_PER_WE, WIN_PER_WE, participants, seat_one
from deckgym.envs.amalogs.rules.geometry import BASES, DIST, NEIGHBOUR, SPAWN
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core import proxy as proxy_kind

#: An enemy avatar this close (MOVE allowance plus range) may pull us into its duel next turn.
_THREAT_DISTANCE: Final = 5

#: The skills beyond the first version's rules; ``AmalogsHeuristic(skills=...)`` takes a subset.
SKILLS: Final = frozenset({"choice", "push", "swap", "hand_over", "guard", "base"})


class DuelRate(NamedTuple):
    """Per table of a ruleset's game, heuristic sides (spec D43's measurement).

    ``champion``: core life a real opponent of the same game loses; ``host``: core life the
    host itself loses then; ``standin``: damage a stand-in takes (host units); ``base``:
    successful attacks on a base proxy.
    """

    champion: float
    host: float
    standin: float
    base: float
    #: the core life a side of the game starts with (the parts game: the starter heads' armor)
    life: int


#: D43's duel rates by ruleset slot (``scripts/amalogs_balance.py --only rates --rate-games 40
#: --seed 1000``, 2026-12-06; docs/rules/amalogs.md D43).
DUEL_RATES: Final[dict[int, DuelRate]] = {
    0: DuelRate(2.569, 2.275, 7.912, 2.501, 10),
    1: DuelRate(1.010, 0.837, 5.338, 1.382, 20),
    2: DuelRate(0.081, 0.046, 3.380, 1.020, 7),
    3: DuelRate(1.549, 1.012, 6.039, 1.564, 20),
    4: DuelRate(1.866, 1.442, 8.360, 1.934, 20),
}
#: The share of a defender's core life a cross-game table takes, about (D43).
_CROSS_PACE: Final = 0.15
#: A command is worth its action points only if it adds this much duel value (base life).
_MARGIN: Final = 0.25


class AmalogsHeuristic(RuleOfThumbAgent):
    """The AMALOGS rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``.

    ``skills``: the skills of ``SKILLS`` it uses (default all; none is the first version).
    """

    def __init__(self, seed: int | None = None, skills: frozenset[str] | None = None) -> None:
        super().__init__(seed)
        self.skills = SKILLS if skills is None else frozenset(skills)
        unknown = sorted(self.skills - SKILLS)
        if unknown:
            raise ValueError(f"unknown heuristic skill {unknown[0]!r}; known: {', '.join(sorted(SKILLS))}")

    def choose(self, state: AmalogsState, seat: int) -> Action:
        """The heuristic's choice at ``state`` for ``seat`` (the player to move)."""
        return choose(state, seat, self.skills)


def choose(st: AmalogsState, player: int, skills: frozenset[str] = SKILLS) -> Action:
    """The heuristic's action for ``player`` at the current decision."""
    legal = st.legal_actions()
    # every phase with a decision has its rule (the keys are Phase values, an IntEnum: no conversion)
    move = _RULES[st.phase](st, player, legal, skills)
    return checked_move("heuristic (amalogs)", st, move, legal)


def _core(st: AmalogsState, player: int, legal: list[Action], skills: frozenset[str]) -> Action:
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


def _ruleset(st: AmalogsState, player: int, legal: list[Action], skills: frozenset[str]) -> Action:
    """The game that suits the map (skill ``choice``); else heaviest WE when a target is near, else longest range."""
    if "choice" in skills:
        return min(legal, key=lambda a: (-_game_score(st, player, a.arg), a.arg))
    me = st.avatars[player]
    spawn = SPAWN[me.team]
    near = min(DIST[q][t] for q in spawn for t in _target_squares(st, player))
    if near <= _THREAT_DISTANCE:
        return min(legal, key=lambda a: (-RULESETS[a.arg].we, -RULESETS[a.arg].range, a.arg))
    return min(legal, key=lambda a: (-RULESETS[a.arg].range, -RULESETS[a.arg].we, a.arg))


#: What a team of one game scores against a team of another, 2v2 (row: its game, column: the
#: other's, by slot): ``scripts/amalogs_balance.py --only matrix --cell-games 200``'s
#: ``plan_matrix`` averaged over seeds 0, 777, 1206 and 20261206 (800 games a cell; the cells of
#: OCG advance over seeds 0, 777 and 1206, 600 games), 2026-12-06.
PLAN_MATRIX: Final[dict[int, dict[int, float]]] = {
    0: {0: 0.500, 4: 0.542, 1: 0.475, 2: 0.439, 3: 0.488},
    4: {0: 0.458, 4: 0.500, 1: 0.481, 2: 0.517, 3: 0.476},
    1: {0: 0.525, 4: 0.519, 1: 0.500, 2: 0.454, 3: 0.519},
    2: {0: 0.561, 4: 0.483, 1: 0.546, 2: 0.500, 3: 0.509},
    3: {0: 0.512, 4: 0.524, 1: 0.481, 2: 0.491, 3: 0.500},
}


def _game_score(st: AmalogsState, player: int, slot: int) -> float:
    """What a new core game of ``slot`` is expected to win against the map (higher is better).

    The plan matrix's score against the games the enemies hold (the nearer, the more weight;
    every game's mean when none is on the map), a little less for a game a teammate holds,
    and the base lives: a game whose loss would lose the match is avoided, one whose win
    would win it preferred.
    """
    me = st.avatars[player]
    info = RULESETS[slot]
    row = PLAN_MATRIX.get(slot)
    if row is None:
        return 0.0
    spawn = SPAWN[me.team]
    total = weight = 0.0
    for e in st.avatars:
        if e.team == me.team or e.ruleset < 0:
            continue  # (at start-up an enemy holds its game before it is placed)
        w = 1.0 / (1 + (min(DIST[q][e.square] for q in spawn) if e.on_map else 8))
        total += w * row.get(e.ruleset, 0.5)
        weight += w
        if e.ruleset == slot and DUEL_RATES[slot].champion / DUEL_RATES[slot].life < _CROSS_PACE:
            total -= w * 0.1  # a mirror of a game slower than a cross-game duel grinds
    score = total / weight if weight else sum(row.values()) / len(row)
    team = me.team
    score -= 0.03 * sum(
        1 for i, a in enumerate(st.avatars) if i != player and a.team == team and a.ruleset == slot
    )
    own = st.life[team]
    if own + LOSS_PER_WE * info.we <= 0:
        score -= 1.0  # one lost game would lose the match
    if own + WIN_PER_WE * info.we >= 2 * st.config.start_life:
        score += 0.2  # one won game would win it
    return score


def _enemy_base(st: AmalogsState, player: int) -> int:
    return BASES[1 - st.avatars[player].team]


def _enemies(st: AmalogsState, player: int) -> list[int]:
    team = st.avatars[player].team
    return [i for i, a in enumerate(st.avatars) if a.on_map and a.team != team]


def _target_squares(st: AmalogsState, player: int) -> list[int]:
    """Squares worth a duel: the enemy avatars' and the enemy base."""
    return [st.avatars[i].square for i in _enemies(st, player)] + [_enemy_base(st, player)]


def _weakness(st: AmalogsState, player: int) -> float:
    """Core life over the life its game started with (1 without a core game): lower is weaker."""
    a = st.avatars[player]
    if a.side is None or not a.nominal:
        return 1.0
    ad = adapter(a.ruleset)
    return ad.summary(a.side).life / max(1, ad.nominal_life(a.side))


def _target(st: AmalogsState, player: int, skills: frozenset[str] = frozenset()) -> int:
    """The square to approach: among the nearest targets the weakest enemy avatar, else the enemy base.

    With skill ``base`` the enemy base counts as near when a table against it (its successful
    attacks) is worth more than one against the avatars in reach.
    """
    me = st.avatars[player]
    options = [
        (DIST[me.square][st.avatars[i].square], _weakness(st, i), st.avatars[i].square)
        for i in _enemies(st, player)
    ]
    base = _enemy_base(st, player)
    reach = me.range + 2
    if "base" in skills and me.side is not None and _base_first(st, player):
        return base
    options.append((DIST[me.square][base], 1.0, base))
    return min(options, key=lambda o: (max(o[0], reach), o[1], o[0], o[2]))[2]


def _base_first(st: AmalogsState, player: int) -> bool:
    """Whether the enemy base is worth more than a duel with any enemy avatar this game meets.

    A duel with an enemy is valued as ``duel_value`` values a seated opponent (a mirror nets
    what the host takes less what it risks); one at the base by the base life its attacks
    take, or the siege's 1 while a defender stands there (D43).
    """
    me = st.avatars[player]
    rate = DUEL_RATES[me.ruleset]
    enemies = _enemies(st, player)
    if not enemies:
        return True
    my_life = max(1, adapter(me.ruleset).summary(me.side).life)
    best = 0.0
    for i in enemies:
        e = st.avatars[i]
        life = max(1, adapter(e.ruleset).summary(e.side).life)
        if e.ruleset == me.ruleset:
            value = _mirror_value(rate, me.we, my_life, e.we, life)
        else:
            value = _CROSS_PACE * (WIN_PER_WE * me.we - LOSS_PER_WE * e.we)
        best = max(best, value)
    return max(rate.base / float(RULESETS[me.ruleset].base), 1.0) > best


def _place(st: AmalogsState, player: int, legal: list[Action], skills: frozenset[str]) -> Action:
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


def _meta_field(st: AmalogsState, player: int, legal: list[Action], skills: frozenset[str]) -> Action:
    """Seek the best duel and declare it; then retreat when weak, guard when threatened, and end the turn."""
    me = st.avatars[player]
    if not me.dueled:
        if "hand_over" in skills and A.HAND_OVER in legal and not st.commanded:
            mine = duel_value(st, player)
            if any(duel_value(st, t) > mine + _MARGIN for t in _waiting_teammates(st, player)):
                return A.HAND_OVER
        target = _target(st, player, skills)
        siege = "base" in skills and target == _enemy_base(st, player) and DIST[me.square][target] > me.range
        if _contact(st, player) and not (siege and duel_value(st, player) < 0.5):
            better = _better_command(st, player, legal, skills)
            return A.DUEL if better is None else better
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
    if A.GUARD in legal and (_exposed_pair(st, player) if "guard" in skills else _threatened(st, player)):
        return A.GUARD
    return A.END_TURN


def _waiting_teammates(st: AmalogsState, player: int) -> list[int]:
    """On-map teammates that have neither dueled nor ended this turn."""
    team = st.avatars[player].team
    return [
        i
        for i, a in enumerate(st.avatars)
        if i != player and a.team == team and a.on_map and not a.dueled and not a.ended
    ]


def _exposed_pair(st: AmalogsState, player: int) -> bool:
    """Whether an enemy could pull two of the team into its next duel (only then can a strike land)."""
    team = st.avatars[player].team
    mine = [a.square for a in st.avatars if a.on_map and a.team == team]
    for i in _enemies(st, player):
        e = st.avatars[i]
        reach = e.range + 2
        if sum(DIST[e.square][q] <= reach for q in mine) >= 2:
            return True
    return False


def duel_value(st: AmalogsState, host: int) -> float:
    """What a duel ``host`` declared now is expected to bring its team, in base life.

    From the public summaries and ``DUEL_RATES``: against a champion, the share of its core
    life the host's game takes per table times the exit's swing, less the same for the host;
    against a defender's stand-in the share of its life P; against the enemy base the
    successful attacks of a table (the whole base when they reach 0); a strike on the weakest
    exposed guest.
    """
    h = st.avatars[host]
    if not h.on_map or h.side is None:
        return 0.0
    rate = DUEL_RATES[h.ruleset]
    players, bases = participants(st, host)
    guests = [i for i in players if st.avatars[i].team != h.team]
    champ, defender, kind = seat_one(st, host, guests, bases)
    swing = WIN_PER_WE - LOSS_PER_WE
    my_life = max(1, adapter(h.ruleset).summary(h.side).life)
    value = 0.0
    if champ >= 0:
        c = st.avatars[champ]
        value = _mirror_value(rate, h.we, my_life, c.we, max(1, adapter(c.ruleset).summary(c.side).life))
    elif kind == proxy_kind.GUEST:
        d = st.avatars[defender]
        p = to_host(adapter(d.ruleset).summary(d.side).life, host_units(h.ruleset), d.nominal)
        value = min(1.0, rate.standin / p) * (WIN_PER_WE * h.we - LOSS_PER_WE * d.we)
    elif kind == proxy_kind.BASE:
        left = st.life[1 - h.team]
        hits = rate.base / float(RULESETS[h.ruleset].base)  # base life a table takes (D43)
        value = hits if hits < left else 2.0 * swing * 3
    if 1 - h.team in bases and (champ >= 0 or kind == proxy_kind.GUEST):
        value += 1.0  # D43 siege: the defended base loses 1 life
    exposed = [g for g in guests if g not in (champ, defender)]
    if exposed and not any(st.avatars[g].guarding for g in guests):
        strike = h.we + sum(1 for i in players if i != host and st.avatars[i].team == h.team)
        best = 0.0
        for g in exposed:
            x = st.avatars[g]
            life = max(1, adapter(x.ruleset).summary(x.side).life)
            best = max(best, min(1.0, strike_loss(strike, x.nominal) / life) * -LOSS_PER_WE * x.we)
        value += best
    return value


def _mirror_value(rate: DuelRate, we: int, life: int, other_we: int, other_life: int) -> float:
    """A table against a champion of the same game: what the host takes less what it risks, in base life.

    Each side's share of its core life lost per table (``rate.champion`` for the champion,
    ``rate.host`` for the host) times the swing of that side's exit (3 x WE for the winner, 2 x
    WE for the loser).
    """
    value = min(1.0, rate.champion / other_life) * (WIN_PER_WE * we - LOSS_PER_WE * other_we)
    return value - min(1.0, rate.host / life) * (WIN_PER_WE * other_we - LOSS_PER_WE * we)


def _better_command(
    st: AmalogsState, player: int, legal: list[Action], skills: frozenset[str]
) -> Action | None:
    """A STEP, PUSH or SWAP after which the team's duels are worth clearly more, or None."""
    kinds = {Kind.STEP}
    if "push" in skills:
        kinds.add(Kind.PUSH)
    if "swap" in skills:
        kinds.add(Kind.SWAP)
    if "base" not in skills and "push" not in skills and "swap" not in skills:
        return None
    now = duel_value(st, player)
    waiting = _waiting_teammates(st, player)
    helpers_before = sum(duel_value(st, t) for t in waiting)
    best, choice = now + _MARGIN, None
    for a in legal:
        if a.kind not in kinds:
            continue
        moved = _moves(st, player, a)
        if moved is None:
            continue
        before = [(i, st.avatars[i].square) for i, _ in moved]
        try:
            for i, q in moved:
                st.avatars[i].square = q
            value = duel_value(st, player) + sum(duel_value(st, t) for t in waiting) - helpers_before
        finally:
            for i, q in before:
                st.avatars[i].square = q
        value -= 0.05 * (1 if a.kind == Kind.STEP else 2)
        if value > best:
            best, choice = value, a
    return choice


def _moves(st: AmalogsState, player: int, a: Action) -> list[tuple[int, int]] | None:
    """The avatars a STEP, PUSH or SWAP would move, with their new squares."""
    sq = st.avatars[player].square
    nxt = NEIGHBOUR[sq][a.arg]
    if a.kind == Kind.STEP:
        return [(player, nxt)]
    other = next((i for i, x in enumerate(st.avatars) if x.on_map and x.square == nxt), -1)
    if other < 0:
        return None
    if a.kind == Kind.PUSH:
        return [(other, NEIGHBOUR[nxt][a.arg])]
    return [(player, nxt), (other, sq)]


def _move_destination(st: AmalogsState, player: int, legal: list[Action], skills: frozenset[str]) -> Action:
    """Before the duel the square nearest to the target; after it the one farthest from the enemies."""
    me = st.avatars[player]
    if me.dueled:
        enemies = [st.avatars[i].square for i in _enemies(st, player)]
        return max(legal, key=lambda a: (min((DIST[a.arg][q] for q in enemies), default=0), -a.arg))
    target = _target(st, player, skills)
    return min(legal, key=lambda a: (DIST[a.arg][target], a.arg))


def _strike(st: AmalogsState, player: int, legal: list[Action], skills: frozenset[str]) -> Action:
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

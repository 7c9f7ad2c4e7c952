"""Set up an AMALOGS position by hand (spec ``docs/rules/amalogs.md``).

``position(...)`` builds an ``AmalogsState`` from readable keyword arguments: puzzles, studies,
regression cases of the meta-game. It checks what it is given against the rules, raising
``envs.core.errors.PositionError`` with a message that names the player (``P2 (b_0)``: player
index and agent name), the square or team and the rule, then runs the automatic steps from the
chosen start phase up to the first decision, so ``state.legal_actions()`` is ready::

    from deckgym import agents
    from deckgym.envs.amalogs.position import position

    # Team A's third team turn (A went first). A0 (Medarot OCG advance) has just come back
    # from its duel with 4 action points left; A1 (Master of the World) has not dueled yet;
    # B0 is Guarding since its own turn; B1 (parts game) stands next to base B.
    st = position(
        team_sizes=(2, 2),
        rulesets=("medarot_ocg_advance", "master_of_the_world", 1, "medarot_parts"),
        squares=((4, 3), (2, 1), (6, 3), 66),  # (row, col), or a square index 7 * row + col
        ap=(4, 6, 2, 0),
        dueled=(True, False, False, False),
        guarding=(False, False, True, False),
        commanded=True,  # control came back to A0 after its duel (D7)
        life=(15, 11),
        team_turn=3,
        acting=0,
        start="meta_field",
        max_team_turns=6,  # a short match keeps the search agent's rollouts short
    )
    st.decision, st.legal_actions()[:3]  # 'META_FIELD', [END_TURN, HAND_OVER, MOVE]
    agents.make("heuristic", "amalogs_v1", team_sizes=(2, 2)).choose(st, st.current_player)
    agents.make("search:2", "amalogs_v1", team_sizes=(2, 2), seed=1).choose(st, st.current_player)

``choose(state, player)`` of the rule-of-thumb agent and of ``SearchAgent`` takes the engine
state and the player to move (``state.current_player``) and returns an engine ``Action``, one
of ``state.legal_actions()``; the search agent reads only what that player may know (it
redraws the rest with ``state.resample_hidden``) and plays rollouts to the end of the match,
so a small ``max_team_turns`` keeps it fast.

Conventions:

- Every per-player argument is a tuple with one entry per player, in player-index order:
  team A's players first, then team B's (D2; 2v2: A0=0, A1=1, B0=2, B1=3).
- A square is a ``(row, col)`` pair (row 0..10, col 0..6; team A's base is (0, 3), team B's
  (10, 3)) or a square index ``7 * row + col`` (0..76), as the SQUARE actions number them.
  ``None`` is an exited player (off the MAP).
- A ruleset is a slot number of D15 (0 medarot_ocg_beginner, 1 medarot_ocg_advance,
  2 medarot_parts, 3 master_of_the_world, 4 medarot_ocg_normal) or its name; it must be in the
  player's pool. ``team_sizes``, ``pools``, ``decks``, ``max_team_turns`` and ``duel_cap`` are
  the env's options (``envs.amalogs.env.AmalogsRuleset``).
- Core sides are not given card by card: each player's side is the one its solo first turn
  leaves (R2, D30), built by the start-up with the given ruleset and the player's deck
  (default: the ruleset's first ready-made deck), every core decision taken by the ruleset's
  pass/lowest option (A9, D32) and the random stream ``random.Random(seed)``. The start-up's
  placement and first-team draw are then replaced by the given squares, teams and turn.
- ``team_turn`` and ``acting`` place the position in the match; the first team follows
  (5.2: the first team acts on odd team turns) and ``first_team``, if given, must agree.
- Flags that the phase implies are derived when not given (``None``): at ``start="respawn"``
  every on-map avatar of the acting team has dueled and ended; at ``start="strike"`` the host
  has dueled; ``commanded`` is True at ``move_dest`` and ``strike`` (the holder just declared
  MOVE or DUEL), else False; ``phase_moved`` (D6 b) is True once anything happened in the
  meta-field phase (a command, a duel of the acting team, an exit).

Start phases (``START_PHASES``; the phase names ``"META_FIELD"``, ``"MOVE_DEST"``,
``"STRIKE"`` also work):

- ``"ap_gain"``: the start of team turn ``team_turn``: the rules run the action-point gain
  (each on-map avatar of the acting team stops Guarding, may duel again, gains 3 points,
  cap 9; R7, D3, D26), then control goes to its lowest-index avatar (D6).
- ``"meta_field"`` (default): inside the meta-field phase; the control holder (``control``,
  default the lowest-index on-map acting avatar that has not ended) chooses a command.
- ``"move_dest"``: the control holder has paid a MOVE and rolled ``dice``; it chooses the
  destination within the allowance m = d1 + d2 - WE (D17), which must be at least 1.
- ``"strike"``: the control holder declared DUEL and the table turn is over without a loss of
  the host (the sides are as built: the table changed nothing); the roles, the champion and
  S = WE + casts follow from the squares (D18, D21, D24), the bookkeeping counters advance as
  in a duel; ``champion_lost=True`` says the champion's side met its loss condition (the host
  then wins and both exit after the strike, D23, D25). The host chooses its strike; at least
  one target must be exposed (D24, D26).
- ``"respawn"``: the team turn is over; the exited players (``exited``) go through the
  respawn phase in index order (ruleset choice, solo first turn, placement; D29), then the
  other team's turn begins. With nobody exited the first decision is that turn's meta field.

What it checks (each failure is a ``PositionError``): the options (``make_config``: team sizes,
pools, decks, caps); one entry per player in each per-player argument; a ruleset that is
unknown or not in the player's pool (D15, D28); a square that is malformed or off the MAP
(D9), a base square (D12: no avatar ever stands on a base), two avatars on one square (D12),
an on-map player without a square or an exited one with a square; action points outside 0..9
(I2) and flags that are not True/False; an exited avatar with points, Guarding, dueled or
ended (D27); ended before dueling (D5); base life outside 1..2 x 18 - 1 (I1, D33: 0 or less
has lost, 36 or more has won); a team turn outside 1..``max_team_turns`` (D34), an
``acting``/``first_team`` that is not a team (0 = A, 1 = B) or a first team that disagrees with
the turn (5.2); an unknown start phase; a control holder that is not an on-map, not-ended
avatar of the acting team (D6), or no such avatar at all (the team turn would be over: start
at ``"respawn"``); ``phase_moved=False`` after something happened in the phase, or with control
elsewhere than at the lowest-index acting avatar (D6); exited players at ``"ap_gain"`` (I4:
all players are on the MAP at every AP-gain phase) and flags the phase contradicts (a
``control`` at ``"ap_gain"`` or ``"respawn"``; an acting avatar not dueled or not ended at
``"respawn"``; ``commanded=False`` at ``"move_dest"``/``"strike"``, a host given as not dueled
at ``"strike"``);
dice outside 1..6 (``(0, 0)`` = no roll yet), a MOVE allowance below 1 (D17), a strike with no
exposed target (D24, D26) or ``champion_lost`` without a champion (D21); and a position whose
automatic steps end the match at once (the team-turn cap, D34). Last, the position reached goes
through the rules check ``envs.amalogs.rules.check`` (spec section 10 and these rules). A message
that names no rule at its end starts with the spec item or section it applies (``D2 options:
team_sizes must be ...``).

Mid-turn situations it can express: any squares of the avatars (in the spawn areas too: any
avatar may stand in any spawn area, D11), action points, Guarding avatars of either team (an
acting avatar that guarded this turn, an enemy that guarded in its own turn), avatars that
already dueled or ended their part of this team turn, exited players (mid-turn after their
exit, or awaiting the respawn), the control holder and the D6 bookkeeping (``commanded``,
``phase_moved``), base lives, the team turn and the first team, the last dice shown
(``dice``), the next MOVE's dice (``next_dice``: the random stream is replaced by one whose
next two d6 are those), the start of a team turn, a pending MOVE destination, the strike after
a table and the respawn phase.

What it cannot express (build an earlier position and play the actions instead):

- anything inside a core game: a running duel table or solo first turn (its decisions, the
  champion's responses, the D32 cap count), and a side's cards, life or field given by hand
  (sides are what the start-up's solo first turns leave; play duels to change them);
- a duel whose table changed the sides, the host's own loss (then there is no strike: play
  the DUEL) and a strike already made; exits are only the flags (the exited core game, its WE
  and the base-life change are gone, as after D27);
- the start-up phase and a respawn part-way (a ruleset chosen, a solo turn under way, some
  players already placed): start at ``"respawn"`` and play;
- the per-side bookkeeping beyond the start-up's: every side has been the active side once
  (its solo first turn; twice for a ``"strike"`` host) and the core-turn counter counts the
  start-up's solo turns; a finished match (the builder refuses one);
- the event log holds the start-up's events (its placement and first-team draw included), not
  a history that leads to the position.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs.actions import Action, Kind, Phase
from deckgym.envs.amalogs.config import RULESETS, SLOT_OF, AmalogsConfig
from deckgym.envs.amalogs.cores import adapter, match_config
from deckgym.envs.amalogs.rules import check, duel, new_game, respawn, turn
from deckgym.envs.amalogs.rules.convert import to_host
from deckgym.envs.amalogs.rules.geometry import BASES, COLS, ROWS, SQUARES, coords, square
from deckgym.envs.amalogs.state import AmalogsState, Duel
from deckgym.envs.core.errors import PositionError, StateError

__all__ = ["START_PHASES", "position"]

#: The phases a position can start at (the phase of the first decision, before automatic steps).
START_PHASES: dict[str, str] = {
    "ap_gain": "start of the team turn: action-point gain, then the meta-field phase",
    "meta_field": "the control holder chooses a command (META_FIELD)",
    "move_dest": "the control holder chooses its MOVE destination (MOVE_DEST)",
    "strike": "the host chooses its strike after the table turn (STRIKE)",
    "respawn": "the team turn is over: the respawn phase, then the next team turn",
}
_ALIASES = {"META_FIELD": "meta_field", "MOVE_DEST": "move_dest", "STRIKE": "strike"}
_TEAM = "AB"


def position(
    *,
    team_sizes: Sequence[int] = (2, 2),
    pools: Any = None,
    decks: Any = None,
    max_team_turns: int = 60,
    duel_cap: int = 300,
    rulesets: Sequence[int | str | None] | None = None,
    squares: Sequence[tuple[int, int] | int | None] | None = None,
    ap: Sequence[int] | None = None,
    guarding: Sequence[bool] | None = None,
    dueled: Sequence[bool] | None = None,
    ended: Sequence[bool] | None = None,
    exited: Sequence[bool] | None = None,
    life: Sequence[int] = (18, 18),
    team_turn: int = 1,
    acting: int = 0,
    first_team: int | None = None,
    control: int | None = None,
    commanded: bool | None = None,
    phase_moved: bool | None = None,
    start: str = "meta_field",
    dice: Sequence[int] | None = None,
    next_dice: Sequence[int] | None = None,
    champion_lost: bool = False,
    seed: int = 0,
) -> AmalogsState:
    """An AMALOGS position, run from ``start`` to its first decision.

    Args:
        team_sizes: players of team A and team B, 1..3 each (D2).
        pools: the rulesets each player may choose (env option; default every available one).
        decks: the players' decks (env option; default each ruleset's first ready-made deck).
        max_team_turns: the team-turn cap (D34).
        duel_cap: core decisions per table before auto-completion (D32).
        rulesets: per player, the ruleset of the core game it holds (slot or name, in its
            pool); ``None`` (or no list) is the pool's first entry. An exited player's ruleset
            only builds the start-up side that its exit deletes.
        squares: per player, ``(row, col)`` or a square index ``7 * row + col``; ``None`` for an
            exited player. Default: where the start-up placed the avatars.
        ap: per player, action points 0..9 (default 0 each; an exited player has 0).
        guarding: per player, whether the avatar is Guarding (D26).
        dueled: per player, whether it already declared DUEL in this team turn (D4).
        ended: per player, whether it already ended its part of this team turn (D5).
        exited: per player, whether it has exited (D27) and awaits the respawn.
        life: base life of team A and team B, 1..35 (I1).
        team_turn: the team-turn counter, 1..``max_team_turns``.
        acting: the team holding the turn (0 = A, 1 = B).
        first_team: the match's first team (default: what ``team_turn`` and ``acting`` imply).
        control: the acting player holding control (default: its lowest-index on-map avatar
            that has not ended).
        commanded: D6 (a): the holder declared a command since it last received control.
        phase_moved: D6 (b): a command or HAND_OVER was made in this meta-field phase.
        start: the start phase, a key of ``START_PHASES``.
        dice: the last two d6 rolled (shown to everyone; required at ``"move_dest"``).
        next_dice: the next two d6 the random stream rolls (the next MOVE), or None.
        champion_lost: at ``"strike"``: the champion's side met its loss condition.
        seed: seed of the match's random stream (start-up shuffles, later dice and draws).

    Raises:
        PositionError: the position breaks a rule; the message names the player, square or
            team and the rule.
    """
    b = _Builder(_config(team_sizes, pools, decks, max_team_turns, duel_cap), start)
    b.players(rulesets, squares, ap, exited)
    b.match(life, team_turn, acting, first_team, champion_lost)
    b.flags(guarding, dueled, ended, control)
    b.d6(control, commanded, phase_moved, dueled is not None)
    b.shown = _dice("dice", dice, allow_none=True)
    b.roll = None if next_dice is None else _dice("next_dice", next_dice, allow_none=False)
    if not _is_int(seed):
        raise PositionError(f"4.1 seed: {seed!r} is not an integer (the seed of the match's random stream)")
    return b.build(seed, squares is not None)


class _Builder:
    """The checks and the assembly of one position (a config and a start phase)."""

    def __init__(self, cfg: AmalogsConfig, start: Any) -> None:
        self.cfg = cfg
        self.n = n = cfg.num_players
        self.names = [_who(cfg, i) for i in range(n)]
        phase = _ALIASES.get(start, start) if isinstance(start, str) else start
        if phase not in START_PHASES:
            raise PositionError(
                f"5 start: unknown start phase {start!r}; known: {', '.join(START_PHASES)} "
                f"(or {', '.join(_ALIASES)})"
            )
        self.phase: str = phase
        self.holder = -1
        self.commanded = self.phase_moved = False
        self.shown = [0, 0]
        self.roll: list[int] | None = None

    # ------------------------------------------------------------------ checks
    def players(self, rulesets: Any, squares: Any, ap: Any, exited: Any) -> None:
        """Rulesets, squares, action points and exits, per player."""
        n, names = self.n, self.names
        self.gone = gone = [
            _flag(f"{names[i]} exited", v, "D27")
            for i, v in enumerate(_per_player("exited", exited, n, False))
        ]
        self.slots = _rulesets(self.cfg, names, rulesets)
        self.where = _squares(names, squares, gone)
        self.points = _per_player("ap", ap, n, 0)
        for i, v in enumerate(self.points):
            if not _is_int(v) or not 0 <= v <= turn.AP_CAP:
                raise PositionError(
                    f"{names[i]} ap: {v!r} action points; an avatar has 0..{turn.AP_CAP} (R7, I2)"
                )
            if gone[i] and v:
                raise PositionError(f"{names[i]} ap: an exited avatar has 0 action points, got {v} (D27)")
        if self.phase == "ap_gain" and any(gone):
            raise PositionError(
                f"{names[gone.index(True)]} exited: at start='ap_gain' every player is on the MAP (I4: "
                "exits are respawned at the end of every team turn, D29)"
            )

    def match(self, life: Any, team_turn: Any, acting: Any, first_team: Any, champion_lost: Any) -> None:
        """Base lives, the team turn, the acting and the first team."""
        cfg = self.cfg
        self.lives = _per_player("life", life, 2, 0, label="(team A, team B)")
        top = 2 * cfg.start_life
        for t, v in enumerate(self.lives):
            if not _is_int(v) or not 0 < v < top:
                raise PositionError(
                    f"team {_TEAM[t]} life: {v!r} is out of range 1..{top - 1} (I1, D33: a base at 0 or "
                    f"less has lost, at {top} or more has won)"
                )
        if not _is_int(team_turn) or not 1 <= team_turn <= cfg.max_team_turns:
            raise PositionError(
                f"team_turn: {team_turn!r} is not a team turn 1..max_team_turns={cfg.max_team_turns} (D34)"
            )
        for key, v in (("acting", acting), ("first_team", first_team)):
            if (v is not None or key == "acting") and (not _is_int(v) or v not in (0, 1)):
                raise PositionError(f"5.2 {key}: {v!r} is not a team (0 = team A, 1 = team B)")
        self.first = acting if team_turn % 2 == 1 else 1 - acting
        if first_team is not None and first_team != self.first:
            raise PositionError(
                f"first_team: team {_TEAM[first_team]} cannot be first when team {_TEAM[acting]} acts on "
                f"team turn {team_turn} (5.2: the first team acts on odd team turns)"
            )
        if not isinstance(champion_lost, bool):
            raise PositionError(f"D23 champion_lost: {champion_lost!r} is not True or False")
        if champion_lost and self.phase != "strike":
            raise PositionError("D23 champion_lost: only a position at start='strike' has a table result")
        self.team_turn, self.acting, self.champion_lost = team_turn, acting, champion_lost
        self.acting_on = [i for i in range(self.n) if cfg.team_of(i) == acting and not self.gone[i]]

    def flags(self, guarding: Any, dueled: Any, ended: Any, control: Any) -> None:
        """Guarding, dueled and ended per player (D5, D26, D27), as the start phase implies."""
        n, names, phase = self.n, self.names, self.phase
        if phase in ("ap_gain", "respawn") and control is not None:
            raise PositionError(
                f"control: at start={phase!r} nobody holds control yet (the rules give it, D6); leave it None"
            )
        done = [phase == "respawn" and i in self.acting_on for i in range(n)]
        self.dueled = _per_player("dueled", dueled, n, None)
        self.ended = _per_player("ended", ended, n, None)
        self.guarding = _per_player("guarding", guarding, n, False)
        for i in range(n):
            d, e = self.dueled[i], self.ended[i]
            self.dueled[i] = done[i] if d is None else _flag(f"{names[i]} dueled", d, "D4")
            self.ended[i] = done[i] if e is None else _flag(f"{names[i]} ended", e, "D5")
            self.guarding[i] = _flag(f"{names[i]} guarding", self.guarding[i], "D26")
            for key in ("guarding", "dueled", "ended"):
                if self.gone[i] and getattr(self, key)[i]:
                    raise PositionError(f"{names[i]} {key}: an exited avatar's flags are cleared (D27)")
            if done[i] and not (self.dueled[i] and self.ended[i]):
                raise PositionError(
                    f"{names[i]} dueled/ended: at start='respawn' the team turn is over, so every on-map "
                    f"avatar of team {_TEAM[self.acting]} has dueled and ended (D5, I6)"
                )
            if self.ended[i] and not self.dueled[i]:
                raise PositionError(
                    f"{names[i]} ended: END_TURN is legal only after the avatar dueled (D5, D16)"
                )

    def d6(self, control: Any, commanded: Any, phase_moved: Any, dueled_given: bool) -> None:
        """The control holder and the D6 bookkeeping of the meta-field phase."""
        names, phase = self.names, self.phase
        if phase not in ("meta_field", "move_dest", "strike"):
            if commanded is not None or phase_moved is not None:
                raise PositionError(
                    f"D6 commanded/phase_moved: at start={phase!r} the rules set them; leave them None"
                )
            return
        holder = self.holder = _control(self.cfg, names, control, self.acting, self.acting_on, self.ended)
        busy = phase != "meta_field"
        if busy and commanded is False:
            raise PositionError(
                f"commanded: at start={phase!r} the holder has just declared a command (D6 a)"
            )
        self.commanded = busy if commanded is None else _flag("commanded", commanded, "D6")
        if phase == "strike":
            if dueled_given and not self.dueled[holder]:
                raise PositionError(f"{names[holder]} dueled: the host of the duel has dueled (5.3 step 1)")
            self.dueled[holder] = True
        happened = self.commanded or any(self.dueled[i] for i in self.acting_on) or any(self.gone)
        self.phase_moved = happened if phase_moved is None else _flag("phase_moved", phase_moved, "D6")
        if not self.phase_moved and happened:
            raise PositionError(
                "phase_moved: False, but something already happened in this meta-field phase (a command, "
                "a duel of the acting team or an exit) (D6 b)"
            )
        if not self.phase_moved and holder != self.acting_on[0]:
            raise PositionError(
                f"control: {names[holder]} holds control, but with phase_moved=False nothing has happened "
                f"yet, so control is still with the first avatar {names[self.acting_on[0]]} (D6)"
            )

    # ------------------------------------------------------------------ assembly
    def build(self, seed: int, squares_given: bool) -> AmalogsState:
        """Play the start-up, set the position, run the automatic steps to the first decision."""
        st = new_game(self.cfg, seed)
        _play_startup(st, self.slots)
        for i, a in enumerate(st.avatars):
            if squares_given:
                s = self.where[i]
                a.square = -1 if s is None else s
            a.ap = self.points[i]
            a.dueled, a.ended, a.guarding = self.dueled[i], self.ended[i], self.guarding[i]
            if self.gone[i]:
                duel.exit_avatar(a)
        st.life = list(self.lives)
        st.first_team = self.first
        st.acting = self.acting
        st.team_turn = self.team_turn
        st.dice = list(self.shown)
        st.queue = []
        st.move_allowance = 0
        if self.roll is not None:
            st.rng = _rng_rolling(*self.roll)
        st.control = st.actor = self.holder
        st.commanded = self.commanded
        st.phase_moved = self.phase_moved
        phase = self.phase
        if phase == "ap_gain":
            st.team_turn -= 1
            turn.next_team_turn(st)
        elif phase == "meta_field":
            st.phase = Phase.META_FIELD
        elif phase == "move_dest":
            _pending_move(st, self.names, self.holder, self.shown)
        elif phase == "strike":
            _strike(st, self.names, self.holder, self.champion_lost)
        else:
            st.control = st.actor = -1
            respawn.begin_respawn(st)
        st._legal = None
        if st.done:
            raise PositionError(
                f"team_turn: the automatic steps end the match at once ({st.reason}); start earlier (D34)"
            )
        try:
            check(st)
        except StateError as e:
            raise PositionError(str(e)) from None
        return st


# ----------------------------------------------------------------------------- checks
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _who(cfg: AmalogsConfig, i: int) -> str:
    """``P2 (b_0)``: the player index and its agent name (D2)."""
    return f"P{i} ({'ab'[cfg.team_of(i)]}_{cfg.slot_of(i)})"


def _flag(where: str, v: Any, item: str) -> bool:
    if not isinstance(v, bool):
        raise PositionError(f"{item} {where}: {v!r} is not True or False")
    return v


def _per_player(name: str, value: Any, n: int, default: Any, label: str = "") -> list[Any]:
    """A per-player argument as a list of ``n`` entries (``default`` each when None)."""
    if value is None:
        return [default] * n
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence) or len(value) != n:
        what = label or f"one per player, {n} in player-index order"
        item = "4.1" if label else "D2"  # per team (4.1), or per player in index order (D2)
        raise PositionError(f"{item} {name}: give {n} entries ({what}); got {value!r}")
    return list(value)


def _config(team_sizes: Any, pools: Any, decks: Any, max_team_turns: Any, duel_cap: Any) -> AmalogsConfig:
    """The match options, as the env validates them (a bad option is a ``PositionError``)."""
    try:
        return match_config(team_sizes, pools, decks, max_team_turns, duel_cap)
    except (ValueError, TypeError) as e:
        raise PositionError(f"{_option_item(team_sizes, max_team_turns, duel_cap)} options: {e}") from e


def _option_item(team_sizes: Any, max_team_turns: Any, duel_cap: Any) -> str:
    """The spec item of a refused option.

    D2 the team sizes, D34 the team-turn cap, D32 the duel cap, else D28 the pools and decks
    (with D15's ruleset slots).
    """
    sizes_ok = (
        isinstance(team_sizes, (list, tuple))
        and len(team_sizes) == 2
        and all(_is_int(k) and 1 <= k <= 3 for k in team_sizes)
    )
    if not sizes_ok:
        return "D2"
    for item, value in (("D34", max_team_turns), ("D32", duel_cap)):
        if not _is_int(value) or value < 1:
            return item
    return "D28"


def _rulesets(cfg: AmalogsConfig, names: list[str], value: Any) -> list[int]:
    """Per player the ruleset slot its side is built with (D15, D28).

    An exited player's ruleset only builds the start-up side that its exit deletes.
    """
    out = []
    for i, v in enumerate(_per_player("rulesets", value, cfg.num_players, None)):
        pool = cfg.pools[i]
        if v is None:
            out.append(pool[0])
            continue
        slot = SLOT_OF.get(v, v) if isinstance(v, str) else v
        if not _is_int(slot) or slot not in RULESETS:
            known = ", ".join(f"{s} ({r.name})" for s, r in RULESETS.items())
            raise PositionError(f"{names[i]} ruleset: unknown ruleset {v!r}; known slots: {known} (D15)")
        if slot not in pool:
            listed = ", ".join(f"{s} ({RULESETS[s].name})" for s in pool)
            raise PositionError(
                f"{names[i]} ruleset: {RULESETS[slot].name} (slot {slot}) is not in its pool [{listed}] "
                "(D28: a core game is chosen from the player's pool)"
            )
        out.append(slot)
    return out


def _squares(names: list[str], value: Any, gone: list[bool]) -> list[int | None]:
    """Per player its square index, or None for an exited player (D9, D12)."""
    if value is None:
        return [None] * len(names)
    out: list[int | None] = []
    seen: dict[int, int] = {}
    for i, v in enumerate(_per_player("squares", value, len(names), None)):
        who = f"{names[i]} square"
        if v is None:
            if not gone[i]:
                raise PositionError(
                    f"I4 {who}: None, but the avatar is on the MAP; give a square or exited=True"
                )
            out.append(None)
            continue
        if gone[i]:
            raise PositionError(f"{who}: {v!r}, but an exited avatar is off the MAP (D27); give None")
        if _is_int(v):
            if not 0 <= v < SQUARES:
                raise PositionError(f"{who}: square index {v} is off the MAP (0..{SQUARES - 1}, D9)")
            s = v
        elif (
            isinstance(v, Sequence)
            and not isinstance(v, (str, bytes))
            and len(v) == 2
            and all(map(_is_int, v))
        ):
            r, c = v
            if not (0 <= r < ROWS and 0 <= c < COLS):
                raise PositionError(
                    f"{who}: ({r}, {c}) is off the MAP (rows 0..{ROWS - 1}, columns 0..{COLS - 1}, D9)"
                )
            s = square(r, c)
        else:
            raise PositionError(f"D9 {who}: give (row, col) or a square index 7 * row + col, got {v!r}")
        r, c = coords(s)
        if s in BASES:
            team = _TEAM[BASES.index(s)]
            raise PositionError(
                f"{who}: ({r}, {c}) is team {team}'s base square; no avatar ever stands on a base (D12)"
            )
        if s in seen:
            raise PositionError(
                f"{who}: ({r}, {c}) is already taken by {names[seen[s]]}; at most one avatar per square (D12)"
            )
        seen[s] = i
        out.append(s)
    return out


def _control(
    cfg: AmalogsConfig, names: list[str], control: Any, acting: int, acting_on: list[int], ended: list[Any]
) -> int:
    """D6: the holder is an on-map, not-ended avatar of the acting team."""
    free = [i for i in acting_on if not ended[i]]
    if control is None:
        if not free:
            raise PositionError(
                f"control: no avatar of team {_TEAM[acting]} can hold control (each has ended or exited), "
                "so the team turn is over (D5); start at 'respawn'"
            )
        return free[0]
    if not _is_int(control) or not 0 <= control < cfg.num_players:
        raise PositionError(f"D6 control: {control!r} is not a player index 0..{cfg.num_players - 1}")
    if control not in free:
        why = (
            "is not of the acting team"
            if cfg.team_of(control) != acting
            else "has exited"
            if control not in acting_on
            else "has ended its part of the turn"
        )
        raise PositionError(
            f"control: {names[control]} {why}; control is held by an on-map avatar of team "
            f"{_TEAM[acting]} that has not ended (D6)"
        )
    return int(control)


def _dice(name: str, value: Any, allow_none: bool) -> list[int]:
    """Two d6 results; ``None`` / ``(0, 0)`` (no roll yet) where ``allow_none``."""
    if value is None and allow_none:
        return [0, 0]
    ok = isinstance(value, Sequence) and not isinstance(value, (str, bytes)) and len(value) == 2
    ok = ok and all(_is_int(d) for d in value)
    if ok and allow_none and list(value) == [0, 0]:
        return [0, 0]
    if not ok or not all(1 <= d <= 6 for d in value):
        extra = " or (0, 0) for no roll yet" if allow_none else ""
        raise PositionError(f"{name}: {value!r} is not two d6 results (d1, d2) in 1..6{extra} (D17)")
    return list(value)


def _rng_rolling(d1: int, d2: int) -> random.Random:
    """A random stream whose next two d6 rolls are ``d1`` and ``d2`` (the lowest such seed)."""
    for k in range(10_000):
        rng = random.Random(k)
        if (rng.randint(1, 6), rng.randint(1, 6)) == (d1, d2):
            return random.Random(k)
    raise PositionError(f"D17 next_dice: no random stream found that rolls {d1}, {d2}")  # pragma: no cover


# ----------------------------------------------------------------------------- assembly
def _play_startup(st: AmalogsState, slots: list[int]) -> None:
    """The start-up with fixed choices, up to the first meta-field decision.

    The given rulesets, core decisions by the pass/lowest option (A9), placements on the first
    free spawn squares.
    """
    while st.phase != Phase.META_FIELD:
        if st.phase == Phase.STARTUP_RULESET:
            st.apply(A.RULESET[slots[st.actor]])
        elif st.phase == Phase.STARTUP_CORE:
            st.apply(Action(Kind.CORE, adapter(st.table_ruleset).auto_action(st.table)))
        else:
            st.apply(st.legal_actions()[0])


def _pending_move(st: AmalogsState, names: list[str], holder: int, shown: list[int]) -> None:
    """D17: the holder paid its MOVE and rolled ``shown``; it chooses a destination."""
    av = st.avatars[holder]
    if shown == [0, 0]:
        raise PositionError("dice: start='move_dest' needs the MOVE's roll (d1, d2) (D17)")
    m = max(0, shown[0] + shown[1] - av.we)
    if m < 1:
        raise PositionError(
            f"dice: {names[holder]} rolled {shown[0]}+{shown[1]} with WE {av.we}: allowance {m}, so there "
            "is no destination decision (D17)"
        )
    st.move_allowance = m
    st.phase = Phase.MOVE_DEST


def _strike(st: AmalogsState, names: list[str], host: int, champion_lost: bool) -> None:
    """5.3: the host's duel with its table turn over (sides unchanged); the strike decision (D24)."""
    h = st.avatars[host]
    players, bases = duel.participants(st, host)
    casts = [i for i in players if i != host and st.avatars[i].team == h.team]
    guests = [i for i in players if st.avatars[i].team != h.team]
    champ, defender, kind = duel.seat_one(st, host, guests, bases)
    if champion_lost and champ < 0:
        raise PositionError(
            f"champion_lost: {names[host]}'s duel has no champion (no guest holds its ruleset), so no "
            "player sits at seat 1 to lose (D21, D36)"
        )
    d = st.duel = Duel(host, casts, guests, bases, champ, defender, kind)
    d.strike = h.we + len(casts)
    if defender >= 0:
        dav = st.avatars[defender]
        d.proxy_start = to_host(adapter(dav.ruleset).summary(dav.side).life, h.nominal, dav.nominal)
    d.proxy_life = d.proxy_start
    d.lost = [champ] if champion_lost else []
    st.core_turn += 1
    h.core_turns += 1
    h.last_turn = st.core_turn
    if champ >= 0:
        st.avatars[champ].last_turn = st.core_turn
    if not duel.exposed(st):
        guard = [names[g] for g in guests if st.avatars[g].guarding]
        why = (
            f"Guarded by {', '.join(guard)} (D26)"
            if guard
            else "no guest other than the champion or the defender (D41)"
        )
        raise PositionError(
            f"start: {names[host]}'s duel exposes no strike target ({why}), so there is no strike decision"
        )
    st.emit(
        "duel",
        f"position: P{host}'s duel, casts {casts}, guests {guests}, bases {[_TEAM[t] for t in bases]}, "
        f"champion {'vacant' if champ < 0 else f'P{champ}'}, S {d.strike}: the strike",
        **d.declared(),
    )
    st.phase = Phase.STRIKE
    st.actor = host

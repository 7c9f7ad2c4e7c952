"""Set up an AMALOGS position by hand (spec ``docs/rules/amalogs.md``).

``position(...)`` builds an ``AmalogsState`` from readable keyword arguments (squares, action
points, flags, base lives, the team turn and a start phase) read by ``envs.core.position.Reader``,
runs the automatic steps up to the first decision and passes the result through the rules check
``envs.amalogs.rules.check``. Every argument, what is checked and what a position cannot
express: ``docs/positions.md``, section "AMALOGS".
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from deckgym.envs.amalogs import actions as A
from deckgym.envs.amalogs import rules
from deckgym.envs.amalogs.actions import Action, Kind, Phase
from deckgym.envs.amalogs.config import RULESETS, SLOT_OF, AmalogsConfig
from deckgym.envs.amalogs.cores import adapter, match_config
from deckgym.envs.amalogs.rules import duel, new_game, respawn, turn
from deckgym.envs.amalogs.rules.convert import host_units, to_host
from deckgym.envs.amalogs.rules.geometry import COLS, ROWS, SQUARES, square
from deckgym.envs.amalogs.state import AmalogsState, Duel
from deckgym.envs.core.errors import PositionError
from deckgym.envs.core.position import Reader, fail, is_int, is_list

__all__ = ["START_PHASES", "position"]

#: The phases a position can start at (the phase of the first decision, before automatic steps).
START_PHASES: dict[str, str] = {
    "ap_gain": "start of the team turn: action-point gain, then the meta-field phase",
    "meta_field": "the control holder chooses a command (META_FIELD)",
    "move_dest": "the control holder chooses its MOVE destination (MOVE_DEST)",
    "strike": "the host chooses its strike after the table turn (STRIKE)",
    "respawn": "the team turn is over: the respawn phase, then the next team turn",
}
_TEAM = "AB"
#: The spec item of a refused option, by the option its message starts with (else D28: pools, decks).
_OPTION_ITEMS = (("team_sizes", "D2"), ("max_team_turns", "D34"), ("duel_cap", "D32"))


def position(
    *,
    team_sizes: Sequence[int] = (2, 2),
    pools: Sequence[Any] | None = None,
    decks: Mapping[Any, Any] | Sequence[Any] | None = None,
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
    """An AMALOGS position, run from ``start`` to its first decision (arguments: ``docs/positions.md``).

    Raises:
        PositionError: the position breaks a rule or an argument cannot be read; the message names
            the player, square or team and the spec item.
    """
    cfg = _config(team_sizes, pools, decks, max_team_turns, duel_cap)
    n = cfg.num_players
    r = Reader(None, seats=n)
    names = [f"P{i} ({'ab'[cfg.team_of(i)]}_{cfg.slot_of(i)})" for i in range(n)]
    phase = r.choice("start", start, START_PHASES, "5.2-5.4")
    gone = [
        r.flag(f"{names[i]} exited", v, "D27") for i, v in enumerate(r.per_seat("D2 exited", exited, False))
    ]
    slots = [_ruleset(cfg, names[i], i, v) for i, v in enumerate(r.per_seat("D2 rulesets", rulesets, None))]
    where = None
    if squares is not None:
        where = [_square(r, names[i], v, gone[i]) for i, v in enumerate(r.per_seat("D2 squares", squares))]
    points = [r.whole(f"{names[i]} ap", v, 0, None, "I2") for i, v in enumerate(r.per_seat("D2 ap", ap, 0))]
    if phase == "ap_gain" and any(gone):
        fail(f"{names[gone.index(True)]} exited", "at start='ap_gain' every player is on the MAP", "I4, D29")
    team_turn, acting, first = _team_args(r, phase, life, team_turn, acting, first_team, champion_lost, seed)

    acting_on = [i for i in range(n) if cfg.team_of(i) == acting and not gone[i]]
    guard, duels, ends = _turn_flags(r, names, phase, acting, acting_on, (guarding, dueled, ended))
    given = (control, commanded, phase_moved, dueled is None)
    holder, commanded, phase_moved = _control(r, phase, acting, acting_on, [gone, duels, ends], given)
    shown = _dice("dice", dice, none_ok=True)
    roll = None if next_dice is None else _dice("next_dice", next_dice, none_ok=False)

    st = new_game(cfg, seed)
    _play_startup(st, slots)
    for i, a in enumerate(st.avatars):
        if gone[i]:
            duel.exit_avatar(a)
        if where is not None:
            a.square = where[i]
        a.ap, a.dueled, a.ended, a.guarding = points[i], duels[i], ends[i], guard[i]
    st.life, st.first_team, st.acting, st.team_turn = list(life), first, acting, team_turn
    st.dice, st.queue, st.move_allowance, st.control, st.actor = shown, [], 0, holder, holder
    st.commanded, st.phase_moved = commanded, phase_moved
    if roll is not None:
        st.rng = _rng_rolling(*roll)
    _run(st, phase, names, holder, champion_lost)
    return Reader.checked(st, rules.check)


# ----------------------------------------------------------------------------- reading


def _team_args(
    r: Reader,
    phase: str,
    life: Any,
    team_turn: Any,
    acting: Any,
    first_team: Any,
    champion_lost: Any,
    seed: Any,
) -> tuple[int, int, int]:
    """The match-wide arguments, checked: (team turn, acting team, first team)."""
    if not (is_list(life) and len(life) == 2 and all(map(is_int, life))):
        fail("life", f"give the base lives (team A, team B) as two whole numbers, got {life!r}", "I1")
    team_turn = r.whole("team_turn", team_turn, 1, None, "5.2")
    acting = r.whole("acting", acting, 0, 1, "5.2")
    first = acting if team_turn % 2 == 1 else 1 - acting
    if first_team is not None:
        first = r.whole("first_team", first_team, 0, 1, "5.2")
    if r.flag("champion_lost", champion_lost, "D23") and phase != "strike":
        fail("champion_lost", "only a position at start='strike' has a table result", "D23")
    if not is_int(seed):
        fail("seed", f"{seed!r} is not a whole number (the seed of the match's random stream)", "4.1")
    return team_turn, acting, first


def _config(team_sizes: Any, pools: Any, decks: Any, max_team_turns: Any, duel_cap: Any) -> AmalogsConfig:
    """The match options, as the env validates them; a refusal starts with the option's spec item."""
    try:
        return match_config(team_sizes, pools, decks, max_team_turns, duel_cap)
    except (ValueError, TypeError) as e:
        item = next((item for key, item in _OPTION_ITEMS if str(e).startswith(key)), "D28")
        raise PositionError(f"{item} options: {e}") from e


def _ruleset(cfg: AmalogsConfig, who: str, i: int, value: Any) -> int:
    """The ruleset slot player ``i``'s side is built with: a slot or a name in its pool (D15, D28)."""
    pool = cfg.pools[i]
    if value is None:
        return pool[0]
    slot = SLOT_OF.get(value, value) if isinstance(value, str) else value
    if not is_int(slot) or slot not in RULESETS:
        known = ", ".join(f"{s} ({r.name})" for s, r in RULESETS.items())
        fail(f"{who} ruleset", f"unknown ruleset {value!r}; known slots: {known}", "D15")
    if slot not in pool:
        listed = ", ".join(f"{s} ({RULESETS[s].name})" for s in pool)
        fail(
            f"{who} ruleset",
            f"{RULESETS[slot].name} (slot {slot}) is not in its pool [{listed}]",
            "D28: a core game is chosen from the player's pool",
        )
    return int(slot)


def _square(r: Reader, who: str, value: Any, gone: bool) -> int:
    """A square index from ``(row, col)`` or ``7 * row + col`` (D9); -1 (``None``) for an exited player."""
    where = f"{who} square"
    if gone:
        if value is not None:
            fail(where, f"give None: an exited avatar is off the MAP, got {value!r}", "D27")
        return -1
    if value is None:
        fail(where, "None, but the avatar is on the MAP; give a square or exited=True", "I4")
    if is_int(value):
        return r.whole(where, value, 0, SQUARES - 1, "D9")
    if not (is_list(value) and len(value) == 2):
        fail(where, f"give (row, col) or a square index 7 * row + col, got {value!r}", "D9")
    return square(
        r.whole(f"{where} row", value[0], 0, ROWS - 1, "D9"),
        r.whole(f"{where} column", value[1], 0, COLS - 1, "D9"),
    )


def _flags(r: Reader, names: list[str], key: str, value: Any, default: list[bool], rule: str) -> list[bool]:
    """A per-player flag; an entry given as ``None`` (or no list) takes ``default``."""
    given = r.per_seat(f"D2 {key}", value, None)
    return [r.flag(f"{names[i]} {key}", default[i] if v is None else v, rule) for i, v in enumerate(given)]


def _dice(name: str, value: Any, none_ok: bool) -> list[int]:
    """Two d6 results; ``None`` or ``(0, 0)`` (no roll yet) where ``none_ok``."""
    if value is None and none_ok:
        return [0, 0]
    ok = is_list(value) and len(value) == 2 and all(map(is_int, value))
    if ok and (all(1 <= d <= 6 for d in value) or (none_ok and list(value) == [0, 0])):
        return list(value)
    extra = " or (0, 0) for no roll yet" if none_ok else ""
    fail(name, f"{value!r} is not two d6 results (d1, d2) in 1..6{extra}", "D17")


def _rng_rolling(d1: int, d2: int) -> random.Random:
    """A random stream whose next two d6 rolls are ``d1`` and ``d2`` (the lowest such seed)."""
    for k in range(10_000):
        rng = random.Random(k)
        if (rng.randint(1, 6), rng.randint(1, 6)) == (d1, d2):
            return random.Random(k)
    fail("next_dice", f"no random stream found that rolls {d1}, {d2}", "D17")  # pragma: no cover


# ----------------------------------------------------------------------------- assembly
def _turn_flags(
    r: Reader, names: list[str], phase: str, acting: int, acting_on: list[int], given: tuple[Any, Any, Any]
) -> tuple[list[bool], list[bool], list[bool]]:
    """Guarding, dueled and ended per player (D4, D5, D26); at ``"respawn"`` the acting team is done."""
    over = [phase == "respawn" and i in acting_on for i in range(len(names))]
    guard = _flags(r, names, "guarding", given[0], [False] * len(names), "D26")
    duels = _flags(r, names, "dueled", given[1], over, "D4")
    ends = _flags(r, names, "ended", given[2], over, "D5")
    for i in acting_on:
        if over[i] and not (duels[i] and ends[i]):
            fail(
                f"{names[i]} dueled/ended",
                f"at start='respawn' the team turn is over, so every on-map avatar of team {_TEAM[acting]} "
                "has dueled and ended",
                "D5, I6",
            )
    return guard, duels, ends


def _control(
    r: Reader, phase: str, acting: int, acting_on: list[int], flags: list[list[bool]], given: tuple[Any, ...]
) -> tuple[int, bool, bool]:
    """The control holder and the D6 bookkeeping (``commanded``, ``phase_moved``), given or derived."""
    gone, duels, ends = flags
    control, commanded, phase_moved, host_dueled = given
    if phase in ("ap_gain", "respawn"):
        for key, v in (("control", control), ("commanded", commanded), ("phase_moved", phase_moved)):
            if v is not None:
                fail(key, f"at start={phase!r} nobody holds control yet; leave it None", "D6")
        return -1, False, False
    free = [i for i in acting_on if not ends[i]]
    if control is not None:
        holder = r.whole("control", control, 0, len(gone) - 1, "D6")
    elif free:
        holder = free[0]
    else:
        fail(
            "control",
            f"no avatar of team {_TEAM[acting]} can hold control (each has ended or exited), so the team "
            "turn is over; start at 'respawn'",
            "D5, D6",
        )
    if phase == "strike" and host_dueled:
        duels[holder] = True  # 5.3 step 1: the host has dueled
    commanded = phase != "meta_field" if commanded is None else r.flag("commanded", commanded, "D6")
    happened = commanded or any(duels[i] for i in acting_on) or any(gone)
    return holder, commanded, happened if phase_moved is None else r.flag("phase_moved", phase_moved, "D6")


def _run(st: AmalogsState, phase: str, names: list[str], holder: int, champion_lost: bool) -> None:
    """The start phase's automatic steps, up to the first decision (D34: not past the match's end)."""
    if phase == "ap_gain":
        st.team_turn -= 1
        turn.next_team_turn(st)
    elif phase == "meta_field":
        st.phase = Phase.META_FIELD
    elif phase == "move_dest":
        if st.dice == [0, 0]:
            fail("dice", "start='move_dest' needs the MOVE's roll (d1, d2)", "D17")
        st.move_allowance = st.dice[0] + st.dice[1] - st.avatars[holder].we
        st.phase = Phase.MOVE_DEST
    elif phase == "strike":
        _strike(st, names, holder, champion_lost)
    else:
        respawn.begin_respawn(st)
    st._legal = None
    if st.done:
        fail("team_turn", f"the automatic steps end the match at once ({st.reason}); start earlier", "D34")


def _play_startup(st: AmalogsState, slots: list[int]) -> None:
    """The start-up: the given rulesets, core decisions by the pass/lowest option (A9), first free squares."""
    while st.phase != Phase.META_FIELD:
        if st.phase == Phase.STARTUP_RULESET:
            st.apply(A.RULESET[slots[st.actor]])
        elif st.phase == Phase.STARTUP_CORE:
            st.apply(Action(Kind.CORE, adapter(st.table_ruleset).auto_action(st.table)))
        else:
            st.apply(st.legal_actions()[0])


def _strike(st: AmalogsState, names: list[str], host: int, champion_lost: bool) -> None:
    """5.3: the host's duel with its table turn over (sides unchanged); the strike decision (D24)."""
    h = st.avatars[host]
    players, bases = duel.participants(st, host)
    casts = [i for i in players if i != host and st.avatars[i].team == h.team]
    guests = [i for i in players if st.avatars[i].team != h.team]
    champ, defender, kind = duel.seat_one(st, host, guests, bases)
    if champion_lost and champ < 0:
        why = f"{names[host]}'s duel has no champion (no guest holds its ruleset): nobody at seat 1 loses"
        fail("champion_lost", why, "D21, D36")
    d = st.duel = Duel(
        host=host, casts=casts, guests=guests, bases=bases, champion=champ, defender=defender, proxy=kind
    )
    d.strike = h.we + len(casts)
    if defender >= 0:
        dav = st.avatars[defender]
        d.proxy_start = to_host(
            adapter(dav.ruleset).summary(dav.side).life, host_units(h.ruleset), dav.nominal
        )
    d.proxy_life = d.proxy_start
    d.lost = [champ] if champion_lost else []
    st.core_turn += 1
    h.core_turns += 1
    h.last_turn = st.core_turn
    if champ >= 0:
        st.avatars[champ].last_turn = st.core_turn
    st.emit("duel", duel.duel_line(st, d), **d.declared())
    st.phase = Phase.STRIKE
    st.actor = host

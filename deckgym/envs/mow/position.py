"""Set up any Master of the World position by hand (spec ``docs/rules/mow.md``).

``position(...)`` builds a ``GameState`` from readable keyword arguments (puzzles, endgame
studies, regression cases), runs the automatic steps from the chosen start step up to the
first decision and passes the result through the rules check (``envs.mow.rules.check``).
Every refusal is a ``PositionError`` naming the place and, where a rule is at stake, its spec
item. The arguments, what is checked and what cannot be expressed: ``docs/positions.md``,
section "Master of the World".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.core.position import Reader, fail, is_int, is_list, seat_name
from deckgym.envs.mow import rules
from deckgym.envs.mow.actions import Phase
from deckgym.envs.mow.cards import MASTER, MONSTER, SPELL, WEAPON, CardPool, load_pool
from deckgym.envs.mow.config import LIFE_START, make_config
from deckgym.envs.mow.rules import flow
from deckgym.envs.mow.rules.card_use import turn_key
from deckgym.envs.mow.rules.values import level_for
from deckgym.envs.mow.state import PERMANENT, TURN, GameState, Monster

__all__ = ["STEPS", "position"]

#: The turn steps a position can start at (agenda task name -> turn step, 5.2).
STEPS: dict[str, Phase] = {
    "turn_start": Phase.START,
    "draw_phase": Phase.DRAW,
    "charge_phase": Phase.CHARGE,
    "main_phase": Phase.MAIN,
    "attack_phase": Phase.ATTACK,
    "end_phase": Phase.END,
}
#: Short names of the start steps.
ALIASES = {"start": "turn_start", "draw": "draw_phase", "charge": "charge_phase"}
ALIASES |= {"main": "main_phase", "attack": "attack_phase", "end": "end_phase"}
#: The kinds of card a main-deck zone holds (a master never, R3).
MAIN = (MONSTER, WEAPON, SPELL)
#: A monster given as a record: its fields in tuple order (the declared ``Monster`` less its uid).
MONSTER_FIELDS = ("card", "entered", "damage", "attacked", "mods")
#: The zones a vacant seat 1 leaves empty (``vacant_seat``).
VACANT = ("hands", "decks", "experience", "monsters", "weapons", "spells", "discards", "decklists")


def position(
    *,
    pool: CardPool | Any = None,
    masters: Sequence[str | None] | None = None,
    hands: Sequence[Sequence[str]] = ((), ()),
    decks: Sequence[int | Sequence[str]] = (20, 20),
    experience: Sequence[int | Sequence[str]] = (0, 0),
    life: Sequence[int] = (LIFE_START, LIFE_START),
    monsters: Sequence[Sequence[Any]] = ((), ()),
    weapons: Sequence[str | None] = (None, None),
    spells: Sequence[Any] = (None, None),
    discards: Sequence[Sequence[str]] = ((), ()),
    turn: int = 3,
    active: int = 0,
    first: int = 0,
    start: str = "main_phase",
    master_attacked: Sequence[bool] = (False, False),
    master_mods: Sequence[Sequence[Sequence[int]]] = ((), ()),
    fast_used: Sequence[bool] = (False, False),
    charges: int = 0,
    turn_uses: Sequence[Mapping[str, int]] = ({}, {}),
    filler: str | None = None,
    decklists: Sequence[Sequence[str]] | None = None,
    seed: int = 0,
    lenient: bool = False,
    **options: Any,
) -> GameState:
    """A Master of the World position, run from ``start`` to its first decision.

    The arguments are described in ``docs/positions.md`` ("Master of the World").

    Raises:
        PositionError: the arguments cannot be read, or the position breaks a rule; the message
            names the place and the rule.
    """
    b = _Builder(pool, options, first)
    r, cfg = b.reader, b.config
    seated = (0,) if cfg.vacant_seat else (0, 1)
    args = {
        name: r.per_seat(name, value)
        for name, value in (
            ("hands", hands),
            ("decks", decks),
            ("experience", experience),
            ("life", life),
            ("monsters", monsters),
            ("weapons", weapons),
            ("spells", spells),
            ("discards", discards),
            ("master_attacked", master_attacked),
            ("master_mods", master_mods),
            ("fast_used", fast_used),
            ("turn_uses", turn_uses),
            ("decklists", decklists if decklists is not None else (None, None)),
        )
    }
    default = b.pool.masters[0].id if b.pool.masters else None
    args["masters"] = r.per_seat("masters", masters if masters is not None else (default, default))
    st = GameState(cfg, b.pool, [[], []], _seed(seed))
    st.turn = r.whole("turn", turn, 1, cfg.max_turns, "D42")
    st.active = r.whole("active", active, 0, len(seated) - 1)
    st.first = r.whole("first", first, 0, len(seated) - 1)
    step = r.choice("start", start, [*STEPS, *ALIASES])
    step = ALIASES.get(step, step)
    lenient = r.flag("lenient", lenient)
    fill = filler if filler is not None else b.pool.main[0].id
    uid = 1
    for p in (0, 1):
        if p in seated:
            uid = b.seat(st, p, {k: v[p] for k, v in args.items()}, fill, uid)
        else:
            b.vacant(args, masters is not None)
            st.life[1] = r.whole("P1 life", args["life"][1], 0) if cfg.proxy else 0
    st.next_uid = uid
    st.charges = r.whole(f"{seat_name(st.active)} charges", charges, 0, rule="D7")
    st.phase = int(STEPS[step])
    st.agenda = [[step]]
    flow.run(st)
    return Reader.checked(st, rules.check, lenient=lenient)


def _seed(seed: Any) -> int:
    if not is_int(seed):
        fail("seed", f"must be a whole number, got {seed!r}")
    return int(seed)


class _Builder:
    """The reading of one position's arguments over a pool and a rules config."""

    def __init__(self, pool: Any, options: dict[str, Any], first: Any) -> None:
        # a pool that is not yet a CardPool is loaded (a bad card file raises CardDataError)
        self.pool: CardPool = pool if isinstance(pool, CardPool) else load_pool(pool)
        self.reader = Reader(self.pool)
        if "first_player" in options and options["first_player"] != first:
            fail(
                "rules options",
                f"first_player={options['first_player']!r} disagrees with first={first!r}; "
                "give the first player as first= only",
            )
        opts = {k: v for k, v in options.items() if k != "first_player"}
        if first in (0, 1) and is_int(first):
            opts["first_player"] = first
        try:
            self.config = make_config(**opts)
        except (StateError, TypeError) as e:
            raise PositionError(f"rules options: {e}") from e

    def seat(self, st: GameState, p: int, a: dict[str, Any], filler: str, uid: int) -> int:
        """Read seat ``p``'s master, zones, field and counters into ``st``; the next uid."""
        r, seat = self.reader, seat_name(p)
        m = r.card(f"{seat} master", a["masters"], kinds=(MASTER,))
        st.masters[p] = m.id
        st.hand[p] = r.cards(f"{seat} hand", a["hands"], p, MAIN, "R3")
        st.deck[p] = r.pile(f"{seat} deck", a["decks"], filler, p, MAIN)
        st.exp[p] = r.pile(f"{seat} experience", a["experience"], filler, p, MAIN)
        st.discard[p] = r.cards(f"{seat} discard", a["discards"], p, MAIN, "R3")[::-1]
        st.level[p] = level_for(m, len(st.exp[p]))
        st.life[p] = r.whole(f"{seat} life", a["life"], 0, rule="R6, D13")
        uid = self.field(st, p, a, uid)
        st.master_attacked[p] = r.flag(f"{seat} master_attacked", a["master_attacked"])
        st.fast_used[p] = r.flag(f"{seat} fast_used", a["fast_used"])
        st.master_mods[p] = _mods(f"{seat} master_mods", a["master_mods"])
        st.turn_uses[p] = self.turn_uses(f"{seat} turn_uses", a["turn_uses"])
        given = a["decklists"]
        if given is None:
            held = sorted((cid for cid, _ in r.held[p]), key=lambda c: (st.cards[c].index, c))
            st.decks[p] = [m.id, *held]
        else:
            st.decks[p] = r.cards(f"{seat} decklists", given)
        return uid

    def field(self, st: GameState, p: int, a: dict[str, Any], uid: int) -> int:
        """Seat ``p``'s monsters, weapon and face-down spell, numbered from ``uid``; the next uid."""
        r, seat, turn = self.reader, seat_name(p), st.turn
        mons = a["monsters"]
        if not is_list(mons):
            fail(f"{seat} monsters", f"give a list of monsters, got {mons!r}")
        defaults = {"entered": turn - 2, "damage": 0, "attacked": False, "mods": []}
        for i, spec in enumerate(mons):
            where = f"{seat} monsters[{i}]"
            rec = r.record(where, spec, MONSTER_FIELDS, defaults, first="card")
            r.card(where, rec["card"], p, (MONSTER,))
            if not is_int(rec["entered"]) or rec["entered"] > turn:
                fail(
                    f"{where} entered",
                    f"must be a turn number up to turn={turn}, got {rec['entered']!r}",
                    "D2",
                )
            rec["damage"] = r.whole(f"{where} damage", rec["damage"], 0, rule="D38")
            rec["attacked"] = r.flag(f"{where} attacked", rec["attacked"])
            rec["mods"] = _mods(f"{where} mods", rec["mods"])
            st.monsters[p].append(Monster(uid=uid, **rec))
            uid += 1
        w = a["weapons"]
        if w is not None:
            r.card(f"{seat} weapon", w, p, (WEAPON,))
            st.weapon[p] = [w, uid]  # the declared row [card, uid]
            uid += 1
        s = a["spells"]
        if s is not None:
            rec = r.record(f"{seat} spell", s, ("card", "cast_turn"), {})
            r.card(f"{seat} spell", rec["card"], p, (SPELL,))
            cast = r.whole(f"{seat} spell cast_turn", rec["cast_turn"], 0, turn, "D20")
            st.spell[p] = [rec["card"], cast, uid]  # the declared row [card, cast_turn, uid]
            uid += 1
        return uid

    def turn_uses(self, where: str, value: Any) -> dict[str, int]:
        """ターンn counters ``{"CARD" or "CARD/i": n}`` (D30)."""
        if not isinstance(value, Mapping):
            fail(where, f"give a mapping {{'CARD' or 'CARD/i': uses}}, got {value!r}", "D30")
        out: dict[str, int] = {}
        for key, n in value.items():
            cid, _, i = str(key).partition("/")
            self.reader.card(where, cid)
            if i and not i.isdigit():
                fail(where, f"{key!r}: the ability number {i!r} is not a whole number", "D30")
            out[turn_key(cid, int(i or 0))] = self.reader.whole(f"{where} {key!r}", n, 0, rule="D30")
        return out

    def vacant(self, args: dict[str, list[Any]], masters_given: bool) -> None:
        """Seat 1 of a vacant-seat table holds nothing (``vacant_seat``)."""
        if masters_given and args["masters"][1]:
            fail(
                "P1 master",
                f"seat 1 is vacant (vacant_seat), so it has no master; got {args['masters'][1]!r}",
            )
        for name in VACANT:
            if args[name][1]:
                fail(
                    f"P1 {name}",
                    f"seat 1 is vacant (vacant_seat), so it holds nothing; got {args[name][1]!r}",
                )


def _mods(where: str, value: Any) -> list[list[int]]:
    """Modifiers ``[d_atk, d_tough_or_guard, duration]`` (BUFF, 4.7)."""
    if not is_list(value):
        fail(where, f"give a list of [d_atk, d_def, duration], got {value!r}")
    for m in value:
        if not (is_list(m) and len(m) == 3 and all(is_int(x) for x in m)) or m[2] not in (TURN, PERMANENT):
            fail(
                where,
                f"modifier {m!r} is not [d_atk, d_def, duration] with duration "
                f"{TURN} (this turn) or {PERMANENT} (permanent)",
                "BUFF, 4.7",
            )
    return [list(m) for m in value]

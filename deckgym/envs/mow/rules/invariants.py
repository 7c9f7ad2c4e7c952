"""The rules check of one Master of the World position: ``check(state)`` (spec section 10).

``check`` raises ``StateError`` when the state breaks a rule that one position can show: the
invariants of section 10 that are not about two positions (I1-I9, I11, I12, I15, I17) and the
position rules that the builder ``envs.mow.position`` leaves to it (the zones and kinds of
4.2-4.4, D17's restrictions, D7's charges, R17's slots, R26's toughness, R6's life, D6's copy
limit, the turn numbers of D2, D20 and D42), plus the control state the engine keeps between
decisions (the decision point and its context, the agenda of automatic steps, the chain and the
queued triggers of 5.3-5.8) and the outcome of a finished game (section 8). Invariants between two positions (I10, I13, I14, I16, I18) are
checked by the tests, which follow whole games.

Each problem is named by the spec item it applies, first in its line: ``I7 P0's deck is empty
in a live game ...``. The shapes are checked first, in the order the fields are read, and the
first malformed one is the whole message (nothing else can be read safely past it); the rules
are then checked together, and every broken one is a ``;``-separated part of the message.

The check reads any state whose attributes hold values of the right Python types with
arbitrary contents (wrong lengths, unknown card ids, out-of-range numbers, a decision point of
the wrong kind, an unknown agenda task) and raises nothing but ``StateError``.

Two rules the seed states outright are among them:

* I7 (R2, D40, seed 「先に山札がなくなった方が負け」): the state check (5.7) ends the game as soon
  as a seated player's deck holds 0 cards, and it runs after every draw, mill, search and
  experience gain, before any decision; so a live game never stops at a decision with an empty
  deck. (A position built at a turn step with an empty deck is played to the first state check,
  which ends it: that finished game passes.)
* I12 (R24, D33, seed 「使役されたばかりのモンスターは次の自分のターンまで攻撃できない」): a
  monster whose entered turn is the current turn never has attacked.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

from deckgym.envs.core.checks import Shape, is_int, shape_error
from deckgym.envs.core.errors import StateError
from deckgym.envs.mow.actions import DP, Phase, Use
from deckgym.envs.mow.cards import (
    COSTS,
    COUNTER,
    MASTER,
    MONSTER,
    ON_ATTACK,
    ON_DISCARD,
    ON_LEVEL_UP,
    OP_KINDS,
    SPELL,
    WEAPON,
    CardDef,
    CardPool,
)
from deckgym.envs.mow.config import DECK_SIZE, LIFE_START, MAX_LEVEL_CAP, MAX_MONSTERS, RulesConfig
from deckgym.envs.mow.rules import flow, values
from deckgym.envs.mow.rules.combat import master_can_attack
from deckgym.envs.mow.state import PERMANENT, TURN, GameState, Monster

__all__ = ["TASKS", "check"]

#: The decision points whose chain is empty (I17).
NO_CHAIN: Final = frozenset({DP.MAIN, DP.CHARGE, DP.ATTACK_DECLARE, DP.ATTACK_TARGET})
#: Decision points of the active player in one turn step (5.8 "Who": A) and that step.
STEP_OF = {DP.CHARGE: Phase.CHARGE, DP.MAIN: Phase.MAIN, DP.ATTACK_DECLARE: Phase.ATTACK}
STEP_OF |= {DP.ATTACK_TARGET: Phase.ATTACK, DP.COUNTER_WINDOW: Phase.MAIN}
#: The card kind each use places (5.3.4).
USE_KIND: Final = {Use.SUMMON: MONSTER, Use.EQUIP: WEAPON, Use.CAST: SPELL, Use.ACTIVATE: SPELL}
#: One-at-a-time primitives (4.7) a ``unit_step`` task runs.
UNIT_OPS: Final[tuple[str, ...]] = ("DRAW", "DISCARD", "MILL", "EXP_GAIN", "EXP_LOSE")
#: The triggered timings a ``trigger`` task announces (5.6).
TRIGGERED: Final = (ON_DISCARD, ON_LEVEL_UP, ON_ATTACK)

#: The argument kinds of every agenda task (``envs.mow.rules``), in order.
TASKS: Final[dict[str, tuple[str, ...]]] = {
    "turn_start": (),
    "draw_phase": (),
    "charge_phase": (),
    "main_phase": (),
    "attack_phase": (),
    "end_phase": (),
    "next_turn": (),
    "check": (),
    "resolve_chain": (),
    "finish_entry": (),
    "trigger": ("seat", "card", "int", "int"),
    "cost": ("seat", "cost", "int"),
    "place": ("seat", "use"),
    "counter_ability": ("seat", "card", "int", "int"),
    "window": ("either",),
    "effects": ("frame",),
    "unit_step": ("unit frame", "seat", "int"),
    "engage": ("seat", "int", "int"),
}


def check(state: GameState, *, lenient: bool = False) -> None:
    """Raise ``StateError`` if ``state`` breaks a rule that one position can show.

    Args:
        state: the position.
        lenient: skip the two rules that only a reachable position needs and the engine does
            not (the position builder's ``lenient=True``, for test fixtures): a seat holds at
            most 40 main-deck cards, all from its deck list (I1, R3), and a monster's toughness
            is at least 1 at a decision (I5, R26).

    Raises:
        StateError: the message names each broken rule by its spec item, first in its part.
    """
    try:
        seats = _shapes(state)
    except Shape as e:
        raise StateError(str(e)) from None
    bad: list[str] = []
    _rules(state, seats, lenient, bad)
    if bad:
        raise StateError("; ".join(bad))


# ----------------------------------------------------------------------------- labels
def _card(st: GameState, cid: str) -> str:
    """``Pike Soldier (MN02)``."""
    return f"{st.cards[cid].name} ({cid})"


def _who(st: GameState, p: int) -> str:
    return st.stand_in() if st.is_proxy(p) else f"P{p}"


# ----------------------------------------------------------------------------- shapes
class _Reader:
    """Shape checks over one state's pool."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.cards: dict[str, CardDef] = st.cards

    def card(self, where: str, cid: Any, kinds: tuple[str, ...] | None = None, item: str = "4.2") -> CardDef:
        """The definition of ``cid``: a card id of the pool, of one of ``kinds`` (main-deck kinds by default)."""
        if not isinstance(cid, str) or cid not in self.cards:
            raise shape_error("4.4", f"{where}: {cid!r} is not a card id of the pool")
        c = self.cards[cid]
        if kinds is None and c.kind == MASTER:
            raise shape_error(
                "R3", f"{where}: {_card(self.st, cid)} is a master; a master is never in a main-deck zone"
            )
        if kinds is not None and c.kind not in kinds:
            raise shape_error(
                item, f"{where}: {_card(self.st, cid)} is a {c.kind} card, not a {' or '.join(kinds)}"
            )
        return c

    def cards_list(self, where: str, v: Any) -> list[str]:
        if not isinstance(v, list):
            raise shape_error("4.2", f"{where} is not a list of card ids: {v!r}")
        for cid in v:
            self.card(where, cid)
        return v

    def mods(self, where: str, v: Any) -> None:
        if not isinstance(v, list) or not all(
            isinstance(m, list) and len(m) == 3 and all(is_int(x) for x in m) and m[2] in (TURN, PERMANENT)
            for m in v
        ):
            raise shape_error(
                "4.7", f"{where}: modifiers are [d_atk, d_def, duration 0 or 1] (BUFF), got {v!r}"
            )

    def effect_code(self, where: str, c: CardDef, code: Any) -> None:
        """``code`` names an effect list of ``c`` (ability i >= 0, -1 a spell's, -2 - j a master's j-th up時)."""
        ok = is_int(code) and (
            (code >= 0 and code < len(c.abilities))
            or (code == -1 and c.kind == SPELL)
            or (code <= -2 and c.kind == MASTER and -2 - code < len(c.level_up))
        )
        if not ok:
            raise shape_error("4.5", f"{where}: {code!r} names no effect list of {_card(self.st, c.id)}")

    def frame(self, where: str, f: Any, seats: tuple[int, ...], resolving: bool) -> CardDef:
        """An effect frame ``[controller, card, list code, index, SELF, TRIGGER_CARD, ATTACK_TARGET, SAME]``."""
        if not (
            isinstance(f, list)
            and len(f) == 8
            and all(is_int(x) for x in (f[0], f[2], f[3], f[4], f[5], f[6]))
            and isinstance(f[7], list)
            and all(is_int(x) for x in f[7])
        ):
            raise shape_error(
                "4.7",
                f"{where}: an effect frame is [controller, card, list, index, SELF, TRIGGER_CARD, "
                f"ATTACK_TARGET, [SAME refs]] of integers and a card id, got {f!r}",
            )
        if f[0] not in seats:
            raise shape_error("4.7", f"{where}: the effect's controller {f[0]!r} is not a seated player")
        c = self.card(where, f[1], (MASTER, MONSTER, WEAPON, SPELL))
        self.effect_code(where, c, f[2])
        n = len(c.effect_list(f[2]))
        top = n - 1 if resolving else n
        if not 0 <= f[3] <= top:
            raise shape_error("4.7", f"{where}: primitive {f[3]} of {_card(self.st, c.id)}'s list of {n}")
        return c


def _shapes(st: GameState) -> tuple[int, ...]:
    """Check every field's shape; return the seated seats."""
    if not isinstance(st, GameState):
        raise shape_error("4.3", f"not a Master of the World state: {type(st).__name__}")
    cfg = st.config
    _config_shape(cfg)
    if not isinstance(st.pool, CardPool) or st.cards is not st.pool.cards:
        raise shape_error("4.4", "the state's card definitions are not its pool's")
    r = _Reader(st)
    seats = (0,) if cfg.vacant_seat else (0, 1)
    for key in ("turn", "active", "first", "phase", "charges", "decisions", "next_uid", "winner"):
        if not is_int(getattr(st, key)):
            raise shape_error("4.3", f"{key} is not an integer: {getattr(st, key)!r}")
    for key in ("done", "truncated"):
        if not isinstance(getattr(st, key), bool):
            raise shape_error("4.3", f"{key} is not True or False: {getattr(st, key)!r}")
    if not isinstance(st.reason, str):
        raise shape_error("4.3", f"reason is not a text: {st.reason!r}")
    for key in ("active", "first"):
        if getattr(st, key) not in seats:
            raise shape_error(
                "4.3", f"{key} is {getattr(st, key)!r}, not a seated player ({', '.join(map(str, seats))})"
            )
    if st.phase not in {int(x) for x in Phase}:
        raise shape_error("5.2", f"phase {st.phase!r} is not a turn step 0..5")
    for key, kind in (
        ("masters", str),
        ("life", int),
        ("level", int),
        ("deck", list),
        ("hand", list),
        ("exp", list),
        ("discard", list),
        ("monsters", list),
        ("master_mods", list),
        ("master_attacked", bool),
        ("fast_used", bool),
        ("turn_uses", dict),
        ("weapon", object),
        ("spell", object),
        ("setaside", object),
        ("decks", list),
    ):
        v = getattr(st, key)
        if not isinstance(v, list) or len(v) != 2:
            raise shape_error("4.3", f"{key} is not a list of one entry per seat: {v!r}")
        for x in v:
            if not isinstance(x, kind) or (kind is int and isinstance(x, bool)):
                raise shape_error("4.3", f"{key}: {x!r} is not a {kind.__name__}")
    for p in (0, 1):
        _seat_shape(st, r, p, p in seats)
    _uids(st)
    _turn_uses_shape(st, r, seats)
    _chain_shape(st, r, seats)
    _triggers_shape(st, r, seats)
    _agenda_shape(st, r, seats)
    _dp_shape(st, r, seats)
    if not isinstance(st.events, list) or not isinstance(st.records, list):
        raise shape_error("4.3", "the event logs are not lists")
    return seats


def _config_shape(cfg: Any) -> None:
    if not isinstance(cfg, RulesConfig):
        raise shape_error("4.1", f"the rules config is not a RulesConfig: {type(cfg).__name__}")
    for key, least, item in (
        ("max_turns", 1, "D42"),
        ("max_decisions_per_turn", 1, "D42"),
        ("max_copies", 0, "D6"),
        ("first_turn", 0, "R9"),
    ):
        v = getattr(cfg, key)
        if not is_int(v) or v < least:
            raise shape_error(item, f"config {key} must be an integer >= {least}, got {v!r}")
    if cfg.first_player not in (-1, 0, 1) or not is_int(cfg.first_player):
        raise shape_error("D1", f"config first_player must be -1, 0 or 1, got {cfg.first_player!r}")
    if not isinstance(cfg.vacant_seat, bool):
        raise shape_error("4.1", f"config vacant_seat must be True or False, got {cfg.vacant_seat!r}")
    if not is_int(cfg.proxy) or cfg.proxy not in (0, 1, 2) or (cfg.proxy and not cfg.vacant_seat):
        raise shape_error(
            "4.1", f"config proxy must be 0, or 1 or 2 with vacant_seat (AMALOGS D37, D40), got {cfg.proxy!r}"
        )


def _seat_shape(st: GameState, r: _Reader, p: int, seated: bool) -> None:
    """Seat ``p``'s master, zones and field."""
    seat = f"P{p}"
    for zone in ("deck", "hand", "exp", "discard"):
        r.cards_list(f"{seat} {zone}", getattr(st, zone)[p])
    if not all(isinstance(c, str) for c in st.decks[p]):
        raise shape_error("4.3", f"{seat}'s deck list is not a list of card ids: {st.decks[p]!r}")
    r.mods(f"{seat} master_mods", st.master_mods[p])
    for i, m in enumerate(st.monsters[p]):
        where = f"{seat} monsters[{i}]"
        if not isinstance(m, Monster):
            raise shape_error("4.3", f"{where} is not a Monster: {m!r}")
        if not (is_int(m.uid) and is_int(m.entered) and is_int(m.damage) and isinstance(m.attacked, bool)):
            raise shape_error(
                "4.3",
                f"{where}: uid, entered, damage are integers and attacked True or False: {m.to_list()!r}",
            )
        r.card(where, m.card, (MONSTER,))
        r.mods(where, m.mods)
    w = st.weapon[p]
    if w is not None:
        if not isinstance(w, list) or len(w) != 2 or not is_int(w[1]):
            raise shape_error("4.3", f"{seat} weapon is [card, uid] or None, got {w!r}")
        r.card(f"{seat} weapon", w[0], (WEAPON,))
    s = st.spell[p]
    if s is not None:
        if not isinstance(s, list) or len(s) != 3 or not (is_int(s[1]) and is_int(s[2])):
            raise shape_error("4.3", f"{seat} spell is [card, cast_turn, uid] or None, got {s!r}")
        r.card(f"{seat} spell", s[0], (SPELL,))
    if st.setaside[p] is not None:
        r.card(f"{seat} set-aside card", st.setaside[p])
    if seated:
        master = r.card(f"{seat} master", st.masters[p], (MASTER,))
        if not 0 <= st.level[p] <= master.max_level:
            raise shape_error(
                "I3", f"{seat}'s level {st.level[p]} is outside 0..{master.max_level} (master {master.name})"
            )
        for cid in st.decks[p]:
            r.card(f"{seat} deck list", cid, (MASTER, MONSTER, WEAPON, SPELL))
        return
    held = [st.deck[p], st.hand[p], st.exp[p], st.discard[p], st.monsters[p], st.decks[p], st.master_mods[p]]
    if st.masters[p] or any(held) or st.weapon[p] or st.spell[p] or st.setaside[p] or st.level[p]:
        raise shape_error(
            "4.3", f"{seat} is vacant (vacant_seat): it has no master, level, cards or modifiers"
        )


def _uids(st: GameState) -> None:
    """Field cards carry distinct uids 1..next_uid - 1 (4.3)."""
    uids = []
    for p in (0, 1):
        uids += [m.uid for m in st.monsters[p]]
        if st.weapon[p] is not None:
            uids.append(st.weapon[p][1])  # type: ignore[index]
        if st.spell[p] is not None:
            uids.append(st.spell[p][2])  # type: ignore[index]
    if len(set(uids)) != len(uids) or any(not 1 <= u < st.next_uid for u in uids):
        raise shape_error(
            "4.3", f"field cards carry distinct uids 1..next_uid-1 = {st.next_uid - 1}, got {sorted(uids)}"
        )


def _turn_uses_shape(st: GameState, r: _Reader, seats: tuple[int, ...]) -> None:
    """Per-turn use counters ``{"CARD/i": uses}`` of the ターンn limits (D30)."""
    for p in (0, 1):
        for key, n in st.turn_uses[p].items():
            cid, sep, i = key.partition("/") if isinstance(key, str) else ("", "", "")
            if (
                not sep
                or not (i.isascii() and i.isdigit() and len(i) <= 3)
                or not is_int(n)
                or n < 0
                or p not in seats
            ):
                raise shape_error(
                    "D30", f"P{p} turn_uses: {key!r}: {n!r} is not a per-turn use counter 'CARD/i': uses >= 0"
                )
            c = r.card(f"P{p} turn_uses", cid, (MASTER, MONSTER, WEAPON, SPELL))
            if int(i) >= (1 if c.kind == SPELL else len(c.acts)):
                raise shape_error(
                    "D30", f"P{p} turn_uses: {_card(st, cid)} has no ability {i} with a per-turn limit"
                )


def _entries(items: Any, item: str, not_list: str, each: str) -> list[tuple[str, Any]]:
    """The entries of the list ``items``, each with its name in messages (``each`` and its index).

    Raises:
        Shape: ``items`` is not a list (rule ``item``; the message is ``not_list`` and the value).
    """
    if not isinstance(items, list):
        raise shape_error(item, f"{not_list}: {items!r}")
    return [(f"{each} {k}", x) for k, x in enumerate(items)]


def _chain_shape(st: GameState, r: _Reader, seats: tuple[int, ...]) -> None:
    """Entries ``[user, use, card, uid, negated, in_chain_area, ability]`` (5.3.5)."""
    for where, e in _entries(st.chain, "5.4", "the chain is not a list", "chain entry"):
        if not (
            isinstance(e, list)
            and len(e) == 7
            and is_int(e[0])
            and is_int(e[1])
            and is_int(e[3])
            and isinstance(e[4], bool)
            and isinstance(e[5], bool)
            and is_int(e[6])
        ):
            raise shape_error(
                "5.4", f"{where} is not [user, use, card, uid, negated, in chain area, ability]: {e!r}"
            )
        if e[0] not in seats or e[1] not in {int(u) for u in Use}:
            raise shape_error(
                "5.4", f"{where}: user {e[0]!r} is not seated or use {e[1]!r} is not a use kind 0..4"
            )
        use = Use(e[1])
        if use == Use.ABILITY:
            c = r.card(where, e[2], (MASTER, MONSTER, WEAPON))
            if not 0 <= e[6] < len(c.abilities) or c.abilities[e[6]].timing != COUNTER:
                raise shape_error("D24", f"{where}: {_card(st, c.id)} has no counter ability {e[6]}")
        else:
            r.card(where, e[2], (USE_KIND[use],), "5.3")
        if e[5] and use != Use.ACTIVATE:
            raise shape_error(
                "D22", f"{where}: only an activated spell stands in the chain area, not a {use.name.lower()}"
            )


def _triggers_shape(st: GameState, r: _Reader, seats: tuple[int, ...]) -> None:
    """Queued triggers ``[player, level, group, position, index, card, list code, SELF, ATTACK_TARGET]`` (5.6)."""
    for where, x in _entries(st.triggers, "5.6", "the queued triggers are not a list", "queued trigger"):
        if (
            not (isinstance(x, list) and len(x) == 9 and all(is_int(x[j]) for j in (0, 1, 2, 3, 4, 6, 7, 8)))
            or x[0] not in seats
        ):
            raise shape_error(
                "5.6",
                f"{where} is not [seated player, level, group, position, index, card, list, SELF, target]: {x!r}",
            )
        c = r.card(where, x[5], (MASTER, MONSTER, WEAPON))
        r.effect_code(where, c, x[6])


def _agenda_shape(st: GameState, r: _Reader, seats: tuple[int, ...]) -> None:
    """Every scheduled task is a known one with arguments of its kinds (5)."""
    for where, t in _entries(st.agenda, "5", "the agenda is not a list of tasks", "agenda task"):
        if not isinstance(t, list) or not t or not isinstance(t[0], str) or t[0] not in TASKS:
            raise shape_error(
                "5", f"{where} {t!r}: not a known task [name, *args]; known: {', '.join(TASKS)}"
            )
        kinds = TASKS[t[0]]
        if len(t) != 1 + len(kinds):
            raise shape_error(
                "5", f"{where} {t!r}: {t[0]} takes {len(kinds)} arguments ({', '.join(kinds) or 'none'})"
            )
        for kind, v in zip(kinds, t[1:], strict=True):
            _argument(st, r, f"{where} ({t[0]})", kind, v, seats)
        if t[0] == "trigger":
            c = st.cards[t[2]]
            r.effect_code(where, c, t[3])
            if t[3] == -1 or (t[3] >= 0 and c.abilities[t[3]].timing not in TRIGGERED):
                raise shape_error(
                    "5.6", f"{where}: {_card(st, c.id)}'s list {t[3]} is not a triggered effect"
                )
        elif t[0] == "counter_ability":
            c = st.cards[t[2]]
            if not 0 <= t[4] < len(c.abilities) or c.abilities[t[4]].timing != COUNTER:
                raise shape_error("D24", f"{where}: {_card(st, c.id)} has no counter ability {t[4]}")
        elif t[0] == "unit_step" and st.cards[t[1][1]].effect_list(t[1][2])[t[1][3]].op not in UNIT_OPS:
            raise shape_error(
                "4.7", f"{where}: the frame is not at a one-at-a-time primitive ({', '.join(UNIT_OPS)})"
            )


def _argument(st: GameState, r: _Reader, where: str, kind: str, v: Any, seats: tuple[int, ...]) -> None:
    if kind in ("frame", "unit frame"):
        r.frame(where, v, seats, resolving=kind == "unit frame")
        return
    if kind == "card":
        r.card(where, v, (MASTER, MONSTER, WEAPON, SPELL))
        return
    if kind == "cost":
        if v not in COSTS:
            raise shape_error("4.6", f"{where}: {v!r} is not a cost ({', '.join(COSTS)})")
        return
    if not is_int(v):
        raise shape_error("5", f"{where}: {v!r} is not an integer")
    if kind == "seat" and v not in seats:
        raise shape_error("5", f"{where}: {v!r} is not a seated player")
    if kind == "either" and v not in (0, 1):
        raise shape_error("5", f"{where}: {v!r} is not a seat (0 or 1)")
    if kind == "use" and v not in USE_KIND:
        raise shape_error("5.3", f"{where}: {v!r} is not a card use 0..3 (summon, equip, cast, activate)")


def _dp_shape(st: GameState, r: _Reader, seats: tuple[int, ...]) -> None:
    """The decision point ``(kind, player, ())`` and the context its handler reads (``pending``, 5.8)."""
    point, pending = st.decision_point, st.pending
    if point is None:
        if pending is not None:
            raise shape_error("5.8", f"a decision context {pending!r} without a decision point")
        return
    if not (
        isinstance(point, tuple)
        and len(point) == 3
        and is_int(point[0])
        and is_int(point[1])
        and point[2] == ()
    ):
        raise shape_error("5.8", f"the decision point is (kind, player, ()) of two integers, got {point!r}")
    kinds = {int(d) for d in DP if d != DP.NONE}
    if point[0] not in kinds or point[1] not in seats:
        raise shape_error("5.8", f"decision point {point!r}: kind 1..13 (K1-K13) of a seated player")
    kind = DP(point[0])
    where = f"{kind.name} decision"
    want, ok = _dp_context(kind, point, pending)
    if not ok:
        raise shape_error("5.8", f"{where}: its context is {list(want) or None}, got {pending!r}")
    if not want or "frame" not in want:
        return
    _dp_frame(st, r, seats, kind, point, pending, where)


def _dp_context(kind: DP, point: Any, pending: Any) -> tuple[tuple[Any, ...], bool]:
    """The context a decision point of ``kind`` reads (as words), and whether ``pending`` is it."""
    want: tuple[Any, ...] = ()
    if kind == DP.ATTACK_TARGET:
        want = ("attack",)
        ok = isinstance(pending, list) and len(pending) == 2 and pending[0] == "attack" and is_int(pending[1])
    elif kind in (DP.COST_DISCARD, DP.COST_SACRIFICE):
        code = "COST_DISCARD" if kind == DP.COST_DISCARD else "COST_SACRIFICE"
        want = ("cost", point[1], code, "n >= 1")
        ok = (
            isinstance(pending, list)
            and len(pending) == 4
            and pending[:3] == ["cost", point[1], code]
            and is_int(pending[3])
            and pending[3] >= 1
        )
    elif kind == DP.EFFECT_TARGET:
        want = ("target", "frame")
        ok = isinstance(pending, list) and len(pending) == 2 and pending[0] == "target"
    elif kind in (DP.EFFECT_DISCARD, DP.EXP_FROM_HAND):
        want = ("unit", "frame", point[1], "n >= 1")
        ok = (
            isinstance(pending, list)
            and len(pending) == 4
            and pending[0] == "unit"
            and pending[2] == point[1]
            and is_int(pending[2])
            and is_int(pending[3])
            and pending[3] >= 1
        )
    elif kind in (DP.SEARCH_CHOICE, DP.RECOVER_CHOICE):
        name = "search" if kind == DP.SEARCH_CHOICE else "recover"
        want = (name, "frame")
        ok = isinstance(pending, list) and len(pending) == 2 and pending[0] == name
    else:
        ok = pending is None
    return want, ok


def _dp_frame(
    st: GameState, r: _Reader, seats: tuple[int, ...], kind: DP, point: Any, pending: Any, where: str
) -> None:
    """A choice inside an effect: its frame is resolving and its primitive asks this choice of its controller."""
    assert pending is not None  # a frame context (checked just above)
    f = pending[1]
    c = r.frame(where, f, seats, resolving=True)
    e = c.effect_list(f[2])[f[3]]
    op = {
        DP.EFFECT_TARGET: tuple(OP_KINDS),
        DP.EFFECT_DISCARD: ("DISCARD",),
        DP.EXP_FROM_HAND: ("EXP_GAIN",),
        DP.SEARCH_CHOICE: ("SEARCH",),
        DP.RECOVER_CHOICE: ("RECOVER",),
    }[kind]
    chosen = e.target == "CHOSEN" if kind == DP.EFFECT_TARGET else True
    from_hand = (
        e.mode != "RANDOM"
        if kind == DP.EFFECT_DISCARD
        else e.source == "HAND"
        if kind == DP.EXP_FROM_HAND
        else True
    )
    if e.op not in op or not chosen or not from_hand:
        raise shape_error(
            "5.8", f"{where}: the frame's primitive {e.code()} of {_card(st, c.id)} asks no such choice"
        )
    if kind in (DP.SEARCH_CHOICE, DP.RECOVER_CHOICE, DP.EFFECT_TARGET) and f[0] != point[1]:
        raise shape_error("5.8", f"{where}: the effect's controller P{f[0]} chooses, not P{point[1]} (D27)")


# ----------------------------------------------------------------------------- rules
def _rules(st: GameState, seats: tuple[int, ...], lenient: bool, bad: list[str]) -> None:
    cfg = st.config
    live = not st.done
    at_dp = live and st.decision_point is not None
    if not 1 <= st.turn <= cfg.max_turns:
        bad.append(f"I15 turn {st.turn} is outside 1..max_turns={cfg.max_turns} (D2, D42)")
    for p in seats:
        _seat_rules(st, p, at_dp, lenient, bad)
    if st.is_proxy(1) and (st.life[1] < 0 or (at_dp and st.life[1] < 1)):
        bad.append(
            f"I7 {st.stand_in()} has life {st.life[1]}; P is at least {1 if at_dp else 0} (AMALOGS D37)"
        )
    top = 2 + sum(s.n for _, s in st.cards[st.masters[st.active]].skills if s.kind == "EXTRA_CHARGE")
    if not 0 <= st.charges <= top:
        bad.append(f"D7 P{st.active} made {st.charges} charges this turn; the charge limit is at most {top}")
    _chain_rules(st, bad)
    _outcome(st, seats, bad)
    if at_dp:
        _decision_rules(st, seats, bad)


def _seat_rules(st: GameState, p: int, at_dp: bool, lenient: bool, bad: list[str]) -> None:
    seat = f"P{p}"
    master = st.cards[st.masters[p]]
    life, n_exp = st.life[p], len(st.exp[p])
    if life > LIFE_START:
        bad.append(f"I2 {seat}'s life {life} is above {LIFE_START} (R6, D13)")
    if n_exp > DECK_SIZE:
        bad.append(f"I2 {seat} has {n_exp} experience cards; at most {DECK_SIZE}")
    if at_dp:
        if not 1 <= life <= LIFE_START:
            bad.append(
                f"I7 {seat}'s life is {life} in a live game; it is 1..{LIFE_START} at a decision (R1, 5.7)"
            )
        if not st.deck[p]:
            bad.append(
                f"I7 {seat}'s deck is empty in a live game: the state check after the draw that emptied it "
                "ends the game, so no decision follows (R2, D40)"
            )
        want = values.level_for(master, n_exp)
        if st.level[p] != want:
            bad.append(
                f"I3 {seat}'s level is {st.level[p]}, but {n_exp} experience cards give level {want} "
                f"for master {master.name} (D8)"
            )
        if len(st.monsters[p]) > st.level[p] and st.decision_point[0] != DP.OVERFLOW_DISCARD:  # type: ignore[index]
            bad.append(
                f"I4 {seat} has {len(st.monsters[p])} monsters at level {st.level[p]}: more than its summon "
                "slots (R17, D11)"
            )
    _field_rules(st, p, at_dp, lenient, bad)
    _turn_rules(st, p, bad)
    _cards_rules(st, p, lenient, bad)


def _field_rules(st: GameState, p: int, at_dp: bool, lenient: bool, bad: list[str]) -> None:
    """Seat ``p``'s monsters, weapon and face-down spell (R17, R24, R26, D17, D20, D33, D38)."""
    seat = f"P{p}"
    master = st.cards[st.masters[p]]
    if len(st.monsters[p]) > MAX_MONSTERS:
        bad.append(
            f"I4 {seat} has {len(st.monsters[p])} monsters; at most MAX_MONSTERS = {MAX_MONSTERS} (R17)"
        )
    if master.max_level > MAX_LEVEL_CAP:
        bad.append(f"I3 master {master.name} has max_level {master.max_level} > {MAX_LEVEL_CAP}")
    for m in st.monsters[p]:
        name = f"{seat}'s {_card(st, m.card)}"
        if m.damage < 0:
            bad.append(f"I5 {name} has damage {m.damage}; damage is at least 0 (D38)")
        elif at_dp and not lenient and values.toughness(st, p, m) < 1:
            bad.append(
                f"I5 {name} has toughness {values.toughness(st, p, m)} at a decision; 0 or less is discarded (R26)"
            )
        if m.entered > st.turn:
            bad.append(f"D2 {name} entered the field on turn {m.entered}, after the current turn {st.turn}")
        if m.entered == st.turn and m.attacked:
            bad.append(
                f"I12 {name} attacked on turn {st.turn}, the turn it entered the field: a just-summoned monster "
                "cannot attack until its controller's next turn (R24, D33)"
            )
        c = st.cards[m.card]
        if c.cls and c.cls in master.restrictions:
            bad.append(f"D17 {name} is {c.cls}, which master {master.name} is restricted from using")
    for kind, slot in ((WEAPON, st.weapon[p]), (SPELL, st.spell[p])):
        if slot is not None and st.cards[slot[0]].cls in master.restrictions and st.cards[slot[0]].cls:
            bad.append(
                f"D17 {seat}'s {kind.lower()} {_card(st, slot[0])} is of a class master {master.name} is restricted from"
            )
    s = st.spell[p]
    if s is not None and not 0 <= s[1] <= st.turn:
        bad.append(
            f"I6 {seat}'s face-down {_card(st, s[0])} was cast on turn {s[1]}, not in 0..turn={st.turn} (D20)"
        )


def _turn_rules(st: GameState, p: int, bad: list[str]) -> None:
    """Seat ``p``'s flags and counters of this turn (R9, D30), and its derived values (D39)."""
    seat = f"P{p}"
    if p == st.active and st.master_attacked[p] and st.turn == st.config.first_turn:
        bad.append(f"I12 {seat}'s master attacked on turn {st.turn}, the game's first turn (R9, D32)")
    for key, n in st.turn_uses[p].items():
        cid, _, i = key.partition("/")
        c = st.cards[cid]
        limit = c.turn_limit if c.kind == SPELL else c.abilities[c.acts[int(i)]].turn_limit
        if n > limit:
            bad.append(
                f"I11 {seat} used {_card(st, cid)}'s ability {i} {n} times this turn; its limit is {limit} per turn (D30)"
            )
    for value in [values.master_attack(st, p), values.master_guard(st, p)] + [
        values.monster_attack(st, p, m) for m in st.monsters[p]
    ]:
        if value < 0:
            bad.append(f"I8 {seat} has a negative attack or guard {value} (D39)")
            break


def _cards_rules(st: GameState, p: int, lenient: bool, bad: list[str]) -> None:
    """I1, R3: the seat's cards come from its deck list of 40 main-deck cards and 1 master; D6's copy limit."""
    seat = f"P{p}"
    listed = [c for c in st.decks[p] if st.cards[c].kind == MASTER]
    if listed != [st.masters[p]]:
        bad.append(
            f"R3 {seat}'s deck list holds the masters {listed}; exactly one, its master {st.masters[p]!r}"
        )
    held = st.deck[p] + st.hand[p] + st.exp[p] + st.discard[p] + [m.card for m in st.monsters[p]]
    for slot in (st.weapon[p], st.spell[p]):
        if slot is not None:
            held.append(slot[0])
    if st.setaside[p] is not None:
        held.append(st.setaside[p])  # type: ignore[arg-type]
    held += [e[2] for e in st.chain if e[0] == p and e[5]]
    limit = st.config.max_copies
    for cid, n in sorted(Counter(held).items()) if limit else ():
        if n > limit:
            bad.append(f"D6 {seat} holds {n} copies of {_card(st, cid)}; at most max_copies = {limit}")
    if lenient:
        return
    if len(held) > DECK_SIZE:
        bad.append(f"I1 {seat} holds {len(held)} main-deck cards; a seat owns {DECK_SIZE} and 1 master (R3)")
    extra = Counter(held) - Counter(c for c in st.decks[p] if st.cards[c].kind != MASTER)
    if extra:
        names = ", ".join(f"{n} x {_card(st, cid)}" for cid, n in sorted(extra.items()))
        bad.append(f"I1 {seat} holds cards its deck list does not have: {names} (card conservation)")


def _chain_rules(st: GameState, bad: list[str]) -> None:
    """D14, D24, D25: the chain's bottom entry is the active player's use; counters alternate above it."""
    chain = st.chain
    for k, e in enumerate(chain):
        c = st.cards[e[2]]
        if k == 0 and e[0] != st.active:
            bad.append(
                f"D14 the chain's first entry is P{e[0]}'s, but only the active P{st.active} uses cards outside a window"
            )
        if k > 0 and e[0] == chain[k - 1][0]:
            bad.append(
                f"D24 chain entry {k} is P{e[0]}'s, as is the entry below it: a window goes to the other player"
            )
        if k > 0 and e[1] != Use.ABILITY and not (e[1] == Use.ACTIVATE and c.counter):
            bad.append(
                f"D24 chain entry {k} ({_card(st, e[2])}) is no counter, but it stands above another entry"
            )
        if e[1] == Use.ABILITY and k != len(chain) - 1:
            bad.append(
                f"D24 chain entry {k} is a counter ability, which ends chain building, yet entries stand above it"
            )
    if sum(1 for t in st.agenda if t[0] == "finish_entry") > len(chain):
        bad.append("D25 the agenda finishes more chain entries than the chain holds")


def _outcome(st: GameState, seats: tuple[int, ...], bad: list[str]) -> None:
    """Section 8: a finished game holds no decision; its winner met no loss condition and the loser did."""
    if not st.done:
        if st.winner != -1 or st.truncated:
            bad.append(f"8 a live game has winner {st.winner} and truncated {st.truncated}; -1 and False")
        if st.decision_point is None:
            bad.append("I9 a live game has no decision point (no one can move)")
        return
    if st.decision_point is not None or st.agenda or st.pending is not None or st.triggers:
        bad.append("8 a finished game still has a decision point, agenda, context or queued triggers (8.4)")
    if st.truncated:
        if st.winner != -1:
            bad.append(f"8 a truncated game has winner {st.winner}; a truncation has none (D42)")
        return
    lost = [p in seats and (st.life[p] <= 0 or not st.deck[p]) for p in (0, 1)]
    if st.is_proxy(1):
        lost[1] = st.life[1] <= 0
    want = {(True, False): 1, (False, True): 0, (True, True): 2}.get((lost[0], lost[1]), -2)
    if st.winner != want:
        who = " and ".join(_who(st, p) for p in (0, 1) if lost[p]) or "nobody"
        bad.append(
            f"8 the game is over with winner {st.winner}, but {who} met a loss condition (R1, R2, D41)"
        )


def _decision_rules(st: GameState, seats: tuple[int, ...], bad: list[str]) -> None:
    """The decision point fits the turn step, the chain and the player (5.3-5.8, I9, I17)."""
    kind, p = DP(st.decision_point[0]), st.decision_point[1]  # type: ignore[index]
    if kind in NO_CHAIN and st.chain:
        bad.append(f"I17 the chain holds {len(st.chain)} entries at a {kind.name} decision")
    if kind in STEP_OF:
        step = STEP_OF[kind]
        holder = 1 - st.chain[-1][0] if kind == DP.COUNTER_WINDOW and st.chain else st.active
        if st.phase != step or p != holder:
            bad.append(
                f"5.8 a {kind.name} decision of P{p} in turn step {Phase(st.phase).name}: it is P{holder}'s, "
                f"in the {step.name} step"
            )
    if kind == DP.COUNTER_WINDOW and (not st.chain or st.chain[-1][1] == Use.ABILITY):
        bad.append("D23 a counter window opens only after a card use, which tops the chain")
    if kind == DP.CHARGE and st.charges >= values.charge_limit(st, p):
        bad.append(
            f"D7 a charge decision after {st.charges} charges; the limit is {values.charge_limit(st, p)}"
        )
    if kind == DP.OVERFLOW_DISCARD and len(st.monsters[p]) <= st.level[p]:
        bad.append(
            f"D11 an overflow discard for P{p}, whose {len(st.monsters[p])} monsters fit its {st.level[p]} slots"
        )
    if kind == DP.ATTACK_TARGET:
        ref = st.pending[1]
        mine = [m for m in st.monsters[p] if m.uid == ref]
        ok = (
            master_can_attack(st, p)
            if ref == -1 - p
            else bool(mine) and not mine[0].attacked and not values.sick(st, mine[0])
        )
        if not ok:
            bad.append(
                f"D32 the attacker {ref} of P{p}'s attack is no eligible attacker (its master once per turn, "
                "never on the game's first turn; a monster once per turn, not on its entry turn) (R9, R24)"
            )
    for q in seats:
        tasks = [t for t in st.agenda if t[0] == "place" and t[1] == q]
        card = st.setaside[q]
        if (card is not None) != bool(tasks) or len(tasks) > 1:
            bad.append(f"5.3 P{q} has a card set aside exactly while its use waits to place it")
        elif card is not None and st.cards[card].kind != USE_KIND[Use(tasks[0][2])]:
            use = Use(tasks[0][2]).name.lower()
            bad.append(f"5.3 P{q}'s set-aside {_card(st, card)} cannot be placed by a {use}")
    if st.decisions > st.config.max_decisions_per_turn:
        bad.append(
            f"D42 {st.decisions} decisions this turn; a live turn has at most {st.config.max_decisions_per_turn}"
        )
    if not bad and not flow.legal_actions(st):
        bad.append(f"I9 the {kind.name} decision of P{p} has no legal option")

"""Card model, card-pool loading and deck validation (spec sections 4.4-4.8, D6, D45).

Card pools are TOML files (``cards/*.toml``) of ``[[card]]`` tables; every record is checked
when the pool loads, so a bad file fails at once with a ``CardDataError`` naming the file,
the card and the rule. Deck files are the shared ones plus a ``master`` key: 40 main-deck
cards plus exactly one master (R3), validated by ``validate_deck``.

Effects are records of the closed vocabulary of section 4.7 (``op`` plus its parameters),
executed by the one interpreter in ``envs.mow.rules.effects``.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from envs.core import cards as core_cards
from envs.core.cards import DeckList, Field, check_record, deck_from_value, load_deck_file
from envs.core.errors import CardDataError, DeckError
from envs.mow.config import DECK_SIZE, M_MAX, MAX_ACT_ABILITIES, P_MAX, STANDARD_LEVELS, STARTER_MAX_COPIES

MASTER, MONSTER, WEAPON, SPELL = "MASTER", "MONSTER", "WEAPON", "SPELL"
KINDS = (MASTER, MONSTER, WEAPON, SPELL)
MAIN_KINDS = (MONSTER, WEAPON, SPELL)
GIGANT, LEGENDARY, ANCIENT = "GIGANT", "LEGENDARY", "ANCIENT"
CLASS_OF_KIND = {MONSTER: GIGANT, WEAPON: LEGENDARY, SPELL: ANCIENT}
CLASS_FLAG = {MONSTER: "gigant", WEAPON: "legendary", SPELL: "ancient"}

# Timings of 4.5 (seed keys in comments) and the effect-list contexts they run in.
ON_ENTER = "ON_ENTER"  # 登場時
ON_ATTACK = "ON_ATTACK"  # 攻撃時
ON_DISCARD = "ON_DISCARD"  # 廃棄時
ON_LEVEL_UP = "ON_LEVEL_UP"  # up時
ACTIVATED = "ACTIVATED"  # 起動
COUNTER = "COUNTER"  # 対抗
STATIC = "STATIC"  # スキル
SPELL_EFFECT = "SPELL"  # a spell's own effects (発動)
COUNTER_SPELL = "COUNTER_SPELL"  # a 対抗 spell's effects
CARD_TIMINGS = (ON_ENTER, ON_ATTACK, ON_DISCARD, ON_LEVEL_UP, ACTIVATED, COUNTER, STATIC)
MASTER_TIMINGS = (ACTIVATED, COUNTER, ON_ATTACK)
ACT_TIMINGS = (ACTIVATED, COUNTER)
USE_KINDS = ("SUMMON", "EQUIP", "CAST", "ACTIVATE")

# Conditions (4.6): predicates, then costs in their fixed payment order.
PREDICATES = (
    "LEVEL_AT_LEAST",
    "LIFE_AT_MOST",
    "HAND_AT_LEAST",
    "OWN_MONSTERS_AT_LEAST",
    "OPP_MONSTERS_AT_LEAST",
    "DISCARD_AT_LEAST",
)
COSTS = ("COST_SACRIFICE", "COST_DISCARD", "COST_LIFE", "COST_EXP")
CONDITION_CODES = PREDICATES + COSTS

# Effect vocabulary (4.7, 4.8).
OPS_ORDER = (
    "DAMAGE",
    "HEAL",
    "DRAW",
    "DISCARD",
    "MILL",
    "DESTROY",
    "BOUNCE",
    "BUFF",
    "EXP_GAIN",
    "EXP_LOSE",
    "SEARCH",
    "RECOVER",
    "NEGATE",
)
PLAYER_OPS = ("DRAW", "DISCARD", "MILL", "EXP_GAIN", "EXP_LOSE")
TARGET_OPS = ("DAMAGE", "HEAL", "DESTROY", "BOUNCE", "BUFF")
#: Card kinds each targeting op may affect (masters are never destroyed or bounced, D45).
OP_KINDS = {
    "DAMAGE": (MASTER, MONSTER),
    "HEAL": (MASTER, MONSTER),
    "BUFF": (MASTER, MONSTER),
    "DESTROY": (MONSTER, WEAPON, SPELL),
    "BOUNCE": (MONSTER, WEAPON),
}


class Target(enum.Enum):
    """Target selectors of 4.8: what a targeting primitive (``TARGET_OPS``) affects."""

    SELF = enum.auto()  # the source card itself
    OWN_MASTER = enum.auto()
    OPP_MASTER = enum.auto()
    TRIGGER_CARD = enum.auto()  # 対抗 only: the used card of the chain entry below
    ATTACK_TARGET = enum.auto()  # 攻撃時 only: the declared target
    CHOSEN = enum.auto()  # one card the controller picks (side, kinds)
    ALL = enum.auto()  # every matching card (side, kinds)
    SAME = enum.auto()  # the target of the previous primitive


SELECTORS = tuple(t.name for t in Target)
SIDES = ("OWN", "OPP", "ANY")
PLAYERS = ("SELF", "OPP")
DURATIONS = ("TURN", "PERMANENT")
DISCARD_MODES = ("CHOSEN", "RANDOM")
EXP_SOURCES = ("DECK_TOP", "HAND")
FILTER_KINDS = ("ANY", MONSTER, WEAPON, SPELL)
STATICS = ("STAT_MOD", "EXTRA_CHARGE")
SCOPES = ("SELF", "OWN_MASTER", "OWN_MONSTERS", "OWN_OTHER_MONSTERS", "OPP_MASTER", "OPP_MONSTERS")
#: ``Effect.amount`` value meaning OWN_LEVEL (the controller's level at resolution).
OWN_LEVEL = -1

CARDS_DIR = Path(__file__).with_name("cards")
DECKS_DIR = Path(__file__).with_name("decks")


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect primitive (4.7) with its parameters; unused parameters keep their defaults."""

    op: str
    amount: int = 0
    player: str = "SELF"
    target: str = ""
    side: str = ""
    kinds: tuple[str, ...] = ()
    d_atk: int = 0
    d_def: int = 0
    duration: str = ""
    mode: str = ""
    source: str = ""
    filter: str = "ANY"
    same_name: bool = False

    def describe(self) -> str:
        """A short human-readable form, e.g. ``DAMAGE(CHOSEN(OPP, MASTER|MONSTER), 3)``."""
        amt = "OWN_LEVEL" if self.amount == OWN_LEVEL else str(self.amount)
        if self.op in PLAYER_OPS:
            extra = f", {self.mode or self.source}" if self.mode or self.source else ""
            return f"{self.op}({self.player}, {amt}{extra})"
        if self.op in ("SEARCH", "RECOVER"):
            return f"{self.op}({self.filter}{', same name' if self.same_name else ''})"
        if self.op == "NEGATE":
            return "NEGATE"
        tgt = self.target
        if tgt in ("CHOSEN", "ALL"):
            tgt = f"{tgt}({self.side}, {'|'.join(self.kinds)})"
        if self.op == "BUFF":
            return f"BUFF({tgt}, {self.d_atk:+d}/{self.d_def:+d}, {self.duration})"
        if self.op in ("DESTROY", "BOUNCE"):
            return f"{self.op}({tgt})"
        return f"{self.op}({tgt}, {amt})"


@dataclass(frozen=True, slots=True)
class Static:
    """A static effect of a スキル: STAT_MOD(scope, d_atk, d_def) or EXTRA_CHARGE(n)."""

    kind: str
    scope: str = ""
    d_atk: int = 0
    d_def: int = 0
    n: int = 0

    def describe(self) -> str:
        """Human-readable form."""
        if self.kind == "EXTRA_CHARGE":
            return f"EXTRA_CHARGE({self.n})"
        return f"STAT_MOD({self.scope}, {self.d_atk:+d}/{self.d_def:+d})"


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability (4.5): timing, ターンn, level gate, 条件, 対抗 filter and its effects (or static)."""

    timing: str
    effects: tuple[Effect, ...] = ()
    turn_limit: int = 0
    min_level: int = 0
    condition: tuple[tuple[str, int], ...] = ()
    counter_filter: frozenset[str] = frozenset()
    static: Static | None = None

    def describe(self) -> str:
        """Human-readable form."""
        head = self.timing
        if self.turn_limit:
            head += f" turn{self.turn_limit}"
        if self.min_level:
            head += f" lv{self.min_level}+"
        if self.counter_filter:
            head += " {" + ",".join(u for u in USE_KINDS if u in self.counter_filter) + "}"
        if self.condition:
            head += " [" + ", ".join(f"{c}({n})" for c, n in self.condition) + "]"
        body = self.static.describe() if self.static else "; ".join(e.describe() for e in self.effects)
        return f"{head}: {body}"


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card definition (4.4). Fields that do not apply to the card's kind keep their defaults.

    ``index`` is the card type k of the action and observation encoding: 0..63 for main-deck
    cards, 0..7 for masters (masters have their own numbering). ``cls`` is the card's class
    (GIGANT, LEGENDARY, ANCIENT) or "".
    """

    id: str
    name: str
    kind: str
    index: int
    attack: int = 0
    toughness: int = 0
    guard: int = 0
    cls: str = ""
    condition: tuple[tuple[str, int], ...] = ()
    abilities: tuple[Ability, ...] = ()
    fast: bool = False
    counter: bool = False
    counter_filter: frozenset[str] = frozenset()
    turn_limit: int = 0
    effects: tuple[Effect, ...] = ()
    max_level: int = 3
    level_table: tuple[tuple[int, int, int], ...] = STANDARD_LEVELS
    level_up: tuple[tuple[int, tuple[Effect, ...]], ...] = ()
    skills: tuple[tuple[int, Static], ...] = ()
    restrictions: frozenset[str] = frozenset()
    #: ability indices of the 起動/対抗 abilities, in printed order (ABILITY[p][i] picks the i-th)
    acts: tuple[int, ...] = ()
    #: the card's スキル as ``(min_level, static)`` pairs (min_level 0 except for master skills),
    #: worked out once: ``rules.values`` reads it on every derived value
    statics: tuple[tuple[int, Static], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        statics = (
            self.skills
            if self.kind == MASTER
            else tuple((0, a.static) for a in self.abilities if a.timing == STATIC and a.static is not None)
        )
        object.__setattr__(self, "statics", statics)

    def effect_list(self, code: int) -> tuple[Effect, ...]:
        """Effects by list code: ability ``i >= 0``, -1 the spell's, ``-2 - j`` the j-th level-up entry."""
        if code >= 0:
            return self.abilities[code].effects
        if code == -1:
            return self.effects
        return self.level_up[-2 - code][1]

    def timing_of(self, code: int) -> str:
        """The timing context of an effect list code."""
        if code >= 0:
            return self.abilities[code].timing
        if code == -1:
            return COUNTER_SPELL if self.counter else SPELL_EFFECT
        return ON_LEVEL_UP

    def describe(self) -> str:
        """One line for humans and logs."""
        abil = "; ".join(a.describe() for a in self.abilities)
        cond = " [" + ", ".join(f"{c}({n})" for c, n in self.condition) + "]" if self.condition else ""
        cls = f" {self.cls}" if self.cls else ""
        if self.kind == MASTER:
            ups = "; ".join(
                f"up lv{lv or 'ANY'}: {', '.join(e.describe() for e in es)}" for lv, es in self.level_up
            )
            sk = "; ".join(f"skill lv{m}+: {s.describe()}" for m, s in self.skills)
            res = f" restricted {'/'.join(sorted(self.restrictions))}" if self.restrictions else ""
            return f"{self.name} [{self.id} master max lv{self.max_level}{res}; {ups}; {sk}; {abil}]"
        if self.kind == MONSTER:
            return f"{self.name} [{self.id} monster{cls} {self.attack}/{self.toughness}{cond} {abil}]"
        if self.kind == WEAPON:
            return f"{self.name} [{self.id} weapon{cls} {self.attack}/{self.guard}{cond} {abil}]"
        kw = ("fast " if self.fast else "") + ("counter " if self.counter else "")
        lim = f" turn{self.turn_limit}" if self.turn_limit else ""
        return f"{self.name} [{self.id} spell{cls} {kw}{lim}{cond}: {'; '.join(e.describe() for e in self.effects)}]"


# ----------------------------------------------------------------------------- schemas
def _amount_ok(v: Any) -> str | None:
    if v == "OWN_LEVEL" or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10):
        return None
    return "must be an integer 0..10 or 'OWN_LEVEL'"


_EFFECT = {
    "op": Field(str, choices=OPS_ORDER),
    "amount": Field((int, str), required=False, check=_amount_ok),
    "player": Field(str, required=False, choices=PLAYERS),
    "target": Field(str, required=False, choices=SELECTORS),
    "side": Field(str, required=False, choices=SIDES),
    "kinds": Field(list, required=False),
    "atk": Field(int, required=False, lo=-5, hi=5),
    "def": Field(int, required=False, lo=-5, hi=5),
    "duration": Field(str, required=False, choices=DURATIONS),
    "mode": Field(str, required=False, choices=DISCARD_MODES),
    "source": Field(str, required=False, choices=EXP_SOURCES),
    "filter": Field(str, required=False, choices=FILTER_KINDS),
    "same_name": Field(bool, required=False),
}
#: Parameters each op requires (beyond ``op``); ``same_name`` is optional for SEARCH/RECOVER.
_OP_PARAMS = {
    "DAMAGE": ("target", "amount"),
    "HEAL": ("target", "amount"),
    "DRAW": ("player", "amount"),
    "DISCARD": ("player", "amount", "mode"),
    "MILL": ("player", "amount"),
    "DESTROY": ("target",),
    "BOUNCE": ("target",),
    "BUFF": ("target", "atk", "def", "duration"),
    "EXP_GAIN": ("player", "amount", "source"),
    "EXP_LOSE": ("player", "amount"),
    "SEARCH": ("filter",),
    "RECOVER": ("filter",),
    "NEGATE": (),
}
_STATIC = {
    "kind": Field(str, choices=STATICS),
    "scope": Field(str, required=False, choices=SCOPES),
    "atk": Field(int, required=False, lo=-3, hi=3),
    "def": Field(int, required=False, lo=-3, hi=3),
    "n": Field(int, required=False, lo=1, hi=2),
}
_ABILITY = {
    "timing": Field(str, choices=CARD_TIMINGS),
    "turn_limit": Field(int, required=False, lo=1, hi=3),
    "min_level": Field(int, required=False, lo=0, hi=5),
    "condition": Field(dict, required=False),
    "counter_filter": Field(list, required=False),
    "effects": Field(list, required=False),
    "static": Field(dict, required=False),
}
_COMMON = {"id": Field(str), "name": Field(str), "kind": Field(str, choices=KINDS)}
_MASTER = {
    **_COMMON,
    "max_level": Field(int, lo=3, hi=5),
    "level_table": Field(list),
    "level_up": Field(list),
    "skills": Field(list),
    "abilities": Field(list, required=False),
    "restrictions": Field(list, required=False),
}
_MONSTER = {
    **_COMMON,
    "attack": Field(int, lo=0, hi=10),
    "toughness": Field(int, lo=1, hi=12),
    "gigant": Field(bool, required=False),
    "condition": Field(dict, required=False),
    "abilities": Field(list, required=False),
}
_WEAPON = {
    **_COMMON,
    "attack": Field(int, lo=0, hi=5),
    "guard": Field(int, lo=0, hi=5),
    "legendary": Field(bool, required=False),
    "condition": Field(dict, required=False),
    "abilities": Field(list, required=False),
}
_SPELL = {
    **_COMMON,
    "fast": Field(bool, required=False),
    "counter": Field(bool, required=False),
    "counter_filter": Field(list, required=False),
    "ancient": Field(bool, required=False),
    "condition": Field(dict, required=False),
    "turn_limit": Field(int, required=False, lo=1, hi=3),
    "effects": Field(list),
}
_LEVEL_UP = {"level": Field((int, str)), "effects": Field(list)}
_SKILL = {"min_level": Field(int, lo=0, hi=5), "static": Field(dict)}
_ABILITY_LIMIT = {MONSTER: 4, WEAPON: 3, MASTER: 8}


# ----------------------------------------------------------------------------- parsing
class _Ctx:
    """Where a record sits, for error messages and per-card rules."""

    def __init__(self, file: str, cid: str, kind: str) -> None:
        self.file = file
        self.cid = cid
        self.kind = kind

    def fail(self, detail: str) -> CardDataError:
        return CardDataError(self.file, self.cid, detail)


def _selector(e: Effect, prev: Target | None) -> Target | None:
    """The selector the op registry checks: SAME stands for the one it repeats; None without a target."""
    if e.op not in TARGET_OPS:
        return None
    if e.target == "SAME":
        return prev
    return Target[e.target]


def _parse_effect(raw: Any, ctx: _Ctx, timing: str, prev: Effect | None, prev_t: Target | None) -> Effect:
    check_record(raw, _EFFECT, ctx.file, ctx.cid, what="effect field")
    op = raw["op"]
    need = _OP_PARAMS[op]
    allowed = set(need) | {"op"} | ({"same_name"} if op in ("SEARCH", "RECOVER") else set())
    if raw.get("target") in ("CHOSEN", "ALL"):
        allowed |= {"side", "kinds"}
    for key in raw:
        if key not in allowed:
            raise ctx.fail(f"op {op} does not take parameter {key!r} (takes: {', '.join(need) or 'none'})")
    for key in need:
        if key not in raw:
            raise ctx.fail(f"op {op} needs parameter {key!r}")
    amount = raw.get("amount", 0)
    amount = OWN_LEVEL if amount == "OWN_LEVEL" else amount
    kinds: tuple[str, ...] = ()
    target = raw.get("target", "")
    if target in ("CHOSEN", "ALL"):
        if "side" not in raw or "kinds" not in raw:
            raise ctx.fail(f"target {target} needs 'side' and 'kinds'")
        bad = [k for k in raw["kinds"] if k not in OP_KINDS[op]]
        if not raw["kinds"] or bad or len(set(raw["kinds"])) != len(raw["kinds"]):
            raise ctx.fail(f"op {op} kinds {raw['kinds']!r} must be distinct, non-empty, from {OP_KINDS[op]}")
        kinds = tuple(k for k in KINDS if k in raw["kinds"])
    eff = Effect(
        op,
        amount,
        raw.get("player", "SELF"),
        target,
        raw.get("side", ""),
        kinds,
        raw.get("atk", 0),
        raw.get("def", 0),
        raw.get("duration", ""),
        raw.get("mode", ""),
        raw.get("source", ""),
        raw.get("filter", "ANY"),
        raw.get("same_name", False),
    )
    _check_selector(eff, ctx, timing, prev)
    from envs.mow.rules.effects import OPS

    reg_amount = None if OPS[op].amount is None else (5 if amount == OWN_LEVEL else amount)
    OPS.validate(op, reg_amount, _selector(eff, prev_t), timing, ctx.file, ctx.cid)
    return eff


def _check_selector(e: Effect, ctx: _Ctx, timing: str, prev: Effect | None) -> None:
    """Selector rules of 4.8 and D45 that depend on the card and the timing."""
    t = e.target
    if e.op not in TARGET_OPS:
        return
    counter = timing in (COUNTER, COUNTER_SPELL)
    if t == "TRIGGER_CARD" and not counter:
        raise ctx.fail("TRIGGER_CARD is only allowed in 対抗 (COUNTER) effects")
    if t == "ATTACK_TARGET" and timing != ON_ATTACK:
        raise ctx.fail("ATTACK_TARGET is only allowed in 攻撃時 (ON_ATTACK) effects")
    if t == "SAME" and (prev is None or prev.op not in TARGET_OPS):
        raise ctx.fail("SAME needs a previous targeting primitive in the same effect list")
    if t == "SELF":
        if ctx.kind == SPELL:
            raise ctx.fail("a spell is never on the field, so SELF cannot target it")
        if ctx.kind not in OP_KINDS[e.op]:
            raise ctx.fail(f"op {e.op} cannot affect a {ctx.kind} (SELF)")


def _parse_effects(raw: Any, ctx: _Ctx, timing: str) -> tuple[Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise ctx.fail(f"{timing} effects must be a non-empty list")
    out: list[Effect] = []
    prev_t: Target | None = None
    for r in raw:
        e = _parse_effect(r, ctx, timing, out[-1] if out else None, prev_t)
        prev_t = _selector(e, prev_t)
        out.append(e)
    return tuple(out)


def _parse_condition(raw: Any, ctx: _Ctx) -> tuple[tuple[str, int], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, Mapping):
        raise ctx.fail("condition must be a table of CODE = n")
    out = []
    for code, n in raw.items():
        if code not in CONDITION_CODES:
            raise ctx.fail(f"unknown condition {code!r} (known: {', '.join(CONDITION_CODES)})")
        hi = 5 if code == "LEVEL_AT_LEAST" else 20 if code == "LIFE_AT_MOST" else 10
        lo = 0 if code == "LIFE_AT_MOST" else 1
        if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= hi:
            raise ctx.fail(f"condition {code} = {n!r} is out of range {lo}..{hi}")
    for code in CONDITION_CODES:
        if code in raw:
            out.append((code, raw[code]))
    return tuple(out)


def _parse_static(raw: Any, ctx: _Ctx) -> Static:
    check_record(raw, _STATIC, ctx.file, ctx.cid, what="static field")
    kind = raw["kind"]
    if kind == "EXTRA_CHARGE":
        if ctx.kind != MASTER:
            raise ctx.fail("EXTRA_CHARGE is a master-only static effect")
        if set(raw) != {"kind", "n"}:
            raise ctx.fail("EXTRA_CHARGE takes exactly 'n'")
        return Static(kind, n=raw["n"])
    if set(raw) != {"kind", "scope", "atk", "def"}:
        raise ctx.fail("STAT_MOD takes exactly 'scope', 'atk' and 'def'")
    if raw["scope"] == "SELF" and ctx.kind == WEAPON:
        raise ctx.fail("a weapon has no attack/toughness of its own; use scope OWN_MASTER")
    if raw["scope"] == "OWN_OTHER_MONSTERS" and ctx.kind != MONSTER:
        raise ctx.fail("scope OWN_OTHER_MONSTERS needs a monster source")
    return Static(kind, raw["scope"], raw["atk"], raw["def"])


def _parse_ability(raw: Any, ctx: _Ctx) -> Ability:
    check_record(raw, _ABILITY, ctx.file, ctx.cid, what="ability field")
    timing = raw["timing"]
    allowed = MASTER_TIMINGS if ctx.kind == MASTER else CARD_TIMINGS
    if timing not in allowed:
        raise ctx.fail(f"a {ctx.kind} cannot have a {timing} ability (allowed: {', '.join(allowed)})")
    if "min_level" in raw and ctx.kind != MASTER:
        raise ctx.fail("min_level is only for master abilities")
    if "turn_limit" in raw and timing not in ACT_TIMINGS:
        raise ctx.fail("ターンn (turn_limit) only applies to 起動/対抗 abilities")
    if ("counter_filter" in raw) != (timing == COUNTER):
        raise ctx.fail("counter_filter is required on 対抗 abilities and allowed nowhere else")
    if timing == STATIC:
        if set(raw) != {"timing", "static"}:
            raise ctx.fail("a スキル (STATIC) ability holds exactly one 'static' and nothing else")
        return Ability(timing, static=_parse_static(raw["static"], ctx))
    if "static" in raw or "effects" not in raw:
        raise ctx.fail(f"a {timing} ability needs 'effects' and no 'static'")
    filt = _parse_filter(raw.get("counter_filter"), ctx) if timing == COUNTER else frozenset()
    return Ability(
        timing,
        _parse_effects(raw["effects"], ctx, timing),
        raw.get("turn_limit", 1 if timing in ACT_TIMINGS else 0),
        raw.get("min_level", 0),
        _parse_condition(raw.get("condition"), ctx),
        filt,
    )


def _parse_filter(raw: Any, ctx: _Ctx) -> frozenset[str]:
    if not isinstance(raw, list) or not raw or any(u not in USE_KINDS for u in raw):
        raise ctx.fail(f"counter_filter must be a non-empty list from {', '.join(USE_KINDS)}, got {raw!r}")
    return frozenset(raw)


def _parse_abilities(raw: Any, ctx: _Ctx) -> tuple[tuple[Ability, ...], tuple[int, ...]]:
    raw = raw or []
    if len(raw) > _ABILITY_LIMIT[ctx.kind]:
        raise ctx.fail(f"a {ctx.kind} has at most {_ABILITY_LIMIT[ctx.kind]} abilities, got {len(raw)}")
    abilities = tuple(_parse_ability(a, ctx) for a in raw)
    acts = tuple(i for i, a in enumerate(abilities) if a.timing in ACT_TIMINGS)
    if len(acts) > MAX_ACT_ABILITIES:
        raise ctx.fail(f"at most {MAX_ACT_ABILITIES} 起動/対抗 abilities per card, got {len(acts)}")
    return abilities, acts


def _parse_master(raw: Mapping[str, Any], ctx: _Ctx, index: int) -> CardDef:
    check_record(raw, _MASTER, ctx.file, ctx.cid)
    max_level = raw["max_level"]
    table = raw["level_table"]
    if len(table) != max_level + 1:
        raise ctx.fail(f"level_table needs {max_level + 1} rows (levels 0..{max_level}), got {len(table)}")
    rows = []
    for lv, row in enumerate(table):
        if not isinstance(row, list) or len(row) != 3 or not all(isinstance(x, int) for x in row):
            raise ctx.fail(f"level_table row {lv} must be [threshold, attack, guard], got {row!r}")
        if lv <= 3 and tuple(row) != STANDARD_LEVELS[lv]:
            raise ctx.fail(f"level_table row {lv} must equal R12 {list(STANDARD_LEVELS[lv])}, got {row!r}")
        if lv > 3 and not (rows[-1][0] < row[0] <= 40 and 0 <= row[1] <= 9 and 0 <= row[2] <= 9):
            raise ctx.fail(
                f"level_table row {lv} {row!r}: thresholds rise strictly up to 40, attack/guard 0..9"
            )
        rows.append(tuple(row))
    ups = []
    for u in raw["level_up"]:
        check_record(u, _LEVEL_UP, ctx.file, ctx.cid, what="level_up field")
        lv = u["level"]
        if lv != "ANY" and not (isinstance(lv, int) and 1 <= lv <= max_level):
            raise ctx.fail(f"level_up level must be 1..{max_level} or 'ANY', got {lv!r}")
        ups.append((0 if lv == "ANY" else lv, _parse_effects(u["effects"], ctx, ON_LEVEL_UP)))
    skills = []
    for s in raw["skills"]:
        check_record(s, _SKILL, ctx.file, ctx.cid, what="skill field")
        if s["min_level"] > max_level:
            raise ctx.fail(f"skill min_level {s['min_level']} is above max_level {max_level}")
        skills.append((s["min_level"], _parse_static(s["static"], ctx)))
    abilities, acts = _parse_abilities(raw.get("abilities"), ctx)
    for a in abilities:
        if a.min_level > max_level:
            raise ctx.fail(f"ability min_level {a.min_level} is above max_level {max_level}")
    res = raw.get("restrictions", [])
    if any(r not in (GIGANT, LEGENDARY, ANCIENT) for r in res) or len(set(res)) != len(res):
        raise ctx.fail(f"restrictions must be distinct entries of GIGANT, LEGENDARY, ANCIENT, got {res!r}")
    return CardDef(
        ctx.cid,
        raw["name"],
        MASTER,
        index,
        abilities=abilities,
        max_level=max_level,
        level_table=tuple(rows),
        level_up=tuple(ups),
        skills=tuple(skills),
        restrictions=frozenset(res),
        acts=acts,
    )


def _parse_main(raw: Mapping[str, Any], ctx: _Ctx, index: int) -> CardDef:
    kind = ctx.kind
    check_record(raw, {MONSTER: _MONSTER, WEAPON: _WEAPON, SPELL: _SPELL}[kind], ctx.file, ctx.cid)
    condition = _parse_condition(raw.get("condition"), ctx)
    flag = CLASS_FLAG[kind]
    cls = CLASS_OF_KIND[kind] if raw.get(flag, False) else ""
    if cls and not condition:
        raise ctx.fail(f"a {cls} card must have a condition (R27, R31, R36)")
    if kind == SPELL:
        counter = raw.get("counter", False)
        if ("counter_filter" in raw) != counter:
            raise ctx.fail("counter_filter is required on 対抗 spells and allowed nowhere else")
        filt = _parse_filter(raw["counter_filter"], ctx) if counter else frozenset()
        timing = COUNTER_SPELL if counter else SPELL_EFFECT
        return CardDef(
            ctx.cid,
            raw["name"],
            SPELL,
            index,
            cls=cls,
            condition=condition,
            fast=raw.get("fast", False),
            counter=counter,
            counter_filter=filt,
            turn_limit=raw.get("turn_limit", 0),
            effects=_parse_effects(raw["effects"], ctx, timing),
        )
    abilities, acts = _parse_abilities(raw.get("abilities"), ctx)
    return CardDef(
        ctx.cid,
        raw["name"],
        kind,
        index,
        attack=raw["attack"],
        toughness=raw.get("toughness", 0),
        guard=raw.get("guard", 0),
        cls=cls,
        condition=condition,
        abilities=abilities,
        acts=acts,
    )


# ----------------------------------------------------------------------------- the pool
class CardPool(core_cards.CardPool[CardDef]):
    """An immutable, validated set of card definitions: main-deck cards 0..63, masters 0..7."""

    def __init__(self, cards: Sequence[CardDef], files: Sequence[str]) -> None:
        super().__init__(cards, files)
        self.main: tuple[CardDef, ...] = tuple(c for c in cards if c.kind != MASTER)
        self.masters: tuple[CardDef, ...] = tuple(c for c in cards if c.kind == MASTER)


def load_pool(files: Iterable[str | Path] | None = None) -> CardPool:
    """Load and validate card files (default: every ``cards/*.toml`` of the package)."""
    return _load_pool(core_cards.card_files(CARDS_DIR, files))


@functools.lru_cache(maxsize=16)
def _load_pool(paths: tuple[str, ...]) -> CardPool:
    cards: list[CardDef] = []
    seen: dict[str, str] = {}
    names: dict[str, str] = {}
    n_main = n_master = 0
    for file in paths:
        for i, raw in enumerate(core_cards.read_pool_file(file)):
            cid = raw.get("id") if isinstance(raw, Mapping) else None
            label = cid if isinstance(cid, str) else f"#{i}"
            kind = raw.get("kind") if isinstance(raw, Mapping) else None
            if kind not in KINDS:
                raise CardDataError(file, label, f"field 'kind' = {kind!r} is not one of {', '.join(KINDS)}")
            ctx = _Ctx(file, label, kind)
            if kind == MASTER:
                card = _parse_master(raw, ctx, n_master)
                n_master += 1
            else:
                card = _parse_main(raw, ctx, n_main)
                n_main += 1
            if card.id in seen:
                raise CardDataError(file, card.id, f"duplicate card id (first defined in {seen[card.id]})")
            if card.name in names:
                raise CardDataError(file, card.id, f"duplicate name {card.name!r} (also {names[card.name]})")
            seen[card.id] = file
            names[card.name] = card.id
            cards.append(card)
    if n_main > P_MAX:
        raise CardDataError(", ".join(paths), None, f"{n_main} main-deck card types; at most P_MAX = {P_MAX}")
    if n_master > M_MAX:
        raise CardDataError(", ".join(paths), None, f"{n_master} masters; at most M_MAX = {M_MAX}")
    return CardPool(cards, paths)


# ----------------------------------------------------------------------------- decks
#: Deck-file keys of this ruleset beyond the shared ones: the master, named apart from the
#: 40 main-deck cards of ``[cards]`` (R3).
_DECK_KEYS = {"master": Field(str)}


def deck_names() -> list[str]:
    """Names (file stems) of the starter decks that ship with the package."""
    return sorted(p.stem for p in DECKS_DIR.glob("*.toml"))


def load_deck(path: str | Path, pool: CardPool) -> DeckList:
    """Read a deck file: ``master = ID`` and the main-deck cards of ``[cards]`` (R3, D6).

    The master joins the deck list as its first card, so the list holds the 41 cards R3
    counts, in the same form as a deck given as ``{id: count}`` or a list of ids.
    """
    deck = load_deck_file(path, _DECK_KEYS)
    master = deck.extra["master"]
    if master in pool and pool[master].kind != MASTER:
        raise DeckError(deck.source, master, f"master names a {pool[master].kind} card, not a master (R3)")
    for cid, _n in deck.cards:
        if cid in pool and pool[cid].kind == MASTER:
            raise DeckError(
                deck.source, cid, "a master is never in the main deck; name it with master = ... (R3, D6)"
            )
    return replace(deck, cards=((master, 1), *deck.cards))


def resolve_deck(value: Any, pool: CardPool, max_copies: int = 0, label: str = "deck") -> DeckList:
    """Turn a deck name, file path, mapping or list into a validated ``DeckList`` (R3, D6).

    Packaged starter decks (given by name) also keep the starter copy limit of 3.
    """
    if isinstance(value, str):
        path = Path(value)
        if not path.suffix:
            path = DECKS_DIR / f"{value}.toml"
            if not path.exists():
                raise DeckError(
                    value, None, f"no starter deck of that name (known: {', '.join(deck_names())})"
                )
            max_copies = max_copies or STARTER_MAX_COPIES
        deck = load_deck(path, pool)
    else:
        deck = deck_from_value(value, label)
    validate_deck(deck, pool, max_copies)
    return deck


def validate_deck(deck: DeckList, pool: CardPool, max_copies: int = 0) -> None:
    """Check 40 main-deck cards plus exactly one master (R3, D6); raise ``DeckError`` naming the rule."""
    name = deck.source or deck.name
    total = 0
    masters: list[str] = []
    for cid, n in deck.cards:
        if cid not in pool:
            raise DeckError(name, cid, f"unknown card id (not in the pool {', '.join(pool.files)})")
        if pool[cid].kind == MASTER:
            masters += [cid] * n
            continue
        if max_copies and n > max_copies:
            raise DeckError(name, cid, f"{n} copies of {pool[cid].name!r}; at most {max_copies} (D6)")
        total += n
    if len(masters) != 1:
        raise DeckError(name, None, f"{len(masters)} master cards; a deck has exactly 1 master (R3, D6)")
    if total != DECK_SIZE:
        raise DeckError(
            name, None, f"{total} main-deck cards; a deck has exactly {DECK_SIZE} plus 1 master (R3)"
        )


def split_deck(cards: Sequence[str], pool: CardPool) -> tuple[str, list[str]]:
    """The master and the main-deck cards of a validated deck list."""
    master = next(c for c in cards if pool[c].kind == MASTER)
    return master, [c for c in cards if pool[c].kind != MASTER]

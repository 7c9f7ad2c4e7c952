"""The MoW card model (spec sections 4.4-4.8): kinds, timings, conditions, the effect vocabulary.

Effects are records of the closed vocabulary of section 4.7 (``op`` plus its parameters),
executed by the one interpreter in ``envs.mow.rules.effects``. ``CardDef`` is one card
definition, built from its abilities (``Ability``), effect primitives (``Effect``) and static
effects (``Static``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from envs.mow.config import STANDARD_LEVELS

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
    #: the ``statics`` of kind STAT_MOD alone (most cards have none: a stat needs no scan then)
    stat_mods: tuple[tuple[int, Static], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        statics = (
            self.skills
            if self.kind == MASTER
            else tuple((0, a.static) for a in self.abilities if a.timing == STATIC and a.static is not None)
        )
        object.__setattr__(self, "statics", statics)
        object.__setattr__(self, "stat_mods", tuple(x for x in statics if x[1].kind == "STAT_MOD"))

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

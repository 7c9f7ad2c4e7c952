"""The MoW card model (spec sections 4.4-4.8): kinds, timings, conditions, the effect vocabulary.

Effects are records of the closed vocabulary of section 4.7 (``op`` plus its parameters),
executed by the one interpreter in ``envs.mow.rules.effects``. ``CardDef`` is one card
definition, built from its abilities (``Ability``), effect primitives (``Effect``) and static
effects (``Static``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Final

from deckgym.envs.mow.config import STANDARD_LEVELS

MASTER, MONSTER, WEAPON, SPELL = "MASTER", "MONSTER", "WEAPON", "SPELL"
KINDS: Final = (MASTER, MONSTER, WEAPON, SPELL)
MAIN_KINDS: Final = (MONSTER, WEAPON, SPELL)
GIGANT, LEGENDARY, ANCIENT = "GIGANT", "LEGENDARY", "ANCIENT"
CLASS_OF_KIND: Final = {MONSTER: GIGANT, WEAPON: LEGENDARY, SPELL: ANCIENT}
CLASS_FLAG: Final = {MONSTER: "gigant", WEAPON: "legendary", SPELL: "ancient"}

# Timings of 4.5 (seed keys in comments) and the effect-list contexts they run in.
ON_ENTER: Final = "ON_ENTER"  # 登場時
ON_ATTACK: Final = "ON_ATTACK"  # 攻撃時
ON_DISCARD: Final = "ON_DISCARD"  # 廃棄時
ON_LEVEL_UP: Final = "ON_LEVEL_UP"  # up時
ACTIVATED: Final = "ACTIVATED"  # 起動
COUNTER: Final = "COUNTER"  # 対抗
STATIC: Final = "STATIC"  # スキル
SPELL_EFFECT: Final = "SPELL"  # a spell's own effects (発動)
COUNTER_SPELL: Final = "COUNTER_SPELL"  # a 対抗 spell's effects
CARD_TIMINGS: Final = (ON_ENTER, ON_ATTACK, ON_DISCARD, ON_LEVEL_UP, ACTIVATED, COUNTER, STATIC)
MASTER_TIMINGS: Final = (ACTIVATED, COUNTER, ON_ATTACK)
ACT_TIMINGS: Final = (ACTIVATED, COUNTER)
USE_KINDS: Final[tuple[str, ...]] = ("SUMMON", "EQUIP", "CAST", "ACTIVATE")

# Conditions (4.6): predicates, then costs in their fixed payment order.
PREDICATES: Final[tuple[str, ...]] = (
    "LEVEL_AT_LEAST",
    "LIFE_AT_MOST",
    "HAND_AT_LEAST",
    "OWN_MONSTERS_AT_LEAST",
    "OPP_MONSTERS_AT_LEAST",
    "DISCARD_AT_LEAST",
)
COSTS: Final[tuple[str, ...]] = ("COST_SACRIFICE", "COST_DISCARD", "COST_LIFE", "COST_EXP")
CONDITION_CODES: Final = PREDICATES + COSTS

# Effect vocabulary (4.7, 4.8).
OPS_ORDER: Final[tuple[str, ...]] = (
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
PLAYER_OPS: Final[tuple[str, ...]] = ("DRAW", "DISCARD", "MILL", "EXP_GAIN", "EXP_LOSE")
TARGET_OPS: Final[tuple[str, ...]] = ("DAMAGE", "HEAL", "DESTROY", "BOUNCE", "BUFF")
#: Card kinds each targeting op may affect (masters are never destroyed or bounced, D45).
OP_KINDS: Final = {
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


SELECTORS: Final = tuple(t.name for t in Target)
SIDES: Final[tuple[str, ...]] = ("OWN", "OPP", "ANY")
PLAYERS: Final[tuple[str, ...]] = ("SELF", "OPP")
DURATIONS: Final[tuple[str, ...]] = ("TURN", "PERMANENT")
DISCARD_MODES: Final[tuple[str, ...]] = ("CHOSEN", "RANDOM")
EXP_SOURCES: Final[tuple[str, ...]] = ("DECK_TOP", "HAND")
FILTER_KINDS: Final = ("ANY", MONSTER, WEAPON, SPELL)
STATICS: Final[tuple[str, ...]] = ("STAT_MOD", "EXTRA_CHARGE")
SCOPES: Final[tuple[str, ...]] = (
    "SELF",
    "OWN_MASTER",
    "OWN_MONSTERS",
    "OWN_OTHER_MONSTERS",
    "OPP_MASTER",
    "OPP_MONSTERS",
)
#: ``Effect.amount`` value meaning OWN_LEVEL (the controller's level at resolution).
OWN_LEVEL: Final = -1


# ----------------------------------------------------------------------------- card text in English
#: The timings of 4.5 as people read them (the seed's 登場時, 攻撃時, 廃棄時, up時, 起動, 対抗, スキル).
TIMING_WORDS: Final = {
    ON_ENTER: "on entry",
    ON_ATTACK: "on attack",
    ON_DISCARD: "when discarded",
    ON_LEVEL_UP: "on level up",
    ACTIVATED: "activated",
    COUNTER: "counter",
    STATIC: "skill",
}
#: A card kind as a noun: (one, several).
_NOUNS: Final = {
    MASTER: ("master", "masters"),
    MONSTER: ("monster", "monsters"),
    WEAPON: ("weapon", "weapons"),
    SPELL: ("face-down spell", "face-down spells"),
}
#: The uses a counter answers (``counter_filter``), as nouns.
USE_WORDS: Final = {
    "SUMMON": "a summon",
    "EQUIP": "an equip",
    "CAST": "a cast",
    "ACTIVATE": "a spell activation",
}
_FIXED_TARGETS: Final = {
    "SELF": "this card",
    "OWN_MASTER": "your master",
    "OPP_MASTER": "the opposing master",
    "TRIGGER_CARD": "the card it answers",
    "ATTACK_TARGET": "the attack's target",
    "SAME": "the same target",
}


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun: ``1 card``, ``2 cards``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def times_per_turn(n: int) -> str:
    """ターンn in words: ``once per turn``, ``twice per turn``, ``3 times per turn``."""
    return {1: "once per turn", 2: "twice per turn"}.get(n, f"{n} times per turn")


def answers(uses: frozenset[str]) -> str:
    """A counter filter in words: ``answers a summon or an equip``."""
    words = [USE_WORDS[u] for u in USE_KINDS if u in uses]
    if len(words) == len(USE_KINDS):
        return "answers any card use"
    return "answers " + (", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0])


def target_words(target: str, side: str = "", kinds: tuple[str, ...] = ()) -> str:
    """A target selector of 4.8 in words (``a chosen opposing monster``, ``all your monsters``)."""
    if target not in ("CHOSEN", "ALL"):
        return _FIXED_TARGETS.get(target, target.lower())
    if target == "CHOSEN":
        noun = " or ".join(_NOUNS[k][0] for k in kinds)
        return {"OWN": f"a chosen {noun} of yours", "OPP": f"a chosen opposing {noun}"}.get(
            side, f"a chosen {noun}"
        )
    noun = " and ".join(_NOUNS[k][1] for k in kinds)
    return {"OWN": f"all your {noun}", "OPP": f"all opposing {noun}"}.get(side, f"all {noun}")


def stat_words(d_atk: int, d_def: int, second: str = "toughness") -> str:
    """A modifier in words: ``+1 attack and +1 toughness`` (``second`` is guard for a master)."""
    parts = [f"{d_atk:+d} attack"] if d_atk else []
    if d_def or not parts:
        parts.append(f"{d_def:+d} {second}")
    return " and ".join(parts)


def _second_stat(target: str, kinds: tuple[str, ...]) -> str:
    """What a modifier's second number changes: guard for a master, toughness for a monster."""
    if target in ("OWN_MASTER", "OPP_MASTER") or kinds == (MASTER,):
        return "guard"
    if MASTER in kinds:
        return "toughness or guard"
    return "toughness"


#: Conditions of 4.6 in words: predicates (``needs ...``) and costs (``pay ...``).
CONDITION_WORDS: Final = {
    "LEVEL_AT_LEAST": lambda n: f"level {n} or more",
    "LIFE_AT_MOST": lambda n: f"life {n} or less",
    "HAND_AT_LEAST": lambda n: f"at least {plural(n, 'other card')} in hand",
    "OWN_MONSTERS_AT_LEAST": lambda n: f"at least {plural(n, 'monster')} of your own",
    "OPP_MONSTERS_AT_LEAST": lambda n: f"at least {plural(n, 'opposing monster')}",
    "DISCARD_AT_LEAST": lambda n: f"at least {plural(n, 'card')} in your discard pile",
    "COST_SACRIFICE": lambda n: f"discard {plural(n, 'monster')} of yours from the field",
    "COST_DISCARD": lambda n: f"discard {plural(n, 'card')} from your hand",
    "COST_LIFE": lambda n: f"pay {n} life",
    "COST_EXP": lambda n: f"pay {plural(n, 'experience card')}",
}


def condition_words(condition: tuple[tuple[str, int], ...], sep: str = "; ") -> str:
    """A condition in words: ``needs level 2 or more; cost: pay 3 life`` ("" for none)."""
    needs = [CONDITION_WORDS[c](n) for c, n in condition if c in PREDICATES]
    costs = [CONDITION_WORDS[c](n) for c, n in condition if c in COSTS]
    out = []
    if needs:
        out.append("needs " + " and ".join(needs))
    if costs:
        out.append("cost: " + " and ".join(costs))
    return sep.join(out)


def sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return ""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


@dataclass(frozen=True)
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
        """The primitive in English, e.g. ``deal 3 damage to a chosen opposing master or monster``.

        ``code`` gives the compact form (``DAMAGE(CHOSEN(OPP, MASTER|MONSTER), 3)``) for tools.
        """
        n = self.amount
        amt = "your level" if n == OWN_LEVEL else str(n)
        op = self.op
        if op in PLAYER_OPS:
            you = self.player != "OPP"
            who, their = ("", "your") if you else ("the opponent ", "their")
            s = "" if you else "s"
            cards = "cards equal to your level" if n == OWN_LEVEL else plural(n, "card")
            if op == "DRAW":
                return f"{who}draw{s} {cards}"
            if op == "DISCARD":
                how = "at random" if self.mode == "RANDOM" else f"of {their} choice"
                return f"{who}discard{s} {cards} {how}"
            if op == "MILL":
                top = "the top card" if n == 1 else f"the top {cards}"
                return f"{who}put{s} {top} of {their} deck into {their} discard pile"
            if op == "EXP_GAIN":
                if self.source == "HAND":
                    return f"{who}put{s} {cards} from {their} hand into {their} experience"
                top = "the top card" if n == 1 else f"the top {cards}"
                return f"{who}put{s} {top} of {their} deck into {their} experience"
            exp = "experience card" if n == 1 else f"{amt} experience cards"
            return f"{who}move{s} {their} top {exp} to {their} discard pile"
        if op in ("SEARCH", "RECOVER"):
            what = "a copy of this card" if self.same_name else f"a {_FILTER_WORDS[self.filter]}"
            if op == "SEARCH":
                return f"search your deck for {what} and put it into your hand"
            return f"take {what} from your discard pile into your hand"
        if op == "NEGATE":
            return "negate the card use it answers"
        tgt = target_words(self.target, self.side, self.kinds)
        if op == "DAMAGE":
            if n == OWN_LEVEL:
                return f"deal damage equal to your level to {tgt}"
            return f"deal {amt} damage to {tgt}"
        if op == "HEAL":
            return f"heal {tgt} by {amt}"
        if op == "DESTROY":
            return f"destroy {tgt}"
        if op == "BOUNCE":
            home = "their owners' hands" if self.target == "ALL" else "its owner's hand"
            return f"return {tgt} to {home}"
        if op == "BUFF":
            when = "until the end of the turn" if self.duration == "TURN" else "for good"
            stats = stat_words(self.d_atk, self.d_def, _second_stat(self.target, self.kinds))
            return f"give {tgt} {stats} {when}"
        return op.lower()

    def code(self) -> str:
        """A compact form for tools and tests, e.g. ``DAMAGE(CHOSEN(OPP, MASTER|MONSTER), 3)``."""
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


#: SEARCH / RECOVER filters as nouns.
_FILTER_WORDS: Final = {"ANY": "card", MONSTER: "monster", WEAPON: "weapon", SPELL: "spell"}


def effects_words(effects: tuple[Effect, ...]) -> str:
    """An effect list as one clause: ``negate the card use it answers, then draw 1 card``."""
    return ", then ".join(e.describe() for e in effects)


@dataclass(frozen=True)
class Static:
    """A static effect of a スキル: STAT_MOD(scope, d_atk, d_def) or EXTRA_CHARGE(n)."""

    kind: str
    scope: str = ""
    d_atk: int = 0
    d_def: int = 0
    n: int = 0

    def describe(self) -> str:
        """The static effect in English: ``your other monsters get +1 attack``."""
        if self.kind == "EXTRA_CHARGE":
            return f"you may charge {plural(self.n, 'more card')} in each charge phase"
        who, verb = _SCOPE_WORDS.get(self.scope, (self.scope.lower(), "gets"))
        second = "guard" if self.scope in ("OWN_MASTER", "OPP_MASTER") else "toughness"
        return f"{who} {verb} {stat_words(self.d_atk, self.d_def, second)}"


#: STAT_MOD scopes as (subject, verb).
_SCOPE_WORDS: Final = {
    "SELF": ("this card", "gets"),
    "OWN_MASTER": ("your master", "gets"),
    "OWN_MONSTERS": ("your monsters", "get"),
    "OWN_OTHER_MONSTERS": ("your other monsters", "get"),
    "OPP_MASTER": ("the opposing master", "gets"),
    "OPP_MONSTERS": ("opposing monsters", "get"),
}


@dataclass(frozen=True)
class Ability:
    """An ability (4.5): timing, ターンn, level gate, 条件, 対抗 filter and its effects (or static)."""

    timing: str
    effects: tuple[Effect, ...] = ()
    turn_limit: int = 0
    min_level: int = 0
    condition: tuple[tuple[str, int], ...] = ()
    counter_filter: frozenset[str] = frozenset()
    static: Static | None = None

    def head(self) -> str:
        """The timing and its limits in words: ``Counter (answers a summon; once per turn; level 2+)``."""
        words = TIMING_WORDS.get(self.timing, self.timing.lower())
        extra = []
        if self.counter_filter:
            extra.append(answers(self.counter_filter))
        if self.turn_limit:
            extra.append(times_per_turn(self.turn_limit))
        if self.min_level:
            extra.append(f"from level {self.min_level}")
        cond = condition_words(self.condition)
        if cond:
            extra.append(cond)
        head = words[:1].upper() + words[1:]
        return head + (f" ({'; '.join(extra)})" if extra else "")

    def body(self) -> str:
        """What the ability does, as one clause."""
        return self.static.describe() if self.static else effects_words(self.effects)

    def describe(self) -> str:
        """The ability in English, as in ``On entry: Draw 1 card.`` (timing, limits, effects)."""
        return f"{self.head()}: {sentence(self.body())}"


@dataclass(frozen=True)
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

    def kind_words(self) -> str:
        """The card's kind with its class and keywords: ``gigant monster``, ``fast counter spell``."""
        words = [self.cls.lower()] if self.cls else []
        if self.kind == SPELL:
            words += ["fast"] * self.fast + ["counter"] * self.counter
        return " ".join([*words, self.kind.lower()])

    def stats(self) -> str:
        """The printed numbers in words: ``attack 2, toughness 3`` ("" for a spell or master)."""
        if self.kind == MONSTER:
            return f"attack {self.attack}, toughness {self.toughness}"
        if self.kind == WEAPON:
            return f"attack +{self.attack}, guard +{self.guard}"
        return ""

    def text(self) -> str:
        """The card's rules text in English, without its name (tooltips, the terminal)."""
        out: list[str] = []
        if self.kind == MASTER:
            levels = ", ".join(
                f"level {lv} at {plural(exp, 'experience card')} ({atk}/{grd})"
                for lv, (exp, atk, grd) in enumerate(self.level_table)
                if lv
            )
            out.append(sentence(f"Up to level {self.max_level}: {levels}"))
            if self.restrictions:
                banned = [
                    f"{c.lower()} {k.lower()}s" for k, c in CLASS_OF_KIND.items() if c in self.restrictions
                ]
                out.append(sentence("Cannot use " + " or ".join(banned)))
            for lv, es in self.level_up:
                when = "On each level up" if not lv else f"On reaching level {lv}"
                out.append(f"{when}: {sentence(effects_words(es))}")
            for m, st in self.skills:
                out.append(f"Skill{f' from level {m}' if m else ''}: {sentence(st.describe())}")
        else:
            extra = []
            if self.kind == SPELL:
                if self.counter_filter:
                    extra.append(answers(self.counter_filter))
                if self.turn_limit:
                    extra.append(times_per_turn(self.turn_limit))
            if extra:
                out.append(sentence("; ".join(extra).capitalize()))
            cond = condition_words(self.condition, "|")
            out += [sentence(part) for part in cond.split("|") if part]
            if self.kind == SPELL:
                out.append(f"Effect: {sentence(effects_words(self.effects))}")
        out += [a.describe() for a in self.abilities]
        return " ".join(out)

    def describe(self) -> str:
        """One line for people: name, kind, stats and rules text, all in English."""
        stats = self.stats()
        head = f"{self.name}: {self.kind_words()}" + (f", {stats}" if stats else "") + "."
        text = self.text()
        return f"{head} {text}" if text else head

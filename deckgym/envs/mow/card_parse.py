"""The parsers of MoW card records (spec sections 4.4-4.8, D45): TOML tables to ``CardDef``.

Every ``[[card]]`` record is checked against its kind's schema (``card_schema``) and the
rules that depend on the card and the timing, and turned into a ``CardDef``; a bad record
fails with a ``CardDataError`` naming the file, the card and the rule. ``cards`` loads a pool
with ``parse_master`` and ``parse_main``, each given the record's ``RecordContext``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deckgym.envs.core.cards import check_record
from deckgym.envs.core.errors import CardDataError
from deckgym.envs.mow.card_defs import (
    ACT_TIMINGS,
    ANCIENT,
    CARD_TIMINGS,
    CLASS_FLAG,
    CLASS_OF_KIND,
    CONDITION_CODES,
    COUNTER,
    COUNTER_SPELL,
    GIGANT,
    KINDS,
    LEGENDARY,
    MASTER,
    MASTER_TIMINGS,
    MONSTER,
    ON_ATTACK,
    ON_LEVEL_UP,
    OP_KINDS,
    OWN_LEVEL,
    SPELL,
    SPELL_EFFECT,
    STATIC,
    TARGET_OPS,
    USE_KINDS,
    WEAPON,
    Ability,
    CardDef,
    Effect,
    Static,
    Target,
)
from deckgym.envs.mow.card_schema import (
    _ABILITY,
    _ABILITY_LIMIT,
    _EFFECT,
    _LEVEL_UP,
    _MASTER,
    _MONSTER,
    _OP_PARAMS,
    _SKILL,
    _SPELL,
    _STATIC,
    _WEAPON,
)
from deckgym.envs.mow.config import MAX_ACT_ABILITIES, STANDARD_LEVELS
from deckgym.envs.mow.ops import OPS


class RecordContext:
    """Where a record sits, for error messages and per-card rules.

    Args:
        file: the pool source the record came from, as errors name it.
        cid: the card id (or ``#i`` where the record has none).
        kind: the card's kind (``MASTER``, ``MONSTER``, ``WEAPON`` or ``SPELL``).
    """

    def __init__(self, file: str, cid: str, kind: str) -> None:
        self.file = file
        self.cid = cid
        self.kind = kind

    def fail(self, detail: str) -> CardDataError:
        """The ``CardDataError`` of this record with ``detail`` as its rule."""
        return CardDataError(self.file, self.cid, detail)


def _selector(e: Effect, prev: Target | None) -> Target | None:
    """The selector the op registry checks: SAME stands for the one it repeats; None without a target."""
    if e.op not in TARGET_OPS:
        return None
    if e.target == "SAME":
        return prev
    return Target[e.target]


def _parse_effect(
    raw: Any, ctx: RecordContext, timing: str, prev: Effect | None, prev_t: Target | None
) -> Effect:
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
    reg_amount = None if OPS[op].amount is None else (5 if amount == OWN_LEVEL else amount)
    OPS.validate(op, reg_amount, _selector(eff, prev_t), timing, ctx.file, ctx.cid)
    return eff


def _check_selector(e: Effect, ctx: RecordContext, timing: str, prev: Effect | None) -> None:
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


def _parse_effects(raw: Any, ctx: RecordContext, timing: str) -> tuple[Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise ctx.fail(f"{timing} effects must be a non-empty list")
    out: list[Effect] = []
    prev_t: Target | None = None
    for r in raw:
        e = _parse_effect(r, ctx, timing, out[-1] if out else None, prev_t)
        prev_t = _selector(e, prev_t)
        out.append(e)
    return tuple(out)


def _parse_condition(raw: Any, ctx: RecordContext) -> tuple[tuple[str, int], ...]:
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


def _parse_static(raw: Any, ctx: RecordContext) -> Static:
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


def _parse_ability(raw: Any, ctx: RecordContext) -> Ability:
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


def _parse_filter(raw: Any, ctx: RecordContext) -> frozenset[str]:
    if not isinstance(raw, list) or not raw or any(u not in USE_KINDS for u in raw):
        raise ctx.fail(f"counter_filter must be a non-empty list from {', '.join(USE_KINDS)}, got {raw!r}")
    return frozenset(raw)


def _parse_abilities(raw: Any, ctx: RecordContext) -> tuple[tuple[Ability, ...], tuple[int, ...]]:
    raw = raw or []
    if len(raw) > _ABILITY_LIMIT[ctx.kind]:
        raise ctx.fail(f"a {ctx.kind} has at most {_ABILITY_LIMIT[ctx.kind]} abilities, got {len(raw)}")
    abilities = tuple(_parse_ability(a, ctx) for a in raw)
    acts = tuple(i for i, a in enumerate(abilities) if a.timing in ACT_TIMINGS)
    if len(acts) > MAX_ACT_ABILITIES:
        raise ctx.fail(f"at most {MAX_ACT_ABILITIES} 起動/対抗 abilities per card, got {len(acts)}")
    return abilities, acts


def parse_master(raw: Mapping[str, Any], ctx: RecordContext, index: int) -> CardDef:
    """A master record (4.4, R12) as a ``CardDef``; ``index`` is its place among the pool's masters."""
    check_record(raw, _MASTER, ctx.file, ctx.cid)
    max_level = raw["max_level"]
    table = raw["level_table"]
    if len(table) != max_level + 1:
        raise ctx.fail(f"level_table needs {max_level + 1} rows (levels 0..{max_level}), got {len(table)}")
    rows: list[tuple[int, int, int]] = []
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
        at = u["level"]
        if at != "ANY" and not (isinstance(at, int) and 1 <= at <= max_level):
            raise ctx.fail(f"level_up level must be 1..{max_level} or 'ANY', got {at!r}")
        ups.append((0 if at == "ANY" else at, _parse_effects(u["effects"], ctx, ON_LEVEL_UP)))
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


def parse_main(raw: Mapping[str, Any], ctx: RecordContext, index: int) -> CardDef:
    """A monster, weapon or spell record as a ``CardDef``; ``index`` is its place in the main deck pool."""
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

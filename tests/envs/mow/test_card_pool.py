"""The packaged pool meets the starter-pool requirements of spec 4.10; the starter decks are legal."""

from __future__ import annotations

from collections import Counter

from deckgym.envs.mow.cards import (
    ACT_TIMINGS,
    ANCIENT,
    CONDITION_CODES,
    GIGANT,
    LEGENDARY,
    MASTER,
    MONSTER,
    OPS_ORDER,
    OWN_LEVEL,
    SELECTORS,
    SPELL,
    WEAPON,
    deck_names,
    load_pool,
    resolve_deck,
)
from deckgym.envs.mow.rules.values import card_statics

POOL = load_pool()
ALL = list(POOL.cards.values())


def _of(kind):
    return [c for c in ALL if c.kind == kind]


def _effects(c):
    out = list(c.effects)
    for a in c.abilities:
        out += a.effects
    for _lv, es in c.level_up:
        out += es
    return out


def _conditions(c):
    return list(c.condition) + [x for a in c.abilities for x in a.condition]


def test_masters_4_10_1_and_R11_D8_extra_rows():
    masters = _of(MASTER)
    assert 4 <= len(masters) <= 8
    assert sum(m.max_level == 3 for m in masters) >= 3
    four = [m for m in masters if m.max_level == 4]
    assert four and all(len(m.level_table) == 5 and m.level_table[4][0] > 8 for m in four)
    for cls in (GIGANT, LEGENDARY, ANCIENT):
        assert any(cls in m.restrictions for m in masters)
    assert any(not m.restrictions for m in masters)
    assert all(m.level_up and m.skills for m in masters)
    assert any(a.timing == "ACTIVATED" and a.min_level > 0 for m in masters for a in m.abilities)
    assert any(s.kind == "EXTRA_CHARGE" for m in masters for _lv, s in m.skills)


def test_monsters_4_10_2_R25_R27():
    monsters = _of(MONSTER)
    assert len(monsters) >= 16
    assert any(not m.abilities for m in monsters)
    gigants = [m for m in monsters if m.cls == GIGANT]
    assert len(gigants) >= 2 and all(m.condition for m in gigants)
    assert sum(any(code == "LEVEL_AT_LEAST" for code, _ in m.condition) for m in monsters) >= 3
    assert {m.attack for m in monsters} >= set(range(7))
    assert {m.toughness for m in monsters} >= set(range(1, 9))
    timings = {a.timing for m in monsters for a in m.abilities}
    assert timings >= {"ON_ENTER", "ON_ATTACK", "ON_DISCARD", "ON_LEVEL_UP", "ACTIVATED", "COUNTER", "STATIC"}


def test_weapons_4_10_3_R28_R31():
    weapons = _of(WEAPON)
    assert len(weapons) >= 6
    assert any(w.cls == LEGENDARY and w.condition for w in weapons)
    assert any(("COST_DISCARD", 1) in w.condition for w in weapons)
    timings = {a.timing for w in weapons for a in w.abilities}
    assert timings >= {"ON_DISCARD", "ON_ATTACK", "ON_ENTER"}


def test_spells_4_10_4_R33_R34_R35_R36():
    spells = _of(SPELL)
    assert len(spells) >= 12
    assert sum(s.fast and not s.counter for s in spells) >= 3
    counters = [s for s in spells if s.counter]
    assert len(counters) >= 3
    assert any(
        s.counter_filter == {"SUMMON"}
        and s.effects[0].op == "DESTROY"
        and s.effects[0].target == "TRIGGER_CARD"
        for s in counters
    )
    assert any(s.effects[0].op == "NEGATE" and len(s.counter_filter) == 4 for s in counters)
    assert any(s.fast and s.counter for s in spells)
    ancient = [s for s in spells if s.cls == ANCIENT]
    assert len(ancient) >= 2 and any(s.fast for s in ancient) and all(s.condition for s in ancient)
    assert any(s.condition and not s.cls for s in spells)
    assert any(s.turn_limit for s in spells)


def test_coverage_4_10_5_every_primitive_selector_condition_and_mode():
    effects = [e for c in ALL for e in _effects(c)]
    assert {e.op for e in effects} == set(OPS_ORDER)
    statics = {s.kind for c in ALL for _lv, s in card_statics(c)}
    assert statics == {"STAT_MOD", "EXTRA_CHARGE"}
    assert {e.target for e in effects if e.target} == set(SELECTORS)
    assert {code for c in ALL for code, _ in _conditions(c)} == set(CONDITION_CODES)
    assert {e.duration for e in effects if e.op == "BUFF"} == {"TURN", "PERMANENT"}
    assert {e.mode for e in effects if e.op == "DISCARD"} == {"CHOSEN", "RANDOM"}
    assert {e.source for e in effects if e.op == "EXP_GAIN"} == {"DECK_TOP", "HAND"}
    assert any(e.amount == OWN_LEVEL for e in effects)
    limits = {a.turn_limit for c in ALL for a in c.abilities if a.timing in ACT_TIMINGS} | {
        c.turn_limit for c in ALL if c.turn_limit
    }
    assert {1, 2} <= limits


def test_size_4_10_6_and_D45_termination_rules():
    assert 32 <= len(POOL.main) <= 64
    for c in ALL:
        for a in c.abilities:
            if a.timing in ACT_TIMINGS:
                assert a.turn_limit >= 1, c.id
            for e in a.effects:
                if e.op in ("BOUNCE", "RECOVER"):
                    assert a.timing in ACT_TIMINGS, c.id
        for e in _effects(c):
            if e.op in ("DESTROY", "BOUNCE"):
                assert "MASTER" not in e.kinds and e.target not in ("OWN_MASTER", "OPP_MASTER")


def test_default_decks_4_10_7_R3_D6_D17():
    names = deck_names()
    assert len(names) >= 3
    for n in names:
        deck = resolve_deck(n, POOL, max_copies=3)
        cards = deck.expand()
        masters = [c for c in cards if POOL[c].kind == MASTER]
        assert len(masters) == 1 and len(cards) == 41
        banned = POOL[masters[0]].restrictions
        assert not any(POOL[c].cls in banned for c in cards if POOL[c].cls), n
        assert max(Counter(c for c in cards if c not in masters).values()) <= 3

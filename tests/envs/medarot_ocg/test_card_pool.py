"""Data checks of the Medarot OCG card pool and starter decks (spec 4.3, 4.4, 4.5 and D42).

The files are read with ``tomllib`` directly, so these checks do not depend on the engine's loader.
Every checker returns a list of problems; the ``*_rejects_*`` tests feed it broken data to show
that each check can fail.
"""

from __future__ import annotations

import copy
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
GAME_DIR = ROOT / "envs" / "medarot_ocg"
POOL_FILE = GAME_DIR / "cards" / "core.toml"
DECK_DIR = GAME_DIR / "decks"

KINDS = ("MEDAROT", "MEDAROTER", "MEDACHANGE")
ID_PREFIX = {"MEDAROT": "MD", "MEDAROTER": "MR", "MEDACHANGE": "MC"}
TYPES = ("SHOOTING", "MELEE", "SPECIAL")
ARROWS = ("F", "FR", "R", "BR", "B", "BL", "L", "FL")
TYPE_FILTERS = ("ANY", "SHOOTING", "MELEE", "SPECIAL")
TRASH_TIMINGS = ("AFTER_USE", "AFTER_DEFENCE", "END_OF_TURN")
MEDAROTER_TIMINGS = ("ACTION", "DEFENCE", "TRIGGER")

MEDAROT_TARGETS = frozenset(
    {"SELF", "ACTING", "ATTACKED", "ATTACKER", "ONE_ALLY", "ONE_ENEMY", "ALL_ALLIES", "ALL_ENEMIES"}
)
ALL_TARGETS = MEDAROT_TARGETS | {"OWNER", "OPPONENT"}
TIMING_TARGETS = {
    "ON_ACTIVATE": ALL_TARGETS - {"ATTACKED", "ATTACKER"},
    "ON_HIT": ALL_TARGETS,
    "ACTION": ALL_TARGETS - {"ATTACKED", "ATTACKER"},
    "DEFENCE": ALL_TARGETS,
    "TRIGGER": ALL_TARGETS,
}

# op -> (allowed amounts or None when the op takes no amount, allowed targets, allowed timings or None)
_TENS = frozenset(s * v for v in (10, 20, 30, 40) for s in (1, -1))
_MEDAROTER_ONLY = frozenset({"NEGATE", "CANCEL_PENALTY", "FREE_FAR"})
OPS: dict[str, tuple[frozenset[int] | None, frozenset[str], frozenset[str] | None]] = {
    "MOD_POWER": (_TENS, MEDAROT_TARGETS, None),
    "MOD_ARMOR": (_TENS, MEDAROT_TARGETS, None),
    "MOD_SPEED": (frozenset({-3, -2, -1, 1, 2, 3}), MEDAROT_TARGETS, None),
    "NEGATE": (None, frozenset({"ATTACKED"}), frozenset({"DEFENCE", "TRIGGER", "ACTION"})),
    "GUARD": (None, MEDAROT_TARGETS, None),
    "TRAP": (frozenset({1, 2, 3}), frozenset({"OWNER"}), None),
    "GAIN_HP": (frozenset({1, 2, 3}), frozenset({"OWNER", "OPPONENT"}), None),
    "DAMAGE": (frozenset({1, 2, 3}), frozenset({"OWNER", "OPPONENT"}), None),
    "DOT": (frozenset({1, 2}), frozenset({"OPPONENT"}), None),
    "DRAW": (frozenset({1, 2, 3}), frozenset({"OWNER"}), None),
    "DISCARD": (frozenset({1, 2}), frozenset({"OPPONENT"}), None),
    "TRASH_STOCK": (frozenset({1}), frozenset({"OPPONENT"}), None),
    "DISABLE": (None, MEDAROT_TARGETS, None),
    "ROOT": (None, MEDAROT_TARGETS, None),
    "CANCEL_PENALTY": (None, frozenset({"ACTING"}), frozenset({"ACTION"})),
    "FREE_FAR": (None, frozenset({"ACTING"}), frozenset({"ACTION"})),
}
MOD_OPS = frozenset({"MOD_POWER", "MOD_ARMOR", "MOD_SPEED"})

STAT_KEYS = {"id", "name", "kind", "speed", "cost", "type", "power", "armor", "arrows"}
MEDAROT_KEYS = (STAT_KEYS, {"effect"})
MEDACHANGE_KEYS = (STAT_KEYS | {"power_form"}, {"effect"})
MEDAROTER_KEYS = ({"id", "name", "kind", "hp_mod", "effects"}, set())
EFFECT_KEYS = {"timing", "op", "target", "type_filter"}
DECK_SIZE = {"beginner": 15, "normal": 30, "advance": 30}


# ------------------------------------------------------------------ loading


def load_pool() -> list[dict[str, Any]]:
    with POOL_FILE.open("rb") as fh:
        data = tomllib.load(fh)
    assert set(data) == {"card"}, f"core.toml must hold only [[card]] tables, got {sorted(data)}"
    return data["card"]


def load_decks() -> dict[str, dict[str, Any]]:
    decks = {}
    for path in sorted(DECK_DIR.glob("*.toml")):
        with path.open("rb") as fh:
            decks[path.name] = tomllib.load(fh)
    return decks


@pytest.fixture(scope="module")
def pool() -> list[dict[str, Any]]:
    return load_pool()


@pytest.fixture(scope="module")
def decks() -> dict[str, dict[str, Any]]:
    return load_decks()


def of_kind(cards: list[dict[str, Any]], *kinds: str) -> list[dict[str, Any]]:
    return [c for c in cards if c.get("kind") in kinds]


def effects_of(card: dict[str, Any]) -> list[dict[str, Any]]:
    if card.get("kind") == "MEDAROTER":
        return list(card.get("effects", []))
    return [card["effect"]] if "effect" in card else []


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def in_range(value: Any, lo: int, hi: int, step: int = 1) -> bool:
    return is_int(value) and lo <= value <= hi and value % step == 0


# ------------------------------------------------------------------ section 4.3 / 4.4 checkers


def key_problems(card: dict[str, Any]) -> list[str]:
    shapes = {"MEDAROT": MEDAROT_KEYS, "MEDACHANGE": MEDACHANGE_KEYS, "MEDAROTER": MEDAROTER_KEYS}
    if card.get("kind") not in shapes:
        return [f"unknown kind {card.get('kind')!r}"]
    required, optional = shapes[card["kind"]]
    problems = [f"missing key {k!r}" for k in sorted(required - set(card))]
    problems += [f"unknown key {k!r}" for k in sorted(set(card) - required - optional)]
    return problems


def stat_problems(card: dict[str, Any]) -> list[str]:
    problems = []
    change = card["kind"] == "MEDACHANGE"
    if not in_range(card["speed"], 1, 10):
        problems.append(f"speed {card['speed']!r} not in 1..10")
    if not in_range(card["cost"], 0 if change else 1, 5):
        problems.append(f"cost {card['cost']!r} out of range")
    if card["type"] not in TYPES:
        problems.append(f"type {card['type']!r} unknown")
    if not in_range(card["power"], 0, 90, 10):
        problems.append(f"power {card['power']!r} not a multiple of 10 in 0..90")
    elif card["type"] == "SPECIAL" and card["power"] != 0:
        problems.append("SPECIAL power must be 0")
    elif card["type"] in ("SHOOTING", "MELEE") and card["power"] < 10:
        problems.append("attack power must be at least 10")
    if not in_range(card["armor"], 10, 90, 10):
        problems.append(f"armor {card['armor']!r} not a multiple of 10 in 10..90")
    arrows = card["arrows"]
    if not isinstance(arrows, list) or not 1 <= len(arrows) <= 8 or len(set(arrows)) != len(arrows):
        problems.append(f"arrows {arrows!r} must be 1..8 distinct directions")
    elif not set(arrows) <= set(ARROWS):
        problems.append(f"arrows {arrows!r} hold an unknown direction")
    if change and not isinstance(card["power_form"], bool):
        problems.append("power_form must be a bool")
    return problems


def medarot_effect_problems(card: dict[str, Any]) -> list[str]:
    effect = card.get("effect")
    if card["type"] == "SPECIAL":
        if effect is None:
            return ["a SPECIAL Medarot needs an effect"]
        return [] if effect.get("timing") == "ON_ACTIVATE" else ["a SPECIAL effect must be ON_ACTIVATE"]
    if effect is not None and effect.get("timing") != "ON_HIT":
        return ["an attack Medarot's effect must be ON_HIT"]
    return []


def medaroter_problems(card: dict[str, Any]) -> list[str]:
    problems = []
    if not in_range(card["hp_mod"], -5, 5):
        problems.append(f"hp_mod {card['hp_mod']!r} not in -5..5")
    effects = card["effects"]
    if not isinstance(effects, list) or not 1 <= len(effects) <= 2:
        return problems + ["a Medaroter needs 1 or 2 effect records"]
    for effect in effects:
        if effect.get("timing") not in MEDAROTER_TIMINGS:
            problems.append(f"Medaroter timing {effect.get('timing')!r} unknown")
        if not in_range(effect.get("cost"), 0, 3):
            problems.append(f"Medaroter effect cost {effect.get('cost')!r} not in 0..3")
        if effect.get("trash") not in TRASH_TIMINGS:
            problems.append(f"trash timing {effect.get('trash')!r} unknown")
    return problems


def effect_problems(effect: dict[str, Any], medaroter: bool) -> list[str]:
    allowed = EFFECT_KEYS | {"amount"} | ({"cost", "trash"} if medaroter else set())
    problems = [f"effect key {k!r} not allowed" for k in sorted(set(effect) - allowed)]
    problems += [f"effect key {k!r} missing" for k in sorted(EFFECT_KEYS - set(effect))]
    if problems:
        return problems
    op, target, timing = effect["op"], effect["target"], effect["timing"]
    if op not in OPS:
        return [f"unknown op {op!r}"]
    amounts, targets, timings = OPS[op]
    if amounts is None and "amount" in effect:
        problems.append(f"{op} takes no amount")
    if amounts is not None and not (is_int(effect.get("amount")) and effect.get("amount") in amounts):
        problems.append(f"{op} amount {effect.get('amount')!r} not allowed")
    if target not in targets:
        problems.append(f"{op} cannot target {target}")
    if timing not in TIMING_TARGETS or (target not in TIMING_TARGETS[timing] and op != "NEGATE"):
        problems.append(f"timing {timing!r} cannot target {target}")
    if timings is not None and timing not in timings:
        problems.append(f"{op} cannot use timing {timing}")
    if op in _MEDAROTER_ONLY and not medaroter:
        problems.append(f"{op} is for Medaroters only")
    if effect["type_filter"] not in TYPE_FILTERS:
        problems.append(f"type_filter {effect['type_filter']!r} unknown")
    elif effect["type_filter"] != "ANY" and op not in MOD_OPS:
        problems.append(f"{op} cannot use a type_filter")
    if medaroter and op == "DOT" and effect.get("trash") != "END_OF_TURN":
        problems.append("a Medaroter DOT must be trashed END_OF_TURN")
    if medaroter and op == "NEGATE" and timing == "ACTION" and effect.get("trash") != "END_OF_TURN":
        problems.append("an ACTION NEGATE stores a charge and must be trashed END_OF_TURN")
    return problems


def card_problems(card: dict[str, Any]) -> list[str]:
    problems = key_problems(card)
    if problems:
        return problems
    problems = [] if str(card["id"]).startswith(ID_PREFIX[card["kind"]]) else ["id prefix does not fit kind"]
    if not isinstance(card["name"], str) or not card["name"].strip():
        problems.append("name must be a non-empty string")
    if card["kind"] == "MEDAROTER":
        problems += medaroter_problems(card)
    else:
        problems += stat_problems(card) + medarot_effect_problems(card)
    for effect in effects_of(card):
        problems += effect_problems(effect, card["kind"] == "MEDAROTER")
    return problems


def pool_problems(cards: list[dict[str, Any]]) -> list[str]:
    problems = [f"{c.get('id')}: {p}" for c in cards for p in card_problems(c)]
    ids = Counter(c.get("id") for c in cards)
    problems += [f"id {i!r} used {n} times" for i, n in ids.items() if n > 1]
    names = Counter((c.get("name"), c.get("kind")) for c in cards)
    problems += [f"name {k!r} used {n} times" for k, n in names.items() if n > 1]
    return problems


# ------------------------------------------------------------------ section 4.5 checkers


def missing(label: str, wanted: set[Any], seen: set[Any]) -> list[str]:
    lacking = sorted(wanted - seen, key=str)
    return [f"{label}: missing {lacking}"] if lacking else []


def at_least(label: str, count: int, minimum: int) -> list[str]:
    return [] if count >= minimum else [f"{label}: {count} < {minimum}"]


def count_problems(cards: list[dict[str, Any]]) -> list[str]:
    medarots = of_kind(cards, "MEDAROT")
    changes = of_kind(cards, "MEDACHANGE")
    medarot_names = {c["name"] for c in medarots}
    problems = at_least("distinct cards", len(cards), 44)
    problems += at_least("Medarots", len(medarots), 24)
    for kind in TYPES:
        problems += at_least(f"{kind} Medarots", sum(c["type"] == kind for c in medarots), 8)
    problems += at_least("Medaroters", len(of_kind(cards, "MEDAROTER")), 14)
    problems += at_least("MedaChanges", len(changes), 6)
    problems += at_least("power-form MedaChanges", sum(c["power_form"] is True for c in changes), 2)
    problems += [
        f"MedaChange {c['id']} names no pool Medarot" for c in changes if c["name"] not in medarot_names
    ]
    return problems


def medarot_coverage_problems(cards: list[dict[str, Any]]) -> list[str]:
    medarots = of_kind(cards, "MEDAROT")
    stat_cards = of_kind(cards, "MEDAROT", "MEDACHANGE")
    problems = missing("speeds", set(range(1, 11)), {c["speed"] for c in medarots})
    problems += missing("arrow counts", {1, 2, 3, 4, 5, 8}, {len(c["arrows"]) for c in medarots})
    problems += at_least("Medarots without F", sum("F" not in c["arrows"] for c in medarots), 2)
    problems += missing("costs", set(range(1, 6)), {c["cost"] for c in medarots})
    problems += missing("power spread", set(range(10, 80, 10)), {c["power"] for c in stat_cards})
    problems += missing("armor spread", set(range(10, 80, 10)), {c["armor"] for c in stat_cards})
    on_hit = [c for c in medarots if c["type"] != "SPECIAL" and c.get("effect", {}).get("timing") == "ON_HIT"]
    problems += at_least("attack Medarots with ON_HIT", len(on_hit), 4)
    return problems


def medaroter_coverage_problems(cards: list[dict[str, Any]]) -> list[str]:
    medaroters = of_kind(cards, "MEDAROTER")
    problems = []
    for timing in MEDAROTER_TIMINGS:
        n = sum(any(e["timing"] == timing for e in c["effects"]) for c in medaroters)
        problems += at_least(f"Medaroters with {timing}", n, 4)
    for trash in TRASH_TIMINGS:
        n = sum(any(e["trash"] == trash for e in c["effects"]) for c in medaroters)
        problems += at_least(f"Medaroters trashed {trash}", n, 3)
    problems += at_least("two-effect Medaroters", sum(len(c["effects"]) == 2 for c in medaroters), 3)
    problems += missing("hp_mod values", set(range(-3, 4)), {c["hp_mod"] for c in medaroters})
    costs = {e["cost"] for c in medaroters for e in c["effects"]}
    problems += missing("Medaroter costs", set(range(4)), costs)
    return problems


def vocabulary_problems(cards: list[dict[str, Any]]) -> list[str]:
    op_cards = Counter(op for c in cards for op in {e["op"] for e in effects_of(c)})
    problems = [f"op {op} on {op_cards[op]} card(s), need 2" for op in OPS if op_cards[op] < 2]
    targets = {e["target"] for c in cards for e in effects_of(c)}
    return problems + missing("targets", set(ALL_TARGETS), targets)


# ------------------------------------------------------------------ D42 deck checker


def deck_problems(deck: dict[str, Any], cards: list[dict[str, Any]]) -> list[str]:
    by_id = {c["id"]: c for c in cards}
    mode = deck.get("mode")
    if mode not in DECK_SIZE:
        return [f"unknown mode {mode!r}"]
    problems = [] if set(deck) <= {"name", "mode", "description", "cards"} else ["unknown deck key"]
    if not isinstance(deck.get("name"), str) or not deck["name"]:
        problems.append("deck needs a name")
    counts = deck.get("cards", {})
    problems += [f"unknown card id {cid}" for cid in counts if cid not in by_id]
    problems += [f"{cid}: bad count {n!r}" for cid, n in counts.items() if not in_range(n, 1, 3)]
    if problems:
        return problems
    if sum(counts.values()) != DECK_SIZE[mode]:
        problems.append(f"{sum(counts.values())} cards, need exactly {DECK_SIZE[mode]}")
    per_name = Counter()
    for cid, n in counts.items():
        per_name[(by_id[cid]["name"], by_id[cid]["kind"])] += n
    problems += [f"{key} has {n} copies" for key, n in per_name.items() if n > 3]
    kinds = Counter()
    for cid, n in counts.items():
        kinds[by_id[cid]["kind"]] += n
    if kinds["MEDAROT"] < 1:
        problems.append("no Medarot card")
    if mode != "advance" and kinds["MEDACHANGE"]:
        problems.append("MedaChange cards outside advance mode")
    if mode == "advance" and kinds["MEDACHANGE"] < 3:
        problems.append(f"advance deck has {kinds['MEDACHANGE']} MedaChange cards, need 3")
    return problems


def medachange_partner_problems(deck: dict[str, Any], cards: list[dict[str, Any]]) -> list[str]:
    by_id = {c["id"]: c for c in cards}
    picked = [by_id[cid] for cid in deck["cards"]]
    names = {c["name"] for c in picked if c["kind"] == "MEDAROT"}
    return [
        f"MedaChange {c['id']} has no {c['name']} in the deck"
        for c in picked
        if c["kind"] == "MEDACHANGE" and c["name"] not in names
    ]


# ------------------------------------------------------------------ tests on the shipped data


def test_section_4_3_and_4_4_every_card_record_is_well_formed(pool):
    assert pool_problems(pool) == []


def test_pool_meets_section_4_5_coverage(pool):
    assert count_problems(pool) == []


def test_section_4_5_medarot_coverage(pool):
    assert medarot_coverage_problems(pool) == []


def test_section_4_5_medaroter_coverage(pool):
    assert medaroter_coverage_problems(pool) == []


def test_section_4_5_every_primitive_and_target_is_used(pool):
    assert vocabulary_problems(pool) == []


def test_section_4_5_ready_made_decks_cover_every_mode(decks):
    modes = Counter(d.get("mode") for d in decks.values())
    assert modes == {"beginner": 3, "normal": 3, "advance": 3}
    for filename, deck in decks.items():
        assert filename.startswith(f"{deck['mode']}_"), filename


def test_D42_starter_decks_are_legal(pool, decks):
    assert decks
    problems = {name: deck_problems(deck, pool) for name, deck in decks.items()}
    assert {name: p for name, p in problems.items() if p} == {}


def test_D42_advance_decks_have_three_medachanges_of_their_own_medarots(pool, decks):
    advance = {name: deck for name, deck in decks.items() if deck.get("mode") == "advance"}
    assert advance
    for name, deck in advance.items():
        changes = sum(n for cid, n in deck["cards"].items() if cid.startswith("MC"))
        assert changes >= 3, name
        assert medachange_partner_problems(deck, pool) == [], name


# ------------------------------------------------------------------ the checkers can fail


def _find(cards: list[dict[str, Any]], card_id: str) -> dict[str, Any]:
    return next(c for c in cards if c["id"] == card_id)


def _special(cards: list[dict[str, Any]]) -> dict[str, Any]:
    return next(c for c in of_kind(cards, "MEDAROT") if c["type"] == "SPECIAL")


def _medaroter(cards: list[dict[str, Any]]) -> dict[str, Any]:
    return of_kind(cards, "MEDAROTER")[0]


CARD_BREAKERS = {
    "speed": lambda cs: of_kind(cs, "MEDAROT")[0].update(speed=11),
    "cost": lambda cs: of_kind(cs, "MEDAROT")[0].update(cost=0),
    "power step": lambda cs: of_kind(cs, "MEDAROT")[0].update(power=25),
    "armor zero": lambda cs: of_kind(cs, "MEDAROT")[0].update(armor=0),
    "arrow name": lambda cs: of_kind(cs, "MEDAROT")[0].update(arrows=["UP"]),
    "arrow repeat": lambda cs: of_kind(cs, "MEDAROT")[0].update(arrows=["F", "F"]),
    "special power": lambda cs: _special(cs).update(power=10),
    "special no effect": lambda cs: _special(cs).pop("effect"),
    "power_form on Medarot": lambda cs: of_kind(cs, "MEDAROT")[0].update(power_form=False),
    "hp_mod": lambda cs: _medaroter(cs).update(hp_mod=6),
    "three effects": lambda cs: _medaroter(cs)["effects"].extend(
        copy.deepcopy(_medaroter(cs)["effects"]) * 2
    ),
    "effect cost": lambda cs: _medaroter(cs)["effects"][0].update(cost=4),
    "trash": lambda cs: _medaroter(cs)["effects"][0].update(trash="NEVER"),
    "amount": lambda cs: _medaroter(cs)["effects"][0].update(op="DRAW", amount=4, target="OWNER"),
    "target": lambda cs: _medaroter(cs)["effects"][0].update(op="DOT", amount=1, target="OWNER"),
    "type_filter": lambda cs: _find(cs, "MR03")["effects"][0].update(type_filter="MELEE"),
    "extra key": lambda cs: _special(cs)["effect"].update(duration=2),
    "negate on Medarot": lambda cs: _find(cs, "MD05")["effect"].update(op="NEGATE"),
    "timing target": lambda cs: _find(cs, "MR13")["effects"][0].update(target="ATTACKER"),
    "medaroter DOT trash": lambda cs: _find(cs, "MR10")["effects"][0].update(trash="AFTER_USE"),
    "duplicate id": lambda cs: of_kind(cs, "MEDAROT")[1].update(id=of_kind(cs, "MEDAROT")[0]["id"]),
}


@pytest.mark.parametrize("breaker", sorted(CARD_BREAKERS))
def test_section_4_3_and_4_4_checks_reject_broken_cards(pool, breaker):
    cards = copy.deepcopy(pool)
    CARD_BREAKERS[breaker](cards)
    assert pool_problems(cards)


def test_section_4_5_coverage_checks_reject_a_thin_pool(pool):
    thin = copy.deepcopy(pool)
    thin = [c for c in thin if c["kind"] != "MEDACHANGE" and c.get("speed") != 10 and c.get("hp_mod") != 3]
    thin = [c for c in thin if "NEGATE" not in {e["op"] for e in effects_of(c)}]
    assert count_problems(thin)
    assert medarot_coverage_problems(thin)
    assert medaroter_coverage_problems(thin)
    assert vocabulary_problems(thin)
    renamed = copy.deepcopy(pool)
    of_kind(renamed, "MEDACHANGE")[0]["name"] = "Nobody"
    assert count_problems(renamed)


def test_D42_checks_reject_illegal_decks(pool, decks):
    advance = next(d for d in decks.values() if d["mode"] == "advance")
    beginner = next(d for d in decks.values() if d["mode"] == "beginner")
    too_big = copy.deepcopy(beginner)
    first = next(iter(too_big["cards"]))
    too_big["cards"][first] = 3 if too_big["cards"][first] < 3 else 2
    four_copies = copy.deepcopy(beginner)
    four_copies["cards"][first] = 4
    change_in_normal = copy.deepcopy(advance)
    change_in_normal["mode"] = "normal"
    no_medarot = {
        "name": "x",
        "mode": "beginner",
        "cards": {m["id"]: 3 for m in of_kind(pool, "MEDAROTER")[:5]},
    }
    ghost = copy.deepcopy(beginner)
    ghost["cards"]["ZZ99"] = ghost["cards"].pop(first)
    for bad in (too_big, four_copies, change_in_normal, no_medarot, ghost):
        assert deck_problems(bad, pool), bad
    few_changes = copy.deepcopy(advance)
    for cid in [c for c in few_changes["cards"] if c.startswith("MC")]:
        few_changes["cards"].pop(cid)
    assert deck_problems(few_changes, pool)

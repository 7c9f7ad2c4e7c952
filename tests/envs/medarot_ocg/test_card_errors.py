"""Loud load-time errors of the Medarot OCG card loader and deck validator (spec 4.3, 4.4, D42).

Each broken card file raises ``CardDataError`` whose message names the file, the card and the
rule; each illegal deck raises ``DeckError`` naming the deck, the card and the rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deckgym.envs.core.errors import CardDataError, DeckError
from deckgym.envs.medarot_ocg.cards import load_pool, resolve_deck
from deckgym.envs.medarot_ocg.config import make_config

UNIT = """
[[card]]
id = "T01"
name = "Testbot"
kind = "MEDAROT"
speed = 5
cost = 2
type = "SHOOTING"
power = 30
armor = 20
arrows = ["F", "FR"]
effect = { timing = "ON_HIT", op = "MOD_SPEED", amount = -1, target = "ATTACKED" }
"""

TOOL = """
[[card]]
id = "TR01"
name = "Test Tool"
kind = "MEDAROTER"
hp_mod = 1
effects = [
  { timing = "ACTION", op = "MOD_POWER", amount = 10, target = "ACTING", cost = 1, trash = "AFTER_USE" },
]
"""

CHANGE = """
[[card]]
id = "TC01"
name = "Testbot"
kind = "MEDACHANGE"
speed = 6
cost = 1
type = "SHOOTING"
power = 40
armor = 20
arrows = ["F"]
power_form = true
"""


def write(tmp_path: Path, text: str, name: str = "cards.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path) -> CardDataError:
    with pytest.raises(CardDataError) as info:
        load_pool([path])
    return info.value


def assert_names(err: CardDataError, path: Path, card: str | None, *rule: str) -> None:
    msg = str(err)
    assert str(path) in msg and err.file == str(path), msg
    if card is not None:
        assert err.card == card and f"card {card}" in msg, msg
    for r in rule:
        assert r in msg, f"{r!r} not in {msg!r}"


def test_valid_card_file_loads(tmp_path: Path) -> None:
    pool = load_pool([write(tmp_path, UNIT + TOOL + CHANGE)])
    assert pool.ids() == ["T01", "TR01", "TC01"]
    assert pool["T01"].arrows == 0b11 and pool["TC01"].power_form


# ----------------------------------------------------------------------------- CardDataError
def test_malformed_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, UNIT + '\n[[card]]\nid = "T02"\nname = \n')
    err = load_error(path)
    assert_names(err, path, None, "not valid TOML")
    assert "line" in str(err)  # tomllib's position says where the syntax breaks


#: The effects of UNIT and of TOOL, which the ways to break them below replace.
UNIT_EFFECT = 'op = "MOD_SPEED", amount = -1, target = "ATTACKED"'
TOOL_EFFECT = 'op = "MOD_POWER", amount = 10, target = "ACTING"'


def effect(op: str, amount: int, target: str) -> str:
    """An effect's op, amount and target as a card file writes them."""
    return f'op = "{op}", amount = {amount}, target = "{target}"'


#: Each card and the ways to break it in one place, by name: (the text replaced, its replacement, what the
#: error says of the rule).
BROKEN: dict[tuple[str, str], dict[str, tuple[str, str, str]]] = {
    ("T01", UNIT): {
        "unknown-field": (
            'arrows = ["F", "FR"]',
            'arrows = ["F", "FR"]\ncolour = "red"',
            "unknown field 'colour'",
        ),
        "unknown-effect-field": (
            'target = "ATTACKED" }',
            'target = "ATTACKED", bonus = 1 }',
            "unknown effect field 'bonus'",
        ),
        "speed-high": ("speed = 5", "speed = 11", "'speed' = 11 is out of range 1..10"),
        "speed-zero": ("speed = 5", "speed = 0", "'speed' = 0 is out of range 1..10"),
        "cost": ("cost = 2", "cost = 6", "'cost' = 6 is out of range 1..5"),
        "armor": ("armor = 20", "armor = 100", "'armor' = 100 is out of range 10..90"),
        "power-tens": ("power = 30", "power = 35", "multiple of 10"),
        "arrow-name": ('arrows = ["F", "FR"]', 'arrows = ["F", "UP"]', "unknown direction"),
        "no-arrows": ('arrows = ["F", "FR"]', "arrows = []", "non-empty list"),
        "speed-type": ("speed = 5", 'speed = "fast"', "'speed' must be int"),
        "effect-amount": ("amount = -1", "amount = -4", "amount -4 out of range"),
        "dot-owner": (UNIT_EFFECT, effect("DOT", 1, "OWNER"), "op DOT cannot target OWNER"),
        "kind": ('kind = "MEDAROT"', 'kind = "ROBOT"', "field 'kind' = 'ROBOT'"),
        "missing": ("speed = 5\n", "", "missing required field 'speed'"),
    },
    ("TR01", TOOL): {
        "unknown-field": ("hp_mod = 1", "hp_mod = 1\nspeed = 3", "unknown field 'speed'"),
        "hp_mod": ("hp_mod = 1", "hp_mod = 6", "'hp_mod' = 6 is out of range -5..5"),
        "effect-cost": ("cost = 1", "cost = 4", "'cost' = 4 is out of range 0..3"),
        "mod-step": ("amount = 10", "amount = 15", "amount 15 out of range"),
        "draw-enemy": (TOOL_EFFECT, effect("DRAW", 1, "ONE_ENEMY"), "op DRAW cannot target ONE_ENEMY"),
        "negate-self": (
            f'timing = "ACTION", {TOOL_EFFECT}',
            'timing = "DEFENCE", op = "NEGATE", target = "SELF"',
            "op NEGATE cannot target SELF",
        ),
        "trap-opponent": (TOOL_EFFECT, effect("TRAP", 1, "OPPONENT"), "op TRAP cannot target OPPONENT"),
        "unknown-target": ('target = "ACTING"', 'target = "EVERYONE"', "'target' = 'EVERYONE' is not one of"),
        "no-attack-yet": ('target = "ACTING"', 'target = "ATTACKED"', "does not exist at timing ACTION"),
        "extra-amount": (TOOL_EFFECT, effect("NEGATE", 1, "ATTACKED"), "op NEGATE takes no amount"),
    },
    ("TC01", CHANGE): {
        "unknown-field": ("power_form = true", "power_form = true\nhp_mod = 0", "unknown field 'hp_mod'"),
    },
}


@pytest.mark.parametrize(
    ("card", "text", "old", "new", "rule"),
    [(card, text, *case) for (card, text), cases in BROKEN.items() for case in cases.values()],
    ids=[f"{card}-{name}" for (card, _), cases in BROKEN.items() for name in cases],
)
def test_a_card_broken_in_one_place_names_the_file_the_card_and_the_rule(
    tmp_path: Path, card: str, text: str, old: str, new: str, rule: str
) -> None:
    assert old in text
    path = write(tmp_path, text.replace(old, new))
    assert_names(load_error(path), path, card, rule)


@pytest.mark.parametrize(
    ("text", "card", "rule"),
    [
        (UNIT + UNIT.replace('id = "T01"', 'id = "T02"'), "T02", "duplicate MEDAROT name 'Testbot'"),
        (CHANGE, "TC01", "names no Medarot of the pool"),
        (CHANGE.replace("cost = 1", "cost = 7") + UNIT, "TC01", "'cost' = 7 is out of range 0..5"),
        (
            UNIT.replace('type = "SHOOTING"', 'type = "SPECIAL"')
            .replace("power = 30", "power = 0")
            .replace('timing = "ON_HIT"', 'timing = "ON_ACTIVATE"')
            .replace('target = "ATTACKED"', 'target = "SELF"')
            .replace("effect = {", "# {"),
            "T01",
            "SPECIAL unit needs an ON_ACTIVATE effect",
        ),
    ],
    ids=["duplicate-name", "medachange-orphan", "medachange-cost", "special-without-effect"],
)
def test_other_card_rules(tmp_path: Path, text: str, card: str, rule: str) -> None:
    """Rules of a card among others (its name, its Medarot) and of a card changed in more than one place."""
    path = write(tmp_path, text)
    assert_names(load_error(path), path, card, rule)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        (UNIT.replace('op = "MOD_SPEED"', 'op = "EXPLODE"'), "T01"),
        (TOOL.replace('op = "MOD_POWER"', 'op = "TELEPORT"'), "TR01"),
    ],
)
def test_unknown_op(tmp_path: Path, text: str, card: str) -> None:
    path = write(tmp_path, text)
    err = load_error(path)
    assert_names(err, path, card, "unknown op")
    assert "EXPLODE" in str(err) or "TELEPORT" in str(err)


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    path = write(tmp_path, UNIT + UNIT.replace('name = "Testbot"', 'name = "Otherbot"'))
    assert_names(load_error(path), path, "T01", "duplicate card id")


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    first = write(tmp_path, UNIT, "a.toml")
    second = write(tmp_path, TOOL.replace('id = "TR01"', 'id = "T01"'), "b.toml")
    with pytest.raises(CardDataError) as info:
        load_pool([first, second])
    assert_names(info.value, second, "T01", "duplicate card id", str(first))


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path, "version = 2\n" + UNIT)
    assert_names(load_error(path), path, None, "unknown top-level key")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    assert_names(load_error(path), path, None, "file not found")


# ----------------------------------------------------------------------------- DeckError
BEGINNER = {"MD01": 3, "MD03": 2, "MD04": 2, "MD09": 2, "MD07": 1, "MR01": 2, "MR03": 2, "MR11": 1}
NORMAL = {
    "MD18": 3,
    "MD05": 3,
    "MD17": 2,
    "MD14": 2,
    "MD11": 2,
    "MD20": 2,
    "MD26": 2,
    "MD27": 2,
    "MD19": 2,
    "MR05": 2,
    "MR07": 2,
    "MR09": 2,
    "MR10": 2,
    "MR16": 2,
}


def deck_file(tmp_path: Path, cards: dict[str, int], mode: str) -> Path:
    lines = ['name = "Broken"', f'mode = "{mode}"', "", "[cards]"] + [f"{k} = {v}" for k, v in cards.items()]
    path = tmp_path / "broken_deck.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def deck_error(value: object, mode: str, **kw: str) -> DeckError:
    with pytest.raises(DeckError) as info:
        resolve_deck(value, load_pool(), make_config(mode), **kw)
    return info.value


def check_deck_error(tmp_path: Path, cards: dict[str, int], mode: str, card: str | None, *rule: str) -> None:
    cards = {k: v for k, v in cards.items() if v > 0}
    for form in ("dict", "file"):
        if form == "dict":
            err, deck = deck_error(dict(cards), mode, label="my_deck"), "my_deck"
        else:
            path = deck_file(tmp_path, cards, mode)
            err, deck = deck_error(str(path), mode), str(path)
        msg = str(err)
        assert err.deck == deck and f"deck {deck}" in msg, msg
        if card is not None:
            assert err.card == card and f"card {card}" in msg, msg
        for r in rule:
            assert r in msg, f"{r!r} not in {msg!r}"


def test_starter_shaped_decks_are_legal(tmp_path: Path) -> None:
    pool = load_pool()
    assert len(resolve_deck(dict(BEGINNER), pool, make_config("beginner")).expand()) == 15
    assert (
        len(resolve_deck(str(deck_file(tmp_path, NORMAL, "normal")), pool, make_config("normal")).expand())
        == 30
    )


def test_D42_unknown_card_id(tmp_path: Path) -> None:
    cards = dict(BEGINNER)
    cards["MR11"] -= 1
    cards["ZZ99"] = 1
    check_deck_error(tmp_path, cards, "beginner", "ZZ99", "unknown card id")


@pytest.mark.parametrize(
    ("mode", "base", "delta", "rule"),
    [
        ("beginner", BEGINNER, -1, "14 cards; a beginner deck has exactly 15"),
        ("beginner", BEGINNER, +1, "16 cards; a beginner deck has exactly 15"),
        ("normal", NORMAL, -2, "28 cards; a normal deck has exactly 30"),
        ("advance", NORMAL, -1, "29 cards; an advance deck has exactly 30"),
    ],
    ids=["beginner-short", "beginner-long", "normal-short", "advance-short"],
)
def test_D42_wrong_deck_size(tmp_path: Path, mode: str, base: dict[str, int], delta: int, rule: str) -> None:
    cards = dict(base)
    if delta > 0:
        cards["MR05"] = delta
    else:
        key = next(k for k, v in cards.items() if v >= 2)
        cards[key] += delta
    check_deck_error(tmp_path, cards, mode, None, rule, "D42")


def test_D42_four_copies(tmp_path: Path) -> None:
    cards = dict(BEGINNER)
    cards["MD01"] = 4
    cards["MR11"] -= 1
    check_deck_error(tmp_path, cards, "beginner", "MD01", "4 copies", "at most 3")


@pytest.mark.parametrize("mode", ["beginner", "normal"])
def test_D42_medachange_outside_advance(tmp_path: Path, mode: str) -> None:
    cards = dict(BEGINNER if mode == "beginner" else NORMAL)
    key = next(k for k, v in cards.items() if v >= 2 and k.startswith("MR"))
    cards[key] -= 1
    cards["MC01"] = 1
    check_deck_error(tmp_path, cards, mode, "MC01", "MedaChange cards are only legal in advance mode", mode)


def test_D42_no_medarot_card(tmp_path: Path) -> None:
    cards = {"MR01": 3, "MR02": 3, "MR03": 3, "MR04": 3, "MR05": 3}
    check_deck_error(tmp_path, cards, "beginner", None, "no Medarot card")


def test_D42_unknown_starter_deck_name() -> None:
    err = deck_error("no_such_deck", "normal")
    assert err.deck == "no_such_deck" and "deck no_such_deck" in str(err)
    assert "no starter deck of that name" in str(err)
    assert "normal_bulwark" in str(err)  # the known names are listed


def test_bad_count_in_deck_file(tmp_path: Path) -> None:
    path = deck_file(tmp_path, {"MD01": 0, **{k: v for k, v in BEGINNER.items() if k != "MD01"}}, "beginner")
    err = deck_error(str(path), "beginner")
    assert err.deck == str(path) and err.card == "MD01" and "positive integer" in str(err)

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


@pytest.mark.parametrize(
    ("text", "card", "rule"),
    [
        (
            UNIT.replace('arrows = ["F", "FR"]', 'arrows = ["F", "FR"]\ncolour = "red"'),
            "T01",
            "unknown field 'colour'",
        ),
        (
            UNIT.replace('target = "ATTACKED" }', 'target = "ATTACKED", bonus = 1 }'),
            "T01",
            "unknown effect field 'bonus'",
        ),
        (TOOL.replace("hp_mod = 1", "hp_mod = 1\nspeed = 3"), "TR01", "unknown field 'speed'"),
        (
            CHANGE.replace("power_form = true", "power_form = true\nhp_mod = 0"),
            "TC01",
            "unknown field 'hp_mod'",
        ),
    ],
    ids=["medarot", "effect", "medaroter", "medachange"],
)
def test_unknown_field(tmp_path: Path, text: str, card: str, rule: str) -> None:
    path = write(tmp_path, text)
    assert_names(load_error(path), path, card, rule)


@pytest.mark.parametrize(
    ("text", "card", "rule"),
    [
        (UNIT.replace("speed = 5", "speed = 11"), "T01", "'speed' = 11 is out of range 1..10"),
        (UNIT.replace("speed = 5", "speed = 0"), "T01", "'speed' = 0 is out of range 1..10"),
        (UNIT.replace("cost = 2", "cost = 6"), "T01", "'cost' = 6 is out of range 1..5"),
        (UNIT.replace("armor = 20", "armor = 100"), "T01", "'armor' = 100 is out of range 10..90"),
        (UNIT.replace("power = 30", "power = 35"), "T01", "multiple of 10"),
        (UNIT.replace('arrows = ["F", "FR"]', 'arrows = ["F", "UP"]'), "T01", "unknown direction"),
        (UNIT.replace('arrows = ["F", "FR"]', "arrows = []"), "T01", "non-empty list"),
        (UNIT.replace("speed = 5", 'speed = "fast"'), "T01", "'speed' must be int"),
        (UNIT.replace("amount = -1", "amount = -4"), "T01", "amount -4 out of range"),
        (TOOL.replace("hp_mod = 1", "hp_mod = 6"), "TR01", "'hp_mod' = 6 is out of range -5..5"),
        (TOOL.replace("cost = 1", "cost = 4"), "TR01", "'cost' = 4 is out of range 0..3"),
        (TOOL.replace("amount = 10", "amount = 15"), "TR01", "amount 15 out of range"),
        (CHANGE.replace("cost = 1", "cost = 7"), "TC01", "'cost' = 7 is out of range 0..5"),
    ],
    ids=[
        "speed-high",
        "speed-zero",
        "cost",
        "armor",
        "power-tens",
        "arrow-name",
        "no-arrows",
        "speed-type",
        "effect-amount",
        "hp_mod",
        "effect-cost",
        "mod-step",
        "medachange-cost",
    ],
)
def test_out_of_range_value(tmp_path: Path, text: str, card: str, rule: str) -> None:
    path = write(tmp_path, text + (UNIT if "MEDACHANGE" in text else ""))
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


@pytest.mark.parametrize(
    ("text", "card", "rule"),
    [
        (
            TOOL.replace(
                'op = "MOD_POWER", amount = 10, target = "ACTING"',
                'op = "DRAW", amount = 1, target = "ONE_ENEMY"',
            ),
            "TR01",
            "op DRAW cannot target ONE_ENEMY",
        ),
        (
            TOOL.replace(
                'timing = "ACTION", op = "MOD_POWER", amount = 10, target = "ACTING"',
                'timing = "DEFENCE", op = "NEGATE", target = "SELF"',
            ),
            "TR01",
            "op NEGATE cannot target SELF",
        ),
        (
            TOOL.replace(
                'op = "MOD_POWER", amount = 10, target = "ACTING"',
                'op = "TRAP", amount = 1, target = "OPPONENT"',
            ),
            "TR01",
            "op TRAP cannot target OPPONENT",
        ),
        (
            UNIT.replace(
                'op = "MOD_SPEED", amount = -1, target = "ATTACKED"',
                'op = "DOT", amount = 1, target = "OWNER"',
            ),
            "T01",
            "op DOT cannot target OWNER",
        ),
        (
            TOOL.replace('target = "ACTING"', 'target = "EVERYONE"'),
            "TR01",
            "'target' = 'EVERYONE' is not one of",
        ),
        (TOOL.replace('target = "ACTING"', 'target = "ATTACKED"'), "TR01", "does not exist at timing ACTION"),
    ],
    ids=["draw-enemy", "negate-self", "trap-opponent", "dot-owner", "unknown-target", "no-attack-yet"],
)
def test_bad_target_for_op(tmp_path: Path, text: str, card: str, rule: str) -> None:
    path = write(tmp_path, text)
    assert_names(load_error(path), path, card, rule)


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    path = write(tmp_path, UNIT + UNIT.replace('name = "Testbot"', 'name = "Otherbot"'))
    assert_names(load_error(path), path, "T01", "duplicate card id")


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    first = write(tmp_path, UNIT, "a.toml")
    second = write(tmp_path, TOOL.replace('id = "TR01"', 'id = "T01"'), "b.toml")
    with pytest.raises(CardDataError) as info:
        load_pool([first, second])
    assert_names(info.value, second, "T01", "duplicate card id", str(first))


@pytest.mark.parametrize(
    ("text", "card", "rule"),
    [
        (UNIT.replace('kind = "MEDAROT"', 'kind = "ROBOT"'), "T01", "field 'kind' = 'ROBOT'"),
        (UNIT.replace("speed = 5\n", ""), "T01", "missing required field 'speed'"),
        (CHANGE, "TC01", "names no Medarot of the pool"),
        (UNIT + UNIT.replace('id = "T01"', 'id = "T02"'), "T02", "duplicate MEDAROT name 'Testbot'"),
        (
            UNIT.replace('type = "SHOOTING"', 'type = "SPECIAL"')
            .replace("power = 30", "power = 0")
            .replace('timing = "ON_HIT"', 'timing = "ON_ACTIVATE"')
            .replace('target = "ATTACKED"', 'target = "SELF"')
            .replace("effect = {", "# {"),
            "T01",
            "SPECIAL unit needs an ON_ACTIVATE effect",
        ),
        (
            TOOL.replace(
                'op = "MOD_POWER", amount = 10, target = "ACTING"',
                'op = "NEGATE", amount = 1, target = "ATTACKED"',
            ),
            "TR01",
            "op NEGATE takes no amount",
        ),
    ],
    ids=["kind", "missing", "medachange-orphan", "duplicate-name", "special-without-effect", "extra-amount"],
)
def test_other_card_rules(tmp_path: Path, text: str, card: str, rule: str) -> None:
    path = write(tmp_path, text)
    assert_names(load_error(path), path, card, rule)


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

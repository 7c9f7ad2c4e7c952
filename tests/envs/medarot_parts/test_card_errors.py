"""Loud load-time errors of the card loader and deck validator (spec 4.2-4.4, D2, D3).

Each broken card file raises ``CardDataError`` naming the file, the card and the rule; each
illegal deck raises ``DeckError`` naming the deck, the card and the rule. Nothing is loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deckgym.envs.core.errors import CardDataError, DeckError
from deckgym.envs.medarot_parts.cards import CARDS_DIR, load_pool, resolve_deck
from deckgym.envs.medarot_parts.config import make_config

PART = """
[[card]]
id = "T1"
name = "Test Arm"
type = "PART"
slot = "RIGHT_ARM"
action = "SHOOT"
attribute = 0
armor = 3
charge = 1
power = 2
price = 500
"""


def write(tmp_path: Path, text: str, name: str = "cards.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("price = 500", "price = 500\ncolour = 1"), "unknown field 'colour'"),
        (("power = 2\n", ""), "a head or arm part needs a field 'power'"),
        (("armor = 3", "armor = 12"), "out of range 1..9"),
        (("attribute = 0", "attribute = 4"), "out of range 0..3"),
        (("price = 500", "price = 550"), "multiple of 100"),
        (('action = "SHOOT"', 'action = "DANCE"'), "is not one of"),
        (('slot = "RIGHT_ARM"', 'slot = "LEGS"'), "LEGS part has no field 'action'"),
        (('type = "PART"', 'type = "WIDGET"'), "field 'type'"),
        (("price = 500", "price = 500\neffect_part = true"), "only allowed on PUNCH or RECKLESS"),
        (
            (
                'action = "SHOOT"\nattribute = 0\narmor = 3\ncharge = 1\npower = 2',
                'action = "PROTECT"\nattribute = 0\narmor = 3\ncharge = 3\npower = 2',
            ),
            "power >= charge",
        ),
        (
            (
                "price = 500",
                'price = 500\nabilities = [{ source = "STATIC", op = "HEAL", amount = 1, target = "SELF" }]',
            ),
            "unknown op 'HEAL'",
        ),
        (
            (
                "price = 500",
                'price = 500\nabilities = [{ source = "STATIC", op = "POWER", amount = 5, target = "SELF" }]',
            ),
            "out of range",
        ),
        (
            (
                "price = 500",
                'price = 500\nabilities = [{ source = "STATIC", op = "POWER", amount = 1, target = "OPP_SLOT", slot = "HEAD" }]',
            ),
            "not allowed on this part",
        ),
        (
            (
                "price = 500",
                'price = 500\nabilities = [{ source = "ON_USE", op = "DRAW", amount = 1, target = "PLAYER" }]',
            ),
            "not allowed on this part",
        ),
        (
            (
                "price = 500",
                'price = 500\nabilities = [{ source = "ON_USE", op = "DAMAGE", amount = -1, target = "BATTLE" }]',
            ),
            "cannot have timing ON_USE",
        ),
    ],
)
def test_D38_bad_part_records_name_the_file_the_card_and_the_rule(tmp_path, change, message):
    old, new = change
    assert old in PART
    path = write(tmp_path, PART.replace(old, new, 1))
    with pytest.raises(CardDataError) as err:
        load_pool([path])
    assert message in str(err.value) and str(path) in str(err.value) and "T1" in str(err.value)


CARD = """
[[card]]
id = "C1"
name = "Test Card"
type = "MEDAROTER"
timing = "ACTION"
cost = 1
duration = "INSTANT"
effects = [{ op = "DRAW", amount = 1, target = "PLAYER" }]
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("cost = 1", "cost = 6"), "out of range 0..5"),
        (('timing = "ACTION"', 'timing = "SOMETIME"'), "is not one of"),
        (('effects = [{ op = "DRAW", amount = 1, target = "PLAYER" }]', "effects = []"), "1 or 2 effects"),
        (
            (
                '{ op = "DRAW", amount = 1, target = "PLAYER" }',
                '{ op = "DRAW", amount = 1, target = "PLAYER", extra = 1 }',
            ),
            "unknown effect field",
        ),
        (
            (
                '{ op = "DRAW", amount = 1, target = "PLAYER" }',
                '{ op = "POWER", amount = 1, target = "ATTACK_PART" }',
            ),
            "cannot target ATTACK_PART",
        ),
        (
            (
                '{ op = "DRAW", amount = 1, target = "PLAYER" }',
                '{ op = "POWER", amount = 1, target = "OPP_SLOT" }',
            ),
            "'slot' is required",
        ),
        (
            (
                '{ op = "DRAW", amount = 1, target = "PLAYER" }',
                '{ op = "POWER", amount = 1, target = "OWN_MEDAROT" }',
            ),
            "TURN or ATTACHED",
        ),
        (('timing = "ACTION"', 'timing = "DEFENSE"'), "cannot have timing DEFENSE"),
    ],
)
def test_D31_bad_medaroter_cards(tmp_path, change, message):
    old, new = change
    path = write(tmp_path, CARD.replace(old, new, 1))
    with pytest.raises(CardDataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_pool([path])


def test_duplicate_ids_and_bad_toml(tmp_path):
    with pytest.raises(CardDataError, match="duplicate card id"):
        load_pool([write(tmp_path, PART + PART.replace("Test Arm", "Other Arm"))])
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_pool([write(tmp_path, "[[card]\nid=")])
    with pytest.raises(CardDataError, match="unknown top-level"):
        load_pool([write(tmp_path, "cards = 1")])


DECK = """
name = "Test Deck"

[starter]
medarot1 = ["M0", "H02", "R02", "L01", "G02"]
medarot2 = ["M2", "H01", "R06", "L02", "G01"]

[cards]
EN_SHOOT = 20
EN_DEFENSE = 12
EV = 4
C01 = 4
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("EN_SHOOT = 20", "EN_SHOOT = 19"), "39 cards; a deck has exactly 40"),
        (("C01 = 4", "C01 = 5\nEN_DEFENSE_X = 0"), "count must be a positive integer"),
        (("EV = 4\nC01 = 4", "EV = 3\nC01 = 5"), "5 copies of 'Overdrive Chip'; at most 4"),
        (("C01 = 4", "C01 = 3\nNOPE = 1"), "unknown card id"),
        (("C01 = 4", "C01 = 3\nM1 = 1"), "medal cards cannot be in the deck"),
        (('"R02", "L01"', '"L01", "R02"'), "needs a RIGHT_ARM part"),
        (('["M0", "H02"', '["H02", "M0"'), "must be a medal"),
        (
            ('medarot2 = ["M2", "H01", "R06", "L02", "G01"]', 'medarot2 = ["M2", "H01", "R06", "L02"]'),
            "2 medarots of 5 card ids",
        ),
        (("[starter]", "colour = 1\n\n[starter]"), "unknown key 'colour'"),
        (("medarot2 = [", "medarot3 = []\nmedarot2 = ["), "unknown starter key 'medarot3'"),
        (('medarot1 = ["M0", "H02", "R02", "L01", "G02"]\n', ""), "missing required starter key 'medarot1'"),
    ],
)
def test_D2_bad_decks_name_the_deck_the_card_and_the_rule(tmp_path, change, message):
    old, new = change
    assert old in DECK
    path = write(tmp_path, DECK.replace(old, new, 1), "deck.toml")
    with pytest.raises(DeckError) as err:
        resolve_deck(str(path), load_pool(), make_config())
    assert message in str(err.value) and "deck.toml" in str(err.value)


def test_D3_starter_parts_cost_at_most_the_starting_assets(tmp_path):
    path = write(tmp_path, DECK, "deck.toml")
    resolve_deck(str(path), load_pool(), make_config())
    with pytest.raises(DeckError, match="more than 5000 G"):
        resolve_deck(str(path), load_pool(), make_config(start_assets=5000))


def test_packaged_pool_meets_the_section_4_4_requirements():
    pool = load_pool()
    cards = list(pool.cards.values())
    parts = [c for c in cards if c.type == "PART"]
    assert len(cards) >= 40 and len(parts) >= 24
    assert all(sum(1 for c in parts if c.slot == s) >= 5 for s in range(4))
    assert all(sum(1 for c in parts if c.action == a) >= 2 for a in range(7))
    assert sum(1 for c in parts if c.action == 4) >= 4 and sum(1 for c in parts if c.effect_part) >= 3
    assert {c.mobility for c in parts if c.slot == 3} >= set(range(2, 8))
    ward, bloom = pool.cards["H01"], pool.cards["R01"]
    assert (ward.name, ward.slot, ward.action, ward.charge, ward.power) == ("Glass Ward", 0, 4, 3, 4)
    assert bloom.name == "Rust Bloom" and bloom.abilities[0].describe() == "POWER -2 OPP_SLOT(RIGHT_ARM)"
    medals = [c for c in cards if c.type == "MEDAL"]
    assert sorted(c.attribute for c in medals) == [0, 1, 2, 3] and {c.efficient for c in medals} == {1, 2}
    assert sorted(c.kind for c in cards if c.type == "ENERGY") == [0, 1, 2, 3]
    meds = [c for c in cards if c.type == "MEDAROTER"]
    assert len(meds) >= 8 and {c.timing for c in meds} == {"ACTION", "POWER", "DEFENSE"}
    assert {c.duration for c in meds} == {0, 1, 2, 3}
    assert {a.op for c in meds for a in c.abilities} == {
        "POWER",
        "CHARGE",
        "DAMAGE",
        "REPAIR",
        "DRAW",
        "UNTAP_ENERGY",
        "NO_EVADE",
    }
    assert {c.type for c in cards} >= {"EVADE", "EFFECT"} and CARDS_DIR.exists()

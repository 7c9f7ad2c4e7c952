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

#: The effect of CARD, which the ways to break its effects below replace.
CARD_EFFECT = '{ op = "DRAW", amount = 1, target = "PLAYER" }'


def added(line: str) -> tuple[str, str]:
    """The change that adds ``line`` to PART."""
    return "price = 500", f"price = 500\n{line}"


def ability(source: str, op: str, amount: int, target: str, more: str = "") -> tuple[str, str]:
    """The change that gives PART one ability."""
    return added(
        f'abilities = [{{ source = "{source}", op = "{op}", amount = {amount}, target = "{target}"{more} }}]'
    )


def effect(op: str, amount: int, target: str, more: str = "") -> tuple[str, str]:
    """The change that gives CARD another effect."""
    return CARD_EFFECT, f'{{ op = "{op}", amount = {amount}, target = "{target}"{more} }}'


def for_a_chip(card: str) -> tuple[str, str]:
    """The change that puts one ``card`` in DECK in place of one of its C01 chips (40 cards still)."""
    return "C01 = 4", f"C01 = 3\n{card} = 1"


def _load_cards(path: Path) -> None:
    load_pool([path])


def _load_deck(path: Path) -> None:
    resolve_deck(str(path), load_pool(), make_config())


#: Each kind of file: its valid text, its file name, what reads it, the error it raises when broken and the
#: card the message names (a deck's message names the file alone).
FILES = {
    "part": (PART, "cards.toml", _load_cards, CardDataError, "T1"),
    "medaroter": (CARD, "cards.toml", _load_cards, CardDataError, "C1"),
    "deck": (DECK, "deck.toml", _load_deck, DeckError, None),
}

#: The ways to break each kind of file, by name: (the text replaced and its replacement, what the error says).
BROKEN: dict[str, dict[str, tuple[tuple[str, str], str]]] = {
    "part": {  # D38
        "unknown-field": (added("colour = 1"), "unknown field 'colour'"),
        "no-power": (("power = 2\n", ""), "a head or arm part needs a field 'power'"),
        "armor": (("armor = 3", "armor = 12"), "out of range 1..9"),
        "attribute": (("attribute = 0", "attribute = 4"), "out of range 0..3"),
        "price-hundreds": (("price = 500", "price = 550"), "multiple of 100"),
        "action": (('action = "SHOOT"', 'action = "DANCE"'), "is not one of"),
        "legs-action": (('slot = "RIGHT_ARM"', 'slot = "LEGS"'), "LEGS part has no field 'action'"),
        "type": (('type = "PART"', 'type = "WIDGET"'), "field 'type'"),
        "effect-part": (added("effect_part = true"), "only allowed on PUNCH or RECKLESS"),
        "protect-charge": (
            (
                'action = "SHOOT"\nattribute = 0\narmor = 3\ncharge = 1\npower = 2',
                'action = "PROTECT"\nattribute = 0\narmor = 3\ncharge = 3\npower = 2',
            ),
            "power >= charge",
        ),
        "ability-op": (ability("STATIC", "HEAL", 1, "SELF"), "unknown op 'HEAL'"),
        "ability-amount": (ability("STATIC", "POWER", 5, "SELF"), "out of range"),
        "ability-target": (
            ability("STATIC", "POWER", 1, "OPP_SLOT", ', slot = "HEAD"'),
            "not allowed on this part",
        ),
        "ability-op-on-use": (ability("ON_USE", "DRAW", 1, "PLAYER"), "not allowed on this part"),
        "ability-timing": (ability("ON_USE", "DAMAGE", -1, "BATTLE"), "cannot have timing ON_USE"),
    },
    "medaroter": {  # D31
        "cost": (("cost = 1", "cost = 6"), "out of range 0..5"),
        "timing": (('timing = "ACTION"', 'timing = "SOMETIME"'), "is not one of"),
        "no-effects": ((f"effects = [{CARD_EFFECT}]", "effects = []"), "1 or 2 effects"),
        "effect-field": (effect("DRAW", 1, "PLAYER", ", extra = 1"), "unknown effect field"),
        "attack-part": (effect("POWER", 1, "ATTACK_PART"), "cannot target ATTACK_PART"),
        "no-slot": (effect("POWER", 1, "OPP_SLOT"), "'slot' is required"),
        "instant-power": (effect("POWER", 1, "OWN_MEDAROT"), "TURN or ATTACHED"),
        "defense": (('timing = "ACTION"', 'timing = "DEFENSE"'), "cannot have timing DEFENSE"),
    },
    "deck": {  # D2
        "size": (("EN_SHOOT = 20", "EN_SHOOT = 19"), "39 cards; a deck has exactly 40"),
        "count": (("C01 = 4", "C01 = 5\nEN_DEFENSE_X = 0"), "count must be a positive integer"),
        "copies": (("EV = 4\nC01 = 4", "EV = 3\nC01 = 5"), "5 copies of 'Overdrive Chip'; at most 4"),
        "unknown-card": (for_a_chip("NOPE"), "unknown card id"),
        "medal": (for_a_chip("M1"), "medal cards cannot be in the deck"),
        "no-right-arm": (('"R02", "L01"', '"L01", "R02"'), "needs a RIGHT_ARM part"),
        "medal-first": (('["M0", "H02"', '["H02", "M0"'), "must be a medal"),
        "medarot-size": (
            ('medarot2 = ["M2", "H01", "R06", "L02", "G01"]', 'medarot2 = ["M2", "H01", "R06", "L02"]'),
            "2 medarots of 5 card ids",
        ),
        "unknown-key": (("[starter]", "colour = 1\n\n[starter]"), "unknown key 'colour'"),
        "unknown-starter-key": (
            ("medarot2 = [", "medarot3 = []\nmedarot2 = ["),
            "unknown starter key 'medarot3'",
        ),
        "missing-starter-key": (
            ('medarot1 = ["M0", "H02", "R02", "L01", "G02"]\n', ""),
            "missing required starter key 'medarot1'",
        ),
    },
}


@pytest.mark.parametrize(
    ("kind", "change", "message"),
    [(kind, *case) for kind, cases in BROKEN.items() for case in cases.values()],
    ids=[f"{kind}-{name}" for kind, cases in BROKEN.items() for name in cases],
)
def test_D2_D31_D38_a_broken_file_names_the_file_the_card_and_the_rule(tmp_path, kind, change, message):
    text, name, load, error, card = FILES[kind]
    old, new = change
    assert old in text
    path = write(tmp_path, text.replace(old, new, 1), name)
    with pytest.raises(error) as err:
        load(path)
    msg = str(err.value)
    assert message in msg and str(path) in msg and (card is None or card in msg), msg


def test_duplicate_ids_and_bad_toml(tmp_path):
    with pytest.raises(CardDataError, match="duplicate card id"):
        load_pool([write(tmp_path, PART + PART.replace("Test Arm", "Other Arm"))])
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_pool([write(tmp_path, "[[card]\nid=")])
    with pytest.raises(CardDataError, match="unknown top-level"):
        load_pool([write(tmp_path, "cards = 1")])


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

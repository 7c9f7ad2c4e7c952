"""The shared deck loader: the common keys plus a ruleset's own, with errors naming file and rule."""

from __future__ import annotations

import pytest

from envs.core.cards import Field, load_deck_file
from envs.core.errors import DeckError

EXTRA = {
    "leader": Field(str),
    "side": Field(dict, schema={"left": Field(list), "size": Field(int, lo=1, hi=3)}),
}


def _write(tmp_path, text: str) -> str:
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


GOOD = 'name = "t"\nleader = "L1"\n\n[side]\nleft = ["A"]\nsize = 2\n\n[cards]\nA = 2\nB = 1\n'


def test_extra_keys_and_tables_are_read_into_extra(tmp_path):
    deck = load_deck_file(_write(tmp_path, GOOD), EXTRA)
    assert deck.name == "t" and deck.cards == (("A", 2), ("B", 1)) and deck.expand() == ["A", "A", "B"]
    assert deck.extra == {"leader": "L1", "side": {"left": ["A"], "size": 2}}
    assert deck.source.endswith("deck.toml")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('leader = "L1"\n', ""), "missing required key 'leader'"),
        (('leader = "L1"', "leader = 1"), "key 'leader' must be str"),
        (("size = 2", "size = 4"), "side key 'size' = 4 is out of range 1..3"),
        (("size = 2", "size = 2\ncolour = 1"), "unknown side key 'colour' (allowed: left, size)"),
        (
            ('name = "t"', 'name = "t"\nmode = "x"'),
            "unknown key 'mode' (allowed: name, description, cards, leader, side)",
        ),
        (("B = 1", "B = 0"), "card B: count must be a positive integer"),
    ],
)
def test_bad_decks_name_the_file_and_the_rule(tmp_path, change, message):
    old, new = change
    with pytest.raises(DeckError) as err:
        load_deck_file(_write(tmp_path, GOOD.replace(old, new, 1)), EXTRA)
    assert message in str(err.value) and "deck.toml" in str(err.value)


def test_without_extra_schema_the_ruleset_keys_are_unknown(tmp_path):
    with pytest.raises(DeckError, match="unknown key 'leader'"):
        load_deck_file(_write(tmp_path, GOOD))

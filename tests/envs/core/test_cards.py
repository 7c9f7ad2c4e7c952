"""The shared deck loader: the common keys plus a ruleset's own, with errors naming file and rule."""

from __future__ import annotations

import pytest

from deckgym.envs.core.cards import Field, load_deck_file
from deckgym.envs.core.errors import DeckError

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


def test_read_toml_parses_a_file_once_hands_out_copies_and_sees_changes(tmp_path):
    from deckgym.envs.core import cards

    f = tmp_path / "deck.toml"
    f.write_text('name = "A"\n[cards]\nX = 2\n')
    first = cards.read_toml(f)
    first["cards"]["X"] = 99  # a caller changing its copy changes nobody else's
    assert cards.read_toml(f) == {"name": "A", "cards": {"X": 2}}
    parsed = len(cards._PARSED)
    cards.read_toml(f)
    assert len(cards._PARSED) == parsed  # served from the parsed copy
    f.write_text('name = "B"\n[cards]\nX = 3\n')  # same size, maybe the same mtime: new bytes
    assert cards.read_toml(f) == {"name": "B", "cards": {"X": 3}}
    f.write_text("name = [broken\n")
    with pytest.raises(cards.CardDataError, match="not valid TOML"):
        cards.read_toml(f)


def test_a_deck_file_is_checked_once_per_content_and_each_caller_gets_its_own_extra(tmp_path):
    from deckgym.envs.core import cards

    path = _write(tmp_path, 'name = "A"\nleader = "L1"\n[side]\nleft = ["x"]\nsize = 2\n[cards]\nX = 2\n')
    a = load_deck_file(path, EXTRA)
    a.extra["side"]["left"].append("mutated")  # a caller changing its deck's extra
    b = load_deck_file(path, EXTRA)
    assert b.extra["side"]["left"] == ["x"] and b.cards == (("X", 2),) and b.source == path
    assert any(k[0] == path for k in cards._DECKS)
    _write(tmp_path, 'name = "A"\nleader = "L1"\n[side]\nleft = ["x"]\nsize = 2\n[cards]\nX = 3\n')
    assert load_deck_file(path, EXTRA).cards == (("X", 3),)  # new bytes: read and checked again
    _write(tmp_path, 'name = "A"\nleader = "L1"\n[side]\nleft = ["x"]\nsize = 9\n[cards]\nX = 3\n')
    with pytest.raises(DeckError, match="size"):
        load_deck_file(path, EXTRA)

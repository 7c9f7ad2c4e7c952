"""The helpers every ruleset's glue modules share: action text, table-seat options, pool and deck reading."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

import pytest

from deckgym.envs.core.cards import PoolBuilder, deck_path, packaged_decks
from deckgym.envs.core.errors import CardDataError, DeckError, StateError
from deckgym.envs.core.options import check_table_seat
from deckgym.envs.core.protocol import action_text


class _Kind(enum.IntEnum):
    PASS = 0
    MOVE = 1
    HAND = 2


def test_action_text_writes_bare_named_and_numbered_arguments() -> None:
    names = {_Kind.MOVE: ("N", "E")}
    assert action_text(_Kind, 0, 0, (_Kind.PASS,), names) == "PASS"
    assert action_text(_Kind, 1, 1, (_Kind.PASS,), names) == "MOVE(E)"
    assert action_text(_Kind, 1, 2, (_Kind.PASS,), names) == "MOVE(2)"  # past the names: the number
    assert action_text(_Kind, 2, 7, (_Kind.PASS,), names) == "HAND(7)"
    assert action_text(_Kind, 9, 3) == "Action(kind=9, arg=3)"


@pytest.mark.parametrize(
    "values",
    [{}, {"vacant_seat": True}, {"vacant_seat": True, "proxy": 1}, {"vacant_seat": True, "proxy": 2}],
)
def test_check_table_seat_accepts_the_allowed_options(values: dict[str, object]) -> None:
    check_table_seat(values)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"vacant_seat": 1}, "vacant_seat must be True or False, got 1"),
        ({"vacant_seat": True, "proxy": 3}, r"proxy must be 0 \(none\), 1 \(guest\) or 2 \(base\), got 3"),
        ({"vacant_seat": True, "proxy": True}, "proxy must be 0 .* got True"),
        ({"proxy": 1}, "proxy needs vacant_seat=True"),
    ],
)
def test_check_table_seat_names_the_bad_option(values: dict[str, object], message: str) -> None:
    with pytest.raises(StateError, match=message):
        check_table_seat(values)


@dataclass
class _Card:
    id: str
    name: str
    kind: str = "UNIT"


def test_pool_builder_refuses_a_repeated_id_naming_the_first_file() -> None:
    pool = PoolBuilder[_Card]()
    pool.add("a.toml", _Card("C1", "Alpha"))
    with pytest.raises(CardDataError, match=r"duplicate card id \(first defined in a.toml\)"):
        pool.add("b.toml", _Card("C1", "Beta"))
    assert [c.id for c in pool.cards] == ["C1"] and pool.file_of == {"C1": "a.toml"}


def test_pool_builder_keeps_names_unique_in_the_pool_or_per_kind() -> None:
    whole = PoolBuilder[_Card]()
    whole.add("a.toml", _Card("C1", "Alpha"))
    with pytest.raises(CardDataError, match=r"duplicate card name 'Alpha' \(also C1\)"):
        whole.add("a.toml", _Card("C2", "Alpha", "PART"))
    per_kind = PoolBuilder[_Card](kind_of=lambda c: c.kind)
    per_kind.add("a.toml", _Card("C1", "Alpha"))
    per_kind.add("a.toml", _Card("C2", "Alpha", "PART"))  # another kind may share the name
    with pytest.raises(CardDataError, match=r"duplicate UNIT name 'Alpha' \(also C1\)"):
        per_kind.add("a.toml", _Card("C3", "Alpha"))
    assert [c.id for c in per_kind.cards] == ["C1", "C2"]


def test_deck_path_reads_names_and_paths(tmp_path: Path) -> None:
    (tmp_path / "beta.toml").write_text("")
    (tmp_path / "alpha.toml").write_text("")
    assert packaged_decks(tmp_path) == ["alpha", "beta"]
    assert deck_path("alpha", tmp_path) == tmp_path / "alpha.toml"
    assert deck_path("elsewhere/mine.toml", tmp_path) == Path("elsewhere/mine.toml")
    with pytest.raises(DeckError, match=r"no deck of that name \(known: alpha, beta\)"):
        deck_path("gamma", tmp_path, "deck")

"""The declared state (``envs.core.declare``): copies, JSON and loading come from the declaration.

* A toy declaration with every supported type: the generated copy is independent, the JSON
  form round-trips, and each kind of bad value is refused with the field's place.
* Every ruleset: a clone shares no mutable object with its original except the set-up and
  ``Frozen`` values, and equals it; ``from_dict`` of a state dict changed anywhere into any
  JSON value gives a state that passes the rules check and round-trips, or raises one
  ``StateError`` naming the field, never another exception; a dict that names renamed
  fields by their former names (``t``, ``dp``...) loads into the same state.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from deckgym import envs
from deckgym.envs.core.declare import (
    DictOf,
    Frozen,
    ListOf,
    Optional,
    Record,
    RecordNode,
    Row,
    codec_field,
    plan_of,
    seats,
)
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.state import EngineState
from tests.envs.positions import random_positions


class Colour(enum.IntEnum):
    RED = 0
    BLUE = 1


@dataclass
class Leaf(Record):
    name: str
    tags: list[str] = dataclasses.field(default_factory=list)


class _Doubled:
    """A codec whose form depends on the owner: the value is stored times ``owner.scale``."""

    def copy(self, value: Any, src: Any, dst: Any) -> Any:
        return list(value)

    def dump(self, value: Any, owner: Any) -> Any:
        return [x * owner.scale for x in value]

    def load(self, data: Any, owner: Any) -> Any:
        return [x // owner.scale for x in data]


@dataclass
class Toy(Record):
    JSON_FORM = "dict"

    count: int
    scale: int = 2
    ratio: float = 0.5
    colour: Colour = Colour.RED
    label: str | None = None
    leaves: list[list[Leaf]] = seats([])
    best: Leaf | None = None
    point: tuple[int, int, tuple[int, ...]] | None = None
    counters: dict[str, int] = dataclasses.field(default_factory=dict)
    row: Row = dataclasses.field(default_factory=list)
    blob: Any = None
    task: Frozen = None
    scaled: list[int] = codec_field(_Doubled(), default=())


def toy() -> Toy:
    return Toy(
        count=3,
        colour=Colour.BLUE,
        label="x",
        leaves=[[Leaf("a", ["t"])], []],
        best=Leaf("b"),
        point=(1, 2, (3, 4)),
        counters={"k": 1},
        row=["H01", True, 3],
        blob={"deep": [1, [2]]},
        task=["go", 1],
        scaled=[1, 2],
    )


def test_toy_copy_is_independent_except_frozen_values() -> None:
    t = toy()
    c = t.copy()
    assert c == t and c is not t
    assert c.leaves[0][0] is not t.leaves[0][0] and c.leaves[0][0].tags is not t.leaves[0][0].tags
    assert c.best is not t.best and c.row is not t.row and c.counters is not t.counters
    assert c.blob is not t.blob and c.blob["deep"][1] is not t.blob["deep"][1]
    assert c.task is t.task  # Frozen: never changed in place, so shared
    assert c.point is t.point  # a tuple of numbers is immutable
    c.leaves[0][0].tags.append("u")
    c.blob["deep"][1].append(5)
    assert t.leaves[0][0].tags == ["t"] and t.blob["deep"][1] == [2]


def test_toy_json_round_trip() -> None:
    t = toy()
    data = t.to_dict()
    assert data["colour"] == 1 and data["point"] == [1, 2, [3, 4]] and data["scaled"] == [2, 4]
    assert data["leaves"] == [[["a", ["t"]]], []]
    back = Toy.from_dict(json.loads(json.dumps(data)))
    assert back == t and back.colour is Colour.BLUE and back.point == (1, 2, (3, 4))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"count": "3"}, r"^Toy\.count: expected an integer, got '3'$"),
        ({"count": True}, r"^Toy\.count: expected an integer, got True$"),
        ({"ratio": "half"}, r"^Toy\.ratio: expected a number, got 'half'$"),
        ({"colour": 7}, r"^Toy\.colour: 7 is not a Colour \(allowed: 0, 1\)$"),
        ({"label": 5}, r"^Toy\.label: expected a string or null, got 5$"),
        ({"leaves": [[["a"]], []]}, r"^Toy\.leaves\[0\]\[0\]: expected a Leaf list of 2 \(name, tags\)"),
        (
            {"leaves": [[], [], []]},
            r"^Toy\.leaves: expected a list of 2 \(one per seat\), got \[\[\], \[\], \[\]\]$",
        ),
        ({"leaves": [[["a", [1]]], []]}, r"^Toy\.leaves\[0\]\[0\]\.tags\[0\]: expected a string, got 1$"),
        ({"point": [1, 2]}, r"^Toy\.point: expected a list of 3"),
        ({"counters": {"k": "one"}}, r"^Toy\.counters\['k'\]: expected an integer"),
        (
            {"row": [[1]]},
            r"^Toy\.row\[0\]: expected null or true or false or an integer or a number or a string",
        ),
        ({"extra": 1}, r"^Toy\.extra: unknown field; Toy has count, scale"),
    ],
)
def test_toy_load_names_the_field(change: dict[str, Any], message: str) -> None:
    data = {**toy().to_dict(), **change}
    with pytest.raises(StateError, match=message):
        Toy.from_dict(data)


def test_toy_missing_field_is_named() -> None:
    data = toy().to_dict()
    del data["label"]
    with pytest.raises(StateError, match=r"^Toy\.label: missing$"):
        Toy.from_dict(data)


def test_generated_copy_source_lists_every_field_once() -> None:
    src = plan_of(Toy).copy.__doc__
    assert src is not None
    for f in dataclasses.fields(Toy):
        assert src.count(f"s.{f.name} = ") == 1, f.name


# ----------------------------------------------------------------------------- every ruleset
#: One option set per ruleset (AMALOGS with every core game at the table).
RULESETS = [
    ("medarot_ocg_v1", {"mode": "advance"}),
    ("medarot_parts_v1", {}),
    ("mow_v1", {}),
    ("amalogs_v2", {"team_sizes": (2, 2)}),
]
IDS = [n for n, _ in RULESETS]


@cache
def positions(name: str) -> tuple[dict[str, Any], ...]:
    """State dicts along two random games (every 7th decision)."""
    kwargs = dict(RULESETS[IDS.index(name)][1])
    env = envs.make(name, illegal_action="raise", **kwargs)
    return tuple(e.unwrapped.game.to_dict() for e in random_positions(env, 2, seed0=11, every=7))


def state_class(name: str) -> type[EngineState]:
    env = envs.make(name, **dict(RULESETS[IDS.index(name)][1]))
    env.reset(seed=0)
    return type(env.unwrapped.game)


def shared_mutables(a: Any, b: Any, node: Any, path: str, out: list[str]) -> None:
    """Paths at which ``a`` and ``b`` (of declared type ``node``) hold the same mutable object.

    Values of an immutable type (numbers, strings, tuples of them, ``Frozen``) may be shared.
    """
    if node is None or node.immutable or a is None:
        return
    if a is b:
        if isinstance(a, (list, dict)) or dataclasses.is_dataclass(a):
            out.append(path)
        return
    if isinstance(node, ListOf):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            shared_mutables(x, y, node.item, f"{path}[{i}]", out)
    elif isinstance(node, DictOf):
        for k in a:
            shared_mutables(a[k], b[k], node.item, f"{path}[{k!r}]", out)
    elif isinstance(node, Optional):
        shared_mutables(a, b, node.item, path, out)
    elif isinstance(node, RecordNode):
        declared(a, b, path, out)


def declared(a: Any, b: Any, path: str, out: list[str]) -> None:
    """``shared_mutables`` over the played fields of a declared object."""
    plan = plan_of(type(a))
    for f in plan.fields:
        shared_mutables(
            getattr(a, f.name), getattr(b, f.name), plan.nodes.get(f.name), f"{path}.{f.name}", out
        )


@pytest.mark.parametrize("name", IDS)
def test_clone_shares_nothing_mutable_but_the_set_up(name: str) -> None:
    cls = state_class(name)
    for data in positions(name)[::3]:
        st = cls.from_dict(data)
        c = st.clone()
        assert c == st and c.to_dict() == data
        found: list[str] = []
        declared(st, c, "state", found)
        assert not found, f"{name}: the clone shares {found[:5]}"


#: The former names of renamed state fields (new name -> old name), by the ``ruleset`` of a dict.
FORMER = {
    "medarot_ocg": {"decision_point": "dp"},
    "medarot_parts": {"action_medarot": "am", "odd_turn_priority": "prio1", "decision_point": "dp"},
    "mow": {"turn": "t", "decision_point": "dp"},
    "amalogs": {},
}


def with_former_names(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as an older version wrote it: renamed fields under their former names (tables too)."""
    names = FORMER[data["ruleset"]]
    old = {names.get(k, k): v for k, v in data.items()}
    if isinstance(old.get("table"), dict):
        old["table"] = with_former_names(old["table"])
    return old


@pytest.mark.parametrize("name", IDS)
def test_dicts_with_the_former_field_names_load_into_the_same_state(name: str) -> None:
    cls = state_class(name)
    was = {f.name: f.metadata["was"] for f in plan_of(cls).fields if "was" in f.metadata}
    assert was == FORMER[cls.RULESET]
    changed = 0
    for data in positions(name):
        old = with_former_names(data)
        changed += old != data
        st = cls.from_dict(old)
        assert st == cls.from_dict(data) and st.to_dict() == data
    assert changed >= len(positions(name)) // 2, "too few positions hold a renamed field"
    if name != "amalogs_v2":
        # a finished game's decision point is null, the declared default, under either name
        done = cls.from_dict(positions(name)[-1])
        done.decision_point, done.done = None, True
        data = done.to_dict()
        assert data["decision_point"] is None
        assert cls.from_dict(with_former_names(data)).to_dict() == data


# JSON values for hypothesis: what a broken or hand-edited state file may hold.
JSON = hs.recursive(
    hs.none() | hs.booleans() | hs.integers(-3, 60) | hs.sampled_from(["", "x", "H01", "PASS"]),
    lambda inner: (
        hs.lists(inner, max_size=4) | hs.dictionaries(hs.sampled_from(["a", "card", "0"]), inner, max_size=3)
    ),
    max_leaves=8,
)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON tree (the paths of its lists' items and dicts' values)."""
    out = [path]
    if isinstance(value, list):
        for i, x in enumerate(value):
            out += _places(x, (*path, i))
    elif isinstance(value, dict):
        for k, x in value.items():
            out += _places(x, (*path, k))
    return out


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    tree[path[0]] = _set(tree[path[0]], path[1:], value)
    return tree


@pytest.mark.parametrize("name", IDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data())
def test_from_dict_of_any_json_is_a_checked_state_or_one_state_error(name: str, data: Any) -> None:
    cls = state_class(name)
    pool = positions(name)
    base = json.loads(json.dumps(pool[data.draw(hs.integers(0, len(pool) - 1))]))
    fields = sorted(k for k in base if k not in ("pool",))  # the pool spec names card files
    key = data.draw(hs.sampled_from(fields))
    places = _places(base[key], (key,))
    where = data.draw(hs.sampled_from(places))
    how = data.draw(hs.sampled_from(["replace", "delete"]))
    if how == "delete" and len(where) > 0:
        parent = base
        for k in where[:-1]:
            parent = parent[k]
        del parent[where[-1]]
    else:
        base = _set(base, where, data.draw(JSON))
    try:
        st = cls.from_dict(base, strict=True)
    except StateError as exc:
        assert str(exc)  # one error, with a message
        return
    again = cls.from_dict(st.to_dict(), strict=True)
    assert again == st


def test_random_json_documents_are_refused_with_a_state_error() -> None:
    rng = random.Random(5)
    for name in IDS:
        cls = state_class(name)
        for value in [None, 3, "state", [], {"ruleset": cls.RULESET}, {"ruleset": cls.RULESET, "config": {}}]:
            with pytest.raises(StateError):
                cls.from_dict(value)
        data = dict(positions(name)[0])
        optional = {f.name for f in dataclasses.fields(cls) if f.metadata.get("optional")}
        data.pop(rng.choice(sorted(set(data) - optional)))
        with pytest.raises(StateError, match="missing"):
            cls.from_dict(data)


@pytest.mark.parametrize("word", [-1, 2**32])
def test_a_generator_word_out_of_range_is_a_state_error(word: int) -> None:
    """A word of the generator's state outside 0..2**32 - 1 is refused with a StateError naming the rng."""
    for name in IDS:
        cls = state_class(name)
        data = json.loads(json.dumps(positions(name)[0]))
        data["rng"][1][0] = word
        with pytest.raises(StateError, match="rng"):
            cls.from_dict(data)


@pytest.mark.parametrize("value", [[], [1, "a", None], {"k": 2.5}, set(), {3}, [[1, 2]], [{"x": [1]}]])
def test_a_seats_default_gives_each_seat_and_each_state_its_own_copy(value):
    factory = seats(value, 3).default_factory
    one, two = factory(), factory()
    assert one == two == [value] * 3
    assert len({id(x) for x in one + two}) == 6  # six distinct containers
    nested = [
        x for x in (value.values() if isinstance(value, dict) else value) if isinstance(x, (list, dict))
    ]
    if nested:  # mutable items are copied too (a deep copy)
        inner = one[0][0] if isinstance(value, list) else next(iter(one[0].values()))
        assert inner is not nested[0] and inner == nested[0]
    if isinstance(one[0], list):  # changing one seat's copy changes neither the others nor later defaults
        one[0].append("changed")
    elif isinstance(one[0], dict):
        one[0]["changed"] = 1
    else:
        one[0].add("changed")
    assert one[1] == value and factory() == [value] * 3

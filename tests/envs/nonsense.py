"""Type-correct nonsense for the robustness tests of the rules checks (``rules.check``).

Two generators, each used by the checks of two rulesets:

* ``mutant(data, state, templates, words, opaque)`` replaces one to three attributes of a copy
  of ``state`` with values of the same Python types and arbitrary contents: a whole new value
  shaped like the old one (or like a template, for an attribute that is ``None`` or empty in the
  state), or the old value with one part deep inside replaced (an element of a list, a field of a
  monster or an avatar, one argument of an agenda task, ...); now and then that part is a JSON
  value of another type, as a state read from JSON may hold. Integers are small or huge, negative or not;
  strings are card ids, task names and other words of ``words``, or random text; lists change
  length. What is not plain data (a random generator, a core game's table) is kept, or swapped for
  ``None`` or another object of ``words``' opaque pool.
* ``scramble(state, bank, draw)`` clones ``state`` and replaces a few of its attributes with values
  of the same types but arbitrary contents: numbers out of range, lists of the wrong length, card
  ids that are not in the pool or sit in the wrong zone, records with scrambled fields, agenda
  tasks with unknown names, or the value the same attribute has in another position of ``bank``
  (a decision point, an action record or a battle from another game). ``draw`` is the source of
  every choice (hypothesis's ``data.draw`` in the tests), so a failing example shrinks and replays.

  A rules check must either accept the result or raise ``StateError``: the result is what
  ``GameState.from_dict`` builds from any JSON whose values have the right types.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as hs
from hypothesis import strategies as st

INTS = st.one_of(
    st.integers(-3, 45),
    st.sampled_from([-2, -1, 0, 1, 2, 3, 5, 9, 12, 20, 21, 36, 40, 41, 76, 77, 100, 101, 500, 501]),
    st.integers(-(2**62), 2**62),
)
#: Containers are rebuilt at most this deep.
DEPTH = 5


def any_json(words: list[str]) -> st.SearchStrategy[Any]:
    """A JSON value of any type (a part of the wrong type, as a state read from JSON may hold)."""
    leaves = st.one_of(st.none(), st.booleans(), INTS, st.sampled_from(words))
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, str, list, tuple, dict))


def similar(value: Any, words: list[str], opaque: list[Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values of the same Python type as ``value`` (containers: of similar elements), any contents."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return INTS
    if isinstance(value, str):
        return st.one_of(st.sampled_from(words), st.text(max_size=6))
    if value is None:
        return st.none()
    if _opaque(value, opaque):
        return st.sampled_from([value, None, *opaque])
    if depth >= DEPTH:
        return st.just(copy.deepcopy(value)) if _plain(value) else st.just(value)
    if isinstance(value, (list, tuple)):
        parts = [similar(x, words, opaque, depth + 1) for x in value[:10]]
        same = st.tuples(*parts) if parts else st.just(())
        any_len = st.lists(st.one_of(*parts[:4]) if parts else INTS, max_size=len(value) + 3)
        out = st.one_of(same.map(list), any_len)
        return out.map(tuple) if isinstance(value, tuple) else out
    if isinstance(value, dict):
        items = list(value.items())[:3]
        keys = (
            st.one_of(*(similar(k, words, opaque, depth + 1) for k, _ in items))
            if items
            else st.sampled_from(words)
        )
        vals = st.one_of(*(similar(v, words, opaque, depth + 1) for _, v in items)) if items else INTS
        return st.dictionaries(keys, vals, max_size=4)
    slots = _fields(value)
    if slots is not None:
        fields = {k: similar(getattr(value, k), words, opaque, depth + 1) for k in slots}
        return st.fixed_dictionaries(fields).map(lambda kw: _with(value, kw))
    return st.sampled_from([value, None, *opaque])


def _opaque(value: Any, opaque: list[Any]) -> bool:
    """Whether ``value`` is kept whole: an object of a type of the ``opaque`` pool (a core side or table)."""
    return any(type(value) is type(o) for o in opaque)


def _fields(value: Any) -> tuple[str, ...] | None:
    """The data fields of a record (``__slots__``, or a dataclass's fields), or None."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(f.name for f in dataclasses.fields(value))
    slots = getattr(type(value), "__slots__", None)
    return tuple(slots) if slots else None


def _with(value: Any, changes: dict[str, Any]) -> Any:
    """A copy of the record ``value`` with ``changes``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **changes)
    out = copy.copy(value)
    for k, v in changes.items():
        object.__setattr__(out, k, v)
    return out


def tweak(data: Any, value: Any, words: list[str], opaque: list[Any], depth: int = 0) -> Any:
    """``value`` with one part, possibly deep inside, replaced by nonsense of its type."""
    if isinstance(value, (list, tuple)) and value and depth < DEPTH and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        out = list(value)
        out[i] = tweak(data, value[i], words, opaque, depth + 1)
        return tuple(out) if isinstance(value, tuple) else out
    if isinstance(value, dict) and value and depth < DEPTH and data.draw(st.booleans()):
        k = data.draw(st.sampled_from(sorted(value, key=repr)))
        return {**value, k: tweak(data, value[k], words, opaque, depth + 1)}
    slots = None if _opaque(value, opaque) else _fields(value)
    if slots and depth < DEPTH and data.draw(st.booleans()):
        k = data.draw(st.sampled_from(slots))
        return _with(value, {k: tweak(data, getattr(value, k), words, opaque, depth + 1)})
    if data.draw(st.integers(0, 7)) == 0:
        return data.draw(any_json(words))
    return data.draw(similar(value, words, opaque, depth))


def mutant(
    data: Any, state: Any, templates: dict[str, list[Any]], words: list[str], opaque: list[Any]
) -> Any:
    """A copy of ``state`` with 1-3 of the attributes named in ``templates`` turned into nonsense.

    ``templates[name]`` lists example values of that attribute (used when the state's own value
    is ``None`` or empty, or by chance): each new value is shaped like the state's value or one
    of them.
    """
    s = copy.copy(state)  # a shallow copy: every change below builds new values
    for name in data.draw(st.lists(st.sampled_from(sorted(templates)), min_size=1, max_size=3, unique=True)):
        old = getattr(s, name)
        shapes = [old, *templates[name]]
        shape = data.draw(st.sampled_from(shapes))
        if data.draw(st.booleans()):
            new = tweak(data, shape, words, opaque)
        else:
            new = data.draw(similar(shape, words, opaque))
        setattr(s, name, new)
    s._legal = None
    return s


#: What ``leaf_swaps`` puts in place of each part: every JSON type, out-of-range and unknown values.
NONSENSE: tuple[Any, ...] = (None, True, -1, 10**12, "", "NOPE", [], [["NOPE", -1]], (7,), {"NOPE": -1})


def paths(value: Any, opaque: list[Any], per_list: int = 3, depth: int = 0) -> list[tuple[Any, ...]]:
    """Paths to the parts of ``value`` (itself first): list indices (the first ``per_list`` and the
    last), dict keys, record fields; down to ``DEPTH``."""
    out: list[tuple[Any, ...]] = [()]
    if depth >= DEPTH:
        return out
    if isinstance(value, (list, tuple)):
        keys: list[Any] = sorted({*range(min(per_list, len(value))), len(value) - 1} - {-1})
        children = [(k, value[k]) for k in keys]
    elif isinstance(value, dict):
        children = [(k, value[k]) for k in sorted(value, key=repr)[:per_list]]
    elif not _opaque(value, opaque) and (slots := _fields(value)) is not None:
        children = [(k, getattr(value, k)) for k in slots]
    else:
        children = []
    for k, child in children:
        out += [(k, *rest) for rest in paths(child, opaque, per_list, depth + 1)]
    return out


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """``value`` with the part at ``path`` replaced by ``new`` (containers and records copied)."""
    if not path:
        return new
    k, rest = path[0], path[1:]
    if isinstance(value, (list, tuple)):
        out = list(value)
        out[k] = replaced(value[k], rest, new)
        return tuple(out) if isinstance(value, tuple) else out
    if isinstance(value, dict):
        return {**value, k: replaced(value[k], rest, new)}
    return _with(value, {k: replaced(getattr(value, k), rest, new)})


def leaf_swaps(state: Any, names: list[str], opaque: list[Any], values: tuple[Any, ...] = NONSENSE) -> Any:
    """Copies of ``state``, each with one part of one attribute of ``names`` replaced by one of ``values``.

    Objects of the types of ``opaque`` are parts, not records to go into.
    """
    for name in names:
        old = getattr(state, name)
        for path in paths(old, opaque):
            for v in values:
                s = copy.copy(state)
                setattr(s, name, replaced(old, path, v))
                s._legal = None
                yield name, path, v, s


# ----------------------------------------------------------------------------- scramble
#: Numbers a scrambled int takes: boundaries of the usual ranges, and a few far outside them.
NUMBERS = (-1000, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 14, 15, 16, 17, 30, 40, 50, 1000)
#: Words a scrambled string takes besides the pool's card ids.
WORDS = (
    "",
    "NOPE",
    "select",
    "start_phase",
    "payment",
    "battle_end",
    "MOD_POWER",
    "POWER",
    "ANY",
    "END_OF_TURN",
)

Draw = Callable[[hs.SearchStrategy[Any]], Any]


class Scrambler:
    """Turns values into others of the same type, drawing every choice from ``draw``."""

    def __init__(self, draw: Draw, words: Sequence[str], bank: Sequence[Any]) -> None:
        self.draw = draw
        self.words = tuple(words) + WORDS
        self.bank = bank

    def number(self, v: int) -> int:
        return int(self.draw(hs.sampled_from(NUMBERS) | hs.integers(v - 3, v + 3)))

    def word(self) -> str:
        return str(self.draw(hs.sampled_from(self.words)))

    def value(self, v: Any, depth: int = 0) -> Any:
        """A value of the type of ``v`` with arbitrary contents (``v`` itself is not changed)."""
        if isinstance(v, bool):
            return not v
        if isinstance(v, int):
            return self.number(v)
        if isinstance(v, str):
            return self.word()
        if isinstance(v, tuple):
            return tuple(self.sequence(list(v), depth))
        if isinstance(v, list):
            return self.sequence(list(v), depth)
        if v is None or depth > 4:
            return v
        return self.record(v, depth)

    def sequence(self, items: list[Any], depth: int) -> list[Any]:
        """Drop, copy, swap or scramble entries of a list (a copy)."""
        how = self.draw(hs.sampled_from(("change", "change", "drop", "grow", "swap", "empty")))
        if how == "empty":
            return []
        if not items:
            return [self.number(0)] if how == "grow" else items
        i = self.draw(hs.integers(0, len(items) - 1))
        if how == "drop":
            del items[i]
        elif how == "grow":
            items.insert(self.draw(hs.integers(0, len(items))), copy.deepcopy(items[i]))
        elif how == "swap":
            j = self.draw(hs.integers(0, len(items) - 1))
            items[i], items[j] = items[j], items[i]
        elif items[i] is None:
            others = [x for x in items if x is not None]
            if others:
                items[i] = copy.deepcopy(self.draw(hs.sampled_from(others)))
        else:
            items[i] = self.value(items[i], depth + 1)
        return items

    def record(self, v: Any, depth: int) -> Any:
        """A copy of a declared record (a dataclass) with one field scrambled."""
        slots = [f.name for f in dataclasses.fields(v)] if dataclasses.is_dataclass(v) else []
        if not slots:
            return v
        out = copy.deepcopy(v)
        key = self.draw(hs.sampled_from(slots))
        old = getattr(out, key)
        if old is None:
            new = self.filled(type(v).__name__, key)
        else:
            new = self.value(old, depth + 1)
        setattr(out, key, new)
        return out

    def filled(self, owner: str, key: str) -> Any:
        """A value for a field that holds None: a card id, or a list of numbers (effect targets)."""
        if key == "targets":
            return [self.number(1) for _ in range(self.draw(hs.integers(0, 3)))]
        return self.word()


def scramble(
    state: Any, attributes: Sequence[str], bank: Sequence[Any], words: Sequence[str], draw: Draw
) -> Any:
    """A clone of ``state`` with 1 to 3 of ``attributes`` scrambled (or taken from a position of ``bank``)."""
    s = state.clone()
    s._legal = None
    sc = Scrambler(draw, words, bank)
    for _ in range(draw(hs.integers(1, 3))):
        key = draw(hs.sampled_from(list(attributes)))
        old = getattr(s, key)
        if draw(hs.booleans()) and bank:
            other = draw(hs.sampled_from(list(bank)))
            new = copy.deepcopy(getattr(other, key))
        elif old is None:
            donors = [getattr(b, key) for b in bank if getattr(b, key) is not None]
            new = copy.deepcopy(draw(hs.sampled_from(donors))) if donors else None
        else:
            new = sc.value(copy.deepcopy(old))
        setattr(s, key, new)
    return s

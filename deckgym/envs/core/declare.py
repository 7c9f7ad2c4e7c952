"""Declared state: one class declaration drives cloning, JSON and equality.

Each ruleset declares its game state, and every record inside it (a unit, a part, a lasting
effect, a battle), as a dataclass whose annotated fields, in order, with their defaults, are
the whole description of that state. From the field types this module builds, once per
class:

* ``copy``: an independent copy. The code is generated from the types (as ``dataclasses``
  generates ``__init__``), so it is as fast as a hand-written copy: an ``int`` or ``str`` is
  shared, a ``list[str]`` becomes ``list(v)``, a ``list[list[Part]]`` a nested comprehension
  over the generated copy of ``Part``, and so on.
* ``dump``: the JSON form. A record is a list of its field values in declared order (or a
  mapping, when its class sets ``JSON_FORM = "dict"``); tuples become lists; an ``IntEnum``
  becomes its number.
* ``load``: the inverse, which checks every value against its declared type and raises one
  ``StateError`` that names the field (``field[0][1].parts[2].counters: expected an integer,
  got 'x'``).
* ``init``: every field set to its default.

The types understood are ``int``, ``bool``, ``float``, ``str``, ``None``, an ``IntEnum``,
unions of these, ``T | None``, ``list[T]``, ``dict[str, T]``, ``tuple[T, ...]``,
``tuple[A, B, ...]``, another declared record, ``Row`` (a list of plain values such as
``[card id, tapped]``), ``Any`` (any JSON value, deep-copied) and
``Frozen`` (any JSON value that the rules never change in place, so copies share it). A field
whose form depends on another field (an AMALOGS side, whose ruleset is another field) names a
``Codec`` in its metadata (``codec_field``).
"""

from __future__ import annotations

import ast
import copy as _copy
import dataclasses
import enum
import functools
import random
import sys
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Final, Protocol

from deckgym.envs.core.cards import package_dir
from deckgym.envs.core.errors import StateError


class _SharedMarker:
    """Marks a type whose values are never changed in place: copies share them."""

    def __repr__(self) -> str:
        return "SHARED"


SHARED: Final = _SharedMarker()

#: Any JSON value that the rules never change in place (an agenda task, a logged record).
Frozen = Annotated[Any, SHARED]


class _RowMarker:
    """Marks a list of plain values (numbers, strings, booleans, null): copied with ``list``."""

    def __repr__(self) -> str:
        return "ROW"


ROW: Final = _RowMarker()

#: A row of plain values whose meaning is its position, such as ``[card id, tapped]``.
Row = Annotated[list[Any], ROW]


class Codec(Protocol):
    """The form of a field that depends on its owner (e.g. on another field's value)."""

    def copy(self, value: Any, src: Any, dst: Any) -> Any:
        """A copy of ``value`` (of ``src``) for the copy ``dst`` (its earlier fields are set)."""

    def dump(self, value: Any, owner: Any) -> Any:
        """The JSON form of ``value``."""

    def load(self, data: Any, owner: Any) -> Any:
        """The value from its JSON form (the owner's earlier fields are set)."""


def seats(value: Any, n: int = 2, was: str = "") -> Any:
    """A field default of ``n`` independent copies of ``value``, one per seat.

    ``was``: the field's former name, which ``from_dict`` still reads (see ``renamed``). The
    list always has ``n`` items: ``from_dict`` refuses another length, and ``clone`` copies the
    items one by one without a loop.
    """
    meta: dict[str, Any] = {"seats": n}
    if was:
        meta["was"] = was
    if _immutable(value):  # no copies to make
        return dataclasses.field(default_factory=lambda: [value] * n, metadata=meta)
    if isinstance(value, (list, set, dict)) and all(
        map(_immutable, value.values() if isinstance(value, dict) else value)
    ):  # a container of immutable items: a shallow copy is a deep one (and far cheaper than deepcopy)
        return dataclasses.field(default_factory=lambda: [value.copy() for _ in range(n)], metadata=meta)
    return dataclasses.field(default_factory=lambda: [_copy.deepcopy(value) for _ in range(n)], metadata=meta)


def _immutable(value: Any) -> bool:
    """Whether ``value`` is None, a bool, an int, a float or a str."""
    return value is None or isinstance(value, (bool, int, float, str))


def renamed(was: str, default: Any) -> Any:
    """A field with an immutable ``default`` that dicts written before a rename call ``was``."""
    return dataclasses.field(default=default, metadata={"was": was})


def setup(kind: str = "shared") -> Any:
    """A field set up with the game rather than played: it is not in the dumped fields.

    ``kind`` says what a copy holds: ``"shared"`` the same object (the config, the card
    pool), ``"rng"`` an independent generator in the same state, ``"cache"`` the same
    object (a cache that the rules replace rather than change), ``"fresh"`` its default
    (False), ``"memo"`` None (a memo that an encoder keeps on the state: a copy starts
    without it). The kinds a copy resets start at their default in ``init`` too.
    """
    if kind not in _SETUP_KINDS:
        raise ValueError(f"setup kind must be one of {', '.join(_SETUP_KINDS)}, got {kind!r}")
    default = False if kind == "fresh" else None
    return dataclasses.field(default=default, metadata={"setup": kind}, repr=False, compare=False)


_SETUP_KINDS: Final[tuple[str, ...]] = ("shared", "rng", "cache", "fresh", "memo")
#: The set-up kinds that ``init`` sets to their default (the others come with the game).
_RESET_KINDS: Final[tuple[str, ...]] = ("cache", "fresh", "memo")


def codec_field(codec: Codec, default: Any = None) -> Any:
    """A field stored and copied through ``codec``."""
    return dataclasses.field(default=default, metadata={"codec": codec})


# --------------------------------------------------------------------------- type plans
class Node:
    """One declared type, parsed: how its values are checked when loaded."""

    immutable: bool = False

    def describe(self) -> str:
        """The type in words, for error messages."""
        return "a value"

    def load(self, v: Any, path: str) -> Any:
        """The value from its JSON form ``v``; a ``StateError`` names ``path`` if it does not fit."""
        raise NotImplementedError

    def bad(self, v: Any, path: str) -> StateError:
        """The error for a ``v`` that is not of this type."""
        return _bad(path, self.describe(), v)


_WORDS: Final = {
    int: "an integer",
    bool: "true or false",
    str: "a string",
    float: "a number",
    type(None): "null",
}


class Scalar(Node):
    """A number, string, boolean, null or ``IntEnum``, or a union of these: shared by copies."""

    immutable = True

    def __init__(self, types_: tuple[type, ...]) -> None:
        self.types = types_
        self.enum: type[enum.IntEnum] | None = next(
            (t for t in types_ if isinstance(t, type) and issubclass(t, enum.IntEnum)), None
        )

    def describe(self) -> str:
        """The allowed types in words."""
        return " or ".join(_WORDS.get(t, t.__name__) for t in self.types)

    def load(self, v: Any, path: str) -> Any:
        """``v`` if it is one of the types (a ``bool`` is not an integer; an enum member from its number)."""
        for t in self.types:
            if isinstance(v, bool) or v is None:
                if (t is bool and v is not None) or (t is type(None) and v is None):
                    return v
            elif t is float:
                if isinstance(v, (int, float)):
                    return v
            elif t is self.enum:
                if isinstance(v, int):
                    return self._member(v, path)
            elif isinstance(v, t):
                return v
        raise self.bad(v, path)

    def _member(self, v: int, path: str) -> Any:
        assert self.enum is not None
        try:
            return self.enum(v)
        except ValueError:
            allowed = ", ".join(str(int(m)) for m in self.enum)
            raise StateError(f"{path}: {v} is not a {self.enum.__name__} (allowed: {allowed})") from None


class Optional(Node):
    """``T | None``."""

    def __init__(self, item: Node) -> None:
        self.item = item
        self.immutable = item.immutable

    def describe(self) -> str:
        """The item type or null."""
        return f"{self.item.describe()} or null"

    def load(self, v: Any, path: str) -> Any:
        """None, or the item."""
        return None if v is None else self.item.load(v, path)


class ListOf(Node):
    """``list[T]``."""

    def __init__(self, item: Node) -> None:
        self.item = item

    def describe(self) -> str:
        """A list."""
        return "a list"

    def load(self, v: Any, path: str) -> Any:
        """A list of loaded items."""
        if not isinstance(v, list):
            raise self.bad(v, path)
        item = self.item
        return [item.load(x, f"{path}[{i}]") for i, x in enumerate(v)]


class TupleOf(Node):
    """``tuple[T, ...]`` (``item``) or ``tuple[A, B, ...]`` (``items``), written as a list."""

    def __init__(self, items: list[Node] | None, item: Node | None) -> None:
        self.items = items
        self.item = item
        inner = items if items is not None else [item] if item is not None else []
        self.immutable = all(n.immutable for n in inner)

    def describe(self) -> str:
        """A list (of a fixed length)."""
        return "a list" if self.items is None else f"a list of {len(self.items)}"

    def load(self, v: Any, path: str) -> Any:
        """A tuple of loaded items."""
        if not isinstance(v, (list, tuple)) or (self.items is not None and len(v) != len(self.items)):
            raise self.bad(v, path)
        if self.items is None:
            item = self.item
            assert item is not None
            return tuple(item.load(x, f"{path}[{i}]") for i, x in enumerate(v))
        return tuple(n.load(x, f"{path}[{i}]") for i, (n, x) in enumerate(zip(self.items, v, strict=True)))


class DictOf(Node):
    """``dict[str, T]``."""

    def __init__(self, item: Node) -> None:
        self.item = item

    def describe(self) -> str:
        """A mapping."""
        return "a mapping with string keys"

    def load(self, v: Any, path: str) -> Any:
        """A dict of loaded values."""
        if not isinstance(v, dict) or not all(isinstance(k, str) for k in v):
            raise self.bad(v, path)
        return {k: self.item.load(x, f"{path}[{k!r}]") for k, x in v.items()}


class RecordNode(Node):
    """A declared record class."""

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def describe(self) -> str:
        """The record's form."""
        plan = plan_of(self.cls)
        if plan.json_dict:
            return f"a {self.cls.__name__} mapping"
        return f"a {self.cls.__name__} list of {len(plan.fields)}"

    def load(self, v: Any, path: str) -> Any:
        """A new record."""
        return plan_of(self.cls).load(v, path)


class AnyNode(Node):
    """``Any`` (deep-copied) or ``Frozen`` (shared): any JSON value."""

    def __init__(self, shared: bool) -> None:
        self.immutable = shared

    def describe(self) -> str:
        """Any JSON value."""
        return "a JSON value"

    def load(self, v: Any, path: str) -> Any:
        """A deep copy of ``v``."""
        return _copy.deepcopy(v)


def parse(tp: Any) -> Node:
    """The plan of a resolved type annotation."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return AnyNode(shared=False)
    if origin is Annotated:
        if any(a is ROW for a in args[1:]):
            return ListOf(Scalar((type(None), bool, int, float, str)))
        if any(a is SHARED for a in args[1:]):
            return AnyNode(shared=True) if args[0] is Any else _shared(parse(args[0]))
        return parse(args[0])
    if tp is None or tp is type(None):
        return Scalar((type(None),))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return RecordNode(tp)
    if isinstance(tp, type) and issubclass(tp, (int, str, float)):
        return Scalar((tp,))
    if origin in (typing.Union, types.UnionType):
        nodes = [parse(a) for a in args]
        if all(isinstance(n, Scalar) for n in nodes):
            return Scalar(tuple(t for n in nodes for t in n.types))  # type: ignore[attr-defined]
        rest = [n for n in nodes if not (isinstance(n, Scalar) and n.types == (type(None),))]
        if len(rest) == 1 and len(nodes) == 2:
            return Optional(rest[0])
        raise TypeError(f"unsupported union in a state declaration: {tp}")
    if origin is list:
        return ListOf(parse(args[0]))
    if origin is dict:
        if args[0] is not str:
            raise TypeError(f"state mappings have string keys, not {tp}")
        return DictOf(parse(args[1]))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return TupleOf(None, parse(args[0]))
        return TupleOf([parse(a) for a in args], None)
    raise TypeError(f"unsupported type in a state declaration: {tp!r}")


def _shared(node: Node) -> Node:
    node.immutable = True
    return node


# --------------------------------------------------------------------------- code generation
class _Gen:
    """Writes the source of the copy and dump functions of one class."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.ns = namespace
        self.depth = 0

    def var(self) -> str:
        self.depth += 1
        return f"x{self.depth}"

    def copy(self, n: Node, v: str) -> str:
        if n.immutable:
            return v
        if isinstance(n, Optional):
            return f"(None if {v} is None else {self.copy(n.item, v)})"
        if isinstance(n, ListOf):
            if n.item.immutable:
                return f"list({v})"
            x = self.var()
            return f"[{self.copy(n.item, x)} for {x} in {v}]"
        if isinstance(n, DictOf):
            if n.item.immutable:
                return f"dict({v})"
            x = self.var()
            return f"{{k{x}: {self.copy(n.item, x)} for k{x}, {x} in {v}.items()}}"
        if isinstance(n, TupleOf):
            x = self.var()
            if n.items is None:
                assert n.item is not None
                return f"tuple([{self.copy(n.item, x)} for {x} in {v}])"
            parts = ", ".join(self.copy(item, f"{v}[{i}]") for i, item in enumerate(n.items))
            return f"({parts},)"
        if isinstance(n, RecordNode):
            return f"{self.fn('copy', n.cls)}({v})"
        return f"_deepcopy({v})"

    def dump(self, n: Node, v: str) -> str:
        if isinstance(n, Scalar):
            return f"int({v})" if n.enum is not None else v
        if isinstance(n, AnyNode):
            return f"_plain({v})"
        if isinstance(n, Optional):
            return f"(None if {v} is None else {self.dump(n.item, v)})"
        if isinstance(n, ListOf) or (isinstance(n, TupleOf) and n.items is None):
            item = n.item
            assert item is not None
            if isinstance(item, Scalar) and item.enum is None:
                return f"list({v})"
            x = self.var()
            return f"[{self.dump(item, x)} for {x} in {v}]"
        if isinstance(n, TupleOf):
            assert n.items is not None
            return "[" + ", ".join(self.dump(item, f"{v}[{i}]") for i, item in enumerate(n.items)) + "]"
        if isinstance(n, DictOf):
            if isinstance(n.item, Scalar) and n.item.enum is None:
                return f"dict({v})"
            x = self.var()
            return f"{{k{x}: {self.dump(n.item, x)} for k{x}, {x} in {v}.items()}}"
        if isinstance(n, RecordNode):
            return f"{self.fn('dump', n.cls)}({v})"
        raise TypeError(n)

    def fn(self, what: str, cls: type) -> str:
        """The namespace name of ``cls``'s ``what`` function (its plan is built first)."""
        name = f"_{what}_{cls.__name__}"
        if name not in self.ns:
            self.ns[name] = getattr(plan_of(cls), what)
        return name


def _copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng``."""
    out = random.Random()
    out.setstate(rng.getstate())
    return out


def _plain(v: Any) -> Any:
    """``v`` as plain JSON data: a deep copy in which tuples are lists."""
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, enum.IntEnum):
        return int(v)
    return v


class Plan:
    """The generated functions of one declared class."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        #: A compiled class (mypyc) cannot be made without its constructor: a copy calls it.
        self.native = _native(cls)
        hints = _hints(cls, self.native)
        every = dataclasses.fields(cls)
        #: the set-up fields (``setup``) and the played ones, which are dumped and loaded
        self.setup = [f for f in every if "setup" in f.metadata]
        self.fields: list[dataclasses.Field[Any]] = [f for f in every if "setup" not in f.metadata]
        self.nodes: dict[str, Node] = {}
        self.codecs: dict[str, Codec] = {}
        for f in self.fields:
            codec = f.metadata.get("codec")
            if codec is not None:
                self.codecs[f.name] = codec
            else:
                self.nodes[f.name] = parse(hints[f.name])
        self.json_dict = getattr(cls, "JSON_FORM", "list") == "dict"
        #: A record's fields, in order, when its constructor takes them all (a dataclass ``__init__``).
        params: Any = getattr(cls, "__dataclass_params__", None)
        self.by_constructor = (
            self.native
            and params is not None
            and params.init
            and all(f.init for f in self.fields)
            and not self.setup
        )
        self.copy: Callable[[Any], Any] = self._compile_copy()
        self.dump: Callable[[Any], Any] = self._compile_dump()
        self.init: Callable[[Any], None] = self._compile_init()

    def _namespace(self) -> dict[str, Any]:
        return {
            "_new": object.__new__,
            "_cls": self.cls,
            "_deepcopy": _copy.deepcopy,
            "_plain": _plain,
            "_copy_rng": _copy_rng,
            "_codecs": self.codecs,
        }

    def _compile(self, name: str, body: list[str], ns: dict[str, Any]) -> Callable[..., Any]:
        src = f"def {name}(o):\n" + "\n".join(f"    {line}" for line in body) + "\n"
        exec(compile(src, f"<declared {self.cls.__qualname__}.{name}>", "exec"), ns)  # noqa: S102
        fn: Callable[..., Any] = ns[name]
        fn.__doc__ = src  # the generated source, for reading
        return fn

    def _compile_copy(self) -> Callable[[Any], Any]:
        ns = self._namespace()
        gen = _Gen(ns)
        if self.by_constructor:
            return self._compile_construct(ns, gen)
        # A compiled state's (or a compiled record's own) constructor without arguments makes
        # a blank one.
        body = ["s = _cls()" if self.native else "s = _new(_cls)"]
        # Attributes are set in the order a constructor sets them: the set-up, the generator,
        # the played fields, then the private ones. CPython shares one key table among the
        # instances of a class only while they add their attributes in the same order.
        before = [f for f in self.setup if not f.name.startswith("_")]
        before.sort(key=lambda f: f.metadata["setup"] == "rng")
        for f in before:
            body.append(self._setup_copy(f))
        for f in self.fields:
            if f.name in self.codecs:
                body.append(f"s.{f.name} = _codecs[{f.name!r}].copy(o.{f.name}, o, s)")
            else:
                body.append(f"s.{f.name} = {self._field_copy(gen, f)}")
        body += [self._setup_copy(f) for f in self.setup if f.name.startswith("_")]
        body.append("return s")
        return self._compile("copy", body, ns)

    def _compile_construct(self, ns: dict[str, Any], gen: _Gen) -> Callable[[Any], Any]:
        """The copy of a compiled record through its constructor (a codec field is copied after it)."""
        args = [f"o.{f.name}" if f.name in self.codecs else self._field_copy(gen, f) for f in self.fields]
        body = [f"s = _cls({', '.join(args)})"]
        body += [f"s.{n} = _codecs[{n!r}].copy(o.{n}, o, s)" for n in self.codecs]
        body.append("return s")
        return self._compile("copy", body, ns)

    def _field_copy(self, gen: _Gen, f: dataclasses.Field[Any]) -> str:
        """The copy of a played field; a per-seat list is copied seat by seat (no loop)."""
        node, n = self.nodes[f.name], f.metadata.get("seats")
        if n is None or not isinstance(node, ListOf) or node.item.immutable:
            return gen.copy(node, "o." + f.name)
        return "[" + ", ".join(gen.copy(node.item, f"o.{f.name}[{i}]") for i in range(n)) + "]"

    @staticmethod
    def _setup_copy(f: dataclasses.Field[Any]) -> str:
        kind = f.metadata["setup"]
        if kind == "rng":
            return f"s.{f.name} = _copy_rng(o.{f.name})"
        if kind in ("fresh", "memo"):
            return f"s.{f.name} = {f.default!r}"
        return f"s.{f.name} = o.{f.name}"

    def _compile_dump(self) -> Callable[[Any], Any]:
        ns = self._namespace()
        gen = _Gen(ns)
        items = []
        for f in self.fields:
            if f.name in self.codecs:
                items.append((f.name, f"_codecs[{f.name!r}].dump(o.{f.name}, o)"))
            else:
                items.append((f.name, gen.dump(self.nodes[f.name], "o." + f.name)))
        if self.json_dict:
            body = ["return {" + ", ".join(f"{k!r}: {e}" for k, e in items) + "}"]
        else:
            body = ["return [" + ", ".join(e for _, e in items) + "]"]
        return self._compile("dump", body, ns)

    def _compile_init(self) -> Callable[[Any], None]:
        ns = self._namespace()
        body = []
        for i, f in enumerate(self.fields):
            if f.default_factory is not dataclasses.MISSING:
                ns[f"_f{i}"] = f.default_factory
                body.append(f"o.{f.name} = _f{i}()")
            elif f.default is not dataclasses.MISSING:
                ns[f"_d{i}"] = f.default
                body.append(f"o.{f.name} = _d{i}")
        body += [f"o.{f.name} = {f.default!r}" for f in self.setup if f.metadata["setup"] in _RESET_KINDS]
        return self._compile("init", body or ["pass"], ns)

    # ------------------------------------------------------------------- load
    def load_into(self, obj: Any, data: Any, path: str) -> None:
        """Set ``obj``'s fields from their JSON form ``data`` (checked against the declaration)."""
        if self.json_dict:
            if not isinstance(data, dict):
                raise _bad(path, f"a {self.cls.__name__} mapping", data)
            for f in self.fields:
                if f.name not in data and f.metadata.get("was") in data:
                    data = {**data, f.name: data[f.metadata["was"]]}
                    del data[f.metadata["was"]]
                if f.name not in data:
                    if f.metadata.get("optional"):
                        setattr(obj, f.name, _default(f))
                        continue
                    raise StateError(f"{_at(path)}{f.name}: missing")
                self._load_field(obj, f, data[f.name], f"{_at(path)}{f.name}")
            extra = sorted(set(data) - {f.name for f in self.fields})
            if extra:
                raise StateError(
                    f"{_at(path)}{extra[0]}: unknown field; {self.cls.__name__} has {self.names()}"
                )
            return
        if not isinstance(data, list) or len(data) != len(self.fields):
            raise _bad(path, f"a {self.cls.__name__} list of {len(self.fields)} ({self.names()})", data)
        for f, v in zip(self.fields, data, strict=True):
            self._load_field(obj, f, v, f"{path}.{f.name}")

    def _load_field(self, obj: Any, f: dataclasses.Field[Any], v: Any, path: str) -> None:
        codec = self.codecs.get(f.name)
        if codec is not None:
            try:
                setattr(obj, f.name, codec.load(v, obj))
            except StateError:
                raise
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
                raise StateError(f"{path}: {exc}") from exc
        else:
            n = f.metadata.get("seats")
            if n is not None and isinstance(v, list) and len(v) != n:
                raise _bad(path, f"a list of {n} (one per seat)", v)
            setattr(obj, f.name, load(self.nodes[f.name], v, path))

    def load(self, data: Any, path: str) -> Any:
        """A new record from its JSON form."""
        if self.by_constructor:
            # a compiled dataclass is made by its constructor, from the values read first
            values = types.SimpleNamespace()
            self.load_into(values, data, path)
            return self.cls(**vars(values))
        # a compiled record with its own constructor makes a blank one without arguments
        obj: Any = self.cls() if self.native else object.__new__(self.cls)
        self.load_into(obj, data, path)
        return obj

    def names(self) -> str:
        """The field names, for error messages."""
        return ", ".join(f.name for f in self.fields)


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def _at(path: str) -> str:
    return f"{path}." if path else ""


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _bad(path: str, wanted: str, got: Any) -> StateError:
    return StateError(f"{path or 'state'}: expected {wanted}, got {_show(got)}")


def load(n: Node, v: Any, path: str) -> Any:
    """The value of type ``n`` from its JSON form ``v``; a ``StateError`` names ``path``."""
    return n.load(v, path)


def _hints(cls: type, native: bool) -> dict[str, Any]:
    """The declared types of ``cls``'s fields, with their parameters (``list[list[Slot]]``).

    A compiled (``native``) class keeps only the bare types (``list``) in ``__annotations__``,
    so its declarations are read from its source, as the pure build reads them, and evaluated
    in its module.
    """
    if not native:
        return typing.get_type_hints(cls, include_extras=True)
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__[:-1]):
        module = sys.modules[klass.__module__]
        names = dict(vars(module))
        for name, text in _source_annotations(module.__name__).get(klass.__name__, {}).items():
            hints[name] = eval(text, names)  # the package's own source
    return hints


@functools.cache
def _source_annotations(module: str) -> dict[str, dict[str, str]]:
    """Per class of ``module``'s source, field name -> annotation text (class constants left out).

    Parsed once per module (every declared class of a compiled module reads it).
    """
    source = package_dir(module) / f"{module.rpartition('.')[2]}.py"
    return {
        node.name: {
            stmt.target.id: ast.unparse(stmt.annotation)
            for stmt in node.body
            if isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and not ast.unparse(stmt.annotation).startswith("ClassVar")
        }
        for node in ast.parse(source.read_text(encoding="utf-8")).body
        if isinstance(node, ast.ClassDef)
    }


def _native(cls: type) -> bool:
    """Whether ``cls`` is compiled (mypyc), so that only its own constructor can make one."""
    try:
        object.__new__(cls)
    except TypeError:
        return True
    return False


_PLANS: Final[dict[type, Plan]] = {}


def plan_of(cls: type) -> Plan:
    """The plan of a declared class (built on first use, when every annotation resolves)."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = Plan(cls)
    return plan


class Record:
    """Base of a declared record (a ``@dataclass`` listing its fields in JSON order).

    ``copy``, ``to_list`` (its JSON form) and ``from_list`` come from the declaration;
    equality is the dataclass's, field by field.
    """

    JSON_FORM: ClassVar[str] = "list"

    def copy(self) -> Any:
        """An independent copy."""
        return plan_of(type(self)).copy(self)

    def clone(self) -> Any:
        """``copy`` under the name the game states give it (an AMALOGS side is cloned like a table)."""
        return self.copy()

    def to_list(self) -> Any:
        """JSON form (a list of the field values in declared order)."""
        return plan_of(type(self)).dump(self)

    def to_dict(self) -> Any:
        """JSON form (the same as ``to_list``; a mapping when ``JSON_FORM`` is ``"dict"``)."""
        return plan_of(type(self)).dump(self)

    @classmethod
    def from_list(cls, values: Any, path: str = "") -> Any:
        """Inverse of ``to_list``; a ``StateError`` names the field that does not fit."""
        return plan_of(cls).load(values, path or cls.__name__)

    @classmethod
    def from_dict(cls, values: Any, path: str = "") -> Any:
        """``from_list`` under the name of the dict form."""
        return cls.from_list(values, path)

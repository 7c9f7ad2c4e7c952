"""The declaration of a ruleset: one ``Game`` in its own folder, from which every list derives.

Each ruleset's package declares one :class:`Game` in its ``game.toml`` (``envs/mow/game.toml``,
read by ``declared``; its ``__init__.py`` sets ``GAME = declared(__name__)``): its env name,
title, env module, the option sets that the tools run (its variants), its heuristic and
what it offers (deck tools, nested core games). ``BUILT_IN`` lists the packages of the built-in
rulesets, one line each; ``register(game)`` adds another at run time (a ruleset kept outside
the package). Every per-game list of the library is read from here: ``envs.names()``, the
Gymnasium ids, the bench, fingerprint, soak and mutation variants, the play lobby and its
levels, the deck tools, the shipped-model keys and the shared test matrix.

Pure Python: no numpy, no gym, nothing of ``agents`` imported (the heuristic is named by its
import path, as PettingZoo's and Gymnasium's registries name entry points).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The file of a ruleset's package that declares it (``declared``).
DECLARATION = "game.toml"

#: The packages of the built-in rulesets: each declares ``GAME`` (one line a ruleset).
BUILT_IN = (
    "deckgym.envs.medarot_ocg",
    "deckgym.envs.medarot_parts",
    "deckgym.envs.mow",
    "deckgym.envs.amalogs",
)


@dataclass(frozen=True)
class Variant:
    """One option set of a ruleset that the tools run (a mode, a team size).

    Attributes:
        options: the keyword options of ``envs.make``.
        tag: the variant in a Gymnasium id or a model's file name (``"beginner"``, ``"2v2"``); ``""``
            for a ruleset with one variant.
        long: its games are the longest of the library: tests that play many games leave it out.
        title: the variant in words (the lobby's ``"Beginner rules"``); ``""``: its tag.
    """

    options: Mapping[str, Any] = field(default_factory=dict)
    tag: str = ""
    long: bool = False
    title: str = ""


@dataclass(frozen=True)
class Game:
    """A ruleset as the library knows it.

    Attributes:
        name: the env name, with its version (``"mow_v1"``).
        title: its name in words (the play lobby, reports).
        module: the env module: ``ruleset(**options)`` and ``env(**options)``.
        gym_name: the Gymnasium id's name (``deckgym/<gym_name>[-<tag>]-v<version>``).
        variants: the option sets the tools run (a mode, a team size each).
        heuristic: the rule-of-thumb agent as ``"module:Class"`` (its constructor takes ``seed``);
            None: the library's generic one-ply agent plays it.
        decks: two players with decks of cards: the deck tools (rate, compare, gauntlet, search,
            complete) work on it.
        nested: its games contain the games of other rulesets (the bench splits its decisions).
        renamed: older env names this one replaced, each with what changed.
        help: the file of the "How to play" text (markdown) in the ruleset's package folder.
    """

    name: str
    title: str
    module: str
    gym_name: str
    variants: tuple[Variant, ...] = (Variant(),)
    heuristic: str | None = None
    decks: bool = False
    nested: bool = False
    renamed: Mapping[str, str] = field(default_factory=dict)
    help: str = "help.md"

    def __post_init__(self) -> None:
        base, sep, version = self.name.rpartition("_v")
        if not (sep and base and version.isdigit()):
            raise ValueError(f"an env name ends in _v and its version, such as 'mow_v1'; got {self.name!r}")
        if not self.variants:
            raise ValueError(f"{self.name}: at least one variant (the default options)")
        tags = [v.tag for v in self.variants]
        if len(set(tags)) != len(tags):
            raise ValueError(f"{self.name}: the variants' tags must differ; got {tags}")

    @property
    def family(self) -> str:
        """The name without its version: ``"mow"``."""
        return self.name.rpartition("_v")[0]

    @property
    def version(self) -> int:
        """The version: ``1`` for ``"mow_v1"``."""
        return int(self.name.rpartition("_v")[2])

    @property
    def package(self) -> str:
        """The ruleset's package: the env module's folder (``deckgym.envs.mow`` for ``deckgym.envs.mow_v1``).

        Where no such package is beside the env module, the package that holds the env module
        (``tests.toy_game`` for ``tests.toy_game.toy_v1``: a ruleset kept in one folder).
        """
        parent, _, leaf = self.module.rpartition(".")
        if not parent:
            return self.family
        beside = f"{parent}.{leaf.rpartition('_v')[0]}"
        return beside if importlib.util.find_spec(beside) is not None else parent

    def help_text(self) -> str:
        """The "How to play" text (markdown); ``""`` when the package has none."""
        from importlib.resources import files

        path = files(self.package) / self.help
        return path.read_text(encoding="utf-8") if path.is_file() else ""

    def gym_id(self, variant: Variant) -> str:
        """The Gymnasium id of ``variant``: ``deckgym/MedarotOCG-beginner-v1``."""
        tag = f"-{variant.tag}" if variant.tag else ""
        return f"deckgym/{self.gym_name}{tag}-v{self.version}"

    def label(self, options: Mapping[str, Any]) -> str:
        """A variant's row label: ``env``, ``env:mode`` or ``env:key=value`` (tuples joined by ``x``)."""
        if not options:
            return self.name
        if set(options) == {"mode"}:
            return f"{self.name}:{options['mode']}"
        parts = [
            f"{k}={'x'.join(map(str, v)) if isinstance(v, (tuple, list)) else v}" for k, v in options.items()
        ]
        return f"{self.name}:{','.join(parts)}"

    def ruleset(self, **options: Any) -> Any:
        """The env module's ``ruleset(**options)``: the rules of that configuration, without an env."""
        return importlib.import_module(self.module).ruleset(**options)

    def defaults(self) -> dict[str, Any]:
        """The env's options with their defaults (the env module's ``ruleset`` signature)."""
        import inspect

        params = inspect.signature(importlib.import_module(self.module).ruleset).parameters.values()
        return {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}

    def variant_of(self, options: Mapping[str, Any] | None) -> Variant | None:
        """The declared variant that ``options`` select (an option left out takes the env's default); None if none."""
        given = dict(options or {})
        defaults = self.defaults()
        for variant in self.variants:
            if all(_same(given.get(k, defaults.get(k)), v) for k, v in variant.options.items()):
                return variant
        return None

    @property
    def modes(self) -> list[str]:
        """The values of the variants' ``mode`` option (rules modes: each has its own levels and model); [] for none."""
        return list(self.choices().get("mode", []))

    def keyed(self) -> list[tuple[str, dict[str, Any]]]:
        """``(key, options)`` of each mode (``"medarot_ocg_v1:beginner"``), or of the default game (``"mow_v1"``).

        The keys under which the table's levels are measured and shipped models are named.
        """
        if not self.modes:
            return [(self.name, {})]
        return [(f"{self.name}:{m}", {"mode": m}) for m in self.modes]

    def choices(self) -> dict[str, list[Any]]:
        """Each option that the variants vary, with its values in order (the lobby's choices)."""
        out: dict[str, list[Any]] = {}
        for variant in self.variants:
            for key, value in variant.options.items():
                values = out.setdefault(key, [])
                if not any(_same(value, v) for v in values):
                    values.append(value)
        return out


def _tuples(value: Any) -> Any:
    """TOML's arrays as tuples (an option such as ``team_sizes = [2, 2]`` is the tuple ``(2, 2)``)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def _known(data: dict[str, Any], kind: type, where: str) -> dict[str, Any]:
    """``data``, once every key is a field of the dataclass ``kind`` (``ValueError`` names the others)."""
    fields = {f.name for f in dataclasses.fields(kind)}
    unknown = sorted(set(data) - fields)
    if unknown:
        raise ValueError(f"{where}: unknown fields {unknown}; a {kind.__name__} has {sorted(fields)}")
    return data


def declared(package: str) -> Game:
    """The ``Game`` that the ``game.toml`` of ``package`` declares (its ``__init__`` sets ``GAME`` to it).

    The file holds ``Game``'s fields (``name``, ``title``, ``gym_name``, ``heuristic``,
    ``decks``, ``nested``, ``help``), a ``[renamed]`` table, and one ``[[variants]]`` table per
    variant (``tag``, ``title``, ``long`` and an ``options`` table); ``module`` defaults to
    the env module beside the package (``deckgym.envs.mow_v1`` for ``deckgym.envs.mow``).

    Raises:
        ValueError: the file names a field ``Game`` does not have (the message lists them).
    """
    import tomllib
    from importlib.resources import files

    where = f"{package}/{DECLARATION}"
    data = _known(tomllib.loads((files(package) / DECLARATION).read_text(encoding="utf-8")), Game, where)
    variants = tuple(
        Variant(**{**_known(v, Variant, f"{where} (a variant)"), "options": _tuples(v.get("options", {}))})
        for v in data.pop("variants", [{}])
    )
    parent = package.rpartition(".")[0]
    module = data.pop("module", f"{parent}.{data.get('name', '')}" if parent else str(data.get("name", "")))
    return Game(module=module, variants=variants, **data)


def _same(a: Any, b: Any) -> bool:
    """Option values equal, a list equal to the tuple of the same items."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return tuple(a) == tuple(b)
    return bool(a == b)


_GAMES: dict[str, Game] = {}
_HOOKS: list[Callable[[Game], None]] = []
_LOADED = False


def _load() -> dict[str, Game]:
    """Every registered game, the built-in ones read from their packages on first use."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        for package in BUILT_IN:
            register(importlib.import_module(package).GAME)
    return _GAMES


def register(game: Game) -> Game:
    """Add ``game`` to the registry (the built-in ones register themselves); ``game``.

    Raises:
        ValueError: another game of that name, or a name it renamed, is registered.
    """
    if not isinstance(game, Game):
        raise TypeError(f"register takes an envs.games.Game, got {type(game).__name__}")
    games = _load()
    taken = {n for g in games.values() for n in (g.name, *g.renamed)}
    for name in (game.name, *game.renamed):
        if name in taken and games.get(game.name) != game:
            raise ValueError(f"an env named {name!r} is registered already")
    games[game.name] = game
    for hook in _HOOKS:
        hook(game)
    return game


def unregister(name: str) -> Game:
    """Remove the game of env ``name`` from the registry (a ruleset a test registered); the game.

    The ids that the ``on_register`` hooks gave it elsewhere (PettingZoo's, Gymnasium's) stay:
    making one names the unknown env. ``register`` adds the game again.

    Raises:
        KeyError: no game of that name is registered.
    """
    registered = _load()
    if name not in registered:
        raise KeyError(f"unknown environment {name!r}; known: {', '.join(sorted(registered))}")
    return registered.pop(name)


def on_register(hook: Callable[[Game], None]) -> None:
    """Call ``hook(game)`` for every game registered, now and later (the PettingZoo and Gymnasium ids)."""
    _HOOKS.append(hook)
    for g in games():
        hook(g)


def games() -> list[Game]:
    """Every registered game, in the order of registration (the built-in ones first, as ``BUILT_IN``)."""
    return list(_load().values())


def game(name: str) -> Game:
    """The game of env ``name``.

    Raises:
        KeyError: ``name`` is unknown, or was renamed (the message names the new env and what changed).
    """
    registered = _load()
    if name in registered:
        return registered[name]
    for g in registered.values():
        if name in g.renamed:
            raise KeyError(f"environment {name!r} is now {g.name!r}: {g.renamed[name]}")
    raise KeyError(f"unknown environment {name!r}; known: {', '.join(sorted(registered))}")


def variants(*, long: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """Every ``(env name, options)`` the tools run, each game's variants in order (``long=False``: the quick ones)."""
    return [(g.name, dict(v.options)) for g in games() for v in g.variants if long or not v.long]


def label(name: str, options: Mapping[str, Any]) -> str:
    """The row label of env ``name`` with ``options`` (``Game.label``)."""
    return game(name).label(options)

"""No import cycles: the modules of ``deckgym.envs`` and ``deckgym.agents`` import one another as a DAG.

The import graph is read statically: every ``.py`` file under ``envs/`` and ``agents/`` is
parsed with ``ast``, and each ``import`` and ``from ... import`` statement in it, at module
level or inside a function or class, is an edge to the module of the package it names. A
cycle means the modules of a ruleset cannot be told apart as layers, and a module of it can
see another half-initialized. The test fails on any cycle: for each knot of modules that
reach one another it prints one shortest cycle as ``a -> b -> a`` and names the knot's other
modules.

How an import statement becomes an edge:

* ``import deckgym.envs.mow.cards`` and ``from deckgym.envs.mow.cards import CardDef`` are
  edges to ``deckgym.envs.mow.cards``. Relative imports are resolved against the module's
  package first.
* ``from deckgym.envs.mow import cards``, where ``cards`` is a submodule, is an edge to
  ``deckgym.envs.mow.cards``; where the name is not a submodule (it is defined or re-exported
  by the package's ``__init__``), the edge goes to the package ``deckgym.envs.mow`` itself.
* The packages above the named module, which Python also runs first, are not edges: an
  ``__init__`` that imports its own submodules is the ordinary way a package offers them, and
  counting every ``deckgym.envs.mow.x`` import as an import of ``deckgym.envs.mow`` would
  close a cycle through each of them. So a package importing its own submodules is never a
  cycle by itself. A submodule that takes a name *from its package's* ``__init__`` while
  that ``__init__`` imports the submodule back is counted (an edge each way) and fails: it is
  the case where ``from package import name`` finds the package half-initialized.
* Imports under ``if TYPE_CHECKING:`` are skipped: they never run.
* Imports of anything outside ``deckgym.envs`` and ``deckgym.agents`` (the standard library,
  numpy, ``deckgym`` itself) are not edges. A module importing itself is not a cycle.
* Dotted-string imports (``importlib.import_module(name)``) are not import statements and are
  not edges. They run when called, and the package calls them on first use, after the modules
  on both sides have finished loading, so they do not see a half-initialized module. The one the engines rely on is the state's
  ``RULES``: ``envs/core/state.py`` imports ``cls.RULES`` (a ruleset's ``rules`` package) on
  first use, because that package imports the state module; the dependency the graph keeps is
  the static one, rules -> state. The test checks instead that each ``RULES = "..."`` names a
  module of the package, so a renamed rules package fails here and not on the first step.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The folders of ``deckgym.envs`` and ``deckgym.agents``.
PACKAGES = {"deckgym/envs": "deckgym.envs", "deckgym/agents": "deckgym.agents"}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of ``deckgym.envs`` and ``deckgym.agents``, by dotted name, and its file.

    A package's ``__init__.py`` is the package's own name (``deckgym.envs.mow``).
    """
    out: dict[str, Path] = {}
    for folder, dotted in PACKAGES.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if not all(p.isidentifier() for p in parts):
                continue  # not importable (a script folder with a dash, say)
            out[".".join((dotted, *parts))] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` test is ``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _import_nodes(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, at any depth, except under ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imports_of(source: str, module: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules of ``known`` that ``source`` (the text of ``module``) imports, by the rules above."""
    known = set(known)
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()
    for node in _import_nodes(ast.parse(source, module)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if alias.name != "*" and sub in known:
                out.add(sub)
            elif base in known:
                out.add(base)
    out.discard(module)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (see the module docstring)."""
    files = module_files(root)
    return {
        name: imports_of(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", files)
        for name, path in files.items()
    }


def _components(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Strongly connected components of ``graph`` (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        comp.append(member)
                        if member == node:
                            break
                    out.append(sorted(comp))
    return out


def _shortest_cycle(graph: Mapping[str, Iterable[str]], start: str, within: set[str]) -> list[str]:
    """A shortest path ``start -> ... -> start`` through the modules of ``within``."""
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph.get(node, ())):
                if child not in within:
                    continue
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return [*reversed(path), start]
                if child not in prev:
                    prev[child] = node
                    nxt.append(child)
        frontier = nxt
    raise ValueError(f"{start} is on no cycle")


def find_cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of two or more modules, as ``[a, b, ..., a]``.

    Each cycle starts from the component's first module in sorted order; a module's edge to
    itself is ignored. Every module of a component lies on some cycle with the one printed,
    and fixing the component means breaking all of them, so the message also lists the rest.
    """
    graph = {k: {v for v in vs if v != k} for k, vs in graph.items()}
    cycles = []
    for comp in _components(graph):
        if len(comp) > 1:
            cycles.append(_shortest_cycle(graph, comp[0], set(comp)))
    return sorted(cycles)


def describe_cycles(graph: Mapping[str, Iterable[str]]) -> str:
    """Each cycle as ``a -> b -> a`` and its component's other modules, one line per cycle."""
    graph = {k: {v for v in vs if v != k} for k, vs in graph.items()}
    lines = []
    for comp in sorted(c for c in _components(graph) if len(c) > 1):
        cycle = _shortest_cycle(graph, comp[0], set(comp))
        rest = sorted(set(comp) - set(cycle))
        also = f" (same knot: {', '.join(rest)})" if rest else ""
        lines.append(" -> ".join(cycle) + also)
    return "\n".join(lines)


# ----------------------------------------------------------------------------- the finder itself
def test_find_cycles_reports_a_two_module_cycle() -> None:
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": set()}
    assert find_cycles(graph) == [["a", "b", "a"]]
    assert describe_cycles(graph) == "a -> b -> a"


def test_find_cycles_reports_a_longer_cycle_and_its_knot() -> None:
    graph = {"x": {"y"}, "y": {"z"}, "z": {"x", "w"}, "w": {"y"}, "leaf": set()}
    assert find_cycles(graph) == [["w", "y", "z", "w"]]
    assert describe_cycles(graph) == "w -> y -> z -> w (same knot: x)"


def test_find_cycles_passes_a_dag_and_ignores_a_self_import() -> None:
    graph = {"a": {"b", "c", "a"}, "b": {"c"}, "c": set(), "d": {"a"}}
    assert find_cycles(graph) == []
    assert describe_cycles(graph) == ""


def test_find_cycles_reports_each_knot_once() -> None:
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}}
    assert find_cycles(graph) == [["a", "b", "a"], ["c", "d", "e", "c"]]


KNOWN = {"p", "p.a", "p.b", "p.m", "p.sub", "p.sub.c"}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import p.a", {"p.a"}),
        ("import p.a as x", {"p.a"}),
        ("from p.a import thing", {"p.a"}),
        ("from p import a, b", {"p.a", "p.b"}),
        ("from p import helper", {"p"}),  # a name of the package's __init__
        ("from p.sub import c", {"p.sub.c"}),
        ("from p.sub.c import *", {"p.sub.c"}),
        ("import os\nfrom numpy import array\nfrom deckgym import provenance", set()),
        ("def f():\n    from p.a import thing\n    return thing", {"p.a"}),
        ("class K:\n    def m(self):\n        import p.b", {"p.b"}),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.a import T", set()),
        ("import typing\nif typing.TYPE_CHECKING:\n    import p.a\nelse:\n    import p.b", {"p.b"}),
        ("import importlib\nimportlib.import_module('p.a')", set()),  # a dotted string: no edge
    ],
)
def test_imports_of_resolves_statements_to_modules(source: str, expected: set[str]) -> None:
    assert imports_of(source, "p.m", False, KNOWN) == expected


def test_imports_of_resolves_relative_imports() -> None:
    assert imports_of("from . import c\nfrom .. import a\nfrom ..b import x", "p.sub.c", False, KNOWN) == {
        "p.a",
        "p.b",
    }  # "from . import c" in p.sub.c is itself: no edge
    assert imports_of("from . import c\nfrom .c import y", "p.sub", True, KNOWN) == {"p.sub.c"}


def _graph_of(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """The import graph of hand-written modules: name -> (source, whether it is a package)."""
    return {name: imports_of(src, name, pkg, sources) for name, (src, pkg) in sources.items()}


def test_a_package_importing_its_own_submodules_is_no_cycle() -> None:
    graph = _graph_of(
        {
            "p": ("from p import a, b\nfrom p.b import tool", True),
            "p.a": ("from p.b import tool\nimport p.sub.c", False),
            "p.b": ("import os", False),
            "p.sub": ("from . import c", True),
            "p.sub.c": ("from p.b import tool", False),
        }
    )
    assert graph["p"] == {"p.a", "p.b"}
    assert find_cycles(graph) == []


def test_a_submodule_taking_a_name_from_its_package_init_that_imports_it_is_a_cycle() -> None:
    graph = _graph_of(
        {
            "p": ("from p.a import run\nDEFAULT = 3", True),
            "p.a": ("from p import DEFAULT\ndef run(): ...", False),
        }
    )
    assert find_cycles(graph) == [["p", "p.a", "p"]]
    assert describe_cycles(graph) == "p -> p.a -> p"


# ----------------------------------------------------------------------------- the package
def test_module_files_cover_both_packages_and_the_rules_subpackages() -> None:
    files = module_files()
    assert {
        "deckgym.envs",
        "deckgym.envs.core.flow",
        "deckgym.envs.mow.cards",
        "deckgym.envs.medarot_ocg.rules",
        "deckgym.envs.medarot_ocg.rules.effects",
        "deckgym.envs.amalogs.rules.turn",
        "deckgym.agents",
        "deckgym.agents.cli",
    } <= set(files)
    graph = import_graph()
    assert "deckgym.envs.core.cards" in graph["deckgym.envs.mow.cards"]


def test_no_import_cycles_in_envs_and_agents() -> None:
    found = describe_cycles(import_graph())
    assert not found, f"import cycles (each printed as a -> b -> a):\n{found}"


def _rules_names(module_name: str) -> dict[str, str]:
    """Each state class of the module ``module_name`` -> its ``RULES`` (set after the class)."""
    module = importlib.import_module(module_name)
    return {
        f"{module_name}.{obj.__name__}": obj.RULES
        for obj in vars(module).values()
        if isinstance(obj, type)
        and obj.__module__ == module_name
        and isinstance(getattr(obj, "RULES", None), str)
    }


def test_each_state_rules_name_is_a_module_of_the_package() -> None:
    files = module_files()
    named = {k: v for name in files if name.endswith(".state") for k, v in _rules_names(name).items()}
    assert len(named) >= 4, named  # the four rulesets' states
    missing = {k: v for k, v in named.items() if v not in files}
    assert not missing, f"RULES names no module of the package: {missing}"

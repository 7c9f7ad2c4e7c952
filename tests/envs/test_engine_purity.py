"""The engines are pure Python: no numpy, gymnasium, pettingzoo or torch below the env layer.

Every module of ``envs/core`` and of every ruleset package under ``envs/`` (subpackages such
as ``rules/`` included; only ``envs/encoding`` is exempt) is parsed with ``ast``; only the env
and encoder modules (``env.py``, ``encode.py``) may use those libraries. And the layers point
one way: no module of ``envs/`` at all imports ``agents``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: ``envs/core`` and every ruleset package (found on disk, so a new ruleset is covered at once).
ENGINE_DIRS = tuple(
    f"envs/{p.name}"
    for p in sorted((ROOT / "envs").iterdir())
    if p.is_dir() and p.name != "encoding" and (p / "__init__.py").exists()
)
ALLOWED_FILES = frozenset({"encode.py", "env.py"})
FORBIDDEN = frozenset({"numpy", "gymnasium", "pettingzoo", "torch"})


def engine_modules() -> list[Path]:
    out: list[Path] = []
    for d in ENGINE_DIRS:
        out += [p for p in sorted((ROOT / d).rglob("*.py")) if p.name not in ALLOWED_FILES]
    return out


def forbidden_imports(
    source: str, filename: str = "<src>", forbidden: frozenset[str] = FORBIDDEN
) -> list[str]:
    """``line: module`` for every import of a ``forbidden`` package in ``source``.

    The library's own packages are named as they are imported, ``deckgym.agents``, or by their
    folder name, ``agents``: both count.
    """
    tree = ast.parse(source, filename)
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module == "deckgym":  # from deckgym import agents
                names = [f"deckgym.{a.name}" for a in node.names]
            elif node.level == 0 and node.module:
                names = [node.module]
        elif isinstance(node, ast.Call):
            fn = node.func
            called = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
            if called in ("__import__", "import_module") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names = [arg.value]
        for name in names:
            if name.removeprefix("deckgym.").split(".")[0] in forbidden:
                found.append(f"{getattr(node, 'lineno', '?')}: {name}")
    return found


def test_engine_modules_are_found_including_rules_subpackage() -> None:
    rel = {p.relative_to(ROOT).as_posix() for p in engine_modules()}
    assert "envs/core/errors.py" in rel
    assert "envs/medarot_ocg/state.py" in rel
    assert "envs/medarot_ocg/rules/flow.py" in rel
    assert {"envs/medarot_ocg/rules/combat.py", "envs/medarot_ocg/rules/effects.py"} <= rel
    assert {"envs/medarot_parts/state.py", "envs/medarot_parts/rules/battle.py"} <= rel
    assert not any(p.endswith(("/env.py", "/encode.py")) for p in rel)


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_engine_module_imports_no_numpy_gymnasium_pettingzoo_torch(path: Path) -> None:
    bad = forbidden_imports(path.read_text(encoding="utf-8"), str(path))
    assert not bad, f"{path.relative_to(ROOT)} imports {', '.join(bad)}"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "envs").rglob("*.py")), ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_env_module_imports_agents(path: Path) -> None:
    bad = forbidden_imports(path.read_text(encoding="utf-8"), str(path), frozenset({"agents"}))
    assert not bad, f"{path.relative_to(ROOT)} imports {', '.join(bad)} (envs is the lower layer)"


@pytest.mark.parametrize(
    "src",
    [
        "import agents",
        "from agents.base import bind",
        "def f():\n    import agents.ppo\n",
        "from deckgym import agents",
        "from deckgym import envs, agents as a",
        "from deckgym.agents.base import bind",
        "import deckgym.agents.ppo",
        "import importlib\nm = importlib.import_module('deckgym.agents.heuristic.mow')",
    ],
)
def test_layer_checker_catches_agents_imports(src: str) -> None:
    assert forbidden_imports(src, forbidden=frozenset({"agents"}))


@pytest.mark.parametrize(
    "src",
    [
        "import numpy as np",
        "import numpy.random",
        "from gymnasium import spaces",
        "from pettingzoo.utils import agent_selector",
        "def f():\n    import torch\n",
        "import os, torch.nn",
        "x = __import__('numpy')",
        "import importlib\nm = importlib.import_module('gymnasium.spaces')",
    ],
)
def test_checker_catches_forbidden_imports(src: str) -> None:
    assert forbidden_imports(src)


@pytest.mark.parametrize(
    "src",
    [
        "import random",
        "from envs.core.errors import StateError",
        "from deckgym.envs.core.errors import StateError",
        "from deckgym import envs",
        "from . import numpy_like",
        "import numpyish",
        "from .torch import x",
    ],
)
def test_checker_allows_other_imports(src: str) -> None:
    assert not forbidden_imports(src)

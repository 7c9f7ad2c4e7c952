"""The compiled build (mypyc) against the pure-Python reference it is compiled from.

* ``deckgym.compiled`` says which build runs, and ``DECKGYM_PURE=1`` runs the pure source.
* Every event of fixed-seed random games of every variant has the same digest in both builds
  (the event records carry every rule step, so a compiled rule that differs shows here).
* Where CI requires the compiled build (``DECKGYM_REQUIRE_COMPILED=1``) it must be the one
  that runs: a build that failed or did not load is an error there, never a fallback.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import deckgym

ROOT = Path(__file__).resolve().parents[1]
BUILT = any((ROOT / "envs").glob("_native__mypyc*"))

#: Prints ``{variant: sha256 of all its events}`` over three seeds per variant.
DIGESTS = """
import hashlib, json, sys
sys.path.insert(0, "scripts")
from bench import VARIANTS, label_of
from event_log import game_events
import deckgym
out = {"compiled": deckgym.compiled}
for name, variants in VARIANTS.items():
    for kwargs in variants:
        h = hashlib.sha256()
        for seed in (3, 11, 29):
            h.update(json.dumps(game_events(name, kwargs, seed), sort_keys=True).encode())
        out[label_of(name, kwargs)] = h.hexdigest()
print(json.dumps(out))
"""


def _digests(pure: bool) -> dict[str, object]:
    command = [sys.executable, "-c", DIGESTS]
    env = {**os.environ, "DECKGYM_PURE": "1" if pure else "0"}
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_the_build_that_runs_is_the_one_required() -> None:
    if os.environ.get("DECKGYM_REQUIRE_COMPILED", "0") not in ("", "0"):
        assert BUILT, "DECKGYM_REQUIRE_COMPILED is set but no compiled build exists (make compile)"
        assert _digests(pure=False)["compiled"] is True
    assert deckgym.compiled is (BUILT and os.environ.get("DECKGYM_PURE", "0") in ("", "0"))


@pytest.mark.skipif(
    not BUILT, reason="no compiled build here (make compile needs mypyc, a C compiler and Python.h)"
)
def test_every_event_of_fixed_games_is_the_same_in_both_builds() -> None:
    pure, compiled = _digests(pure=True), _digests(pure=False)
    assert pure.pop("compiled") is False and compiled.pop("compiled") is True
    assert len(pure) >= 8
    assert compiled == pure


_CONSTANT = re.compile(r"_?[A-Z][A-Z0-9_]+")


def _compiled_sources() -> list[Path]:
    """The modules ``setup.py`` compiles: its ``compiled_modules`` rule over its three lists."""
    lists = {}
    for node in ast.parse((ROOT / "setup.py").read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("INTERPRETED", "COMPILED_AGENTS", "COMPILED_ANYWAY"):
                lists[name] = ast.literal_eval(node.value)
    paths = [p for p in sorted((ROOT / "envs").rglob("*.py")) if not p.name.endswith("_v1.py")]
    for name in lists["COMPILED_AGENTS"]:
        p = ROOT / name
        paths += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    anyway = {ROOT / p for p in lists["COMPILED_ANYWAY"]}
    return [p for p in paths if p.name not in lists["INTERPRETED"] or p in anyway]


def _annotation_names() -> set[str]:
    """Every name used in an annotation of the package (a type alias stays a plain assignment)."""
    names: set[str] = set()
    for folder in ("envs", "agents", "deckgym"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                annotations = []
                if isinstance(node, (ast.AnnAssign, ast.arg)) and node.annotation is not None:
                    annotations.append(node.annotation)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
                    annotations.append(node.returns)
                for a in annotations:
                    for sub in ast.walk(a):
                        if isinstance(sub, ast.Name):
                            names.add(sub.id)
                        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                            names.update(re.findall(r"\w+", sub.value))
    return names


def test_the_constants_of_compiled_modules_are_final() -> None:
    """An upper-case module name bound once is ``Final``: mypyc then reads it from C, not from a dictionary."""
    aliases = _annotation_names()
    plain = []
    for path in _compiled_sources():
        body = ast.parse(path.read_text()).body
        bound: dict[str, int] = {}
        for node in body:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            for target in targets:
                for n in ast.walk(target) if target is not None else ():
                    if isinstance(n, ast.Name):
                        bound[n.id] = bound.get(n.id, 0) + 1
        for node in body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            target = node.targets[0]
            if not isinstance(target, ast.Name) or not _CONSTANT.fullmatch(target.id):
                continue
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("TypeVar", "NewType"):
                continue
            if bound[target.id] == 1 and target.id not in aliases:
                plain.append(f"{path.relative_to(ROOT)}:{node.lineno} {target.id}")
    assert not plain, "module constants of compiled modules without Final: " + ", ".join(plain)

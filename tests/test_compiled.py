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
PACKAGE = ROOT / "deckgym"
BUILT = any((PACKAGE / "envs").glob("_native__mypyc*"))

#: Prints ``{variant: sha256 of all its events}`` over three seeds per variant.
DIGESTS = """
import hashlib, json, sys
sys.path.insert(0, "scripts")
from event_log import game_events
import deckgym
from deckgym.envs.games import label, variants
out = {"compiled": deckgym.compiled}
for name, kwargs in variants():
    h = hashlib.sha256()
    for seed in (3, 11, 29):
        h.update(json.dumps(game_events(name, kwargs, seed), sort_keys=True).encode())
    out[label(name, kwargs)] = h.hexdigest()
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
    """The modules the compiled build compiles (``deckgym/compiled.txt``, as setup.py reads it)."""
    return [PACKAGE / p for p in deckgym.compiled_sources(PACKAGE)[0]]


def test_every_engine_module_is_on_the_compiled_list_once_compiled_or_interpreted() -> None:
    compiled, interpreted = deckgym.compiled_sources(PACKAGE)
    listed = compiled + interpreted
    assert len(listed) == len(set(listed)), "a module is listed twice"
    modules = [
        *(PACKAGE / "envs").rglob("*.py"),
        *(PACKAGE / "agents/heuristic").rglob("*.py"),
        PACKAGE / "agents/search.py",
    ]
    paths = {p.relative_to(PACKAGE).as_posix() for p in modules}
    assert set(listed) == paths, (sorted(paths - set(listed)), sorted(set(listed) - paths))
    assert len(compiled) >= 100 and "envs/core/state.py" in compiled and "envs/aec.py" in interpreted
    # every registered env's module (``envs.make``'s factory) stays interpreted, whatever its version
    assert {p for p in paths if re.fullmatch(r"envs/\w+_v\d+\.py", p)} <= set(interpreted)


def test_setup_py_compiles_exactly_the_list() -> None:
    """setup.py's ``compiled_modules`` (read without running ``setup()``) is the list's compiled part."""
    source = (ROOT / "setup.py").read_text()
    namespace: dict[str, object] = {"__file__": str(ROOT / "setup.py")}
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(source.split("\nsetup(")[0], "setup.py", "exec"), namespace)  # noqa: S102
        built = namespace["compiled_modules"]()  # type: ignore[operator]
    finally:
        os.chdir(cwd)
    assert [p.removeprefix("deckgym/") for p in built] == deckgym.compiled_sources(PACKAGE)[0]


def test_a_source_newer_than_the_build_is_found_by_its_path(tmp_path) -> None:
    """The stale-build check reads the list: a listed module edited after the build is named."""
    import time

    (tmp_path / "compiled.txt").write_text("# list\nenvs/a/view.py\n- envs/b/view.py\n")
    for name in ("a", "b"):
        (tmp_path / "envs" / name).mkdir(parents=True)
        (tmp_path / "envs" / name / "view.py").write_text("x = 1\n")
    lib = tmp_path / "envs" / "_native__mypyc.cpython-311-x86_64-linux-gnu.so"
    lib.write_bytes(b"")
    past = time.time() - 100
    os.utime(lib, (past, past))
    os.utime(tmp_path / "envs/a/view.py", (past - 10, past - 10))
    assert deckgym._stale_build(tmp_path) == ""  # the interpreted view.py is newer, and that is fine
    os.utime(tmp_path / "envs/a/view.py", None)
    assert deckgym._stale_build(tmp_path) == "envs/a/view.py"
    os.utime(tmp_path / "envs/a/view.py", (past - 10, past - 10))
    old_copy = tmp_path / "envs" / "b" / "view.cpython-311-x86_64-linux-gnu.so"
    old_copy.write_bytes(b"")  # b's view.py was compiled once and is interpreted now
    assert deckgym._stale_build(tmp_path) == "envs/b/view.py"
    old_copy.unlink()
    assert deckgym._stale_build(tmp_path) == ""
    lib.unlink()
    assert deckgym._stale_build(tmp_path) == ""  # no build: nothing to be stale


def _annotation_names() -> set[str]:
    """Every name used in an annotation of the package (a type alias stays a plain assignment)."""
    names: set[str] = set()
    for folder in (PACKAGE,):
        for path in folder.rglob("*.py"):
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

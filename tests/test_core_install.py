"""A core install (``pip install deckgym``, no extras) runs the ``deckgym`` command.

The packages that only the extras bring are hidden from a subprocess (an import finder refuses
them, as if they were not installed); ``deckgym --version`` and ``deckgym envs`` must still run,
and a command that needs an extra says which one in one line with exit status 2.
(``make check-core-install`` does the same with a real install in a fresh virtual environment.)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata

import pytest


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _closure(names: set[str]) -> set[str]:
    """The distributions ``names`` need, with everything they need in turn (the installed ones)."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [_name(r) for r in requires if "extra ==" not in r]
    return seen


def _extras_only_modules() -> list[str]:
    """The top-level import names that only the extras of deckgym bring."""
    requires = metadata.requires("deckgym") or []
    core = _closure({_name(r) for r in requires if "extra ==" not in r})
    extras = _closure({_name(r) for r in requires if "extra ==" in r}) - core - {"deckgym"}
    modules = metadata.packages_distributions()
    return sorted(
        m
        for m, dists in modules.items()
        if dists and all(d.lower().replace("_", "-") in extras for d in dists) and m.isidentifier()
    )


#: Runs ``deckgym ARGS`` with the extras' modules hidden (the list comes as the first argument).
RUNNER = """
import importlib.abc, sys
hidden = set(sys.argv[1].split(","))
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in hidden:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Hide())
sys.argv = ["deckgym", *sys.argv[2:]]
from deckgym.cli import main
main()
"""


def _core_deckgym(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUNNER, ",".join(_extras_only_modules()), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "ignore", "DECKGYM_DEBUG": ""},
        stdin=subprocess.DEVNULL,
    )


def test_the_extras_hide_torch_and_the_training_libraries_but_not_the_command_line():
    hidden = _extras_only_modules()
    assert {"torch", "stable_baselines3", "sb3_contrib", "matplotlib"} <= set(hidden)
    assert not {"typer", "numpy", "gymnasium", "pettingzoo"} & set(hidden)


def test_a_core_install_prints_the_version():
    r = _core_deckgym("--version")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("deckgym ")


def test_a_core_install_lists_the_environments():
    r = _core_deckgym("envs")
    assert r.returncode == 0, r.stderr[-2000:]
    from deckgym import envs

    assert [line.split()[0] for line in r.stdout.splitlines()] == envs.names()


def test_a_core_install_evaluates_the_rule_agents():
    r = _core_deckgym("evaluate", "mow_v1", "--games", "2", "--workers", "1", "--json")
    assert r.returncode == 0, r.stderr[-2000:]
    assert '"games": 2' in r.stdout


@pytest.mark.parametrize(
    "args",
    [["train", "mow_v1", "--timesteps", "100"], ["evaluate", "mow_v1", "--agent", "ppo:pretrained"]],
    ids=["train", "evaluate ppo"],
)
def test_a_command_that_needs_the_train_extra_says_so_in_one_line(args, tmp_path):
    r = _core_deckgym(*args)
    assert r.returncode == 2, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs the [train] extra (pip install 'deckgym[train]')" in lines[0]
    assert "torch" in lines[0]

"""The distribution: one import name, ``deckgym``, that works beside a user's own ``envs``/``agents``."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import deckgym

ROOT = Path(__file__).resolve().parents[1]


def _readme_quickstart() -> str:
    """The README's first Python block (the env quickstart)."""
    text = (ROOT / "README.md").read_text()
    return re.search(r"```python\n(.*?)```", text, re.DOTALL).group(1)


@pytest.mark.slow
def test_the_wheel_installs_exactly_one_top_level_package(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            tmp_path,
            ROOT,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("deckgym-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"deckgym"}
    # deckgym/envs and deckgym/agents are inside it, with their data files
    for part in (
        "deckgym/envs/medarot_ocg/rules/__init__.py",
        "deckgym/envs/amalogs/rules/duel.py",
        "deckgym/agents/heuristic/mow.py",
        "deckgym/agents/play/levels.json",
        "deckgym/agents/models/mow_v1.zip",
        "deckgym/envs/mow/cards/core.toml",
    ):
        assert part in names, part
    # every data file of the tree (card pools, starter decks, the page, models) is in the wheel
    tracked = subprocess.run(
        ["git", "ls-files", "deckgym/envs", "deckgym/agents"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    data = [p for p in tracked if not p.endswith(".py")]
    assert data and not [p for p in data if p not in names]
    (entry,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    assert "deckgym = deckgym.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_the_quickstart_runs_beside_a_users_own_envs_and_agents_packages(tmp_path):
    """Many RL projects have folders named ``envs`` and ``agents``; deckgym imports none of them."""
    for name in ("envs", "agents"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('the user\\'s own {name}')\n")
    code = (
        _readme_quickstart()
        + "\nimport sys\nprint(sorted(m for m in sys.modules if m in ('envs', 'agents')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    # the user's packages still import as theirs
    mine = subprocess.run(
        [sys.executable, "-c", "import deckgym.envs, envs"],
        check=False,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "the user's own envs" in mine.stderr


def test_version_and_the_version_option():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "deckgym.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", deckgym.__version__)
    assert f"## {deckgym.__version__}" in (ROOT / "CHANGELOG.md").read_text()
    done = subprocess.run(
        [sys.executable, "-m", "deckgym", "--version"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == deckgym.version_line()
    assert done.stdout.startswith(f"deckgym {deckgym.__version__} (pure-Python engines; Python ")

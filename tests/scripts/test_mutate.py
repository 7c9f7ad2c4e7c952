"""scripts/mutate.py: per-package work folders and settings, scores, and argument errors (mutmut runs in CI)."""

from __future__ import annotations

import tomllib

import pytest

from tests.scripts import ROOT, load_script


def test_each_package_gets_its_own_settings_and_keeps_the_project_tables(tmp_path):
    mutate = load_script("mutate")
    work = mutate.prepare("mow", tmp_path)
    assert (work / "envs").resolve() == ROOT / "envs" and (work / "tests").resolve() == ROOT / "tests"
    conf = tomllib.loads((work / "pyproject.toml").read_text())
    mm = conf["tool"]["mutmut"]
    assert mm["only_mutate"] == ["envs/mow/rules/*"]
    assert mm["pytest_add_cli_args_test_selection"] == ["tests/envs/mow"]
    assert conf["project"]["name"] == "deckgym" and "pytest" in conf["tool"]  # the rest is kept
    assert set(mutate.PACKAGES) == {"core", "medarot_ocg", "medarot_parts", "mow", "amalogs", "agents"}


def test_score_counts_timeouts_as_killed_and_ignores_mutants_not_run():
    mutate = load_script("mutate")
    assert mutate.score({"killed": 6, "timeout": 2, "survived": 2, "not checked": 90}) == pytest.approx(0.8)
    assert mutate.score({"not checked": 5}) is None


def test_unknown_packages_are_refused_with_the_known_ones(capsys):
    mutate = load_script("mutate")
    with pytest.raises(SystemExit) as exc:
        mutate.main(["rulez"])
    assert exc.value.code == 2
    assert "unknown package(s) rulez; known: core, medarot_ocg" in capsys.readouterr().err

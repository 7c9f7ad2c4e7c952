"""The ``agents.training`` package: its public names, and what importing it costs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from deckgym.agents import training


@pytest.mark.parametrize("name", training.__all__)
def test_every_public_name_comes_from_its_module(name):
    module = training._EXPORTS[name]
    value = getattr(training, name)
    assert getattr(sys.modules[f"deckgym.agents.training.{module}"], name) is value
    assert name in dir(training)


def test_public_names_and_exports_agree_and_unknown_names_fail():
    assert sorted(training.__all__) == sorted(training._EXPORTS)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = training.nope


def test_the_training_function_is_not_shadowed_by_a_submodule():
    import deckgym.agents.training.loop  # noqa: F401  (a loaded submodule becomes a package attribute)
    from deckgym.agents.training import train

    assert callable(train) and train.__module__ == "deckgym.agents.training.loop"


def test_importing_the_settings_loads_no_torch_gymnasium_or_environments():
    code = (
        "import sys; from deckgym.agents.training import TrainConfig, default_opponents\n"
        "print(*[m in sys.modules for m in ('torch', 'stable_baselines3', 'gymnasium', 'deckgym.envs')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False"] * 4, out.stdout + out.stderr

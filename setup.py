"""Packaging: one import name, ``deckgym``, over the repository's top-level ``envs/`` and ``agents/``.

The repository keeps ``envs/`` and ``agents/`` at its top; the wheel installs them as
``deckgym.envs`` and ``deckgym.agents`` (``package_dir``), so the distribution adds exactly
one top-level name to site-packages. Everything else is in ``pyproject.toml``.
"""

from setuptools import find_packages, setup

SUBPACKAGES = [f"deckgym.{name}" for name in find_packages(include=["envs", "envs.*", "agents", "agents.*"])]

setup(
    packages=["deckgym", *SUBPACKAGES],
    package_dir={"deckgym": "deckgym", "deckgym.envs": "envs", "deckgym.agents": "agents"},
)

"""deckgym: exact trading-card-game engines as PettingZoo environments, with agents to train and play.

Everything is imported through this one name:

    from deckgym import envs, agents
    env = envs.make("medarot_ocg_v1", mode="beginner")

``deckgym.envs`` holds the rulesets and their environments, ``deckgym.agents`` the agents,
training, deck tools and play, and ``deckgym.cli`` the ``deckgym`` command.
"""

from __future__ import annotations

import platform as _platform
from pathlib import Path as _Path

#: The package version (the build reads it from here; CHANGELOG.md says what each one changed).
__version__ = "0.2.0"

# In an installed wheel ``envs`` and ``agents`` sit inside this package. In the repository they
# are folders beside it (the project's layout keeps ``envs/`` and ``agents/`` at the top, and
# the build maps them here), so a source tree that runs without an install finds them there.
_here = _Path(__file__).resolve().parent
if not (_here / "envs").is_dir() and (_here.parent / "envs" / "__init__.py").is_file():
    __path__.append(str(_here.parent))  # type: ignore[name-defined]

#: Whether the engines run as compiled modules (no compiled build exists yet: pure Python).
COMPILED = False


def version_line() -> str:
    """One line for ``deckgym --version``: the package, how its engines run, and Python."""
    build = "compiled engines" if COMPILED else "pure-Python engines"
    return f"deckgym {__version__} ({build}; Python {_platform.python_version()})"


def provenance(env: str | None = None, options: dict | None = None, **seeds: int) -> dict:
    """What made a result: the package version and build, Python, the env id and options, seeds, the command.

    Every JSON file and ``--json`` output of ``deckgym`` carries it under ``"provenance"``.
    """
    import sys

    out: dict = {
        "deckgym": __version__,
        "compiled": COMPILED,
        "python": _platform.python_version(),
        "command": " ".join(["deckgym", *sys.argv[1:]]) if sys.argv and sys.argv[0] else "",
    }
    if env is not None:
        out["env"] = env
        out["options"] = dict(options or {})
    out.update(seeds)
    return out


__all__ = ["COMPILED", "__version__", "provenance", "version_line"]

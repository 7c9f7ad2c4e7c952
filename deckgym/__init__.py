"""deckgym: exact trading-card-game engines as PettingZoo environments, with agents to train and play.

Everything is imported through this one name:

    from deckgym import envs, agents
    env = envs.make("medarot_ocg_v1", mode="beginner")

``deckgym.envs`` holds the rulesets and their environments, ``deckgym.agents`` the agents,
training, deck tools and play, and ``deckgym.cli`` the ``deckgym`` command.
"""

from __future__ import annotations

import os as _os
import platform as _platform
import sys as _sys
from pathlib import Path as _Path

#: The package version (the build reads it from here; CHANGELOG.md says what each one changed).
__version__ = "0.2.0"

_here = _Path(__file__).resolve().parent

#: The extension module that holds every compiled engine and encoder (``make compile``).
NATIVE_GROUP = "deckgym.envs._native__mypyc"


class _SourceOnly:
    """An import finder that loads deckgym's modules from their ``.py`` source only.

    With ``DECKGYM_PURE=1`` it stands first on ``sys.meta_path``, so a compiled module beside
    its source is passed over: the pure-Python reference runs (for debugging, coverage and
    mutation testing) from the same tree.
    """

    @staticmethod
    def find_spec(fullname: str, path: object = None, target: object = None) -> object:
        import importlib.util

        if not fullname.startswith("deckgym.") or path is None:
            return None
        name = fullname.rpartition(".")[2]
        for entry in path:  # type: ignore[attr-defined]
            base = _Path(entry)
            package = base / name / "__init__.py"
            if package.is_file():
                return importlib.util.spec_from_file_location(
                    fullname, package, submodule_search_locations=[str(package.parent)]
                )
            module = base / f"{name}.py"
            if module.is_file():
                return importlib.util.spec_from_file_location(fullname, module)
        return None


def compiled_sources(package: _Path | None = None) -> tuple[list[str], list[str]]:
    """The compiled build's list (``compiled.txt`` beside this file): (compiled, interpreted) paths.

    Paths are from the package's folder (``envs/core/state.py``, ``deckgym/envs/core/state.py``
    in the repository); setup.py, the Makefile and the tests read the same file.
    """
    text = ((_here if package is None else package) / "compiled.txt").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    compiled = [line for line in lines if not line.startswith("-")]
    interpreted = [line[1:].strip() for line in lines if line.startswith("-")]
    return compiled, interpreted


def _stale_build(package: _Path) -> str:
    """In a source tree (``package``, the package's folder), a compiled module whose source changed since the build, or "".

    The compiled code of every module is in the group library (in ``envs/``), so each source
    of the list (``compiled_sources``) is compared with it; a module the list leaves interpreted
    that still has a compiled copy (from a build when it was compiled) makes the build stale too,
    as Python would load that copy. No library, no build to be stale.
    """
    group = max((lib.stat().st_mtime for lib in (package / "envs").glob("_native__mypyc*.so")), default=None)
    if group is None:
        return ""
    compiled, interpreted = compiled_sources(package)
    for path in compiled:
        source = package / path
        if source.is_file() and source.stat().st_mtime > group:
            return path
    for path in interpreted:  # a module the list now leaves interpreted, with its old compiled copy beside it
        source = package / path
        if any(source.parent.glob(source.stem + ".*.so")):
            return path
    return ""


_PURE = _os.environ.get("DECKGYM_PURE", "") not in ("", "0")
if not _PURE and (_here.parent / "setup.py").is_file():  # a source tree, not an installed wheel
    _stale = _stale_build(_here)
    if _stale:
        import warnings as _warnings

        _warnings.warn(
            f"{_stale} is newer than its compiled build: running the pure-Python source "
            "(`make compile` rebuilds the compiled engines)",
            stacklevel=2,
        )
        _PURE = True
if _PURE:
    _sys.meta_path.insert(0, _SourceOnly)  # type: ignore[arg-type]


def _compiled() -> bool:
    """Whether the engines run as compiled modules (the extension group is loaded)."""
    import deckgym.envs.core.state as core_state

    return not (core_state.__file__ or "").endswith(".py")


def __getattr__(name: str) -> object:
    # ``deckgym.compiled`` (and ``COMPILED``): which build runs, found on first use.
    if name in ("compiled", "COMPILED"):
        return _compiled()
    raise AttributeError(f"module 'deckgym' has no attribute {name!r}")


def version_line() -> str:
    """One line for ``deckgym --version``: the package, how its engines run, and Python."""
    build = "compiled engines" if _compiled() else "pure-Python engines"
    return f"deckgym {__version__} ({build}; Python {_platform.python_version()})"


def provenance(env: str | None = None, options: dict | None = None, **seeds: int) -> dict:
    """What made a result: the package version and build, Python, the env id and options, seeds, the command.

    Every JSON file and ``--json`` output of ``deckgym`` carries it under ``"provenance"``.
    """
    import sys

    out: dict = {
        "deckgym": __version__,
        "compiled": _compiled(),
        "python": _platform.python_version(),
        "command": " ".join(["deckgym", *sys.argv[1:]]) if sys.argv and sys.argv[0] else "",
    }
    if env is not None:
        out["env"] = env
        out["options"] = dict(options or {})
    out.update(seeds)
    return out


__all__ = ["__version__", "provenance", "version_line"]

"""Packaging: one import name, ``deckgym``, whose folders are the packages (``deckgym/envs``, ``deckgym/agents``).

The repository's top-level ``envs`` and ``agents`` are links to ``deckgym/envs`` and
``deckgym/agents``, so the layout keeps them at its top while every tool reads the modules
under their import names. The distribution adds exactly one top-level name to site-packages.
Everything else is in ``pyproject.toml``.

With ``DECKGYM_COMPILE=1`` the engines and encoders (``deckgym/compiled.txt``) are also compiled
with mypyc, from the same source, into one extension group ``deckgym.envs._native__mypyc``
(``make compile`` builds them in place; ``docs/speed.md`` says how to build the wheels).
"""

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

#: When this build began, before mypyc read the sources: a source saved later is newer than the build.
STARTED = time.time()
PACKAGES = find_packages(include=["deckgym", "deckgym.*"])

#: The list of the compiled build: one path a line, "-" before a module left interpreted.
COMPILED_LIST = Path("deckgym/compiled.txt")


def compiled_modules() -> list[str]:
    """The modules of ``deckgym/compiled.txt`` to compile, as paths from the repository's root."""
    lines = (line.strip() for line in COMPILED_LIST.read_text(encoding="utf-8").splitlines())
    return [str(Path("deckgym") / line) for line in lines if line and line[0] not in "#-"]


def ext_modules() -> list:
    """The compiled modules as extensions (with ``DECKGYM_COMPILE=1``), else none: a pure build."""
    if os.environ.get("DECKGYM_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    extensions = mypycify(
        compiled_modules(), group_name="deckgym.envs._native", opt_level="3", debug_level="0", multi_file=True
    )
    for ext in extensions:  # the per-module C files include the group's header from its package folder
        ext.include_dirs.append(str(Path("build/deckgym/envs")))
    return extensions


class ParallelBuildExt(build_ext):
    """``build_ext`` that compiles on every core: the extensions, and the C files of each.

    The compiled group is one extension of about a hundred C files (``multi_file``, one per
    module); setuptools would compile them one after another.
    """

    def build_extensions(self) -> None:
        """Build as setuptools does, with each extension's C files compiled side by side."""
        compile_some = self.compiler.compile

        def compile_all(sources: list[str], *args: object, **kwargs: object) -> list[str]:
            if len(sources) < 2:
                return compile_some(sources, *args, **kwargs)
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                done = pool.map(lambda source: compile_some([source], *args, **kwargs), sources)
                return [obj for objs in done for obj in objs]

        self.compiler.compile = compile_all
        self.parallel = self.parallel or True  # and the extensions (a small loader per module) side by side
        super().build_extensions()

    def run(self) -> None:
        """Build, then mark every extension as built from the sources as they were when the build began.

        mypyc rewrites a C file only when its text changes, and setuptools relinks only when a C
        file is newer than the library; so after an edit that leaves the C code as it was (a
        docstring, a comment), the library keeps its old time. ``deckgym`` compares the sources'
        times with the library's to find a stale build, so the build touches what it checked.
        """
        super().run()
        for ext in self.extensions:
            built = Path(self.get_ext_fullpath(ext.name))
            if built.is_file():
                os.utime(built, (STARTED, STARTED))


setup(
    packages=PACKAGES,
    package_data={"deckgym": ["compiled.txt"]},
    ext_modules=ext_modules(),
    cmdclass={"build_ext": ParallelBuildExt},
)

"""Exit 0 when this machine can build the compiled engines: mypyc, a C compiler and Python's headers.

``make install`` (through ``make compile``) asks it before it runs ``setup.py build_ext``.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import sysconfig
from pathlib import Path


def missing() -> list[str]:
    """What the compiled build lacks here (empty when it can be built)."""
    out = []
    if importlib.util.find_spec("mypyc") is None:
        out.append("mypyc (pip install mypy)")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        out.append(f"a C compiler ({compiler})")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        out.append("Python's headers (Python.h; Debian: python3-dev)")
    return out


if __name__ == "__main__":
    lacking = missing()
    if lacking:
        print("the compiled build needs " + ", ".join(lacking))
    sys.exit(1 if lacking else 0)

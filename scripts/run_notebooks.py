"""Run the notebooks as Jupyter does (nbclient and an IPython kernel), and store their outputs.

    python scripts/run_notebooks.py                # run every notebook; exit 1 on an error
    python scripts/run_notebooks.py --write        # also write the outputs into the .ipynb files
    python scripts/run_notebooks.py notebooks/quickstart.ipynb

Needs the ``[notebooks]`` extra (``pip install -e '.[notebooks]'``). The kernel starts in the
repository root, so the notebooks read the package and write under ``runs/`` as they would
from a checkout.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def execute(path: Path, timeout: int = 900) -> Any:
    """The notebook at ``path`` run top to bottom in a fresh kernel (an ``nbformat`` node).

    Raises:
        nbclient.exceptions.CellExecutionError: a cell raised; the message has the traceback.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(
        nb.cells
    ):  # cell ids (nbformat 4.5): stable ones, so a rerun changes only outputs
        cell.setdefault("id", f"cell-{i}")
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()
    return nb


def main(argv: list[str] | None = None) -> int:
    """Run the notebooks; with ``--write`` store their outputs. Exit 1 if one fails."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", type=Path, help="notebooks (default: every one in notebooks/)")
    ap.add_argument("--write", action="store_true", help="write the outputs into the notebook files")
    args = ap.parse_args(argv)
    import nbformat
    from nbclient.exceptions import CellExecutionError

    failed = 0
    for path in args.paths or NOTEBOOKS:
        t0 = time.perf_counter()
        try:
            nb = execute(path)
        except CellExecutionError as exc:
            print(f"{path}: FAILED\n{exc}", file=sys.stderr)
            failed += 1
            continue
        if args.write:
            nbformat.write(nb, path)
        print(
            f"{path}: ran in {time.perf_counter() - t0:.0f} s" + (" (outputs written)" if args.write else "")
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

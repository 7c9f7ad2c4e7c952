"""Every notebook runs as Jupyter runs it (nbclient and an IPython kernel), and ships with its outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scripts import load_script

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def _code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def test_there_are_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"quickstart.ipynb", "deck_strength.ipynb", "training.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_shipped_notebook_has_the_outputs_of_every_code_cell(path):
    """A reader on GitHub sees the results without running anything."""
    cells = _code_cells(json.loads(path.read_text()))
    assert cells and all(c["outputs"] for c in cells), [c["source"][:1] for c in cells if not c["outputs"]]
    assert not any(o["output_type"] == "error" for c in cells for o in c["outputs"])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_notebook_runs_in_a_kernel_top_to_bottom(path):
    pytest.importorskip("nbclient", reason="the [notebooks] extra (make test installs it)")
    nb = load_script("run_notebooks").execute(path)
    cells = _code_cells(nb)
    assert all(c["outputs"] for c in cells)
    kinds = {o["output_type"] for c in cells for o in c["outputs"]}
    assert "error" not in kinds and "stream" in kinds
    if path.name in ("deck_strength.ipynb", "training.ipynb"):  # the heatmap / learning curve is shown inline
        assert any("image/png" in o.get("data", {}) for c in cells for o in c["outputs"])

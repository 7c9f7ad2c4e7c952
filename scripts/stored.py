"""Checking results against the ones stored in a JSON file, one entry per variant label.

``fingerprint.py --check`` and ``event_log.py --check`` compare what they computed with what a
file in ``tests/data/`` holds, print a line for every label that differs, and exit 1 if any does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def compare_stored(
    got: dict[str, Any],
    path: Path,
    line: Callable[[str, dict[str, Any]], str],
    field: str | None = None,
    every_stored: bool = True,
) -> list[str]:
    """The labels whose entry in ``got`` differs from the one stored in ``path`` (a JSON object).

    Compared are the whole entries, or only their ``field``. The labels are those of ``got``
    and, with ``every_stored``, those stored and missing from ``got`` too (sorted then): a
    variant no longer computed differs. For each label that differs ``line(label, stored)``
    is printed (``stored`` is ``{}`` for a label missing from the file).
    """
    want: dict[str, Any] = json.loads(path.read_text())

    def value(entry: dict[str, Any] | None) -> Any:
        return entry if field is None or entry is None else entry.get(field)

    labels = sorted(set(want) | set(got)) if every_stored else list(got)
    bad = [k for k in labels if value(want.get(k)) != value(got.get(k))]
    for k in bad:
        print(line(k, want.get(k, {})))
    return bad

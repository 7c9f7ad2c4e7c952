"""The compiled build (mypyc) against the pure-Python reference it is compiled from.

* ``deckgym.compiled`` says which build runs, and ``DECKGYM_PURE=1`` runs the pure source.
* Every event of fixed-seed random games of every variant has the same digest in both builds
  (the event records carry every rule step, so a compiled rule that differs shows here).
* Where CI requires the compiled build (``DECKGYM_REQUIRE_COMPILED=1``) it must be the one
  that runs: a build that failed or did not load is an error there, never a fallback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import deckgym

ROOT = Path(__file__).resolve().parents[1]
BUILT = any((ROOT / "envs").glob("_native__mypyc*"))

#: Prints ``{variant: sha256 of all its events}`` over three seeds per variant.
DIGESTS = """
import hashlib, json, sys
sys.path.insert(0, "scripts")
from bench import VARIANTS, label_of
from event_log import game_events
import deckgym
out = {"compiled": deckgym.compiled}
for name, variants in VARIANTS.items():
    for kwargs in variants:
        h = hashlib.sha256()
        for seed in (3, 11, 29):
            h.update(json.dumps(game_events(name, kwargs, seed), sort_keys=True).encode())
        out[label_of(name, kwargs)] = h.hexdigest()
print(json.dumps(out))
"""


def _digests(pure: bool) -> dict[str, object]:
    command = [sys.executable, "-c", DIGESTS]
    env = {**os.environ, "DECKGYM_PURE": "1" if pure else "0"}
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_the_build_that_runs_is_the_one_required() -> None:
    if os.environ.get("DECKGYM_REQUIRE_COMPILED", "0") not in ("", "0"):
        assert BUILT, "DECKGYM_REQUIRE_COMPILED is set but no compiled build exists (make compile)"
        assert _digests(pure=False)["compiled"] is True
    assert deckgym.compiled is (BUILT and os.environ.get("DECKGYM_PURE", "0") in ("", "0"))


@pytest.mark.skipif(
    not BUILT, reason="no compiled build here (make compile needs mypyc, a C compiler and Python.h)"
)
def test_every_event_of_fixed_games_is_the_same_in_both_builds() -> None:
    pure, compiled = _digests(pure=True), _digests(pure=False)
    assert pure.pop("compiled") is False and compiled.pop("compiled") is True
    assert len(pure) >= 8
    assert compiled == pure

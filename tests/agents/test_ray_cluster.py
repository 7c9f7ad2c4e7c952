"""Deck matches on a Ray cluster of several nodes: a local multi-node cluster on one machine.

The head node has no CPUs, so every game runs on the other nodes (each its own raylet, as a
machine of a real cluster is). The pool joins the cluster through ``RAY_ADDRESS``, as
``deckgym decks ... --backend ray`` does (docs/cluster.md).
"""

from __future__ import annotations

import pytest

ray = pytest.importorskip("ray", reason="the distributed extra (make test installs it)")

from deckgym.agents import arena
from deckgym.agents.decks.matches import deck_match
from tests.scripts import ROOT, load_script

MATCH = {"games": 8, "seed": 9, "workers": 2, "mode": "normal"}


@pytest.fixture
def cluster(monkeypatch):
    c = load_script("local_cluster").start(nodes=2, cpus=1)  # the script's own cluster
    try:
        monkeypatch.setenv("RAY_ADDRESS", c.address)
        yield c
    finally:
        if ray.is_initialized():
            ray.shutdown()
        c.shutdown()


@pytest.mark.slow
def test_a_deck_match_on_a_multi_node_cluster_plays_the_local_games(cluster):
    local = deck_match("medarot_ocg_v1", "normal_bulwark", "normal_vanguard", **MATCH)
    with arena.pool("ray", 2) as pool:  # workers given: joining a cluster must not pass num_cpus
        remote = deck_match("medarot_ocg_v1", "normal_bulwark", "normal_vanguard", **MATCH)
        nodes = [n for n in ray.nodes() if n["Alive"]]  # the cluster's three, not a local one-node Ray
        assert len(nodes) == 3 and sorted(n["Resources"].get("CPU", 0) for n in nodes) == [0, 1, 1]
        assert pool.tasks  # the games ran as Ray tasks, on the two nodes with CPUs
    assert remote.pairs == local.pairs


@pytest.mark.slow
def test_the_local_cluster_script_runs_a_command_on_its_nodes_and_returns_its_status():
    import subprocess
    import sys

    script = ROOT / "scripts" / "local_cluster.py"
    code = (
        "import ray, sys; ray.init(); r = ray.cluster_resources();"
        "print(len(ray.nodes()), int(r['CPU'])); sys.exit(3)"
    )
    run = subprocess.run(
        [sys.executable, str(script), "--nodes", "2", "--cpus", "1", "--", sys.executable, "-c", code],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 3, run.stderr[-2000:]  # the command's own status
    assert run.stdout.split()[-2:] == ["3", "2"]  # the head and two nodes, 2 CPUs (none on the head)
    bad = subprocess.run(
        [sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and "give the command to run after --" in bad.stderr

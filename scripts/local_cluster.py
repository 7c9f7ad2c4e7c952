"""Run a command on a Ray cluster of several nodes started on this machine.

    python scripts/local_cluster.py [--nodes 2] [--cpus 1] -- COMMAND [ARGS...]

It starts a head node with no CPUs and ``--nodes`` worker nodes of ``--cpus`` CPUs each
(``ray.cluster_utils.Cluster``: every node its own raylet and object store, as the machines
of a real cluster are), runs ``COMMAND`` with ``RAY_ADDRESS`` set to the head, and stops the
cluster when it ends; the exit status is the command's. As the head has no CPUs, every Ray
task and actor the command starts runs on a worker node, so a command that works here works
on a cluster of machines (docs/cluster.md). Examples:

    python scripts/local_cluster.py -- deckgym decks rate mow_v1 --decks ashen_aggro,iron_bulwark,tide_control --backend ray
    python scripts/local_cluster.py -- python scripts/rllib_ppo.py --batched 64 --env-runners 2

Needs the ``distributed`` extra (Ray).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from typing import Any


def start(nodes: int, cpus: int) -> Any:
    """A started ``ray.cluster_utils.Cluster``: a head with no CPUs and ``nodes`` nodes of ``cpus`` CPUs."""
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    try:
        for _ in range(nodes):
            cluster.add_node(num_cpus=cpus)
        cluster.wait_for_nodes()
    except BaseException:
        cluster.shutdown()
        raise
    return cluster


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", type=int, default=2, help="worker nodes (the head has no CPUs)")
    ap.add_argument("--cpus", type=int, default=1, help="CPUs of each worker node")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command to run, after --")
    args = ap.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error(
            "give the command to run after --, e.g. -- deckgym decks rate mow_v1 --decks ashen_aggro,tide_control --backend ray"
        )
    if not 1 <= args.nodes <= 64 or not 1 <= args.cpus <= 1024:
        ap.error(f"--nodes must be in 1..64 and --cpus in 1..1024, got {args.nodes} and {args.cpus}")
    if importlib.util.find_spec("ray") is None:
        ap.error("Ray is needed: pip install -e '.[distributed]'")

    cluster = start(args.nodes, args.cpus)
    try:
        print(
            f"a Ray cluster at {cluster.address}: a head with no CPUs and {args.nodes} nodes of "
            f"{args.cpus} CPU{'s' if args.cpus > 1 else ''}",
            file=sys.stderr,
            flush=True,
        )
        return subprocess.call(command, env={**os.environ, "RAY_ADDRESS": cluster.address})
    finally:
        cluster.shutdown()


if __name__ == "__main__":
    sys.exit(main())

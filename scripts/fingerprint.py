"""Trajectory fingerprints: one hash per variant of everything an AEC game shows its players.

Along fixed games of every variant (``envs.games.variants()``) it hashes, at every step, the
observation, the action mask, the reward, the termination and truncation flags and the info
of ``env.last()``, and the action taken. The actions come from a seeded random player
(``--policy random``), from the heuristic on both sides (``heuristic``), or from ``search``
(the search agent, on few worlds) on both sides, so the heuristics' and the search's choices
are fingerprinted too. Equal hashes before and after a change mean the change kept every
observation, mask, reward, info and choice the same: this is how a speed-up is checked.

    python scripts/fingerprint.py                      # print the hashes
    python scripts/fingerprint.py --write FILE         # store them
    python scripts/fingerprint.py --check FILE         # compare; exit 1 on any difference

``tests/data/fingerprints.json`` holds the hashes of the shipped engines, encoders and agents;
a test compares them, so a change of behaviour is seen. After an intended change of rules or
encoding, rewrite it with ``--write`` and say so in the commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stored import compare_stored

from deckgym.envs.games import label as label_of
from deckgym.envs.games import variants

#: Games per variant and policy that the stored file holds.
POLICIES = {"random": 6, "heuristic": 2, "search": 1}


def _canon(value: Any) -> Any:
    """``value`` as plain JSON data with sorted keys (numpy scalars and arrays as lists)."""
    if isinstance(value, dict):
        return {str(k): _canon(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _feed(h: Any, obs: Any) -> None:
    """Hash an observation: an array, or a dict of arrays (by sorted key)."""
    if isinstance(obs, dict):
        for key in sorted(obs):
            h.update(key.encode())
            _feed(h, obs[key])
        return
    arr = np.ascontiguousarray(obs)
    h.update(str(arr.dtype).encode() + str(arr.shape).encode())
    h.update(arr.tobytes())


def fingerprint(name: str, kwargs: dict[str, Any], policy: str, games: int, seed0: int = 0) -> dict[str, Any]:
    """The hash of ``games`` games of one variant under ``policy``, with the steps it covered."""
    from deckgym import agents, envs
    from deckgym.agents.base import bind

    h = hashlib.sha256()
    steps = 0
    for g in range(games):
        seed = seed0 + g
        env = envs.make(name, **kwargs)
        env.reset(seed=seed)
        players: dict[str, Any] = {}
        if policy != "random":
            spec = "search:2" if policy == "search" else "heuristic"
            for i, a in enumerate(env.possible_agents):
                players[a] = bind(agents.make(spec, name, seed=seed * 7 + i, **kwargs), env)
                players[a].reset(seed=seed * 7 + i)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            _feed(h, obs)
            h.update(json.dumps([agent, float(reward), bool(term), bool(trunc), _canon(info)]).encode())
            if term or trunc:
                action = None
            else:
                mask = obs["action_mask"]
                if policy == "random":
                    legal = np.flatnonzero(mask)
                    action = int(legal[rng.randrange(len(legal))])
                else:
                    action = int(players[agent].act(obs["observation"], mask))
            h.update(str(action).encode())
            env.step(action)
            steps += 1
        env.close()
    return {"hash": h.hexdigest(), "steps": steps, "games": games}


def collect(policies: dict[str, int], envs_filter: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Per ``label/policy``: the fingerprint of every variant under every policy."""
    out: dict[str, dict[str, Any]] = {}
    for name, kwargs in variants():
        label = label_of(name, kwargs)
        if envs_filter and label not in envs_filter and name not in envs_filter:
            continue
        for policy, games in policies.items():
            out[f"{label}/{policy}"] = fingerprint(name, kwargs, policy, games)
    return out


def main(argv: list[str] | None = None) -> int:
    """Print, write or check the fingerprints; exit 1 when a check finds a difference."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", type=Path, help="store the hashes in this JSON file")
    ap.add_argument("--check", type=Path, help="compare with the hashes stored in this JSON file")
    ap.add_argument("--envs", nargs="*", help="only these variants (labels as in bench.py, or env names)")
    ap.add_argument(
        "--policies",
        nargs="*",
        choices=sorted(POLICIES),
        default=sorted(POLICIES),
        help="which players make the trajectories",
    )
    args = ap.parse_args(argv)
    got = collect({p: POLICIES[p] for p in args.policies}, args.envs)
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    if args.check:
        # --envs may play only some of the stored variants: only those are compared
        bad = compare_stored(
            got,
            args.check,
            lambda k, want: f"DIFFERENT {k}: {got[k]['hash'][:16]} != {want.get('hash', 'missing')[:16]}",
            field="hash",
            every_stored=False,
        )
        print(f"{len(got) - len(bad)} of {len(got)} fingerprints unchanged")
        return 1 if bad else 0
    for k, v in got.items():
        print(f"{k:40s} {v['hash'][:16]}  {v['steps']:6d} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())

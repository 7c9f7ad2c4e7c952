"""Determinism of the Medarot OCG engine.

The same seed and the same actions give the same trajectory, within one process and in two
separate interpreter processes started with different ``PYTHONHASHSEED`` values (so that no
result depends on set or dict-of-str iteration order).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from deckgym.envs.medarot_ocg.cards import load_pool, resolve_deck, starter_decks
from deckgym.envs.medarot_ocg.config import MODES, make_config
from deckgym.envs.medarot_ocg.rules import new_game

ROOT = Path(__file__).resolve().parents[3]

# Plays a few games per mode with a seeded policy; prints one line per game:
# mode, seed, sha256 of the final to_dict, the action list and the step-by-step state hashes.
SCRIPT = r"""
import hashlib, json, random, sys
from deckgym.envs.medarot_ocg.cards import load_pool, resolve_deck, starter_decks
from deckgym.envs.medarot_ocg.config import MODES, make_config
from deckgym.envs.medarot_ocg.rules import new_game

def digest(obj):
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()

pool = load_pool()
for mode in MODES:
    cfg = make_config(mode)
    names = starter_decks(mode)
    for seed in range(int(sys.argv[1])):
        pick = random.Random(seed)
        decks = [resolve_deck(pick.choice(names), pool, cfg).expand() for _ in range(2)]
        st = new_game(cfg, pool, decks, seed)
        rng = random.Random(seed * 31 + 7)
        actions, trail = [], hashlib.sha256()
        while not st.done:
            a = rng.choice(st.legal_actions())
            actions.append([int(a.kind), a.arg])
            st.apply(a)
            trail.update(digest(st.to_dict()).encode())
        print(json.dumps([mode, seed, digest(st.to_dict()), actions, trail.hexdigest(), st.winner, st.reason]))
"""


def _run(hash_seed: str, games: int) -> list[str]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = hash_seed
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-c", SCRIPT, str(games)]
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == games * len(MODES)
    return lines


def test_same_trajectory_in_processes_with_different_hash_seeds() -> None:
    first = _run("0", 6)
    second = _run("4242", 6)
    third = _run("random", 6)
    for a, b, c in zip(first, second, third, strict=True):
        mode, seed = json.loads(a)[:2]
        assert a == b == c, f"{mode} seed {seed}: trajectories differ between processes"


def _trajectory(mode: str, seed: int, action_seed: int) -> tuple[str, list[tuple[int, int]]]:
    pool = load_pool()
    cfg = make_config(mode)
    names = starter_decks(mode)
    pick = random.Random(seed)
    decks = [resolve_deck(pick.choice(names), pool, cfg).expand() for _ in range(2)]
    st = new_game(cfg, pool, decks, seed)
    rng = random.Random(action_seed)
    actions = []
    trail = hashlib.sha256()
    while not st.done:
        a = rng.choice(st.legal_actions())
        actions.append((int(a.kind), a.arg))
        st.apply(a)
        trail.update(json.dumps(st.to_dict(), sort_keys=True).encode())
    return trail.hexdigest(), actions


def test_same_seed_and_actions_same_trajectory_in_process() -> None:
    for mode in MODES:
        for seed in range(4):
            assert _trajectory(mode, seed, seed + 1) == _trajectory(mode, seed, seed + 1)


def test_replaying_the_action_list_gives_the_same_final_state() -> None:
    pool = load_pool()
    for mode in MODES:
        cfg = make_config(mode)
        decks = [resolve_deck(n, pool, cfg).expand() for n in starter_decks(mode)[:2]]
        for seed in range(3):
            st = new_game(cfg, pool, decks, seed)
            rng = random.Random(seed)
            actions = []
            while not st.done:
                a = rng.choice(st.legal_actions())
                actions.append(a)
                st.apply(a)
            again = new_game(cfg, pool, decks, seed)
            for a in actions:
                again.apply(a)
            assert again.done and again.to_dict() == st.to_dict()


def test_different_seeds_differ() -> None:
    """The seed matters: shuffles and first player change with it (a sanity check of the test above)."""
    finals = {_trajectory("normal", seed, 1)[0] for seed in range(4)}
    assert len(finals) == 4

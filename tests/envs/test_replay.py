"""Replays: a recorded game re-simulates to the same final state."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from deckgym.envs.core.errors import StateError
from deckgym.envs.replay import Recorder, Replay, state_digest


def play(mode: str, seed: int) -> Replay:
    rec = Recorder("medarot_ocg_v1", seed=seed, mode=mode)
    rng = random.Random(seed)
    while not rec.done:
        mask = rec.env.observe(rec.env.agent_selection)["action_mask"]
        rec.step(int(rng.choice(np.flatnonzero(mask))))
    return rec.finish()


@pytest.mark.parametrize("mode", ["beginner", "normal", "advance"])
def test_replay_file_resimulates_to_the_same_final_state(tmp_path, mode):
    replay = play(mode, 3)
    path = tmp_path / "game.jsonl"
    replay.save(path)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["kwargs"]["mode"] == mode
    assert len(lines) == len(replay.actions) + 2
    loaded = Replay.load(path)
    assert loaded.actions == replay.actions and loaded.kwargs["decks"] == replay.kwargs["decks"]
    assert loaded.verify()
    env = loaded.simulate()
    assert state_digest(env.unwrapped.game) == replay.final_digest
    assert env.unwrapped.game.is_terminal()


def test_a_tampered_replay_does_not_verify(tmp_path):
    replay = play("beginner", 5)
    replay.final_digest = "0" * 64
    assert not replay.verify()


def test_malformed_replay_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "deckgym-replay/1", "env": "medarot_ocg_v1"}\n{not json\n')
    with pytest.raises(StateError, match="bad.jsonl:2"):
        Replay.load(bad)
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n')
    with pytest.raises(StateError, match="not a deckgym-replay"):
        Replay.load(other)


@pytest.mark.parametrize(
    ("env_name", "kwargs"),
    [("medarot_parts_v1", {}), ("mow_v1", {}), ("amalogs_v2", {"team_sizes": (1, 2)})],
)
def test_every_ruleset_replays_to_the_same_final_state(tmp_path, env_name, kwargs):
    rec = Recorder(env_name, seed=5, **kwargs)
    rng = random.Random(5)
    while not rec.done:
        mask = rec.env.observe(rec.env.agent_selection)["action_mask"]
        rec.step(int(rng.choice(np.flatnonzero(mask))))
    replay = rec.finish()
    path = tmp_path / "game.jsonl"
    replay.save(path)
    loaded = Replay.load(path)
    assert loaded.actions == replay.actions and len(loaded.actions) > 10
    assert loaded.verify()
    assert state_digest(loaded.simulate().unwrapped.game) == replay.final_digest

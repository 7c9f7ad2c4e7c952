"""scripts/fingerprint.py: the shipped engines, encoders and agents still play the stored trajectories."""

from __future__ import annotations

import json
from pathlib import Path

from tests.scripts import load_script

STORED = Path(__file__).resolve().parents[1] / "data" / "fingerprints.json"


def test_random_and_heuristic_trajectories_match_the_stored_fingerprints(capsys):
    """Every variant: observations, masks, rewards, infos and the heuristics' choices are unchanged."""
    fp = load_script("fingerprint")
    code = fp.main(["--check", str(STORED), "--policies", "random", "heuristic"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "16 of 16 fingerprints unchanged" in out


def test_search_trajectories_match_the_stored_fingerprints(capsys):
    fp = load_script("fingerprint")
    code = fp.main(
        ["--check", str(STORED), "--policies", "search", "--envs", "medarot_ocg_v1:beginner", "mow_v1"]
    )
    assert code == 0, capsys.readouterr().out


def test_a_changed_reward_changes_the_fingerprint(monkeypatch):
    """The hash sees a planted change: a reward scaled by 2 on MoW's final step."""
    fp = load_script("fingerprint")
    want = json.loads(STORED.read_text())["mow_v1/random"]
    assert fp.fingerprint("mow_v1", {}, "random", want["games"]) == want
    from deckgym.envs.aec import CardGameEnv

    real = CardGameEnv.step

    def doubled(self, action):
        real(self, action)
        self._cumulative_rewards = {a: 2 * r for a, r in self._cumulative_rewards.items()}

    monkeypatch.setattr(CardGameEnv, "step", doubled)
    assert fp.fingerprint("mow_v1", {}, "random", want["games"])["hash"] != want["hash"]

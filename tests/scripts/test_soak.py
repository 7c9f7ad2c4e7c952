"""scripts/soak.py: random games on every variant, the automatic-step high-water mark, failures reported."""

from __future__ import annotations

import json

from tests.scripts import load_script


def test_soak_reports_every_variant_far_below_the_auto_step_cap(capsys):
    soak = load_script("soak")
    assert soak.main(["--decisions", "4000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["label"]: r for r in out["variants"]}
    assert len(rows) == 8 and out["failures"] == 0
    for label, r in rows.items():
        assert r["decisions"] >= 500 and r["games"] >= 1, label
        assert 1 <= r["most_auto_steps_per_apply"] < r["auto_step_cap"] // 100, label


def test_soak_stops_a_variant_at_a_rules_loop_and_exits_1(monkeypatch, capsys):
    """With the MoW cap planted at 3 automatic steps, the soak must report the StateError."""
    from deckgym.envs.mow.rules import flow as mow_flow

    monkeypatch.setattr(mow_flow.AGENDA, "max_auto_steps", 3)
    soak = load_script("soak")
    assert soak.main(["--decisions", "300", "--envs", "mow_v1", "--json"]) == 1
    row = json.loads(capsys.readouterr().out)["variants"][0]
    assert row["label"] == "mow_v1" and row["error"].startswith("StateError: mow: the rules ran more than 3")
    assert row["seed"] == 0


def test_a_soak_of_10_5_decisions_passes_every_check_and_replays_the_same():
    """Every variant, 10^5 decisions on 2 workers: masks, leaks, round trips, and the replay in a fresh process."""
    import subprocess
    import sys

    from tests.scripts import ROOT

    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "soak.py"),
            "--decisions",
            "100000",
            "--workers",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert out["failures"] == 0 and out["decisions"] >= 100_000 and len(out["variants"]) == 8
    assert out["replay"]["checked"] and out["replay"]["different"] == []


class _Wrapper:
    """The real object (an encoder, a ruleset), with one method replaced by the subclass."""

    def __init__(self, real):
        self.real = real

    def __getattr__(self, name):
        return getattr(self.real, name)


class _LeakyEncoder(_Wrapper):
    """Its observation's last entry reads the opponent's hand."""

    def observe(self, state, seat):
        obs = self.real.observe(state, seat)
        hand = state.hand[1 - seat]
        obs[-1] = self.real.index[hand[0]] if hand else 0.0
        return obs


class _LossyRuleset(_Wrapper):
    """``from_dict(to_dict(s))`` no longer equals ``s``: the assets come back one higher."""

    def state_from_dict(self, data):
        st = self.real.state_from_dict(data)
        st.assets = [a + 1 for a in st.assets]
        return st


def test_the_soak_finds_a_planted_leak_and_names_where(capsys):
    """An observation that reads the opponent's hand must be caught by the resampling check."""

    def leaky(env):
        env.unwrapped.encoder = _LeakyEncoder(env.unwrapped.encoder)

    soak = load_script("soak")
    argv = ["--decisions", "600", "--envs", "mow_v1", "--json", "--check-every", "1"]
    assert soak.main(argv, prepare=leaky) == 1
    row = json.loads(capsys.readouterr().out)["variants"][0]
    assert row["error"].startswith("SoakFailure: leak: resampling what seat")
    assert row["env"] == "mow_v1" and row["options"] == {} and row["seed"] == 0


def test_the_soak_finds_a_planted_round_trip_bug(capsys):
    def lossy(env):
        env.unwrapped.ruleset = _LossyRuleset(env.unwrapped.ruleset)

    soak = load_script("soak")
    argv = ["--decisions", "300", "--envs", "medarot_parts_v1", "--json", "--no-replay"]
    assert soak.main(argv, prepare=lossy) == 1
    row = json.loads(capsys.readouterr().out)["variants"][0]
    assert row["error"].startswith("SoakFailure: round trip")

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
    from envs.mow.rules import flow as mow_flow

    monkeypatch.setattr(mow_flow.AGENDA, "max_auto_steps", 3)
    soak = load_script("soak")
    assert soak.main(["--decisions", "300", "--envs", "mow_v0", "--json"]) == 1
    row = json.loads(capsys.readouterr().out)["variants"][0]
    assert row["label"] == "mow_v0" and row["error"].startswith("StateError: mow: the rules ran more than 3")
    assert row["seed"] == 0

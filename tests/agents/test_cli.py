"""The deckgym command on tiny budgets (typer's CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import deckgym
from deckgym.agents.cli import app
from tests.agents.commands import invoke_json, invoke_ok, runner


def test_envs_lists_the_rulesets():
    result = runner.invoke(app, ["envs"])
    assert result.exit_code == 0, result.output
    for name in ("medarot_ocg_v1", "medarot_parts_v1", "mow_v1", "amalogs_v2"):
        assert name in result.output


def test_evaluate_json_and_table():
    data = invoke_json(
        "evaluate medarot_ocg_v1 --agent heuristic --opponent random --games 6 --mode normal --workers 1 --json"
    )
    # the command reports the arena's own match of the same seeds, and its Wilson interval
    from deckgym.agents.arena import match, wilson

    same = match("heuristic", "random", "medarot_ocg_v1", games=6, seed=0, workers=1, mode="normal")
    assert (data["games"], data["wins"], data["draws"], data["losses"]) == (
        6,
        same.wins,
        same.draws,
        same.losses,
    )
    assert data["wins"] >= 5  # the heuristic beats random in the normal mode
    assert data["win_ci95"] == pytest.approx(list(wilson(same.wins, 6)))
    assert data["score"] == same.score and data["score_ci95"] == pytest.approx(list(same.score_ci95))
    table = runner.invoke(app, ["evaluate", "medarot_ocg_v1", "--games", "2", "--workers", "1"])
    row = match("heuristic", "random", "medarot_ocg_v1", games=2, seed=0, workers=1)
    assert table.exit_code == 0 and "95% interval" in table.output
    assert f"{row.win_rate:.1%}" in table.output


def test_importing_the_command_loads_neither_torch_nor_stable_baselines3():
    import subprocess
    import sys

    code = "import sys, agents.cli; print('torch' in sys.modules, 'stable_baselines3' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"], out.stdout + out.stderr


def test_bad_agent_spec_is_a_clear_error():
    result = runner.invoke(
        app, ["evaluate", "medarot_ocg_v1", "--agent", "genius", "--games", "2", "--workers", "1"]
    )
    assert result.exit_code != 0
    assert "unknown agent spec" in str(result.exception)


def test_evaluate_team_env_with_options():
    data = invoke_json(
        "evaluate amalogs_v2 --games 2 --workers 1 --json", "--options", '{"team_sizes": [1, 2]}'
    )
    assert data["games"] == 2 and data["env_kwargs"] == {"team_sizes": [1, 2]}


@pytest.mark.parametrize("bad", ["{not json", "[1, 2]"])
def test_bad_options_are_a_clear_error(bad):
    result = runner.invoke(app, ["evaluate", "mow_v1", "--options", bad, "--games", "2", "--workers", "1"])
    assert result.exit_code != 0
    assert "--options" in result.output


@pytest.mark.parametrize(
    ("bad", "named"),
    [("{not json", "not valid JSON"), ("[1]", "must be a JSON object"), ('{"ent_coeff": 0.1}', "ent_coeff")],
)
def test_bad_train_config_is_a_clear_error(bad, named, tmp_path):
    result = runner.invoke(app, ["train", "mow_v1", "--out", str(tmp_path), "--config", bad])
    assert result.exit_code != 0
    assert named in result.output and not (tmp_path / "model.zip").exists()


def _quick_train(out: Path, env: str, timesteps: int, games: int, more: str, config: str) -> str:
    """The output of a short ``deckgym train ENV MORE`` into ``out`` with the ``--config`` JSON (two envs,
    one worker, no progress bar, an evaluation of ``games`` games every half of the ``timesteps``), which
    must exit with 0."""
    return invoke_ok(
        f"train {env} {more} --timesteps {timesteps} --eval-games {games} --final-games {games}"
        f" --eval-every {timesteps // 2} --n-envs 2 --workers 1 --no-progress",
        "--out",
        str(out),
        "--config",
        config,
    ).output


@pytest.mark.train
def test_train_writes_model_eval_and_curve(tmp_path):
    out = tmp_path / "run"
    more = "--mode beginner --pretrain-games 3 --opponents heuristic:0.5,random:0.5"
    output = _quick_train(out, "medarot_ocg_v1", 1024, 4, more, '{"ent_coef": 0.02, "n_epochs": 2}')
    for name in ("model.zip", "imitation.zip", "eval.json", "learning_curve.png"):
        assert (out / name).exists()
    train = json.loads((out / "train.json").read_text())
    config = train["config"]
    assert (config["ent_coef"], config["n_epochs"], config["timesteps"]) == (0.02, 2, 1024)
    report = json.loads((out / "eval.json").read_text())
    for prov in (train["provenance"], report["provenance"]):  # what made the files
        assert prov["env"] == "medarot_ocg_v1" and prov["options"] == {"mode": "beginner"}
        assert prov["seed"] == 0 and prov["deckgym"] == deckgym.__version__
    assert [r["opponent"] for r in report["results"]] == ["random", "heuristic"]
    for r in report["results"]:  # the score with its interval over pairs, beside win/draw/loss
        lo, hi = r["score_ci95"]
        assert r["score"] == pytest.approx(r["win_rate"] + r["draw_rate"] / 2) and lo <= r["score"] <= hi
    assert "95% interval" in output


def _settings(*args: str) -> dict:
    """The settings ``deckgym train ARGS --show-config`` prints."""
    result = runner.invoke(app, ["train", *args, "--show-config"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_preset_gives_way_to_every_option_given_even_at_its_default_value():
    from deckgym.agents.training.config import PRESETS, TrainConfig

    strong = _settings("mow_v1", "--preset", "strong")
    assert strong["timesteps"] == PRESETS["strong"]["timesteps"] > TrainConfig().timesteps
    # --timesteps 400000 is TrainConfig's default: given, it still wins over the preset's 3,000,000
    mine = _settings("mow_v1", "--preset", "strong", "--timesteps", str(TrainConfig().timesteps))
    assert mine["timesteps"] == TrainConfig().timesteps
    assert mine["pretrain_games"] == PRESETS["strong"]["pretrain_games"]
    assert _settings("mow_v1", "--preset", "default") == _settings("mow_v1")


def test_every_trainconfig_field_is_an_option_with_the_fields_help():
    import dataclasses

    from deckgym.agents.cli_train import OWN_FORM, option_name
    from deckgym.agents.training.config import TrainConfig, field_help

    helps = field_help()
    text = runner.invoke(app, ["train", "--help"], env={"COLUMNS": "400"}).output
    for f in dataclasses.fields(TrainConfig):
        assert helps.get(f.name)
        if f.name not in OWN_FORM:
            assert option_name(f.name) in text, f.name
    settings = _settings(
        "mow_v1",
        "--n-envs",
        "3",
        "--ent-coef",
        "0.02",
        "--net-arch",
        "64,32",
        "--no-progress",
        "--final-games",
        "8",
    )
    assert (settings["n_envs"], settings["ent_coef"], settings["net_arch"]) == (3, 0.02, [64, 32])
    assert (settings["progress_bar"], settings["final_games"], settings["eval_games"]) == (False, 8, 40)


def test_the_layers_are_defaults_then_env_then_preset_then_options_then_config():
    s = _settings("medarot_ocg_v1", "--preset", "strong", "--n-steps", "4096", "--config", '{"n_epochs": 3}')
    assert (s["n_steps"], s["n_epochs"], s["pretrain_games"], s["opponents"]) == (
        4096,
        3,
        3000,
        {"heuristic": 1.0},
    )
    assert (
        _settings("medarot_ocg_v1", "--n-steps", "4096", "--config", '{"n_steps": 1024}')["n_steps"] == 1024
    )


def test_show_config_writes_nothing(tmp_path):
    _settings("mow_v1", "--out", str(tmp_path / "run"))
    assert not (tmp_path / "run").exists()


def test_an_unknown_preset_is_a_clear_error(tmp_path):
    r = runner.invoke(app, ["train", "medarot_ocg_v1", "--preset", "huge", "--out", str(tmp_path)])
    assert r.exit_code == 2
    assert "unknown preset 'huge'; known: default, strong" in r.output


@pytest.mark.parametrize(
    ("env", "config", "expected"),
    [
        ("medarot_ocg_v1", None, (8192, 4, {"heuristic": 1.0})),  # the OCG's own PPO settings
        ("medarot_ocg_v1", '{"n_steps": 2048}', (2048, 4, {"heuristic": 1.0})),  # --config wins
        ("mow_v1", None, (2048, 8, {"heuristic": 0.6, "random": 0.25, "self": 0.15})),
    ],
)
def test_train_applies_the_envs_own_settings_under_the_command_lines(
    monkeypatch, tmp_path, env, config, expected
):
    from deckgym.agents.training import loop

    seen = []

    def fake_train(cfg, log=print, resume=False):
        seen.append(cfg)
        raise SystemExit(0)

    monkeypatch.setattr(loop, "train", fake_train)
    args = ["train", env, "--out", str(tmp_path)] + (["--config", config] if config else [])
    runner.invoke(app, args)
    (cfg,) = seen
    assert (cfg.n_steps, cfg.n_epochs, cfg.opponents) == expected


@pytest.mark.train
def test_train_seeds_runs_each_seed_and_plots_their_curves(tmp_path):
    out = tmp_path / "seeds"
    more = "--pretrain-games 2 --opponents heuristic:1 --seed 7 --seeds 2"
    output = _quick_train(out, "mow_v1", 512, 2, more, '{"n_epochs": 1, "dagger_rounds": 0}')
    for seed in (7, 8):
        train = json.loads((out / f"seed_{seed}" / "train.json").read_text())
        assert train["config"]["seed"] == seed and (out / f"seed_{seed}" / "eval.json").exists()
    assert (out / "seeds.png").stat().st_size > 0
    report = json.loads((out / "seeds.json").read_text())
    assert report["seeds"] == [7, 8] and len(report["final_evaluations"]) == 2
    curves = report["curves"]
    assert curves["steps"][0] == 0 and len(curves["start"]) == 2
    assert "2 seeds: score vs heuristic at the start" in output


def test_seed_summary_has_the_mean_and_spread_of_known_histories():
    from deckgym.agents.training.plots import seed_summary

    def run(*scores):
        return [{"timesteps": 100 * i, "heuristic": {"score": s}} for i, s in enumerate(scores)]

    s = seed_summary([run(0.4, 0.5, 0.6), run(0.5, 0.4), run(0.3, 0.3, 0.3)])
    assert s["steps"] == [0, 100]  # the steps every run has
    assert s["mean"] == pytest.approx([0.4, 0.4]) and s["low"] == [0.3, 0.3] and s["high"] == [0.5, 0.5]
    assert s["start"] == [0.4, 0.5, 0.3] and s["final"] == [0.6, 0.4, 0.3] and s["kept"] == 2
    with pytest.raises(ValueError, match="at least one run"):
        seed_summary([])
    with pytest.raises(ValueError, match="no evaluation against 'random'"):
        seed_summary([run(0.5)], "random")


def test_the_training_settings_take_the_arenas_game_limit():
    from deckgym.agents import arena
    from deckgym.agents.training import config

    assert config.MAX_GAMES == arena.MAX_GAMES

"""Every user error of the ``deckgym`` command: one ``Error:`` line on stderr, exit status 2, no traceback.

Each case runs the command in a subprocess, as a user runs it.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CASES = [
    (["evaluate", "nope_v0"], "unknown environment 'nope_v0'; known: amalogs_v1, medarot_ocg_v0"),
    (["evaluate", "medarot_ocg_v0", "--mode", "expert"], "unknown mode 'expert'; choose one of beginner"),
    (["evaluate", "medarot_ocg_v0", "--options", '{"bogus": 1}'], "unknown rules option(s) bogus; known:"),
    (["evaluate", "medarot_ocg_v0", "--options", "[1]"], "--options must be a JSON object, got '[1]'"),
    (["evaluate", "medarot_ocg_v0", "--options", "{nope"], "--options is not valid JSON"),
    (["evaluate", "medarot_ocg_v0", "--games", "-5"], "--games must be a positive whole number, got -5"),
    (["evaluate", "medarot_ocg_v0", "--games", "0"], "--games must be a positive whole number, got 0"),
    (["evaluate", "medarot_ocg_v0", "--workers", "-1"], "--workers must be at least 0, got -1"),
    (
        ["evaluate", "medarot_ocg_v0", "--agent", "bogus"],
        "--agent bogus: unknown agent spec 'bogus'; use 'random'",
    ),
    (["evaluate", "medarot_ocg_v0", "--opponent", "search:x"], "the number of worlds must be a whole number"),
    (["evaluate", "medarot_ocg_v0", "--agent", "ppo:/missing.zip"], "no model file /missing.zip "),
    (
        ["evaluate", "medarot_ocg_v0", "--options", '{"decks": ["nope"]}'],
        "deck nope: no starter deck of that name (known: advance_citadel",
    ),
    (["evaluate", "medarot_ocg_v0", "--bogus"], "No such option: --bogus"),
    (["evaluate"], "Missing argument 'env'"),
    (["train", "nope_v0"], "unknown environment 'nope_v0'"),
    (
        ["train", "medarot_ocg_v0", "--opponents", "bogus"],
        "unknown opponent 'bogus'; use random, heuristic, self",
    ),
    (["train", "medarot_ocg_v0", "--timesteps", "0"], "--timesteps must be a positive whole number, got 0"),
    (["train", "medarot_ocg_v0", "--config", '{"nope": 1}'], "--config: unknown TrainConfig setting(s) nope"),
    (["train", "medarot_ocg_v0", "--preset", "huge"], "huge"),
    (["decks", "rate", "mow_v0", "--decks", "nope,tide_control", "--games", "4"], "no starter deck"),
    (["decks", "rate", "mow_v0", "--decks", "ashen_aggro,tide_control", "--games", "-4"], "--games must be"),
    (["play", "nope_v0"], "unknown env 'nope_v0'"),
    (["replay", "/nonexistent/game.jsonl"], "/nonexistent/game.jsonl"),
]


def _deckgym(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agents.cli", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DECKGYM_DEBUG": "", **env},
    )


@pytest.mark.parametrize(("args", "expected"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_a_user_error_is_one_line_and_exit_status_2(args, expected):
    r = _deckgym(args)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr[-2000:]
    assert expected in lines[0]
    assert "Traceback" not in r.stderr + r.stdout


def test_a_bug_is_one_internal_error_line_exit_1_and_the_traceback_behind_debug():
    """A failure after the checks is a bug: exit 1, and ``--debug`` or DECKGYM_DEBUG=1 shows where."""
    code = (
        "import sys; import agents.cli as c; from agents.cli_input import run\n"
        "def boom(): raise RuntimeError('planted bug')\n"
        "c.app.command('boom')(boom)\n"
        "sys.exit(run(c.app, sys.argv[1:]))\n"
    )
    quiet = subprocess.run(
        [sys.executable, "-c", code, "boom"], check=False, capture_output=True, text=True, timeout=60
    )
    assert quiet.returncode == 1
    assert quiet.stderr.strip().splitlines() == [
        "Error: internal error: RuntimeError: planted bug (run with --debug or DECKGYM_DEBUG=1 for the traceback)"
    ]
    loud = subprocess.run(
        [sys.executable, "-c", code, "boom", "--debug"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert loud.returncode == 1 and "Traceback" in loud.stderr and "planted bug" in loud.stderr
    env = {**os.environ, "DECKGYM_DEBUG": "1"}
    also = subprocess.run(
        [sys.executable, "-c", code, "boom"], check=False, capture_output=True, text=True, timeout=60, env=env
    )
    assert "Traceback" in also.stderr


def test_decks_check_reports_a_missing_file_as_one_problem_line_and_exit_2():
    """``decks check`` prints one ``FILE: problem`` line per problem, as a linter does."""
    r = _deckgym(["decks", "check", "mow_v0", "/nonexistent/deck.toml"])
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "/nonexistent/deck.toml: deck /nonexistent/deck.toml: file not found"
    ]


def test_a_good_command_still_runs_and_exits_0():
    r = _deckgym(
        ["evaluate", "mow_v0", "--agent", "random", "--opponent", "random", "--games", "2", "--json"]
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert '"games": 2' in r.stdout

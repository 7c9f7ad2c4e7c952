"""Every user error of the ``deckgym`` command: one ``Error:`` line on stderr, exit status 2, no traceback.

Each case runs the command in a subprocess, as a user runs it.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest

#: The start of a ``decks rate``, a ``decks compare`` and a ``decks search`` invocation between good starter decks.
RATE = "decks rate mow_v1 --decks ashen_aggro,tide_control"
COMPARE = "decks compare mow_v1 ashen_aggro tide_control"
SEARCH = "decks search mow_v1 --field"

#: A count of 30 digits.
HUGE = 10**29

#: Bad invocations across every subcommand, as typed at a shell (split by ``shlex``), each with a
#: piece of the ``Error:`` line that names the problem.
COMMANDS = {
    # evaluate
    "evaluate nope_v0": "unknown environment 'nope_v0'; known: amalogs_v2, medarot_ocg_v1",
    "evaluate medarot_ocg_v1 --mode expert": "unknown mode 'expert'; choose one of beginner",
    "evaluate medarot_ocg_v1 --games -5": "--games must be a positive whole number, got -5",
    "evaluate medarot_ocg_v1 --games 0": "--games must be a positive whole number, got 0",
    "evaluate medarot_ocg_v1 --workers -1": "--workers must be at least 0, got -1",
    "evaluate medarot_ocg_v1 --agent bogus": "--agent bogus: unknown agent spec 'bogus'; use 'random'",
    "evaluate medarot_ocg_v1 --opponent search:x": "the number of worlds must be a whole number",
    "evaluate medarot_ocg_v1 --agent ppo:/missing.zip": "no model file /missing.zip ",
    "evaluate medarot_ocg_v1 --bogus": "No such option: --bogus",
    "evaluate": "Missing argument 'env'",
    "evaluate medarot_ocg_v1 --games many": "Invalid value for '--games': Input should be a valid",
    "evaluate medarot_ocg_v1 --opponent search:0": "--opponent search:0: SearchAgent needs at least 1 world per",
    "evaluate medarot_ocg_v1 --agent search:2:ppo:/x.zip": "--agent search:2:ppo:/x.zip: no model file /x.zip (a",
    "evaluate medarot_ocg_v1 --seed x": "Invalid value for '--seed': Input should be a valid",
    "evaluate medarot_ocg_v0": "environment 'medarot_ocg_v0' is now 'medarot_ocg_v1': its",
    "evaluate mow_v1 --mode beginner": "mow_v1 {'mode': 'beginner'}: unknown rules option(s) mode;",
    # train
    "train mow_v1 --seeds 0": "--seeds must be a positive whole number, got 0",
    "train --resume runs/x --seeds 2": "--resume continues one run; it does not take --seeds",
    "train nope_v0": "unknown environment 'nope_v0'",
    "train medarot_ocg_v1 --opponents bogus": "unknown opponent 'bogus'; use random, heuristic, self",
    "train medarot_ocg_v1 --n-steps 10": "--n-steps must be an integer in 16..10,000,000, got 10",
    "train --resume runs/x --learning-rate 0.1": "--resume continues a run with its own settings; it takes",
    "train medarot_ocg_v1 --net-arch 2x": "--net-arch takes layer sizes, comma separated",
    "train medarot_ocg_v1 --preset huge": "huge",
    "train medarot_ocg_v1 --opponents heuristic:x": "Invalid value: bad weight 'x' for heuristic",
    "train medarot_ocg_v1 --opponents heuristic:-1": "opponents: the weight of 'heuristic' must be a number > 0,",
    "train medarot_ocg_v1 --opponents self:1": "opponents need at least one of 'random' or 'heuristic'",
    "train medarot_ocg_v1 --timesteps -1": "--timesteps must be an integer in 0..10,000,000,000 (0: only the imitation and its",
    "train medarot_ocg_v1 --eval-games 0": "--eval-games must be an integer in 2..10,000,000 (seat-swapped pairs), got 0",
    "train medarot_ocg_v1 --eval-every -1": "--eval-every must be an integer in 0..10,000,000,000 (0: no evaluations during",
    "train medarot_ocg_v1 --n-envs -2": "--n-envs must be an integer in 0..256 (0: one per core), got -2",
    "train medarot_ocg_v1 --pretrain-games -1": "--pretrain-games must be an integer in 0..10,000,000 (0: no imitation), got -1",
    "train --resume /nonexistent/run": "--resume /nonexistent/run: no resume.json in",
    "train": "Missing argument 'env': an environment name, e.g.",
    "train medarot_ocg_v1 --mode expert": "medarot_ocg_v1 {'mode': 'expert'}: unknown mode 'expert';",
    # decks
    "decks rate mow_v1 --decks nope,tide_control --games 4": "no starter deck",
    f"{RATE} --games -4": "--games must be",
    f"{RATE} --pilot ppo:/nonexistent.zip --games 4": "--pilot ppo:/nonexistent.zip: no model file",
    f"{RATE} --pilot bogus --games 4": "--pilot bogus: unknown agent spec 'bogus'; use 'random',",
    f"{RATE} --pilots heuristic,heuristic --games 4": "--pilots names a pilot twice: heuristic,heuristic",
    "decks rate nope_v0 --decks a,b": "unknown environment 'nope_v0'; known: amalogs_v2,",
    f"{RATE} --workers -1": "--workers must be in 0..1024 (0: all cores), got -1",
    f"{RATE} --backend mpi": "unknown --backend 'mpi'; known: process, ray",
    "decks compare mow_v1 ashen_aggro nope": "deck nope: no starter deck of that name (known:",
    "decks compare mow_v1 ashen_aggro": "Missing argument 'deck_b'.",
    f"{COMPARE} --max-games 0": "max_games must be at least 2 (one seat-swapped pair), got 0",
    f"{COMPARE} --elo0 50 --elo1 10": "elo1 must be above elo0, got elo0=50.0, elo1=10.0",
    f"{COMPARE} --alpha 2": "alpha and beta must lie in (0, 0.5), got 2.0, 0.05",
    f"{COMPARE} --pilot ppo:/x.zip": "--pilot ppo:/x.zip: no model file /x.zip (a model.zip",
    f"{COMPARE} --resume /nonexistent/run.json": "--resume /nonexistent/run.json: No such file or directory",
    "decks merge /nonexistent/a.json": "merge /nonexistent/a.json: No such file or directory",
    "decks merge": "Missing argument 'files'.",
    f"{SEARCH} ashen_aggro,tide_control --budget 64 --start nope": "deck nope: no starter deck of that name (known:",
    f"{SEARCH} ashen_aggro,nope --budget 64": "deck nope: no starter deck of that name (known:",
    f"{SEARCH} ashen_aggro,tide_control --budget -1": "--budget must be at least 32 games for a field of 2",
    "decks list nope_v0": "unknown environment 'nope_v0'; known: amalogs_v2,",
    "decks list medarot_ocg_v1 --mode expert": "unknown mode 'expert'; choose one of beginner, normal,",
    "decks bogus": "No such command 'bogus'.",
    # play and replay
    "play nope_v0": "unknown env 'nope_v0'",
    "play medarot_ocg_v1 --seed x": "Invalid value for '--seed': Input should be a valid",
    "play medarot_ocg_v1 --seat 5": "--seat must be 0, 1 or random, got '5'",
    "play medarot_ocg_v1 --mode expert": "bad options for medarot_ocg_v1: unknown mode 'expert';",
    "replay /nonexistent/game.jsonl": "/nonexistent/game.jsonl",
    # serve
    "serve --port -1": "--port must be a whole number in 1..65535, got -1",
    "serve --port 70000": "--port must be a whole number in 1..65535, got 70000",
    "serve --max-games 0": "--max-games must be a positive whole number, got 0",
    "serve --host 'no such host!'": "--host 'no such host!' is not an address of this machine",
    # the command itself
    "bogus": "No such command 'bogus'.",
    "envs --bogus": "No such option: --bogus",
    "": "deckgym needs a command: one of envs, train, evaluate,",
    "decks": "deckgym decks needs a command: one of list, check, rate,",
    # counts no run could finish: refused before any work
    f"evaluate medarot_ocg_v1 --games {HUGE}": "--games must be at most 10,000,000, got a number of 30 digits",
    f"evaluate medarot_ocg_v1 --workers {HUGE}": "--workers must be at most 1,024",
    f"evaluate medarot_ocg_v1 --opponent search:{HUGE}": "the number of worlds must be a whole number up to 256",
    f"train medarot_ocg_v1 --timesteps {HUGE}": "--timesteps must be an integer in 0..10,000,000,000",
    f"train medarot_ocg_v1 --seed {HUGE}": "--seed must be an integer in 0..2,147,483,648",
    f"{COMPARE} --max-games {HUGE}": "max_games must be at most 10,000,000",
    f"{RATE} --games {HUGE}": "games must be at most 10,000,000",
    f"decks gauntlet mow_v1 ashen_aggro --against tide_control --games {HUGE}": "--games must be at most 10,000,000",
    f"{SEARCH} ashen_aggro,tide_control --budget {HUGE}": "--budget must be at most 10,000,000",
}

#: ``evaluate ENV --options JSON`` with bad rules options, by environment: JSON -> a piece of the error.
OPTIONS = {
    "medarot_ocg_v1": {
        '{"bogus": 1}': "unknown rules option(s) bogus; known:",
        "[1]": "--options must be a JSON object, got '[1]'",
        "{nope": "--options is not valid JSON",
        '{"decks": ["nope"]}': "deck nope: no starter deck of that name (known: advance_citadel",
        '{"max_turns": -3}': "medarot_ocg_v1 {'max_turns': -3}: max_turns must be a",
        '{"max_turns": "x"}': "medarot_ocg_v1 {'max_turns': 'x'}: max_turns must be a",
        '{"illegal_action": "ignore"}': "medarot_ocg_v1 {'illegal_action': 'ignore'}: illegal_action",
        '{"render_mode": "rgb"}': "medarot_ocg_v1 {'render_mode': 'rgb'}: render_mode must be",
    },
    "amalogs_v2": {
        '{"team_sizes": [4, 4]}': "amalogs_v2 {'team_sizes': [4, 4]}: team_sizes must be two",
        '{"team_sizes": "big"}': "amalogs_v2 {'team_sizes': 'big'}: team_sizes must be two",
    },
    "mow_v1": {
        '{"decks": "mirror2"}': "mow_v1 {'decks': 'mirror2'}: decks must be None, 'mirror'",
    },
}

#: ``train medarot_ocg_v1 --config JSON``: bad settings of the training run -> a piece of the error.
CONFIG = {
    '{"nope": 1}': "--config: unknown TrainConfig setting(s) nope",
    "[1]": "Invalid value: --config must be a JSON object, got '[1]'",
    "{bad": "Invalid value: --config is not valid JSON: Expecting",
    '{"n_steps": "many"}': "n_steps must be an integer in 16..10,000,000, got 'many'",
    '{"learning_rate": -1}': "learning_rate must be a number in (0, 1], got -1",
    '{"n_envs": 0, "batch_size": 0}': "batch_size must be an integer >= 2 that divides n_steps, got 0",
    '{"env": "nope"}': "unknown environment 'nope'; known: amalogs_v2,",
    '{"env_kwargs": {"mode": "expert"}}': "medarot_ocg_v1 {'mode': 'expert'}: unknown mode 'expert';",
    '{"critic": "oracle"}': "critic must be 'seat' or 'global', got 'oracle'",
    '{"teacher": "gpt"}': "teacher must be 'heuristic', 'search' or 'search:WORLDS',",
    '{"gamma": 2}': "gamma must be a number in (0, 1], got 2",
    '{"clip_range": 0}': "clip_range must be a number in (0, 1], got 0",
    '{"net_arch": "big"}': "net_arch must be a list of 1 to 16 layer sizes in 1..65536, got 'big'",
    '{"vec_env": "threads"}': "vec_env must be 'dummy', 'subproc' or 'batch', got 'threads'",
    '{"opponents": {"god": 1}}': "opponents: unknown kind 'god'; known: random, heuristic,",
    '{"eval_games": 1}': "eval_games must be an integer in 2..10,000,000 (seat-swapped pairs),",
    '{"verbose": 5}': "verbose must be 0, 1 or 2, got 5",
    '{"batch_size": 3}': "batch_size must divide n_steps (8192), or each rollout ends in a minibatch",
    '{"final_games": 1}': "final_games must be an integer in 2..10,000,000",
}


def _deckgym(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckgym", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DECKGYM_DEBUG": "", **env},
    )


#: Each bad invocation as its arguments, with a piece of its error.
ALL = [
    *((shlex.split(line), expected) for line, expected in COMMANDS.items()),
    *(
        (["evaluate", env, "--options", text], expected)
        for env, errors in OPTIONS.items()
        for text, expected in errors.items()
    ),
    *((["train", "medarot_ocg_v1", "--config", text], expected) for text, expected in CONFIG.items()),
]


def test_the_sweep_covers_every_subcommand_with_at_least_80_bad_invocations():
    assert len(ALL) >= 80 and len({tuple(a) for a, _ in ALL}) == len(ALL)  # each invocation once
    assert {a[0] for a, _ in ALL if a} >= {"evaluate", "train", "decks", "play", "replay", "serve"}
    assert {a[1] for a, _ in ALL if a[:1] == ["decks"] and len(a) > 1} >= {
        "rate",
        "compare",
        "search",
        "list",
    }


@pytest.mark.parametrize(("args", "expected"), ALL, ids=[" ".join(a) for a, _ in ALL])
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
        "import sys; import deckgym.agents.cli as c; from deckgym.agents.cli_input import run\n"
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


#: Bad files, each made in an empty folder: (file name, its bytes) -> (command, a piece of the error).
FILES = {
    ("game.jsonl", b"\xff\xfe\x00binary"): (["replay", "game.jsonl"], "game.jsonl: not UTF-8 text (byte 0)"),
    ("run.json", b"\x89PNG\r\n\x1a\n"): (
        [*COMPARE.split(), "--resume", "run.json"],
        "--resume run.json: not UTF-8 text (byte 0)",
    ),
    ("afile", b"text"): (["train", "mow_v1", "--out", "afile"], "--out afile: a file of that name exists"),
    ("bfile", b"text"): (["train", "mow_v1", "--out", "bfile/run"], "bfile is a file, so the folder cannot"),
    ("cache.zip", b"not a cache"): (
        ["train", "mow_v1", "--imitation-cache", "cache.zip"],
        "--imitation-cache: imitation cache cache.zip is not a file deckgym train wrote",
    ),
    ("zipped.zip", b"PK\x03\x04garbage"): (
        ["train", "mow_v1", "--imitation-cache", "zipped.zip"],
        "imitation cache zipped.zip is not a file deckgym train wrote",
    ),
    ("model.zip", b"PK\x03\x04garbage"): (
        ["train", "mow_v1", "--init-model", "model.zip"],
        "--init-model 'model.zip' is not a model file",
    ),
    ("x", b""): (
        ["play", "mow_v1", "--record", "missing/dir/x.jsonl"],
        "--record missing/dir/x.jsonl: no folder",
    ),
}


@pytest.mark.parametrize(("made", "case"), FILES.items(), ids=[" ".join(c[0]) for c in FILES.values()])
def test_a_bad_file_is_one_line_exit_2_and_nothing_written(tmp_path, made, case):
    """Binary, misencoded and misplaced files: refused before any work, and no file or folder made."""
    name, data = made
    args, expected = case
    (tmp_path / name).write_bytes(data)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    r = subprocess.run(
        [sys.executable, "-m", "deckgym", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "DECKGYM_DEBUG": "", "PYTHONWARNINGS": "ignore"},
        stdin=subprocess.DEVNULL,
    )
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("Error: ") and expected in lines[0], r.stderr[-2000:]
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_candidates_file_that_is_not_text_is_a_value_error_naming_it(tmp_path):
    from deckgym.agents.decks.complete import read_candidates

    bad = tmp_path / "cands.txt"
    bad.write_bytes(b"\xc3\x28")
    with pytest.raises(ValueError, match=r"--candidates .*cands.txt: not UTF-8 text \(byte 0\)"):
        read_candidates(bad, {})


def test_a_deck_file_that_is_not_text_is_one_problem_line(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_bytes(b"\x00\xff\xfe")
    r = _deckgym(["decks", "check", "mow_v1", str(deck)])
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        f"{deck}: deck {deck}: not UTF-8 text (byte 1): not a TOML deck file"
    ]


def test_decks_check_reports_a_missing_file_as_one_problem_line_and_exit_2():
    """``decks check`` prints one ``FILE: problem`` line per problem, as a linter does."""
    r = _deckgym(["decks", "check", "mow_v1", "/nonexistent/deck.toml"])
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "/nonexistent/deck.toml: deck /nonexistent/deck.toml: file not found"
    ]


def test_a_good_command_still_runs_and_exits_0():
    r = _deckgym(
        ["evaluate", "mow_v1", "--agent", "random", "--opponent", "random", "--games", "2", "--json"]
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert '"games": 2' in r.stdout

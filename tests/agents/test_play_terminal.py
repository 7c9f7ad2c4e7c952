"""``deckgym play`` and ``deckgym replay`` in a subprocess, and the terminal loop in-process."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from deckgym.agents.play.session import GameSession
from deckgym.agents.play.terminal import play, stable_keys

CLI = [sys.executable, "-m", "deckgym.agents.cli"]


def _run(args: list[str], stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        CLI + args, input=stdin, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_a_whole_game_from_standard_input_then_replay_verify(tmp_path: Path) -> None:
    rec = tmp_path / "r.jsonl"
    p = _run(
        ["play", "medarot_ocg_v1", "--opponent", "Beginner", "--seed", "3", "--record", str(rec)],
        "a\n" * 5000,
    )
    assert p.returncode == 0, p.stderr
    assert "game over: you " in p.stdout and "seed 3" in p.stdout
    assert "    a) " in p.stdout
    assert p.stdout.startswith("Medarot Official Card Game, Beginner rules, against the Beginner AI\n")
    # the moves are sentences keyed by letters: no option is listed under a number
    assert not re.search(r"^\s+\d+[.)] ", p.stdout, re.MULTILINE)
    assert rec.is_file()
    ok = _run(["replay", str(rec), "--verify"])
    assert ok.returncode == 0 and "matches the record" in ok.stdout, ok.stdout + ok.stderr
    shown = _run(["replay", str(rec), "--seat", "0"])
    assert shown.returncode == 0 and "-- position 1/" in shown.stdout and "played" in shown.stdout
    # a record whose last move was changed no longer re-simulates to its digest
    lines = rec.read_text().splitlines()
    header, moves, footer = lines[0], lines[1:-1], lines[-1]
    tampered = [json.loads(m) for m in moves]
    legal_swap = next(k for k in range(len(tampered) - 1, -1, -1) if tampered[k]["agent"] == "player_1")
    tampered = tampered[:legal_swap]  # a shorter game: the final state differs
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([header, *map(json.dumps, tampered), footer]) + "\n")
    diff = _run(["replay", str(bad), "--verify"])
    assert diff.returncode == 1 and "DIFFERENT" in diff.stdout


def test_bad_input_re_prompts_and_quit_leaves(tmp_path: Path) -> None:
    rec = tmp_path / "q.jsonl"
    p = _run(
        ["play", "mow_v1", "--opponent", "random", "--seed", "1", "--record", str(rec)],
        "x\n0\n999\n?\nlog\nquit\n",
    )
    assert p.returncode == 0, p.stderr
    assert (
        "not a choice: 'x'" in p.stdout
        and "not a choice: '0'" in p.stdout
        and "not a choice: '999'" in p.stdout
    )
    assert "commands (type the word):" in p.stdout and "How to play" in p.stdout  # the help
    assert "left the game (quit) after 0 moves" in p.stdout
    assert rec.is_file()  # quitting still writes the replay


def test_end_of_input_quits_cleanly() -> None:
    p = _run(["play", "medarot_parts_v1", "--opponent", "random", "--seed", "2"], "")
    assert p.returncode == 0, p.stderr
    assert "left the game (end of input)" in p.stdout and "Traceback" not in p.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "nope_v0"], "unknown env 'nope_v0'"),
        (["play", "medarot_ocg_v1", "--seat", "2"], "--seat must be 0, 1 or random"),
        (["play", "medarot_ocg_v1", "--opponent", "grandmaster"], "unknown opponent 'grandmaster'"),
        (["replay", "/no/such/file.jsonl"], "no replay file '/no/such/file.jsonl'"),
        (["serve", "--port", "-1"], "--port must be a whole number in 1..65535, got -1"),
        (["serve", "--max-games", "0"], "--max-games must be a positive whole number, got 0"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(args: list[str], words: str) -> None:
    p = _run(args)
    assert p.returncode == 2
    assert words in p.stderr and "Traceback" not in p.stderr
    assert p.stderr.strip().count("\n") == 0


def test_in_amalogs_the_person_plays_every_seat_of_one_team() -> None:
    s = GameSession("amalogs_v2", {"team_sizes": [2, 2]}, "random", seat=1, seed=4)
    assert s.human == [2, 3]
    seats = set()
    answers = iter(["a"] * 3000)

    def read(_: str) -> str:
        if s.your_turn:
            seats.add(s.view()["seat"])
            assert s.game.current_player in s.human
        return next(answers)

    out = io.StringIO()
    assert play(s, read=read, out=out) == 0
    assert seats == {2, 3}
    assert "game over: you " in out.getvalue() or "left the game (end of input)" in out.getvalue()


def test_replay_steps_forward_and_back_from_a_seats_view(tmp_path: Path) -> None:
    from deckgym.agents.play.replays import ReplayError, run_replay

    s = GameSession("medarot_ocg_v1", {"mode": "normal"}, "random", seat=0, seed=5)
    s.opponent_moves()
    for _ in range(6):
        if s.done:
            break
        s.play(s.legal()[-1]["index"])
    path = tmp_path / "g.jsonl"
    s.replay().save(path)
    typed = iter(["n", "n", "p", "3", "zzz", "q"])
    out = io.StringIO()
    assert run_replay(path, seat=1, interactive=True, read=lambda _: next(typed), out=out) == 0
    shown = [line for line in out.getvalue().splitlines() if line.startswith("-- position ")]
    assert [line.split()[2].rstrip(":") for line in shown] == [
        f"0/{s.moves}",
        f"1/{s.moves}",
        f"2/{s.moves}",
        f"1/{s.moves}",
        f"3/{s.moves}",
        f"3/{s.moves}",
    ]
    assert "not a command: 'zzz'" in out.getvalue()
    assert "(you are seat 1)" in out.getvalue()
    with pytest.raises(ReplayError, match="--seat must be in 0..1"):
        run_replay(path, seat=2)
    path.write_text("not json\n")
    with pytest.raises(ReplayError, match="not JSON"):
        run_replay(path)


def test_each_replay_position_lists_its_moves_events_as_the_seat_reads_them(tmp_path: Path) -> None:
    from deckgym.agents.play.replays import run_replay

    s = GameSession("medarot_ocg_v1", {"mode": "beginner"}, "random", seat=0, seed=2)
    s.opponent_moves()
    while not s.done and s.moves < 40:
        s.play(s.legal()[0]["index"])
    path = tmp_path / "g.jsonl"
    s.replay().save(path)
    for seat, other in ((0, 1), (1, 0)):
        out = io.StringIO()
        assert run_replay(path, seat=seat, out=out) == 0
        lines = [x.strip() for x in out.getvalue().splitlines() if x.startswith("  . ")]
        assert lines, "no event lines under the positions"
        mine = [x for x in lines if x.startswith(f". P{seat} draws ")]
        theirs = [x for x in lines if x.startswith(f". P{other} draws ")]
        assert theirs and all("[" not in x for x in theirs)  # the other seat's draws: counts only
        assert any("[you: cards " in x for x in mine)  # the seat's own draws: the cards too


def test_undo_hint_and_resign_from_the_terminal() -> None:
    s = GameSession("medarot_parts_v1", {}, "random", seat=0, seed=6)
    s.hint_task = lambda worlds=None, full=s.hint_task: full(2)  # few rollouts keep the test short
    typed = iter(["hint", "a", "undo", "undo", "details", "board", "resign", "no rematch"])
    out = io.StringIO()
    assert play(s, read=lambda _: next(typed), out=out) == 0
    text = out.getvalue()
    assert re.search(r"hint: [a-z]+\) .+ \(about \d+% to win, over 2 rollouts of the Expert AI\)", text)
    assert "took back your last decision" in text
    assert "not now: nothing to undo" in text  # the second undo: back at the start
    assert "game over: you lost (you resigned" in text


def test_a_single_option_is_played_for_the_person_and_logged() -> None:
    s = GameSession("mow_v1", {}, "random", seat=0, seed=3)
    s.opponent_moves()
    for _ in range(60):
        if s.done:
            break
        assert len(s.legal()) != 1  # never asked to pick the only option
        s.play(s.legal()[-1]["index"])
        if any(m["who"] == "you (the only option)" for m in s.recent):
            return
    pytest.fail("no single-option decision came up in 60 moves")


def test_in_amalogs_the_log_goes_on_with_the_running_tables_lines() -> None:
    s = GameSession("amalogs_v2", {"team_sizes": [1, 1]}, "random", seat=0, seed=2)
    s.opponent_moves()
    for _ in range(400):
        if s.done:
            break
        core = s.view()["board"].get("core") or {}
        if core.get("source") == "table" and core.get("events"):
            log = s.log()
            head = log.index(f"At the {core['title']} table:")
            assert log[head + 1 :] == [f"  {e}" for e in core["events"]]
            assert head == len(s.game.records)  # the meta-game's own lines come first, one per event
            return
        s.play(s.legal()[0]["index"])
    pytest.fail("no duel table ran in 400 moves")


def test_a_move_keeps_its_letter_while_it_stays_on_offer() -> None:
    memory: dict[tuple[str, int], str] = {}
    first = stable_keys([{"text": t} for t in ("Attack", "Pass", "Draw", "End")], memory)
    assert list(first) == ["a", "b", "c", "d"]
    later = stable_keys([{"text": t} for t in ("Summon", "Pass", "Pass", "End", "Attack")], memory)
    # "a" is always the first move; the others keep their letters while they stay on offer
    assert {k: o["text"] for k, o in later.items()} == {
        "a": "Summon",
        "b": "Pass",
        "c": "Pass",
        "d": "End",
        "e": "Attack",
    }
    assert [o["text"] for o in later.values()] == [
        "Summon",
        "Pass",
        "Pass",
        "End",
        "Attack",
    ]  # the game's order
    again = stable_keys([{"text": t} for t in ("Wait", "Attack", "End")], memory)
    assert {k: o["text"] for k, o in again.items()} == {"a": "Wait", "e": "Attack", "d": "End"}


def test_a_rematch_from_the_terminal_swaps_the_seats_and_records_each_game(tmp_path: Path) -> None:
    s = GameSession("mow_v1", {}, "random", seat=0, seed=5)
    typed = iter(["resign", "r", "resign", ""])
    out = io.StringIO()
    assert play(s, read=lambda _: next(typed), out=out, record=tmp_path / "g.jsonl") == 0
    text = out.getvalue()
    assert text.count("Master of the World, against the Beginner AI") == 2
    assert "you play seat(s) 0" in text and "you play seat(s) 1" in text
    assert text.count("game over: you lost (you resigned") == 2
    assert (tmp_path / "g.jsonl").is_file() and (tmp_path / "g-2.jsonl").is_file()

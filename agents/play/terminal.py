"""``deckgym play``: a game against an agent in the terminal, one numbered option at a time.

The board is drawn from the person's per-seat view (``envs.core.view``). Moves come from
standard input, so ``yes 1 | deckgym play medarot_ocg_v0 --opponent random --seed 3`` plays a
whole game unattended. Commands: a number picks that option, ``?`` prints help, ``log`` the
events so far, ``board`` the board again, ``quit`` leaves (end of input and Ctrl-C do too).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from agents.play.session import GameSession

HELP = """commands:
  N      play option N (the numbers listed under "your options")
  ?      this help
  board  show the board again
  log    the events of the game so far
  quit   leave the game (the replay is written if --record was given)"""


def _card(c: Any) -> str:
    if not isinstance(c, dict):
        return str(c)
    if c.get("hidden"):
        return "(face down)"
    name = c.get("name") or c.get("id") or "?"
    stats = [f"{k} {c[k]}" for k in ("power", "armor", "speed", "cost", "attack", "hp", "life") if k in c]
    return f"{name}" + (f" ({', '.join(stats)})" if stats else "")


def _value(v: Any) -> str:
    if isinstance(v, list):
        if v and all(isinstance(x, dict) for x in v):
            return "; ".join(_card(x) for x in v)
        return ", ".join(_value(x) for x in v) if v else "-"
    if isinstance(v, dict):
        if "name" in v or "hidden" in v:
            return _card(v)
        return ", ".join(f"{k}: {_value(x)}" for k, x in v.items())
    return "-" if v is None else str(v)


def describe(view: dict[str, Any]) -> str:
    """The view as text: the players' numbers and cards, the board's zones, the decision."""
    lines = [f"== {view['env']}  turn {view['turn']}  (you are seat {view['seat']}) =="]
    for p in view["players"]:
        who = "you" if p.get("you") else f"seat {p['seat']}"
        rest = {k: v for k, v in p.items() if k not in ("seat", "you")}
        lines.append(f"[{who}] " + "  ".join(f"{k}: {_value(v)}" for k, v in rest.items()))
    for key, value in view["board"].items():
        lines.append(f"{key}: {_value(value)}")
    if view["done"]:
        lines.append("the game is over")
    else:
        lines.append(f"to decide: seat {view['to_move']} at {view['decision']}")
    return "\n".join(lines)


@contextmanager
def thinking(out: TextIO, enabled: bool) -> Iterator[None]:
    """A short indicator while the agent thinks (only on a terminal)."""
    if not enabled:
        yield
        return
    stop = threading.Event()

    def spin() -> None:
        frames = "|/-\\"
        k = 0
        while not stop.wait(0.15):
            out.write(f"\ropponent thinking {frames[k % 4]}")
            out.flush()
            k += 1

    t = threading.Thread(target=spin, daemon=True)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()
        out.write("\r" + " " * 24 + "\r")
        out.flush()


def _say(out: TextIO) -> Callable[..., None]:
    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    return say


def _show(session: GameSession, say: Callable[..., None]) -> None:
    say(describe(session.view()))
    say("your options:")
    for k, o in enumerate(session.legal(), 1):
        say(f"  {k:>3}. {o['label']}")


def _command(session: GameSession, text: str, say: Callable[..., None], out: TextIO, spinner: bool) -> str:
    """Carry out one line typed by the person: "quit", "show" (the board again) or "" (ask again)."""
    options = session.legal()
    if text in ("q", "quit", "exit"):
        return "quit"
    if text in ("?", "h", "help"):
        say(HELP)
        return ""
    if text == "log":
        for e in session.lines(len(session.game.events)):  # public facts, and what only you saw
            say(f"  . {e}")
        return ""
    if text == "board":
        return "show"
    if not text.isdigit() or not 1 <= int(text) <= len(options):
        say(f"not a choice: {text!r}; type a number from 1 to {len(options)}, or ? for help")
        return ""
    before = time.perf_counter()
    with thinking(out, spinner):
        events = session.play(options[int(text) - 1]["index"])
    for e in session.lines(len(events)):
        say(f"  . {e}")
    if spinner and time.perf_counter() - before > 0.5:
        say(f"(the opponent took {time.perf_counter() - before:.1f}s)")
    return "show"


def play(
    session: GameSession,
    read: Callable[[str], str] | None = None,
    out: TextIO = sys.stdout,
    record: Path | None = None,
    spinner: bool | None = None,
) -> int:
    """Run the game in the terminal; the exit status (0: the game ended or the person left)."""
    read = read or input
    spinner = out.isatty() if spinner is None else spinner
    say = _say(out)
    # the seed is told at the end: with it and the decks, the hidden cards could be worked out
    say(f"{session.env_name} {json.dumps(session.options)} against {session.opponent}")
    say(f"you play seat(s) {', '.join(map(str, session.human))}; type ? for help")
    quit_reason = ""
    try:
        with thinking(out, spinner):
            first = session.opponent_moves()
        for e in session.lines(len(first)):
            say(f"  . {e}")
        what = "show"
        while not session.done:
            if what == "show":
                _show(session, say)
            try:
                text = read("> ").strip().lower()
            except EOFError:
                quit_reason = "end of input"
                break
            what = _command(session, text, say, out, spinner)
            if what == "quit":
                quit_reason = "quit"
                break
    except KeyboardInterrupt:
        quit_reason = "interrupted"
        say("")
    if record is not None:
        session.replay().save(record)
        say(f"wrote the replay to {record}")
    if quit_reason:
        say(f"left the game ({quit_reason}) after {session.moves} moves (seed {session.seed})")
        return 0
    r = session.result()
    assert r is not None
    word = {"win": "won", "loss": "lost", "draw": "drew"}[r["outcome"]]
    say(f"game over: you {word} ({r['reason'] or 'no reason given'}; seed {session.seed})")
    return 0

"""``deckgym play``: a game against the AI in the terminal, drawn with rich.

The board is each ruleset's own drawing (``agents/play/boards/<ruleset>.py``) of the person's
per-seat view (``envs.core.view``). The moves are listed as sentences, keyed by letters (``a``,
``b``, ... ``z``, then ``aa``, ``ab``...), so a key is never mistaken for a number in a move.
Moves come from standard input, so ``yes a | deckgym play medarot_ocg_v1 --opponent Beginner
--seed 3`` plays a whole game unattended. Commands are words: ``?`` (how to play and the
commands), ``undo``, ``hint``, ``resign``, ``log``, ``board``, ``details``, ``quit``.
"""

from __future__ import annotations

import importlib
import io
import itertools
import json
import string
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console, RenderableType
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

from deckgym.agents.play.session import GameSession, PlayError, help_text, new_events
from deckgym.envs import family

COMMANDS = """commands (type the word):
  a, b, ...  play the move with that key
  ?          how to play, and these commands
  undo       take back your last decision (and the AI's replies)
  hint       the move the strongest AI would play, with its winning chance
  resign     give the game up
  log        everything that happened so far
  board      show the board again
  details    show or hide internal fields (ids, indices, flags)
  quit       leave the game (the replay is written if --record was given)"""
#: The words ``_command`` takes; an option key is never one of them.
WORDS = ("?", "help", "undo", "hint", "resign", "log", "board", "details", "quit", "exit", "q")


def keys(n: int) -> list[str]:
    """``n`` option keys: ``a``..``z``, then ``aa``, ``ab``... (never a command word)."""
    letters = string.ascii_lowercase
    out: list[str] = []
    for size in itertools.count(1):
        for combo in itertools.product(letters, repeat=size):
            key = "".join(combo)
            if key not in WORDS:
                out.append(key)
            if len(out) == n:
                return out
    return out  # pragma: no cover - the loop returns


def stable_keys(
    options: list[dict[str, Any]], before: dict[tuple[str, int], str]
) -> dict[str, dict[str, Any]]:
    """Each option by its key: ``a`` for the first; the others keep the key they had when last offered.

    A move that stays on offer keeps its letter from one decision to the next ("pass" stays
    ``d``), so a person's fingers learn the table, while ``a`` always plays the first move
    (``yes a | deckgym play ...`` plays a whole game). ``before`` maps (sentence, its count
    among equal sentences) to a key; it is updated in place. The options keep their order.
    """
    seen: dict[str, int] = {}
    names = []
    for o in options:
        n = seen.get(o["text"], 0)
        seen[o["text"]] = n + 1
        names.append((o["text"], n))
    keyed: dict[int, str] = {0: "a"} if options else {}
    for i, name in enumerate(names[1:], start=1):
        key = before.get(name)
        if key is not None and key not in keyed.values():
            keyed[i] = key
    used = set(keyed.values())
    free = iter([k for k in keys(len(options) + len(used)) if k not in used])
    for i, name in enumerate(names):
        keyed[i] = keyed[i] if i in keyed else next(free)
        before[name] = keyed[i]
    return {keyed[i]: o for i, o in enumerate(options)}


def title(session: GameSession) -> str:
    """The game in words: ``Medarot Official Card Game, Beginner rules, against the Hard AI``."""
    from deckgym.envs.games import game

    declared = game(session.env_name)
    variant = declared.variant_of(session.options)
    parts = [declared.title] + ([variant.title] if variant is not None and variant.title else [])
    return f"{', '.join(parts)}, against the {session.level} AI"


def board_for(env: str) -> Callable[..., RenderableType] | None:
    """The ruleset's terminal board drawing (``agents.play.boards.<ruleset>.render``), if any."""
    try:
        module = importlib.import_module(f"deckgym.agents.play.boards.{family(env)}")
    except ModuleNotFoundError:
        return None
    render: Callable[..., RenderableType] = module.render
    return render


def board_text(view: dict[str, Any], details: bool = False, width: int = 110) -> str:
    """A per-seat view as plain text: the ruleset's board drawing, under a line naming the seat."""
    console = Console(width=width, record=True, file=io.StringIO(), highlight=False, color_system=None)
    console.print(Text(f"== {view['env']}  turn {view['turn']}  (you are seat {view['seat']}) =="))
    draw = board_for(view["env"])
    console.print(draw(view, details=details) if draw is not None else Text(json.dumps(view["board"])))
    return console.export_text().rstrip("\n")


@contextmanager
def thinking(out: TextIO, enabled: bool) -> Iterator[None]:
    """A short indicator while the AI thinks (only on a terminal)."""
    if not enabled:
        yield
        return
    stop = threading.Event()

    def spin() -> None:
        frames = "|/-\\"
        k = 0
        while not stop.wait(0.15):
            out.write(f"\rthe AI is thinking {frames[k % 4]}")
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


class Table:
    """The terminal table: prints the board, the moves and the log of one session."""

    def __init__(self, session: GameSession, out: TextIO, spinner: bool) -> None:
        self.session, self.out, self.spinner = session, out, spinner
        self.console = Console(file=out, width=110, highlight=False, force_terminal=out.isatty())
        self.details = False
        self.draw = board_for(session.env_name)
        self.printed: list[str] = []
        #: the keys of the moves on offer now, and the key each move had when last offered
        self.choice: dict[str, dict[str, Any]] = {}
        self.memory: dict[tuple[str, int], str] = {}

    def say(self, text: str | RenderableType = "") -> None:
        """Print a line (plain text is not read as markup) or a rich renderable."""
        self.console.print(Text(text) if isinstance(text, str) else text)

    def recent(self) -> None:
        """The moves since the person's last decision, in words."""
        for m in self.session.recent:
            if m["who"] != "you":
                who = "The AI" if m["who"] == "opponent" else "You"
                self.say(f"  {who}: {m['text']}")

    def new_log(self) -> None:
        """The log lines not printed yet."""
        lines = self.session.log()
        for line in new_events(self.printed, lines):
            self.say(f"  . {line}")
        self.printed = lines

    def board(self) -> None:
        """The board, then the decision and the person's moves."""
        view = self.session.view()
        if self.draw is not None:
            self.console.print(self.draw(view, details=self.details))
        else:
            self.say(json.dumps(view["board"])[:2000])
        if self.session.done:
            return
        prompt = self.session.decision_text()
        self.say(Text(prompt, style="bold") if prompt else "your move:")
        self.choice = stable_keys(self.session.legal(), self.memory)
        for key, o in self.choice.items():
            self.say(f"  {key:>3}) {o['text']}")


def _command(table: Table, text: str) -> str:
    """Carry out one line typed by the person: "quit", "show" (the board again) or "" (ask again)."""
    s = table.session
    choice = table.choice
    if text in ("q", "quit", "exit"):
        return "quit"
    if text in ("?", "help"):
        how = help_text(s.env_name)
        if how:
            table.console.print(Panel(Markdown(how), title="How to play"))
        table.say(COMMANDS)
        return ""
    if text == "log":
        for line in s.log():  # public facts, and what only you saw
            table.say(f"  . {line}")
        return ""
    if text == "board":
        return "show"
    if text == "details":
        table.details = not table.details
        return "show"
    if text in ("undo", "resign", "hint"):
        try:
            if text == "undo":
                s.undo()
                table.say("took back your last decision")
                table.printed = s.log()
                return "show"
            if text == "resign":
                s.resign()
                return "over"
            with thinking(table.out, table.spinner):
                h = s.hint()
        except PlayError as exc:
            table.say(f"not now: {exc}")
            return ""
        key = next((k for k, o in choice.items() if o["index"] == h["index"]), "?")
        table.say(
            f"hint: {key}) {h['text']} (about {100 * h['win_chance']:.0f}% to win, "
            f"over {h['rollouts']} rollouts of the {h['level']} AI)"
        )
        return ""
    if text not in choice:
        listed = ", ".join(choice) if len(choice) <= 8 else f"{', '.join(list(choice)[:8])}..."
        table.say(f"not a choice: {text!r}; type one of the keys ({listed}), or ? for help")
        return ""
    before = time.perf_counter()
    with thinking(table.out, table.spinner):
        s.play(choice[text]["index"])
    table.recent()
    table.new_log()
    if table.spinner and time.perf_counter() - before > 0.5:
        table.say(f"(the AI took {time.perf_counter() - before:.1f}s)")
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
    games = 1
    while _play_one(session, read, out, _numbered(record, games), spinner):
        try:
            again = read("r for a rematch with the seats swapped, anything else leaves > ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            break
        if again not in ("r", "rematch"):
            break
        session = session.rematch()
        games += 1
    return 0


def _numbered(record: Path | None, game: int) -> Path | None:
    """Where game number ``game`` of a sitting is recorded: ``record``, then ``NAME-2.jsonl``..."""
    if record is None or game == 1:
        return record
    return record.with_name(f"{record.stem}-{game}{record.suffix}")


def _play_one(
    session: GameSession, read: Callable[[str], str], out: TextIO, record: Path | None, spinner: bool
) -> bool:
    """One game at the table; whether it was played to its end (not left)."""
    table = Table(session, out, spinner)
    # the seed is told at the end: with it and the decks, the hidden cards could be worked out
    table.say(title(session))
    table.say(f"you play seat(s) {', '.join(map(str, session.human))}; type ? for how to play")
    quit_reason = ""
    try:
        with thinking(out, spinner):
            session.opponent_moves()
        table.recent()
        table.new_log()
        what = "show"
        while not session.done:
            if what == "show":
                table.board()
            try:
                text = read("> ").strip().lower()
            except EOFError:
                quit_reason = "end of input"
                break
            what = _command(table, text)
            if what == "quit":
                quit_reason = "quit"
                break
    except KeyboardInterrupt:
        quit_reason = "interrupted"
        table.say("")
    if session.done:
        table.board()
    if record is not None:
        session.replay().save(record)
        table.say(f"wrote the replay to {record}")
    if quit_reason:
        table.say(f"left the game ({quit_reason}) after {session.moves} moves (seed {session.seed})")
        return False
    r = session.result()
    assert r is not None
    word = {"win": "won", "loss": "lost", "draw": "drew"}[r["outcome"]]
    table.say(f"game over: you {word} ({r['reason'] or 'no reason given'}; seed {session.seed})")
    return True

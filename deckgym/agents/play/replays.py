"""``deckgym replay``: a recorded game step by step, from one seat's view or the whole board.

Each position after the first starts with the events of its move (``envs.core.events``), as
the chosen seat may read them (every field for the whole board).

A replay file (``envs.replay``) holds the env, its options, the seed and the actions. Stepping
re-simulates it: every position is rebuilt from the record, so what is shown is exact, and
``--verify`` checks that the re-simulated end equals the recorded digest.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from deckgym.agents.play.session import describer, new_events
from deckgym.agents.play.terminal import board_text
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.events import lines_for
from deckgym.envs.replay import Replay, state_digest


class ReplayError(ValueError):
    """A replay file that cannot be read or played back (the message names the file)."""


def load(path: Path) -> Replay:
    """The replay in ``path``; ``ReplayError`` for a missing or malformed file."""
    if not Path(path).is_file():
        raise ReplayError(f"no replay file {str(path)!r}")
    try:
        return Replay.load(path)
    except StateError as exc:
        raise ReplayError(str(exc)) from None


def positions(rep: Replay) -> tuple[Any, list[Any]]:
    """The game's ruleset, and its states: before the first move, then after each move (clones)."""
    from deckgym import envs

    if rep.env not in envs.names():
        raise ReplayError(f"replay of an unknown env {rep.env!r}; known: {', '.join(envs.names())}")
    try:
        env = envs.make(rep.env, **rep.kwargs)
        env.reset(seed=rep.seed)
    except (TypeError, ValueError, KeyError) as exc:  # options the env refuses: an edited file
        raise ReplayError(f"replay options {rep.kwargs} of {rep.env}: {exc}") from None
    out = [env.unwrapped.game.clone()]
    for k, (agent, action) in enumerate(zip(rep.agents, rep.actions, strict=True)):
        if env.agent_selection != agent:
            raise ReplayError(
                f"step {k + 1}: the record says {agent} moves, the game says {env.agent_selection}"
            )
        try:
            env.step(action)
        except ValueError as exc:  # StateError, or IllegalActionError for a move the game refuses
            raise ReplayError(f"step {k + 1}: {exc}") from None
        out.append(env.unwrapped.game.clone())
    return env.unwrapped.ruleset, out


def frame_text(rep: Replay, ruleset: Any, states: list[Any], k: int, seat: int | None) -> str:
    """Position ``k`` (0 = the start) as text, from ``seat``'s view or the whole board."""
    st = states[k]
    head = f"-- position {k}/{len(states) - 1}"
    if k:
        head += f": {rep.agents[k - 1]} played {_move(ruleset, states[k - 1], rep.actions[k - 1], seat)}"
        n = len(new_events(states[k - 1].events, st.events))
        head += "".join(
            f"\n  . {line}" for line in lines_for(st, seat, n, describer(ruleset).card_names(st)) if n
        )
    body = board_text(ruleset.view(st, seat)) if seat is not None else ruleset.render_text(st, None)
    return head + "\n" + body


def _move(ruleset: Any, before: Any, action: int, seat: int | None) -> str:
    """A recorded move in words, as ``seat`` reads it (the mover's own view for the whole board)."""
    reader = before.current_player if seat is None else seat
    text: str = ruleset.describe_action(before, reader, action)["text"]
    return text


def run_replay(
    path: Path,
    seat: int | None = None,
    verify: bool = False,
    interactive: bool = False,
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
) -> int:
    """Show or check a replay; the exit status (1 when ``verify`` finds a difference)."""
    rep = load(path)
    ruleset, states = positions(rep)
    n_seats = states[0].num_players
    if seat is not None and not 0 <= seat < n_seats:
        raise ReplayError(f"--seat must be in 0..{n_seats - 1} for {rep.env}, got {seat}")
    if verify:
        ok = rep.final_digest is not None and state_digest(states[-1]) == rep.final_digest
        out.write(
            f"{path}: {len(rep.actions)} moves re-simulated: "
            + ("the final state matches the record\n" if ok else "DIFFERENT from the recorded final state\n")
        )
        return 0 if ok else 1
    if not interactive:
        out.writelines(frame_text(rep, ruleset, states, k, seat) + "\n" for k in range(len(states)))
        out.write(f"result: {rep.result}\n")
        return 0
    k = 0
    while True:
        out.write(frame_text(rep, ruleset, states, k, seat) + "\n")
        try:
            cmd = read("[n]ext, [p]revious, [q]uit, or a position number > ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return 0
        if cmd in ("q", "quit"):
            return 0
        if cmd in ("", "n", "next"):
            k = min(k + 1, len(states) - 1)
        elif cmd in ("p", "prev", "previous", "b", "back"):
            k = max(k - 1, 0)
        elif cmd.isdigit() and int(cmd) < len(states):
            k = int(cmd)
        else:
            out.write(f"not a command: {cmd!r}\n")

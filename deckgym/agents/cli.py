"""The ``deckgym`` command: list environments, train a PPO agent, evaluate agents.

deckgym envs
deckgym train medarot_ocg_v1 --mode beginner --out runs/beginner
deckgym evaluate medarot_ocg_v1 --agent heuristic --opponent random --games 400
deckgym decks rate mow_v1 --decks ashen_aggro,iron_bulwark --games 400
deckgym play medarot_ocg_v1 --opponent search --seed 3 --record game.jsonl
deckgym replay game.jsonl --seat 0
deckgym serve --port 8000
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from deckgym.agents.arena import MAX_GAMES
from deckgym.agents.cli_input import MAX_WORKERS, check_agent, check_count, check_env, check_output_file, run
from deckgym.agents.cli_train import OPTIONS_HELP, results_table
from deckgym.agents.cli_train import env_kwargs as _env_kwargs
from deckgym.agents.cli_train import register as register_train

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="deckgym: card-game environments and agents."
)


def _print_version(value: bool) -> None:
    if value:
        from deckgym import version_line

        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="print the version (and whether the engines are compiled) and exit",
    ),
) -> None:
    """deckgym: card-game environments and agents."""


def _add_decks() -> None:
    from deckgym.agents.decks.cli import decks_app

    app.add_typer(decks_app, name="decks")


_add_decks()


@app.command()
def envs() -> None:
    """List the registered environments."""
    from deckgym import envs as env_lib

    for name in env_lib.names():
        raw = env_lib.make(name).unwrapped
        doc = (raw.ruleset.__class__.__module__, raw.encoder.action_size, raw.encoder.obs_size)
        typer.echo(f"{name:<20} actions {doc[1]:>4}  observation {doc[2]:>5}  ({doc[0]})")


register_train(app)  # after envs: the order of deckgym --help


@app.command()
def evaluate(
    env: Annotated[str, typer.Argument(help="environment name")],
    agent: Annotated[
        str, typer.Option(help="random | heuristic | search[:WORLDS[:ppo:PATH]] | ppo:PATH")
    ] = "heuristic",
    opponent: Annotated[
        str, typer.Option(help="random | heuristic | search[:WORLDS[:ppo:PATH]] | ppo:PATH")
    ] = "random",
    games: Annotated[int, typer.Option(help="games (rounded up to seat-swapped pairs)")] = 400,
    mode: Annotated[str | None, typer.Option(help="ruleset mode")] = None,
    options: Annotated[str | None, typer.Option(help=OPTIONS_HELP)] = None,
    seed: Annotated[int, typer.Option(help="first seed")] = 0,
    workers: Annotated[int, typer.Option(help="processes (0: all cores)")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Play AGENT against OPPONENT: score, its 95% interval over pairs, and win/draw/loss rates.

    The score is wins + draws/2 per game; its interval is over seat-swapped pairs of games.
    """
    from deckgym.agents.arena import match

    kwargs = _env_kwargs(mode, options)
    check_env(env, kwargs)
    check_count("--games", games, maximum=MAX_GAMES)
    check_count("--workers", workers, 0, maximum=MAX_WORKERS)
    check_agent(agent, env, kwargs, "--agent")
    check_agent(opponent, env, kwargs, "--opponent")
    res = match(agent, opponent, env, games=games, seed=seed, workers=workers or None, **kwargs)
    if as_json:
        from deckgym import provenance

        typer.echo(json.dumps({"provenance": provenance(env, kwargs, seed=seed), **res.to_dict()}, indent=1))
    else:
        typer.echo(results_table([res.to_dict()]))


def _fail(message: str) -> None:
    """A user error: one line on stderr and exit status 2."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(2)


@app.command()
def play(
    env: Annotated[str, typer.Argument(help="environment name, e.g. medarot_ocg_v1")],
    opponent: Annotated[
        str,
        typer.Option(
            help="a level: Beginner, Easy, Medium, Hard, Expert; or an agent spec "
            "(random | heuristic | search[:WORLDS[:ppo:PATH]] | ppo:PATH)"
        ),
    ] = "Hard",
    mode: Annotated[str | None, typer.Option(help="ruleset mode")] = None,
    options: Annotated[str | None, typer.Option(help=OPTIONS_HELP)] = None,
    seat: Annotated[str, typer.Option(help="your side: 0, 1 or random (a team in AMALOGS)")] = "0",
    seed: Annotated[int | None, typer.Option(help="the game's seed (default: a random one)")] = None,
    record: Annotated[Path | None, typer.Option(help="write the game to this replay file")] = None,
) -> None:
    """Play the AI in the terminal: type the letter of a move, or a command (? for how to play)."""
    from deckgym.agents.play.session import GameSession, PlayError
    from deckgym.agents.play.terminal import play as run

    if seat not in ("0", "1", "random"):
        _fail(f"--seat must be 0, 1 or random, got {seat!r}")
    if record is not None:
        check_output_file("--record", record)
    try:
        session = GameSession(
            env, _env_kwargs(mode, options), opponent, seat if seat == "random" else int(seat), seed
        )
    except PlayError as exc:
        _fail(str(exc))
    raise typer.Exit(run(session, record=record))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a replay file (deckgym play --record, Recorder)")],
    seat: Annotated[int | None, typer.Option(help="show the game as this seat saw it (default: all)")] = None,
    verify: Annotated[bool, typer.Option(help="re-simulate; exit 1 on any difference")] = False,
    step: Annotated[bool, typer.Option(help="step forward and back by hand (n, p, q)")] = False,
) -> None:
    """Show a recorded game move by move, from one seat's view or the whole board."""
    from deckgym.agents.play.replays import ReplayError, run_replay

    try:
        code = run_replay(file, seat=seat, verify=verify, interactive=step)
    except ReplayError as exc:
        _fail(str(exc))
    raise typer.Exit(code)


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="address to bind (the default serves this machine only)")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port, 1-65535")] = 8000,
    max_games: Annotated[int, typer.Option(help="most live games at once, at least 1")] = 64,
    db: Annotated[
        str | None,
        typer.Option(
            help="the SQLite file that keeps the games, so a reload or a restart resumes them"
            " (default: $XDG_DATA_HOME/deckgym/games.sqlite3; ':memory:' keeps them only while the server runs)"
        ),
    ] = None,
) -> None:
    """A local web page to play the AI and watch replays (FastAPI + uvicorn, the [play] extra)."""
    import socket
    import sqlite3

    if not 1 <= port <= 65535:
        _fail(f"--port must be a whole number in 1..65535, got {port}")
    check_count("--max-games", max_games, maximum=10_000)
    try:
        socket.getaddrinfo(host, port)
    except (OSError, UnicodeError) as exc:
        _fail(f"--host {host!r} is not an address of this machine ({exc})")
    try:
        from deckgym.agents.play.server import serve as run_server
    except ImportError as exc:
        _fail(f"deckgym serve needs the [play] extra (pip install 'deckgym[play]'): {exc}")
    from deckgym.agents.play.store import GameStore, default_path

    db = db or str(default_path())
    try:
        GameStore(db).close()
    except (OSError, sqlite3.Error) as exc:
        _fail(f"--db {db!r} cannot hold the games: {exc}")
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
        except OSError as exc:
            _fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")
    typer.echo(f"deckgym serve: open http://{host}:{port}/ in a browser (Ctrl-C stops); games kept in {db}")
    raise typer.Exit(run_server(host, port, max_games, db))


def main() -> None:
    """Entry point of the console script: user errors are one ``Error:`` line and exit status 2."""
    sys.exit(run(app))


if __name__ == "__main__":
    main()

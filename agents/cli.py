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

import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from deckgym.agents.arena import MAX_GAMES
from deckgym.agents.cli_input import (
    UserError,
    check_agent,
    check_count,
    check_env,
    check_output_file,
    check_output_folder,
    require_extra,
    run,
)
from deckgym.agents.training.config import TrainConfig, default_settings

#: The most worker processes of one command.
MAX_WORKERS = 1024

#: Defaults of ``deckgym train`` are those of ``TrainConfig`` (one source of truth).
_TRAIN = TrainConfig()

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


def _json_object(text: str, option: str) -> dict[str, Any]:
    """The JSON object given to ``option``; anything else is an error naming the option."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"{option} is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise typer.BadParameter(f"{option} must be a JSON object, got {text!r}")
    return value


def _env_kwargs(mode: str | None, options: str | None = None) -> dict[str, Any]:
    """Environment options from ``--mode`` and ``--options`` (a JSON object)."""
    kwargs = _json_object(options, "--options") if options else {}
    if mode is not None:
        kwargs["mode"] = mode
    return kwargs


_OPTIONS_HELP = "more environment options as a JSON object, e.g. '{\"team_sizes\": [3, 3]}'"


def _parse_opponents(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in text.split(","):
        name, _, weight = part.strip().partition(":")
        if name not in ("random", "heuristic", "self"):
            raise typer.BadParameter(
                f"unknown opponent {name!r}; use random, heuristic, self (e.g. heuristic:0.5)"
            )
        try:
            out[name] = float(weight) if weight else 1.0
        except ValueError:
            raise typer.BadParameter(f"bad weight {weight!r} for {name}") from None
    return out


@app.command()
def envs() -> None:
    """List the registered environments."""
    from deckgym import envs as env_lib

    for name in env_lib.names():
        raw = env_lib.make(name).unwrapped
        doc = (raw.ruleset.__class__.__module__, raw.encoder.action_size, raw.encoder.obs_size)
        typer.echo(f"{name:<20} actions {doc[1]:>4}  observation {doc[2]:>5}  ({doc[0]})")


def _results_table(rows: list[dict[str, Any]]) -> str:
    """Score (wins + draws/2) with its 95% interval over seat-swapped pairs, beside win/draw/loss."""
    head = (
        f"{'agent':<22}{'opponent':<12}{'games':>7}{'score':>8}{'95% interval':>18}"
        f"{'win':>8}{'draw':>8}{'loss':>8}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lo, hi = r["score_ci95"]
        name = r["agent"] if len(r["agent"]) <= 21 else "..." + r["agent"][-18:]
        lines.append(
            f"{name:<22}{r['opponent']:<12}{r['games']:>7}{r['score']:>8.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>18}{r['win_rate']:>8.1%}{r['draw_rate']:>8.1%}{r['loss_rate']:>8.1%}"
        )
    return "\n".join(lines)


def _with_settings(cfg: TrainConfig, text: str) -> TrainConfig:
    """``cfg`` with the ``TrainConfig`` fields of the JSON object ``text`` replaced."""
    settings = _json_object(text, "--config")
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise typer.BadParameter(
            f"--config: unknown TrainConfig setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    return dataclasses.replace(cfg, **settings)


def _validate(cfg: TrainConfig) -> None:
    """Every setting of the run, before any work or file: a bad one is a ``UserError`` naming it."""
    try:
        cfg.validate()
    except ValueError as exc:
        raise UserError(str(exc)) from None
    check_env(cfg.env, cfg.env_kwargs)  # --config may name another env or options
    check_output_folder("--out", cfg.out)
    if cfg.imitation_cache:
        check_output_file("--imitation-cache", cfg.imitation_cache)
        from deckgym.agents.training.imitation import read_imitation_cache

        try:
            read_imitation_cache(cfg)
        except ValueError as exc:
            raise UserError(f"--imitation-cache: {exc}") from None


def _with_preset(cfg: TrainConfig, name: str) -> TrainConfig:
    """``cfg`` with the preset's settings where the command line left the default."""
    from deckgym.agents.training.config import preset

    try:
        settings = preset(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--preset") from None
    keep = {k: v for k, v in settings.items() if getattr(cfg, k) == getattr(_TRAIN, k)}
    return dataclasses.replace(cfg, **keep)


@app.command()
def train(
    env: Annotated[
        str | None, typer.Argument(help="environment name, e.g. medarot_ocg_v1 (none with --resume)")
    ] = None,
    mode: Annotated[str | None, typer.Option(help="ruleset mode, e.g. beginner")] = None,
    options: Annotated[str | None, typer.Option(help=_OPTIONS_HELP)] = None,
    timesteps: Annotated[int, typer.Option(help="learner decisions to train for")] = _TRAIN.timesteps,
    opponents: Annotated[
        str | None,
        typer.Option(
            help="opponent pool with weights, e.g. heuristic:0.8,random:0.05,self:0.15 (default: the env's)"
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="output folder")] = Path("runs/ppo"),
    seed: Annotated[int, typer.Option(help="seed of everything")] = _TRAIN.seed,
    eval_games: Annotated[int, typer.Option(help="games per baseline in the final evaluation")] = 400,
    eval_every: Annotated[
        int, typer.Option(help="steps between evaluations during training")
    ] = _TRAIN.eval_every,
    n_envs: Annotated[int, typer.Option(help="parallel environments (0: one per core)")] = _TRAIN.n_envs,
    pretrain_games: Annotated[
        int, typer.Option(help="heuristic self-play games imitated before PPO (0: none)")
    ] = _TRAIN.pretrain_games,
    workers: Annotated[int, typer.Option(help="processes for the final evaluation (0: all cores)")] = 0,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    imitation_cache: Annotated[
        str,
        typer.Option(
            help="file of the imitated policy: reused when its imitation settings match, else written"
        ),
    ] = "",
    config: Annotated[
        str | None,
        typer.Option(
            help='more TrainConfig settings as a JSON object, applied last, e.g. \'{"ent_coef": 0.01, "shaping": 0}\''
        ),
    ] = None,
    preset: Annotated[
        str,
        typer.Option(
            help="named settings: default, or strong (the long run of the shipped models, about 2 hours "
            "on 2 cores); the options given on the command line win over the preset's"
        ),
    ] = "default",
    resume: Annotated[
        Path | None,
        typer.Option(
            help="continue the run in this folder from its last checkpoint (its settings; --timesteps "
            "raises the total)"
        ),
    ] = None,
    seeds: Annotated[
        int,
        typer.Option(
            help="train this many runs, seeds --seed, --seed+1, ..., in OUT/seed_K, then plot their "
            "mean and spread (OUT/seeds.png, OUT/seeds.json)"
        ),
    ] = 1,
    ctx: typer.Context = None,  # type: ignore[assignment]
) -> None:
    """Train MaskablePPO with self-play, then evaluate it against the baselines.

    Writes OUT/model.zip, OUT/eval.json (per baseline: the score, wins + draws/2, with its 95%
    interval over seat-swapped pairs, and win/draw/loss rates with Wilson intervals),
    OUT/learning_curve.png (the score over training), OUT/train.json, checkpoints, snapshots
    and TensorBoard logs (OUT/tb).
    """
    from deckgym.agents.arena import match
    from deckgym.agents.training.loop import resume_config
    from deckgym.agents.training.loop import train as run_training

    require_extra("train", "deckgym train")
    check_count("--seeds", seeds)
    if resume is not None and seeds != 1:
        raise UserError("--resume continues one run; it does not take --seeds")
    if resume is not None:
        given = ctx is not None and ctx.get_parameter_source("timesteps").name == "COMMANDLINE"
        try:
            cfg = resume_config(resume, timesteps if given else None)
            cfg.validate()
        except (FileNotFoundError, ValueError) as exc:
            raise UserError(f"--resume {resume}: {exc}") from None
        env, kwargs, out = cfg.env, cfg.env_kwargs, resume
        typer.echo(f"resuming MaskablePPO on {env} {kwargs} up to {cfg.timesteps:,} steps -> {cfg.out}")
        summary = run_training(cfg, log=typer.echo, resume=True)
        _finish(summary, cfg, env, kwargs, out, eval_games, workers, match)
        return
    if env is None:
        raise UserError("Missing argument 'env': an environment name, e.g. medarot_ocg_v1 (or --resume DIR)")
    kwargs = _env_kwargs(mode, options)
    check_env(env, kwargs)
    check_count("--timesteps", timesteps)
    check_count("--eval-games", eval_games)
    check_count("--eval-every", eval_every)
    check_count("--n-envs", n_envs, 0)
    check_count("--pretrain-games", pretrain_games, 0)
    check_count("--workers", workers, 0)
    settings = default_settings(env)  # the env's opponent pool and PPO settings
    if opponents:
        settings["opponents"] = _parse_opponents(opponents)
    cfg = TrainConfig(
        env=env,
        env_kwargs=kwargs,
        timesteps=timesteps,
        seed=seed,
        out=str(out),
        eval_every=eval_every,
        n_envs=n_envs,
        progress_bar=progress,
        pretrain_games=pretrain_games,
        imitation_cache=imitation_cache,
        **settings,
    )
    cfg = _with_preset(cfg, preset)
    if config:
        cfg = _with_settings(cfg, config)
        env, kwargs, out = cfg.env, cfg.env_kwargs, Path(cfg.out)
    _validate(cfg)
    if seeds > 1:
        _train_seeds(cfg, seeds, eval_games, workers)
        return
    typer.echo(f"training MaskablePPO on {env} {kwargs} for {cfg.timesteps:,} steps -> {cfg.out}")
    summary = run_training(cfg, log=typer.echo)
    _finish(summary, cfg, env, kwargs, out, eval_games, workers, match)


def _train_seeds(cfg: TrainConfig, seeds: int, eval_games: int, workers: int) -> None:
    """``deckgym train --seeds N``: N runs of one recipe, then their curves against the heuristic."""
    from deckgym.agents.arena import match
    from deckgym.agents.training.loop import train as run_training
    from deckgym.agents.training.plots import plot_seed_curves

    root = Path(cfg.out)
    histories, finals = [], []
    for k in range(seeds):
        run = dataclasses.replace(cfg, seed=cfg.seed + k, out=str(root / f"seed_{cfg.seed + k}"))
        if cfg.imitation_cache:  # the imitation depends on the seed: one cached start per seed
            cache = Path(cfg.imitation_cache)
            run.imitation_cache = str(cache.with_name(f"{cache.stem}-seed{run.seed}{cache.suffix}"))
        typer.echo(
            f"[seed {run.seed}, run {k + 1}/{seeds}] training on {run.env} {run.env_kwargs} -> {run.out}"
        )
        summary = run_training(run, log=typer.echo)
        rows = _finish(summary, run, run.env, run.env_kwargs, Path(run.out), eval_games, workers, match)
        histories.append(summary["history"])
        finals.append({"seed": run.seed, "results": rows})
    labels = [f"seed {cfg.seed + k}" for k in range(seeds)]
    curves = plot_seed_curves(
        histories, root / "seeds.png", title=f"{cfg.env} {cfg.env_kwargs}: {seeds} seeds", labels=labels
    )
    from deckgym import provenance

    (root / "seeds.json").write_text(
        json.dumps(
            {
                "provenance": provenance(cfg.env, cfg.env_kwargs, seed=cfg.seed),
                "seeds": [cfg.seed + k for k in range(seeds)],
                "curves": curves,
                "final_evaluations": finals,
            },
            indent=1,
        )
    )
    starts = ", ".join(f"{x:.3f}" for x in curves["start"])
    ends = ", ".join(f"{x:.3f}" for x in curves["final"])
    typer.echo(
        f"{seeds} seeds: score vs heuristic at the start {starts}; at the end {ends}; "
        f"{curves['kept']} of {seeds} ended at or above their start"
    )
    typer.echo(f"wrote {root / 'seeds.png'} and {root / 'seeds.json'}")


def _finish(
    summary: dict[str, Any],
    cfg: TrainConfig,
    env: str,
    kwargs: dict[str, Any],
    out: Path,
    eval_games: int,
    workers: int,
    match: Any,
) -> list[dict[str, Any]]:
    """The end of ``deckgym train``: the final evaluation against the baselines, eval.json and the table.

    Returns the evaluation's rows (eval.json's ``results``).
    """
    typer.echo(
        f"trained {summary['timesteps']:,} steps in {summary['train_seconds']:.0f}s "
        f"({summary['steps_per_second']:.0f} steps/s)"
    )
    rows = []
    t0 = time.perf_counter()
    for opp in ("random", "heuristic"):
        res = match(
            f"ppo:{out / 'model.zip'}",
            opp,
            env,
            games=eval_games,
            seed=cfg.seed + 50_000,
            workers=workers or None,
            **kwargs,
        )
        rows.append(res.to_dict())
    from deckgym import provenance

    report = {
        "provenance": provenance(env, kwargs, seed=cfg.seed, eval_seed=cfg.seed + 50_000),
        "env": env,
        "env_kwargs": kwargs,
        "timesteps": summary["timesteps"],
        "train_seconds": summary["train_seconds"],
        "steps_per_second": summary["steps_per_second"],
        "eval_seconds": time.perf_counter() - t0,
        "results": rows,
    }
    (out / "eval.json").write_text(json.dumps(report, indent=1))
    typer.echo(_results_table(rows))
    typer.echo(f"wrote {out / 'model.zip'}, {out / 'eval.json'}, {out / 'learning_curve.png'}")
    return rows


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
    options: Annotated[str | None, typer.Option(help=_OPTIONS_HELP)] = None,
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
    check_count("--workers", workers, 0, MAX_WORKERS)
    check_agent(agent, env, kwargs, "--agent")
    check_agent(opponent, env, kwargs, "--opponent")
    res = match(agent, opponent, env, games=games, seed=seed, workers=workers or None, **kwargs)
    if as_json:
        from deckgym import provenance

        typer.echo(json.dumps({"provenance": provenance(env, kwargs, seed=seed), **res.to_dict()}, indent=1))
    else:
        typer.echo(_results_table([res.to_dict()]))


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
    options: Annotated[str | None, typer.Option(help=_OPTIONS_HELP)] = None,
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
) -> None:
    """A local web page to play the AI and watch replays (FastAPI + uvicorn, the [play] extra)."""
    import socket

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
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
        except OSError as exc:
            _fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")
    typer.echo(f"deckgym serve: open http://{host}:{port}/ in a browser (Ctrl-C stops)")
    raise typer.Exit(run_server(host, port, max_games))


def main() -> None:
    """Entry point of the console script: user errors are one ``Error:`` line and exit status 2."""
    sys.exit(run(app))


if __name__ == "__main__":
    main()

"""``deckgym train``: every ``TrainConfig`` field is an option, with the field's own help.

The options are read from ``TrainConfig`` (its fields, types, defaults and docstring), so a new
setting is declared once and the command takes it. A run's settings are built in layers, each
over the one before: ``TrainConfig``'s defaults, the env's own (``default_settings``), the
preset, the options given on the command line, then ``--config``. ``--show-config`` prints the
result and exits without training or writing anything.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import time
import typing
from pathlib import Path
from typing import Annotated, Any

import typer

from deckgym.agents.cli_input import (
    MAX_WORKERS,
    UserError,
    check_count,
    check_env,
    check_output_file,
    check_output_folder,
    require_extra,
)
from deckgym.agents.training.config import TrainConfig, default_settings, field_help

#: ``TrainConfig``'s defaults.
DEFAULTS = TrainConfig()

#: Fields the command takes in other forms: the env argument, ``--mode``/``--options``, and
#: ``--opponents`` as text (``heuristic:0.8,random:0.05,self:0.15``).
OWN_FORM = ("env", "env_kwargs", "opponents")

#: Option names that are not the field's name (``progress_bar`` is a flag pair).
FLAGS = {"progress_bar": "--progress/--no-progress"}

#: The options a resumed run takes (everything else is the run's own).
RESUME_TAKES = ("timesteps", "final_games", "progress_bar")

#: The most runs of ``--seeds``.
MAX_SEEDS = 100

#: The help of ``--options`` (``deckgym train``, ``evaluate`` and ``play``).
OPTIONS_HELP = "more environment options as a JSON object, e.g. '{\"team_sizes\": [3, 3]}'"


def option_name(field: str) -> str:
    """The command-line option of a ``TrainConfig`` field (``n_envs`` -> ``--n-envs``)."""
    return FLAGS.get(field, "--" + field.replace("_", "-")).split("/")[0]


def json_object(text: str, option: str) -> dict[str, Any]:
    """The JSON object given to ``option``; anything else is an error naming the option."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"{option} is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise typer.BadParameter(f"{option} must be a JSON object, got {text!r}")
    return value


def env_kwargs(mode: str | None, options: str | None = None) -> dict[str, Any]:
    """Environment options from ``--mode`` and ``--options`` (a JSON object)."""
    kwargs = json_object(options, "--options") if options else {}
    if mode is not None:
        kwargs["mode"] = mode
    return kwargs


def parse_opponents(text: str) -> dict[str, float]:
    """``heuristic:0.8,random:0.2`` as a pool of weights."""
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


def _layers(text: str) -> tuple[int, ...]:
    """``--net-arch 256,128`` as layer sizes."""
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise UserError(
            f"--net-arch takes layer sizes, comma separated (e.g. 256,256), got {text!r}"
        ) from None


def _field_parameters() -> list[inspect.Parameter]:
    """One keyword parameter per ``TrainConfig`` field (but ``OWN_FORM``), typed, with its help."""
    hints = typing.get_type_hints(TrainConfig)
    helps = field_help()
    params = []
    for f in dataclasses.fields(TrainConfig):
        if f.name in OWN_FORM:
            continue
        kind, default = hints[f.name], getattr(DEFAULTS, f.name)
        if kind not in (int, float, str, bool):  # net_arch: a comma-separated list
            kind, default = str, ",".join(map(str, default))
        decl = FLAGS.get(f.name, "--" + f.name.replace("_", "-"))
        option = typer.Option(decl, help=helps[f.name], rich_help_panel="Settings of the run (TrainConfig)")
        params.append(
            inspect.Parameter(
                f.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[kind, option]
            )
        )
    return params


#: The parameters of the command that are not ``TrainConfig`` fields: (name, annotation, default).
OWN_PARAMETERS: list[tuple[str, Any, Any]] = [
    ("ctx", typer.Context, inspect.Parameter.empty),
    (
        "env",
        Annotated[
            str | None,
            typer.Argument(help="environment name, e.g. medarot_ocg_v1 (none with --resume)"),
        ],
        None,
    ),
    ("mode", Annotated[str | None, typer.Option(help="ruleset mode, e.g. beginner")], None),
    ("options", Annotated[str | None, typer.Option(help=OPTIONS_HELP)], None),
    (
        "opponents",
        Annotated[
            str | None,
            typer.Option(
                help="opponent pool with weights, e.g. heuristic:0.8,random:0.05,self:0.15 "
                "(default: the env's)"
            ),
        ],
        None,
    ),
    (
        "preset",
        Annotated[
            str,
            typer.Option(
                help="named settings: default, or strong (the long run of the shipped models, "
                "about 2 hours on 2 cores); the options given on the command line win over it"
            ),
        ],
        "default",
    ),
    (
        "config",
        Annotated[
            str | None,
            typer.Option(
                help="more TrainConfig settings as a JSON object, applied last, "
                'e.g. \'{"ent_coef": 0.01, "shaping": 0}\''
            ),
        ],
        None,
    ),
    (
        "resume",
        Annotated[
            Path | None,
            typer.Option(
                help="continue the run in this folder from its last checkpoint, with its settings "
                "(--timesteps raises the total)"
            ),
        ],
        None,
    ),
    (
        "seeds",
        Annotated[
            int,
            typer.Option(
                help="train this many runs, seeds --seed, --seed+1, ..., in OUT/seed_K, then plot "
                "their mean and spread (OUT/seeds.png, OUT/seeds.json)"
            ),
        ],
        1,
    ),
    (
        "workers",
        Annotated[int, typer.Option(help="processes for the final evaluation (0: all cores)")],
        0,
    ),
    (
        "show_config",
        Annotated[
            bool,
            typer.Option("--show-config", help="print the run's settings as JSON and exit, training nothing"),
        ],
        False,
    ),
]


def _command_parameters() -> list[inspect.Parameter]:
    """The parameters of the command that are not ``TrainConfig`` fields."""
    return [
        inspect.Parameter(
            name,
            inspect.Parameter.POSITIONAL_OR_KEYWORD if name == "ctx" else inspect.Parameter.KEYWORD_ONLY,
            default=default,
            annotation=kind,
        )
        for name, kind, default in OWN_PARAMETERS
    ]


def _given(ctx: typer.Context, names: typing.Iterable[str]) -> list[str]:
    """The parameters among ``names`` that the user gave (on the command line or in the environment)."""
    out = []
    for name in names:
        source = ctx.get_parameter_source(name)
        if source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT"):
            out.append(name)
    return out


def with_preset(cfg: TrainConfig, name: str) -> TrainConfig:
    """``cfg`` with the settings of preset ``name``."""
    from deckgym.agents.training.config import preset

    try:
        settings = preset(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--preset") from None
    return dataclasses.replace(cfg, **settings)


def with_settings(cfg: TrainConfig, text: str) -> TrainConfig:
    """``cfg`` with the ``TrainConfig`` fields of the JSON object ``text`` replaced."""
    settings = json_object(text, "--config")
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise typer.BadParameter(
            f"--config: unknown TrainConfig setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    return dataclasses.replace(cfg, **settings)


def run_config(
    env: str, kwargs: dict[str, Any], preset: str, given: dict[str, Any], config: str | None
) -> TrainConfig:
    """The settings of a run, in layers: the defaults, the env's, the preset's, the given options, ``--config``."""
    cfg = TrainConfig(env=env, env_kwargs=kwargs, **default_settings(env))
    cfg = with_preset(cfg, preset)
    cfg = dataclasses.replace(cfg, **given)
    return with_settings(cfg, config) if config else cfg


def validate(cfg: TrainConfig, options: typing.Collection[str] = ()) -> None:
    """Every setting of the run, before any work or file: a bad one is a ``UserError`` naming it.

    A field in ``options`` (given as an option) is named as the option, ``--n-envs`` for ``n_envs``.
    """
    try:
        cfg.validate()
    except ValueError as exc:
        message = str(exc)
        field = message.split(" ", 1)[0]
        if field in options:
            message = option_name(field) + message[len(field) :]
        raise UserError(message) from None
    check_env(cfg.env, cfg.env_kwargs)  # --config may name another env or options
    check_output_folder("--out", cfg.out)
    if cfg.imitation_cache:
        check_output_file("--imitation-cache", cfg.imitation_cache)
        from deckgym.agents.training.imitation import read_imitation_cache

        try:
            read_imitation_cache(cfg)
        except ValueError as exc:
            raise UserError(f"--imitation-cache: {exc}") from None


def train(ctx: typer.Context, **values: Any) -> None:
    """Train MaskablePPO with self-play, then evaluate it against the baselines.

    Writes OUT/model.zip, OUT/eval.json (per baseline: the score, wins + draws/2, with its 95%
    interval over seat-swapped pairs, and win/draw/loss rates with Wilson intervals),
    OUT/learning_curve.png (the score over training), OUT/train.json, checkpoints, snapshots
    and TensorBoard logs (OUT/tb). Some envs have their own defaults for a few settings
    (--show-config prints a run's settings).
    """
    fields = [f.name for f in dataclasses.fields(TrainConfig) if f.name not in OWN_FORM]
    given = _given(ctx, fields)
    check_count("--seeds", values["seeds"], maximum=MAX_SEEDS)
    check_count("--workers", values["workers"], 0, maximum=MAX_WORKERS)
    if values["resume"] is not None:
        _resume(values, given)
        return
    env = values["env"]
    if env is None:
        raise UserError("Missing argument 'env': an environment name, e.g. medarot_ocg_v1 (or --resume DIR)")
    kwargs = env_kwargs(values["mode"], values["options"])
    check_env(env, kwargs)
    chosen = {name: values[name] for name in given}
    if "net_arch" in chosen:
        chosen["net_arch"] = _layers(chosen["net_arch"])
    if values["opponents"]:
        chosen["opponents"] = parse_opponents(values["opponents"])
    cfg = run_config(env, kwargs, values["preset"], chosen, values["config"])
    validate(cfg, given)
    if values["show_config"]:
        typer.echo(json.dumps(dataclasses.asdict(cfg), indent=1))
        return
    require_extra("train", "deckgym train")
    if values["seeds"] > 1:
        _train_seeds(cfg, values["seeds"], values["workers"])
        return
    from deckgym.agents.training.loop import train as run_training

    typer.echo(f"training MaskablePPO on {cfg.env} {cfg.env_kwargs} for {cfg.timesteps:,} steps -> {cfg.out}")
    summary = run_training(cfg, log=typer.echo)
    finish(summary, cfg, values["workers"])


def _resume(values: dict[str, Any], given: list[str]) -> None:
    """``deckgym train --resume DIR``: the run's own settings, with more steps when given."""
    from deckgym.agents.training.loop import resume_config
    from deckgym.agents.training.loop import train as run_training

    resume = values["resume"]
    if values["seeds"] != 1:
        raise UserError("--resume continues one run; it does not take --seeds")
    other = [option_name(n) for n in given if n not in RESUME_TAKES]
    if values["env"] is not None or values["config"] or other:
        raise UserError(
            "--resume continues a run with its own settings; it takes "
            f"{', '.join(option_name(n) for n in RESUME_TAKES)} and --workers only"
            + (f" (got {', '.join(other)})" if other else "")
        )
    require_extra("train", "deckgym train")
    try:
        cfg = resume_config(resume, values["timesteps"] if "timesteps" in given else None)
        cfg = dataclasses.replace(cfg, **{n: values[n] for n in given if n != "timesteps"})
        cfg.validate()
    except (FileNotFoundError, ValueError) as exc:
        raise UserError(f"--resume {resume}: {exc}") from None
    typer.echo(
        f"resuming MaskablePPO on {cfg.env} {cfg.env_kwargs} up to {cfg.timesteps:,} steps -> {cfg.out}"
    )
    summary = run_training(cfg, log=typer.echo, resume=True)
    finish(summary, cfg, values["workers"])


def _train_seeds(cfg: TrainConfig, seeds: int, workers: int) -> None:
    """``deckgym train --seeds N``: N runs of one recipe, then their curves against the heuristic."""
    from deckgym import provenance
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
        histories.append(summary["history"])
        finals.append({"seed": run.seed, "results": finish(summary, run, workers)})
    labels = [f"seed {cfg.seed + k}" for k in range(seeds)]
    title = f"{cfg.env} {cfg.env_kwargs}: {seeds} seeds"
    curves = plot_seed_curves(histories, root / "seeds.png", title=title, labels=labels)
    report = {
        "provenance": provenance(cfg.env, cfg.env_kwargs, seed=cfg.seed),
        "seeds": [cfg.seed + k for k in range(seeds)],
        "curves": curves,
        "final_evaluations": finals,
    }
    (root / "seeds.json").write_text(json.dumps(report, indent=1))
    starts = ", ".join(f"{x:.3f}" for x in curves["start"])
    ends = ", ".join(f"{x:.3f}" for x in curves["final"])
    typer.echo(
        f"{seeds} seeds: score vs heuristic at the start {starts}; at the end {ends}; "
        f"{curves['kept']} of {seeds} ended at or above their start"
    )
    typer.echo(f"wrote {root / 'seeds.png'} and {root / 'seeds.json'}")


def results_table(rows: list[dict[str, Any]]) -> str:
    """Score (wins + draws/2) with its 95% interval over pairs, beside win/draw/loss."""
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


def finish(summary: dict[str, Any], cfg: TrainConfig, workers: int) -> list[dict[str, Any]]:
    """The end of ``deckgym train``: the final evaluation against the baselines, eval.json and the table.

    ``cfg.final_games`` games per baseline, on seeds from ``cfg.seed + 50,000``. Returns the
    evaluation's rows (eval.json's ``results``).
    """
    from deckgym import provenance
    from deckgym.agents.arena import match

    out = Path(cfg.out)
    typer.echo(
        f"trained {summary['timesteps']:,} steps in {summary['train_seconds']:.0f}s "
        f"({summary['steps_per_second']:.0f} steps/s)"
    )
    t0 = time.perf_counter()
    seed = cfg.seed + 50_000
    rows = [
        match(
            f"ppo:{out / 'model.zip'}",
            opp,
            cfg.env,
            games=cfg.final_games,
            seed=seed,
            workers=workers or None,
            **cfg.env_kwargs,
        ).to_dict()
        for opp in ("random", "heuristic")
    ]
    report = {
        "provenance": provenance(cfg.env, cfg.env_kwargs, seed=cfg.seed, eval_seed=seed),
        "env": cfg.env,
        "env_kwargs": cfg.env_kwargs,
        "timesteps": summary["timesteps"],
        "train_seconds": summary["train_seconds"],
        "steps_per_second": summary["steps_per_second"],
        "eval_seconds": time.perf_counter() - t0,
        "results": rows,
    }
    (out / "eval.json").write_text(json.dumps(report, indent=1))
    typer.echo(results_table(rows))
    typer.echo(f"wrote {out / 'model.zip'}, {out / 'eval.json'}, {out / 'learning_curve.png'}")
    return rows


def register(app: typer.Typer) -> None:
    """Add ``train`` to ``app``, its signature built from ``TrainConfig``."""
    params = _command_parameters() + _field_parameters()
    train.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    train.__annotations__ = {p.name: p.annotation for p in params}
    app.command("train")(train)


__all__ = ["register", "results_table", "run_config", "validate"]

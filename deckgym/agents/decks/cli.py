"""``deckgym decks``: list and check decks, and rate them against each other with a fixed pilot.

deckgym decks list mow_v1
deckgym decks check medarot_ocg_v1 --mode advance my_deck.toml
deckgym decks rate mow_v1 --decks ashen_aggro,iron_bulwark,tide_control --games 400 --out runs/mow_decks
deckgym decks compare mow_v1 iron_bulwark ashen_aggro --elo0 0 --elo1 20 --json > run.json
deckgym decks compare mow_v1 iron_bulwark ashen_aggro --elo0 0 --elo1 20 --max-games 40000 --resume run.json
deckgym decks merge run.json other_seeds.json --out merged.json
deckgym decks gauntlet mow_v1 iron_bulwark --against ashen_aggro,tide_control --games 200 --sprt 0,30
deckgym decks complete medarot_ocg_v1 --mode beginner partial.toml --candidates cards.txt --against beginner_sparks
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Self

import typer

from deckgym import provenance
from deckgym.agents.cli_input import MAX_WORKERS, check_agent
from deckgym.agents.decks.matches import options_text

decks_app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Deck-strength evaluation: list, check and rate decks."
)


def _fail(message: str) -> typer.Exit:
    """Print one ``Error:`` line and return the exit (status 2) to raise."""
    typer.echo(f"Error: {message}", err=True)
    return typer.Exit(2)


def _ruleset(env: str, mode: str | None) -> Any:
    from deckgym import envs as env_lib

    if env not in env_lib.names():
        raise _fail(f"unknown environment {env!r}; known: {', '.join(env_lib.names())}")
    kwargs = {} if mode is None else {"mode": mode}
    try:
        ruleset = env_lib.ruleset(env, **kwargs)
    except (TypeError, ValueError) as exc:
        raise _fail(str(exc).splitlines()[0]) from None
    if not hasattr(ruleset, "starter_names"):
        raise _fail(
            f"{env} is not a deck ruleset (decks are rated in {', '.join(g.name for g in env_lib.games.games() if g.decks)})"
        )
    return ruleset


_MODE = typer.Option("--mode", help="ruleset mode (the OCG: beginner, normal, advance)")
_BACKEND = typer.Option(
    "--backend", help="process (local processes) or ray (a Ray cluster, the distributed extra); same numbers"
)


_PILOT = typer.Option("--pilot", help="agent spec piloting both sides")
_SEED = typer.Option("--seed", help="first seed")
_WORKERS = typer.Option("--workers", help="processes (0: all cores)")
_JSON = typer.Option("--json", help="print JSON")


def _setup(env: str, mode: str | None, pilot: str) -> dict[str, Any]:
    """Check the environment, mode and pilot; the ruleset's options."""
    _ruleset(env, mode)
    kwargs = {} if mode is None else {"mode": mode}
    check_agent(pilot, env, kwargs, "--pilot")
    return kwargs


def _pool(backend: str, workers: int) -> Any:
    """One pool of workers for the whole command (``agents.arena.pool``), or a one-line error."""
    import importlib.util

    from deckgym.agents.arena import BACKENDS, pool

    if backend not in BACKENDS:
        raise _fail(f"unknown --backend {backend!r}; known: {', '.join(BACKENDS)}")
    if not 0 <= workers <= MAX_WORKERS:
        raise _fail(f"--workers must be in 0..{MAX_WORKERS} (0: all cores), got {workers}")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise _fail("--backend ray needs Ray: pip install -e '.[distributed]'")
    return pool(backend, workers or None)


@decks_app.command("list")
def list_decks(
    env: Annotated[str, typer.Argument(help="environment name")], mode: Annotated[str | None, _MODE] = None
) -> None:
    """The starter decks: name, description and card list."""
    ruleset = _ruleset(env, mode)
    pool = ruleset.pool
    for name in ruleset.starter_names:
        deck = ruleset.deck_list(name)
        typer.echo(f"{name}: {deck.name}, {sum(n for _, n in deck.cards)} cards")
        if deck.description:
            typer.echo(f"  {deck.description}")
        typer.echo("  " + ", ".join(f"{n}x {pool[cid].name} ({cid})" for cid, n in deck.cards))


@decks_app.command("check")
def check_decks(
    env: Annotated[str, typer.Argument(help="environment name")],
    files: Annotated[list[str], typer.Argument(help="deck files (TOML) or starter names")],
    mode: Annotated[str | None, _MODE] = None,
) -> None:
    """Exit 0 when every deck is legal; else one line per problem and exit status 2."""
    from deckgym.envs.core.errors import DeckError

    ruleset = _ruleset(env, mode)
    bad = 0
    for f in files:
        try:
            deck = ruleset.deck_list(f)
        except DeckError as exc:
            for problem in exc.problems:  # every problem the deck check found, one line each
                typer.echo(f"{f}: {problem}", err=True)
            bad += 1
        else:
            typer.echo(f"{f}: legal ({deck.name}, {sum(n for _, n in deck.cards)} cards)")
    if bad:
        raise typer.Exit(2)


def _parse_field(text: str, option: str = "--field") -> dict[str, float]:
    out: dict[str, float] = {}
    for part in text.split(","):
        name, _, share = part.strip().partition(":")
        try:
            out[name] = float(share) if share else 1.0
        except ValueError:
            raise _fail(
                f"{option}: bad share {share!r} for {name} (use DECK:SHARE, e.g. a:0.5,b:0.3)"
            ) from None
        if out[name] < 0:
            raise _fail(f"{option}: share of {name} is negative")
    return out


@decks_app.command("rate")
def rate_decks(
    env: Annotated[str, typer.Argument(help="environment name")],
    decks: Annotated[str, typer.Option("--decks", help="decks to rate, comma separated (names or files)")],
    mode: Annotated[str | None, _MODE] = None,
    pilot: Annotated[str, _PILOT] = "heuristic",
    pilots: Annotated[
        str | None,
        typer.Option("--pilots", help="rate with each of these pilots (comma separated) and compare ranks"),
    ] = None,
    games: Annotated[int, typer.Option("--games", help="games per pairing (seat-swapped pairs)")] = 400,
    field: Annotated[str | None, typer.Option("--field", help="meta shares, e.g. a:0.5,b:0.3,c:0.2")] = None,
    seed: Annotated[int, _SEED] = 0,
    workers: Annotated[int, _WORKERS] = 0,
    backend: Annotated[str, _BACKEND] = "process",
    as_json: Annotated[bool, _JSON] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="write ratings.json, matrix.csv and plots")
    ] = None,
) -> None:
    """Round robin: score matrix with 95% intervals, Bradley-Terry Elo ratings, field scores."""
    from deckgym.agents.decks.ratings import pilot_agreement, rate
    from deckgym.envs.core.errors import DeckError

    _ruleset(env, mode)
    if games < 2:
        raise _fail(f"--games must be at least 2 (one seat-swapped pair), got {games}")
    names = [d.strip() for d in decks.split(",") if d.strip()]
    kwargs = {} if mode is None else {"mode": mode}
    shares = _parse_field(field) if field else None
    pairings = len(names) * (len(names) - 1) // 2
    specs = [p.strip() for p in pilots.split(",") if p.strip()] if pilots else [pilot]
    if len(set(specs)) != len(specs):
        raise _fail(f"--pilots names a pilot twice: {pilots}")
    for spec in specs:
        check_agent(spec, env, kwargs, "--pilots" if pilots else "--pilot")
    by_pilot: dict[str, dict[str, Any]] = {}
    try:
        with _pool(backend, workers):
            for spec in specs:
                total = pairings * 2 * ((games + 1) // 2)
                with _progress(total, f"rating {len(names)} decks with {spec}", as_json) as bar:
                    by_pilot[spec] = rate(
                        env, names, spec, games, seed, workers or None, shares, progress=bar.advance, **kwargs
                    )
    except (DeckError, ValueError) as exc:
        raise _fail(str(exc)) from None
    for spec, result in by_pilot.items():
        result["provenance"] = provenance(env, kwargs, seed=seed)
        if out is not None:
            write_outputs(result, out if len(specs) == 1 else out / spec.replace(":", "_").replace("/", "_"))
        if not as_json:
            typer.echo(format_rating(result) + "\n")
    agreement = pilot_agreement(by_pilot) if len(specs) > 1 else None
    if as_json:
        single = by_pilot[specs[0]]
        both = {"provenance": provenance(env, kwargs, seed=seed), "by_pilot": by_pilot, **(agreement or {})}
        typer.echo(json.dumps(single if agreement is None else both, indent=1))
        return
    if agreement is not None:
        for key, tau in agreement["kendall_tau"].items():
            typer.echo(f"rank agreement (Kendall's tau) {key}: {tau:+.2f}")
        for f in agreement["flips"]:
            (lo1, hi1), (lo2, hi2) = f["gap_ci95"]
            typer.echo(
                f"order flips: {f['decks'][0]} / {f['decks'][1]} between {f['pilots'][0]} and {f['pilots'][1]}; "
                f"Elo gap [{lo1:+.0f}, {hi1:+.0f}] and [{lo2:+.0f}, {hi2:+.0f}]: "
                + (
                    "significant (each order holds beyond its 95% interval)"
                    if f["significant"]
                    else "not significant"
                )
            )
        if not agreement["flips"]:
            typer.echo("no pair of decks changes order between the pilots")
    if out is not None:
        typer.echo(f"wrote ratings.json, matrix.csv, heatmap.png, ratings.png under {out}")


def _read_record(path: Path, option: str) -> dict[str, Any]:
    """A ``decks compare --json`` record from a file, or a one-line error naming ``option``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise _fail(
            f"{option} {path}: not UTF-8 text (byte {exc.start}): not a record of decks compare --json"
        ) from None
    except OSError as exc:
        raise _fail(f"{option} {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise _fail(f"{option} {path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    need = ("pairs", "wins", "draws", "losses", "seeds", "seed", "max_games")
    if not isinstance(data, dict) or any(k not in data for k in need):
        raise _fail(f"{option} {path}: not a record of decks compare --json (it needs {', '.join(need)})")
    return data


@decks_app.command("compare")
def compare_decks(
    env: Annotated[str, typer.Argument(help="environment name")],
    deck_a: Annotated[str, typer.Argument(help="the deck under test")],
    deck_b: Annotated[str, typer.Argument(help="the deck it is compared with")],
    mode: Annotated[str | None, _MODE] = None,
    pilot: Annotated[str, _PILOT] = "heuristic",
    elo0: Annotated[float, typer.Option("--elo0", help="H0: A is this many Elo stronger (or less)")] = 0.0,
    elo1: Annotated[float, typer.Option("--elo1", help="H1: A is at least this many Elo stronger")] = 20.0,
    alpha: Annotated[float, typer.Option("--alpha", help="chance of calling an elo0 deck stronger")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="chance of missing an elo1 deck")] = 0.05,
    max_games: Annotated[
        int, typer.Option("--max-games", help="stop undecided after this many games (resumed ones count)")
    ] = 20_000,
    seed: Annotated[int, _SEED] = 0,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="continue the run of this --json record (same decks and settings)"),
    ] = None,
    workers: Annotated[int, _WORKERS] = 0,
    backend: Annotated[str, _BACKEND] = "process",
    as_json: Annotated[bool, _JSON] = False,
) -> None:
    """Sequential test (pentanomial SPRT over game pairs): is A stronger than B by elo1 rather than elo0?"""
    from deckgym.agents.decks.sprt import compare, deck_cards
    from deckgym.envs.core.errors import DeckError

    kwargs = _setup(env, mode, pilot)
    previous = None if resume is None else _read_record(resume, "--resume")
    try:
        if deck_cards(env, deck_a, **kwargs) == deck_cards(env, deck_b, **kwargs):
            typer.echo(
                f"Warning: {deck_a} and {deck_b} have the same cards; the test compares a deck with itself",
                err=True,
            )
    except DeckError as exc:
        raise _fail(str(exc)) from None
    _run_and_print(
        env,
        kwargs,
        seed,
        (backend, workers, as_json),
        (max_games, "LLR 0.00"),
        lambda bar: compare(
            env,
            deck_a,
            deck_b,
            pilot,
            elo0,
            elo1,
            alpha,
            beta,
            max_games,
            seed,
            workers or None,
            lambda games, llr: bar.show(games, f"LLR {llr:+.2f}"),
            previous,
            **kwargs,
        ),
        lambda result: result["games"],
        format_comparison,
    )


@decks_app.command("merge")
def merge_runs(
    files: Annotated[list[Path], typer.Argument(help="decks compare --json records over disjoint seeds")],
    out: Annotated[Path | None, typer.Option("--out", help="write the merged record here")] = None,
    as_json: Annotated[bool, _JSON] = False,
) -> None:
    """Merge runs of decks compare on the same decks, pilot and settings over disjoint seeds."""
    from deckgym.agents.decks.sprt import merge

    records = [_read_record(f, "merge") for f in files]
    try:
        result = merge(records)
    except ValueError as exc:
        raise _fail(str(exc)) from None
    result = {"provenance": provenance(result["env"], result["options"], seed=result["seed"]), **result}
    if out is not None:
        out.write_text(json.dumps(result, indent=1))
    if as_json:
        typer.echo(json.dumps(result, indent=1))
    else:
        typer.echo(format_comparison(result) + (f"\nwrote {out}" if out is not None else ""))


def format_comparison(result: dict[str, Any]) -> str:
    """A compare record in words: verdict, counts, estimates and the test's context."""
    r = result
    settings = ", ".join(
        x for x in (r["env"], options_text(r["options"]) if r["options"] else "", f"pilot {r['pilot']}") if x
    )
    ranges = ", ".join(f"{a}-{b - 1}" for a, b in r["seeds"])
    lo, hi = r.get("corrected_bounds", r["bounds"])
    elo_lo, elo_hi = r["elo_ci95"]
    s_lo, s_hi = r["score_ci95"]
    if r["nelo"] is None:  # every pair scored alike: no spread to normalize by
        nelo = "nElo undefined (every pair had the same score)"
        fixed = "  a fixed-size test of the same power: undefined without a spread of pair scores"
    else:
        n_lo, n_hi = r["nelo_ci95"]
        nelo = f"nElo {r['nelo']:+.1f} [{n_lo:+.1f}, {n_hi:+.1f}]"
        fixed = f"  a fixed-size test of the same power would need about {r['fixed_games_same_power']} games"
    head = f"{r['deck_a']} vs {r['deck_b']} ({settings}): {r['verdict']} after {r['games']} games"
    pairs = " ".join(map(str, r["pairs"]))
    return "\n".join(
        [
            f"{head} (seeds {ranges or 'none'})",
            f"  W/D/L {r['wins']}/{r['draws']}/{r['losses']}, draw share {r['draw_share']:.1%}; "
            + f"pairs from A's worst to best (0, 1/2, 1, 3/2, 2 points): {pairs}",
            f"  Elo {r['elo']:+.1f} [{elo_lo:+.1f}, {elo_hi:+.1f}] (95%, corrected for the stop), {nelo}, "
            + f"LOS {r['los']:.1%}",
            f"  score {r['score']:.3f} [{s_lo:.3f}, {s_hi:.3f}] (raw); LLR {r['llr']:+.2f} in "
            + f"[{lo:.2f}, {hi:.2f}] (Wald's bounds less the expected overshoot), H0 {r['elo0']:+g} Elo, "
            + f"H1 {r['elo1']:+g} Elo",
            fixed,
        ]
    )


@decks_app.command("search")
def search_decks(
    env: Annotated[str, typer.Argument(help="environment name (a deck ruleset)")],
    field: Annotated[str, typer.Option("--field", help="the decks to beat, comma separated")],
    budget: Annotated[int, typer.Option("--budget", help="games the search may play")],
    mode: Annotated[str | None, _MODE] = None,
    start: Annotated[
        str | None, typer.Option("--start", help="the deck to start from (default: the first field deck)")
    ] = None,
    pilot: Annotated[str, _PILOT] = "heuristic",
    holdout: Annotated[
        int, typer.Option("--holdout", help="fresh-seed games per field deck for the final score")
    ] = 400,
    target: Annotated[
        float | None,
        typer.Option("--target", help="tune toward this score against the field (e.g. 0.5) instead of up"),
    ] = None,
    keep_theme: Annotated[
        bool, typer.Option("--keep-theme", help="swap cards only within their kind (and Medarot type)")
    ] = False,
    keep_master: Annotated[
        bool,
        typer.Option("--keep-master", help="never swap a MoW master; other cards may change kind"),
    ] = False,
    swaps: Annotated[int, typer.Option("--swaps", help="one-card swaps per mutant (bigger steps)")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="seed of the search")] = 0,
    workers: Annotated[int, _WORKERS] = 0,
    backend: Annotated[str, _BACKEND] = "process",
    as_json: Annotated[bool, _JSON] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="write best.toml, search.json and the search curve")
    ] = None,
) -> None:
    """Search a legal deck that scores best against the field (or nearest --target); score it on fresh seeds."""
    from deckgym.agents.decks.search import deck_search
    from deckgym.envs.core.errors import DeckError

    kwargs = _setup(env, mode, pilot)
    names = [d.strip() for d in field.split(",") if d.strip()]
    with _pool(backend, workers), _progress(budget, "incumbent score -", as_json) as bar:
        try:
            result = deck_search(
                env,
                names,
                budget,
                start,
                pilot,
                seed,
                workers or None,
                holdout,
                lambda games, score: bar.show(games, f"incumbent score {score:.3f}"),
                target,
                keep_theme,
                swaps,
                keep_master,
                **kwargs,
            )
        except (DeckError, ValueError) as exc:
            raise _fail(str(exc)) from None
    result = {"provenance": provenance(env, kwargs, seed=seed), **result}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "best.toml").write_text(result["best_toml"])
        (out / "search.json").write_text(json.dumps(result, indent=1))
        from deckgym.agents.decks.plots import search_curve

        search_curve(result, out / "search_curve.png")
    if as_json:
        typer.echo(json.dumps(result, indent=1))
        return
    lo, hi = result["holdout_ci95"]
    typer.echo(
        f"best deck after {result['games_used']} search games: holdout score {result['holdout_score']:.3f} "
        f"[{lo:.3f}, {hi:.3f}] over {result['holdout_games']} fresh-seed games against {', '.join(names)}"
    )
    typer.echo(result["best_toml"])


def _field_decks(text: str) -> list[str]:
    """``--against``: deck names or files, comma separated, or one folder (its ``*.toml`` files)."""
    names = [d.strip() for d in text.split(",") if d.strip()]
    if len(names) == 1 and Path(names[0]).is_dir():
        files = sorted(str(p) for p in Path(names[0]).glob("*.toml"))
        if not files:
            raise _fail(f"--against: the folder {names[0]} holds no deck file (*.toml)")
        return files
    if not names:
        raise _fail("--against needs at least one deck (names or files, comma separated, or a folder)")
    return names


_AGAINST = typer.Option("--against", help="the field: decks comma separated (names or files), or a folder")


@decks_app.command("gauntlet")
def gauntlet_deck(
    env: Annotated[str, typer.Argument(help="environment name")],
    deck: Annotated[str, typer.Argument(help="the deck under test (name or file)")],
    against: Annotated[str, _AGAINST],
    mode: Annotated[str | None, _MODE] = None,
    pilot: Annotated[str, _PILOT] = "heuristic",
    games: Annotated[int, typer.Option("--games", help="games per opponent (the most, with --sprt)")] = 400,
    weights: Annotated[
        str | None, typer.Option("--weights", help="field weights by deck, e.g. a:0.5,b:0.3 (default equal)")
    ] = None,
    sprt: Annotated[
        str | None, typer.Option("--sprt", help="ELO0,ELO1: a sequential test per opponent, e.g. 0,30")
    ] = None,
    alpha: Annotated[
        float, typer.Option("--alpha", help="SPRT: chance of calling an elo0 deck stronger")
    ] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="SPRT: chance of missing an elo1 deck")] = 0.05,
    seed: Annotated[int, _SEED] = 0,
    workers: Annotated[int, _WORKERS] = 0,
    backend: Annotated[str, _BACKEND] = "process",
    as_json: Annotated[bool, _JSON] = False,
) -> None:
    """One deck against a field: per-opponent score, W/D/L and pair counts, and the field total."""
    from deckgym.agents.decks import gauntlet as g

    kwargs = _setup(env, mode, pilot)
    field = _field_decks(against)
    bounds = None
    if sprt is not None:
        try:
            elo0, elo1 = (float(x) for x in sprt.split(","))
        except ValueError:
            raise _fail(f"--sprt takes ELO0,ELO1 (two numbers, e.g. 0,30), got {sprt!r}") from None
        bounds = (elo0, elo1)
    shares = _parse_field(weights, "--weights") if weights else None
    _run_and_print(
        env,
        kwargs,
        seed,
        (backend, workers, as_json),
        (len(field) * 2 * ((games + 1) // 2), f"{len(field)} opponents"),
        lambda bar: g.gauntlet(
            env,
            deck,
            field,
            pilot,
            games,
            seed,
            workers or None,
            shares,
            bounds,
            alpha,
            beta,
            bar.advance,
            **kwargs,
        ),
        lambda result: result["games"],
        g.format_gauntlet,
    )


#: ``complete``'s options of the race.
_RACE = {
    "budget": typer.Option("--budget", help="games the race may play"),
    "recheck": typer.Option("--recheck", help="winners re-checked on fresh seeds"),
    "holdout": typer.Option("--holdout", help="fresh-seed games per field deck"),
    "max_completions": typer.Option("--max-completions", help="refuse when more ways to complete the deck"),
}


@decks_app.command("complete")
def complete_deck(
    env: Annotated[str, typer.Argument(help="environment name")],
    partial: Annotated[str, typer.Argument(help="the partial deck file (fewer cards than a deck needs)")],
    candidates: Annotated[
        str, typer.Option("--candidates", help="text file: one ID or ID COUNT (most copies to add) a line")
    ],
    against: Annotated[str, _AGAINST],
    mode: Annotated[str | None, _MODE] = None,
    pilot: Annotated[str, _PILOT] = "heuristic",
    workers: Annotated[int, _WORKERS] = 0,
    backend: Annotated[str, _BACKEND] = "process",
    budget: Annotated[int, _RACE["budget"]] = 2000,
    recheck: Annotated[int, _RACE["recheck"]] = 3,
    holdout: Annotated[int, _RACE["holdout"]] = 200,
    max_completions: Annotated[int, _RACE["max_completions"]] = 200,
    as_json: Annotated[bool, _JSON] = False,
    seed: Annotated[int, _SEED] = 0,
) -> None:
    """Every legal completion of a partial deck, raced against a field; the winners re-checked."""
    from deckgym.agents.decks import complete as c

    kwargs = _setup(env, mode, pilot)
    field = _field_decks(against)
    _run_and_print(
        env,
        kwargs,
        seed,
        (backend, workers, as_json),
        (budget + recheck * len(field) * 2 * ((holdout + 1) // 2), "racing completions"),
        lambda bar: c.complete(
            env,
            partial,
            candidates,
            field,
            pilot,
            c.RaceSettings(budget, recheck, holdout, max_completions),
            seed,
            workers or None,
            bar.advance,
            **kwargs,
        ),
        lambda result: result["race_games"] + sum(r["games"] for r in result["recheck"]),
        c.format_complete,
    )


def _run_and_print(
    env: str,
    kwargs: dict[str, Any],
    seed: int,
    where: tuple[str, int, bool],
    bar_size: tuple[int, str],
    run: Callable[[Any], dict[str, Any]],
    games: Callable[[dict[str, Any]], int],
    text: Callable[[dict[str, Any]], str],
) -> None:
    """Run a command's work under one pool and a progress bar; print its result as text or JSON.

    ``where``: backend, workers and whether to print JSON; ``bar_size``: the most games and the
    bar's label; ``games(result)``: the games played, where the bar ends.
    """
    from deckgym.envs.core.errors import DeckError

    backend, workers, as_json = where
    with _pool(backend, workers), _progress(*bar_size, as_json) as bar:
        try:
            result = run(bar)
        except (DeckError, ValueError) as exc:
            raise _fail(str(exc)) from None
        bar.finish(games(result))
    result = {"provenance": provenance(env, kwargs, seed=seed), **result}
    typer.echo(json.dumps(result, indent=1) if as_json else text(result))


class _progress:
    """A rich progress bar over games, silent when printing JSON.

    ``with _progress(total, what, quiet) as bar``: ``bar.advance(games)`` moves it on,
    ``bar.show(games, text)`` sets its position and its running estimate.
    """

    def __init__(self, total: int, what: str, quiet: bool) -> None:
        self.total, self.what, self.quiet = total, what, quiet
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> Self:
        if not self.quiet:
            from rich.progress import Progress

            self.bar = Progress(transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.what, total=self.total)
        return self

    def advance(self, games: int) -> None:
        """Count ``games`` more games."""
        if self.bar is not None:
            self.bar.advance(self.task, games)

    def show(self, games: int, text: str) -> None:
        """``games`` played so far, with ``text`` (the running estimate) as the description."""
        if self.bar is not None:
            self.bar.update(self.task, completed=games, description=text)

    def finish(self, games: int) -> None:
        """End the bar at ``games``, the games played (a test may stop well before its cap)."""
        if self.bar is not None:
            self.bar.update(self.task, total=max(games, 1), completed=games)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def format_rating(result: dict[str, Any]) -> str:
    """The matrix and the ratings as fixed-width tables."""
    names = result["decks"]
    w = max(12, *(len(n) for n in names)) + 2
    title = f"{result['env']} {options_text(result['options'])}, pilot {result['pilot']}"
    lines = [f"{title}, {result['games']} games per pairing"]
    lines.append("score of row vs column [95% interval]")
    lines.append(" " * w + "".join(f"{n:>{w + 8}}" for n in names))
    for i, a in enumerate(names):
        cells = []
        for j in range(len(names)):
            if i == j:
                cells.append(f"{'-':>{w + 8}}")
            else:
                lo, hi = result["matrix_ci95"][i][j]
                cells.append(f"{result['matrix'][i][j]:.3f} [{lo:.2f},{hi:.2f}]".rjust(w + 8))
        lines.append(f"{a:<{w}}" + "".join(cells))
    lines.append("")
    lines.append(f"{'deck':<{w}}{'Elo':>8}{'95% interval':>20}{'vs field':>10}")
    for r in sorted(result["ratings"], key=lambda r: -r["elo"]):
        lo, hi = r["elo_ci95"]
        lines.append(
            f"{r['deck']:<{w}}{r['elo']:>8.0f}{f'[{lo:.0f}, {hi:.0f}]':>20}{r['score_vs_field']:>10.3f}"
        )
    lines.append("")
    lines.append(
        "per pairing: first deck's wins / draws / losses, draw share, pairs scoring 0 | 1/2 | 1 | 3/2 | 2"
    )
    for p in result["pairings"]:
        a, b = p["decks"]
        lines.append(
            f"{a} vs {b}: {p['wins']}/{p['draws']}/{p['losses']}, draws {p['draw_share']:.1%}, "
            f"pairs {' | '.join(map(str, p['pentanomial']))}"
        )
    return "\n".join(lines)


def write_outputs(result: dict[str, Any], out: Path) -> None:
    """``ratings.json``, ``matrix.csv``, ``heatmap.png`` and ``ratings.png`` in ``out``."""
    from deckgym.agents.decks.plots import matchup_heatmap, rating_plot

    out.mkdir(parents=True, exist_ok=True)
    (out / "ratings.json").write_text(json.dumps(result, indent=1))
    with (out / "matrix.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["deck", *result["decks"]])
        for name, row in zip(result["decks"], result["matrix"], strict=True):
            writer.writerow([name, *(f"{x:.4f}" for x in row)])
    matchup_heatmap(result, out / "heatmap.png")
    rating_plot(result, out / "ratings.png")

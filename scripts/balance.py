"""Balance a set of decks: tune the one farthest from even until every matchup is in a band.

Each iteration rates the decks (a round robin of seat-swapped pairs with the same pilot on
both sides). If every matchup's score lies in ``--band``, it stops. Otherwise it takes the
deck whose score against the other decks is farthest above 0.5 (or, every other turn, below
it) and tunes it toward 0.5 with
``deckgym decks search --target 0.5 --keep-theme`` (swaps within a card's kind, so the deck
keeps its theme; a MoW master and a parts starter set never change), with mutants of up to
three swaps while the deck is far from even. Turns alternate between the strongest deck and
the weakest. The tuned deck keeps its name and description. A set that is in the band on the
small ratings must stay in it over ``--games`` games per pairing on seeds the tuning never
used, or the tuning goes on; that rating is the reported result.

    python scripts/balance.py mow_v1 --out runs/balance/mow
    python scripts/balance.py medarot_ocg_v1 --mode beginner --out runs/balance/beginner --write

``OUT/best`` keeps the set whose full rating came closest to the band (a later tuning can make
things worse). ``--write`` copies the balanced decks over the ruleset's starter deck files.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: Deck rules the packaged starter decks keep beyond an env's defaults (MoW: at most 3 copies of a
#: card, ``STARTER_MAX_COPIES``), so that a tuned deck stays a legal starter.
STARTER_RULES: dict[str, dict[str, Any]] = {"mow_v1": {"max_copies": 3}}

#: Seeds of the confirming ratings (plus the iteration): far from the tuning ratings and searches.
FINAL_SEED = 700_000_000


def in_band(matrix: list[list[float]], band: tuple[float, float]) -> bool:
    """Every off-diagonal entry of the score matrix is inside ``band``."""
    return miss(matrix, band) == 0.0


def off_even(result: dict[str, Any]) -> dict[str, float]:
    """Per deck, its mean score against the other decks minus 0.5."""
    n = len(result["decks"])
    return {
        name: sum(row[j] for j in range(n) if j != i) / (n - 1) - 0.5
        for i, (name, row) in enumerate(zip(result["decks"], result["matrix"], strict=True))
    }


def miss(matrix: list[list[float]], band: tuple[float, float]) -> float:
    """How far the worst matchup lies outside ``band`` (0 when every one is inside)."""
    n = len(matrix)
    off = [
        max(band[0] - matrix[i][j], matrix[i][j] - band[1], 0.0) for i in range(n) for j in range(n) if i != j
    ]
    return max(off)


def farthest(result: dict[str, Any], side: int = 0) -> str:
    """The deck whose score against the other decks is farthest from 0.5.

    ``side`` +1 or -1: the farthest above or below even, if one is more than 0.05 off (a
    strong deck that resists weakening does not take every turn); 0: either side.
    """
    off = off_even(result)
    if side:
        leaning = {k: v * side for k, v in off.items() if v * side > 0.05}
        if leaning:
            return max(leaning, key=lambda k: leaning[k])
    return max(off, key=lambda k: abs(off[k]))


def step_size(result: dict[str, Any], deck: str) -> int:
    """Swaps per mutant for tuning ``deck``: 3 when its score is more than 0.2 from even, 2 above 0.1, else 1."""
    off = abs(off_even(result)[deck])
    return 3 if off > 0.2 else 2 if off > 0.1 else 1


def tuned_toml(env: str, path: Path, found: dict[str, Any], ruleset: Any) -> str:
    """The searched deck as a deck file with the original deck's name and description."""
    from deckgym.agents.decks.search import deck_toml

    deck = ruleset.deck_list(str(path))
    return deck_toml(env, found["best"], ruleset, deck.name, deck.description, found["starter"])


def _parser() -> argparse.ArgumentParser:
    """The command-line options."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("env", help="a deck ruleset: medarot_ocg_v1, medarot_parts_v1, mow_v1")
    ap.add_argument("--mode", default=None, help="the OCG mode")
    ap.add_argument("--decks", default=None, help="decks, comma separated (default: the starter decks)")
    ap.add_argument("--pilot", default="heuristic", help="agent spec piloting both sides")
    ap.add_argument("--band", type=float, nargs=2, default=(0.35, 0.65), help="allowed matchup scores")
    ap.add_argument("--check-games", type=int, default=200, help="games per pairing in each iteration")
    ap.add_argument("--games", type=int, default=400, help="games per pairing in the final rating")
    ap.add_argument("--budget", type=int, default=4000, help="search games per tuning")
    ap.add_argument("--iterations", type=int, default=8, help="most tunings")
    ap.add_argument("--workers", type=int, default=0, help="processes (0: every core)")
    ap.add_argument("--out", type=Path, required=True, help="work folder: decks/, balance.json")
    ap.add_argument("--write", action="store_true", help="copy the balanced decks over the starter files")
    ap.add_argument(
        "--swap",
        choices=("kind", "master"),
        default="kind",
        help="kind: swap cards within their kind; master: keep only the MoW master, move cards across kinds",
    )
    ap.add_argument("--resume", action="store_true", help="start from the decks already in OUT/decks")
    return ap


class _Run:
    """One balancing run's settings, deck files and best set so far."""

    def __init__(self, args: argparse.Namespace) -> None:
        """Make the ruleset and copy the decks into OUT/decks (keeping those there with --resume)."""
        from deckgym import envs

        self.args = args
        self.kwargs: dict[str, Any] = {} if args.mode is None else {"mode": args.mode}
        self.kwargs.update(STARTER_RULES.get(args.env, {}))
        self.ruleset = envs.ruleset(args.env, **self.kwargs)
        self.names = args.decks.split(",") if args.decks else list(self.ruleset.starter_names)
        self.sources = {n: Path(self.ruleset.deck_list(n).source or n) for n in self.names}
        work = args.out / "decks"
        work.mkdir(parents=True, exist_ok=True)
        self.paths: dict[str, Path] = {}
        for n, src in self.sources.items():
            self.paths[n] = work / f"{n}.toml"
            if not (args.resume and self.paths[n].exists()):
                shutil.copyfile(src, self.paths[n])
        self.workers = args.workers or None
        self.band = tuple(args.band)
        self.best_dir = args.out / "best"
        self.best_file = self.best_dir / "best.json"
        self.best_miss = (
            json.loads(self.best_file.read_text())["miss"]
            if args.resume and self.best_file.exists()
            else float("inf")
        )

    def decks(self) -> list[str]:
        """The current deck files, in the order of the deck names."""
        return [str(self.paths[n]) for n in self.names]

    def rate(self, games: int, seed: int) -> dict[str, Any]:
        """Rate the current decks over ``games`` games per pairing from ``seed``."""
        from deckgym.agents.decks.ratings import rate

        a = self.args
        return rate(a.env, self.decks(), a.pilot, games, seed, self.workers, **self.kwargs)

    def keep_best(self, result: dict[str, Any]) -> None:
        """Copy the decks to OUT/best when this full rating is the closest to the band so far."""
        m = miss(result["matrix"], self.band)
        if m < self.best_miss:
            self.best_miss = m
            self.best_dir.mkdir(exist_ok=True)
            for n in self.names:
                shutil.copyfile(self.paths[n], self.best_dir / f"{n}.toml")
            self.best_file.write_text(json.dumps({"miss": m, "rating": result}, indent=1))


def _check(run: _Run, it: int, history: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """Rate the set, confirming a set in the band on fresh seeds: its row, the rating, and whether it is done."""
    args = run.args
    res = run.rate(args.check_games, 10_000 * it)
    row = {"iteration": it, "matrix": res["matrix"], "decks": res["decks"]}
    history.append(row)
    print(f"iteration {it}: " + _matrix_line(res), flush=True)
    if in_band(res["matrix"], run.band):  # confirm on more games and fresh seeds
        final = run.rate(args.games, FINAL_SEED + it)
        print(
            f"  confirm ({args.games} games per pairing, fresh seeds): " + _matrix_line(final),
            flush=True,
        )
        run.keep_best(final)
        return row, final, in_band(final["matrix"], run.band)
    return row, res, False


def _tune(run: _Run, it: int, res: dict[str, Any], row: dict[str, Any]) -> None:
    """Tune the strongest (even turns) or weakest (odd turns) deck toward even and note it in ``row``."""
    from deckgym.agents.decks.search import deck_search

    args, paths = run.args, run.paths
    pick = farthest(res, side=1 if it % 2 == 0 else -1)  # strongest and weakest by turns
    swaps = step_size(res, pick)
    field = [str(paths[n]) for n in run.names if n != pick]
    found = deck_search(
        args.env,
        field,
        args.budget,
        str(paths[pick]),
        args.pilot,
        1000 + it,
        run.workers,
        100,
        target=0.5,
        keep_theme=args.swap == "kind",
        keep_master=args.swap == "master",
        swaps=swaps,
        **run.kwargs,
    )
    paths[pick].write_text(tuned_toml(args.env, paths[pick], found, run.ruleset))
    row.update(tuned=pick, swaps=swaps, search_games=found["games_used"], holdout=found["holdout_score"])
    print(
        f"  tuned {pick}: {found['games_used']} search games, holdout {found['holdout_score']:.3f}",
        flush=True,
    )


def _balance(run: _Run, history: list[dict[str, Any]]) -> dict[str, Any]:
    """Rate and tune by turns until the set is confirmed in the band or the tunings run out: the full rating."""
    from deckgym.agents.arena import pool

    with pool("process", run.workers):
        for it in range(run.args.iterations + 1):
            row, res, done = _check(run, it, history)
            if done:
                return res
            if it == run.args.iterations:
                break
            _tune(run, it, res, row)
        final = run.rate(run.args.games, FINAL_SEED + it)
        run.keep_best(final)
    return final


def _report(run: _Run, history: list[dict[str, Any]], final: dict[str, Any]) -> int:
    """Print the final matrix, write balance.json (and the starter files with --write): the exit status."""
    args = run.args
    ok = in_band(final["matrix"], run.band)
    print(
        f"final ({args.games} games per pairing, fresh seeds): "
        + _matrix_line(final)
        + ("" if ok else "  OUT OF BAND")
    )
    print(
        f"the set closest to the band so far (worst matchup {run.best_miss:.3f} outside it): {run.best_dir}"
    )
    (args.out / "balance.json").write_text(
        json.dumps({"history": history, "final": final, "balanced": ok}, indent=1)
    )
    if args.write and ok:
        for n in run.names:
            shutil.copyfile(run.paths[n], run.sources[n])
        print(f"wrote {', '.join(str(run.sources[n].relative_to(ROOT)) for n in run.names)}")
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    """Balance the decks; print each iteration and the final matrix; exit 1 if not balanced."""
    args = _parser().parse_args(argv)
    run = _Run(args)
    history: list[dict[str, Any]] = []
    final = _balance(run, history)
    return _report(run, history, final)


def _matrix_line(res: dict[str, Any]) -> str:
    n = len(res["decks"])
    return ", ".join(
        f"{res['decks'][i]} vs {res['decks'][j]} {res['matrix'][i][j]:.3f}"
        for i in range(n)
        for j in range(i + 1, n)
    )


if __name__ == "__main__":
    sys.exit(main())

"""Mutation testing with mutmut: how many planted bugs in the rules and the agents the tests catch.

mutmut changes one small thing at a time in the code (a comparison, a constant, a boolean, a
returned value) and runs the tests that cover it; a mutant the tests do not notice *survives*.
The score of a package is killed / (killed + survived). Each package runs in its own work
folder (``mutants-work/<package>``, ignored by git) with its own test selection, so runs of
several packages do not disturb each other and an interrupted run resumes where it stopped.

    python scripts/mutate.py amalogs mow            # whole packages (slow: minutes to hours)
    python scripts/mutate.py --all                  # every package below
    python scripts/mutate.py amalogs --sample 40 --seed 1 --budget 600   # a fixed random subset
    python scripts/mutate.py --report               # the scores of what has run so far

mutmut 3 does not mutate decorated functions. So that the rules' handlers (``@task``,
``@decision(...)``, ``@OPS.handler(...)``, ``@core.after_table(...)``) are inside the scores, each work
folder holds a copy of the package in which those registering decorators become the equivalent
statement after the function (``@d def f`` is ``def f`` then ``f = d(f)``); the tests, scripts
and docs are links to the tree.

``make mutate`` runs every package; CI runs ``make mutate-sample``: a fixed random subset of
mutants of the AMALOGS and MoW rules under a time budget, failing below a score floor.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import subprocess
import sys
import time
from fnmatch import fnmatch
from pathlib import Path

from deckgym.envs import games

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "mutants-work"
#: package -> (files to mutate, the tests that judge them)
PACKAGES: dict[str, tuple[list[str], list[str]]] = {
    "core": (
        ["envs/core/flow.py", "envs/core/zones.py", "envs/core/effects.py"],
        ["tests/envs"],  # every ruleset runs on the core
    ),
    # every registered game's rules, judged by its own tests
    **{
        fam: ([f"envs/{fam}/rules/*"], [f"tests/envs/{fam}"])
        for fam in (g.package.removeprefix("deckgym.envs.") for g in games.games())
        if (ROOT / "deckgym" / "envs" / fam / "rules").is_dir()
    },
    "agents": (
        ["agents/heuristic/*", "agents/arena.py", "agents/search.py", "agents/base.py"],
        ["tests/agents"],
    ),
}
LINKED = ["tests", "scripts", "docs", "notebooks", "README.md"]
#: Decorators that register a function and return it unchanged (rewritten by ``undecorate``).
REGISTERING = {
    "task",
    "decision",
    "OPS.op",
    "OPS_REGISTRY.op",
    "OPS.handler",
    "OPS_REGISTRY.handler",
    "core.after_table",
}
PYTEST_ARGS = ["-p", "no:xdist", "-p", "no:cacheprovider", "-m", "not slow and not train", "-x", "-q"]


def _toml_list(xs: list[str]) -> str:
    return "[" + ", ".join(json.dumps(x) for x in xs) + "]"


def undecorate(source: str) -> str:
    """``source`` with each top-level function's registering decorators moved after it.

    ``@d1 @d2 def f(...)`` becomes ``def f(...)`` followed by ``f = (d1)((d2)(f))``, which is the
    same program; functions with any other decorator are left as they are.
    """
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    moves = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.decorator_list:
            continue
        callees = [ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
        if all(c in REGISTERING for c in callees):
            exprs = [ast.get_source_segment(source, d) for d in node.decorator_list]
            moves.append((node.decorator_list[0].lineno, node.lineno, node.end_lineno, node.name, exprs))
    for first, def_line, end, name, exprs in reversed(moves):
        call = name
        for expr in reversed(exprs):
            call = f"({expr})({call})"
        lines[end:end] = [f"{name} = {call}\n"]
        del lines[first - 1 : def_line - 1]
    return "".join(lines)


def _mirror_package(work: Path) -> None:
    """``work/deckgym``: a copy of the package, with undecorated copies of the rules modules.

    mutmut names a mutant from its file's path, so the copy keeps the package's folders
    (``deckgym/envs``, ``deckgym/agents``); a copy whose text is unchanged keeps its time.
    """
    src_root = ROOT / "deckgym"
    dst_root = work / "deckgym"
    for src_dir, dirs, names in os.walk(src_root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        dst_dir = dst_root / Path(src_dir).relative_to(src_root)
        dst_dir.mkdir(parents=True, exist_ok=True)
        for name in names:
            src, dst = Path(src_dir) / name, dst_dir / name
            if name.endswith(".so"):  # the compiled build; mutants run on the pure source
                continue
            data = src.read_bytes()
            if name.endswith(".py") and any(f"@{d}" in data.decode() for d in REGISTERING):
                data = undecorate(data.decode()).encode()
            if dst.is_symlink():
                dst.unlink()
            if not dst.exists() or dst.read_bytes() != data:
                dst.write_bytes(data)
    for dst_dir, dirs, names in os.walk(dst_root):  # drop what the tree no longer has (moved files)
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            dst = Path(dst_dir) / name
            if not (src_root / dst.relative_to(dst_root)).exists():
                dst.unlink()


def prepare(package: str, root: Path = WORK) -> Path:
    """The package's work folder: a copy of the package, undecorated rules and its mutmut settings."""
    files, tests = PACKAGES[package]
    work = root / package
    for old in (work / "deckgym" / "agents", work / "deckgym" / "envs"):  # links of older work folders
        if old.is_symlink():
            old.unlink()
    _mirror_package(work)
    for name in LINKED:
        link = work / name
        if not link.exists():
            link.symlink_to(ROOT / name)
    head, _, rest = (ROOT / "pyproject.toml").read_text().partition("[tool.mutmut]")
    _, _, tail = rest.partition("\n[")  # the tables after the project's own mutmut settings
    base = head + ("[" + tail if tail else "")
    settings = (
        "[tool.mutmut]\n"
        'source_paths = ["deckgym/__init__.py", "deckgym/envs", "deckgym/agents"]\n'
        f"only_mutate = {_toml_list(['deckgym/' + f for f in files])}\n"
        f"pytest_add_cli_args = {_toml_list(PYTEST_ARGS)}\n"
        f"pytest_add_cli_args_test_selection = {_toml_list(tests)}\n"
        'also_copy = ["scripts", "docs", "notebooks", "README.md"]\n'
    )
    (work / "pyproject.toml").write_text(base.rstrip() + "\n\n" + settings)
    return work


def mutmut(work: Path, *args: str, timeout: float | None = None, quiet: bool = False) -> tuple[int, str]:
    """Run ``mutmut ARGS`` in ``work``: (exit status, 124 when the budget ran out; its output if ``quiet``)."""
    cmd = [str(Path(sys.executable).with_name("mutmut")), *args]
    env = {**os.environ, "PYTHONPATH": str(work), "PYTHONHASHSEED": "0"}
    try:
        done = subprocess.run(
            cmd, cwd=work, env=env, timeout=timeout, check=False, capture_output=quiet, text=True
        )
    except subprocess.TimeoutExpired:
        return 124, ""
    return done.returncode, (done.stdout or "") + (done.stderr or "")


def mutant_names(work: Path) -> list[str]:
    """Every mutant mutmut generated in ``work`` (from its ``.meta`` files)."""
    names: list[str] = []
    for meta in sorted((work / "mutants").rglob("*.meta")):
        names += sorted(json.loads(meta.read_text()).get("exit_code_by_key", {}))
    return names


def results(work: Path, names: set[str] | None = None) -> dict[str, int]:
    """Mutants by mutmut's own status ("killed", "survived", "timeout", "no tests", "not checked"...).

    With ``names``, only those mutants are counted (the mutants of a sample).
    """
    from mutmut.stats import status_by_exit_code

    counts: dict[str, int] = {}
    for meta in (work / "mutants").rglob("*.meta"):
        for name, code in json.loads(meta.read_text()).get("exit_code_by_key", {}).items():
            if names is not None and name not in names:
                continue
            status = status_by_exit_code[code]
            counts[status] = counts.get(status, 0) + 1
    return counts


def score(counts: dict[str, int]) -> float | None:
    """Killed (a timeout counts as killed, as in mutmut) over the mutants that ran to a verdict."""
    caught = counts.get("killed", 0) + counts.get("timeout", 0)
    done = caught + counts.get("survived", 0)
    return caught / done if done else None


def sample(work: Path, k: int, seed: int, only: list[str]) -> list[str]:
    """The ``k`` mutants of ``work`` drawn with ``seed`` (among those matching ``only``, if given)."""
    every = [n for n in mutant_names(work) if not only or any(fnmatch(n, o) for o in only)]
    return sorted(random.Random(seed).sample(every, min(k, len(every))))


def report(
    packages: list[str], root: Path = WORK, samples: dict[str, list[str]] | None = None
) -> dict[str, dict[str, object]]:
    """Print and return the per-package results found in the work folders (of a sample, if given)."""
    out: dict[str, dict[str, object]] = {}
    print(
        f"{'package':<16}{'killed':>8}{'survived':>10}{'timeout':>9}{'no tests':>10}{'not run':>9}{'score':>8}"
    )
    for p in packages:
        work = root / p
        if not (work / "mutants").exists():
            continue
        picked = (samples or {}).get(p)
        c = results(work, None if picked is None else set(picked))
        s = score(c)
        out[p] = {**c, "score": s}
        shown = "-" if s is None else f"{s:.1%}"
        g = c.get
        print(
            f"{p:<16}{g('killed', 0):>8}{g('survived', 0):>10}{g('timeout', 0):>9}{g('no tests', 0):>10}"
            f"{g('not checked', 0):>9}{shown:>8}"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the packages asked for, then print the scores."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("packages", nargs="*", help=f"packages: {', '.join(PACKAGES)}")
    ap.add_argument("--all", action="store_true", help="every package")
    ap.add_argument(
        "--only", nargs="*", default=[], help="mutant name patterns, e.g. 'deckgym.envs.amalogs.rules.end*'"
    )
    ap.add_argument(
        "--sample", type=int, default=0, help="run only this many mutants per package, drawn by --seed"
    )
    ap.add_argument("--seed", type=int, default=0, help="seed of the sample")
    ap.add_argument(
        "--budget", type=float, default=None, help="seconds per package (the run resumes next time)"
    )
    ap.add_argument("--max-children", type=int, default=os.cpu_count() or 1, help="parallel mutant runs")
    ap.add_argument("--work", type=Path, default=WORK, help="work folder root (default: mutants-work/)")
    ap.add_argument("--report", action="store_true", help="only print the scores of earlier runs")
    ap.add_argument("--json", type=Path, default=None, help="also write the scores to this file")
    ap.add_argument(
        "--min-score", type=float, default=None, help="exit 1 if a package scores below this (0..1)"
    )
    args = ap.parse_args(argv)
    unknown = [p for p in args.packages if p not in PACKAGES]
    if unknown:
        ap.error(f"unknown package(s) {', '.join(unknown)}; known: {', '.join(PACKAGES)}")
    packages = list(PACKAGES) if args.all or (args.report and not args.packages) else args.packages
    if not packages:
        ap.error("name at least one package, or --all")
    drawn: dict[str, list[str]] = {}
    if args.report and args.sample:  # the scores of that sample alone
        drawn = {p: sample(args.work / p, args.sample, args.seed, args.only) for p in packages}
    if not args.report:
        for p in packages:
            work = prepare(p, args.work)
            t0 = time.perf_counter()
            names: list[str] = list(args.only)
            if args.sample:
                mutmut(work, "run", "--max-children", "1", "no.such.mutant")  # generate and map tests only
                names = drawn[p] = sample(work, args.sample, args.seed, args.only)
                print(f"{p}: {len(names)} mutants drawn with seed {args.seed}", flush=True)
            left = None if args.budget is None else max(1.0, args.budget - (time.perf_counter() - t0))
            code, _ = mutmut(work, "run", "--max-children", str(args.max_children), *names, timeout=left)
            if code == 124:
                print(f"{p}: the budget of {args.budget:.0f}s ran out; the next run resumes", flush=True)
    scores = report(packages, args.work, drawn or None)
    if args.json is not None:
        args.json.write_text(json.dumps(scores, indent=1))
    if args.min_score is not None:
        low = {p: r["score"] for p, r in scores.items() if r["score"] is None or r["score"] < args.min_score}  # type: ignore[operator]
        if low:
            print(f"mutation score below {args.min_score:.0%}: {low}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Do players of different card games meet in AMALOGS? Duel seats, exits, base hits and endings.

Plays seeded AMALOGS games through the real env (the newest ``envs.amalogs_v*``), every player
of both teams being the named agent, and reads what happened from the events the engine
emitted (``state.records``, the whole log of each game kept). Per configuration it prints

- games and duels per game;
- the share of duels whose seat 1 held a champion (a guest of the host's ruleset), a defender
  (a guest proxy of another ruleset), a base proxy, or nobody (vacant). ``opposed_share`` is
  champion + defender + base proxy. An engine whose ``duel`` event has no ``defender`` or
  ``proxy`` field (before the cross-ruleset amendment, D36-D42) counts no defender and no
  base proxy;
- core exits per game, split by loss and by win (``exit`` events);
- base hits per game (``base_hit`` events; 0 on an engine without them) and, for comparison,
  strikes per game on a base and on a guest (``strike`` events);
- team turns per game (``team_turn`` events);
- how games ended (the final state): a base at 0 or less, a base at twice the start life (36),
  or the team-turn cap (truncation).

Game ``k`` of a configuration is played with the env seed ``SEED + k``, and agent ``i`` of it
is reset with ``(SEED + k) * 7919 + i`` (as ``agents.arena.play_game`` does); the results do
not depend on ``--workers``.

    python scripts/amalogs_interaction.py --agents heuristic --teams 2v2 --pools default --games 40 --seed 1
    python scripts/amalogs_interaction.py --agents all --teams all --pools default --games 40 --seed 1 --json
    python scripts/amalogs_interaction.py --agents heuristic --teams 2v2,3v3 --pools master_of_the_world --markdown
    python scripts/amalogs_interaction.py --from a.json b.json --markdown   # a table of saved results

``--agents``, ``--teams`` and ``--pools`` take one value, several separated by commas, or
``all``; every combination is one configuration (one row). A pool is ``default`` (every
ruleset the env offers) or one ruleset name, which every player then holds.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import pkgutil
import re
import sys
import time
from itertools import product
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parents[1]
# Appended, not prepended: an engine named by PYTHONPATH (another checkout) comes first.
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

AGENTS = ("heuristic", "random")
TEAMS = ("1v1", "2v2", "3v3")
#: Games per job of a worker (the unit of the progress bar).
CHUNK = 5
#: Per-game counters, in the order of the summary.
COUNTS = (
    "duels",
    "champion",
    "defender",
    "base_proxy",
    "vacant",
    "exit_losses",
    "exit_wins",
    "base_hits",
    "base_strikes",
    "guest_strikes",
    "team_turns",
)
ENDINGS = ("base0", "base36", "cap")


# ----------------------------------------------------------------------------- the engine
@functools.cache
def env_name() -> str:
    """The newest AMALOGS env module (``amalogs_v2`` over ``amalogs_v0``)."""
    from deckgym import envs

    found = [
        (int(m.group(1)), m.group(0))
        for info in pkgutil.iter_modules(envs.__path__)
        if (m := re.fullmatch(r"amalogs_v(\d+)", info.name))
    ]
    if not found:
        raise RuntimeError(f"no envs.amalogs_v* module in {list(envs.__path__)}")
    return max(found)[1]


def pool_names() -> list[str]:
    """The ruleset names the env's ``pools`` option accepts, in slot order."""
    from deckgym.envs.amalogs.config import RULESETS
    from deckgym.envs.amalogs.cores import IMPLEMENTED

    return [RULESETS[s].name for s in IMPLEMENTED]


def make_agent(spec: str, name: str, seed: int) -> Any:
    """The agent ``spec`` for env ``name`` (the heuristic of an older AMALOGS version if it has none)."""
    from deckgym import agents, envs

    try:
        return agents.make(spec, name, seed=seed)
    except KeyError:
        older = sorted(n for n in envs.names() if n.startswith("amalogs_v"))
        if spec != "heuristic" or not older:
            raise
        return agents.make(spec, older[-1], seed=seed)


def team_sizes(teams: str) -> tuple[int, int]:
    """``"2v2"`` -> ``(2, 2)``."""
    a, b = teams.split("v")
    return int(a), int(b)


def make_env(config: dict[str, Any]) -> Any:
    """The env of one configuration."""
    name = env_name()
    pools = None if config["pools"] == "default" else [config["pools"]]
    return importlib.import_module(f"deckgym.envs.{name}").env(
        team_sizes=team_sizes(config["teams"]), pools=pools
    )


# ----------------------------------------------------------------------------- one game
def play(env: Any, spec: str, seed: int) -> Any:
    """One game with ``spec`` in every seat; the final engine state, its whole event log kept."""
    from deckgym.agents.arena import play_on

    env.reset(seed=seed)
    st = env.unwrapped.game
    st.event_cap = 10**9  # this game's log keeps everything
    name = env_name()
    play_on(env, [make_agent(spec, name, seed=i) for i in range(len(env.possible_agents))], seed)
    return st


def seat_kind(duel: dict[str, Any]) -> str:
    """Who sat at seat 1 of a ``duel`` event: champion, defender, base_proxy or vacant."""
    champion = duel.get("champion")
    if champion is not None and champion >= 0:
        return "champion"
    if duel.get("defender") is not None or duel.get("proxy") == "guest":
        return "defender"
    if duel.get("proxy") == "base":
        return "base_proxy"
    return "vacant"


def count(records: list[dict[str, Any]]) -> dict[str, int]:
    """The per-game counters (``COUNTS``) of one game's event records."""
    c = dict.fromkeys(COUNTS, 0)
    for r in records:
        kind = r["kind"]
        if kind == "duel":
            c["duels"] += 1
            c[seat_kind(r)] += 1
        elif kind == "exit":
            c["exit_losses" if r["result"] == "loss" else "exit_wins"] += 1
        elif kind == "base_hit":
            c["base_hits"] += 1
        elif kind == "strike":
            if r.get("base") is not None:
                c["base_strikes"] += 1
            elif r.get("target") is not None:
                c["guest_strikes"] += 1
        elif kind == "team_turn":
            c["team_turns"] += 1
    return c


def ending(st: Any) -> str:
    """How the game ended: ``cap`` (truncation), ``base0`` (a base at 0 or less) or ``base36``."""
    if getattr(st, "truncated", False):
        return "cap"
    if min(st.life) <= 0:
        return "base0"
    if max(st.life) >= 2 * st.config.start_life:
        return "base36"
    raise RuntimeError(f"the game ended with base lives {st.life} and no truncation: {st.reason!r}")


def game_row(env: Any, spec: str, seed: int) -> dict[str, Any]:
    """The counters and the ending of one game."""
    st = play(env, spec, seed)
    return {**count(st.records), "end": ending(st)}


def _play_chunk(job: tuple[dict[str, Any], list[int]]) -> list[dict[str, Any]]:
    """A worker's job: the rows of the games ``seeds`` of one configuration."""
    config, seeds = job
    env = make_env(config)
    return [game_row(env, config["agents"], s) for s in seeds]


# ----------------------------------------------------------------------------- summaries
def summarize(config: dict[str, Any], rows: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    """One configuration's figures from its games' rows."""
    n = len(rows)
    tot = {k: sum(r[k] for r in rows) for k in COUNTS}
    duels = tot["duels"]

    def share(k: str) -> float:
        return tot[k] / duels if duels else 0.0

    def per_game(k: str) -> float:
        return tot[k] / n if n else 0.0

    ends = {e: sum(r["end"] == e for r in rows) / n if n else 0.0 for e in ENDINGS}
    return {
        "env": env_name(),
        "agents": config["agents"],
        "teams": config["teams"],
        "pools": config["pools"],
        "seed": seed,
        "games": n,
        "duels": duels,
        "duels_per_game": per_game("duels"),
        "opposed_share": share("champion") + share("defender") + share("base_proxy"),
        "champion_share": share("champion"),
        "defender_share": share("defender"),
        "base_proxy_share": share("base_proxy"),
        "vacant_share": share("vacant"),
        "exits_per_game": (tot["exit_losses"] + tot["exit_wins"]) / n if n else 0.0,
        "exit_losses_per_game": per_game("exit_losses"),
        "exit_wins_per_game": per_game("exit_wins"),
        "base_hits_per_game": per_game("base_hits"),
        "base_strikes_per_game": per_game("base_strikes"),
        "guest_strikes_per_game": per_game("guest_strikes"),
        "team_turns_per_game": per_game("team_turns"),
        "base0_share": ends["base0"],
        "base36_share": ends["base36"],
        "turn_cap_share": ends["cap"],
    }


def run(configs: list[dict[str, Any]], games: int, seed: int, workers: int) -> list[dict[str, Any]]:
    """Play every configuration's games (over ``workers`` processes) and summarize each."""
    from deckgym.agents.arena import run_chunks

    starts = range(0, games, CHUNK)
    jobs = [(c, [seed + k for k in range(s, min(games, s + CHUNK))]) for c in configs for s in starts]
    bar = None
    if sys.stderr.isatty():
        try:
            from tqdm import tqdm

            bar = tqdm(total=games * len(configs), unit="game", file=sys.stderr)
        except ImportError:
            bar = None
    tick = None if bar is None else (lambda job, _res: bar.update(len(job[1])))
    try:
        chunks = run_chunks(_play_chunk, jobs, workers, tick)
    finally:
        if bar is not None:
            bar.close()
    per = len(starts)
    return [
        summarize(c, [row for chunk in chunks[i * per : (i + 1) * per] for row in chunk], seed)
        for i, c in enumerate(configs)
    ]


# ----------------------------------------------------------------------------- tables
def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def cells(r: dict[str, Any]) -> list[str]:
    """The table cells of one result (``HEADERS``)."""
    return [
        r["teams"],
        r["pools"],
        r["agents"],
        f"{r['duels_per_game']:.1f}",
        " / ".join(_pct(r[k]) for k in ("champion_share", "defender_share", "base_proxy_share")),
        _pct(r["vacant_share"]),
        f"{r['exit_losses_per_game']:.2f} / {r['exit_wins_per_game']:.2f}",
        f"{r['base_hits_per_game']:.2f}",
        f"{r['team_turns_per_game']:.1f}",
        " / ".join(_pct(r[k]) for k in ("base0_share", "base36_share", "turn_cap_share")),
    ]


HEADERS = [
    "teams",
    "pools",
    "agents",
    "duels/game",
    "opponent seated (champion / defender / base)",
    "vacant",
    "exits/game (loss / win)",
    "base hits/game",
    "team turns",
    "ended (base 0 / base 36 / cap)",
]


def _note(results: list[dict[str, Any]]) -> str:
    """The line under a table: games per row, seeds and engines."""
    games = sorted({r["games"] for r in results})
    seeds = sorted({r["seed"] for r in results})
    engines = sorted({r.get("env", "?") for r in results})
    return (
        f"{'/'.join(map(str, games))} games per row, seed {', '.join(map(str, seeds))}, "
        f"engine {', '.join(engines)}."
    )


def markdown(results: list[dict[str, Any]]) -> str:
    """The results as a Markdown table, with a note of the games and seeds."""
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    lines += ["| " + " | ".join(cells(r)) + " |" for r in results]
    return "\n".join(lines) + "\n\n" + _note(results)


def text_table(results: list[dict[str, Any]]) -> str:
    """The results as an aligned plain-text table."""
    heads = [
        "teams",
        "pools",
        "agents",
        "duels/g",
        "seated ch/def/base",
        "vacant",
        "exits/g loss/win",
        "base hits/g",
        "turns",
        "ended base0/36/cap",
    ]
    rows = [heads] + [cells(r) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(heads))]
    out = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(out) + "\n\n" + _note(results)


# ----------------------------------------------------------------------------- the command line
class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line on stderr (no usage block) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _choices(value: str, allowed: list[str], what: str, parser: argparse.ArgumentParser) -> list[str]:
    """A comma-separated list of ``allowed`` values, or ``all``; a bad one is a command-line error."""
    picked = list(allowed) if value == "all" else [v.strip() for v in value.split(",")]
    for v in picked:
        if v not in allowed:
            parser.error(f"unknown {what} {v!r}; use all or one or more of: {', '.join(allowed)}")
    return list(dict.fromkeys(picked))


def _teams(value: str, parser: argparse.ArgumentParser) -> list[str]:
    picked = list(TEAMS) if value == "all" else [v.strip() for v in value.split(",")]
    for v in picked:
        if not re.fullmatch(r"[1-3]v[1-3]", v):
            parser.error(f"bad --teams {v!r}; use AvB with 1..3 players a team (1v1, 2v2, 3v3) or all")
    return list(dict.fromkeys(picked))


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _load(paths: list[Path], parser: argparse.ArgumentParser) -> list[dict[str, Any]]:
    """Results saved with ``--json``: one object or a list of them per file."""
    out: list[dict[str, Any]] = []
    for p in paths:
        try:
            data = json.loads(p.read_text())
        except (OSError, ValueError) as e:
            parser.error(f"cannot read results from {p}: {e}")
        out += data if isinstance(data, list) else [data]
    return out


def main(argv: list[str] | None = None) -> int:
    """Play the configurations and print their figures (a table, Markdown or JSON)."""
    ap = _Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", default="heuristic", help="heuristic, random, a comma list or all")
    ap.add_argument("--teams", default="2v2", help="1v1, 2v2, 3v3 (any AvB), a comma list or all")
    ap.add_argument(
        "--pools",
        default="default",
        help="default or one ruleset name (every player's pool), a comma list or all",
    )
    ap.add_argument("--games", type=_positive, default=40, help="games per configuration")
    ap.add_argument("--seed", type=int, default=0, help="game k is played with seed SEED + k")
    ap.add_argument(
        "--workers", type=_positive, default=1, help="processes (the results do not depend on it)"
    )
    out = ap.add_mutually_exclusive_group()
    out.add_argument(
        "--json", action="store_true", help="one JSON object (a list for several configurations)"
    )
    out.add_argument("--markdown", action="store_true", help="a Markdown table")
    ap.add_argument(
        "--from",
        dest="load",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="print saved --json results, play nothing",
    )
    args = ap.parse_args(argv)
    if args.load:
        results = _load(args.load, ap)
    else:
        agents = _choices(args.agents, list(AGENTS), "agent", ap)
        teams = _teams(args.teams, ap)
        pools = _choices(args.pools, ["default", *pool_names()], "pool", ap)
        configs = [{"agents": a, "teams": t, "pools": p} for a, t, p in product(agents, teams, pools)]
        name = env_name()
        where = importlib.import_module(f"deckgym.envs.{name}").__file__
        print(f"engine: envs.{name} ({where})", file=sys.stderr)
        t0 = time.perf_counter()
        results = run(configs, args.games, args.seed, args.workers)
        print(f"{len(configs)} configurations played in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results, indent=1))
    elif args.markdown:
        print(markdown(results))
    else:
        print(text_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())

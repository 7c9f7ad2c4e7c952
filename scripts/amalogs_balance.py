"""Is any core game a better weapon than another in AMALOGS? The balance check of spec D43.

A **plan** is a team whose every player always chooses one core game (its pool holds that game
alone) and otherwise plays as the agent does; GAME is one of the five core games, ``med_beg``,
``med_norm``, ``med_adv`` (the Medarot OCG's three modes), ``parts`` (the Medarot parts game)
and ``mow`` (Master of the World). The check plays, with the newest ``envs.amalogs_v*``:

- ``plans``: each plan against the free-choosing agent, 2v2, ``--games`` games in seat-swapped
  pairs (the teams swap sides within a pair, on one seed): the plan's score (wins + draws/2)
  with its 95% interval over the pairs, and its wins, draws and losses;
- ``plan_matrix``: every plan against every other plan, 2v2, ``--cell-games`` games a cell
  (the row plan's score; the diagonal is 0.5 by symmetry and not played);
- ``turn_cap_share``: per team size of ``--teams``, the share of the agent's own games (every
  player free to choose) that reach the team-turn cap (D34), ``--cell-games`` games each;
- ``pool_turn_cap_share``: the same in 2v2 with every player's pool one ruleset;
- from the free 2v2 games: ``opposed_share`` (duels with a champion, a defender or a base at
  seat 1), ``cross_game_share`` (opposed duels between different core games: a defender's
  stand-in), ``exits_per_game`` and ``choices`` (the share of core games opened per ruleset);
- with ``--versus A B``: agent A against agent B, 2v2, ``--games`` games in pairs.

With ``--free-agent SPEC`` the free-choosing team of the plans section plays SPEC (a trained
team against every fixed-game plan of ``--agent``): its score is one less the plan's.

Game ``k`` of a section uses the env seed ``SEED + k`` (a pair's two games share one), and
player ``i``'s agent is reset with ``seed * 7919 + i`` (as ``agents.arena.play_game`` does), so
results do not depend on ``--workers``.

    python scripts/amalogs_balance.py --games 400 --seed 1 --workers 2 --json
    python scripts/amalogs_balance.py --games 100 --only plans,caps
    python scripts/amalogs_balance.py --games 400 --only versus --versus heuristic heuristic:basic

With ``--json`` the last line printed is one JSON object: ``{"games", "plans", "plan_matrix",
"turn_cap_share", "pool_turn_cap_share", "cross_game_share", "opposed_share",
"exits_per_game", ...}``; a progress bar goes to stderr.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Appended, not prepended: an engine named by PYTHONPATH (another checkout) comes first.
for _path in (ROOT, ROOT / "scripts"):
    if str(_path) not in sys.path:
        sys.path.append(str(_path))

from amalogs_interaction import _Parser, count, ending, env_name, pool_names

#: The five core games: short name -> ruleset name (D15).
GAMES = {
    "med_beg": "medarot_ocg_beginner",
    "med_norm": "medarot_ocg_normal",
    "med_adv": "medarot_ocg_advance",
    "parts": "medarot_parts",
    "mow": "master_of_the_world",
}
SHORT = {ruleset: short for short, ruleset in GAMES.items()}
SECTIONS = ("plans", "matrix", "caps", "pools", "versus", "rates")
TEAMS = ("1v1", "2v2", "3v3")
#: Games per worker job (the unit of the progress bar).
CHUNK = 4
#: The meta commands whose use per game is reported (their events).
COMMANDS = ("move", "step", "push", "swap", "guard", "hand_over")
#: A pool of every ruleset: the env's default.
FREE = None


# ----------------------------------------------------------------------------- one game
#: Agents that read a model, by (spec, env, seed): a greedy policy has no state between games.
_LOADED: dict[tuple[str, str, int], Any] = {}


def make_agent(spec: str, name: str, seed: int) -> Any:
    """Agent ``spec`` for env ``name``; ``heuristic:SKILLS`` is the heuristic with only those skills.

    SKILLS is ``none`` (the first version of the heuristic), a comma list of skills
    (``agents.heuristic.amalogs.SKILLS``), or ``-skill,...`` for all skills but those.
    """
    from deckgym import agents

    if spec.startswith(("ppo:", "composite")):  # a model loads once per process, not once per game
        key = (spec, name, seed)
        if key not in _LOADED:
            _LOADED[key] = agents.make(spec, name, seed=seed)
        return _LOADED[key]
    if not spec.startswith("heuristic:"):
        return agents.make(spec, name, seed=seed)
    from deckgym.agents.heuristic.amalogs import SKILLS, AmalogsHeuristic

    words = [w for w in spec.split(":", 1)[1].split(",") if w]
    if words == ["none"]:
        skills: frozenset[str] = frozenset()
    elif words and all(w.startswith("-") for w in words):
        skills = SKILLS - {w[1:] for w in words}
    else:
        skills = frozenset(words)
    bad = sorted({w.lstrip("-") for w in words} - SKILLS - {"none"})
    if bad:
        raise ValueError(f"unknown skill {bad[0]!r}; known: {', '.join(sorted(SKILLS))}, none")
    return AmalogsHeuristic(seed, skills)


def play_one(
    teams: tuple[int, int], pools: tuple[Any, Any], specs: tuple[str, str], seed: int
) -> dict[str, Any]:
    """One game: team A's players hold ``pools[0]`` and play ``specs[0]``, team B's the others.

    Returns team A's points (1 win, 0.5 draw, 0 loss), how the game ended, the duel and exit
    counters of its events, and the core games each team opened.
    """
    import importlib

    from deckgym.agents.arena import play_on, points

    name = env_name()
    na, nb = teams
    per_player = [pools[0]] * na + [pools[1]] * nb
    pool_arg = (
        None
        if all(p is FREE for p in per_player)
        else [pool_names() if p is FREE else [p] for p in per_player]
    )
    env = importlib.import_module(f"deckgym.envs.{name}").env(team_sizes=teams, pools=pool_arg)
    env.reset(seed=seed)
    st = env.unwrapped.game
    st.event_cap = 10**9  # keep the whole log
    agents = [make_agent(specs[0 if i < na else 1], name, seed=i) for i in range(na + nb)]
    returns = play_on(env, agents, seed)
    opened: Counter[str] = Counter()
    commands: Counter[str] = Counter()
    for r in st.records:
        if r["kind"] in COMMANDS:
            commands[r["kind"]] += 1
        if r["kind"] == "core_game":
            team = 0 if r["player"] < na else 1
            opened[f"{team}:{SHORT.get(r['ruleset'], r['ruleset'])}"] += 1
    return {
        "points": points(returns[0]),
        "end": ending(st),
        **count(st.records),
        "opened": dict(opened),
        "commands": dict(commands),
        "sieges": sum(r["kind"] == "siege" for r in st.records),
    }


def _play_job(
    job: tuple[str, tuple[int, int], tuple[Any, Any], tuple[str, str], list[int], bool],
) -> list[dict[str, Any]]:
    """A worker's job: the games of ``seeds``; with ``paired`` each seed is played twice, sides swapped.

    Every row is seen from side 0 (``pools[0]``, ``specs[0]``): its points and the games it opened.
    """
    _key, teams, pools, specs, seeds, paired = job
    rows = []
    for seed in seeds:
        row = play_one(teams, pools, specs, seed)
        row["pair"] = seed
        rows.append(row)
        if paired:
            swapped = play_one((teams[1], teams[0]), (pools[1], pools[0]), (specs[1], specs[0]), seed)
            swapped["points"] = 1.0 - swapped["points"]
            swapped["opened"] = {f"{1 - int(k[0])}{k[1:]}": v for k, v in swapped["opened"].items()}
            swapped["pair"] = seed
            rows.append(swapped)
    return rows


# ----------------------------------------------------------------------------- summaries
def score(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Side 0's score with its 95% interval over pairs (``agents.arena.pair_interval``), and its W/D/L."""
    from deckgym.agents.arena import pair_interval, tally

    by_pair: dict[int, list[float]] = {}
    for r in rows:
        by_pair.setdefault(r["pair"], []).append(r["points"])
    lo, hi = pair_interval([sum(v) / len(v) for v in by_pair.values()])
    wins, draws, losses = tally(by_pair.values())
    return {
        "score": (wins + draws / 2) / len(rows),
        "lo": lo,
        "hi": hi,
        "games": len(rows),
        "wins": wins,
        "draws": draws,
        "losses": losses,
    }


def cap_share(rows: list[dict[str, Any]]) -> float:
    """The share of games that reached the team-turn cap."""
    return sum(r["end"] == "cap" for r in rows) / len(rows)


def duel_figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Opposed and cross-game duel shares, exits per game and the core games opened, of free games."""
    tot: Counter[str] = Counter()
    opened: Counter[str] = Counter()
    used: Counter[str] = Counter()
    for r in rows:
        used.update(r["commands"])
        tot["sieges"] += r["sieges"]
        for k in (
            "duels",
            "champion",
            "defender",
            "base_proxy",
            "exit_losses",
            "exit_wins",
            "base_hits",
            "team_turns",
        ):
            tot[k] += r[k]
        for k, v in r["opened"].items():
            opened[k.split(":", 1)[1]] += v
    opposed = tot["champion"] + tot["defender"] + tot["base_proxy"]
    n_open = sum(opened.values())
    return {
        "opposed_share": opposed / tot["duels"] if tot["duels"] else 0.0,
        "cross_game_share": tot["defender"] / opposed if opposed else 0.0,
        "exits_per_game": (tot["exit_losses"] + tot["exit_wins"]) / len(rows),
        "duels_per_game": tot["duels"] / len(rows),
        "choices": {g: opened[g] / n_open if n_open else 0.0 for g in GAMES},
        "commands_per_game": {k: used[k] / len(rows) for k in COMMANDS},
        "base_hits_per_game": tot["base_hits"] / len(rows),
        "sieges_per_game": tot["sieges"] / len(rows),
        "team_turns_per_game": tot["team_turns"] / len(rows),
    }


# ----------------------------------------------------------------------------- duel rates (D43)
#: The life of a stand-in or base proxy in the rate probes: more than any table takes.
BIG = 10_000


def _run_table(ad: Any, slot: int, table: Any) -> None:
    """Play a composed table to its end, every seat by the core ruleset's heuristic (D32's cap kept)."""
    from deckgym.agents.heuristic.amalogs import core_choice

    ad.begin(table)
    steps = 0
    while (seat := ad.to_act(table)) >= 0:
        ad.step(table, core_choice(slot, table, seat) if steps < 300 else ad.auto_action(table))
        steps += 1


def probe(st: Any, host: int, seed: int) -> dict[str, Any]:
    """Three tables the host could play now, each on copies (the game is not touched).

    - ``champion``: against the nearest enemy's side (a real opponent of the same game):
      the core life each seat loses (all of it when its side meets its loss condition);
    - ``standin``: against a guest proxy of life ``BIG``: the proxy damage d (host units) and,
      for an OCG host, the effective power of each attack on the proxy;
    - ``base``: against a base proxy of life ``BIG``: its successful attacks.
    """
    import random

    from deckgym.envs.amalogs.cores import adapter
    from deckgym.envs.amalogs.rules.geometry import DIST
    from deckgym.envs.core.proxy import BASE, GUEST, Proxy

    h = st.avatars[host]
    ad = adapter(h.ruleset)
    turn = st.core_turn + 1
    life0 = ad.summary(h.side).life
    out: dict[str, Any] = {"life": life0, "nominal": h.nominal}
    enemies = [i for i, a in enumerate(st.avatars) if a.on_map and a.team != h.team and a.side is not None]
    if enemies:
        e = st.avatars[min(enemies, key=lambda i: (DIST[h.square][st.avatars[i].square], i))]
        life1 = ad.summary(e.side).life
        t = ad.compose(ad.clone_side(h.side), ad.clone_side(e.side), random.Random(seed), turn)
        _run_table(ad, h.ruleset, t)
        lost0, lost1 = ad.loss_flags(t)
        out["champion"] = (
            life0 if lost0 else life0 - ad.table_summary(t, 0).life,
            life1 if lost1 else life1 - ad.table_summary(t, 1).life,
            lost1,
        )
    t = ad.compose(ad.clone_side(h.side), None, random.Random(seed + 1), turn, Proxy(GUEST, BIG))
    _run_table(ad, h.ruleset, t)
    records = getattr(t, "records", [])
    out["standin"] = (
        ad.proxy_damage(t, BIG),
        [r["power"] for r in records if r["kind"] == "proxy_hit" and r.get("power") is not None],
        sum(r["hit"] for r in records if r["kind"] == "proxy_hit" and r.get("why") not in (None, "attack")),
    )
    t = ad.compose(ad.clone_side(h.side), None, random.Random(seed + 2), turn, Proxy(BASE, BIG))
    _run_table(ad, h.ruleset, t)
    out["base"] = BIG - ad.proxy_life(t)
    return out


def _rate_job(job: tuple[str, list[int]]) -> list[dict[str, Any]]:
    """Heuristic 2v2 games in which every pool is one ruleset; a probe at every duel declared."""
    import importlib

    from deckgym.agents.heuristic.amalogs import choose
    from deckgym.envs.amalogs import actions as A
    from deckgym.envs.amalogs.actions import Phase

    ruleset, seeds = job
    mod = importlib.import_module(f"deckgym.envs.{env_name()}")
    out = []
    for seed in seeds:
        env = mod.env(team_sizes=(2, 2), pools=[ruleset])
        env.reset(seed=seed)
        st = env.unwrapped.game
        k = 0
        while not st.is_terminal():
            player = st.current_player
            action = choose(st, player)
            if st.phase == Phase.META_FIELD and action == A.DUEL:
                out.append(probe(st, player, seed * 1000 + k))
                k += 1
            st.apply(action)
    return out


def rates(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean losses per table from a ruleset's probes (``probe``)."""
    champ = [r["champion"] for r in rows if "champion" in r]
    powers = [r["standin"][1] for r in rows]
    return {
        "tables": len(rows),
        "life": sum(r["life"] for r in rows) / len(rows),
        "nominal": sum(r["nominal"] for r in rows) / len(rows),
        "champion_loss": sum(c[1] for c in champ) / len(champ),
        "champion_ko": sum(c[2] for c in champ) / len(champ),
        "host_loss": sum(c[0] for c in champ) / len(champ),
        "standin_damage": sum(r["standin"][0] for r in rows) / len(rows),
        "standin_effects": sum(r["standin"][2] for r in rows) / len(rows),
        "attacks": sum(len(p) for p in powers) / len(rows),
        "powers": dict(sorted(Counter(x for p in powers for x in p).items())),
        "base_hits": sum(r["base"] for r in rows) / len(rows),
    }


# ----------------------------------------------------------------------------- the check
def jobs_for(args: argparse.Namespace) -> list[tuple[Any, ...]]:
    """Every worker job of the sections asked for, each keyed by its section and configuration."""
    out: list[tuple[Any, ...]] = []
    h = args.agent

    def add(
        key: str, teams: tuple[int, int], pools: tuple[Any, Any], specs: tuple[str, str], n: int, paired: bool
    ) -> None:
        count_ = (n + 1) // 2 if paired else n
        seeds = [args.seed + k for k in range(count_)]
        for i in range(0, len(seeds), CHUNK):
            out.append((key, teams, pools, specs, seeds[i : i + CHUNK], paired))

    if "plans" in args.only:
        for g, ruleset in GAMES.items():
            add(f"plan:{g}", (2, 2), (ruleset, FREE), (h, args.free_agent or h), args.games, True)
    if "matrix" in args.only:
        for a, b in combinations(GAMES, 2):
            add(f"cell:{a}:{b}", (2, 2), (GAMES[a], GAMES[b]), (h, h), args.cell_games, True)
    if "caps" in args.only:
        for t in args.teams:
            n = int(t.split("v")[0]), int(t.split("v")[1])
            add(f"teams:{t}", n, (FREE, FREE), (h, h), args.cell_games, False)
    if "pools" in args.only:
        for g, ruleset in GAMES.items():
            add(f"pool:{g}", (2, 2), (ruleset, ruleset), (h, h), args.cell_games, False)
    if "versus" in args.only and args.versus:
        add("versus", (2, 2), (FREE, FREE), tuple(args.versus), args.games, True)
    if "rates" in args.only:
        for g, ruleset in GAMES.items():
            seeds = [args.seed + k for k in range(args.rate_games)]
            for i in range(0, len(seeds), CHUNK):
                out.append((f"rates:{g}", ruleset, seeds[i : i + CHUNK]))
    return out


def _games(job: tuple[Any, ...]) -> int:
    """Games a job plays."""
    if job[0].startswith("rates:"):
        return len(job[2])
    return len(job[4]) * (2 if job[5] else 1)


def _any_job(job: tuple[Any, ...]) -> list[dict[str, Any]]:
    """A worker's job of any section."""
    if job[0].startswith("rates:"):
        return _rate_job(job[1:])
    return _play_job(job)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Play the check and gather its figures."""
    from deckgym.agents.arena import run_chunks

    jobs = jobs_for(args)
    total = sum(_games(j) for j in jobs)
    bar = None
    try:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", file=sys.stderr, disable=args.quiet, mininterval=2.0)
    except ImportError:
        bar = None
    tick = None if bar is None else (lambda job, _res: bar.update(_games(job)))
    t0 = time.perf_counter()
    try:
        results = run_chunks(_any_job, jobs, args.workers, tick)
    finally:
        if bar is not None:
            bar.close()
    rows: dict[str, list[dict[str, Any]]] = {}
    for job, res in zip(jobs, results, strict=True):
        rows.setdefault(job[0], []).extend(res)
    out: dict[str, Any] = {
        "env": env_name(),
        "agent": args.agent,
        "seed": args.seed,
        "date": datetime.date.today().isoformat(),
        "games": sum(_games(j) for j in jobs),
        "seconds": round(time.perf_counter() - t0, 1),
        "constants": constants(),
    }
    if "plans" in args.only:
        out["plans"] = {g: score(rows[f"plan:{g}"]) for g in GAMES}
    if "matrix" in args.only:
        matrix: dict[str, dict[str, float]] = {a: {a: 0.5} for a in GAMES}
        for a, b in combinations(GAMES, 2):
            s = score(rows[f"cell:{a}:{b}"])["score"]
            matrix[a][b] = s
            matrix[b][a] = 1.0 - s
        out["plan_matrix"] = {a: {b: matrix[a][b] for b in GAMES} for a in GAMES}
        out["matrix_games"] = len(rows[f"cell:{next(iter(GAMES))}:{list(GAMES)[1]}"])
    if "caps" in args.only:
        out["turn_cap_share"] = {t: cap_share(rows[f"teams:{t}"]) for t in args.teams}
        if "teams:2v2" in rows:
            out.update(duel_figures(rows["teams:2v2"]))
        out["cap_games"] = len(rows[f"teams:{args.teams[0]}"])
    if "pools" in args.only:
        out["pool_turn_cap_share"] = {g: cap_share(rows[f"pool:{g}"]) for g in GAMES}
        out["pool_draw_share"] = {
            g: sum(r["points"] == 0.5 for r in rows[f"pool:{g}"]) / len(rows[f"pool:{g}"]) for g in GAMES
        }
    if "rates" in args.only:
        out["rates"] = {g: rates(rows[f"rates:{g}"]) for g in GAMES}
        out["rate_games"] = args.rate_games
    if "versus" in args.only and args.versus:
        out["versus"] = {"agent": args.versus[0], "opponent": args.versus[1], **score(rows["versus"])}
    return out


# ----------------------------------------------------------------------------- output
def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def text(res: dict[str, Any]) -> str:
    """The figures as plain-text tables."""
    lines = [
        f"{res['env']}, agent {res['agent']}, seed {res['seed']}, {res['games']} games in {res['seconds']} s"
    ]
    if "plans" in res:
        lines += ["", "plan (every player always chooses GAME) against the free-choosing agent, 2v2:"]
        for g, s in res["plans"].items():
            lines.append(
                f"  {g:9s} {s['score']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}]  "
                f"W {s['wins']} D {s['draws']} L {s['losses']} of {s['games']}"
            )
    if "plan_matrix" in res:
        lines += [
            "",
            "plan against plan (row's score), 2v2:",
            "           " + " ".join(f"{g:>8s}" for g in GAMES),
        ]
        for a, row in res["plan_matrix"].items():
            lines.append(f"  {a:9s}" + " ".join(f"{row[b]:8.3f}" for b in GAMES))
    if "turn_cap_share" in res:
        lines += [
            "",
            "games at the turn cap: " + ", ".join(f"{t} {_pct(v)}" for t, v in res["turn_cap_share"].items()),
        ]
    if "opposed_share" in res:
        lines.append(
            f"free 2v2: opposed duels {_pct(res['opposed_share'])}, cross-game {_pct(res['cross_game_share'])} "
            f"of them, {res['exits_per_game']:.2f} exits a game; games opened: "
            + ", ".join(f"{g} {_pct(v)}" for g, v in res["choices"].items())
        )
        lines.append(
            f"  per game: {res['team_turns_per_game']:.1f} team turns, {res['base_hits_per_game']:.2f} base hits, "
            f"{res['sieges_per_game']:.2f} sieges; commands: "
            + ", ".join(f"{k} {v:.1f}" for k, v in res["commands_per_game"].items())
        )
    if "pool_turn_cap_share" in res:
        lines.append(
            "single-ruleset 2v2 pools at the turn cap: "
            + ", ".join(f"{g} {_pct(v)}" for g, v in res["pool_turn_cap_share"].items())
        )
    if "rates" in res:
        lines += [
            "",
            "duel rates per table (heuristic, every pool one game): life lost by a real opponent (champion),",
            "by the host itself, damage a stand-in takes (host units), successful attacks on a base:",
        ]
        for g, r in res["rates"].items():
            lines.append(
                f"  {g:9s} champion {r['champion_loss']:.3f} (KO {_pct(r['champion_ko'])}), host {r['host_loss']:.3f}, "
                f"stand-in {r['standin_damage']:.3f}, base {r['base_hits']:.3f}; start life {r['nominal']:.2f}, "
                f"{r['tables']} tables"
            )
    if "versus" in res:
        v = res["versus"]
        lines.append(
            f"{v['agent']} against {v['opponent']}, 2v2: {v['score']:.3f} [{v['lo']:.3f}, {v['hi']:.3f}] "
            f"W {v['wins']} D {v['draws']} L {v['losses']} of {v['games']}"
        )
    return "\n".join(lines)


def markdown(res: dict[str, Any]) -> str:
    """The figures as Markdown tables (docs/amalogs.md)."""
    out: list[str] = []
    if "plans" in res:
        out += [
            "| plan (every player always chooses) | score [95% interval] | win / draw / loss |",
            "|---|---|---|",
        ]
        for g, p in res["plans"].items():
            out.append(
                f"| {g} | {p['score']:.3f} [{p['lo']:.3f}, {p['hi']:.3f}] | {p['wins']} / {p['draws']} / {p['losses']} |"
            )
        out.append("")
    if "plan_matrix" in res:
        out += ["| row's score against | " + " | ".join(GAMES) + " |", "|---" * (len(GAMES) + 1) + "|"]
        for a, row in res["plan_matrix"].items():
            out.append(f"| {a} | " + " | ".join(f"{row[b]:.3f}" for b in GAMES) + " |")
        out.append("")
    if "turn_cap_share" in res or "pool_turn_cap_share" in res:
        caps = {
            **res.get("turn_cap_share", {}),
            **{f"pool {g}": v for g, v in res.get("pool_turn_cap_share", {}).items()},
        }
        out += ["| games at the turn cap | " + " | ".join(caps) + " |", "|---" * (len(caps) + 1) + "|"]
        out += ["| share | " + " | ".join(_pct(v) for v in caps.values()) + " |", ""]
    if "opposed_share" in res:
        out += [
            "| free 2v2 | opposed duels | cross-game (of opposed) | exits / game | team turns / game | sieges / game | base hits / game |",
            "|---|---|---|---|---|---|---|",
            (
                f"| heuristic | {_pct(res['opposed_share'])} | {_pct(res['cross_game_share'])} | {res['exits_per_game']:.2f} | "
                f"{res['team_turns_per_game']:.1f} | {res['sieges_per_game']:.2f} | {res['base_hits_per_game']:.2f} |"
            ),
            "",
        ]
    if "versus" in res:
        v = res["versus"]
        out += [
            "| match, 2v2 | score [95% interval] | win / draw / loss |",
            "|---|---|---|",
            (
                f"| {v['agent']} against {v['opponent']} | {v['score']:.3f} [{v['lo']:.3f}, {v['hi']:.3f}] | "
                f"{v['wins']} / {v['draws']} / {v['losses']} |"
            ),
            "",
        ]
    return "\n".join(out).rstrip() + "\n"


def _count(lo: int, hi: int) -> Any:
    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
        if not lo <= n <= hi:
            raise argparse.ArgumentTypeError(f"must be in {lo}..{hi}, got {n}")
        return n

    return parse


def _list(allowed: tuple[str, ...], what: str) -> Any:
    def parse(value: str) -> list[str]:
        got = allowed if value == "all" else tuple(v.strip() for v in value.split(","))
        bad = [v for v in got if v not in allowed]
        if bad or not got:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {bad[0] if bad else value!r}; allowed: {', '.join(allowed)}, all"
            )
        return list(dict.fromkeys(got))

    return parse


def set_constants(text: str) -> dict[str, list[str]]:
    """Replace D43's constants for this run (``config.RULESETS``): ``{GAME: [life_scale, unit, base]}``.

    Each value is a number or a fraction in a string (``"33/10"``). For trying constants
    before they are written into the spec and the source; the worker processes inherit them.
    """
    from fractions import Fraction

    from deckgym.envs.amalogs.config import RULESETS, SLOT_OF

    try:
        given = json.loads(text)
        if not isinstance(given, dict):
            raise ValueError("not a JSON object")  # noqa: TRY004 (an option error)
        out = {}
        for game, pair in given.items():
            if game not in GAMES:
                raise ValueError(f"unknown game {game!r}; allowed: {', '.join(GAMES)}")
            scale, unit, base = (Fraction(str(x)) for x in pair)
            if scale <= 0 or unit <= 0 or base < 1:
                raise ValueError(f"{game}: life_scale and unit must be positive and base at least 1")
            slot = SLOT_OF[GAMES[game]]
            RULESETS[slot] = RULESETS[slot]._replace(life_scale=scale, unit=unit, base=base)
            out[game] = [str(scale), str(unit), str(base)]
    except (ValueError, TypeError, ZeroDivisionError) as e:
        raise argparse.ArgumentTypeError(f"--constants: {e}") from None
    return out


def constants() -> dict[str, list[str]]:
    """D43's constants in force: ``{GAME: [life_scale, unit, base]}``."""
    from deckgym.envs.amalogs.config import RULESETS, SLOT_OF

    return {g: [str(x) for x in RULESETS[SLOT_OF[r]][3:6]] for g, r in GAMES.items()}


def main(argv: list[str] | None = None) -> int:
    """Command line."""
    ap = _Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=_count(2, 100_000), default=400, help="games of each plan (in pairs)")
    ap.add_argument(
        "--cell-games",
        type=_count(1, 100_000),
        default=None,
        help="games of each matrix cell and turn-cap row (default: half of --games)",
    )
    ap.add_argument(
        "--rate-games",
        type=_count(1, 100_000),
        default=40,
        help="games per ruleset of the duel-rate probes (section rates)",
    )
    ap.add_argument("--seed", type=_count(0, 2**31), default=0, help="game k of a section uses seed SEED + k")
    ap.add_argument("--workers", type=_count(0, 256), default=0, help="worker processes (0: every core)")
    ap.add_argument(
        "--teams", type=_list(TEAMS, "team size"), default=list(TEAMS), help="team sizes of the turn-cap rows"
    )
    ap.add_argument(
        "--only",
        type=_list(SECTIONS, "section"),
        default=list(SECTIONS[:4]),
        help=f"sections: {', '.join(SECTIONS)} or all",
    )
    ap.add_argument("--agent", default="heuristic", help="the agent of every player (default: heuristic)")
    ap.add_argument(
        "--free-agent",
        help="section plans: the free-choosing team's agent (default: --agent); the plan teams keep --agent",
    )
    ap.add_argument(
        "--versus", nargs=2, metavar=("A", "B"), help="also play agent A against agent B (section versus)"
    )
    ap.add_argument("--constants", help="try other D43 constants: JSON {GAME: [life_scale, unit, base]}")
    ap.add_argument(
        "--json", action="store_true", help="print the figures as one JSON object on the last line"
    )
    ap.add_argument("--markdown", action="store_true", help="print the figures as Markdown tables")
    ap.add_argument(
        "--from", dest="load", type=Path, help="print the tables of a saved --json line instead of playing"
    )
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    if args.cell_games is None:
        args.cell_games = max(1, args.games // 2)
    if args.versus and "versus" not in args.only:
        args.only.append("versus")
    if "versus" in args.only and not args.versus:
        ap.error("section versus needs --versus A B")
    if args.constants:
        try:
            set_constants(args.constants)
        except argparse.ArgumentTypeError as e:
            ap.error(str(e))
    from deckgym import agents

    for spec in {args.agent, *(args.versus or ())}:
        try:
            make_agent(spec, env_name(), seed=0)
        except (KeyError, ValueError) as e:
            ap.error(f"agent {spec!r}: {e.args[0] if e.args else e}")
    del agents
    if args.load is not None:
        try:
            res = json.loads(args.load.read_text(encoding="utf-8").strip().splitlines()[-1])
        except (OSError, ValueError, IndexError) as e:
            ap.error(f"--from {args.load}: not a saved --json result ({e})")
        print(markdown(res) if args.markdown else text(res))
        return 0
    res = run(args)
    print(markdown(res) if args.markdown else text(res), flush=True)
    if args.json:
        print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

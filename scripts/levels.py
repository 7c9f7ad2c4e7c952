"""Measure the opponent levels people are offered: each level's score against Easy, and its reply time.

For every variant and level (``agents.play.session.LEVELS``): the score (wins + draws/2) with
its 95% interval over seat-swapped pairs of games against the heuristic (the Easy level), the
wins, draws and losses; and the time the AI takes to reply to a person, p50 and p95: from the
person's move to the person's next decision (every AI decision in between), the person being
played by the heuristic, with the table's time limit on a reply (``REPLY_SECONDS``: a searching
level stops its look-ahead in time). Scores are of the levels without a time limit. The lobby of ``deckgym serve`` shows the scores; docs/levels.md shows the table.

    python scripts/levels.py --out agents/play/levels.json              # every variant, 400 games a level
    python scripts/levels.py --variants mow_v1 --games Hard=100 --replies 100
    python scripts/levels.py --merge agents/play/levels.json --variants mow_v1 --levels Expert
    python scripts/levels.py --table agents/play/levels.json            # docs/levels.md's table

Scores come from ``agents.arena.match`` (``--workers`` processes; seeds from 950000, used by no
training). Times are measured alone in this process, after the scores, so run it on a quiet
machine: the figures are seconds on this machine, and its core count is written beside them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deckgym import envs
from deckgym.agents import make
from deckgym.agents.arena import match, sides
from deckgym.agents.base import bind
from deckgym.agents.play.session import LEVELS, REPLY_SECONDS, GameSession, levels_for

#: Each mode of every registered game (the default game where it has no modes), by key.
VARIANTS = {key: (g.name, kw) for g in envs.games.games() for key, kw in g.keyed()}
SEED = 950_000


def reply_times(spec: str, name: str, kw: dict[str, Any], replies: int, seed: int) -> list[float]:
    """Seconds per reply of ``spec`` to the heuristic (its decisions between two of the other side's)."""
    out: list[float] = []
    game = 0
    while len(out) < replies:
        env = envs.make(name, **kw)
        env.reset(seed=seed + game)
        ai_side = game % 2
        ai_seats = set(sides(env)[ai_side])
        ai = bind(make(spec, name, seed=seed + game, **kw), env)
        person = bind(make("heuristic", name, seed=seed + game, **kw), env)
        ai.reset(seed=seed + game)
        spent, replying = 0.0, False
        while env.agents and len(out) < replies:
            st = env.unwrapped.game
            if st.is_terminal():
                break
            obs = env.observe(env.agent_selection)
            if st.current_player in ai_seats:
                if not replying and hasattr(ai, "deadline"):  # as the table bounds a reply
                    ai.deadline = time.monotonic() + REPLY_SECONDS
                t0 = time.perf_counter()
                action = ai.act(obs["observation"], obs["action_mask"])
                spent += time.perf_counter() - t0
                replying = True
            else:
                if replying:
                    out.append(spent)
                spent, replying = 0.0, False
                action = person.act(obs["observation"], obs["action_mask"])
            env.step(int(action))
        game += 1
    return out


def hint_times(name: str, kw: dict[str, Any], hints: int, seed: int) -> list[float]:
    """Seconds per hint at the table (``GameSession.hint``: the Expert's move and its winning chance).

    The person is played by the heuristic; a hint is timed at each of its decisions with two or
    more moves, with the table's time limit (``REPLY_SECONDS``).
    """
    out: list[float] = []
    game = 0
    while len(out) < hints:
        session = GameSession(name, dict(kw), "heuristic", seat=game % 2, seed=seed + game)
        person = bind(make("heuristic", name, seed=seed + game, **kw), session.env)
        session.opponent_moves()
        while not session.done and len(out) < hints:
            if len(session.legal()) >= 2:
                t0 = time.perf_counter()
                session.hint()
                out.append(time.perf_counter() - t0)
            obs = session.env.observe(session.env.agent_selection)
            session.play(int(person.act(obs["observation"], obs["action_mask"])))
        game += 1
    return out


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (linear between order statistics)."""
    return (
        float(statistics.quantiles(xs, n=100, method="inclusive")[round(q * 100) - 1])
        if len(xs) > 1
        else xs[0]
    )


def parse_games(text: str, default: int) -> dict[str, int]:
    """``"Hard=100,Expert=40"`` -> games per level name (the rest get ``default``)."""
    out = {lv.name: default for lv in LEVELS}
    for part in filter(None, text.split(",")):
        if "=" not in part:
            raise SystemExit(f"--games: {part!r} is not LEVEL=GAMES (levels: {', '.join(out)})")
        k, v = part.split("=", 1)
        if k not in out or not v.isdigit() or int(v) == 1:
            raise SystemExit(f"--games: {part!r}: levels are {', '.join(out)}, games 0 (keep) or >= 2")
        out[k] = int(v)
    return out


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 0.0001:
        return "<0.1 ms"
    return f"{seconds * 1000:.1f} ms" if seconds < 0.1 else f"{seconds:.2f} s"


def table(data: dict[str, Any]) -> str:
    """The measured levels as a markdown table (docs/levels.md's)."""
    rows = [
        "| variant | level | score vs Easy [95%] | games (W / D / L) | reply p50 | reply p95 |",
        "|---|---|---|---|---|---|",
    ]
    for key, levels in data["levels"].items():
        for lv in LEVELS:
            e = levels.get(lv.name)
            if e is None:
                continue
            if "score" in e:
                lo, hi = e["ci95"]
                score = f"{e['score']:.3f} [{lo:.3f}, {hi:.3f}]"
                games = f"{e['games']} ({e['wins']} / {e['draws']} / {e['losses']})"
            else:
                score = games = "not measured"
            p50, p95 = _ms(e.get("reply_p50_s")), _ms(e.get("reply_p95_s"))
            rows.append(f"| {key} | {lv.name} (`{lv.spec}`) | {score} | {games} | {p50} | {p95} |")
    hints = data.get("hints", {})
    if hints:
        rows += ["", "| variant | hints | hint p50 | hint p95 |", "|---|---|---|---|"]
        for key, h in hints.items():
            rows.append(f"| {key} | {h['hints']} | {_ms(h['hint_p50_s'])} | {_ms(h['hint_p95_s'])} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--variants", default=",".join(VARIANTS), help=f"comma-separated, of {', '.join(VARIANTS)}"
    )
    ap.add_argument("--levels", default=",".join(lv.name for lv in LEVELS))
    ap.add_argument("--default-games", type=int, default=400, help="games per level and variant")
    ap.add_argument("--games", default="", help="per-level game counts, e.g. Expert=100")
    ap.add_argument("--replies", type=int, default=200, help="replies timed per level and variant (0: keep)")
    ap.add_argument("--hints", type=int, default=0, help="hints timed per variant (0: keep)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None, help="write (or --merge into) this JSON file")
    ap.add_argument("--merge", type=Path, default=None, help="start from this file's entries")
    ap.add_argument("--table", type=Path, default=None, help="print this file's levels as a markdown table")
    args = ap.parse_args(argv)
    if args.table is not None:
        print(table(json.loads(args.table.read_text())))
        return 0
    variants = args.variants.split(",")
    bad = [v for v in variants if v not in VARIANTS]
    if bad:
        ap.error(f"unknown variant {bad[0]!r}; known: {', '.join(VARIANTS)}")
    wanted = args.levels.split(",")
    if unknown := [x for x in wanted if x not in {lv.name for lv in LEVELS}]:
        ap.error(f"unknown level {unknown[0]!r}; known: {', '.join(lv.name for lv in LEVELS)}")
    games = parse_games(args.games, args.default_games)
    data: dict[str, Any] = json.loads(args.merge.read_text()) if args.merge else {"levels": {}}
    for key in variants:
        name, kw = VARIANTS[key]
        if args.hints > 0:
            times = hint_times(name, kw, args.hints, SEED + 70_000)
            data.setdefault("hints", {})[key] = {
                "hints": len(times),
                "hint_p50_s": round(quantile(times, 0.50), 4),
                "hint_p95_s": round(quantile(times, 0.95), 4),
            }
            print(f"{key:<26} hints     {json.dumps(data['hints'][key])}", flush=True)
            if args.out:
                args.out.write_text(json.dumps(data, indent=1) + "\n")
        for lv in levels_for(name, kw):
            if lv.name not in wanted:
                continue
            t0 = time.perf_counter()
            entry = data["levels"].setdefault(key, {}).setdefault(lv.name, {"spec": lv.spec})
            if games[lv.name] > 0:  # 0: keep the stored score
                res = match(
                    lv.spec, "heuristic", name, games=games[lv.name], seed=SEED, workers=args.workers, **kw
                )
                lo, hi = res.score_ci95
                entry.update(
                    score=round(res.score, 3),
                    ci95=[round(lo, 3), round(hi, 3)],
                    games=res.games,
                    wins=res.wins,
                    draws=res.draws,
                    losses=res.losses,
                )
            if args.replies > 0:  # 0: keep the stored times
                times = reply_times(lv.spec, name, kw, args.replies, SEED + 50_000)
                entry.update(
                    reply_p50_s=round(quantile(times, 0.50), 4),
                    reply_p95_s=round(quantile(times, 0.95), 4),
                    replies=len(times),
                )
            print(f"{key:<26} {lv.name:<9} {json.dumps(entry)} ({time.perf_counter() - t0:.0f}s)", flush=True)
            data.update(date=datetime.date.today().isoformat(), cores=os.cpu_count(), opponent="heuristic")
            if args.out:
                args.out.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

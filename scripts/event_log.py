"""The structured events of fixed games: print them, store them, or check them against a file.

For every variant of every registered game (``envs.games.variants()``) it plays one seeded random game through the
engine and takes its structured events (``envs.core.events.events_for`` with every field
shown). ``tests/data/events.json`` stores, per variant, the first ``SHOWN`` events in full and
a SHA-256 of the whole list; a test compares a fresh game with it, so any change to what the
engines record is seen. After an intended change, rewrite the file with ``--write`` and say
so in the commit.

    python scripts/event_log.py --env mow_v1 --count 20    # print the first events of one game
    python scripts/event_log.py --write tests/data/events.json
    python scripts/event_log.py --check tests/data/events.json
    python scripts/event_log.py --docs docs/events.md          # the kinds tables of the docs page
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stored import compare_stored

from deckgym.envs.core.events import events_for
from deckgym.envs.games import games, variants
from deckgym.envs.games import label as label_of

#: Events per variant stored in full (the rest is covered by the hash).
SHOWN = 60
#: The game's seed and the seed of the random player.
SEED = 11


def game_events(name: str, kwargs: dict[str, Any], seed: int = SEED) -> list[dict[str, Any]]:
    """Every structured event (all fields shown) of one seeded random game of ``name``."""
    env = importlib.import_module(f"deckgym.envs.{name}").env(**kwargs)
    env.reset(seed=seed)
    st = env.unwrapped.game
    st.event_cap = 10**9  # this game's log keeps everything
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    return events_for(st, None)


def digest(events: list[dict[str, Any]]) -> str:
    """SHA-256 of the canonical JSON of ``events``."""
    return hashlib.sha256(json.dumps(events, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def collect() -> dict[str, dict[str, Any]]:
    """Label -> ``{"count", "sha256", "first"}`` for every variant."""
    out = {}
    for name, kw in variants():
        evs = game_events(name, kw)
        out[label_of(name, kw)] = {"count": len(evs), "sha256": digest(evs), "first": evs[:SHOWN]}
    return out


def rulesets() -> dict[str, str]:
    """The registered games' packages (below ``deckgym.envs``) and titles, in the order of registration."""
    return {g.package.removeprefix("deckgym.envs."): g.title for g in games()}


#: The markers around the generated part of ``docs/events.md``.
BEGIN, END = "<!-- kinds: written by scripts/event_log.py --docs -->", "<!-- /kinds -->"


def kinds_markdown() -> str:
    """The table of every ruleset's event kinds, their fields and their private fields."""
    out = []
    for pkg, title in rulesets().items():
        t = importlib.import_module(f"deckgym.envs.{pkg}.events")
        out += [
            f"### {title} (`envs.{pkg}.events`)",
            "",
            "| kind | fields | only for its seat | meaning |",
            "|---|---|---|---|",
        ]
        for kind, fields in t.KINDS.items():
            public = ", ".join(f"`{f}`" for f in fields) or "-"
            private = ", ".join(f"`{f}`" for f in t.PRIVATE.get(kind, ())) or "-"
            out.append(f"| `{kind}` | {public} | {private} | {t.DESCRIPTIONS[kind]} |")
        if t.REVEALS:
            out += [
                "",
                "Public reveals (cards every seat saw, though no zone shows them after): "
                + ", ".join(f"`{k}`" for k in sorted(t.REVEALS))
                + ".",
            ]
        out.append("")
    return "\n".join(out)


def write_docs(path: Path) -> bool:
    """Rewrite the generated part of ``path``; whether it changed."""
    text = path.read_text()
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n\n{kinds_markdown()}\n{END}{tail}"
    path.write_text(new)
    return new != text


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--env", help="print the events of this env's game (its default options)")
    ap.add_argument("--count", type=int, default=30, help="how many events --env prints")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--write", type=Path, help="store every variant's events in this file")
    g.add_argument("--check", type=Path, help="compare every variant with this file; exit 1 on a difference")
    g.add_argument("--docs", type=Path, help="rewrite the kinds tables of this docs page (docs/events.md)")
    a = ap.parse_args(argv)
    if a.docs:
        print(f"{a.docs}: {'rewritten' if write_docs(a.docs) else 'unchanged'}")
        return 0
    if a.env:
        for e in game_events(a.env, {})[: a.count]:
            print(json.dumps(e, ensure_ascii=False))
        return 0
    got = collect()
    if a.write:
        a.write.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {len(got)} variants to {a.write}")
        return 0
    if a.check:
        return 1 if compare_stored(got, a.check, lambda k, _: f"differs: {k}") else 0
    for k, v in got.items():
        print(f"{k:40s} {v['count']:5d} events  {v['sha256'][:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

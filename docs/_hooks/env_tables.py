"""MkDocs hook: the environment reference page, written from the environments themselves.

``docs/envs.md`` holds the marker ``<!-- env-reference -->``; at build time it becomes, per
registered environment, its documentation (the env module's docstring, headings one level down),
the table of its observation's pieces (``encoder.observation_layout()``) and the table of its
action indices grouped by kind (``encoder.index_to_action``). A new env, piece or action appears
without an edit here.
"""

from __future__ import annotations

import importlib
import itertools
import re
from typing import Any

MARKER = "<!-- env-reference -->"


def _doc(name: str) -> str:
    """The env module's docstring as Markdown, its headings one level below the env's own."""
    text = importlib.import_module(f"deckgym.envs.{name}").__doc__ or ""
    lines = text.strip().splitlines()[1:]  # the first line names the env: the page's heading does
    body = "\n".join("#" + line if line.startswith("## ") else line for line in lines).strip()
    # brackets in prose (``ABILITY[p][i]``) are text, not Markdown references: escape them
    # outside code spans
    parts = re.split(r"(`+[^`]*`+)", body)
    return "".join(p if p.startswith("`") else p.replace("[", "\\[") for p in parts)


def _observation_table(encoder: Any) -> str:
    rows = ["| piece | entries | size |", "|---|---|---|"]
    for piece, where in encoder.observation_layout().items():
        rows.append(f"| `{piece}` | {where.start}..{where.stop - 1} | {where.stop - where.start} |")
    return "\n".join(rows)


def _action_table(encoder: Any, state: Any) -> str:
    names = [str(encoder.index_to_action(i, state)) for i in range(encoder.action_size)]
    kinds = [re.split(r"[\[( ]", s, maxsplit=1)[0] for s in names]
    rows = ["| indices | kind | count | first |", "|---|---|---|---|"]
    start = 0
    for kind, group in itertools.groupby(kinds):
        n = len(list(group))
        span = f"{start}" if n == 1 else f"{start}..{start + n - 1}"
        rows.append(f"| {span} | `{kind}` | {n} | `{names[start]}` |")
        start += n
    return "\n".join(rows)


def reference() -> str:
    """The generated part of the page: every registered env, documented and tabled."""
    from deckgym import envs

    parts = []
    for name in envs.names():
        env = envs.make(name)
        env.reset(seed=0)
        raw = env.unwrapped
        parts += [
            f"## `{name}`",
            _doc(name),
            f"### Observation pieces ({raw.encoder.obs_size:,} entries)",
            "Each piece's entries in the observation vector (`env.unwrapped.encoder.observation_layout()`).",
            _observation_table(raw.encoder),
            f"### Action indices ({raw.encoder.action_size})",
            "The action indices by kind, in order (`env.unwrapped.encoder.index_to_action(i, state)`).",
            _action_table(raw.encoder, raw.game),
        ]
    return "\n\n".join(parts)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Write the reference into the page that holds the marker."""
    return markdown.replace(MARKER, reference()) if MARKER in markdown else markdown

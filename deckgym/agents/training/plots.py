"""The learning curve of a training run: the score against each baseline over training."""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The baselines of a training history, with their colours.
CURVES = (("random", "tab:blue"), ("heuristic", "tab:red"))


def plot_learning_curve(history: list[dict[str, Any]], path: str | Path, title: str = "") -> None:
    """Score against each baseline over training, with its 95% band over seat-swapped pairs.

    The score is wins + draws/2 per game (``evaluate_live``); the win rate is drawn beside it
    as a thin dashed line. A history written before scores were recorded (only ``win`` and
    ``games`` per baseline) is drawn as win rates with 95% Wilson bands instead.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from deckgym.agents.arena import wilson

    scored = all("score" in h[opp] for h in history for opp, _ in CURVES)
    fig, ax = plt.subplots(figsize=(9, 4))
    steps = [h["timesteps"] for h in history]
    for opp, colour in CURVES:
        wins = [h[opp]["win"] for h in history]
        if scored:
            values = [h[opp]["score"] for h in history]
            bands = [tuple(h[opp]["score_ci95"]) for h in history]
        else:
            values = wins
            bands = [wilson(h[opp]["win"] * h[opp]["games"], int(h[opp]["games"])) for h in history]
        ax.plot(
            steps, values, marker="o", color=colour, label=f"{'score' if scored else 'win rate'} vs {opp}"
        )
        ax.fill_between(steps, [b[0] for b in bands], [b[1] for b in bands], color=colour, alpha=0.15)
        if scored:
            ax.plot(steps, wins, color=colour, lw=0.9, ls="--", alpha=0.7, label=f"win rate vs {opp}")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel("PPO learner decisions (0: after imitating the heuristic, when enabled)")
    ax.set_ylabel("score (wins + draws/2), 95% band over pairs" if scored else "win rate")
    ax.set_title(title or "learning curve")
    # beside the axes, so that no curve (the latest point least of all) is hidden under it
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def seed_summary(histories: list[list[dict[str, Any]]], opponent: str = "heuristic") -> dict[str, Any]:
    """The score against ``opponent`` over training, across runs that differ only in their seed.

    Returns ``steps`` (the evaluation steps every run has), per step the ``mean``, ``low`` and
    ``high`` (the lowest and highest run) of the scores, and per run its ``start`` (the first
    evaluation: after imitation, before any PPO step) and ``final`` score; ``kept`` counts the
    runs whose final score is at least their start's.

    Raises:
        ValueError: no history, or one without an evaluation against ``opponent``.
    """
    if not histories or any(not h for h in histories):
        raise ValueError("seed_summary needs at least one run, each with at least one evaluation")
    for h in histories:
        if any(opponent not in row for row in h):
            raise ValueError(f"a run's history has no evaluation against {opponent!r}")
    common = sorted(set.intersection(*({row["timesteps"] for row in h} for h in histories)))
    by_step = [{row["timesteps"]: row[opponent]["score"] for row in h} for h in histories]
    values = [[s[t] for s in by_step] for t in common]
    starts = [h[0][opponent]["score"] for h in histories]
    finals = [h[-1][opponent]["score"] for h in histories]
    return {
        "opponent": opponent,
        "steps": common,
        "mean": [sum(v) / len(v) for v in values],
        "low": [min(v) for v in values],
        "high": [max(v) for v in values],
        "start": starts,
        "final": finals,
        "kept": sum(f >= s for s, f in zip(starts, finals, strict=True)),
    }


def plot_seed_curves(
    histories: list[list[dict[str, Any]]],
    path: str | Path,
    title: str = "",
    opponent: str = "heuristic",
    labels: list[str] | None = None,
) -> dict[str, Any]:
    """The score against ``opponent`` of several seeds of one recipe: each run, their mean and spread.

    Each run is a thin line, the mean over runs a thick one, and the band spans the lowest and
    highest run at each evaluation step all runs share. Returns ``seed_summary``'s figures.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = seed_summary(histories, opponent)
    fig, ax = plt.subplots(figsize=(9, 4))
    for i, h in enumerate(histories):
        name = labels[i] if labels else f"seed {i}"
        ax.plot(
            [row["timesteps"] for row in h],
            [row[opponent]["score"] for row in h],
            lw=0.9,
            alpha=0.6,
            marker=".",
            label=name,
        )
    ax.plot(summary["steps"], summary["mean"], color="black", lw=2.2, label=f"mean of {len(histories)}")
    ax.fill_between(
        summary["steps"], summary["low"], summary["high"], color="grey", alpha=0.2, label="spread"
    )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("PPO learner decisions (0: the imitation start)")
    ax.set_ylabel(f"score vs {opponent} (wins + draws/2)")
    ax.set_title(title or f"score vs {opponent} over {len(histories)} seeds")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return summary

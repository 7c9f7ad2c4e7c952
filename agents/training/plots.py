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

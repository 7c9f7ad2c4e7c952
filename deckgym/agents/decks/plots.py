"""Pictures of a deck rating: the matchup heatmap and the ratings with their intervals."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def matchup_heatmap(result: dict[str, Any], path: str | Path) -> None:
    """Rows score against columns (0 red .. 0.5 white .. 1 blue), each cell with its score."""
    plt = _pyplot()
    names, matrix = result["decks"], result["matrix"]
    n = len(names)
    fig, ax = plt.subplots(figsize=(1.2 * n + 2.5, 1.0 * n + 1.5))
    im = ax.imshow(matrix, cmap="RdBu", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(n), names, rotation=30, ha="right")
    ax.set_yticks(range(n), names)
    for i in range(n):
        for j in range(n):
            if i != j:
                lo, hi = result["matrix_ci95"][i][j]
                ink = "white" if abs(matrix[i][j] - 0.5) > 0.3 else "black"
                ax.text(
                    j,
                    i,
                    f"{matrix[i][j]:.2f}\n[{lo:.2f}, {hi:.2f}]",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color=ink,
                )
    options = " ".join(f"{k}={v}" for k, v in result["options"].items())
    ax.set_title(
        f"{result['env']} {options}\nrow's score vs column ({result['games']} games each)", fontsize=10
    )
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def rating_plot(result: dict[str, Any], path: str | Path) -> None:
    """Each deck's Elo (Bradley-Terry) with its 95% bootstrap interval, best first."""
    plt = _pyplot()
    rows = sorted(result["ratings"], key=lambda r: -r["elo"])
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows, strict=True):
        lo, hi = r["elo_ci95"]
        ax.errorbar(
            r["elo"], y, xerr=[[r["elo"] - lo], [hi - r["elo"]]], fmt="o", color="tab:blue", capsize=4
        )
    ax.set_yticks(ys, [r["deck"] for r in rows])
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(f"Elo (Bradley-Terry, mean 0), 95% bootstrap intervals; pilot {result['pilot']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def search_curve(result: dict[str, Any], path: str | Path) -> None:
    """The incumbent's score against the field over the search's games, and the holdout score."""
    plt = _pyplot()
    xs = [g for g, _s in result["curve"]]
    ys = [s for _g, s in result["curve"]]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.step(xs, ys, where="post", color="tab:blue", label="incumbent (search seeds)")
    lo, hi = result["holdout_ci95"]
    ax.axhline(result["holdout_score"], color="tab:red", label=f"holdout {result['holdout_score']:.3f}")
    ax.axhspan(lo, hi, color="tab:red", alpha=0.15)
    ax.set_ylim(0, 1)
    ax.set_xlabel("games played by the search")
    ax.set_ylabel("score against the field")
    ax.set_title(f"deck search in {result['env']} {result['options']}, pilot {result['pilot']}")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

"""`decks gauntlet`, `decks complete`, the seed-joint rating bootstrap, and the deck tools' counts and messages."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from deckgym.agents.arena import pair_interval
from deckgym.agents.cli import app
from deckgym.agents.decks.complete import HOLDOUT_OFFSET, count_multisets, multisets, race
from deckgym.agents.decks.gauntlet import field_total
from deckgym.agents.decks.matches import options_text, unique_labels
from deckgym.agents.decks.ratings import bootstrap_elo, expected_score
from deckgym.envs.medarot_ocg.cards import DECKS_DIR
from tests.agents.commands import invoke_json, runner

OCG = "medarot_ocg_v1 --mode beginner"

# ------------------------------------------------------------------ the seed-joint bootstrap

#: Planted Elo of four decks (mean 0, the scale ``rate`` reports).
TRUE = [-60.0, -20.0, 20.0, 60.0]


def _correlated_tournament(rng: np.random.Generator, pairs: int, form: float = 0.25) -> dict:
    """A round robin on shared seeds: on each seed every deck has a form of +-``form`` that moves
    its win chance in all of its pairings at once; averaged over forms the win chance is the
    Elo one, so the Bradley-Terry truth is ``TRUE``."""
    n = len(TRUE)
    f = rng.choice([-form, form], size=(n, pairs))
    out = {}
    for i in range(n):
        for j in range(i + 1, n):
            p = expected_score(TRUE[i], TRUE[j]) + (f[i] - f[j]) / 2
            wins = rng.random((pairs, 2)) < p[:, None]
            out[(i, j)] = [(float(a), float(b)) for a, b in wins]
    return out


def test_the_seed_joint_bootstrap_covers_the_truth_when_pairings_share_the_luck_of_a_seed():
    """60 tournaments of 4 decks, 100 pairs per pairing, 100 replicates: the joint intervals
    cover the planted Elo 95.8% of the time (240 intervals); resampling each pairing on its own
    ignores the shared luck and covers 90.8%."""
    rng = np.random.default_rng(11)
    hits = {True: 0, False: 0}
    for k in range(60):
        matches = _correlated_tournament(rng, 100)
        for joint in (True, False):
            intervals = bootstrap_elo(4, matches, samples=100, seed=k, joint=joint)
            hits[joint] += sum(lo <= t <= hi for t, (lo, hi) in zip(TRUE, intervals, strict=True))
    joint, alone = hits[True] / 240, hits[False] / 240
    assert 0.92 <= joint <= 0.99, joint
    assert alone < joint - 0.03, (alone, joint)


def test_the_joint_bootstrap_needs_every_pairing_on_the_same_seeds():
    with pytest.raises(ValueError, match="same pairs"):
        bootstrap_elo(3, {(0, 1): [(1.0, 0.0)] * 4, (0, 2): [(1.0, 0.0)] * 5, (1, 2): [(0.5, 0.5)] * 4})


# ------------------------------------------------------------------ labels, options, field total


def test_labels_are_unique_when_files_share_a_stem():
    assert unique_labels(["aggro", "other/aggro.toml", "tide"]) == ["aggro", "other/aggro", "tide"]
    assert unique_labels(["a/x/aggro.toml", "b/x/aggro.toml"]) == ["a/x/aggro", "b/x/aggro"]
    assert unique_labels(["/d/aggro.toml", "/d/other/aggro.toml"]) == ["aggro", "other/aggro"]
    assert unique_labels(["aggro", "aggro"]) == ["aggro", "aggro 2"]
    assert unique_labels([{"MD01": 15}, {"MD02": 15}]) == ["custom", "custom 2"]
    assert options_text({"mode": "beginner"}) == "mode beginner" and options_text({}) == "default options"


def test_the_field_total_counts_the_covariance_of_opponents_on_shared_seeds():
    rng = random.Random(2)
    luck = [rng.random() < 0.5 for _ in range(200)]  # a seed good for the deck against everyone
    pairs = [[(float(g), float(g or rng.random() < 0.2)) for g in luck] for _ in range(2)]
    score, (lo, hi) = field_total(pairs, [1.0, 1.0])
    per_seed = [(a + b + c + d) / 4 for (a, b), (c, d) in zip(*pairs, strict=True)]
    assert score == pytest.approx(sum(per_seed) / 200)
    assert (lo, hi) == pytest.approx(pair_interval(per_seed))  # the same seeds: the per-seed interval
    half_independent = 1.96 * math.sqrt(sum(((h - lo_) / 3.92) ** 2 for lo_, h in map(_ci, pairs)) / 4)
    assert (hi - lo) / 2 > 1.2 * half_independent  # the covariance widens it
    assert field_total(pairs, [1.0, 0.0])[0] == pytest.approx(sum(a + b for a, b in pairs[0]) / 400)


def _ci(pairs: list) -> tuple[float, float]:
    return pair_interval([(a + b) / 2 for a, b in pairs])


# ------------------------------------------------------------------ gauntlet


def test_cli_gauntlet_reports_each_opponent_and_the_field(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    deck = (tmp_path / "x.toml", other / "x.toml")
    text = (DECKS_DIR / "beginner_blaze.toml").read_text()
    for d in deck:
        d.write_text(text)
    data = invoke_json(
        f"decks gauntlet {OCG} beginner_sparks --games 6 --workers 1 --json --weights x:3,other/x:1 --against",
        f"beginner_ironclad,{deck[0]},{deck[1]}",
    )
    rows = data["against"]
    assert [r["deck"] for r in rows] == ["beginner_ironclad", "x", "other/x"]
    for r in rows:
        assert r["games"] == 6 and r["wins"] + r["draws"] + r["losses"] == 6
        assert sum(r["pentanomial"]) == 3 and r["draw_share"] == pytest.approx(r["draws"] / 6)
        assert r["score"] == pytest.approx((r["wins"] + r["draws"] / 2) / 6)
        assert r["score_ci95"][0] <= r["score"] <= r["score_ci95"][1]
    assert rows[1]["pentanomial"] == rows[2]["pentanomial"]  # the same deck on the same seeds
    assert data["weights"] == {"beginner_ironclad": 0.0, "x": 3.0, "other/x": 1.0}
    assert data["field_score"] == pytest.approx(rows[1]["score"])
    assert data["games"] == 18 and data["options"] == {"mode": "beginner"}


def test_cli_gauntlet_with_a_folder_and_the_sequential_test_as_text(tmp_path):
    for name in ("beginner_blaze", "beginner_ironclad"):
        src = DECKS_DIR / f"{name}.toml"
        (tmp_path / f"{name}.toml").write_text(src.read_text())
    result = runner.invoke(
        app,
        [
            "decks",
            *f"gauntlet {OCG} beginner_sparks --games 8 --workers 1 --sprt 0,30".split(),
            "--against",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "beginner_sparks against 2 decks (medarot_ocg_v1 mode beginner, pilot heuristic" in out
    assert "{" not in out  # settings as words, not a dict
    assert out.count("SPRT undecided") == 2 and "field (equal weights):" in out
    assert "H0 +0 Elo, H1 +30 Elo" in out


def test_the_gauntlet_sequential_test_stops_at_the_deciding_pair():
    from deckgym.agents.decks.gauntlet import gauntlet

    data = gauntlet(
        "medarot_ocg_v1",
        "beginner_sparks",
        ["beginner_sparks"],
        games=400,
        workers=1,
        sprt=(0.0, 400.0),
        mode="beginner",
    )
    (row,) = data["against"]
    assert row["sprt"]["verdict"] == "not stronger"  # a mirror is far from +400 Elo
    assert row["games"] < 400 and row["sprt"]["llr"] <= row["sprt"]["bounds"][0]


# ------------------------------------------------------------------ complete


def test_multisets_are_counted_and_listed_alike():
    assert count_multisets([2, 1, 3], 3) == len(multisets("abc", [2, 1, 3], 3)) == 6
    assert sorted(map(sorted, (d.items() for d in multisets("ab", [2, 2], 2)))) == [
        [("a", 1), ("b", 1)],
        [("a", 2)],
        [("b", 2)],
    ]


def test_the_race_drops_completions_worse_than_the_best_and_keeps_the_best():
    means = [0.7, 0.69, 0.4, 0.3]
    rng = random.Random(4)

    def evaluate(i: int, seeds: list[int]) -> list[float]:
        return [float(rng.random() < means[i]) for _ in seeds]

    raced = race(4, evaluate, 4000, 1)
    assert 0 in raced["alive"] and {2, 3} <= set(raced["dropped"])
    assert raced["games"] <= 4000 and raced["dropped"][3] <= raced["dropped"][2] + 5


def _partial(tmp_path, cards: str) -> str:
    p = tmp_path / "partial.toml"
    p.write_text(f'name = "Part"\nmode = "beginner"\n[cards]\n{cards}\n')
    return str(p)


#: Beginner Sparks less one Signal Flare and the Patch Kit (13 of 15 cards).
SPARKS_13 = "MD23 = 2\nMD24 = 2\nMD31 = 2\nMD06 = 2\nMD16 = 2\nMR05 = 2\nMR11 = 1"


def test_cli_complete_races_every_legal_completion_and_rechecks_on_fresh_seeds(tmp_path):
    partial = _partial(tmp_path, SPARKS_13)
    cands = tmp_path / "cards.txt"
    cands.write_text("MR21 1\nMR11   # a second Signal Flare\nMD23\n")  # MD23: a third copy passes 3 with 2
    command = f"decks complete {OCG} {partial} --candidates {cands} --against beginner_blaze --budget 96"
    data = invoke_json(f"{command} --recheck 2 --holdout 4 --workers 1 --json")
    # 5 ways to add 2 cards; 2 more MD23 make 4 copies, the one way the deck rules refuse
    added = [r["added"] for r in data["ranking"]]
    assert {"MD23": 2} not in added and {"MR11": 2} in added and {"MR21": 1, "MR11": 1} in added
    assert data["completions"] == len(added) == 4
    assert data["race_games"] <= 96 and data["holdout_seed"] == HOLDOUT_OFFSET
    assert 1 <= len(data["recheck"]) <= 2
    for r in data["recheck"]:
        assert r["games"] == 4 and r["score_ci95"][0] <= r["score"] <= r["score_ci95"][1]
    text = runner.invoke(app, f"{command} --holdout 4 --workers 1".split())
    assert text.exit_code == 0 and "4 legal completions of" in text.output
    assert "re-checked on fresh seeds (from 1000000000)" in text.output and "mode beginner" in text.output


@pytest.mark.parametrize(
    ("cards", "cands", "extra", "message"),
    [
        (SPARKS_13, "MD23\n", [], "Error: no legal completion: 1 way to add 2 cards from the candidates"),
        (SPARKS_13, "MD01\nMD02\nMD03\nMD04\n", ["--max-completions", "5"], "at most --max-completions 5"),
        (SPARKS_13, "ZZ01\n", [], "line 1: unknown card id 'ZZ01'"),
        (SPARKS_13, "MD01 two\n", [], "line 1: write ID or ID COUNT"),
        (SPARKS_13 + "\nMD01 = 3", "MD02\n", [], "the partial deck has 16 cards; a complete deck has 15"),
    ],
)
def test_cli_complete_refuses_with_one_line(tmp_path, cards, cands, extra, message):
    partial = _partial(tmp_path, cards)
    c = tmp_path / "c.txt"
    c.write_text(cands)
    r = runner.invoke(
        app,
        [
            *f"decks complete {OCG}".split(),
            partial,
            "--candidates",
            str(c),
            "--against",
            "beginner_blaze",
            *extra,
        ],
    )
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1, r.output


# ------------------------------------------------------------------ check, rate counts, errors


@pytest.mark.parametrize(
    ("env", "text", "expected"),
    [
        (
            "medarot_ocg_v1 --mode advance",
            'mode = "advance"\n[cards]\nMD23 = 4\nXX99 = 1\nMD24 = 2',
            [
                "card MD23: 4 copies of MEDAROT",
                "card XX99: unknown card id",
                "7 cards; an advance deck has exactly 30",
            ],
        ),
        (
            "mow_v1",
            'master = "MS01"\n[cards]\nMN01 = 5\nZZ01 = 1\nMN02 = 2',
            ["card ZZ01: unknown card id", "8 main-deck cards; a deck has exactly 40"],
        ),
    ],
)
def test_cli_check_lists_every_problem_of_a_deck(tmp_path, env, text, expected):
    bad = tmp_path / "bad.toml"
    bad.write_text(f'name = "Bad"\n{text}\n')
    r = runner.invoke(app, ["decks", "check", *env.split(), str(bad)])
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == len(expected), r.output
    for line, part in zip(lines, expected, strict=True):
        assert line.startswith(f"{bad}: deck {bad}: ") and part in line, line


def test_cli_check_lists_every_problem_of_a_parts_deck(tmp_path):
    from deckgym import envs
    from deckgym.envs.medarot_parts.cards import ENERGY

    ruleset = envs.make("medarot_parts_v1").unwrapped.ruleset
    deck = ruleset.deck_list("fang_brawler")
    starter, cards = deck.cards[:10], dict(deck.cards[10:])
    first = next(c for c in cards if ruleset.pool[c].type != ENERGY)
    cards[first] += 9  # too many copies, and 49 cards
    cards["ZZ99"] = 1
    m1 = ", ".join(f'"{c}"' for c, _ in starter[:5])
    m2 = ", ".join(f'"{c}"' for c, _ in starter[5:])
    body = "\n".join(f"{c} = {n}" for c, n in cards.items())
    bad = tmp_path / "bad.toml"
    bad.write_text(f'name = "Bad"\n[starter]\nmedarot1 = [{m1}]\nmedarot2 = [{m2}]\n[cards]\n{body}\n')
    r = runner.invoke(app, ["decks", "check", "medarot_parts_v1", str(bad)])
    lines = r.output.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 3, r.output
    assert (
        "copies of" in lines[0]
        and "unknown card id" in lines[1]
        and "50 cards; a deck has exactly 40" in lines[2]
    )


def test_cli_rate_prints_wins_draws_losses_and_pair_counts_per_pairing():
    r = runner.invoke(
        app, [*f"decks rate {OCG} --decks beginner_blaze,beginner_sparks --games 4 --workers 1".split()]
    )
    assert r.exit_code == 0, r.output
    assert "medarot_ocg_v1 mode beginner, pilot heuristic, 4 games per pairing" in r.output
    line = next(x for x in r.output.splitlines() if x.startswith("beginner_blaze vs beginner_sparks: "))
    wdl = line.split(": ")[1].split(",")[0]
    assert sum(map(int, wdl.split("/"))) == 4 and "draws " in line and "pairs " in line


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (
            f"decks gauntlet {OCG} beginner_sparks --against beginner_blaze --sprt 30",
            "--sprt takes ELO0,ELO1",
        ),
        (
            f"decks gauntlet {OCG} beginner_sparks --against beginner_blaze --sprt 30,0",
            "elo1 must be above elo0",
        ),
        (
            f"decks gauntlet {OCG} beginner_sparks --against beginner_blaze --weights nope:1",
            "--weights names decks",
        ),
        (
            f"decks gauntlet {OCG} beginner_sparks --against beginner_blaze --games 1",
            "--games must be at least 2",
        ),
        (f"decks gauntlet {OCG} beginner_sparks --against ,", "--against needs at least one deck"),
        (f"decks gauntlet {OCG} nope --against beginner_blaze", "no starter deck of that name"),
    ],
)
def test_cli_gauntlet_errors_are_one_line_and_exit_2(command, message):
    r = runner.invoke(app, command.split())
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_the_field_interval_is_honest_with_one_pair_or_no_spread():
    """One pair against an opponent: no spread to estimate, so (0, 1), never zero width; pairs
    that all scored alike: the Wilson interval of the fewest pairs, as ``pair_interval`` gives."""
    from deckgym.agents.arena import wilson
    from deckgym.agents.decks.gauntlet import field_total

    score, ci = field_total([[(1.0, 1.0)], [(1.0, 1.0)]], [1.0, 1.0])
    assert score == 1.0 and ci == (0.0, 1.0)
    score, ci = field_total([[(1.0, 0.0)] * 6, [(1.0, 0.0)] * 4], [1.0, 1.0])
    assert score == 0.5 and ci == wilson(0.5 * 4, 4) and ci[1] - ci[0] > 0.3
    score, ci = field_total([[(1.0, 0.0), (1.0, 1.0), (0.0, 0.0)]] * 2, [1.0, 1.0])
    assert ci[0] < score < ci[1]

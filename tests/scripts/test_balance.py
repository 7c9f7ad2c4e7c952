"""scripts/balance.py: the band check, the pick of the deck to tune, and a small run end to end."""

from __future__ import annotations

import json

from tests.scripts import load_script


def test_in_band_checks_every_matchup_and_farthest_picks_the_most_uneven_deck():
    balance = load_script("balance")
    even = [[0.5, 0.6, 0.4], [0.4, 0.5, 0.55], [0.6, 0.45, 0.5]]
    assert balance.in_band(even, (0.35, 0.65))
    lopsided = [[0.5, 0.9, 0.6], [0.1, 0.5, 0.5], [0.4, 0.5, 0.5]]
    assert not balance.in_band(lopsided, (0.35, 0.65))
    # a: (0.9 + 0.6) / 2 = 0.75 is 0.25 off; b: 0.3 is 0.2 off; c: 0.45
    assert balance.farthest({"decks": ["a", "b", "c"], "matrix": lopsided}) == "a"
    assert balance.farthest({"decks": ["a", "b", "c"], "matrix": lopsided}, side=-1) == "b"
    assert balance.farthest({"decks": ["a", "b", "c"], "matrix": lopsided}, side=1) == "a"
    assert balance.miss(even, (0.35, 0.65)) == 0.0
    assert abs(balance.miss(lopsided, (0.35, 0.65)) - 0.25) < 1e-12  # 0.9 and 0.1 are 0.25 outside
    assert (
        balance.farthest(
            {"decks": ["a", "b", "c"], "matrix": [[0.5, 0.55, 0.5], [0.45, 0.5, 0.2], [0.5, 0.8, 0.5]]}
        )
        == "b"
    )


def test_a_small_balance_run_tunes_a_deck_keeps_its_name_and_reports_the_band(tmp_path, capsys):
    from deckgym import envs

    balance = load_script("balance")
    code = balance.main(
        ["mow_v1", "--decks", "iron_bulwark,tide_control", "--check-games", "8", "--games", "8"]
        + ["--budget", "64", "--iterations", "1", "--workers", "1", "--out", str(tmp_path)]
    )
    report = json.loads((tmp_path / "balance.json").read_text())
    assert code == (0 if report["balanced"] else 1)
    first = report["history"][0]
    assert first["decks"] == ["iron_bulwark", "tide_control"] and first["tuned"] in first["decks"]
    assert report["final"]["seed"] >= balance.FINAL_SEED and report["final"]["games"] == 8
    ruleset = envs.make("mow_v1").unwrapped.ruleset
    tuned = ruleset.deck_list(str(tmp_path / "decks" / f"{first['tuned']}.toml"))  # still a legal deck
    original = ruleset.deck_list(first["tuned"])
    assert (tuned.name, tuned.description) == (original.name, original.description)
    best = json.loads((tmp_path / "best" / "best.json").read_text())
    assert best["miss"] == balance.miss(report["final"]["matrix"], (0.35, 0.65))
    assert (tmp_path / "best" / "iron_bulwark.toml").exists()
    out = capsys.readouterr().out
    assert "iteration 0: iron_bulwark vs tide_control" in out and f"tuned {first['tuned']}" in out


def test_tuned_mow_decks_keep_the_starter_copy_limit():
    """balance.py searches MoW decks under the starters' limit of 3 copies, so a tuned deck stays a legal starter."""
    import pytest

    from deckgym import envs
    from deckgym.envs.core.errors import DeckError
    from deckgym.envs.mow.config import STARTER_MAX_COPIES

    balance = load_script("balance")
    rules = balance.STARTER_RULES["mow_v1"]
    assert rules == {"max_copies": STARTER_MAX_COPIES}
    ruleset = envs.make("mow_v1", **rules).unwrapped.ruleset
    deck = dict(ruleset.deck_list("iron_bulwark").cards)
    spare = next(c for c, n in deck.items() if n < 4 and not c.startswith("MS"))
    need = 4 - deck[spare]
    four = dict(deck, **{spare: 4})
    for c in sorted(four):  # take the extra copies from other main-deck cards
        if need and c != spare and not c.startswith("MS"):
            take = min(need, four[c])
            four[c] -= take
            need -= take
    four = {c: n for c, n in four.items() if n}
    assert sum(four.values()) == sum(deck.values())
    with pytest.raises(DeckError, match="at most 3"):
        ruleset.deck_list(four)
    assert ruleset.deck_list(deck)  # the shipped starter keeps the limit

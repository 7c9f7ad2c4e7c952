"""scripts/amalogs_interaction.py: duel seats, exits, base hits and endings of seeded AMALOGS games."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from tests.scripts import ROOT, load_script

KEYS = {
    "games",
    "duels_per_game",
    "opposed_share",
    "champion_share",
    "defender_share",
    "base_proxy_share",
    "vacant_share",
    "exits_per_game",
    "exit_losses_per_game",
    "exit_wins_per_game",
    "base_hits_per_game",
    "team_turns_per_game",
    "turn_cap_share",
    "base0_share",
    "base36_share",
    "agents",
    "teams",
    "pools",
    "seed",
}


@pytest.fixture(scope="module")
def script():
    return load_script("amalogs_interaction")


def _json(script, capsys, *args: str):
    assert script.main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_configuration_is_one_object_with_every_key_and_shares_that_add_up(script, capsys):
    r = _json(script, capsys, "--agents", "random", "--teams", "1v1", "--games", "3", "--seed", "5")
    assert isinstance(r, dict) and KEYS <= set(r)
    assert (r["agents"], r["teams"], r["pools"], r["seed"], r["games"]) == ("random", "1v1", "default", 5, 3)
    assert r["duels_per_game"] > 0
    seated = r["champion_share"] + r["defender_share"] + r["base_proxy_share"]
    assert seated + r["vacant_share"] == pytest.approx(1.0)
    assert r["opposed_share"] == pytest.approx(seated)
    assert r["exits_per_game"] == pytest.approx(r["exit_losses_per_game"] + r["exit_wins_per_game"])
    assert r["base0_share"] + r["base36_share"] + r["turn_cap_share"] == pytest.approx(1.0)


def test_several_configurations_are_a_list_in_order_and_a_seed_gives_the_same_figures(script, capsys):
    args = ("--agents", "all", "--teams", "1v1", "--pools", "default,master_of_the_world")
    first = _json(script, capsys, *args, "--games", "2", "--seed", "9")
    assert [(r["agents"], r["teams"], r["pools"]) for r in first] == [
        (a, t, p)
        for a in ("heuristic", "random")
        for t in ("1v1",)
        for p in ("default", "master_of_the_world")
    ]
    assert all(KEYS <= set(r) for r in first)
    assert _json(script, capsys, *args, "--games", "2", "--seed", "9") == first


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """The script in a process of its own (its workers must import it by name)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "amalogs_interaction.py"), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_two_workers_give_the_figures_of_one(script, capsys):
    args = ("--agents", "random", "--teams", "2v2", "--games", "6", "--seed", "4")  # two chunks of games
    one = _json(script, capsys, *args, "--workers", "1")
    proc = _run(*args, "--workers", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == one


def test_markdown_has_the_readme_columns_and_one_row_per_configuration(script, capsys):
    assert (
        script.main(["--agents", "all", "--teams", "1v1", "--games", "1", "--seed", "2", "--markdown"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "| teams | pools | agents | duels/game | opponent seated (champion / defender / base) | vacant "
        "| exits/game (loss / win) | base hits/game | team turns | ended (base 0 / base 36 / cap) |"
    )
    rows = [ln for ln in lines[2:] if ln.startswith("| ")]
    assert [r.split(" | ")[2] for r in rows] == ["heuristic", "random"]


@pytest.mark.parametrize(
    "args",
    [
        ["--agents", "search"],
        ["--teams", "4v4"],
        ["--pools", "chess"],
        ["--games", "0"],
        ["--workers", "x"],
        ["--seed", "one"],
        ["--bogus"],
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_status_2(args):
    proc = _run(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_bad_pool_lists_the_rulesets_the_env_accepts(script, capsys):
    with pytest.raises(SystemExit) as e:
        script.main(["--pools", "chess"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    for name in ("default", "medarot_ocg_advance", "medarot_parts", "master_of_the_world"):
        assert name in err


def _recount(seed: int, teams: tuple[int, int]):
    """One random game played here, its figures counted from its events without the script."""
    from deckgym.agents.random_agent import RandomAgent

    name = max(
        (
            m
            for m in ("amalogs_v2", "amalogs_v2", "amalogs_v0")
            if importlib.util.find_spec(f"deckgym.envs.{m}")
        ),
        key=lambda m: int(m.rsplit("v", 1)[1]),
    )
    env = importlib.import_module(f"deckgym.envs.{name}").env(team_sizes=teams)
    env.reset(seed=seed)
    st = env.unwrapped.game
    st.event_cap = 10**9
    players = [RandomAgent() for _ in env.possible_agents]
    for i, p in enumerate(players):
        p.reset(seed=seed * 7919 + i)
    seat = {a: i for i, a in enumerate(env.possible_agents)}
    for agent in env.agent_iter():
        _o, _r, term, trunc, _i = env.last(observe=False)
        mask = env.unwrapped.encoder.action_mask(st)
        env.step(None if term or trunc else players[seat[agent]].act(None, mask))
    recs = st.records
    duels = [r for r in recs if r["kind"] == "duel"]
    champion = sum(1 for d in duels if d["champion"] not in (None, -1))
    defender = sum(1 for d in duels if d["champion"] in (None, -1) and d.get("defender") is not None)
    base = sum(
        1
        for d in duels
        if d["champion"] in (None, -1) and d.get("defender") is None and d.get("proxy") == "base"
    )
    exits = [r["result"] for r in recs if r["kind"] == "exit"]
    (end,) = [r for r in recs if r["kind"] == "end"]
    if end["reason"].startswith("team-turn cap"):
        ended = "cap"
    elif "fell" in end["reason"]:
        ended = "base0"
    else:
        ended = "base36"
    return {
        "duels": len(duels),
        "champion": champion,
        "defender": defender,
        "base": base,
        "vacant": len(duels) - champion - defender - base,
        "losses": exits.count("loss"),
        "wins": exits.count("win"),
        "base_hits": sum(r["kind"] == "base_hit" for r in recs),
        "team_turns": sum(r["kind"] == "team_turn" for r in recs),
        "ended": ended,
    }


def test_the_figures_of_one_game_are_its_events_recounted(script, capsys):
    seed = 21
    want = _recount(seed, (2, 2))
    assert want["duels"] > 0 and want["losses"] + want["wins"] > 0  # a game with something to count
    r = _json(script, capsys, "--agents", "random", "--teams", "2v2", "--games", "1", "--seed", str(seed))
    assert r["duels_per_game"] == want["duels"]
    assert r["champion_share"] * want["duels"] == pytest.approx(want["champion"])
    assert r["defender_share"] * want["duels"] == pytest.approx(want["defender"])
    assert r["base_proxy_share"] * want["duels"] == pytest.approx(want["base"])
    assert r["vacant_share"] * want["duels"] == pytest.approx(want["vacant"])
    assert (r["exit_losses_per_game"], r["exit_wins_per_game"]) == (want["losses"], want["wins"])
    assert r["base_hits_per_game"] == want["base_hits"]
    assert r["team_turns_per_game"] == want["team_turns"]
    shares = {"base0": r["base0_share"], "base36": r["base36_share"], "cap": r["turn_cap_share"]}
    assert shares == {k: float(k == want["ended"]) for k in shares}

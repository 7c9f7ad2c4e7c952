"""A ruleset kept outside the package joins the library with one line: ``envs.games.register(GAME)``.

The toy duel (``tests/toy_game``: a folder with its declaration, env module, engine, encoder,
view, words, heuristic and help) is registered by the module fixture, then found everywhere
the library derives its per-game lists: the env registry and PettingZoo's, the Gymnasium ids,
the bench, fingerprint, soak and levels scripts, the shared test matrix, the play lobby and
its HTTP API, and the agents and arena. The fixture unregisters it at the end of the module,
so that tests that count the registered games elsewhere in the session see the built-in ones.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import random
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from deckgym import agents, envs
from deckgym.agents.arena import match
from deckgym.envs.core.errors import IllegalActionError, IllegalActionWarning
from deckgym.envs.core.events import ONLY, check_fields, events_for
from tests import toy_game
from tests.envs.positions import random_positions
from tests.scripts import ROOT, load_script
from tests.toy_game import state as toy

NAME = "toy_v1"
GAME = toy_game.GAME
#: The declared option sets (``games.variants()`` lists them only once the toy is registered).
OPTIONS = [dict(v.options) for v in GAME.variants]


@pytest.fixture(scope="module", autouse=True)
def _registered():
    envs.games.register(toy_game.GAME)
    yield
    envs.games.unregister(NAME)


def _random_games(kw: dict[str, Any], games: int, seed0: int = 0):
    """(env, state) at every decision of random legal games, and once at the end of each."""
    for env in random_positions(envs.make(NAME, **kw), games, seed0, ends=True):
        yield env, env.unwrapped.game


def _leaks(ruleset: Any, st: Any, observe: Any, rng: random.Random) -> list[str]:
    """What a seat's observation, view or mask shows of what it cannot see (``resample_hidden``)."""
    out = []
    for seat in range(2):
        for _ in range(3):
            world = st.resample_hidden(seat, rng)
            if not np.array_equal(observe(world, seat), observe(st, seat)):
                out.append(f"observation of seat {seat}")
            if ruleset.view(world, seat) != ruleset.view(st, seat):
                out.append(f"view of seat {seat}")
            if seat == st.current_player and world.legal_actions() != st.legal_actions():
                out.append(f"legal actions of seat {seat}")
    return out


# ----------------------------------------------------------------------------- registration
def test_one_line_registers_it_and_the_same_game_may_be_registered_again():
    assert NAME in envs.names() and envs.games.game(NAME) is GAME
    assert envs.games.register(toy_game.GAME) is GAME and envs.names().count(NAME) == 1
    with pytest.raises(ValueError, match="'toy_v1' is registered already"):
        envs.games.register(dataclasses.replace(GAME, title="Another toy"))
    envs.games.unregister(NAME)
    try:
        assert NAME not in envs.names() and all(n != NAME for n, _ in envs.gym_ids().values())
        with pytest.raises(KeyError, match="unknown environment 'toy_v1'"):
            envs.make(NAME)
    finally:
        envs.games.register(toy_game.GAME)
    assert NAME in envs.names()


def test_the_declaration_derives_its_package_help_defaults_and_variants():
    assert GAME.package == "tests.toy_game"  # the folder that holds the env module
    assert GAME.help_text() == (Path(toy_game.__file__).parent / "help.md").read_text(encoding="utf-8")
    assert GAME.defaults() == {"target": 15, "max_turns": 24}
    assert GAME.variant_of({"target": 25}).tag == "long" and GAME.variant_of({}).tag == "short"
    assert GAME.variant_of({"target": 20}) is None
    assert GAME.keyed() == [(NAME, {})]  # no modes: the default game carries the levels and models


# ----------------------------------------------------------------------------- 1. make, ruleset, PettingZoo
def test_make_ruleset_and_the_pettingzoo_registry_build_it():
    rules = envs.ruleset(NAME, target=25)
    assert rules is envs.make(NAME, target=25).unwrapped.ruleset
    assert envs.ruleset(NAME, render_mode="ansi", illegal_action="raise", target=25) is rules
    assert rules.target == 25 and envs.ruleset(NAME).target == GAME.defaults()["target"]
    env = pettingzoo.make("aec", "deckgym/toy-v1", target=25)
    env.reset(seed=3)
    assert env.unwrapped.ruleset is rules and env.possible_agents == ["player_0", "player_1"]
    assert env.unwrapped.game.to_dict() == rules.new_state(3).to_dict()  # the seed makes the game


@pytest.mark.parametrize("kw", OPTIONS, ids=[v.tag for v in GAME.variants])
def test_pettingzoo_api_and_seed_tests_pass(kw):
    api_test(envs.make(NAME, **kw), num_cycles=300)
    seed_test(lambda: envs.make(NAME, **kw), num_cycles=300)


# ----------------------------------------------------------------------------- the contract
@pytest.mark.parametrize("kw", OPTIONS, ids=[v.tag for v in GAME.variants])
def test_random_games_end_hide_what_they_must_and_round_trip(kw):
    rng = random.Random(1)
    ends, decisions = {"terminated": 0, "truncated": 0}, 0
    for env, st in _random_games(kw, games=40):
        ruleset, enc = env.unwrapped.ruleset, env.unwrapped.encoder
        assert len(st.events) == len(st.records)
        if st.is_terminal():
            ends["truncated" if st.truncated else "terminated"] += 1
            assert sum(st.returns()) == 0 and (not st.truncated or st.turn == st.max_turns)
            if not st.truncated:  # a decided game: its winner reached the target first
                assert st.scores[st.winner] >= st.target > st.scores[1 - st.winner]
            continue
        decisions += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        assert sorted(np.flatnonzero(mask)) == sorted(enc.legal_indices(st)) and mask.any()
        if decisions % 5 == 0:
            assert _leaks(ruleset, st, enc.observe, rng) == []
            back = ruleset.state_from_dict(json.loads(json.dumps(st.to_dict())))
            assert back.to_dict() == st.to_dict()
            assert np.array_equal(enc.observe(back, st.current_player), enc.observe(st, st.current_player))
    assert ends["terminated"] + ends["truncated"] == 40 and decisions > 40 * 5


def test_the_leak_check_catches_an_observation_that_shows_the_opponents_hand():
    env = envs.make(NAME)
    env.reset(seed=2)
    enc, st = env.unwrapped.encoder, env.unwrapped.game

    def cheat(state, seat):
        obs = enc.observe(state, seat)
        obs[-1] = sum(state.hands[1 - seat]) / 15
        return obs

    assert _leaks(env.unwrapped.ruleset, st, enc.observe, random.Random(0)) == []
    assert "observation of seat 0" in _leaks(env.unwrapped.ruleset, st, cheat, random.Random(0))


def test_the_seed_deals_the_game_and_a_redrawn_world_changes_only_what_is_hidden():
    rules = envs.ruleset(NAME)
    assert rules.new_state(4).to_dict() == rules.new_state(4).to_dict()
    assert len({json.dumps(rules.new_state(seed).deck) for seed in range(20)}) == 20
    st = rules.new_state(4)
    rng = random.Random(0)
    worlds = [st.resample_hidden(0, rng) for _ in range(20)]
    assert all(w.hands[0] == st.hands[0] and w.scores == st.scores for w in worlds)
    assert any(w.hands[1] != st.hands[1] for w in worlds) and any(w.deck[0] != st.deck[0] for w in worlds)
    assert all(sorted(w.hands[1] + w.deck[1]) == sorted(st.hands[1] + st.deck[1]) for w in worlds)


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = envs.make(NAME, illegal_action="raise")
    env.reset(seed=7)
    st = env.unwrapped.game
    before = st.to_dict()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="legal options"):
        env.step(illegal)
    with pytest.raises(IllegalActionError):
        st.apply((toy.PLAY, 6))
    assert st.to_dict() == before


def test_a_play_scores_its_value_and_a_discard_draws_and_an_unreachable_target_ends_on_an_empty_hand():
    st = envs.ruleset(NAME).new_state(5)
    p, value = st.current_player, st.hands[st.current_player][0]
    deck = len(st.deck[p])
    st.apply((toy.PLAY, value))
    assert st.scores[p] == value and len(st.hands[p]) == toy.HAND and len(st.deck[p]) == deck - 1
    assert st.current_player == 1 - p
    q, low = st.current_player, min(st.hands[st.current_player])
    st.apply((toy.DISCARD, low))
    assert st.discarded[q] == [low] and st.scores[q] == 0 and len(st.hands[q]) == toy.HAND
    total = sum(toy.VALUES) * toy.COPIES  # every card of a deck played still falls short
    for _env, end in _random_games({"target": total + 1, "max_turns": 40}, games=5):
        if end.is_terminal():
            assert not end.truncated and end.reason.endswith("has no cards")
            s = end.scores
            assert end.winner == (-1 if s[0] == s[1] else int(s[1] > s[0]))


def test_events_are_typed_and_each_draw_is_seen_by_its_seat_alone():
    seen = set()
    for _env, st in _random_games({}, games=3):
        if not st.is_terminal():
            continue
        for rec in st.records:
            assert check_fields(toy.KINDS, toy.PRIVATE, rec) is None
            seen.add(rec["kind"])
        for seat in range(2):
            for rec, e in zip(st.records, events_for(st, seat), strict=True):
                if rec["kind"] == "draw":
                    assert ("cards" in e) == (rec["player"] == seat)
            redrawn = st.resample_hidden(seat, random.Random(seat))
            assert all(r.get(ONLY) is None or r[ONLY][0] == seat for r in redrawn.records)
            assert events_for(redrawn, seat) == events_for(st, seat)
    assert {"start", "draw", "play", "discard", "end"} <= seen


# ----------------------------------------------------------------------------- 2. Gymnasium
def test_gymnasium_ids_are_registered_and_pass_check_env():
    ids = {gid: kw for gid, (n, kw) in envs.gym_ids().items() if n == NAME}
    assert ids == {"deckgym/ToyDuel-short-v1": OPTIONS[0], "deckgym/ToyDuel-long-v1": OPTIONS[1]}
    for gid, kw in ids.items():
        assert gid in gymnasium.registry
        env = gymnasium.make(gid)
        with warnings.catch_warnings():  # it samples without the mask: an illegal action ends the game
            warnings.simplefilter("ignore", IllegalActionWarning)
            check_env(env.unwrapped, skip_render_check=True)
        assert env.unwrapped.raw.ruleset.target == kw["target"]
        obs, info = env.reset(seed=42)
        again, info2 = env.reset(seed=42)
        assert np.array_equal(obs, again) and info["seat"] == info2["seat"]
        done, reward, rng = False, 0.0, random.Random(0)
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, term, trunc, info = env.step(action)
            done = term or trunc
        assert reward in (-1.0, 0.0, 1.0)


def test_gymnasium_make_vec_steps_its_games_in_one_batch_with_the_single_envs_games():
    gid = "deckgym/ToyDuel-short-v1"
    batch = gymnasium.make_vec(gid, 3, opponent="heuristic")
    obs, info = batch.reset(seed=4)
    singles = [gymnasium.make(gid, opponent="heuristic") for _ in range(3)]
    firsts = [s.reset(seed=4 + i) for i, s in enumerate(singles)]
    for i, (o, inf) in enumerate(firsts):
        assert np.array_equal(obs[i], o) and np.array_equal(info["action_mask"][i], inf["action_mask"])
    ended = 0
    for _ in range(40):
        actions = info["action_mask"].argmax(1)
        obs, rewards, terms, truncs, info = batch.step(actions)
        for i, single in enumerate(singles):
            o, r, term, trunc, inf = single.step(int(actions[i]))
            assert r == rewards[i] and term == terms[i] and trunc == truncs[i]
            if term or trunc:
                ended += 1
                o, inf = single.reset()
            assert np.array_equal(obs[i], o)
    assert ended >= 3


# ----------------------------------------------------------------------------- 3-5, levels: the scripts
def test_the_bench_lists_its_variants_and_times_a_row():
    bench = load_script("bench")
    assert bench.variants()[NAME] == OPTIONS
    assert [bench.label_of(NAME, kw) for kw in OPTIONS] == ["toy_v1:target=15", "toy_v1:target=25"]
    decisions, games, seconds = bench.aec_loop(lambda: envs.make(NAME), 0.3, 0)
    assert games >= 1 and decisions >= games and seconds >= 0.3
    decisions, games, _ = bench.engine_loop(lambda: envs.make(NAME), 0.2, 0)
    assert games >= 1 and decisions >= games


def test_fingerprints_are_stable_and_tell_the_variants_apart():
    fp = load_script("fingerprint")
    policies = {"random": 2, "heuristic": 1, "search": 1}
    first = fp.collect(policies, [NAME])
    assert set(first) == {f"toy_v1:target={t}/{p}" for t in (15, 25) for p in policies}
    assert first == fp.collect(policies, [NAME])
    for policy in policies:  # the target is in every observation: the variants' games differ
        assert first[f"toy_v1:target=15/{policy}"]["hash"] != first[f"toy_v1:target=25/{policy}"]["hash"]
    assert all(v["steps"] > 0 for v in first.values())


def test_the_soak_plays_both_variants_and_a_chunk_replays_to_the_same_hash(capsys):
    soak = load_script("soak")
    args = ["--decisions", "3000", "--envs", NAME, "--no-replay", "--no-progress", "--json"]
    assert soak.main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["label"] for r in out["variants"]] == ["toy_v1:target=15", "toy_v1:target=25"]
    assert out["failures"] == 0 and all(r["decisions"] >= 1500 for r in out["variants"])
    job = (NAME, OPTIONS[0], 600, 0, 13)
    checked, replayed = soak.soak_chunk((*job, True)), soak.soak_chunk((*job, False))
    assert "error" not in checked and checked["hash"] == replayed["hash"]


def test_the_levels_script_measures_it(tmp_path):
    levels = load_script("levels")
    assert levels.VARIANTS[NAME] == (NAME, {})
    out = tmp_path / "levels.json"
    args = ["--variants", NAME, "--levels", "Beginner,Easy", "--default-games", "4", "--replies", "3"]
    assert levels.main([*args, "--workers", "1", "--out", str(out)]) == 0
    easy = json.loads(out.read_text())["levels"][NAME]["Easy"]
    assert easy["score"] == 0.5 and easy["games"] == 4  # the deterministic heuristic splits every pair
    assert easy["replies"] == 3


# ----------------------------------------------------------------------------- 6. the test matrix
def test_the_shared_test_matrix_includes_it():
    assert [(n, kw) for n, kw in envs.games.variants() if n == NAME] == [(NAME, kw) for kw in OPTIONS]
    assert [(n, kw) for n, kw in envs.games.variants(long=False) if n == NAME] == [(NAME, OPTIONS[0])]
    # a fresh copy of tests/envs/variants.py: its lists are computed when it is imported
    spec = importlib.util.spec_from_file_location("fresh_variants", ROOT / "tests/envs/variants.py")
    assert spec is not None and spec.loader is not None
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    assert (NAME, OPTIONS[1]) in fresh.EVERY and (NAME, OPTIONS[1]) not in fresh.QUICK
    assert (NAME, OPTIONS[0]) in fresh.QUICK and fresh.PACKAGE[NAME] == "toy_game"
    assert "toy_v1-15" in fresh.ids(fresh.QUICK)


# ----------------------------------------------------------------------------- 7. lobby, HTTP, agents
def test_the_lobby_lists_it_with_its_title_options_levels_and_help():
    from deckgym.agents.play.server import catalogue
    from deckgym.agents.play.session import LEVELS

    entry = next(e for e in catalogue()["envs"] if e["name"] == NAME)
    assert entry["title"] == "Toy duel" and entry["modes"] == [] and entry["players"] == 2
    assert entry["options"] == {"target": [15, 25]} and entry["decks"] == {"": []}
    offered = [lv["name"] for lv in entry["levels"][""]]
    assert offered == [lv.name for lv in LEVELS if lv.spec != "ppo:pretrained"]  # no model is shipped
    assert entry["help"] == GAME.help_text() and "How to play" in entry["help"]


def test_a_whole_game_through_the_http_api():
    from fastapi.testclient import TestClient

    from deckgym.agents.play.server import create_app

    client = TestClient(create_app(max_games=4), base_url="http://localhost")
    body = {"env": NAME, "options": {"target": 15}, "opponent": "Easy", "seat": "random", "seed": 3}
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    game = r.json()
    gid = game["game_id"]
    session = client.app.state.games.get(gid).session
    hint = client.get(f"/api/games/{gid}/hint").json()
    assert hint["index"] in [o["index"] for o in game["legal"]] and 0 <= hint["win_chance"] <= 1
    rng, moves = random.Random(1), 0
    # no board of its own (agents/play/static/boards): the page draws the view's common keys generically
    assert set(game["view"]) >= {"env", "seat", "turn", "to_move", "decision", "done", "players", "board"}
    while not game["done"]:
        assert game["your_turn"] and game["legal"] and game["view"]["env"] == NAME
        seat = game["view"]["seat"]
        for _ in range(2):  # nothing the person's seat cannot see is in the payload
            world = session.game.resample_hidden(seat, rng)
            assert session.env.unwrapped.ruleset.view(world, seat) == game["view"]
            words = [
                session.env.unwrapped.ruleset.describe_action(world, seat, o["index"]) for o in game["legal"]
            ]
            assert words == [{"text": o["text"], "places": o["places"]} for o in game["legal"]]
        r = client.post(f"/api/games/{gid}/actions", json={"index": rng.choice(game["legal"])["index"]})
        assert r.status_code == 200, r.text
        game = r.json()
        for e in game["records"]:
            if e["kind"] == "draw":
                assert ("cards" in e) == (e["player"] in game["seats"])
        moves += 1
    scores = [p["score"] for p in game["view"]["players"]]
    outcome = game["result"]["outcome"]
    mine = scores[game["seats"][0]]
    assert outcome == ("draw" if game["result"]["truncated"] else "win" if mine >= 15 else "loss")
    replay = client.get(f"/api/games/{gid}/replay")
    assert replay.status_code == 200
    back = client.post("/api/replays", json={"replay": replay.text, "seat": game["seats"][0]})
    assert back.status_code == 200 and len(back.json()["positions"]) >= moves + 1


def test_agents_make_and_the_arena_play_it():
    heuristic = agents.make("heuristic", NAME, seed=0)
    assert type(heuristic).__name__ == "ToyHeuristic"
    assert type(agents.make("random", NAME, seed=0)).__name__ == "RandomAgent"
    against_random = match("heuristic", "random", NAME, games=40, workers=1)
    assert against_random.games == 40 and against_random.wins > against_random.losses
    mirror = match("heuristic", "heuristic", NAME, games=20, workers=1, target=25)
    assert mirror.score == 0.5  # the deterministic heuristic in both seats splits every pair
    search = match("search:2", "random", NAME, games=4, workers=1)
    assert search.wins + search.draws + search.losses == 4


def test_a_declaration_file_gives_the_same_game_and_refuses_unknown_fields(tmp_path, monkeypatch):
    """``games.declared`` reads a package's ``game.toml``: the built-in rulesets declare themselves so."""
    package = tmp_path / "tomlgame"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "game.toml").write_text(
        'name = "toy_v1"\ntitle = "Toy duel"\ngym_name = "ToyDuel"\n'
        'module = "tests.toy_game.toy_v1"\nheuristic = "tests.toy_game.heuristic:ToyHeuristic"\n'
        '[[variants]]\ntag = "short"\ntitle = "Race to 15"\noptions = { target = 15 }\n'
        '[[variants]]\ntag = "long"\ntitle = "Race to 25"\nlong = true\noptions = { target = 25 }\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert envs.games.declared("tomlgame") == GAME
    (package / "game.toml").write_text('name = "toy_v1"\ntitle = "T"\ngym_name = "T"\ncolour = "red"\n')
    with pytest.raises(ValueError, match=r"unknown fields \['colour'\]"):
        envs.games.declared("tomlgame")
    (package / "game.toml").write_text(
        'name = "toy_v1"\ntitle = "T"\ngym_name = "T"\n[[variants]]\nmood = 1\n'
    )
    with pytest.raises(ValueError, match=r"\(a variant\): unknown fields \['mood'\]"):
        envs.games.declared("tomlgame")
    (package / "game.toml").write_text('name = "toy_v1"\ntitle = "T"\ngym_name = "T"\n')
    assert envs.games.declared("tomlgame").module == "toy_v1"  # a top-level package: the module beside it


def test_the_built_in_rulesets_are_declared_by_their_files():
    for package in envs.games.BUILT_IN:
        game = envs.games.declared(package)
        assert (
            game == envs.games.game(game.name) and game.module == package.rpartition(".")[0] + "." + game.name
        )

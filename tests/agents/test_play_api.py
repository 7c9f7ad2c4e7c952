"""The JSON API of ``deckgym serve`` through FastAPI's TestClient: whole games, bad requests, no leaks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the [play] extra is not installed")
from fastapi.testclient import TestClient

from deckgym.agents.play.server import create_app
from deckgym.agents.play.session import describer
from deckgym.envs.core.events import line_for

GAMES = [
    ("medarot_ocg_v1", {"mode": "beginner"}),
    ("medarot_ocg_v1", {"mode": "advance"}),
    ("medarot_parts_v1", {}),
    ("mow_v1", {}),
    ("amalogs_v2", {"team_sizes": [2, 2]}),
]
KEYS = {"game_id", "view", "legal", "your_turn", "done", "result", "log", "recent", "ai_thinking", "can_undo"}


@pytest.fixture()
def client() -> TestClient:
    return TestClient(create_app(max_games=4), base_url="http://localhost")


def _new(client: TestClient, **body: Any) -> Any:
    return client.post("/api/games", json={"opponent": "random", "seed": 3, **body})


def _payload_is_honest(session: Any, game: dict[str, Any], rng: random.Random) -> None:
    """The payload is the same in every world the person's seat cannot tell apart.

    Its view, and the labels of its options, are recomputed in states where what the seat
    cannot see is redrawn (``resample_hidden``): a hidden card anywhere in them would differ.
    """
    raw = session.env.unwrapped
    seat = game["view"]["seat"]
    for _ in range(2):
        world = session.game.resample_hidden(seat, rng)
        assert raw.ruleset.view(world, seat) == game["view"]
        assert [raw.encoder.action_label(o["index"], world) for o in game["legal"]] == [
            o["label"] for o in game["legal"]
        ]
        assert [raw.ruleset.describe_action(world, seat, o["index"])["text"] for o in game["legal"]] == [
            o["text"] for o in game["legal"]
        ]
        if len(game["seats"]) == 1:  # the log as the seat reads it: the same in every such world
            names = describer(session.env).card_names(world)
            log = [line_for(r, t, seat, names) for r, t in zip(world.records, world.events, strict=True)]
            assert log == game["log"]
    assert not {"state", "seed", "rng", "deck_order"} & set(game)


@pytest.mark.parametrize(("env", "options"), GAMES, ids=[g[0] + str(g[1].get("mode", "")) for g in GAMES])
def test_a_whole_game_through_the_api(client: TestClient, env: str, options: dict[str, Any]) -> None:
    r = _new(client, env=env, options=options, seat="random")
    assert r.status_code == 200, r.text
    game = r.json()
    assert set(game) >= KEYS
    gid = game["game_id"]
    assert len(gid) >= 20
    session = client.app.state.games.get(gid).session
    rng = random.Random(1)
    moves = seen_draws = 0
    while not game["done"]:
        assert game["your_turn"] and game["legal"]
        assert game["view"]["seat"] in game["seats"]
        _payload_is_honest(session, game, rng)
        json.dumps(game)
        pick = rng.choice(game["legal"])
        r = client.post(f"/api/games/{gid}/actions", json={"index": pick["index"]})
        assert r.status_code == 200, r.text
        game = r.json()
        assert isinstance(game["events"], list)
        assert [e["text"] for e in game["records"]] == game["events"]  # the same entries, as data
        for e in game["records"]:
            if e["kind"] == "draw" and e["player"] not in game["seats"]:
                assert "cards" not in e, e  # the other seat's drawn cards never reach the person
            elif e["kind"] == "draw":
                seen_draws += "cards" in e
        moves += 1
    assert game["result"]["outcome"] in ("win", "loss", "draw") and game["legal"] == []
    assert seen_draws or env == "amalogs_v2"  # AMALOGS' own events name no cards
    assert client.get(f"/api/games/{gid}").json()["done"]
    rep = client.get(f"/api/games/{gid}/replay")
    assert rep.status_code == 200
    back = client.post("/api/replays", json={"replay": rep.text, "seat": game["seats"][0]})
    assert back.status_code == 200, back.text
    assert len(back.json()["positions"]) >= moves + 1


def test_the_lobby_lists_envs_modes_decks_and_levels(client: TestClient) -> None:
    cat = client.get("/api/envs").json()
    by = {e["name"]: e for e in cat["envs"]}
    assert set(by) == {"medarot_ocg_v1", "medarot_parts_v1", "mow_v1", "amalogs_v2"}
    assert by["medarot_ocg_v1"]["modes"] == ["beginner", "normal", "advance"]
    assert "beginner_blaze" in by["medarot_ocg_v1"]["decks"]["beginner"]
    assert "iron_bulwark" in by["mow_v1"]["decks"][""]
    assert cat["default_level"] in cat["levels"] and cat["levels"][0] == "Beginner"
    ocg = {lv["name"]: lv["spec"] for lv in by["medarot_ocg_v1"]["levels"]["beginner"]}
    assert ocg == {
        "Beginner": "random",
        "Easy": "heuristic",
        "Medium": "ppo:pretrained",
        "Hard": "search",
        "Expert": "search:16",
    }
    assert by["mow_v1"]["title"] == "Master of the World" and by["medarot_ocg_v1"]["mode_titles"]["advance"]
    assert all("plugged" not in e["title"] for e in cat["envs"])
    # the lobby shows what scripts/levels.py measured: Easy against itself splits every pair
    easy = next(lv for lv in by["mow_v1"]["levels"][""] if lv["name"] == "Easy")
    assert easy["score"] == 0.5 and easy["measured"]["games"] >= 400
    assert easy["measured"]["wins"] == easy["measured"]["losses"]


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"env": "nope_v0"}, 400, "env: Input should be 'amalogs_v2', 'medarot_ocg_v1'"),
        ({"env": "medarot_ocg_v1", "options": {"mode": "expert"}}, 400, "expert"),
        ({"env": "medarot_ocg_v1", "options": {"colour": 1}}, 400, "colour"),
        ({"env": "medarot_ocg_v1", "options": {"decks": ["no_such_deck"]}}, 400, "no_such_deck"),
        ({"env": "medarot_ocg_v1", "opponent": "grandmaster"}, 400, "opponent: Input should be 'Beginner'"),
        ({"env": "medarot_ocg_v1", "opponent": "search:100000"}, 400, "opponent: Input should be"),
        ({"env": "medarot_ocg_v1", "opponent": "ppo:/etc/passwd"}, 400, "opponent: Input should be"),
        ({"env": "medarot_ocg_v1", "options": {"render_mode": "human"}}, 400, "render_mode"),
        ({"env": "medarot_ocg_v1", "seed": "3"}, 400, "seed"),
        ({"env": "medarot_ocg_v1", "seat": True}, 400, "seat"),
        ({"env": ""}, 400, "env: Input should be"),
        ({"env": "medarot_ocg_v1", "seat": 5}, 400, "seat"),
        ({"env": "medarot_ocg_v1", "options": [1, 2]}, 400, "options"),
        ({"env": "medarot_ocg_v1", "colour": "red"}, 400, "colour"),
        ({}, 400, "env"),
    ],
)
def test_bad_new_games_get_a_json_error(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    r = client.post("/api/games", json={"opponent": "random", **body} if "opponent" not in body else body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert len(client.app.state.games) == 0


def test_malformed_json_is_a_400(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "error" in r.json()


def test_bad_moves_leave_the_game_unchanged(client: TestClient) -> None:
    game = _new(client, env="medarot_ocg_v1", options={"mode": "normal"}).json()
    gid = game["game_id"]
    session = client.app.state.games.get(gid).session
    before = session.game.to_dict()
    legal = {o["index"] for o in game["legal"]}
    illegal = next(i for i in range(10_000) if i not in legal)
    for body, status, words in [
        ({"index": illegal}, 400, "not a legal option"),
        ({"index": -1}, 400, "index: Input should be greater than or equal to 0"),
        ({"index": "one"}, 400, "index"),
        ({"index": 1.5}, 400, "index"),
        ({"index": "1"}, 400, "index"),
        ({"index": True}, 400, "index"),
        ({}, 400, "index"),
        ({"index": 0, "extra": 1}, 400, "extra"),
    ]:
        r = client.post(f"/api/games/{gid}/actions", json=body)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
    assert session.game.to_dict() == before
    assert client.get("/api/games/nope").status_code == 404
    assert client.post("/api/games/nope/actions", json={"index": 0}).status_code == 404
    assert "error" in client.get("/api/games/nope").json()


def test_out_of_turn_and_after_the_end_are_409(client: TestClient) -> None:
    game = _new(client, env="medarot_ocg_v1").json()
    gid = game["game_id"]
    live = client.app.state.games.get(gid)
    session = live.session
    assert client.get(f"/api/games/{gid}/replay").status_code == 409  # not while the game is on
    # the person's seat is not to move: make the engine's turn the opponent's by playing for them
    while session.your_turn:
        session._step(_first(session), "test")
    live.publish()
    if not session.done:
        before = session.game.to_dict()
        r = client.post(f"/api/games/{gid}/actions", json={"index": 0})
        assert r.status_code == 409 and "not your turn" in r.json()["error"]
        assert session.game.to_dict() == before
        assert client.get(f"/api/games/{gid}/hint").status_code == 409
    while not session.done:
        session._step(_first(session), "test")
    live.publish()
    r = client.post(f"/api/games/{gid}/actions", json={"index": 0})
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert client.post(f"/api/games/{gid}/undo").status_code == 409
    assert client.post(f"/api/games/{gid}/resign").status_code == 409


def _first(session: Any) -> int:
    mask = session.env.unwrapped.observe(session.env.agent_selection)["action_mask"]
    return int(next(i for i, m in enumerate(mask) if m))


def test_live_games_are_bounded_and_idle_ones_leave_memory_for_the_store() -> None:
    app = create_app(max_games=2, idle_s=3600)
    client = TestClient(app, base_url="http://localhost")
    ids = [_new(client, env="medarot_ocg_v1").json()["game_id"] for _ in range(2)]
    first = client.get(f"/api/games/{ids[0]}").json()
    r = _new(client, env="medarot_ocg_v1")
    assert r.status_code == 503 and "too many live games (2)" in r.json()["error"]
    app.state.games.idle_s = 0.0  # everything is idle now: the games leave memory
    app.state.games.expire()
    assert len(app.state.games) == 0 and len(app.state.games.store) == 2
    again = client.get(f"/api/games/{ids[0]}")  # and come back from the store by their id
    assert again.status_code == 200
    assert {k: again.json()[k] for k in ("game_id", "moves", "view", "legal")} == {
        k: first[k] for k in ("game_id", "moves", "view", "legal")
    }
    assert _new(client, env="medarot_ocg_v1").status_code == 200
    assert client.get("/api/games/no-such-game").status_code == 404


def test_bad_replays_get_a_json_error(client: TestClient) -> None:
    r = client.post("/api/replays", json={"replay": "hello"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post("/api/replays", json={"replay": "422\n"})
    assert r.status_code == 400 and "must be a JSON object" in r.json()["error"]
    r = client.post("/api/replays", json={"replay": '{"format": "other"}\n'})
    assert r.status_code == 400 and "not a deckgym-replay" in r.json()["error"]


def _recorded(moves: int = 6) -> Any:
    import random

    import numpy as np

    from deckgym.envs.replay import Recorder

    rec = Recorder("mow_v1", seed=2)
    rng = random.Random(2)
    for _ in range(moves):
        mask = rec.env.observe(rec.env.agent_selection)["action_mask"]
        rec.step(int(rng.choice(np.flatnonzero(mask))))
    return rec.finish()


def test_the_replay_viewer_tells_a_seat_each_move_as_that_seat_read_it(client: TestClient) -> None:
    """A seat's replay names no card it could not see: each move is its own sentence, no code label."""
    import random

    from deckgym.agents.play.replays import positions
    from deckgym.envs.replay import Recorder

    rec = Recorder("medarot_ocg_v1", seed=4, mode="beginner")
    rng = random.Random(4)
    while not rec.done and len(rec.replay.actions) < 60:
        mask = rec.env.observe(rec.env.agent_selection)["action_mask"]
        rec.step(rng.choice([i for i, m in enumerate(mask) if m]))
    rep = rec.finish()
    ruleset, states = positions(rep)
    shown = client.post("/api/replays", json={"replay": rep.dumps(), "seat": 0}).json()["positions"]
    hidden = 0
    for k, frame in enumerate(shown[1:]):
        before, action = states[k], rep.actions[k]
        assert "code" not in frame and frame["label"] == ruleset.describe_action(before, 0, action)["text"]
        hidden += frame["label"] != ruleset.describe_action(before, before.current_player, action)["text"]
    assert hidden  # some of seat 1's moves read otherwise to seat 0 (a card placed face down...)


def test_an_edited_replay_gets_a_json_error_not_a_server_error(client: TestClient) -> None:
    """Options the env refuses, or a move the game refuses, are the file's fault: 400 naming it."""
    import dataclasses

    rep = _recorded()
    ok = client.post("/api/replays", json={"replay": rep.dumps()})
    assert ok.status_code == 200 and len(ok.json()["positions"]) == len(rep.actions) + 1
    relabelled = dataclasses.replace(rep, labels=["forged"] * len(rep.labels))
    shown = client.post("/api/replays", json={"replay": relabelled.dumps()}).json()["positions"]
    assert [f["code"] for f in shown[1:]] == list(rep.labels)  # worked out from the moves
    bad_options = dataclasses.replace(rep, kwargs={"max_turns": "soon"})
    r = client.post("/api/replays", json={"replay": bad_options.dumps()})
    assert r.status_code == 400 and "replay options" in r.json()["error"]
    actions = list(rep.actions)
    actions[3] = 10_000  # no such action index
    r = client.post("/api/replays", json={"replay": dataclasses.replace(rep, actions=actions).dumps()})
    assert r.status_code == 400 and r.json()["error"].startswith("step 4:")


def test_the_lobby_is_listed_without_loading_torch_or_a_model() -> None:
    """A fresh server answers GET /api/envs at once: the models' sizes come from their files' settings."""
    import subprocess
    import sys

    code = (
        "import sys; from deckgym.agents.play.server import catalogue; c = catalogue(); "
        "names = [lv['name'] for e in c['envs'] for lvs in e['levels'].values() for lv in lvs]; "
        "print('torch' in sys.modules, 'Medium' in names)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert done.stdout.split() == ["False", "True"], done.stdout + done.stderr

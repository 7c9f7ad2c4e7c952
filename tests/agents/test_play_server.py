"""The play server never blocks, and its controls: undo, hint, resign, rematch; limits on what clients send."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the [play] extra is not installed")
import httpx
from fastapi.testclient import TestClient

from deckgym.agents.play.server import MAX_BODY, create_app
from deckgym.agents.play.session import GameSession, PlayError, level_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def client() -> TestClient:
    return TestClient(create_app(max_games=8), base_url="http://localhost")


def _new(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"opponent": "Beginner", "seed": 3, **body})
    assert r.status_code == 200, r.text
    game: dict[str, Any] = r.json()
    return game


@pytest.fixture()
def slow_server() -> Iterator[str]:
    """``deckgym serve``'s server in its own process, every level played by an AI that thinks 3 s a decision."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.agents.slow_server", str(port), "3"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(f"{base}/api/envs", timeout=60)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        t0 = time.monotonic()
        proc.wait(timeout=30)
        stopped_in = time.monotonic() - t0
    assert proc.returncode == 0, proc.returncode  # SIGTERM stops the server cleanly...
    assert stopped_in < 2.0, stopped_in  # ...and at once, though its AI was busy


def test_other_requests_are_answered_at_once_while_the_ai_thinks(slow_server: str) -> None:
    base = slow_server
    game = httpx.post(f"{base}/api/games", json={"env": "mow_v1", "opponent": "Beginner", "seed": 1}).json()
    gid = game["game_id"]
    answer: dict[str, Any] = {}

    def play_until_the_ai_replies() -> None:
        now = game
        while now["your_turn"]:
            move = now["legal"][0]["index"]
            now = httpx.post(f"{base}/api/games/{gid}/actions", json={"index": move}, timeout=300).json()
            answer.update(now)
            if any(m["who"] == "opponent" for m in now["recent"]):
                return  # the AI has replied once

    poster = threading.Thread(target=play_until_the_ai_replies)
    poster.start()
    for _ in range(300):  # until the person's move is in and the AI thinks
        thinking = httpx.get(f"{base}/api/games/{gid}").json()
        if thinking["ai_thinking"]:
            break
        time.sleep(0.05)
    assert thinking["ai_thinking"] is True and thinking["legal"] == [] and not thinking["your_turn"]
    waits = []
    for path in (f"/api/games/{gid}", "/api/envs", f"/api/games/{gid}"):
        t0 = time.perf_counter()
        r = httpx.get(base + path, timeout=30)
        waits.append(time.perf_counter() - t0)
        assert r.status_code == 200
    busy = httpx.post(f"{base}/api/games/{gid}/undo")
    assert busy.status_code == 409 and "thinking" in busy.json()["error"]
    assert max(waits) < 0.5, waits  # the AI thinks 3 s a decision: nothing waited for it
    poster.join(300)
    assert answer["ai_thinking"] is False


def test_undo_goes_back_to_the_persons_previous_decision(client: TestClient) -> None:
    game = _new(client, env="medarot_ocg_v1", options={"mode": "beginner"})
    gid = game["game_id"]
    assert game["can_undo"] is False
    assert client.post(f"/api/games/{gid}/undo").status_code == 409
    history = []
    for _ in range(4):
        if game["done"]:
            break
        history.append(game)
        game = client.post(f"/api/games/{gid}/actions", json={"index": game["legal"][-1]["index"]}).json()
    assert game["can_undo"]
    for earlier in reversed(history):
        game = client.post(f"/api/games/{gid}/undo").json()
        assert game["view"] == earlier["view"] and game["legal"] == earlier["legal"]
    assert game["can_undo"] is False
    # the replay keeps only the line finally played
    live = client.app.state.games.get(gid)
    assert live.session.replay().actions == live.session._rec.replay.actions
    assert len(live.session.replay().actions) == history[0]["moves"]


def test_a_hint_is_a_legal_move_in_words_with_a_winning_chance(client: TestClient) -> None:
    game = _new(client, env="medarot_parts_v1")
    gid = game["game_id"]
    live = client.app.state.games.get(gid)
    live.session.hint_task = _small_hint(live.session)  # few rollouts keep the test short
    h = client.get(f"/api/games/{gid}/hint").json()
    assert h["index"] in {o["index"] for o in game["legal"]}
    assert h["text"] == next(o["text"] for o in game["legal"] if o["index"] == h["index"])
    assert 0.0 <= h["win_chance"] <= 1.0 and h["rollouts"] == 2 and h["level"] == "Expert"
    assert client.get(f"/api/games/{gid}").json()["view"] == game["view"]  # the game is unchanged


def _small_hint(session: GameSession) -> Any:
    full = session.hint_task
    return lambda worlds=None: full(2)


def test_resign_ends_the_game_as_a_loss_and_rematch_swaps_seats_and_keeps_decks(client: TestClient) -> None:
    game = _new(client, env="mow_v1", seat=0)
    gid = game["game_id"]
    over = client.post(f"/api/games/{gid}/resign").json()
    assert over["done"] and over["result"]["outcome"] == "loss" and over["legal"] == []
    rep = client.get(f"/api/games/{gid}/replay")
    assert rep.status_code == 200 and "resigned" in rep.text
    again = client.post(f"/api/games/{gid}/rematch").json()
    assert again["game_id"] != gid and again["seats"] == [1] and not again["done"]
    old = client.app.state.games.get(gid).session._rec.replay.kwargs["decks"]
    new = client.app.state.games.get(again["game_id"]).session._rec.replay.kwargs["decks"]
    assert new == [old[1], old[0]]


def test_levels_are_taken_by_name_or_spec_and_nothing_else() -> None:
    assert level_of("hard", "mow_v1").spec == "search"
    assert level_of("search:16", "mow_v1").name == "Expert"
    assert level_of("ppo:pretrained", "medarot_ocg_v1", {"mode": "normal"}).name == "Medium"
    for bad in ("search:100000", "ppo:/etc/passwd", "search:4:ppo:pretrained", ""):
        with pytest.raises(PlayError, match="offered: Beginner"):
            level_of(bad, "mow_v1")


def test_oversized_bodies_get_413_and_nothing_starts(client: TestClient) -> None:
    big = b'{"env": "mow_v1", "options": {"x": "' + b"y" * MAX_BODY + b'"}}'
    r = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "kB" in r.json()["error"]
    assert len(client.app.state.games) == 0


def test_the_schema_documents_every_error_the_server_sends(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            codes = set(op["responses"])
            assert "422" not in codes, (method, path)
            assert "413" in codes, (method, path)
            if "{gid}" in path:
                assert "404" in codes, (method, path)
            if "requestBody" in op:
                assert "400" in codes, (method, path)


def test_deckgym_serve_stops_on_ctrl_c_with_status_130() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckgym.agents.cli", "serve", "--port", str(port), "--db", ":memory:"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(600):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=30).status_code == 200:
                    break
            except httpx.TransportError:
                assert proc.poll() is None, proc.communicate()
                time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, (out, err)
    assert "open http://127.0.0.1:" in out and "Traceback" not in err


def test_ai_thinking_is_set_in_every_published_position_where_the_ai_is_to_move() -> None:
    """Also when the person's move is followed by a forced move of theirs, played for them first (OCG)."""
    from deckgym.agents.play.server import LiveGame

    env = "medarot_ocg_v1"
    forced = 0
    for seed in range(6):
        live = LiveGame("g", GameSession(env, {}, "random", seat=seed % 2, seed=seed))
        seen: list[dict[str, Any]] = []
        publish = live.publish

        def publish_and_keep(publish: Any = publish, live: Any = live, seen: list[Any] = seen) -> None:
            publish()
            seen.append({**live.snapshot, "ai_thinking": live.thinking})

        live.publish = publish_and_keep  # type: ignore[method-assign]
        live.run(lambda s: None)  # as the server starts a game: the AI moves first if it is to
        for _ in range(10):
            if live.session.done or not live.session.your_turn:
                break
            after = live.run(lambda s: s.move(s.legal()[0]["index"]))
            forced += after["recent"][1:2] != [] and after["recent"][1]["who"] == "you (the only option)"
        waiting = [s for s in seen if not s["done"] and not s["your_turn"]]
        assert waiting and all(s["ai_thinking"] for s in waiting), seed
        assert not live.read()["ai_thinking"]
    assert forced  # the case of the person's forced move came up

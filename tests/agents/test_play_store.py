"""The table keeps its games (SQLite) and resumes them by id; what a client may send: offered options, Host, body size."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the [play] extra is not installed")
import httpx
from fastapi.testclient import TestClient

from deckgym.agents.play import server
from deckgym.agents.play.server import MAX_BODY, create_app, hosts_for
from deckgym.agents.play.session import GameSession, PlayError
from deckgym.agents.play.store import GameStore

ROOT = Path(__file__).resolve().parents[2]
SAME = ("game_id", "env", "options", "seat", "moves", "view", "legal", "log", "recent", "can_undo", "done")


def _client(db: str | Path = ":memory:", **kw: Any) -> TestClient:
    return TestClient(create_app(max_games=4, db=db, **kw), base_url="http://localhost")


def _play(client: TestClient, game: dict[str, Any], moves: int) -> dict[str, Any]:
    for _ in range(moves):
        if game["done"]:
            break
        game = client.post(
            f"/api/games/{game['game_id']}/actions", json={"index": game["legal"][-1]["index"]}
        ).json()
    return game


def _same(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return {k: (a[k], b[k]) for k in SAME if a[k] != b[k]}


def test_a_game_record_plays_back_to_the_same_position() -> None:
    game = GameSession("medarot_ocg_v1", {"mode": "normal"}, "random", seat=1, seed=11)
    for _ in range(5):
        if not game.your_turn:
            break
        game.play(game.legal()[0]["index"])
    back = GameSession.restore(game.record())
    assert back.payload() == game.payload() and back.record() == game.record()
    back.undo()  # the person's decisions are kept: undo goes back as it would have
    game.undo()
    assert back.payload() == game.payload()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"version": 0}, "not a game record"),
        ({"actions": [10**6]}, "cannot be resumed"),
        ({"env": "no_such_env"}, "unknown env"),
    ],
)
def test_a_broken_record_is_refused_with_a_404(change: dict[str, Any], words: str) -> None:
    record = {**GameSession("mow_v1", {}, "random", seed=2).record(), **change}
    with pytest.raises(PlayError, match=words) as err:
        GameSession.restore(record)
    assert err.value.status == 404


def test_a_new_server_on_the_same_file_resumes_every_game_by_its_id(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    first = _client(db)
    game = first.post("/api/games", json={"env": "mow_v1", "opponent": "Beginner", "seed": 4}).json()
    game = _play(first, game, 3)
    first.app.state.games.store.close()
    again = _client(db)  # a restart: nothing of the first app is left but its file
    resumed = again.get(f"/api/games/{game['game_id']}").json()
    assert resumed["moves"] > 0 and not _same(resumed, game)
    after = _play(again, resumed, 1)
    assert after["moves"] > resumed["moves"]
    assert again.post(f"/api/games/{game['game_id']}/undo").json()["view"] == resumed["view"]


def test_a_game_resumed_on_the_ais_turn_has_its_ai_move_again(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    session = GameSession("medarot_ocg_v1", {"mode": "beginner"}, "random", seat=1, seed=5)
    assert not session.your_turn  # seat 1: the AI holds the first decision and has not moved yet
    store.save("waiting", session.record())
    store.close()
    client = _client(tmp_path / "games.sqlite3")
    for _ in range(200):
        game = client.get("/api/games/waiting").json()
        if game["your_turn"]:
            break
        time.sleep(0.05)
    assert game["your_turn"] and game["moves"] > 0 and not game["ai_thinking"]


def test_the_store_keeps_its_newest_games_only(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.db", keep=3)
    for k in range(5):
        store.save(f"g{k}", {"k": k})
    store.save("g2", {"k": 22})  # saved again: the newest now
    assert len(store) == 3 and store.load("g0") is None and store.load("g1") is None
    assert store.load("g2") == {"k": 22} and store.load("g4") == {"k": 4}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            {"env": "mow_v1", "options": {"max_turns": 10**29}},
            "option 'max_turns' is not offered for mow_v1; offered: decks",
        ),
        (
            {"env": "medarot_ocg_v1", "options": {"mode": "expert"}},
            'mode must be one of "beginner", "normal", "advance"',
        ),
        (
            {"env": "amalogs_v2", "options": {"team_sizes": [5, 5]}},
            "team_sizes must be one of [1, 1], [2, 2], [3, 3]",
        ),
        ({"env": "amalogs_v2", "options": {"duel_cap": 1}}, "offered: team_sizes"),
    ],
)
def test_the_table_takes_only_the_options_its_lobby_offers(body: dict[str, Any], words: str) -> None:
    client = _client()
    r = client.post("/api/games", json={"opponent": "Beginner", **body})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(client.app.state.games) == 0
    ok = client.post(
        "/api/games", json={"env": "amalogs_v2", "options": {"team_sizes": [1, 1]}, "opponent": "Beginner"}
    )
    assert ok.status_code == 200, ok.text


def test_a_request_for_another_host_is_refused() -> None:
    client = _client()
    for host in ("localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
        assert client.get("/api/envs", headers={"host": host}).status_code == 200, host
    for host in ("evil.example", "evil.example:8000", "localhost.evil.example", ""):
        r = client.get("/api/envs", headers={"host": host})
        assert r.status_code == 400 and "does not answer to the Host" in r.json()["error"], host
    assert hosts_for("127.0.0.1") == ("localhost", "127.0.0.1", "[::1]")
    assert hosts_for("192.168.1.5")[-1] == "192.168.1.5" and hosts_for("::1") == (
        "localhost",
        "127.0.0.1",
        "[::1]",
    )
    assert hosts_for("0.0.0.0") == ("*",)
    anyone = _client(hosts=("*",))
    assert anyone.get("/api/envs", headers={"host": "evil.example"}).status_code == 200


def test_a_chunked_body_over_the_limit_gets_413_and_nothing_starts() -> None:
    client = _client()

    def chunks() -> Iterator[bytes]:  # no length given: the server counts as it reads
        yield b'{"env": "mow_v1", "options": {"x": "'
        for _ in range(2 * MAX_BODY // 4096):
            yield b"y" * 4096
        yield b'"}}'

    r = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "kB" in r.json()["error"]
    assert len(client.app.state.games) == 0


class _SlowAgent:
    """Thinks ``seconds`` per decision (sleeping), then plays the first legal move."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset."""

    def act(self, observation: Any, action_mask: Any) -> int:
        """The first legal move, late."""
        time.sleep(self.seconds)
        return int(next(i for i, m in enumerate(action_mask) if m))


def test_resign_is_answered_at_once_while_the_ai_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    class Slow(GameSession):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.agent = _SlowAgent(1.0)

    monkeypatch.setattr(server, "GameSession", Slow)
    client = _client()
    game = client.post(
        "/api/games", json={"env": "mow_v1", "opponent": "Beginner", "seat": 1, "seed": 3}
    ).json()
    gid = game["game_id"]
    assert game["your_turn"]
    import threading

    mover = threading.Thread(
        target=lambda: client.post(f"/api/games/{gid}/actions", json={"index": game["legal"][0]["index"]})
    )
    mover.start()
    for _ in range(100):
        if client.get(f"/api/games/{gid}").json()["ai_thinking"]:
            break
        time.sleep(0.02)
    t0 = time.monotonic()
    r = client.post(f"/api/games/{gid}/resign")
    answered = time.monotonic() - t0
    assert r.status_code == 200 and r.json()["done"] and r.json()["result"]["outcome"] == "loss"
    assert answered < 0.5, answered  # the AI thinks a second a move: the resign did not wait for it
    mover.join(30)
    final = client.get(f"/api/games/{gid}").json()
    assert final["done"] and final["result"]["reason"] == "you resigned" and not final["ai_thinking"]
    assert client.post(f"/api/games/{gid}/resign").status_code == 409


@pytest.fixture()
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(port: int, db: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "deckgym.agents.cli", "serve", "--port", str(port), "--db", str(db)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/envs", timeout=60)
            return proc
        except httpx.TransportError:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.1)
    raise AssertionError("deckgym serve did not start")


def test_deckgym_serve_restarted_mid_game_resumes_it_from_its_url(tmp_path: Path, free_port: int) -> None:
    base, db = f"http://127.0.0.1:{free_port}", tmp_path / "games.sqlite3"
    proc = _serve(free_port, db)
    try:
        game = httpx.post(
            f"{base}/api/games", json={"env": "mow_v1", "opponent": "Beginner", "seed": 8}
        ).json()
        for _ in range(2):
            game = httpx.post(
                f"{base}/api/games/{game['game_id']}/actions", json={"index": game["legal"][0]["index"]}
            ).json()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    proc = _serve(free_port, db)
    try:
        resumed = httpx.get(f"{base}/api/games/{game['game_id']}").json()
        assert not _same(resumed, game)
        page = httpx.get(f"{base}/?game={game['game_id']}")
        assert page.status_code == 200 and "app.js" in page.text  # the game's URL is the page's
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def test_deckgym_serve_refuses_a_db_it_cannot_write_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    done = subprocess.run(
        [sys.executable, "-m", "deckgym.agents.cli", "serve", "--db", str(tmp_path / "file" / "games.db")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--db" in done.stderr, done.stderr


def test_the_move_list_and_each_past_position_are_what_the_person_saw() -> None:
    client = _client()
    game = client.post("/api/games", json={"env": "mow_v1", "opponent": "Beginner", "seed": 9}).json()
    gid, shown = game["game_id"], {game["moves"]: game["view"]}
    for _ in range(6):
        if game["done"]:
            break
        game = client.post(f"/api/games/{gid}/actions", json={"index": game["legal"][0]["index"]}).json()
        shown[game["moves"]] = game["view"]
    moves = client.get(f"/api/games/{gid}/moves").json()["moves"]
    assert len(moves) == game["moves"] and {m["who"] for m in moves} <= {
        "you",
        "you (the only option)",
        "opponent",
    }
    assert (
        game["recent"] and moves[-len(game["recent"]) :] == game["recent"]
    )  # the last ones are the recent moves
    for k, view in shown.items():
        back = client.get(f"/api/games/{gid}/positions/{k}").json()
        assert back["view"] == view and back["moves"] == game["moves"]
    for bad in (-1, game["moves"] + 1):
        r = client.get(f"/api/games/{gid}/positions/{bad}")
        assert r.status_code == 400 and f"0..{game['moves']}" in r.json()["error"]
    assert client.get(f"/api/games/{gid}/positions/x").status_code == 400
    assert client.get(f"/api/games/{gid}").json()["view"] == game["view"]  # looking back changed nothing
    client.post(f"/api/games/{gid}/undo")
    after = client.get(f"/api/games/{gid}").json()
    assert len(client.get(f"/api/games/{gid}/moves").json()["moves"]) == after["moves"]

"""``deckgym serve``: a local web page to play any agent and to watch replays (FastAPI + uvicorn).

The page (``agents/play/static/``: plain HTML, CSS and JavaScript, no build step) talks to a
small JSON API, which is also the contract for tests and other clients:

``GET /api/envs``
    the envs, their modes and options, the starter decks and the opponent levels; an env's
    ``pretrained`` lists the modes (``""`` for none) where ``ppo:pretrained`` has a shipped model.
``POST /api/games`` ``{"env", "options", "opponent", "seat", "seed"}``
    a new game; the agent moves first if it holds the first decision. Returns the game object
    ``{"game_id", "view", "legal": [{"index", "label"}], "your_turn", "done", "result", ...}``.
``GET /api/games/{id}``
    the same object.
``POST /api/games/{id}/actions`` ``{"index": i}``
    the person's move and the agent's replies, up to the person's next decision or the end;
    the game object plus ``events``, the log lines in between, and ``records``, the same
    entries as structured events (``envs.core.events``) as the person's seat may see them.
``GET /api/games/{id}/replay``
    the finished game as a replay file (JSON lines), for ``deckgym replay`` or the page's
    viewer (409 while the game is on: the file's seed and decks would reveal hidden cards).
``POST /api/replays`` ``{"replay": "<file text>", "seat": k | null}``
    a replay re-simulated into positions (the seat's view, or the whole board as text).

Every request is validated: bad JSON or fields, an unknown env, option, deck or opponent, an
illegal index or a move out of turn get ``{"error": "..."}`` with status 400, 404 or 409, and
the game is unchanged. The agent thinks in a worker thread, off the event loop, one move at a
time per game. Game ids come from ``secrets``; live games are bounded and idle ones expire. A
payload holds only the person's per-seat view, never the state.
"""

from __future__ import annotations

import secrets
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from agents.play.session import DEFAULT_LEVEL, LEVELS, GameSession, PlayError

STATIC = Path(__file__).with_name("static")


class NewGame(BaseModel):
    """The body of ``POST /api/games``."""

    model_config = ConfigDict(extra="forbid")
    env: str
    options: dict[str, Any] = Field(default_factory=dict)
    opponent: str = DEFAULT_LEVEL
    seat: int | str = 0
    seed: int | None = None


class Move(BaseModel):
    """The body of ``POST /api/games/{id}/actions``."""

    model_config = ConfigDict(extra="forbid")
    index: int


class ReplayText(BaseModel):
    """The body of ``POST /api/replays``."""

    model_config = ConfigDict(extra="forbid")
    replay: str
    seat: int | None = None


@cache
def catalogue() -> dict[str, Any]:
    """What the lobby offers: envs with modes, options and starter decks, and the opponent levels."""
    import envs
    from agents.pretrained import SPEC, model_key, shipped
    from envs.medarot_ocg.config import MODES

    have = set(shipped())
    out = []
    for name in envs.names():
        modes = list(MODES) if name == "medarot_ocg_v0" else []
        decks: dict[str, list[str]] = {}
        for mode in modes or [""]:
            raw = envs.make(name, **({"mode": mode} if mode else {})).unwrapped
            decks[mode] = list(getattr(raw.ruleset, "starter_names", []))
        options: dict[str, Any] = {}
        if name == "amalogs_v0":
            options["team_sizes"] = [[1, 1], [2, 2], [3, 3]]
        raw = envs.make(name).unwrapped
        out.append(
            {
                "name": name,
                "modes": modes,
                "decks": decks,
                "options": options,
                "players": len(raw.possible_agents),
                # the modes (or "") with a shipped model: the "ppo:pretrained" level is offered there
                "pretrained": [m for m in modes or [""] if model_key(name, {"mode": m} if m else {}) in have],
                "doc": (raw.ruleset.__class__.__doc__ or "").strip().splitlines()[0],
            }
        )
    levels = list(LEVELS) + ([SPEC] if have else [])
    return {"envs": out, "levels": levels, "default_level": DEFAULT_LEVEL}


class Games:
    """The live games: at most ``limit``; a game idle for ``idle_s`` seconds is dropped."""

    def __init__(self, limit: int, idle_s: float) -> None:
        self.limit, self.idle_s = limit, idle_s
        self._games: dict[str, tuple[GameSession, threading.Lock, list[float]]] = {}
        self._lock = threading.Lock()

    def expire(self) -> None:
        """Drop the games idle for longer than ``idle_s``."""
        now = time.monotonic()
        with self._lock:
            for gid in [g for g, (_, _, seen) in self._games.items() if now - seen[0] > self.idle_s]:
                del self._games[gid]

    def add(self, session: GameSession) -> tuple[str, threading.Lock]:
        """Keep ``session`` under a new unguessable id (returned with its lock); 503 past the limit."""
        self.expire()
        with self._lock:
            if len(self._games) >= self.limit:
                raise PlayError(
                    f"too many live games ({self.limit}); finish one or wait for idle ones to expire", 503
                )
            gid = secrets.token_urlsafe(16)
            lock = threading.Lock()
            self._games[gid] = (session, lock, [time.monotonic()])
        return gid, lock

    def get(self, gid: str) -> tuple[GameSession, threading.Lock]:
        """The game ``gid`` and its lock; ``PlayError`` (404) when there is none."""
        self.expire()
        with self._lock:
            if gid not in self._games:
                raise PlayError(f"no game {gid!r} (unknown, finished long ago, or expired)", 404)
            session, lock, seen = self._games[gid]
            seen[0] = time.monotonic()
        return session, lock

    def __len__(self) -> int:
        return len(self._games)


def _game(gid: str, session: GameSession, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    out = {"game_id": gid, **session.payload()}
    if events is not None:
        out["events"] = [e["text"] for e in events]
        out["records"] = events
    return out


def create_app(max_games: int = 64, idle_s: float = 1800.0) -> FastAPI:
    """The web app: the page, its static files and the JSON API (see the module docs)."""
    app = FastAPI(title="deckgym", summary="play deckgym agents and watch replays", docs_url="/api/docs")
    games = Games(max_games, idle_s)
    app.state.games = games

    @app.exception_handler(PlayError)
    async def _play_error(_: Request, exc: PlayError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
            parts.append(f"{where}: {e.get('msg', 'invalid')}")
        return JSONResponse({"error": "bad request: " + "; ".join(parts)}, status_code=400)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/envs")
    async def list_envs() -> dict[str, Any]:
        return await run_in_threadpool(catalogue)

    @app.post("/api/games")
    async def new_game(body: NewGame) -> dict[str, Any]:
        def start() -> dict[str, Any]:
            session = GameSession(body.env, body.options, body.opponent, body.seat, body.seed)
            gid, lock = games.add(session)
            with lock:
                events = session.opponent_moves()
                return _game(gid, session, events)

        return await run_in_threadpool(start)

    @app.get("/api/games/{gid}")
    async def get_game(gid: str) -> dict[str, Any]:
        session, lock = games.get(gid)
        with lock:
            return _game(gid, session)

    @app.post("/api/games/{gid}/actions")
    async def act(gid: str, body: Move) -> dict[str, Any]:
        session, lock = games.get(gid)

        def move() -> dict[str, Any]:
            with lock:
                events = session.play(body.index)
                return _game(gid, session, events)

        return await run_in_threadpool(move)

    @app.get("/api/games/{gid}/replay")
    async def game_replay(gid: str) -> PlainTextResponse:
        session, lock = games.get(gid)
        with lock:
            if not session.done:
                # the file holds the seed and both decks, from which the hidden cards follow
                raise PlayError("the replay of a game is available once the game is over", 409)
            text = session.replay().dumps()
        return PlainTextResponse(
            text,
            media_type="application/x-ndjson",
            headers={
                "Content-Disposition": f'attachment; filename="{session.env_name}-{session.seed}.jsonl"'
            },
        )

    @app.post("/api/replays")
    async def open_replay(body: ReplayText) -> dict[str, Any]:
        return await run_in_threadpool(_replay_positions, body.replay, body.seat)

    return app


def _replay_positions(text: str, seat: int | None) -> dict[str, Any]:
    """A replay's positions for the viewer: the seat's view, or the whole board as text."""
    from agents.play.replays import ReplayError, positions
    from envs.core.errors import StateError
    from envs.replay import Replay

    try:
        rep = Replay.loads(text, "the replay")
        ruleset, states = positions(rep)
    except (StateError, ReplayError) as exc:
        raise PlayError(str(exc)) from None
    n = states[0].num_players
    if seat is not None and not 0 <= seat < n:
        raise PlayError(f"seat must be in 0..{n - 1} for {rep.env}, got {seat}")
    # the labels are worked out from the moves, not read from the file (which may have been edited)
    labels = [ruleset.encoder.action_label(a, st) for a, st in zip(rep.actions, states, strict=False)]
    frames = []
    for k, st in enumerate(states):
        frame: dict[str, Any] = {
            "label": labels[k - 1] if k else "start",
            "agent": rep.agents[k - 1] if k else "",
        }
        if seat is None:
            frame["text"] = ruleset.render_text(st, None)
        else:
            frame["view"] = ruleset.view(st, seat)
        frames.append(frame)
    return {"env": rep.env, "seat": seat, "result": rep.result, "positions": frames}

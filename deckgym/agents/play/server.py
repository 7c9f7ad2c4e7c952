"""``deckgym serve``: a local web page to play the AI and to watch replays (FastAPI + uvicorn).

The page (``agents/play/static/``: plain HTML, CSS and JavaScript, no build step) talks to a
small JSON API, which is also the contract for tests and other clients (``/api/docs`` shows
its OpenAPI schema, every error status included):

``GET /api/envs``
    the envs (names and titles in words, modes, starter decks, options), each env's levels
    (``{"name", "spec", "about", "score"}``: Beginner, Easy, Medium where a model is shipped,
    Hard, Expert) and its "How to play" text.
``POST /api/games`` ``{"env", "options", "opponent", "seat", "seed"}``
    a new game against a level (its name or agent spec); the AI moves first if it holds the
    first decision. Returns the game object: ``game_id``, ``view`` (the person's per-seat
    view), ``decision_text``, ``legal`` (``[{"index", "label", "text", "places"}]``: each move
    as a code, a sentence and the board places it concerns), ``log`` (the English lines of
    what happened, as the person's seat may read them), ``recent`` (the moves since the
    person's last decision, in words), ``your_turn``, ``ai_thinking``, ``can_undo``, ``done``,
    ``result``.
``GET /api/games/{id}``
    the same object, answered at once: while the AI thinks it is the latest position, with
    ``"ai_thinking": true``.
``POST /api/games/{id}/actions`` ``{"index": i}``
    the person's move and the AI's replies, up to the person's next decision or the end; the
    game object plus ``events`` and ``records`` (the log entries in between).
``POST /api/games/{id}/undo``, ``GET /api/games/{id}/hint``, ``POST /api/games/{id}/resign``,
``POST /api/games/{id}/rematch``
    back to the person's previous decision; the move the strongest level would play with its
    estimated winning chance; give up; a new game with the same decks, seats swapped.
``GET /api/games/{id}/moves``, ``GET /api/games/{id}/positions/{k}``
    every move so far as the person read it (the move list), and the person's view of the
    position after the first ``k`` moves (to look back; the game does not change).
``GET /api/games/{id}/replay``
    the finished game as a replay file (JSON lines), for ``deckgym replay`` or the page's
    viewer (409 while the game is on: the file's seed and decks would reveal hidden cards).
``POST /api/replays`` ``{"replay": "<file text>", "seat": k | null}``
    a replay re-simulated into positions (the seat's view, or the whole board as text).

**Never blocking.** Each game's AI runs in a worker thread, never on the event loop, and a
reader never waits for it: the game object is published after every move, and ``GET`` returns
the latest one. A move, undo or resign while the AI thinks is a 409.

**What a client may ask.** Opponents come only from the levels: no client-given agent specs,
paths or parameters. A game takes only the options the lobby offers (``check_offered``).
Bodies over 64 kB are refused with 413 (replay uploads: 2 MB), a chunked one too. Types are
strict (``index`` is a JSON integer). A request whose ``Host`` is not one of the server's
names gets 400 (``HostCheck``: a page of another site cannot reach the table through DNS
rebinding). Errors are
``{"error": "..."}`` with status 400, 404, 409, 413 or 503, and the game is unchanged. Game ids
come from ``secrets``; live games are bounded and idle ones leave memory.

**Games that last.** Every game is kept in SQLite (``agents.play.store``) as its record; a
game not in memory (idle, or from before a restart) is resumed by its id, and its AI goes on
if it was the AI's move. Resign is taken at any time, even while the AI thinks. A payload holds only the
person's per-seat view, never the state.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, create_model, field_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckgym import envs
from deckgym.agents.play.session import (
    DEFAULT_LEVEL,
    LEVELS,
    GameSession,
    Level,
    PlayError,
    level_of,
    levels_for,
)
from deckgym.agents.play.store import GameStore, default_path

STATIC = Path(__file__).with_name("static")
#: The largest request body, and the largest for a replay upload (bytes).
MAX_BODY = 64 * 1024
MAX_REPLAY_BODY = 2 * 1024 * 1024
#: The measured strength of each level (``scripts/levels.py`` writes it).
LEVEL_FILE = Path(__file__).with_name("levels.json")


class Error(BaseModel):
    """Every error answer: what is wrong and what is allowed."""

    error: str


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    what = {
        400: "bad input: a field of the wrong type, an unknown env, option, level or seat, an illegal move",
        404: "no such game (unknown, or expired)",
        409: "not now: not your turn, the AI is thinking, the game is over (or still on, for a replay)",
        413: "the request body is too large",
        503: "too many live games",
    }
    return {c: {"model": Error, "description": what[c]} for c in codes}


def _choices(values: list[str]) -> Any:
    """A ``Literal`` of ``values``: the schema lists them, and anything else is a 400."""
    return Literal.__getitem__(tuple(values))


LevelName = _choices([lv.name for lv in LEVELS] + [lv.spec for lv in LEVELS])


class NewGame(BaseModel):
    """The body of ``POST /api/games``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    env: str = Field(description="an env name, as GET /api/envs lists them")  # narrowed by new_game_body
    options: dict[str, Any] = Field(default_factory=dict, description="the env's options: mode, decks...")
    opponent: LevelName = Field(  # type: ignore[valid-type]
        DEFAULT_LEVEL, description="a level's name or agent spec (GET /api/envs lists the env's levels)"
    )
    seat: Literal[0, 1, "random"] = 0
    seed: int | None = Field(None, ge=0, le=2**63 - 1)

    @field_validator("seat", mode="before")
    @classmethod
    def _no_bool_seat(cls, value: Any) -> Any:
        """A JSON true or false is not a seat (Python counts it as 1 or 0)."""
        if isinstance(value, bool):
            raise ValueError(f"seat must be 0, 1 or 'random', got {json.dumps(value)}")  # noqa: TRY004 (pydantic reports ValueError)
        return value


def new_game_body() -> type[NewGame]:
    """``NewGame`` with ``env`` one of the envs registered now; any other name is a 400.

    Each app is built with it, so a ruleset that ``envs.games.register`` added before the app
    was built is offered too.
    """
    env = (_choices(envs.names()), Field(description="an env name, as GET /api/envs lists them"))
    return create_model("NewGame", __base__=NewGame, __doc__=NewGame.__doc__, env=env)


class Move(BaseModel):
    """The body of ``POST /api/games/{id}/actions``."""

    model_config = ConfigDict(extra="forbid")
    index: StrictInt = Field(ge=0, description="the index of one of the game's legal moves")


class ReplayText(BaseModel):
    """The body of ``POST /api/replays``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    replay: str
    seat: int | None = Field(None, ge=0)


def check_offered(env: str, options: dict[str, Any]) -> None:
    """``PlayError`` (400) for an option the lobby does not offer, or a value it does not list.

    The table takes the options a person chooses in the lobby (``GET /api/envs``): the mode, the
    values of the options its variants vary (such as AMALOGS's team sizes) and the decks. Caps
    such as ``max_turns`` stay at the env's defaults: a client cannot start a game that never ends.
    """
    from deckgym.envs.games import game

    declared = game(env)
    offered = {k: list(v) for k, v in declared.choices().items()}
    allowed = [*offered, *(["decks"] if declared.decks else [])]
    for key, value in options.items():
        if key not in allowed:
            names = ", ".join(allowed) or "none"
            raise PlayError(f"option {key!r} is not offered for {env}; offered: {names}")
        if key in offered and not any(_same_value(value, v) for v in offered[key]):
            listed = ", ".join(json.dumps(list(v) if isinstance(v, tuple) else v) for v in offered[key])
            raise PlayError(f"{key} must be one of {listed} for {env}, got {json.dumps(value)}")


def _same_value(a: Any, b: Any) -> bool:
    """A JSON value equal to a declared one (a list equals the tuple of the same items)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return type(a) is type(b) and a == b


def _scores() -> dict[str, Any]:
    """The measured levels (``levels.json``), or nothing when it was not measured."""
    try:
        data: dict[str, Any] = json.loads(LEVEL_FILE.read_text())
    except FileNotFoundError:
        return {}
    return data


def _level_entry(lv: Level, measured: dict[str, Any]) -> dict[str, Any]:
    """A level for the lobby: its name, spec and words, its score against Easy and its reply times."""
    return {
        "name": lv.name,
        "spec": lv.spec,
        "about": lv.about,
        "score": measured.get("score"),
        "measured": {k: v for k, v in measured.items() if k != "spec"} or None,
    }


def catalogue() -> dict[str, Any]:
    """What the lobby offers: every registered game in words with modes, options, decks, levels and help."""
    from deckgym import envs

    return _catalogue(tuple(envs.names()))


def _game_entry(game: Any, measured: dict[str, Any]) -> dict[str, Any]:
    """One game of the lobby, from its declaration (``envs.games.Game``)."""
    from deckgym import envs

    modes = game.modes
    decks: dict[str, list[str]] = {}
    levels: dict[str, list[dict[str, Any]]] = {}
    for key, opts in game.keyed():
        mode = opts.get("mode", "")
        decks[mode] = list(getattr(envs.ruleset(game.name, **opts), "starter_names", []))
        levels[mode] = [
            _level_entry(lv, measured.get(key, {}).get(lv.name) or {}) for lv in levels_for(game.name, opts)
        ]
    options = {
        k: [list(v) if isinstance(v, tuple) else v for v in vs]
        for k, vs in game.choices().items()
        if k != "mode"
    }
    titles = {v.options.get("mode"): v.title or v.tag for v in game.variants}
    return {
        "name": game.name,
        "title": game.title,
        "modes": modes,
        "mode_titles": {m: titles.get(m) or m for m in modes},
        "decks": decks,
        "options": options,
        "players": envs.ruleset(game.name).num_players,
        "levels": levels,
        "help": game.help_text(),
    }


@cache
def _catalogue(names: tuple[str, ...]) -> dict[str, Any]:
    from deckgym.envs.games import game

    measured = _scores().get("levels", {})
    out = [_game_entry(game(name), measured) for name in names]
    return {
        "envs": out,
        "levels": [lv.name for lv in LEVELS],
        "default_level": DEFAULT_LEVEL,
        "measured": {k: v for k, v in _scores().items() if k != "levels"},
    }


class LiveGame:
    """A game on the server: its session, the latest published game object, and who is busy.

    Only the holder of ``lock`` changes the session; readers take ``snapshot``, which the
    holder replaces (one assignment) after every move. ``thinking`` is set while the AI plays.
    With a ``store``, the game's record is kept after the person's move and after the AI's.
    """

    def __init__(self, gid: str, session: GameSession, store: GameStore | None = None) -> None:
        self.gid = gid
        self.session = session
        self.store = store
        self.lock = threading.Lock()
        self.thinking = False
        self.seen = time.monotonic()
        self.snapshot: dict[str, Any] = {}
        self.publish()

    def publish(self) -> None:
        """Publish the session's position as the game object (called by the lock's holder)."""
        self.snapshot = {"game_id": self.gid, **self.session.payload(), "ai_thinking": self.thinking}

    def save(self) -> None:
        """Keep the game's record in the store (called by the lock's holder)."""
        if self.store is not None:
            self.store.save(self.gid, self.session.record())

    def read(self) -> dict[str, Any]:
        """The latest game object (never waits)."""
        return {**self.snapshot, "ai_thinking": self.thinking}

    def hold(self) -> None:
        """Take the lock without waiting; 409 when a move is being played."""
        if not self.lock.acquire(blocking=False):
            raise PlayError("the AI is thinking; wait for its move", 409)

    def run(self, change: Any) -> dict[str, Any]:
        """``change(session)`` then the AI's replies (in this worker thread); the game object.

        The AI's moves are published one by one, so readers see them as they come.
        """
        self.hold()
        try:
            before = list(self.session.game.events)
            change(self.session)
            self.thinking = self.session.moves_pending()
            self.publish()
            self.save()
            self.session.opponent_moves(on_step=self._moved)
            self.thinking = False
            self.publish()
            self.save()
            events = self.session.events_since(before)
        finally:
            self.thinking = False
            self.lock.release()
        return {**self.snapshot, "events": [e["text"] for e in events], "records": events}

    def _moved(self) -> None:
        """After each move of the AI's turn: publish, the AI still thinking unless the person decides now."""
        self.thinking = not self.session.done and not self.session.your_turn
        self.publish()

    def resign(self) -> dict[str, Any]:
        """The person gives up, at once: while the AI thinks, it stops after the move it is on."""
        if self.lock.acquire(blocking=False):
            self.lock.release()
            return self.run(lambda s: s.resign())
        if self.session.done:
            raise PlayError("the game is over", 409)
        self.session.resigned = True  # the AI's loop ends at its next check; its thread publishes and saves
        return {
            **self.snapshot,
            "done": True,
            "your_turn": False,
            "legal": [],
            "result": self.session.result(),
        }


class Games:
    """The live games: at most ``limit``; a game idle for ``idle_s`` seconds leaves memory.

    With a ``store`` every game is kept there too, and a game that is not in memory (idle, or
    from before a restart) is resumed from it by its id.
    """

    def __init__(self, limit: int, idle_s: float, store: GameStore | None = None) -> None:
        self.limit, self.idle_s, self.store = limit, idle_s, store
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()

    def expire(self) -> None:
        """Drop the games idle for longer than ``idle_s`` (never one whose AI is thinking)."""
        now = time.monotonic()
        with self._lock:
            for gid in [g for g, x in self._games.items() if now - x.seen > self.idle_s and not x.thinking]:
                del self._games[gid]

    def _check_room(self) -> None:
        """503 when ``limit`` games are live (called under the lock)."""
        if len(self._games) >= self.limit:
            raise PlayError(
                f"too many live games ({self.limit}); finish one or wait for idle ones to expire", 503
            )

    def add(self, session: GameSession) -> LiveGame:
        """Keep ``session`` under a new unguessable id; 503 past the limit."""
        self.expire()
        with self._lock:
            self._check_room()
            game = LiveGame(secrets.token_urlsafe(16), session, self.store)
            self._games[game.gid] = game
        return game

    def get(self, gid: str) -> LiveGame:
        """The game ``gid``, resumed from the store when it is not in memory; ``PlayError`` (404) when there is none."""
        self.expire()
        with self._lock:
            game = self._games.get(gid)
        if game is None:
            game = self._resume(gid)
        game.seen = time.monotonic()
        return game

    def _resume(self, gid: str) -> LiveGame:
        """Game ``gid`` from the store, its AI set thinking again if the AI was to move."""
        record = self.store.load(gid) if self.store is not None else None
        if record is None:
            raise PlayError(f"no game {gid!r} (unknown, or expired)", 404)
        session = GameSession.restore(record)
        with self._lock:
            game = self._games.get(gid)  # resumed by another request meanwhile
            if game is not None:
                return game
            self._check_room()
            game = LiveGame(gid, session, self.store)
            self._games[gid] = game
            if not session.done and not session.your_turn:
                game.thinking = True
                threading.Thread(target=game.run, args=(lambda s: None,), daemon=True).start()
        return game

    def __len__(self) -> int:
        return len(self._games)


class BodyLimit:
    """ASGI middleware: a request body over its limit gets 413 before anything reads it.

    A body without a length (chunked) is counted as it arrives: once it passes the limit, the
    app reads an end of the request and whatever it would answer is replaced by the 413.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, limits: dict[str, int] | None = None) -> None:
        self.app, self.limit, self.limits = app, limit, dict(limits or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or answer 413 once its body is known to be too large."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope["path"], self.limit)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(limit)(scope, receive, send)
            return
        seen = 0
        over = False

        async def counted() -> Message:
            nonlocal seen, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                over = True
                return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def answer(message: Message) -> None:
            if not over:
                await send(message)

        await self.app(scope, counted, answer)
        if over:
            await _too_large(limit)(scope, receive, send)


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"error": f"the request body is over {limit // 1024} kB"}, status_code=413)


#: The names a server bound to this machine answers to (the Host header of every request).
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")


class HostCheck:
    """ASGI middleware: a request whose Host header names another server gets a 400 (DNS rebinding).

    ``hosts`` are the names (without a port) the server answers to; ``("*",)`` takes any.
    """

    def __init__(self, app: ASGIApp, hosts: tuple[str, ...] = LOCAL_HOSTS) -> None:
        self.app, self.hosts = app, tuple(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on when its Host is one of ``hosts``, else answer 400."""
        if scope["type"] != "http" or "*" in self.hosts:
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1").lower()
        name = host[: host.find("]") + 1] if host.startswith("[") else host.split(":", 1)[0]
        if name in self.hosts:
            await self.app(scope, receive, send)
            return
        allowed = ", ".join(self.hosts)
        error = f"this server does not answer to the Host {host!r}; it answers to: {allowed}"
        await JSONResponse({"error": error}, status_code=400)(scope, receive, send)


def hosts_for(bind: str) -> tuple[str, ...]:
    """The Host names a server bound to address ``bind`` answers to.

    Bound to this machine (a loopback address, the default), only its local names; bound to one
    address, that address too; bound to every address (``0.0.0.0``, ``::``), any name, since the
    person serving their network chose to.
    """
    if bind in ("0.0.0.0", "::", ""):
        return ("*",)
    name = f"[{bind}]" if ":" in bind and not bind.startswith("[") else bind
    return LOCAL_HOSTS if name in LOCAL_HOSTS else (*LOCAL_HOSTS, name.lower())


def create_app(
    max_games: int = 64,
    idle_s: float = 1800.0,
    db: str | Path = ":memory:",
    hosts: tuple[str, ...] = LOCAL_HOSTS,
) -> FastAPI:
    """The web app: the page, its static files and the JSON API (see the module docs).

    Args:
        max_games: games in memory at once (more get 503 until some are idle).
        idle_s: seconds after which an idle game leaves memory (it stays in the store).
        db: the SQLite file that keeps the games (``":memory:"``: for the process's life).
        hosts: the Host names the server answers to (``hosts_for``); ``("*",)`` for any.
    """
    app = FastAPI(title="deckgym", summary="play the deckgym AI and watch replays", docs_url="/api/docs")
    games = Games(max_games, idle_s, GameStore(db))
    app.state.games = games
    app.add_middleware(BodyLimit, limit=MAX_BODY, limits={"/api/replays": MAX_REPLAY_BODY})
    app.add_middleware(HostCheck, hosts=hosts)

    _error_handlers(app)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/envs", responses=_errors(413))
    async def list_envs() -> dict[str, Any]:
        return await run_in_threadpool(catalogue)

    async def new_game(body: NewGame) -> dict[str, Any]:
        def start() -> dict[str, Any]:
            check_offered(body.env, body.options)
            level = level_of(body.opponent, body.env, body.options)
            session = GameSession(body.env, body.options, level.spec, body.seat, body.seed)
            return games.add(session).run(lambda s: None)

        return await run_in_threadpool(start)

    new_game.__annotations__["body"] = new_game_body()  # the envs registered when the app is built
    app.post("/api/games", responses=_errors(400, 413, 503))(new_game)

    @app.get("/api/games/{gid}", responses=_errors(404, 413))
    async def get_game(gid: str) -> dict[str, Any]:
        return games.get(gid).read()

    @app.post("/api/games/{gid}/actions", responses=_errors(400, 404, 409, 413))
    async def act(gid: str, body: Move) -> dict[str, Any]:
        return await run_in_threadpool(games.get(gid).run, lambda s: s.move(body.index))

    _control_routes(app, games)

    _replay_routes(app, games)

    _schema_without_422(app)
    return app


def _error_handlers(app: FastAPI) -> None:
    """Every error as ``{"error": text}`` with its status: play errors, HTTP errors, bad bodies (400)."""

    @app.exception_handler(PlayError)
    async def _play_error(_: Request, exc: PlayError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        # a body that is not JSON at all, an unknown path, a wrong method: the same error shape
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
            parts.append(f"{where}: {e.get('msg', 'invalid')}")
        return JSONResponse({"error": "bad request: " + "; ".join(parts)}, status_code=400)


def _replay_routes(app: FastAPI, games: Games) -> None:
    """A finished game's replay file, and the positions of an uploaded one."""

    @app.get("/api/games/{gid}/replay", responses=_errors(404, 409, 413))
    async def game_replay(gid: str) -> PlainTextResponse:
        game = games.get(gid)
        snap = game.read()
        if not snap.get("done"):
            # the file holds the seed and both decks, from which the hidden cards follow
            raise PlayError("the replay of a game is available once the game is over", 409)
        session = game.session
        text = await run_in_threadpool(lambda: session.replay().dumps())
        return PlainTextResponse(
            text,
            media_type="application/x-ndjson",
            headers={
                "Content-Disposition": f'attachment; filename="{session.env_name}-{session.seed}.jsonl"'
            },
        )

    @app.post("/api/replays", responses=_errors(400, 413))
    async def open_replay(body: ReplayText) -> dict[str, Any]:
        return await run_in_threadpool(_replay_positions, body.replay, body.seat)


def _schema_without_422(app: FastAPI) -> None:
    """The OpenAPI schema with the 400 answers the server gives for bad bodies (not FastAPI's 422)."""

    def openapi() -> dict[str, Any]:
        """The schema, built once."""
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
            for ops in schema.get("paths", {}).values():
                for op in ops.values():
                    op.get("responses", {}).pop("422", None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _control_routes(app: FastAPI, games: Games) -> None:
    """The person's controls of a game: undo, resign, hint and rematch."""

    @app.post("/api/games/{gid}/undo", responses=_errors(404, 409, 413))
    async def undo(gid: str) -> dict[str, Any]:
        return await run_in_threadpool(games.get(gid).run, lambda s: s.undo())

    @app.post("/api/games/{gid}/resign", responses=_errors(404, 409, 413))
    async def resign(gid: str) -> dict[str, Any]:
        return await run_in_threadpool(games.get(gid).resign)

    @app.get("/api/games/{gid}/hint", responses=_errors(404, 409, 413))
    async def hint(gid: str) -> dict[str, Any]:
        game = games.get(gid)

        def advise() -> dict[str, Any]:
            game.hold()  # a consistent position; the hint is worked out on a copy after release
            try:
                think = game.session.hint_task()
            finally:
                game.lock.release()
            return think()

        return await run_in_threadpool(advise)

    @app.get("/api/games/{gid}/moves", responses=_errors(404, 413))
    async def moves(gid: str) -> dict[str, Any]:
        return {"game_id": gid, "moves": games.get(gid).session.history()}

    @app.get("/api/games/{gid}/positions/{k}", responses=_errors(400, 404, 413))
    async def position(gid: str, k: int) -> dict[str, Any]:
        game = games.get(gid)
        return {"game_id": gid, **await run_in_threadpool(game.session.position, k)}

    @app.post("/api/games/{gid}/rematch", responses=_errors(404, 409, 413, 503))
    async def rematch(gid: str) -> dict[str, Any]:
        game = games.get(gid)

        def again() -> dict[str, Any]:
            return games.add(game.session.rematch()).run(lambda s: None)

        return await run_in_threadpool(again)


def _replay_positions(text: str, seat: int | None) -> dict[str, Any]:
    """A replay's positions for the viewer: the seat's view, or the whole board as text."""
    from deckgym.agents.play.replays import ReplayError, positions
    from deckgym.envs.core.errors import StateError
    from deckgym.envs.replay import Replay

    try:
        rep = Replay.loads(text, "the replay")
        ruleset, states = positions(rep)
    except (StateError, ReplayError) as exc:
        raise PlayError(str(exc)) from None
    n = states[0].num_players
    if seat is not None and not 0 <= seat < n:
        raise PlayError(f"seat must be in 0..{n - 1} for {rep.env}, got {seat}")
    # each move is worked out from the game, not read from the file (which may have been edited):
    # in words as the seat reads it (another seat's hidden card is "a card"), or, for the whole
    # board, as its mover reads it, with the compact code beside it
    frames = []
    for k, st in enumerate(states):
        frame: dict[str, Any] = {"label": "start", "agent": rep.agents[k - 1] if k else ""}
        if k:
            before, action = states[k - 1], rep.actions[k - 1]
            reader = before.current_player if seat is None else seat
            frame["label"] = ruleset.describe_action(before, reader, action)["text"]
            if seat is None:
                frame["code"] = ruleset.encoder.action_label(action, before)
        if seat is None:
            frame["text"] = ruleset.render_text(st, None)
        else:
            frame["view"] = ruleset.view(st, seat)
        frames.append(frame)
    return {"env": rep.env, "seat": seat, "result": rep.result, "positions": frames}


def serve(host: str, port: int, max_games: int, db: str | Path | None = None) -> int:
    """Run the server until SIGTERM (exit 0, within about a second) or Ctrl-C (exit 130)."""
    import os
    import signal

    import uvicorn

    class Server(uvicorn.Server):
        stopped_by: int | None = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.stopped_by = sig
            self.should_exit = self.force_exit = True

    config = uvicorn.Config(
        create_app(max_games=max_games, db=default_path() if db is None else db, hosts=hosts_for(host)),
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=1,
        lifespan="off",  # the app has no start-up or shut-down work: a stop has nothing to cancel
    )
    server = Server(config)
    asyncio.run(server.serve())
    code = 130 if server.stopped_by == signal.SIGINT else 0
    # a worker thread may still be in an AI's move: nothing of it is needed any more
    os._exit(code)

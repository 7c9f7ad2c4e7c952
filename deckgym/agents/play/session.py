"""One game between a person and an agent: the object the terminal and the web server both drive.

    s = GameSession("medarot_ocg_v1", {"mode": "beginner"}, opponent="Hard", seat=0, seed=3)
    while not s.done:
        print(s.view()["board"], [o["text"] for o in s.legal()])
        s.play(s.legal()[0]["index"])     # the person's move, then the agent's replies
    s.replay().save("game.jsonl")

The person holds one side: one seat, or every seat of one team in AMALOGS. What the session
shows is the per-seat view (``envs.core.view``) of the person's seat that decides now (or its
first seat), never the whole state, and every move in words as that seat may read it
(``envs.core.describe``). A decision with a single option is played for the person and logged.

The person may ``undo`` back to their previous decision (the replay keeps only the line finally
played), ask for a ``hint`` (the strongest level's move and its estimated winning chance), or
``resign``. A bad request raises ``PlayError`` and changes nothing.
"""

from __future__ import annotations

import copy
import functools
import importlib
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from deckgym import envs
from deckgym.agents.arena import sides
from deckgym.agents.base import bind
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.events import events_for, line_for
from deckgym.envs.replay import Recorder, Replay


@dataclass(frozen=True)
class Level:
    """An opponent a person can choose: a name for people and the agent spec behind it."""

    name: str
    spec: str
    about: str


#: The opponents offered to people, weakest first ("Medium" only where a model is shipped).
LEVELS = (
    Level("Beginner", "random", "plays any legal move at random"),
    Level("Easy", "heuristic", "plays by rules of thumb"),
    Level("Medium", "ppo:pretrained", "a neural network trained by playing the game"),
    Level("Hard", "search", "the rules of thumb with look-ahead over 4 imagined deals"),
    Level("Expert", "search:16", "the rules of thumb with look-ahead over 16 imagined deals"),
)
#: The level used when none is given.
DEFAULT_LEVEL = "Hard"
#: Seconds the AI may think for one reply (every move between two decisions of the person's) and
#: for a hint: a searching level stops its look-ahead in time (``SearchAgent.deadline``) and
#: plays on by its rules of thumb once the time is spent.
REPLY_SECONDS = 8.0
#: The level whose choice a hint gives (the strongest offered).
HINT_LEVEL = "Expert"
#: Options a client may not set: they concern the server, not the game.
SERVER_OPTIONS = ("render_mode",)


class PlayError(ValueError):
    """A request the game cannot take (not your turn, an illegal index...); the game is unchanged.

    ``status`` is the HTTP status the web server answers with (400 bad input, 404 no such game,
    409 wrong time, 503 too many games).
    """

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def new_events(before: list[str], after: list[str]) -> list[str]:
    """The entries ``after`` adds to ``before`` (the log is capped: its head may have been dropped)."""
    for k in range(len(before) + 1):
        tail = before[k:]
        if after[: len(tail)] == tail:
            return after[len(tail) :]
    return list(after)


def _has_model(env: str, options: Mapping[str, Any]) -> bool:
    """Whether ``ppo:pretrained`` has a shipped model that fits ``env`` with ``options``.

    The model must exist, torch must be installed (the [train] extra), and the model's
    observation length must be the env's. AMALOGS' is the composite agent
    (``agents.composite``), which needs the shipped card models of its default slots.
    """
    from deckgym.agents.composite import ENVS as COMPOSITES
    from deckgym.agents.pretrained import model_key, shipped

    if env in COMPOSITES:  # the composite: the shipped card models of its default slots
        from deckgym.agents.composite import DEFAULT_SLOTS, SLOT_MODELS

        keys = {model_key(*SLOT_MODELS[s]) for s in DEFAULT_SLOTS}
        return keys <= set(shipped()) and all(_model_size(k) is not None for k in keys)
    key = model_key(env, dict(options))
    if key not in shipped():
        return False
    try:
        probe = envs.make(env, **options)
    except (TypeError, ValueError, KeyError, StateError):
        return False
    size = probe.observation_space(probe.possible_agents[0])["observation"].shape[0]
    return _model_size(key) == size


@functools.cache
def _model_size(key: str) -> int | None:
    """The observation length the shipped model ``key`` was trained on (None without torch).

    Read from the model file's settings (its ``data`` entry, which stable-baselines3 writes as
    JSON), so the lobby lists its levels without loading torch or any network.
    """
    import importlib.util
    import json
    import zipfile

    from deckgym.agents.pretrained import MODELS

    if importlib.util.find_spec("sb3_contrib") is None:  # the [train] extra is not installed
        return None
    with zipfile.ZipFile(MODELS / f"{key}.zip") as archive:
        data = json.loads(archive.read("data"))
    shape = data["observation_space"]["_shape"]
    return int(shape[0])


def levels_for(env: str, options: Mapping[str, Any] | None = None) -> list[Level]:
    """The levels offered for ``env`` with ``options`` (Medium only where a model is shipped)."""
    return [lv for lv in LEVELS if lv.spec != "ppo:pretrained" or _has_model(env, options or {})]


def level_of(value: str, env: str, options: Mapping[str, Any] | None = None) -> Level:
    """The offered level named ``value`` (its name, any case, or its agent spec).

    Raises:
        PlayError: ``value`` names no level offered for ``env`` (the message lists them).
    """
    offered = levels_for(env, options)
    for lv in offered:
        if isinstance(value, str) and spec_for(value).strip().lower() == lv.spec:
            return lv
    allowed = ", ".join(f"{lv.name} ({lv.spec})" for lv in offered)
    raise PlayError(f"unknown level {value!r} for {env}; offered: {allowed}")


def help_text(env: str) -> str:
    """The "How to play" text of ``env`` (markdown: its package's ``help.md``; "" when there is none)."""
    return envs.games.game(env).help_text()


def spec_for(value: str) -> str:
    """The agent spec of the level named ``value`` (any case); any other value is taken as a spec."""
    for lv in LEVELS:
        if isinstance(value, str) and value.strip().lower() == lv.name.lower():
            return lv.spec
    return value


def _check_request(name: str, options: dict[str, Any] | None) -> None:
    """``PlayError`` for an unknown env name or options that are not a mapping."""
    if not isinstance(name, str) or name not in envs.names():
        raise PlayError(f"unknown env {name!r}; known: {', '.join(envs.names())}")
    if options is not None and not isinstance(options, dict):
        raise PlayError(f"options must be a JSON object, got {options!r}")
    bad = sorted(set(options or {}) & set(SERVER_OPTIONS))
    if bad:
        raise PlayError(f"option {bad[0]!r} is not a game option (it concerns how the server shows games)")


def describer(env: Any) -> Any:
    """The ``describe`` module of ``env``'s ruleset (``envs/<ruleset>/describe.py``); ``env`` may be the ruleset."""
    ruleset = env.unwrapped.ruleset if hasattr(env, "unwrapped") else env
    package = type(ruleset).__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.describe")


class GameSession:
    """A game of ``env`` between a person (one side) and ``opponent`` (every other seat).

    Args:
        env: an env name (``envs.names()``).
        options: the env's keyword arguments (mode, decks...).
        opponent: a level's name (``LEVELS``) or any agent spec (``agents.make``).
        seat: the person's side, 0 or 1 (in AMALOGS a team), or ``"random"`` (drawn from ``seed``).
        seed: the game's seed (None: a random one).
        auto: play the person's decisions that have a single option for them.

    Raises:
        PlayError: an unknown env, option, opponent or seat.
    """

    def __init__(
        self,
        env: str,
        options: dict[str, Any] | None = None,
        opponent: str = DEFAULT_LEVEL,
        seat: int | str = 0,
        seed: int | None = None,
        auto: bool = True,
    ) -> None:
        from deckgym import agents

        _check_request(env, options)  # validate before anything starts
        self.env_name = env
        self.options = dict(options or {})
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise PlayError(f"seed must be a whole number >= 0, got {seed!r}")
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else int(seed)
        if seat == "random":
            seat = random.Random(self.seed).randrange(2)
        if isinstance(seat, bool) or seat not in (0, 1, "0", "1"):
            raise PlayError(f"seat must be 0, 1 or 'random', got {seat!r}")
        self.side = int(seat)
        self.auto = auto
        try:
            self._rec = Recorder(env, self.seed, **self.options)
        except (TypeError, ValueError, KeyError, StateError) as exc:
            raise PlayError(f"bad options for {env}: {exc}") from None
        spec = spec_for(opponent)
        self.level = next((lv.name for lv in LEVELS if lv.spec == spec), spec)
        try:
            self.agent = agents.make(spec, env, seed=self.seed + 1, **self.options)
        except (ValueError, KeyError, FileNotFoundError) as exc:
            raise PlayError(f"unknown opponent {opponent!r}: {exc}") from None
        except ImportError as exc:  # a policy level without the [train] extra (torch)
            raise PlayError(
                f"opponent {opponent!r} needs the [train] extra (pip install 'deckgym[train]'): {exc}"
            ) from None
        self.opponent = spec
        self.human = sides(self.env)[self.side]
        self._describe = describer(self.env)
        self._names: dict[str, str] = dict(self._describe.card_names(self.game))
        self.resigned = False
        self.moves = 0
        #: the replay's length before each decision the person took (what ``undo`` goes back to)
        self._marks: list[int] = []
        #: the moves played since the person's last decision: ``{"who", "text", "places"}``
        self.recent: list[dict[str, Any]] = []
        #: every move of the game so far, as ``recent`` tells it (``history``)
        self._told: list[dict[str, Any]] = []
        self._start_agent()

    def _start_agent(self) -> None:
        bind(self.agent, self.env)
        self.agent.reset(seed=self.seed + 1 + len(self._marks))

    # ------------------------------------------------------------------ reading
    @property
    def env(self) -> Any:
        """The env the game is played in (server side only)."""
        return self._rec.env

    @property
    def game(self) -> Any:
        """The engine state (server side only: never send it to the person)."""
        return self.env.unwrapped.game

    @property
    def done(self) -> bool:
        """Whether the game is over (ended by the rules, or resigned)."""
        return self.resigned or bool(self.game.is_terminal())

    @property
    def your_turn(self) -> bool:
        """Whether the person must decide now."""
        return not self.done and self.game.current_player in self.human

    @property
    def seat(self) -> int:
        """The person's seat whose view is shown: the one deciding now, else the side's first."""
        p = self.game.current_player
        return p if p in self.human else self.human[0]

    @property
    def can_undo(self) -> bool:
        """Whether ``undo`` has a decision of the person's to go back to."""
        return bool(self._marks) and not self.done

    def view(self) -> dict[str, Any]:
        """The per-seat view of ``seat``."""
        view: dict[str, Any] = self.env.unwrapped.view(self.seat)
        return view

    def describe(self, index: int, reader: int | None = None) -> dict[str, Any]:
        """Action ``index`` now, in words and board places, as ``reader`` (default: ``seat``) reads it."""
        d: dict[str, Any] = self._describe.describe_action(
            self.game, self.seat if reader is None else reader, int(index)
        )
        return d

    def decision_text(self) -> str:
        """The decision now as a prompt for the person ("" once the game is over)."""
        if self.done:
            return ""
        return str(self._describe.decision_text(self.game, self.seat))

    def _indices(self) -> list[int]:
        """The legal action indices of the seat to move."""
        mask = self.env.unwrapped.encoder.action_mask(self.game)
        return [int(i) for i in range(len(mask)) if mask[i]]

    def legal(self) -> list[dict[str, Any]]:
        """The person's options now, ``[{"index", "label", "text", "places"}]`` (empty off turn).

        ``label`` is the compact code that replays and logs keep for tools; ``text`` and
        ``places`` are the move in words and on the board.
        """
        if not self.your_turn:
            return []
        enc = self.env.unwrapped.encoder
        return [
            {"index": i, "label": enc.action_label(i, self.game), **self.describe(i)} for i in self._indices()
        ]

    def result(self) -> dict[str, Any] | None:
        """The end of the game from the person's side: outcome ("win", "loss", "draw"), reason, returns."""
        if not self.done:
            return None
        if self.resigned:
            n = self.game.num_players
            returns = [-1.0 if p in self.human else 1.0 for p in range(n)]
            return {"outcome": "loss", "reason": "you resigned", "truncated": False, "returns": returns}
        st = self.game
        r = st.returns()[self.human[0]]
        outcome = "win" if r > 0 else "loss" if r < 0 else "draw"
        return {
            "outcome": outcome,
            "reason": str(getattr(st, "reason", "") or ""),
            "truncated": bool(st.truncated),
            "returns": [float(x) for x in st.returns()],
        }

    def log(self, last: int | None = None, view: dict[str, Any] | None = None) -> list[str]:
        """The game's log lines as the person reads them (card names; what only their seats saw).

        In a game inside a game (AMALOGS) the lines of the running core table follow, as the
        person's seat at that table reads them (from ``view``, the person's view now: built
        when not given).
        """
        recs: list[dict[str, Any]] = self.game.records
        texts: list[str] = self.game.events
        start = 0 if last is None else max(0, len(recs) - last)
        lines = [
            line_for(r, t, self.human, self._names) for r, t in zip(recs[start:], texts[start:], strict=True)
        ]
        core = (self.view() if view is None else view).get("board", {}).get("core")
        if isinstance(core, dict) and core.get("source") == "table" and core.get("events"):
            lines.append(f"At the {core.get('title') or 'core game'} table:")
            lines += [f"  {e}" for e in core["events"]]
        return lines

    def payload(self) -> dict[str, Any]:
        """What a client is sent: the view, the options in words, whose turn, the log and the result."""
        view = self.view()
        return {
            "env": self.env_name,
            "options": dict(self.options),
            "seat": self.seat,
            "seats": list(self.human),
            "opponent": self.opponent,
            "level": self.level,
            "view": view,
            "decision_text": self.decision_text(),
            "legal": self.legal(),
            "your_turn": self.your_turn,
            "done": self.done,
            "result": self.result(),
            "log": self.log(view=view),
            "recent": list(self.recent),
            "can_undo": self.can_undo,
            "moves": self.moves,
        }

    # ------------------------------------------------------------------ playing
    def _step(self, index: int, who: str) -> None:
        """Play ``index`` for the seat to move, telling it in ``recent`` as the person reads it."""
        told = {"who": who, **self.describe(index, reader=self.human[0])}
        self.recent.append(told)
        self._told.append(told)
        self._rec.step(index)
        self.moves += 1

    def moves_pending(self) -> bool:
        """Whether ``opponent_moves`` has moves to play: the AI's, or a move of the person's with a single option."""
        if self.done:
            return False
        return not self.your_turn or (self.auto and len(self._indices()) == 1)

    def opponent_moves(self, on_step: Callable[[], None] | None = None) -> list[dict[str, Any]]:
        """Let the agent play until the person must decide or the game ends; the new events.

        A decision of the person's with a single option is played for them on the way. The
        events are structured (``envs.core.events``), as the person's seats may see them.
        ``on_step`` is called after every move (the server publishes the position there).
        """
        before = list(self.game.events)
        if hasattr(self.agent, "deadline"):
            self.agent.deadline = time.monotonic() + REPLY_SECONDS
        try:
            self._opponent_loop(on_step)
        finally:
            if hasattr(self.agent, "deadline"):
                self.agent.deadline = None
        return self.events_since(before)

    def _opponent_loop(self, on_step: Callable[[], None] | None) -> None:
        while not self.done:
            if self.your_turn:
                legal = self._indices()
                if not (self.auto and len(legal) == 1):
                    break
                self._step(legal[0], "you (the only option)")
            else:
                obs = self.env.observe(self.env.agent_selection)
                self._step(int(self.agent.act(obs["observation"], obs["action_mask"])), "opponent")
            if on_step is not None:
                on_step()

    def events_since(self, before: list[str]) -> list[dict[str, Any]]:
        """The structured events logged after the text log ``before``, as the person reads them.

        A person who plays several seats (a whole team) sees each of those seats' private fields.
        """
        n = len(new_events(before, list(self.game.events)))
        return events_for(self.game, self.human, last=n)

    def check_move(self, index: Any) -> None:
        """``PlayError`` unless ``index`` is a move the person may play now (nothing changes)."""
        if self.done:
            raise PlayError("the game is over", status=409)
        if not self.your_turn:
            raise PlayError("it is not your turn", status=409)
        if isinstance(index, bool) or not isinstance(index, int):
            raise PlayError(f"index must be a whole number, got {index!r}")
        allowed = self._indices()
        if index not in allowed:
            raise PlayError(f"index {index} is not a legal option; legal: {allowed}")

    def move(self, index: Any) -> None:
        """The person's move ``index`` alone (``opponent_moves`` plays the replies).

        Raises:
            PlayError: see ``check_move``; the game is then unchanged.
        """
        self.check_move(index)
        self._marks.append(len(self._rec.replay.actions))
        self.recent = []
        self._step(index, "you")

    def play(self, index: Any, on_step: Callable[[], None] | None = None) -> list[dict[str, Any]]:
        """The person's move ``index`` then the agent's replies; the structured events in between.

        Raises:
            PlayError: the game is over, it is not the person's turn (status 409), or ``index``
                is not one of ``legal()`` (400). The game is then unchanged.
        """
        before = list(self.game.events)
        self.move(index)
        if on_step is not None:
            on_step()
        self.opponent_moves(on_step)
        return self.events_since(before)

    def undo(self) -> None:
        """Go back to the person's previous decision (the moves after it are dropped).

        Raises:
            PlayError: the game is over, or the person has not decided yet (409).
        """
        if self.done:
            raise PlayError("the game is over: nothing to undo", 409)
        if not self._marks:
            raise PlayError("nothing to undo: you have not moved yet", 409)
        keep = self._marks.pop()
        del self._told[keep:]
        self._rec = self._replayed(self._rec.replay.actions[:keep])
        self.moves = keep
        self.recent = []
        self._start_agent()

    def resign(self) -> None:
        """Give the game up: it ends as the person's loss.

        Raises:
            PlayError: the game is already over (409).
        """
        if self.done:
            raise PlayError("the game is over", 409)
        self.resigned = True

    def hint(self, worlds: int | None = None) -> dict[str, Any]:
        """The move the strongest level would play now, in words, and its estimated winning chance.

        The chance is the score (wins + draws/2) of that move over the level's rollouts in
        freshly sampled deals, each drawn from what the person's seat may know.

        Raises:
            PlayError: it is not the person's turn (409).
        """
        return self.hint_task(worlds)()

    def hint_task(self, worlds: int | None = None) -> Callable[[], dict[str, Any]]:
        """``hint`` in two steps: this call copies the position, the returned one thinks on the copy.

        The server takes the copy under the game's lock and thinks after releasing it.

        Raises:
            PlayError: it is not the person's turn (409).
        """
        from deckgym import agents

        if not self.your_turn:
            raise PlayError("a hint is given when it is your turn", 409)
        spec = next(lv.spec for lv in LEVELS if lv.name == HINT_LEVEL)
        adviser = agents.make(spec, self.env_name, seed=self.seed + 7919 * self.moves, **self.options)
        n = adviser.worlds if worlds is None else int(worlds)
        state, seat, reader = self.game.clone(), self.game.current_player, self.seat
        encoder, describe = self.env.unwrapped.encoder, self._describe.describe_action
        rng = random.Random(self.seed + 104729 * (self.moves + 1))

        def think() -> dict[str, Any]:
            # the move within two thirds of the time, its winning chance within the rest
            start = time.monotonic()
            adviser.deadline = start + REPLY_SECONDS * 2 / 3
            move = adviser.choose(state, seat)
            returns = []
            for _ in range(n):
                if returns and time.monotonic() > start + REPLY_SECONDS:
                    break
                returns.append(adviser.world_return(state.resample_hidden(seat, rng), move, seat))
            index = int(encoder.action_to_index(move, state))
            return {
                "index": index,
                **describe(state, reader, index),
                "level": HINT_LEVEL,
                "win_chance": round((sum(returns) / len(returns) + 1.0) / 2.0, 4),
                "rollouts": len(returns),
            }

        return think

    def _replayed(self, actions: list[int]) -> Recorder:
        """A fresh recorder of this game with ``actions`` played again (for undo and for looking back)."""
        rec = Recorder(self.env_name, self.seed, **self.options)
        for action in actions:
            rec.step(action)
        return rec

    def history(self) -> list[dict[str, Any]]:
        """Every move of the game so far, in order, as the person read it: ``{"who", "text", "places"}``.

        ``who`` is "you", "you (the only option)" or "opponent"; another seat's hidden card is
        "a card", as in ``recent``.
        """
        return [dict(m) for m in self._told]

    def position(self, k: int) -> dict[str, Any]:
        """The person's view of the position after the game's first ``k`` moves (0: the start).

        For looking back through the game: the game itself does not change.

        Raises:
            PlayError: ``k`` is not in 0..moves.
        """
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= len(self._told):
            raise PlayError(f"position must be a whole number in 0..{len(self._told)}, got {k!r}")
        rec = self._replayed(self._rec.replay.actions[:k])
        st = rec.env.unwrapped.game
        seat = st.current_player if st.current_player in self.human else self.human[0]
        view: dict[str, Any] = rec.env.unwrapped.view(seat)
        return {"position": k, "moves": len(self._told), "seat": seat, "view": view}

    def record(self) -> dict[str, Any]:
        """The game as JSON-safe data that ``restore`` plays back: the request and every move so far."""
        return {
            "version": 1,
            "env": self.env_name,
            "options": self.options,
            "opponent": self.opponent,
            "seat": self.side,
            "seed": self.seed,
            "auto": self.auto,
            "actions": list(self._rec.replay.actions),
            "marks": list(self._marks),
            "resigned": self.resigned,
            "recent": list(self.recent),
            "who": [m["who"] for m in self._told],
        }

    @classmethod
    def restore(cls, record: Mapping[str, Any]) -> GameSession:
        """The game of ``record`` (``GameSession.record()``), its moves played again: the same position.

        The opponent starts afresh from the position (its seed follows the person's decisions,
        as after an undo).

        Raises:
            PlayError: the record is not a game record, or its moves no longer play back
                (a game recorded by a version whose rules have changed since).
        """
        try:
            if record.get("version") != 1:
                raise PlayError(f"not a game record of this version: {record.get('version')!r}")
            game = cls(
                record["env"],
                dict(record["options"]),
                record["opponent"],
                record["seat"],
                record["seed"],
                bool(record["auto"]),
            )
            for k, action in enumerate(record["actions"]):
                if action not in game._indices():
                    raise PlayError(f"move {k + 1}, {action!r}, is not legal there")
                person = game.game.current_player in game.human
                game._told.append(
                    {"who": "you" if person else "opponent", **game.describe(action, game.human[0])}
                )
                game._rec.step(int(action))
        except (KeyError, TypeError, ValueError) as exc:  # PlayError and StateError are ValueErrors
            raise PlayError(f"the stored game cannot be resumed: {exc}", 404) from None
        game.moves = len(record["actions"])
        game._marks = [int(m) for m in record["marks"]]
        game.resigned = bool(record["resigned"])
        game.recent = list(record["recent"])
        game._start_agent()
        return game

    def rematch(self, seed: int | None = None) -> GameSession:
        """A new game with the same decks and level, the person in the other seat (with their deck)."""
        options = dict(self._rec.replay.kwargs)
        decks = options.get("decks")
        if isinstance(decks, list) and len(decks) == 2:
            options["decks"] = [decks[1], decks[0]]
        return GameSession(self.env_name, options, self.opponent, 1 - self.side, seed, self.auto)

    def replay(self) -> Replay:
        """The game so far as a replay, closed with its result and digest (a copy: play goes on)."""
        rep = copy.deepcopy(self._rec.finish())
        if self.resigned:
            res = self.result()
            assert res is not None
            who = ", ".join(self.env.possible_agents[p] for p in self.human)
            rep.result = {"returns": res["returns"], "truncated": False, "reason": f"{who} resigned"}
        return rep

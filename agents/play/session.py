"""One game between a person and an agent: the object the terminal and the web server both drive.

    s = GameSession("medarot_ocg_v0", {"mode": "beginner"}, opponent="heuristic", seat=0, seed=3)
    while not s.done:
        print(s.view()["board"], s.legal())
        s.play(s.legal()[0]["index"])     # the person's move, then the agent's replies
    s.replay().save("game.jsonl")

The person holds one side: one seat, or every seat of one team in AMALOGS. What the session
shows is the per-seat view (``envs.core.view``) of the person's seat that decides now (or its
first seat), never the whole state. A bad move raises ``PlayError`` and changes nothing.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import envs
from agents.arena import sides
from agents.base import bind
from envs.core.errors import StateError
from envs.core.events import events_for, lines_for
from envs.replay import Recorder, Replay

#: Named opponent levels offered to people (any agent spec works too).
LEVELS = ("random", "heuristic", "search", "search:16")
#: The level used when none is given.
DEFAULT_LEVEL = "search"


class PlayError(ValueError):
    """A request the game cannot take (not your turn, an illegal index...); the game is unchanged.

    ``status`` is the HTTP status the web server answers with (400 bad input, 409 wrong time).
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


def _check_request(name: str, options: dict[str, Any] | None) -> None:
    """``PlayError`` for an unknown env name or options that are not a mapping."""
    if name not in envs.names():
        raise PlayError(f"unknown env {name!r}; known: {', '.join(envs.names())}")
    if options is not None and not isinstance(options, dict):
        raise PlayError(f"options must be a JSON object, got {options!r}")


class GameSession:
    """A game of ``env`` between a person (one side) and ``opponent`` (every other seat).

    Args:
        env: an env name (``envs.names()``).
        options: the env's keyword arguments (mode, decks...).
        opponent: an agent spec (``agents.make``), e.g. one of ``LEVELS``.
        seat: the person's side, 0 or 1 (in AMALOGS a team), or ``"random"`` (drawn from ``seed``).
        seed: the game's seed (None: a random one).

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
    ) -> None:
        import agents

        _check_request(env, options)  # validate before anything starts
        self.env_name = env
        self.options = dict(options or {})
        self.seed = random.SystemRandom().randrange(2**31) if seed is None else int(seed)
        if seat == "random":
            seat = random.Random(self.seed).randrange(2)
        if seat not in (0, 1, "0", "1"):
            raise PlayError(f"seat must be 0, 1 or 'random', got {seat!r}")
        self.side = int(seat)
        try:
            self._rec = Recorder(env, self.seed, **self.options)
        except (TypeError, ValueError, KeyError, StateError) as exc:
            raise PlayError(f"bad options for {env}: {exc}") from None
        self.env = self._rec.env
        self.human = sides(self.env)[self.side]
        try:
            self.agent = agents.make(opponent, env, seed=self.seed + 1, **self.options)
        except (ValueError, KeyError, FileNotFoundError) as exc:
            raise PlayError(f"unknown opponent {opponent!r}: {exc}") from None
        self.opponent = opponent
        bind(self.agent, self.env)
        self.agent.reset(seed=self.seed + 1)
        self.moves = 0

    # ------------------------------------------------------------------ reading
    @property
    def game(self) -> Any:
        """The engine state (server side only: never send it to the person)."""
        return self.env.unwrapped.game

    @property
    def done(self) -> bool:
        """Whether the game is over."""
        return bool(self.game.is_terminal())

    @property
    def your_turn(self) -> bool:
        """Whether the person must decide now."""
        return not self.done and self.game.current_player in self.human

    @property
    def seat(self) -> int:
        """The person's seat whose view is shown: the one deciding now, else the side's first."""
        p = self.game.current_player
        return p if p in self.human else self.human[0]

    def view(self) -> dict[str, Any]:
        """The per-seat view of ``seat``."""
        view: dict[str, Any] = self.env.unwrapped.view(self.seat)
        return view

    def legal(self) -> list[dict[str, Any]]:
        """The person's options now, ``[{"index", "label"}]`` (empty when it is not their turn)."""
        if not self.your_turn:
            return []
        raw = self.env.unwrapped
        mask = raw.observe(self.env.agent_selection)["action_mask"]
        return [
            {"index": int(i), "label": raw.encoder.action_label(int(i), self.game)}
            for i in range(len(mask))
            if mask[i]
        ]

    def result(self) -> dict[str, Any] | None:
        """The end of the game from the person's side: outcome ("win", "loss", "draw"), reason, returns."""
        if not self.done:
            return None
        st = self.game
        r = st.returns()[self.human[0]]
        outcome = "win" if r > 0 else "loss" if r < 0 else "draw"
        return {
            "outcome": outcome,
            "reason": str(getattr(st, "reason", "") or ""),
            "truncated": bool(st.truncated),
            "returns": [float(x) for x in st.returns()],
        }

    def payload(self) -> dict[str, Any]:
        """What a client is sent: the view, the options, whose turn and the result."""
        return {
            "env": self.env_name,
            "seat": self.seat,
            "seats": list(self.human),
            "opponent": self.opponent,
            "view": self.view(),
            "legal": self.legal(),
            "your_turn": self.your_turn,
            "done": self.done,
            "result": self.result(),
        }

    # ------------------------------------------------------------------ playing
    def _step(self, index: int) -> None:
        self._rec.step(index)
        self.moves += 1

    def opponent_moves(self) -> list[dict[str, Any]]:
        """Let the agent play until the person must decide or the game ends; the new events.

        The events are structured (``envs.core.events``), as the person's seat may see them.
        """
        before = list(self.game.events)
        while not self.done and not self.your_turn:
            obs = self.env.observe(self.env.agent_selection)
            self._step(int(self.agent.act(obs["observation"], obs["action_mask"])))
        return self._since(before)

    def _since(self, before: list[str]) -> list[dict[str, Any]]:
        """The structured events logged after the text log ``before``, as the person reads them.

        A person who plays several seats (a whole team) sees each of those seats' private fields.
        """
        n = len(new_events(before, list(self.game.events)))
        return events_for(self.game, self.human, last=n)

    def lines(self, last: int) -> list[str]:
        """The latest ``last`` log lines as the person reads them (with what only their seats see)."""
        return lines_for(self.game, self.human, last)

    def play(self, index: Any) -> list[dict[str, Any]]:
        """The person's move ``index`` then the agent's replies; the structured events in between.

        Raises:
            PlayError: the game is over, it is not the person's turn (status 409), or ``index``
                is not one of ``legal()`` (400). The game is then unchanged.
        """
        if self.done:
            raise PlayError("the game is over", status=409)
        if not self.your_turn:
            raise PlayError("it is not your turn", status=409)
        if isinstance(index, bool) or not isinstance(index, int):
            raise PlayError(f"index must be a whole number, got {index!r}")
        allowed = [o["index"] for o in self.legal()]
        if index not in allowed:
            raise PlayError(f"index {index} is not a legal option; legal: {allowed}")
        before = list(self.game.events)
        self._step(index)
        self.opponent_moves()
        return self._since(before)

    def replay(self) -> Replay:
        """The game so far as a replay, closed with its result and digest (a copy: play goes on)."""
        return copy.deepcopy(self._rec.finish())

"""``python -m tests.agents.slow_server PORT SECONDS [DB]``: the play server with a deliberately slow AI.

Every level is played by an agent that keeps a core busy in Python for SECONDS per decision
(as a search does), then plays the first legal move. The server is otherwise the real one; its
games are kept in the SQLite file DB (default: in memory).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from deckgym.agents.play import server
from deckgym.agents.play.session import GameSession


class SlowAgent:
    """Busy for ``seconds`` per decision, then the first legal move."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset."""

    def act(self, observation: Any, action_mask: Any) -> int:
        """The first legal move, after ``seconds`` of work that holds the interpreter."""
        end = time.monotonic() + self.seconds
        while time.monotonic() < end:
            sum(range(200))
        return int(next(i for i, m in enumerate(action_mask) if m))


def main() -> None:
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    db = sys.argv[3] if len(sys.argv) > 3 else ":memory:"

    class SlowSession(GameSession):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.agent = SlowAgent(seconds)

    server.GameSession = SlowSession  # type: ignore[misc]
    server.serve("127.0.0.1", port, 8, db)


if __name__ == "__main__":
    main()

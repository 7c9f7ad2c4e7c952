"""The web table's games in SQLite: a reload or a server restart resumes a game from its id.

A game is kept as its record (``GameSession.record()``: the env, options, level, seat, seed and
every move played), never as an engine state: resuming re-plays the moves, so a stored game is
as exact as a replay file. The store holds at most ``keep`` games; past that the ones left alone
the longest are dropped. ``path`` is a file (``deckgym serve --db``) or ``":memory:"`` (the
games live as long as the process).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

#: How many games a store keeps by default.
KEEP = 10_000


def default_path() -> Path:
    """Where ``deckgym serve`` keeps its games: ``$XDG_DATA_HOME/deckgym/games.sqlite3`` (``~/.local/share``)."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "deckgym" / "games.sqlite3"


class GameStore:
    """Game records by game id, in one SQLite database shared by the server's threads."""

    def __init__(self, path: str | Path = ":memory:", keep: int = KEEP) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path, self.keep = str(path), keep
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, record TEXT NOT NULL, updated REAL NOT NULL)"
        )
        self._db.execute("CREATE INDEX IF NOT EXISTS games_updated ON games (updated)")

    def save(self, gid: str, record: dict[str, Any]) -> None:
        """Keep ``record`` as game ``gid`` (replacing what was kept), then drop the oldest past ``keep``."""
        text = json.dumps(record, separators=(",", ":"))
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO games (id, record, updated) VALUES (?, ?, ?)",
                (gid, text, time.time()),
            )
            (count,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
            if count > self.keep:
                self._db.execute(
                    "DELETE FROM games WHERE id IN (SELECT id FROM games ORDER BY updated LIMIT ?)",
                    (count - self.keep,),
                )

    def load(self, gid: str) -> dict[str, Any] | None:
        """The record of game ``gid``, or None when none is kept."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE id = ?", (gid,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(count)

    def close(self) -> None:
        """Close the database (the games stay in its file)."""
        with self._lock:
            self._db.close()

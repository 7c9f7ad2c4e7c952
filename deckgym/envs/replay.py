"""Record, save, load and re-simulate games as JSON lines.

A replay file has one JSON object per line: a header (``env``, ``kwargs`` with the decks
written out, ``seed``), one line per decision (``agent``, ``action`` index and a readable
``label``), and a footer with the result and a digest of the final state. Re-simulating the
header and actions reproduces the final state exactly (checked by the digest).

    rec = Recorder("medarot_ocg_v1", seed=7, mode="advance")
    while not rec.done:
        rec.step(policy(rec.env))
    rec.finish().save("game.jsonl")
    Replay.load("game.jsonl").verify()
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from deckgym.envs.core.errors import StateError

FORMAT: Final = "deckgym-replay/1"


def state_digest(state: Any) -> str:
    """SHA-256 of the canonical JSON of ``state.to_dict()``."""
    text = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Replay:
    """One recorded game."""

    env: str
    kwargs: dict[str, Any]
    seed: int
    actions: list[int] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    final_digest: str | None = None

    def dumps(self) -> str:
        """The replay as JSON lines (the text ``save`` writes)."""
        lines = [{"format": FORMAT, "env": self.env, "kwargs": self.kwargs, "seed": self.seed}]
        lines += [
            {"agent": a, "action": i, "label": lab}
            for a, i, lab in zip(self.agents, self.actions, self.labels, strict=True)
        ]
        lines.append({"result": self.result, "final_digest": self.final_digest})
        return "".join(json.dumps(x) + "\n" for x in lines)

    def save(self, path: str | Path) -> None:
        """Write the replay as JSON lines."""
        Path(path).write_text(self.dumps())

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """Read a replay file; ``StateError`` names the file and line of a malformed one."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise StateError(f"{path}: not UTF-8 text (byte {exc.start}): not a replay file") from exc
        return cls.loads(text, str(path))

    @classmethod
    def loads(cls, text: str, source: str = "replay") -> Replay:
        """Parse replay text; ``StateError`` names ``source`` and the line of a malformed one."""
        rows = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise StateError(f"{source}:{n}: not JSON ({exc})") from exc
            if not isinstance(row, dict):
                raise StateError(f"{source}:{n}: each line must be a JSON object, got {line.strip()[:40]!r}")
            rows.append(row)
        if not rows or rows[0].get("format") != FORMAT:
            raise StateError(f"{source}: not a {FORMAT} file (missing header line)")
        head, moves = rows[0], rows[1:]
        tail = moves.pop() if moves and "final_digest" in moves[-1] else {}
        try:
            return cls(
                head["env"],
                head["kwargs"],
                head["seed"],
                [int(m["action"]) for m in moves],
                [m["agent"] for m in moves],
                [m.get("label", "") for m in moves],
                tail.get("result"),
                tail.get("final_digest"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"{source}: malformed replay ({exc!r})") from exc

    def simulate(self) -> Any:
        """Play the recorded actions in a fresh env; return the env at the end."""
        from deckgym import envs

        env = envs.make(self.env, **self.kwargs)
        env.reset(seed=self.seed)
        for k, (agent, action) in enumerate(zip(self.agents, self.actions, strict=True)):
            if env.agent_selection != agent:
                raise StateError(
                    f"replay step {k}: expected {agent} to move, the env has {env.agent_selection}"
                )
            env.step(action)
        return env

    def verify(self) -> bool:
        """Re-simulate and compare the final state with the recorded digest."""
        env = self.simulate()
        return self.final_digest is not None and state_digest(env.unwrapped.game) == self.final_digest


class Recorder:
    """Plays a game in a fresh env while recording it. Decks are written out in the header."""

    def __init__(self, env_name: str, seed: int, **kwargs: Any) -> None:
        from deckgym import envs

        self.env = envs.make(env_name, **kwargs)
        self.env.reset(seed=seed)
        # the decks as the state writes them (JSON-safe, and accepted back by the ruleset's ``decks``)
        decks = self.env.unwrapped.game.to_dict().get("decks")
        if decks is not None:
            kwargs = {**kwargs, "decks": decks}
        self.replay = Replay(env_name, kwargs, seed)

    @property
    def done(self) -> bool:
        """Whether the game is over."""
        return bool(self.env.unwrapped.game.is_terminal())

    def step(self, action: int) -> None:
        """Play and record one action of the agent to move."""
        raw = self.env.unwrapped
        label = raw.encoder.action_label(int(action), raw.game)
        agent = self.env.agent_selection
        self.env.step(int(action))
        self.replay.agents.append(agent)
        self.replay.actions.append(int(action))
        self.replay.labels.append(label)

    def finish(self) -> Replay:
        """Close the record with the result and the final-state digest."""
        st = self.env.unwrapped.game
        self.replay.result = {
            "returns": list(st.returns()),
            "truncated": bool(st.truncated),
            "reason": getattr(st, "reason", ""),
        }
        self.replay.final_digest = state_digest(st)
        return self.replay

"""The shared agenda runner (``envs.core.flow``): a rules loop fails loudly instead of hanging."""

from __future__ import annotations

import enum
import json
from typing import Any, NamedTuple

import pytest

from envs.core import flow
from envs.core.errors import StateError
from envs.core.flow import Agenda, ask, push


class ToyDP(enum.IntEnum):
    CHOOSE = 0


class Pick(NamedTuple):
    x: int


class Toy:
    """The smallest state the runner drives: pick 0 reaches the next decision, pick 1 loops."""

    DECISIONS = ToyDP

    def __init__(self) -> None:
        self.agenda: list[list[Any]] = []
        self.dp: Any = (0, 0, ())
        self.done = False
        self.truncated = False
        self.winner = -1
        self.reason = ""
        self._legal: list[Any] | None = None
        self.events: list[str] = []

    @property
    def decision(self) -> str:
        return "" if self.dp is None else ToyDP(self.dp[0]).name

    def log(self, text: str) -> None:
        self.events.append(text)

    def legal_actions(self) -> list[Pick]:
        return TOY.legal_actions(self)


TOY: Agenda[Any] = Agenda(Pick)


@TOY.task
def ping(st: Toy) -> None:
    push(st, ["pong"])


@TOY.task
def pong(st: Toy) -> None:
    push(st, ["ping"])


@TOY.task
def settle(st: Toy) -> None:
    push(st, ["again"])


@TOY.task
def again(st: Toy) -> None:
    ask(st, ToyDP.CHOOSE, 0)


@TOY.decision(ToyDP.CHOOSE, legal=lambda st, ctx: [Pick(0), Pick(1)])
def on_choose(st: Toy, ctx: Any, a: Pick) -> None:
    push(st, ["ping"] if a.x else ["settle"])


def test_a_real_decision_takes_its_automatic_steps_and_is_counted():
    st = Toy()
    TOY.apply(st, Pick(0))
    assert st.dp == (0, 0, ()) and st.agenda == []
    assert TOY.most_auto_steps >= 2  # settle, again


def test_a_cycling_agenda_raises_a_state_error_naming_the_decision_and_the_tasks(monkeypatch):
    monkeypatch.setattr(TOY, "max_auto_steps", 500)
    st = Toy()
    with pytest.raises(StateError) as err:
        TOY.apply(st, Pick(1))
    msg = str(err.value)
    assert msg.startswith("Toy: the rules ran more than 500 automatic steps after decision point CHOOSE")
    assert "last tasks: pong, ping, pong, ping, pong, ping, pong, ping;" in msg
    assert msg.endswith("next on the agenda: pong")


def test_the_default_cap_is_generous_but_finite():
    assert 10_000 <= flow.MAX_AUTO_STEPS <= 1_000_000
    st = Toy()
    st.dp = None
    st.agenda.append(["ping"])
    with pytest.raises(StateError, match=f"more than {flow.MAX_AUTO_STEPS} automatic steps"):
        TOY.run(st)


def test_a_mow_rules_loop_raises_and_the_state_still_dumps_for_a_bug_report(monkeypatch):
    """A cycling task planted in the real MoW runner: StateError names mow; to_dict still works."""
    from envs.mow.rules import flow as mow_flow
    from envs.mow.state import GameState
    from tests.envs.mow.test_invariants import start

    st = start(3)
    decision, kind = st.decision, st.dp[0]
    monkeypatch.setitem(mow_flow.AGENDA.tasks, "ping", lambda st: push(st, ["pong"]))
    monkeypatch.setitem(mow_flow.AGENDA.tasks, "pong", lambda st: push(st, ["ping"]))
    monkeypatch.setitem(mow_flow.AGENDA.decide, kind, lambda st, player, a: push(st, ["ping"]))
    monkeypatch.setattr(mow_flow.AGENDA, "max_auto_steps", 2_000)
    with pytest.raises(StateError, match=rf"^mow: .* after decision point {decision} .*ping, pong"):
        st.apply(st.legal_actions()[0])
    dumped = json.loads(json.dumps(st.to_dict()))
    assert ["ping"] in dumped["agenda"] or ["pong"] in dumped["agenda"]
    assert GameState.from_dict(dumped).to_dict() == dumped


def test_a_parts_forced_loop_counts_forced_decisions_too(monkeypatch):
    """The parts runner plays single-option decisions itself; a cycle of those is bounded too."""
    from envs.medarot_parts.rules import flow as parts_flow
    from tests.envs.medarot_parts.test_invariants import start as parts_start

    st = parts_start(5)
    kind, player, _ctx = st.dp
    only = st.legal_actions()[0]
    monkeypatch.setattr(parts_flow.AGENDA, "max_auto_steps", 300)
    monkeypatch.setitem(parts_flow.AGENDA.legal, kind, lambda st, ctx: [only])
    monkeypatch.setitem(parts_flow.AGENDA.decide, kind, lambda st, ctx, a: ask(st, kind, player, *ctx))
    st._legal = None
    with pytest.raises(StateError, match=r"^medarot_parts: the rules ran more than 300 automatic steps"):
        st.apply(only)
    assert st.events[-1].endswith("(forced)")  # the cycle was of forced decisions

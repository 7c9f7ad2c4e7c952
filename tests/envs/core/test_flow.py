"""The shared agenda runner (``envs.core.flow``): a rules loop fails loudly instead of hanging."""

from __future__ import annotations

import enum
import json
from typing import Any, NamedTuple

import pytest

from deckgym.envs.core import flow
from deckgym.envs.core.errors import StateError
from deckgym.envs.core.flow import Agenda, ask, push


class ToyDP(enum.IntEnum):
    CHOOSE = 0


class Pick(NamedTuple):
    x: int


class Toy:
    """The smallest state the runner drives: pick 0 reaches the next decision, pick 1 loops."""

    DECISIONS = ToyDP

    def __init__(self) -> None:
        self.agenda: list[list[Any]] = []
        self.decision_point: Any = (0, 0, ())
        self.done = False
        self.truncated = False
        self.winner = -1
        self.reason = ""
        self._legal: list[Any] | None = None
        self.events: list[str] = []
        self.records: list[dict[str, Any]] = []

    @property
    def decision(self) -> str:
        return "" if self.decision_point is None else ToyDP(self.decision_point[0]).name

    @property
    def current_player(self) -> int:
        return -1 if self.decision_point is None else self.decision_point[1]

    def emit(self, kind: str, text: str, only: Any = None, **fields: Any) -> None:
        self.events.append(text)
        self.records.append({"kind": kind, **fields})

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
    assert st.decision_point == (0, 0, ()) and st.agenda == []
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
    st.decision_point = None
    st.agenda.append(["ping"])
    with pytest.raises(StateError, match=f"more than {flow.MAX_AUTO_STEPS} automatic steps"):
        TOY.run(st)


def test_a_mow_rules_loop_raises_and_the_state_still_dumps_for_a_bug_report(monkeypatch):
    """A cycling task planted in the real MoW runner: StateError names mow; to_dict still works."""
    from deckgym.envs.mow.rules import flow as mow_flow
    from deckgym.envs.mow.state import GameState
    from tests.envs.mow.test_invariants import start

    st = start(3)
    decision, kind = st.decision, st.decision_point[0]
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
    from deckgym.envs.medarot_parts.rules import flow as parts_flow
    from tests.envs.medarot_parts.test_invariants import start as parts_start

    st = parts_start(5)
    kind, player, _ctx = st.decision_point
    only = st.legal_actions()[0]
    monkeypatch.setattr(parts_flow.AGENDA, "max_auto_steps", 300)
    monkeypatch.setitem(parts_flow.AGENDA.legal, kind, lambda st, ctx: [only])
    monkeypatch.setitem(parts_flow.AGENDA.decide, kind, lambda st, ctx, a: ask(st, kind, player, *ctx))
    st._legal = None
    with pytest.raises(StateError, match=r"^medarot_parts: the rules ran more than 300 automatic steps"):
        st.apply(only)
    assert st.events[-1].endswith("(forced: the only option)")  # the cycle was of forced decisions


def test_illegal_actions_name_the_decision_and_change_nothing():
    from deckgym.envs.core.errors import IllegalActionError

    st = Toy()
    with pytest.raises(IllegalActionError) as err:
        TOY.apply(st, Pick(7))
    assert (
        str(err.value)
        == "illegal action Pick(x=7) at decision point CHOOSE (player 0); legal options: [Pick(x=0), Pick(x=1)]"
    )
    with pytest.raises(IllegalActionError) as err:
        TOY.apply(st, "seven")
    assert err.value.decision == "CHOOSE" and err.value.legal == [Pick(0), Pick(1)]
    assert st.decision_point == (0, 0, ()) and st.agenda == [] and st.events == []
    assert TOY.check(st, (1,)) == Pick(1)  # a plain tuple becomes the ruleset's action
    flow.end(st, 1, "a test ends it")
    with pytest.raises(IllegalActionError) as err:
        TOY.apply(st, Pick(0))
    assert (err.value.decision, err.value.legal) == ("game over", [])
    with pytest.raises(IllegalActionError) as err:
        TOY.check(st, Pick(0), over="over: P1 won")
    assert err.value.decision == "over: P1 won"


def test_end_and_truncate_set_the_result_drop_pending_work_and_log_it():
    st = Toy()
    st.agenda = [["ping"], ["pong"]]
    flow.end(st, 2, "both decks ran out")
    assert (st.done, st.truncated, st.winner, st.reason, st.decision_point, st.agenda) == (
        True,
        False,
        2,
        "both decks ran out",
        None,
        [],
    )
    assert st.events == ["game over: both decks ran out"] and TOY.legal_actions(st) == []
    assert st.records == [{"kind": "end", "winner": 2, "reason": "both decks ran out"}]
    st = Toy()
    st.agenda = [["ping"]]
    flow.truncate(st, "turn cap 60")
    assert (st.done, st.truncated, st.winner, st.reason, st.decision_point, st.agenda) == (
        True,
        True,
        -1,
        "turn cap 60",
        None,
        [],
    )
    assert st.events == ["truncated: turn cap 60"]
    assert st.records == [{"kind": "truncated", "reason": "turn cap 60"}]


def test_the_handler_gets_the_context_field_and_apply_clears_the_cached_options():
    seen: list[Any] = []
    agenda: Agenda[Any] = Agenda(Pick)
    agenda.decision(ToyDP.CHOOSE, legal=lambda st, ctx: seen.append(("legal", ctx)) or [Pick(ctx[0])])(
        lambda st, ctx, a: seen.append(("decide", ctx, a)) or ask(st, ToyDP.CHOOSE, 1, 9)
    )
    st = Toy()
    st.decision_point = (0, 0, (4,))
    st._legal = ["stale"]
    st.legal_actions = lambda: agenda.legal_actions(st)  # type: ignore[method-assign]
    agenda.apply(st, Pick(4))
    assert seen == [("legal", (4,)), ("decide", (4,), Pick(4))]
    assert st.decision_point == (0, 1, (9,)) and st._legal is None
    other: Agenda[Any] = Agenda(Pick, context=1)  # the handler gets decision_point[1], the player
    other.decision(ToyDP.CHOOSE, legal=lambda st, p: [Pick(p)])(
        lambda st, p, a: seen.append(("player", p)) or ask(st, 0, 5)
    )
    st.decision_point = (0, 3, ())
    st.legal_actions = lambda: other.legal_actions(st)  # type: ignore[method-assign]
    other.apply(st, Pick(3))
    assert seen[-1] == ("player", 3)


def test_an_empty_agenda_without_a_decision_is_a_corrupt_state():
    st = Toy()
    st.decision_point = None
    with pytest.raises(
        StateError, match="^the agenda ran empty with no decision point; the state is corrupt$"
    ):
        TOY.run(st)


def test_most_auto_steps_reports_the_high_water_mark_and_resets_it():
    TOY.most_auto_steps = 0
    st = Toy()
    TOY.apply(st, Pick(0))  # settle, again: 2 steps
    assert flow.most_auto_steps() >= 2 and TOY.most_auto_steps == 2
    assert flow.most_auto_steps(reset=True) >= 2
    assert TOY.most_auto_steps == 0 and flow.most_auto_steps() == 0 and TOY in flow.AGENDAS


def test_a_runaway_outside_apply_and_one_of_forced_decisions_say_so(monkeypatch):
    monkeypatch.setattr(TOY, "max_auto_steps", 20)
    st = Toy()
    st.decision_point = None
    st.agenda.append(["ping"])
    with pytest.raises(StateError) as err:
        TOY.run(st)
    assert (
        "after decision point none (a run outside apply) without reaching a decision (a rules loop)"
        in str(err.value)
    )
    st = Toy()
    st.decision_point = None
    st.agenda.append(["ping"])
    with pytest.raises(StateError) as err:
        TOY.run(st, origin=(42, 0, ()))  # a decision kind the state's names do not know
    assert "after decision point 42 without" in str(err.value)


def test_push_runs_tasks_in_the_order_given_before_what_was_scheduled():
    st = Toy()
    st.agenda = [["old"]]
    push(st, ["a", 1], ["b"], ["c", 2, 3])
    assert [t[0] for t in reversed(st.agenda)] == ["a", "b", "c", "old"]
    push(st)  # nothing to schedule
    assert [t[0] for t in reversed(st.agenda)] == ["a", "b", "c", "old"]


@pytest.mark.parametrize("args", [(), (1,), (1, "two"), (1, "two", 3.0), (1, 2, 3, 4, 5)])
def test_run_task_hands_each_task_its_arguments_whatever_their_number(args):
    seen: list[tuple[Any, ...]] = []

    def task(st: Any, *got: Any) -> None:
        seen.append((st, *got))

    st = Toy()
    flow.run_task({"t": task}, st, ["t", *args])
    assert seen == [(st, *args)]

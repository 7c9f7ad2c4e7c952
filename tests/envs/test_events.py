"""Structured events (``envs.core.events``) of every ruleset: documented, complete, stored, and honest.

Along random and heuristic games of every variant, each step's new events are checked:

- every event has a kind the ruleset's ``events.KINDS`` lists, with exactly its fields, and the
  text log and the records stay the same length;
- no event is an untyped note: every line the engines log has a kind;
- a card named in an event's public fields is one every seat could see, in its view before
  or after the step (the views are leak-tested), unless the kind is a public reveal
  (``events.REVEALS``);
- a card named in an event's private fields (``only``) is one that seat could see, and
  :func:`events_for` gives those fields to that seat alone.

The events of one fixed game per variant are compared with ``tests/data/events.json``.
"""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from deckgym import envs
from deckgym.agents import make
from deckgym.agents.base import bind
from deckgym.envs.core.events import NOTE, ONLY, check_fields, events_for, line_for, make_record, shown_to
from deckgym.envs.core.view import EVENTS_IN_VIEW
from tests.envs.variants import PACKAGE, QUICK, ids
from tests.scripts import load_script

VARIANTS = QUICK
IDS = ids(VARIANTS)
RULESET = PACKAGE
DATA = Path(__file__).resolve().parents[1] / "data" / "events.json"


def tables(name: str) -> Any:
    """The ruleset's ``events`` module (``KINDS``, ``PRIVATE``, ``CARD_FIELDS``, ``REVEALS``)."""
    return importlib.import_module(f"deckgym.envs.{RULESET[name]}.events")


def card_ids(value: Any, fields: tuple[str, ...]) -> set[str]:
    """The card ids held by the ``fields`` of an event (a field holds an id or a list of ids)."""
    out: set[str] = set()
    for f in fields:
        v = value.get(f)
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, list):
            out.update(x for x in v if isinstance(x, str))
    return out


def view_ids(view: Any) -> set[str]:
    """Every card id a view shows (cards are dicts with an ``id``)."""
    out: set[str] = set()
    stack = [view]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if isinstance(x.get("id"), str):
                out.add(x["id"])
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


def steps(name: str, kw: dict[str, Any], games: int):
    """(env, state before, state after, new records) for every decision of a few games."""
    for g in range(games):
        env = envs.make(name, **kw)
        env.reset(seed=300 + g)
        agent = bind(make(["random", "heuristic"][g % 2], name, seed=g), env)
        st = env.unwrapped.game
        st.event_cap = 10**9
        yield env, None, st, list(st.records)
        while not st.is_terminal():
            before = st.clone()
            n0 = len(st.records)
            obs = env.observe(env.agent_selection)
            env.step(agent.act(obs["observation"], obs["action_mask"]))
            yield env, before, st, st.records[n0:]


@pytest.mark.parametrize(("name", "kw"), VARIANTS, ids=IDS)
def test_events_are_documented_typed_and_honest(name: str, kw: dict[str, Any]) -> None:
    t = tables(name)
    seen: set[str] = set()
    for env, before, st, new in steps(name, kw, games=4):
        assert len(st.events) == len(st.records)
        rs = env.unwrapped.ruleset
        seats = range(rs.num_players)
        views_after = [view_ids(rs.view(st, s)) for s in seats]
        views_before = [view_ids(rs.view(before, s)) if before is not None else set() for s in seats]
        for rec in new:
            problem = check_fields(t.KINDS, t.PRIVATE, rec)
            assert problem is None, problem
            assert rec["kind"] != NOTE, f"an untyped log line in {name}"
            seen.add(rec["kind"])
            if rec["kind"] not in t.REVEALS:
                public = card_ids(rec, t.CARD_FIELDS)
                for s in seats:
                    hidden = public - views_before[s] - views_after[s]
                    assert not hidden, f"{rec} names {hidden}, which seat {s} cannot see"
            only = rec.get(ONLY)
            if only is not None:
                owner, private = only
                mine = card_ids(private, t.CARD_FIELDS)
                assert not mine - views_before[owner] - views_after[owner], (
                    f"{rec}: seat {owner} cannot see them"
                )
    assert seen, "no events at all"


@pytest.mark.parametrize(("name", "kw"), VARIANTS, ids=IDS)
def test_private_fields_reach_their_seat_alone(name: str, kw: dict[str, Any]) -> None:
    for env, _before, st, _new in steps(name, kw, games=1):
        n = env.unwrapped.ruleset.num_players
        for s in range(n):
            shown = events_for(st, s)
            for rec, e in zip(st.records, shown, strict=True):
                only = rec.get(ONLY)
                public = {k: v for k, v in rec.items() if k != ONLY}
                if only is None or only[0] != s:
                    assert {k: v for k, v in e.items() if k != "text"} == public
                else:
                    assert {k: v for k, v in e.items() if k != "text"} == {**public, **only[1]}
        view = env.unwrapped.ruleset.view(st, 0)
        if name != "amalogs_v2":  # an AMALOGS view shows the core table's events to its players
            assert view["records"] == events_for(st, 0, last=EVENTS_IN_VIEW)
        assert len(view["records"]) == len(view["events"])
        assert [e["text"] for e in view["records"]] == view["events"]


@pytest.mark.parametrize(("name", "kw"), VARIANTS, ids=IDS)
def test_a_redrawn_state_keeps_no_other_seats_secrets(name: str, kw: dict[str, Any]) -> None:
    """``resample_hidden(seat)`` drops the private fields of every other seat's events."""
    rng = random.Random(5)
    kept = 0
    for k, (env, _before, st, _new) in enumerate(steps(name, kw, games=1)):
        if k % 9:
            continue
        for s in range(env.unwrapped.ruleset.num_players):
            redrawn = st.resample_hidden(s, rng)
            assert all(r.get(ONLY) is None or r[ONLY][0] == s for r in redrawn.records)
            assert events_for(redrawn, s) == events_for(st, s)  # what the seat knew stays
            kept += sum(1 for r in redrawn.records if r.get(ONLY) is not None)
    assert kept or name == "amalogs_v2", "no private event to keep"


def test_a_planted_public_card_is_caught() -> None:
    """The honesty check fails on an event that names the opponent's hidden hand card publicly."""
    t = tables("medarot_ocg_v1")
    for seed in range(50):
        env = envs.make("medarot_ocg_v1", mode="beginner")
        env.reset(seed=seed)
        st = env.unwrapped.game
        rs = env.unwrapped.ruleset
        me = st.current_player
        seen = view_ids(rs.view(st, me))
        secret = next((c for c in st.hand[1 - me] if c not in seen), None)
        if secret is None:
            continue
        st.emit("discard", "planted", player=1 - me, card=secret)
        leaked = card_ids(st.records[-1], t.CARD_FIELDS) - seen - view_ids(rs.view(st, me))
        assert leaked == {secret}
        return
    raise AssertionError("no seed with an unseen card in the opponent's hand")


def test_a_reader_of_several_seats_sees_each_of_their_private_fields() -> None:
    """A person playing seats 2 and 3 of a team reads seat 3's draw; seats {0, 1} do not."""
    rec = make_record("draw", (3, {"cards": ["c7"]}), {"player": 3, "count": 1})
    assert shown_to(rec, [2, 3]) == {"kind": "draw", "player": 3, "count": 1, "cards": ["c7"]}
    assert shown_to(rec, 3) == shown_to(rec, [2, 3])
    assert shown_to(rec, (0, 1)) == {"kind": "draw", "player": 3, "count": 1}
    assert shown_to(rec, 2) == shown_to(rec, (0, 1))
    assert line_for(rec, "P3 draws 1", {2, 3}) == "P3 draws 1  [you: cards c7]"
    assert line_for(rec, "P3 draws 1", [0, 1]) == "P3 draws 1"
    assert line_for(rec, "P3 draws 1", None) == "P3 draws 1  [P3 only: cards c7]"


def test_a_team_session_reads_every_teammates_private_events() -> None:
    """The play session's events and lines are those of the person's whole team of seats."""
    from deckgym.agents.play.session import GameSession

    s = GameSession("amalogs_v2", {"team_sizes": [2, 2]}, "random", seat=1, seed=4)
    events = s.opponent_moves()
    while not s.done and len(s.game.records) < 60:
        events = s.play(s.legal()[0]["index"])
    st = s.game
    n = min(len(events), len(st.records))
    assert events == events_for(st, s.human, last=n)
    assert s.log(10) == [
        line_for(r, t, s.human) for r, t in zip(st.records[-10:], st.events[-10:], strict=True)
    ]
    for rec, e in zip(st.records, events_for(st, s.human), strict=True):
        only = rec.get(ONLY)
        assert (only is not None and only[0] in s.human) == (only is not None and set(only[1]) <= set(e))


def test_untyped_lines_and_unknown_fields_are_refused() -> None:
    kinds = {"draw": ("player", "count")}
    assert check_fields(kinds, {}, {"kind": "note"}) is not None
    assert check_fields(kinds, {}, {"kind": "draw", "player": 0}) is not None
    assert check_fields(kinds, {}, {"kind": "draw", "player": 0, "count": 1}) is None
    assert check_fields(kinds, {}, {"kind": "draw", "player": 0, "count": 1, ONLY: [0, {"cards": ["x"]}]})
    assert check_fields(kinds, {"draw": ("cards",)}, {"kind": "draw", "player": 0, "count": (1,)})


def test_the_stored_events_of_fixed_games() -> None:
    """One seeded random game per variant records the same events as ``tests/data/events.json``."""
    script = load_script("event_log")
    want = json.loads(DATA.read_text())
    got = script.collect()
    assert sorted(got) == sorted(want)
    for label, entry in want.items():
        assert got[label]["first"] == entry["first"], f"{label}: the first events differ"
        assert got[label] == entry, f"{label}: the events differ (rewrite with scripts/event_log.py --write)"


def test_every_kind_is_documented() -> None:
    """``docs/events.md`` holds the kinds tables the rulesets' ``events`` modules give, as they are."""
    script = load_script("event_log")
    text = (Path(__file__).resolve().parents[2] / "docs" / "events.md").read_text()
    section = text.split(script.BEGIN, 1)[1].split(script.END, 1)[0]
    assert section.strip() == script.kinds_markdown().strip(), "rewrite with scripts/event_log.py --docs"
    for name in RULESET:
        t = tables(name)
        assert set(t.DESCRIPTIONS) == set(t.KINDS), f"{name}: every kind needs a description"
        assert set(t.PRIVATE) <= set(t.KINDS) and set(t.REVEALS) <= set(t.KINDS)


def test_random_games_have_no_note_events_in_any_variant() -> None:
    """Seeded random games of every variant, long ones included, log no untyped line."""
    for name, kw in VARIANTS:
        env = envs.make(name, **kw)
        env.reset(seed=7)
        st = env.unwrapped.game
        rng = random.Random(7)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        assert all(r["kind"] != NOTE for r in st.records), name


@pytest.mark.parametrize(("name", "kwargs"), VARIANTS, ids=IDS)
def test_a_muted_state_plays_the_same_game_and_logs_nothing(name, kwargs):
    """``mute`` (for rollouts) changes no move or outcome; the log stops; a clone logs again."""
    env = envs.make(name, **kwargs)
    env.reset(seed=11)
    start = env.unwrapped.game
    loud, quiet = start.clone(), start.clone().mute()
    held = list(quiet.events)
    rng = random.Random(5)
    while not loud.is_terminal():
        assert quiet.legal_actions() == loud.legal_actions()
        action = rng.choice(loud.legal_actions())
        loud.apply(action)
        quiet.apply(action)
    assert quiet.is_terminal() and quiet.returns() == loud.returns()
    assert loud.records != quiet.records  # the loud copy logged the game
    assert quiet.events == held and len(quiet.records) == len(held)  # the muted one did not
    again = start.clone().mute().clone()
    again.apply(again.legal_actions()[0])
    while not again.is_terminal() and len(again.records) == len(held):
        again.apply(again.legal_actions()[0])
    assert len(again.records) > len(held)


def test_a_muted_amalogs_state_mutes_its_core_tables() -> None:
    """The running table, and each table started after ``mute``, log nothing; a loud copy's tables log."""
    env = envs.make("amalogs_v2", team_sizes=(1, 1))
    env.reset(seed=3)
    loud, quiet = env.unwrapped.game.clone(), env.unwrapped.game.clone().mute()
    rng = random.Random(3)
    held: dict[int, int] = {}  # per table seen, what it logged when first seen (its set-up)
    seen = []  # the tables themselves, so that no id is reused
    loud_lines = 0
    while not loud.is_terminal():
        action = rng.choice(loud.legal_actions())
        loud.apply(action)
        quiet.apply(action)
        table = quiet.table
        if table is not None:
            assert table._muted
            seen.append(table)
            assert len(table.events) == held.setdefault(id(table), len(table.events))
        if loud.table is not None:
            loud_lines = max(loud_lines, len(loud.table.events))
    assert quiet.returns() == loud.returns()
    assert len(held) > 1 and loud_lines > max(held.values())

"""``state.event_cap``, as docs/events.md says: the cap of one game's event logs, kept by its clones."""

from __future__ import annotations

import random

from deckgym import envs


def _game(cap: int | None):
    env = envs.make("mow_v1")
    env.reset(seed=3)
    st = env.unwrapped.game
    if cap is not None:
        st.event_cap = cap
    return st


def _play(st, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))


def test_event_cap_is_one_states_own_and_its_clones_keep_it():
    whole, short, default = _game(10**9), _game(20), _game(None)
    assert whole.clone().event_cap == 10**9 and short.clone().event_cap == 20
    assert default.event_cap == type(default).EVENT_CAP  # the class constant is only the default
    for st in (whole, short, default):
        _play(st)
    assert len(short.events) <= 20 < len(whole.events)
    assert whole.events[-len(short.events) :] == short.events  # the same game: only the log's length differs
    assert whole.events[0].startswith("P0 reveals master")  # the raised cap kept the game's first event

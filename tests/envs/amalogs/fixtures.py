"""Builders of exact AMALOGS positions for the tests.

``position(...)`` plays a match's start-up with fixed choices (every core decision by the
ruleset's pass/lowest option), then puts the avatars on the given squares and hands the turn
to the given team, so a test starts from a known MAP. Slots: 0 med_beg (WE1, range 2),
1 med_adv (WE2, range 2), 4 med_nor (WE2, range 2).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from deckgym.envs.amalogs.actions import Action, Kind, Phase
from deckgym.envs.amalogs.config import AmalogsConfig, make_config
from deckgym.envs.amalogs.cores import IMPLEMENTED, adapter
from deckgym.envs.amalogs.position import position as build_position
from deckgym.envs.amalogs.state import AmalogsState

BEG, ADV, NOR = 0, 1, 4


def config(team_sizes: Sequence[int] = (2, 2), pools: object = None, **kw: object) -> AmalogsConfig:
    """A validated config (default pools: every implemented ruleset)."""
    return make_config(
        team_sizes,
        pools,
        implemented=IMPLEMENTED,
        default_deck=lambda s: adapter(s).default_deck(),
        resolve_deck=lambda s, v, label: adapter(s).resolve_deck(v, label),
        **kw,  # type: ignore[arg-type]
    )


def auto(st: AmalogsState) -> Action:
    """A fixed choice: core decisions by the ruleset's pass/lowest option, else the first legal action."""
    if st.phase in (Phase.STARTUP_CORE, Phase.RESPAWN_CORE, Phase.DUEL_CORE):
        return Action(Kind.CORE, adapter(st.table_ruleset).auto_action(st.table))
    return st.legal_actions()[0]


def finish_startup(st: AmalogsState) -> None:
    """Play the start-up with ``auto`` choices until the first meta-field decision."""
    while st.phase != Phase.META_FIELD:
        st.apply(auto(st))


def finish_table(st: AmalogsState) -> None:
    """Answer the running table's decisions with ``auto`` until it is over."""
    while st.phase == Phase.DUEL_CORE:
        st.apply(auto(st))


#: Four squares far apart, one near each corner of the map, for positions where nobody is near.
WIDE = [(1, 1), (1, 5), (9, 1), (9, 5)]


def position(
    rulesets: Sequence[int],
    squares: Sequence[tuple[int, int]],
    acting: int = 0,
    ap: Sequence[int] | None = None,
    life: Sequence[int] = (18, 18),
    team_sizes: Sequence[int] = (2, 2),
    seed: int = 0,
) -> AmalogsState:
    """Players with the given rulesets on the given (row, col) squares; ``acting``'s meta-field phase.

    A thin caller of the public builder ``envs.amalogs.position.position``: one-ruleset pools,
    team turn 1 with ``acting`` as the first team, control with its lowest-index player.
    """
    return build_position(
        team_sizes=team_sizes,
        pools=[[r] for r in rulesets],
        rulesets=rulesets,
        squares=squares,
        ap=ap,
        life=life,
        team_turn=1,
        acting=acting,
        start="meta_field",
        seed=seed,
    )


def empty_deck(st: AmalogsState, player: int) -> None:
    """Move the player's deck to its trash: its next start-phase draw fails (a core loss)."""
    side = st.avatars[player].side
    side.trash.extend(side.deck)
    side.deck.clear()


def seeded_dice(d1: int, d2: int) -> random.Random:
    """An RNG whose next two d6 rolls are ``d1`` and ``d2``."""
    for k in range(10_000):
        rng = random.Random(k)
        if (rng.randint(1, 6), rng.randint(1, 6)) == (d1, d2):
            return random.Random(k)
    raise AssertionError("no seed found")


def walk(env: Any, rng: random.Random, steps: int) -> Iterator[None]:
    """Random legal steps through the AEC API; yields after each, stops at the end of the game."""
    for _ in range(steps):
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            return
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        yield


def sampled(env: Any, seed: int, steps: int, every: int) -> Iterator[tuple[int, AmalogsState]]:
    """``(k, game)`` at every ``every``-th of up to ``steps`` random legal steps (``walk``) from
    ``env.reset(seed=seed)``, the moves drawn by ``random.Random(seed)``."""
    env.reset(seed=seed)
    for k, _ in enumerate(walk(env, random.Random(seed), steps)):
        if k % every == 0:
            yield k, env.unwrapped.game


def resampled(env: Any, st: AmalogsState, seat: int, seed: int) -> AmalogsState:
    """``st.resample_hidden(seat, random.Random(seed))``, after checking that ``seat``'s observation of it
    is the same as of ``st`` (I12)."""
    alt = st.resample_hidden(seat, random.Random(seed))
    enc = env.unwrapped.encoder
    assert np.array_equal(enc.observe(alt, seat), enc.observe(st, seat))
    return alt


def round_trip_tables(env: Any, seed: int, steps: int, every: int) -> int:
    """``assert_exact_round_trip`` at the ``sampled`` positions; how many of them had a running table."""
    tables = 0
    for _k, st in sampled(env, seed, steps, every):
        tables += st.table is not None
        assert_exact_round_trip(env.unwrapped, st)
    return tables


def checked_game(
    st: AmalogsState, rng: random.Random, watch: Callable[[Any], None] | None = None
) -> list[str]:
    """Play ``st`` to its end by random legal moves, checking the invariants of spec section 10 after
    each (``test_invariants.Checker``); the first violations with their step, or [] when all hold.
    ``watch`` sees the state and the move before each move is made."""
    from tests.envs.amalogs.test_invariants import Checker

    checker = Checker(st)
    checker.check()
    for step in range(1, 200_000):
        if st.done:
            return []
        legal = st.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if watch is not None:
            watch(st, action)
        checker.step(action)
        if checker.bad:
            return [f"step {step}: {m}" for m in checker.bad[:5]]
    raise AssertionError("the game did not end in 200,000 steps")


def assert_exact_round_trip(raw: Any, st: AmalogsState) -> None:
    """``to_dict`` / ``from_dict`` through JSON gives the same dict and observations, and plays on alike."""
    back = type(st).from_dict(json.loads(json.dumps(st.to_dict())))
    assert back.to_dict() == st.to_dict()
    for seat in range(st.num_players):
        assert np.array_equal(raw.encoder.observe(back, seat), raw.encoder.observe(st, seat))
    twin, clone = back, st.clone()
    for _ in range(30):
        if twin.done:
            break
        a = twin.legal_actions()[0]
        twin.apply(a)
        clone.apply(a)
    assert twin.to_dict() == clone.to_dict()


def proxy_after(ad: Any, table: Any, action: Any, depth: int) -> int:
    """The lowest proxy life reachable from ``table`` after ``action`` within ``depth`` more host decisions."""
    t = ad.clone_table(table, table.rng.__class__(0))
    ad.step(t, action)
    best = ad.proxy_life(t)
    if depth and ad.to_act(t) == 0:
        for b in ad.legal_actions(t):
            best = min(best, proxy_after(ad, t, b, depth - 1))
    return best


def attack_proxy(st: Any) -> None:
    """Play the running proxy table to its end, lowering the proxy's life whenever the rules allow."""
    while st.phase == Phase.DUEL_CORE:
        ad = adapter(st.table_ruleset)
        now = ad.proxy_life(st.table)
        legal = ad.legal_actions(st.table)
        scored = [(proxy_after(ad, st.table, a, 1), i) for i, a in enumerate(legal)]
        best, i = min(scored)
        st.apply(Action(Kind.CORE, legal[i] if best < now else ad.auto_action(st.table)))

"""Positions of random legal games played through an environment's AEC API (shared by env tests)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np


def random_positions(
    env: Any, games: int, seed0: int = 0, every: int = 1, max_iter: int = 50_000, ends: bool = False
) -> Iterator[Any]:
    """Yield ``env`` at every ``every``-th decision of ``games`` random games (seeds ``seed0``...),
    and with ``ends`` once more where each game has ended."""
    for g in range(games):
        rng = random.Random(seed0 + g)
        env.reset(seed=seed0 + g)
        step = 0
        for _agent in env.agent_iter(max_iter=max_iter):
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            if step % every == 0:
                yield env
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            step += 1
        if ends:
            yield env


def sampled_states(st: Any, move: Callable[[Any], Any], every: int, cap: int) -> list[Any]:
    """Copies of every ``every``-th state of the game played on from ``st`` by ``move`` (a state's
    chosen action), at most ``cap`` moves, and of the state it stops at."""
    out = []
    for step in range(cap):
        if st.done:
            break
        if step % every == 0:
            out.append(st.clone())
        st.apply(move(st))
    out.append(st.clone())
    return out


def random_states(env: Any, games: int, **kw: Any) -> Iterator[tuple[Any, Any]]:
    """``(game state, encoder)`` at the ``random_positions`` of ``env`` (the same arguments)."""
    for e in random_positions(env, games, **kw):
        yield e.unwrapped.game, e.unwrapped.encoder


def assert_one_live_mask(env: Any) -> Any:
    """Exactly one agent, the one to act, has a non-zero mask, and it equals the legal actions
    (I8, I9); returns that mask."""
    st, enc = env.unwrapped.game, env.unwrapped.encoder
    masks = {a: env.observe(a)["action_mask"] for a in env.agents}
    live = [a for a, m in masks.items() if m.any()]
    assert live == [env.agent_selection] == [f"player_{st.current_player}"]
    legal = sorted(enc.action_to_index(a, st) for a in st.legal_actions())
    assert np.flatnonzero(masks[env.agent_selection]).tolist() == legal
    return masks[env.agent_selection]


def illegal_index(env: Any) -> int:
    """The lowest action index that the agent to act may not take."""
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])


def live_observations(env: Any, seeds: Iterable[int], max_iter: int = 2**63) -> Iterator[dict[str, Any]]:
    """The observation at each live decision of a game of ``env`` from each of ``seeds`` (agents
    whose game ended are stepped with None); the caller steps ``env`` with its action after each."""
    for seed in seeds:
        env.reset(seed=seed)
        for _agent in env.agent_iter(max_iter=max_iter):
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            yield obs

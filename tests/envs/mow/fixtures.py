"""Position builders for the Master of the World rule tests (spec ``docs/rules/mow.md``).

``POOL`` is the test-only fixture pool of spec section 9 (``fixture_cards.toml``: masters TM
and Sage; Grunt, Brute, Wall, Ogre, Scout, Alchemist, Sniper; Sword, Shield, Great Axe;
Fireball, Quick Bolt, Shatter, Denial, Forget, Insight, Recall; and the filler Pebble 1/1),
loaded with the engine's own loader.

``make_state`` builds a ``GameState`` by hand (zones, levels from experience, monsters,
weapons and face-down spells) and starts it at a turn step; tests then drive the engine only
through ``GameState.apply``. ``do`` checks the decision point and the player first.

Test modules import it as ``from tests.envs.mow import fixtures as fx``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from envs.mow import actions as A
from envs.mow.actions import DP, Action
from envs.mow.cards import load_pool
from envs.mow.config import make_config
from envs.mow.rules import flow
from envs.mow.rules.values import level_for
from envs.mow.state import GameState, Monster

FIXTURE_FILE = str(Path(__file__).with_name("fixture_cards.toml"))
POOL = load_pool([FIXTURE_FILE])
K = {c.id: c.index for c in POOL.main}  # card id -> card type k


def deck_of(card: str = "PEBBLE", master: str = "TM", n: int = 40) -> list[str]:
    """A legal fixture deck: one master plus ``n`` copies of ``card``."""
    return [master] + [card] * n


def make_state(
    *,
    t: int = 3,
    active: int = 0,
    first: int = 0,
    masters: tuple[str, str] = ("TM", "TM"),
    hands: tuple[list[str], list[str]] = ([], []),
    decks: tuple[int | list[str], int | list[str]] = (20, 20),
    exp: tuple[int, int] = (0, 0),
    life: tuple[int, int] = (20, 20),
    monsters: tuple[list[Any], list[Any]] = ([], []),
    weapons: tuple[str | None, str | None] = (None, None),
    spells: tuple[Any, Any] = (None, None),
    discards: tuple[list[str], list[str]] = ([], []),
    start: str = "main_phase",
    pool: Any = POOL,
    filler: str = "PEBBLE",
    **config: Any,
) -> GameState:
    """A position at turn ``t`` with ``active`` to act, started at task ``start``.

    ``decks`` entries are a count of ``filler`` cards (Pebbles) or a list (top of deck last);
    ``exp`` entries are counts of fillers under the master; a monster is a card id or ``(card, entered,
    damage)``; a spell is ``(card, cast_turn)``.
    """
    decklists = [deck_of(filler, masters[0]), deck_of(filler, masters[1])]
    st = GameState(make_config(first_player=first, **config), pool, decklists, 0)
    st.t, st.active, st.first = t, active, first
    uid = 1
    for p in (0, 1):
        st.masters[p] = masters[p]
        st.hand[p] = list(hands[p])
        d = decks[p]
        st.deck[p] = [filler] * d if isinstance(d, int) else list(d)
        st.exp[p] = [filler] * exp[p]
        st.level[p] = level_for(pool[masters[p]], exp[p])
        st.life[p] = life[p]
        st.discard[p] = list(discards[p])
        for m in monsters[p]:
            card, entered, damage = (m, t - 2, 0) if isinstance(m, str) else m
            st.monsters[p].append(Monster(uid, card, entered, damage))
            uid += 1
        if weapons[p]:
            st.weapon[p] = [weapons[p], uid]
            uid += 1
        if spells[p]:
            st.spell[p] = [spells[p][0], spells[p][1], uid]
            uid += 1
    st.next_uid = uid
    st.phase = {"turn_start": 0, "charge_phase": 2, "main_phase": 3, "attack_phase": 4}[start]
    st.agenda = [[start]]
    flow.run(st)
    return st


def do(st: GameState, action: Action, dp: DP | None = None, player: int | None = None) -> GameState:
    """Apply ``action`` after checking the decision point and the deciding player."""
    if dp is not None:
        assert st.decision == dp.name, f"expected {dp.name}, at {st.decision}"
    if player is not None:
        assert st.current_player == player, f"expected P{player} to decide, P{st.current_player} does"
    st.apply(action)
    return st


def use(k: str) -> Action:
    """USE[k] of a fixture card id."""
    return A.USE[K[k]]


def fast(k: str) -> Action:
    """FAST[k] of a fixture card id."""
    return A.FAST[K[k]]


def hand(k: str) -> Action:
    """HAND[k] of a fixture card id."""
    return A.HAND[K[k]]


def names(cards: list[str]) -> list[str]:
    """Sorted card ids (for zone comparisons)."""
    return sorted(cards)


def pass_to(st: GameState, dp: DP, player: int | None = None, limit: int = 60) -> GameState:
    """PASS until decision ``dp`` (of ``player``, if given) is reached."""
    for _ in range(limit):
        if st.decision == dp.name and (player is None or st.current_player == player):
            return st
        st.apply(A.PASS)
    raise AssertionError(f"never reached {dp.name}")

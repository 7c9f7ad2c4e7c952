"""Position builders for the Medarot parts rule tests (spec ``docs/rules/medarot_parts.md``).

``medarot_parts_test_pool.toml`` holds the cards of the worked examples of spec section 9 (Glass
Ward, Rust Bloom, Cannon, Missile, Rifle, Power Up, Jammer, Repair Kit, Gatling) with the
example values, plus inert filler parts (REPAIR parts of charge 9, never affordable) so that a
test position offers only the options it is about. ``pool()`` loads it with the engine's own
loader.

``make_state`` builds a position with the public builder ``envs.medarot_parts.position.position``
and starts the action step of a round with the given action medarots (or a turn); tests then
drive the engine only through ``GameState.apply``; ``do`` checks the decision point and the
deciding player first.

Test modules import it as ``from tests.envs.medarot_parts import fixtures as fx``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from deckgym.envs.medarot_parts.actions import DP, Action
from deckgym.envs.medarot_parts.cards import CardPool, load_pool
from deckgym.envs.medarot_parts.position import position
from deckgym.envs.medarot_parts.state import GameState, Part

HEAD, RA, LA, LEGS = range(4)


#: The test cards, in the engine's TOML card format.
CARDS_FILE = Path(__file__).with_name("medarot_parts_test_pool.toml")


def pool() -> CardPool:
    """The test pool, loaded by the engine's own loader."""
    return load_pool([CARDS_FILE])


PLAIN = ("MA3", "HEAD", "ARM_R", "ARM_L", "LEGS5")


def make_state(
    a: Sequence[Sequence[str]] = (PLAIN, PLAIN),
    b: Sequence[Sequence[str]] = (PLAIN, PLAIN),
    *,
    hands: Sequence[Iterable[str]] = ((), ()),
    stocks: Sequence[Iterable[str]] = ((), ()),
    decks: Sequence[Iterable[str]] = (("E_S",) * 20, ("E_S",) * 20),
    assets: Sequence[int] = (10000, 10000),
    counters: dict[tuple[int, int, int], int] | None = None,
    tapped: Iterable[tuple[int, int, int]] = (),
    destroyed: Iterable[tuple[int, int, int]] = (),
    am: Sequence[int] = (0, 0),
    first: int = 0,
    turn: int = 1,
    odd_turn_priority: int = 0,
    start: str = "action",
    **config: Any,
) -> GameState:
    """A position at the start of an action step (``start="action"``) or of a turn (``"turn"``).

    ``a`` and ``b`` are player 0's and player 1's medarots (medal, head, right arm, left arm,
    legs); ``counters``, ``tapped`` and ``destroyed`` address parts as (player, medarot, slot).
    ``decks`` are in the engine's order (top card last) and ``odd_turn_priority`` is the player with
    priority on odd turns (D5). The copy limits of D2 are not checked (tests use many copies
    of the inert filler parts). Built by ``envs.medarot_parts.position.position``.
    """
    counters = counters or {}
    tapped, destroyed = set(tapped), set(destroyed)

    def medarot(p: int, m: int, cards: Sequence[str]) -> list[Any]:
        medal, *parts = cards
        return [medal] + [
            {
                "card": cid,
                "counters": counters.get((p, m, s), 0),
                "tapped": (p, m, s) in tapped or (p, m, s) in destroyed,
                "destroyed": (p, m, s) in destroyed,
            }
            for s, cid in enumerate(parts)
        ]

    at_action = start == "action"
    return position(
        pool=pool(),
        field=[[medarot(p, m, x) for m, x in enumerate(side)] for p, side in enumerate((a, b))],
        hands=hands,
        stocks=stocks,
        decks=[list(d)[::-1] for d in decks],
        assets=assets,
        start="action" if at_action else "turn",
        turn=turn,
        priority=odd_turn_priority if turn % 2 else 1 - odd_turn_priority,
        action_medarots=am if at_action else None,
        first=first if at_action else None,
        deck_rules=False,
        **config,
    )


def do(st: GameState, action: Action, dp: DP | None = None, player: int | None = None) -> None:
    """Check the pending decision (if given) and apply ``action``."""
    if dp is not None:
        assert st.decision == dp.name, f"expected {dp.name}, at {st.decision}; events {st.events[-5:]}"
    if player is not None:
        assert st.current_player == player, (
            f"expected player {player} at {st.decision}, got {st.current_player}"
        )
    assert action in st.legal_actions(), f"{action} not in {st.legal_actions()} at {st.decision}"
    st.apply(action)


def forced(st: GameState, text: str) -> bool:
    """Whether the engine applied a forced decision (D37) whose ``auto`` record, written
    ``"P0 DECISION: ACTION"`` from its fields, contains ``text``."""
    return any(
        r["kind"] == "auto" and text in f"P{r['player']} {r['decision']}: {r['action']}" for r in st.records
    )


def part(st: GameState, p: int, m: int, s: int) -> Part:
    """The part in slot ``s`` of player ``p``'s medarot ``m``."""
    return st.field[p][m].parts[s]


def untapped(st: GameState, p: int, cid: str) -> int:
    """Untapped energy cards ``cid`` in ``p``'s stock."""
    return sum(1 for c, t in st.stock[p] if c == cid and not t)


__all__ = ["DP", "do", "forced", "make_state", "part", "pool", "untapped"]

"""Position builders for the Master of the World rule tests (spec ``docs/rules/mow.md``).

``POOL`` is the test-only fixture pool of spec section 9 (``fixture_cards.toml``: masters TM
and Sage; Grunt, Brute, Wall, Ogre, Scout, Alchemist, Sniper; Sword, Shield, Great Axe;
Fireball, Quick Bolt, Shatter, Denial, Forget, Insight, Recall; and the filler Pebble 1/1),
loaded with the engine's own loader.

``make_state`` builds a ``GameState`` (zones, levels from experience, monsters, weapons and
face-down spells) with the public builder ``envs.mow.position.position`` and starts it at a
turn step; tests then drive the engine only through ``GameState.apply``. ``do`` checks the decision point and the player first.

Test modules import it as ``from tests.envs.mow import fixtures as fx``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deckgym.envs.mow import actions as A
from deckgym.envs.mow.actions import DP, Action
from deckgym.envs.mow.cards import load_pool
from deckgym.envs.mow.position import position
from deckgym.envs.mow.state import GameState, Monster  # noqa: F401  (Monster: tests build field monsters by hand)

FIXTURE_FILE = str(Path(__file__).with_name("fixture_cards.toml"))
POOL = load_pool([FIXTURE_FILE])
K = {c.id: c.index for c in POOL.main}  # card id -> card type k
#: The packaged pool, for tests of the shipped cards.
CORE = load_pool()
CK = {c.id: c.index for c in CORE.main}  # packaged card id -> card type k


def deck_of(card: str = "PEBBLE", master: str = "TM", n: int = 40) -> list[str]:
    """A legal fixture deck: one master plus ``n`` copies of ``card``."""
    return [master] + [card] * n


def make_state(
    *,
    turn: int = 3,
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
    """A position at turn ``turn`` with ``active`` to act, started at task ``start``.

    A thin caller of the public builder ``envs.mow.position.position`` with this module's
    conventions: ``decks`` entries are a count of ``filler`` cards (Pebbles) or a list (top of
    deck LAST, as the engine stores it); ``discards`` are top last too; ``exp`` entries are
    counts of fillers under the master; a monster is a card id or ``(card, entered, damage)``;
    a spell is ``(card, cast_turn)``. The registered deck lists are ``deck_of(filler, master)``,
    and the builder is ``lenient``: a seat may hold more than 40 cards (filler-heavy piles) and
    a monster whose damage reaches its toughness is kept (tests add modifiers afterwards).
    """
    return position(
        pool=pool,
        masters=masters,
        hands=hands,
        decks=tuple(d if isinstance(d, int) else list(d)[::-1] for d in decks),
        experience=exp,
        life=life,
        monsters=monsters,
        weapons=weapons,
        spells=spells,
        discards=tuple(list(d)[::-1] for d in discards),
        turn=turn,
        active=active,
        first=first,
        start=start,
        filler=filler,
        decklists=(deck_of(filler, masters[0]), deck_of(filler, masters[1])),
        lenient=True,
        **config,
    )


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


def core_state(**kw: Any) -> GameState:
    """``make_state`` over the packaged pool: masters Ashen Regent by default, Moss Sprites as fillers."""
    kw.setdefault("masters", ("MS01", "MS01"))
    return make_state(pool=CORE, filler="MN01", **kw)


def cast_and_resolve(st: GameState, card: str, player: int) -> list[str]:
    """``player`` casts the packaged fast spell ``card`` in its main phase and the opponent lets it
    resolve; the effect-damage lines logged."""
    do(st, A.FAST[CK[card]], DP.MAIN, player)
    do(st, A.PASS, DP.COUNTER_WINDOW, 1 - player)
    return [e for e in st.events if "effect damage" in e]

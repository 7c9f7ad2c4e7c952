"""Position builders for the Medarot parts rule tests (spec ``docs/rules/medarot_parts.md``).

``TEST_CARDS`` holds the cards of the worked examples of spec section 9 (Glass Ward, Rust Bloom,
Cannon, Missile, Rifle, Power Up, Jammer, Repair Kit, Gatling) with the example values, plus
inert filler parts (REPAIR parts of charge 9, never affordable) so that a test position offers
only the options it is about. ``pool()`` writes them once into a TOML file in the temp
directory and loads it with the engine's own loader.

``make_state`` builds a position with the public builder ``envs.medarot_parts.position.position``
and starts the action step of a round with the given action medarots (or a turn); tests then
drive the engine only through ``GameState.apply``; ``do`` checks the decision point and the
deciding player first.

Test modules import it as ``from tests.envs.medarot_parts import fixtures as fx``.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from deckgym.envs.medarot_parts.actions import DP, Action
from deckgym.envs.medarot_parts.cards import CardPool, load_pool
from deckgym.envs.medarot_parts.position import position
from deckgym.envs.medarot_parts.state import GameState, Part

HEAD, RA, LA, LEGS = range(4)


def _part(
    cid: str,
    name: str,
    slot: str,
    action: str | None,
    attr: int,
    ar: int,
    ch: int = 0,
    pw: int = 0,
    **kw: Any,
) -> str:
    lines = [
        "[[card]]",
        f'id = "{cid}"',
        f'name = "{name}"',
        'type = "PART"',
        f'slot = "{slot}"',
        f"attribute = {attr}",
        f"armor = {ar}",
    ]
    if action is None:
        lines.append(f"mobility = {kw.pop('mob')}")
    else:
        lines += [f'action = "{action}"', f"charge = {ch}", f"power = {pw}"]
    lines.append(f"price = {kw.pop('price', 500)}")
    for k, v in kw.items():
        lines.append(f"{k} = {v}")
    return "\n".join(lines)


def _card(cid: str, name: str, ctype: str, **kw: Any) -> str:
    lines = ["[[card]]", f'id = "{cid}"', f'name = "{name}"', f'type = "{ctype}"']
    for k, v in kw.items():
        lines.append(f'{k} = "{v}"' if isinstance(v, str) and not v.startswith("[") else f"{k} = {v}")
    return "\n".join(lines)


TEST_CARDS = "\n\n".join(
    [
        _card("MA0", "Medal Zero", "MEDAL", attribute=0, efficient=2),
        _card("MA1", "Medal One", "MEDAL", attribute=1, efficient=1),
        _card("MA2", "Medal Two", "MEDAL", attribute=2, efficient=1),
        _card("MA3", "Medal Three", "MEDAL", attribute=3, efficient=2),
        _card("E_S", "Test Shoot Energy", "ENERGY", kind="SHOOT"),
        _card("E_M", "Test Melee Energy", "ENERGY", kind="MELEE"),
        _card("E_D", "Test Defense Energy", "ENERGY", kind="DEFENSE"),
        _card("E_U", "Test Support Energy", "ENERGY", kind="SUPPORT"),
        _card("EVD", "Test Evade", "EVADE"),
        _card("EFC", "Test Effect", "EFFECT"),
        # heads
        _part("GLASS", "Glass Ward", "HEAD", "PROTECT", 2, 4, 3, 4),
        _part("GLASS1", "Thin Shield", "HEAD", "PROTECT", 2, 1, 3, 4),
        _part("HEAD", "Plain Head", "HEAD", "REPAIR", 3, 5, 9, 1),
        _part("HEAD1", "Weak Head", "HEAD", "REPAIR", 3, 1, 9, 1),
        _part("SCOPE", "Test Scope", "HEAD", "AIMED", 3, 4, 0, 2),
        # right arms
        _part("ARM_R", "Plain Right", "RIGHT_ARM", "REPAIR", 3, 4, 9, 1),
        _part("HIT5", "Hitter Five", "RIGHT_ARM", "SHOOT", 3, 5, 0, 5),
        _part("HIT3", "Hitter Three", "RIGHT_ARM", "SHOOT", 3, 5, 0, 3),
        _part("HIT4", "Hitter Four", "RIGHT_ARM", "SHOOT", 3, 5, 0, 4),
        _part("ZERO", "Zero Gun", "RIGHT_ARM", "SHOOT", 3, 5, 0, 0),
        _part(
            "BLOOM",
            "Rust Bloom",
            "RIGHT_ARM",
            "PUNCH",
            1,
            3,
            2,
            3,
            effect_part="true",
            abilities='[{ source = "EFFECT", op = "POWER", amount = -2, target = "OPP_SLOT", slot = "RIGHT_ARM" }]',
        ),
        _part("CANNON", "Cannon", "RIGHT_ARM", "SHOOT", 3, 4, 1, 5),
        _part("MISSILE", "Missile", "RIGHT_ARM", "SHOOT", 0, 3, 3, 3),
        _part("RIFLE", "Rifle", "RIGHT_ARM", "SHOOT", 3, 3, 2, 5),
        _part(
            "NEEDLE",
            "Test Needle",
            "RIGHT_ARM",
            "AIMED",
            3,
            3,
            0,
            3,
            abilities='[{ source = "ON_USE", op = "NO_EVADE", target = "BATTLE" }]',
        ),
        _part(
            "BOOST",
            "Test Booster",
            "RIGHT_ARM",
            "SHOOT",
            3,
            3,
            0,
            2,
            abilities='[{ source = "ON_USE", op = "POWER", amount = 2, target = "SELF" }]',
        ),
        _part(
            "TUNED",
            "Test Tuned",
            "RIGHT_ARM",
            "SHOOT",
            0,
            3,
            2,
            2,
            abilities='[{ source = "STATIC", op = "POWER", amount = 1, target = "SELF", condition = "IF_MEDAL_MATCH" }, { source = "STATIC", op = "CHARGE", amount = -1, target = "SELF" }]',
        ),
        _part("GUARD_R", "Guard Right", "RIGHT_ARM", "PROTECT", 3, 4, 2, 2),
        _part(
            "SELFFX",
            "Self Effect",
            "RIGHT_ARM",
            "PUNCH",
            3,
            4,
            0,
            2,
            effect_part="true",
            abilities='[{ source = "EFFECT", op = "POWER", amount = 2, target = "SELF" }]',
        ),
        # left arms
        _part("ARM_L", "Plain Left", "LEFT_ARM", "REPAIR", 3, 4, 9, 1),
        _part("ARM_L3", "Left Armor Three", "LEFT_ARM", "REPAIR", 3, 3, 9, 1),
        _part("KIT", "Repair Kit", "LEFT_ARM", "REPAIR", 3, 3, 2, 2),
        _part("GATLING", "Gatling", "LEFT_ARM", "SHOOT", 3, 3, 1, 2, price=1500),
        _part("RECK", "Test Reckless", "LEFT_ARM", "RECKLESS", 3, 4, 0, 4),
        _part(
            "FLAG",
            "Test Flag",
            "LEFT_ARM",
            "SUPPORT",
            3,
            3,
            0,
            0,
            abilities='[{ source = "ON_USE", op = "REPAIR", amount = 2, target = "OWN_PART" }, { source = "ON_USE", op = "DRAW", amount = 1, target = "PLAYER" }]',
        ),
        _part(
            "HORN",
            "Test Horn",
            "LEFT_ARM",
            "SUPPORT",
            3,
            3,
            0,
            0,
            abilities='[{ source = "ON_USE", op = "POWER", amount = 1, target = "OWN_MEDAROT" }]',
        ),
        _part("GUARD_L", "Guard Left", "LEFT_ARM", "PROTECT", 3, 4, 0, 2),
        # legs
        _part("LEGS5", "Legs Five", "LEGS", None, 3, 5, mob=5),
        _part("LEGS3", "Legs Three", "LEGS", None, 3, 5, mob=3),
        _part("LEGS7", "Legs Seven", "LEGS", None, 3, 5, mob=7),
        _part("LEGS2", "Legs Two", "LEGS", None, 3, 2, mob=2),
        # medaroter cards
        _card(
            "POWUP",
            "Power Up",
            "MEDAROTER",
            timing="POWER",
            cost=1,
            duration="BATTLE",
            effects='[{ op = "POWER", amount = 2, target = "ATTACK_PART" }]',
        ),
        _card(
            "JAMMER",
            "Jammer",
            "MEDAROTER",
            timing="POWER",
            cost=2,
            duration="BATTLE",
            effects='[{ op = "POWER", amount = -3, target = "ATTACK_PART" }]',
        ),
        _card(
            "LOCK",
            "Test Lock",
            "MEDAROTER",
            timing="POWER",
            cost=0,
            duration="BATTLE",
            effects='[{ op = "NO_EVADE", target = "BATTLE" }]',
        ),
        _card(
            "WALL",
            "Test Wall",
            "MEDAROTER",
            timing="DEFENSE",
            cost=0,
            duration="INSTANT",
            effects='[{ op = "DAMAGE", amount = -3, target = "BATTLE" }]',
        ),
        _card(
            "BOLT",
            "Test Bolt-on",
            "MEDAROTER",
            timing="ACTION",
            cost=0,
            duration="ATTACHED",
            effects='[{ op = "POWER", amount = 1, target = "ATTACHED_PART" }]',
        ),
        _card(
            "HYMN",
            "Test Hymn",
            "MEDAROTER",
            timing="ACTION",
            cost=0,
            duration="TURN",
            effects='[{ op = "POWER", amount = 1, target = "OWN_MEDAROT" }]',
        ),
        _card(
            "RUST",
            "Test Rust",
            "MEDAROTER",
            timing="ACTION",
            cost=0,
            duration="TURN",
            effects='[{ op = "CHARGE", amount = 2, target = "OPP_SLOT", slot = "RIGHT_ARM" }]',
        ),
        _card(
            "WELD",
            "Test Weld",
            "MEDAROTER",
            timing="ACTION",
            cost=1,
            duration="INSTANT",
            effects='[{ op = "REPAIR", amount = 2, target = "OWN_PART" }]',
        ),
        _card(
            "DRAW2",
            "Test Draw",
            "MEDAROTER",
            timing="ACTION",
            cost=0,
            duration="INSTANT",
            effects='[{ op = "DRAW", amount = 2, target = "PLAYER" }]',
        ),
        _card(
            "RELAY",
            "Test Relay",
            "MEDAROTER",
            timing="ACTION",
            cost=0,
            duration="INSTANT",
            effects='[{ op = "UNTAP_ENERGY", amount = 2, target = "PLAYER" }]',
        ),
    ]
)


def pool() -> CardPool:
    """The test pool, written once per content to the temp directory."""
    digest = hashlib.sha256(TEST_CARDS.encode()).hexdigest()[:12]
    path = Path(tempfile.gettempdir()) / f"medarot_parts_test_pool_{digest}_{os.getpid()}.toml"
    if not path.exists():
        path.write_text(TEST_CARDS + "\n", encoding="utf-8")
    return load_pool([path])


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

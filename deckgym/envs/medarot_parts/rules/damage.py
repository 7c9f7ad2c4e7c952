"""Damage: block shock, allocation, destroyed part processing, stopping and the loss check.

Spec R16-R22, D26, D27, D33, D34 (battle step B7), and the damage to the proxy of an AMALOGS
table (amalogs D37, D40): its only part, a head, takes all the damage as counters.
"""

from __future__ import annotations

from deckgym.envs.core import proxy
from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP, Action
from deckgym.envs.medarot_parts.cards import SLOTS
from deckgym.envs.medarot_parts.rules.flow import ask, decision, end, task
from deckgym.envs.medarot_parts.rules.values import end_card_mods
from deckgym.envs.medarot_parts.state import GameState, Part
from deckgym.envs.medarot_parts.words import medarot_of, part_of, plural, proxy_name


@task
def block_shock(st: GameState) -> None:
    """Block shock (R13, R19-R21, D26): 1 counter on the protect part and damage - 1, unless it has armor - 1 counters.

    The counter is not damage: it never destroys the part and does not count as damage dealt.
    """
    b = st.battle
    assert b is not None
    d = 1 - b.attacker
    part = st.field[d][b.defender].parts[b.protect]
    armor = st.cards[part.card].armor
    shocked = not (part.destroyed or part.counters > armor - 2)
    if shocked:
        part.counters += 1
        b.damage = max(0, b.damage - 1)
        text = (
            f"P{d}'s block shock puts 1 counter on {part_of(st, d, b.defender, b.protect)}"
            f" ({part.counters} of armor {armor}), leaving damage {b.damage}"
        )
    else:
        text = (
            f"P{d}'s block shock: none, {part_of(st, d, b.defender, b.protect)} already holds"
            f" {part.counters} counters of armor {armor}"
        )
    st.emit(
        "block_shock",
        text,
        player=d,
        medarot=b.defender,
        slot=SLOTS[b.protect],
        shocked=shocked,
        counters=part.counters,
        armor=armor,
        amount=b.damage,
    )


@task
def allocation(st: GameState) -> None:
    """Damage allocation (R16, R17, D27): with damage >= 1 the defender picks one part (DP10)."""
    b = st.battle
    assert b is not None
    if b.damage >= 1:
        ask(st, DP.ALLOCATE, 1 - b.attacker)


def _allocate_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    b = st.battle
    assert b is not None
    parts = st.field[1 - b.attacker][b.defender].parts
    return [A.PART[s] for s in range(4) if not parts[s].destroyed]


@decision(DP.ALLOCATE, legal=_allocate_legal)
def allocate(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Put all the damage on the chosen part (R17); it is destroyed at counters >= armor (R18)."""
    b = st.battle
    assert b is not None
    d = 1 - b.attacker
    part = st.field[d][b.defender].parts[action.arg]
    part.counters += b.damage
    b.dealt = b.damage
    armor = st.cards[part.card].armor
    st.emit(
        "damage",
        f"P{d} takes {b.damage} damage on {part_of(st, d, b.defender, action.arg)}:"
        f" {part.counters} counters of armor {armor}",
        player=d,
        medarot=b.defender,
        slot=SLOTS[action.arg],
        amount=b.damage,
        counters=part.counters,
        armor=armor,
    )
    if part.counters >= armor:
        destroy_part(st, d, b.defender, action.arg)


def trash_attached(st: GameState, p: int, part: Part) -> None:
    """Trash the effect card and medaroter cards on a part and end their modifiers (R22 step 2)."""
    if part.effect is not None:
        st.trash[p].append(part.effect)
        part.effect = None
    if part.attached:
        st.trash[p].extend(part.attached)
        part.attached = []
    end_card_mods(st, part.uid)


def destroy_part(st: GameState, p: int, m: int, s: int) -> None:
    """Destroyed part processing (R22): counters off, attached cards trashed, face down, tapped.

    Destroying a head stops the medarot (D33); the loss check follows at once (D34).
    """
    part = st.field[p][m].parts[s]
    part.counters = 0
    trash_attached(st, p, part)
    part.destroyed = True
    part.tapped = True
    st.emit("destroy", f"{part_of(st, p, m, s)} is destroyed", player=p, medarot=m, slot=SLOTS[s])
    if s == 0:
        stop_medarot(st, p, m)


def stop_medarot(st: GameState, p: int, m: int) -> None:
    """A medarot whose head is destroyed stops (D33): its attached cards go, it is no action or defending medarot."""
    for part in st.field[p][m].parts:
        trash_attached(st, p, part)
    if st.action_medarot[p] == m:
        st.action_medarot[p] = -1
    b = st.battle
    if b is not None and b.attacker != p and b.defender == m:
        b.defender = -1
    st.emit("stop", f"{medarot_of(st, p, m)} is stopped: its head is destroyed", player=p, medarot=m)
    check_all_stopped(st, p)


def check_all_stopped(st: GameState, p: int) -> None:
    """Loss 1 (D34, section 8): a player all of whose medarots are stopped loses at once."""
    if all(m.stopped for m in st.field[p]):
        end(st, 1 - p, f"P{p} has no medarot left")


# ----------------------------------------------------------------------------- the proxy (AMALOGS)
def proxy_at(st: GameState, p: int) -> bool:
    """Whether seat ``p`` holds the proxy of an AMALOGS table that still stands (D37: seat 1 only)."""
    return p == 1 and st.config.proxy != proxy.NONE and st.proxy_life > 0


def hit_proxy(st: GameState) -> None:
    """B7 against the proxy (D37, D40): the whole damage goes to its head, no window or response.

    A guest proxy's head takes the damage as counters (P drops by it); a base proxy's head
    takes exactly 1 counter for a successful attack (damage >= 1). Counters reaching its armor
    destroy it: P is 0 and the table ends at once, the host winning it (the rest of the action
    step and the end phase are abandoned).
    """
    b = st.battle
    assert b is not None
    kind = st.config.proxy
    before = st.proxy_life
    st.proxy_life = proxy.after_attack(before, b.damage, kind)
    b.defender = 0
    b.dealt = before - st.proxy_life
    name = proxy_name(st)
    text = f"P{b.attacker}'s attack deals {b.damage} damage to {name}: " + (
        f"{plural(b.dealt, 'counter')} on its head, life {before} -> {st.proxy_life}"
        if st.proxy_life
        else f"its head is destroyed, life {before} -> 0"
    )
    st.emit(
        "proxy_hit",
        text,
        player=b.attacker,
        medarot=b.medarot,
        slot=SLOTS[b.slot],
        proxy=proxy.KINDS[kind],
        hit=b.damage,
        life=st.proxy_life,
    )
    if st.proxy_life == 0:
        end(st, b.attacker, f"{name} has no life left")

"""Fixed-width text rendering of a Medarot parts position for humans (standard library only).

``render_text(state, viewer)`` draws the header (turn, round, priority, decision point), both
players' sides (assets, hand, deck, stock, play area, trash size and two medarots of five
cards each), the battle under way and the last events. With ``viewer=None`` both hands are
shown; with ``viewer=p`` the other player's hand is drawn as a count only (spec section 7).
On an AMALOGS proxy table seat 1 is drawn as the stand-in: its kind, its head and its life P.
"""

from __future__ import annotations

from deckgym.envs.core import proxy
from deckgym.envs.core.events import lines_for
from deckgym.envs.medarot_parts.cards import ACTION_WORDS, ENERGY_KINDS, LEGS, SLOT_WORDS
from deckgym.envs.medarot_parts.rules.values import charge, mobility, power
from deckgym.envs.medarot_parts.state import GameState
from deckgym.envs.medarot_parts.words import proxy_name

#: How many of the latest events are shown.
EVENTS_SHOWN = 8
_SLOT_LABEL = ("head ", "r.arm", "l.arm", "legs ")


def render_text(state: GameState, viewer: int | None = None) -> str:
    """A readable fixed-width board of ``state`` as seen by ``viewer`` (None: both hands shown).

    Raises:
        ValueError: if ``viewer`` is neither ``None`` nor a seat of the game.
    """
    if viewer is not None and viewer not in (0, 1):
        raise ValueError(f"viewer must be None, 0 or 1, got {viewer!r}")
    st = state
    lines = [_header(st), "-" * 78]
    for p in (1, 0):
        lines += _player(st, p, viewer)
        lines.append("-" * 78)
    if st.battle is not None:
        b = st.battle
        resp = ("-", "nothing", "evade", "protect")[b.response + 1]
        lines.append(
            f"battle: P{b.attacker} medarot {b.medarot} {SLOT_WORDS[b.slot]} -> damage {b.damage}, "
            f"defender {b.defender}, response {resp}, paid {b.amount}, no evade {b.no_evade}, dealt {b.dealt}"
        )
    lines += ["events:"] + [
        f"  {e}"
        for e in lines_for(st, viewer, last=EVENTS_SHOWN, names={c: d.name for c, d in st.cards.items()})
    ]
    return "\n".join(lines)


def _header(st: GameState) -> str:
    if st.done:
        status = f"game over: {st.reason}"
    else:
        status = f"decision {st.decision} by P{st.current_player}"
    return f"turn {st.turn} round {st.round}  priority P{st.priority}  first P{st.first}  {status}"


def _proxy(st: GameState) -> list[str]:
    """Seat 1 of an AMALOGS proxy table: the defender's stand-in or the enemy base (D37, D40)."""
    life, armor = st.proxy_life, st.proxy_armor
    how = "1 per attack dealing damage" if st.config.proxy == proxy.BASE else "the damage of each attack"
    state = "destroyed" if life == 0 else f"{armor - life}/{armor} dmg"
    return [
        f"P1  {proxy_name(st)}: life {life} (loses {how}); no cards, medal or legs",
        f"    medarot 0: stand-in{' stopped' if life == 0 else ''}",
        f"      {_SLOT_LABEL[0]} {'Stand-in Head':<16} {'':<22} {state}",
    ]


def _player(st: GameState, p: int, viewer: int | None) -> list[str]:
    if p == 1 and st.config.proxy:
        return _proxy(st)
    cards = st.cards
    if viewer is None or viewer == p:
        hand = ", ".join(cards[c].name for c in st.hand[p]) or "-"
    else:
        hand = f"{len(st.hand[p])} cards"
    stock = "  ".join(
        f"{k.lower()} {sum(1 for c, t in st.stock[p] if cards[c].kind == i and not t)}"
        f"/{sum(1 for c, _ in st.stock[p] if cards[c].kind == i)}"
        for i, k in enumerate(ENERGY_KINDS)
    )
    play = ", ".join(cards[c].name for c in st.play[p]) or "-"
    lines = [
        f"P{p}  assets {st.assets[p]} G  deck {len(st.deck[p])}  trash {len(st.trash[p])}  hand: {hand}",
        f"    stock (untapped/all): {stock}   play area: {play}",
    ]
    for m, med in enumerate(st.field[p]):
        mc = cards[med.medal]
        flags = " stopped" if med.stopped else ""
        flags += " [action medarot]" if st.action_medarot[p] == m else ""
        lines.append(
            f"    medarot {m}: {mc.name} (attr {mc.attribute}, E{mc.efficient}"
            f"{', tapped' if med.medal_tapped else ''}) mobility {mobility(st, p, m)}{flags}"
        )
        for s, part in enumerate(med.parts):
            c = cards[part.card]
            if part.destroyed:
                state = "destroyed"
            else:
                state = f"{part.counters}/{c.armor} dmg{' tapped' if part.tapped else ''}"
            if s == LEGS:
                stats = f"mob {c.mobility}"
            else:
                stats = f"{ACTION_WORDS[c.action]:<10} ch {charge(st, p, m, s)} pw {power(st, p, m, s)}"
            extra = " +effect" if part.effect else ""
            extra += f" +{len(part.attached)} attached" if part.attached else ""
            lines.append(f"      {_SLOT_LABEL[s]} {c.name:<16} {stats:<22} {state}{extra}")
    return lines

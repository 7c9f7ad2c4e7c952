"""Text rendering of a Master of the World position for humans (no colour libraries).

``viewer`` None shows everything (a spectator with full knowledge); a seat number hides what
that seat cannot see: the opponent's hand and face-down spell. The proxy at seat 1 of an
AMALOGS table is one line: the defender's stand-in or the enemy base, its life P, attack/guard 0/0.
"""

from __future__ import annotations

from deckgym.envs.core import proxy
from deckgym.envs.core.events import lines_for
from deckgym.envs.mow.actions import Phase, Use
from deckgym.envs.mow.rules.values import master_attack, master_guard, max_toughness, monster_attack, sick
from deckgym.envs.mow.state import GameState


def _player(st: GameState, p: int, viewer: int | None) -> list[str]:
    if st.is_proxy(p):
        note = "each attack that deals damage costs it 1" if st.config.proxy == proxy.BASE else "no cards"
        return [f"P{p}  {st.stand_in()}: life {st.life[p]}, attack 0, guard 0 ({note})"]
    if p not in st.seats():
        return [f"P{p}  (vacant seat)"]
    hidden = viewer is not None and viewer != p
    m = st.cards[st.masters[p]]
    lines = [
        f"P{p}{' (active)' if st.active == p else ''}  master {m.name}  life {st.life[p]}  "
        f"level {st.level[p]}/{m.max_level}  {master_attack(st, p)}/{master_guard(st, p)}  "
        f"exp {len(st.exp[p])}  deck {len(st.deck[p])}  hand {len(st.hand[p])}  discard {len(st.discard[p])}"
        + ("  (attacked)" if st.master_attacked[p] else "")
    ]
    w = st.weapon[p]
    s = st.spell[p]
    spell = "-"
    if s is not None:
        spell = (
            "a face-down spell" if hidden else st.name(s[0])
        ) + f" (cast t{s[1]}{', ready' if st.turn > s[1] else ''})"
    lines.append(f"  weapon {st.name(w[0]) if w else '-'}   spell {spell}")
    for i, mon in enumerate(st.monsters[p]):
        mt = max_toughness(st, p, mon)
        flags = (" sick" if sick(st, mon) else "") + (" attacked" if mon.attacked else "")
        lines.append(
            f"  [{i}] {st.name(mon.card)} {monster_attack(st, p, mon)}/{mt - mon.damage} (max {mt}){flags}"
        )
    if not hidden:
        lines.append("  hand: " + (", ".join(st.name(c) for c in st.hand[p]) or "-"))
    return lines


def render_text(st: GameState, viewer: int | None = None) -> str:
    """The board, the chain, the decision point and the last events."""
    head = f"turn {st.turn}  {Phase(st.phase).name.lower()}  decision {st.decision or '-'}"
    if st.decision_point is not None:
        head += f" (P{st.current_player})"
    out = [head]
    for p in (0, 1):
        out += _player(st, p, viewer)
    if st.chain:
        out.append("chain (top last):")
        for user, kind, card, _uid, negated, _here, _ai in st.chain:
            hide = kind == Use.CAST and viewer is not None and viewer != user
            name = "a spell" if hide else st.name(card)
            out.append(f"  P{user} {Use(kind).name.lower()} {name}{' (negated)' if negated else ''}")
    if st.done:
        out.append(f"game over: {st.reason}")
    out += ["events:", *("  " + e for e in lines_for(st, viewer, last=8))]
    return "\n".join(out)

"""Finding cards on the field (4.2, 4.8) and the TARGET[s][q] positions of section 6.

A reference is a field card's uid, or ``-1 - p`` for player p's master. A position is
``(side, q)`` seen from a deciding player: side 0 self, 1 opponent; q 0 master, 1..5 monster
position q-1, 6 weapon, 7 face-down spell.
"""

from __future__ import annotations

from deckgym.envs.mow.actions import SPELL_POS, TARGET, WEAPON_POS, Action
from deckgym.envs.mow.cards import MASTER, MONSTER, SPELL, WEAPON
from deckgym.envs.mow.state import GameState


def locate(st: GameState, ref: int) -> tuple[int, str, int] | None:
    """``(owner, kind, q)`` of a reference still on the field (spell: in its slot), or None."""
    if ref < 0:
        return (-1 - ref, MASTER, 0)
    for p in (0, 1):
        for i, m in enumerate(st.monsters[p]):
            if m.uid == ref:
                return (p, MONSTER, 1 + i)
        w = st.weapon[p]
        if w is not None and w[1] == ref:
            return (p, WEAPON, WEAPON_POS)
        s = st.spell[p]
        if s is not None and s[2] == ref:
            return (p, SPELL, SPELL_POS)
    return None


def target_action(viewer: int, owner: int, q: int) -> Action:
    """TARGET[s][q] of a card of ``owner`` at position q, seen by ``viewer``."""
    return TARGET[(0 if owner == viewer else 8) + q]


def ref_at(st: GameState, viewer: int, arg: int) -> int:
    """The reference at TARGET argument ``arg`` seen by ``viewer`` (inverse of ``target_action``)."""
    owner = viewer if arg < 8 else 1 - viewer
    q = arg % 8
    if q == 0:
        return -1 - owner
    if q == WEAPON_POS:
        return st.weapon[owner][1]  # type: ignore[index]
    if q == SPELL_POS:
        return st.spell[owner][2]  # type: ignore[index]
    return st.monsters[owner][q - 1].uid


def matching(st: GameState, ctl: int, side: str, kinds: tuple[str, ...]) -> list[tuple[int, str, int, int]]:
    """Cards of ``kinds`` on ``side`` (relative to ``ctl``) as ``(owner, kind, q, ref)`` in table order."""
    owners = (ctl,) if side == "OWN" else (1 - ctl,) if side == "OPP" else (ctl, 1 - ctl)
    out: list[tuple[int, str, int, int]] = []
    seated = st.seats()
    for p in owners:
        if p not in seated:
            continue
        if MASTER in kinds:
            out.append((p, MASTER, 0, -1 - p))
        if MONSTER in kinds:
            out += [(p, MONSTER, 1 + i, m.uid) for i, m in enumerate(st.monsters[p])]
        w = st.weapon[p]
        if WEAPON in kinds and w is not None:
            out.append((p, WEAPON, WEAPON_POS, w[1]))
        s = st.spell[p]
        if SPELL in kinds and s is not None:
            out.append((p, SPELL, SPELL_POS, s[2]))
    return out

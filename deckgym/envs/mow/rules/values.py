"""Derived values (spec 4.9, D8, D9, D39): level, attack, guard, toughness, slots, charge limit.

Nothing here is stored: every value is computed from the state when asked, so a level
change or a static effect leaving the field takes effect at once (D9).
"""

from __future__ import annotations

from deckgym.envs.mow.cards import CardDef, Static
from deckgym.envs.mow.config import CHARGE_LIMIT
from deckgym.envs.mow.state import GameState, Monster


def level_for(master: CardDef, n_exp: int) -> int:
    """D8: the largest level L <= max_level whose threshold is <= the experience count."""
    table = master.level_table
    lv = 0
    for L in range(1, master.max_level + 1):
        if table[L][0] <= n_exp:
            lv = L
    return lv


def card_statics(card: CardDef) -> tuple[tuple[int, Static], ...]:
    """The card's スキル as ``(min_level, static)`` pairs (min_level 0 except for master skills)."""
    return card.statics


def active_statics(st: GameState, field: str = "statics") -> list[tuple[int, int, Static]]:
    """Every static effect in force: ``(owner, source uid or master ref, static)``.

    The derived values below take it as ``active`` when one caller reads many of them from
    the same state (the encoder), so it is worked out once. ``field="stat_mods"`` lists the
    STAT_MOD effects alone (``CardDef.stat_mods``), in the same order.
    """
    out: list[tuple[int, int, Static]] = []
    cards = st.cards
    for p in st.seats():
        for min_level, s in getattr(cards[st.masters[p]], field):
            if st.level[p] >= min_level:
                out.append((p, -1 - p, s))
        for m in st.monsters[p]:
            for _, s in getattr(cards[m.card], field):
                out.append((p, m.uid, s))
        w = st.weapon[p]
        if w is not None:
            for _, s in getattr(cards[w[0]], field):
                out.append((p, w[1], s))
    return out


Active = list[tuple[int, int, Static]]


def _stat_mod(st: GameState, p: int, ref: int, active: Active | None = None) -> tuple[int, int]:
    """Sum of active STAT_MOD deltas on player ``p``'s master (``ref < 0``) or monster ``ref``."""
    if active is None:
        active = active_statics(st, "stat_mods")
        if not active:
            return 0, 0
    da = dd = 0
    is_master = ref < 0
    for owner, src, s in active:
        if s.kind != "STAT_MOD":
            continue
        own = owner == p
        scope = s.scope
        if is_master:
            hit = (scope == "SELF" and src == ref) or (scope == "OWN_MASTER" and own)
            hit = hit or (scope == "OPP_MASTER" and not own)
        else:
            hit = (scope == "SELF" and src == ref) or (scope == "OWN_MONSTERS" and own)
            hit = hit or (scope == "OWN_OTHER_MONSTERS" and own and src != ref)
            hit = hit or (scope == "OPP_MONSTERS" and not own)
        if hit:
            da += s.d_atk
            dd += s.d_def
    return da, dd


def master_stats(st: GameState, p: int, active: Active | None = None) -> tuple[int, int]:
    """4.9: the master's (attack, guard): table value + weapon + modifiers + STAT_MOD, each floored at 0 (D39).

    A seat with no master card (the proxy of an AMALOGS table, or a vacant seat) has (0, 0).
    """
    if not st.masters[p]:
        return 0, 0
    row = st.cards[st.masters[p]].level_table[st.level[p]]
    attack, guard = _stat_mod(st, p, -1 - p, active)
    attack += row[1] + sum(x[0] for x in st.master_mods[p])
    guard += row[2] + sum(x[1] for x in st.master_mods[p])
    w = st.weapon[p]
    if w is not None:
        weapon = st.cards[w[0]]
        attack += weapon.attack
        guard += weapon.guard
    return max(0, attack), max(0, guard)


def master_attack(st: GameState, p: int, active: Active | None = None) -> int:
    """4.9: the master's attack (see :func:`master_stats`)."""
    return master_stats(st, p, active)[0]


def master_guard(st: GameState, p: int, active: Active | None = None) -> int:
    """4.9: the master's guard (see :func:`master_stats`)."""
    return master_stats(st, p, active)[1]


def monster_attack(st: GameState, p: int, m: Monster, active: Active | None = None) -> int:
    """4.9: base attack + modifiers + STAT_MOD, floored at 0 (D39)."""
    return max(0, st.cards[m.card].attack + sum(x[0] for x in m.mods) + _stat_mod(st, p, m.uid, active)[0])


def max_toughness(st: GameState, p: int, m: Monster, active: Active | None = None) -> int:
    """4.9: base toughness + modifiers + STAT_MOD (not floored, D39)."""
    return st.cards[m.card].toughness + sum(x[1] for x in m.mods) + _stat_mod(st, p, m.uid, active)[1]


def toughness(st: GameState, p: int, m: Monster) -> int:
    """Current toughness = max toughness - damage (R26, D38)."""
    return max_toughness(st, p, m) - m.damage


def slots(st: GameState, p: int) -> int:
    """Summon slots = level (R17)."""
    return st.level[p]


def charge_limit(st: GameState, p: int) -> int:
    """Charge limit = 2 + the EXTRA_CHARGE of the master's active skills (D7)."""
    extra = 0
    for min_level, s in st.cards[st.masters[p]].skills:
        if s.kind == "EXTRA_CHARGE" and st.level[p] >= min_level:
            extra += s.n
    return CHARGE_LIMIT + extra


def sick(st: GameState, m: Monster) -> bool:
    """D33: a monster that entered the field this turn cannot attack."""
    return m.entered >= st.turn

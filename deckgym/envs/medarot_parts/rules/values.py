"""Current values and energy (spec 4.3 "Current values", D19, D20, D39, D42).

Current power and charge = printed value + active STATIC abilities + modifiers, clamped to
0..9. Modifiers are rows of ``GameState.mods``: bound to a part (they follow that part) or to
slots of a medarot (they apply to whatever part is exchanged into the slot, D28, D42).
Energy is counted in energy points (EP): charge c costs 2c EP; a matching energy card gives 2
EP, any other energy card 1 EP, an eligible medal 2 x its efficient value (D20). And the
primitives of the use under way (``use_abilities``), which the rules and the descriptions read.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.medarot_parts.cards import EFFICIENT_KIND, LEGS, Ability
from deckgym.envs.medarot_parts.state import STAT_CHARGE, STAT_POWER, UNTIL_CARD, GameState, Part

_MAX: Final = 9


def _modified(st: GameState, p: int, m: int, s: int, part: Part, stat: int, base: int) -> int:
    """``base`` plus STATIC abilities and modifiers on the part in slot ``s``, clamped (D39)."""
    med = st.field[p][m]
    v = base
    if not part.destroyed and not med.stopped:
        c = st.cards[part.card]
        k = 0 if stat == STAT_POWER else 2
        statics = c.statics
        v += statics[k]
        if statics[k + 1] and st.cards[med.medal].attribute == c.attribute:
            v += statics[k + 1]
    if st.mods:
        bit = 1 << s
        uid = part.uid
        for mod in st.mods:
            if mod[0] == stat and (
                mod[2] == uid or (mod[2] < 0 and mod[3] == p and mod[4] == m and mod[5] & bit)
            ):
                v += mod[1]
    return 0 if v < 0 else min(v, _MAX)


def power(st: GameState, p: int, m: int, s: int) -> int:
    """Current power of the part in slot ``s`` of player ``p``'s medarot ``m``."""
    part = st.field[p][m].parts[s]
    return _modified(st, p, m, s, part, STAT_POWER, st.cards[part.card].power)


def charge(st: GameState, p: int, m: int, s: int) -> int:
    """Current charge of the part in slot ``s`` of player ``p``'s medarot ``m``."""
    part = st.field[p][m].parts[s]
    return _modified(st, p, m, s, part, STAT_CHARGE, st.cards[part.card].charge)


def mobility(st: GameState, p: int, m: int) -> int:
    """Current mobility of the medarot's legs (no primitive modifies it, D39)."""
    return min(_MAX, st.cards[st.field[p][m].parts[LEGS].card].mobility)


def medal_pays(st: GameState, p: int, m: int, s: int) -> bool:
    """Whether medarot ``m``'s medal pays efficiently for its part in slot ``s`` (same attribute, D19)."""
    med = st.field[p][m]
    return st.cards[med.medal].attribute == st.cards[med.parts[s].card].attribute


def available_ep(st: GameState, p: int, kind: int, medal: tuple[int, int] | None) -> int:
    """EP player ``p`` can produce now for a cost paid efficiently by energy ``kind`` (D20).

    ``medal`` is the (player, medarot) whose medal may pay, or None.
    """
    ep = 0
    for row in st.stock[p]:
        if not row[1]:
            ep += 2 if st.cards[row[0]].kind == kind else 1
    if medal is not None:
        med = st.field[medal[0]][medal[1]]
        if not med.medal_tapped:
            ep += 2 * st.cards[med.medal].efficient
    return ep


def part_payment(st: GameState, p: int, m: int, s: int) -> tuple[int, tuple[int, int] | None]:
    """(efficient energy kind, eligible medal) for paying the charge of a part (D19)."""
    kind = EFFICIENT_KIND[st.cards[st.field[p][m].parts[s].card].action]
    return kind, ((p, m) if medal_pays(st, p, m, s) else None)


def can_afford_part(st: GameState, p: int, m: int, s: int) -> bool:
    """Whether the part's current charge is payable now (R3, D18)."""
    need = 2 * charge(st, p, m, s)
    if need == 0:
        return True
    kind, medal = part_payment(st, p, m, s)
    return available_ep(st, p, kind, medal) >= need


def stat_of(op: str) -> int:
    """The modifier stat an ability's ``POWER`` or ``CHARGE`` op changes (any case)."""
    return STAT_POWER if op.upper() == "POWER" else STAT_CHARGE


def add_mod(
    st: GameState,
    stat: int,
    amount: int,
    until: int,
    *,
    uid: int = -1,
    slots: tuple[int, int, int] = (-1, -1, 0),
    src: int = -1,
) -> None:
    """Add a modifier: bound to part ``uid``, or to ``slots`` = (player, medarot, slot bit mask)."""
    st.mods.append([stat, amount, uid, slots[0], slots[1], slots[2], until, src])


def end_duration(st: GameState, duration: int, until: int) -> None:
    """End of battle or reset phase: cards in play lasting ``duration`` go to the trash, modifiers lasting ``until`` end."""
    for p in (0, 1):
        keep = []
        for cid in st.play[p]:
            if st.cards[cid].duration == duration:
                st.trash[p].append(cid)
            else:
                keep.append(cid)
        st.play[p] = keep
    st.mods = [m for m in st.mods if m[6] != until]


def end_card_mods(st: GameState, part_uid: int) -> None:
    """Remove the modifiers of cards carried by part ``part_uid`` and those that follow that part."""
    st.mods = [m for m in st.mods if not ((m[6] == UNTIL_CARD and m[7] == part_uid) or m[2] == part_uid)]


def use_abilities(st: GameState) -> tuple[Ability, ...]:
    """The primitives of the use under way: the card's effects or the support part's ON_USE abilities."""
    assert st.use is not None
    card = st.cards[st.use[1]]
    if st.use[2] < 0:
        return card.abilities
    return tuple(a for a in card.abilities if a.source == "ON_USE")

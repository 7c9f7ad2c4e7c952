"""Tactical summaries of the board for the Medarot OCG observation: reach, threat and lasting effects.

Which squares each Medarot could attack (D11-D13), the highest known power reaching each
square for either side, and the statuses and modifiers that the lasting effects put on units.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.medarot_ocg.state import GameState

#: Card type -> attack kind of ``_REACH`` (0 shooting, 1 melee); other types do not attack.
_TYPE_INDEX: Final = {"SHOOTING": 0, "MELEE": 1}


def _reach(owner: int, square: int, kind: int) -> tuple[tuple[int, int], ...]:
    """Squares a Medarot could attack from ``square`` (D11-D13), each with the square that must be empty."""
    step = 5 if owner == 0 else -5
    out = []
    one, two = square + step, square + 2 * step
    if kind == 0 and 0 <= two < 15:
        out.append((two, -1))
    if kind == 1:
        if 0 <= one < 15:
            out.append((one, -1))
        if 0 <= two < 15:
            out.append((two, one))
    if square // 5 == 1:
        out += [(t, -1) for t in (square - 1, square + 1) if t // 5 == 1]
    return tuple(out)


#: _REACH[owner][square][0 shooting | 1 melee] -> ((target, square that must be empty or -1), ...)
_REACH: Final = tuple(tuple(tuple(_reach(p, s, k) for k in range(2)) for s in range(15)) for p in range(2))
#: The summary of a board without lasting effects (shared, never written to).
_NO_EFFECTS: Final[tuple[dict[int, int], set[int], dict[int, list[int]], list[int], list[int]]] = (
    {},
    set(),
    {},
    [0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
)
_MOD_INDEX: Final = {"MOD_SPEED": 2, "MOD_POWER": 0, "MOD_ARMOR": 1}
_STATUS_BIT: Final = {"DISABLE": 1, "ROOT": 2, "GUARD": 4}


def _tactics(
    st: GameState, seat: int, mods: dict[int, list[int]], stats: dict[str, tuple[int, int, int, int, int]]
) -> tuple[list[int], list[int], list[int]]:
    """Per absolute square: highest known enemy power reaching it, the same for own Medarots, and the armor there."""
    board = st.board
    threat = [0] * 15
    reach = [0] * 15
    armor = [0] * 15
    for s, x in enumerate(board):
        if x is None:
            continue
        mine = x.owner == seat
        if not (x.face_up or mine):
            continue
        power, arm, _speed, kind, _cost = stats[x.change or x.base]
        if mods and x.uid in mods:
            d = mods[x.uid]
            power = max(0, power + d[0])
            arm = max(0, arm + d[1])
        armor[s] = arm
        if kind < 0 or power == 0:
            continue
        into = reach if mine else threat
        for t, between in _REACH[x.owner][s][kind]:
            if power > into[t] and (between < 0 or board[between] is None):
                into[t] = power
    return threat, reach, armor


def _effect_summary(
    st: GameState, seat: int
) -> tuple[dict[int, int], set[int], dict[int, list[int]], list[int], list[int]]:
    """Statuses, sideways uids, modifier sums per uid, TRAP/DOT totals and dynamic modifiers."""
    if not st.effects:
        return _NO_EFFECTS
    statuses: dict[int, int] = {}
    sideways: set[int] = set()
    mods: dict[int, list[int]] = {}
    tot = [0, 0, 0, 0]  # TRAP own, TRAP opp, DOT own, DOT opp
    dyn = [0, 0, 0, 0, 0, 0]  # own power/armor/speed, then the opponent's (END_OF_TURN scope)
    cards = st.cards
    if st.effects:
        units = {x.uid: x for x in st.board if x is not None}
        for e in st.effects:
            op = e.op
            src = e.src_uid
            if src >= 0:
                sideways.add(src)
            k = _MOD_INDEX.get(op, -1)
            flt = e.flt
            if e.targets is None:
                if op == "TRAP" or op == "DOT":
                    tot[(2 if op == "DOT" else 0) + (e.scope != seat)] += e.amount
                elif k >= 0:
                    dyn[3 * (e.scope != seat) + k] += e.amount
                    for x in units.values():
                        if x.owner == e.scope and (flt == "ANY" or cards[x.change or x.base].type == flt):
                            mods.setdefault(x.uid, [0, 0, 0])[k] += e.amount
                continue
            bit = _STATUS_BIT.get(op, 0)
            for u in e.targets:
                if src >= 0:
                    sideways.add(u)
                if bit:
                    statuses[u] = statuses.get(u, 0) | bit
                elif k >= 0:
                    unit = units.get(u)
                    if unit is not None and (flt == "ANY" or cards[unit.change or unit.base].type == flt):
                        mods.setdefault(u, [0, 0, 0])[k] += e.amount
    return statuses, sideways, mods, tot, dyn

"""Board geometry, effective values and ranges (spec sections 3.2, 4.2, D6-D14, D21).

It also takes effect sources away: a Medarot off the board (``remove_stack``) or a card out of
a stock slot (``trash_slot``), ending the lasting effects they gave (D25, D31).

Squares are ``s = 5 * row + column``; row 0 is P0's field, row 1 the neutral field,
row 2 P1's field. Directions are owner-relative (D7); P1's vectors are P0's rotated 180°.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from deckgym.envs.medarot_ocg.cards import MEDAROT, MELEE, SHOOTING, SPECIAL, CardDef
from deckgym.envs.medarot_ocg.state import Eff, GameState, Stack

NEUTRAL_ROW: Final = 1
_P0_VECTORS: Final[tuple[tuple[int, int], ...]] = (
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
)


def own_row(player: int) -> int:
    """The row of ``player``'s own field (D6)."""
    return 0 if player == 0 else 2


def forward(player: int) -> int:
    """Row step of 'forward' for ``player`` (D7)."""
    return 1 if player == 0 else -1


def _neighbour(square: int, player: int, direction: int) -> int:
    dr, dc = _P0_VECTORS[direction]
    if player == 1:
        dr, dc = -dr, -dc
    r, c = divmod(square, 5)
    r, c = r + dr, c + dc
    return 5 * r + c if 0 <= r < 3 and 0 <= c < 5 else -1


#: NEIGHBOUR[player][square][direction] -> square or -1 (off board).
NEIGHBOUR: Final = tuple(
    tuple(tuple(_neighbour(s, p, d) for d in range(8)) for s in range(15)) for p in range(2)
)
#: Squares a player may move to (own row and neutral row, D8).
MOVABLE: Final = tuple(
    frozenset(s for s in range(15) if s // 5 in (own_row(p), NEUTRAL_ROW)) for p in range(2)
)
#: Squares a player may place on (own row only).
OWN_SQUARES: Final = tuple(tuple(range(5 * own_row(p), 5 * own_row(p) + 5)) for p in range(2))
#: 8-adjacency, used by GUARD (P5).
ADJACENT: Final = tuple(
    frozenset(t for t in range(15) if t != s and abs(t // 5 - s // 5) <= 1 and abs(t % 5 - s % 5) <= 1)
    for s in range(15)
)


def to_relative(square: int, player: int) -> int:
    """Absolute square to ``player``'s frame (4.2): row' 0 own, 1 neutral, 2 opponent; col' from own left."""
    if player == 0:
        return square
    r, c = divmod(square, 5)
    return 5 * (2 - r) + (4 - c)


def from_relative(square: int, player: int) -> int:
    """Inverse of ``to_relative`` (the map is its own inverse)."""
    return to_relative(square, player)


def top(st: GameState, stack: Stack) -> CardDef:
    """The card whose values a stack uses (R51)."""
    return st.cards[stack.change or stack.base]


def square_of(st: GameState, uid: int) -> int:
    """Square of the stack with ``uid``, or -1 if it is not on the board."""
    for s, x in enumerate(st.board):
        if x is not None and x.uid == uid:
            return s
    return -1


def stack_by_uid(st: GameState, uid: int) -> Stack | None:
    """The stack with ``uid`` if it is on the board."""
    for x in st.board:
        if x is not None and x.uid == uid:
            return x
    return None


def count_units(st: GameState, player: int) -> int:
    """Number of ``player``'s Medarots on the board."""
    return sum(1 for x in st.board if x is not None and x.owner == player)


def _modifier(st: GameState, stack: Stack, op: str, card: CardDef) -> int:
    total = 0
    for e in st.effects:
        if e.op != op:
            continue
        if e.targets is None:
            if e.scope != stack.owner:
                continue
        elif stack.uid not in e.targets:
            continue
        if e.flt != "ANY" and e.flt != card.type:
            continue
        total += e.amount
    return total


def eff_power(st: GameState, stack: Stack) -> int:
    """Effective power: printed power of the top card plus active modifiers, floored at 0 (4.3)."""
    card = top(st, stack)
    return max(0, card.power + _modifier(st, stack, "MOD_POWER", card))


def eff_armor(st: GameState, stack: Stack) -> int:
    """Effective armor (4.3)."""
    card = top(st, stack)
    return max(0, card.armor + _modifier(st, stack, "MOD_ARMOR", card))


def eff_speed(st: GameState, stack: Stack) -> int:
    """Effective speed (4.3)."""
    card = top(st, stack)
    return max(0, card.speed + _modifier(st, stack, "MOD_SPEED", card))


def has_status(st: GameState, stack: Stack, op: str) -> bool:
    """Whether a status primitive (DISABLE, ROOT, GUARD) is active on ``stack``."""
    for e in st.effects:
        if e.op == op and e.targets is not None and stack.uid in e.targets:
            return True
    return False


def move_options(st: GameState, square: int) -> list[int]:
    """Legal directions for the Medarot on ``square`` (R29, D4, D8, D21); empty under ROOT."""
    stack = st.board[square]
    assert stack is not None
    return move_options_from(st, stack, square)


def move_options_from(st: GameState, stack: Stack, square: int) -> list[int]:
    """Legal directions for ``stack`` standing on ``square`` (the square itself may be vacated)."""
    if has_status(st, stack, "ROOT"):
        return []
    p = stack.owner
    arrows = 0xFF if not st.config.arrow_movement else top(st, stack).arrows
    out = []
    board = st.board
    movable = MOVABLE[p]
    nb = NEIGHBOUR[p][square]
    for d in range(8):
        if arrows >> d & 1:
            t = nb[d]
            if t >= 0 and board[t] is None and t in movable:
                out.append(d)
    return out


def attack_targets(st: GameState, square: int) -> list[tuple[int, bool]]:
    """Squares the Medarot on ``square`` may attack, with whether it is a far melee attack (D11-D13)."""
    stack = st.board[square]
    assert stack is not None
    return attack_targets_from(st, stack, square)


def attack_targets_from(
    st: GameState, stack: Stack, square: int, vacated: int = -1
) -> list[tuple[int, bool]]:
    """Attack targets ``stack`` would have from ``square`` (for look-ahead: ``vacated`` counts as empty)."""
    p = stack.owner
    kind = top(st, stack).type
    if kind == SPECIAL:
        return []
    board = st.board
    step = 5 * forward(p)
    out: list[tuple[int, bool]] = []
    one, two = square + step, square + 2 * step
    if kind == SHOOTING:
        if 0 <= two < 15 and _enemy(board[two], p):
            out.append((two, False))
    elif kind == MELEE:
        if 0 <= one < 15 and _enemy(board[one], p):
            out.append((one, False))
        if 0 <= two < 15 and (board[one] is None or one == vacated) and _enemy(board[two], p):
            out.append((two, True))
    if square // 5 == NEUTRAL_ROW:
        for side in (square - 1, square + 1):
            if side // 5 == NEUTRAL_ROW and _enemy(board[side], p):
                out.append((side, False))
    out.sort()
    return out


def proxy_targets(st: GameState, square: int) -> list[tuple[int, bool]]:
    """Open-row squares the Medarot on ``square`` may attack on a proxy table (AMALOGS D37).

    Seat 1's row is open: an empty square of it is a target exactly when a seat-1 Medarot
    standing there would be one (R34, R35, D11, D12): shooting 2 ahead, melee 1 ahead or 2
    ahead over an empty square (a far attack). Side attacks (D13) stay in the neutral row and
    SPECIAL Medarots never attack. Empty without a proxy.
    """
    stack = st.board[square]
    if not st.config.proxy or stack is None or stack.owner != 0:
        return []
    kind = top(st, stack).type
    board = st.board
    one, two = square + 5, square + 10
    out: list[tuple[int, bool]] = []
    if kind == SHOOTING:
        if _open(board, two):
            out.append((two, False))
    elif kind == MELEE:
        if _open(board, one):
            out.append((one, False))
        if _open(board, two) and board[one] is None:
            out.append((two, True))
    return out


def _open(board: list[Stack | None], square: int) -> bool:
    """An empty square of seat 1's row (the proxy's open row, D37)."""
    return 10 <= square < 15 and board[square] is None


def _enemy(stack: Stack | None, player: int) -> bool:
    return stack is not None and stack.owner != player


def is_unit(card: CardDef) -> bool:
    """Whether a card is a Medarot card (the only kind placed on the board)."""
    return card.kind == MEDAROT


def end_effects(st: GameState, keep: Callable[[Eff], bool]) -> None:
    """Drop the lasting effects for which ``keep`` is false (bumping ``board_version`` if any went)."""
    kept = [e for e in st.effects if keep(e)]
    if len(kept) != len(st.effects):
        st.effects = kept
        st.board_version += 1


def remove_stack(st: GameState, square: int, to_reserve: bool) -> Stack:
    """Take a Medarot off the board (destroyed or substituted) and end the effects tied to it.

    Its cards go to the trash or, face down, to the MedaForce reserve (R40, R44, R50, R54).
    Effects it is the source of end, and it drops out of every effect's targets (D31 step 2).
    """
    x = st.board[square]
    assert x is not None
    st.board[square] = None
    st.board_version += 1
    zone = st.reserve[x.owner] if to_reserve else st.trash[x.owner]
    zone.append(x.base)
    if x.change:
        zone.append(x.change)
    uid = x.uid
    kept = []
    for e in st.effects:
        if e.src_uid == uid:
            continue
        if e.targets is not None and uid in e.targets:
            e.targets = [u for u in e.targets if u != uid]
            if not e.targets:
                continue
        kept.append(e)
    st.effects = kept
    return x


def emit_unit(st: GameState, kind: str, x: Stack, square: int, what: str, **fields: Any) -> None:
    """Log the event ``kind`` of the Medarot ``x`` on ``square``: "P0's NAME (square S) ``what``".

    Its fields are the owner (``player``), the top card (``card``) and ``square``, then ``fields``.
    """
    st.emit(
        kind,
        f"P{x.owner}'s {st.cards[x.top()].name} (square {square}) {what}",
        player=x.owner,
        card=x.top(),
        square=square,
        **fields,
    )


def trash_slot(st: GameState, p: int, j: int) -> None:
    """Trash stock card ``j`` of ``p``; an effect it was giving ends at once (D25)."""
    slot = st.stock[p][j]
    assert slot is not None
    st.trash[p].append(slot.card)
    st.stock[p][j] = None
    key = 4 * p + j
    end_effects(st, lambda e: e.src_slot != key)
    st.emit(
        "trash_stock",
        f"P{p} trashes {st.cards[slot.card].name} from stock slot {j + 1}",
        player=p,
        slot=j,
        card=slot.card,
    )

"""Fixed-width text rendering of a Medarot OCG position for humans (standard library only).

``render_text(state, viewer)`` draws the header (turn, first player, decision point), both
players' zones, the 3x5 board with P1's row on top and P0's row at the bottom (spec 4.2),
the lasting effects and the last events. With ``viewer=None`` everything is shown (god
view); with ``viewer=p`` only what player ``p`` may know is drawn (spec section 7): the other
player's hand, face-down stock cards, face-down master, face-down Medarots and a private
card between two decisions become ``??``.
"""

from __future__ import annotations

from deckgym.envs.core.events import lines_for
from deckgym.envs.medarot_ocg.rules.board import eff_armor, eff_power, eff_speed
from deckgym.envs.medarot_ocg.state import Eff, GameState, Slot, Stack

HIDDEN = "??"
#: Inner width of one board cell.
CELL = 13
#: How many of the latest events are shown.
EVENTS_SHOWN = 6
_TYPE_LETTER = {"SHOOTING": "S", "MELEE": "M", "SPECIAL": "X"}
_ROW_LABEL = {2: "P1 row 2", 1: "neutral ", 0: "P0 row 0"}
_LEGEND = (
    "flags: a acted  n placed this turn  d face down  t transformed (MedaChange)  "
    "s source of an effect  * acting  ! attack target"
)


def render_text(state: GameState, viewer: int | None = None) -> str:
    """A readable fixed-width board of ``state`` as seen by ``viewer``.

    Args:
        state: the position to draw.
        viewer: the seat whose knowledge is drawn (0 or 1), or ``None`` for the god view,
            which shows both hands and every face-down card.

    Returns:
        The rendering as one string of newline-separated lines (no trailing newline).

    Raises:
        ValueError: if ``viewer`` is neither ``None`` nor a seat of the game.
    """
    if viewer is not None and viewer not in range(state.num_players):
        raise ValueError(f"viewer must be None or a seat 0..{state.num_players - 1}, got {viewer!r}")
    lines = _header(state, viewer)
    lines.append("-" * _width())
    lines += _player_block(state, 1, viewer)
    lines += _grid(state, viewer)
    lines += _player_block(state, 0, viewer)
    lines.append("-" * _width())
    lines += _effects_block(state, viewer)
    lines += _events_block(state, viewer)
    lines.append(_LEGEND)
    return "\n".join(lines)


# ----------------------------------------------------------------------------- visibility
def _sees(viewer: int | None, owner: int) -> bool:
    """Whether ``viewer`` may see ``owner``'s private cards."""
    return viewer is None or viewer == owner


def _stack_visible(stack: Stack, viewer: int | None) -> bool:
    return stack.face_up or _sees(viewer, stack.owner)


def _stack_name(state: GameState, stack: Stack, viewer: int | None) -> str:
    """Full name of the card a stack uses, or ``??`` when the viewer may not know it."""
    if not _stack_visible(stack, viewer):
        return HIDDEN
    return state.cards[stack.top()].name


def _find(state: GameState, uid: int) -> tuple[int, Stack | None]:
    for s, x in enumerate(state.board):
        if x is not None and x.uid == uid:
            return s, x
    return -1, None


def _unit_label(state: GameState, uid: int, viewer: int | None) -> str:
    """``P0 Name@sq7`` for a Medarot on the board, ``#uid`` when it has left it."""
    s, x = _find(state, uid)
    if x is None:
        return f"#{uid}(gone)"
    return f"P{x.owner} {_stack_name(state, x, viewer)}@sq{s}"


# ----------------------------------------------------------------------------- header
def _width() -> int:
    return 9 + 5 * (CELL + 1) + 1


def _header(state: GameState, viewer: int | None) -> list[str]:
    view = "god view (all cards shown)" if viewer is None else f"P{viewer}'s view"
    title = (
        f"=== Medarot OCG ({state.config.mode}) | turn {state.turn} | first: P{state.first} "
        f"| step {state.steps} | {view} ==="
    )
    lines = [title]
    if state.done:
        if state.truncated:
            outcome = "truncated (no winner)"
        elif state.winner == 2:
            outcome = "draw"
        else:
            outcome = f"P{state.winner} wins"
        lines.append(f"GAME OVER: {outcome} - {state.reason}")
    elif state.decision_point is None:
        lines.append("decision: (none)")
    else:
        lines.append(f"decision: {state.decision}, P{state.current_player} decides")
    act = state.act
    if act is not None and not state.done:
        text = f"acting: {_unit_label(state, act.uid, viewer)}"
        if act.target >= 0:
            text += f" -> target {_unit_label(state, act.target, viewer)}"
            if act.far:
                text += " (far attack)"
        if act.negated:
            text += " [negated]"
        if act.disabled:
            text += " [disabled]"
        lines.append(text)
    return lines


# ----------------------------------------------------------------------------- players
def _slot_text(state: GameState, slot: Slot | None, owner: int, viewer: int | None) -> str:
    if slot is None:
        return "-"
    if not slot.face_up:
        name = state.cards[slot.card].name if _sees(viewer, owner) else HIDDEN
        return f"{name} (face down)"
    text = state.cards[slot.card].name
    if slot.charge:
        text += f" [NEGATE x{slot.charge}]"
    if slot.eff >= 0:
        text += " (in use)"
    return text


def _player_block(state: GameState, p: int, viewer: int | None) -> list[str]:
    if p == 1 and state.config.proxy:
        from deckgym.envs.medarot_ocg.view import proxy_words

        return [f"P1: {proxy_words(state)}"]
    you = "" if viewer is None or viewer != p else " (you)"
    counts = (
        f"P{p}{you}: HP {state.hp[p]} | deck {len(state.deck[p])} | hand {len(state.hand[p])} | "
        f"trash {len(state.trash[p])} | reserve {len(state.reserve[p])}"
    )
    if state.trash[p]:
        counts += f" | trash top: {state.cards[state.trash[p][-1]].name}"
    lines = [counts]
    stock = "  ".join(f"[{j}] {_slot_text(state, s, p, viewer)}" for j, s in enumerate(state.stock[p]))
    lines.append(f"    stock: {stock}")
    if state.config.master:
        master = _slot_text(state, state.master[p], p, viewer)
        used = " (used this turn)" if state.master_used[p] else ""
        lines.append(f"    master: {master}{used}")
    lim = state.limbo[p]
    if lim is not None:
        name = state.cards[lim[0]].name if lim[1] or _sees(viewer, p) else HIDDEN
        lines.append(f"    pending card: {name}")
    if _sees(viewer, p):
        hand = ", ".join(f"{i}:{state.cards[c].name}" for i, c in enumerate(state.hand[p]))
        lines.append(f"    hand: {hand or '(empty)'}")
    else:
        lines.append(f"    hand: {len(state.hand[p])} hidden card(s)")
    return lines


# ----------------------------------------------------------------------------- board
def _flags(state: GameState, x: Stack, sources: set[int]) -> str:
    act = state.act
    out = ""
    out += "a" if x.acted else ""
    out += "n" if x.placed else ""
    out += "d" if not x.face_up else ""
    out += "t" if x.change else ""
    out += "s" if x.uid in sources else ""
    out += "*" if act is not None and act.uid == x.uid else ""
    out += "!" if act is not None and act.target == x.uid else ""
    return out


def _cell(state: GameState, s: int, viewer: int | None, sources: set[int]) -> list[str]:
    """The three text lines of square ``s``."""
    x = state.board[s]
    if x is None:
        return [f"{s:>2}", "", ""]
    first = f"{s:>2} P{x.owner} {_flags(state, x, sources)}"
    if not _stack_visible(x, viewer):
        return [first, HIDDEN, ""]
    card = state.cards[x.top()]
    second = f"{card.name[:8]:<8} {_TYPE_LETTER.get(card.type, '?')}"
    third = f"{eff_power(state, x)}/{eff_armor(state, x)}/{eff_speed(state, x)}"
    return [first, second, third]


def _grid(state: GameState, viewer: int | None) -> list[str]:
    sources = {e.src_uid for e in state.effects if e.src_uid >= 0}
    border = " " * 9 + ("+" + "-" * CELL) * 5 + "+"
    heads = "".join(f" {'col ' + str(c):^{CELL}}" for c in range(5))
    lines = [" " * 9 + heads, border]
    for row in (2, 1, 0):
        cells = [_cell(state, 5 * row + c, viewer, sources) for c in range(5)]
        for k in range(3):
            label = _ROW_LABEL[row] if k == 1 else ""
            body = "|".join(f"{cell[k][:CELL]:<{CELL}}" for cell in cells)
            lines.append(f"{label:<9}|{body}|")
        lines.append(border)
    lines.append(
        " " * 9 + "cells: square P(owner) flags / name type(S shoot, M melee, X special) / pow/arm/spd"
    )
    return lines


# ----------------------------------------------------------------------------- effects and events
def _effect_source(state: GameState, e: Eff, viewer: int | None) -> str:
    if e.src_uid >= 0:
        return _unit_label(state, e.src_uid, viewer)
    if e.src_slot < 0:
        return f"P{e.owner}"
    p, j = divmod(e.src_slot, 4)
    where = f"P{p} master" if j == 3 else f"P{p} stock[{j}]"
    slot = state.master[p] if j == 3 else state.stock[p][j]
    # A source card may have left its slot since; name it only while a face-up card with that op is there.
    if slot is not None and slot.face_up and any(fx.op == e.op for fx in state.cards[slot.card].effects):
        where += f" {state.cards[slot.card].name}"
    return where


def _effects_block(state: GameState, viewer: int | None) -> list[str]:
    if not state.effects:
        return ["effects: none"]
    from deckgym.envs.medarot_ocg.view import effect_words

    lines = ["effects:"]
    for e in state.effects:
        # in words, as the viewer reads them (the whole board: as the effect's owner reads them)
        reader = e.owner if viewer is None else viewer
        lines.append(
            f"  {effect_words(state, e, reader)} (by P{e.owner}, from {_effect_source(state, e, viewer)})"
        )
    return lines


def _events_block(state: GameState, viewer: int | None) -> list[str]:
    recent = lines_for(state, viewer, last=EVENTS_SHOWN)
    if not recent:
        return ["last events: none"]
    return ["last events:"] + [f"  {text}" for text in recent]

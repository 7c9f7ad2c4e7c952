"""Opening, start phase, draw-event chain and end phase (spec 5.1, 5.2, 5.4, section 8).

Rules: R8-R15, R23-R26, R56-R59, D10, D33-D36, D38-D40, L2, L3, L5.
"""

from __future__ import annotations

from typing import Final

from deckgym.envs.core.zones import draw as draw_cards
from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP, Action, Kind
from deckgym.envs.medarot_ocg.cards import MEDAROT, MEDAROTER
from deckgym.envs.medarot_ocg.rules.board import NEUTRAL_ROW, OWN_SQUARES, count_units
from deckgym.envs.medarot_ocg.rules.flow import ask, auto, decision, end, pay, push, spend, task, truncate
from deckgym.envs.medarot_ocg.rules.medaroter import free_slot, trash_timed
from deckgym.envs.medarot_ocg.state import GameState, Slot, Stack

HAND_LIMIT: Final = 7
MAX_UNITS: Final = 3


def order(st: GameState) -> tuple[int, int]:
    """P_first, then P_second (D39)."""
    return st.first, 1 - st.first


def seated(st: GameState) -> tuple[int, ...]:
    """The players who hold cards, in processing order (a vacant seat 1 holds none)."""
    return (0,) if st.config.vacant_seat else order(st)


# ----------------------------------------------------------------------------- opening
def setup(st: GameState) -> None:
    """O1, O2: shuffle, choose the first player, draw 7 with mulligans (R8, R9, R14, D39, D40).

    With a vacant seat 1 only seat 0 opens, and it is the first player.
    """
    st.deck = [list(d) for d in st.decks]
    for p in (0, 1):
        st.rng.shuffle(st.deck[p])
    st.first = 0 if st.config.vacant_seat else st.rng.randrange(2)
    st.emit("first_player", f"P{st.first} goes first", player=st.first)
    for p in seated(st):
        _opening_draw(st, p)
        while not any(st.cards[c].kind == MEDAROT for c in st.hand[p]):
            shown = ", ".join(st.cards[c].name for c in st.hand[p])
            st.emit("mulligan", f"P{p} mulligans, revealing: {shown}", player=p, cards=list(st.hand[p]))
            st.mulligans[p] += 1
            st.deck[p].extend(st.hand[p])
            st.hand[p].clear()
            st.rng.shuffle(st.deck[p])
            _opening_draw(st, p)
    push(
        st,
        *[t for p in seated(st) for t in (["master_select", p], ["opening_stock", p], ["refill", p])],
        ["start_phase"],
    )


def _opening_draw(st: GameState, p: int) -> None:
    """Draw the opening 7; a hand without a Medarot is shown by the mulligan that follows, not privately."""
    drawn = draw_cards(st.deck[p], st.hand[p], 7)
    kept = any(st.cards[c].kind == MEDAROT for c in st.hand[p])
    n = len(drawn)
    st.emit(
        "draw", f"P{p} draws {n} cards", only=(p, {"cards": list(drawn)}) if kept else None, player=p, count=n
    )


def draw(st: GameState, p: int, n: int) -> None:
    """``p`` draws up to ``n`` cards (an event when any are drawn; only ``p`` sees which)."""
    drawn = draw_cards(st.deck[p], st.hand[p], n)
    if drawn:
        st.emit(
            "draw",
            f"P{p} draws {len(drawn)} card{'s' if len(drawn) != 1 else ''}",
            only=(p, {"cards": list(drawn)}),
            player=p,
            count=len(drawn),
        )


def _medaroters(st: GameState, p: int) -> list[Action]:
    return [A.HAND[i] for i, c in enumerate(st.hand[p]) if st.cards[c].kind == MEDAROTER]


@task
def master_select(st: GameState, p: int) -> None:
    """O3: choose a master face down, if the mode has one and the hand holds a Medaroter (R11, D36)."""
    if st.config.master and any(st.cards[c].kind == MEDAROTER for c in st.hand[p]):
        ask(st, DP.MASTER_SELECT, p, p)


@decision(DP.MASTER_SELECT, legal=lambda st, ctx: _medaroters(st, ctx[0]))
def on_master_select(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """The chosen Medaroter becomes the master, face down until the first start phase."""
    p = ctx[0]
    st.master[p] = Slot(st.hand[p].pop(a.arg), face_up=False)
    st.emit("set_master", f"P{p} sets a Medaroter face down as its master", player=p)


def _set_options(st: GameState, p: int, lo: int = 0) -> list[Action]:
    return [A.SET[i] for i, c in enumerate(st.hand[p]) if i >= lo and st.cards[c].kind == MEDAROTER]


@task
def opening_stock(st: GameState, p: int) -> None:
    """O4: set Medaroters face down into the stock until PASS (R12)."""
    ask(st, DP.OPENING_STOCK, p, p)


def _opening_stock_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    p = ctx[0]
    return [A.PASS] + (_set_options(st, p) if free_slot(st, p) >= 0 else [])


@decision(DP.OPENING_STOCK, legal=_opening_stock_legal)
def on_opening_stock(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """SET(i) puts a Medaroter in the lowest empty slot; PASS ends the step."""
    p = ctx[0]
    if a.kind == Kind.SET:
        set_card(st, p, a.arg)
        push(st, ["opening_stock", p])


def set_card(st: GameState, p: int, i: int) -> None:
    """Set hand card ``i`` face down in the stock; a full stock asks STOCK_TRASH first (R18, R19)."""
    card = st.hand[p].pop(i)
    j = free_slot(st, p)
    where = f"in stock slot {j + 1}" if j >= 0 else "in its full stock"
    st.emit("set_stock", f"P{p} sets a Medaroter face down {where}", player=p)
    if j >= 0:
        st.stock[p][j] = Slot(card, False)
    else:
        st.limbo[p] = [card, False]
        ask(st, DP.STOCK_TRASH, p, p)


# ----------------------------------------------------------------------------- refill (D10)
@task
def refill(st: GameState, p: int) -> None:
    """Place Medarots from hand while fewer than 3 are on the board (D10)."""
    if count_units(st, p) < MAX_UNITS and any(st.cards[c].kind == MEDAROT for c in st.hand[p]):
        ask(st, DP.PLACE_CARD, p, p)


@decision(
    DP.PLACE_CARD,
    legal=lambda st, ctx: [A.HAND[i] for i, c in enumerate(st.hand[ctx[0]]) if st.cards[c].kind == MEDAROT],
)
def on_place_card(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """The chosen Medarot waits (face down, private) for its square."""
    p = ctx[0]
    _take_from_hand(st, p, a.arg)
    st.limbo[p] = [st.hand[p].pop(a.arg), False]
    push(st, ["place_square", p])


def _take_from_hand(st: GameState, p: int, i: int) -> None:
    """Keep the draw-event mark in step when a hand card in front of it leaves the hand."""
    if i < st.draw_mark[p]:
        st.draw_mark[p] -= 1


@task
def place_square(st: GameState, p: int) -> None:
    """PLACE_SQUARE: an empty square of the own row."""
    ask(st, DP.PLACE_SQUARE, p, p)


@decision(
    DP.PLACE_SQUARE, legal=lambda st, ctx: [A.SQUARE[s] for s in OWN_SQUARES[ctx[0]] if st.board[s] is None]
)
def on_place_square(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Place the waiting Medarot face down; it cannot act this turn (R13)."""
    p = ctx[0]
    place(st, p, a.arg)
    push(st, ["refill", p])


def place(st: GameState, p: int, square: int) -> None:
    """Put the limbo card of ``p`` face down on ``square`` as a new stack placed this turn."""
    lim = st.limbo[p]
    assert lim is not None
    st.board[square] = Stack(st.next_uid, p, lim[0], None, False, False, True)
    st.board_version += 1
    st.next_uid += 1
    st.limbo[p] = None
    st.emit("place", f"P{p} places a Medarot face down on square {square}", player=p, square=square)


# ----------------------------------------------------------------------------- start phase
@task
def start_phase(st: GameState) -> None:
    """S1: reveal, upright, clear flags; first reveal of a master applies its HP modifier (D33, D36)."""
    st.turn += 1
    st.emit("turn", f"--- Turn {st.turn} ---", turn=st.turn)
    st.board_version += 1
    for x in st.board:
        if x is not None:
            x.face_up = True
            x.acted = False
            x.placed = False
    st.failed_draw = [False, False]
    for p in order(st):
        st.master_used[p] = False
        m = st.master[p]
        if m is not None and not m.face_up:
            m.face_up = True
            if not apply_hp_mod(st, p):
                return
    push(st, *[["start_player", p] for p in order(st)], ["start_check"], ["select"])


def apply_hp_mod(st: GameState, p: int) -> bool:
    """Master HP modifier (R16, D36): positive adds, negative is a mandatory payment."""
    m = st.master[p]
    assert m is not None
    mod = st.cards[m.card].hp_mod
    st.emit(
        "reveal_master",
        f"P{p} reveals its master {st.cards[m.card].name} (HP {mod:+d})",
        player=p,
        card=m.card,
        hp_mod=mod,
    )
    if mod >= 0:
        st.hp[p] += mod
        return True
    return pay(st, p, -mod, "the master's HP modifier")


@task
def start_player(st: GameState, p: int) -> None:
    """S2: draw 1 (a failed draw is recorded for L2); S3 optional draw; S4 draw-event chain."""
    if p == 1 and st.config.vacant_seat:
        return
    if not st.deck[p]:
        st.failed_draw[p] = True
        st.emit("cannot_draw", f"P{p} cannot draw: the deck is empty", player=p)
        return
    draw(st, p, 1)
    ask(st, DP.OPT_DRAW, p, p)


def _opt_draw_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    p = ctx[0]
    n = len(st.deck[p]) if st.hp[p] >= 1 else 0
    return [A.COUNT[k] for k in range(min(3, n) + 1)]


@decision(DP.OPT_DRAW, legal=_opt_draw_legal)
def on_opt_draw(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """COUNT(k): k >= 1 pays 1 HP and draws k (R25, D34)."""
    p, k = ctx[0], a.arg
    if k:
        spend(st, p, 1, "the optional draw")
        draw(st, p, k)
    begin_chain(st, p, 1 + k, s2=True)


@task
def start_check(st: GameState) -> None:
    """S5: L2 (failed draw) and L3 (no Medarot on the board) for both players together (not a vacant seat)."""
    players = seated(st)
    lost = [p in players and (st.failed_draw[p] or count_units(st, p) == 0) for p in (0, 1)]
    if lost[0] and lost[1]:
        end(st, 2, "both players meet a loss condition at the start phase")
    elif lost[0] or lost[1]:
        loser = 0 if lost[0] else 1
        why = "cannot draw" if st.failed_draw[loser] else "has no Medarot on the board"
        end(st, 1 - loser, f"P{loser} {why}")


# ----------------------------------------------------------------------------- draw-event chain (D35)
def begin_chain(st: GameState, p: int, n: int, s2: bool = False) -> None:
    """Run the draw-event chain for the last ``n`` cards drawn by ``p``."""
    st.draw_mark[p] = len(st.hand[p]) - n
    push(st, ["late_master", p, 1 if s2 else 0], ["refill", p], ["draw_stock", p], ["hand_limit", p])


@task
def late_master(st: GameState, p: int, s2: int) -> None:
    """The first Medaroter drawn becomes the master when there is none (R15, D35 step 1)."""
    if not st.config.master or st.master[p] is not None:
        return
    mark = st.draw_mark[p]
    hand = st.hand[p]
    meds = [i for i in range(mark, len(hand)) if st.cards[hand[i]].kind == MEDAROTER]
    if not meds:
        return
    if s2 and meds[0] == mark:
        auto(st, p, DP.LATE_MASTER, Action(Kind.HAND, mark))
        make_master(st, p, mark)
    elif len(meds) == 1:
        auto(st, p, DP.LATE_MASTER, Action(Kind.HAND, meds[0]))
        make_master(st, p, meds[0])
    else:
        ask(st, DP.LATE_MASTER, p, p, *meds)


@decision(DP.LATE_MASTER, legal=lambda st, ctx: [A.HAND[i] for i in ctx[1:]])
def on_late_master(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """Choose which of the Medaroters drawn together becomes the master."""
    make_master(st, ctx[0], a.arg)


def make_master(st: GameState, p: int, i: int) -> None:
    """A late master is placed face up and its modifier applies at once (D36)."""
    st.master[p] = Slot(st.hand[p].pop(i), face_up=True)
    apply_hp_mod(st, p)


@task
def draw_stock(st: GameState, p: int) -> None:
    """Set Medaroters just drawn face down in the stock (R18: 'when they come into the hand')."""
    if _set_options(st, p, st.draw_mark[p]):
        ask(st, DP.DRAW_STOCK, p, p)


@decision(DP.DRAW_STOCK, legal=lambda st, ctx: [A.PASS] + _set_options(st, ctx[0], st.draw_mark[ctx[0]]))
def on_draw_stock(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """SET(i) a drawn Medaroter (a full stock trashes one first, R19); PASS keeps the rest in hand."""
    p = ctx[0]
    if a.kind == Kind.SET:
        push(st, ["draw_stock", p])
        set_card(st, p, a.arg)


@task
def hand_limit(st: GameState, p: int) -> None:
    """Hand limit 7 after every draw event: discard, or set a Medaroter into an empty slot (R26, D35)."""
    st.draw_mark[p] = len(st.hand[p])
    if len(st.hand[p]) > HAND_LIMIT:
        ask(st, DP.HAND_LIMIT, p, p)


def _hand_limit_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    p = ctx[0]
    out = [A.HAND[i] for i in range(len(st.hand[p]))]
    if free_slot(st, p) >= 0:
        out += _set_options(st, p)
    return out


@decision(DP.HAND_LIMIT, legal=_hand_limit_legal)
def on_hand_limit(st: GameState, ctx: tuple[int, ...], a: Action) -> None:
    """HAND(i) trashes card i; SET(i) sets Medaroter i into an empty stock slot."""
    p = ctx[0]
    if a.kind == Kind.SET:
        set_card(st, p, a.arg)
    else:
        card = st.hand[p].pop(a.arg)
        st.trash[p].append(card)
        st.emit(
            "discard",
            f"P{p} discards {st.cards[card].name} (hand limit 7)",
            player=p,
            card=card,
            why="hand_limit",
        )
    push(st, ["hand_limit", p])


# ----------------------------------------------------------------------------- end phase
@task
def end_phase(st: GameState) -> None:
    """E1 DOT payments, E2 trash END_OF_TURN cards, E3 heal per Medarot in neutral, E4 next turn (D38)."""
    for p in order(st):
        for e in list(st.effects):
            if e.op == "DOT" and e.scope == p and not pay(st, 1 - p, e.amount, "DOT"):
                return
    trash_timed(st, ("END_OF_TURN",))
    for p in order(st):
        n = sum(1 for s in range(5, 10) if (x := st.board[s]) is not None and x.owner == p)
        if n:
            st.hp[p] += n
            st.emit(
                "heal",
                f"P{p} gains {n} HP for its Medarots in the neutral row (HP {st.hp[p]})",
                player=p,
                amount=n,
                hp=st.hp[p],
            )
    if st.turn >= st.config.max_turns:
        truncate(st, f"turn cap {st.config.max_turns}")
        return
    push(st, ["start_phase"])


assert NEUTRAL_ROW == 1

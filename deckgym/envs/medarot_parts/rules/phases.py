"""Setup and the turn (D1-D17, D35, D43): reset, draw, rounds of the main phase, end phase.

A round is 3.1 action medarot determination (DP1), 3.2 the energy step (DP2), 3.3 the action
step (``action_step``) and 3.4 the recycle step.
"""

from __future__ import annotations

from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP, Action, Kind
from deckgym.envs.medarot_parts.cards import ENERGY, LEGS, TURN
from deckgym.envs.medarot_parts.rules.effects import draw_cards
from deckgym.envs.medarot_parts.rules.flow import ask, decision, end, push, task, truncate
from deckgym.envs.medarot_parts.rules.values import end_duration, mobility
from deckgym.envs.medarot_parts.state import UNTIL_TURN, GameState, Medarot, Part
from deckgym.envs.medarot_parts.words import medarot_label


def seated(st: GameState) -> tuple[int, ...]:
    """The players who hold cards (a vacant seat 1 holds none)."""
    return (0,) if st.config.vacant_seat else (0, 1)


def setup(st: GameState) -> None:
    """Setup (D2-D4): shuffle decks, place starters, pay for them, pick the priority player, draw 7.

    With a vacant seat 1 only seat 0 is set up, and it has priority on the coming turn.
    """
    for p in seated(st):
        starter = st.decks[p][:2]
        st.deck[p] = list(st.decks[p][2])
        st.rng.shuffle(st.deck[p])
        price = 0
        for medal, *parts in starter:
            row = []
            for cid in parts:
                row.append(Part(st.next_uid, cid))
                st.next_uid += 1
                price += st.cards[cid].price
            st.field[p].append(Medarot(medal, row))
        st.assets[p] = st.config.start_assets - price
    st.odd_turn_priority = st.turn % 2 if st.config.vacant_seat else st.rng.randrange(2)
    for p in seated(st):
        draw_cards(st, p, st.config.hand_size)
    st.emit(
        "setup",
        f"Setup is done: P{st.odd_turn_priority} has priority on odd turns",
        player=st.odd_turn_priority,
    )
    push(st, ["turn_start"])


@task
def turn_start(st: GameState) -> None:
    """A new turn (D5, D6): priority alternates; the reset, draw and main phases follow."""
    st.turn += 1
    st.round = 0
    st.priority = st.odd_turn_priority if st.turn % 2 else 1 - st.odd_turn_priority
    st.emit("turn", f"Turn {st.turn} begins: P{st.priority} has priority", turn=st.turn, player=st.priority)
    push(st, ["reset_phase"], ["draw_phase"], ["recycle_step"])


@task
def reset_phase(st: GameState) -> None:
    """Reset phase (D7, D43): untap non-destroyed parts, medals and energy; TURN cards and modifiers end."""
    for p in (0, 1):
        for med in st.field[p]:
            med.medal_tapped = False
            for part in med.parts:
                if not part.destroyed:
                    part.tapped = False
        for row in st.stock[p]:
            row[1] = False
    end_duration(st, TURN, UNTIL_TURN)


@task
def draw_phase(st: GameState) -> None:
    """Draw phase (D8, section 8 loss 2): fill hands to 7, priority first; a short deck loses (not a vacant seat)."""
    short = []
    for p in (st.priority, 1 - st.priority):
        if p not in seated(st):
            continue
        need = st.config.hand_size - len(st.hand[p])
        if need > 0 and draw_cards(st, p, need) < need:
            short.append(p)
    if len(short) == 2:
        end(st, 2, "both players cannot draw up to 7")
    elif short:
        end(st, 1 - short[0], f"P{short[0]} cannot draw up to 7")


def candidates(st: GameState, p: int) -> list[int]:
    """Candidates (D9): non-stopped medarots whose legs are untapped."""
    return [i for i, m in enumerate(st.field[p]) if not m.stopped and not m.parts[LEGS].tapped]


def fastest(st: GameState, p: int) -> list[int]:
    """Player ``p``'s candidates of the highest mobility (D9); its action medarot is one of them."""
    cands = [i for i, m in enumerate(st.field[p]) if not m.stopped and not m.parts[LEGS].tapped]
    if not cands:
        return cands
    best = max(mobility(st, p, i) for i in cands)
    return [i for i in cands if mobility(st, p, i) == best]


def first_of_round(st: GameState) -> int:
    """The round's first player (D9): the faster action medarot, a tie to priority; a player without one is not first."""
    a0, a1 = st.action_medarot
    if a0 < 0 or a1 < 0:
        return st.priority if a0 == a1 else (0 if a0 >= 0 else 1)
    m0, m1 = mobility(st, 0, a0), mobility(st, 1, a1)
    return st.priority if m0 == m1 else (0 if m0 > m1 else 1)


@task
def recycle_step(st: GameState) -> None:
    """Recycle step (D16): a new round if any medarot can still act, else the end phase."""
    if candidates(st, 0) or candidates(st, 1):
        st.round += 1
        st.action_medarot = [-1, -1]
        push(
            st,
            ["action_medarot_determination", st.priority],
            ["action_medarot_determination", 1 - st.priority],
            ["first_player"],
        )
    else:
        push(st, ["end_phase"])


@task
def action_medarot_determination(st: GameState, p: int) -> None:
    """Action medarot determination (D9): the fastest candidate; a tie is the player's choice (DP1)."""
    tied = fastest(st, p)
    if not tied:
        return
    if len(tied) == 1:
        _set_action_medarot(st, p, tied[0])
    else:
        ask(st, DP.ACTION_MEDAROT_TIE, p, p)


def _tie_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    return [A.MEDAROT[i] for i in fastest(st, ctx[0])]


@decision(DP.ACTION_MEDAROT_TIE, legal=_tie_legal)
def choose_action_medarot(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """The player picks its action medarot among its tied fastest candidates."""
    _set_action_medarot(st, ctx[0], action.arg)


def _set_action_medarot(st: GameState, p: int, m: int) -> None:
    st.action_medarot[p] = m
    mob = mobility(st, p, m)
    st.emit(
        "action_medarot",
        f"Round {st.round}: P{p}'s action medarot is the {medarot_label(st, p, m)} (mobility {mob})",
        round=st.round,
        player=p,
        medarot=m,
        mobility=mob,
    )


@task
def first_player(st: GameState) -> None:
    """First player of the round (D9): higher mobility, a tie goes to priority; then energy and action steps."""
    first = first_of_round(st)
    st.first = first
    st.to_act = first
    st.passes = 0
    push(st, ["energy_step", first], ["energy_step", 1 - first], ["action_turn"])


@task
def energy_step(st: GameState, p: int) -> None:
    """Energy step (D11): ``p`` may put one energy card from hand into its stock (DP2).

    Without an energy card in hand the step passes by itself (an ``auto`` event; none for a
    vacant seat).
    """
    if any(st.cards[c].type == ENERGY for c in st.hand[p]):
        ask(st, DP.ENERGY_PLACE, p, p)
    elif p in seated(st):
        name = DP.ENERGY_PLACE.name
        text = f"P{p} has no energy card to place"
        st.emit("auto", text, player=p, decision=name, action=str(A.PASS))


def _energy_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    cards = st.cards
    return [A.PASS] + [A.HAND[h] for h, c in enumerate(st.hand[ctx[0]]) if cards[c].type == ENERGY]


@decision(DP.ENERGY_PLACE, legal=_energy_legal)
def place_energy(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Put the chosen energy card into the stock, untapped."""
    if action.kind == Kind.HAND:
        p = ctx[0]
        cid = st.hand[p].pop(action.arg)
        st.stock[p].append([cid, False])
        st.emit("energy", f"P{p} puts {st.cards[cid].name} into the energy stock", player=p, card=cid)


@task
def end_action_step(st: GameState) -> None:
    """End of the action step (D15): action medarots with untapped legs get them tapped; designations end."""
    for p in (0, 1):
        m = st.action_medarot[p]
        if m >= 0 and not st.field[p][m].stopped:
            st.field[p][m].parts[LEGS].tapped = True
    st.action_medarot = [-1, -1]
    st.first = -1
    st.to_act = -1
    push(st, ["recycle_step"])


@task
def end_phase(st: GameState) -> None:
    """End phase (D17): priority first, each player discards down to 7 and may discard more (DP16)."""
    push(st, ["discard_step", st.priority], ["discard_step", 1 - st.priority], ["end_of_turn"])


@task
def discard_step(st: GameState, p: int) -> None:
    """Ask ``p`` for a discard while it holds cards."""
    if st.hand[p]:
        ask(st, DP.DISCARD, p, p)


def _discard_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    n = len(st.hand[ctx[0]])
    opts = list(A.HAND[:n])
    return opts if n > st.config.hand_size else [A.PASS, *opts]


@decision(DP.DISCARD, legal=_discard_legal)
def discard(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Trash the chosen card and ask again, or stop (PASS, allowed at 7 cards or fewer)."""
    if action.kind == Kind.HAND:
        p = ctx[0]
        cid = st.hand[p].pop(action.arg)
        st.trash[p].append(cid)
        st.emit("discard", f"P{p} discards {st.cards[cid].name}", player=p, card=cid)
        push(st, ["discard_step", p])


@task
def end_of_turn(st: GameState) -> None:
    """Turn cap (D35): after the end phase of the last turn the game is a draw by truncation."""
    if st.turn >= st.config.max_turns:
        truncate(st, f"turn cap {st.config.max_turns}")
    else:
        push(st, ["turn_start"])

"""Setup and the turn steps (spec 5.1, 5.2, R4, R5, R10, R13, D1-D5, D7, D46, section 8.5)."""

from __future__ import annotations

from deckgym.envs.core.zones import draw as draw_cards
from deckgym.envs.mow.actions import DP, PASS, Action, Kind, Phase
from deckgym.envs.mow.cards import split_deck
from deckgym.envs.mow.config import DRAW_PER_TURN, OPENING_HAND
from deckgym.envs.mow.rules import state_check as chk
from deckgym.envs.mow.rules.effects import hand_types, take_type
from deckgym.envs.mow.rules.flow import ask, auto_pass, decision, push, task, truncate
from deckgym.envs.mow.rules.values import charge_limit
from deckgym.envs.mow.state import TURN, GameState


def _draw(st: GameState, p: int, opening: bool) -> None:
    """``p`` draws the opening hand (R5) or the card of the draw phase (D3); only ``p`` sees which."""
    drawn = draw_cards(st.deck[p], st.hand[p], OPENING_HAND if opening else DRAW_PER_TURN)
    what = f"an opening hand of {len(drawn)}" if opening else "a card"
    st.emit(
        "draw",
        f"P{p} draws {what} (deck {len(st.deck[p])})",
        only=(p, {"cards": list(drawn)}),
        player=p,
        count=len(drawn),
        deck=len(st.deck[p]),
    )


def setup(st: GameState) -> None:
    """5.1: first player (D1), masters revealed and decks shuffled (R4), 5 cards each (R5); t = 1.

    With a vacant seat 1 only seat 0 opens, and it is the first player.
    """
    cfg = st.config
    if cfg.vacant_seat:
        st.first = 0
    else:
        st.first = cfg.first_player if cfg.first_player >= 0 else st.rng.randrange(2)
    for p in st.seats():
        st.masters[p], st.deck[p] = split_deck(st.decks[p], st.pool)
        st.rng.shuffle(st.deck[p])
        st.emit("reveal", f"P{p} reveals master {st.name(st.masters[p])}", player=p, card=st.masters[p])
    for p in (st.first, 1 - st.first)[: len(st.seats())]:
        _draw(st, p, opening=True)
    st.turn = 1
    st.active = st.first
    st.emit("first_player", f"P{st.first} goes first", player=st.first)
    push(st, ["turn_start"])


@task
def turn_start(st: GameState) -> None:
    """5.2.1: reset the turn flags; face-down spells with t > cast_turn are ready from now (D20)."""
    a = st.active
    st.phase = int(Phase.START)
    st.decisions = 0
    st.fast_used = [False, False]
    st.turn_uses = [{}, {}]
    st.charges = 0
    st.master_attacked[a] = False
    for m in st.monsters[a]:
        m.attacked = False
    st.emit("turn", f"-- turn {st.turn}: P{a}", turn=st.turn, player=a)
    push(st, ["draw_phase"])


@task
def draw_phase(st: GameState) -> None:
    """5.2.2, D3, D5: the active player draws 1 (every turn, turn 1 included), then a state check."""
    st.phase = int(Phase.DRAW)
    _draw(st, st.active, opening=False)
    push(st, ["check"], ["charge_phase"])


@task
def charge_phase(st: GameState) -> None:
    """5.2.3, R10, D7: CHARGE decisions while the hand is not empty and the limit is not reached."""
    st.phase = int(Phase.CHARGE)
    a = st.active
    limit = charge_limit(st, a)
    if st.hand[a] and st.charges < limit:
        ask(st, DP.CHARGE, a)
    else:
        why = "empty hand" if not st.hand[a] else f"charge limit {limit} reached"
        auto_pass(st, a, DP.CHARGE, why)
        push(st, ["main_phase"])


@decision(DP.CHARGE, legal=lambda st: [PASS, *hand_types(st, st.current_player)])
def on_charge(st: GameState, p: int, a: Action) -> None:
    """One chosen hand card goes face-up on top of the experience pile; the level is recomputed (D7, D9)."""
    if a.kind == Kind.PASS:
        push(st, ["main_phase"])
        return
    card = take_type(st.hand[p], st, a.arg)
    st.exp[p].append(card)
    st.charges += 1
    st.emit(
        "charge",
        f"P{p} charges {st.name(card)} (experience {len(st.exp[p])})",
        player=p,
        card=card,
        experience=len(st.exp[p]),
    )
    chk.set_level(st, p)
    push(st, ["check"], ["charge_phase"])


@task
def end_phase(st: GameState) -> None:
    """5.2.6, D46: TURN modifiers expire, then a state check."""
    st.phase = int(Phase.END)
    for p in (0, 1):
        st.master_mods[p] = [x for x in st.master_mods[p] if x[2] != TURN]
        for m in st.monsters[p]:
            m.mods = [x for x in m.mods if x[2] != TURN]
    push(st, ["check"], ["next_turn"])


@task
def next_turn(st: GameState) -> None:
    """5.2.6, D42: after turn MAX_TURNS the game is a truncated draw; otherwise roles swap."""
    if st.turn >= st.config.max_turns:
        truncate(st, f"turn cap {st.config.max_turns} (D42)")
        return
    st.turn += 1
    st.active = 1 - st.active
    push(st, ["turn_start"])

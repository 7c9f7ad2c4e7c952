"""Counter windows and the chain (spec 5.4, D23-D25, D28).

Every card use opens a window for the opponent of its user (D23), always presented. A
counter spell (from the slot, or 高速+対抗 from hand) is itself a card use and opens a window
for the other player; a 対抗 ability or PASS ends chain building (D24). The chain then
resolves last-in-first-out with no further windows; a used monster or weapon's 登場時 rides
on its own entry, so it resolves after every counter stacked on it (D25, R42).
"""

from __future__ import annotations

from deckgym.envs.mow.actions import DP, FAST, PASS, SLOT_SPELL, Action, Kind, Use
from deckgym.envs.mow.cards import COUNTER, ON_ENTER, SPELL
from deckgym.envs.mow.rules.card_use import (
    ability_options,
    begin_activation,
    slot_ready,
    spell_usable,
    use_ability,
)
from deckgym.envs.mow.rules.flow import ask, auto_pass, decision, push, task
from deckgym.envs.mow.rules.state_check import frame
from deckgym.envs.mow.state import GameState


@task
def window(st: GameState, h: int) -> None:
    """5.4.1: the window holder gets a COUNTER_WINDOW decision (a vacant seat passes unseen)."""
    if h not in st.seats():
        auto_pass(st, h, DP.COUNTER_WINDOW, "vacant seat")
        push(st, ["resolve_chain"])
        return
    ask(st, DP.COUNTER_WINDOW, h)


def window_options(st: GameState) -> list[Action]:
    """K5: PASS, a ready slot 対抗 spell, a 高速+対抗 spell from hand, or a 対抗 ability, matching the use."""
    h = st.current_player
    use = Use(st.chain[-1][1]).name
    out = [PASS]
    if not st.fast_used[h]:
        cards = st.cards
        seen = set()
        for cid in st.hand[h]:
            c = cards[cid]
            if cid in seen or c.kind != SPELL or not (c.fast and c.counter) or use not in c.counter_filter:
                continue
            seen.add(cid)
            if spell_usable(st, h, c, 1):
                out.append(FAST[c.index])
        out[1:] = sorted(out[1:], key=lambda a: a.arg)
    s = slot_ready(st, h)
    if s is not None and s.counter and use in s.counter_filter and spell_usable(st, h, s, 0):
        out.append(SLOT_SPELL)
    return out + ability_options(st, h, COUNTER, use)


@decision(DP.COUNTER_WINDOW, legal=window_options)
def on_window(st: GameState, h: int, a: Action) -> None:
    """PASS (or a 対抗 ability) ends chain building; a counter spell opens the next window."""
    if a.kind == Kind.PASS:
        push(st, ["resolve_chain"])
    elif a.kind == Kind.ABILITY:
        use_ability(st, h, a.arg, counter=True)
    else:
        begin_activation(st, h, a)


@task
def resolve_chain(st: GameState) -> None:
    """5.4.5: resolve the top entry, then the next, until the chain is empty.

    A negated entry is skipped, except that a negated monster or weapon use still resolves its
    登場時 (D28, R42: 使役→対抗廃棄→登場時の効果発動); SELF references of a card that has left
    the field are skipped inside it (D27).
    """
    if not st.chain:
        return
    e = st.chain[-1]
    frames = [] if e[4] and e[1] not in (Use.SUMMON, Use.EQUIP) else entry_effects(st)
    if e[4] and frames:
        st.emit(
            "resolve",
            f"P{e[0]}'s negated {st.name(e[2])} still resolves its on-entry effect",
            player=e[0],
            card=e[2],
            use=Use(e[1]).name.lower(),
            negated=True,
        )
    push(st, *frames, ["finish_entry"], ["resolve_chain"])


def entry_effects(st: GameState) -> list[list]:
    """The effect frames of the top entry: 登場時 for SUMMON/EQUIP, the spell's or ability's effects."""
    user, kind, card, uid, _neg, _here, ai = st.chain[-1]
    c = st.cards[card]
    if kind in (Use.SUMMON, Use.EQUIP):
        return [
            ["effects", frame(user, card, i, uid)] for i, a in enumerate(c.abilities) if a.timing == ON_ENTER
        ]
    if kind == Use.CAST:
        return []
    trig = 0
    if len(st.chain) >= 2 and st.chain[-2][1] in (Use.SUMMON, Use.EQUIP, Use.CAST):
        trig = st.chain[-2][3]
    if kind == Use.ACTIVATE:
        return [["effects", frame(user, card, -1, 0, trig)]]
    return [["effects", frame(user, card, ai, uid, trig)]]


@task
def finish_entry(st: GameState) -> None:
    """D22: the entry leaves the chain; an activated spell still in the chain area is discarded."""
    user, kind, card, _uid, negated, here, _ai = st.chain.pop()
    if kind == Use.ACTIVATE and here:
        st.discard[user].append(card)
    if not negated and kind != Use.CAST:
        st.emit(
            "resolve",
            f"P{user}'s {st.name(card)} resolves",
            player=user,
            card=card,
            use=Use(kind).name.lower(),
            negated=False,
        )

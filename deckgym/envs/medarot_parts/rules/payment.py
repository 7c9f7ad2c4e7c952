"""Paying charges and costs one energy card at a time (R4, R5, D19, D20; DP4 PAYMENT).

A payment is started only when it is affordable; the payer then taps an untapped energy card
of a chosen kind, or the eligible medal, until the paid EP reach the needed EP. Surplus EP
are lost.
"""

from __future__ import annotations

from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP, Action, Kind
from deckgym.envs.medarot_parts.cards import ENERGY_KINDS, SLOTS
from deckgym.envs.medarot_parts.rules.flow import ask, decision, task
from deckgym.envs.medarot_parts.rules.values import charge, part_payment
from deckgym.envs.medarot_parts.state import GameState
from deckgym.envs.medarot_parts.words import ENERGY_NAMES, part_of


def payment_task(payer: int, charge: int, kind: int, medal: tuple[int, int] | None) -> list[int | str]:
    """The task paying ``charge`` (2 x charge EP) by ``payer`` with efficient ``kind`` and ``medal``."""
    mp, mi = medal if medal is not None else (-1, -1)
    return ["payment", payer, 2 * charge, mp, mi, kind]


def use_part(st: GameState, p: int, m: int, s: int, event: str, verb: str) -> list[int | str]:
    """Tap the part in slot ``s`` of ``p``'s medarot ``m``, announce it (R2, D29, D30); the task paying its charge."""
    part = st.field[p][m].parts[s]
    part.tapped = True
    st.emit(
        event,
        f"P{p} {verb} {part_of(st, p, m, s)}",
        player=p,
        card=part.card,
        medarot=m,
        slot=SLOTS[s],
    )
    kind, medal = part_payment(st, p, m, s)
    return payment_task(p, charge(st, p, m, s), kind, medal)


@task
def payment(st: GameState, payer: int, need: int, mp: int, mi: int, kind: int) -> None:
    """Open the payment context and ask for the first energy (DP4); a charge of 0 costs nothing."""
    if need <= 0:
        return
    st.pay = [payer, need, 0, mp, mi, kind]
    ask(st, DP.PAYMENT, payer)


def _payment_legal(st: GameState, ctx: tuple[int, ...]) -> list[Action]:
    payer, _, _, mp, mi, _ = st.pay  # type: ignore[misc]
    kinds = 0
    cards = st.cards
    for cid, tapped in st.stock[payer]:
        if not tapped:
            kinds |= 1 << cards[cid].kind
    out = [A.ENERGY[k] for k in range(4) if kinds >> k & 1]
    if mp >= 0 and not st.field[mp][mi].medal_tapped:
        out.append(A.PAY_MEDAL)
    return out


@decision(DP.PAYMENT, legal=_payment_legal)
def pay_energy(st: GameState, ctx: tuple[int, ...], action: Action) -> None:
    """Tap one energy card of the chosen kind or the medal (D20); ask again until paid."""
    pay = st.pay
    assert pay is not None
    payer, need, paid, mp, mi, kind = pay
    if action.kind == Kind.PAY_MEDAL:
        med = st.field[mp][mi]
        med.medal_tapped = True
        gain = 2 * st.cards[med.medal].efficient
        source = f"the {st.cards[med.medal].name}"
    else:
        for row in st.stock[payer]:
            if not row[1] and st.cards[row[0]].kind == action.arg:
                row[1] = True
                break
        gain = 2 if action.arg == kind else 1
        source = f"a {ENERGY_NAMES[action.arg]}"
    pay[2] = paid + gain
    st.emit(
        "pay",
        f"P{payer} taps {source}: {pay[2]} of {need} EP paid",
        player=payer,
        source="MEDAL" if action.kind == Kind.PAY_MEDAL else ENERGY_KINDS[action.arg],
        paid=pay[2],
        needed=need,
    )
    if pay[2] >= need:
        st.pay = None
    else:
        ask(st, DP.PAYMENT, payer)

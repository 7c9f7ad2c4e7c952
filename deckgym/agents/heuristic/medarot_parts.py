"""A rule-of-thumb player for the Medarot parts card game (``medarot_parts_v1``).

It reads the engine state but only what its seat may know: the public field, stocks, play
areas and trashes, hand and deck sizes, and its own hand. It is deterministic: the same
visible position always gives the same choice.

Rules of thumb, by decision point:

- **Action medarot tie / energy step**: act with the medarot that hits hardest; put into the
  stock the energy kind the own parts need most (charge of the parts that kind pays
  efficiently, minus what the stock already holds).
- **Turn-to-act**: exchange a destroyed arm when a replacement is in hand and affordable;
  repair a part holding counters of half its armor or more (the head first); otherwise attack
  with the strongest affordable part (ties: the cheaper charge); then use a support part;
  then play ACTION medaroter cards that have a use (repair a damaged part, draw when the hand
  is short, untap spent energy, power and charge boosts); otherwise pass.
- **Payment**: pay with the medal when its EP fit in what is still owed, then with the
  efficient energy kind, and finish an odd point with the kind the own parts need least.
- **Power window**: the attacker adds power cards and, against untapped defending legs,
  NO_EVADE; the defender plays power cuts against damage of 3 or more.
- **Defending medarot**: designate the opposing medarot that can neither evade nor protect,
  then the one with the least armor left.
- **Defence**: damage cards against damage of 2 or more; evade damage of 3 or more; otherwise
  protect against damage of 2 or more, paying just enough charge to bring it to 0 after block
  shock (or all it can); allocate damage to the part that survives with the most armor left,
  never the head unless forced, and when nothing survives lose the least useful part.
- **Effect step and targets**: always attach an effect card; aim opposing slot effects at the
  strongest part; boosts go to the own action medarot's best attack part; repairs to the part
  with the most counters, the head first.
- **Discards**: keep evade cards and usable energy; drop the card of least use first, and stop
  at 7 cards.
- **AMALOGS proxy table** (seat 1 is a stand-in with life P, amalogs D37, D40; only seat 0
  plays): a plan counts what the attack parts still open this turn (this round's and those of
  a medarot acting in a later round) can take from P with the energy left, modelled exactly as
  it is paid (energy kinds, medals), with the cards and support parts that untap energy. The
  action step attacks first with the part that starts the best plan (against a guest the
  stronger part on ties, against a base, which loses 1 per attack dealing damage, the cheaper),
  untaps energy when the plan needs it, and spends energy on repairs, support or cards only
  when the plan keeps all it takes; each payment and each untapped kind is the one that keeps
  the most for the plan; a power card only when it adds more to the hit than its cost takes
  from the plan.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any, Final

from deckgym.agents.base import checked_move
from deckgym.agents.heuristic.base import RuleOfThumbAgent
from deckgym.envs.core import proxy
from deckgym.envs.medarot_parts import actions as A
from deckgym.envs.medarot_parts.actions import DP, Action, Kind
from deckgym.envs.medarot_parts.cards import (
    ATTACK_ACTIONS,
    E_SUPPORT,
    EFFICIENT_KIND,
    ENERGY,
    EVADE,
    LEGS,
    MEDAROTER,
    PART,
    PROTECT,
    REPAIR,
    SUPPORT,
    Target,
)
from deckgym.envs.medarot_parts.rules.values import charge, part_payment, power, use_abilities
from deckgym.envs.medarot_parts.state import GameState


class PartsHeuristic(RuleOfThumbAgent):
    """The Medarot parts game rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``."""

    def choose(self, state: GameState, seat: int) -> Action:
        """The heuristic's choice at ``state`` for ``seat`` (the player to move)."""
        return choose(state, seat)


def choose(st: GameState, seat: int) -> Action:
    """The heuristic's choice at ``st`` for ``seat`` (the player to move)."""
    legal = st.legal_actions()
    if len(legal) == 1:
        return legal[0]  # forced: the only option
    assert st.decision_point is not None, "the heuristic was asked to move in a finished game"
    # every decision point has its rule (the keys are DP values, an IntEnum: no conversion)
    choice = _CHOOSERS[st.decision_point[0]](st, seat, legal)
    return checked_move("heuristic (medarot_parts)", st, choice, legal)


# ----------------------------------------------------------------------------- helpers
def _energy_need(st: GameState, seat: int) -> list[int]:
    """Per energy kind: charge of own usable head/arm parts it pays efficiently, minus stock cards."""
    need = [0, 0, 0, 0]
    for m, med in enumerate(st.field[seat]):
        if med.stopped:
            continue
        for s in range(3):
            part = med.parts[s]
            if not part.destroyed:
                need[EFFICIENT_KIND[st.cards[part.card].action]] += charge(st, seat, m, s)
    for cid, _ in st.stock[seat]:
        need[st.cards[cid].kind] -= 1
    return need


def _remaining(st: GameState, p: int, m: int, s: int) -> int:
    part = st.field[p][m].parts[s]
    return 0 if part.destroyed else st.cards[part.card].armor - part.counters


def _best_attack_power(st: GameState, p: int, m: int) -> int:
    med = st.field[p][m]
    return max(
        (
            power(st, p, m, s)
            for s in range(3)
            if not med.parts[s].destroyed and st.cards[med.parts[s].card].action in ATTACK_ACTIONS
        ),
        default=0,
    )


# ----------------------------------------------------------------------------- the proxy (AMALOGS)
# On a proxy table (amalogs D37, D40) seat 1 is a stand-in that never acts: the turn's energy goes
# to hits on it. A plan counts what the attack parts still open this turn can take from P with
# the energy left: a guest proxy loses each damage, a base proxy 1 per attack that deals any.
# The energy is modelled as it is paid (``rules.values``, ``rules.payment``): per energy kind the
# untapped and the tapped cards (an untapped one pays 2 EP for its efficient kind, 1 EP for
# another), per own medarot whether its medal (2 EP per efficient point, for its own parts of its
# attribute) is untapped, and what untaps energy: medaroter cards in hand and support parts.

#: (untapped cards per kind, tapped cards per kind, medal untapped per own medarot, medal EP per own medarot).
Energy = tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...]]
#: One attack still to come: (EP to pay, efficient kind, medarot whose medal may pay or -1, P it takes).
Hit = tuple[int, int, int, int]
#: What untaps energy: (cards it untaps, EP to pay, efficient kind, medal's medarot or -1, 1 if it is
#: played in a power window, its round: -1 any (a card in hand), 0 this one, 1 a later one (a part),
#: the medarot of a support part or -1: a medarot uses one support part a round, D30).
Untap = tuple[int, int, int, int, int, int, int]


def _proxy_table(st: GameState, seat: int) -> bool:
    """Whether ``seat`` hosts an AMALOGS proxy table: the stand-in at seat 1 is its target (D37, D40)."""
    return seat == 0 and st.config.proxy != proxy.NONE


def _part_payment_need(st: GameState, p: int, m: int, s: int) -> tuple[int, int, int]:
    """(EP, efficient kind, medarot whose medal may pay or -1) of using the part in slot ``s`` of medarot ``m``."""
    kind, medal = part_payment(st, p, m, s)
    return 2 * charge(st, p, m, s), kind, (m if medal is not None else -1)


def _energy_now(st: GameState, seat: int) -> Energy:
    """The energy and medals of ``seat`` now."""
    free, tapped = [0, 0, 0, 0], [0, 0, 0, 0]
    for cid, t in st.stock[seat]:
        (tapped if t else free)[st.cards[cid].kind] += 1
    field = st.field[seat]
    return (
        tuple(free),
        tuple(tapped),
        tuple(not med.medal_tapped for med in field),
        tuple(2 * st.cards[med.medal].efficient for med in field),
    )


def _taken(st: GameState, dmg: int) -> int:
    """What an attack dealing ``dmg`` takes from P now."""
    life = st.proxy_life
    return life - proxy.after_attack(life, min(dmg, 9), st.config.proxy)


def _hit(st: GameState, seat: int, m: int, s: int) -> Hit | None:
    """The part in slot ``s`` of medarot ``m`` as a hit on the proxy, or None (no open attack, or it takes nothing)."""
    part = st.field[seat][m].parts[s]
    if part.destroyed or part.tapped or st.cards[part.card].action not in ATTACK_ACTIONS:
        return None
    taken = _taken(st, power(st, seat, m, s))
    return (*_part_payment_need(st, seat, m, s), taken) if taken >= 1 else None


def _untap_card(c: Any) -> Untap | None:
    """A medaroter card in hand whose effect untaps energy as an ``Untap``, else None."""
    if c.type != MEDAROTER or not c.abilities or c.abilities[0].op != "UNTAP_ENERGY":
        return None
    return c.abilities[0].amount, 2 * c.cost, E_SUPPORT, -1, int(c.timing == "POWER"), -1, -1


def _untap_part(st: GameState, seat: int, m: int, s: int, later: bool) -> Untap | None:
    """A support part whose use untaps energy as an ``Untap``, else None."""
    med = st.field[seat][m]
    part = med.parts[s]
    if part.destroyed or part.tapped or med.parts[LEGS].tapped or st.cards[part.card].action != SUPPORT:
        return None
    amount = sum(
        ab.amount for ab in st.cards[part.card].abilities if ab.source == "ON_USE" and ab.op == "UNTAP_ENERGY"
    )
    return (amount, *_part_payment_need(st, seat, m, s), 0, int(later), m) if amount else None


class _Plan:
    """What the attacks still open this turn can take from P, from a position of ``seat``'s own side."""

    def __init__(self, st: GameState, seat: int) -> None:
        am = st.action_medarot[seat]
        now: list[Hit] = []
        later: list[Hit] = []
        untaps = [u for u in (_untap_card(st.cards[c]) for c in st.hand[seat]) if u is not None]
        for m, med in enumerate(st.field[seat]):
            # a medarot that is not stopped and whose legs are untapped acts in a later round (D9)
            if med.stopped or (m != am and med.parts[LEGS].tapped):
                continue
            for s in range(3):
                h = _hit(st, seat, m, s)
                if h is not None:
                    (now if m == am else later).append(h)
                u = _untap_part(st, seat, m, s, m != am)
                if u is not None:
                    untaps.append(u)
        self.now, self.later, self.untaps = tuple(sorted(now)), tuple(sorted(later)), tuple(sorted(untaps))
        # the energy step of a later round puts a card of the kind ``_energy`` picks into the stock
        need = _energy_need(st, seat)
        kinds = [st.cards[c].kind for c in st.hand[seat] if st.cards[c].type == ENERGY]
        self.bonus = max(kinds, key=lambda k: need[k]) if kinds and later else -1
        self.cap = st.proxy_life
        self.energy = _energy_now(st, seat)
        # during a battle the attacker's power window is open or comes before the next action
        self.window = st.battle is not None

    def most(
        self,
        energy: Energy | None = None,
        now: tuple[Hit, ...] | None = None,
        untaps: tuple[Untap, ...] | None = None,
        window: bool | None = None,
    ) -> int:
        """The most the open hits take from P from ``energy`` (default: now), ``now``, ``untaps``, ``window`` replaced."""
        return _most(
            self.energy if energy is None else energy,
            self.now if now is None else now,
            self.later,
            self.bonus,
            self.untaps if untaps is None else untaps,
            self.cap,
            self.window if window is None else window,
        )

    def after(self, need: int, kind: int, medal: int, energy: Energy | None = None) -> int:
        """The most the open hits take from P after a payment of ``need`` EP (-1: it cannot be paid)."""
        covers = _covers(self.energy if energy is None else energy, need, kind, medal)
        return max((self.most(left) for left in covers), default=-1)

    def untap_now(self, u: Untap) -> int:
        """The most the open hits take from P if ``u`` (one of ``self.untaps``) is used now (-1: it cannot be)."""
        amount, need, kind, medal, _timing, _round, _medarot = u
        paid = _covers(self.energy, need, kind, medal)
        rest = _without(self.untaps, u)
        return max((self.most(e, untaps=rest) for left in paid for e in _untaps(left, amount)), default=-1)


def _without(untaps: tuple[Untap, ...], u: Untap) -> tuple[Untap, ...]:
    """``untaps`` once ``u`` is used: a support part takes the other support parts of its medarot along (D30)."""
    i = untaps.index(u)
    rest = untaps[:i] + untaps[i + 1 :]
    return rest if u[6] < 0 else tuple(v for v in rest if v[6] != u[6])


def _covers(energy: Energy, need: int, kind: int, medal: int) -> list[Energy]:
    """The energy left after each way of paying ``need`` EP one card (or the medal) at a time.

    A payment stops as soon as it is complete, so a way is one whose last card was still needed:
    its total minus its largest single payment is below ``need``.
    """
    free, tapped, medals, medal_ep = energy
    if need <= 0:
        return [energy]
    out = []
    medal_options = (False, True) if medal >= 0 and medals[medal] else (False,)
    gains = [2 if k == kind else 1 for k in range(4)]
    ranges = [range(min(free[k], -(-need // gains[k])) + 1) for k in range(4)]
    for use_medal in medal_options:
        m_ep = medal_ep[medal] if use_medal else 0
        for counts in itertools.product(*ranges):
            total = m_ep + sum(c * g for c, g in zip(counts, gains, strict=True))
            if total < need:
                continue
            if total - max([m_ep] + [g for c, g in zip(counts, gains, strict=True) if c]) >= need:
                continue
            out.append(
                (
                    tuple(f - c for f, c in zip(free, counts, strict=True)),
                    tuple(t + c for t, c in zip(tapped, counts, strict=True)),
                    tuple(u and i != medal for i, u in enumerate(medals)) if use_medal else medals,
                    medal_ep,
                )
            )
    return out


def _untaps(energy: Energy, n: int) -> list[Energy]:
    """The energy after untapping ``n`` tapped cards (all of them if fewer), each way of choosing their kinds."""
    free, tapped, medals, medal_ep = energy
    k = min(n, sum(tapped))
    out = []
    for counts in itertools.product(*(range(min(t, k) + 1) for t in tapped)):
        if sum(counts) == k:
            out.append(
                (
                    tuple(f + c for f, c in zip(free, counts, strict=True)),
                    tuple(t - c for t, c in zip(tapped, counts, strict=True)),
                    medals,
                    medal_ep,
                )
            )
    return out


@functools.lru_cache(maxsize=1 << 16)
def _most(
    energy: Energy,
    now: tuple[Hit, ...],
    later: tuple[Hit, ...],
    bonus: int,
    untaps: tuple[Untap, ...],
    cap: int,
    window: bool,
) -> int:
    """The most the hits ``now`` (this round, any order) then ``later`` can take from P, at most ``cap``.

    Between the rounds the energy step adds a card of kind ``bonus`` (-1: none). What ``untaps``
    energy may be used between the hits: a card of the power window only while ``window`` (the
    window of the hit just paid) is open, a support part only in its medarot's round.
    """
    best = 0
    if later:
        free = list(energy[0])
        if bonus >= 0:
            free[bonus] += 1
        nxt = tuple(sorted(v[:5] + (max(-1, v[5] - 1),) + v[6:] for v in untaps if v[5] != 0))
        best = _most((tuple(free), *energy[1:]), later, (), -1, nxt, cap, False)
    if any(energy[1]):
        for j, u in enumerate(untaps):
            amount, need, kind, medal, timing, rnd, _medarot = u
            if best >= cap:
                return cap
            if (j and u == untaps[j - 1]) or (timing and not window) or rnd > 0:
                continue  # the same again (the same plans), or not usable now
            rest = _without(untaps, u)
            for paid in _covers(energy, need, kind, medal):
                for more in _untaps(paid, amount):
                    best = max(best, _most(more, now, later, bonus, rest, cap, window and bool(timing)))
    for i, (need, kind, medal, taken) in enumerate(now):
        if best >= cap:
            return cap
        if i and now[i] == now[i - 1]:
            continue  # the same hit again: the same plans
        rest_now = now[:i] + now[i + 1 :]
        for left in _covers(energy, need, kind, medal):
            best = max(best, taken + _most(left, rest_now, later, bonus, untaps, cap, True))
    return min(best, cap)


def _spare_energy(st: GameState, seat: int) -> Any:
    """A test of whether a payment (EP, kind, medal) leaves the open attacks all they can take from P."""
    plan = _Plan(st, seat)
    full = plan.most()

    def spare(need: int, kind: int, medal: int) -> bool:
        return full == 0 or plan.after(need, kind, medal) >= full

    return spare


def _proxy_action(st: GameState, seat: int, uses: list[Action], cards: list[Action]) -> Action | None:
    """ACTION on a proxy table: the attack that starts the plan taking the most from P, before repairs.

    When the best plan untaps energy before this round's next hit, the card or support part that
    does; when it spends the energy in a later round, None (then only what spares that energy).
    Ties: against a guest the stronger part, then the cheaper; against a base the cheaper, then
    the stronger. None as well when no hit is open this turn.
    """
    plan = _Plan(st, seat)
    full = plan.most()
    if full == 0:
        return None
    m = st.action_medarot[seat]
    best: tuple[int, ...] | None = None
    choice = None
    for a in uses:
        h = _hit(st, seat, m, a.arg)
        if h is None:
            continue
        i = plan.now.index(h)
        rest = plan.now[:i] + plan.now[i + 1 :]
        need, kind, medal, taken = h
        total = max(
            (taken + plan.most(left, rest, window=True) for left in _covers(plan.energy, need, kind, medal)),
            default=-1,
        )
        pw, ch = power(st, seat, m, a.arg), charge(st, seat, m, a.arg)
        order = (pw, -ch) if st.config.proxy == proxy.GUEST else (-ch, pw)
        key = (min(total, plan.cap), *order, -a.arg)
        if best is None or key > best:
            best, choice = key, a
    if best is not None and best[0] >= full:
        return choice
    hand = st.hand[seat]
    sources = [(a, _untap_card(st.cards[hand[a.arg]])) for a in cards]
    sources += [(a, _untap_part(st, seat, m, a.arg, False)) for a in uses]
    for a, u in sources:
        if u is not None and plan.untap_now(u) >= full:
            return a
    return None


def _proxy_payment(st: GameState, seat: int, legal: list[Action], usual: Action | None) -> Action | None:
    """PAYMENT on a proxy table: the energy (or medal) that leaves the open attacks the most to take from P.

    A card or support part being paid for that untaps energy does so once paid. Ties: the usual
    choice (``_usual_payment``).
    """
    pay = st.pay
    assert pay is not None
    _, need, paid, mp, mi, kind = pay
    plan = _Plan(st, seat)
    free, tapped, medals, medal_ep = plan.energy
    medal = mi if mp >= 0 else -1
    amount = 0
    if st.use is not None and st.use[0] == seat:
        amount = sum(ab.amount for ab in use_abilities(st) if ab.op == "UNTAP_ENERGY")

    def value(a: Action) -> int:
        if a.kind == Kind.PAY_MEDAL:
            gain = medal_ep[mi]
            left = (free, tapped, tuple(u and i != mi for i, u in enumerate(medals)), medal_ep)
        else:
            gain = 2 if a.arg == kind else 1
            one = tuple(int(k == a.arg) for k in range(4))
            left = (
                tuple(f - o for f, o in zip(free, one, strict=True)),
                tuple(t + o for t, o in zip(tapped, one, strict=True)),
                medals,
                medal_ep,
            )
        covers = _covers(left, need - paid - gain, kind, medal)
        return max(plan.most(e) for c in covers for e in (_untaps(c, amount) if amount else [c]))

    return max(legal, key=lambda a: (value(a), a == usual, -legal.index(a)))


def _proxy_power(st: GameState, seat: int, legal: list[Action], dmg: int) -> Action:
    """The attacker's power window against the proxy.

    A power card when what it adds to this hit is more than what its cost takes from the hits
    still open (so none once this hit takes all of P; against a base, only to lift a damage of
    0); a card that untaps energy when the open hits take less if the window closes without it.
    """
    hand = st.hand[seat]
    taken = _taken(st, dmg)
    if taken >= st.proxy_life:
        return A.PASS
    plan = _Plan(st, seat)
    plan.cap -= taken
    full = plan.most()
    for a in legal:
        if a.kind != Kind.HAND:
            continue
        c = st.cards[hand[a.arg]]
        u = _untap_card(c)
        if u is not None:
            played = plan.untap_now(u)
            if played >= full and played > plan.most(window=False):  # passing closes the window
                return a
        elif c.abilities and c.abilities[0].op == "POWER" and c.abilities[0].amount > 0:
            gain = _taken(st, dmg + c.abilities[0].amount) - taken
            if gain > 0 and gain + plan.after(2 * c.cost, E_SUPPORT, -1) > full:
                return a
    return A.PASS


def _proxy_untap(st: GameState, seat: int, kinds: list[Action], usual: Action) -> Action:
    """Which energy kind an untap effect untaps on a proxy table: the one the open hits use best.

    The effect may untap more cards after this one (the last number of the decision's context).
    """
    assert st.decision_point is not None
    plan = _Plan(st, seat)
    free, tapped, medals, medal_ep = plan.energy
    more_to_come = st.decision_point[2][2] - 1

    def value(a: Action) -> int:
        one = tuple(int(k == a.arg) for k in range(4))
        more = (
            tuple(f + o for f, o in zip(free, one, strict=True)),
            tuple(max(0, t - o) for t, o in zip(tapped, one, strict=True)),
            medals,
            medal_ep,
        )
        return max(plan.most(e) for e in _untaps(more, more_to_come))

    return max(kinds, key=lambda a: (value(a), a == usual, -a.arg))


# ----------------------------------------------------------------------------- decisions
def _tie(st: GameState, seat: int, legal: list[Action]) -> Action:
    return max(legal, key=lambda a: (_best_attack_power(st, seat, a.arg), -a.arg))


def _energy(st: GameState, seat: int, legal: list[Action]) -> Action:
    need = _energy_need(st, seat)
    hand = st.hand[seat]
    opts = [a for a in legal if a.kind == Kind.HAND]
    return max(opts, key=lambda a: (need[st.cards[hand[a.arg]].kind], -a.arg))


def _action(st: GameState, seat: int, legal: list[Action]) -> Action:
    hand = st.hand[seat]
    m = st.action_medarot[seat]
    uses = [a for a in legal if a.kind == Kind.USE_PART]
    cards = [a for a in legal if a.kind == Kind.HAND]
    spare = _spare_energy(st, seat) if _proxy_table(st, seat) else None
    if m >= 0:
        parts = st.field[seat][m].parts
        for a in cards:
            c = st.cards[hand[a.arg]]
            if c.type == PART and parts[c.slot].destroyed:
                return a
        if spare is not None:
            plan = _proxy_action(st, seat, uses, cards)
            if plan is not None:
                return plan
        for a in uses:
            if (
                st.cards[parts[a.arg].card].action == REPAIR
                and _worst_damage(st, seat) >= 0.5
                and (spare is None or spare(*_part_payment_need(st, seat, m, a.arg)))
            ):
                return a
        attacks = [a for a in uses if st.cards[parts[a.arg].card].action in ATTACK_ACTIONS]
        if attacks and spare is None:
            return max(attacks, key=lambda a: (power(st, seat, m, a.arg), -charge(st, seat, m, a.arg)))
        for a in uses:
            if st.cards[parts[a.arg].card].action == SUPPORT and (
                spare is None or spare(*_part_payment_need(st, seat, m, a.arg))
            ):
                return a
    for a in cards:
        c = st.cards[hand[a.arg]]
        if (
            c.type == MEDAROTER
            and _card_useful(st, seat, c.abilities)
            and (spare is None or spare(2 * c.cost, E_SUPPORT, -1))
        ):
            return a
    return A.PASS


def _worst_damage(st: GameState, seat: int) -> float:
    """The largest counters / armor ratio among own non-destroyed parts (heads count double)."""
    worst = 0.0
    for med in st.field[seat]:
        if med.stopped:
            continue
        for s, part in enumerate(med.parts):
            if not part.destroyed and part.counters:
                ratio = part.counters / st.cards[part.card].armor
                worst = max(worst, ratio * (2 if s == 0 else 1))
    return worst


def _card_useful(st: GameState, seat: int, abilities: Any) -> bool:
    for ab in abilities:
        if ab.op == "REPAIR" and _worst_damage(st, seat) < 0.3:
            return False
        if ab.op == "DRAW" and len(st.hand[seat]) > 5:
            return False
        if ab.op == "UNTAP_ENERGY" and sum(1 for _, t in st.stock[seat] if t) < ab.amount:
            return False
    return True


def _payment(st: GameState, seat: int, legal: list[Action]) -> Action | None:
    usual = _usual_payment(st, seat, legal)
    if _proxy_table(st, seat):
        return _proxy_payment(st, seat, legal, usual)
    return usual


def _usual_payment(st: GameState, seat: int, legal: list[Action]) -> Action | None:
    pay = st.pay
    assert pay is not None
    _, need, paid, mp, mi, kind = pay
    owed = need - paid
    if A.PAY_MEDAL in legal:
        medal_ep = 2 * st.cards[st.field[mp][mi].medal].efficient
        if medal_ep <= owed:
            return A.PAY_MEDAL
    if A.ENERGY[kind] in legal and owed >= 2:
        return A.ENERGY[kind]
    others = [a for a in legal if a.kind == Kind.ENERGY and a.arg != kind]
    if others:
        need_by_kind = _energy_need(st, seat)
        return min(others, key=lambda a: (need_by_kind[a.arg], a.arg))
    return A.ENERGY[kind] if A.ENERGY[kind] in legal else None


def _power_window(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    hand = st.hand[seat]
    attacking = b.attacker == seat
    dmg = power(st, b.attacker, b.medarot, b.slot)
    if attacking and _proxy_table(st, seat):
        return _proxy_power(st, seat, legal, dmg)
    for a in legal:
        if a.kind != Kind.HAND:
            continue
        ab = st.cards[hand[a.arg]].abilities[0]
        if ab.op == "POWER" and (ab.amount > 0) == attacking and (attacking or dmg >= 3):
            return a
        if ab.op == "NO_EVADE" and attacking and not b.no_evade and len(st.hand[1 - seat]) > 0:
            return a
    return A.PASS


def _defender(st: GameState, seat: int, legal: list[Action]) -> Action:
    o = 1 - seat

    def score(a: Action) -> tuple[int, int, int]:
        parts = st.field[o][a.arg].parts
        legs = parts[LEGS]
        can_evade = not legs.destroyed and not legs.tapped
        can_protect = any(
            not x.destroyed and not x.tapped and st.cards[x.card].action == PROTECT for x in parts[:3]
        )
        armor = sum(_remaining(st, o, a.arg, s) for s in range(4))
        return (int(can_evade) + int(can_protect), _remaining(st, o, a.arg, 0), armor)

    return min(legal, key=score)


def _defense_window(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    cards = [a for a in legal if a.kind == Kind.HAND]
    if cards and b.damage >= 2:
        return cards[0]
    return A.PASS


def _response(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    if A.EVADE in legal and b.damage >= 3:
        return A.EVADE
    protects = [a for a in legal if a.kind == Kind.PROTECT]
    if protects and b.damage >= 2:
        return max(
            protects,
            key=lambda a: (power(st, seat, b.defender, a.arg), _remaining(st, seat, b.defender, a.arg)),
        )
    return A.PASS


def _amount(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    full = charge(st, seat, b.defender, b.protect)
    pw = power(st, seat, b.defender, b.protect)
    for a in legal:
        cut = pw if a.arg >= full else min(a.arg, pw)
        if b.damage - cut <= 1:
            return a
    return legal[-1]


def _allocate(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    m = b.defender
    parts = st.field[seat][m].parts

    def score(a: Action) -> tuple[int, int, int]:
        s = a.arg
        left = _remaining(st, seat, m, s) - b.damage
        survives = left > 0
        if survives:
            return (2, 0 if s == 0 else 1, left)
        # Nothing survives here: lose the least useful part, the head last of all.
        card = st.cards[parts[s].card]
        used = parts[s].tapped
        value = 100 if s == 0 else (40 if s == LEGS else card.power * 5 + card.armor - (10 if used else 0))
        return (1 if s != 0 else 0, 0, -value)

    return max(legal, key=score)


def _attach(st: GameState, seat: int, legal: list[Action]) -> Action:
    return A.ATTACH_EFFECT


def _strongest_opposing(st: GameState, seat: int, legal: list[Action], slot: int) -> Action:
    o = 1 - seat
    return max(
        legal,
        key=lambda a: (
            0 if st.field[o][a.arg].parts[slot].destroyed else 1,
            power(st, o, a.arg, slot),
            -a.arg,
        ),
    )


def _effect_target(st: GameState, seat: int, legal: list[Action]) -> Action:
    b = st.battle
    assert b is not None
    card = st.cards[st.field[seat][b.medarot].parts[b.slot].card]
    ab = next(x for x in card.abilities if x.source == "EFFECT")
    return _strongest_opposing(st, seat, legal, ab.slot)


def _repair_medarot(st: GameState, seat: int, legal: list[Action]) -> Action:
    return max(
        legal,
        key=lambda a: (
            st.field[seat][a.arg].parts[0].counters,
            sum(x.counters for x in st.field[seat][a.arg].parts),
        ),
    )


def _repair_part(st: GameState, seat: int, legal: list[Action], m: int | None = None) -> Action:
    assert st.decision_point is not None
    target = st.decision_point[2][2] if m is None else m
    parts = st.field[seat][target].parts
    return max(legal, key=lambda a: (parts[a.arg].counters + (2 if a.arg == 0 else 0), -a.arg))


def _target(st: GameState, seat: int, legal: list[Action]) -> Action:
    assert st.decision_point is not None and st.use is not None
    e, stage = st.decision_point[2][0], st.decision_point[2][1]
    if stage == 2:
        need = _energy_need(st, seat)
        kinds = [a for a in legal if a.kind == Kind.ENERGY]
        if kinds and _proxy_table(st, seat):
            return _proxy_untap(st, seat, kinds, max(kinds, key=lambda a: (need[a.arg], -a.arg)))
        return max(kinds, key=lambda a: (need[a.arg], -a.arg)) if kinds else A.PASS
    ab = use_abilities(st)[e]
    if stage == 1:
        if ab.target == Target.OWN_PART:
            return _repair_part(st, seat, legal, st.use[3][e][0])
        m = st.use[3][e][0]
        return max(
            legal,
            key=lambda a: (
                a.arg < 3 and not st.field[seat][m].parts[a.arg].destroyed,
                power(st, seat, m, a.arg) if a.arg < 3 else -1,
            ),
        )
    if ab.target == Target.OPP_SLOT:
        return _strongest_opposing(st, seat, legal, ab.slot)
    if ab.target == Target.OWN_PART:
        return _repair_medarot(st, seat, legal)
    am = st.action_medarot[seat]
    return next(
        (a for a in legal if a.arg == am), max(legal, key=lambda a: _best_attack_power(st, seat, a.arg))
    )


def _discard(st: GameState, seat: int, legal: list[Action]) -> Action:
    hand = st.hand[seat]
    if A.PASS in legal:
        return A.PASS
    need = _energy_need(st, seat)

    def value(a: Action) -> float:
        c = st.cards[hand[a.arg]]
        if c.type == EVADE:
            return 9.0
        if c.type == ENERGY:
            return 5.0 + min(need[c.kind], 4)
        if c.type == MEDAROTER:
            return 6.0
        if c.type == PART:
            return 4.0 if c.price <= st.assets[seat] else 1.0
        has_bare = any(
            not x.destroyed and x.effect is None and st.cards[x.card].effect_part
            for med in st.field[seat]
            for x in med.parts
        )
        return 5.0 if has_bare else 0.5

    return min(legal, key=lambda a: (value(a), a.arg))


_CHOOSERS: Final[dict[int, Callable[[GameState, int, list[Action]], Action | None]]] = {
    DP.ACTION_MEDAROT_TIE: _tie,
    DP.ENERGY_PLACE: _energy,
    DP.ACTION: _action,
    DP.PAYMENT: _payment,
    DP.POWER_WINDOW: _power_window,
    DP.DEFENDER_CHOICE: _defender,
    DP.DEFENSE_WINDOW: _defense_window,
    DP.RESPONSE: _response,
    DP.PROTECT_AMOUNT: _amount,
    DP.ALLOCATE: _allocate,
    DP.EFFECT_ATTACH: _attach,
    DP.EFFECT_TARGET: _effect_target,
    DP.REPAIR_MEDAROT: _repair_medarot,
    DP.REPAIR_PART: _repair_part,
    DP.TARGET: _target,
    DP.DISCARD: _discard,
}

"""A rule-of-thumb player for Master of the World.

It reads the engine state but only what its seat may know: its own hand, deck contents and
face-down spell, everything public on the field, both experience and discard piles, and
counts. It never reads the opponent's hand, the opponent's face-down spell (nor the card of
the opponent's cast entry on the chain) or any deck order. It is deterministic: the same
visible position always gives the same choice.

Rules of thumb, by decision point:

- **The deck is a clock** (this drives most of the rules below). A player whose deck empties
  first loses, and both draw one card a turn, so the seat's spare is its deck size minus the
  opponent's (minus one more outside its own turn, since it draws next). Anything that takes
  extra cards from the own deck (DRAW, SEARCH, EXP_GAIN from the deck top, a 登場時 or up時
  that draws) is used only while the spare stays 3 or more afterwards; an extra draw also
  needs a hand of 3 or fewer cards.
- **Charge**: level up first. Charge while below level 2, and keep charging towards the
  master's maximum level while the hand holds 4 or more cards. From level 1 on, a level whose
  up時 draws cards (the master's or the own monsters' and weapon's) is charged only when the
  clock allows those cards, or when under pressure: the opponent's monsters out-attack the
  own ones, or life is 12 or less. The card charged is the least useful one: a card the master
  may not use (restricted class) first, then the lowest value.
- **Main**: in this order, (1) 起動 abilities that have something to do (a target to hit,
  cards to draw while the clock allows) and whose life cost leaves at least 8 life; (2) summon
  the strongest monster that fits (attack + toughness, a little more for abilities); (3) equip
  a weapon that beats the current one; a monster or weapon whose 登場時 draws waits for the
  clock, unless the board is bare and two of the opponent's hits would end the game (a
  blocker first); (4) activate a ready face-down spell, then a 高速 spell from hand, when its
  first effect has a worthwhile target; (5) cast a spell into an empty slot only if it is a
  counter or already has something to do (a waiting spell would block the slot): one with
  something to do first, else a counter (it guards the opponent's turn), keeping 高速 spells
  in hand; then pass.
- **Counter window**: hold counters for uses that matter. Answer a summon of a monster worth
  5 or more (or one that a 2-damage counter kills), an equip of a weapon worth 3 or more, and
  any spell activation with NEGATE. A cast is never answered (its card is hidden).
- **Attack**: attack with a monster or the master when the trade is good: the target dies and
  the attacker survives, the target is worth more than the attacker, a monster takes lasting
  damage (damage persists) and the attacker survives, or the opponent's master takes damage
  for less than it costs. Even trades, and monsters spent on damage to the master, are
  accepted only when the clock says the own deck runs out first. The master never attacks
  when the hit it takes back would leave no more life than the opponent's next turn could
  deal (its master, +1 for a 攻撃時 buff, and its monsters, past the own guard); its life is
  worth more while the clock is on its side. The target is the one with the best trade.
- **Targets of effects**: damage and removal go to the opponent (lethal first, then a monster
  it kills, the most valuable first); heals and buffs go to its own best card.
- **Discards, sacrifices, overflow**: lose the least valuable card or monster. **Search and
  recover**: take the most valuable card type.
- **AMALOGS proxy table** (seat 1 is a proxy master with life P, attack and guard 0, amalogs
  D37, D40): it deals nothing back and never acts, so every ready attacker whose hit takes
  something from P attacks it, the strongest hit first. Charge one more card whenever charging
  up to the charge limit reaches a level whose attacks (the master's, and the monsters' under
  the master's skills) take P to 0 this turn.
"""

from __future__ import annotations

from typing import Final

from deckgym.agents.base import checked_move
from deckgym.agents.heuristic.base import RuleOfThumbAgent
from deckgym.envs.core.proxy import after_attack
from deckgym.envs.mow.actions import DP, PASS, SLOT_SPELL, Action, Kind, Use
from deckgym.envs.mow.cards import MONSTER, ON_ENTER, ON_LEVEL_UP, SPELL, WEAPON, CardDef, Effect
from deckgym.envs.mow.rules.card_use import ability_sources, restricted
from deckgym.envs.mow.rules.combat import combat_damage, master_can_attack
from deckgym.envs.mow.rules.field import locate, ref_at
from deckgym.envs.mow.rules.values import (
    charge_limit,
    level_for,
    master_attack,
    master_guard,
    monster_attack,
    sick,
    toughness,
)
from deckgym.envs.mow.state import GameState

_MIN_LIFE_FOR_COSTS: Final = 8
#: Cards the deck clock must stay ahead by after an optional draw, search or experience gain.
_RACE_BUFFER: Final = 3
#: Extra cards are only drawn while the hand holds at most this many.
_HAND_LOW: Final = 3
#: Levels up to this one are charged whatever their up時 draws cost (slots come first).
_FREE_LEVELS: Final = 1
#: At or below this life every level is worth its cards.
_LOW_LIFE: Final = 12


class MowHeuristic(RuleOfThumbAgent):
    """The MoW rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``."""

    def choose(self, state: GameState, seat: int) -> Action:
        """The heuristic's choice at ``state`` for ``seat`` (the player to move)."""
        return choose(state, seat)


# ----------------------------------------------------------------------------- values
def card_value(c: CardDef) -> float:
    """A static worth of a card: stats, plus a little per ability."""
    if c.kind == MONSTER:
        return c.attack + c.toughness + 1.5 * len(c.abilities)
    if c.kind == WEAPON:
        return 1.5 * c.attack + c.guard + 1.5 * len(c.abilities)
    return 4.0 + (1.0 if c.counter else 0.0)


def _keep_value(st: GameState, seat: int, cid: str) -> float:
    """How much the seat wants to keep a hand card (restricted cards are worthless to it)."""
    c = st.cards[cid]
    return -10.0 if restricted(st, seat, c) else card_value(c)


def _lowest(st: GameState, seat: int, legal: list[Action]) -> Action:
    """The HAND[k] option of the least valuable card type."""
    main = st.pool.main
    return min(legal, key=lambda a: (_keep_value(st, seat, main[a.arg].id), a.arg))


def _monster_worth(st: GameState, p: int, pos: int) -> float:
    m = st.monsters[p][pos]
    return monster_attack(st, p, m) + toughness(st, p, m) + 1.5 * len(st.cards[m.card].abilities)


# ----------------------------------------------------------------------------- decision points
def choose(st: GameState, seat: int) -> Action:
    """The heuristic's action at ``st`` for ``seat`` (the player to move)."""
    legal = st.legal_actions()
    if len(legal) == 1:
        return legal[0]  # forced: the only option
    return checked_move("heuristic (mow)", st, _choose(st, seat, legal), legal)


def _choose(st: GameState, seat: int, legal: list[Action]) -> Action:
    """The rule of the current decision point."""
    kind = st.decision_point[0]  # type: ignore[index]
    if kind == DP.CHARGE:
        return _charge(st, seat, legal)
    if kind == DP.MAIN:
        return _main(st, seat, legal)
    if kind == DP.COUNTER_WINDOW:
        return _counter(st, seat, legal)
    if kind in (DP.ATTACK_DECLARE, DP.ATTACK_TARGET):
        return _attack(st, seat, legal, kind)
    if kind == DP.EFFECT_TARGET:
        return _effect_target(st, seat, legal)
    if kind in (DP.COST_DISCARD, DP.EFFECT_DISCARD, DP.EXP_FROM_HAND):
        return _lowest(st, seat, legal)
    if kind in (DP.COST_SACRIFICE, DP.OVERFLOW_DISCARD):
        return min(legal, key=lambda a: (_monster_worth(st, seat, a.arg - 1), a.arg))
    main = st.pool.main
    return max(legal, key=lambda a: (card_value(main[a.arg]), -a.arg))  # SEARCH / RECOVER


def _charge(st: GameState, seat: int, legal: list[Action]) -> Action:
    if st.is_proxy(1 - seat) and _charges_to_end_table(st, seat) > 0:
        return _lowest(st, seat, [a for a in legal if a.kind == Kind.HAND])
    level = st.level[seat]
    master = st.cards[st.masters[seat]]
    want = level < 2 or (level < master.max_level and len(st.hand[seat]) >= 4)
    if want and level >= _FREE_LEVELS and not _under_pressure(st, seat):
        nxt = level_for(master, len(st.exp[seat]) + 1)
        cost = _level_up_cost(st, seat, nxt) if nxt > level else 0
        want = cost == 0 or _can_spend_deck(st, seat, cost)
    if want:
        return _lowest(st, seat, [a for a in legal if a.kind == Kind.HAND])
    return PASS


def _charges_to_end_table(st: GameState, seat: int) -> int:
    """On a proxy table: the fewest charges this turn after which its attacks take P to 0; -1 if none do.

    The attacks are those of the ready monsters and, if it may attack, the master, at the level
    the charges bring (its attack and its skills); the proxy's guard is 0 and it deals nothing
    back (amalogs D37, D40: a guest loses each hit, a base 1 per hit of 1 or more).
    """
    o = 1 - seat
    master = st.cards[st.masters[seat]]
    target = ref_at(st, seat, 8)
    attackers = [m.uid for m in st.monsters[seat] if not m.attacked and not sick(st, m)]
    if master_can_attack(st, seat):
        attackers.append(-1 - seat)
    room = min(len(st.hand[seat]), charge_limit(st, seat) - st.charges)
    at = st.clone()
    for k in range(room + 1):
        at.level[seat] = level_for(master, len(st.exp[seat]) + k)
        life = st.life[o]
        for ref in attackers:
            life = after_attack(life, combat_damage(at, seat, ref, o, target), st.config.proxy)
        if life == 0:
            return k
    return -1


def _needs_blocker(st: GameState, seat: int) -> bool:
    """No own monster stands between the opponent and a life that two of its hits would end."""
    return not st.monsters[seat] and 2 * _threat(st, seat) >= st.life[seat]


def _under_pressure(st: GameState, seat: int) -> bool:
    """The opponent's board outguns the own board, or the own life is low: levels are worth cards."""
    o = 1 - seat
    theirs = sum(monster_attack(st, o, m) for m in st.monsters[o])
    mine = sum(monster_attack(st, seat, m) for m in st.monsters[seat])
    return theirs > mine or st.life[seat] <= _LOW_LIFE


def _level_up_cost(st: GameState, seat: int, lv: int) -> int:
    """Cards the up時 of reaching level ``lv`` take from the own deck (master and own cards)."""
    master = st.cards[st.masters[seat]]
    n = sum(deck_cost(es) for at, es in master.level_up if at in (0, lv))
    own = [st.cards[m.card] for m in st.monsters[seat]]
    weapon = st.weapon[seat]
    if weapon:
        own.append(st.cards[weapon[0]])
    for c in own:
        n += sum(deck_cost(ab.effects) for ab in c.abilities if ab.timing == ON_LEVEL_UP)
    return n


def _main(st: GameState, seat: int, legal: list[Action]) -> Action:
    main = st.pool.main
    by_kind: dict[int, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a)
    for a in by_kind.get(Kind.ABILITY, []):
        if _ability_worth_using(st, seat, a):
            return a
    uses = by_kind.get(Kind.USE, [])
    uses = [a for a in uses if _entry_affordable(st, seat, main[a.arg])]
    monsters = [a for a in uses if main[a.arg].kind == MONSTER]
    if monsters:
        return max(monsters, key=lambda a: (card_value(main[a.arg]), -a.arg))
    current = st.weapon[seat]
    floor = card_value(st.cards[current[0]]) if current else 0.0
    weapons = [a for a in uses if main[a.arg].kind == WEAPON and card_value(main[a.arg]) > floor]
    if weapons:
        return max(weapons, key=lambda a: (card_value(main[a.arg]), -a.arg))
    if SLOT_SPELL in legal and _spell_useful(st, seat, st.cards[st.spell[seat][0]]):  # type: ignore[index]
        return SLOT_SPELL
    for a in by_kind.get(Kind.FAST, []):
        if _spell_useful(st, seat, main[a.arg]):
            return a
    spells = [a for a in uses if main[a.arg].kind == SPELL and _worth_casting(st, seat, main[a.arg])]
    if spells:
        return max(spells, key=lambda a: _cast_priority(st, seat, main[a.arg]) + (-a.arg,))
    return PASS


def _cast_priority(st: GameState, seat: int, c: CardDef) -> tuple[int, ...]:
    """Which spell to cast: one with something to do next turn, then a counter; 高速 stays in hand."""
    return (_spell_useful(st, seat, c) and not c.counter, c.counter, not c.fast)


def _worth_casting(st: GameState, seat: int, c: CardDef) -> bool:
    """Whether a spell may go face-down: only a counter or one with something to do now.

    A spell that waits for a better moment would block the single slot.
    """
    return c.counter or _spell_useful(st, seat, c)


def _ability_worth_using(st: GameState, seat: int, a: Action) -> bool:
    pos, i = divmod(a.arg, 2)
    card = next(c for q, c, _r in ability_sources(st, seat) if q == pos)
    c = st.cards[card]
    ab = c.abilities[c.acts[i]]
    life_cost = dict(ab.condition).get("COST_LIFE", 0)
    if life_cost and st.life[seat] - life_cost < _MIN_LIFE_FOR_COSTS:
        return False
    return _effect_useful(st, seat, ab.effects[0])


def _spell_useful(st: GameState, seat: int, c: CardDef) -> bool:
    return _effect_useful(st, seat, c.effects[0])


def _effect_useful(st: GameState, seat: int, e: Effect) -> bool:
    """Whether the first effect of a spell or ability has something worthwhile to do now."""
    o = 1 - seat
    if e.op in ("DAMAGE", "DESTROY", "BOUNCE") and e.target in ("CHOSEN", "ALL"):
        if e.target == "ALL" and e.side == "ANY":
            own = sum(_monster_worth(st, seat, i) for i in range(len(st.monsters[seat])))
            return sum(_monster_worth(st, o, i) for i in range(len(st.monsters[o]))) > own + 3
        return (
            bool(st.monsters[o]) or ("MASTER" in e.kinds) or (e.op == "BOUNCE" and st.weapon[o] is not None)
        )
    if e.op == "BUFF":
        return bool(st.monsters[seat]) if "MONSTER" in e.kinds or e.target != "OWN_MASTER" else True
    if e.op in ("DISCARD", "EXP_LOSE") and e.player == "OPP":
        return bool(st.hand[o] if e.op == "DISCARD" else st.exp[o])
    if e.op == "EXP_GAIN":
        deep = e.source == "HAND" or _can_spend_deck(st, seat, e.amount)
        return deep and st.level[seat] < st.cards[st.masters[seat]].max_level
    if e.op in ("DRAW", "SEARCH"):
        return _can_spend_deck(st, seat, max(1, e.amount)) and len(st.hand[seat]) <= _HAND_LOW
    if e.op == "RECOVER":
        return any(st.cards[c].kind == MONSTER for c in st.discard[seat])
    if e.op == "HEAL":
        return st.life[seat] < 16
    return True


def deck_cost(effects: tuple[Effect, ...]) -> int:
    """Cards an effect list takes from its controller's own deck (draw, search, experience)."""
    n = 0
    for e in effects:
        if e.op == "DRAW" and e.player == "SELF":
            n += e.amount
        elif e.op == "SEARCH" or (e.op == "EXP_GAIN" and e.source == "DECK_TOP" and e.player == "SELF"):
            n += max(1, e.amount)
    return n


def _entry_affordable(st: GameState, seat: int, c: CardDef) -> bool:
    """A monster or weapon whose 登場時 takes from the deck is only used while the clock allows it."""
    n = sum(deck_cost(ab.effects) for ab in c.abilities if ab.timing == ON_ENTER)
    return n == 0 or _can_spend_deck(st, seat, n) or _needs_blocker(st, seat)


def deck_spare(st: GameState, seat: int) -> int:
    """Cards the seat may still take from its deck and empty it after the opponent (the clock)."""
    mine, theirs = len(st.deck[seat]), len(st.deck[1 - seat])
    return mine - theirs - (0 if st.active == seat else 1)


def _can_spend_deck(st: GameState, seat: int, n: int) -> bool:
    """Whether taking ``n`` more cards from the own deck still leaves it emptying well after the opponent's."""
    return deck_spare(st, seat) - n >= _RACE_BUFFER


def _counter(st: GameState, seat: int, legal: list[Action]) -> Action:
    user, kind, card, uid, _neg, _here, _ai = st.chain[-1]
    if kind == Use.CAST and user != seat:
        return PASS
    worth = 0.0
    if kind == Use.SUMMON and locate(st, uid) is not None:
        c = st.cards[card]
        worth = _countered_value(c) + (3 if c.toughness <= 2 else 0)
    elif kind == Use.EQUIP:
        worth = 2 * _countered_value(st.cards[card])
    elif kind in (Use.ACTIVATE, Use.ABILITY):
        worth = 6.0
    threshold = 5.0
    options = [a for a in legal if a != PASS]
    for a in sorted(options, key=lambda a: (a.kind != Kind.SLOT_SPELL, a.kind, a.arg)):
        if kind == Use.ACTIVATE and not _negates(st, seat, a):
            continue
        if worth >= threshold:
            return a
    return PASS


def _countered_value(c: CardDef) -> float:
    """What a counter takes from a used monster or weapon: its worth without its 登場時.

    The 登場時 still resolves after the countered card is discarded (D28, R42).
    """
    return card_value(c) - 1.5 * sum(1 for ab in c.abilities if ab.timing == ON_ENTER)


def _negates(st: GameState, seat: int, a: Action) -> bool:
    """Whether a counter option's first effect is NEGATE (the answer to a spell)."""
    if a.kind == Kind.SLOT_SPELL:
        c = st.cards[st.spell[seat][0]]  # type: ignore[index]
        return c.effects[0].op == "NEGATE"
    if a.kind == Kind.FAST:
        return st.pool.main[a.arg].effects[0].op == "NEGATE"
    pos, i = divmod(a.arg, 2)
    card = next(c for q, c, _r in ability_sources(st, seat) if q == pos)
    c = st.cards[card]
    return c.abilities[c.acts[i]].effects[0].op == "NEGATE"


# ----------------------------------------------------------------------------- attacks
def _trade(st: GameState, seat: int, attacker: int, target: int) -> float:
    """Score of attacking ``target`` with ``attacker`` (refs); <= 0 means not worth it.

    Monster damage persists (D38), so a hit that does not kill still counts; losing the
    attacker counts against the trade unless the target is worth more; when the seat would
    run out of deck first, even trades are taken.
    """
    o = 1 - seat
    dealt = combat_damage(st, seat, attacker, o, target)
    taken = combat_damage(st, o, target, seat, attacker)
    racing = deck_spare(st, seat) < 0
    if attacker < 0:
        lost = 100.0 if st.life[seat] - taken <= _threat(st, seat) else taken * (0.7 if racing else 1.2)
    else:
        m = next(x for x in st.monsters[seat] if x.uid == attacker)
        dies = toughness(st, seat, m) <= taken
        lost = monster_attack(st, seat, m) + toughness(st, seat, m) if dies else 0.0
    if target < 0:
        if dealt >= st.life[o]:
            return 1000.0
        return dealt * 2.0 - (0.3 if racing else 1.0) * lost if dealt > 0 else -1.0
    t = next(x for x in st.monsters[o] if x.uid == target)
    if dealt >= toughness(st, o, t):
        return 1.0 + monster_attack(st, o, t) + toughness(st, o, t) - lost + (2.0 if racing else 0.0)
    return dealt * 0.6 - lost if dealt > 0 else -1.0


def _threat(st: GameState, seat: int) -> int:
    """What the opponent could deal to the own master next turn if nothing blocks.

    Its master's attack (+1 for a possible 攻撃時 buff) and its monsters' attacks, each past
    the own master's guard.
    """
    o = 1 - seat
    master = max(0, master_attack(st, o) + 1 - master_guard(st, seat))
    return master + sum(max(0, monster_attack(st, o, m) - master_guard(st, seat)) for m in st.monsters[o])


def _attack(st: GameState, seat: int, legal: list[Action], kind: int) -> Action:
    if kind == DP.ATTACK_DECLARE and st.is_proxy(1 - seat):
        return _attack_proxy(st, seat, legal)
    o = 1 - seat
    targets = [ref_at(st, seat, 8)] if not st.monsters[o] else [m.uid for m in st.monsters[o]]
    if kind == DP.ATTACK_TARGET:
        attacker = st.pending[1]
        return max(legal, key=lambda a: (_trade(st, seat, attacker, ref_at(st, seat, a.arg)), -a.arg))
    best, best_score = PASS, 0.0
    for a in legal:
        if a.kind != Kind.ATTACKER:
            continue
        ref = -1 - seat if a.arg == 0 else st.monsters[seat][a.arg - 1].uid
        if ref < 0 and master_attack(st, seat) == 0:
            continue
        score = max(_trade(st, seat, ref, t) for t in targets)
        if score > best_score:
            best, best_score = a, score
    return best


def _attack_proxy(st: GameState, seat: int, legal: list[Action]) -> Action:
    """ATTACK_DECLARE against the proxy master of an AMALOGS table (amalogs D37, D40).

    The proxy deals nothing back and never acts, so every ready attacker whose hit takes
    something from P attacks, the strongest hit first (on a guest proxy a hit that ends the
    table comes first; on a base proxy each hit of 1 or more costs it exactly 1).
    """
    target = ref_at(st, seat, 8)
    life = st.life[1 - seat]
    best, best_key = PASS, (0, 0, 0)
    for a in legal:
        if a.kind != Kind.ATTACKER:
            continue
        ref = -1 - seat if a.arg == 0 else st.monsters[seat][a.arg - 1].uid
        hit = combat_damage(st, seat, ref, 1 - seat, target)
        lost = life - after_attack(life, hit, st.config.proxy)
        key = (lost, hit, -a.arg)
        if lost >= 1 and key > best_key:
            best, best_key = a, key
    return best


# ----------------------------------------------------------------------------- effect targets
def _effect_target(st: GameState, seat: int, legal: list[Action]) -> Action:
    f = st.pending[1]
    e = st.cards[f[1]].effect_list(f[2])[f[3]]
    harmful = e.op in ("DAMAGE", "DESTROY", "BOUNCE") or (e.op == "BUFF" and e.d_atk + e.d_def < 0)
    amount = st.level[seat] if e.amount < 0 else e.amount

    def score(a: Action) -> float:
        mine = a.arg < 8
        ref = ref_at(st, seat, a.arg)
        where = locate(st, ref)
        worth = 0.0
        if ref < 0:
            p = -1 - ref
            lethal = e.op == "DAMAGE" and amount >= st.life[p]
            worth = 1000.0 if lethal and not mine else 3.0 + (20 - st.life[p]) * 0.1
        elif where is not None and where[1] == MONSTER:
            p, q = where[0], where[2] - 1
            worth = _monster_worth(st, p, q)
            m = st.monsters[p][q]
            if e.op == "DAMAGE" and amount >= toughness(st, p, m):
                worth += 10.0
        elif where is not None:
            worth = 4.0
        return (-worth if mine else worth) if harmful else (worth if mine else -worth)

    return max(legal, key=lambda a: (score(a), -a.arg))

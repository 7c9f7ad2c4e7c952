"""A rule-of-thumb player for Master of the World.

It reads the engine state but only what its seat may know: its own hand, deck contents and
face-down spell, everything public on the field, both experience and discard piles, and
counts. It never reads the opponent's hand, the opponent's face-down spell (nor the card of
the opponent's cast entry on the chain) or any deck order. It is deterministic: the same
visible position always gives the same choice.

Rules of thumb, by decision point:

- **Charge**: level up first. Charge while below level 2, and keep charging towards the
  master's maximum level while the hand holds 4 or more cards. The card charged is the least
  useful one: a card the master may not use (restricted class) first, then the lowest value.
- **Main**: in this order, (1) 起動 abilities that have something to do (a target to hit,
  cards to draw) and whose life cost leaves at least 8 life; (2) summon the strongest monster
  that fits (attack + toughness, a little more for abilities); (3) equip a weapon that beats
  the current one; (4) activate a ready face-down spell, then a 高速 spell from hand, when its
  first effect has a worthwhile target; (5) cast a spell into an empty slot: one with
  something to do next turn first, else a counter (it guards the opponent's turn), keeping
  高速 spells in hand; then pass.
- **Counter window**: hold counters for uses that matter. Answer a summon of a monster worth
  5 or more (or one that a 2-damage counter kills), an equip of a weapon worth 3 or more, and
  any spell activation with NEGATE. A cast is never answered (its card is hidden).
- **Attack**: attack with a monster or the master when the trade is good: the target dies and
  the attacker survives, the target is worth more than the attacker, a monster takes lasting
  damage (damage persists) and the attacker survives, or the opponent's master takes damage
  for less than it costs. Even trades, and monsters spent on damage to the master, are
  accepted when its own deck would run out first. The target is the one with the best trade.
- **The deck is a clock**: effects that draw, search or gain experience from the own deck are
  only used while more than 12 cards remain.
- **Targets of effects**: damage and removal go to the opponent (lethal first, then a monster
  it kills, the most valuable first); heals and buffs go to its own best card.
- **Discards, sacrifices, overflow**: lose the least valuable card or monster. **Search and
  recover**: take the most valuable card type.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.mow.actions import DP, PASS, SLOT_SPELL, Action, Kind, Use
from envs.mow.cards import MONSTER, SPELL, WEAPON, CardDef, Effect
from envs.mow.rules.card_use import ability_sources, restricted
from envs.mow.rules.combat import combat_damage
from envs.mow.rules.field import locate, ref_at
from envs.mow.rules.values import master_attack, monster_attack, toughness
from envs.mow.state import GameState

_MIN_LIFE_FOR_COSTS = 8
#: Effects that take cards from the own deck are skipped below this deck size (the deck is a clock).
_DECK_RESERVE = 12


class MowHeuristic:
    """Rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.env: Any = None

    def bind(self, env: Any) -> None:
        """Attach to the env whose state this agent reads."""
        self.env = env

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the agent is deterministic."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The chosen action index (always one the mask allows)."""
        st: GameState = self.env.unwrapped.state
        enc = self.env.unwrapped.encoder
        idx = enc.action_to_index(choose(st, st.current_player), st)
        if not action_mask[idx]:  # defensive: never play an illegal index
            idx = int(np.flatnonzero(action_mask)[0])
        return idx


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
        return legal[0]
    kind = st.dp[0]  # type: ignore[index]
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
    level = st.level[seat]
    top = st.cards[st.masters[seat]].max_level
    if level < 2 or (level < top and len(st.hand[seat]) >= 4):
        return _lowest(st, seat, [a for a in legal if a.kind == Kind.HAND])
    return PASS


def _main(st: GameState, seat: int, legal: list[Action]) -> Action:
    main = st.pool.main
    by_kind: dict[int, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a)
    for a in by_kind.get(Kind.ABILITY, []):
        if _ability_worth_using(st, seat, a):
            return a
    uses = by_kind.get(Kind.USE, [])
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
    spells = [a for a in uses if main[a.arg].kind == SPELL]
    if spells:
        return max(spells, key=lambda a: _cast_priority(st, seat, main[a.arg]) + (-a.arg,))
    return PASS


def _cast_priority(st: GameState, seat: int, c: CardDef) -> tuple[int, ...]:
    """Which spell to cast: one with something to do next turn, then a counter; 高速 stays in hand."""
    return (_spell_useful(st, seat, c) and not c.counter, c.counter, not c.fast)


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
        deep = e.source == "HAND" or len(st.deck[seat]) > _DECK_RESERVE
        return deep and st.level[seat] < st.cards[st.masters[seat]].max_level
    if e.op in ("DRAW", "SEARCH"):
        return len(st.deck[seat]) > _DECK_RESERVE
    if e.op == "RECOVER":
        return any(st.cards[c].kind == MONSTER for c in st.discard[seat])
    if e.op == "HEAL":
        return st.life[seat] < 16
    return True


def _counter(st: GameState, seat: int, legal: list[Action]) -> Action:
    user, kind, card, uid, _neg, _here, _ai = st.chain[-1]
    if kind == Use.CAST and user != seat:
        return PASS
    worth = 0.0
    if kind == Use.SUMMON and locate(st, uid) is not None:
        c = st.cards[card]
        worth = card_value(c) + (3 if c.toughness <= 2 else 0)
    elif kind == Use.EQUIP:
        worth = 2 * card_value(st.cards[card])
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
    racing = len(st.deck[seat]) <= len(st.deck[o])
    if attacker < 0:
        lost = 100.0 if st.life[seat] - taken <= 0 else taken * 0.7
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


def _attack(st: GameState, seat: int, legal: list[Action], kind: int) -> Action:
    o = 1 - seat
    targets = [ref_at(st, seat, 8)] if not st.monsters[o] else [m.uid for m in st.monsters[o]]
    if kind == DP.ATTACK_TARGET:
        attacker = st.pending[1]  # type: ignore[index]
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


# ----------------------------------------------------------------------------- effect targets
def _effect_target(st: GameState, seat: int, legal: list[Action]) -> Action:
    f = st.pending[1]  # type: ignore[index]
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

"""A rule-of-thumb player for the Medarot OCG (all three modes).

It reads the engine state but only what its seat may know: its own hand, stock and master,
face-up cards, its own face-down Medarots, counts and the public piles. An opponent's
face-down Medarot is treated as unknown (a typical armor of 30 is assumed). It is
deterministic: the same visible position always gives the same choice.

Rules of thumb, by decision point:

- **Opening**: the master is the Medaroter with the best HP modifier; every Medaroter goes
  into the stock (trigger effects work only from there); Medarots are placed strongest
  first, each facing the enemy it threatens most.
- **Draws**: never pay for the optional draw unless there is no Medarot to place and the
  deck is deep; after a destruction draw as few cards as allowed unless a Medarot is needed
  (the deck is a clock: an empty deck at the start phase loses).
- **Acting Medarot**: attack first when a target is destroyable (power >= armor), the most
  expensive target first (its owner pays the cost); otherwise move first if that brings a
  destroyable target into range. Activate special effects whenever they have a target.
  Use a power card from the support window only when it turns a hit into a destroy.
  MedaChange when the change is stronger and affordable. Always move when possible (a
  Medarot that does not move costs 1 HP), preferring the neutral row, which heals 1 HP per
  Medarot at the end of the turn, but not into a square an enemy can destroy it from.
- **Defence**: negate or raise armor only when the attack would destroy; redirect to a guard
  that survives the hit.
- **Discards**: lose the least useful card (a Medaroter with no usable effect, or the
  weakest Medarot when the board is full).
- **Substitution** (SUB_CARD): the strongest Medarot card in hand. **Two usable effects**
  (EFFECT_CHOICE): in a defence the one that stops the hit (NEGATE, then armor, then a cut of
  the attacker's power), in support the larger power gain.
- **AMALOGS proxy table** (seat 1 is a life counter P, amalogs D37, D40; only the host, seat
  0, plays): every Medarot whose hit (power ÷ 10) takes something from P attacks an empty
  square of seat 1's row. Before acting it stays if it reaches one for free, else moves to a
  square that does; a far melee attack (1 HP) only when it ends the table or more than a
  quarter of the starting HP stays. A move before or after an attack never spoils the only
  attack of an own Medarot yet to act (after an attack it rather stays and pays the movement
  penalty, while HP stays above that quarter); among tied Medarots one with a free attack, the
  strongest, acts first; a power card from the support window only when it makes the hit end
  the table or count at all.

Every decision point has its rule, and a rule that would return an illegal action raises
``IllegalMoveError`` instead of being replaced by another action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from deckgym.agents.base import checked_move
from deckgym.agents.heuristic.base import RuleOfThumbAgent
from deckgym.envs.core import proxy as proxy_kind
from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP, Action, Kind
from deckgym.envs.medarot_ocg.cards import MEDACHANGE, MEDAROT, MEDAROTER, MELEE, SHOOTING, SPECIAL, CardDef
from deckgym.envs.medarot_ocg.rules.board import (
    MOVABLE,
    NEIGHBOUR,
    NEUTRAL_ROW,
    attack_targets,
    attack_targets_from,
    eff_armor,
    eff_power,
    forward,
    has_status,
    square_of,
    top,
)
from deckgym.envs.medarot_ocg.rules.combat import FAR_COST, far_cost
from deckgym.envs.medarot_ocg.rules.effects import DEFENCE
from deckgym.envs.medarot_ocg.rules.medaroter import holder
from deckgym.envs.medarot_ocg.state import GameState, Stack

_UNKNOWN_ARMOR: Final = 30
_UNKNOWN_POWER: Final = 30


class MedarotHeuristic(RuleOfThumbAgent):
    """The Medarot OCG rule-of-thumb agent; call ``bind(env)`` (``agents.make`` does) before ``act``."""

    def choose(self, state: GameState, seat: int) -> Action:
        """The heuristic's choice at ``state`` for ``seat`` (the player to move)."""
        return choose(state, seat)


# ----------------------------------------------------------------------------- what the seat knows
def _known(x: Stack, seat: int) -> bool:
    return x.face_up or x.owner == seat


def _armor(st: GameState, x: Stack, seat: int) -> int:
    return eff_armor(st, x) if _known(x, seat) else _UNKNOWN_ARMOR


def _power(st: GameState, x: Stack, seat: int) -> int:
    return eff_power(st, x) if _known(x, seat) else _UNKNOWN_POWER


def _cost(st: GameState, x: Stack, seat: int) -> int:
    if not _known(x, seat):
        return 2
    return st.cards[x.base].cost + (st.cards[x.change].cost if x.change else 0)


def _unit_value(c: CardDef) -> float:
    return c.power + c.armor + 5 * c.speed + (15 if c.effects else 0)


def _card_value(st: GameState, cid: str, seat: int) -> float:
    c = st.cards[cid]
    if c.kind == MEDAROT:
        full = sum(1 for x in st.board if x is not None and x.owner == seat) >= 3
        return _unit_value(c) * (0.3 if full else 1.0)
    if c.kind == MEDACHANGE:
        return 60.0
    return 50.0 + 10 * len(c.effects)


def _acting(st: GameState) -> tuple[int, Stack]:
    assert st.act is not None
    s = square_of(st, st.act.uid)
    x = st.board[s]
    assert x is not None
    return s, x


def _targets(
    st: GameState, square: int, seat: int, power: int, stack: Stack | None = None, vacated: int = -1
) -> list[tuple[float, int, bool]]:
    """(score, target square, far) for attacks from ``square`` (by ``stack`` moved there); destroys first."""
    out = []
    found = attack_targets(st, square) if stack is None else attack_targets_from(st, stack, square, vacated)
    for t, far in found:
        y = st.board[t]
        assert y is not None
        destroy = power >= _armor(st, y, seat)
        score = (100 + 10 * _cost(st, y, seat) if destroy else power // 10) - (5 if far else 0)
        out.append((float(score), t, far))
    out.sort(key=lambda r: (-r[0], r[1]))
    return out


def _threatened(st: GameState, square: int, seat: int, armor: int) -> bool:
    """Whether a known enemy could destroy a Medarot of ``armor`` standing on ``square``."""
    for s, y in enumerate(st.board):
        if y is None or y.owner == seat or not y.face_up:
            continue
        c = top(st, y)
        if c.type == SPECIAL:
            continue
        step = 5 * forward(y.owner)
        reach = {s + 2 * step} if c.type == "SHOOTING" else {s + step, s + 2 * step}
        if s // 5 == NEUTRAL_ROW:
            reach |= {s - 1, s + 1}
        if square in reach and eff_power(st, y) >= armor:
            return True
    return False


# ----------------------------------------------------------------------------- the proxy (AMALOGS)
#: HP spent for an attack on the proxy (a far melee attack, the movement penalty) is paid while more
#: HP than the starting HP divided by this stays.
_HP_SHARE: Final = 4
#: What a move that takes its attack on the proxy from an own Medarot yet to act costs, in move values.
_BLOCK_COST: Final = 4.0
#: The open row (seat 1's row, whose empty squares are the proxy's) and seat 0's step forward.
_OPEN_ROW: Final = range(10, 15)
_AHEAD: Final = 5


def _proxy_table(st: GameState, seat: int) -> bool:
    """Whether ``seat`` is the host of an AMALOGS proxy table (seat 1's row is open to its attacks, D37, D40)."""
    return st.config.proxy != proxy_kind.NONE and seat == 0


def _proxy_hit(st: GameState, power: int) -> tuple[bool, int]:
    """(whether the table ends, P lost) if an attack of effective ``power`` hits the proxy now.

    A guest proxy loses the hit (power ÷ 10), a base proxy 1 when the hit is at least 1
    (``envs.core.proxy.after_attack``); P is seat 1's HP, which is public.
    """
    life = st.hp[1]
    after = proxy_kind.after_attack(life, power // 10, st.config.proxy)
    return after == 0, life - after


def _far_price(st: GameState) -> int:
    """HP a 2-square melee attack costs now (before an action: the ordinary cost)."""
    return far_cost(st) if st.act is not None else FAR_COST


def _hp_to_spare(st: GameState, seat: int, price: int) -> bool:
    """Whether paying ``price`` HP leaves more than a quarter of the starting HP (HP stays comfortable)."""
    return st.hp[seat] - price > st.config.start_hp // _HP_SHARE


def _far_worth(st: GameState, seat: int, power: int) -> bool:
    """Whether a far melee attack on the proxy is worth its HP: it ends the table, or HP stays comfortable."""
    price = _far_price(st)
    if st.hp[seat] < price:
        return False  # not legal
    ends, lost = _proxy_hit(st, power)
    return lost >= 1 and (ends or price == 0 or _hp_to_spare(st, seat, price))


def _open_reach(st: GameState, x: Stack, square: int, board: list[Stack | None]) -> list[tuple[int, bool]]:
    """(open-row square, far) that ``x`` would attack from ``square`` on ``board`` (``rules.board.proxy_targets``).

    Shooting 2 ahead; melee 1 ahead, or 2 ahead over an empty square (far). Side attacks and
    SPECIAL Medarots never reach the open row. ``board`` may be a look-ahead copy.
    """
    kind = top(st, x).type
    one, two = square + _AHEAD, square + 2 * _AHEAD
    out: list[tuple[int, bool]] = []
    if kind == SHOOTING and two in _OPEN_ROW and board[two] is None:
        out.append((two, False))
    elif kind == MELEE:
        if one in _OPEN_ROW and board[one] is None:
            out.append((one, False))
        if two in _OPEN_ROW and board[two] is None and board[one] is None:
            out.append((two, True))
    return out


def _proxy_attack(
    st: GameState, seat: int, x: Stack, square: int, board: list[Stack | None], power: int
) -> tuple[int, bool] | None:
    """The open-row square ``x`` would attack from ``square`` with ``power``, and whether it is far.

    A free attack first; a far one only when it is worth its HP (``_far_worth``); None when the
    hit would take nothing from P or nothing is in reach.
    """
    if top(st, x).type == SPECIAL or _proxy_hit(st, power)[1] < 1:
        return None
    reach = _open_reach(st, x, square, board)
    free = [t for t, far in reach if not far]
    if free:
        return free[0], False
    far = [t for t, far in reach if far]
    if far and _far_worth(st, seat, power):
        return far[0], True
    return None


def _moved(board: list[Stack | None], s: int, t: int) -> list[Stack | None]:
    """A copy of ``board`` with the Medarot on ``s`` moved to ``t``."""
    out = list(board)
    out[t], out[s] = out[s], None
    return out


def _moves_on(st: GameState, x: Stack, square: int, board: list[Stack | None]) -> list[int]:
    """Squares ``x`` on ``square`` may move to on ``board`` (``rules.board.move_options_from``)."""
    if has_status(st, x, "ROOT"):
        return []
    arrows = 0xFF if not st.config.arrow_movement else top(st, x).arrows
    movable = MOVABLE[x.owner]
    return [
        t
        for d, t in enumerate(NEIGHBOUR[x.owner][square])
        if arrows >> d & 1 and t >= 0 and board[t] is None and t in movable
    ]


def _proxy_chance(st: GameState, seat: int, x: Stack, square: int, board: list[Stack | None]) -> int:
    """How ``x`` on ``square`` could attack the proxy when it acts: 2 free, 1 only far, 0 not at all."""
    power = eff_power(st, x)
    best = 0
    for t in [square, *_moves_on(st, x, square, board)]:
        plan = _proxy_attack(st, seat, x, t, board if t == square else _moved(board, square, t), power)
        if plan is not None:
            best = max(best, 1 if plan[1] else 2)
    return best


def _blocked(st: GameState, seat: int, s: int, t: int) -> int:
    """Own Medarots yet to act whose attack on the proxy a move from ``s`` to ``t`` would spoil."""
    after = _moved(st.board, s, t)
    n = 0
    for q, y in enumerate(st.board):
        if y is None or q == s or y.owner != seat or not y.face_up or y.acted or y.placed:
            continue
        if _proxy_chance(st, seat, y, q, after) < _proxy_chance(st, seat, y, q, st.board):
            n += 1
    return n


def _proxy_move_before(st: GameState, seat: int, legal: list[Action]) -> Action | None:
    """MOVE_BEFORE on a proxy table: reach the open row, for free if a move allows it.

    Stay when a free attack is in reach (move after as usual). Otherwise the option that adds
    the most attacks this turn (its own, less those of Medarots yet to act that it would spoil),
    then a free attack before a far one worth its HP (a far attack from here before a move to
    one), then the neutral row and a safe square. None when no option adds an attack.
    """
    s, x = _acting(st)
    power = eff_power(st, x)
    here = _proxy_attack(st, seat, x, s, st.board, power)
    if here is not None and not here[1]:
        return A.PASS
    best: tuple[int, int, float, int] | None = None
    choice: Action | None = None
    if here is not None:
        best, choice = (1, 1, 0.0, 0), A.PASS
    armor = eff_armor(st, x)
    for a in legal:
        if a.kind != Kind.MOVE:
            continue
        t = NEIGHBOUR[seat][s][a.arg]
        plan = _proxy_attack(st, seat, x, t, _moved(st.board, s, t), power)
        if plan is None or (plan[1] and here is not None):
            continue  # no attack there, or a far one where staying gives one and keeps the move
        value = (3.0 if t // 5 == NEUTRAL_ROW else 0.0) - (5.0 if _threatened(st, t, seat, armor) else 0.0)
        key = (1 - _blocked(st, seat, s, t), 1 if plan[1] else 2, value, -a.arg)
        if best is None or key > best:
            best, choice = key, a
    return choice if best is not None and best[0] >= 1 else None


def _proxy_declare(st: GameState, seat: int, legal: list[Action]) -> Action:
    """DECLARE on a proxy table: the open-row square in reach, a free attack first (``_proxy_attack``)."""
    s, x = _acting(st)
    plan = _proxy_attack(st, seat, x, s, st.board, eff_power(st, x))
    if plan is not None and A.SQUARE[plan[0]] in legal:
        return A.SQUARE[plan[0]]
    return A.PASS


def _proxy_support(st: GameState, seat: int, legal: list[Action]) -> Action:
    """SUPPORT on a proxy table: a power card only when it makes the coming hit end the table or count at all."""
    s, x = _acting(st)
    power = eff_power(st, x)
    ends, lost = _proxy_hit(st, power)
    if ends:
        return A.PASS
    for a, amount in _power_boosts(st, seat, legal):
        if amount <= 0 or _proxy_attack(st, seat, x, s, st.board, power + amount) is None:
            continue
        ends_now, lost_now = _proxy_hit(st, power + amount)
        if ends_now or (lost == 0 and lost_now >= 1):
            return a
    return A.PASS


def _proxy_tie_break(st: GameState, seat: int, legal: list[Action]) -> Action:
    """TIE_BREAK on a proxy table: the Medarot with a free attack first, then the strongest hit."""

    def score(a: Action) -> tuple[int, int, int]:
        x = st.board[a.arg]
        assert x is not None
        return (_proxy_chance(st, seat, x, a.arg, st.board), eff_power(st, x), -a.arg)

    return max(legal, key=score)


# ----------------------------------------------------------------------------- the choice
def choose(st: GameState, seat: int) -> Action:
    """The heuristic's action at the current decision point of ``seat``."""
    legal = st.legal_actions()
    assert st.decision_point is not None, "the heuristic was asked to move in a finished game"
    move = _RULES[st.decision_point[0]](
        st, seat, legal
    )  # every decision point has its rule (DP keys hash as ints)
    return checked_move("heuristic (medarot_ocg)", st, move, legal)


def _best_hand(
    st: GameState,
    seat: int,
    legal: list[Action],
    key: Any,
    kinds: tuple[int, ...] = (Kind.HAND,),
    highest: bool = True,
) -> Action | None:
    opts = [a for a in legal if a.kind in kinds]
    if not opts:
        return None  # no card to pick: the caller's decision point is not a hand choice
    scored = sorted(opts, key=lambda a: (key(st.cards[st.hand[seat][a.arg]]), -a.arg), reverse=highest)
    return scored[0]


def _master(st: GameState, seat: int, legal: list[Action]) -> Action | None:
    return _best_hand(st, seat, legal, lambda c: c.hp_mod)


def _stock(st: GameState, seat: int, legal: list[Action]) -> Action:
    sets = [a for a in legal if a.kind == Kind.SET]
    return sets[0] if sets else A.PASS


def _place_card(st: GameState, seat: int, legal: list[Action]) -> Action | None:
    return _best_hand(st, seat, legal, _unit_value)


def _place_square(st: GameState, seat: int, legal: list[Action]) -> Action | None:
    lim = st.limbo[seat]
    card = st.cards[lim[0]] if lim is not None else None

    def score(a: Action) -> tuple[float, int]:
        s = a.arg
        col = s % 5
        enemy_row = 2 if seat == 0 else 0
        facing = st.board[5 * enemy_row + col]
        val = 0.0
        if facing is not None and card is not None and card.type == "SHOOTING":
            val += 2
        val -= abs(col - 2) * 0.1
        return (val, -s)

    squares = [a for a in legal if a.kind == Kind.SQUARE]
    return max(squares, key=score) if squares else None


def _opt_draw(st: GameState, seat: int, legal: list[Action]) -> Action:
    units_on_board = sum(1 for x in st.board if x is not None and x.owner == seat)
    has_unit = any(st.cards[c].kind == MEDAROT for c in st.hand[seat])
    if (
        units_on_board < 2
        and not has_unit
        and len(st.deck[seat]) > 8
        and st.hp[seat] > 4
        and A.COUNT[2] in legal
    ):
        return A.COUNT[2]
    return A.COUNT[0]


def _draw_count(st: GameState, seat: int, legal: list[Action]) -> Action:
    counts = sorted(a.arg for a in legal if a.kind == Kind.COUNT)
    units_on_board = sum(1 for x in st.board if x is not None and x.owner == seat)
    has_unit = any(st.cards[c].kind == MEDAROT for c in st.hand[seat])
    if units_on_board < 2 and not has_unit and len(st.deck[seat]) > 4:
        return A.COUNT[counts[-1]]
    return A.COUNT[counts[0]]


def _discard(st: GameState, seat: int, legal: list[Action]) -> Action | None:
    sets = [a for a in legal if a.kind == Kind.SET]
    if sets:
        return sets[0]
    return _best_hand(st, seat, legal, lambda c: _card_value(st, c.id, seat), highest=False)


def _tie_break(st: GameState, seat: int, legal: list[Action]) -> Action:
    if _proxy_table(st, seat):
        return _proxy_tie_break(st, seat, legal)

    def score(a: Action) -> float:
        x = st.board[a.arg]
        assert x is not None
        t = _targets(st, a.arg, seat, eff_power(st, x))
        return t[0][0] if t else 0.0

    return max(legal, key=lambda a: (score(a), -a.arg))


def _action_start(st: GameState, seat: int, legal: list[Action]) -> Action:
    for a in legal:
        if a.kind == Kind.HAND:
            c = st.cards[st.hand[seat][a.arg]]
            _, x = _acting(st)
            base = st.cards[x.base]
            if _unit_value(c) > _unit_value(base) and (not c.power_form or st.hp[seat] > 6):
                return a
    if A.PASS not in legal and A.RELEASE in legal:
        return A.RELEASE
    return A.PASS


def _best_move(st: GameState, seat: int, legal: list[Action], before: bool) -> Action:
    proxy = _proxy_table(st, seat)
    if before and proxy:
        planned = _proxy_move_before(st, seat, legal)
        if planned is not None:
            return planned
    s, x = _acting(st)
    moves = [a for a in legal if a.kind == Kind.MOVE]
    power = eff_power(st, x)
    if before:
        here = _targets(st, s, seat, power)
        if here and here[0][0] >= 100:
            return A.PASS
    best: tuple[float, int] | None = None
    choice = A.PASS
    armor = eff_armor(st, x)
    for a in moves:
        t = NEIGHBOUR[seat][s][a.arg]
        tg = _targets(st, t, seat, power, stack=x, vacated=s)
        val = 0.0
        if before:
            val = tg[0][0] if tg else -1.0
        else:
            val = (3.0 if t // 5 == NEUTRAL_ROW else 0.0) + (1.0 if tg else 0.0)
            if _threatened(st, t, seat, armor):
                val -= 5.0
            if proxy:
                val -= _BLOCK_COST * _blocked(st, seat, s, t)
        key = (val, -a.arg)
        if best is None or key > best:
            best, choice = key, a
    if before:
        return choice if best is not None and best[0] >= 100 else A.PASS
    if (
        proxy
        and choice != A.PASS
        and _blocked(st, seat, s, NEIGHBOUR[seat][s][choice.arg])
        and _hp_to_spare(st, seat, 1)
    ):
        return A.PASS  # every move spoils an attack on the proxy: the movement penalty is cheaper
    return choice


def _move_before(st: GameState, seat: int, legal: list[Action]) -> Action:
    return _best_move(st, seat, legal, True)


def _move_after(st: GameState, seat: int, legal: list[Action]) -> Action:
    return _best_move(st, seat, legal, False)


def _support(st: GameState, seat: int, legal: list[Action]) -> Action:
    s, x = _acting(st)
    if _proxy_table(st, seat) and top(st, x).type != SPECIAL:
        return _proxy_support(st, seat, legal)
    power = eff_power(st, x)
    tg = _targets(st, s, seat, power)
    if not tg or tg[0][0] >= 100 or top(st, x).type == SPECIAL:
        return A.PASS
    need = min(_armor(st, st.board[t], seat) for _, t, _ in tg) - power  # type: ignore[arg-type]
    for a, amount in _power_boosts(st, seat, legal):
        if amount >= need > 0:
            return a
    return A.PASS


def _power_boosts(st: GameState, seat: int, legal: list[Action]) -> Iterator[tuple[Action, int]]:
    """(option, power gain) for each power gain for the acting Medarot that a support option offers, in order."""
    for a in legal:
        card = _card_of(st, seat, a)
        if card is None:
            continue
        for e in card.effects:
            if (
                e.op == "MOD_POWER"
                and e.timing in ("ACTION", "TRIGGER")
                and e.target.name in ("ACTING", "SELF", "ALL_ALLIES")
            ):
                yield a, e.amount


def _card_of(st: GameState, seat: int, a: Action) -> CardDef | None:
    if a.kind == Kind.HAND:
        return st.cards[st.hand[seat][a.arg]]
    if a.kind == Kind.STOCK:
        sl = st.stock[seat][a.arg]
        return st.cards[sl.card] if sl is not None else None
    if a.kind == Kind.MASTER:
        m = st.master[seat]
        return st.cards[m.card] if m is not None else None
    return None


def _declare(st: GameState, seat: int, legal: list[Action]) -> Action:
    if A.SPECIAL in legal:
        return A.SPECIAL
    if _proxy_table(st, seat):
        return _proxy_declare(st, seat, legal)
    s, x = _acting(st)
    tg = [r for r in _targets(st, s, seat, eff_power(st, x)) if A.SQUARE[r[1]] in legal]
    for score, t, far in tg:
        if far and score < 100:
            continue
        return A.SQUARE[t]
    return A.PASS


def _defence(st: GameState, seat: int, legal: list[Action]) -> Action:
    act = st.act
    assert act is not None
    m = square_of(st, act.uid)
    t = square_of(st, act.target)
    attacker, target = st.board[m], st.board[t]
    if attacker is None or target is None:
        return A.PASS
    power, armor = eff_power(st, attacker), eff_armor(st, target)
    if power < armor:
        return A.PASS
    for a in legal:
        if a.kind == Kind.SQUARE:
            g = st.board[a.arg]
            if g is not None and eff_armor(st, g) > power:
                return a
    for a in legal:
        if a.kind in (Kind.STOCK, Kind.MASTER):
            h = st.master[seat] if a.kind == Kind.MASTER else st.stock[seat][a.arg]
            if h is not None and h.face_up and h.charge > 0:
                return a
        card = _card_of(st, seat, a)
        if card is None:
            continue
        for e in card.effects:
            if e.op == "NEGATE" and e.timing != "ACTION":
                return a
            if (
                e.op == "MOD_ARMOR"
                and e.amount > power - armor
                and e.target.name in ("ATTACKED", "SELF", "ALL_ALLIES")
            ):
                return a
            if e.op == "MOD_POWER" and -e.amount > power - armor and e.target.name in ("ATTACKER", "ACTING"):
                return a
    return A.PASS


def _effect_target(st: GameState, seat: int, legal: list[Action]) -> Action:
    """EFFECT_TARGET: the strongest enemy Medarot, else the strongest own one.

    An opponent's stock card: a face-down one first (it may hold a trap or a stored charge),
    the lowest slot on ties.
    """
    squares = [a for a in legal if a.kind == Kind.SQUARE]
    if squares:
        enemy = [a for a in squares if st.board[a.arg].owner != seat]  # type: ignore[union-attr]
        pool = enemy or squares
        return max(pool, key=lambda a: (_power(st, st.board[a.arg], seat), -a.arg))  # type: ignore[arg-type]
    stock = st.stock[1 - seat]

    def hidden_first(a: Action) -> tuple[int, int]:
        slot = stock[a.arg]
        return (0 if slot is not None and not slot.face_up else 1, a.arg)

    return min(legal, key=hidden_first)


def _sub_card(st: GameState, seat: int, legal: list[Action]) -> Action | None:
    """SUB_CARD: substitute the strongest Medarot card in hand."""
    return _best_hand(st, seat, legal, _unit_value)


def _effect_choice(st: GameState, seat: int, legal: list[Action]) -> Action:
    """EFFECT_CHOICE (a card with two usable effects): the effect that serves the window.

    Defending, the one that stops the hit: NEGATE, then the larger armor gain, then the larger
    cut of the attacker's power. Supporting, the larger power gain. Anything else scores 0,
    and ties go to the effect listed first on the card.
    """
    assert st.use is not None
    card = st.cards[holder(st, seat, st.use[1]).card]
    defending = st.use[2] == DEFENCE

    def value(a: Action) -> tuple[float, int]:
        e = card.effects[a.arg]
        v = 0.0
        if defending:
            if e.op == "NEGATE":
                v = 1000.0
            elif e.op == "MOD_ARMOR" and e.amount > 0:
                v = 500.0 + e.amount
            elif e.op == "MOD_POWER" and e.amount < 0 and e.target.name in ("ATTACKER", "ACTING"):
                v = 400.0 - e.amount
        elif e.op == "MOD_POWER" and e.amount > 0:
            v = 500.0 + e.amount
        return (v, -a.arg)

    return max(legal, key=value)


def _pay_split(st: GameState, seat: int, legal: list[Action]) -> Action:
    return max(legal, key=lambda a: a.arg)


def _stock_trash(st: GameState, seat: int, legal: list[Action]) -> Action:
    def value(a: Action) -> float:
        sl = st.stock[seat][a.arg]
        return 0.0 if sl is None or sl.face_up else 1.0

    return min(legal, key=lambda a: (value(a), a.arg))


def _draw_stock(st: GameState, seat: int, legal: list[Action]) -> Action:
    sets = [a for a in legal if a.kind == Kind.SET]
    free = any(x is None for x in st.stock[seat])
    return sets[0] if sets and free else A.PASS


_RULES: Final[dict[int, Callable[[GameState, int, list[Action]], Action | None]]] = {
    DP.MASTER_SELECT: _master,
    DP.LATE_MASTER: _master,
    DP.OPENING_STOCK: _stock,
    DP.PLACE_CARD: _place_card,
    DP.PLACE_SQUARE: _place_square,
    DP.SUB_SQUARE: _place_square,
    DP.OPT_DRAW: _opt_draw,
    DP.DESTROY_DRAW: _draw_count,
    DP.EFFECT_DRAW: _draw_count,
    DP.HAND_LIMIT: _discard,
    DP.WEAK_DISCARD: _discard,
    DP.EFFECT_DISCARD: _discard,
    DP.TIE_BREAK: _tie_break,
    DP.ACTION_START: _action_start,
    DP.MOVE_BEFORE: _move_before,
    DP.MOVE_AFTER: _move_after,
    DP.SUPPORT: _support,
    DP.DECLARE: _declare,
    DP.DEFENCE: _defence,
    DP.EFFECT_TARGET: _effect_target,
    DP.PAY_SPLIT: _pay_split,
    DP.STOCK_TRASH: _stock_trash,
    DP.DRAW_STOCK: _draw_stock,
    DP.SUB_CARD: _sub_card,
    DP.EFFECT_CHOICE: _effect_choice,
}
assert MEDAROTER

"""Set up any Master of the World position by hand (spec ``docs/rules/mow.md``).

``position(...)`` builds a ``GameState`` from readable keyword arguments: puzzles, endgame
studies, regression cases. It checks what it is given against the rules, raising
``envs.core.errors.PositionError`` with a message that names the seat, the zone and the rule,
then runs the automatic steps from the chosen start step up to the first decision, so
``state.legal_actions()`` is ready::

    from deckgym import agents
    from deckgym.envs.mow.position import position

    # P0 (level 2: 4 experience cards) has a Pike Soldier that already attacked this turn
    # and an Ember Hound summoned this turn (sick); P1 has a damaged Stone Sentinel and a
    # face-down Fire Bolt cast last turn. P0 decides in its attack phase.
    st = position(
        masters=("MS01", "MS03"),
        hands=(["MN04"], ["SP02"]),
        decks=(12, 10),  # 12 and 10 filler cards; or lists of card ids, TOP FIRST
        experience=(["MN01", "MN01", "WP01", "SP02"], ["MN02", "MN02"]),
        life=(14, 9),
        monsters=(
            [{"card": "MN02", "attacked": True}, {"card": "MN04", "entered": 7}],
            [{"card": "MN03", "damage": 2}],
        ),
        spells=(None, ("SP01", 6)),
        turn=7,
        active=0,
        first=0,
        start="attack_phase",
    )
    st.decision, st.legal_actions()          # 'ATTACK_DECLARE', [PASS, ATTACKER(master)]
    agents.make("heuristic", "mow_v1").choose(st, st.current_player)
    agents.make("search:8", "mow_v1", seed=1).choose(st, st.current_player)

``choose(state, seat)`` of the rule-of-thumb agents and of ``SearchAgent`` takes the engine
state and the seat to move (``state.current_player``) and returns an engine ``Action``, one of
``state.legal_actions()``; the search agent reads only what that seat may know (it redraws
the rest with ``state.resample_hidden``).

Conventions:

- Every per-seat argument is a pair ``(P0, P1)``.
- Ordered piles are given **top first**: decks (the top card is drawn next), experience piles
  (the top card is the one a COST_EXP pays) and discard piles (the top is the latest card).
  The engine stores them top last (``state.deck[p][-1]`` is the top); the builder converts.
  A deck or experience entry may also be a count of ``filler`` cards (default: the pool's
  first main-deck card).
- The level is never given: it follows from the experience pile (D8). Levels that the pile
  already gives count as reached; their up時 effects do not run.
- A monster is a card id, a tuple ``(card, entered[, damage[, attacked]])`` or a mapping with
  keys ``card``, ``entered`` (turn it entered the field; default ``turn - 2``, so it is not
  sick), ``damage`` (default 0), ``attacked`` (it already attacked this turn; default False)
  and ``mods`` (modifiers ``[d_atk, d_tough, duration]``, duration 0 = this turn, 1 =
  permanent). A face-down spell is ``(card, cast_turn)`` or ``{"card": ..., "cast_turn": ...}``;
  it is ready when ``turn > cast_turn`` (D20).
- Field cards get uids 1, 2, ... in order: P0's monsters, weapon and spell, then P1's.
- ``**options`` are the rules options of ``envs.mow.config.make_config`` (``max_turns``,
  ``max_copies``, ``first_turn``, ...); ``first_player`` is taken from ``first``.

What it checks (each failure is a ``PositionError`` naming the seat, the zone and the rule):
card ids unknown to the pool (the message names the pool's files); a card of the wrong kind
in a zone (a non-master as master, a master in a main-deck zone, a spell as a monster, ...);
a monster, weapon or face-down spell of a class the master is restricted from (D17); more
monsters than the level's summon slots (R17) or than ``MAX_MONSTERS``; more copies of a card
across a seat's zones than the ``max_copies`` option allows (D6; the rules themselves set no
limit); more than 40 main-deck cards held by a seat (R3); a monster whose damage already
reaches its toughness (R26); life outside 1..20 (R6, D13); a turn outside 1..``max_turns``,
an ``active`` or ``first`` that is not a seat, an unknown start step; a monster that enters
or a spell cast after ``turn``; charges beyond the charge limit (D7); malformed modifiers,
ターンn counters and per-seat pairs; unknown rules options; and with ``vacant_seat=True`` a
seat 1 that holds anything (its ``life`` is ignored and set to 0, as the AMALOGS tables do;
with ``proxy`` 1 or 2 as well, seat 1 is the proxy and its ``life`` is P, any integer >= 1).
``lenient=True`` skips only the 40-card and the destroyed-monster checks (test fixtures).
Last, the position reached (at its first decision, or over) goes through the rules check
``envs.mow.rules.check`` (spec section 10 and these rules), whose message starts with the spec
item it applies; among others, it refuses a live position in which a player's deck is empty
(I7, R2, D40: the state check after the draw that emptied it ends the game) and a monster that
attacked on the turn it entered (I12, R24, D33). A position built at a turn step with an empty
deck is played to the first state check, which ends the game.

Mid-turn situations it can express: a monster that already attacked this turn (``attacked``),
summoning sickness (``entered=turn``), damage on monsters (damage persists, D38), a
face-down spell cast this turn (not ready) or earlier (ready), levels from experience, a
master that already attacked this turn (``master_attacked``), a 高速 spell already used this
turn (``fast_used``), charges already made this turn (``charges``, with ``start="charge_phase"``),
ターンn counters already spent (``turn_uses``), modifiers on masters and monsters
(``master_mods``, monster ``mods``), the game's first turn (``turn`` equal to the option
``first_turn``: the master cannot attack, R9), low life and short decks (the deck clock), and
a start at the beginning of any turn step: ``turn_start``, ``draw_phase``, ``charge_phase``,
``main_phase``, ``attack_phase`` or ``end_phase`` (short names ``start``, ``draw``, ``charge``,
``main``, ``attack``, ``end`` also work).

What it cannot express (build an earlier position and play the actions instead):

- anything inside a step: an open counter window or a chain in progress, a card set aside
  while its costs are paid, a pending choice (effect targets, discards, search or recover
  choices, overflow discards), queued triggered effects;
- up時 effects of levels already reached (they are taken as resolved);
- a turn order other than the one given: ``turn``, ``active`` and ``first`` are taken as
  given and not checked against each other (in a game from turn 1 the first player is
  active on odd turns; the fixtures rely on free combinations); turns alternate from here;
- per-turn flags survive only from a start after ``turn_start``: ``turn_start`` resets the
  active player's ``attacked`` and ``master_attacked`` flags and both players' ``fast_used``,
  ``charges`` and ``turn_uses`` (5.2.1), as in a real game;
- a seat need not hold all 40 of its cards (the others are simply nowhere); the registered
  deck lists (``state.decks``, read by the AMALOGS meta-game only) are the master plus the
  seat's cards in play unless ``decklists`` is given;
- the per-turn decision count starts at 0, and the random stream is ``random.Random(seed)``
  (deck orders are exactly as given: nothing is shuffled).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from deckgym.envs.core.errors import PositionError, StateError
from deckgym.envs.mow import rules
from deckgym.envs.mow.actions import Phase
from deckgym.envs.mow.cards import MASTER, MONSTER, SPELL, WEAPON, CardDef, CardPool, load_pool
from deckgym.envs.mow.config import DECK_SIZE, LIFE_START, MAX_MONSTERS, make_config
from deckgym.envs.mow.rules import flow
from deckgym.envs.mow.rules.card_use import turn_key
from deckgym.envs.mow.rules.values import charge_limit, level_for, max_toughness
from deckgym.envs.mow.state import PERMANENT, TURN, GameState, Monster

__all__ = ["STEPS", "position"]

#: The turn steps a position can start at (agenda task name -> turn step, 5.2).
STEPS: dict[str, Phase] = {
    "turn_start": Phase.START,
    "draw_phase": Phase.DRAW,
    "charge_phase": Phase.CHARGE,
    "main_phase": Phase.MAIN,
    "attack_phase": Phase.ATTACK,
    "end_phase": Phase.END,
}
_ALIASES = {"start": "turn_start", "draw": "draw_phase", "charge": "charge_phase"}
_ALIASES |= {"main": "main_phase", "attack": "attack_phase", "end": "end_phase"}
_MONSTER_KEYS = frozenset({"card", "entered", "damage", "attacked", "mods"})
_SPELL_KEYS = frozenset({"card", "cast_turn"})


def position(
    *,
    pool: CardPool | Any = None,
    masters: Sequence[str | None] | None = None,
    hands: Sequence[Sequence[str]] = ((), ()),
    decks: Sequence[int | Sequence[str]] = (20, 20),
    experience: Sequence[int | Sequence[str]] = (0, 0),
    life: Sequence[int] = (LIFE_START, LIFE_START),
    monsters: Sequence[Sequence[Any]] = ((), ()),
    weapons: Sequence[str | None] = (None, None),
    spells: Sequence[Any] = (None, None),
    discards: Sequence[Sequence[str]] = ((), ()),
    turn: int = 3,
    active: int = 0,
    first: int = 0,
    start: str = "main_phase",
    master_attacked: Sequence[bool] = (False, False),
    master_mods: Sequence[Sequence[Sequence[int]]] = ((), ()),
    fast_used: Sequence[bool] = (False, False),
    charges: int = 0,
    turn_uses: Sequence[Mapping[str, int]] = ({}, {}),
    filler: str | None = None,
    decklists: Sequence[Sequence[str]] | None = None,
    seed: int = 0,
    lenient: bool = False,
    **options: Any,
) -> GameState:
    """A Master of the World position, run from ``start`` to its first decision.

    Args:
        pool: a ``CardPool``, or anything ``envs.mow.cards.load_pool`` reads (card files,
            TOML text, card mappings); default: the packaged pool.
        masters: each seat's master card id (default: the pool's first master for both).
        hands: the cards in each hand.
        decks: each deck, top first, or a count of ``filler`` cards.
        experience: each experience pile (the cards under the master), top first, or a count
            of ``filler`` cards; the level follows from its size (D8).
        life: each master's life, 1 to 20 (R6, D13).
        monsters: each seat's monsters, left to right (see the module docstring for the forms).
        weapons: each seat's weapon card id, or None.
        spells: each seat's face-down spell ``(card, cast_turn)``, or None.
        discards: each discard pile, top first.
        turn: the turn number t (1 to ``max_turns``).
        active: the seat whose turn it is.
        first: the game's first player.
        start: the turn step the position starts at (a key of ``STEPS`` or its short name).
        master_attacked: whether each master already attacked this turn (R9).
        master_mods: modifiers ``[d_atk, d_guard, duration]`` on each master.
        fast_used: whether each seat already used a 高速 spell from hand this turn.
        charges: charges the active player already made this turn (D7).
        turn_uses: ターンn counters spent this turn: ``{"CARD": n}`` (a spell, or a card's
            first ability) or ``{"CARD/i": n}`` (its i-th 起動/対抗 ability).
        filler: the card that count entries of ``decks`` and ``experience`` stand for.
        decklists: the registered deck list of each seat (master included); default: the
            master plus every card the seat holds.
        seed: seed of the game's random stream (random discards, draws of the first player).
        lenient: skip the two checks that only a reachable position needs and the engine
            does not: a seat holding more than 40 main-deck cards (R3), and a monster whose
            damage already reaches its toughness (R26; it stays on the field until the next
            state check, 5.7.2). For test fixtures (filler-heavy piles, modifiers added by
            hand after building); every other check still applies.
        **options: rules options (``make_config`` keyword arguments).

    Raises:
        PositionError: the position breaks a rule; the message names the seat, zone and rule.
    """
    b = _Builder(pool, options, first)
    st = b.build(
        masters=masters,
        hands=hands,
        decks=decks,
        experience=experience,
        life=life,
        monsters=monsters,
        weapons=weapons,
        spells=spells,
        discards=discards,
        turn=turn,
        active=active,
        first=first,
        start=start,
        master_attacked=master_attacked,
        master_mods=master_mods,
        fast_used=fast_used,
        charges=charges,
        turn_uses=turn_uses,
        filler=filler,
        decklists=decklists,
        seed=seed,
        lenient=lenient,
    )
    flow.run(st)
    try:
        rules.check(st, lenient=lenient)
    except StateError as e:
        raise PositionError(str(e)) from None
    return st


# ----------------------------------------------------------------------------- checks
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _pair(name: str, value: Any) -> list[Any]:
    """A per-seat argument as a list of two entries."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence) or len(value) != 2:
        raise PositionError(f"{name}: give one entry per seat, as (P0, P1); got {value!r}")
    return list(value)


class _Builder:
    """The checks and the assembly of one position (a pool and a config)."""

    def __init__(self, pool: Any, options: dict[str, Any], first: int) -> None:
        # a pool that is not yet a CardPool is loaded (a bad card file raises CardDataError)
        self.pool: CardPool = pool if isinstance(pool, CardPool) else load_pool(pool)
        self.pool_label = ", ".join(self.pool.files)
        if "first_player" in options and options["first_player"] != first:
            raise PositionError(
                f"rules options: first_player={options['first_player']!r} disagrees with first={first!r}; "
                "give the first player as first= only"
            )
        opts = {k: v for k, v in options.items() if k != "first_player"}
        if first in (0, 1):
            opts["first_player"] = first
        try:
            self.config = make_config(**opts)
        except (StateError, TypeError) as e:
            raise PositionError(f"rules options: {e}") from e

    # ------------------------------------------------------------------ cards
    def card(self, where: str, cid: Any, kinds: tuple[str, ...] | None = None) -> CardDef:
        """The definition of ``cid``, checked to be in the pool and of one of ``kinds``."""
        if not isinstance(cid, str) or cid not in self.pool:
            raise PositionError(f"{where}: unknown card id {cid!r} (not in the pool {self.pool_label})")
        c = self.pool[cid]
        if kinds is None:
            if c.kind == MASTER:
                raise PositionError(
                    f"{where}: {cid!r} is a master; a master is never in a main-deck zone (R3, D6)"
                )
        elif c.kind not in kinds:
            want = " or ".join(kinds)
            raise PositionError(f"{where}: {cid!r} ({c.name}) is a {c.kind} card, not a {want}")
        return c

    def cards(self, where: str, value: Any) -> list[str]:
        """A zone given as a list of main-deck card ids."""
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
            raise PositionError(f"{where}: give a list of card ids, got {value!r}")
        for cid in value:
            self.card(where, cid)
        return list(value)

    def pile(self, where: str, value: Any, filler: str) -> list[str]:
        """A deck or experience pile: a count of fillers or card ids, top first (returned top last)."""
        if _is_int(value):
            if value < 0:
                raise PositionError(f"{where}: a negative count of cards ({value})")
            self.card(f"{where} (filler)", filler)
            return [filler] * value
        return self.cards(where, value)[::-1]

    # ------------------------------------------------------------------ assembly
    def build(self, **a: Any) -> GameState:
        cfg, pool = self.config, self.pool
        seated = (0,) if cfg.vacant_seat else (0, 1)
        t, active, first = a["turn"], a["active"], a["first"]
        if not _is_int(t) or not 1 <= t <= cfg.max_turns:
            raise PositionError(f"turn: {t!r} is not a turn number 1..max_turns={cfg.max_turns} (D42)")
        for name, v in (("active", active), ("first", first)):
            if not _is_int(v) or v not in (0, 1):
                raise PositionError(f"{name}: {v!r} is not a seat (0 or 1)")
            if cfg.vacant_seat and v != 0:
                raise PositionError(f"{name}: seat 1 is vacant (vacant_seat), so only seat 0 can be {name}")
        start = _ALIASES.get(a["start"], a["start"])
        if start not in STEPS:
            raise PositionError(
                f"start: unknown start step {a['start']!r}; known: {', '.join(STEPS)} "
                f"(or {', '.join(_ALIASES)})"
            )
        filler = a["filler"] if a["filler"] is not None else pool.main[0].id
        lenient = a["lenient"]
        if not isinstance(lenient, bool):
            raise PositionError(f"lenient: {lenient!r} is not True or False")

        masters = a["masters"]
        if masters is None:
            default = pool.masters[0].id if pool.masters else None
            masters = (default, None if cfg.vacant_seat else default)
        masters = _pair("masters", masters)
        args = {
            k: _pair(k, a[k])
            for k in (
                "hands",
                "decks",
                "experience",
                "life",
                "monsters",
                "weapons",
                "spells",
                "discards",
                "master_attacked",
                "master_mods",
                "fast_used",
                "turn_uses",
            )
        }
        decklists = None if a["decklists"] is None else _pair("decklists", a["decklists"])

        if not _is_int(a["seed"]):
            raise PositionError(f"seed: {a['seed']!r} is not an integer")
        st = GameState(cfg, pool, [[], []], a["seed"])
        st.t, st.active, st.first = t, active, first
        uid = 1
        for p in (0, 1):
            seat = f"P{p}"
            if p not in seated:
                self._check_vacant(masters[p], args, decklists)
                st.life[p] = self._proxy_life(args["life"][p]) if cfg.proxy else 0
                continue
            m = self.card(f"{seat} master", masters[p], (MASTER,))
            st.masters[p] = m.id
            st.hand[p] = self.cards(f"{seat} hand", args["hands"][p])
            st.deck[p] = self.pile(f"{seat} deck", args["decks"][p], filler)
            st.exp[p] = self.pile(f"{seat} experience", args["experience"][p], filler)
            st.discard[p] = self.cards(f"{seat} discard", args["discards"][p])[::-1]
            st.level[p] = level_for(m, len(st.exp[p]))
            hp = args["life"][p]
            if not _is_int(hp) or not 1 <= hp <= LIFE_START:
                raise PositionError(
                    f"{seat} life: {hp!r} is out of range 1..{LIFE_START} "
                    f"(R6, D13: life starts at {LIFE_START} and never rises above it; 0 has lost, R1)"
                )
            st.life[p] = hp
            uid = self._field(st, p, args, uid)
            st.master_attacked[p] = self._flag(f"{seat} master_attacked", args["master_attacked"][p])
            st.fast_used[p] = self._flag(f"{seat} fast_used", args["fast_used"][p])
            st.master_mods[p] = self._mods(f"{seat} master_mods", args["master_mods"][p])
            st.turn_uses[p] = self._turn_uses(f"{seat} turn_uses", args["turn_uses"][p])
            self._check_seat(st, p, lenient)
            st.decks[p] = self._decklist(st, p, None if decklists is None else decklists[p])
        st.next_uid = uid
        n = a["charges"]
        if not _is_int(n) or not 0 <= n <= charge_limit(st, active):
            raise PositionError(
                f"P{active} charges: {n!r} charges this turn; the charge limit is "
                f"0..{charge_limit(st, active)} (D7)"
            )
        st.charges = n
        for p in seated if not lenient else ():
            for i, mon in enumerate(st.monsters[p]):
                if max_toughness(st, p, mon) - mon.damage <= 0:
                    raise PositionError(
                        f"P{p} monsters: monster {i} ({st.name(mon.card)}) has {mon.damage} damage and "
                        f"toughness {max_toughness(st, p, mon)}: it would be destroyed at once (R26; "
                        "lenient=True keeps it until the next state check)"
                    )
        st.phase = int(STEPS[start])
        st.agenda = [[start]]
        return st

    @staticmethod
    def _proxy_life(hp: Any) -> int:
        """The life P of a proxy at seat 1 (amalogs D37: at least 1, not capped at 20)."""
        if not _is_int(hp) or hp < 1:
            raise PositionError(f"P1 life: {hp!r} is not a proxy's life P (an integer of at least 1, D37)")
        return int(hp)

    def _check_vacant(self, master: Any, args: dict[str, list[Any]], decklists: list[Any] | None) -> None:
        """Seat 1 of a vacant-seat table holds nothing (``vacant_seat``)."""
        if master:
            raise PositionError(
                f"P1 master: seat 1 is vacant (vacant_seat), so it has no master; got {master!r}"
            )
        for zone in ("hands", "decks", "experience", "monsters", "weapons", "spells", "discards"):
            v = args[zone][1]
            if v:
                raise PositionError(
                    f"P1 {zone}: seat 1 is vacant (vacant_seat), so it holds no cards; got {v!r}"
                )
        if decklists is not None and decklists[1]:
            raise PositionError("P1 decklists: seat 1 is vacant (vacant_seat), so it has no deck list")

    def _flag(self, where: str, v: Any) -> bool:
        if not isinstance(v, bool):
            raise PositionError(f"{where}: {v!r} is not True or False")
        return v

    def _mods(self, where: str, value: Any) -> list[list[int]]:
        """Modifiers ``[d_atk, d_tough_or_guard, duration]`` (BUFF, 4.7)."""
        out: list[list[int]] = []
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
            raise PositionError(f"{where}: give a list of [d_atk, d_def, duration], got {value!r}")
        for m in value:
            ok = isinstance(m, Sequence) and len(m) == 3 and all(_is_int(x) for x in m)
            if not ok or m[2] not in (TURN, PERMANENT):
                raise PositionError(
                    f"{where}: modifier {m!r} is not [d_atk, d_def, duration] with duration "
                    f"{TURN} (this turn) or {PERMANENT} (permanent) (BUFF, 4.7)"
                )
            out.append(list(m))
        return out

    def _turn_uses(self, where: str, value: Any) -> dict[str, int]:
        """ターンn counters ``{"CARD" or "CARD/i": n}`` (D30)."""
        if not isinstance(value, Mapping):
            raise PositionError(f"{where}: give a mapping {{'CARD' or 'CARD/i': uses}}, got {value!r}")
        out: dict[str, int] = {}
        for key, n in value.items():
            cid, _, i = str(key).partition("/")
            self.card(where, cid, (MASTER, MONSTER, WEAPON, SPELL))
            if (i and not i.isdigit()) or not _is_int(n) or n < 0:
                raise PositionError(f"{where}: {key!r}: {n!r} is not a ターンn counter (D30)")
            out[turn_key(cid, int(i or 0))] = n
        return out

    def _restricted(self, st: GameState, where: str, c: CardDef, p: int) -> None:
        """D17: a card of a class the master is restricted from is never used, so never on the field."""
        master = st.cards[st.masters[p]]
        if c.cls and c.cls in master.restrictions:
            raise PositionError(
                f"{where}: {c.id!r} ({c.name}) is of class {c.cls}, which master {master.name} is "
                "restricted from: it can never be used, so it cannot be on the field (D17)"
            )

    def _field(self, st: GameState, p: int, args: dict[str, list[Any]], uid: int) -> int:
        """Seat ``p``'s monsters, weapon and face-down spell, numbered from ``uid``; the next uid."""
        seat, t = f"P{p}", st.t
        mons = args["monsters"][p]
        if isinstance(mons, (str, bytes, Mapping)) or not isinstance(mons, Sequence):
            raise PositionError(f"{seat} monsters: give a list of monsters, got {mons!r}")
        for i, spec in enumerate(mons):
            where = f"{seat} monsters[{i}]"
            card, entered, damage, attacked, mods = self._monster(where, spec, t)
            c = self.card(where, card, (MONSTER,))
            self._restricted(st, where, c, p)
            if not _is_int(entered) or entered > t:
                raise PositionError(f"{where}: entered={entered!r}; a monster enters on a turn <= t={t}")
            if not _is_int(damage) or damage < 0:
                raise PositionError(f"{where}: damage={damage!r} is not a damage count >= 0 (D38)")
            st.monsters[p].append(
                Monster(uid, card, entered, damage, self._mods(where, mods), self._flag(where, attacked))
            )
            uid += 1
        n, slots = len(st.monsters[p]), st.level[p]
        if n > MAX_MONSTERS:
            raise PositionError(f"{seat} monsters: {n} monsters; at most MAX_MONSTERS = {MAX_MONSTERS}")
        if n > slots:
            raise PositionError(
                f"{seat} monsters: {n} monsters but level {slots} ({len(st.exp[p])} experience) gives "
                f"{slots} summon slots (R17)"
            )
        w = args["weapons"][p]
        if w is not None:
            c = self.card(f"{seat} weapon", w, (WEAPON,))
            self._restricted(st, f"{seat} weapon", c, p)
            st.weapon[p] = [w, uid]
            uid += 1
        s = args["spells"][p]
        if s is not None:
            where = f"{seat} spell"
            if isinstance(s, Mapping):
                extra = set(s) - _SPELL_KEYS
                if extra or "card" not in s or "cast_turn" not in s:
                    raise PositionError(f"{where}: give {{'card': ..., 'cast_turn': ...}}, got {dict(s)!r}")
                card, cast = s["card"], s["cast_turn"]
            elif isinstance(s, Sequence) and not isinstance(s, (str, bytes)) and len(s) == 2:
                card, cast = s
            else:
                raise PositionError(f"{where}: a face-down spell is (card, cast_turn), got {s!r}")
            c = self.card(where, card, (SPELL,))
            self._restricted(st, where, c, p)
            if not _is_int(cast) or not 0 <= cast <= t:
                raise PositionError(
                    f"{where}: cast_turn={cast!r}; a spell is cast on a turn 0..t={t} (ready when t > cast_turn, D20)"
                )
            st.spell[p] = [card, cast, uid]
            uid += 1
        return uid

    def _monster(self, where: str, spec: Any, t: int) -> tuple[Any, Any, Any, Any, Any]:
        """``(card, entered, damage, attacked, mods)`` of a monster spec."""
        if isinstance(spec, str):
            return spec, t - 2, 0, False, []
        if isinstance(spec, Mapping):
            extra = sorted(set(spec) - _MONSTER_KEYS)
            if extra or "card" not in spec:
                raise PositionError(
                    f"{where}: a monster mapping has 'card' and optional entered, damage, attacked, mods; "
                    f"got {dict(spec)!r}"
                )
            return (
                spec["card"],
                spec.get("entered", t - 2),
                spec.get("damage", 0),
                spec.get("attacked", False),
                spec.get("mods", []),
            )
        if isinstance(spec, Sequence) and 2 <= len(spec) <= 4:
            card, entered, *rest = spec
            damage = rest[0] if rest else 0
            attacked = rest[1] if len(rest) > 1 else False
            return card, entered, damage, attacked, []
        raise PositionError(
            f"{where}: a monster is a card id, (card, entered[, damage[, attacked]]) or a mapping; got {spec!r}"
        )

    def _held(self, st: GameState, p: int) -> list[str]:
        """Every main-deck card seat ``p`` holds, in any zone."""
        out = st.deck[p] + st.hand[p] + st.exp[p] + st.discard[p] + [m.card for m in st.monsters[p]]
        if st.weapon[p] is not None:
            out.append(st.weapon[p][0])  # type: ignore[index]
        if st.spell[p] is not None:
            out.append(st.spell[p][0])  # type: ignore[index]
        return out

    def _check_seat(self, st: GameState, p: int, lenient: bool) -> None:
        """R3, D6: at most 40 main-deck cards (unless ``lenient``), and the rules options' copy limit."""
        held = self._held(st, p)
        if len(held) > DECK_SIZE and not lenient:
            raise PositionError(
                f"P{p} cards: {len(held)} main-deck cards across deck, hand, experience, discard and "
                f"field; a seat owns exactly {DECK_SIZE} (R3)"
            )
        limit = self.config.max_copies
        if limit:
            for cid, n in sorted(Counter(held).items()):
                if n > limit:
                    raise PositionError(
                        f"P{p} cards: {n} copies of {st.name(cid)!r} ({cid}) across deck, hand, experience, "
                        f"discard and field; at most max_copies = {limit} (D6)"
                    )

    def _decklist(self, st: GameState, p: int, given: Any) -> list[str]:
        """The registered deck list of seat ``p``: given, or the master plus the cards it holds."""
        if given is None:
            held = sorted(self._held(st, p), key=lambda c: (st.cards[c].index, c))
            return [st.masters[p], *held]
        where = f"P{p} decklists"
        if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, Sequence):
            raise PositionError(f"{where}: give a list of card ids, got {given!r}")
        for cid in given:
            self.card(where, cid, (MASTER, MONSTER, WEAPON, SPELL))
        listed = [c for c in given if st.cards[c].kind == MASTER]
        if listed != [st.masters[p]]:
            raise PositionError(
                f"{where}: a deck list holds exactly 1 master, the seat's {st.masters[p]!r}; got {listed!r} (R3)"
            )
        return list(given)

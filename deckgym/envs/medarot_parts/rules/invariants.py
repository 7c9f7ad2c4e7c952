"""The rules check of the Medarot parts game: every invariant one position can show (spec section 10).

``check(state)`` raises ``StateError`` when ``state`` breaks an invariant of section 10 (I1-I10,
the spec's items 1-10) or a position rule the position builder enforces; each line of the
message starts with the spec item it applies (``I1 card conservation: ...``, ``R22 destroyed
part: ...``). It reads the state in three stages and stops after the first stage that finds a
problem:

1. shapes: per-seat lists have 2 entries, a medarot 4 parts, card ids are in the pool, records
   hold values of the right types, indices are in range;
2. the invariants and position rules on the zones, the field, the modifiers, the battle, the
   payment and the use under way, the agenda and the decision point;
3. the decision's options: a live game offers at least one (I9), and at least two, since a
   single option is played by the engine itself (D37).

Any state whose attributes hold values of the right types, whatever their contents, either
passes or raises ``StateError``. Transition invariants (hands after the draw and end phases,
legs tapped at the end of each round, the turn cap reached in order, I11 observations) need two
positions or the environment and are checked by the tests.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Final

from deckgym.envs.core.checks import Problems, counted, in_range, is_int, is_pair, is_seat
from deckgym.envs.medarot_parts.actions import DP
from deckgym.envs.medarot_parts.cards import (
    ATTACHED,
    BATTLE,
    CHOSEN_TARGETS,
    EFFECT,
    ENERGY,
    LEGS,
    MEDAL,
    MEDAROTER,
    PART,
    SLOT_WORDS,
    TURN,
    CardDef,
    Target,
)
from deckgym.envs.medarot_parts.rules.flow import AGENDA
from deckgym.envs.medarot_parts.rules.phases import fastest
from deckgym.envs.medarot_parts.rules.values import available_ep, charge, mobility, power, stat_of
from deckgym.envs.medarot_parts.state import (
    STAT_CHARGE,
    STAT_POWER,
    UNTIL_BATTLE,
    UNTIL_CARD,
    UNTIL_TURN,
    Battle,
    GameState,
    Medarot,
    Part,
)

__all__ = ["check"]

SEATS: Final[tuple[int, ...]] = (0, 1)
MEDAROTS: Final = 2
PARTS: Final = 4
STARTER_CARDS: Final = 5  # a starter medarot: medal, head, right arm, left arm, legs (D1, D2)
STARTER_PART_COPIES: Final = 2  # a starter set holds one part per slot per medarot (D2)
MAX_VALUE: Final = 9  # current power, charge and mobility are clamped to 0..9 (D39)
#: Decision points of a battle (``state.battle`` is set) and who decides them: the attacker (A) or B.
_BATTLE_DPS: Final = {
    DP.POWER_WINDOW: None,
    DP.DEFENDER_CHOICE: "A",
    DP.DEFENSE_WINDOW: "B",
    DP.RESPONSE: "B",
    DP.PROTECT_AMOUNT: "B",
    DP.ALLOCATE: "B",
    DP.EFFECT_ATTACH: "A",
    DP.EFFECT_TARGET: "A",
}
#: Battle decision points that need the defending medarot.
_DEFENDER_DPS: Final = frozenset({DP.RESPONSE, DP.PROTECT_AMOUNT, DP.ALLOCATE})
#: Decision points outside any battle, payment or use.
_PLAIN_DPS: Final = frozenset({DP.ACTION_MEDAROT_TIE, DP.ENERGY_PLACE, DP.ACTION, DP.DISCARD})
#: Decision points whose context is ``(player,)``.
_SEAT_CTX: Final = frozenset({DP.ACTION_MEDAROT_TIE, DP.ENERGY_PLACE, DP.ACTION, DP.POWER_WINDOW, DP.DISCARD})
#: Agenda tasks that read the battle under way, and those that read the use under way.
_BATTLE_TASKS: Final = frozenset(
    {
        "attack_part",
        "power_window",
        "damage_step",
        "defender_step",
        "defense_window",
        "protect_reduction",
        "block_shock",
        "allocation",
        "effect_step",
        "battle_end",
    }
)
_USE_TASKS: Final = frozenset(
    {"choose_target", "resolve_use", "finish_card", "finish_support", "untap_energy"}
)
#: Task arguments by name: (what the argument is, lowest value, highest value or None).
_TASK_ARGS: Final = {
    "p": ("a player", 0, 1),
    "payer": ("a player", 0, 1),
    "mp": ("a player or -1", -1, 1),
    "mi": ("a medarot or -1", -1, MEDAROTS - 1),
    "m": ("a medarot", 0, MEDAROTS - 1),
    "s": ("a slot", 0, PARTS - 1),
    "kind": ("an energy kind", 0, 3),
    "need": ("an EP count", 0, None),
    "e": ("an effect index", 0, None),
    "n": ("a count", 0, None),
}


def check(state: GameState, *, deck_rules: bool = True) -> None:
    """Raise ``StateError`` if ``state`` breaks an invariant of section 10 or a position rule.

    Args:
        state: the position to check.
        deck_rules: also check each seat's cards against D2 (at most ``max_copies`` copies of
            a non-energy card in the deck, plus 2 starter copies of a part; at most a deck and
            a starter set in all). The position builder's ``deck_rules=False`` turns it off.

    Raises:
        StateError: one line per problem, each starting with the spec item it applies.
    """
    c = _Checker(state, deck_rules)
    for stage in (c.shapes, c.rules, c.options):
        stage()
        c.raise_if_any()


class _Checker(Problems[GameState, CardDef]):
    """One check of one state: the problems found so far, stage by stage."""

    def __init__(self, st: GameState, deck_rules: bool) -> None:
        super().__init__(st, st.cards)
        self.cfg = st.config
        self.deck_rules = deck_rules
        self.vacant = bool(self.cfg.vacant_seat)
        self.seated = (0,) if self.vacant else SEATS

    # ------------------------------------------------------------------ helpers
    def known(self, cid: Any, where: str) -> bool:
        if isinstance(cid, str) and cid in self.cards:
            return True
        self.bad("4.2 cards", f"{where} holds {cid!r}, which is not a card of the pool")
        return False

    def type_of(self, cid: str) -> str:
        return self.cards[cid].type

    def part_words(self, p: int, m: int, s: int) -> str:
        part = self.st.field[p][m].parts[s]
        return f"player {p}'s medarot {m} {SLOT_WORDS[s]} ({self.name(part.card)})"

    def parts(self) -> list[tuple[int, int, int, Part]]:
        return [
            (p, m, s, part)
            for p, row in enumerate(self.st.field)
            for m, med in enumerate(row)
            for s, part in enumerate(med.parts)
        ]

    def seat_cards(self, p: int) -> list[str]:
        """Every card player ``p`` holds, in any zone or on its field."""
        st = self.st
        out = [*st.deck[p], *st.hand[p], *st.trash[p], *st.play[p], *(row[0] for row in st.stock[p])]
        for med in st.field[p]:
            out += med.cards()
        return out

    def medarot_ok(self, p: Any, m: Any) -> bool:
        return is_seat(p) and is_int(m) and 0 <= m < len(self.st.field[p])

    # ------------------------------------------------------------------ stage 1: shapes
    def shapes(self) -> None:
        st = self.st
        for key, lo, item in (
            ("turn", 0, "I10 turn cap"),
            ("round", 0, "I8 rounds"),
            ("passes", 0, "D12 action step"),
            ("next_uid", 1, "4.2 part state"),
            ("steps", 0, "D35 caps"),
            ("proxy_armor", 0, "AMALOGS D37 proxy"),
            ("proxy_life", 0, "AMALOGS D37 proxy"),
        ):
            v: Any = getattr(st, key)
            if not is_int(v) or v < lo:
                self.bad(item, f"{key} is {v!r}, not a whole number of at least {lo}")
        for key, item in (("odd_turn_priority", "D5 priority"), ("priority", "D5 priority")):
            if not is_seat(getattr(st, key)):
                self.bad(item, f"{key} is {getattr(st, key)!r}, not a player (0 or 1)")
        for key, item in (("first", "D9 first player"), ("to_act", "D12 turn-to-act")):
            w: Any = getattr(st, key)
            if not in_range(w, -1, 1):
                self.bad(item, f"{key} is {w!r}, not a player or -1")
        if not is_int(st.winner):
            self.bad("I10 end of game", f"the winner is {st.winner!r}, not a number")
        self.end_shape("I10 end of game")
        if not is_pair(st.action_medarot) or not all(is_int(v) for v in st.action_medarot):
            self.bad(
                "D9 action medarots",
                f"the action medarots are {st.action_medarot!r}, not one number per player",
            )
        if not is_pair(st.assets) or not all(is_int(v) for v in st.assets):
            self.bad("I6 assets", f"the assets are {st.assets!r}, not one whole number per player")
        self.decks_shape()
        for key in ("deck", "hand", "trash", "play"):
            self.zone_shape(key)
        self.stock_shape()
        self.field_shape()
        self.mods_shape()
        self.battle_shape()
        self.pay_shape()
        self.use_shape()
        self.dp_shape()
        self.check_agenda(AGENDA.tasks, _TASK_ARGS)

    def decks_shape(self) -> None:
        d = self.st.decks
        if not is_pair(d) or not all(isinstance(x, list) for x in d):
            self.bad("I1 card conservation", "the deck lists are not one entry per player")
            return
        for p, rec in enumerate(d):
            if not rec:
                continue
            ok = len(rec) == 3 and all(isinstance(x, list) for x in rec)
            if not ok or any(len(x) != STARTER_CARDS for x in rec[:2]):
                self.bad(
                    "I1 card conservation",
                    f"player {p}'s deck list is not [starter medarot 1, starter medarot 2, deck] (D2)",
                )
                continue
            for i, cid in enumerate(c for x in rec for c in x):
                self.known(cid, f"player {p}'s deck list (card {i})")

    def zone_shape(self, key: str) -> None:
        v: Any = getattr(self.st, key)
        if not is_pair(v) or not all(isinstance(z, list) for z in v):
            self.bad("4.1 zones", f"the {key} zones are not one list of cards per player")
            return
        for p, zone in enumerate(v):
            for i, cid in enumerate(zone):
                self.known(cid, f"player {p}'s {key}[{i}]")

    def stock_shape(self) -> None:
        v = self.st.stock
        if not is_pair(v) or not all(isinstance(z, list) for z in v):
            self.bad("4.1 zones", "the energy stocks are not one list per player")
            return
        for p, rows in enumerate(v):
            for i, row in enumerate(rows):
                if not isinstance(row, list) or len(row) != 2 or not isinstance(row[1], bool):
                    self.bad(
                        "4.2 energy", f"player {p}'s energy stock entry {i} is {row!r}, not [card, tapped]"
                    )
                else:
                    self.known(row[0], f"player {p}'s energy stock entry {i}")

    def field_shape(self) -> None:
        field = self.st.field
        if not is_pair(field) or not all(isinstance(r, list) for r in field):
            self.bad("I2 medarots", "the field is not one list of medarots per player")
            return
        for p, row in enumerate(field):
            want = 0 if p not in self.seated else MEDAROTS
            if len(row) != want:
                why = "seat 1 is vacant" if want == 0 else "each player fields exactly 2 (D1)"
                self.bad("I2 medarots", f"player {p} fields {len(row)} medarots; {why}")
                continue
            for m, med in enumerate(row):
                where = f"player {p}'s medarot {m}"
                if not isinstance(med, Medarot):
                    self.bad("I2 medarots", f"{where} is {med!r}, not a medarot")
                    continue
                self.known(med.medal, f"{where} medal")
                if not isinstance(med.medal_tapped, bool):
                    self.bad("4.2 medal state", f"{where}: medal tapped is {med.medal_tapped!r}")
                if not isinstance(med.parts, list) or len(med.parts) != PARTS:
                    n = len(med.parts) if isinstance(med.parts, list) else med.parts
                    self.bad("I2 medarots", f"{where} has {n!r} parts, not one per slot (4)")
                    continue
                for s, part in enumerate(med.parts):
                    self.part_shape(part, f"{where} {SLOT_WORDS[s]}")

    def part_shape(self, part: Any, where: str) -> None:
        if not isinstance(part, Part):
            self.bad("I2 medarots", f"{where} is {part!r}, not a part")
            return
        ok = is_int(part.uid) and is_int(part.counters) and isinstance(part.tapped, bool)
        if not ok or not isinstance(part.destroyed, bool) or not isinstance(part.attached, list):
            self.bad("4.2 part state", f"{where} has fields of the wrong types: {part.to_list()!r}")
            return
        self.known(part.card, where)
        if part.effect is not None:
            self.known(part.effect, f"{where} effect card")
        for i, cid in enumerate(part.attached):
            self.known(cid, f"{where} attached card {i}")

    def mods_shape(self) -> None:
        mods = self.st.mods
        if not isinstance(mods, list):
            self.bad("D42 modifiers", f"the modifiers are {mods!r}, not a list")
            return
        for i, mod in enumerate(mods):
            if not isinstance(mod, list) or len(mod) != 8 or not all(is_int(v) for v in mod):
                self.bad("D42 modifiers", f"modifier {i} is {mod!r}, not 8 numbers")

    def battle_shape(self) -> None:
        b = self.st.battle
        if b is None:
            return
        if not isinstance(b, Battle):
            self.bad("5 battle", f"the battle under way is {b!r}, not a battle record")
            return
        ints = [getattr(b, k, None) for k in (f.name for f in dataclasses.fields(Battle)) if k != "no_evade"]
        if not all(is_int(v) for v in ints) or not isinstance(b.no_evade, bool):
            self.bad("5 battle", f"the battle under way has fields of the wrong types: {b.to_list()!r}")

    def pay_shape(self) -> None:
        pay = self.st.pay
        if pay is not None and (
            not isinstance(pay, list) or len(pay) != 6 or not all(is_int(v) for v in pay)
        ):
            self.bad(
                "I7 payment",
                f"the payment under way is {pay!r}, not [payer, needed, paid, medal player, medal, kind]",
            )

    def use_shape(self) -> None:
        u = self.st.use
        if u is None:
            return
        ok = isinstance(u, list) and len(u) == 4 and is_seat(u[0]) and in_range(u[2], -1, 2)
        if not ok or not isinstance(u[3], list):
            self.bad("D31 card use", f"the use under way is {u!r}, not [player, card, slot -1..2, targets]")
            return
        self.known(u[1], "the use under way")
        for t in u[3]:
            if (
                not isinstance(t, list)
                or len(t) != 2
                or not in_range(t[0], -1, 1)
                or not in_range(t[1], -1, 3)
            ):
                self.bad(
                    "D41 targets", f"the use under way has target {t!r}, not [medarot -1..1, slot -1..3]"
                )

    def dp_shape(self) -> None:
        point = self.st.decision_point
        if point is None:
            return
        ok = isinstance(point, tuple) and len(point) == 3 and is_int(point[0]) and is_seat(point[1])
        if not ok or not isinstance(point[2], tuple) or not all(is_int(v) for v in point[2]):
            self.bad(
                "I9 decision point", f"the decision point is {point!r}, not (kind, player 0-1, (numbers...))"
            )
        elif point[0] not in DP._value2member_map_:
            self.bad("I9 decision point", f"decision kind {point[0]} is not a decision point of section 5")

    # ------------------------------------------------------------------ stage 2: the rules
    def rules(self) -> None:
        self.numbers()
        self.conservation()
        if self.deck_rules:
            self.regulation()
        self.zones()
        self.field_rules()
        self.mod_rules()
        self.battle_rules()
        self.pay_rules()
        self.use_rules()
        self.decision_rules()
        self.agenda_rules()
        if not self.problems:
            self.values()

    def numbers(self) -> None:
        st, cfg = self.st, self.cfg
        if st.round > 2:
            self.bad("I8 rounds", f"round {st.round}: a turn has at most 2 rounds (D15)")
        if st.turn > cfg.max_turns:
            self.bad("I10 turn cap", f"turn {st.turn} is past the turn cap {cfg.max_turns} (D35)")
        if not st.done and st.steps >= cfg.max_steps:
            self.bad(
                "D35 caps", f"{st.steps} decisions reach the step cap {cfg.max_steps} and the game goes on"
            )
        if st.passes > 2:
            self.bad("D12 action step", f"{st.passes} passes in a row; two end the action step")
        if st.turn >= 1:
            want = st.odd_turn_priority if st.turn % 2 else 1 - st.odd_turn_priority
            if st.priority != want:
                self.bad(
                    "D5 priority",
                    f"player {st.priority} has priority in turn {st.turn}, but player {st.odd_turn_priority} has it on "
                    f"odd turns",
                )
        for p in SEATS:
            if st.assets[p] < 0:
                self.bad("I6 assets", f"player {p} has {st.assets[p]} G of assets, below 0 (D3)")
            am = st.action_medarot[p]
            if not -1 <= am < len(st.field[p]):
                self.bad(
                    "D9 action medarots",
                    f"player {p}'s action medarot is {am}, not -1 or one of its medarots",
                )
            elif am >= 0 and st.field[p][am].parts[0].destroyed:
                self.bad(
                    "I4 stopped medarots",
                    f"player {p}'s action medarot {am} is stopped (head destroyed, D33)",
                )
            n = len(st.hand[p])
            if n > cfg.hand_cap:
                self.bad(
                    "I6 hand size", f"player {p} holds {n} cards; a hand holds at most {cfg.hand_cap} (D36)"
                )
            if st.hand[p] != sorted(st.hand[p]):
                self.bad(
                    "D40 hand order", f"player {p}'s hand is not in the canonical order (sorted by card id)"
                )
        if cfg.proxy:
            if st.proxy_life > st.proxy_armor:
                self.bad(
                    "AMALOGS D37 proxy",
                    f"the proxy's life {st.proxy_life} exceeds its armor {st.proxy_armor}",
                )
        elif st.proxy_armor or st.proxy_life:
            self.bad("AMALOGS D37 proxy", "a table without a proxy has proxy armor or life")

    def conservation(self) -> None:
        st = self.st
        for p in SEATS:
            held = self.seat_cards(p)
            listed = [c for x in st.decks[p] for c in x]
            if len(held) != len(listed):
                self.bad(
                    "I1 card conservation",
                    f"player {p} holds {len(held)} cards in all, not {len(listed)} (its starter set and deck)",
                )
                continue
            more, fewer = Counter(held) - Counter(listed), Counter(listed) - Counter(held)
            if more or fewer:
                self.bad(
                    "I1 card conservation",
                    f"player {p} holds {counted(more, self.name)} beyond its starter set and deck and lacks "
                    f"{counted(fewer, self.name)}",
                )

    def regulation(self) -> None:
        cfg = self.cfg
        for p in self.seated:
            held = self.seat_cards(p)
            most = cfg.deck_size + MEDAROTS * STARTER_CARDS
            if len(held) > most:
                self.bad(
                    "D2 deck regulation",
                    f"player {p} holds {len(held)} cards; a seat has {most} (deck + starter set)",
                )
            counts = Counter(c for c in held if self.type_of(c) not in (ENERGY, MEDAL))
            for cid, n in sorted(counts.items()):
                limit = cfg.max_copies + (STARTER_PART_COPIES if self.type_of(cid) == PART else 0)
                if n > limit:
                    self.bad(
                        "D2 deck regulation",
                        f"player {p} holds {n} copies of {self.name(cid)}; at most {limit}",
                    )

    def zones(self) -> None:
        st = self.st
        for p in SEATS:
            for key in ("deck", "hand", "trash"):
                for cid in getattr(st, key)[p]:
                    if self.type_of(cid) == MEDAL:
                        self.bad(
                            "D2 medals",
                            f"player {p}'s {key} holds the medal {self.name(cid)}; medals stay on the field",
                        )
            for cid, _ in st.stock[p]:
                if self.type_of(cid) != ENERGY:
                    self.bad(
                        "D11 energy stock",
                        f"player {p}'s energy stock holds {self.name(cid)}, a {self.type_of(cid)} card",
                    )
            in_use = st.use[1] if st.use is not None and st.use[0] == p and st.use[2] < 0 else None
            for cid in st.play[p]:
                c = self.cards[cid]
                if c.type != MEDAROTER:
                    self.bad(
                        "D31 play area", f"player {p}'s play area holds {self.name(cid)}, a {c.type} card"
                    )
                elif c.duration == BATTLE and st.battle is None:
                    self.bad(
                        "D31 play area",
                        f"player {p}'s BATTLE card {self.name(cid)} is in play outside a battle",
                    )
                elif c.duration not in (TURN, BATTLE) and cid != in_use:
                    self.bad(
                        "D31 play area",
                        f"player {p}'s card {self.name(cid)} stays in play but is neither a TURN nor a BATTLE card",
                    )
            if st.use is not None and st.use[0] == p and st.use[2] < 0 and st.use[1] not in st.play[p]:
                self.bad(
                    "D31 card use", f"player {p} plays {self.name(st.use[1])}, which is not in its play area"
                )

    def field_rules(self) -> None:
        st = self.st
        uids: dict[int, str] = {}
        for p, row in enumerate(st.field):
            for m, med in enumerate(row):
                if self.type_of(med.medal) != MEDAL:
                    self.bad(
                        "I2 medarots",
                        f"player {p}'s medarot {m} has {self.name(med.medal)} as its medal, not a medal card",
                    )
                stopped = med.parts[0].destroyed
                for s, part in enumerate(med.parts):
                    where = f"player {p}'s medarot {m} {SLOT_WORDS[s]} ({self.name(part.card)})"
                    card = self.cards[part.card]
                    if card.type != PART or card.slot != s:
                        self.bad("I2 medarots", f"{where} is not a {SLOT_WORDS[s]} part")
                        continue
                    if part.uid in uids:
                        self.bad("4.2 part state", f"{where} and {uids[part.uid]} share uid {part.uid}")
                    uids[part.uid] = where
                    if not 1 <= part.uid < st.next_uid:
                        self.bad("4.2 part state", f"{where} has uid {part.uid}, not in 1..{st.next_uid - 1}")
                    self.one_part(where, part, card, stopped)

    def one_part(self, where: str, part: Part, card: CardDef, stopped: bool) -> None:
        if part.destroyed:
            if part.counters or not part.tapped or part.effect is not None or part.attached:
                self.bad(
                    "I3 damage counters",
                    f"{where} is destroyed, so it is tapped and holds no counters, effect card or attached cards (R22)",
                )
            return
        if not 0 <= part.counters <= card.armor - 1:
            self.bad(
                "I3 damage counters",
                f"{where} holds {part.counters} counters; a part that is not destroyed holds 0..{card.armor - 1} "
                f"(armor {card.armor}, R18)",
            )
        if part.effect is not None:
            if self.type_of(part.effect) != EFFECT:
                self.bad(
                    "I5 effect cards",
                    f"{where} holds {self.name(part.effect)} as its effect card, a {self.type_of(part.effect)} card",
                )
            if not card.effect_part:
                self.bad(
                    "I5 effect cards",
                    f"{where} is not a melee effect part, yet holds an effect card (R23, R24)",
                )
            if stopped:
                self.bad("I5 effect cards", f"{where} holds an effect card on a stopped medarot (D33)")
        for cid in part.attached:
            c = self.cards[cid]
            if c.type != MEDAROTER or c.duration != ATTACHED:
                self.bad(
                    "D31 attached cards",
                    f"{where} holds {self.name(cid)}; only ATTACHED medaroter cards stay on a part",
                )
        if part.attached and stopped:
            self.bad("D33 stopped medarots", f"{where} holds attached cards on a stopped medarot")

    def mod_rules(self) -> None:
        st = self.st
        parts = {part.uid: (p, m, s, part) for p, m, s, part in self.parts()}
        from_cards: dict[int, Counter[tuple[int, int]]] = {}
        for i, mod in enumerate(st.mods):
            stat, amount, follows, mp, mm, mask, until, src = mod
            where = f"modifier {i}"
            if stat not in (STAT_POWER, STAT_CHARGE) or until not in (UNTIL_BATTLE, UNTIL_TURN, UNTIL_CARD):
                self.bad("D42 modifiers", f"{where} has stat {stat} and duration {until}, not 0-1 and 0-2")
                continue
            if amount == 0:
                self.bad("D42 modifiers", f"{where} changes nothing (amount 0, 4.3)")
            if follows >= 0:
                if follows not in parts:
                    self.bad(
                        "D42 modifiers", f"{where} follows part uid {follows}, which is not on the field"
                    )
            elif not (self.medarot_ok(mp, mm) and 1 <= mask <= 0b0111):
                self.bad(
                    "D42 modifiers",
                    f"{where} is bound to player {mp}'s medarot {mm} slots {mask:b}, not to head and arm slots of a "
                    "medarot on the field",
                )
            if until == UNTIL_BATTLE and st.battle is None:
                self.bad("D42 modifiers", f"{where} lasts for a battle, but no battle is under way")
            if until == UNTIL_CARD:
                holder = parts.get(src)
                if holder is None or (holder[3].effect is None and not holder[3].attached):
                    self.bad(
                        "I5 effect cards",
                        f"{where} is bound to the cards on part uid {src}, which holds none",
                    )
                else:
                    from_cards.setdefault(src, Counter())[stat, amount] += 1
        pending = st.use is not None or (
            st.decision_point is not None and st.decision_point[0] == DP.EFFECT_TARGET
        )
        if not pending:  # else a card or an effect card is being bound right now
            self.bindings(parts, from_cards)

    def bindings(
        self, parts: dict[int, tuple[int, int, int, Part]], from_cards: dict[int, Counter[tuple[int, int]]]
    ) -> None:
        """I5: the modifiers bound to a part's cards are exactly those of its effect card and ATTACHED cards."""
        for p, m, s, part in parts.values():
            want: Counter[tuple[int, int]] = Counter()
            if part.effect is not None and not part.destroyed:
                for ab in self.cards[part.card].abilities:
                    if ab.source == "EFFECT":
                        want[stat_of(ab.op), ab.amount] += 1
            for cid in part.attached:
                for ab in self.cards[cid].abilities:
                    if ab.op in ("POWER", "CHARGE"):
                        want[stat_of(ab.op), ab.amount] += 1
            have = from_cards.get(part.uid, Counter())
            if have != want:
                self.bad(
                    "I5 effect cards",
                    f"{self.part_words(p, m, s)} carries cards whose bindings are {dict(want)}, but the modifiers "
                    f"bound to them are {dict(have)} (D28, D42)",
                )

    def battle_rules(self) -> None:
        st = self.st
        b = st.battle
        if b is None:
            return
        a = b.attacker
        if a not in SEATS or not self.medarot_ok(a, b.medarot) or not 0 <= b.slot <= 2:
            self.bad(
                "5 battle",
                f"the battle names player {a}'s medarot {b.medarot} slot {b.slot}, not an attack part on the field",
            )
            return
        part = st.field[a][b.medarot].parts[b.slot]
        where = self.part_words(a, b.medarot, b.slot)
        if part.uid != b.uid:
            self.bad("5 battle", f"the attack part has uid {b.uid}, but {where} has uid {part.uid}")
        if not st.done:
            if st.field[a][b.medarot].parts[0].destroyed:
                self.bad("I4 stopped medarots", f"player {a}'s attacking medarot {b.medarot} is stopped")
            if st.action_medarot[a] != b.medarot:
                self.bad(
                    "5 battle",
                    f"player {a} attacks with medarot {b.medarot}, not its action medarot {st.action_medarot[a]} (R2)",
                )
            if not part.tapped:
                self.bad(
                    "5 battle", f"the attack part {where} is untapped; declaring the attack taps it (R2)"
                )
        d = 1 - a
        proxy = bool(self.cfg.proxy) and d == 1
        if b.defender != -1 and not (proxy and b.defender == 0) and not self.medarot_ok(d, b.defender):
            self.bad(
                "5 battle",
                f"the defending medarot is player {d}'s medarot {b.defender}, which it does not field",
            )
        elif b.defender >= 0 and not proxy and st.field[d][b.defender].parts[0].destroyed and not st.done:
            self.bad("I4 stopped medarots", f"player {d}'s defending medarot {b.defender} is stopped (D33)")
        if b.damage < 0 or b.dealt < 0 or not 0 <= b.amount <= MAX_VALUE:
            self.bad(
                "5 battle", f"the battle has damage {b.damage}, dealt {b.dealt} and protect amount {b.amount}"
            )
        if not -1 <= b.response <= 2 or not -1 <= b.protect <= 2 or (b.protect >= 0) != (b.response == 2):
            self.bad(
                "5 battle", f"the battle has response {b.response} with protect part {b.protect} (R10, D23)"
            )

    def pay_rules(self) -> None:
        st = self.st
        pay = st.pay
        if pay is None:
            return
        payer, need, paid, mp, mi, kind = pay
        if payer not in SEATS or need < 1 or not 0 <= paid < need or not 0 <= kind <= 3:
            self.bad("I7 payment", f"the payment under way is {pay}: paid EP stay below the needed EP (D20)")
            return
        if mp != -1 and (mp != payer or not self.medarot_ok(mp, mi)):
            self.bad(
                "I7 payment",
                f"the payment names player {mp}'s medal {mi}; only a medal of the payer's medarot pays (D19)",
            )
            return
        avail = available_ep(st, payer, kind, (mp, mi) if mp >= 0 else None)
        if paid + avail < need:
            self.bad(
                "I7 payment",
                f"player {payer} has paid {paid} of {need} EP and can produce only {avail} more; a payment starts only when affordable (R3)",
            )

    def use_rules(self) -> None:
        st = self.st
        u = st.use
        if u is None:
            return
        p, cid, src, targets = u
        card = self.cards[cid]
        if src >= 0:
            m = st.action_medarot[p]
            if not self.medarot_ok(p, m) or st.field[p][m].parts[src].card != cid:
                self.bad(
                    "D30 support",
                    f"player {p} uses {self.name(cid)} from slot {src}, which is not a part of its action medarot",
                )
        elif card.type != MEDAROTER:
            self.bad("D31 card use", f"player {p} plays {self.name(cid)}, a {card.type} card")
        if len(targets) > len(card.abilities):
            self.bad(
                "D41 targets",
                f"the use of {self.name(cid)} holds {len(targets)} targets for {len(card.abilities)} effects",
            )
        for ti, _ in targets:
            if ti >= 0 and not self.medarot_ok(p, ti) and not self.medarot_ok(1 - p, ti):
                self.bad(
                    "D41 targets",
                    f"the use of {self.name(cid)} targets medarot {ti}, which is not on the field",
                )

    # ------------------------------------------------------------------ the decision point
    def decision_rules(self) -> None:
        st = self.st
        if st.done:
            if st.decision_point is not None or st.agenda:
                self.bad("I10 end of game", "the game is over but a decision or agenda task is still pending")
            outcomes = (st.winner in (0, 1), st.winner == 2, st.truncated)
            if sum(outcomes) != 1 or (st.truncated and st.winner != -1):
                self.bad(
                    "I10 end of game",
                    f"the game is over with winner {st.winner} and truncated {st.truncated}: exactly one of a "
                    "win, a draw or a truncation holds",
                )
            return
        if st.winner != -1 or st.truncated:
            self.bad("I10 end of game", f"a live game has winner {st.winner} and truncated {st.truncated}")
        for p in self.seated:
            if st.field[p] and all(med.parts[0].destroyed for med in st.field[p]):
                self.bad(
                    "I4 stopped medarots",
                    f"every medarot of player {p} is stopped, yet the game goes on (D34)",
                )
        point = st.decision_point
        if point is None:
            self.bad("I9 decision point", "the game is live but waits at no decision point")
            return
        kind, player, ctx = DP(point[0]), point[1], point[2]
        self.decision(kind, player, ctx)
        if st.pay is not None and (kind != DP.PAYMENT or player != st.pay[0]):
            self.bad(
                "I7 payment",
                f"a payment of player {st.pay[0]} is under way at {kind.name} of player {player}",
            )
        if st.use is not None and (kind not in (DP.PAYMENT, DP.TARGET) or player != st.use[0]):
            self.bad(
                "D31 card use", f"a use of player {st.use[0]} is under way at {kind.name} of player {player}"
            )

    def decision(self, kind: DP, player: int, ctx: tuple[int, ...]) -> None:
        st = self.st
        item = "I9 decision point"
        name = kind.name
        if player not in self.seated:
            self.bad(item, f"{name} asks seat {player}, which is vacant")
            return
        if kind in _SEAT_CTX and ctx != (player,):
            self.bad(item, f"{name} of player {player} has context {ctx}, not ({player},)")
            return
        if kind in _PLAIN_DPS and (st.battle is not None or st.pay is not None or st.use is not None):
            self.bad(item, f"{name} is asked while a battle, payment or use is under way")
            return
        b = st.battle
        if kind in _BATTLE_DPS:
            if b is None:
                self.bad(item, f"{name} is a battle step, but no battle is under way")
                return
            who = _BATTLE_DPS[kind]
            if (who == "A" and player != b.attacker) or (who == "B" and player != 1 - b.attacker):
                self.bad(
                    item, f"{name} asks player {player}, not the {'attacker' if who == 'A' else 'defender'}"
                )
            if kind in _DEFENDER_DPS and not self.medarot_ok(1 - b.attacker, b.defender):
                self.bad(item, f"{name} is asked with no defending medarot")
                return
            if kind == DP.PROTECT_AMOUNT and not 0 <= b.protect <= 2:
                self.bad(item, "PROTECT_AMOUNT is asked with no protect part")
            if kind not in (DP.POWER_WINDOW, DP.DEFENSE_WINDOW) and ctx:
                self.bad(item, f"{name} has context {ctx}; it takes none")
        if kind == DP.ACTION_MEDAROT_TIE:
            self.tie(player)
        elif kind == DP.ACTION and (player != st.to_act or st.passes > 1):
            self.bad(
                "D12 action step",
                f"ACTION asks player {player}; the turn-to-act is player {st.to_act} after {st.passes} passes",
            )
        elif kind == DP.PAYMENT:
            if st.pay is None or ctx:
                self.bad("I7 payment", "PAYMENT is asked with no payment under way")
        elif kind in (DP.REPAIR_MEDAROT, DP.REPAIR_PART):
            n = 2 if kind == DP.REPAIR_MEDAROT else 3
            if player != st.to_act or len(ctx) != n or not (0 <= ctx[0] < MEDAROTS and 0 <= ctx[1] <= 2):
                self.bad(
                    "D29 repair", f"{name} of player {player} has context {ctx} (turn-to-act {st.to_act})"
                )
            elif kind == DP.REPAIR_PART and not self.medarot_ok(player, ctx[2]):
                self.bad(
                    "D29 repair",
                    f"REPAIR_PART asks about medarot {ctx[2]}, which player {player} does not field",
                )
        elif kind == DP.TARGET:
            self.target(player, ctx)

    def tie(self, p: int) -> None:
        if len(fastest(self.st, p)) < 2:
            self.bad(
                "D9 action medarots",
                f"ACTION_MEDAROT_TIE asks player {p}, who has no tied fastest candidates",
            )

    def target(self, p: int, ctx: tuple[int, ...]) -> None:
        st = self.st
        u = st.use
        if u is None or u[0] != p:
            self.bad("D41 targets", "TARGET is asked with no use of the deciding player under way")
            return
        if len(ctx) == 3 and ctx[:2] == (0, 2):
            if ctx[2] < 1:
                self.bad("D41 targets", f"TARGET offers to untap {ctx[2]} more energy cards")
            return
        card = self.cards[u[1]]
        abilities = card.abilities if u[2] < 0 else tuple(a for a in card.abilities if a.source == "ON_USE")
        if len(ctx) != 2 or ctx[1] not in (0, 1) or not 0 <= ctx[0] < len(abilities):
            self.bad("D41 targets", f"TARGET has context {ctx}, not (effect, stage 0-1) of {self.name(u[1])}")
            return
        e, stage = ctx
        t = abilities[e].target
        if t not in CHOSEN_TARGETS:
            self.bad(
                "D41 targets", f"TARGET asks for effect {e} of {self.name(u[1])}, whose target is not chosen"
            )
            return
        targets = u[3]
        if stage == 0 and len(targets) != e:
            self.bad(
                "D41 targets",
                f"TARGET asks for effect {e} with {len(targets)} targets already chosen (printed order)",
            )
        if stage == 1 and (
            len(targets) != e + 1
            or t not in (Target.OWN_PART, Target.ATTACHED_PART)
            or not self.medarot_ok(p, targets[e][0])
        ):
            self.bad(
                "D41 targets",
                f"TARGET asks for the part of effect {e} with no medarot of player {p} chosen for it",
            )

    def agenda_rules(self) -> None:
        st = self.st
        for t in st.agenda:
            if t[0] in _BATTLE_TASKS and st.battle is None:
                self.bad("5 agenda", f"the step {t[0]!r} is scheduled with no battle under way")
            if t[0] in _USE_TASKS and st.use is None:
                self.bad("5 agenda", f"the step {t[0]!r} is scheduled with no use under way")

    def values(self) -> None:
        """I6: current power and charge (head and arms) and mobility in 0..9 (D39)."""
        st = self.st
        for p, m, s, _ in self.parts():
            vals = [mobility(st, p, m)] if s == LEGS else [power(st, p, m, s), charge(st, p, m, s)]
            if not all(0 <= v <= MAX_VALUE for v in vals):
                self.bad(
                    "I6 values",
                    f"{self.part_words(p, m, s)} has current values {vals}, not in 0..{MAX_VALUE} (D39)",
                )

    # ------------------------------------------------------------------ stage 3: the options
    def options(self) -> None:
        st = self.st
        if st.done or st.decision_point is None:
            return
        kind, player, ctx = st.decision_point
        try:
            legal = AGENDA.legal[kind](st, ctx)
        except (AssertionError, IndexError, KeyError, TypeError, ValueError, AttributeError) as exc:
            self.bad("I9 decision point", f"the options of {st.decision} cannot be worked out: {exc!r}")
            return
        if not legal:
            self.bad("I9 decision point", f"{st.decision} of player {player} offers no option")
        elif len(legal) == 1:
            self.bad(
                "D37 forced decisions",
                f"{st.decision} of player {player} offers one option, {legal[0]}, which the engine plays itself",
            )
        if len(set(legal)) != len(legal):
            self.bad("I9 decision point", f"{st.decision} offers the same option twice: {legal}")

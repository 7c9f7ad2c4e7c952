"""Card model, card-pool loading and deck validation (spec sections 4.2-4.4, D2, D3).

Card pools are TOML files (``cards/*.toml``) of ``[[card]]`` tables; decks are TOML files
(``decks/*.toml``) holding a starter set and a 40-card deck. Everything is validated at load
time: an unknown field, a missing field, a value out of range, an effect outside the closed
vocabulary of section 4.3, an unknown card id, a wrong deck size or too many copies raises
``CardDataError`` / ``DeckError`` naming the file, the card and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from deckgym.envs.core import cards as core_cards
from deckgym.envs.core.cards import DeckList, Field, check_record, deck_from_value, load_deck_file
from deckgym.envs.core.errors import CardDataError, DeckError, raise_deck_problems
from deckgym.envs.medarot_parts import ops
from deckgym.envs.medarot_parts.config import RulesConfig

CARDS_DIR: Final = core_cards.package_dir(__name__) / "cards"
DECKS_DIR: Final = core_cards.package_dir(__name__) / "decks"

TYPES: Final[tuple[str, ...]] = ("PART", "MEDAL", "ENERGY", "MEDAROTER", "EVADE", "EFFECT")
PART, MEDAL, ENERGY, MEDAROTER, EVADE, EFFECT = TYPES
SLOTS: Final[tuple[str, ...]] = ("HEAD", "RIGHT_ARM", "LEFT_ARM", "LEGS")
HEAD, RIGHT_ARM, LEFT_ARM, LEGS = range(4)
ACTIONS: Final[tuple[str, ...]] = ("SHOOT", "AIMED", "PUNCH", "RECKLESS", "PROTECT", "REPAIR", "SUPPORT")
SHOOT, AIMED, PUNCH, RECKLESS, PROTECT, REPAIR, SUPPORT = range(7)
#: Attack actions: the shooting line and the melee line (R2).
ATTACK_ACTIONS: Final = frozenset({SHOOT, AIMED, PUNCH, RECKLESS})
ENERGY_KINDS: Final[tuple[str, ...]] = ("SHOOT", "MELEE", "DEFENSE", "SUPPORT")
E_SHOOT, E_MELEE, E_DEFENSE, E_SUPPORT = range(4)
#: Energy kind that pays each action efficiently (D19); medaroter cards use support energy.
EFFICIENT_KIND: Final = (E_SHOOT, E_SHOOT, E_MELEE, E_MELEE, E_DEFENSE, E_DEFENSE, E_SUPPORT)
DURATIONS: Final[tuple[str, ...]] = ("INSTANT", "BATTLE", "TURN", "ATTACHED")
INSTANT, BATTLE, TURN, ATTACHED = range(4)
CONDITIONS: Final[tuple[str, ...]] = ("IF_MEDAL_MATCH",)
# The effect vocabulary (selectors, timings, primitives) is declared in ``ops``; the rest of
# the ruleset knows it by these names.
TIMINGS: Final = ops.TIMINGS
SOURCES: Final = ops.SOURCES
OPS: Final = ops.OPS
Target = ops.Target
#: Targets that need a decision of the effect's user (DP12, DP15).
CHOSEN_TARGETS: Final = ops.CHOSEN_TARGETS


@dataclass(frozen=True)
class Ability:
    """One effect primitive with its source or timing (section 4.3).

    Attributes:
        source: STATIC / ON_USE / EFFECT for part abilities, the card timing for medaroter cards.
        op: primitive name (``OPS``).
        amount: signed amount (0 for NO_EVADE).
        target: who it applies to.
        slot: the slot of an OPP_SLOT target (-1 otherwise).
        condition: "IF_MEDAL_MATCH" or "" (STATIC only).
    """

    source: str
    op: str
    amount: int
    target: Target
    slot: int = -1
    condition: str = ""

    def describe(self) -> str:
        """The compact form for tools and card files, e.g. ``POWER -2 OPP_SLOT(RIGHT_ARM)``."""
        amt = f" {self.amount:+d}" if self.op != "NO_EVADE" else ""
        tgt = f"OPP_SLOT({SLOTS[self.slot]})" if self.target == Target.OPP_SLOT else self.target.name
        cond = f" {self.condition}" if self.condition else ""
        return f"{self.op}{amt} {tgt}{cond}"

    def text(self) -> str:
        """The effect as plain English, e.g. "gives -2 power to the right arm of an opposing medarot"."""
        n = self.amount
        if self.op in ("POWER", "CHARGE"):
            what = f"{n:+d} {self.op.lower()}"
            if self.target == Target.OPP_SLOT:
                out = f"gives {what} to the {SLOT_WORDS[self.slot]} of an opposing medarot"
            else:
                out = f"gives {what} to {_TARGET_WORDS.get(self.target, 'its target')}"
        elif self.op == "DAMAGE":
            out = f"reduces the battle's damage by {-n}" if n < 0 else f"adds {n} to the battle's damage"
        elif self.op == "REPAIR":
            out = f"removes up to {n} damage counter{_s(n)} from a damaged part of one of your medarots"
        elif self.op == "DRAW":
            out = f"lets you draw {n} card{_s(n)}"
        elif self.op == "UNTAP_ENERGY":
            out = f"untaps up to {n} of your tapped energy cards"
        elif self.op == "NO_EVADE":
            out = "stops the defender from evading this attack"
        else:  # an op of a newer card file: still words, never the code
            out = f"{self.op.lower().replace('_', ' ')} {n:+d}"
        if self.condition == "IF_MEDAL_MATCH":
            out += " while its medal has the part's attribute"
        return out

    def sentence(self) -> str:
        """``text`` with the part ability's timing in words ("When used: ..."); a card effect has none."""
        lead = _SOURCE_WORDS.get(self.source)
        return f"{lead}: {self.text()}" if lead else self.text()


@dataclass(frozen=True)
class CardDef:
    """A card definition; fields that do not apply to the card's type are 0 / -1 / empty.

    ``index`` is the card's row in the encoder's table (1..n; 0 means no card).
    """

    id: str
    name: str
    type: str
    index: int
    slot: int = -1
    action: int = -1
    attribute: int = -1
    armor: int = 0
    charge: int = 0
    power: int = 0
    mobility: int = 0
    price: int = 0
    effect_part: bool = False
    abilities: tuple[Ability, ...] = ()
    efficient: int = 0
    kind: int = -1
    timing: str = ""
    cost: int = 0
    duration: int = -1
    #: The STATIC abilities summed once: (power always, power if the medal matches, charge
    #: always, charge if the medal matches); ``rules.values`` reads it on every current value.
    statics: tuple[int, int, int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sums = [0, 0, 0, 0]
        for ab in self.abilities:
            if ab.source == "STATIC" and ab.op in ("POWER", "CHARGE"):
                sums[(2 if ab.op == "CHARGE" else 0) + (1 if ab.condition else 0)] += ab.amount
        object.__setattr__(self, "statics", tuple(sums))

    def describe(self) -> str:
        """The card in one line of plain English: its kind, its numbers and its effects."""
        name = self.name
        if self.type == PART:
            where = f"{SLOT_WORDS[self.slot]} part"
            if self.slot == LEGS:
                stats = f"mobility {self.mobility}, armor {self.armor}"
            else:
                act = ACTION_WORDS[self.action]
                stats = f"{act}, charge {self.charge}, power {self.power}, armor {self.armor}"
            out = f"{name}: {where}, {stats}, attribute {self.attribute}, price {self.price} G."
            if self.effect_part:
                out += " Melee effect part."
            for a in self.abilities:
                words = a.sentence()
                out += f" {words[:1].upper()}{words[1:]}."
            return out
        if self.type == MEDAL:
            ep = 2 * self.efficient
            return (
                f"{name}: medal of attribute {self.attribute}. Tap it to pay {ep} EP toward the charge of"
                f" one of its medarot's parts of attribute {self.attribute}."
            )
        if self.type == ENERGY:
            pays = ENERGY_PAYS[self.kind]
            return (
                f"{name}: energy card. Tapped in the energy stock it pays 2 EP toward {pays}, 1 EP toward"
                " anything else (a charge of 1 costs 2 EP)."
            )
        if self.type == MEDAROTER:
            effs = " and ".join(a.text() for a in self.abilities)
            last = DURATION_WORDS[self.duration]
            return (
                f"{name}: medaroter card, played {TIMING_WORDS.get(self.timing, self.timing.lower())},"
                f" cost {self.cost}. It {effs}{'; ' + last if last else ''}."
            )
        if self.type == EVADE:
            return (
                f"{name}: evade card. When your defending medarot's legs are untapped, discard it and tap"
                " the legs: the attack's damage becomes 0."
            )
        if self.type == EFFECT:
            return (
                f"{name}: effect card. After a melee effect part deals damage, attach it to that part to"
                " turn the part's effect on."
            )
        return f"{name}: {self.type.lower()} card."


def _s(n: int) -> str:
    return "" if n == 1 else "s"


#: Words for people: slots, actions, energy kinds, timings and durations (no codes in text).
SLOT_WORDS: Final[tuple[str, ...]] = ("head", "right arm", "left arm", "legs")
ACTION_WORDS: Final[tuple[str, ...]] = (
    "shoot",
    "aimed shot",
    "punch",
    "reckless",
    "protect",
    "repair",
    "support",
)
ENERGY_WORDS: Final[tuple[str, ...]] = ("shooting", "melee", "defense", "support")
#: What each energy kind pays efficiently (D19).
ENERGY_PAYS: Final[tuple[str, ...]] = (
    "shoot and aimed-shot charges",
    "punch and reckless charges",
    "protect and repair charges",
    "support charges and medaroter card costs",
)
TIMING_WORDS: Final = {
    "ACTION": "on your turn to act",
    "POWER": "in a battle's power step",
    "DEFENSE": "by the defender before it responds",
}
DURATION_WORDS: Final[tuple[str, ...]] = (
    "",
    "lasts until the battle ends",
    "lasts until the end of the turn",
    "stays on the part",
)
_SOURCE_WORDS: Final = {"STATIC": "always", "ON_USE": "when used", "EFFECT": "with an effect card attached"}
_TARGET_WORDS: Final = {
    Target.SELF: "this part",
    Target.PLAYER: "you",
    Target.ATTACK_PART: "the attack part",
    Target.ATTACHED_PART: "the part it is attached to",
    Target.OWN_MEDAROT: "the head and arms of one of your medarots",
    Target.OWN_PART: "a part of one of your medarots",
    Target.BATTLE: "the battle",
}


# ----------------------------------------------------------------------------- schemas
def _hundreds(v: int) -> str | None:
    return None if v % 100 == 0 else "must be a multiple of 100"


_COMMON: Final = {"id": Field(str), "name": Field(str), "type": Field(str, choices=TYPES)}
_PART: Final = {
    **_COMMON,
    "slot": Field(str, choices=SLOTS),
    "attribute": Field(int, lo=0, hi=3),
    "armor": Field(int, lo=1, hi=9),
    "price": Field(int, lo=0, hi=3000, check=_hundreds),
    "action": Field(str, choices=ACTIONS, required=False),
    "charge": Field(int, lo=0, hi=9, required=False),
    "power": Field(int, lo=0, hi=9, required=False),
    "mobility": Field(int, lo=1, hi=9, required=False),
    "effect_part": Field(bool, required=False),
    "abilities": Field(list, required=False),
}
_MEDAL: Final = {**_COMMON, "attribute": Field(int, lo=0, hi=3), "efficient": Field(int, lo=1, hi=2)}
_ENERGY: Final = {**_COMMON, "kind": Field(str, choices=ENERGY_KINDS)}
_MEDAROTER: Final = {
    **_COMMON,
    "timing": Field(str, choices=TIMINGS),
    "cost": Field(int, lo=0, hi=5),
    "duration": Field(str, choices=DURATIONS),
    "effects": Field(list),
}
_PLAIN: Final = dict(_COMMON)
_SCHEMAS: Final = {
    PART: _PART,
    MEDAL: _MEDAL,
    ENERGY: _ENERGY,
    MEDAROTER: _MEDAROTER,
    EVADE: _PLAIN,
    EFFECT: _PLAIN,
}
_ABILITY: Final = {
    "source": Field(str, choices=SOURCES),
    "op": Field(str),
    "amount": Field(int, required=False),
    "target": Field(str, choices=[t.name for t in Target]),
    "slot": Field(str, choices=SLOTS, required=False),
    "condition": Field(str, choices=CONDITIONS, required=False),
}
_CARD_EFFECT: Final = {k: v for k, v in _ABILITY.items() if k not in ("source", "condition")}

#: Which (source or timing) may use which op on which target (section 4.3, "Sources and timings").
_ATTACK_ON_USE: Final = {("NO_EVADE", Target.BATTLE), ("POWER", Target.SELF)}
_SUPPORT_ON_USE: Final = {
    ("POWER", Target.OWN_MEDAROT),
    ("POWER", Target.OPP_SLOT),
    ("CHARGE", Target.OWN_MEDAROT),
    ("CHARGE", Target.OPP_SLOT),
    ("REPAIR", Target.OWN_PART),
    ("DRAW", Target.PLAYER),
    ("UNTAP_ENERGY", Target.PLAYER),
}
_STATIC: Final = {("POWER", Target.SELF), ("CHARGE", Target.SELF)}
_EFFECT_ABILITY: Final = {("POWER", Target.OPP_SLOT), ("CHARGE", Target.OPP_SLOT), ("POWER", Target.SELF)}


def _check_effect(raw: Any, schema: Mapping[str, Field], timing: str, file: str, cid: str) -> Ability:
    """Validate one effect record against the op registry; return the ``Ability``."""
    check_record(raw, schema, file, cid, what="effect field")
    target = ops.Target[raw["target"]]
    op = raw["op"]
    amount = raw.get("amount")
    ops.OPS_REGISTRY.validate(op, amount, target, timing, file, cid)
    if op == "DAMAGE" and amount is not None and amount > 0:
        raise CardDataError(file, cid, f"op DAMAGE amount must be negative (-3..-1), got {amount}")
    has_slot = "slot" in raw
    if (target == Target.OPP_SLOT) != has_slot:
        raise CardDataError(file, cid, "effect field 'slot' is required for target OPP_SLOT and only there")
    slot = SLOTS.index(raw["slot"]) if has_slot else -1
    if slot == LEGS:
        raise CardDataError(file, cid, "OPP_SLOT(LEGS) has no power or charge to modify")
    source = raw.get("source", timing)
    return Ability(source, op, int(amount or 0), target, slot, raw.get("condition", ""))


def _parse_part(raw: Mapping[str, Any], index: int, file: str, cid: str) -> CardDef:
    check_record(raw, _PART, file, cid)
    slot = SLOTS.index(raw["slot"])
    legs = slot == LEGS
    for key in ("action", "charge", "power"):
        if (key in raw) == legs:
            rule = "a LEGS part has no" if legs else "a head or arm part needs a"
            raise CardDataError(file, cid, f"{rule} field {key!r} (4.2)")
    if ("mobility" in raw) != legs:
        raise CardDataError(file, cid, "field 'mobility' is required on LEGS parts and only there (4.2)")
    action = ACTIONS.index(raw["action"]) if not legs else -1
    effect_part = bool(raw.get("effect_part", False))
    if effect_part and action not in (PUNCH, RECKLESS):
        raise CardDataError(file, cid, "effect_part is only allowed on PUNCH or RECKLESS parts (4.2, R23)")
    if action == PROTECT and raw["power"] < raw["charge"]:
        raise CardDataError(file, cid, "a PROTECT part needs power >= charge (4.2, D25)")
    abilities = _parse_abilities(raw.get("abilities", []), action, effect_part, legs, file, cid)
    return CardDef(
        cid,
        raw["name"],
        PART,
        index,
        slot=slot,
        action=action,
        attribute=raw["attribute"],
        armor=raw["armor"],
        charge=raw.get("charge", 0),
        power=raw.get("power", 0),
        mobility=raw.get("mobility", 0),
        price=raw["price"],
        effect_part=effect_part,
        abilities=abilities,
    )


def _parse_abilities(
    raws: list[Any], action: int, effect_part: bool, legs: bool, file: str, cid: str
) -> tuple[Ability, ...]:
    """Part abilities (4.2): 0..2 records whose source, op and target fit the part."""
    if len(raws) > 2:
        raise CardDataError(file, cid, f"a part has at most 2 abilities, got {len(raws)} (4.2)")
    if legs and raws:
        raise CardDataError(file, cid, "LEGS parts have no abilities (no primitive modifies mobility)")
    out = []
    for raw in raws:
        source = raw.get("source") if isinstance(raw, Mapping) else None
        ab = _check_effect(raw, _ABILITY, str(source), file, cid)
        pair = (ab.op, ab.target)
        if ab.condition and ab.source != "STATIC":
            raise CardDataError(file, cid, "condition IF_MEDAL_MATCH is only allowed on STATIC abilities")
        if ab.source == "STATIC":
            allowed = _STATIC
        elif ab.source == "EFFECT":
            allowed = _EFFECT_ABILITY
        elif action in ATTACK_ACTIONS:
            allowed = _ATTACK_ON_USE
        elif action == SUPPORT:
            allowed = _SUPPORT_ON_USE
        else:
            allowed = set()
        if pair not in allowed:
            raise CardDataError(
                file,
                cid,
                f"{ab.source} ability {ab.op} on {ab.target.name} is not allowed on this part (4.3)",
            )
        out.append(ab)
    n_effect = sum(1 for a in out if a.source == "EFFECT")
    if n_effect != (1 if effect_part else 0):
        raise CardDataError(
            file, cid, "an effect part has exactly one EFFECT ability, other parts none (R23)"
        )
    if action == SUPPORT and not any(a.source == "ON_USE" for a in out):
        raise CardDataError(file, cid, "a SUPPORT part needs at least one ON_USE ability (D30)")
    return tuple(out)


def _parse_medaroter(raw: Mapping[str, Any], index: int, file: str, cid: str) -> CardDef:
    check_record(raw, _MEDAROTER, file, cid)
    timing = raw["timing"]
    effs = raw["effects"]
    if not 1 <= len(effs) <= 2:
        raise CardDataError(file, cid, f"a medaroter card has 1 or 2 effects, got {len(effs)} (4.2)")
    abilities = tuple(_check_effect(e, _CARD_EFFECT, timing, file, cid) for e in effs)
    duration = DURATIONS.index(raw["duration"])
    mods = [a for a in abilities if a.op in ("POWER", "CHARGE")]
    if timing == "ACTION" and any(a.target == Target.ATTACK_PART for a in abilities):
        raise CardDataError(file, cid, "an ACTION card cannot target ATTACK_PART (4.3)")
    if mods and timing == "ACTION" and duration not in (TURN, ATTACHED):
        raise CardDataError(file, cid, "an ACTION card with POWER/CHARGE lasts TURN or ATTACHED (4.3)")
    if mods and timing == "POWER" and duration != BATTLE:
        raise CardDataError(file, cid, "a POWER card with POWER lasts BATTLE (4.3)")
    if not mods and duration in (TURN, ATTACHED):
        raise CardDataError(file, cid, "only POWER/CHARGE cards last TURN or ATTACHED (4.3)")
    if (duration == ATTACHED) != any(a.target == Target.ATTACHED_PART for a in abilities):
        raise CardDataError(file, cid, "an ATTACHED card uses the ATTACHED_PART target, and only it (D42)")
    if duration == ATTACHED and any(a.target != Target.ATTACHED_PART for a in abilities):
        raise CardDataError(file, cid, "every effect of an ATTACHED card targets ATTACHED_PART (D42)")
    return CardDef(
        cid,
        raw["name"],
        MEDAROTER,
        index,
        abilities=abilities,
        timing=timing,
        cost=raw["cost"],
        duration=duration,
    )


def _parse_card(raw: Any, index: int, file: str) -> CardDef:
    cid = raw.get("id") if isinstance(raw, Mapping) else None
    label = cid if isinstance(cid, str) else f"#{index}"
    ctype = raw.get("type") if isinstance(raw, Mapping) else None
    if ctype not in TYPES:
        raise CardDataError(file, label, f"field 'type' = {ctype!r} is not one of {', '.join(TYPES)}")
    if ctype == PART:
        return _parse_part(raw, index, file, label)
    if ctype == MEDAROTER:
        return _parse_medaroter(raw, index, file, label)
    check_record(raw, _SCHEMAS[ctype], file, label)
    if ctype == MEDAL:
        return CardDef(
            label, raw["name"], MEDAL, index, attribute=raw["attribute"], efficient=raw["efficient"]
        )
    if ctype == ENERGY:
        return CardDef(label, raw["name"], ENERGY, index, kind=ENERGY_KINDS.index(raw["kind"]))
    return CardDef(label, raw["name"], ctype, index)


class CardPool(core_cards.CardPool[CardDef]):
    """An immutable, validated set of card definitions, indexed 1..n (0 means no card)."""


def _build_pool(sources: tuple[core_cards.PoolSource, ...]) -> CardPool:
    """The validated pool of ``sources``."""
    pool = core_cards.PoolBuilder[CardDef]()
    pool.read(sources, _parse_card)
    return CardPool(pool.cards, [src.label for src in sources], sources)


load_pool = core_cards.PoolLoader(CARDS_DIR, _build_pool)


# ----------------------------------------------------------------------------- decks
@dataclass(frozen=True)
class Starter:
    """A starter set (D2): per medarot, its medal then its head, right arm, left arm and legs."""

    medarots: tuple[tuple[str, ...], tuple[str, ...]]

    def cards(self) -> list[str]:
        """All 10 card ids."""
        return [c for m in self.medarots for c in m]


@dataclass(frozen=True)
class Deck:
    """A player's material: a starter set and a 40-card deck."""

    name: str
    starter: Starter
    deck: DeckList

    def to_list(self) -> list[list[str]]:
        """JSON form: the two starter medarots, then the expanded deck."""
        return [list(self.starter.medarots[0]), list(self.starter.medarots[1]), self.deck.expand()]


_STARTER: Final = {"medarot1": Field(list), "medarot2": Field(list)}
#: Deck-file keys of this ruleset beyond the shared ones: the ``[starter]`` table (D2).
_DECK_KEYS: Final = {"starter": Field(dict, schema=_STARTER)}


def deck_names() -> list[str]:
    """Names (file stems) of the decks that ship with the package."""
    return core_cards.packaged_decks(DECKS_DIR)


def load_deck(path: str | Path, pool: CardPool, config: RulesConfig) -> Deck:
    """Read and validate a deck file (``name``, ``[starter]``, ``[cards] ID = count``)."""
    cards = load_deck_file(path, _DECK_KEYS)
    starter = cards.extra["starter"]
    return make_deck((starter["medarot1"], starter["medarot2"]), cards, pool, config)


def resolve_deck(value: Any, pool: CardPool, config: RulesConfig, label: str = "deck") -> Deck:
    """A deck from a deck name, a deck file path, a ``Deck`` or a ``{"starter": ..., "cards": ...}`` mapping."""
    if isinstance(value, Deck):
        validate_deck(value, pool, config)
        return value
    if isinstance(value, (str, Path)):
        return load_deck(core_cards.deck_path(value, DECKS_DIR, "deck"), pool, config)
    if isinstance(value, Mapping) and set(value) == {"starter", "cards"}:
        starter = value["starter"]
        return make_deck(tuple(starter), deck_from_value(value["cards"], label), pool, config)
    if _is_state_form(value):  # ``[starter 1, starter 2, cards]`` as ``GameState.to_dict`` writes it
        return make_deck((value[0], value[1]), deck_from_value(value[2], label), pool, config)
    raise DeckError(
        label,
        None,
        "a deck is a deck name, a file path, {'starter': [[5 ids], [5 ids]], 'cards': ...} "
        "or [[5 ids], [5 ids], [card ids]]",
    )


def _is_state_form(value: Any) -> bool:
    return (
        isinstance(value, (list, tuple))
        and len(value) == 3
        and all(isinstance(v, (list, tuple)) for v in value)
        and len(value[0]) == len(value[1]) == 5
    )


def make_deck(starter: Sequence[Any], cards: DeckList, pool: CardPool, config: RulesConfig) -> Deck:
    """Build and validate a ``Deck`` from two 5-card starter lists and a deck list."""
    name = cards.source or cards.name
    if len(starter) != 2 or any(not isinstance(m, (list, tuple)) or len(m) != 5 for m in starter):
        raise DeckError(
            name,
            None,
            "a starter set is 2 medarots of 5 card ids: medal, head, right arm, left arm, legs (D2)",
        )
    deck = Deck(cards.name, Starter((tuple(starter[0]), tuple(starter[1]))), cards)
    validate_deck(deck, pool, config)
    return deck


def validate_deck(deck: Deck, pool: CardPool, config: RulesConfig) -> None:
    """Check the starter set and deck rules (D2, D3); raise ``DeckError`` naming the rule.

    The error is the first problem; its ``problems`` list every one.
    """
    name = deck.deck.source or deck.deck.name
    problems: list[DeckError] = []
    price = 0
    priced = True
    for medarot in deck.starter.medarots:
        for pos, cid in enumerate(medarot):
            if cid not in pool:
                problems.append(
                    DeckError(name, cid, f"unknown card id in the starter set (pool {', '.join(pool.files)})")
                )
                priced = False
                continue
            card = pool[cid]
            if pos == 0 and card.type != MEDAL:
                problems.append(
                    DeckError(name, cid, "the first card of a starter medarot must be a medal (D2)")
                )
            if pos > 0 and (card.type != PART or card.slot != pos - 1):
                problems.append(
                    DeckError(name, cid, f"starter position {pos} needs a {SLOTS[pos - 1]} part (D2)")
                )
            price += card.price
    if priced and price > config.start_assets:
        problems.append(
            DeckError(name, None, f"starter parts cost {price} G, more than {config.start_assets} G (D3)")
        )
    total = sum(n for _, n in deck.deck.cards)
    per_name: dict[str, int] = {}
    for cid, n, card in pool.listed(deck.deck.cards, name, problems):
        if card.type == MEDAL:
            problems.append(DeckError(name, cid, "medal cards cannot be in the deck (D2)"))
        elif card.type != ENERGY:
            per_name[card.name] = per_name.get(card.name, 0) + n
            if per_name[card.name] > config.max_copies >= per_name[card.name] - n:  # once, where it passes
                problems.append(
                    DeckError(
                        name,
                        cid,
                        f"{per_name[card.name]} copies of {card.name!r}; at most {config.max_copies} (D2)",
                    )
                )
    if total != config.deck_size:
        problems.append(DeckError(name, None, f"{total} cards; a deck has exactly {config.deck_size} (D2)"))
    raise_deck_problems(problems)

"""Card model, card-pool loading and deck validation (spec sections 4.3-4.5, D42).

Card pools are TOML files (``cards/*.toml``); every record is validated when the pool is
loaded, so a bad file fails at once with an error naming the file, the card and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from deckgym.envs.core import cards as core_cards
from deckgym.envs.core.cards import DeckList, Field, check_record, deck_from_value, load_deck_file
from deckgym.envs.core.errors import CardDataError, DeckError, raise_deck_problems
from deckgym.envs.core.targets import ATTACK_TARGETS, Target, parse_target
from deckgym.envs.medarot_ocg.config import RulesConfig
from deckgym.envs.medarot_ocg.ops import LASTING_OPS, MOD_OPS, OPS

MEDAROT, MEDAROTER, MEDACHANGE = "MEDAROT", "MEDAROTER", "MEDACHANGE"
KINDS: Final = (MEDAROT, MEDAROTER, MEDACHANGE)
TYPES: Final[tuple[str, ...]] = ("SHOOTING", "MELEE", "SPECIAL")
SHOOTING, MELEE, SPECIAL = TYPES
#: Owner-relative directions (D7): 0 F, 1 FR, 2 R, 3 BR, 4 B, 5 BL, 6 L, 7 FL.
DIRECTIONS: Final[tuple[str, ...]] = ("F", "FR", "R", "BR", "B", "BL", "L", "FL")
#: The same directions in words, as the Medarot's owner sees them (forward = toward the enemy).
DIRECTION_WORDS: Final[tuple[str, ...]] = (
    "forward",
    "forward-right",
    "right",
    "back-right",
    "back",
    "back-left",
    "left",
    "forward-left",
)
UNIT_TIMINGS: Final[tuple[str, ...]] = ("ON_ACTIVATE", "ON_HIT")
CARD_TIMINGS: Final[tuple[str, ...]] = ("ACTION", "DEFENCE", "TRIGGER")
TRASH_TIMINGS: Final[tuple[str, ...]] = ("AFTER_USE", "AFTER_DEFENCE", "END_OF_TURN")
TYPE_FILTERS: Final = ("ANY",) + TYPES

CARDS_DIR: Final = core_cards.package_dir(__name__) / "cards"
DECKS_DIR: Final = core_cards.package_dir(__name__) / "decks"


@dataclass(frozen=True)
class Effect:
    """One effect record: (timing, primitive, amount, target, type_filter, cost, trash_timing)."""

    timing: str
    op: str
    amount: int
    target: Target
    type_filter: str = "ANY"
    cost: int = 0
    trash: str = ""

    def describe(self) -> str:
        """The effect as an English sentence, e.g. ``Action: the acting Medarot gets +10 power ...``."""
        return effect_text(self)


@dataclass(frozen=True)
class CardDef:
    """A card definition. Medarot stat fields are zero on Medaroters."""

    id: str
    name: str
    kind: str
    index: int
    speed: int = 0
    cost: int = 0
    type: str = ""
    power: int = 0
    armor: int = 0
    arrows: int = 0
    n_arrows: int = 0
    power_form: bool = False
    hp_mod: int = 0
    effects: tuple[Effect, ...] = ()

    def describe(self) -> str:
        """One line for humans and logs."""
        if self.kind == MEDAROTER:
            eff = "; ".join(e.describe() for e in self.effects)
            return f"{self.name} [{self.id} Medaroter hp{self.hp_mod:+d}: {eff}]"
        arrows = ",".join(d for i, d in enumerate(DIRECTIONS) if self.arrows >> i & 1)
        tag = "MedaChange" if self.kind == MEDACHANGE else "Medarot"
        form = " power-form" if self.power_form else ""
        eff = f" {self.effects[0].describe()}" if self.effects else ""
        return (
            f"{self.name} [{self.id} {tag} {self.type} spd {self.speed} cost {self.cost} "
            f"pow {self.power} arm {self.armor} arrows {arrows}{form}{eff}]"
        )


# ----------------------------------------------------------------------------- effect text
#: The timing of an effect, in words (section 4.4).
TIMING_WORDS: Final = {
    "ON_ACTIVATE": "Special",
    "ON_HIT": "On hit",
    "ACTION": "Action",
    "DEFENCE": "Defence",
    "TRIGGER": "Trigger (from the stock only)",
}
#: How long a Medaroter effect lasts, by its trash timing (D26).
TRASH_WORDS: Final = {
    "AFTER_USE": "until the end of this action",
    "AFTER_DEFENCE": "until the end of this attack",
    "END_OF_TURN": "until the end of the turn",
}
#: Who a unit selector picks, and whether that is several Medarots.
_TARGET_WORDS: Final = {
    Target.SELF: ("this Medarot", False),
    Target.ACTING: ("the acting Medarot", False),
    Target.ATTACKED: ("the attacked Medarot", False),
    Target.ATTACKER: ("the attacker", False),
    Target.ONE_ALLY: ("one of your Medarots (you choose)", False),
    Target.ONE_ENEMY: ("one enemy Medarot (you choose)", False),
    Target.ALL_ALLIES: ("all your Medarots", True),
    Target.ALL_ENEMIES: ("all enemy Medarots", True),
    Target.OWNER: ("you", True),
    Target.OPPONENT: ("the opponent", False),
}
_STAT_WORDS: Final = {"MOD_POWER": "power", "MOD_ARMOR": "armor", "MOD_SPEED": "speed"}
#: What an effect of these ops does: ``who`` it applies to, its amount ``n`` and ``cards``
#: ("card" or "cards") fill the gaps.
_OP_WORDS: Final = {
    "TRAP": "sets a trap: every enemy attack on your Medarots costs the attacker's owner {n} HP",
    "DRAW": "you draw up to {n} {cards}",
    "DISCARD": "the opponent discards {n} {cards} of their choice",
    "TRASH_STOCK": "trash one card of the opponent's stock (you choose)",
    "DISABLE": "{who} cannot act",
    "ROOT": "{who} cannot move",
    "CANCEL_PENALTY": "the acting Medarot pays no penalty for not moving this action",
    "FREE_FAR": "the acting Medarot's 2-square melee attack costs no HP this action",
}


def target_words(effect: Effect, medaroter: bool) -> tuple[str, bool]:
    """Who ``effect`` applies to, in words, and whether that is plural."""
    t = effect.target
    if t == Target.SELF and medaroter:
        return "your Medarot it is used for", False
    if t == Target.ONE_ENEMY and effect.timing == "ON_HIT":
        return "the attacked Medarot", False
    words, plural = _TARGET_WORDS[t]
    if effect.type_filter != "ANY":
        kind = effect.type_filter.lower()
        if plural:
            words = words.replace("Medarots", f"{kind} Medarots")
        else:
            words += f" (if {kind})"
    return words, plural


def effect_action(effect: Effect) -> str:
    """What the effect does, as a clause without its timing and cost ("the acting Medarot gets +10 power")."""
    op, n = effect.op, effect.amount
    medaroter = effect.timing in CARD_TIMINGS
    who, plural = target_words(effect, medaroter)
    get = "get" if plural else "gets"
    cards = "card" if abs(n) == 1 else "cards"
    if op in _STAT_WORDS:
        return f"{who} {get} {n:+d} {_STAT_WORDS[op]}"
    if op == "NEGATE":
        if effect.timing == "ACTION":
            return "stores a charge on this card that can negate one later attack on you"
        return "negates the attack"
    if op == "GUARD":
        guard = "guard" if plural else "guards"
        return f"{who} {guard}: an attack on a Medarot next to it may be turned onto it"
    if op == "GAIN_HP":
        return f"{'you gain' if effect.target == Target.OWNER else 'the opponent gains'} {n} HP"
    if op == "DAMAGE":
        return f"{'you pay' if effect.target == Target.OWNER else 'the opponent pays'} {n} HP"
    if op == "DOT":
        when = "the end of this turn" if effect.trash == "END_OF_TURN" else "every end of turn"
        return f"the opponent pays {n} HP at {when}"
    if op in _OP_WORDS:
        return _OP_WORDS[op].format(who=who, n=n, cards=cards)
    return op.replace("_", " ").lower()


def effect_text(effect: Effect) -> str:
    """The whole effect as one sentence: timing, cost, what it does and how long it lasts."""
    head = TIMING_WORDS.get(effect.timing, effect.timing.lower())
    if effect.cost:
        head += f", cost {effect.cost} HP"
    body = effect_action(effect)
    if effect.trash:
        lasting = effect.op in LASTING_OPS or (effect.op == "NEGATE" and effect.timing == "ACTION")
        if lasting and not (effect.op == "DOT" and effect.trash == "END_OF_TURN"):
            body += f" ({TRASH_WORDS[effect.trash]})"
    elif effect.op in LASTING_OPS:
        body += " (until this Medarot acts again)"
    return f"{head}: {body}."


def _tens(v: int) -> str | None:
    return None if v % 10 == 0 else "must be a multiple of 10"


def _arrows(v: Any) -> str | None:
    if not isinstance(v, list) or not v:
        return "must be a non-empty list of directions"
    bad = [d for d in v if d not in DIRECTIONS]
    if bad:
        return f"unknown direction(s) {bad}; use {' '.join(DIRECTIONS)}"
    if len(set(v)) != len(v):
        return "directions repeat"
    return None


_COMMON: Final = {"id": Field(str), "name": Field(str), "kind": Field(str, choices=KINDS)}
_UNIT: Final = {
    **_COMMON,
    "speed": Field(int, lo=1, hi=10),
    "cost": Field(int, lo=1, hi=5),
    "type": Field(str, choices=TYPES),
    "power": Field(int, lo=0, hi=90, check=_tens),
    "armor": Field(int, lo=10, hi=90, check=_tens),
    "arrows": Field(list, check=_arrows),
    "effect": Field(dict, required=False),
}
_CHANGE: Final = {**_UNIT, "cost": Field(int, lo=0, hi=5), "power_form": Field(bool)}
_MEDAROTER: Final = {**_COMMON, "hp_mod": Field(int, lo=-5, hi=5), "effects": Field(list)}
_UNIT_EFFECT: Final = {
    "timing": Field(str, choices=UNIT_TIMINGS),
    "op": Field(str),
    "amount": Field(int, required=False),
    "target": Field(str, choices=[t.name for t in Target]),
    "type_filter": Field(str, choices=TYPE_FILTERS, required=False),
}
_CARD_EFFECT: Final = {
    **_UNIT_EFFECT,
    "timing": Field(str, choices=CARD_TIMINGS),
    "cost": Field(int, lo=0, hi=3),
    "trash": Field(str, choices=TRASH_TIMINGS),
}
_CARD_ONLY_OPS: Final[tuple[str, ...]] = ("NEGATE", "CANCEL_PENALTY", "FREE_FAR")


def _parse_effect(raw: Any, schema: Mapping[str, Field], file: str, cid: str) -> Effect:
    check_record(raw, schema, file, cid, what="effect field")
    target = parse_target(raw["target"])
    op, timing = raw["op"], raw["timing"]
    OPS.validate(op, raw.get("amount"), target, timing, file, cid)
    if target in ATTACK_TARGETS and timing in ("ON_ACTIVATE", "ACTION") and op != "NEGATE":
        raise CardDataError(
            file, cid, f"target {target.name} does not exist at timing {timing} (no attack yet)"
        )
    flt = raw.get("type_filter", "ANY")
    if flt != "ANY" and op not in MOD_OPS:
        raise CardDataError(file, cid, f"type_filter {flt} is only allowed on {', '.join(MOD_OPS)}")
    if timing in UNIT_TIMINGS and op in _CARD_ONLY_OPS:
        raise CardDataError(file, cid, f"op {op} is a Medaroter-only op (spec 4.4)")
    trash = raw.get("trash", "")
    if op == "DOT" and trash and trash != "END_OF_TURN":
        raise CardDataError(
            file, cid, "a Medaroter DOT must have trash END_OF_TURN (it pays at end phase E1)"
        )
    return Effect(timing, op, int(raw.get("amount", 0)), target, flt, int(raw.get("cost", 0)), trash)


def _parse_card(raw: Any, index: int, file: str) -> CardDef:
    cid = raw.get("id") if isinstance(raw, Mapping) else None
    label = cid if isinstance(cid, str) else f"#{index}"
    if not isinstance(raw, Mapping) or raw.get("kind") not in KINDS:
        kind = raw.get("kind") if isinstance(raw, Mapping) else raw
        raise CardDataError(file, label, f"field 'kind' = {kind!r} is not one of {', '.join(KINDS)}")
    kind = raw["kind"]
    if kind == MEDAROTER:
        check_record(raw, _MEDAROTER, file, label)
        effs = raw["effects"]
        if not 1 <= len(effs) <= 2:
            raise CardDataError(file, label, f"a Medaroter has 1 or 2 effects, got {len(effs)}")
        effects = tuple(_parse_effect(e, _CARD_EFFECT, file, label) for e in effs)
        return CardDef(label, raw["name"], kind, index, hp_mod=raw["hp_mod"], effects=effects)
    check_record(raw, _CHANGE if kind == MEDACHANGE else _UNIT, file, label)
    if raw["type"] != SPECIAL and raw["power"] < 10:
        raise CardDataError(file, label, f"a {raw['type']} unit needs power >= 10")
    effect = raw.get("effect")
    if raw["type"] == SPECIAL and effect is None:
        raise CardDataError(file, label, "a SPECIAL unit needs an ON_ACTIVATE effect")
    effects = ()
    if effect is not None:
        eff = _parse_effect(effect, _UNIT_EFFECT, file, label)
        want = "ON_ACTIVATE" if raw["type"] == SPECIAL else "ON_HIT"
        if eff.timing != want:
            raise CardDataError(
                file, label, f"a {raw['type']} unit's effect has timing {want}, got {eff.timing}"
            )
        effects = (eff,)
    mask = 0
    for d in raw["arrows"]:
        mask |= 1 << DIRECTIONS.index(d)
    return CardDef(
        label,
        raw["name"],
        kind,
        index,
        raw["speed"],
        raw["cost"],
        raw["type"],
        raw["power"],
        raw["armor"],
        mask,
        len(raw["arrows"]),
        bool(raw.get("power_form", False)),
        0,
        effects,
    )


class CardPool(core_cards.CardPool[CardDef]):
    """An immutable, validated set of card definitions, indexed 1..n (0 means unknown)."""


def _build_pool(sources: tuple[core_cards.PoolSource, ...]) -> CardPool:
    """The validated pool of ``sources``."""
    pool = core_cards.PoolBuilder[CardDef](kind_of=lambda c: c.kind)
    pool.read(sources, _parse_card)
    unit_names = {c.name for c in pool.cards if c.kind == MEDAROT}
    for c in pool.cards:
        if c.kind == MEDACHANGE and c.name not in unit_names:
            raise CardDataError(
                pool.file_of[c.id], c.id, f"MedaChange {c.name!r} names no Medarot of the pool (R47)"
            )
    return CardPool(pool.cards, [src.label for src in sources], sources)


load_pool = core_cards.PoolLoader(CARDS_DIR, _build_pool)


def deck_names() -> list[str]:
    """Names (file stems) of the starter decks that ship with the package."""
    return core_cards.packaged_decks(DECKS_DIR)


#: Deck-file keys of this ruleset beyond the shared ones: the mode the deck is built for.
_DECK_KEYS: Final = {"mode": Field(str)}


def load_deck(path: str | Path) -> DeckList:
    """Read a deck file: the shared deck keys plus the ``mode`` it is built for."""
    return load_deck_file(path, _DECK_KEYS)


def starter_decks(mode: str) -> list[str]:
    """Starter deck names built for ``mode``."""
    return [n for n in deck_names() if load_deck(DECKS_DIR / f"{n}.toml").extra["mode"] == mode]


def resolve_deck(value: Any, pool: CardPool, config: RulesConfig, label: str = "deck") -> DeckList:
    """Turn a deck name, file path, mapping or list into a validated ``DeckList`` (D42)."""
    if isinstance(value, str):
        deck = load_deck(core_cards.deck_path(value, DECKS_DIR))
    else:
        deck = deck_from_value(value, label)
    validate_deck(deck, pool, config)
    return deck


def validate_deck(deck: DeckList, pool: CardPool, config: RulesConfig) -> None:
    """Check a deck against the mode's regulation (R1, R2, D42); raise ``DeckError`` naming the rule.

    The error is the first problem; its ``problems`` list every one.
    """
    name = deck.source or deck.name
    problems: list[DeckError] = []
    total = sum(n for _, n in deck.cards)
    per_name: dict[tuple[str, str], int] = {}
    units = 0
    for cid, n, card in pool.listed(deck.cards, name, problems):
        if card.kind == MEDACHANGE and not config.medachange:
            problems.append(
                DeckError(
                    name, cid, f"MedaChange cards are only legal in advance mode, not {config.mode} (D42)"
                )
            )
        key = (card.name, card.kind)
        per_name[key] = per_name.get(key, 0) + n
        if per_name[key] > 3 >= per_name[key] - n:  # reported once, where the count passes 3
            problems.append(
                DeckError(
                    name, cid, f"{per_name[key]} copies of {card.kind} {card.name!r}; at most 3 (R1, R2)"
                )
            )
        units += n if card.kind == MEDAROT else 0
    if total != config.deck_size:
        article = "an" if config.mode[:1] in "aeiou" else "a"
        problems.append(
            DeckError(
                name,
                None,
                f"{total} cards; {article} {config.mode} deck has exactly {config.deck_size} (R1, R2, D42)",
            )
        )
    if units == 0:
        problems.append(DeckError(name, None, "no Medarot card; a deck needs at least one (D42)"))
    raise_deck_problems(problems)

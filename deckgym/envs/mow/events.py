"""The structured events of Master of the World (``envs.core.events``): kinds, fields, privacy.

Every line of a MoW game's text log has a twin record ``{"kind": ..., <fields>}``. ``KINDS``
lists each kind's public fields in the order they are emitted, ``PRIVATE`` what a kind may hold
for one seat only (the cards a seat draws or finds in its deck, the spell it casts face down),
and ``DESCRIPTIONS`` says what each kind means. A card is named by its pool id (the ``"id"``
of the cards in ``envs.mow.view``); ``player`` is the seat that acts or owns what the event is
about. Triggered effects (廃棄時, up時, 攻撃時) are announced by a ``trigger`` event as each one
starts to resolve, so the order of the ``trigger`` events is the D26/D47 resolution order;
a chain entry that has resolved is a ``resolve`` event (the chain resolves top first).
"""

from __future__ import annotations

from typing import Final

#: Every kind MoW records -> its public field names, in the order they are emitted.
KINDS: Final[dict[str, tuple[str, ...]]] = {
    "reveal": ("player", "card"),
    "draw": ("player", "count", "deck"),
    "first_player": ("player",),
    "turn": ("turn", "player"),
    "charge": ("player", "card", "experience"),
    "level": ("player", "level"),
    "use": ("player", "use", "card", "source"),
    "ability": ("player", "card", "timing"),
    "pay_life": ("player", "amount", "life"),
    "pay_exp": ("player", "card"),
    "discard": ("player", "card", "cause"),
    "field_discard": ("player", "card", "zone"),
    "mill": ("player", "card"),
    "exp_gain": ("player", "card"),
    "exp_lose": ("player", "card"),
    "damage": ("player", "card", "zone", "amount", "life"),
    "heal": ("player", "card", "life"),
    "bounce": ("player", "card"),
    "search": ("player",),
    "recover": ("player", "card"),
    "negate": ("player", "target_player", "use"),
    "trigger": ("player", "card", "timing", "level"),
    "resolve": ("player", "card", "use", "negated"),
    "attack": ("player", "attacker", "target_player", "target"),
    "engage": ("player", "attacker", "target", "to_target", "to_attacker"),
    "no_engagement": ("player",),
    "proxy_hit": ("player", "attacker", "proxy", "hit", "life"),
    "auto": ("player", "decision", "action"),
    "end": ("winner", "reason"),
}

#: Kind -> the fields it may hold for one seat only (``only``).
PRIVATE: Final[dict[str, tuple[str, ...]]] = {
    "draw": ("cards",),
    "search": ("cards",),
    "use": ("card",),
}

#: The fields that hold card ids (a master's id for a master).
CARD_FIELDS: Final[tuple[str, ...]] = ("card", "cards", "attacker", "target")

#: Kinds whose public cards may be out of every seat's view before and after the step: none.
#: Every card a MoW event names publicly is on the field, in a discard or experience pile, a
#: master, or the used card (set aside, on the field or in the chain area) once the step ends;
#: a face-down cast names no card publicly and a search names its card only to the searcher.
REVEALS: Final[frozenset[str]] = frozenset()

#: Kind -> what it means and what its fields are (for the docs page).
DESCRIPTIONS: Final[dict[str, str]] = {
    "reveal": "setup: `player` reveals its master `card` (R4).",
    "draw": (
        "`player` draws `count` cards (the opening hand, the draw phase or a DRAW effect); `deck` "
        "is the deck size after it; the drawer alone sees the drawn `cards`."
    ),
    "first_player": "setup: `player` goes first (D1).",
    "turn": "turn `turn` starts; `player` is the active player.",
    "charge": "`player` charges hand card `card` onto its experience pile, now `experience` cards (D7).",
    "level": "`player`'s master is now level `level` (D9).",
    "use": (
        "`player` uses a card: `use` is summon, equip, cast (face down: `card` is null, the caster "
        "alone sees it) or activate; `source` is hand or slot (an activation from the slot)."
    ),
    "ability": "`player` declares an ability of its `card` (master, monster or weapon); `timing` ACTIVATED (起動) or COUNTER (対抗).",
    "pay_life": "`player` pays `amount` life as a cost; its life is now `life`.",
    "pay_exp": "`player` pays the top experience card `card` as a cost (to its discard pile).",
    "discard": "`player` discards hand card `card`; `cause` is cost or effect.",
    "field_discard": "`player`'s `card` leaves the field for its discard pile; `zone` is monster, weapon or spell (revealed).",
    "mill": "a MILL effect puts `player`'s top deck card `card` into its discard pile.",
    "exp_gain": "an EXP_GAIN effect puts `player`'s `card` (from deck or hand) onto its experience pile.",
    "exp_lose": "an EXP_LOSE effect moves `player`'s top experience card `card` to its discard pile.",
    "damage": (
        "effect damage (R8): `amount` to `player`'s `card`, its master (`zone` master, `life` "
        "after) or a monster (`zone` monster, `life` null)."
    ),
    "heal": "`player`'s master (`card`) heals to `life`.",
    "bounce": "a BOUNCE effect returns `player`'s `card` from the field to its hand.",
    "search": "`player` takes a card from its deck (SEARCH) and shuffles; the searcher alone sees it in `cards`.",
    "recover": "`player` takes `card` from its discard pile to its hand (RECOVER).",
    "negate": "`player` negates the chain entry below, `target_player`'s `use` (D28).",
    "trigger": (
        "a triggered effect of `player`'s `card` starts to resolve: `timing` ON_DISCARD (廃棄時), "
        "ON_LEVEL_UP (up時, `level` the level gained) or ON_ATTACK (攻撃時, `level` null); D26 order."
    ),
    "resolve": (
        "`player`'s chain entry for `card` (`use` summon, equip, activate or ability) has resolved; "
        "`negated` true: a negated summon or equip still resolves its 登場時 (D28)."
    ),
    "attack": (
        "`player`'s `attacker` (master or monster) attacks `target_player`'s `target` (R14); "
        "`target` is null for the proxy master of an AMALOGS table."
    ),
    "engage": (
        "engagement (R15): `player`'s `attacker` deals `to_target` to `target`, which deals "
        "`to_attacker` back (`target` null: the proxy, which deals 0 back)."
    ),
    "no_engagement": "`player`'s attack has no engagement: a side left the field (R16).",
    "proxy_hit": (
        "an AMALOGS table only: `player`'s `attacker` hits the proxy at seat 1 (`proxy` guest: the "
        "defender's stand-in, or base: the enemy base) for `hit`; `life` is its life P after it "
        "(a guest loses the hit, a base 1 when the hit is at least 1; amalogs D37, D40)."
    ),
    "auto": (
        "the engine plays `decision` for `player` by itself: `action` PASS (no charge, no attacker, "
        "a vacant seat's counter window) or none (a choice with no option is skipped)."
    ),
    "end": "the game is over: `winner` 0 or 1, 2 for a draw, -1 when truncated at a cap; `reason` says why.",
}

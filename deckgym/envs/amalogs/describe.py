"""AMALOGS moves in words (``envs.core.describe``): the sentence of an action and its places.

**Readers.** Players are named as the view names them (``A0``..``B2``), told from the reader's
side: the reader's own avatar is "your avatar A1", a teammate "ally A0", the other team's
players "enemy B0". A move of the reader is an order ("Step forward to row 4, column 3"); a move
of another player is told ("Enemy B0 steps to row 8, column 3"). Every meta-game fact is public.

**Squares** are named by row and column counted from 1: ``"row 4, column 3"`` is square
``s = 7 * 3 + 2``; row 1 is team A's base row, row 11 team B's. **Directions** are the reader's
as its board draws the map (its own team at the bottom): "forward" is toward the enemy base,
"right" is to the right of the screen.

**Places.** The map's zones:

``map``, player None, index ``s``
    a square of the MAP (0..76). Avatars, bases and spawn squares are drawn on it: a move on an
    avatar names its square (``from`` where it stands, ``to`` where it goes, ``target`` the avatar
    or base it aims at, ``card`` the avatar that declares a command in place).

``player``, player ``i``, index None
    player ``i``'s line in the list of players: the ``card`` of a move that has no square of
    its own (choosing a card game, ending a turn, not striking, a move at a table the reader
    does not sit at).

A running core table (a duel, or the solo first turn of a new core game) is described by its
own ruleset's ``describe_action`` on the table, from the reader's seat there; its places keep
their zone names with the prefix ``table:`` (``"table:square"``, ``"table:hand"``) and their
``player`` is the seat at that table (0 the host or the owner of the solo turn, 1 the
champion), as the core ruleset's own board, drawn inside the AMALOGS board, tags them. A reader
not seated at the table is told only that the seated player moves there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any, NamedTuple

from deckgym.envs.amalogs.actions import CORE_PHASES, DIRECTIONS, Kind, Phase
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import IMPLEMENTED, adapter
from deckgym.envs.amalogs.encode import _DECODE, CORE_OFFSET, META_SIZE, core_encoding
from deckgym.envs.amalogs.events import names, player_name, square_name
from deckgym.envs.amalogs.rules.commands import COST
from deckgym.envs.amalogs.rules.convert import host_units, strike_loss, to_host
from deckgym.envs.amalogs.rules.duel import participants, seat_one
from deckgym.envs.amalogs.rules.geometry import BASES, NEIGHBOUR
from deckgym.envs.amalogs.state import AmalogsState, Avatar
from deckgym.envs.core import proxy as proxy_kind
from deckgym.envs.core.describe import Described, Place, described, place

__all__ = [
    "card_names",
    "core_describer",
    "decision_text",
    "describe_action",
    "direction_word",
    "who",
]

#: The prefix of a running table's zones among the AMALOGS places.
TABLE = "table:"


@functools.cache
def core_describer(slot: int) -> ModuleType | None:
    """The ``describe`` module of ruleset ``slot``, or None while that ruleset has none."""
    return adapter(slot).ruleset_module("describe")


def _title(slot: int, default: str) -> str:
    """Ruleset ``slot``'s name for people (its adapter's ``title``); ``default`` for a slot without one."""
    return adapter(slot).title if slot in IMPLEMENTED else default


def who(st: AmalogsState, reader: int, player: int) -> str:
    """``"your avatar A1"``, ``"ally A0"`` or ``"enemy B0"``, as ``reader`` calls ``player``."""
    name = player_name(st, player)
    if player == reader:
        return f"your avatar {name}"
    if st.avatars[player].team == st.avatars[reader].team:
        return f"ally {name}"
    return f"enemy {name}"


def direction_word(st: AmalogsState, reader: int, d: int) -> str:
    """Direction ``d`` as the reader's board shows it: ``"forward"``, ``"back-left"``..."""
    dr, dc = DIRECTIONS[d]
    sign = 1 if st.avatars[reader].team == 0 else -1  # team A's base is row 0, drawn at the bottom
    ahead, right = dr * sign, dc * sign
    words = []
    if ahead:
        words.append("forward" if ahead > 0 else "back")
    if right:
        words.append("right" if right > 0 else "left")
    return "-".join(words)


def card_names(state: AmalogsState) -> dict[str, str]:
    """Card id -> card name over the pools of every core ruleset the match may play."""
    out: dict[str, str] = {}
    for slot in sorted({s for pool in state.config.pools for s in pool}):
        out.update(_pool_names(slot))
    return out


@functools.cache
def _pool_names(slot: int) -> dict[str, str]:
    return adapter(slot).card_names()


# ----------------------------------------------------------------------------- actions
class _Move(NamedTuple):
    """What a meta action handler needs: the state, the reader, the actor and the actor's avatar."""

    st: AmalogsState
    seat: int
    actor: int

    @property
    def av(self) -> Avatar:
        return self.st.avatars[self.actor]

    def who(self, player: int) -> str:
        return who(self.st, self.seat, player)

    def row(self) -> Place:
        """The actor's line in the list of players."""
        return place("card", "player", None, self.actor)

    def at(self) -> list[Place]:
        return [place("card", "map", self.av.square)] if self.av.on_map else []


#: A handler gives the order (the reader acts), the report (another player acts) and the places.
_Words = tuple[str, str, list[Place]]


def describe_action(state: AmalogsState, seat: int, index: int) -> Described:
    """Action ``index`` (the encoder's flat index) at ``state`` in words, for the reader ``seat``."""
    st = state
    if not 0 <= seat < st.num_players:
        raise ValueError(f"seat must be in 0..{st.num_players - 1}, got {seat!r}")
    actor = st.current_player
    if actor < 0:
        return described("No move: the match is over")
    if index >= META_SIZE:
        return _core(st, seat, actor, index - CORE_OFFSET)
    if index < 0:
        return described("No such move")
    kind, arg = _DECODE[index]
    m = _Move(st, seat, actor)
    order, report, places = _META[Kind(kind)](m, arg)
    return described(order if actor == seat else f"{_cap(m.who(actor))} {report}", *places)


def _end_turn(m: _Move, _arg: int) -> _Words:
    return "End your avatar's part of the team turn", "ends its part of the team turn", [m.row()]


def _hand_over(m: _Move, _arg: int) -> _Words:
    nxt = _next_teammate(m.st)
    if nxt < 0:
        return "Hand control over", "hands control over", []
    to = m.who(nxt)
    return (
        f"Hand control over to {to}",
        f"hands control over to {to}",
        [place("target", "map", m.st.avatars[nxt].square)],
    )


def _duel(m: _Move, _arg: int) -> _Words:
    game, rest = _duel_words(m)
    return f"Duel: {game}{rest}", f"declares a duel: {game}{rest}", m.at()


def _paid(m: _Move, kind: Kind, what: str, effect: str) -> _Words:
    """A command that costs action points (``COST[kind]``), in words.

    The order names the cost and then ``effect``; the report, the cost and ``what`` it pays for.
    """
    cost = COST[kind]
    return f"{kind.name.capitalize()}: pay {cost} AP{effect}", f"pays {cost} AP to {what}", m.at()


def _move(m: _Move, _arg: int) -> _Words:
    effect = f", roll two dice and move up to their total minus {m.av.we} squares"
    return _paid(m, Kind.MOVE, "roll two dice and move", effect)


def _guard(m: _Move, _arg: int) -> _Words:
    effect = "; until your next turn, a duel you join as a guest strikes nobody of your team"
    return _paid(m, Kind.GUARD, "guard", effect)


def _step(m: _Move, d: int) -> _Words:
    here = m.av.square
    to = NEIGHBOUR[here][d]
    where = square_name(to)
    way = direction_word(m.st, m.seat, d)
    return (
        f"Step {way} to {where} (1 AP)",
        f"steps to {where}",
        [place("from", "map", here), place("to", "map", to)],
    )


def _push(m: _Move, d: int) -> _Words:
    here = m.av.square
    over = NEIGHBOUR[here][d]
    to = NEIGHBOUR[over][d] if over >= 0 else -1
    other = _standing(m.st, over)
    them = m.who(other) if other >= 0 else "the avatar"
    where = square_name(to)
    way = direction_word(m.st, m.seat, d)
    places = [place("from", "map", here), place("target", "map", over), place("to", "map", to)]
    return f"Push {them} {way} to {where} (2 AP)", f"pushes {them} to {where}", places


def _swap(m: _Move, d: int) -> _Words:
    here = m.av.square
    there = NEIGHBOUR[here][d]
    other = _standing(m.st, there)
    them = m.who(other) if other >= 0 else "the avatar"
    places = [place("from", "map", here), place("target", "map", there)]
    return f"Swap squares with {them} on {square_name(there)} (2 AP)", f"swaps squares with {them}", places


def _ruleset(m: _Move, slot: int) -> _Words:
    game = _title(slot, f"ruleset {slot}")
    info = RULESETS.get(slot)
    numbers = f" (weight {info.we}, duel range {info.range})" if info is not None else ""
    order = f"Play {game} as your new core game{numbers}"
    return order, f"chooses {game} as its new core game{numbers}", [m.row()]


def _strike_none(m: _Move, _arg: int) -> _Words:
    return "Strike nothing", "strikes nothing", [m.row()]


def _strike_base(m: _Move, _arg: int) -> _Words:
    strike = m.st.duel.strike if m.st.duel is not None else 0
    enemy = "AB"[1 - m.av.team]
    target = [place("target", "map", BASES[1 - m.av.team])]
    return (
        f"Strike the enemy base {enemy} for {strike} base life",
        f"strikes base {enemy} for {strike} base life",
        target,
    )


def _strike_player(m: _Move, slot: int) -> _Words:
    st = m.st
    strike = st.duel.strike if st.duel is not None else 0
    enemy = 1 - m.av.team
    victim = st.config.team_sizes[0] + slot if enemy == 1 else slot
    vav = st.avatars[victim] if victim < st.num_players else None
    target = [place("target", "map", vav.square)] if vav is not None and vav.on_map else []
    them = m.who(victim) if vav is not None else f"enemy {'AB'[enemy]}{slot}"
    amount = strike_loss(strike, vav.nominal) if vav is not None and vav.nominal else strike
    return f"Strike {them} for {amount} core life", f"strikes {them} for {amount} core life", target


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _standing(st: AmalogsState, s: int) -> int:
    """The player whose avatar stands on ``s``, or -1."""
    return next((i for i, a in enumerate(st.avatars) if a.on_map and a.square == s), -1)


def _next_teammate(st: AmalogsState) -> int:
    """The teammate a HAND_OVER gives control to (D6), or -1."""
    from deckgym.envs.amalogs.rules.turn import teammates_after

    if st.control < 0:
        return -1
    after = teammates_after(st, st.control)
    return after[0] if after else -1


def _duel_words(m: _Move) -> tuple[str, str]:
    """The game of a duel about to be declared and who would take part (D18, D21), in words."""
    st, actor = m.st, m.actor
    av = m.av
    game = _title(av.ruleset, "its core game")
    players, bases = participants(st, actor)
    guests = [p for p in players if st.avatars[p].team != av.team]
    casts = [p for p in players if p != actor and st.avatars[p].team == av.team]
    champ, defender, kind = seat_one(st, actor, guests, bases)
    if champ >= 0:
        seat = f" against {m.who(champ)}"
    elif defender >= 0:
        dav = st.avatars[defender]
        life = to_host(adapter(dav.ruleset).summary(dav.side).life, host_units(av.ruleset), dav.nominal)
        seat = f" against {m.who(defender)}, who defends with {life} life"
    elif kind == proxy_kind.BASE:
        seat = f" against base {'AB'[1 - av.team]} ({st.life[1 - av.team]} life, {_base_rate(av.ruleset)})"
    else:
        seat = " with nobody in the opponent's seat"
    extra = []
    others = [g for g in guests if g not in (champ, defender)]
    if others:
        extra.append(f"guest{'s' if len(others) > 1 else ''} {names(st, others)}")
    if casts:
        extra.append(f"cast{'s' if len(casts) > 1 else ''} {names(st, casts)}")
    if bases:
        extra.append(
            " and ".join(f"base {'AB'[t]}" for t in bases) + (" join" if len(bases) > 1 else " joins")
        )
    extra.append(f"strike value {av.we + len(casts)}")
    return game, f"{seat} ({'; '.join(extra)})"


def _square(m: _Move, s: int) -> _Words:
    """SQUARE s: a MOVE destination, a placement in the start-up, or a respawn."""
    where = square_name(s)
    to = place("to", "map", s)
    if m.st.phase == Phase.MOVE_DEST:
        places = [place("from", "map", m.av.square), to]
        if s == m.av.square:
            return f"Stay on {where}", f"stays on {where}", places
        return f"Move to {where}", f"moves to {where}", places
    if m.st.phase == Phase.RESPAWN_PLACE:
        return f"Come back on {where}", f"comes back on {where}", [to]
    return f"Place your avatar on {where}", f"places its avatar on {where}", [to]


def _core(st: AmalogsState, seat: int, actor: int, a: int) -> Described:
    """A core action: the core ruleset's own sentence, from the reader's seat at the table."""
    if st.table is None or st.phase not in CORE_PHASES:
        return described("No such move now")
    slot = st.table_ruleset
    enc = core_encoding(slot)
    if not 0 <= a < enc.action_size:
        return described("No such move now")
    k = st.seat_of(seat)
    mod = core_describer(slot)
    if k < 0 and mod is not None:
        return described(_onlooker(st, seat, actor, mod, a), place("card", "player", None, actor))
    if k < 0:
        where = (
            "its duel"
            if st.duel is not None
            else f"the first turn of its new core game ({_title(slot, 'core')})"
        )
        return described(
            f"{_cap(who(st, seat, actor))} makes a move in {where}", place("card", "player", None, actor)
        )
    if mod is not None:
        d = mod.describe_action(st.table, k, a)
        return described(d["text"], *(_table_place(p) for p in d["places"]))
    # Only while the core ruleset has no sentences of its own: its encoder's label, to its actor only.
    if actor != seat:
        return described(
            f"{_cap(who(st, seat, actor))} makes a move at the table", place("card", "player", None, actor)
        )
    return described(f"{_title(slot, 'Core game')}: {enc.action_label(a, st.table)}")


def _onlooker(st: AmalogsState, seat: int, actor: int, mod: ModuleType, a: int) -> str:
    """A core move told to a player who does not sit at the table (section 7.1: the table's public part).

    The core ruleset tells it as the table's other seat reads it, which is the move's public part
    and that seat's own cards: a vacant seat or a stand-in owns none, and a seated player's own
    cards are named only where the move has shown them to the table. The other seat's words
    ("the opponent", "your") are then the players' names, as the reader calls them.
    """
    other = 1 - st.seat_of(actor)
    text = str(mod.describe_action(st.table, other, a)["text"])
    sitter = st.player_at(other)
    owner = who(st, seat, sitter) if sitter >= 0 else ("the stand-in" if st.duel is not None else "nobody")
    mover = who(st, seat, actor)
    for old, new in (
        ("The opponent's", f"{mover}'s"),
        ("the opponent's", f"{mover}'s"),
        ("The opponent", mover),
        ("the opponent", mover),
        ("Your", f"{owner}'s"),
        ("your", f"{owner}'s"),
    ):
        text = text.replace(old, new)
    game = _title(st.table_ruleset, "core game").removeprefix("the ")
    if not text.lower().startswith(mover.lower()):
        text = f"{mover}: {text[:1].lower()}{text[1:]}"
    return f"{_cap(text)} (at the {game} table)"


def _table_place(p: Place | dict[str, Any]) -> Place:
    """A place of the running table among the AMALOGS places (its zone prefixed with ``table:``)."""
    return place(p["role"], TABLE + p["zone"], p.get("index"), p.get("player"))


# ----------------------------------------------------------------------------- decisions
def decision_text(state: AmalogsState, seat: int) -> str:
    """The current decision as a prompt for the reader ``seat`` (who decides, and what)."""
    st = state
    if st.done:
        if st.winner == 2:
            return f"The match is over: a draw ({st.reason})"
        mine = st.avatars[seat].team == st.winner
        return f"The match is over: {'your team' if mine else 'the enemy team'} won ({st.reason})"
    actor = st.current_player
    me = actor == seat
    av = st.avatars[actor]
    subject = _cap(who(st, seat, actor))
    phase = st.phase
    if phase in (Phase.STARTUP_RULESET, Phase.RESPAWN_RULESET):
        return (
            "Choose the card game of your new core game" if me else f"{subject} is choosing its new core game"
        )
    if phase in (Phase.STARTUP_PLACE, Phase.RESPAWN_PLACE):
        verb = "place" if phase == Phase.STARTUP_PLACE else "bring back"
        if me:
            return f"Choose where to {verb} your avatar {player_name(st, actor)} in your spawn area"
        return f"{subject} is choosing where to {verb} its avatar"
    if phase == Phase.META_FIELD:
        if me:
            return f"Choose a command for your avatar {player_name(st, actor)} ({av.ap} AP)"
        return f"{subject} is choosing a command"
    if phase == Phase.MOVE_DEST:
        d1, d2 = st.dice
        if me:
            return f"Choose where to move: you rolled {d1} + {d2}, up to {st.move_allowance} squares"
        return f"{subject} rolled {d1} + {d2} and is choosing where to move"
    if phase == Phase.STRIKE:
        strike = st.duel.strike if st.duel is not None else 0
        if me:
            return f"Choose what to strike for {strike}, or strike nothing"
        return f"{subject} is choosing what to strike"
    if phase in CORE_PHASES:
        return _core_decision(st, seat, actor)
    return f"{subject} is deciding"


def _core_decision(st: AmalogsState, seat: int, actor: int) -> str:
    slot = st.table_ruleset
    game = _title(slot, "the core game")
    if st.duel is not None:
        d = st.duel
        if d.champion >= 0:
            against = player_name(st, d.champion)
        elif d.proxy == proxy_kind.GUEST:
            against = f"{player_name(st, d.defender)}'s stand-in"
        elif d.proxy == proxy_kind.BASE:
            against = f"base {'AB'[1 - st.avatars[d.host].team]}"
        else:
            against = "an empty seat"
        head = f"Duel of {game}, {player_name(st, d.host)} against {against}"
    else:
        head = f"First turn of {player_name(st, st.table_owner)}'s new {game} game"
    k = st.seat_of(seat)
    if k < 0:
        return f"{head}: {who(st, seat, actor)} is playing"
    mod = core_describer(slot)
    if mod is not None and hasattr(mod, "decision_text"):
        return f"{head}: {mod.decision_text(st.table, k)}"
    if actor == seat:
        return f"{head}: choose your move"
    return f"{head}: {who(st, seat, actor)} is choosing"


_META: dict[Kind, Callable[[_Move, int], _Words]] = {
    Kind.END_TURN: _end_turn,
    Kind.HAND_OVER: _hand_over,
    Kind.DUEL: _duel,
    Kind.MOVE: _move,
    Kind.GUARD: _guard,
    Kind.STEP: _step,
    Kind.PUSH: _push,
    Kind.SWAP: _swap,
    Kind.SQUARE: _square,
    Kind.RULESET: _ruleset,
    Kind.STRIKE_NONE: _strike_none,
    Kind.STRIKE_BASE: _strike_base,
    Kind.STRIKE_PLAYER: _strike_player,
}


def _unit_text(x: float) -> str:
    """A D43 unit for people: a whole number as it is, else at most two decimals (45.5, 1.38).

    The boards write units the same way (``agents/play/boards/amalogs.py`` and its JavaScript
    twin), from the view alone.
    """
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0").rstrip(".")


def _base_rate(slot: int) -> str:
    """D43: how many successful attacks of a host of ``slot`` take 1 base life, in words."""
    per = RULESETS[slot].base
    if per == 1:
        return "1 per successful attack"
    return f"1 per {_unit_text(float(per))} successful attacks"

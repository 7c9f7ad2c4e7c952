"""Observation and action encoding of AMALOGS (spec sections 6 and 7).

Actions: one ``Discrete(119 + C)`` for every agent; C is the largest core action space of the
match's rulesets. The core block ``119 + a`` is core action ``a`` of the running table or
solo turn, encoded by that ruleset's own encoder from the deciding seat.

| indices | name | | indices | name |
|---|---|---|---|---|
| 0 | END_TURN | | 29-105 | SQUARE(s), s = 7 row + col |
| 1 | HAND_OVER | | 106-113 | RULESET(k) |
| 2 | DUEL | | 114 | STRIKE_NONE |
| 3 | MOVE | | 115 | STRIKE_BASE |
| 4 | GUARD | | 116-118 | STRIKE_PLAYER(j), enemy team slot j |
| 5-12 | STEP(d) | | 119.. | CORE(a) |
| 13-20 | PUSH(d) | | | |
| 21-28 | SWAP(d) | | | |

Observations (length 1152 + O, O the largest core observation) are built from the pieces
of ``build_layout``: the MAP in 12 channels, 25 global values, 6 player slots of 32 values,
and the core view: the running table from the agent's seat when it is seated (or playing a
solo first turn), otherwise its own side alone; never another player's private core cards.
"""

from __future__ import annotations

import array
import functools
from collections.abc import Sequence
from typing import Any, Final, Protocol

import numpy as np

from deckgym.envs.amalogs.actions import CORE_PHASES, Action, Kind, Phase, Role
from deckgym.envs.amalogs.config import RULESETS
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.rules.commands import move_destinations
from deckgym.envs.amalogs.rules.geometry import BASES, DIST, SPAWN, SQUARES
from deckgym.envs.amalogs.state import AmalogsState, Avatar
from deckgym.envs.core.protocol import block_offsets
from deckgym.envs.core.proxy import NONE as NO_PROXY
from deckgym.envs.encoding.codec import FLOAT32, INT8, STATE_DECK_TOP, Encoder, write_deck
from deckgym.envs.encoding.layout import ObsLayout

META_SIZE: Final = 119
CORE_OFFSET: Final = META_SIZE
#: Section 6: the meta blocks, in index order, with their number of arguments.
_BLOCKS: Final = (
    (Kind.END_TURN, 1),
    (Kind.HAND_OVER, 1),
    (Kind.DUEL, 1),
    (Kind.MOVE, 1),
    (Kind.GUARD, 1),
    (Kind.STEP, 8),
    (Kind.PUSH, 8),
    (Kind.SWAP, 8),
    (Kind.SQUARE, 77),
    (Kind.RULESET, 8),
    (Kind.STRIKE_NONE, 1),
    (Kind.STRIKE_BASE, 1),
    (Kind.STRIKE_PLAYER, 3),
)
#: First index of each meta action kind.
OFFSET: Final[dict[int, int]] = block_offsets(_BLOCKS)
#: The same, indexed by kind (the kinds are 0..12 in block order).
_OFFSETS: Final[tuple[int, ...]] = tuple(OFFSET[k] for k, _ in _BLOCKS)
assert list(OFFSET) == list(range(len(_OFFSETS)))
_DECODE: Final = [Action(k, i) for k, n in _BLOCKS for i in range(n)]
assert len(_DECODE) == META_SIZE

MAP_CHANNELS: Final = 12
GLOBALS: Final = 25
PLAYER_F: Final = 32
PLAYER_SLOTS: Final = 6
CORE_HEAD: Final = 11


class CoreEncoding(Protocol):
    """What the AMALOGS encoder needs from a core ruleset's encoder (A4)."""

    action_size: int
    obs_size: int

    def action_to_index(self, action: Any, state: Any) -> int:
        """Index of a core action for the seat to move."""
        ...

    def index_to_action(self, index: int, state: Any) -> Any:
        """Core action of an index for the seat to move."""
        ...

    def legal_indices(self, state: Any) -> list[int]:
        """Indices of the legal core actions."""
        ...

    def observe(self, state: Any, seat: int) -> np.ndarray:
        """The core observation of ``seat``."""
        ...

    def action_label(self, index: int, state: Any) -> str:
        """A readable name of a core action index."""
        ...

    deck_types: int

    def deck_type(self, card: str) -> int:
        """The global state's deck column of a core card."""
        ...


@functools.cache
def core_encoding(slot: int) -> CoreEncoding:
    """The encoder of ruleset ``slot``'s core game (its adapter's ``encoding()``)."""
    enc: CoreEncoding = adapter(slot).encoding()
    return enc


def build_layout(core_obs: int) -> ObsLayout:
    """The observation layout for a core observation of length ``core_obs``."""
    return ObsLayout(
        [
            (
                "map",
                (MAP_CHANNELS, SQUARES),
                (
                    "per square s = 7 row + col: own avatar, allied avatars, enemy avatars, own base, enemy base, "
                    "own spawn area, enemy spawn area, Guarding, dueled this team turn, within own range, duel "
                    "participant, legal destination of the pending MOVE"
                ),
            ),
            (
                "global",
                (GLOBALS,),
                (
                    "own base life/36, enemy base life/36, team turn/max, my team acts, my team is first, phase "
                    "one-hot (11), I am to act, move allowance/12, last d1/6, last d2/6, strike value/12, proxy "
                    "at seat 1 one-hot (none guest base), proxy life/20"
                ),
            ),
            (
                "players",
                (PLAYER_SLOTS, PLAYER_F),
                (
                    "slots A0 A1 A2 B0 B1 B2: used, is me, my team, on map, row/10, col/6, AP/9, WE/4, range/3, "
                    "ruleset one-hot (8), dueled, Guarding, exited, role one-hot (none host cast guest champion "
                    "defender), core life/20, hand/10, deck/40, field units/10, turns as active player/50, "
                    "nominal life/20"
                ),
            ),
            (
                "core_view",
                (CORE_HEAD,),
                "ruleset one-hot (8) of the core view; view: seat 0, seat 1, own side",
            ),
            ("core", (core_obs,), "the core observation from that view, zero-padded"),
        ]
    )


class AmalogsEncoder(Encoder):
    """Encoder of a match whose pools use ruleset ``slots``."""

    def __init__(self, slots: Sequence[int]) -> None:
        self.slots = tuple(sorted(set(slots)))
        self.core_action_size = max(core_encoding(s).action_size for s in self.slots)
        self.core_obs_size = max(core_encoding(s).obs_size for s in self.slots)
        self.action_size = META_SIZE + self.core_action_size
        self.layout = build_layout(self.core_obs_size)
        L = self.layout
        self._map = L["map"].start
        assert self._map == _MAP_START, "the map is the first piece"
        self._glob = L["global"].start
        self._players = L["players"].start
        self._head = L["core_view"].start
        self._core = L["core"].start
        #: per team, the zeroed observation with the fixed squares of the map (channels 3-6) set
        self._zero: tuple[array.array, ...] = tuple(
            _template(self.layout.size, fixed) for fixed in _FIXED_MAP
        )
        self._zero_mask = array.array("b", bytes(self.action_size))

    # ------------------------------------------------------------------ actions
    def action_to_index(self, action: Action, state: AmalogsState) -> int:
        """Index of an engine action for the player to act."""
        kind, arg = action
        if kind == Kind.CORE:
            return CORE_OFFSET + core_encoding(state.table_ruleset).action_to_index(arg, state.table)
        return OFFSET[kind] + arg

    def index_to_action(self, index: int, state: AmalogsState) -> Action:
        """Engine action of an index (a core index outside the running table's space is never legal)."""
        if not 0 <= index < self.action_size:
            raise ValueError(f"action index {index} out of range 0..{self.action_size - 1}")
        if index < META_SIZE:
            return _DECODE[index]
        a = index - CORE_OFFSET
        if state.table is None:
            return Action(Kind.CORE, None)
        enc = core_encoding(state.table_ruleset)
        if a >= enc.action_size:
            return Action(Kind.CORE, None)
        return Action(Kind.CORE, enc.index_to_action(a, state.table))

    def legal_indices(self, state: AmalogsState) -> list[int]:
        """Indices of the legal actions of the player to act."""
        if state.done:
            return []
        if state.phase in CORE_PHASES:
            return [CORE_OFFSET + i for i in core_encoding(state.table_ruleset).legal_indices(state.table)]
        return [OFFSET[k] + arg for k, arg in state.legal_actions()]

    def action_mask(self, state: AmalogsState, seat: int | None = None) -> np.ndarray:
        """int8 mask of shape ``(action_size,)``; all zeros for a player that is not to act."""
        buf = self._zero_mask[:]
        if (seat is None or seat == state.current_player) and not state.done:
            if state.phase in CORE_PHASES:
                for i in core_encoding(state.table_ruleset).legal_indices(state.table):
                    buf[CORE_OFFSET + i] = 1
            else:
                for kind, arg in state.legal_actions():
                    buf[_OFFSETS[kind] + arg] = 1
        return np.frombuffer(buf, INT8)

    def action_label(self, index: int, state: AmalogsState) -> str:
        """E.g. ``STEP(d4)``, ``SQUARE(45) (6,3)`` or ``CORE PASS``."""
        a = self.index_to_action(index, state)
        if a.kind == Kind.CORE:
            if a.arg is None:
                return f"CORE({index - CORE_OFFSET}) (no such core action now)"
            return "CORE " + core_encoding(state.table_ruleset).action_label(index - CORE_OFFSET, state.table)
        if a.kind == Kind.SQUARE:
            return f"SQUARE({a.arg}) ({a.arg // 7},{a.arg % 7})"
        return str(a)

    # ------------------------------------------------------------------ observations
    def observe(self, st: AmalogsState, seat: int) -> np.ndarray:
        """The observation of player ``seat`` (spec 7.4).

        The vector is written into a zeroed ``array.array`` (its team's template, which holds the
        fixed squares of the MAP) with cheap element writes, the core observation is copied in by
        slice, and the buffer is handed to numpy without a copy: every call returns a new array.
        """
        me = st.avatars[seat]
        buf = self._zero[me.team][:]
        self._write_map(buf, st, seat)
        self._write_global(buf, st, seat)
        self._write_players(buf, st, seat)
        self._write_core(buf, st, seat)
        return np.frombuffer(buf, FLOAT32)

    # ------------------------------------------------------------------ global state
    def hidden_pieces(self, num_players: int) -> list[tuple[str, tuple[int, ...], str]]:
        """The deck orders of every player's side and of the running table.

        Deck columns are the card types of each deck's own core ruleset, padded to the widest.
        """
        n, t = num_players, STATE_DECK_TOP
        k = max(core_encoding(s).deck_types for s in self.slots)
        return [
            (
                "side_deck_top",
                (n, t, k),
                f"per player, its side's top {t} deck cards in order, one-hot by type",
            ),
            ("side_deck_share", (n, k), "per player, each card type's share of its side's deck"),
            ("table_deck_top", (2, t, k), f"per seat of the running table, its top {t} deck cards, one-hot"),
            ("table_deck_share", (2, k), "per seat of the running table, each card type's share of its deck"),
        ]

    def write_hidden(self, out: np.ndarray, layout: ObsLayout, state: AmalogsState) -> None:
        """Every side's deck, then the running table's decks, each by its own core's card types."""
        side_top = layout.view(out, "side_deck_top")
        side_share = layout.view(out, "side_deck_share")
        for i, a in enumerate(state.avatars):
            if a.side is not None:
                write_deck(side_top[i], side_share[i], a.side.deck, core_encoding(a.ruleset).deck_type)
        if state.table is not None:
            enc = core_encoding(state.table_ruleset)
            top, share = layout.view(out, "table_deck_top"), layout.view(out, "table_deck_share")
            for p, deck in enumerate(state.table.deck):
                write_deck(top[p], share[p], deck, enc.deck_type)

    def _write_map(self, buf: array.array, st: AmalogsState, seat: int) -> None:
        """Every map entry is 1.0; channels 3-6 (bases and spawn squares) come with the template."""
        avatars = st.avatars
        me = avatars[seat]
        team = me.team
        for i, a in enumerate(avatars):
            sq = a.square
            if sq >= 0:
                if i == seat:
                    buf[sq] = 1.0
                elif a.team == team:
                    buf[sq + SQUARES] = 1.0
                else:
                    buf[sq + 2 * SQUARES] = 1.0
                if a.guarding:
                    buf[sq + 7 * SQUARES] = 1.0
                if a.dueled:
                    buf[sq + 8 * SQUARES] = 1.0
        if me.square >= 0:
            buf[9 * SQUARES : 10 * SQUARES] = _RANGE_ROWS[me.range][me.square]
        d = st.duel
        if d is not None:
            for p in d.participants():
                sq = avatars[p].square
                if sq >= 0:
                    buf[10 * SQUARES + sq] = 1.0
            for t in d.bases:
                buf[10 * SQUARES + BASES[t]] = 1.0
        if st.phase == Phase.MOVE_DEST and not st.done:
            for q in move_destinations(st):
                buf[11 * SQUARES + q] = 1.0

    def _write_global(self, buf: array.array, st: AmalogsState, seat: int) -> None:
        """The global values, written into a small zeroed buffer and copied into ``buf`` in one slice.

        Indices into the small buffer are small ints (which Python keeps ready-made), where
        those into the whole vector would each be a new int object.
        """
        out = _GLOBAL_ZERO[:]
        team: int = st.avatars[seat].team
        life = st.life
        out[0] = life[team] / 36
        out[1] = life[1 - team] / 36
        out[2] = st.team_turn / st.config.max_team_turns
        if st.acting == team:
            out[3] = 1.0
        if st.first_team == team:
            out[4] = 1.0
        phase: int = st.phase
        out[5 + phase] = 1.0
        if st.current_player == seat:
            out[16] = 1.0
        if phase == Phase.MOVE_DEST:
            out[17] = st.move_allowance / 12
        dice = st.dice
        out[18] = dice[0] / 6
        out[19] = dice[1] / 6
        d = st.duel
        if d is None:
            out[21 + NO_PROXY] = 1.0
        else:
            out[20] = d.strike / 12
            kind: int = d.proxy
            out[21 + kind] = 1.0
            if kind != NO_PROXY:
                out[24] = proxy_life(st) / 20
        start = self._glob
        buf[start : start + GLOBALS] = out

    def _write_players(self, buf: array.array, st: AmalogsState, seat: int) -> None:
        """One row per player slot (A0 A1 A2 B0 B1 B2); an unused slot stays zero.

        Written into a small zeroed buffer, then copied into ``buf`` in one slice (as ``_write_global``).
        """
        na: int = st.config.team_sizes[0]
        avatars = st.avatars
        my_team = avatars[seat].team
        roles = duel_roles(st)
        out = _PLAYERS_ZERO[:]
        for i, a in enumerate(avatars):
            r = PLAYER_F * (i if i < na else 3 + i - na)
            out[r] = 1.0
            if i == seat:
                out[r + 1] = 1.0
            if a.team == my_team:
                out[r + 2] = 1.0
            sq = a.square
            if sq >= 0:
                out[r + 3] = 1.0
                out[r + 4] = (sq // 7) / 10
                out[r + 5] = (sq % 7) / 6
            out[r + 6] = a.ap / 9
            ruleset = a.ruleset
            if ruleset >= 0:
                we, reach = _WE_RANGE[ruleset]
                out[r + 7] = we
                out[r + 8] = reach
                out[r + 9 + ruleset] = 1.0
            if a.dueled:
                out[r + 17] = 1.0
            if a.guarding:
                out[r + 18] = 1.0
            if a.exited:
                out[r + 19] = 1.0
            out[r + 20 + roles.get(i, _NO_ROLE)] = 1.0
            counts = _counts(st, i)
            if counts is not None:
                life, hand, deck, units = counts
                out[r + 26] = life / 20
                out[r + 27] = hand / 10
                out[r + 28] = deck / 40
                out[r + 29] = units / 10
                out[r + 30] = a.core_turns / 50
            out[r + 31] = a.nominal / 20
        start = self._players
        buf[start : start + PLAYER_SLOTS * PLAYER_F] = out

    def _write_core(self, buf: array.array, st: AmalogsState, seat: int) -> None:
        k = st.seat_of(seat)
        if k >= 0:
            slot: int = st.table_ruleset
            view = k
            obs = core_encoding(slot).observe(st.table, k)
        else:
            a = st.avatars[seat]
            if a.side is None:
                return
            slot = a.ruleset
            view = 2
            obs = _side_view(st, seat, a)
        buf[self._head + slot] = 1.0
        buf[self._head + 8 + view] = 1.0
        start = self._core
        memoryview(buf)[start : start + len(obs)] = obs.data  # float32 into float32: one copy by slice


#: Where the map piece starts (it is the layout's first piece).
_MAP_START: Final = 0
#: Per team, the map's flat indices of channels 3-6: own base, enemy base, own and enemy spawn squares.
_FIXED_MAP: Final = tuple(
    (
        _MAP_START + 3 * SQUARES + BASES[t],
        _MAP_START + 4 * SQUARES + BASES[1 - t],
        *(_MAP_START + 5 * SQUARES + q for q in SPAWN[t]),
        *(_MAP_START + 6 * SQUARES + q for q in SPAWN[1 - t]),
    )
    for t in (0, 1)
)
#: Channel 9 of the map, by reach and square: 1.0 on the squares within that reach of the square.
_RANGE_ROWS: Final = tuple(
    tuple(
        array.array("f", [1.0 if DIST[square][q] <= reach else 0.0 for q in range(SQUARES)])
        for square in range(SQUARES)
    )
    for reach in range(max(info.range for info in RULESETS.values()) + 1)
)
#: The zeroed global piece and player rows (``_write_global`` and ``_write_players`` write into copies).
_GLOBAL_ZERO: Final = array.array("f", bytes(4 * GLOBALS))
_PLAYERS_ZERO: Final = array.array("f", bytes(4 * PLAYER_SLOTS * PLAYER_F))
#: The role column of a player in no duel role.
_NO_ROLE: Final[int] = Role.NONE
#: Per ruleset slot, its WE/4 and duel range/3 (columns 7 and 8 of a player slot).
_WE_RANGE: Final[dict[int, tuple[float, float]]] = {
    slot: (info.we / 4, info.range / 3) for slot, info in RULESETS.items()
}


def _template(size: int, fixed: Sequence[int]) -> array.array:
    """A zeroed float32 buffer of ``size`` with 1.0 at the flat indices ``fixed``."""
    buf = array.array("f", bytes(4 * size))
    for i in fixed:
        buf[i] = 1.0
    return buf


def _side_view(st: AmalogsState, player: int, a: Avatar) -> np.ndarray:
    """The core observation of ``player``'s side alone: its table of one turn, composed, from seat 0.

    It depends only on the side, its ruleset and the turn the table is composed for, so it is
    kept on the state (``AmalogsState._side_views``, one entry per player) beside a copy of the
    side, and reused while the side still equals that copy (records compare field by field).
    """
    ruleset = a.ruleset
    turn = max(1, a.last_turn)
    side = a.side
    memo = st._side_views
    if memo is None:
        memo = st._side_views = {}
    entry = memo.get(player)
    if entry is not None and entry[0] == ruleset and entry[1] == turn and entry[2] == side:
        obs: np.ndarray = entry[3]
        return obs
    ad = adapter(ruleset)
    table = ad.compose(side, None, st.rng, turn)
    obs = core_encoding(ruleset).observe(table, 0).copy()
    memo[player] = (ruleset, turn, ad.clone_side(side), obs)
    return obs


def duel_roles(st: AmalogsState) -> dict[int, Role]:
    """Each player's role in the duel under way (host, cast, guest, champion); none without a duel."""
    d = st.duel
    if d is None:
        return {}
    out = {d.host: Role.HOST}
    out.update(dict.fromkeys(d.casts, Role.CAST))
    out.update(dict.fromkeys(d.guests, Role.GUEST))
    if d.champion >= 0:
        out[d.champion] = Role.CHAMPION
    if d.defender >= 0:
        out[d.defender] = Role.DEFENDER
    return out


def proxy_life(st: AmalogsState) -> int:
    """D42: the proxy's life P now (read from the running table; after it, the duel's last count)."""
    d = st.duel
    assert d is not None
    if st.table is not None and st.phase == Phase.DUEL_CORE:
        return adapter(st.table_ruleset).proxy_life(st.table)
    return d.proxy_life


def _counts(st: AmalogsState, player: int) -> tuple[int, int, int, int] | None:
    """A8 summary (life, hand, deck, units) of the player's core game; None without a side.

    It is read from the running table while the player is seated there.
    """
    k = st.seat_of(player)
    if k >= 0:
        return adapter(st.table_ruleset).table_counts(st.table, k)
    a = st.avatars[player]
    return None if a.side is None else adapter(a.ruleset).counts(a.side)

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

import functools
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from deckgym.envs.amalogs.actions import Action, Kind, Phase, Role
from deckgym.envs.amalogs.cores import adapter
from deckgym.envs.amalogs.rules.commands import move_destinations
from deckgym.envs.amalogs.rules.geometry import BASES, DIST, SPAWN, SQUARES
from deckgym.envs.amalogs.state import AmalogsState
from deckgym.envs.core.protocol import block_offsets
from deckgym.envs.core.proxy import NONE as NO_PROXY
from deckgym.envs.encoding.codec import STATE_DECK_TOP, Encoder, write_deck
from deckgym.envs.encoding.layout import ObsLayout

META_SIZE = 119
CORE_OFFSET = META_SIZE
#: Section 6: the meta blocks, in index order, with their number of arguments.
_BLOCKS = (
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
OFFSET: dict[int, int] = block_offsets(_BLOCKS)
_DECODE = [Action(k, i) for k, n in _BLOCKS for i in range(n)]
assert len(_DECODE) == META_SIZE

MAP_CHANNELS = 12
GLOBALS = 25
PLAYER_F = 32
PLAYER_SLOTS = 6
CORE_HEAD = 11


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
    """The encoder of ruleset ``slot``'s core game."""
    if slot in (0, 1, 4):
        from deckgym.envs.medarot_ocg.env import encoder_for
        from deckgym.envs.medarot_ocg.sides import pool

        return encoder_for(pool())  # type: ignore[return-value]
    if slot == 2:
        from deckgym.envs.medarot_parts.env import encoder_for as parts_encoder_for
        from deckgym.envs.medarot_parts.sides import pool as parts_pool

        return parts_encoder_for(parts_pool())  # type: ignore[return-value]
    if slot == 3:
        from deckgym.envs.mow.env import encoder_for as mow_encoder_for
        from deckgym.envs.mow.sides import pool as mow_pool

        return mow_encoder_for(mow_pool())  # type: ignore[return-value]
    raise KeyError(f"no core encoder for ruleset slot {slot}")


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
        if state.phase in (Phase.STARTUP_CORE, Phase.RESPAWN_CORE, Phase.DUEL_CORE):
            return [CORE_OFFSET + i for i in core_encoding(state.table_ruleset).legal_indices(state.table)]
        return [OFFSET[k] + arg for k, arg in state.legal_actions()]

    def action_mask(self, state: AmalogsState, seat: int | None = None) -> np.ndarray:
        """int8 mask of shape ``(action_size,)``; all zeros for a player that is not to act."""
        mask = np.zeros(self.action_size, dtype=np.int8)
        if seat is None or seat == state.current_player:
            mask[self.legal_indices(state)] = 1
        return mask

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
        """The observation of player ``seat`` (spec 7.4)."""
        buf = np.zeros(self.layout.size, dtype=np.float32)
        self._write_map(buf, st, seat)
        self._write_global(buf, st, seat)
        self._write_players(buf, st, seat)
        self._write_core(buf, st, seat)
        return buf

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

    def _write_map(self, buf: np.ndarray, st: AmalogsState, seat: int) -> None:
        """Every map entry is 1.0: the squares' flat indices are gathered and set in one call."""
        base = self._map
        me = st.avatars[seat]
        team = me.team
        on = list(_FIXED_MAP[team])  # channels 3-6: the bases and spawn squares
        for i, a in enumerate(st.avatars):
            if not a.on_map:
                continue
            sq = base + a.square
            on.append(sq + SQUARES * (0 if i == seat else 1 if a.team == team else 2))
            if a.guarding:
                on.append(sq + 7 * SQUARES)
            if a.dueled:
                on.append(sq + 8 * SQUARES)
        if me.on_map:
            on += _in_range(me.square, me.range)
        d = st.duel
        if d is not None:
            for p in d.participants():
                if st.avatars[p].on_map:
                    on.append(base + 10 * SQUARES + st.avatars[p].square)
            for t in d.bases:
                on.append(base + 10 * SQUARES + BASES[t])
        if st.phase == Phase.MOVE_DEST and not st.done:
            on += [base + 11 * SQUARES + q for q in move_destinations(st)]
        buf[on] = 1.0

    def _write_global(self, buf: np.ndarray, st: AmalogsState, seat: int) -> None:
        g = buf[self._glob : self._glob + GLOBALS]
        team = st.avatars[seat].team
        g[0] = st.life[team] / 36
        g[1] = st.life[1 - team] / 36
        g[2] = st.team_turn / st.config.max_team_turns
        g[3] = float(st.acting == team)
        g[4] = float(st.first_team == team)
        g[5 + int(st.phase)] = 1.0
        g[16] = float(st.current_player == seat)
        g[17] = st.move_allowance / 12 if st.phase == Phase.MOVE_DEST else 0.0
        g[18] = st.dice[0] / 6
        g[19] = st.dice[1] / 6
        g[20] = st.duel.strike / 12 if st.duel is not None else 0.0
        kind = st.duel.proxy if st.duel is not None else NO_PROXY
        g[21 + kind] = 1.0
        g[24] = proxy_life(st) / 20 if kind != NO_PROXY else 0.0

    def _write_players(self, buf: np.ndarray, st: AmalogsState, seat: int) -> None:
        """One row per player slot, built as one list and written in one call."""
        na, nb = st.config.team_sizes
        me = st.avatars[seat]
        roles = duel_roles(st)
        flat: list[float] = []
        for k in range(PLAYER_SLOTS):
            team, j = divmod(k, 3)
            if j >= (na, nb)[team]:
                flat += _EMPTY_ROW
                continue
            i = j if team == 0 else na + j
            a = st.avatars[i]
            r = [0.0] * PLAYER_F
            r[0] = 1.0
            r[1] = float(i == seat)
            r[2] = float(a.team == me.team)
            if a.on_map:
                r[3] = 1.0
                r[4] = (a.square // 7) / 10
                r[5] = (a.square % 7) / 6
            r[6] = a.ap / 9
            r[7] = a.we / 4
            r[8] = a.range / 3
            if a.ruleset >= 0:
                r[9 + a.ruleset] = 1.0
            r[17] = float(a.dueled)
            r[18] = float(a.guarding)
            r[19] = float(a.exited)
            r[20 + roles.get(i, Role.NONE)] = 1.0
            summary = _summary(st, i)
            if summary is not None:
                r[26] = summary.life / 20
                r[27] = summary.hand / 10
                r[28] = summary.deck / 40
                r[29] = summary.units / 10
                r[30] = a.core_turns / 50
            r[31] = a.nominal / 20
            flat += r
        buf[self._players : self._players + PLAYER_SLOTS * PLAYER_F] = flat

    def _write_core(self, buf: np.ndarray, st: AmalogsState, seat: int) -> None:
        k = st.seat_of(seat)
        if k >= 0:
            slot, view, obs = st.table_ruleset, k, core_encoding(st.table_ruleset).observe(st.table, k)
        else:
            a = st.avatars[seat]
            if a.side is None:
                return
            ad = adapter(a.ruleset)
            table = ad.compose(a.side, None, st.rng, max(1, a.last_turn))
            slot, view, obs = a.ruleset, 2, core_encoding(a.ruleset).observe(table, 0)
        buf[self._head + slot] = 1.0
        buf[self._head + 8 + view] = 1.0
        buf[self._core : self._core + len(obs)] = obs


#: Where the map piece starts (it is the layout's first piece).
_MAP_START = 0
#: Per team, the map's flat indices of channels 3-6: own base, enemy base, own and enemy spawn squares.
_FIXED_MAP = tuple(
    (
        _MAP_START + 3 * SQUARES + BASES[t],
        _MAP_START + 4 * SQUARES + BASES[1 - t],
        *(_MAP_START + 5 * SQUARES + q for q in SPAWN[t]),
        *(_MAP_START + 6 * SQUARES + q for q in SPAWN[1 - t]),
    )
    for t in (0, 1)
)
#: An unused player slot's row.
_EMPTY_ROW = [0.0] * PLAYER_F


@functools.cache
def _in_range(square: int, reach: int) -> list[int]:
    """The map's channel-9 flat indices of the squares within ``reach`` of ``square``."""
    return [_MAP_START + 9 * SQUARES + q for q in range(SQUARES) if DIST[square][q] <= reach]


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


def _summary(st: AmalogsState, player: int) -> Any:
    """A8 summary of the player's core game, read from the running table while it is seated there."""
    k = st.seat_of(player)
    if k >= 0:
        return adapter(st.table_ruleset).table_summary(st.table, k)
    a = st.avatars[player]
    return None if a.side is None else adapter(a.ruleset).summary(a.side)

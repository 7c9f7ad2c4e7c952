"""Position builders for the Medarot OCG rule tests (spec ``docs/rules/medarot_ocg.md``).

The worked examples of spec section 9 name cards by their stats, e.g. ``Ash(SHOOT 5/2/30/20, 3)``
(speed / cost / power / armor, arrow count). ``TEST_CARDS`` holds exactly those cards plus a few
Medaroters and Medarots made for the primitive tests (P1-P16). ``pool()`` writes them once into a
TOML file in the temp directory and loads it with the engine's own loader (``load_pool``).

``make_state`` builds a position with the public builder ``envs.medarot_ocg.position.position``
(zones, masters, stock and Medarots placed on absolute squares, section 4.2; then the action
phase (``select``), one Medarot's action (``begin_action``) or the start phase, run to the first
decision point), with the test pool and the tests' conventions. Tests then drive the engine
only through ``GameState.apply``; ``do`` checks the decision point first.

Test modules import it as ``from tests.envs.medarot_ocg import fixtures as fx``.
"""

from __future__ import annotations

import hashlib
import os
import random
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from deckgym.envs.medarot_ocg import actions as A
from deckgym.envs.medarot_ocg.actions import DP, Action
from deckgym.envs.medarot_ocg.cards import CardPool, load_pool
from deckgym.envs.medarot_ocg.config import make_config
from deckgym.envs.medarot_ocg.position import position as build_position
from deckgym.envs.medarot_ocg.rules import flow, phases
from deckgym.envs.medarot_ocg.rules.board import eff_armor, eff_power, eff_speed
from deckgym.envs.medarot_ocg.state import GameState, Slot, Stack

# Owner-relative directions (D7).
F, FR, R, BR, B, BL, L, FL = range(8)
ALL8 = ["F", "FR", "R", "BR", "B", "BL", "L", "FL"]


# ----------------------------------------------------------------------------- the test pool
def _unit(
    cid: str,
    name: str,
    typ: str,
    spd: int,
    cost: int,
    pw: int,
    arm: int,
    arrows: list[str],
    effect: dict[str, Any] | None = None,
    kind: str = "MEDAROT",
    power_form: bool | None = None,
) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "id": cid,
        "name": name,
        "kind": kind,
        "speed": spd,
        "cost": cost,
        "type": typ,
        "power": pw,
        "armor": arm,
        "arrows": arrows,
    }
    if power_form is not None:
        rec["power_form"] = power_form
    if effect is not None:
        rec["effect"] = effect
    return rec


def _eff(
    timing: str,
    op: str,
    target: str,
    amount: int | None = None,
    cost: int | None = None,
    trash: str | None = None,
    flt: str | None = None,
) -> dict[str, Any]:
    e: dict[str, Any] = {"timing": timing, "op": op, "target": target}
    if amount is not None:
        e["amount"] = amount
    if flt is not None:
        e["type_filter"] = flt
    if cost is not None:
        e["cost"] = cost
    if trash is not None:
        e["trash"] = trash
    return e


def _roter(cid: str, name: str, hp_mod: int, *effects: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "name": name, "kind": "MEDAROTER", "hp_mod": hp_mod, "effects": list(effects)}


def _card(
    timing: str,
    op: str,
    target: str,
    amount: int | None = None,
    cost: int = 0,
    trash: str = "AFTER_USE",
    flt: str | None = None,
) -> dict[str, Any]:
    return _eff(timing, op, target, amount, cost, trash, flt)


TEST_CARDS: list[dict[str, Any]] = [
    # ---- Medarots of the worked examples (section 9): Name(type spd/cost/pow/arm, arrows)
    _unit("ASH", "Ash", "SHOOTING", 5, 2, 30, 20, ["F", "R", "L"]),
    _unit("BOLT", "Bolt", "MELEE", 3, 2, 30, 40, ["F", "R", "B", "L"]),
    _unit("COG", "Cog", "MELEE", 4, 1, 20, 20, ["F", "R", "B", "L", "FL"]),
    _unit("DOME", "Dome", "SHOOTING", 2, 3, 10, 30, ["F", "B"]),
    _unit("EDGE", "Edge", "MELEE", 6, 2, 40, 20, ["F", "R", "B", "L"]),
    _unit("FORT", "Fort", "SHOOTING", 3, 3, 30, 40, ["F", "B"]),
    _unit("GALE", "Gale", "SHOOTING", 4, 2, 20, 20, ["F", "B"]),
    _unit("HOOK", "Hook", "MELEE", 5, 2, 30, 20, ["F"]),
    _unit("IVY", "Ivy", "SHOOTING", 4, 1, 10, 20, ["F", "R", "L"]),
    _unit("JADE", "Jade", "MELEE", 3, 1, 20, 20, ["F"]),
    _unit("KITE", "Kite", "SHOOTING", 7, 2, 20, 10, ALL8),
    _unit("LARK", "Lark", "MELEE", 2, 2, 20, 20, ALL8),
    _unit("MOSS", "Moss", "MELEE", 3, 2, 20, 20, ["F", "B"]),
    _unit("NIB", "Nib", "MELEE", 2, 1, 20, 20, ["F", "R"]),
    _unit("PUG", "Pug", "MELEE", 5, 1, 20, 20, ["F"]),
    _unit("QUILL", "Quill", "SHOOTING", 5, 1, 20, 20, ["F"]),
    _unit("RUNE", "Rune", "SPECIAL", 4, 2, 0, 30, ALL8, _eff("ON_ACTIVATE", "MOD_ARMOR", "ALL_ALLIES", 20)),
    # Ex8 speed-order cards: A(6, 2 arrows, cost 2), B(5, 4, 3), X(5, 4, 2), Y(5, 3, 1), Z(6, 2, 2), W(9).
    _unit("A", "A", "SHOOTING", 6, 2, 10, 10, ["F", "B"]),
    _unit("B", "B", "SHOOTING", 5, 3, 10, 10, ["F", "R", "B", "L"]),
    _unit("X", "X", "SHOOTING", 5, 2, 10, 10, ["F", "R", "B", "L"]),
    _unit("Y", "Y", "SHOOTING", 5, 1, 10, 10, ["F", "R", "L"]),
    _unit("Z", "Z", "SHOOTING", 6, 2, 10, 10, ["F", "B"]),
    _unit("W", "W", "SHOOTING", 9, 1, 10, 10, ["F"]),
    # ---- extra Medarots for the rule tests
    _unit("RAM", "Ram", "SHOOTING", 3, 2, 40, 20, ["F", "B"]),
    _unit("SLOW", "Slowpoke", "SHOOTING", 1, 1, 10, 10, ["F"]),
    _unit("TANK", "Tank", "SHOOTING", 1, 4, 10, 90, ["F"]),
    _unit("BRUTE", "Brute", "MELEE", 8, 3, 50, 50, ["F", "FR", "R", "B", "L", "FL"]),
    _unit("SNIPE", "Sniper", "SHOOTING", 8, 1, 90, 10, ["F", "B"]),
    _unit("STING", "Stinger", "SHOOTING", 7, 1, 20, 10, ["F", "B"], _eff("ON_HIT", "DOT", "OPPONENT", 1)),
    _unit(
        "HORN", "Hornet", "SHOOTING", 7, 1, 10, 10, ["F", "B"], _eff("ON_HIT", "MOD_SPEED", "ATTACKED", -3)
    ),
    _unit("PIN", "Pinner", "SHOOTING", 7, 1, 10, 10, ["F", "B"], _eff("ON_HIT", "ROOT", "ATTACKED")),
    _unit("LEECH", "Leech", "SHOOTING", 7, 1, 10, 10, ["F", "B"], _eff("ON_HIT", "GAIN_HP", "OWNER", 1)),
    _unit("HEX", "Hex", "SPECIAL", 9, 1, 0, 10, ["F", "B"], _eff("ON_ACTIVATE", "DISABLE", "ONE_ENEMY")),
    _unit("SENTRY", "Sentry", "SPECIAL", 9, 1, 0, 90, ["F", "B"], _eff("ON_ACTIVATE", "GUARD", "SELF")),
    _unit(
        "HASTE", "Haste", "SPECIAL", 9, 1, 0, 10, ["F", "B"], _eff("ON_ACTIVATE", "MOD_SPEED", "ONE_ALLY", 3)
    ),
    _unit("GLUE", "Glue", "SPECIAL", 9, 1, 0, 10, ["F", "B"], _eff("ON_ACTIVATE", "ROOT", "ALL_ENEMIES")),
    _unit("DRAIN", "Drain", "SPECIAL", 9, 1, 0, 10, ["F", "B"], _eff("ON_ACTIVATE", "DAMAGE", "OPPONENT", 2)),
    # ---- MedaChange cards (advance): same names as Cog and Edge
    _unit("MC_COG", "Cog", "SHOOTING", 7, 1, 40, 30, ["F", "B"], kind="MEDACHANGE", power_form=False),
    _unit("MC_EDGE", "Edge", "MELEE", 9, 2, 60, 40, ALL8, kind="MEDACHANGE", power_form=True),
    # ---- Medaroters
    _roter("BLANK", "Blank", 0, _card("ACTION", "TRASH_STOCK", "OPPONENT", 1, cost=3)),
    _roter("MEMO", "Memo", 0, _card("TRIGGER", "NEGATE", "ATTACKED", cost=3, trash="AFTER_DEFENCE")),
    _roter("ORA", "Ora", -2, _card("ACTION", "MOD_POWER", "ACTING", 10, cost=1)),
    _roter("PLUS", "Plus", 3, _card("ACTION", "GAIN_HP", "OWNER", 1)),
    _roter("WALL", "Wall", 0, _card("DEFENCE", "MOD_ARMOR", "ATTACKED", 20, cost=2, trash="AFTER_DEFENCE")),
    _roter("POW", "Pow", 0, _card("ACTION", "MOD_POWER", "ACTING", 20, cost=1)),
    _roter(
        "RALLY", "Rally", 0, _card("ACTION", "MOD_POWER", "ALL_ALLIES", 10, trash="END_OF_TURN", flt="MELEE")
    ),
    _roter("WEAKEN", "Weaken", 0, _card("DEFENCE", "MOD_POWER", "ATTACKER", -20, trash="AFTER_DEFENCE")),
    _roter("SWIFT", "Swift", 0, _card("ACTION", "MOD_SPEED", "ONE_ENEMY", -3, trash="END_OF_TURN")),
    _roter("NEGD", "Negate Guard", 0, _card("DEFENCE", "NEGATE", "ATTACKED", cost=1, trash="AFTER_DEFENCE")),
    _roter("NEGA", "Negate Charm", 0, _card("ACTION", "NEGATE", "ATTACKED", trash="END_OF_TURN")),
    _roter("NEGT", "Negate Trap", 0, _card("TRIGGER", "NEGATE", "ATTACKED", trash="AFTER_DEFENCE")),
    _roter("SPIKE", "Spike", 0, _card("ACTION", "TRAP", "OWNER", 2, trash="END_OF_TURN")),
    _roter("GAIN", "Gain", 0, _card("ACTION", "GAIN_HP", "OWNER", 2)),
    _roter("HURT", "Hurt", 0, _card("ACTION", "DAMAGE", "OPPONENT", 2)),
    _roter("POISON", "Poison", 0, _card("ACTION", "DOT", "OPPONENT", 2, trash="END_OF_TURN")),
    _roter("DRAW", "Draw", 0, _card("ACTION", "DRAW", "OWNER", 2)),
    _roter("DISC", "Discard", 0, _card("ACTION", "DISCARD", "OPPONENT", 2)),
    _roter("BREAK", "Break", 0, _card("ACTION", "TRASH_STOCK", "OPPONENT", 1)),
    _roter("STUN", "Stun", 0, _card("ACTION", "DISABLE", "ONE_ENEMY", trash="END_OF_TURN")),
    _roter("SNARE", "Snare", 0, _card("ACTION", "ROOT", "ONE_ENEMY", trash="END_OF_TURN")),
    _roter("REST", "Rest", 0, _card("ACTION", "CANCEL_PENALTY", "ACTING")),
    _roter("LEAP", "Leap", 0, _card("ACTION", "FREE_FAR", "ACTING")),
    _roter("TRIG", "Trig", 0, _card("TRIGGER", "GAIN_HP", "OWNER", 1)),
    _roter("TRIGD", "Trig Late", 0, _card("TRIGGER", "GAIN_HP", "OWNER", 1, trash="AFTER_DEFENCE")),
    _roter("DUO", "Duo", 0, _card("ACTION", "GAIN_HP", "OWNER", 1), _card("ACTION", "DAMAGE", "OPPONENT", 1)),
    _roter(
        "MIX",
        "Mix",
        0,
        _card("ACTION", "GAIN_HP", "OWNER", 3, cost=3),
        _card("DEFENCE", "MOD_ARMOR", "ATTACKED", 10, cost=1, trash="AFTER_DEFENCE"),
    ),
]


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def pool_toml(cards: Iterable[dict[str, Any]] = TEST_CARDS) -> str:
    """The TOML text of a card pool file (``[[card]]`` tables)."""
    out = []
    for rec in cards:
        out.append("[[card]]")
        out.extend(f"{k} = {_toml_value(v)}" for k, v in rec.items())
        out.append("")
    return "\n".join(out)


def write_pool(text: str) -> Path:
    """Write a pool file named after its content hash (stable across processes) and return its path."""
    digest = hashlib.sha1(text.encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"medarot_ocg_test_pool_{digest}.toml"
    if not path.exists():
        fd, tmp = tempfile.mkstemp(suffix=".toml", dir=path.parent)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    return path


def pool(text: str | None = None) -> CardPool:
    """The test card pool (or the pool of the given TOML text), loaded by the engine's loader."""
    return load_pool([write_pool(pool_toml() if text is None else text)])


# ----------------------------------------------------------------------------- scripted RNG
class ScriptedRng(random.Random):
    """A ``random.Random`` whose ``shuffle`` and ``randrange`` follow a script, then fall back to the seed.

    ``shuffles``: callables applied in turn to the list being shuffled (``None`` keeps its order).
    ``ranges``: values returned in turn by ``randrange``.
    """

    def __init__(
        self,
        seed: int = 0,
        shuffles: Iterable[Callable[[list[str]], None] | None] = (),
        ranges: Iterable[int] = (),
    ) -> None:
        super().__init__(seed)
        self.shuffles = list(shuffles)
        self.ranges = list(ranges)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if self.shuffles:
            f = self.shuffles.pop(0)
            if f is not None:
                f(x)
            return
        super().shuffle(x)

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        if self.ranges:
            return self.ranges.pop(0)
        return super().randrange(*args, **kwargs)


def put_on_top(*top: str) -> Callable[[list[str]], None]:
    """A scripted shuffle that moves one copy of each id in ``top`` to the top of the deck.

    The deck's top is the end of the list; ``top[0]`` is drawn first.
    """

    def arrange(deck: list[str]) -> None:
        for cid in top:
            deck.remove(cid)
        deck.extend(reversed(top))

    return arrange


# ----------------------------------------------------------------------------- positions
def make_state(
    mode: str = "normal",
    *,
    units: dict[int, Any] | None = None,
    hands: tuple[list[str], list[str]] | None = None,
    decks: tuple[list[str], list[str]] | None = None,
    hp: tuple[int, int] | None = None,
    stock: tuple[list[Any], list[Any]] | None = None,
    master: Any = "default",
    reserve: tuple[list[str], list[str]] | None = None,
    trash: tuple[list[str], list[str]] | None = None,
    turn: int = 1,
    first: int = 0,
    seed: int = 0,
    start: Any = "select",
    cards: str | None = None,
    rng: random.Random | None = None,
    **overrides: Any,
) -> GameState:
    """Build a position and run it to its first decision point (``envs.medarot_ocg.position``).

        A thin caller of the public builder with the test conventions: the ``TEST_CARDS`` pool, a
        deck's top at its END, face-up ``BLANK`` masters by default, Medarots face up and not
        placed unless told, and no deck-regulation, field-cap or hand-limit check (tests use five
    copies of ``MEMO``, ten-card hands, and Ex8 fields four Medarots of P1).

        Args:
            mode: rules preset (beginner / normal / advance); ``overrides`` change single config fields.
            units: square -> card id (owner from the row), ``(card id, owner)``, or a dict with
                ``card``, ``owner``, ``face_up`` (True), ``placed`` (False), ``acted`` (False), ``change``.
            hands, decks, trash, reserve: per-player card id lists (a deck's top is its END).
            hp: per-player HP (default: the mode's starting HP).
            stock: per-player lists of up to 3 slots: None, ``"ID"`` (face down) or a ``Slot``.
            master: ``"default"`` = a face-up ``BLANK`` master for both players in normal/advance and none
                in beginner; ``None`` = no masters; or a pair of None / ``"ID"`` (face up) / ``Slot``.
            start: ``"select"`` (A0), a square (that Medarot begins its action at A1), ``"start_phase"``,
                or ``None`` (no agenda run).
            cards: TOML text of another pool (default ``TEST_CARDS``).
            rng: an RNG object to use instead of ``random.Random(seed)`` (e.g. a ``ScriptedRng``).
    """
    if master == "default":
        master = ("BLANK", "BLANK") if make_config(mode, **overrides).master else None
    return build_position(
        mode,
        pool=pool(cards),
        board={square: _unit_spec(spec) for square, spec in (units or {}).items()},
        masters=None if master is None else [_slot_spec(m) for m in master],
        stocks=None if stock is None else [[_slot_spec(x) for x in row] for row in stock],
        hands=hands,
        decks=None if decks is None else [list(reversed(d)) for d in decks],
        trash=trash,
        reserve=reserve,
        hp=hp,
        turn=turn,
        first=first,
        start=start,
        seed=seed,
        rng=rng,
        deck_rules=False,
        limits=False,
        **overrides,
    )


def _unit_spec(spec: Any) -> dict[str, Any]:
    """A ``units`` entry as the builder's explicit mapping (face up, not acted by default).

    A face-down Medarot was placed this turn unless told otherwise (I7: a face-down Medarot
    after the opening is one placed this turn).
    """
    if isinstance(spec, str):
        spec = {"card": spec}
    elif isinstance(spec, tuple):
        spec = {"card": spec[0], "owner": spec[1]}
    face_up = spec.get("face_up", True)
    return {"face_up": face_up, "placed": not face_up, "acted": False, **spec}


def _slot_spec(x: Any) -> Any:
    """A stock or master entry: a ``Slot`` becomes the builder's mapping; None and ids pass."""
    if not isinstance(x, Slot):
        return x
    out: dict[str, Any] = {"card": x.card, "face_up": x.face_up}
    if x.eff >= 0:
        out["effect"] = x.eff
    if x.charge:
        out["charge"] = x.charge
    return out


def new_game_scripted(
    mode: str, decks: tuple[list[str], list[str]], rng: random.Random, cards: str | None = None
) -> GameState:
    """``rules.new_game`` with a given RNG object (for a scripted opening)."""
    config = make_config(mode)
    st = GameState(config, pool(cards), [list(decks[0]), list(decks[1])], 0)
    st.rng = rng
    phases.setup(st)
    flow.run(st)
    return st


# ----------------------------------------------------------------------------- driving
def dp_name(dp: Any) -> str:
    """A decision point given as ``DP.X`` or ``"X"`` as its name."""
    return dp.name if isinstance(dp, DP) else str(dp)


def do(st: GameState, dp: Any, action: Action, player: int | None = None) -> None:
    """Check that the current decision point is ``dp`` (and its player), then apply ``action``."""
    assert st.decision == dp_name(dp), f"expected {dp_name(dp)}, at {st.decision}; log: {st.events[-6:]}"
    if player is not None:
        assert st.current_player == player, f"{st.decision} is P{st.current_player}'s, expected P{player}"
    st.apply(action)


def passes(st: GameState, *dps: Any) -> None:
    """Answer each listed decision point, in order, with PASS."""
    for dp in dps:
        do(st, dp, A.PASS)


def default_choice(st: GameState) -> Action:
    """The 'nothing special' answer: PASS, else COUNT(0), else the first legal option."""
    legal = st.legal_actions()
    if A.PASS in legal:
        return A.PASS
    if A.COUNT[0] in legal:
        return A.COUNT[0]
    return legal[0]


def run_until(
    st: GameState,
    pred: Callable[[GameState], bool],
    limit: int = 400,
    choose: Callable[[GameState], Action] = default_choice,
) -> None:
    """Apply default answers until ``pred(st)`` holds or the game ends."""
    for _ in range(limit):
        if st.done or pred(st):
            return
        st.apply(choose(st))
    raise AssertionError(f"run_until: no progress after {limit} steps; at {st.decision}")


def at(dp: Any, player: int | None = None) -> Callable[[GameState], bool]:
    """Predicate for ``run_until``: the current decision point is ``dp`` (of ``player``)."""
    name = dp_name(dp)
    return lambda st: st.decision == name and (player is None or st.current_player == player)


def finish_action(st: GameState) -> None:
    """PASS through the rest of the acting Medarot's action (to the next decision outside it)."""
    assert st.act is not None
    uid = st.act.uid
    run_until(st, lambda s: s.act is None or s.act.uid != uid or s.decision == "OPT_DRAW")


def acting_card(st: GameState) -> str:
    """Card id (top card) of the Medarot now acting."""
    assert st.act is not None
    for x in st.board:
        if x is not None and x.uid == st.act.uid:
            return x.top()
    raise AssertionError("the acting Medarot is not on the board")


def square_of_card(st: GameState, cid: str, owner: int | None = None) -> int:
    """Square of the (only) stack whose base or top is ``cid``; -1 if none."""
    hits = [
        s
        for s, x in enumerate(st.board)
        if x is not None and cid in (x.base, x.change) and (owner is None or x.owner == owner)
    ]
    assert len(hits) <= 1, f"{cid} is on several squares {hits}"
    return hits[0] if hits else -1


def stack(st: GameState, square: int) -> Stack:
    """The stack on ``square`` (asserting there is one)."""
    x = st.board[square]
    assert x is not None, f"square {square} is empty"
    return x


def power(st: GameState, square: int) -> int:
    """Effective power of the Medarot on ``square``."""
    return eff_power(st, stack(st, square))


def armor(st: GameState, square: int) -> int:
    """Effective armor of the Medarot on ``square``."""
    return eff_armor(st, stack(st, square))


def speed(st: GameState, square: int) -> int:
    """Effective speed of the Medarot on ``square``."""
    return eff_speed(st, stack(st, square))


def units_of(st: GameState, p: int) -> list[int]:
    """Squares of ``p``'s Medarots."""
    return [s for s, x in enumerate(st.board) if x is not None and x.owner == p]


def action_order(st: GameState, n: int) -> list[str]:
    """Let the next ``n`` Medarots act (PASS everywhere) and return their card ids in order."""
    order = []
    for _ in range(n):
        run_until(st, at(DP.ACTION_START))
        order.append(acting_card(st))
        finish_action(st)
    return order


def conserved(st: GameState, p: int) -> int:
    """Total number of ``p``'s cards in every zone (invariant I1)."""
    n = len(st.deck[p]) + len(st.hand[p]) + len(st.trash[p]) + len(st.reserve[p])
    n += sum(1 for x in st.stock[p] if x is not None) + (1 if st.master[p] is not None else 0)
    n += sum((2 if x.change else 1) for x in st.board if x is not None and x.owner == p)
    n += 1 if st.limbo[p] is not None else 0
    return n

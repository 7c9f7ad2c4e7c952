"""State copies of the Medarot OCG: JSON round trip, clone, resample_hidden and illegal actions.

* ``to_dict -> json -> from_dict`` at random points of random games gives an equal ``to_dict``,
  the same legal actions and the same continuation.
* ``clone()`` likewise, and the copies are independent.
* ``resample_hidden(seat)`` keeps every count and public fact and changes only hidden identities.
* An illegal action raises ``IllegalActionError`` naming the action and the legal options, and
  leaves the state unchanged.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from deckgym.envs.core.errors import IllegalActionError, StateError
from deckgym.envs.core.events import known_to
from deckgym.envs.medarot_ocg.actions import ALL_ACTIONS, Action, Kind
from deckgym.envs.medarot_ocg.cards import MEDAROT, MEDAROTER, load_pool, resolve_deck, starter_decks
from deckgym.envs.medarot_ocg.config import MODES, make_config
from deckgym.envs.medarot_ocg.rules import new_game
from deckgym.envs.medarot_ocg.state import GameState

POOL = load_pool()
SEEDS = range(8)


def start(mode: str, seed: int) -> GameState:
    cfg = make_config(mode)
    names = starter_decks(mode)
    rng = random.Random(seed)
    decks = [resolve_deck(rng.choice(names), POOL, cfg).expand() for _ in range(2)]
    return new_game(cfg, POOL, decks, seed)


def snapshot(gs: GameState) -> str:
    """A frozen text copy of ``to_dict`` (the dict itself may share lists with the state)."""
    return json.dumps(gs.to_dict(), sort_keys=True)


def roundtrip(gs: GameState) -> GameState:
    return GameState.from_dict(json.loads(json.dumps(gs.to_dict())))


def random_points(rng: random.Random, n: int = 6) -> set[int]:
    return {0} | {rng.randrange(400) for _ in range(n)}


def play_randomly(gs: GameState, rng: random.Random, steps: int) -> None:
    """Apply up to ``steps`` actions chosen by ``rng``, stopping early if the game ends."""
    for _ in range(steps):
        if gs.done:
            break
        gs.apply(rng.choice(gs.legal_actions()))


def unfinished_games(mode: str, rng_seed: int, most: int) -> Iterator[tuple[int, GameState, random.Random]]:
    """For each seed of SEEDS whose game is not over after up to ``most`` random moves: the seed,
    that game of ``mode`` and the generator that chose its moves (seeded ``rng_seed + seed``)."""
    for seed in SEEDS:
        rng = random.Random(rng_seed + seed)
        gs = start(mode, seed)
        play_randomly(gs, rng, rng.randrange(0, most))
        if not gs.done:
            yield seed, gs, rng


def lockstep(a: GameState, b: GameState, rng: random.Random) -> int:
    """Apply the same random actions to ``a`` and ``b`` to the end; both must stay equal. Returns steps."""
    steps = 0
    while not a.done:
        la, lb = a.legal_actions(), b.legal_actions()
        assert la == lb, f"step {steps}: legal actions differ: {la} vs {lb}"
        assert a.current_player == b.current_player and a.decision == b.decision
        act = rng.choice(la)
        a.apply(act)
        b.apply(act)
        steps += 1
        if steps % 25 == 0:
            assert a.to_dict() == b.to_dict(), f"states differ after {steps} steps"
    assert b.done
    assert a.to_dict() == b.to_dict()
    assert a.returns() == b.returns() and a.winner == b.winner and a.reason == b.reason
    return steps


def play_checking_copies(
    mode: str, seed: int, rng: random.Random, copy: Callable[[GameState], GameState]
) -> GameState:
    """Play a random game of ``mode`` (deals by ``seed``, moves by ``rng``) to its end. At random
    points ``copy(state)`` must equal the state (dict, legal actions, seat, decision), and one
    copy, played on beside the original, must stay equal to it. Returns the finished game."""
    gs = start(mode, seed)
    points = random_points(rng)
    follow = rng.choice(sorted(points))  # one copy is played to the end beside the original
    twin: GameState | None = None
    step = 0
    while not gs.done:
        if step in points:
            c = copy(gs)
            assert c.to_dict() == gs.to_dict(), f"{mode} seed {seed} step {step}"
            assert c.legal_actions() == gs.legal_actions()
            assert (c.current_player, c.decision) == (gs.current_player, gs.decision)
            if step == follow:
                twin = c
        act = rng.choice(gs.legal_actions())
        gs.apply(act)
        if twin is not None:
            assert act in twin.legal_actions()
            twin.apply(act)
            assert twin.to_dict() == gs.to_dict(), f"{mode} seed {seed}: continuation differs at {step}"
        step += 1
    if twin is not None:
        assert twin.done and twin.returns() == gs.returns()
    return gs


# ----------------------------------------------------------------------------- JSON round trip
@pytest.mark.parametrize("mode", MODES)
def test_json_roundtrip_at_random_points_equal_dict_legal_and_continuation(mode: str) -> None:
    for seed in SEEDS:
        gs = play_checking_copies(mode, seed, random.Random(1000 + seed), roundtrip)
        end = roundtrip(gs)
        assert end.to_dict() == gs.to_dict() and end.done and end.legal_actions() == []


@pytest.mark.parametrize("mode", MODES)
def test_json_roundtrip_continuation_with_coin_flips(mode: str) -> None:
    """The RNG state travels too: a restored copy flips the same coins (D16) and plays the same game."""
    for seed in SEEDS:
        rng = random.Random(seed)
        gs = start(mode, seed)
        play_randomly(gs, rng, rng.randrange(1, 80))
        back = roundtrip(gs)
        lockstep(gs, back, random.Random(seed + 7))


def test_from_dict_does_not_keep_the_dict() -> None:
    gs = start("advance", 4)
    rng = random.Random(4)
    for _ in range(60):
        gs.apply(rng.choice(gs.legal_actions()))
    data = json.loads(json.dumps(gs.to_dict()))
    back = GameState.from_dict(data)
    before = snapshot(back)
    data["hand"][0].append("MD01")
    data["hp"][1] = 99
    data["agenda"].clear()
    assert snapshot(back) == before


def test_to_dict_is_a_snapshot_not_a_view() -> None:
    gs = start("normal", 2)
    rng = random.Random(2)
    saved = gs.to_dict()
    text = json.dumps(saved, sort_keys=True)
    for _ in range(40):
        gs.apply(rng.choice(gs.legal_actions()))
    assert json.dumps(saved, sort_keys=True) == text


def test_from_dict_rejects_foreign_and_broken_dicts() -> None:
    with pytest.raises(StateError, match="ruleset"):
        GameState.from_dict({"ruleset": "other"})
    data = start("beginner", 0).to_dict()
    broken = json.loads(json.dumps(data))
    del broken["hand"]
    with pytest.raises(StateError, match="^hand: missing$"):
        GameState.from_dict(broken)
    with pytest.raises(StateError, match=r"^board\[2\]: expected a Stack list of 7 \(uid, owner, base"):
        GameState.from_dict({**data, "board": [None, None, [1, 0]] + [None] * 12})
    with pytest.raises(StateError, match=r"^config: expected a mapping of rules options"):
        GameState.from_dict({**data, "config": 3})


# ----------------------------------------------------------------------------- clone
@pytest.mark.parametrize("mode", MODES)
def test_clone_at_random_points_equal_dict_legal_and_continuation(mode: str) -> None:
    for seed in SEEDS:
        gs = play_checking_copies(mode, seed, random.Random(2000 + seed), GameState.clone)
        assert gs.clone().to_dict() == gs.to_dict()


@pytest.mark.parametrize("mode", MODES)
def test_clone_is_independent(mode: str) -> None:
    for _seed, gs, rng in unfinished_games(mode, 3000, 150):
        frozen = snapshot(gs)
        legal = list(gs.legal_actions())
        c = gs.clone()
        # play the clone to the end: the original does not move
        while not c.done:
            c.apply(rng.choice(c.legal_actions()))
        assert snapshot(gs) == frozen
        assert gs.legal_actions() == legal
        # and the other way round
        c_frozen = snapshot(c)
        c2 = gs.clone()
        while not gs.done:
            gs.apply(rng.choice(gs.legal_actions()))
        assert snapshot(c) == c_frozen
        assert snapshot(c2) == frozen
        # direct changes to the clone's zones do not reach the original either
        c2.hand[0].append("MD01")
        c2.hp[0] += 5
        c2.board[0] = None
        c2.agenda.append(["select"])
        assert snapshot(c2) != frozen


def test_clone_same_rng_same_coin_flips() -> None:
    for seed in SEEDS:
        rng = random.Random(seed)
        gs = start("beginner", seed)
        play_randomly(gs, rng, rng.randrange(1, 60))
        lockstep(gs, gs.clone(), random.Random(seed * 3 + 1))


# ----------------------------------------------------------------------------- resample_hidden
def _hidden_places(gs: GameState, o: int) -> list[str]:
    """Identities of ``o``'s cards that ``o``'s opponent cannot see (deck, hand, face-down cards, private limbo)."""
    out = list(gs.deck[o]) + list(gs.hand[o])
    out += [x.card for x in gs.stock[o] if x is not None and not x.face_up]
    m = gs.master[o]
    if m is not None and not m.face_up:
        out.append(m.card)
    out += [x.base for x in gs.board if x is not None and x.owner == o and not x.face_up]
    lim = gs.limbo[o]
    if lim is not None and not lim[1]:
        out.append(lim[0])
    return out


def public_view(gs: GameState, seat: int) -> dict[str, Any]:
    """``to_dict`` with everything hidden from ``seat`` blanked out (section 7)."""
    d = json.loads(json.dumps(gs.to_dict()))
    o = 1 - seat
    d["rng"] = None
    d["deck"][seat] = sorted(d["deck"][seat])  # own deck order is hidden, its contents are known
    d["deck"][o] = len(d["deck"][o])
    d["hand"][o] = len(d["hand"][o])
    for slot in d["stock"][o]:
        if slot is not None and not slot[1]:
            slot[0] = "?"
    m = d["master"][o]
    if m is not None and not m[1]:
        m[0] = "?"
    for x in d["board"]:
        if x is not None and x[1] == o and not x[4]:
            x[2] = "?"
    lim = d["limbo"][o]
    if lim is not None and not lim[1]:
        lim[0] = "?"
    d["records"] = known_to(d["records"], seat)  # the other seat's private event fields are hidden
    return d


def _check_resample(gs: GameState, seat: int, r: GameState) -> None:
    o = 1 - seat
    # every count and public fact
    assert public_view(r, seat) == public_view(gs, seat)
    for p in (0, 1):
        assert len(r.hand[p]) == len(gs.hand[p]) and len(r.deck[p]) == len(gs.deck[p])
        assert r.trash[p] == gs.trash[p] and r.reserve[p] == gs.reserve[p]
        assert r.hp[p] == gs.hp[p]
    for s in range(15):
        a, b = gs.board[s], r.board[s]
        assert (a is None) == (b is None)
        if a is not None:
            assert (a.owner, a.uid, a.face_up, a.acted, a.placed) == (
                b.owner,
                b.uid,
                b.face_up,
                b.acted,
                b.placed,
            )
            if a.face_up or a.owner == seat:
                assert (a.base, a.change) == (b.base, b.change)
            else:
                assert r.cards[b.base].kind == MEDAROT
    for p in (0, 1):
        for j in range(3):
            a, b = gs.stock[p][j], r.stock[p][j]
            assert (a is None) == (b is None)
            if a is not None:
                assert (a.face_up, a.eff, a.trash, a.charge) == (b.face_up, b.eff, b.trash, b.charge)
                if a.face_up or p == seat:
                    assert a.card == b.card
                else:
                    assert r.cards[b.card].kind == MEDAROTER
    # the seat's own private cards are kept exactly
    assert r.hand[seat] == gs.hand[seat]
    assert Counter(r.deck[seat]) == Counter(gs.deck[seat])
    assert r.limbo[seat] == gs.limbo[seat]
    assert (r.master[seat] is None) == (gs.master[seat] is None)
    if gs.master[seat] is not None:
        assert r.master[seat].card == gs.master[seat].card
    # the opponent's hidden cards are a reshuffle of the same cards
    assert Counter(_hidden_places(r, o)) == Counter(_hidden_places(gs, o))
    for p in (0, 1):
        total = _hidden_places(r, p) + list(r.trash[p]) + list(r.reserve[p])
        total += [x.card for x in r.stock[p] if x is not None and x.face_up]
        if r.master[p] is not None and r.master[p].face_up:
            total.append(r.master[p].card)
        for x in r.board:
            if x is not None and x.owner == p:
                total += ([x.base] if x.face_up else []) + ([x.change] if x.change else [])
        lim = r.limbo[p]
        if lim is not None and lim[1]:
            total.append(lim[0])
        assert Counter(total) == Counter(r.decks[p]), f"P{p} card conservation broken by resample_hidden"


@pytest.mark.parametrize("mode", MODES)
def test_resample_hidden_keeps_counts_and_public_facts(mode: str) -> None:
    changed = 0
    for seed in SEEDS:
        rng = random.Random(4000 + seed)
        gs = start(mode, seed)
        points = random_points(rng, 8)
        step = 0
        while not gs.done:
            if step in points:
                for seat in (0, 1):
                    frozen = snapshot(gs)
                    r = gs.resample_hidden(seat, random.Random(rng.randrange(10**9)))
                    assert snapshot(gs) == frozen, "resample_hidden changed the original"
                    _check_resample(gs, seat, r)
                    changed += r.hand[1 - seat] != gs.hand[1 - seat] or r.deck[1 - seat] != gs.deck[1 - seat]
            gs.apply(rng.choice(gs.legal_actions()))
            step += 1
    assert changed > 0, "resample_hidden never changed a hidden card"


@pytest.mark.parametrize("mode", MODES)
def test_resample_hidden_keeps_the_seats_own_options(mode: str) -> None:
    """Section 7: the options of the deciding seat depend only on what it knows."""
    for seed in SEEDS:
        rng = random.Random(5000 + seed)
        gs = start(mode, seed)
        while not gs.done:
            if rng.random() < 0.1:
                seat = gs.current_player
                r = gs.resample_hidden(seat, random.Random(rng.randrange(10**9)))
                assert r.legal_actions() == gs.legal_actions(), (
                    f"{mode} seed {seed} step {gs.steps} {gs.decision}: seat {seat}'s options changed"
                )
            gs.apply(rng.choice(gs.legal_actions()))


@pytest.mark.parametrize("mode", MODES)
def test_resampled_state_plays_to_the_end(mode: str) -> None:
    for seed, gs, rng in unfinished_games(mode, 6000, 200):
        r = gs.resample_hidden(rng.randrange(2), random.Random(seed))
        while not r.done:
            legal = r.legal_actions()
            assert legal
            r.apply(rng.choice(legal))
        assert r.done


def test_resample_hidden_is_reproducible_with_the_same_rng() -> None:
    gs = start("advance", 6)
    rng = random.Random(6)
    for _ in range(90):
        gs.apply(rng.choice(gs.legal_actions()))
    a = gs.resample_hidden(0, random.Random(42))
    b = gs.resample_hidden(0, random.Random(42))
    assert a.to_dict() == b.to_dict()


# ----------------------------------------------------------------------------- illegal actions


def _assert_illegal(gs: GameState, action: Any, shown: str) -> None:
    frozen = snapshot(gs)
    legal = list(gs.legal_actions())
    decision = gs.decision
    with pytest.raises(IllegalActionError) as info:
        gs.apply(action)
    msg = str(info.value)
    assert shown in msg, msg
    assert decision in msg, msg
    for a in legal[:40]:
        assert str(a) in msg, f"legal option {a} missing from {msg!r}"
    assert info.value.legal == legal
    assert snapshot(gs) == frozen, "an illegal action changed the state"
    assert gs.legal_actions() == legal


@pytest.mark.parametrize("mode", MODES)
def test_illegal_action_raises_and_leaves_state_unchanged(mode: str) -> None:
    for seed in SEEDS[:4]:
        rng = random.Random(7000 + seed)
        gs = start(mode, seed)
        while not gs.done:
            if rng.random() < 0.15:
                legal = gs.legal_actions()
                bad = [a for a in ALL_ACTIONS if a not in legal]
                a = rng.choice(bad)
                _assert_illegal(gs, a, str(a))
                _assert_illegal(gs, (int(a.kind), a.arg), str(a))  # a plain pair is read as an Action
                _assert_illegal(gs, "not an action", "not an action")
            gs.apply(rng.choice(gs.legal_actions()))
        with pytest.raises(IllegalActionError, match="game over"):
            gs.apply(Action(Kind.PASS, 0))


def test_illegal_action_with_unknown_kind_raises_illegal_action_error() -> None:
    """An action whose kind is outside the Kind enum is illegal like any other (not a bare ValueError)."""
    gs = start("advance", 1)
    _assert_illegal(gs, Action(99, 0), "99")
    _assert_illegal(gs, (99, 0), "99")

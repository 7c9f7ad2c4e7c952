"""The look-ahead agent (agents.search): its choice on a toy game, legality, seeds, specs."""

from __future__ import annotations

import random
import time

import pytest

from deckgym import agents as agent_lib
from deckgym import envs
from deckgym.agents.arena import play_game
from deckgym.agents.random_agent import RandomAgent
from deckgym.agents.search import SearchAgent
from tests.agents.checked import Checked
from tests.envs.positions import random_positions
from tests.envs.variants import AMALOGS, MOW, OCG, PARTS, ids


class Race:
    """A toy two-seat game: the player to move adds 1 or 2 to a hidden-free counter; reaching 4 wins.

    Every seat knows everything, so ``resample_hidden`` only copies; it logs which seat asked.
    """

    def __init__(self, total: int = 0, player: int = 0, log: list[int] | None = None) -> None:
        self.total, self.current_player = total, player
        self.winner: int | None = None
        self.log = log if log is not None else []

    def legal_actions(self) -> list[int]:
        return [1, 2]

    def apply(self, a: int) -> None:
        self.total += a
        if self.total >= 4:
            self.winner = self.current_player
        self.current_player = 1 - self.current_player

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        return [1.0 if self.winner == p else -1.0 for p in (0, 1)]

    def clone(self) -> Race:
        c = Race(self.total, self.current_player, self.log)
        c.winner = self.winner
        return c

    def resample_hidden(self, seat: int, rng: random.Random) -> Race:
        self.log.append(seat)
        return self.clone()


class Add:
    """A rule of thumb for the toy game: always add ``n``."""

    def __init__(self, n: int):
        self.n = n

    def choose(self, state: Race, seat: int) -> int:
        return self.n


def test_search_finds_the_move_its_heuristic_misses():
    # From 2, adding 2 wins at once; adding 1 (the heuristic's move) leaves 3 and the opponent wins.
    agent = SearchAgent(Add(1), worlds=3, seed=0)
    st = Race(total=2, player=1)
    assert agent.choose(st, 1) == 2
    assert agent.action_value([st], 2, 1) == 1.0
    assert agent.action_value([st], 1, 1) == -1.0
    assert st.log == [1, 1, 1]  # three worlds, each sampled from the searching seat's view


def test_search_keeps_the_heuristic_move_on_a_tie():
    # From 3 both moves win at once: the heuristic's 2 is kept although 1 is listed first.
    agent = SearchAgent(Add(2), worlds=2, seed=0)
    st = Race(total=3, player=0)
    assert agent.action_value([st], 1, 0) == agent.action_value([st], 2, 0) == 1.0
    assert agent.choose(st, 0) == 2


class SlowAdd(Add):
    """``Add`` that takes ``seconds`` per choice and counts its calls: a slow rollout."""

    def __init__(self, n: int, seconds: float):
        super().__init__(n)
        self.seconds, self.calls = seconds, 0

    def choose(self, state: Race, seat: int) -> int:
        self.calls += 1
        time.sleep(self.seconds)
        return self.n


def test_within_its_time_the_search_is_the_full_search_and_past_it_the_best_played_so_far():
    # From 2 for seat 1: adding 2 wins at once; adding 1 (the heuristic's) loses after one slow choice.
    slow = SlowAdd(1, 0.01)
    roomy = SearchAgent(slow, worlds=10, seed=0, seconds=5.0)
    assert roomy.choose(Race(total=2, player=1), 1) == 2  # time enough: the full search's choice
    assert slow.calls == 1 + 10  # the heuristic's own choice, then its move in the 10 worlds
    slow.calls = 0
    short = SearchAgent(slow, worlds=5000, seed=0, seconds=0.3)
    t0 = time.monotonic()
    assert short.choose(Race(total=2, player=1), 1) == 1  # the time ran out on the first candidate
    spent = time.monotonic() - t0
    assert 2 <= slow.calls < 1000  # some worlds, far from all 5000
    assert spent < 0.3 + 2.0, spent  # the budget, one rollout past it, and drawing the worlds


def test_a_reply_deadline_already_past_plays_the_heuristics_move_without_look_ahead():
    slow = SlowAdd(1, 0.0)
    agent = SearchAgent(slow, worlds=16, seed=0)
    agent.deadline = time.monotonic() - 1.0
    st = Race(total=2, player=1)
    assert agent.choose(st, 1) == 1 and slow.calls == 1  # the heuristic's own choice, no rollout
    assert st.log == [1] * 16  # the worlds are still drawn: the generator's stream does not depend on time
    agent.deadline = None
    assert agent.choose(Race(total=2, player=1), 1) == 2  # no limit: the full search again


def test_the_tables_reply_deadline_is_set_for_the_ais_moves_and_cleared_after():
    from deckgym.agents.play.session import REPLY_SECONDS, GameSession

    game = GameSession("mow_v1", {}, "search", seat=0, seed=3)
    seen: list[float] = []

    class Spy:  # the AI's rules of thumb, noting how much of the reply's time is left
        def __init__(self, real):
            self.real = real

        def choose(self, state, seat):
            seen.append(game.agent.deadline - time.monotonic())
            return self.real.choose(state, seat)

    game.agent.rollout = Spy(game.agent.rollout)
    while game.your_turn and not seen:
        game.play(game.legal()[0]["index"])
    assert seen and all(0 < left <= REPLY_SECONDS for left in seen)
    assert game.agent.deadline is None


def test_search_needs_at_least_one_world():
    with pytest.raises(ValueError, match="at least 1 world"):
        SearchAgent(Add(1), worlds=0)


def test_agent_specs_name_the_number_of_worlds():
    assert agent_lib.make("search", "medarot_parts_v1", seed=0).worlds == 4
    assert agent_lib.make("search:8", "medarot_parts_v1", seed=0).name == "search:8"
    with pytest.raises(ValueError, match="search:x"):
        agent_lib.make("search:x", "medarot_parts_v1")


CASES = [OCG[0], OCG[2], PARTS, MOW, AMALOGS[0]]


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=ids(CASES))
def test_search_plays_legal_games_of_every_ruleset(name, kwargs):
    assert {n for n, _ in CASES} == set(envs.names())
    env = envs.make(name, **kwargs)
    agent = Checked(agent_lib.make("search:1", name, seed=3))
    seats = len(env.possible_agents)
    for g in range(2):
        players = [RandomAgent(10 + i) for i in range(seats)]
        players[g % seats] = agent
        returns = play_game(env, players, seed=g)
        assert len(returns) == seats
    assert agent.moves > 20


def test_search_is_deterministic_under_a_seed():
    """The same seed gives the same choices; other seeds sample other worlds and choose otherwise."""
    env = envs.make("medarot_parts_v1")
    positions = [e.unwrapped.game.clone() for e in random_positions(env, games=2, every=9)]
    positions = [p for p in positions if len(p.legal_actions()) >= 3][:25]
    assert len(positions) >= 10

    def choices(seed: int) -> list[object]:
        agent = agent_lib.make("search:2", "medarot_parts_v1", seed=seed)
        agent.reset(seed=seed)
        return [agent.choose(p, p.current_player) for p in positions]

    seven = choices(7)
    assert seven == choices(7)
    assert any(choices(s) != seven for s in (8, 9, 10))


class Counted(Add):
    """``Add(1)`` that counts the rollout moves it is asked for."""

    def __init__(self) -> None:
        super().__init__(1)
        self.calls = 0

    def choose(self, state: Race, seat: int) -> int:
        self.calls += 1
        return super().choose(state, seat)


def test_search_stops_rolling_out_once_the_choice_is_settled():
    # From 1 (player 0), the heuristic's "add 1" wins in every world (2, 3, 4 by player 0):
    # nothing can beat a win everywhere, so "add 2" is never rolled out.
    rollout = Counted()
    agent = SearchAgent(rollout, worlds=5, seed=0)
    st = Race(total=1, player=0)
    assert agent.choose(st, 0) == 1
    assert rollout.calls == 1 + 5 * 2  # the root's default, then 5 worlds of two rollout moves
    # With a bound to beat, an action stops at the first world that settles it: "add 2" from 1
    # loses everywhere (3, then player 1 reaches 4).
    rollout.calls = 0
    assert agent.action_total([st] * 5, 2, 0, beat=3.0) is None  # -1 + 4 wins can't pass 3
    assert rollout.calls == 1
    assert agent.action_total([st] * 5, 2, 0, beat=-5.0) is None  # equal is not better
    assert agent.action_total([st] * 5, 2, 0, beat=-5.5) == -5.0
    assert agent.action_value([st] * 5, 2, 0) == -1.0


def _full_search(agent: SearchAgent, state, seat: int):
    """The unpruned search: every action in every world, the first strictly better kept."""
    legal = state.legal_actions()
    default = agent.rollout.choose(state, seat)
    if len(legal) < 2:
        return default
    worlds = [state.resample_hidden(seat, agent._rng) for _ in range(agent.worlds)]
    best, best_value = default, agent.action_value(worlds, default, seat)
    for a in legal:
        if a != default and (v := agent.action_value(worlds, a, seat)) > best_value:
            best, best_value = a, v
    return best


@pytest.mark.parametrize(("name", "kwargs"), CASES[:4], ids=[f"{n}-{k}" for n, k in CASES[:4]])
def test_the_pruned_search_chooses_as_the_full_search(name, kwargs):
    env = envs.make(name, **kwargs)
    positions = [e.unwrapped.game.clone() for e in random_positions(env, games=2, every=11)]
    positions = [p for p in positions if len(p.legal_actions()) >= 2][:12]
    assert len(positions) >= 8
    pruned = agent_lib.make("search:3", name, seed=5, **kwargs)
    full = agent_lib.make("search:3", name, seed=5, **kwargs)
    for p in positions:
        assert pruned.choose(p, p.current_player) == _full_search(full, p, p.current_player)
    assert pruned._rng.random() == full._rng.random()  # the same worlds were sampled

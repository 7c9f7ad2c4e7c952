"""The shared observation helpers of ``envs.encoding.codec``."""

from __future__ import annotations

import array
import itertools

from deckgym.envs.encoding import codec
from deckgym.envs.encoding.codec import write_hand

ROWS = {c: array.array("f", [float(k + 1), float(10 * (k + 1))]) for k, c in enumerate("abcd")}


def _written(hand: list[str], memo: dict, last: list, slot: int = 0) -> list[float]:
    buf = array.array("f", bytes(4 * (2 + 2 * max(5, len(hand)))))
    write_hand(buf, 2, hand, ROWS, memo, last, slot)
    return list(buf)


def _expected(hand: list[str]) -> list[float]:
    out = [0.0] * (2 + 2 * max(5, len(hand)))
    for k, c in enumerate(hand):
        out[2 + 2 * k : 4 + 2 * k] = list(ROWS[c])
    return out


def test_write_hand_writes_each_cards_row_in_order_and_keeps_the_piece():
    memo: dict = {}
    last: list = [None, None]
    assert _written(["b", "a", "b"], memo, last) == _expected(["b", "a", "b"])
    assert list(memo) == [("b", "a", "b")]
    assert last[0] is not None and last[1] is None
    # the same hand again comes from the slot's last piece, then from the memo for another slot
    assert _written(["b", "a", "b"], memo, last) == _expected(["b", "a", "b"])
    assert _written(["b", "a", "b"], memo, last, slot=1) == _expected(["b", "a", "b"])
    assert last[1][1] is memo[("b", "a", "b")]


def test_write_hand_sees_a_hand_changed_in_place_and_a_hand_of_other_cards():
    memo: dict = {}
    last: list = [None]
    hand = ["a", "c"]
    _written(hand, memo, last)
    hand[1] = "d"  # the engine's list, changed in place: the kept copy no longer matches
    assert _written(hand, memo, last) == _expected(["a", "d"])
    hand.append("b")
    assert _written(hand, memo, last) == _expected(["a", "d", "b"])
    assert _written([], memo, last) == [0.0] * 12  # nothing written


def test_the_hand_memo_starts_over_when_full():
    memo: dict = {}
    last: list = [None]
    hands = [list(h) for h in itertools.product("abcd", repeat=7)][: codec.HAND_MEMO + 1]
    for hand in hands:
        _written(hand, memo, last)
    assert list(memo) == [tuple(hands[-1])]
    assert _written(hands[0], memo, last) == _expected(hands[0])

"""Exact hand strength on River of Blood run boards (more than five cards) against a direct count.

`_strength_vs_range` scores boards past five cards with `_long_board_strength` (one evaluation
per rank pair plus flush look-ups); the reference evaluates the hand and every live opponent
holding with `game.cards.evaluator.evaluate_batch`. Both sum halves exactly, so results must be equal.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from abstraction.cards.kernels_features import _strength_vs_range
from game.cards.deck import parse_cards
from game.cards.evaluator import evaluate_batch


def direct_strength(hole: list[int], board: list[int], dead: int) -> float:
    """Share of opponent pairs outside ``dead`` beaten by ``hole`` on ``board``, ties half."""
    deck = [card for card in range(52) if not (dead >> card) & 1]
    own = evaluate_batch(np.array([hole + board]))[0]
    others = evaluate_batch(np.array([list(pair) + board for pair in itertools.combinations(deck, 2)]))
    return float(((own > others) + 0.5 * (own == others)).mean())


def kernel_strength(hole: list[int], board: list[int], dead: int) -> float:
    scratch = np.empty(len(board) + 3, dtype=np.int8)
    return _strength_vs_range(
        np.array(hole, dtype=np.int8), np.array(board, dtype=np.int8), np.int64(dead), 2, 0, scratch
    )


def bits(cards: list[int]) -> int:
    return sum(1 << card for card in cards)


@pytest.mark.parametrize("n_hole", [2, 3])
def test_random_long_boards_match_direct_count(n_hole):
    """Boards of 5..20 cards; every third deal also has 1..4 cards known gone (swapped out)."""
    rng = np.random.default_rng(100 + n_hole)
    for deal in range(160):
        n_board = 5 + deal % 16
        n_gone = 1 + deal % 4 if deal % 3 == 0 else 0
        cards = rng.choice(52, n_hole + n_board + n_gone, replace=False).tolist()
        hole, board = cards[:n_hole], cards[n_hole : n_hole + n_board]
        dead = bits(cards)
        assert kernel_strength(hole, board, dead) == direct_strength(hole, board, dead), (
            hole,
            board,
            cards[n_hole + n_board :],
        )


@pytest.mark.parametrize("n_board", [21, 26, 31])
def test_longest_boards_match_direct_count(n_board):
    """Run boards up to 31 cards, where few opponent pairs remain and most hands hold flushes."""
    rng = np.random.default_rng(n_board)
    for n_hole in (2, 3):
        for _ in range(4):
            cards = rng.choice(52, n_hole + n_board, replace=False).tolist()
            hole, board = cards[:n_hole], cards[n_hole:]
            assert kernel_strength(hole, board, bits(cards)) == direct_strength(hole, board, bits(cards)), (hole, board)


@pytest.mark.parametrize(
    ("hole_text", "board_text"),
    [
        ("Ah4c", "2h5h9hJhKh3h"),  # flush on the board: one heart of the opponent's improves it
        ("AcKc", "2h5h9hJc4cTc"),  # two suits three deep: two-card flushes in either
        ("Ah3h", "9h9d9cKhKd2h5h"),  # full house on the board beats every flush but straight flushes
        ("KhKs", "5s6s7s8sKdKc"),  # own quads against one-card straight flushes (4s or 9s)
        ("5h6h7c", "2h3h4hQdQsQc"),  # three hole cards: a straight flush against quads
        ("AdAc", "AhAs2d3d4d5d6d"),  # quads against a straight flush and flushes on one suit
    ],
)
def test_flush_and_full_house_boards_match_direct_count(hole_text, board_text):
    hole, board = parse_cards(hole_text).tolist(), parse_cards(board_text).tolist()
    dead = bits(hole + board)
    assert kernel_strength(hole, board, dead) == direct_strength(hole, board, dead)

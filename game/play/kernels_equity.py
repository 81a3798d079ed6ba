"""Numba kernel of the Monte Carlo equity behind ``game.play.bots.EquityBot``. Users call ``game.play.bots``.

One sample: draw the opponent's hole cards uniformly from the unseen cards (a uniform range),
any extra hole card still to come (Auction's third card), the future hole-card swaps (Swap:
each hole card of both players replaced with the street's probability), the rest of the board
to five cards and then River of Blood's run cards while the last board card is red; compare the
best hands. Cards are drawn by a partial Fisher-Yates shuffle of a preallocated pool, so the
loop allocates nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from game.cards.kernels_evaluator import evaluate_hand

_RED_DIAMONDS = 1
_RED_HEARTS = 2


@njit(cache=True, nogil=True)
def _draw(pool: np.ndarray, taken: int) -> int:
    """Swap a uniform card of ``pool[taken:]`` to ``pool[taken]`` and return it. Modified in place."""
    pick = taken + np.random.randint(pool.shape[0] - taken)
    card = pool[pick]
    pool[pick] = pool[taken]
    pool[taken] = card
    return card


@njit(cache=True, nogil=True)
def redraw_swapped(hand: np.ndarray, count: int, probability: float, pool: np.ndarray, taken: int) -> int:
    """Swap's swap event on ``hand[:count]``: each card, with ``probability``, replaced by a card
    drawn from ``pool[taken:]`` (`_draw`, in order). Returns the new ``taken``."""
    for i in range(count):
        if np.random.random() < probability:
            hand[i] = _draw(pool, taken)
            taken += 1
    return taken


@njit(cache=True, nogil=True)
def deal_run_cards(
    final_board: np.ndarray, board_count: int, max_board_cards: int, pool: np.ndarray, taken: int
) -> tuple[int, int]:
    """River of Blood's run streets: while the last of ``final_board[:board_count]`` is red (diamonds
    or hearts) and fewer than ``max_board_cards`` are out, one more card drawn from ``pool[taken:]``.
    Returns the new ``(board_count, taken)``."""
    while board_count < max_board_cards and (
        final_board[board_count - 1] & 3 == _RED_DIAMONDS or final_board[board_count - 1] & 3 == _RED_HEARTS
    ):
        final_board[board_count] = _draw(pool, taken)
        taken += 1
        board_count += 1
    return board_count, taken


@njit(cache=True, nogil=True)
def _equity(
    hole: np.ndarray,
    board: np.ndarray,
    extra_hole_cards: int,
    opponent_hole_cards: int,
    swap_probabilities: np.ndarray,
    run_while_red: bool,
    max_board_cards: int,
    bounty_rank: int,
    bounty_multiplier: float,
    samples: int,
    seed: int,
    out: np.ndarray,
) -> None:
    """Monte Carlo equity of ``hole`` (int8, 2..3 cards) on ``board`` (int8, 0..48 cards).

    ``extra_hole_cards``: hole cards we still receive (0 or 1); ``opponent_hole_cards``: the
    opponent's final count (2 or 3); ``swap_probabilities`` (float64, one per swap street still to
    come); ``bounty_rank`` 0..12 or -1. ``out`` (float64, shape (2,)) receives the mean share of
    the pot won (1 win, 1/2 tie, 0 loss) and the same share weighted by ``bounty_multiplier`` in
    samples where our bounty rank is among our final cards. Modified in place.
    """
    np.random.seed(seed)
    known = np.zeros(52, dtype=np.bool_)
    for card in hole:
        known[card] = True
    for card in board:
        known[card] = True
    pool = np.empty(52 - hole.shape[0] - board.shape[0], dtype=np.int8)
    size = 0
    for card in range(52):
        if not known[card]:
            pool[size] = card
            size += 1
    mine = np.empty(52, dtype=np.int8)
    theirs = np.empty(52, dtype=np.int8)
    final_board = np.empty(52, dtype=np.int8)
    my_count = hole.shape[0] + extra_hole_cards
    share_sum = 0.0
    weighted_sum = 0.0
    for _ in range(samples):
        taken = 0
        for i in range(hole.shape[0]):
            mine[i] = hole[i]
        for i in range(hole.shape[0], my_count):
            mine[i] = _draw(pool, taken)
            taken += 1
        for i in range(opponent_hole_cards):
            theirs[i] = _draw(pool, taken)
            taken += 1
        for probability in swap_probabilities:
            taken = redraw_swapped(mine, my_count, probability, pool, taken)
            taken = redraw_swapped(theirs, opponent_hole_cards, probability, pool, taken)
        board_count = board.shape[0]
        for i in range(board_count):
            final_board[i] = board[i]
        while board_count < 5:
            final_board[board_count] = _draw(pool, taken)
            taken += 1
            board_count += 1
        if run_while_red:
            board_count, taken = deal_run_cards(final_board, board_count, max_board_cards, pool, taken)
        share, weighted = showdown_shares(
            mine, my_count, theirs, opponent_hole_cards, final_board, board_count, bounty_rank, bounty_multiplier
        )
        share_sum += share
        weighted_sum += weighted
    out[0] = share_sum / samples
    out[1] = weighted_sum / samples


@njit(cache=True, nogil=True)
def showdown_shares(
    mine, my_count, theirs, opponent_hole_cards, final_board, board_count, bounty_rank, bounty_multiplier
):
    """One completed deal's showdown: ``(share, bounty-weighted share)`` of the pot for ``mine``
    (its first ``my_count`` cards the hole cards) against ``theirs`` (``opponent_hole_cards``), both
    completed in place with the ``board_count`` cards of ``final_board``; a win counts 1, a tie 1/2,
    and ``bounty_multiplier`` times when ``bounty_rank`` (-1: none) is among my final cards."""
    for i in range(board_count):
        mine[my_count + i] = final_board[i]
        theirs[opponent_hole_cards + i] = final_board[i]
    my_value = evaluate_hand(mine[: my_count + board_count])
    their_value = evaluate_hand(theirs[: opponent_hole_cards + board_count])
    share = 1.0 if my_value > their_value else (0.5 if my_value == their_value else 0.0)
    hit = False
    if bounty_rank >= 0:
        for i in range(my_count + board_count):
            if mine[i] >> 2 == bounty_rank:
                hit = True
    return share, (share * bounty_multiplier if hit else share)

"""Numba kernels of AIVAT's check-down value (``game.play.aivat``): showdown outcome frequencies.

Both kernels fill ``out`` (float64, shape ``(12,)``) with the probability of each showdown
outcome when nobody bets again: index ``winner * 4 + hit_x * 2 + hit_o`` where ``winner`` is 0
(player X wins), 1 (the opponent wins) or 2 (a tie), and ``hit_x``/``hit_o`` say whether each
player's bounty rank (-1: none) is among their final hole cards or the board. Cards are ints
0..51 (int8 arrays); X's and the opponent's hole cards are both known, or both empty (not dealt
yet: drawn too).

- ``_outcomes_exact``: every completion of the board to five cards (at most two cards to come,
  so at most C(45, 2) = 990 completions), weighted equally. No swaps or runs may be pending.
- ``_outcomes_sampled``: ``samples`` Monte Carlo deals of everything still to come, drawn in
  the rules' distribution: the hole cards if not dealt, the board to five cards, each pending
  Swap street's replacements (each hole card of both players replaced with the street's
  probability by an undealt card), then River of Blood's run cards while the last card is red.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from game.cards.kernels_evaluator import _evaluate
from game.play.kernels_equity import _draw

_N_OUTCOMES = 12


@njit(cache=True, nogil=True)
def _undealt(hole_x: np.ndarray, hole_o: np.ndarray, board: np.ndarray) -> np.ndarray:
    """The cards not in ``hole_x``, ``hole_o`` or ``board`` (int8, ascending)."""
    known = np.zeros(52, dtype=np.bool_)
    for cards in (hole_x, hole_o, board):
        for card in cards:
            known[card] = True
    pool = np.empty(52 - hole_x.shape[0] - hole_o.shape[0] - board.shape[0], dtype=np.int8)
    size = 0
    for card in range(52):
        if not known[card]:
            pool[size] = card
            size += 1
    return pool


@njit(cache=True, nogil=True)
def _outcome_index(x_cards: np.ndarray, o_cards: np.ndarray, rank_x: int, rank_o: int) -> int:
    """The outcome index of one completed deal: ``x_cards``/``o_cards`` hold each player's hole
    cards and the board (every card counts for the bounty)."""
    x_value = _evaluate(x_cards)
    o_value = _evaluate(o_cards)
    winner = 0 if x_value > o_value else (1 if x_value < o_value else 2)
    hit_x = 0
    hit_o = 0
    for i in range(x_cards.shape[0]):
        if x_cards[i] >> 2 == rank_x:
            hit_x = 1
        if o_cards[i] >> 2 == rank_o:
            hit_o = 1
    return winner * 4 + hit_x * 2 + hit_o


@njit(cache=True, nogil=True)
def _outcomes_exact(
    hole_x: np.ndarray, hole_o: np.ndarray, board: np.ndarray, rank_x: int, rank_o: int, out: np.ndarray
) -> None:
    """Exact outcome probabilities over every completion of ``board`` (3..5 cards) to five cards;
    ``hole_x``/``hole_o`` 2 or 3 cards each (same count). ``out`` (12,) is overwritten."""
    pool = _undealt(hole_x, hole_o, board)
    n_hole = hole_x.shape[0]
    n_board = board.shape[0]
    x_cards = np.empty(n_hole + 5, dtype=np.int8)
    o_cards = np.empty(n_hole + 5, dtype=np.int8)
    for i in range(n_hole):
        x_cards[i] = hole_x[i]
        o_cards[i] = hole_o[i]
    for i in range(n_board):
        x_cards[n_hole + i] = board[i]
        o_cards[n_hole + i] = board[i]
    out[:] = 0.0
    missing = 5 - n_board
    n = pool.shape[0]
    last = n_hole + 4
    if missing == 0:
        out[_outcome_index(x_cards, o_cards, rank_x, rank_o)] = 1.0
        return
    if missing == 1:
        for i in range(n):
            x_cards[last] = pool[i]
            o_cards[last] = pool[i]
            out[_outcome_index(x_cards, o_cards, rank_x, rank_o)] += 1.0
        out /= n
        return
    for i in range(n):
        x_cards[last - 1] = pool[i]
        o_cards[last - 1] = pool[i]
        for j in range(i + 1, n):
            x_cards[last] = pool[j]
            o_cards[last] = pool[j]
            out[_outcome_index(x_cards, o_cards, rank_x, rank_o)] += 1.0
    out /= n * (n - 1) // 2


@njit(cache=True, nogil=True)
def _outcomes_sampled(
    hole_x: np.ndarray,
    hole_o: np.ndarray,
    board: np.ndarray,
    swap_probabilities: np.ndarray,
    run_while_red: bool,
    max_board_cards: int,
    rank_x: int,
    rank_o: int,
    samples: int,
    seed: int,
    out: np.ndarray,
) -> None:
    """Monte Carlo outcome frequencies over ``samples`` deals of what is still to come (see the
    module docstring); ``hole_x``/``hole_o`` both empty (drawn, 2 each) or both 2..3 cards.
    ``swap_probabilities``: float64, one per Swap street still to come. ``out`` is overwritten."""
    np.random.seed(seed)
    pool = _undealt(hole_x, hole_o, board)
    n_hole = hole_x.shape[0] if hole_x.shape[0] > 0 else 2
    mine = np.empty(n_hole + 48, dtype=np.int8)
    theirs = np.empty(n_hole + 48, dtype=np.int8)
    final_board = np.empty(48, dtype=np.int8)
    out[:] = 0.0
    for _ in range(samples):
        taken = 0
        for i in range(n_hole):
            if hole_x.shape[0] > 0:
                mine[i] = hole_x[i]
                theirs[i] = hole_o[i]
            else:
                mine[i] = _draw(pool, taken)
                theirs[i] = _draw(pool, taken + 1)
                taken += 2
        board_count = board.shape[0]
        for i in range(board_count):
            final_board[i] = board[i]
        while board_count < 5:
            final_board[board_count] = _draw(pool, taken)
            taken += 1
            board_count += 1
        for probability in swap_probabilities:
            for i in range(n_hole):
                if np.random.random() < probability:
                    mine[i] = _draw(pool, taken)
                    taken += 1
            for i in range(n_hole):
                if np.random.random() < probability:
                    theirs[i] = _draw(pool, taken)
                    taken += 1
        if run_while_red:
            while board_count < max_board_cards and (
                final_board[board_count - 1] & 3 == 1 or final_board[board_count - 1] & 3 == 2
            ):
                final_board[board_count] = _draw(pool, taken)
                taken += 1
                board_count += 1
        for i in range(board_count):
            mine[n_hole + i] = final_board[i]
            theirs[n_hole + i] = final_board[i]
        total = n_hole + board_count
        out[_outcome_index(mine[:total], theirs[:total], rank_x, rank_o)] += 1.0
    out /= samples

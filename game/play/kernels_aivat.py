"""Numba kernels of AIVAT's check-down value (``game.play.aivat``): showdown outcome frequencies.

Both kernels fill ``out`` (float64, shape ``(12,)``) with the probability of each showdown
outcome when nobody bets again: index ``winner * 4 + hit_x * 2 + hit_o`` where ``winner`` is 0
(player X wins), 1 (the opponent wins) or 2 (a tie), and ``hit_x``/``hit_o`` say whether each
player's bounty rank (-1: none) is among their final hole cards or the board. Cards are ints
0..51 (int8 arrays); X's and the opponent's hole cards are both known, or both empty (not dealt
yet: drawn too).

- ``_outcomes_exact``: every completion of the board to five cards (at most two cards to come,
  so at most C(45, 2) = 990 completions; a longer board, River of Blood's finished runs, as it
  is), weighted equally. No swap, run or third card may be pending.
- ``_outcomes_sampled``: ``samples`` Monte Carlo deals of everything still to come, drawn in
  the rules' distribution: the hole cards if not dealt, Auction's pending third cards, the board
  to five cards, each pending Swap street's replacements (each hole card of both players
  replaced with the street's probability by an undealt card), then River of Blood's run cards
  while the last card is red.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from game.cards.kernels_evaluator import evaluate_hand as _evaluate
from game.play.kernels_equity import _draw, deal_run_cards, redraw_swapped

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
    for card in x_cards:
        if card >> 2 == rank_x:
            hit_x = 1
    for card in o_cards:
        if card >> 2 == rank_o:
            hit_o = 1
    return winner * 4 + hit_x * 2 + hit_o


@njit(cache=True, nogil=True)
def _outcomes_exact(
    hole_x: np.ndarray, hole_o: np.ndarray, board: np.ndarray, rank_x: int, rank_o: int, out: np.ndarray
) -> None:
    """Exact outcome probabilities over every completion of ``board`` (3 or more cards) to five cards;
    ``hole_x``/``hole_o`` 2 or 3 cards each. ``out`` (12,) is overwritten."""
    pool = _undealt(hole_x, hole_o, board)
    n_x = hole_x.shape[0]
    n_o = hole_o.shape[0]
    n_board = board.shape[0]
    total = max(5, n_board)
    x_cards = np.empty(n_x + total, dtype=np.int8)
    o_cards = np.empty(n_o + total, dtype=np.int8)
    x_cards[:n_x] = hole_x
    o_cards[:n_o] = hole_o
    x_cards[n_x : n_x + n_board] = board
    o_cards[n_o : n_o + n_board] = board
    out[:] = 0.0
    n = pool.shape[0]
    if n_board >= 5:
        out[_outcome_index(x_cards, o_cards, rank_x, rank_o)] = 1.0
        return
    if n_board == 4:
        for i in range(n):
            x_cards[n_x + 4] = pool[i]
            o_cards[n_o + 4] = pool[i]
            out[_outcome_index(x_cards, o_cards, rank_x, rank_o)] += 1.0
        out /= n
        return
    for i in range(n):
        x_cards[n_x + 3] = pool[i]
        o_cards[n_o + 3] = pool[i]
        for j in range(i + 1, n):
            x_cards[n_x + 4] = pool[j]
            o_cards[n_o + 4] = pool[j]
            out[_outcome_index(x_cards, o_cards, rank_x, rank_o)] += 1.0
    out /= n * (n - 1) // 2


@njit(cache=True, nogil=True)
def _outcomes_sampled(
    hole_x: np.ndarray,
    hole_o: np.ndarray,
    extra_x: int,
    extra_o: int,
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
    module docstring); ``hole_x``/``hole_o`` both empty (drawn, 2 each) or both 2..3 cards;
    ``extra_x``/``extra_o``: hole cards each still receives (Auction's third card, 0 or 1).
    ``swap_probabilities``: float64, one per Swap street still to come. ``out`` is overwritten."""
    np.random.seed(seed)
    pool = _undealt(hole_x, hole_o, board)
    dealt = hole_x.shape[0] > 0
    base_x = hole_x.shape[0] if dealt else 2
    base_o = hole_o.shape[0] if dealt else 2
    n_x = base_x + extra_x
    n_o = base_o + extra_o
    mine = np.empty(n_x + 48, dtype=np.int8)
    theirs = np.empty(n_o + 48, dtype=np.int8)
    final_board = np.empty(48, dtype=np.int8)
    out[:] = 0.0
    for _ in range(samples):
        taken = 0
        if dealt:
            mine[:base_x] = hole_x
            theirs[:base_o] = hole_o
        board_count = board.shape[0]
        final_board[:board_count] = board
        for i in range(base_x if dealt else 0, n_x):
            mine[i] = _draw(pool, taken)
            taken += 1
        for i in range(base_o if dealt else 0, n_o):
            theirs[i] = _draw(pool, taken)
            taken += 1
        while board_count < 5:
            final_board[board_count] = _draw(pool, taken)
            taken += 1
            board_count += 1
        for probability in swap_probabilities:
            taken = redraw_swapped(mine, n_x, probability, pool, taken)
            taken = redraw_swapped(theirs, n_o, probability, pool, taken)
        if run_while_red:
            board_count, taken = deal_run_cards(final_board, board_count, max_board_cards, pool, taken)
        mine[n_x : n_x + board_count] = final_board[:board_count]
        theirs[n_o : n_o + board_count] = final_board[:board_count]
        out[_outcome_index(mine[: n_x + board_count], theirs[: n_o + board_count], rank_x, rank_o)] += 1.0
    out /= samples

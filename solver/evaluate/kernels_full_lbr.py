"""Numba kernel of full-game LBR (`solver.evaluate.full_lbr`): showdown outcomes of LBR's hand against
each candidate hand of the opponent, by Monte Carlo over the variant's runouts.

One sample completes one deal from the cards still in the deck (the game's deck minus the
excluded cards and the candidate's): any third hole card still to come (Auction), future
hole-card swaps of both players (Swap: each card replaced with the street's probability), the
board to five cards, then River of Blood's run cards while the last card is red (up to the
cap). The six outcome classes, as fractions of the samples (float64 ``out[K, 6]``):
LBR wins and hits its bounty, LBR wins without, LBR loses and the candidate hits, LBR loses and
it does not, a tie where only LBR hits, a tie where only the candidate hits (Bounty's payoffs
depend on exactly these; without a bounty rank nothing hits). Draws are a partial Fisher-Yates
shuffle of a preallocated pool: the loop allocates nothing per sample.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from game.cards.kernels_evaluator import evaluate_hand

N_OUTCOMES = 6
WIN_HIT, WIN, LOSE_HIT, LOSE, TIE_HIT, TIE_THEY_HIT = range(N_OUTCOMES)
_DIAMONDS = 1
_HEARTS = 2


@njit(cache=True, nogil=True)
def _take(pool: np.ndarray, size: int, taken: int) -> int:
    """Swap a uniform card of ``pool[taken:size]`` to ``pool[taken]`` and return it (in place)."""
    pick = taken + np.random.randint(size - taken)
    card = pool[pick]
    pool[pick] = pool[taken]
    pool[taken] = card
    return card


@njit(cache=True, nogil=True)
def _hits(cards: np.ndarray, count: int, rank: int) -> bool:
    if rank < 0:
        return False
    for i in range(count):  # noqa: SIM110 (numba: no generator in any())
        if cards[i] >> 2 == rank:
            return True
    return False


@njit(cache=True, nogil=True)
def _showdown_outcomes(
    hole: np.ndarray,
    extra: int,
    rank: int,
    candidates: np.ndarray,
    counts: np.ndarray,
    candidate_extra: int,
    candidate_ranks: np.ndarray,
    weights: np.ndarray,
    board: np.ndarray,
    deck: np.ndarray,
    excluded: np.ndarray,
    swap_probabilities: np.ndarray,
    max_board_cards: int,
    samples: int,
    seed: int,
    out: np.ndarray,
) -> None:
    """Outcome fractions of LBR's ``hole`` (int8, 2..3 cards; ``extra`` third card to come 0/1;
    bounty ``rank`` 0..12 or -1) against each candidate ``k`` (``candidates[k, :counts[k]]`` int8,
    ``candidate_extra``, ``candidate_ranks[k]``) on ``board`` (int8) with cards of ``deck`` (int8)
    not ``excluded`` (bool [52]: LBR's cards, the board, cards LBR saw leave play). Candidates of
    weight 0 are skipped (their row stays 0). ``max_board_cards`` > 5: River of Blood's runs.
    ``out`` float64 ``[K, 6]``, modified in place.
    """
    np.random.seed(seed)
    pool = np.empty(deck.shape[0], dtype=np.int8)
    mine = np.empty(64, dtype=np.int8)
    theirs = np.empty(64, dtype=np.int8)
    final_board = np.empty(64, dtype=np.int8)
    for k in range(candidates.shape[0]):
        for j in range(N_OUTCOMES):
            out[k, j] = 0.0
        if weights[k] <= 0.0:
            continue
        size = 0
        for card in deck:
            if excluded[card]:
                continue
            held = False
            for i in range(counts[k]):
                if candidates[k, i] == card:
                    held = True
            if not held:
                pool[size] = card
                size += 1
        for _ in range(samples):
            taken = 0
            n_mine = hole.shape[0]
            for i in range(n_mine):
                mine[i] = hole[i]
            if extra and taken < size:
                mine[n_mine] = _take(pool, size, taken)
                taken += 1
                n_mine += 1
            n_theirs = counts[k]
            for i in range(n_theirs):
                theirs[i] = candidates[k, i]
            if candidate_extra and taken < size:
                theirs[n_theirs] = _take(pool, size, taken)
                taken += 1
                n_theirs += 1
            for probability in swap_probabilities:
                for i in range(n_mine):
                    if taken < size and np.random.random() < probability:
                        mine[i] = _take(pool, size, taken)
                        taken += 1
                for i in range(n_theirs):
                    if taken < size and np.random.random() < probability:
                        theirs[i] = _take(pool, size, taken)
                        taken += 1
            n_board = board.shape[0]
            for i in range(n_board):
                final_board[i] = board[i]
            while n_board < 5 and taken < size:
                final_board[n_board] = _take(pool, size, taken)
                taken += 1
                n_board += 1
            while (
                n_board < max_board_cards
                and taken < size
                and (final_board[n_board - 1] & 3 == _DIAMONDS or final_board[n_board - 1] & 3 == _HEARTS)
            ):
                final_board[n_board] = _take(pool, size, taken)
                taken += 1
                n_board += 1
            for i in range(n_board):
                mine[n_mine + i] = final_board[i]
                theirs[n_theirs + i] = final_board[i]
            my_value = evaluate_hand(mine[: n_mine + n_board])
            their_value = evaluate_hand(theirs[: n_theirs + n_board])
            i_hit = _hits(mine, n_mine + n_board, rank)
            they_hit = _hits(theirs, n_theirs + n_board, candidate_ranks[k])
            if my_value > their_value:
                out[k, WIN_HIT if i_hit else WIN] += 1.0
            elif my_value < their_value:
                out[k, LOSE_HIT if they_hit else LOSE] += 1.0
            elif i_hit and not they_hit:
                out[k, TIE_HIT] += 1.0
            elif they_hit and not i_hit:
                out[k, TIE_THEY_HIT] += 1.0
        for j in range(N_OUTCOMES):
            out[k, j] /= samples

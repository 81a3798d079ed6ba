"""Numba kernels of fresh chance for N-player limit hold'em, behind `abstraction.chance.limit_chance`.

`_sample_limit_deal` fills one deal's rows of the abstract game's deal arrays: ``bucket`` int32
[n_players, 4] (each seat's bucket on preflop, flop, turn, river) and ``weight`` float64 [W] (per
showdown context a one-hot vector over its winner subsets). The deal's generator is splitmix64
keyed by ``(seed, deal)`` (`abstraction.chance.kernels_chance._start`), cards come from its partial
Fisher-Yates shuffle (`abstraction.chance.kernels_chance._draw`) in the rules engine's order: seat 0's
two hole cards, seat 1's, ..., then the flop (3), the turn, the river. A deal depends on
``(seed, deal)`` only, so batches split any way give identical rows.

Hand values are `game.cards.kernels_evaluator.evaluate_hand` classes (higher wins); with ``must_use_hole_card`` a
hand is the best five of hole + board using at least one hole card (`game.rules.limit.best_hand`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from abstraction.cards.kernels_buckets import hand_bucket
from abstraction.chance.kernels_chance import _draw, _start, board_size, deal_workspace
from game.cards.kernels_evaluator import evaluate_hand

N_STREETS = 4
"""Bucket slots: preflop, flop, turn, river."""
N_BOARD = 5


@njit(cache=True, nogil=True)
def _limit_workspace(n_players):
    """Scratch for `_sample_limit_deal` (once per thread): ``(work, hole, board, hand, five, values)``:
    the generator and deck of `abstraction.chance.kernels_chance.deal_workspace`, hole int8 [n_players, 2],
    board int8 [5], hand int8 [7], five int8 [5], values int64 [n_players]."""
    return (
        deal_workspace(),
        np.empty((n_players, 2), dtype=np.int8),
        np.empty(N_BOARD, dtype=np.int8),
        np.empty(2 + N_BOARD, dtype=np.int8),
        np.empty(5, dtype=np.int8),
        np.empty(n_players, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def _gather(hole, board, seat, n_board, hand):
    """``hand[:2 + n_board]`` = the seat's hole cards then ``board[:n_board]``; returns that view."""
    hand[0] = hole[seat, 0]
    hand[1] = hole[seat, 1]
    for index in range(n_board):
        hand[2 + index] = board[index]
    return hand[: 2 + n_board]


@njit(cache=True, nogil=True)
def _hand_value(hole, board, seat, must_use_hole_card, hand, five):
    """Value of the seat's best hand of hole + five board cards (``must_use_hole_card``: at least
    one hole card; the board alone is never the hand)."""
    best = evaluate_hand(_gather(hole, board, seat, N_BOARD, hand))
    if not must_use_hole_card:
        return best
    if best != evaluate_hand(board):
        return best  # better than the board alone, so it uses a hole card
    best = 0  # the board ties the best hand: the best five using a hole card (20 of the 21 fives)
    for a in range(7):
        for b in range(a + 1, 7):
            if a == 0 and b == 1:  # leaving out both hole cards: the board alone
                continue
            count = 0
            for index in range(7):
                if index != a and index != b:
                    five[count] = hand[index]
                    count += 1
            value = evaluate_hand(five)
            if value > best:
                best = value
    return best


@njit(cache=True, nogil=True)
def _sample_limit_deal(seed, deal, arguments, space, bucket, weight):
    """Fill one deal: ``bucket`` int32 [n_players, 4], ``weight`` float64 [W]; modifies ``space``.

    ``arguments`` = `abstraction.chance.limit_chance.LimitChance.kernel_arguments`: ``(n_players,
    must_use_hole_card, context_mask int64 [C] (bit p: seat p alive), context_offset int64 [C],
    outcome_table int64 [C, 2**n_players] (winner mask -> outcome index), lookup)`` with ``lookup`` =
    `abstraction.cards.buckets.BucketLookup.kernel_arguments`. ``space`` = `_limit_workspace`.
    """
    n_players, must_use_hole_card, context_mask, context_offset, outcome_table, lookup = arguments
    work, hole, board, hand, five, values = space
    _start(seed, deal, work)
    for seat in range(n_players):
        hole[seat, 0] = _draw(work)
        hole[seat, 1] = _draw(work)
    for index in range(N_BOARD):
        board[index] = _draw(work)
    for street in range(N_STREETS):
        n_board = board_size(street)
        for seat in range(n_players):
            cards = _gather(hole, board, seat, n_board, hand)
            bucket[seat, street] = hand_bucket(cards, 2, -1, lookup[0], lookup[1], lookup[2], work[5], work[6])
    for seat in range(n_players):
        values[seat] = _hand_value(hole, board, seat, must_use_hole_card, hand, five)
    weight[:] = 0.0
    for context in range(context_mask.shape[0]):
        alive = context_mask[context]
        best = -1
        for seat in range(n_players):
            if alive >> seat & 1 and values[seat] > best:
                best = values[seat]
        winners = 0
        for seat in range(n_players):
            if alive >> seat & 1 and values[seat] == best:
                winners |= 1 << seat
        weight[context_offset[context] + outcome_table[context, winners]] = 1.0


@njit(cache=True, nogil=True)
def _sample_limit_batch(seed, first, arguments, bucket, weight, cards):
    """Deals ``first .. first + len(bucket) - 1`` into ``bucket`` [B, n_players, 4] and ``weight``
    [B, W] on the calling thread; ``cards`` int8 [B, 2 n_players + 5] gets each deal's cards in deal
    order when it has rows (pass an array of shape (0, 0) to skip). Modified in place."""
    space = _limit_workspace(arguments[0])
    deck = space[0][1]
    for row in range(bucket.shape[0]):
        _sample_limit_deal(seed, first + row, arguments, space, bucket[row], weight[row])
        if cards.shape[0] > 0:
            for index in range(cards.shape[1]):
                cards[row, index] = deck[index]


@njit(cache=True, nogil=True, parallel=True)
def _sample_limit_batch_parallel(
    seed,
    first,
    n_chunks,
    n_players,
    must_use_hole_card,
    context_mask,
    context_offset,
    outcome_table,
    tables,
    flop_keys,
    turn_keys,
    bucket,
    weight,
):
    """`_sample_limit_batch` split into ``n_chunks`` contiguous chunks over numba's threads (same rows)."""
    n_deals = bucket.shape[0]
    for chunk in prange(n_chunks):
        start = chunk * n_deals // n_chunks
        stop = (chunk + 1) * n_deals // n_chunks
        arguments = (
            n_players,
            must_use_hole_card,
            context_mask,
            context_offset,
            outcome_table,
            (tables, flop_keys, turn_keys),
        )
        _sample_limit_batch(
            seed, first + start, arguments, bucket[start:stop], weight[start:stop], np.empty((0, 0), dtype=np.int8)
        )

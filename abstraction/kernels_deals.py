"""Numba kernels behind `abstraction.bucket_lookup` and `abstraction.sampled_deals`.

`_hand_bucket`: the bucket of two hole cards on a board, by the card abstraction's tables
(`abstraction.kernels_buckets._bucket`), with a fallback for classes the build never reached
(`UNSET`, when it ran on a subset of flops): the hand's current strength against a uniform
opponent holding, mapped to the street's nearest centroid key (buckets are numbered by
increasing equity). `_sample_deals`: many random deals at once, each drawn from its own
counter-based generator (splitmix64 keyed by the seed and the deal's index), so the result does
not depend on how the deals are split over threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from abstraction.kernels_buckets import UNSET, _bucket, _nearest_sorted
from abstraction.kernels_features import N_CARDS, _strength_vs_range
from game.kernels import _evaluate
from game.kernels_rng import _splitmix64, _uniform

N_STREETS = 4
"""Bucketed streets: preflop, flop, turn, river."""
MAX_DEAL_CARDS = 17
"""Cards one deal can use: 4 hole, 5 board and up to 8 swap replacements (Swap Hold'em)."""
BOARD_CARDS = (0, 3, 4, 5)
"""Board cards on each bucketed street."""


@njit(cache=True, nogil=True)
def _hand_bucket(cards, tables, flop_centroid_keys, turn_centroid_keys, scratch, card_scratch):
    """Bucket of ``cards`` = two hole cards then a board of 0, 3, 4 or >= 5 cards.

    ``tables`` is the tuple of arrays `abstraction.kernels_buckets._bucket` takes after
    ``cards, n_hole`` (`abstraction.buckets.CardAbstraction.kernel_arguments`). The table bucket
    when the build reached the hand's class; otherwise (flop or turn class left `UNSET`) the
    nearest of the street's increasing centroid keys (``flop_centroid_keys`` or
    ``turn_centroid_keys``, float64) to the hand's exact strength against every opponent holding.
    ``scratch`` int64 (5, 4) and ``card_scratch`` int8 (len(cards) + 1) are modified.
    """
    value = _bucket(cards, 2, *tables, scratch, card_scratch)
    if value != UNSET:
        return value
    dead = np.int64(0)
    for i in range(cards.shape[0]):
        dead |= np.int64(1) << cards[i]
    strength = _strength_vs_range(cards[:2], cards[2:], dead, 2, 0, card_scratch)
    if cards.shape[0] == 5:
        return _nearest_sorted(strength, flop_centroid_keys)
    return _nearest_sorted(strength, turn_centroid_keys)


@njit(cache=True, nogil=True)
def _draw(deck, drawn, state):
    """Draw the next card of a partial Fisher-Yates shuffle of ``deck`` (int8[52]); ``drawn`` cards are out."""
    pick = drawn + int(_uniform(state) * (N_CARDS - drawn))
    card = deck[pick]
    deck[pick] = deck[drawn]
    deck[drawn] = card
    return card


@njit(cache=True, nogil=True)
def _swap_hole_cards(hole, deck, drawn, probability, state):
    """Replace each of the four hole cards (seat 0 first) with probability ``probability`` by the
    next card of the deck; returns the new number of cards drawn. ``hole`` int8 (2, 2) is modified."""
    for seat in range(2):
        for index in range(2):
            if probability > 0.0 and _uniform(state) < probability:
                hole[seat, index] = _draw(deck, drawn, state)
                drawn += 1
    return drawn


@njit(cache=True, nogil=True, parallel=True)
def _sample_deals(
    seed,
    flop_swap_probability,
    turn_swap_probability,
    n_chunks,
    tables,
    flop_centroid_keys,
    turn_centroid_keys,
    bucket,
    showdown_share,
):
    """Deal ``len(showdown_share)`` random hands (deal ``i`` from splitmix64 keyed by ``(seed, i)``).

    Deal order as `game.swap`: hole cards seat 0 (2), seat 1 (2), flop (3), flop swaps, turn (1),
    turn swaps, river (1); swap probabilities 0 give Hold'em. ``tables``, ``flop_centroid_keys``
    and ``turn_centroid_keys`` as in `_hand_bucket`. Modified in place: ``bucket`` int32
    (n, 2, 4) each seat's bucket on each street from its hole cards of that street (`_hand_bucket`),
    ``showdown_share`` float64 (n,) seat 0's share of the pot with the final cards (1, 0.5 or 0).
    Deals are split into ``n_chunks`` contiguous chunks run in parallel.
    """
    n_deals = showdown_share.shape[0]
    base = _splitmix64(np.uint64(seed))
    for chunk in prange(n_chunks):
        start = chunk * n_deals // n_chunks
        stop = (chunk + 1) * n_deals // n_chunks
        deck = np.empty(N_CARDS, dtype=np.int8)
        hole = np.empty((2, 2), dtype=np.int8)
        board = np.empty(5, dtype=np.int8)
        hand = np.empty(7, dtype=np.int8)
        scratch = np.zeros((5, 4), dtype=np.int64)
        card_scratch = np.empty(8, dtype=np.int8)
        state = np.zeros(1, dtype=np.uint64)
        values = np.zeros(2, dtype=np.int64)
        for deal in range(start, stop):
            state[0] = _splitmix64(base ^ np.uint64(deal))
            for card in range(N_CARDS):
                deck[card] = card
            drawn = 0
            for seat in range(2):
                for index in range(2):
                    hole[seat, index] = _draw(deck, drawn, state)
                    drawn += 1
            for street in range(N_STREETS):
                n_board = BOARD_CARDS[street]
                if street == 1:
                    for index in range(3):
                        board[index] = _draw(deck, drawn, state)
                        drawn += 1
                    drawn = _swap_hole_cards(hole, deck, drawn, flop_swap_probability, state)
                elif street == 2:
                    board[3] = _draw(deck, drawn, state)
                    drawn += 1
                    drawn = _swap_hole_cards(hole, deck, drawn, turn_swap_probability, state)
                elif street == 3:
                    board[4] = _draw(deck, drawn, state)
                    drawn += 1
                for seat in range(2):
                    hand[0] = hole[seat, 0]
                    hand[1] = hole[seat, 1]
                    for index in range(n_board):
                        hand[2 + index] = board[index]
                    bucket[deal, seat, street] = _hand_bucket(
                        hand[: 2 + n_board], tables, flop_centroid_keys, turn_centroid_keys, scratch, card_scratch
                    )
                    if street == N_STREETS - 1:
                        values[seat] = _evaluate(hand)
            if values[0] > values[1]:
                showdown_share[deal] = 1.0
            elif values[0] < values[1]:
                showdown_share[deal] = 0.0
            else:
                showdown_share[deal] = 0.5

"""Numba kernels of the suit-isomorphic hand indexer (Waugh 2013), behind `abstraction.cards.isomorphism`.

A hand is dealt in rounds (hole cards, flop, turn, river). For every suit we record which ranks it
received in each round; a suit's *configuration* is its card count per round and its *suit index*
numbers its rank sets among all sets of that configuration. Two hands are suit-isomorphic iff they
have the same multiset of (configuration, suit index) pairs, so the index is: the offset of the
multiset of configurations (a sorted table) plus a mixed-radix number whose digits are the
multiset-of-suit-indices indices of each group of suits sharing a configuration.

Per-suit configuration codes are ``sum(count[r] * 4**r)`` (so at most 3 cards per suit per round
and at most 5 rounds); a whole-hand key packs the four codes sorted in decreasing order.
Kernels take arrays and scalars only; no input validation (see `abstraction.cards.isomorphism`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

N_SUITS = 4
N_RANKS = 13
CODE_BASE = 4
"""Each round's count within one suit is a base-4 digit of the suit's configuration code."""

BINOMIAL = np.zeros((64, 64), dtype=np.int64)
for _n in range(64):
    BINOMIAL[_n, 0] = 1
    for _k in range(1, _n + 1):
        BINOMIAL[_n, _k] = BINOMIAL[_n - 1, _k - 1] + (BINOMIAL[_n - 1, _k] if _k <= _n - 1 else 0)


POPCOUNT = np.array([bin(bits).count("1") for bits in range(1 << N_RANKS)], dtype=np.int64)
"""Number of set bits of every 13-bit rank set."""


@njit(cache=True, nogil=True)
def _popcount(bits: int) -> int:
    return POPCOUNT[bits & ((1 << N_RANKS) - 1)]


@njit(cache=True, nogil=True)
def _suit_size(code: int, n_rounds: int) -> int:
    """Number of distinct rank-set sequences one suit with configuration ``code`` can hold."""
    size = 1
    used = 0
    for round_index in range(n_rounds):
        count = (code // CODE_BASE**round_index) % CODE_BASE
        size *= BINOMIAL[N_RANKS - used, count]
        used += count
    return size


@njit(cache=True, nogil=True)
def _choose(n: int, k: int) -> int:
    """Binomial coefficient C(n, k) for any n >= 0 and small k (exact in int64 while the result fits)."""
    if k < 0 or k > n:
        return 0
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


@njit(cache=True, nogil=True)
def _multiset_index(sorted_desc: np.ndarray, start: int, m: int) -> int:
    """Index of the multiset ``sorted_desc[start:start+m]`` (non-increasing) among multisets of size m."""
    index = 0
    for i in range(m):
        index += _choose(sorted_desc[start + i] + (m - 1 - i), m - i)
    return index


@njit(cache=True, nogil=True)
def _hand_index(
    cards: np.ndarray,
    cards_per_round: np.ndarray,
    n_rounds: int,
    config_keys: np.ndarray,
    config_offsets: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """Canonical index of the first ``n_rounds`` rounds of ``cards`` (int8, in deal order).

    ``config_keys``/``config_offsets`` are the sorted configuration table of this round count.
    ``scratch`` is an int64 array of shape (5, 4), modified in place: rows are suit codes, suit
    indices, used rank bits, index multipliers and this round's rank bits, one column per suit.
    Returns -1 if the configuration is absent (cannot happen for valid, distinct cards).
    """
    suit_codes = scratch[0]
    suit_indices = scratch[1]
    used_bits = scratch[2]
    multiplier = scratch[3]
    round_bits = scratch[4]
    for suit in range(N_SUITS):
        suit_codes[suit] = 0
        suit_indices[suit] = 0
        used_bits[suit] = 0
        multiplier[suit] = 1
    position = 0
    for round_index in range(n_rounds):
        for suit in range(N_SUITS):
            round_bits[suit] = 0
        for _ in range(cards_per_round[round_index]):
            card = cards[position]
            position += 1
            round_bits[card & 3] |= np.int64(1) << (card >> 2)
        for suit in range(N_SUITS):
            bits = round_bits[suit]
            if bits == 0:
                continue
            used = used_bits[suit]
            count = _popcount(bits)
            colex = 0
            seen = 0
            remaining = bits
            while remaining:
                low = remaining & -remaining
                compressed = _popcount(low - 1) - _popcount(used & (low - 1))
                seen += 1
                colex += BINOMIAL[compressed, seen]
                remaining ^= low
            suit_indices[suit] += multiplier[suit] * colex
            multiplier[suit] *= BINOMIAL[N_RANKS - _popcount(used), count]
            suit_codes[suit] += count * CODE_BASE**round_index
            used_bits[suit] = used | bits
    # Sort suits by (code, index) decreasing: insertion sort on four entries.
    for i in range(1, N_SUITS):
        code = suit_codes[i]
        index = suit_indices[i]
        j = i - 1
        while j >= 0 and (suit_codes[j] < code or (suit_codes[j] == code and suit_indices[j] < index)):
            suit_codes[j + 1] = suit_codes[j]
            suit_indices[j + 1] = suit_indices[j]
            j -= 1
        suit_codes[j + 1] = code
        suit_indices[j + 1] = index
    code_space = CODE_BASE**n_rounds
    key = 0
    for suit in range(N_SUITS):
        key = key * code_space + suit_codes[suit]
    slot = np.searchsorted(config_keys, key)
    if slot >= config_keys.shape[0] or config_keys[slot] != key:
        return -1
    index = 0
    radix = 1
    start = 0
    while start < N_SUITS:
        end = start + 1
        while end < N_SUITS and suit_codes[end] == suit_codes[start]:
            end += 1
        m = end - start
        index += radix * _multiset_index(suit_indices, start, m)
        radix *= _choose(_suit_size(suit_codes[start], n_rounds) + m - 1, m)
        start = end
    return config_offsets[slot] + index


@njit(cache=True, nogil=True)
def _hand_index_batch(
    hands: np.ndarray,
    cards_per_round: np.ndarray,
    n_rounds: int,
    config_keys: np.ndarray,
    config_offsets: np.ndarray,
    out: np.ndarray,
) -> None:
    """Index every row of ``hands`` (int8, shape (n, cards)) into ``out`` (int64, shape (n,)); modified in place."""
    scratch = np.zeros((5, N_SUITS), dtype=np.int64)
    for row in range(hands.shape[0]):
        out[row] = _hand_index(hands[row], cards_per_round, n_rounds, config_keys, config_offsets, scratch)

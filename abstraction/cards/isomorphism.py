"""Suit isomorphism: a dense canonical index of (hole, board) per street (Waugh 2013).

Two deals are equivalent when a permutation of the four suits maps one onto the other (rounds are
kept apart: a heart in the hole is not a heart on the board). `HandIndexer` numbers the
equivalence classes of the first *r* rounds densely from 0, so a per-street table has exactly one
entry per class. Known counts for Texas Hold'em (Waugh 2013, "A Fast and Optimal Hand Isomorphism
Algorithm", Table 1): 169 preflop, 1,286,792 flop, 55,190,538 turn, 2,428,287,420 river.

>>> indexer = holdem_indexer()
>>> indexer.sizes
(169, 1286792, 55190538, 2428287420)
>>> indexer.index("AsKs") == indexer.index("AhKh"), indexer.index("AsKs") == indexer.index("AsKh")
(True, False)
>>> indexer.index("AsKd Qh7d2c") == indexer.index("AhKc Qs7c2d")
True
>>> indexer.index("AsKd Qh")
Traceback (most recent call last):
...
ValueError: 3 cards 'As Kd Qh' do not fill whole rounds of (2, 3, 1, 1): expected one of [2, 5, 6, 7]
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import numpy as np

from abstraction.cards.kernels_isomorphism import CODE_BASE, N_SUITS, _hand_index_batch, _suit_size
from game.cards.deck import CardsLike, format_cards, parse_cards

MAX_ROUNDS = 5
MAX_CARDS_PER_ROUND = CODE_BASE - 1


class HandIndexer:
    """Dense index of suit-isomorphism classes of cards dealt in rounds.

    ``cards_per_round`` lists the cards dealt per round, hole cards first, e.g. ``(2, 3, 1, 1)`` for
    Hold'em (hole, flop, turn, river) or ``(2, 3, 1)`` to index up to the turn. At most 5 rounds and
    at most 3 cards per round (River of Blood run cards and Auction's three hole cards beyond the
    river are out of reach of a table; see `abstraction.cards.buckets`).
    """

    def __init__(self, cards_per_round: Sequence[int]) -> None:
        rounds = tuple(int(n) for n in cards_per_round)
        if not 1 <= len(rounds) <= MAX_ROUNDS:
            raise ValueError(f"cards_per_round {rounds!r} must have 1..{MAX_ROUNDS} rounds")
        if any(not 1 <= n <= MAX_CARDS_PER_ROUND for n in rounds):
            raise ValueError(f"cards_per_round {rounds!r} must deal 1..{MAX_CARDS_PER_ROUND} cards per round")
        self.cards_per_round = rounds
        self._rounds_array = np.array(rounds, dtype=np.int64)
        self._tables = [_configuration_table(rounds[: n + 1]) for n in range(len(rounds))]
        self.sizes: tuple[int, ...] = tuple(int(table[2]) for table in self._tables)
        """Number of classes after each round (``sizes[r]`` counts deals of rounds 0..r)."""

    def __repr__(self) -> str:
        return f"HandIndexer(cards_per_round={self.cards_per_round!r})"

    def n_rounds_for(self, n_cards: int) -> int:
        """How many rounds ``n_cards`` cards fill exactly; raises ValueError if they end mid-round."""
        totals = list(itertools.accumulate(self.cards_per_round))
        if n_cards not in totals:
            raise ValueError(
                f"{n_cards} cards do not fill whole rounds of {self.cards_per_round!r}: expected one of {totals}"
            )
        return totals.index(n_cards) + 1

    def kernel_tables(self, n_rounds: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(cards_per_round, config_keys, config_offsets)`` for `_hand_index` over ``n_rounds`` rounds."""
        if not 1 <= n_rounds <= len(self.cards_per_round):
            raise ValueError(f"n_rounds {n_rounds!r} must be in 1..{len(self.cards_per_round)}")
        keys, offsets, _ = self._tables[n_rounds - 1]
        return self._rounds_array, keys, offsets

    def index_batch(self, hands: np.ndarray) -> np.ndarray:
        """Indices (int64, shape (n,)) of the rows of ``hands`` (int, shape (n, cards), deal order)."""
        array = np.asarray(hands)
        if array.ndim != 2:
            raise ValueError(f"hands must be a 2-D array (n, cards), got shape {array.shape!r}")
        if array.size and (array.min() < 0 or array.max() > 51):
            raise ValueError(f"hands hold card ints outside 0..51: min {array.min()!r}, max {array.max()!r}")
        n_rounds = self.n_rounds_for(array.shape[1])
        sorted_rows = np.sort(array, axis=1)
        if array.shape[1] > 1 and np.any(sorted_rows[:, 1:] == sorted_rows[:, :-1]):
            raise ValueError("hands contain a repeated card within a row")
        _, keys, offsets = self.kernel_tables(n_rounds)
        out = np.empty(array.shape[0], dtype=np.int64)
        _hand_index_batch(array.astype(np.int8), self._rounds_array, n_rounds, keys, offsets, out)
        return out

    def index(self, cards: CardsLike) -> int:
        """Index of one deal given as text (``"AsKd Qh7d2c"``) or card ints, hole cards first."""
        array = parse_cards(cards) if isinstance(cards, str) else parse_cards(list(np.asarray(cards).tolist()))
        try:
            self.n_rounds_for(len(array))
        except ValueError as error:
            raise ValueError(
                str(error).replace(f"{len(array)} cards", f"{len(array)} cards {format_cards(array)!r}")
            ) from None
        return int(self.index_batch(array[None, :])[0])


def _round_distributions(n_cards: int) -> list[tuple[int, ...]]:
    """All ways to give ``n_cards`` cards of one round to the four suits (counts per suit)."""
    return [c for c in itertools.product(range(n_cards + 1), repeat=N_SUITS) if sum(c) == n_cards]


def _configuration_table(rounds: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, int]:
    """Sorted configuration keys, their index offsets, and the total number of classes."""
    n_rounds = len(rounds)
    code_space = CODE_BASE**n_rounds
    sizes: dict[int, int] = {}
    for per_round in itertools.product(*(_round_distributions(n) for n in rounds)):
        codes = sorted(
            (sum(per_round[r][suit] * CODE_BASE**r for r in range(n_rounds)) for suit in range(N_SUITS)),
            reverse=True,
        )
        key = functools.reduce(lambda acc, code: acc * code_space + code, codes, 0)
        if key in sizes:
            continue
        size = 1
        for code, group in itertools.groupby(codes):
            multiplicity = len(list(group))
            size *= _multisets(int(_suit_size(code, n_rounds)), multiplicity)
        sizes[key] = size
    keys = np.array(sorted(sizes), dtype=np.int64)
    counts = np.array([sizes[int(k)] for k in keys], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    return keys, offsets, int(counts.sum())


def _multisets(n_values: int, size: int) -> int:
    """Number of multisets of ``size`` elements drawn from ``n_values`` values."""
    return math.comb(n_values + size - 1, size)


@functools.cache
def holdem_indexer() -> HandIndexer:
    """The shared Texas Hold'em indexer: rounds (2, 3, 1, 1)."""
    return HandIndexer((2, 3, 1, 1))

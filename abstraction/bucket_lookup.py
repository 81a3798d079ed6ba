"""Real cards to abstract buckets, the one function the deal sampler and the lookup bot share.

`BucketLookup` wraps a `CardAbstraction` (two-card variants: Hold'em, Swap) and gives the bucket
of two hole cards on a board of 0, 3, 4 or 5 cards: the abstraction's table entry (preflop, flop,
turn) or nearest river centroid. A build restricted to a subset of flops
(``build_card_abstraction(..., flops=...)``) leaves the other flop and turn classes without a
bucket; for those the lookup falls back to the hand's current strength against a uniform opponent
holding, mapped to the nearest centroid key of the street (buckets are numbered by increasing
equity, so the fallback keeps the order, but it ignores potential). A full build never falls back.
Solver and bot must bucket alike, so both go through this class.

>>> from abstraction.buckets import CardAbstractionConfig, build_card_abstraction, canonical_flops
>>> small = dict(training_flops=2, turn_training_points=500, river_training_points=500,
...              flop_training_points=200, iterations=4)
>>> abstraction = build_card_abstraction(CardAbstractionConfig(buckets=(4, 3, 3, 3), method="ehs", **small),
...                                      flops=canonical_flops()[:2])
>>> lookup = BucketLookup(abstraction)
>>> lookup.n_buckets
(4, 3, 3, 3)
>>> 0 <= lookup.bucket("AhAd", "Kc7s2d9h") < 3
True
>>> lookup.bucket("AhAd", "Kc")
Traceback (most recent call last):
...
ValueError: bucket needs 2 distinct hole cards and a board of 0, 3, 4 or 5 distinct cards, got 'Ah Ad' on 'Kc'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from abstraction.buckets import METHODS, CardAbstraction
from abstraction.kernels_buckets import METHOD_EMD
from abstraction.kernels_deals import _hand_bucket
from game.cards import format_cards, parse_cards

TWO_CARD_VARIANTS = ("holdem", "swap")
"""Card-abstraction variants whose buckets are plain two-card buckets (Bounty doubles them)."""


def centroid_keys(centroids: np.ndarray, method: str) -> np.ndarray:
    """Equity key of each centroid (float64, increasing as the buckets): the mean of an EMD
    distribution, else the first feature (E[HS])."""
    centroids = np.asarray(centroids, dtype=np.float64)
    if centroids.ndim != 2 or centroids.shape[0] == 0:
        raise ValueError(f"centroids must be a non-empty 2-D array, got shape {centroids.shape}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}")
    keys = centroids.mean(axis=1) if METHODS[method] == METHOD_EMD else centroids[:, 0]
    return np.ascontiguousarray(keys)


class BucketLookup:
    """Buckets of real two-card hands for one card abstraction (see the module docstring)."""

    def __init__(self, abstraction: CardAbstraction) -> None:
        if not isinstance(abstraction, CardAbstraction):
            raise TypeError(f"abstraction must be a CardAbstraction, got {abstraction!r}")
        if abstraction.config.variant not in TWO_CARD_VARIANTS:
            raise ValueError(
                f"BucketLookup supports card abstractions of {TWO_CARD_VARIANTS}, got variant {abstraction.config.variant!r}"
            )
        self.abstraction = abstraction
        method = abstraction.config.method
        self._arguments = (
            abstraction.kernel_arguments(),
            centroid_keys(abstraction.flop_centroids, method),
            centroid_keys(abstraction.turn_centroids, method),
        )
        self._scratch = np.zeros((5, 4), dtype=np.int64)
        self._card_scratch = np.empty(8, dtype=np.int8)
        self._cards = np.empty(7, dtype=np.int8)

    @property
    def n_buckets(self) -> tuple[int, int, int, int]:
        """Buckets on preflop, flop, turn and river."""
        return self.abstraction.config.buckets

    def kernel_arguments(self) -> tuple:
        """What `abstraction.kernels_deals._hand_bucket` takes after ``cards`` (minus scratch): the card
        abstraction's kernel tables (one tuple of arrays), then the flop and turn centroid keys."""
        return self._arguments

    def bucket(self, hole: str | Sequence[int] | np.ndarray, board: str | Sequence[int] | np.ndarray = ()) -> int:
        """Bucket of two hole cards (text or card ints) on a board of 0, 3, 4 or 5 cards."""
        hole_cards = parse_cards(hole) if isinstance(hole, str) else np.asarray(hole, dtype=np.int64)
        board_cards = parse_cards(board) if isinstance(board, str) else np.asarray(board, dtype=np.int64)
        cards = np.concatenate([hole_cards.reshape(-1), board_cards.reshape(-1)])
        if (
            hole_cards.size != 2
            or board_cards.size not in (0, 3, 4, 5)
            or ((cards < 0) | (cards > 51)).any()
            or len(set(cards.tolist())) != cards.size
        ):
            raise ValueError(
                f"bucket needs 2 distinct hole cards and a board of 0, 3, 4 or 5 distinct cards, got "
                f"{_describe(hole_cards)!r} on {_describe(board_cards)!r}"
            )
        return self.bucket_unchecked(cards.astype(np.int8))

    def bucket_unchecked(self, cards: np.ndarray) -> int:
        """Bucket of int8 ``cards`` = hole then board (0, 3, 4 or 5 cards), distinct, not checked (hot path)."""
        return int(_hand_bucket(cards, *self._arguments, self._scratch, self._card_scratch))


def _describe(cards: np.ndarray) -> str:
    try:
        return format_cards(cards)
    except ValueError:
        return str(cards.tolist())

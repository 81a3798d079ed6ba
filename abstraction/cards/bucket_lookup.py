"""Real cards to abstract buckets, the one function the deal samplers and the lookup bot share.

`BucketLookup` wraps a `CardAbstraction` of any variant and gives the bucket of a hand:
2 hole cards (3 in the Auction after winning the third card, from the flop on) on a board of 0,
3, 4 or 5 cards, or longer (River of Blood run boards, bucketed like the river); Bounty
abstractions take the player's bounty rank and add the hit bit (``2 * bucket + hit``).
Preflop, flop and turn read the abstraction's tables, the river and run boards score the hand
on the spot against the nearest river centroid (`abstraction.cards.kernels_buckets._bucket`).

**Fallback** (the only one): a build restricted to a subset of flops
(``build_card_abstraction(..., flops=...)``) leaves the other boards' flop and turn classes
without a bucket; for those the lookup takes the hand's current strength against a uniform
two-card opponent holding and maps it to the nearest centroid key of the street (buckets are
numbered by increasing equity, so the fallback keeps the order, but it ignores potential). A
full build never falls back. Solver and bot must bucket alike, so both go through this class
(numba code calls `abstraction.cards.kernels_buckets._hand_bucket` with `kernel_arguments`).

>>> from abstraction.cards.build import build_card_abstraction
>>> from abstraction.cards.buckets import CardAbstractionConfig, canonical_flops
>>> small = dict(training_flops=2, turn_training_points=500, river_training_points=500,
...              flop_training_points=200, iterations=4)
>>> abstraction = build_card_abstraction(CardAbstractionConfig(buckets=(4, 3, 3, 3), method="ehs", **small),
...                                      flops=canonical_flops()[:2])
>>> lookup = BucketLookup(abstraction)
>>> lookup.n_buckets
(4, 3, 3, 3)
>>> 0 <= lookup.bucket("AhAd", "Kc7s2d9h") < 3
True
>>> 0 <= lookup.bucket("AhAdQs", "Kc7s2d9h4d3h") < 3   # Auction's third card on a River of Blood board
True
>>> lookup.bucket("AhAd", "Kc")
Traceback (most recent call last):
...
ValueError: bucket needs 2 hole cards (3 from the flop on) and a board of 0, 3, 4 or 5..48 cards, all distinct, at most 50 in all; got 'Ah Ad' on 'Kc'
>>> lookup.bucket("AhAd", bounty_rank=12)
Traceback (most recent call last):
...
ValueError: bounty_rank is for a Bounty card abstraction; this one is for 'holdem', got bounty_rank=12
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from abstraction.cards.buckets import METHODS, CardAbstraction
from abstraction.cards.kernels_buckets import METHOD_EMD, _hand_bucket, _hand_buckets
from game.cards.deck import N_RANKS, format_cards, parse_cards

MAX_BOARD = 48
"""Longest board a hand can be bucketed on (52 cards minus 4 hole cards, as River of Blood's cap)."""
MAX_CARDS = 50
"""Most hole plus board cards: two cards must be left for an opponent's holding."""


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
    """Buckets of real hands for one card abstraction of any variant (see the module docstring)."""

    @classmethod
    def of(cls, source: BucketLookup | CardAbstraction) -> BucketLookup:
        """``source`` itself if it is a lookup, else the lookup of the card abstraction ``source``."""
        if isinstance(source, BucketLookup):
            return source
        if isinstance(source, CardAbstraction):
            return cls(source)
        raise TypeError(f"lookup must be a BucketLookup or a CardAbstraction, got {source!r}")

    def __init__(self, abstraction: CardAbstraction) -> None:
        if not isinstance(abstraction, CardAbstraction):
            raise TypeError(f"abstraction must be a CardAbstraction, got {abstraction!r}")
        self.abstraction = abstraction
        method = abstraction.config.method
        self._arguments = (
            abstraction.kernel_arguments(),
            centroid_keys(abstraction.flop_centroids, method),
            centroid_keys(abstraction.turn_centroids, method),
        )
        self._scratch = np.zeros((5, 4), dtype=np.int64)
        self._card_scratch = np.empty(MAX_CARDS + 1, dtype=np.int8)

    @property
    def variant(self) -> str:
        """The card abstraction's variant (``abstraction.config.variant``)."""
        return self.abstraction.config.variant

    @property
    def bounty(self) -> bool:
        """Whether buckets carry Bounty's hit bit (a ``bounty`` abstraction: buckets doubled)."""
        return self.variant == "bounty"

    @property
    def n_buckets(self) -> tuple[int, int, int, int]:
        """Buckets on preflop, flop, turn and river (run boards as the river); doubled for Bounty."""
        return tuple(self.abstraction.n_buckets(street) for street in (0, 3, 4, 5))  # type: ignore[return-value]

    def kernel_arguments(self) -> tuple:
        """What `abstraction.cards.kernels_buckets._hand_bucket` takes after ``cards, n_hole, bounty_rank``
        (minus scratch): the card abstraction's kernel tables (one tuple of arrays), then the flop and
        turn centroid keys of the fallback."""
        return self._arguments

    def bucket(
        self,
        hole: str | Sequence[int] | np.ndarray,
        board: str | Sequence[int] | np.ndarray = (),
        bounty_rank: int | None = None,
    ) -> int:
        """Bucket of 2 hole cards (3 from the flop on: Auction) on a board of 0, 3, 4 or 5..48 cards
        (text or card ints); a Bounty abstraction needs the player's ``bounty_rank`` 0..12."""
        hole_cards = parse_cards(hole) if isinstance(hole, str) else np.asarray(hole, dtype=np.int64).reshape(-1)
        board_cards = parse_cards(board) if isinstance(board, str) else np.asarray(board, dtype=np.int64).reshape(-1)
        cards = np.concatenate([hole_cards, board_cards]).astype(np.int64)
        n_hole, n_board = hole_cards.size, board_cards.size
        if (
            not (n_hole == 2 or (n_hole == 3 and n_board >= 3))
            or n_board in (1, 2)
            or n_board > MAX_BOARD
            or cards.size > MAX_CARDS
            or ((cards < 0) | (cards > 51)).any()
            or len(set(cards.tolist())) != cards.size
        ):
            raise ValueError(
                f"bucket needs 2 hole cards (3 from the flop on) and a board of 0, 3, 4 or 5..{MAX_BOARD} cards, "
                f"all distinct, at most {MAX_CARDS} in all; got {_describe(hole_cards)!r} on {_describe(board_cards)!r}"
            )
        if not self.bounty and bounty_rank is not None:
            raise ValueError(
                f"bounty_rank is for a Bounty card abstraction; this one is for {self.variant!r}, got bounty_rank={bounty_rank!r}"
            )
        if self.bounty and (
            isinstance(bounty_rank, bool)
            or not isinstance(bounty_rank, (int, np.integer))
            or not 0 <= bounty_rank < N_RANKS
        ):
            raise ValueError(f"a Bounty card abstraction needs bounty_rank 0..12 (deuce..ace), got {bounty_rank!r}")
        return self.bucket_unchecked(cards.astype(np.int8), n_hole, -1 if bounty_rank is None else int(bounty_rank))

    def bucket_unchecked(self, cards: np.ndarray, n_hole: int = 2, bounty_rank: int = -1) -> int:
        """Bucket of int8 ``cards`` = ``n_hole`` hole cards then the board, as `bucket` would check them
        (not checked: hot path); ``bounty_rank`` -1 for a plain abstraction."""
        return int(_hand_bucket(cards, n_hole, bounty_rank, *self._arguments, self._scratch, self._card_scratch))

    def buckets_unchecked(self, cards: np.ndarray, n_hole: int, bounty_ranks: np.ndarray) -> np.ndarray:
        """`bucket_unchecked` of each row of int8 ``cards`` ``[K, n]`` (hole cards then board) with its
        int64 ``bounty_ranks[k]`` (-1 for a plain abstraction), in one kernel call: int64 ``[K]``."""
        out = np.empty(cards.shape[0], dtype=np.int64)
        _hand_buckets(cards, n_hole, bounty_ranks, *self._arguments, self._scratch, self._card_scratch, out)
        return out


def _describe(cards: np.ndarray) -> str:
    try:
        return format_cards(cards)
    except ValueError:
        return str(cards.tolist())

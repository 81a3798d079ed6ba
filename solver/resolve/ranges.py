"""Ranges: a belief over each player's 1,326 hole-card combinations, updated by Bayes at each action.

A range is a (1326,) float64 vector in the hand order of
``abstraction.cards.kernels_features.HAND_CARDS`` (lower card first, lexicographic). Card removal
is exact: a combination holding a board card, or (for the opponent's range as one player sees it)
one of that player's own cards, weighs 0. An action multiplies each combination's weight by the
probability that the strategy played takes that action with that combination; for the blueprint
that is the row of the combination's bucket at the abstract node (:func:`blueprint_likelihood`),
the buckets of all 1,326 combinations on a board coming from :class:`ComboBuckets` (cached per
board). Two-card holdings: Swap's swap events mix a range by :func:`swapped`; the variants with other
private state (Auction's three-card hands, Bounty's rank) are refused by the bot that uses these ranges.

>>> weights = initial_range(board=[0, 1, 2], own_cards=())
>>> int(np.count_nonzero(weights)), round(float(weights.sum()), 12)  # 49 * 48 / 2 combinations left, normalised
(1176, 1.0)
>>> float(initial_range(board=[0, 1, 2], own_cards=[7, 9])[combo_index([7, 8])])  # blocked by our 7
0.0
"""

from __future__ import annotations

import numpy as np

from abstraction.cards.buckets import BucketLookup
from abstraction.cards.kernels_features import HAND_CARDS

N_COMBOS = len(HAND_CARDS)
"""1,326 two-card combinations."""
_INDEX = np.full((52, 52), -1, dtype=np.int64)
_INDEX[HAND_CARDS[:, 0], HAND_CARDS[:, 1]] = np.arange(N_COMBOS)
_INDEX[HAND_CARDS[:, 1], HAND_CARDS[:, 0]] = np.arange(N_COMBOS)


def combo_index(cards) -> int:
    """Index of two distinct cards (ints 0..51, either order) in the 1,326-hand order."""
    first, second = (int(card) for card in cards)
    index = int(_INDEX[first, second]) if 0 <= first < 52 and 0 <= second < 52 else -1
    if index < 0:
        raise ValueError(f"a combination is two distinct cards 0..51, got {list(cards)!r}")
    return index


def blocked(cards) -> np.ndarray:
    """(1326,) bool: the combinations holding any of ``cards`` (ints 0..51)."""
    dead = np.zeros(52, dtype=bool)
    dead[np.asarray(cards, dtype=np.int64)] = True
    return dead[HAND_CARDS[:, 0]] | dead[HAND_CARDS[:, 1]]


def initial_range(board, own_cards) -> np.ndarray:
    """(1326,) uniform over the combinations sharing no card with ``board`` or ``own_cards``, summing to 1.

    ``own_cards=()`` gives a player's range as the opponent sees it (only the board is known)."""
    weights = (~blocked([*board, *own_cards])).astype(np.float64)
    return weights / weights.sum()


def bayes_update(weights: np.ndarray, likelihood: np.ndarray) -> np.ndarray:
    """``weights * likelihood`` normalised to sum 1 (both (1326,)); ValueError if nothing is left."""
    posterior = np.asarray(weights, dtype=np.float64) * np.asarray(likelihood, dtype=np.float64)
    if posterior.shape != (N_COMBOS,):
        raise ValueError(f"weights and likelihood must have shape ({N_COMBOS},), got {posterior.shape}")
    total = posterior.sum()
    if not np.isfinite(total) or total <= 0:
        raise ValueError("the action has probability 0 for every combination of the range: nothing is left")
    return posterior / total


class ComboBuckets:
    """Buckets of all 1,326 two-card combinations on a board (-1 where a combination holds a board
    card), from a :class:`BucketLookup`; the last ``cache_size`` boards are kept. A Bounty lookup
    gives the buckets without the hit bit (its bucket is ``2 * bucket + hit``; the caller adds the hit)."""

    def __init__(self, lookup: BucketLookup, cache_size: int = 8) -> None:
        if not isinstance(lookup, BucketLookup):
            raise TypeError(f"lookup must be a BucketLookup, got {lookup!r}")
        self.lookup = lookup
        self.cache_size = cache_size
        self._cache: dict[tuple[int, ...], np.ndarray] = {}

    def of(self, board) -> np.ndarray:
        """(1326,) int64 bucket of each combination on ``board`` (0, 3, 4 or 5+ card ints), -1 if blocked."""
        key = tuple(int(card) for card in board)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if len(key) in (1, 2) or len(set(key)) != len(key):
            raise ValueError(f"a board is 0, 3, 4 or 5+ distinct cards, got {list(key)!r}")
        out = np.full(N_COMBOS, -1, dtype=np.int64)
        live = np.flatnonzero(~blocked(key))
        cards = np.empty((len(live), 2 + len(key)), dtype=np.int8)
        cards[:, :2] = HAND_CARDS[live]
        cards[:, 2:] = key
        out[live] = self.lookup.buckets_unchecked(cards, 2, np.full(len(live), -1, dtype=np.int64))
        if len(self._cache) >= self.cache_size:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = out
        return out


def blueprint_likelihood(rows: np.ndarray, buckets: np.ndarray, action: int) -> np.ndarray:
    """(1326,) probability that each combination takes ``action`` at an abstract information-set group.

    ``rows``: (n_buckets, n_actions) the group's average strategy, one row per bucket; ``buckets``:
    (1326,) from :meth:`ComboBuckets.of` (-1: blocked, likelihood 0), or bucket ids of any shape
    (Bounty's (1326, 13) per combination and rank): the result has their shape."""
    rows = np.asarray(rows, dtype=np.float64)
    if rows.ndim != 2 or not 0 <= action < rows.shape[1]:
        raise ValueError(f"action {action} is not a column of rows of shape {rows.shape}")
    out = np.zeros(np.shape(buckets))
    live = buckets >= 0
    out[live] = rows[buckets[live], action]
    return out


def swapped(weights: np.ndarray, board, own_cards, probability: float) -> np.ndarray:
    """(1326,) a range after Swap's swap event, as an observer holding ``own_cards`` sees it: each of
    the holding's two cards is independently replaced, with ``probability``, by a card drawn
    uniformly from the ``m`` cards neither on ``board``, in ``own_cards`` nor in the holding
    (``weights`` must be 0 on combinations holding a board or own card; mass is kept).

    A combination ``{a, b}`` keeps ``(1 - p)^2`` of its weight, receives ``p (1 - p) / m`` of each
    combination sharing exactly one card with it and ``2 p^2 / (m (m - 1))`` of each sharing none:
    in per-card sums, ``(1 - p)^2 w + p (1 - p) / m (by[a] + by[b] - 2 w) + 2 p^2 / (m (m - 1))
    (total - by[a] - by[b] + w)``.

    >>> board = [0, 1, 2]
    >>> before = initial_range(board, own_cards=[3, 4])
    >>> after = swapped(before, board, [3, 4], 0.1)
    >>> bool(np.allclose(after, before)), round(float(after.sum()), 12)  # uniform stays uniform
    (True, 1.0)
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (N_COMBOS,):
        raise ValueError(f"weights must have shape ({N_COMBOS},), got {weights.shape}")
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must be in [0, 1], got {probability!r}")
    dead = blocked([*board, *own_cards])
    m = 52 - len(board) - len(own_cards) - 2
    by_card = np.zeros(52)
    np.add.at(by_card, HAND_CARDS[:, 0], weights)
    np.add.at(by_card, HAND_CARDS[:, 1], weights)
    one = by_card[HAND_CARDS[:, 0]] + by_card[HAND_CARDS[:, 1]]
    p = probability
    out = (1 - p) ** 2 * weights + p * (1 - p) / m * (one - 2 * weights)
    out += 2 * p * p / (m * (m - 1)) * (weights.sum() - one + weights)
    return np.where(dead, 0.0, out)

"""Poker hand evaluation: the best five-card hand from any 5..N cards.

A hand value is an int 1..7462 (the equivalence classes of five-card hands; 7462 = royal flush):
higher is better, equal values tie. N is not capped: Auction has three hole cards (8 cards with a
full board) and River of Blood boards grow past five cards. Kernels live in ``game.cards.kernels_evaluator``.

>>> evaluate("As Ks Qs Js Ts")
7462
>>> hand_category(evaluate("Ah Ad Kc Kd 2s 3c 9h"))
'two pair'
>>> evaluate("Ah Ad Kc Kd 2s 3c 9h") > evaluate("Ah Ad Qc Qd 2s 3c 9h")
True
>>> evaluate_batch(np.array([[48, 49, 50, 51, 0], [0, 4, 8, 12, 16]], dtype=np.int8)).tolist()
[7441, 7454]
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from game.cards import kernels_evaluator
from game.cards.deck import format_cards, parse_cards

CATEGORY_NAMES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
"""Names of the nine categories, indexed by ``category_index`` (0 = high card)."""


def _as_cards(cards: str | Iterable[int | str] | np.ndarray) -> np.ndarray:
    if isinstance(cards, np.ndarray) and cards.ndim == 1 and cards.dtype.kind in "iu":
        return parse_cards(cards.tolist())
    return parse_cards(cards)


def evaluate(cards: str | Iterable[int | str] | np.ndarray) -> int:
    """Value 1..7462 of the best five-card hand among 5 or more distinct cards.

    ``cards`` is text (``"Ah Kd 2c 3c 4c"``), card texts or card ints. Raises ``ValueError`` on
    malformed or duplicate cards or fewer than five cards.
    """
    array = _as_cards(cards)
    if array.shape[0] < 5:
        raise ValueError(f"need at least 5 cards to make a hand, got {array.shape[0]}: {format_cards(array)!r}")
    return int(kernels_evaluator.evaluate_hand(array))


def evaluate_few(cards: str | Iterable[int | str] | np.ndarray) -> int:
    """Value of a hand of 1..4 distinct cards, too few for a five-card hand (small-deck limit games).

    Higher wins and equal values tie; compare only hands of the same size. A hand ranks by its
    category (high card, one pair, two pair, three of a kind, four of a kind: ``category_index``
    numbering), then its ranks, the most repeated first and higher first (a pair's rank, then
    kickers), as the ACPC evaluator that OpenSpiel's ``universal_poker`` uses ranks them (no
    straight or flush has fewer than five cards).

    >>> evaluate_few("Kh Kd") > evaluate_few("Ah Qd") > evaluate_few("Ah Jd")
    True
    >>> evaluate_few("2c 2d 3h 3s") > evaluate_few("Ac Ad Kh Qs"), evaluate_few("5c") == evaluate_few("5d")
    (True, True)
    """
    array = _as_cards(cards)
    if not 1 <= array.shape[0] <= 4:
        raise ValueError(f"evaluate_few takes 1..4 cards, got {array.shape[0]}: {format_cards(array)!r}")
    counts = np.bincount(array.astype(np.int64) >> 2, minlength=13)
    ranks = sorted(np.flatnonzero(counts).tolist(), key=lambda rank: (counts[rank], rank), reverse=True)
    shape = tuple(sorted(counts[counts > 0].tolist(), reverse=True))
    category = {(2,): 1, (2, 1): 1, (2, 1, 1): 1, (2, 2): 2, (3,): 3, (3, 1): 3, (4,): 7}.get(shape, 0)
    value = category
    for position in range(4):
        value = value * 13 + (ranks[position] + 1 if position < len(ranks) else 0)
    return value


def evaluate_batch(hands: np.ndarray, *, out: np.ndarray | None = None, check: bool = True) -> np.ndarray:
    """Values of many hands: ``hands`` is ``(n, k)`` card ints with ``k >= 5``; returns ``int32 (n,)``.

    Rows are checked (cards in 0..51, no repeats) and a bad row raises ``ValueError`` naming it;
    ``check=False`` skips that pass for trusted input (results on bad rows are then undefined).
    """
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] < 5:
        raise ValueError(f"hands must be a 2-D array (n, k) with k >= 5 cards per row, got shape {array.shape}")
    if array.dtype.kind not in "iu":
        raise TypeError(f"hands must hold integer card ids, got dtype {array.dtype}")
    array = np.ascontiguousarray(array, dtype=np.int8) if array.dtype != np.int8 else np.ascontiguousarray(array)
    bad = kernels_evaluator._first_invalid_row(array) if check else -1
    if bad >= 0:
        raise ValueError(f"row {bad} of hands is not a set of distinct cards 0..51: {np.asarray(hands)[bad].tolist()}")
    if out is None:
        out = np.empty(array.shape[0], dtype=np.int32)
    elif out.shape != (array.shape[0],) or out.dtype != np.int32:
        raise ValueError(f"out must be int32 of shape ({array.shape[0]},), got {out.dtype} {out.shape}")
    kernels_evaluator._evaluate_rows(array, out)
    return out


def _check_value(value: int) -> int:
    if not 1 <= int(value) <= kernels_evaluator.N_CLASSES:
        raise ValueError(f"hand value {value!r} is outside 1..{kernels_evaluator.N_CLASSES}")
    return int(value)


def category_index(value: int) -> int:
    """Category 0..8 of a hand value (0 = high card … 8 = straight flush)."""
    return int(kernels_evaluator._category_of_class(kernels_evaluator.STRENGTH_KEYS, _check_value(value)))


def hand_category(value: int) -> str:
    """Name of the category of a hand value, e.g. ``'full house'``."""
    return CATEGORY_NAMES[category_index(value)]


def hand_census(n_cards: int) -> dict:
    """Category counts and the number of distinct values over every ``n_cards``-card hand.

    ``n_cards`` is 5, 6 or 7 (7 takes a few seconds: 133,784,560 hands).

    >>> hand_census(5)["distinct_values"]
    7462
    """
    if n_cards not in (5, 6, 7):
        raise ValueError(f"hand_census covers 5, 6 or 7 cards, got {n_cards!r}")
    counts = np.zeros(len(CATEGORY_NAMES), dtype=np.int64)
    seen = np.zeros(kernels_evaluator.N_CLASSES + 1, dtype=np.bool_)
    kernels_evaluator._census(n_cards, counts, seen)
    return {
        "cards": n_cards,
        "hands": int(counts.sum()),
        "distinct_values": int(seen.sum()),
        "categories": {name: int(c) for name, c in zip(CATEGORY_NAMES, counts, strict=True)},
    }

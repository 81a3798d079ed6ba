"""Action translation: map a real bet, raise or bid onto the abstract sizes (pseudo-harmonic mapping).

Ganzfried and Sandholm 2013 ("Action Translation in Extensive-Form Games with Large Action
Spaces", IJCAI): an opponent size x between abstract sizes A < x < B, all as fractions of the
pot, is read as A with probability

    f(x) = (B - x)(1 + A) / ((B - A)(1 + x))

and as B otherwise. f(A) = 1, f(B) = 0, f decreases in x, and f = 1/2 at the *median point*
x* = (A + B + 2AB) / (A + B + 2). Sizes below the smallest or above the largest abstract size map
to that size. Bids use the same mapping with bids as pot fractions.

>>> pseudo_harmonic_probability(0.75, 0.5, 1.0)
0.42857142857142855
>>> median_point(0.5, 1.0)
0.7142857142857143
>>> translate(0.75, [0.5, 1.0, 2.0], seed=0) in (0, 1)
True
>>> translate(5.0, [0.5, 1.0, 2.0], seed=0)
2
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game.cards.rng import SeedLike, as_generator


def pseudo_harmonic_probability(x: float, smaller: float, larger: float) -> float:
    """Probability of reading size ``x`` as ``smaller`` (A) rather than ``larger`` (B), A <= x <= B."""
    if not 0 <= smaller < larger:
        raise ValueError(f"need 0 <= smaller < larger, got smaller={smaller!r}, larger={larger!r}")
    if not smaller <= x <= larger:
        raise ValueError(f"x={x!r} must lie between smaller={smaller!r} and larger={larger!r}")
    return (larger - x) * (1 + smaller) / ((larger - smaller) * (1 + x))


def median_point(smaller: float, larger: float) -> float:
    """The size between A and B that maps to each with probability 1/2."""
    if not 0 <= smaller < larger:
        raise ValueError(f"need 0 <= smaller < larger, got smaller={smaller!r}, larger={larger!r}")
    return (smaller + larger + 2 * smaller * larger) / (smaller + larger + 2)


def translation_probabilities(x: float, sizes: Sequence[float]) -> np.ndarray:
    """Probability of each abstract size (sorted, distinct, >= 0, pot fractions) for real size ``x``."""
    array = np.asarray(sizes, dtype=np.float64)
    if array.ndim != 1 or array.size == 0 or np.any(np.diff(array) <= 0) or array[0] < 0:
        raise ValueError(f"sizes must be increasing, distinct pot fractions >= 0, got {list(sizes)!r}")
    if not np.isfinite(x) or x < 0:
        raise ValueError(f"a real size must be a finite pot fraction >= 0, got {x!r}")
    probabilities = np.zeros(array.size)
    if x <= array[0]:
        probabilities[0] = 1.0
    elif x >= array[-1]:
        probabilities[-1] = 1.0
    else:
        upper = int(np.searchsorted(array, x, side="right"))
        lower = upper - 1
        if array[lower] == x:
            probabilities[lower] = 1.0
        else:
            probabilities[lower] = pseudo_harmonic_probability(x, array[lower], array[upper])
            probabilities[upper] = 1.0 - probabilities[lower]
    return probabilities


def translate(x: float, sizes: Sequence[float], seed: SeedLike = None) -> int:
    """Index of the abstract size a real size ``x`` is read as, drawn by the pseudo-harmonic mapping."""
    probabilities = translation_probabilities(x, sizes)
    return int(as_generator(seed).choice(probabilities.size, p=probabilities))

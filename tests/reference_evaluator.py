"""Slow, obviously correct five-card poker hand ranking in pure Python (test oracle).

``rank_five(cards)`` returns a tuple that compares like poker hands: (category, tiebreak ranks…).
``best_of(cards)`` is the maximum over every five-card subset, for any number of cards.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations


def rank_five(cards: tuple[int, ...]) -> tuple[int, ...]:
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    suits = {c & 3 for c in cards}
    counts = Counter(ranks)
    # Ranks ordered by (multiplicity, rank), the way poker compares groups.
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len(suits) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_high = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:
            straight_high = 3
    if straight_high is not None and flush:
        return (8, straight_high)
    if shape == [4, 1]:
        return (7, *grouped)
    if shape == [3, 2]:
        return (6, *grouped)
    if flush:
        return (5, *ranks)
    if straight_high is not None:
        return (4, straight_high)
    if shape == [3, 1, 1]:
        return (3, *grouped)
    if shape == [2, 2, 1]:
        return (2, *grouped)
    if shape == [2, 1, 1, 1]:
        return (1, *grouped)
    return (0, *ranks)


def best_of(cards) -> tuple[int, ...]:
    return max(rank_five(subset) for subset in combinations(tuple(int(c) for c in cards), 5))

"""Numba kernels for terminal values against a range with card removal (users call solver.resolve.hands).

Hands are sorted by strength (ascending) in runs of equal strength ("groups"), and both players
hold hands from the same list. For a hand ``h`` holding cards ``a`` and ``b``, the opponent's reach
on hands sharing no card with it is ``total - card_sum[a] - card_sum[b] + reach[h]``
(inclusion-exclusion: the one combo holding both cards is ``h`` itself). Restricting every sum to
the hands strictly weaker than ``h`` (before its group) or weaker-or-equal (through its group)
gives the showdown masses; the hand ``h`` drops out of the strictly-weaker sums. The sums come
from cumulative sums: over the groups, and per card over the hands holding it (``card_hands``,
(width, 52) hand indices by ascending strength, padded with ``n``: a slot of reach 0), row ``k``
after ``k`` hands; ``below``/``through`` (n, 2) are each hand's flat indices into those per-card
sums (``k * 52 + card``) for its two cards. O(n) per call, independent gathers, no sort.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

N_CARDS = 52


class HandLayout(NamedTuple):
    """The hand list's index arrays, as the kernels take them (int64; see the module docstring).

    ``first``, ``second`` (n,): each hand's cards; ``group`` (n,): its run of equal strength;
    ``group_start`` (n_groups + 1,): where each run starts, then ``n``; ``card_hands``
    (width, 52); ``below``, ``through`` (n, 2).
    """

    first: np.ndarray
    second: np.ndarray
    group: np.ndarray
    group_start: np.ndarray
    card_hands: np.ndarray
    below: np.ndarray
    through: np.ndarray


class ShowdownScratch(NamedTuple):
    """Scratch of the kernels, float64: ``padded`` (n + 1,), ``card_sums`` ((width + 1) * 52,),
    ``group_sums`` (n_groups + 1,), ``win``, ``lose``, ``compatible`` (n,)."""

    padded: np.ndarray
    card_sums: np.ndarray
    group_sums: np.ndarray
    win: np.ndarray
    lose: np.ndarray
    compatible: np.ndarray


@njit(cache=True, nogil=True)
def _card_sums(layout, reach, scratch):
    """Per-card cumulative sums of ``reach`` into ``scratch.card_sums``: row ``k`` (flat offset
    ``k * 52``) after each card's first ``k`` hands. Returns the flat offset of the totals row."""
    n = len(reach)
    padded = scratch.padded
    for h in range(n):
        padded[h] = reach[h]
    padded[n] = 0.0
    card_hands = layout.card_hands
    sums = scratch.card_sums
    for c in range(N_CARDS):
        sums[c] = 0.0
    for k in range(card_hands.shape[0]):
        for c in range(N_CARDS):
            sums[(k + 1) * N_CARDS + c] = sums[k * N_CARDS + c] + padded[card_hands[k, c]]
    return card_hands.shape[0] * N_CARDS


@njit(cache=True, nogil=True)
def _compatible_mass(layout, reach, scratch, out):
    """``out[h]``: opponent reach on hands sharing no card with hand ``h`` (one scatter pass)."""
    card_sum = scratch.card_sums[:N_CARDS]
    card_sum[:] = 0.0
    first, second = layout.first, layout.second
    total = 0.0
    for h in range(len(reach)):
        total += reach[h]
        card_sum[first[h]] += reach[h]
        card_sum[second[h]] += reach[h]
    for h in range(len(reach)):
        out[h] = total - card_sum[first[h]] - card_sum[second[h]] + reach[h]


@njit(cache=True, nogil=True)
def _showdown_masses(layout, reach, scratch):
    """Opponent reach on compatible hands strictly weaker (``scratch.win[h]``), strictly stronger
    (``scratch.lose[h]``) than hand ``h``, and on all compatible hands (``scratch.compatible[h]``)."""
    last = _card_sums(layout, reach, scratch)
    sums = scratch.card_sums
    group_sums = scratch.group_sums
    group_start = layout.group_start
    total = 0.0
    for g in range(len(group_start) - 1):
        group_sums[g] = total
        for h in range(group_start[g], group_start[g + 1]):
            total += reach[h]
    group_sums[len(group_start) - 1] = total
    first, second, group, below, through = layout.first, layout.second, layout.group, layout.below, layout.through
    win, lose, compatible = scratch.win, scratch.lose, scratch.compatible
    for h in range(len(reach)):
        g = group[h]
        win[h] = group_sums[g] - sums[below[h, 0]] - sums[below[h, 1]]
        weaker_or_equal = group_sums[g + 1] - sums[through[h, 0]] - sums[through[h, 1]]  # minus reach[h]
        rest = total - sums[last + first[h]] - sums[last + second[h]]
        compatible[h] = rest + reach[h]
        lose[h] = rest - weaker_or_equal


@njit(cache=True, nogil=True)
def _showdown_value(layout, reach, own_chips, opponent_chips, scratch, out):
    """``out[h]``: counterfactual showdown value (chips, weighted by opponent reach) of hand ``h``.

    Winning gains the opponent's ``opponent_chips`` committed, losing loses ``own_chips``, a tie
    gains half the difference.
    """
    _showdown_masses(layout, reach, scratch)
    win, lose, compatible = scratch.win, scratch.lose, scratch.compatible
    tie_value = 0.5 * (opponent_chips - own_chips)
    for h in range(len(reach)):
        tie = compatible[h] - win[h] - lose[h]
        out[h] = opponent_chips * win[h] - own_chips * lose[h] + tie_value * tie


@njit(cache=True, nogil=True)
def _fold_value(layout, reach, payoff, scratch, out):
    """``out[h]``: ``payoff`` chips times the opponent reach compatible with hand ``h``."""
    _compatible_mass(layout, reach, scratch, out)
    for h in range(len(reach)):
        out[h] *= payoff

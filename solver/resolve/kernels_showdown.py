"""Numba kernels for terminal values against a range with card removal (users call solver.resolve.hands).

Hands are sorted by strength (ascending) in runs of equal strength ("groups"), and both players
hold hands from the same list. For a hand ``h`` holding cards ``a`` and ``b``, the opponent's reach
on hands sharing no card with it is ``total - by_card[a] - by_card[b] + reach[h]``
(inclusion-exclusion: the one combo holding both cards is ``h`` itself), where ``by_card`` (52,) is
the reach on the hands holding each card. A showdown is one ascending sweep over the groups with a
running total and a running ``by_card``: before a group is added they give each of its hands the
compatible reach strictly weaker (``h`` is not in it), after it the reach weaker or equal (``h``
cancels out). Two lookups into a 52-entry array per hand and sum: O(n) per call, no sort.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from solver.resolve.kernels_lanes import LANES, add_difference_and, add_to_three, store_difference

N_CARDS = 52


class HandLayout(NamedTuple):
    """The hand list's index arrays, as the kernels take them (uint32).

    ``first``, ``second`` (n,): each hand's cards; ``group_start`` (n_groups + 1,): where each run of
    equal strength starts, then ``n``.
    """

    first: np.ndarray
    second: np.ndarray
    group_start: np.ndarray


class ShowdownScratch(NamedTuple):
    """Scratch of the kernels, float64: ``by_card`` (52,), ``win``, ``lose``, ``compatible`` (n,)."""

    by_card: np.ndarray
    win: np.ndarray
    lose: np.ndarray
    compatible: np.ndarray


@njit(cache=True, nogil=True)
def _compatible_mass(layout, reach, scratch, out):
    """``out[h]``: opponent reach on hands sharing no card with hand ``h`` (one scatter pass)."""
    by_card = scratch.by_card
    by_card[:] = 0.0
    first, second = layout.first, layout.second
    total = 0.0
    for h in range(len(reach)):
        total += reach[h]
        by_card[first[h]] += reach[h]
        by_card[second[h]] += reach[h]
    for h in range(len(reach)):
        out[h] = total - by_card[first[h]] - by_card[second[h]] + reach[h]


@njit(cache=True, nogil=True)
def _sweep(layout, reach, scratch, weaker, weaker_or_equal):
    """The ascending sweep: ``weaker[h]`` and ``weaker_or_equal[h]``, opponent reach on compatible
    hands strictly weaker than / at most as strong as ``h`` (``h`` excluded), and
    ``scratch.compatible[h]``, all compatible reach."""
    by_card = scratch.by_card
    by_card[:] = 0.0
    first, second, group_start = layout.first, layout.second, layout.group_start
    total = 0.0
    for g in range(len(group_start) - 1):
        start, stop = group_start[g], group_start[g + 1]
        for h in range(start, stop):
            weaker[h] = total - by_card[first[h]] - by_card[second[h]]
        for h in range(start, stop):
            total += reach[h]
            by_card[first[h]] += reach[h]
            by_card[second[h]] += reach[h]
        for h in range(start, stop):
            weaker_or_equal[h] = total - by_card[first[h]] - by_card[second[h]] + reach[h]
    compatible = scratch.compatible
    for h in range(len(reach)):
        compatible[h] = total - by_card[first[h]] - by_card[second[h]] + reach[h]


@njit(cache=True, nogil=True)
def _showdown_masses(layout, reach, scratch):
    """Opponent reach on compatible hands strictly weaker (``scratch.win[h]``), strictly stronger
    (``scratch.lose[h]``) than hand ``h``, and on all compatible hands (``scratch.compatible[h]``)."""
    _sweep(layout, reach, scratch, scratch.win, scratch.lose)
    for h in range(len(reach)):
        scratch.lose[h] = scratch.compatible[h] - scratch.lose[h]


@njit(cache=True, nogil=True)
def _showdown_value(layout, reach, own_chips, opponent_chips, scratch, out):
    """``out[h]``: counterfactual showdown value (chips, weighted by opponent reach) of hand ``h``.

    Winning gains the opponent's ``opponent_chips`` committed, losing loses ``own_chips``, a tie
    gains half the difference. With ``w`` strictly weaker, ``e`` weaker or equal and ``m`` all
    compatible reach (lose ``m - e``, tie ``e - w``) that is ``(own + opponent) / 2 * (w + e) - own * m``.
    """
    _sweep(layout, reach, scratch, scratch.win, scratch.lose)
    win, weaker_or_equal, compatible = scratch.win, scratch.lose, scratch.compatible
    half_pot = 0.5 * (own_chips + opponent_chips)
    for h in range(len(reach)):
        out[h] = half_pot * (win[h] + weaker_or_equal[h]) - own_chips * compatible[h]


@njit(cache=True, nogil=True)
def _fold_value(layout, reach, payoff, scratch, out):
    """``out[h]``: ``payoff`` chips times the opponent reach compatible with hand ``h``."""
    _compatible_mass(layout, reach, scratch, out)
    for h in range(len(reach)):
        out[h] *= payoff


@njit(cache=True, nogil=True)
def _batched_sweep(layout, reach, by_card, total, weaker_sums, n_full):
    """The ascending sweep for ``k`` reach vectors at once, hand-major so that each step runs over
    the vectors, 16 at a time (:mod:`kernels_lanes`): ``reach`` (n, k); out ``weaker_sums[h, j]``,
    the strictly weaker plus the weaker-or-equal compatible reach of vector ``j`` (``w + e`` of
    :func:`_showdown_value`), and the totals ``by_card`` (52, k), ``total`` (k,): the compatible
    reach of hand ``h`` is then ``total - by_card[first[h]] - by_card[second[h]] + reach[h]``. Only
    the first ``n_full`` columns get ``weaker_sums`` (the others need only the totals: folds).
    ``k`` and ``n_full`` multiples of :data:`kernels_lanes.LANES`, the arrays C-contiguous, of one
    float dtype."""
    first, second, group_start = layout.first, layout.second, layout.group_start
    k = len(total)
    by_card[:] = 0.0
    total[:] = 0.0
    for g in range(len(group_start) - 1):
        start, stop = group_start[g], group_start[g + 1]
        for h in range(start, stop):
            row, a, b = np.int64(h) * k, np.int64(first[h]) * k, np.int64(second[h]) * k
            for j in range(0, n_full, LANES):
                store_difference(weaker_sums, row + j, total, j, by_card, a + j, by_card, b + j)
        for h in range(start, stop):
            row, a, b = np.int64(h) * k, np.int64(first[h]) * k, np.int64(second[h]) * k
            for j in range(0, k, LANES):
                add_to_three(reach, row + j, total, j, by_card, a + j, by_card, b + j)
        for h in range(start, stop):
            row, a, b = np.int64(h) * k, np.int64(first[h]) * k, np.int64(second[h]) * k
            for j in range(0, n_full, LANES):
                add_difference_and(weaker_sums, row + j, total, j, by_card, a + j, by_card, b + j, reach, row + j)

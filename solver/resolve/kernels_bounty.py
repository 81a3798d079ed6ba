"""Numba kernel for Bounty's terminal values (users call solver.resolve.bounty).

A Bounty type is a hand and a hit bit (whether the player's bounty rank is among its cards or the
board). The opponent's reach over ``2 n`` types (hit 0: types ``0 .. n-1``, hit 1: ``n .. 2n-1``,
type ``t`` holding hand ``t mod n``) is two reach vectors over the ``n`` hands, one per hit bit. One
ascending sweep over the hands (sorted by strength, :mod:`kernels_showdown`) gives per hand and per
opponent hit bit ``b`` the compatible reach strictly weaker (``w_b``), weaker or equal (``e_b``)
and in all (``m_b``); a terminal's value for a traverser type of hit bit ``a`` is then
``sum_b A[a, b] w_b + B[a, b] e_b + C[a, b] m_b`` with twelve coefficients per terminal and
traverser (:func:`solver.resolve.bounty.terminal_coefficients`): O(n) per terminal, the sort done once.
"""

from __future__ import annotations

from numba import njit

N_COEFFICIENTS = 12
"""Per terminal and traverser: ``A[a, b]``, ``B[a, b]``, ``C[a, b]`` (a, b hit bits), flattened in that order."""


@njit(cache=True, nogil=True)
def _bounty_value(layout, coefficients, opponent_reach, by_card, masses, out):
    """``out[t]``: counterfactual value (chips times opponent reach) of traverser type ``t``.

    ``layout``: the ``n`` hands' ``HandLayout``; ``coefficients`` (12,) float64 (see the module
    docstring); ``opponent_reach`` (2 n,); scratch ``by_card`` (2, 52) and ``masses`` (6, n) float64
    (rows ``w_0, e_0, m_0, w_1, e_1, m_1``); ``out`` (2 n,)."""
    first, second, group_start = layout.first, layout.second, layout.group_start
    n = len(first)
    by_card[:] = 0.0
    total0 = 0.0
    total1 = 0.0
    for g in range(len(group_start) - 1):
        start, stop = group_start[g], group_start[g + 1]
        for h in range(start, stop):
            a, b = first[h], second[h]
            masses[0, h] = total0 - by_card[0, a] - by_card[0, b]
            masses[3, h] = total1 - by_card[1, a] - by_card[1, b]
        for h in range(start, stop):
            a, b = first[h], second[h]
            r0, r1 = opponent_reach[h], opponent_reach[n + h]
            total0 += r0
            total1 += r1
            by_card[0, a] += r0
            by_card[0, b] += r0
            by_card[1, a] += r1
            by_card[1, b] += r1
        for h in range(start, stop):
            a, b = first[h], second[h]
            masses[1, h] = total0 - by_card[0, a] - by_card[0, b] + opponent_reach[h]
            masses[4, h] = total1 - by_card[1, a] - by_card[1, b] + opponent_reach[n + h]
    for h in range(n):
        a, b = first[h], second[h]
        masses[2, h] = total0 - by_card[0, a] - by_card[0, b] + opponent_reach[h]
        masses[5, h] = total1 - by_card[1, a] - by_card[1, b] + opponent_reach[n + h]
    for hit in range(2):
        row = 2 * hit  # A[hit, 0] is coefficients[row], A[hit, 1] coefficients[row + 1]
        for h in range(n):
            value = 0.0
            for opponent_hit in range(2):
                k = row + opponent_hit
                m = 3 * opponent_hit
                value += coefficients[k] * masses[m, h]
                value += coefficients[4 + k] * masses[m + 1, h]
                value += coefficients[8 + k] * masses[m + 2, h]
            out[hit * n + h] = value

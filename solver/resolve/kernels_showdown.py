"""Numba kernels for terminal values against a range with card removal (users call solver.resolve.hands).

Hands are sorted by strength (ascending), ``group_start`` marks where each run of equal strength
starts (and ends the list with ``n``), and both players hold hands from the same list. For a hand
``h`` holding cards ``a`` and ``b``, the opponent's reach on hands sharing no card with it is
``total - card_sum[a] - card_sum[b] + reach[h]`` (inclusion-exclusion: the one combo holding both
cards is ``h`` itself). One ascending sweep with running sums per card gives the same quantity
over strictly weaker hands (before ``h``'s group is added) and over weaker-or-equal ones (after),
so the mass of strictly stronger hands follows from the totals: O(n) per call, no second sort.
Card arrays are int64 (``first``, ``second``: each hand's lower and higher card).
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def _compatible_mass(first, second, reach, card_sum, out):
    """``out[h]``: opponent reach on hands sharing no card with hand ``h``. ``card_sum`` (52,) is scratch."""
    card_sum[:] = 0.0
    total = 0.0
    for h in range(len(reach)):
        total += reach[h]
        card_sum[first[h]] += reach[h]
        card_sum[second[h]] += reach[h]
    for h in range(len(reach)):
        out[h] = total - card_sum[first[h]] - card_sum[second[h]] + reach[h]


@njit(cache=True, nogil=True)
def _showdown_masses(first, second, group_start, reach, card_sum, win, lose, compatible):
    """Opponent reach on compatible hands strictly weaker (``win[h]``), strictly stronger
    (``lose[h]``) than hand ``h``, and on all compatible hands (``compatible[h]``).

    ``card_sum`` (52,) is scratch; ``lose`` holds the weaker-or-equal mass until the last loop.
    """
    card_sum[:] = 0.0
    total = 0.0
    for group in range(len(group_start) - 1):
        start, stop = group_start[group], group_start[group + 1]
        for h in range(start, stop):
            win[h] = total - card_sum[first[h]] - card_sum[second[h]]
        for h in range(start, stop):
            total += reach[h]
            card_sum[first[h]] += reach[h]
            card_sum[second[h]] += reach[h]
        for h in range(start, stop):
            lose[h] = total - card_sum[first[h]] - card_sum[second[h]]  # weaker or equal, minus reach[h]
    for h in range(len(reach)):
        rest = total - card_sum[first[h]] - card_sum[second[h]]
        compatible[h] = rest + reach[h]
        lose[h] = rest - lose[h]


@njit(cache=True, nogil=True)
def _showdown_value(first, second, group_start, reach, own_chips, opponent_chips, card_sum, win, lose, compatible, out):
    """``out[h]``: counterfactual showdown value (chips, weighted by opponent reach) of hand ``h``.

    Winning gains the opponent's ``opponent_chips`` committed, losing loses ``own_chips``, a tie
    gains half the difference. ``win``, ``lose``, ``compatible`` (n,) and ``card_sum`` (52,) are scratch.
    """
    _showdown_masses(first, second, group_start, reach, card_sum, win, lose, compatible)
    tie_value = 0.5 * (opponent_chips - own_chips)
    for h in range(len(reach)):
        tie = compatible[h] - win[h] - lose[h]
        out[h] = opponent_chips * win[h] - own_chips * lose[h] + tie_value * tie


@njit(cache=True, nogil=True)
def _fold_value(first, second, reach, payoff, card_sum, out):
    """``out[h]``: ``payoff`` chips times the opponent reach compatible with hand ``h``."""
    _compatible_mass(first, second, reach, card_sum, out)
    for h in range(len(reach)):
        out[h] *= payoff

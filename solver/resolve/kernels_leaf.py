"""Numba kernels for the terminals of depth-limited subgames (users call solver.resolve.resolver).

Two node kinds end a turn subgame before the river (:mod:`solver.resolve.tree`):

- **RUNOUT** (a call leaves a player all-in): the exact expectation over the river card of the
  showdown, card removal exact. A showdown is worth ``(own + other) / 2 * (w + e) - own * m`` (w:
  compatible opponent reach strictly weaker, e: weaker or equal, m: all compatible; see
  :mod:`kernels_showdown`). Summed over the rivers a hand does not hold, the ``m`` term is 44 times
  the turn's compatible reach (every compatible pair sees 44 rivers), so each of the 48 rivers costs
  one ascending sweep in its strength order giving ``w + e`` (the showdown sweep's running totals,
  reach read through the river's order), and the value is that sum over 44. O(48 n) per node. The CFR
  pass sweeps all its RUNOUT nodes together (:func:`_batched_runout_sweep`, hand-major, 16 nodes a
  vector, as the river's showdowns are batched); the best-response pass values them one by one
  (:func:`_runout_value`).
- **LEAF** (both matched, chips behind): the continuation values of Brown, Sandholm & Amos 2018. The
  opponent of the ``searcher`` (the re-solving seat) chooses per hand one of ``k`` continuation
  strategies for the rest of the hand; the searcher plays the blueprint. A hand's value is linear in
  the other side's reach through ``matrices[leaf, c]`` (C, C): the searcher's chips (whole hand) per
  unit of reach, between hand classes (``hand_class``). The opponent's choice learns by regret
  matching+ (an undiscounted no-regret learner beside the subgame's CFR variant; it has no average:
  only the searcher's strategy is played), updated in its own passes. Every hand of a class sees the
  same continuation values, so from equal (zero) regrets all of them learn the same choice: the
  regrets are kept per class, ``regrets[leaf]`` (k, C), and a leaf costs O(n + k C^2) per pass (the
  reach summed per class, the matrices, the values written per hand).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from solver.resolve.kernels_lanes import LANES, add_difference, add_difference_and, add_to_three
from solver.resolve.kernels_showdown import _compatible_mass

UPDATE, CURRENT, BEST = 0, 1, 2
"""Leaf modes: a CFR pass (the chooser's regrets learn), current strategy only, the chooser best-responds."""


class LeafArrays(NamedTuple):
    """What the leaf and runout kernels take.

    ``node_leaf`` (n_nodes,) int64: leaf index of each LEAF node (-1 elsewhere); ``searcher``: the
    seat whose continuation is the blueprint; ``hand_class`` (n,) int64 in 0..C-1; ``matrices``
    (n_leaves, k, C, C) float64 chips; ``regrets`` (n_leaves, k, C) float64 (modified), per class;
    ``class_reach``, ``class_values`` (k, C) scratch. RUNOUT: ``river_order``, ``river_first``,
    ``river_second``, ``river_group_start``, ``river_n_groups`` of
    :class:`~solver.resolve.hands.TurnHands`; ``rivers_per_pair`` (44.0).
    """

    node_leaf: np.ndarray
    searcher: int
    hand_class: np.ndarray
    matrices: np.ndarray
    regrets: np.ndarray
    class_reach: np.ndarray
    class_values: np.ndarray
    river_order: np.ndarray
    river_first: np.ndarray
    river_second: np.ndarray
    river_group_start: np.ndarray
    river_n_groups: np.ndarray
    rivers_per_pair: float


@njit(cache=True, nogil=True)
def _runout_value(leaves, layout, reach, own_chips, opponent_chips, scratch, out):
    """``out[h]``: counterfactual value of hand ``h`` at a RUNOUT (the river dealt, then a showdown
    at ``own_chips`` / ``opponent_chips`` put in), against the opponent's ``reach``. ``layout``,
    ``scratch``: the turn hands' (``scratch.compatible`` holds the reach's compatible mass on return)."""
    out[:] = 0.0
    by_card = scratch.by_card
    for river in range(leaves.river_order.shape[0]):
        order, first, second = leaves.river_order[river], leaves.river_first[river], leaves.river_second[river]
        group_start = leaves.river_group_start[river]
        by_card[:] = 0.0
        total = 0.0
        for g in range(leaves.river_n_groups[river]):
            start, stop = group_start[g], group_start[g + 1]
            for k in range(start, stop):
                out[order[k]] += total - by_card[first[k]] - by_card[second[k]]
            for k in range(start, stop):
                weight = reach[order[k]]
                total += weight
                by_card[first[k]] += weight
                by_card[second[k]] += weight
            for k in range(start, stop):
                h = order[k]
                out[h] += total - by_card[first[k]] - by_card[second[k]] + reach[h]
    _compatible_mass(layout, reach, scratch, scratch.compatible)
    half_pot = 0.5 * (own_chips + opponent_chips) / leaves.rivers_per_pair
    for h in range(len(out)):
        out[h] = half_pot * out[h] - own_chips * scratch.compatible[h]


@njit(cache=True, nogil=True)
def _batched_runout_sweep(leaves, first, second, reach, by_card, total, sums):
    """The sweeps of :func:`_runout_value` for ``k`` reach vectors at once, hand-major, each step a
    vector of 16 columns (:mod:`kernels_lanes`, as :func:`kernels_showdown._batched_sweep`): ``reach``
    (n, k) over the turn hands; out ``sums[h, j]``, vector ``j``'s strictly weaker plus weaker-or-equal
    compatible reach summed over the rivers hand ``h`` does not hold (rows read through each river's
    order), and ``by_card`` (52, k), ``total`` (k,) the totals over all ``n`` hands (``first``,
    ``second``: their cards), so that the compatible reach of hand ``h`` is ``total - by_card[first[h]]
    - by_card[second[h]] + reach[h]`` as after the showdown sweep. ``k`` a multiple of
    :data:`kernels_lanes.LANES`, the arrays C-contiguous, of one float dtype."""
    k = len(total)
    sums[:] = 0.0
    for river in range(leaves.river_order.shape[0]):
        order, firsts, seconds = leaves.river_order[river], leaves.river_first[river], leaves.river_second[river]
        group_start = leaves.river_group_start[river]
        by_card[:] = 0.0
        total[:] = 0.0
        for g in range(leaves.river_n_groups[river]):
            start, stop = group_start[g], group_start[g + 1]
            for i in range(start, stop):
                row, a, b = order[i] * k, np.int64(firsts[i]) * k, np.int64(seconds[i]) * k
                for j in range(0, k, LANES):
                    add_difference(sums, row + j, total, j, by_card, a + j, by_card, b + j)
            for i in range(start, stop):
                row, a, b = order[i] * k, np.int64(firsts[i]) * k, np.int64(seconds[i]) * k
                for j in range(0, k, LANES):
                    add_to_three(reach, row + j, total, j, by_card, a + j, by_card, b + j)
            for i in range(start, stop):
                row, a, b = order[i] * k, np.int64(firsts[i]) * k, np.int64(seconds[i]) * k
                for j in range(0, k, LANES):
                    add_difference_and(sums, row + j, total, j, by_card, a + j, by_card, b + j, reach, row + j)
    by_card[:] = 0.0
    total[:] = 0.0
    for h in range(len(first)):
        row, a, b = np.int64(h) * k, np.int64(first[h]) * k, np.int64(second[h]) * k
        for j in range(0, k, LANES):
            add_to_three(reach, row + j, total, j, by_card, a + j, by_card, b + j)


@njit(cache=True, nogil=True)
def _positive_total(regrets, h):
    """Class ``h``'s positive regrets over the choices of ``regrets`` (k, C), summed."""
    total = 0.0
    for c in range(regrets.shape[0]):
        total += max(regrets[c, h], 0.0)
    return total


@njit(cache=True, nogil=True)
def _choice(regrets, c, h, total):
    """Regret matching of choice ``c`` for class ``h`` (``total``: its positive regrets summed),
    uniform if none is positive."""
    if total > 0.0:
        return max(regrets[c, h], 0.0) / total
    return 1.0 / regrets.shape[0]


@njit(cache=True, nogil=True)
def _leaf_value(leaves, leaf, traverser, opponent_reach, mode, out):
    """``out[h]``: counterfactual value of ``traverser``'s hand ``h`` at leaf ``leaf``.

    The searcher's value takes the opponent's choices at their current strategy. The opponent's is
    its chosen continuation's (``mode`` UPDATE / CURRENT: the current strategy, whose regrets learn
    under UPDATE; BEST: the best continuation per class)."""
    matrices = leaves.matrices[leaf]
    regrets = leaves.regrets[leaf]
    hand_class = leaves.hand_class
    n_choices, n_classes = matrices.shape[0], matrices.shape[1]
    class_reach, class_values = leaves.class_reach, leaves.class_values
    class_reach[:] = 0.0
    class_values[:] = 0.0
    for h in range(len(out)):  # the other side's reach per class
        class_reach[0, hand_class[h]] += opponent_reach[h]
    if traverser == leaves.searcher:
        for j in range(n_classes):  # the chooser's reach per class and choice, choice 0 last
            total = _positive_total(regrets, j)
            for c in range(n_choices - 1, -1, -1):
                class_reach[c, j] = class_reach[0, j] * _choice(regrets, c, j, total)
        for c in range(n_choices):
            for i in range(n_classes):
                total = 0.0
                for j in range(n_classes):
                    total += matrices[c, i, j] * class_reach[c, j]
                class_values[0, i] += total
        for h in range(len(out)):
            out[h] = class_values[0, hand_class[h]]
        return
    for c in range(n_choices):
        for i in range(n_classes):
            weight = class_reach[0, i]
            if weight != 0.0:
                for j in range(n_classes):
                    class_values[c, j] -= matrices[c, i, j] * weight
    value = class_reach[0]  # free now: each class's value
    for j in range(n_classes):
        if mode == BEST:
            best = class_values[0, j]
            for c in range(1, n_choices):
                best = max(best, class_values[c, j])
            value[j] = best
            continue
        total = _positive_total(regrets, j)
        chosen = 0.0
        for c in range(n_choices):
            chosen += _choice(regrets, c, j, total) * class_values[c, j]
        value[j] = chosen
        if mode == UPDATE:
            for c in range(n_choices):
                regrets[c, j] = max(regrets[c, j] + class_values[c, j] - chosen, 0.0)
    for h in range(len(out)):
        out[h] = value[hand_class[h]]


@njit(cache=True, nogil=True)
def _leaf_matrices(
    members, member_count, first, second, river_cards, river_bucket, river_strength, tables, scale, samples, seed, out
):
    """Monte Carlo leaf matrices into ``out`` (C, C, L), every entry overwritten; ``L`` counts the
    (leaf, choice) pairs.

    Per class pair ``(i, j)``: ``samples`` draws of a hand of class ``i`` and one of class ``j``
    (uniform over ``members[i, :member_count[i]]``, indices into the turn hands, whose cards are
    ``first``, ``second``); a pair sharing a card adds 0, otherwise a river uniform over
    ``river_cards`` (m,) minus the four hole cards, and the pair adds, for every (leaf, choice) ``l``,
    ``tables[bucket of i's hand, bucket of j's hand, outcome, l]`` (``river_bucket`` (m, n); outcome
    0 / 1 / 2: i's hand loses / ties / wins by ``river_strength`` (m, n)): the (leaf, choice) pairs
    are the last axis of both arrays, so that a sample's additions are one contiguous run. The sum
    is divided by ``samples`` and multiplied by ``scale[l]``. One seed, one stream: deterministic.
    """
    np.random.seed(seed)
    n_classes, n_pairs = out.shape[0], out.shape[2]
    out[:] = 0.0
    for i in range(n_classes):
        for j in range(n_classes):
            cell = out[i, j]
            for _ in range(samples):
                h = members[i, np.random.randint(member_count[i])]
                g = members[j, np.random.randint(member_count[j])]
                mine_cards = (np.int64(1) << first[h]) | (np.int64(1) << second[h])
                their_cards = (np.int64(1) << first[g]) | (np.int64(1) << second[g])
                if mine_cards & their_cards:
                    continue
                river = np.random.randint(len(river_cards))
                while ((mine_cards | their_cards) >> river_cards[river]) & 1:
                    river = np.random.randint(len(river_cards))
                own, other = river_strength[river, h], river_strength[river, g]
                outcome = 2 if own > other else (1 if own == other else 0)
                values = tables[river_bucket[river, h], river_bucket[river, g], outcome]
                for pair in range(n_pairs):
                    cell[pair] += values[pair]
    for i in range(n_classes):
        for j in range(n_classes):
            for pair in range(n_pairs):
                out[i, j, pair] *= scale[pair] / samples

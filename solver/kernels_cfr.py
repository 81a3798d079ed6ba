"""Numba kernels for full-traversal CFR, CFR+, linear CFR and discounted CFR (users call solver.cfr).

One iteration, alternating updates as OpenSpiel does: for the traverser 0 then 1, turn the
regrets into the current strategy (regret matching), then for every deal sweep the betting tree
forward (reach probabilities, strategy sums of the traverser) and backward (values, regrets of
the traverser), then clip (CFR+) or discount (linear / discounted CFR) the traverser's regrets.
Every variant is the same kernel with other parameters: strategy-sum weight ``t ** gamma``, regret
matching+ on/off, regret discount ``t**alpha / (t**alpha + 1)`` for positive and ``t**beta /
(t**beta + 1)`` for negative regrets when ``discount`` is on (OpenSpiel ``discounted_cfr.py``).

Tables are flat float64 arrays of ``FlatTree.table_size`` entries (see :mod:`abstraction.tree`),
modified in place. Tree arrays are passed as returned by ``solver.cfr.tree_arrays``; deal arrays as
by ``solver.cfr.deal_arrays``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

DECISION = 0
FOLD = 1
SHOWDOWN = 2


@njit(cache=True, nogil=True, inline="always")
def _regret_matching_row(regrets, start, count, out, out_start):
    """Current strategy of the information set at ``regrets[start:start+count]`` into ``out[out_start:]``.

    Uniform if no regret is positive.
    """
    positive_sum = 0.0
    for k in range(count):
        if regrets[start + k] > 0.0:
            positive_sum += regrets[start + k]
    if positive_sum > 0.0:
        for k in range(count):
            out[out_start + k] = regrets[start + k] / positive_sum if regrets[start + k] > 0.0 else 0.0
    else:
        for k in range(count):
            out[out_start + k] = 1.0 / count


@njit(cache=True, nogil=True)
def _regret_matching(regrets, n_actions, row_offset, n_buckets, out):
    """Current strategy of every information set into ``out`` (same layout as ``regrets``)."""
    for group in range(len(n_actions)):
        count = n_actions[group]
        for bucket in range(n_buckets[group]):
            start = row_offset[group] + bucket * count
            _regret_matching_row(regrets, start, count, out, start)


@njit(cache=True, nogil=True)
def _normalize_rows(sums, n_actions, row_offset, n_buckets, out):
    """Rows of ``sums`` scaled to sum to 1 into ``out``; uniform where a row sums to 0."""
    for group in range(len(n_actions)):
        count = n_actions[group]
        for bucket in range(n_buckets[group]):
            start = row_offset[group] + bucket * count
            total = 0.0
            for k in range(count):
                total += sums[start + k]
            for k in range(count):
                out[start + k] = sums[start + k] / total if total > 0.0 else 1.0 / count


@njit(cache=True, nogil=True, inline="always")
def _terminal_value(kind, player, committed, node, share_player0, traverser):
    """Chips won by ``traverser`` at terminal ``node`` (a fold, or a showdown with player 0's share)."""
    if kind[node] == FOLD:
        if player[node] == traverser:
            return -committed[node, traverser]
        return committed[node, 1 - traverser]
    share = share_player0 if traverser == 0 else 1.0 - share_player0
    return share * (committed[node, 0] + committed[node, 1]) - committed[node, traverser]


@njit(cache=True, nogil=True)
def _terminal_coefficients(kind, player, committed):
    """``base[n, p]`` and ``pot[n]`` with player ``p``'s chips at terminal ``n`` = base + share_p * pot.

    ``share_p`` is ``p``'s share of the pot at a showdown; ``pot`` is 0 at folds.
    """
    n_nodes = len(kind)
    base = np.zeros((n_nodes, 2))
    pot = np.zeros(n_nodes)
    for node in range(n_nodes):
        if kind[node] == DECISION:
            continue
        for traverser in range(2):
            # player 0's share 0 for traverser 0 and 1 for traverser 1: the traverser's own share is 0
            base[node, traverser] = _terminal_value(kind, player, committed, node, float(traverser), traverser)
        if kind[node] == SHOWDOWN:
            pot[node] = committed[node, 0] + committed[node, 1]
    return base, pot


@njit(cache=True, nogil=True)
def _deal_rows(kind, player, street, infoset_group, n_actions, row_offset, bucket):
    """``rows[d, j]``: table row of the ``j``-th decision node in deal ``d``; also the decision nodes."""
    decisions = np.flatnonzero(kind == DECISION)
    rows = np.empty((bucket.shape[0], len(decisions)), dtype=np.int64)
    for deal in range(bucket.shape[0]):
        for j in range(len(decisions)):
            node = decisions[j]
            group = infoset_group[node]
            rows[deal, j] = row_offset[group] + bucket[deal, player[node], street[node]] * n_actions[group]
    return decisions, rows


@njit(cache=True, nogil=True)
def _cfr_iterations(kind, player, street, child_start, n_children, committed, infoset_group,
                    n_actions, row_offset, n_buckets, group_player,
                    probability, bucket, showdown_share,
                    regrets, strategy_sums, strategy,
                    first_iteration, n_iterations,
                    regret_matching_plus, gamma, discount, alpha, beta):
    """Run iterations ``first_iteration + 1 .. first_iteration + n_iterations`` (1-based, as OpenSpiel).

    ``regrets``, ``strategy_sums`` and the scratch ``strategy`` are modified in place. Returns nothing.
    Per deal: a forward sweep over the decision nodes (reach probabilities, the traverser's strategy
    sums), then the terminal values, then a reverse sweep (values, the traverser's regrets). The
    deal loop is written inline: a call per deal would reference-count two dozen arrays.
    """
    n_nodes = len(kind)
    reach = np.empty((n_nodes, 2))
    value = np.empty(n_nodes)
    base, pot = _terminal_coefficients(kind, player, committed)
    terminals = np.flatnonzero(kind != DECISION)
    decisions, rows = _deal_rows(kind, player, street, infoset_group, n_actions, row_offset, bucket)
    for iteration in range(first_iteration + 1, first_iteration + n_iterations + 1):
        averaging_weight = float(iteration) ** gamma
        for traverser in range(2):
            _regret_matching(regrets, n_actions, row_offset, n_buckets, strategy)
            opponent = 1 - traverser
            for deal in range(len(probability)):
                reach[0, 0] = 1.0
                reach[0, 1] = 1.0
                for j in range(len(decisions)):
                    node = decisions[j]
                    start = child_start[node]
                    count = n_children[node]
                    actor = player[node]
                    own = reach[node, actor]
                    other = reach[node, 1 - actor]
                    row = rows[deal, j]
                    for k in range(count):
                        reach[start + k, actor] = own * strategy[row + k]
                        reach[start + k, 1 - actor] = other
                    if actor == traverser and own > 0.0:
                        scale = averaging_weight * probability[deal] * own
                        for k in range(count):
                            strategy_sums[row + k] += scale * strategy[row + k]
                share = showdown_share[deal] if traverser == 0 else 1.0 - showdown_share[deal]
                for node in terminals:
                    value[node] = base[node, traverser] + share * pot[node]
                for j in range(len(decisions) - 1, -1, -1):
                    node = decisions[j]
                    if reach[node, opponent] == 0.0:
                        value[node] = 0.0  # never used: every path to here has weight 0 for the traverser
                        continue
                    start = child_start[node]
                    count = n_children[node]
                    row = rows[deal, j]
                    node_value = 0.0
                    for k in range(count):
                        node_value += strategy[row + k] * value[start + k]
                    value[node] = node_value
                    if player[node] == traverser:
                        counterfactual_reach = probability[deal] * reach[node, opponent]
                        for k in range(count):
                            regrets[row + k] += counterfactual_reach * (value[start + k] - node_value)
            if regret_matching_plus or discount:
                positive_factor = float(iteration) ** alpha / (float(iteration) ** alpha + 1.0)
                negative_factor = float(iteration) ** beta / (float(iteration) ** beta + 1.0)
                for group in range(len(n_actions)):
                    if group_player[group] != traverser:
                        continue
                    start = row_offset[group]
                    stop = start + n_buckets[group] * n_actions[group]
                    for entry in range(start, stop):
                        if regret_matching_plus and regrets[entry] < 0.0:
                            regrets[entry] = 0.0
                        if discount:
                            regrets[entry] *= positive_factor if regrets[entry] >= 0.0 else negative_factor

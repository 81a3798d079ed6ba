"""Numba kernels for full-traversal CFR, CFR+, linear CFR and discounted CFR (users call solver.solve.cfr).

One iteration, alternating updates as OpenSpiel does: for each traverser in turn, turn the regrets
into the current strategy (regret matching), then for every deal sweep the betting tree forward
(the traverser's reach and the others', the traverser's strategy sums) and backward (values, the traverser's
regrets), then clip (CFR+) or discount (linear / discounted CFR) the traverser's regrets. A chance
node inside the betting passes reach only to the child the deal names. Every variant is the same
kernel with other parameters: strategy-sum weight ``t ** gamma``, regret matching+ on/off, regret
discount ``t**alpha / (t**alpha + 1)`` for positive and ``t**beta / (t**beta + 1)`` for negative
regrets when ``discount`` is on (OpenSpiel ``discounted_cfr.py``). With more than two players the
same loop is CFR for N players (no equilibrium guarantee, as in OpenSpiel).

Tables are flat arrays of ``FlatTree.table_size`` entries (see :mod:`abstraction.tree`), modified in
place. Tree arrays are passed as returned by ``solver.solve.cfr.tree_arrays``; deal arrays as by
``solver.solve.cfr.deal_arrays``. The terminal helpers here are shared by every kernel that values a
terminal: `context_value` is the one place a deal's outcome weights meet the payoff rows (`terminal_value`
calls it, the ES-MCCFR kernel too on its packed records, see its docstring).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from abstraction.tree import CHANCE, DECISION  # node kinds; numba freezes them as constants

TERMINAL_TABLE_ENTRIES = 1 << 22
"""Default most entries (float64: 32 MiB) of the per-deal terminal values `_cfr_iterations` computes once
and reuses every iteration (its ``max_terminal_entries``); a bigger game values its terminals in every
sweep instead."""


@njit(cache=True, nogil=True, inline="always")
def regret_matching_in_place(values, start, count, positive_sum):
    """Regret matching, the one copy every kernel uses: the regrets ``values[start:start+count]``
    (float64, or the regret table's dtype) become the information set's current strategy in place,
    each positive regret's share of ``positive_sum`` (the sum of the positive regrets, float64, which
    the caller adds up while it loads them) or uniform when no regret is positive."""
    if positive_sum > 0.0:
        for k in range(count):
            regret = float(values[start + k])
            values[start + k] = regret / positive_sum if regret > 0.0 else 0.0
    else:
        for k in range(count):
            values[start + k] = 1.0 / count


@njit(cache=True, nogil=True, inline="always")
def regret_matching_row(regrets, start, count, out, out_start):
    """Current strategy of the information set at ``regrets[start:start+count]`` into
    ``out[out_start:]`` (`regret_matching_in_place`). ``out`` holds every regret exactly: float64, or
    the dtype of ``regrets``."""
    positive_sum = 0.0
    for k in range(count):
        regret = float(regrets[start + k])
        out[out_start + k] = regret
        if regret > 0.0:
            positive_sum += regret
    regret_matching_in_place(out, out_start, count, positive_sum)


@njit(cache=True, nogil=True)
def _regret_matching(regrets, n_actions, row_offset, n_buckets, out):
    """Current strategy of every information set into ``out`` (same layout as ``regrets``).

    Each row becomes its positive entries' shares (uniform where none is positive), so on strategy
    sums, which are never negative, this is also the average strategy: each row scaled to sum to 1,
    uniform where it sums to 0 (``solver.solve.cfr.normalized_strategy``)."""
    for group in range(len(n_actions)):
        count = n_actions[group]
        for bucket in range(n_buckets[group]):
            start = row_offset[group] + bucket * count
            regret_matching_row(regrets, start, count, out, start)


@njit(cache=True, nogil=True, inline="always")
def terminal_value(tree, weight, deal, node, player):
    """Net chips ``player`` wins at terminal ``node`` on ``deal``: the deal's outcome weights of the
    node's context times its payoff rows (one row when the context is -1)."""
    row = tree.value_row[node]
    c = tree.context[node]
    if c < 0:
        return tree.terminal_values[row, player]
    return context_value(tree, weight, deal, row, c, player)


@njit(cache=True, nogil=True, inline="always")
def context_value(tree, weight, deal, row, c, player):
    """Net chips ``player`` wins at a terminal whose payoff depends on the cards: the deal's outcome
    weights of context ``c`` (>= 0) times the payoff rows from ``row``."""
    first = tree.context_bounds[c]
    total = 0.0
    for outcome in range(tree.context_bounds[c + 1] - first):
        w = weight[deal, first + outcome]
        if w != 0.0:
            total += w * tree.terminal_values[row + outcome, player]
    return total


@njit(cache=True, nogil=True)
def _deal_rows(tree, bucket, nodes):
    """``rows[d, j]``: table row of node ``nodes[j]`` in deal ``d`` (int64; -1 where it is no decision)."""
    rows = np.full((bucket.shape[0], len(nodes)), -1, dtype=np.int64)
    for deal in range(bucket.shape[0]):
        for j in range(len(nodes)):
            node = nodes[j]
            if tree.kind[node] == DECISION:
                group = tree.infoset_group[node]
                slot = tree.group_slot[group]
                rows[deal, j] = tree.row_offset[group] + bucket[deal, tree.player[node], slot] * tree.n_actions[group]
    return rows


@njit(cache=True, nogil=True)
def _terminal_table(tree, weight, terminals, n_players, max_entries):
    """``table[d, p, i]``: `terminal_value` of terminal ``terminals[i]`` for player ``p`` in deal ``d``
    (float64), or an empty table (0 deals) when it would have more than ``max_entries`` entries."""
    n_deals = weight.shape[0]
    if n_deals * n_players * len(terminals) > max_entries:
        return np.empty((0, n_players, len(terminals)))
    table = np.empty((n_deals, n_players, len(terminals)))
    for deal in range(n_deals):
        for p in range(n_players):
            for i in range(len(terminals)):
                table[deal, p, i] = terminal_value(tree, weight, deal, terminals[i], p)
    return table


@njit(cache=True, nogil=True, inline="always")
def _reach_of_children(reach, others_reach, node, start, count, actor, traverser, strategy, row):
    """Each player's reach at the children of decision ``node`` (``actor`` moves by the strategy at
    ``row``) and the product of every non-``traverser``'s reach, multiplied in player order."""
    for k in range(count):
        child = start + k
        others = 1.0
        for p in range(reach.shape[1]):
            reach[child, p] = reach[node, p] * strategy[row + k] if p == actor else reach[node, p]
            if p != traverser:
                others *= reach[child, p]
        others_reach[child] = others


@njit(cache=True, nogil=True)
def _cfr_iterations(
    tree,
    probability,
    bucket,
    weight,
    chance,
    regrets,
    strategy_sums,
    strategy,
    first_iteration,
    n_iterations,
    regret_matching_plus,
    gamma,
    discount,
    alpha,
    beta,
    max_terminal_entries=TERMINAL_TABLE_ENTRIES,
):
    """Run iterations ``first_iteration + 1 .. first_iteration + n_iterations`` (1-based, as OpenSpiel).

    ``regrets``, ``strategy_sums`` and the scratch ``strategy`` are modified in place. Returns nothing.
    Per deal: a forward sweep over the decision and chance nodes (the traverser's reach and the
    product of the others', the traverser's strategy sums), then the terminal values (computed once
    per deal before the first iteration, `_terminal_table`, unless that takes more than
    ``max_terminal_entries`` entries: then in every sweep), then a reverse sweep (values, the
    traverser's regrets). With two players the others' reach is the opponent's, a running product
    along the path; with more, each player's reach is kept and multiplied in player order at every
    node, so that the sums are the same to the last bit however many players. The deal loop is
    written inline: a call per deal would reference-count two dozen arrays.
    """
    n_nodes = len(tree.kind)
    n_players = bucket.shape[1]
    own_reach = np.empty(n_nodes)  # the traverser's reach
    others_reach = np.empty(n_nodes)  # the product of every other player's reach
    many = n_players > 2
    reach = np.empty((n_nodes if many else 0, n_players))  # each player's (more than two players only)
    value = np.empty(n_nodes)
    terminals = np.flatnonzero((tree.kind != DECISION) & (tree.kind != CHANCE))
    inner = np.flatnonzero((tree.kind == DECISION) | (tree.kind == CHANCE))
    rows = _deal_rows(tree, bucket, inner)
    terminal_table = _terminal_table(tree, weight, terminals, n_players, max_terminal_entries)
    tabled = terminal_table.shape[0] > 0
    for iteration in range(first_iteration + 1, first_iteration + n_iterations + 1):
        averaging_weight = float(iteration) ** gamma
        for traverser in range(n_players):
            _regret_matching(regrets, tree.n_actions, tree.row_offset, tree.n_buckets, strategy)
            for deal in range(len(probability)):
                own_reach[0] = 1.0
                others_reach[0] = 1.0
                if many:
                    reach[0, :] = 1.0
                for j in range(len(inner)):
                    node = inner[j]
                    start = tree.child_start[node]
                    count = tree.n_children[node]
                    own = own_reach[node]
                    others = others_reach[node]
                    if tree.kind[node] == CHANCE:
                        taken = chance[deal, tree.context[node]]
                        for k in range(count):
                            own_reach[start + k] = own if k == taken else 0.0
                            others_reach[start + k] = others if k == taken else 0.0
                            if many:
                                for p in range(n_players):
                                    reach[start + k, p] = reach[node, p] if k == taken else 0.0
                        continue
                    row = rows[deal, j]
                    actor = tree.player[node]
                    if many:
                        _reach_of_children(reach, others_reach, node, start, count, actor, traverser, strategy, row)
                    if actor != traverser:
                        for k in range(count):
                            own_reach[start + k] = own
                            if not many:
                                others_reach[start + k] = others * strategy[row + k]
                        continue
                    for k in range(count):
                        own_reach[start + k] = own * strategy[row + k]
                        if not many:
                            others_reach[start + k] = others
                    if own > 0.0:
                        scale = averaging_weight * probability[deal] * own
                        for k in range(count):
                            strategy_sums[row + k] += scale * strategy[row + k]
                for i in range(len(terminals)):
                    node = terminals[i]
                    if tabled:
                        value[node] = terminal_table[deal, traverser, i]
                    else:
                        value[node] = terminal_value(tree, weight, deal, node, traverser)
                for j in range(len(inner) - 1, -1, -1):
                    node = inner[j]
                    others = others_reach[node]
                    if others == 0.0:
                        value[node] = 0.0  # never used: every path to here has weight 0 for the traverser
                        continue
                    start = tree.child_start[node]
                    if tree.kind[node] == CHANCE:
                        value[node] = value[start + chance[deal, tree.context[node]]]
                        continue
                    count = tree.n_children[node]
                    row = rows[deal, j]
                    node_value = 0.0
                    for k in range(count):
                        node_value += strategy[row + k] * value[start + k]
                    value[node] = node_value
                    if tree.player[node] == traverser:
                        counterfactual_reach = probability[deal] * others
                        for k in range(count):
                            regrets[row + k] += counterfactual_reach * (value[start + k] - node_value)
            if regret_matching_plus or discount:
                positive_factor = float(iteration) ** alpha / (float(iteration) ** alpha + 1.0)
                negative_factor = float(iteration) ** beta / (float(iteration) ** beta + 1.0)
                for group in range(len(tree.n_actions)):
                    if tree.group_player[group] != traverser:
                        continue
                    start = tree.row_offset[group]
                    stop = start + tree.n_buckets[group] * tree.n_actions[group]
                    for entry in range(start, stop):
                        if regret_matching_plus and regrets[entry] < 0.0:
                            regrets[entry] = 0.0
                        if discount:
                            regrets[entry] *= positive_factor if regrets[entry] >= 0.0 else negative_factor

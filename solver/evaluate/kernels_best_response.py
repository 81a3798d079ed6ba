"""Numba kernels for the exact best response and the values of a strategy profile (users call solver.evaluate.exploitability).

Best response of player ``i`` against the others' fixed strategies, bottom-up over the flat tree for
all deals at once: a forward sweep stores, per node and deal, the probability that chance (the
deal's probability, then the child each chance node of the deal takes) and every other player
reach it; a reverse sweep (children before parents, the tree is breadth-first) computes player
``i``'s value per node and deal: terminals weigh their payoff rows by the deal's outcome weights,
a chance node takes the value of the child the deal names. At ``i``'s groups the counterfactual
value of each action is summed over every node of the group and every deal in the same bucket (the
information set), the best action is chosen per bucket and each deal takes the value of that action.

Tree arrays are passed as ``solver.evaluate.exploitability`` lays them out; deal arrays as by
``solver.solve.cfr.deal_arrays`` (bucket, weight, chance).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from abstraction.tree import CHANCE, DECISION, FOLD, SHOWDOWN
from solver.solve.kernels_cfr import terminal_value


@njit(cache=True, nogil=True)
def _best_response_value(
    tree,
    probability,
    bucket,
    weight,
    chance,
    group_first_node,
    group_nodes_start,
    group_nodes,
    strategy,
    responder,
    best_action,
):
    """Expected chips of ``responder`` best-responding to ``strategy``; the choice per row goes to ``best_action``.

    ``best_action[row_offset[g] + b * n_actions[g]]`` receives the chosen action index of the
    responder's information set ``(g, b)`` (other entries untouched; the first best action on ties).
    ``group_nodes[group_nodes_start[g]:group_nodes_start[g + 1]]`` lists the nodes of group ``g``;
    ``group_first_node[g]`` is the smallest. Memory: two float64 ``[n_nodes, n_deals]`` arrays.
    """
    n_nodes = len(tree.kind)
    n_deals = len(probability)
    reach = np.zeros((n_nodes, n_deals))
    value = np.zeros((n_nodes, n_deals))
    action_value = np.zeros(len(strategy))
    for deal in range(n_deals):
        reach[0, deal] = probability[deal]
    for node in range(n_nodes):
        start = tree.child_start[node]
        if tree.kind[node] == CHANCE:
            for deal in range(n_deals):
                reach[start + chance[deal, tree.context[node]], deal] = reach[node, deal]  # the other children stay 0
            continue
        if tree.kind[node] != DECISION:
            continue
        actor = tree.player[node]
        group = tree.infoset_group[node]
        for deal in range(n_deals):
            row = tree.row_offset[group] + bucket[deal, actor, tree.group_slot[group]] * tree.n_actions[group]
            for k in range(tree.n_children[node]):
                factor = 1.0 if actor == responder else strategy[row + k]
                reach[start + k, deal] = reach[node, deal] * factor
    for node in range(n_nodes - 1, -1, -1):
        start = tree.child_start[node]
        if tree.kind[node] == FOLD or tree.kind[node] == SHOWDOWN:
            for deal in range(n_deals):
                value[node, deal] = terminal_value(tree, weight, deal, node, responder)
            continue
        if tree.kind[node] == CHANCE:
            for deal in range(n_deals):
                value[node, deal] = value[start + chance[deal, tree.context[node]], deal]
            continue
        group = tree.infoset_group[node]
        count = tree.n_actions[group]
        if tree.player[node] != responder:
            for deal in range(n_deals):
                row = tree.row_offset[group] + bucket[deal, tree.player[node], tree.group_slot[group]] * count
                total = 0.0
                for k in range(count):
                    total += strategy[row + k] * value[start + k, deal]
                value[node, deal] = total
            continue
        if group_first_node[group] != node:
            continue  # resolved with the whole group at its first node
        members = group_nodes[group_nodes_start[group] : group_nodes_start[group + 1]]
        for member in members:
            member_start = tree.child_start[member]
            for deal in range(n_deals):
                row = tree.row_offset[group] + bucket[deal, responder, tree.group_slot[group]] * count
                for k in range(count):
                    action_value[row + k] += reach[member, deal] * value[member_start + k, deal]
        for member in members:
            member_start = tree.child_start[member]
            for deal in range(n_deals):
                row = tree.row_offset[group] + bucket[deal, responder, tree.group_slot[group]] * count
                best = 0
                for k in range(1, count):
                    if action_value[row + k] > action_value[row + best]:
                        best = k
                best_action[row] = best
                value[member, deal] = value[member_start + best, deal]
    total = 0.0
    for deal in range(n_deals):
        total += probability[deal] * value[0, deal]
    return total


@njit(cache=True, nogil=True)
def _profile_values(
    tree,
    probability,
    bucket,
    weight,
    chance,
    strategy,
):
    """Expected chips of every player (float64 ``[n_players]``) when all follow ``strategy``."""
    n_nodes = len(tree.kind)
    n_players = bucket.shape[1]
    reach = np.zeros(n_nodes)
    totals = np.zeros(n_players)
    for deal in range(len(probability)):
        reach[0] = probability[deal]
        for node in range(n_nodes):
            start = tree.child_start[node]
            if tree.kind[node] == CHANCE:
                taken = chance[deal, tree.context[node]]
                for k in range(tree.n_children[node]):
                    reach[start + k] = reach[node] if k == taken else 0.0
                continue
            if tree.kind[node] != DECISION:
                if reach[node] > 0.0:
                    for p in range(n_players):
                        totals[p] += reach[node] * terminal_value(tree, weight, deal, node, p)
                continue
            group = tree.infoset_group[node]
            row = (
                tree.row_offset[group] + bucket[deal, tree.player[node], tree.group_slot[group]] * tree.n_actions[group]
            )
            for k in range(tree.n_children[node]):
                reach[start + k] = reach[node] * strategy[row + k]
    return totals

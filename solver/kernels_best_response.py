"""Numba kernels for the exact best response and the value of a strategy profile (users call solver.exploitability).

Best response of player ``i`` against a fixed strategy, bottom-up over the flat tree for all deals
at once: a forward sweep stores, per node and deal, the probability that chance and the opponent
reach it; a reverse sweep (children before parents, the tree is breadth-first) computes player
``i``'s value per node and deal. At ``i``'s groups the counterfactual value of each action is summed
over every node of the group and every deal in the same bucket (the information set), the best
action is chosen per bucket and each deal takes the value of that action.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.kernels_cfr import DECISION, _terminal_value


@njit(cache=True, nogil=True)
def _best_response_value(kind, player, street, child_start, n_children, committed, infoset_group,
                         n_actions, row_offset, probability, bucket, showdown_share,
                         group_first_node, group_nodes_start, group_nodes,
                         strategy, responder, best_action):
    """Expected chips of ``responder`` best-responding to ``strategy``; the choice per row goes to ``best_action``.

    ``best_action[row_offset[g] + b * n_actions[g]]`` receives the chosen action index of the
    responder's information set ``(g, b)`` (other entries untouched). ``group_nodes[group_nodes_start[g]:
    group_nodes_start[g + 1]]`` lists the nodes of group ``g``; ``group_first_node[g]`` is the smallest.
    """
    n_nodes = len(kind)
    n_deals = len(probability)
    reach = np.zeros((n_nodes, n_deals))
    value = np.zeros((n_nodes, n_deals))
    action_value = np.zeros(len(strategy))
    for deal in range(n_deals):
        reach[0, deal] = probability[deal]
    for node in range(n_nodes):
        if kind[node] != DECISION:
            continue
        actor = player[node]
        group = infoset_group[node]
        start = child_start[node]
        for deal in range(n_deals):
            row = row_offset[group] + bucket[deal, actor, street[node]] * n_actions[group]
            for k in range(n_children[node]):
                weight = 1.0 if actor == responder else strategy[row + k]
                reach[start + k, deal] = reach[node, deal] * weight
    for node in range(n_nodes - 1, -1, -1):
        if kind[node] != DECISION:
            for deal in range(n_deals):
                value[node, deal] = _terminal_value(kind, player, committed, node, showdown_share[deal], responder)
            continue
        group = infoset_group[node]
        count = n_actions[group]
        if player[node] != responder:
            start = child_start[node]
            for deal in range(n_deals):
                row = row_offset[group] + bucket[deal, player[node], street[node]] * count
                total = 0.0
                for k in range(count):
                    total += strategy[row + k] * value[start + k, deal]
                value[node, deal] = total
            continue
        if group_first_node[group] != node:
            continue  # resolved with the whole group at its first node
        members = group_nodes[group_nodes_start[group]:group_nodes_start[group + 1]]
        for member in members:
            start = child_start[member]
            for deal in range(n_deals):
                row = row_offset[group] + bucket[deal, responder, street[member]] * count
                for k in range(count):
                    action_value[row + k] += reach[member, deal] * value[start + k, deal]
        for member in members:
            start = child_start[member]
            for deal in range(n_deals):
                row = row_offset[group] + bucket[deal, responder, street[member]] * count
                best = 0
                for k in range(1, count):
                    if action_value[row + k] > action_value[row + best]:
                        best = k
                best_action[row] = best
                value[member, deal] = value[start + best, deal]
    total = 0.0
    for deal in range(n_deals):
        total += probability[deal] * value[0, deal]
    return total


@njit(cache=True, nogil=True)
def _profile_value(kind, player, street, child_start, n_children, committed, infoset_group,
                   n_actions, row_offset, probability, bucket, showdown_share, strategy):
    """Expected chips of player 0 when both players follow ``strategy``."""
    n_nodes = len(kind)
    reach = np.zeros(n_nodes)
    total = 0.0
    for deal in range(len(probability)):
        reach[0] = probability[deal]
        for node in range(n_nodes):
            if kind[node] != DECISION:
                if reach[node] > 0.0:
                    total += reach[node] * _terminal_value(kind, player, committed, node, showdown_share[deal], 0)
                continue
            group = infoset_group[node]
            row = row_offset[group] + bucket[deal, player[node], street[node]] * n_actions[group]
            for k in range(n_children[node]):
                reach[child_start[node] + k] = reach[node] * strategy[row + k]
    return total

"""Numba kernels of local best response (users call `solver.evaluate.lbr`; the method is described there).

Every kernel plays hands ``first .. first + count - 1`` for one LBR seat and writes the seat's NET
chips per hand into ``payoff``. Hand ``h`` depends only on ``(seed, h)`` (the deal, the same for
both seats) and ``(seed, seat, h)`` (the opponent's sampled actions and the candidate deals), so
any split of the hands into batches or threads gives identical payoffs.

The tree is passed as one `solver.evaluate.lbr.LbrTree` (``tree``): the game's
`abstraction.tree.KernelTree` (``tree.flat``) and the tables of the walk (fields described there).

Candidate deals are rows of ``bucket`` [C, 2, S], ``weight`` [C, W], ``chance`` [C, K] with a
prior weight ``prior[C]`` (0: not a candidate): the table rows of an exact game or the redrawn
deals of a fresh-chance game (`abstraction.chance.kernels_resample`). LBR against the equity bot's rule
instead of a table: `solver.evaluate.kernels_lbr_rule` (it reuses `_passive_value` and `_seed_hand`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from abstraction.chance.kernels_chance import DEAL_THIRD_CARD, N_STREETS, deal_workspace
from abstraction.chance.kernels_resample import card_arrays, real_deal, redraw_candidate
from abstraction.tree import CHANCE, DECISION
from game.cards.kernels_rng import next_uniform, splitmix64
from solver.solve.kernels_cfr import terminal_value
from solver.solve.kernels_mccfr import sample_index

DEAL_STREAM = 0
"""Stream of the deal of a hand (shared by both seats)."""
TIE_TOLERANCE = 1e-9
"""Chips: an action must beat the preferred (more passive) one by more than this to be chosen."""


@njit(cache=True, nogil=True, inline="always")
def _seed_hand(seed, stream, hand, state):
    """``state[0]``: the generator of ``hand`` in ``stream`` (0 deals, 1 + seat the LBR seat's draws)."""
    state[0] = splitmix64(splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(stream)) ^ np.uint64(hand))


@njit(cache=True, nogil=True)
def _passive_value(tree, node, weight, chance, candidate, seat):
    """Seat's chips from ``node`` on when every player takes the passive action and chance follows the candidate."""
    flat = tree.flat
    kind, child_start, context = flat.kind, flat.child_start, flat.context
    passive_child = tree.passive_child
    current = node
    while True:
        if kind[current] == CHANCE:
            current = child_start[current] + chance[candidate, context[current]]
        elif kind[current] == DECISION:
            current = passive_child[current]
        else:
            return terminal_value(flat, weight, candidate, current, seat)


@njit(cache=True, nogil=True, inline="always")
def _next_stop(flat, node, chance, deal):
    """The first decision or terminal from ``node`` on, chance following row ``deal`` of ``chance``."""
    while flat.kind[node] == CHANCE:
        node = flat.child_start[node] + chance[deal, flat.context[node]]
    return node


@njit(cache=True, nogil=True)
def _response_value(tree, node, bucket, weight, chance, candidate, seat, strategy):
    """Seat's chips from ``node`` (just after its action): if the next decision is the opponent's, it
    plays its strategy at the candidate's bucket; everything after that (or everything, if the next
    decision is the seat's own) is passive."""
    flat = tree.flat
    kind, player, child_start, n_children = flat.kind, flat.player, flat.child_start, flat.n_children
    infoset_group, n_actions, row_offset, group_slot = (
        flat.infoset_group,
        flat.n_actions,
        flat.row_offset,
        flat.group_slot,
    )
    current = _next_stop(flat, node, chance, candidate)
    if kind[current] != DECISION or player[current] == seat:
        return _passive_value(tree, current, weight, chance, candidate, seat)
    actor = player[current]
    group = infoset_group[current]
    row = row_offset[group] + bucket[candidate, actor, group_slot[group]] * n_actions[group]
    total = 0.0
    for k in range(n_children[current]):
        probability = strategy[row + k]
        if probability > 0.0:
            total += probability * _passive_value(tree, child_start[current] + k, weight, chance, candidate, seat)
    return total


@njit(cache=True, nogil=True)
def _reach(tree, node, bucket, chance, candidate, seat, strategy):
    """Probability that the opponent's strategy (at the candidate's buckets) and the candidate's chance
    lead to ``node`` (the seat's own actions count 1)."""
    flat = tree.flat
    kind, player, child_start, context = flat.kind, flat.player, flat.child_start, flat.context
    infoset_group, n_actions, row_offset, group_slot, parent = (
        flat.infoset_group,
        flat.n_actions,
        flat.row_offset,
        flat.group_slot,
        tree.parent,
    )
    reach = 1.0
    child = node
    current = parent[node]
    while current >= 0:
        if kind[current] == CHANCE:
            if child_start[current] + chance[candidate, context[current]] != child:
                return 0.0
        elif player[current] != seat:
            group = infoset_group[current]
            row = row_offset[group] + bucket[candidate, player[current], group_slot[group]] * n_actions[group]
            reach *= strategy[row + child - child_start[current]]
            if reach == 0.0:
                return 0.0
        child = current
        current = parent[current]
    return reach


@njit(cache=True, nogil=True, inline="always")
def _best_action(tree, node, count, values, total):
    """The action at ``node`` of the highest ``values[k] / total`` (``values`` normalised in place),
    ties within `TIE_TOLERANCE` going to the more passive (``preference`` order); the most passive
    action if ``total`` is 0."""
    order = tree.preference[tree.flat.child_start[node] : tree.flat.child_start[node] + count]
    if total <= 0.0:
        return order[0]
    for k in range(count):
        values[k] /= total
    best = order[0]
    for rank in range(1, count):
        if values[order[rank]] > values[best] + TIE_TOLERANCE:
            best = order[rank]
    return best


@njit(cache=True, nogil=True, inline="always")
def _decision_group(tree, node, values):
    """``(first, last, count)``: the nodes of decision ``node``'s information-set group are
    ``tree.group_nodes[first:last]`` and it has ``count`` actions; ``values[:count]`` is set to 0."""
    group = tree.flat.infoset_group[node]
    count = tree.flat.n_actions[group]
    for k in range(count):
        values[k] = 0.0
    return tree.group_start[group], tree.group_start[group + 1], count


@njit(cache=True, nogil=True)
def _choose_action(tree, node, seat, bucket, weight, chance, prior, strategy, values):
    """LBR's action at its decision ``node`` and whether no candidate could reach the group (then the
    prior alone weighs the candidates at ``node``).

    Belief: every node ``m`` of the node's group (nodes the seat cannot tell apart) and every
    candidate ``c``, weighted ``prior[c] * reach(c, m)``; ``values[k]`` receives the expected chips
    of action ``k`` (normalised). Ties go to the more passive action (``preference`` order).
    """
    group_nodes = tree.group_nodes
    first, last, count = _decision_group(tree, node, values)
    total = 0.0
    for index in range(first, last):
        member = group_nodes[index]
        for candidate in range(len(prior)):
            if prior[candidate] <= 0.0:
                continue
            w = prior[candidate] * _reach(tree, member, bucket, chance, candidate, seat, strategy)
            if w <= 0.0:
                continue
            total += w
            _add_response_values(tree, member, count, w, bucket, weight, chance, candidate, seat, strategy, values)
    unreached = total <= 0.0
    if unreached:
        for candidate in range(len(prior)):
            w = prior[candidate]
            if w <= 0.0:
                continue
            total += w
            _add_response_values(tree, node, count, w, bucket, weight, chance, candidate, seat, strategy, values)
    return _best_action(tree, node, count, values, total), unreached


@njit(cache=True, nogil=True, inline="always")
def _add_response_values(tree, node, count, w, bucket, weight, chance, candidate, seat, strategy, values):
    """Add ``w`` times the response value of each of ``node``'s ``count`` actions to ``values``."""
    first_child = tree.flat.child_start[node]
    for k in range(count):
        values[k] += w * _response_value(tree, first_child + k, bucket, weight, chance, candidate, seat, strategy)


@njit(cache=True, nogil=True)
def _opponent_action(tree, node, bucket, deal, strategy, state):
    """The opponent's action at ``node``, sampled from its strategy at the real deal's bucket."""
    flat = tree.flat
    player, infoset_group, n_actions, row_offset, group_slot = (
        flat.player,
        flat.infoset_group,
        flat.n_actions,
        flat.row_offset,
        flat.group_slot,
    )
    group = infoset_group[node]
    row = row_offset[group] + bucket[deal, player[node], group_slot[group]] * n_actions[group]
    return sample_index(strategy, row, n_actions[group], next_uniform(state))


@njit(cache=True, nogil=True, inline="always")
def _view_changed(flat, node, deal_flags, view):
    """Whether the seat deciding at ``node`` sees more than when its candidates were last drawn:
    a new street, or (Auction) its third card. ``view`` int64 [2] = (street, holds a third card),
    updated when it changed; (-1, 0) before the first draw of a hand."""
    third = (deal_flags & DEAL_THIRD_CARD) != 0 and flat.group_slot[flat.infoset_group[node]] >= N_STREETS
    if flat.street[node] == view[0] and third == (view[1] == 1):
        return False
    view[0] = flat.street[node]
    view[1] = 1 if third else 0
    return True


@njit(cache=True, nogil=True)
def _lbr_table_hands(
    tree,
    probability,
    cumulative,
    bucket,
    weight,
    chance,
    seen_slots,
    strategy,
    seat,
    seed,
    first,
    count,
    payoff,
    unreached,
):
    """LBR hands on an exact game's deal table (the whole distribution).

    The real deal of hand ``h`` is a row drawn by its probability; at each LBR decision the
    candidates are the rows whose seat buckets equal the real deal's on every slot the seat has seen
    there (``seen_slots[node, slot]``, bool [n_nodes, n_slots]: `solver.evaluate.lbr.seen_slots`), with
    prior = their probability.
    ``payoff[h]`` (float64) receives the seat's chips; ``unreached[0]`` (int64) counts decisions no
    candidate could reach. Modified in place: ``payoff``, ``unreached``.
    """
    flat = tree.flat
    kind, child_start, player = flat.kind, flat.child_start, flat.player
    n_deals = len(probability)
    n_slots = bucket.shape[2]
    prior = np.zeros(n_deals)
    values = np.zeros(max(1, int(flat.n_actions.max())))
    state = np.zeros(1, dtype=np.uint64)
    for h in range(count):
        hand = first + h
        _seed_hand(seed, DEAL_STREAM, hand, state)
        real = min(np.searchsorted(cumulative, next_uniform(state), side="right"), n_deals - 1)
        _seed_hand(seed, 1 + seat, hand, state)
        node = 0
        while True:
            node = _next_stop(flat, node, chance, real)
            if kind[node] != DECISION:
                payoff[h] = terminal_value(flat, weight, real, node, seat)
                break
            if player[node] != seat:
                node = child_start[node] + _opponent_action(tree, node, bucket, real, strategy, state)
                continue
            for deal in range(n_deals):
                consistent = True
                for slot in range(n_slots):
                    if seen_slots[node, slot] and bucket[deal, seat, slot] != bucket[real, seat, slot]:
                        consistent = False
                        break
                prior[deal] = probability[deal] if consistent else 0.0
            action, missed = _choose_action(tree, node, seat, bucket, weight, chance, prior, strategy, values)
            if missed:
                unreached[0] += 1
            node = child_start[node] + action


@njit(cache=True, nogil=True)
def _lbr_fresh_hands(
    tree, arguments, n_slots, n_columns, n_chance, strategy, seat, seed, first, count, n_candidates, payoff, unreached
):
    """LBR hands on a heads-up variant with fresh chance (``arguments`` =
    `abstraction.chance.fresh_chance.FreshChance.kernel_arguments`).

    The real deal of hand ``h`` is deal ``h`` of the sampler seeded ``seed`` (`abstraction.chance.kernels_resample.real_deal`, the
    sampler's own draws). At an LBR decision on a new street (or, in the Auction, once the seat
    holds its third card) ``n_candidates`` deals are redrawn around the seat's view
    (`abstraction.chance.kernels_resample.redraw_candidate`), each with prior 1; decisions on the same
    street reuse them (same view).
    Their opponent buckets are computed up to the next street only: the reach reads past streets,
    the response the next decision, at most one street on.
    Modified in place: ``payoff``, ``unreached`` as in `_lbr_table_hands`.
    """
    flat = tree.flat
    kind, player, child_start = flat.kind, flat.player, flat.child_start
    deal_flags = arguments[0]
    work = deal_workspace()
    pool = np.empty(52, dtype=np.int8)
    real = card_arrays()
    cards = card_arrays()
    view = np.array([-1, 0], dtype=np.int64)
    real_bucket = np.zeros((1, 2, n_slots), dtype=np.int32)
    real_weight = np.zeros((1, n_columns))
    real_chance = np.zeros((1, n_chance), dtype=np.int8)
    bucket = np.zeros((n_candidates, 2, n_slots), dtype=np.int32)
    weight = np.zeros((n_candidates, n_columns))
    chance = np.zeros((n_candidates, n_chance), dtype=np.int8)
    prior = np.ones(n_candidates)
    values = np.zeros(max(1, int(flat.n_actions.max())))
    state = np.zeros(1, dtype=np.uint64)
    for h in range(count):
        hand = first + h
        real_deal(arguments, seed, hand, work, real, real_bucket[0], real_weight[0], real_chance[0], seat, 1 << 30)
        _seed_hand(seed, 1 + seat, hand, state)
        view[0], view[1] = -1, 0
        node = 0
        while True:
            node = _next_stop(flat, node, real_chance, 0)
            if kind[node] != DECISION:
                payoff[h] = terminal_value(flat, real_weight, 0, node, seat)
                break
            if player[node] != seat:
                node = child_start[node] + _opponent_action(tree, node, real_bucket, 0, strategy, state)
                continue
            if _view_changed(flat, node, deal_flags, view):
                for c in range(n_candidates):
                    rows = (bucket[c], weight[c], chance[c])
                    redraw_candidate(
                        arguments, real, seat, view[0], view[1] == 1, state, pool, work, cards, rows, seat, view[0] + 1
                    )
            action, missed = _choose_action(tree, node, seat, bucket, weight, chance, prior, strategy, values)
            if missed:
                unreached[0] += 1
            node = child_start[node] + action

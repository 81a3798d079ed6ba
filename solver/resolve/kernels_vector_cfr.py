"""Numba kernels for vector-form CFR over a subgame tree (users call solver.resolve.resolver).

One iteration, alternating updates: for each traverser in turn, a forward sweep over the decision
nodes turns the opponent's regrets into its current strategy (regret matching; the traverser's
strategy is the one matched in the previous pass, its regrets unchanged since) and pushes the acting
player's reach vector (one weight per hand) to the children, adding the traverser's reach-weighted
strategy to its strategy sums; all the pass's fold and showdown terminals are valued at once against
the opponent's reach with card removal (:func:`_batched_terminal_values`: its distinct reach rows
transposed hand-major by 16 x 16 tiles in registers, one column per row, one sweep of
:func:`kernels_showdown._batched_sweep` a vector of 16 columns at a time, each terminal's values
combined in registers from its column's sums and compatible reach and transposed straight into its
row); the depth-limited turn's RUNOUT nodes likewise, in a second batch whose sweep runs once per river
card (:func:`kernels_leaf._batched_runout_sweep`);
a backward sweep forms the traverser's counterfactual values per hand and adds its
regrets, clipped (CFR+) or discounted (DCFR) in the same pass over each row. A terminal of another
kind is valued alone by :func:`_terminal_value`, which also values the best-response pass's
terminals (float64): the depth-limited LEAF kind (and RUNOUT outside the CFR pass) is valued there by :mod:`kernels_leaf`
(``leaves``: its ``LeafArrays``, empty for a river subgame; the leaves' choice regrets are per hand
class, (n_leaves, k, C)). Variants are parameters, as
in :mod:`solver.solve.kernels_cfr`: strategy-sum weight ``t ** gamma``, regret matching+ on/off,
regret discount ``t**alpha / (t**alpha + 1)`` (positive) and ``t**beta / (t**beta + 1)``
(negative) when ``discount`` is on. The safe re-solving gadget is a two-action decision of the
opponent above the root (see :func:`_cfr_iterations`).

The CFR tables are (n_nodes, row) float32, the row of node ``c`` holding the action into ``c``;
hands are contiguous, ``row`` is the hands padded to whole vectors of 16 (zero reach and values: the
decision sweeps run over whole rows; :class:`~solver.resolve.resolver.SubgameSolver` aligns them). Nodes are in breadth-first order, so a parent comes before its children.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solver.resolve.kernels_bounty import _bounty_value
from solver.resolve.kernels_lanes import (
    LANES,
    add_difference,
    aligned_zeros,
    padded,
    transpose_tile,
    transpose_values_tile,
)
from solver.resolve.kernels_leaf import BEST, CURRENT, UPDATE, _batched_runout_sweep, _leaf_value, _runout_value
from solver.resolve.kernels_showdown import N_CARDS, _batched_sweep, _fold_value, _showdown_value
from solver.resolve.tree import DECISION, FOLD, LEAF, RUNOUT, SHOWDOWN  # node kinds; numba freezes them as constants

ZERO = np.float32(0.0)
"""The tables' zero (float32: a float64 literal would widen every comparison in the loops)."""


@njit(cache=True, nogil=True)
def _any_positive(values):
    h = 0
    while h < len(values) and values[h] <= 0.0:
        h += 1
    return h < len(values)


@njit(cache=True, nogil=True)
def _terminal_value(
    kind, player, pot_chips, layout, node, traverser, opponent_reach, scratch, out, leaves, leaf_mode, bounty
):
    """Counterfactual value per hand of terminal ``node`` for ``traverser`` into ``out`` (zero,
    without a showdown pass, where the opponent never gets there): the best-response pass's terminals,
    and in the CFR pass any terminal kind other than fold and showdown (those go in one batch).

    ``layout``, ``scratch``: a ``HandLayout`` and a ``ShowdownScratch`` (see :mod:`kernels_showdown`).
    ``leaves``, ``leaf_mode``: the ``LeafArrays`` and mode of :mod:`kernels_leaf` (LEAF, RUNOUT).
    ``bounty``: ``(coefficients, by_card, masses)`` of :func:`kernels_bounty._bounty_value`, the
    coefficients (n_nodes, 2, 12) (no rows: not Bounty; else ``opponent_reach`` and ``out`` are over
    the ``2 n`` types and folds and showdowns are valued by the bounty payoff).
    """
    if not _any_positive(opponent_reach):  # the values are linear in the reach: all zero, exactly
        out[:] = 0.0
        return
    coefficients, by_card, masses = bounty
    if len(coefficients) > 0 and (kind[node] == FOLD or kind[node] == SHOWDOWN):
        _bounty_value(layout, coefficients[node, traverser], opponent_reach, by_card, masses, out)
        return
    own = pot_chips[node, traverser]
    other = pot_chips[node, 1 - traverser]
    if kind[node] == LEAF:
        _leaf_value(leaves, leaves.node_leaf[node], traverser, opponent_reach, leaf_mode, out)
        return
    if kind[node] == RUNOUT:
        _runout_value(leaves, layout, opponent_reach, own, other, scratch, out)
        return
    if kind[node] != FOLD:
        _showdown_value(layout, opponent_reach, own, other, scratch, out)
        return
    _fold_value(layout, opponent_reach, -own if player[node] == traverser else other, scratch, out)


@njit(cache=True, nogil=True)
def _terminal_batch(tree, traverser):
    """The terminals of ``traverser``'s pass, valued in one batch: ``(nodes, sources, columns,
    win_weight, compatible_weight, column_sources, n_full, n_shared)``. Terminal ``nodes[i]`` faces
    the opponent's reach row ``sources[i]``, swept in column ``columns[i]``, and is worth
    ``win_weight[i] * (w + e) + compatible_weight[i] * m`` per hand (chips; ``w``, ``e``, ``m`` as in
    :func:`kernels_showdown._showdown_value`; a fold has no ``w + e`` term). A column per showdown and
    per distinct row of the other folds (``column_sources``); a fold facing a row already in a column
    (the traverser's fold beside its call) shares it. Each column's first terminal (a showdown if it
    has one) is its "leader"; the others are folds. Columns in the order: showdowns' with a shared
    fold, other showdowns', folds' with a shared fold, the rest; ``n_full``, the showdowns' columns
    rounded up to :data:`LANES`, is how many columns need the strength sweep (a fold needs only
    ``m``); ``n_shared``, the columns up to the last one with a shared fold rounded up to
    :data:`LANES`, how many the shared folds' rounds of :func:`_batched_terminal_values` cover."""
    kind, player, _, _, pot_chips, reach_source = tree
    opponent = 1 - traverser
    nodes = np.concatenate((np.flatnonzero(kind == SHOWDOWN), np.flatnonzero(kind == FOLD)))
    sources = reach_source[nodes, opponent].copy()
    columns = np.zeros(len(nodes), np.int64)
    column_sources = np.zeros(len(nodes), np.int64)
    column_terminals = np.zeros(len(nodes), np.int64)
    win_weight = np.zeros(len(nodes), np.float32)
    compatible_weight = np.zeros(len(nodes), np.float32)
    n_columns = 0
    for i, node in enumerate(nodes):
        column = 0
        while kind[node] == FOLD and column < n_columns and column_sources[column] != sources[i]:
            column += 1
        if kind[node] == SHOWDOWN or column == n_columns:
            column = n_columns
            column_sources[column] = sources[i]
            n_columns += 1
        columns[i] = column
        column_terminals[column] += 1
        own, other = pot_chips[node, traverser], pot_chips[node, opponent]
        if kind[node] == FOLD:
            compatible_weight[i] = -own if player[node] == traverser else other
        else:
            win_weight[i] = 0.5 * (own + other)
            compatible_weight[i] = -own
    n_showdowns = np.sum(kind[nodes] == SHOWDOWN)  # the first n_showdowns columns, one each
    shared = column_terminals[:n_columns] > 1
    unshared = column_terminals[:n_columns] == 1
    order = np.argsort(2 * (np.arange(n_columns) >= n_showdowns) + unshared, kind="mergesort")
    rank = np.argsort(order)
    n_shared = 0 if not np.any(shared) else rank[shared].max() + 1
    return (
        nodes,
        sources,
        rank[columns],
        win_weight,
        compatible_weight,
        column_sources[order],
        padded(n_showdowns),
        padded(n_shared),
    )


@njit(cache=True, nogil=True)
def _runout_batch(tree, traverser, rivers_per_pair):
    """The RUNOUT nodes of ``traverser``'s pass as a batch of :func:`_terminal_batch`'s form, valued
    by :func:`_batched_terminal_values` with the rivers' sweeps: one column per node (its opponent's
    reach row), worth ``(own + other) / 2 / rivers_per_pair`` times the column's sums over the
    rivers plus ``-own`` times its compatible reach (:func:`kernels_leaf._runout_value`'s formula)."""
    kind, _, _, _, pot_chips, reach_source = tree
    opponent = 1 - traverser
    nodes = np.flatnonzero(kind == RUNOUT)
    sources = np.zeros(len(nodes), np.int64)
    win_weight = np.zeros(len(nodes), np.float32)
    compatible_weight = np.zeros(len(nodes), np.float32)
    for i, node in enumerate(nodes):
        own, other = pot_chips[node, traverser], pot_chips[node, opponent]
        sources[i] = reach_source[node, opponent]
        win_weight[i] = 0.5 * (own + other) / rivers_per_pair
        compatible_weight[i] = -own
    columns = np.arange(len(nodes))
    return nodes, sources, columns, win_weight, compatible_weight, sources.copy(), padded(len(nodes)), 0


@njit(cache=True, nogil=True)
def _batch_scratch(reach, values, batch, opponent):
    """Scratch of :func:`_batched_terminal_values` for ``batch`` (:func:`_terminal_batch`), the
    opponent's reach rows in ``reach`` (n_nodes, 2, row), the values in ``values`` (n_nodes, row)
    (``row``: the hands padded to whole vectors of :data:`LANES`): the columns padded to a multiple of
    :data:`LANES` (``width``; a padding column repeats the last row: swept, never read), C-contiguous,
    ``reach``'s dtype, 64-byte aligned: the hand-major reach, then compatible reach, and the sweep
    sums (row, width), the per-card and overall totals (52, width), (width,); the flat starts of the
    columns' reach rows in ``reach`` and of the hand-major rows; then per round (the leaders, then
    each column's first other terminal, its second, ...): the weights of the sums and of the
    compatible reach per column (2, rounds, width) and the flat starts of the terminals' rows in
    ``values`` (rounds, width; where a column has no terminal in the round: weights zero, row 0, the
    root's, a decision whose row the backward sweep rewrites before it reads it)."""
    nodes, _, columns, win_weight, compatible_weight, column_sources, _, _ = batch
    row, dtype = reach.shape[2], reach.dtype
    width = padded(len(column_sources))
    sources = column_sources[np.minimum(np.arange(width), len(column_sources) - 1)]
    rounds = np.bincount(columns).max() if len(columns) > 0 else 0  # no fold or showdown: no round
    weights = np.zeros((2, rounds, width), dtype)
    rows = np.zeros((rounds, width), np.int64)
    terminals = np.zeros(width, np.int64)  # per column, so far
    for i in range(len(nodes)):  # a column's leader first (a showdown comes before the folds)
        j = columns[i]
        weights[0, terminals[j], j] = win_weight[i]
        weights[1, terminals[j], j] = compatible_weight[i]
        rows[terminals[j], j] = nodes[i] * values.shape[1]
        terminals[j] += 1
    return (
        aligned_zeros(row, width, dtype),
        aligned_zeros(row, width, dtype),
        aligned_zeros(N_CARDS, width, dtype),
        aligned_zeros(1, width, dtype)[0],
        (sources * 2 + opponent) * row,
        np.arange(row) * width,
        weights,
        rows,
    )


@njit(cache=True, nogil=True)
def _transpose(source, source_rows, count, target, target_rows):
    """``target.flat[target_rows[c] + r] = source.flat[source_rows[r] + c]`` for ``r`` below
    ``len(source_rows)`` (a multiple of :data:`LANES`) and ``c`` below ``count``: the source rows
    become the target's columns, by tiles in vector registers (:func:`kernels_lanes.transpose_tile`),
    a last part-tile of ``c`` element by element."""
    whole = count - count % LANES
    for r0 in range(0, len(source_rows), LANES):
        for c0 in range(0, whole, LANES):
            transpose_tile(source, source_rows, r0, c0, target, target_rows, c0, r0)
        if whole < count:
            flat_source, flat_target = source.reshape(-1), target.reshape(-1)
            for c in range(whole, count):
                for r in range(r0, r0 + LANES):
                    flat_target[target_rows[c] + r] = flat_source[source_rows[r] + c]


@njit(cache=True, nogil=True)
def _batched_terminal_values(layout, reach, n_full, n_shared, batch, values, leaves, runouts):
    """Counterfactual values of every terminal of a pass (see :func:`_terminal_batch`; ``n_full``,
    ``n_shared`` its counts of columns, ``batch`` its :func:`_batch_scratch`) into their rows of
    ``values``, or with ``runouts`` of its RUNOUT nodes (:func:`_runout_batch`; ``leaves``: the
    ``LeafArrays`` with the rivers' orders): the opponent's distinct reach rows are transposed
    hand-major and swept once together (``runouts``: once per river card,
    :func:`kernels_leaf._batched_runout_sweep`);
    each hand's compatible reach per column is formed hand-major (vectorised over the columns); each
    terminal's values, formed from its column's sums and compatible reach in the tile transpose
    that puts them straight into its row: the columns' leaders in one round over all columns, the
    folds sharing a column in rounds over the first ``n_shared``."""
    reach_t, sums, by_card, total, column_rows, hand_rows, weights, rows = batch
    n = len(layout.first)
    width = len(total)
    _transpose(reach, column_rows, reach.shape[2], reach_t, hand_rows)  # padded hands: zero reach
    if runouts:
        _batched_runout_sweep(leaves, layout.first, layout.second, reach_t, by_card, total, sums)
    else:
        _batched_sweep(layout, reach_t, by_card, total, sums, n_full)
    first, second = layout.first, layout.second
    for h in range(n):
        row, a, b = np.int64(h) * width, np.int64(first[h]) * width, np.int64(second[h]) * width
        for j in range(0, width, LANES):
            add_difference(reach_t, row + j, total, j, by_card, a + j, by_card, b + j)
    # each round's values, transposed straight into their rows: a fold's sums weight is 0 (its
    # column's sums may be unswept zeros or a showdown's); padded hands: zero sums and reach
    for k in range(len(rows)):
        columns = width if k == 0 else n_shared
        for r0 in range(0, len(hand_rows), LANES):
            for c0 in range(0, columns, LANES):
                transpose_values_tile(
                    sums, reach_t, hand_rows, r0, c0, weights[0, k], weights[1, k], values, rows[k], c0, r0
                )


@njit(cache=True, nogil=True)
def _positive_totals(regrets, start, count, total):
    """``total[h]``: the positive regrets of actions ``start .. start+count-1`` summed per hand."""
    total[:] = 0.0
    for c in range(start, start + count):
        for h in range(len(total)):
            positive = regrets[c, h]
            if positive > ZERO:
                total[h] += positive


@njit(cache=True, nogil=True)
def _matched(regret, total, uniform):
    """Regret matching of one action for one hand: its positive regret's share, uniform if none."""
    if total > ZERO:
        return regret / total if regret > ZERO else ZERO
    return uniform


@njit(cache=True, nogil=True)
def _entering(gadget_regrets, h):
    """The gadget player's probability of entering the subgame with hand ``h`` (regret matching over
    terminate / enter; entering, not uniform, when neither regret is positive, so that a hand whose
    terminate value is -inf enters from the first iteration on)."""
    terminate = max(gadget_regrets[0, h], 0.0)
    enter = max(gadget_regrets[1, h], 0.0)
    if terminate + enter > 0.0:
        return enter / (terminate + enter)
    return 1.0


@njit(cache=True, nogil=True)
def _cfr_iterations(
    tree,
    layout,
    ranges,
    regrets,
    strategy_sums,
    strategy,
    reach,
    values,
    scratch,
    first_iteration,
    n_iterations,
    regret_matching_plus,
    gamma,
    discount,
    alpha,
    beta,
    gadget_player,
    gadget_values,
    gadget_regrets,
    leaves,
    bounty,
):
    """Run iterations ``first_iteration + 1 .. first_iteration + n_iterations`` (1-based).

    ``tree``: ``SubgameTree.kernel_arrays()``; ``layout``: the hands' ``HandLayout``. ``ranges``:
    (2, n) initial reach per hand. Modified in place: ``regrets``, ``strategy_sums``; scratch:
    ``strategy``, ``values`` (n_nodes, row), ``reach`` (n_nodes, 2, row), all zero at first (``row``:
    ``n`` or more, the padding hands never reach a real one), ``scratch`` (a ``ShowdownScratch``). Player ``p``'s reach at node ``c`` is row ``reach[reach_source[c, p], p]``:
    only the acting player's reach changes along an action, so the other's is never copied.

    The re-solving gadget (``gadget_player`` 0 or 1; -1: none): that player first chooses per hand to
    terminate, worth ``gadget_values`` (n,) (counterfactual, the units of ``values``), or to enter
    the subgame, by regret matching over ``gadget_regrets`` (2, n) (rows: terminate, enter; modified
    in place), entering where neither regret is positive. Its root reach is its range times the
    probability of entering. ``leaves``, ``bounty``: see :func:`_terminal_value` (with bounty
    payoffs every terminal is valued alone, not in the batch).
    """
    kind, player, child_start, n_children, pot_chips, reach_source = tree
    n_nodes = len(kind)
    n = ranges.shape[1]
    row = regrets.shape[1]  # n padded to whole vectors: the decision sweeps run over whole rows
    batched = len(bounty[0]) == 0 and kind[0] == DECISION  # the batch's padding lands on the root's row
    total = np.zeros(row, regrets.dtype)  # per-hand positive regret totals of the forward sweep
    batches = (_terminal_batch(tree, 0), _terminal_batch(tree, 1))
    scratches = (_batch_scratch(reach, values, batches[0], 1), _batch_scratch(reach, values, batches[1], 0))
    runouts = (_runout_batch(tree, 0, leaves.rivers_per_pair), _runout_batch(tree, 1, leaves.rivers_per_pair))
    runout_scratches = (_batch_scratch(reach, values, runouts[0], 1), _batch_scratch(reach, values, runouts[1], 0))
    batch_runouts = batched and len(runouts[0][0]) > 0
    for iteration in range(first_iteration + 1, first_iteration + n_iterations + 1):
        averaging_weight = np.float32(float(iteration) ** gamma)
        positive_factor = np.float32(float(iteration) ** alpha / (float(iteration) ** alpha + 1.0))
        negative_factor = np.float32(float(iteration) ** beta / (float(iteration) ** beta + 1.0))
        for traverser in range(2):
            opponent = 1 - traverser
            for h in range(n):
                reach[0, 0, h] = ranges[0, h]
                reach[0, 1, h] = ranges[1, h]
            if gadget_player >= 0:
                for h in range(n):
                    reach[0, gadget_player, h] *= _entering(gadget_regrets, h)
            for node in range(n_nodes):
                if kind[node] != DECISION:
                    continue
                start = child_start[node]
                count = n_children[node]
                actor = player[node]
                parent_reach = reach[reach_source[node, actor], actor]
                # the traverser's regrets have not changed since the previous pass matched them
                # (they change at the end of its own pass): its strategy rows are still current
                recompute = actor == opponent or (traverser == 0 and iteration == first_iteration + 1)
                if recompute:
                    _positive_totals(regrets, start, count, total)
                uniform = np.float32(1.0 / count)
                # one pass per action: regret matching where needed, the child's reach and the
                # traverser's strategy sums
                for c in range(start, start + count):
                    child_reach = reach[c, actor]
                    child_strategy = strategy[c]
                    child_regrets = regrets[c]
                    if actor != traverser:
                        for h in range(row):
                            probability = _matched(child_regrets[h], total[h], uniform)
                            child_strategy[h] = probability
                            child_reach[h] = parent_reach[h] * probability
                        continue
                    if recompute:
                        for h in range(row):
                            child_strategy[h] = _matched(child_regrets[h], total[h], uniform)
                    sums = strategy_sums[c]
                    below = kind[c] == DECISION  # at a terminal the pass needs only the opponent's reach
                    for h in range(row):
                        if below:
                            child_reach[h] = parent_reach[h] * child_strategy[h]
                        sums[h] += averaging_weight * parent_reach[h] * child_strategy[h]
            if batched:
                n_full, n_shared = batches[traverser][6:]
                _batched_terminal_values(layout, reach, n_full, n_shared, scratches[traverser], values, leaves, False)
            if batch_runouts:
                n_full = runouts[traverser][6]
                _batched_terminal_values(layout, reach, n_full, 0, runout_scratches[traverser], values, leaves, True)
            for node in range(n_nodes - 1, -1, -1):
                if kind[node] != DECISION:
                    in_batch = kind[node] == FOLD or kind[node] == SHOWDOWN or (batch_runouts and kind[node] == RUNOUT)
                    if not batched or not in_batch:  # not in a batch: alone
                        opponent_reach = reach[reach_source[node, opponent], opponent, :n]
                        _terminal_value(
                            kind,
                            player,
                            pot_chips,
                            layout,
                            node,
                            traverser,
                            opponent_reach,
                            scratch,
                            values[node, :n],
                            leaves,
                            UPDATE,
                            bounty,
                        )
                    continue
                start = child_start[node]
                count = n_children[node]
                node_values = values[node]
                if player[node] != traverser:
                    node_values[:] = values[start]
                    for c in range(start + 1, start + count):
                        child_values = values[c]
                        for h in range(row):
                            node_values[h] += child_values[h]
                    continue
                node_values[:] = 0.0
                for c in range(start, start + count):
                    child_values = values[c]
                    child_strategy = strategy[c]
                    for h in range(row):
                        node_values[h] += child_strategy[h] * child_values[h]
                for c in range(start, start + count):
                    _add_regrets(
                        regrets[c],
                        values[c],
                        node_values,
                        regret_matching_plus,
                        discount,
                        positive_factor,
                        negative_factor,
                    )
            if traverser == gadget_player:
                gadget_node_values = scratch.win  # free after the forward sweep
                for h in range(n):
                    entering = _entering(gadget_regrets, h)
                    gadget_node_values[h] = values[0, h]  # written so that -inf never meets 0
                    if entering < 1.0:
                        gadget_node_values[h] = entering * values[0, h] + (1.0 - entering) * gadget_values[h]
                factors = (regret_matching_plus, discount, positive_factor, negative_factor)
                _add_regrets(gadget_regrets[0], gadget_values, gadget_node_values, *factors)
                _add_regrets(gadget_regrets[1], values[0], gadget_node_values, *factors)


@njit(cache=True, nogil=True)
def _add_regrets(regrets, action_values, node_values, regret_matching_plus, discount, positive_factor, negative_factor):
    """``regrets += action_values - node_values`` per hand, then clipped at 0 (CFR+) or discounted by sign."""
    for h in range(len(regrets)):
        regret = regrets[h] + action_values[h] - node_values[h]
        if regret_matching_plus:
            regret = max(regret, ZERO)
        if discount:
            regret *= positive_factor if regret >= ZERO else negative_factor
        regrets[h] = regret


@njit(cache=True, nogil=True)
def _response_values(tree, layout, ranges, average, responder, best, reach, values, scratch, leaves, bounty):
    """Counterfactual values per hand of ``responder`` at every node into ``values`` (n_nodes, n).

    The opponent plays ``average`` (normalised per node, (n_nodes, n)); the responder plays its best
    action per hand if ``best``, else ``average`` too. ``reach`` (n_nodes, n): scratch for the
    opponent's reach. The responder's value of the subgame is ``ranges[responder] @ values[0]``. At
    a LEAF the opponent's choice of continuation is its current one; a best-responding chooser
    takes the best continuation per hand.
    """
    kind, player, child_start, n_children, pot_chips, _ = tree
    leaf_mode = BEST if best else CURRENT
    n_nodes = len(kind)
    n = ranges.shape[1]
    opponent = 1 - responder
    for h in range(n):
        reach[0, h] = ranges[opponent, h]
    for node in range(n_nodes):
        if kind[node] != DECISION:
            continue
        for c in range(child_start[node], child_start[node] + n_children[node]):
            for h in range(n):
                reach[c, h] = reach[node, h] * (average[c, h] if player[node] == opponent else 1.0)
    for node in range(n_nodes - 1, -1, -1):
        if kind[node] != DECISION:
            _terminal_value(
                kind,
                player,
                pot_chips,
                layout,
                node,
                responder,
                reach[node],
                scratch,
                values[node],
                leaves,
                leaf_mode,
                bounty,
            )
            continue
        start = child_start[node]
        count = n_children[node]
        maximise = best and player[node] == responder
        for h in range(n):
            values[node, h] = values[start, h] if maximise else 0.0
        for c in range(start, start + count):
            for h in range(n):
                if maximise:
                    values[node, h] = max(values[node, h], values[c, h])
                elif player[node] == opponent:
                    values[node, h] += values[c, h]
                else:
                    values[node, h] += average[c, h] * values[c, h]

"""Numba kernels for vector-form CFR over a subgame tree (users call solver.resolve.resolver).

One iteration, alternating updates: for each traverser in turn, a forward sweep over the decision
nodes turns the opponent's regrets into its current strategy (regret matching; the traverser's
strategy is the one matched in the previous pass, its regrets unchanged since) and pushes the acting
player's reach vector (one weight per hand) to the children, adding the traverser's reach-weighted
strategy to its strategy sums; all the pass's fold and showdown terminals are valued at once against
the opponent's reach with card removal (:func:`_batched_terminal_values`: its distinct reach rows
transposed hand-major by 16 x 16 tiles in registers, one column per row, one sweep of
:func:`kernels_showdown._batched_sweep` a vector of 16 columns at a time, the columns' sums
transposed back to rows, then each terminal's row combined from its column's two rows);
a backward sweep forms the traverser's counterfactual values per hand and adds its
regrets, clipped (CFR+) or discounted (DCFR) in the same pass over each row. A terminal of another
kind is valued alone by :func:`_terminal_value`, which also values the best-response pass's
terminals (float64): the depth-limited LEAF and RUNOUT kinds are valued there by :mod:`kernels_leaf`
(``leaves``: its ``LeafArrays``, empty for a river subgame). Variants are parameters, as
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
from solver.resolve.kernels_lanes import LANES, add_difference, transpose_tile
from solver.resolve.kernels_leaf import BEST, CURRENT, UPDATE, _leaf_value, _runout_value
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
    win_weight, compatible_weight, column_sources, n_full)``. Terminal ``nodes[i]`` faces the
    opponent's reach row ``sources[i]``, swept in column ``columns[i]``, and is worth
    ``win_weight[i] * (w + e) + compatible_weight[i] * m`` per hand (chips; ``w``, ``e``, ``m`` as in
    :func:`kernels_showdown._showdown_value`; a fold has no ``w + e`` term). A column per distinct
    row (``column_sources``): siblings under the traverser's decision (its fold and its call) face
    the same row and share one. Showdowns' rows come first: ``n_full``, their count rounded up to
    :data:`LANES`, is how many columns need the strength sweep; a fold needs only ``m``."""
    kind, player, _, _, pot_chips, reach_source = tree
    opponent = 1 - traverser
    nodes = np.concatenate((np.flatnonzero(kind == SHOWDOWN), np.flatnonzero(kind == FOLD)))
    sources = reach_source[nodes, opponent].copy()
    columns = np.zeros(len(nodes), np.int64)
    column_sources = np.zeros(len(nodes), np.int64)
    win_weight = np.zeros(len(nodes), np.float32)
    compatible_weight = np.zeros(len(nodes), np.float32)
    n_columns = 0
    for i, node in enumerate(nodes):
        column = 0
        while column < n_columns and column_sources[column] != sources[i]:
            column += 1
        if column == n_columns:
            column_sources[column] = sources[i]
            n_columns += 1
        columns[i] = column
        own, other = pot_chips[node, traverser], pot_chips[node, opponent]
        if kind[node] == FOLD:
            compatible_weight[i] = -own if player[node] == traverser else other
        else:
            win_weight[i] = 0.5 * (own + other)
            compatible_weight[i] = -own
    n_full = -(-len(np.unique(sources[kind[nodes] == SHOWDOWN])) // LANES) * LANES
    return nodes, sources, columns, win_weight, compatible_weight, column_sources[:n_columns], n_full


@njit(cache=True, nogil=True)
def _batch_scratch(reach, column_sources, opponent):
    """Scratch of :func:`_batched_terminal_values` for the opponent's reach rows ``column_sources`` of
    ``reach`` (n_nodes, 2, row) (``row``: the hands, maybe padded): the columns padded to a multiple
    of :data:`LANES` (``width``; a padding column repeats the last row: swept, never read) and the
    hands to whole tiles of :data:`LANES` (``padded``; zero rows), C-contiguous, ``reach``'s dtype:
    the hand-major reach, then compatible reach, and sweep sums (padded, width), the per-card and
    overall totals, the same two node-major (2, width, padded), then the flat starts of the columns'
    reach rows in ``reach`` and of the hand-major rows."""
    row, dtype = reach.shape[2], reach.dtype
    width = -(-len(column_sources) // LANES) * LANES
    padded = -(-row // LANES) * LANES
    sources = column_sources[np.minimum(np.arange(width), len(column_sources) - 1)]
    return (
        np.zeros((padded, width), dtype),
        np.zeros((padded, width), dtype),
        np.zeros((N_CARDS, width), dtype),
        np.zeros(width, dtype),
        np.zeros((2, width, padded), dtype),
        (sources * 2 + opponent) * row,
        np.arange(padded) * width,
    )


@njit(cache=True, nogil=True)
def _transpose(source, source_rows, count, target, target_stride):
    """``target.flat[c * target_stride + r] = source.flat[source_rows[r] + c]`` for ``r`` below
    ``len(source_rows)`` (a multiple of :data:`LANES`) and ``c`` below ``count``: the source rows
    become the target's columns, by tiles in vector registers (:func:`kernels_lanes.transpose_tile`),
    a last part-tile of ``c`` element by element."""
    whole = count - count % LANES
    for r0 in range(0, len(source_rows), LANES):
        for c0 in range(0, whole, LANES):
            transpose_tile(source, source_rows, r0, c0, target, c0 * target_stride + r0, target_stride)
        if whole < count:
            flat_source, flat_target = source.reshape(-1), target.reshape(-1)
            for c in range(whole, count):
                for r in range(r0, r0 + LANES):
                    flat_target[c * target_stride + r] = flat_source[source_rows[r] + c]


@njit(cache=True, nogil=True)
def _batched_terminal_values(
    layout,
    reach,
    nodes,
    columns,
    win_weight,
    compatible_weight,
    n_full,
    batch,
    values,
):
    """Counterfactual values of every terminal of a pass (see :func:`_terminal_batch`) into their rows
    of ``values``: the opponent's distinct reach rows are transposed hand-major and swept once
    together; each hand's compatible reach per column is formed hand-major (vectorised over the
    columns), both sums transposed back to rows per column, and each terminal's row combined from
    its column's two rows (vectorised over the hands)."""
    reach_t, weaker_sums, by_card, total, node_major, column_rows, hand_rows = batch
    n = len(layout.first)
    width = len(total)
    _transpose(reach, column_rows, reach.shape[2], reach_t, width)  # padded hands: zero reach
    _batched_sweep(layout, reach_t, by_card, total, weaker_sums, n_full)
    first, second = layout.first, layout.second
    for h in range(n):
        row, a, b = np.int64(h) * width, np.int64(first[h]) * width, np.int64(second[h]) * width
        for j in range(0, width, LANES):
            add_difference(reach_t, row + j, total, j, by_card, a + j, by_card, b + j)
    padded = reach_t.shape[0]
    _transpose(weaker_sums, hand_rows, n_full, node_major[0], padded)
    _transpose(reach_t, hand_rows, width, node_major[1], padded)
    row = values.shape[1]  # whole rows: the padding hands' sums are zero
    for i in range(len(nodes)):
        j, node = columns[i], nodes[i]
        win, compatible_weight_i = win_weight[i], compatible_weight[i]
        if win == ZERO:  # a fold: the compatible reach alone
            for h in range(row):
                values[node, h] = compatible_weight_i * node_major[1, j, h]
            continue
        for h in range(row):
            values[node, h] = win * node_major[0, j, h] + compatible_weight_i * node_major[1, j, h]


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
    batched = len(bounty[0]) == 0
    total = np.zeros(row, regrets.dtype)  # per-hand positive regret totals of the forward sweep
    batches = (_terminal_batch(tree, 0), _terminal_batch(tree, 1))
    scratches = (_batch_scratch(reach, batches[0][5], 1), _batch_scratch(reach, batches[1][5], 0))
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
                nodes, _, columns, win_weight, compatible_weight, _, n_full = batches[traverser]
                _batched_terminal_values(
                    layout, reach, nodes, columns, win_weight, compatible_weight, n_full, scratches[traverser], values
                )
            for node in range(n_nodes - 1, -1, -1):
                if kind[node] != DECISION:
                    if not batched or (kind[node] != FOLD and kind[node] != SHOWDOWN):  # not in the batch: alone
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

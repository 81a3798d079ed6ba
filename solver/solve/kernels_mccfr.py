"""Numba kernels for external- and outcome-sampling Monte Carlo CFR (users call solver.solve.cfr).

One iteration takes one deal: a row of a deal table (an exact game's, sampled stratified over blocks
of iterations, see ``_table_deals``) or a fresh deal drawn for that iteration. Then the traversers
walk the betting tree for it: both players in turn in a two-player game; with more players one
traverser per iteration, ``iteration % n_players`` (Pluribus). A chance node inside the betting
follows the child the deal names. External sampling: the traverser explores all of their actions
(Pluribus pruning may skip hopeless ones), other players' actions are sampled from their current
strategy, and their strategy is added to the average at each node passed (OpenSpiel's "simple"
averaging). Outcome sampling: one trajectory per player, the traverser samples from an
epsilon-uniform mix, regrets and the average are importance weighted (OpenSpiel
``outcome_sampling_mccfr.py``). No recursion: a traversal lists the visited nodes breadth first
(children after parents), then sweeps the list backwards for values. Iteration ``t`` draws from a
counter-based generator (splitmix64) seeded by ``(seed, t)`` alone, so any split of iterations
gives identical tables. In external sampling the action of a non-traverser at node ``n`` is drawn
from a number keyed by ``(seed, t, traverser, n)``, so the draws do not depend on the order of the
walk: a recursive walk (``tests/reference.py``) gives the same tables bit for bit.
Regret and strategy-sum tables may be float32 (8 bytes per information-set action) or float64.
Threads sharing the tables may keep their changes to the first rows of the tables (the first
betting round, which every iteration writes) in private buffers merged with atomic adds
(`_es_mccfr_iterations`, `_merge_private_rows`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from abstraction.tree import CHANCE, DECISION
from game.cards.kernels_rng import next_uniform, splitmix64, unit_float
from solver.solve.kernels_cfr import context_value, regret_matching_in_place, regret_matching_row, terminal_value

ITERATION_STREAM = 0
"""Stream of the draws of one iteration (deal offset, opponent actions, pruning coin)."""
BLOCK_STREAM = 1
"""Stream of the deal order of one block of iterations."""
MAX_BLOCK = 1 << 16
"""Largest block of stratified deal sampling (iterations)."""


if config.DISABLE_JIT:

    def _prefetch(array, index):
        """Prefetch hint (a no-op in pure Python)."""

else:

    @intrinsic
    def _prefetch(typingctx, array, index):
        """Hint the CPU to bring ``array[index]`` (flat index) into cache for writing (``llvm.prefetch``:
        no fault, no effect on results)."""

        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            pointer = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(8).as_pointer())
            function = cgutils.get_or_insert_function(
                builder.module,
                ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer()] + [ir.IntType(32)] * 3),
                "llvm.prefetch.p0",
            )
            write, locality, data_cache = (ir.Constant(ir.IntType(32), value) for value in (1, 3, 1))
            builder.call(function, [pointer, write, locality, data_cache])
            return context.get_dummy_value()

        return types.void(array, index), codegen


if config.DISABLE_JIT:

    def _atomic_add(array, index, increment):
        """``array[index] += increment`` (pure Python: one thread at a time holds the GIL)."""
        array[index] += increment

else:

    @intrinsic
    def _atomic_add(typingctx, array, index, increment):
        """``array[index] += increment`` as one atomic read-modify-write (``atomicrmw fadd``, a
        ``lock cmpxchg`` loop on x86) in the array's dtype: no update lost when threads add to the
        same entry at once. ``increment`` must have the array's dtype."""

        def codegen(context, builder, signature, args):
            array_type = signature.args[0]
            data = context.make_array(array_type)(context, builder, args[0]).data
            pointer = builder.gep(data, [args[1]])
            builder.atomic_rmw("fadd", pointer, args[2], "monotonic")
            return context.get_dummy_value()

        return types.void(array, index, array.dtype), codegen


@njit(cache=True, nogil=True)
def _seed_state(seed, stream, index, state):
    """Seed the one-word generator ``state[0]`` for item ``index`` of ``stream`` in a solve seeded with ``seed``."""
    state[0] = splitmix64(splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(stream)) ^ np.uint64(index))


@njit(cache=True, nogil=True, inline="always")
def _keyed_uniform(key, index):
    """A float in [0, 1) that depends only on ``key`` and ``index`` (counter-based)."""
    return unit_float(splitmix64(key ^ np.uint64(index)))


@njit(cache=True, nogil=True, inline="always")
def _accumulate(table, index, increment):
    """``table[index] += increment`` computed in float64 and stored in the table's dtype (float32 or
    float64): the same rounding compiled and under NUMBA_DISABLE_JIT (where numpy would add a
    float32 and a Python float in float32)."""
    table[index] = float(table[index]) + increment


@njit(cache=True, nogil=True)
def _merge_private_rows(table, private):
    """Add a thread's private changes ``private`` (to the first ``len(private)`` entries of
    ``table``, same dtype) into ``table`` with atomic adds (`_atomic_add`: threads may merge at
    once), then zero ``private``. Entries that did not change are skipped. Modified in place."""
    for index in range(len(private)):
        change = private[index]
        if change != 0.0:
            _atomic_add(table, index, change)
            private[index] = 0.0


@njit(cache=True, nogil=True, inline="always")
def sample_index(probabilities, start, count, target):
    """Index ``k`` in ``0..count-1`` with ``target`` (uniform in [0, 1)) falling in ``probabilities[start + k]``."""
    running = 0.0
    for k in range(count - 1):
        running += probabilities[start + k]
        if target < running:
            return k
    return count - 1


@njit(cache=True, nogil=True, inline="always")
def _max_actions(n_actions):
    """The most actions of any information-set group (at least 1): the width of per-node strategy buffers."""
    most = 1
    for group in range(len(n_actions)):
        most = max(most, n_actions[group])
    return most


@njit(cache=True, nogil=True)
def _block_order(seed, block, order, state):
    """``order``: a random permutation of ``0..len(order)-1`` seeded by ``(seed, block)`` (Fisher-Yates)."""
    _seed_state(seed, BLOCK_STREAM, block, state)
    for i in range(len(order)):
        order[i] = i
    for i in range(len(order) - 1, 0, -1):
        j = min(int(next_uniform(state) * (i + 1)), i)
        swap = order[i]
        order[i] = order[j]
        order[j] = swap


@njit(cache=True, nogil=True)
def _stratified_deal(cumulative_probability, order, iteration, u):
    """The deal of ``iteration``: stratified sampling of the deal distribution over blocks of ``len(order)``.

    Within a block, iteration ``j`` maps ``u`` (uniform in [0, 1)) into stratum ``order[j]`` of
    ``len(order)`` equal slices of [0, 1): each draw is still uniform, so each deal still comes with
    its probability, but a block covers the distribution evenly (with uniform deals and a block per
    deal count, every deal exactly once), which lowers the variance of chance.
    """
    block_size = len(order)
    target = (order[iteration % block_size] + u) / block_size
    deal = np.searchsorted(cumulative_probability, target, side="right")
    return min(deal, len(cumulative_probability) - 1)


@njit(cache=True, nogil=True)
def _table_deals(cumulative_probability, seed, first_iteration, n_iterations, deals):
    """``deals[i]``: the table row of iteration ``first_iteration + i``, stratified over blocks.

    The draw is the first uniform of the iteration's generator (the kernels draw and discard it
    when they are handed fresh deals, so both modes consume the same stream).
    """
    state = np.zeros(1, dtype=np.uint64)
    order = np.empty(min(len(cumulative_probability), MAX_BLOCK), dtype=np.int64)
    current_block = -1
    for i in range(n_iterations):
        iteration = first_iteration + i
        if iteration // len(order) != current_block:
            current_block = iteration // len(order)
            _block_order(seed, current_block, order, state)
        _seed_state(seed, ITERATION_STREAM, iteration, state)
        deals[i] = _stratified_deal(cumulative_probability, order, iteration, next_uniform(state))


@njit(cache=True, nogil=True, inline="always")
def _traversers(iteration, n_players):
    """``(first, count)``: the traversers of ``iteration``: both players heads-up, else one in turn."""
    if n_players == 2:
        return 0, 2
    return iteration % n_players, 1


# Packed node records (`_node_records`): two int64 words per node, read through the accessors
# below (inlined: each compiles to the shift and mask it names).
_CHILD_START_MASK = 0xFFFFFFFF  # word 0, bits 0..31
_CHILDREN_SHIFT = 32  # word 0, bits 32..47
_KIND_SHIFT = 48  # word 0, bits 48..51
_PLAYER_SHIFT = 52  # word 0, bits 52..55: player + 1
_STREET_SHIFT = 56  # word 0, bits 56..62
_ROW_MASK = (1 << 56) - 1  # word 1, bits 0..55
_SLOT_SHIFT = 56  # word 1, bits 56..62


@njit(cache=True, nogil=True, inline="always")
def child_start(info):
    """The first child of the node whose record word 0 is ``info`` (children are contiguous)."""
    return info & _CHILD_START_MASK


@njit(cache=True, nogil=True, inline="always")
def child_count(info):
    """How many children the node of record word 0 ``info`` has (a decision's actions)."""
    return (info >> _CHILDREN_SHIFT) & 0xFFFF


@njit(cache=True, nogil=True, inline="always")
def node_kind(info):
    """The node kind (`abstraction.tree` DECISION, CHANCE or a terminal kind) of record word 0 ``info``."""
    return (info >> _KIND_SHIFT) & 15


@njit(cache=True, nogil=True, inline="always")
def node_player(info):
    """The player acting at the node of record word 0 ``info`` (-1 where nobody acts)."""
    return ((info >> _PLAYER_SHIFT) & 15) - 1


@njit(cache=True, nogil=True, inline="always")
def node_street(info):
    """The street of the node of record word 0 ``info``."""
    return (info >> _STREET_SHIFT) & 127


@njit(cache=True, nogil=True, inline="always")
def record_row(word):
    """Record word 1's row: a decision's group row offset, a terminal's payoff row (0 at a chance node)."""
    return word & _ROW_MASK


@njit(cache=True, nogil=True, inline="always")
def record_slot(word):
    """Record word 1's slot: a decision's bucket slot, a chance node's chance slot, a terminal's
    outcome context + 1 (0: a single payoff row)."""
    return word >> _SLOT_SHIFT


@njit(cache=True, nogil=True)
def _node_records(
    tree,
):
    """Everything the external-sampling walk reads about a node, packed into two int64 words: one
    cache line serves four nodes (siblings are adjacent), instead of a line per node in each of a
    dozen node and group arrays.

    Word 0: child start (bits 0..31), children (32..47), kind (48..51), player + 1 (52..55), street
    (56..62). Word 1: a decision's group row offset, a terminal's payoff row (bits 0..55), with
    (bits 56..62) a decision's bucket slot, a terminal's outcome context + 1, a chance node's slot."""
    n_nodes = len(tree.kind)
    records = np.empty((n_nodes, 2), dtype=np.int64)
    for node in range(n_nodes):
        if tree.n_children[node] >= 1 << 16 or tree.street[node] >= 1 << 7 or not -1 <= tree.player[node] < 15:
            raise ValueError("tree too large for the packed node records")
        records[node, 0] = (
            np.int64(tree.child_start[node])
            | (np.int64(tree.n_children[node]) << _CHILDREN_SHIFT)
            | (np.int64(tree.kind[node]) << _KIND_SHIFT)
            | (np.int64(tree.player[node] + 1) << _PLAYER_SHIFT)
            | (np.int64(tree.street[node]) << _STREET_SHIFT)
        )
        if tree.kind[node] == DECISION:
            group = tree.infoset_group[node]
            low, high = tree.row_offset[group], np.int64(tree.group_slot[group])
        elif tree.kind[node] == CHANCE:
            low, high = np.int64(0), np.int64(tree.context[node])
        else:
            low, high = tree.value_row[node], np.int64(tree.context[node] + 1)
        if low < 0 or low > _ROW_MASK or high < 0 or high >= 1 << 7:
            raise ValueError("tree too large for the packed node records")
        records[node, 1] = low | (high << _SLOT_SHIFT)
    return records


@njit(cache=True, nogil=True)
def _es_mccfr_iterations(
    tree,
    bucket,
    weight,
    chance,
    deal_of_iteration,
    last_street,
    regrets,
    strategy_sums,
    first_iteration,
    n_iterations,
    seed,
    linear_averaging,
    prune_after,
    prune_probability,
    prune_threshold,
    private_regrets,
    private_sums,
    merge_every,
):
    """External-sampling MCCFR iterations ``first_iteration .. first_iteration + n_iterations - 1`` (0-based).

    Iteration ``first_iteration + i`` plays deal row ``deal_of_iteration[i]`` of ``bucket``,
    ``weight`` and ``chance``. ``regrets`` and ``strategy_sums`` are modified in place (they may be
    shared between threads).

    Private rows (threads sharing the tables): the first ``len(private_sums)`` strategy-sum
    entries and the first ``len(private_regrets)`` regret entries (each a whole number of rows,
    either may be 0; buffers of the tables' dtype) are not written in place: this thread adds its
    changes to the buffers and merges them into the tables with atomic adds (`_merge_private_rows`)
    on return and, when regrets are private, every ``merge_every`` iterations; it reads a private
    regret as the shared value plus its own pending change. These are the rows every iteration
    writes (the first betting round, at the front of a breadth-first table), whose cache lines
    two threads writing in place pull back and forth between the cores. Strategy sums are never
    read by the walk, so private ones change nothing but who writes when; a private regret reaches
    the other threads up to ``merge_every`` of this thread's iterations late. With empty buffers
    (one thread) the arithmetic is the plain in-place update, bit for bit.

    Increments are weighted by ``iteration + 1`` when
    ``linear_averaging``. Pruning starts at iteration ``prune_after`` (never if negative); a
    traversal then prunes with probability ``prune_probability``. When a traversal does not prune,
    the subtrees a pruning one would have skipped add the other players' strategies with weight
    ``1 / (1 - prune_probability)`` (once, however many prunable actions lie above them: one coin
    per traversal decides for all), so that the average strategy stays unbiased; a traverser node's
    value is normalised over the explored actions.

    One long kernel on purpose: the traversal is written inline, with only ``inline="always"``
    helpers (the record accessors, `regret_matching_in_place`, `solver.solve.kernels_cfr.context_value`),
    because a call per traversal or per node to a compiled function costs reference counting on each
    array it is passed, more than the work at a node. A terminal's value reads its packed record and
    returns the card-independent payoff right here: `terminal_value` inlined whole, that test and all,
    measured about 5% fewer iterations per second. Splitting this kernel into functions would cost speed.

    Speed: the tree is read from packed node records (`_node_records`, built once per call, read
    through `node_kind`, `node_player`, `child_start`, `child_count`, `node_street`, `record_row`,
    `record_slot`); a traversal's scratch is indexed by the node's *position* in the visit list (a
    few hundred entries, in L1) rather than by node id (spread over megabytes); a node's table row
    (or payoff row) is computed and prefetched when the node is listed, so that the cache misses
    on the tables of a breadth-first level overlap instead of following one another.
    """
    n_players = bucket.shape[1]
    max_actions = _max_actions(tree.n_actions)
    records = _node_records(tree)
    capacity = len(tree.kind)  # a traversal lists each node at most once
    visit_node = np.empty(capacity, dtype=np.int64)
    visit_info = np.empty(capacity, dtype=np.int64)  # word 0 of the node's record
    visit_row = np.empty(capacity, dtype=np.int64)  # table row of a decision, word 1 of the record otherwise
    visit_weight = np.empty(capacity)
    visit_value = np.empty(capacity)
    visit_child = np.empty(capacity * max_actions, dtype=np.int64)  # position of each child listed, -1 if pruned
    visit_strategy = np.empty(capacity * max_actions)
    state = np.zeros(1, dtype=np.uint64)
    correction = 1.0 / (1.0 - prune_probability) if prune_probability < 1.0 else 1.0
    private_end = len(private_regrets)
    private_sums_end = len(private_sums)
    for i in range(n_iterations):
        if private_end > 0 and i > 0 and i % merge_every == 0:
            _merge_private_rows(regrets, private_regrets)
        iteration = first_iteration + i
        _seed_state(seed, ITERATION_STREAM, iteration, state)
        iteration_key = state[0]
        next_uniform(state)  # the deal draw (see _table_deals)
        deal = deal_of_iteration[i]
        weight_t = float(iteration + 1) if linear_averaging else 1.0
        first_traverser, n_traversers = _traversers(iteration, n_players)
        for traverser in range(first_traverser, first_traverser + n_traversers):
            pruning_on = prune_after >= 0 and iteration >= prune_after
            prune = pruning_on and next_uniform(state) < prune_probability
            traversal_key = splitmix64(iteration_key ^ np.uint64(traverser + 1))
            count = 0
            position = -1  # the root is listed as the children are below, by a parent at position -1
            while position < count:
                first_child = 0
                last_child = 1
                exploring = False
                if position < 0:
                    start = 0
                    node_weight = weight_t
                    slot = 0
                else:
                    node = visit_node[position]
                    info = visit_info[position]
                    slot = position * max_actions
                    node_weight = visit_weight[position]
                    row = visit_row[position]
                    start = child_start(info)
                    kind = node_kind(info)
                    if kind == CHANCE:
                        first_child = chance[deal, record_slot(row)]
                        last_child = first_child + 1
                    elif kind != DECISION:
                        position += 1
                        continue
                    else:
                        actions = child_count(info)
                        private = row < private_end
                        # visit_strategy holds the regrets first (a private row's: shared + pending),
                        # their positive sum added up on the way
                        positive_sum = 0.0
                        for k in range(actions):
                            regret = float(regrets[row + k])
                            if private:
                                regret += float(private_regrets[row + k])
                            visit_strategy[slot + k] = regret
                            if regret > 0.0:
                                positive_sum += regret
                        regret_matching_in_place(visit_strategy, slot, actions, positive_sum)
                        if node_player(info) == traverser:
                            exploring = True
                            last_child = actions
                        else:
                            for k in range(actions):
                                if row < private_sums_end:
                                    _accumulate(private_sums, row + k, node_weight * visit_strategy[slot + k])
                                else:
                                    _accumulate(strategy_sums, row + k, node_weight * visit_strategy[slot + k])
                            first_child = sample_index(
                                visit_strategy, slot, actions, _keyed_uniform(traversal_key, node)
                            )
                            last_child = first_child + 1
                position += 1
                for k in range(first_child, last_child):
                    child = start + k
                    child_info = records[child, 0]
                    child_row = records[child, 1]
                    child_kind = node_kind(child_info)
                    child_weight = node_weight
                    if exploring:
                        prunable = (
                            pruning_on
                            and node_street(info) < last_street
                            and child_kind == DECISION
                            and float(regrets[row + k])
                            + (float(private_regrets[row + k]) if row < private_end else 0.0)
                            < prune_threshold
                        )
                        if prunable and prune:
                            visit_child[slot + k] = -1
                            continue
                        if prunable:
                            # below any prunable action once: a pruning traversal skips the whole
                            # subtree, so nested prunable actions share the one coin (no compounding)
                            child_weight = weight_t * correction
                        visit_child[slot + k] = count
                    else:
                        visit_child[slot] = count
                    # List the child; at a decision compute and prefetch its row (and its strategy
                    # sums where the traverser does not act: they will be added to), at a terminal
                    # its payoff row.
                    visit_node[count] = child
                    visit_info[count] = child_info
                    visit_weight[count] = child_weight
                    if child_kind == DECISION:
                        _prefetch(records, child_start(child_info) * 2)  # its children's records, listed next
                        actor = node_player(child_info)
                        child_actions = child_count(child_info)
                        table_row = record_row(child_row) + bucket[deal, actor, record_slot(child_row)] * child_actions
                        visit_row[count] = table_row
                        _prefetch(regrets, table_row)
                        _prefetch(regrets, table_row + child_actions - 1)
                        if actor != traverser:
                            _prefetch(strategy_sums, table_row)
                            _prefetch(strategy_sums, table_row + child_actions - 1)
                    else:
                        visit_row[count] = child_row
                        if child_kind != CHANCE:
                            _prefetch(tree.terminal_values, record_row(child_row) * n_players)
                    count += 1
            for position in range(count - 1, -1, -1):
                info = visit_info[position]
                kind = node_kind(info)
                slot = position * max_actions
                if kind != DECISION:
                    if kind == CHANCE:
                        visit_value[position] = visit_value[visit_child[slot]]
                        continue
                    record = visit_row[position]
                    payoff_row = record_row(record)
                    c = record_slot(record) - 1
                    if c < 0:
                        visit_value[position] = tree.terminal_values[payoff_row, traverser]
                        continue
                    visit_value[position] = context_value(tree, weight, deal, payoff_row, c, traverser)
                    continue
                if node_player(info) != traverser:
                    visit_value[position] = visit_value[visit_child[slot]]
                    continue
                row = visit_row[position]
                actions = child_count(info)
                node_value = 0.0
                explored_mass = 0.0
                for k in range(actions):
                    child_position = visit_child[slot + k]
                    if child_position >= 0:
                        node_value += visit_strategy[slot + k] * visit_value[child_position]
                        explored_mass += visit_strategy[slot + k]
                if explored_mass > 0.0:
                    node_value /= explored_mass  # equals the full value unless pruned actions had probability > 0
                visit_value[position] = node_value
                private = row < private_end
                for k in range(actions):
                    child_position = visit_child[slot + k]
                    if child_position >= 0:
                        if private:
                            _accumulate(private_regrets, row + k, weight_t * (visit_value[child_position] - node_value))
                        else:
                            _accumulate(regrets, row + k, weight_t * (visit_value[child_position] - node_value))
    _merge_private_rows(regrets, private_regrets)
    _merge_private_rows(strategy_sums, private_sums)


@njit(cache=True, nogil=True)
def _os_mccfr_iterations(
    tree,
    bucket,
    weight,
    chance,
    deal_of_iteration,
    regrets,
    strategy_sums,
    first_iteration,
    n_iterations,
    seed,
    linear_averaging,
    epsilon,
):
    """Outcome-sampling MCCFR iterations ``first_iteration .. first_iteration + n_iterations - 1`` (0-based).

    Iteration ``first_iteration + i`` plays deal row ``deal_of_iteration[i]``; every player traverses
    once per iteration. ``regrets`` and ``strategy_sums`` are modified in place. Increments are
    weighted by ``iteration + 1`` when ``linear_averaging``. Each trajectory goes down once,
    recording the path (node, row, sampled action, reaches, strategies), then back up: at the
    traverser's nodes the sampled action's value is importance weighted by ``others' reach /
    sample reach``. Chance nodes follow the deal and add nothing to the path.
    """
    n_nodes = len(tree.kind)
    n_players = bucket.shape[1]
    max_actions = _max_actions(tree.n_actions)
    path = np.zeros(n_nodes, dtype=np.int64)
    path_row = np.zeros(n_nodes, dtype=np.int64)
    path_choice = np.zeros(n_nodes, dtype=np.int64)
    path_own = np.zeros(n_nodes)
    path_opponent = np.zeros(n_nodes)
    path_sample = np.zeros(n_nodes)
    path_strategy = np.zeros(n_nodes * max_actions)
    path_explore = np.zeros(n_nodes * max_actions)
    state = np.zeros(1, dtype=np.uint64)
    for i in range(n_iterations):
        iteration = first_iteration + i
        _seed_state(seed, ITERATION_STREAM, iteration, state)
        next_uniform(state)  # the deal draw (see _table_deals)
        deal = deal_of_iteration[i]
        weight_t = float(iteration + 1) if linear_averaging else 1.0
        for traverser in range(n_players):
            node = 0
            depth = 0
            own_reach = 1.0
            opponent_reach = 1.0
            sample_reach = 1.0
            while tree.kind[node] == DECISION or tree.kind[node] == CHANCE:
                if tree.kind[node] == CHANCE:
                    node = tree.child_start[node] + chance[deal, tree.context[node]]
                    continue
                actor = tree.player[node]
                group = tree.infoset_group[node]
                actions = tree.n_actions[group]
                row = tree.row_offset[group] + bucket[deal, actor, tree.group_slot[group]] * actions
                slot = depth * max_actions
                regret_matching_row(regrets, row, actions, path_strategy, slot)
                for k in range(actions):
                    mixed = epsilon / actions + (1.0 - epsilon) * path_strategy[slot + k]
                    path_explore[slot + k] = mixed if actor == traverser else path_strategy[slot + k]
                choice = sample_index(path_explore, slot, actions, next_uniform(state))
                path[depth] = node
                path_row[depth] = row
                path_choice[depth] = choice
                path_own[depth] = own_reach
                path_opponent[depth] = opponent_reach
                path_sample[depth] = sample_reach
                if actor == traverser:
                    own_reach *= path_strategy[slot + choice]
                else:
                    opponent_reach *= path_strategy[slot + choice]
                sample_reach *= path_explore[slot + choice]
                node = tree.child_start[node] + choice
                depth += 1
            child_value = terminal_value(tree, weight, deal, node, traverser)
            for level in range(depth - 1, -1, -1):
                node = path[level]
                row = path_row[level]
                choice = path_choice[level]
                slot = level * max_actions
                actions = tree.n_actions[tree.infoset_group[node]]
                sampled_value = child_value / path_explore[slot + choice]
                value_estimate = path_strategy[slot + choice] * sampled_value
                if tree.player[node] == traverser:
                    scale = weight_t * path_opponent[level] / path_sample[level]
                    for k in range(actions):
                        action_value = sampled_value if k == choice else 0.0
                        _accumulate(regrets, row + k, scale * (action_value - value_estimate))
                    average_scale = weight_t * path_own[level] / path_sample[level]
                    for k in range(actions):
                        _accumulate(strategy_sums, row + k, average_scale * path_strategy[slot + k])
                child_value = value_estimate

"""Numba kernels of local best response against the equity bot's decision rule (users call `solver.evaluate.lbr`).

Same hands, deals, candidates and LBR choice as `solver.evaluate.kernels_lbr._lbr_fresh_hands`, but the
opponent is not a strategy table: at each of its decisions it plays `game.play.bots.EquityBot`'s rule
on the exact cards it holds (the real deal's, or candidate ``k``'s in LBR's belief), so its
"strategy" is deterministic and its reach in a candidate is 0 or 1.

Equity (`_rule_equity`) is `game.play.kernels_equity._equity` (the bot's own Monte Carlo: uniform
opponent hand, Auction third cards, future Swap swaps, board completion, River of Blood runs,
Bounty weighting) with the counter-based generator of `game.cards.kernels_rng` instead of NumPy's global
one. Its generator is keyed by ``(seed, street, the actor's hole cards, bounty rank, board)`` (and,
in the Auction, the hole-card counts): equity is a function of the cards the bot sees, identical
for the real deal and every candidate with the same cards, and independent of batches, threads and
evaluation order. Equities are memoised per candidate, street and equity slot (``-1``: not
computed yet) when the candidates are redrawn.

Equity slots (Auction hole-card counts, as `game.play.bots.EquityBot` counts them): slot ``a + 2 * o``
with ``a`` = 1 if the actor holds three hole cards, ``o`` = 1 if its opponent does (won or tied
the auction, `EquityBot._opponent_hole_count`); slot 4 = two cards plus a third still to come
against two (the bid's "with the card"). The bid's "if the opponent gets it" is slot 2. Other
variants use slot 0 only.

The rule tuple (`solver.evaluate.lbr.equity_rule_arguments`), per node: ``(raise_index, check_index,
call_index, fold_index, pot, cost, holders, bid_high, amount)``: action indices (-1: no such child)
with ``raise_index`` the raise nearest in chips to the bot's pot-size target; ``pot``/``cost``
float64 chips (all chips put in; chips to call); ``holders`` int64 the equity slot 0..3 of the
actor at a decision node; ``bid_high`` float64 the bidder's upper bid bound at an Auction bid node
(its stack), -1 elsewhere; ``amount`` float64 the action amount of the edge into each node (bid
chips). ``params`` = ``(raise_equity, samples, flop_swap, turn_swap, run_while_red,
max_board_cards, bounty_multiplier)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from abstraction.chance.kernels_chance import N_STREETS, board_size, deal_workspace
from abstraction.chance.kernels_resample import card_arrays, real_deal, redraw_candidate
from abstraction.tree import CHANCE, DECISION
from game.cards.kernels_rng import next_uniform, splitmix64
from game.play.kernels_equity import showdown_shares
from solver.evaluate.kernels_lbr import (
    _best_action,
    _decision_group,
    _next_stop,
    _passive_value,
    _seed_hand,
    _view_changed,
)
from solver.solve.kernels_cfr import terminal_value

EQUITY_SALT = 0x45515549545952  # "EQUITY": keys the equity generators apart from the deal streams
EQUITY_SLOTS = 5
"""Equity memo slots per street (module docstring): four Auction hole-card counts, then the bid's third card to come."""
WITH_CARD_SLOT = 4
"""Slot of the bid's equity with a third hole card to come (two known) against two cards."""
WITHOUT_CARD_SLOT = 2
"""Slot of two cards against three: the bid's equity if the opponent gets the card."""
_RED_DIAMONDS = 1
_RED_HEARTS = 2


@njit(cache=True, nogil=True)
def _scratch():
    """Per-thread scratch of `_rule_equity`: ``state`` uint64[1], ``pool``/``mine``/``theirs``/``final_board`` int8[52]."""
    return (
        np.zeros(1, dtype=np.uint64),
        np.empty(52, dtype=np.int8),
        np.empty(52, dtype=np.int8),
        np.empty(52, dtype=np.int8),
        np.empty(52, dtype=np.int8),
    )


@njit(cache=True, nogil=True)
def _take(pool, size, taken, state):
    """Swap a uniform card of ``pool[taken:size]`` to ``pool[taken]`` and return it (partial Fisher-Yates)."""
    pick = taken + min(int(next_uniform(state) * (size - taken)), size - taken - 1)
    card = pool[pick]
    pool[pick] = pool[taken]
    pool[taken] = card
    return card


@njit(cache=True, nogil=True)
def _rule_equity(hole, n_hole, extra, opponent_cards, board, n_board, street, bounty_rank, params, seed, scratch):
    """EquityBot's bounty-weighted equity of hole cards ``hole[:n_hole]`` (2 or 3) on ``board[:n_board]``
    on tree street ``street`` (Swap swaps still to come: the flop's before the flop, the turn's before
    the turn), with ``extra`` (0 or 1) hole cards still to come and an opponent holding
    ``opponent_cards`` (2 or 3); ``bounty_rank`` 0..12 or -1. The sampling of
    `game.play.kernels_equity._equity` (same arguments), drawn from a generator keyed by ``seed`` and the
    cards (two-card hands against two with nothing to come: the key of the hold'em variants).
    Returns the mean pot share (win 1, tie 1/2), a win where the bounty rank is among our final
    cards counting ``bounty_multiplier``."""
    _, samples, flop_swap, turn_swap, run_while_red, max_board_cards, bounty_multiplier = params
    state, pool, mine, theirs, final_board = scratch
    hole_0, hole_1 = hole[0], hole[1]
    low, high = int(min(hole_0, hole_1)), int(max(hole_0, hole_1))  # int: no int8 overflow without JIT
    key = splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(EQUITY_SALT))
    key = splitmix64(key ^ np.uint64(street))
    key = splitmix64(key ^ np.uint64(64 * (low + 1) + high + 1))
    key = splitmix64(key ^ np.uint64(bounty_rank + 1))
    for index in range(n_board):
        key = splitmix64(key ^ np.uint64(int(board[index]) + 1))
    if n_hole != 2 or extra != 0 or opponent_cards != 2:  # Auction counts: a stream of their own
        third = int(hole[2]) + 1 if n_hole > 2 else 0
        key = splitmix64(key ^ np.uint64(4096 * (16 * extra + opponent_cards) + third))
    state[0] = key
    swaps = np.zeros(2)
    n_swaps = 0
    if n_board < 3 and flop_swap > 0.0:
        swaps[n_swaps] = flop_swap
        n_swaps += 1
    if n_board < 4 and turn_swap > 0.0:
        swaps[n_swaps] = turn_swap
        n_swaps += 1
    size = 0
    for card in range(52):
        known = False
        for index in range(n_hole):
            if hole[index] == card:
                known = True
        for index in range(n_board):
            if board[index] == card:
                known = True
        if not known:
            pool[size] = card
            size += 1
    my_count = n_hole + extra
    weighted_sum = 0.0
    for _ in range(samples):
        taken = 0
        for i in range(n_hole):
            mine[i] = hole[i]
        for i in range(n_hole, my_count):
            mine[i] = _take(pool, size, taken, state)
            taken += 1
        for i in range(opponent_cards):
            theirs[i] = _take(pool, size, taken, state)
            taken += 1
        for s in range(n_swaps):
            for i in range(my_count):
                if next_uniform(state) < swaps[s]:
                    mine[i] = _take(pool, size, taken, state)
                    taken += 1
            for i in range(opponent_cards):
                if next_uniform(state) < swaps[s]:
                    theirs[i] = _take(pool, size, taken, state)
                    taken += 1
        board_count = n_board
        for i in range(n_board):
            final_board[i] = board[i]
        while board_count < 5:
            final_board[board_count] = _take(pool, size, taken, state)
            taken += 1
            board_count += 1
        if run_while_red:
            while board_count < max_board_cards and (
                final_board[board_count - 1] & 3 == _RED_DIAMONDS or final_board[board_count - 1] & 3 == _RED_HEARTS
            ):
                final_board[board_count] = _take(pool, size, taken, state)
                taken += 1
                board_count += 1
        weighted_sum += showdown_shares(
            mine, my_count, theirs, opponent_cards, final_board, board_count, bounty_rank, bounty_multiplier
        )[1]
    return weighted_sum / samples


@njit(cache=True, nogil=True)
def _equity_batch(hole, extra, opponent_cards, board, n_board, street, bounty_rank, params, seed, out):
    """`_rule_equity` for rows of ``hole`` int8 [B, 2 or 3] on one board (tests).
    ``out`` float64 [B], modified in place."""
    scratch = _scratch()
    for row in range(hole.shape[0]):
        out[row] = _rule_equity(
            hole[row], hole.shape[1], extra, opponent_cards, board, n_board, street, bounty_rank, params, seed, scratch
        )


@njit(cache=True, nogil=True)
def _cards_equity(hole, board, bounty, actor, street, slot, cache, params, seed, scratch):
    """Equity of ``actor`` on tree ``street`` in one deal's cards (``hole`` [4, 2, 3], ``board``, ``bounty``)
    for equity slot ``slot`` (module docstring), memoised in ``cache[street, slot]`` (-1: not yet).
    Modified in place: ``cache``."""
    if cache[street, slot] < 0.0:
        held = min(street, N_STREETS - 1)
        n_hole = 3 if slot == 1 or slot == 3 else 2
        extra = 1 if slot == WITH_CARD_SLOT else 0
        opponent_cards = 3 if slot == 2 or slot == 3 else 2
        cache[street, slot] = _rule_equity(
            hole[held, actor],
            n_hole,
            extra,
            opponent_cards,
            board,
            board_size(street),
            street,
            bounty[actor],
            params,
            seed,
            scratch,
        )
    return cache[street, slot]


@njit(cache=True, nogil=True, inline="always")
def _rule_index(rule, params, node, equity):
    """EquityBot's action index at ``node`` for ``equity``: raise (nearest tree size) if equity >=
    raise_equity and the tree has a raise; else check; else call if equity * (pot + cost) >= cost;
    else fold."""
    raise_index, check_index, call_index, fold_index, pot, cost = rule[0], rule[1], rule[2], rule[3], rule[4], rule[5]
    if raise_index[node] >= 0 and equity >= params[0]:
        return raise_index[node]
    if check_index[node] >= 0:
        return check_index[node]
    if call_index[node] >= 0 and (equity * (pot[node] + cost[node]) >= cost[node] or fold_index[node] < 0):
        return call_index[node]
    if fold_index[node] >= 0:
        return fold_index[node]
    return 0


@njit(cache=True, nogil=True)
def _bid_index(rule, child_start, n_children, node, with_card, without_card):
    """EquityBot's bid at Auction bid ``node``: ``round((with_card - without_card) * pot)`` chips clamped
    to ``[0, bid_high]``, mapped to the child bid nearest in chips (ties: the smaller bid)."""
    pot, bid_high, amount = rule[4], rule[7], rule[8]
    chips = min(bid_high[node], max(0.0, np.rint((with_card - without_card) * pot[node])))  # rint: Python's round
    best = 0
    best_distance = np.inf
    best_amount = np.inf
    start = child_start[node]
    for k in range(n_children[node]):
        distance = abs(amount[start + k] - chips)
        if distance < best_distance or (distance == best_distance and amount[start + k] < best_amount):
            best = k
            best_distance = distance
            best_amount = amount[start + k]
    return best


@njit(cache=True, nogil=True)
def _opponent_index(tree, rule, params, node, hole, board, bounty, cache, seed, scratch):
    """The rule's action index at the opponent's decision ``node`` on one deal's cards (bids included)."""
    flat = tree.flat
    player, street, child_start, n_children = (
        flat.player,
        flat.street,
        flat.child_start,
        flat.n_children,
    )
    actor = player[node]
    if rule[7][node] >= 0.0:
        with_card = _cards_equity(
            hole, board, bounty, actor, street[node], WITH_CARD_SLOT, cache, params, seed, scratch
        )
        without_card = _cards_equity(
            hole, board, bounty, actor, street[node], WITHOUT_CARD_SLOT, cache, params, seed, scratch
        )
        return _bid_index(rule, child_start, n_children, node, with_card, without_card)
    equity = _cards_equity(hole, board, bounty, actor, street[node], rule[6][node], cache, params, seed, scratch)
    return _rule_index(rule, params, node, equity)


@njit(cache=True, nogil=True, inline="always")
def _candidate_index(tree, rule, params, node, cards, candidate, seed, scratch):
    """`_opponent_index` on candidate ``candidate``'s cards (``cards`` = (hole, board, bounty, chance,
    cache), per candidate, as `_lbr_rule_hands` keeps them)."""
    hole, board, bounty, _, cache = cards
    return _opponent_index(
        tree, rule, params, node, hole[candidate], board[candidate], bounty[candidate], cache[candidate], seed, scratch
    )


@njit(cache=True, nogil=True)
def _rule_reach(tree, rule, params, node, cards, candidate, seat, seed, scratch):
    """1.0 if the candidate's chance and the rule on the candidate's opponent cards lead to ``node``
    (the seat's own actions count 1), else 0.0."""
    flat = tree.flat
    kind, player, child_start, context, parent = flat.kind, flat.player, flat.child_start, flat.context, tree.parent
    chance = cards[3]
    child = node
    current = parent[node]
    while current >= 0:
        if kind[current] == CHANCE:
            if child_start[current] + chance[candidate, context[current]] != child:
                return 0.0
        elif player[current] != seat:
            action = _candidate_index(tree, rule, params, current, cards, candidate, seed, scratch)
            if child_start[current] + action != child:
                return 0.0
        child = current
        current = parent[current]
    return 1.0


@njit(cache=True, nogil=True)
def _rule_response_value(tree, rule, params, node, cards, weight, candidate, seat, seed, scratch):
    """Seat's chips from ``node`` (just after its action): the opponent's next decision by the rule on
    the candidate's cards, everything after it (or everything, if the seat acts next) passive."""
    flat = tree.flat
    kind, player, child_start = flat.kind, flat.player, flat.child_start
    chance = cards[3]
    current = _next_stop(flat, node, chance, candidate)
    if kind[current] != DECISION or player[current] == seat:
        return _passive_value(tree, current, weight, chance, candidate, seat)
    action = _candidate_index(tree, rule, params, current, cards, candidate, seed, scratch)
    return _passive_value(tree, child_start[current] + action, weight, chance, candidate, seat)


@njit(cache=True, nogil=True)
def _rule_choose_action(tree, rule, params, node, seat, cards, weight, n_candidates, seed, scratch, values):
    """`solver.evaluate.kernels_lbr._choose_action` against the rule: belief = every node of the group times
    every candidate the rule reaches it with (weight 1 each); ``values[k]`` the mean chips of action k.
    Returns the action and whether no candidate reached the group (then every candidate counts at ``node``)."""
    child_start, group_nodes = tree.flat.child_start, tree.group_nodes
    first, last, count = _decision_group(tree, node, values)
    total = 0.0
    for index in range(first, last):
        member = group_nodes[index]
        for candidate in range(n_candidates):
            if _rule_reach(tree, rule, params, member, cards, candidate, seat, seed, scratch) <= 0.0:
                continue
            total += 1.0
            for k in range(count):
                values[k] += _rule_response_value(
                    tree, rule, params, child_start[member] + k, cards, weight, candidate, seat, seed, scratch
                )
    unreached = total <= 0.0
    if unreached:
        for candidate in range(n_candidates):
            total += 1.0
            for k in range(count):
                values[k] += _rule_response_value(
                    tree, rule, params, child_start[node] + k, cards, weight, candidate, seat, seed, scratch
                )
    return _best_action(tree, node, count, values, total), unreached


@njit(cache=True, nogil=True)
def _lbr_rule_hands(
    tree,
    rule,
    params,
    arguments,
    n_slots,
    n_columns,
    n_chance,
    max_streets,
    seat,
    seed,
    first,
    count,
    n_candidates,
    payoff,
    unreached,
):
    """LBR hands ``first .. first + count - 1`` of seat ``seat`` against the equity rule (heads-up
    variant with fresh chance; ``arguments`` = `abstraction.chance.fresh_chance.FreshChance.kernel_arguments`).

    Hand ``h`` is deal ``h`` of the seed, as in `solver.evaluate.kernels_lbr._lbr_fresh_hands` (the same real
    deals as against a strategy table with the same seed); candidates are redrawn the same way, once
    per street the seat acts on (and once more when it holds its Auction third card, which the
    candidates then keep), from the seat's stream ``(seed, 1 + seat, h)`` (no opponent draws
    interleave: the rule is deterministic). The real opponent plays the rule on its real cards. ``max_streets``: tree streets (4 + River of Blood runs), the equity memo's width.
    Modified in place: ``payoff`` float64 [count] (the seat's NET chips), ``unreached`` int64 [1].
    """
    flat = tree.flat
    kind, player, child_start = flat.kind, flat.player, flat.child_start
    deal_flags = arguments[0]
    work = deal_workspace()
    scratch = _scratch()
    pool = np.empty(52, dtype=np.int8)
    real = card_arrays()
    real_hole, real_board, real_bounty = real
    real_weight = np.zeros((1, n_columns))
    real_chance = np.zeros((1, n_chance), dtype=np.int8)
    real_cache = np.empty((max_streets, EQUITY_SLOTS))
    hole = np.full((n_candidates, N_STREETS, 2, 3), -1, dtype=np.int8)
    board = np.full((n_candidates, 48), -1, dtype=np.int8)
    bounty = np.full((n_candidates, 2), -1, dtype=np.int64)
    bucket = np.zeros((2, n_slots), dtype=np.int32)  # never computed (max_street -1): the rule reads cards
    weight = np.zeros((n_candidates, n_columns))
    chance = np.zeros((n_candidates, n_chance), dtype=np.int8)
    cache = np.empty((n_candidates, max_streets, EQUITY_SLOTS))
    cards = (hole, board, bounty, chance, cache)
    view = np.array([-1, 0], dtype=np.int64)
    values = np.zeros(max(1, int(flat.n_actions.max())))
    state = np.zeros(1, dtype=np.uint64)
    for h in range(count):
        hand = first + h
        real_deal(arguments, seed, hand, work, real, bucket, real_weight[0], real_chance[0], seat, -1)
        real_cache[:] = -1.0
        _seed_hand(seed, 1 + seat, hand, state)
        view[0], view[1] = -1, 0
        node = 0
        while True:
            node = _next_stop(flat, node, real_chance, 0)
            if kind[node] != DECISION:
                payoff[h] = terminal_value(flat, real_weight, 0, node, seat)
                break
            if player[node] != seat:
                node = child_start[node] + _opponent_index(
                    tree, rule, params, node, real_hole, real_board, real_bounty, real_cache, seed, scratch
                )
                continue
            if _view_changed(flat, node, deal_flags, view):
                for c in range(n_candidates):
                    candidate_cards, rows = (hole[c], board[c], bounty[c]), (bucket, weight[c], chance[c])
                    redraw_candidate(
                        arguments, real, seat, view[0], view[1] == 1, state, pool, work, candidate_cards, rows, seat, -1
                    )
                    cache[c] = -1.0
            action, missed = _rule_choose_action(
                tree, rule, params, node, seat, cards, weight, n_candidates, seed, scratch, values
            )
            if missed:
                unreached[0] += 1
            node = child_start[node] + action

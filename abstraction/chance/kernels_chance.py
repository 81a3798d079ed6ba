"""Numba kernels of fresh chance for the heads-up variants, behind `abstraction.chance.fresh_chance`.

`_sample_deal` fills one deal's rows of the abstract game's deal arrays (``bucket`` [2, n_slots],
``weight`` [W], ``chance`` [K]; layouts in `abstraction.chance.fresh_chance`), dispatching on the
deal flags a variant's hooks give (`abstraction.hooks.holdem.HoldemHooks.deal_flags`; at most one
set) to one function per flag: `_deal_holdem` (none: Hold'em, and Swap by its swap
probabilities), `_deal_bounty`, `_deal_auction`, `_deal_river_of_blood`. They share the steps: `_start` (the deal's own
generator, splitmix64 keyed by ``(seed, deal)``, and a full deck), `_draw` (next card of a
partial Fisher-Yates shuffle), `_seat_bucket` (`abstraction.cards.kernels_buckets.hand_bucket`),
`_seat_value` and `_outcome` (showdown). A deal depends on ``(seed, deal)`` only, so batches
split any way give identical rows. `_sample_batch` fills a batch on the calling thread (solver
threads), `_sample_batch_parallel` splits it into chunks over numba's threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from abstraction.cards.kernels_buckets import bounty_bucket, hand_bucket, river_buckets, table_bucket
from abstraction.cards.kernels_features import N_CARDS, RED_SUITS_MASK
from game.cards.kernels_evaluator import evaluate_hand
from game.cards.kernels_rng import next_uniform, splitmix64

PLAIN_DEAL = 0
"""Deal flags of a Hold'em deal: hole cards and five board cards (with swaps where their
probabilities are above 0, `_deal_holdem`)."""
DEAL_BOUNTY_RANKS = 1
"""Deal flag: a bounty rank per seat after the board; buckets carry the hit bit, weights each fold
street's and the showdown's hit pattern (`_deal_bounty`)."""
DEAL_THIRD_CARD = 2
"""Deal flag: a candidate third hole card per seat after the flop; three-card slots, a showdown
context per holder (`_deal_auction`)."""
DEAL_RUN_CARDS = 4
"""Deal flag: up to ``max_runs`` run cards after the river while the last card is red; colour chance
slots, a showdown context per run length (`_deal_river_of_blood`)."""

N_STREETS = 4
"""Streets of every variant: preflop, flop, turn, river (River of Blood adds run streets)."""
SHOWDOWN_OUTCOMES = 3
"""Outcomes of a two-player showdown: 0 player 0 wins, 1 tie (split), 2 player 1 wins."""
HIT_OUTCOMES = 4
"""Bounty hit patterns ``hit0 + 2 * hit1``."""
BOUNTY_SHOWDOWN = N_STREETS * HIT_OUTCOMES
"""First weight column of Bounty's showdown context (after its four fold contexts)."""
AUCTION_PLAYER_0, AUCTION_PLAYER_1, AUCTION_BOTH, AUCTION_NONE = 0, 1, 2, 3
"""Auction showdown contexts: who holds a third card."""
MAX_BOARD = 48
"""Longest board (52 cards minus 4 hole cards)."""
N_BOUNTY_RANKS = 13


@njit(cache=True, nogil=True)
def deal_workspace():
    """Scratch for `_sample_deal` (allocate once per thread): ``state`` uint64[1] (generator),
    ``deck`` int8[52] (``deck[:counters[0]]`` = the cards drawn, in order), ``hole`` int8 (2, 3),
    ``board`` int8[48], ``hand`` int8[52], ``scratch`` int64 (5, 4), ``card_scratch`` int8[53],
    ``counters`` int64[3] (cards drawn, bounty rank of player 0 and of player 1, -1 if none)."""
    return (
        np.zeros(1, dtype=np.uint64),
        np.empty(N_CARDS, dtype=np.int8),
        np.empty((2, 3), dtype=np.int8),
        np.empty(MAX_BOARD, dtype=np.int8),
        np.empty(N_CARDS, dtype=np.int8),
        np.zeros((5, 4), dtype=np.int64),
        np.empty(N_CARDS + 1, dtype=np.int8),
        np.zeros(3, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def _start(seed, deal, work):
    """Seed the generator of deal ``deal`` (splitmix64 of splitmix64(seed) xor deal) and reset the deck."""
    state, deck, counters = work[0], work[1], work[7]
    state[0] = splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(deal))
    for card in range(N_CARDS):
        deck[card] = card
    counters[0] = 0
    counters[1] = -1
    counters[2] = -1


@njit(cache=True, nogil=True)
def _draw(work):
    """The next card of the deal's partial Fisher-Yates shuffle (uniform over the cards left)."""
    state, deck, counters = work[0], work[1], work[7]
    drawn = counters[0]
    pick = drawn + int(next_uniform(state) * (N_CARDS - drawn))
    card = deck[pick]
    deck[pick] = deck[drawn]
    deck[drawn] = card
    counters[0] = drawn + 1
    return card


@njit(cache=True, nogil=True)
def _deal_hole_cards(work):
    """Two hole cards each, player 0 first."""
    hole = work[2]
    for seat in range(2):
        for index in range(2):
            hole[seat, index] = _draw(work)


@njit(cache=True, nogil=True)
def _deal_board(work, start, stop):
    """Board cards ``start .. stop - 1``."""
    board = work[3]
    for index in range(start, stop):
        board[index] = _draw(work)


@njit(cache=True, nogil=True)
def _swap_hole_cards(work, probability):
    """Swap Hold'em (`game.rules.swap`): each hole card (player 0's two, then player 1's) is replaced with
    ``probability`` by the next card; no draw at all when ``probability`` is 0."""
    hole = work[2]
    if probability <= 0.0:
        return
    for seat in range(2):
        for index in range(2):
            if next_uniform(work[0]) < probability:
                hole[seat, index] = _draw(work)


@njit(cache=True, nogil=True)
def board_size(street):
    """Board cards on street 0..3 (0, 3, 4, 5); run street k = street 3 + k has 5 + k."""
    return 0 if street == 0 else street + 2


@njit(cache=True, nogil=True)
def _gather(work, seat, n_hole, n_board):
    """``hand[: n_hole + n_board]`` = the seat's first ``n_hole`` hole cards then ``board[:n_board]``."""
    hole, board, hand = work[2], work[3], work[4]
    for index in range(n_hole):
        hand[index] = hole[seat, index]
    for index in range(n_board):
        hand[n_hole + index] = board[index]
    return hand[: n_hole + n_board]


@njit(cache=True, nogil=True)
def _seat_bucket(work, seat, n_hole, n_board, bounty_rank, lookup):
    """Bucket of the seat's hand (`hand_bucket`; ``lookup`` = `BucketLookup.kernel_arguments`)."""
    cards = _gather(work, seat, n_hole, n_board)
    return hand_bucket(cards, n_hole, bounty_rank, lookup[0], lookup[1], lookup[2], work[5], work[6])


@njit(cache=True, nogil=True)
def _river_seat_buckets(work, lookup):
    """`_seat_bucket` of both seats' two hole cards on the five-card board (the river), both at once
    (`abstraction.cards.kernels_buckets.river_buckets`: same buckets, a fraction of the work)."""
    hole, board = work[2], work[3]
    return river_buckets(board[:5], hole[0, :2], hole[1, :2], lookup[0])


@njit(cache=True, nogil=True)
def _seat_value(work, seat, n_hole, n_board):
    """Hand value (`game.cards.kernels_evaluator.evaluate_hand`) of the seat's hole cards and ``board[:n_board]``."""
    return evaluate_hand(_gather(work, seat, n_hole, n_board))


@njit(cache=True, nogil=True)
def _outcome(value_0, value_1):
    """Showdown outcome: 0 player 0 wins, 1 tie, 2 player 1 wins."""
    if value_0 > value_1:
        return 0
    if value_0 < value_1:
        return 2
    return 1


@njit(cache=True, nogil=True)
def _hit(work, seat, n_board, rank):
    """1 if ``rank`` is among the seat's two hole cards or ``board[:n_board]``, else 0."""
    hole, board = work[2], work[3]
    for index in range(2):
        if hole[seat, index] >> 2 == rank:
            return 1
    for index in range(n_board):
        if board[index] >> 2 == rank:
            return 1
    return 0


@njit(cache=True, nogil=True)
def _deal_holdem(flop_swap_probability, turn_swap_probability, lookup, work, bucket, weight):
    """Hold'em or Swap Hold'em. Draws as `game.rules.swap`: hole cards player 0 (2), player 1 (2), flop
    (3), flop swaps, turn (1), turn swaps, river (1). ``bucket[seat, street]`` from the cards
    held on that street; ``weight`` (3) one-hot on the showdown with the final cards."""
    _deal_hole_cards(work)
    tables, fallback_flop, fallback_turn = lookup
    scratch, card_scratch = work[5], work[6]
    for street in range(N_STREETS):
        if street == 1:
            _deal_board(work, 0, 3)
            _swap_hole_cards(work, flop_swap_probability)
        elif street == 2:
            _deal_board(work, 3, 4)
            _swap_hole_cards(work, turn_swap_probability)
        elif street == 3:
            _deal_board(work, 4, 5)
            bucket[0, street], bucket[1, street] = _river_seat_buckets(work, lookup)
            continue
        for seat in range(2):
            # `_seat_bucket` through `table_bucket` (same bucket): passing only the street's arrays
            # instead of the whole lookup tuple halves the cost of a lookup.
            cards = _gather(work, seat, 2, board_size(street))
            if street == 0:
                value = table_bucket(
                    cards, 1, tables[0], tables[1], tables[2], tables[7], fallback_turn, scratch, card_scratch
                )
            elif street == 1:
                value = table_bucket(
                    cards, 2, tables[0], tables[3], tables[4], tables[8], fallback_flop, scratch, card_scratch
                )
            else:
                value = table_bucket(
                    cards, 3, tables[0], tables[5], tables[6], tables[9], fallback_turn, scratch, card_scratch
                )
            bucket[seat, street] = value
    weight[:] = 0.0
    weight[_outcome(_seat_value(work, 0, 2, 5), _seat_value(work, 1, 2, 5))] = 1.0


@njit(cache=True, nogil=True)
def _deal_bounty(lookup, work, bucket, weight):
    """Bounty Hold'em. Draws hole cards, the five board cards, then each player's bounty rank
    (uniform 0..12, player 0 first). ``bucket`` the Bounty buckets ``2 * base + hit``; ``weight``
    (28): context s = 0..3 (fold on street s) one-hot on the hits ``h = hit0 + 2 * hit1`` of that
    street's board, context 4 (showdown, columns 16..27) one-hot on ``4 * outcome + h``."""
    _deal_hole_cards(work)
    _deal_board(work, 0, 5)
    counters = work[7]
    for seat in range(2):
        counters[1 + seat] = int(next_uniform(work[0]) * N_BOUNTY_RANKS)
    weight[:] = 0.0
    hits = 0
    for street in range(N_STREETS):
        n_board = board_size(street)
        if street == N_STREETS - 1:
            river = _river_seat_buckets(work, lookup)
            for seat in range(2):
                bucket[seat, street] = bounty_bucket(river[seat], _gather(work, seat, 2, n_board), counters[1 + seat])
        else:
            for seat in range(2):
                bucket[seat, street] = _seat_bucket(work, seat, 2, n_board, counters[1 + seat], lookup)
        hits = _hit(work, 0, n_board, counters[1]) + 2 * _hit(work, 1, n_board, counters[2])
        weight[HIT_OUTCOMES * street + hits] = 1.0
    outcome = _outcome(_seat_value(work, 0, 2, 5), _seat_value(work, 1, 2, 5))
    weight[BOUNTY_SHOWDOWN + HIT_OUTCOMES * outcome + hits] = 1.0


@njit(cache=True, nogil=True)
def _deal_auction(lookup, work, bucket, weight):
    """Auction Hold'em. Draws as the rules engine deals a tied auction: hole cards, flop, the
    candidate third card of player 0 then of player 1, turn, river. ``bucket`` slots 0..3 two-card
    buckets per street, 4..6 three-card buckets on flop, turn, river; ``weight`` (12) one-hot per
    context (0 player 0 holds 3 cards, 1 player 1 does, 2 both, 3 neither) on its showdown."""
    _deal_hole_cards(work)
    _deal_board(work, 0, 3)
    hole = work[2]
    for seat in range(2):
        hole[seat, 2] = _draw(work)
    _deal_board(work, 3, 5)
    bucket[0, N_STREETS - 1], bucket[1, N_STREETS - 1] = _river_seat_buckets(work, lookup)
    for street in range(N_STREETS):
        for seat in range(2):
            if street < N_STREETS - 1:
                bucket[seat, street] = _seat_bucket(work, seat, 2, board_size(street), -1, lookup)
            if street > 0:
                bucket[seat, N_STREETS - 1 + street] = _seat_bucket(work, seat, 3, board_size(street), -1, lookup)
    two_0, three_0 = _seat_value(work, 0, 2, 5), _seat_value(work, 0, 3, 5)
    two_1, three_1 = _seat_value(work, 1, 2, 5), _seat_value(work, 1, 3, 5)
    weight[:] = 0.0
    weight[SHOWDOWN_OUTCOMES * AUCTION_PLAYER_0 + _outcome(three_0, two_1)] = 1.0
    weight[SHOWDOWN_OUTCOMES * AUCTION_PLAYER_1 + _outcome(two_0, three_1)] = 1.0
    weight[SHOWDOWN_OUTCOMES * AUCTION_BOTH + _outcome(three_0, three_1)] = 1.0
    weight[SHOWDOWN_OUTCOMES * AUCTION_NONE + _outcome(two_0, two_1)] = 1.0


@njit(cache=True, nogil=True)
def _is_red(card):
    return (RED_SUITS_MASK >> (card & 3)) & 1


@njit(cache=True, nogil=True)
def _deal_river_of_blood(max_runs, lookup, work, bucket, weight, chance):
    """River of Blood with at most ``max_runs`` run streets. Draws hole cards then ``5 + max_runs``
    board cards. ``chance[j]`` (j < max_runs) = 1 if board card 4 + j is red; ``bucket`` slots
    0..3 per street, slot 3 + k the run-street bucket on the board of 5 + k cards for the runs the
    colours reach (cards 4 .. 3 + k all red), 0 in the run slots they do not reach (never read);
    ``weight`` (3 (max_runs + 1)) context c one-hot on the showdown on the board of 5 + c cards."""
    _deal_hole_cards(work)
    _deal_board(work, 0, 5 + max_runs)
    board = work[3]
    reached = 0
    for run in range(max_runs):
        chance[run] = _is_red(board[4 + run])
        if chance[run] == 1 and reached == run:
            reached = run + 1
    bucket[0, N_STREETS - 1], bucket[1, N_STREETS - 1] = _river_seat_buckets(work, lookup)
    for street in range(N_STREETS + max_runs):
        if street == N_STREETS - 1:
            continue
        for seat in range(2):
            if street < N_STREETS or street - (N_STREETS - 1) <= reached:
                bucket[seat, street] = _seat_bucket(work, seat, 2, board_size(street), -1, lookup)
            else:
                bucket[seat, street] = 0
    weight[:] = 0.0
    for runs in range(max_runs + 1):
        outcome = _outcome(_seat_value(work, 0, 2, 5 + runs), _seat_value(work, 1, 2, 5 + runs))
        weight[SHOWDOWN_OUTCOMES * runs + outcome] = 1.0


@njit(cache=True, nogil=True)
def _sample_deal(seed, deal, arguments, work, bucket, weight, chance):
    """Fill one deal's rows: ``bucket`` int32 (2, n_slots), ``weight`` float64 (W), ``chance`` int8 (K).

    ``seed`` and ``deal`` (integers) key the deal's generator; ``arguments`` is
    `abstraction.chance.fresh_chance.FreshChance.kernel_arguments` = ``(deal flags, flop swap
    probability, turn swap probability, max_runs, BucketLookup.kernel_arguments())``; ``work`` is a
    `deal_workspace` (afterwards it holds the deal's cards). Modified in place: ``work``, ``bucket``,
    ``weight``, ``chance``.
    """
    deal_flags, flop_swap_probability, turn_swap_probability, max_runs, lookup = arguments
    _start(seed, deal, work)
    if deal_flags & DEAL_BOUNTY_RANKS:
        _deal_bounty(lookup, work, bucket, weight)
    elif deal_flags & DEAL_THIRD_CARD:
        _deal_auction(lookup, work, bucket, weight)
    elif deal_flags & DEAL_RUN_CARDS:
        _deal_river_of_blood(max_runs, lookup, work, bucket, weight, chance)
    else:
        _deal_holdem(flop_swap_probability, turn_swap_probability, lookup, work, bucket, weight)


@njit(cache=True, nogil=True)
def _sample_batch(seed, first, arguments, bucket, weight, chance):
    """Deals ``first .. first + len(bucket) - 1`` into the rows of ``bucket`` (B, 2, n_slots),
    ``weight`` (B, W) and ``chance`` (B, K), on the calling thread. Modified in place."""
    work = deal_workspace()
    for row in range(bucket.shape[0]):
        _sample_deal(seed, first + row, arguments, work, bucket[row], weight[row], chance[row])


@njit(cache=True, nogil=True, parallel=True)
def _sample_batch_parallel(
    seed, first, n_chunks, deal_flags, flop_swap_probability, turn_swap_probability, max_runs, tables, flop_keys,
    turn_keys, bucket, weight, chance,
):  # fmt: skip
    """`_sample_batch` split into ``n_chunks`` contiguous chunks run in parallel (same rows). Takes
    the fields of ``arguments`` one by one (numba's parallel loops cannot receive the nested tuple)."""
    n_deals = bucket.shape[0]
    for chunk in prange(n_chunks):
        start = chunk * n_deals // n_chunks
        stop = (chunk + 1) * n_deals // n_chunks
        arguments = (deal_flags, flop_swap_probability, turn_swap_probability, max_runs, (tables, flop_keys, turn_keys))
        _sample_batch(seed, first + start, arguments, bucket[start:stop], weight[start:stop], chance[start:stop])


@njit(cache=True, nogil=True)
def _sample_batch_cards(seed, first, arguments, bucket, weight, chance, cards, bounty_rank):
    """`_sample_batch` that also records each deal's cards in the order drawn (``cards`` int8
    (B, 52), -1 after the last card drawn) and the bounty ranks (``bounty_rank`` int64 (B, 2), -1
    outside Bounty). Modified in place: all six arrays."""
    work = deal_workspace()
    deck, counters = work[1], work[7]
    for row in range(bucket.shape[0]):
        _sample_deal(seed, first + row, arguments, work, bucket[row], weight[row], chance[row])
        cards[row, :] = -1
        cards[row, : counters[0]] = deck[: counters[0]]
        bounty_rank[row, 0] = counters[1]
        bounty_rank[row, 1] = counters[2]


@njit(cache=True, nogil=True)
def _table_rows(seed, first, cumulative_probability, rows):
    """``rows[i]``: a row of a deal table drawn by its probability for deal ``first + i`` of a solve
    seeded ``seed`` (one uniform of the deal's generator; i.i.d. across deals)."""
    state = np.zeros(1, dtype=np.uint64)
    for i in range(rows.shape[0]):
        state[0] = splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(first + i))
        row = np.searchsorted(cumulative_probability, next_uniform(state), side="right")
        rows[i] = min(row, len(cumulative_probability) - 1)

"""Numba kernels that split a heads-up variant's fresh deal into cards and their evaluation, and redraw
what one seat cannot see (for local best response, `solver.evaluate.lbr`).

A deal's *cards* are three arrays: ``hole`` int8 ``[4, 2, 3]`` (the hole cards each seat holds on
street 0..3; Swap changes them street by street, the other variants hold the same ones; column 2
is the Auction's candidate third card of the seat), ``board`` int8 ``[48]`` (board cards in
order: 5, River of Blood ``5 + R``) and ``bounty`` int64 ``[2]`` (Bounty ranks, -1 elsewhere).

- `_draw_cards` draws deal ``deal`` of a solve seeded ``seed`` with exactly the draws of
  `abstraction.chance.kernels_chance._sample_deal` (same generator, same order), keeping the hole cards
  of every street.
- `_evaluate_cards` computes the deal's rows (``bucket`` [2, n_slots], ``weight`` [W], ``chance``
  [K]) from cards exactly as the variant's ``_deal_*`` function of `abstraction.chance.kernels_chance`
  does: ``_evaluate_cards(_draw_cards(seed, deal))`` equals ``_sample_deal(seed, deal)`` bit for bit
  (tests/solver/test_lbr.py checks it for every variant). The existing kernels are unchanged.
- `_resample_hidden` keeps what seat ``s`` has seen by street ``t`` and redraws the rest from the
  cards it has not seen: seat ``s``'s hole cards on streets ``0..t`` (Swap: including the cards it
  swapped away), the board up to street ``t`` (River of Blood: the run cards dealt so far), its
  Auction third card if it holds it, its bounty rank; redrawn are the opponent's hole cards, the
  opponent's swaps on streets ``1..t`` (coins with the rules' probabilities, replacements from the
  unseen cards), the opponent's bounty rank (uniform) and third card, and everything after street
  ``t`` (board, both seats' swaps, seat ``s``'s unseen third card). All draws are uniform without
  replacement, so by exchangeability this is the exact conditional distribution of the hidden
  cards given seat ``s``'s view (before weighing by the opponent's actions).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from abstraction.chance.kernels_chance import (
    AUCTION_BOTH,
    AUCTION_NONE,
    AUCTION_PLAYER_0,
    AUCTION_PLAYER_1,
    BOUNTY_SHOWDOWN,
    DEAL_BOUNTY_RANKS,
    DEAL_RUN_CARDS,
    DEAL_THIRD_CARD,
    HIT_OUTCOMES,
    N_BOUNTY_RANKS,
    N_STREETS,
    PLAIN_DEAL,
    SHOWDOWN_OUTCOMES,
    _deal_board,
    _deal_hole_cards,
    _draw,
    _hit,
    _is_red,
    _outcome,
    _seat_bucket,
    _seat_value,
    _start,
    _swap_hole_cards,
    board_size,
)
from game.cards.kernels_rng import next_uniform

N_CARDS = 52


@njit(cache=True, nogil=True)
def card_arrays():
    """Empty cards of one deal: ``hole`` int8 [4, 2, 3], ``board`` int8 [48], ``bounty`` int64 [2]."""
    return np.full((N_STREETS, 2, 3), -1, dtype=np.int8), np.full(48, -1, dtype=np.int8), np.full(2, -1, dtype=np.int64)


@njit(cache=True, nogil=True)
def _board_cards(deal_flags, max_runs):
    """Board cards a deal holds: 5, with run cards ``5 + max_runs``."""
    return 5 + max_runs if deal_flags & DEAL_RUN_CARDS else 5


@njit(cache=True, nogil=True)
def _keep_hole(work, hole, street):
    """``hole[street] = work's hole cards`` (both seats, three columns)."""
    current = work[2]
    for seat in range(2):
        for index in range(3):
            hole[street, seat, index] = current[seat, index]


@njit(cache=True, nogil=True)
def _draw_cards(
    seed, deal, deal_flags, flop_swap_probability, turn_swap_probability, max_runs, work, hole, board, bounty
):
    """Deal ``deal`` of a solve seeded ``seed``: the draws of `_sample_deal`, into ``hole``, ``board``, ``bounty``."""
    _start(seed, deal, work)
    current, counters = work[2], work[7]
    for seat in range(2):
        current[seat, 2] = -1
    bounty[0] = -1
    bounty[1] = -1
    if deal_flags & DEAL_BOUNTY_RANKS:
        _deal_hole_cards(work)
        _deal_board(work, 0, 5)
        for seat in range(2):
            counters[1 + seat] = int(next_uniform(work[0]) * N_BOUNTY_RANKS)
            bounty[seat] = counters[1 + seat]
    elif deal_flags & DEAL_THIRD_CARD:
        _deal_hole_cards(work)
        _deal_board(work, 0, 3)
        for seat in range(2):
            current[seat, 2] = _draw(work)
        _deal_board(work, 3, 5)
    elif deal_flags & DEAL_RUN_CARDS:
        _deal_hole_cards(work)
        _deal_board(work, 0, 5 + max_runs)
    else:
        _deal_hole_cards(work)
        _keep_hole(work, hole, 0)
        _deal_board(work, 0, 3)
        _swap_hole_cards(work, flop_swap_probability)
        _keep_hole(work, hole, 1)
        _deal_board(work, 3, 4)
        _swap_hole_cards(work, turn_swap_probability)
        _keep_hole(work, hole, 2)
        _deal_board(work, 4, 5)
        _keep_hole(work, hole, 3)
    if deal_flags != PLAIN_DEAL:  # no swaps: the same hole cards on every street
        for street in range(N_STREETS):
            _keep_hole(work, hole, street)
    total = _board_cards(deal_flags, max_runs)
    source = work[3]
    for index in range(total):
        board[index] = source[index]


@njit(cache=True, nogil=True)
def _load(work, hole, board, street, n_board):
    """Put the hole cards of ``street`` and ``board[:n_board]`` into the workspace."""
    current, target = work[2], work[3]
    for seat in range(2):
        for index in range(3):
            current[seat, index] = hole[street, seat, index]
    for index in range(n_board):
        target[index] = board[index]


@njit(cache=True, nogil=True)
def _evaluate_cards(
    deal_flags, max_runs, lookup, hole, board, bounty, work, bucket, weight, chance, skip_seat=-1, max_street=1 << 30
):
    """The deal rows of cards ``hole``, ``board``, ``bounty`` as the variant's ``_deal_*`` computes them.

    ``work`` is a `abstraction.chance.kernels_chance.deal_workspace` (scratch); ``bucket`` int32 (2, n_slots),
    ``weight`` float64 (W) and ``chance`` int8 (K) are modified in place. ``skip_seat`` (0 or 1)
    leaves that seat's buckets 0 (LBR reads only the opponent's: half the cost); -1 computes both.
    Slots of streets after ``max_street`` are left 0 too (LBR never reads them; the river buckets
    are the costly ones). Weights and chance are always complete.
    """
    total = _board_cards(deal_flags, max_runs)
    weight[:] = 0.0
    if deal_flags & DEAL_BOUNTY_RANKS:
        _load(work, hole, board, 0, total)
        hits = 0
        for street in range(N_STREETS):
            n_board = board_size(street)
            for seat in range(2):
                bucket[seat, street] = (
                    0
                    if seat == skip_seat or street > max_street
                    else _seat_bucket(work, seat, 2, n_board, bounty[seat], lookup)
                )
            hits = _hit(work, 0, n_board, bounty[0]) + 2 * _hit(work, 1, n_board, bounty[1])
            weight[HIT_OUTCOMES * street + hits] = 1.0
        outcome = _outcome(_seat_value(work, 0, 2, 5), _seat_value(work, 1, 2, 5))
        weight[BOUNTY_SHOWDOWN + HIT_OUTCOMES * outcome + hits] = 1.0
    elif deal_flags & DEAL_THIRD_CARD:
        _load(work, hole, board, 0, total)
        for street in range(N_STREETS):
            for seat in range(2):
                if seat == skip_seat or street > max_street:
                    bucket[seat, street] = 0
                    if street > 0:
                        bucket[seat, N_STREETS - 1 + street] = 0
                    continue
                bucket[seat, street] = _seat_bucket(work, seat, 2, board_size(street), -1, lookup)
                if street > 0:
                    bucket[seat, N_STREETS - 1 + street] = _seat_bucket(work, seat, 3, board_size(street), -1, lookup)
        two_0, three_0 = _seat_value(work, 0, 2, 5), _seat_value(work, 0, 3, 5)
        two_1, three_1 = _seat_value(work, 1, 2, 5), _seat_value(work, 1, 3, 5)
        weight[SHOWDOWN_OUTCOMES * AUCTION_PLAYER_0 + _outcome(three_0, two_1)] = 1.0
        weight[SHOWDOWN_OUTCOMES * AUCTION_PLAYER_1 + _outcome(two_0, three_1)] = 1.0
        weight[SHOWDOWN_OUTCOMES * AUCTION_BOTH + _outcome(three_0, three_1)] = 1.0
        weight[SHOWDOWN_OUTCOMES * AUCTION_NONE + _outcome(two_0, two_1)] = 1.0
    elif deal_flags & DEAL_RUN_CARDS:
        _load(work, hole, board, 0, total)
        reached = 0
        for run in range(max_runs):
            chance[run] = _is_red(board[4 + run])
            if chance[run] == 1 and reached == run:
                reached = run + 1
        for street in range(N_STREETS + max_runs):
            for seat in range(2):
                if (
                    seat != skip_seat
                    and street <= max_street
                    and (street < N_STREETS or street - (N_STREETS - 1) <= reached)
                ):
                    bucket[seat, street] = _seat_bucket(work, seat, 2, board_size(street), -1, lookup)
                else:
                    bucket[seat, street] = 0
        for runs in range(max_runs + 1):
            outcome = _outcome(_seat_value(work, 0, 2, 5 + runs), _seat_value(work, 1, 2, 5 + runs))
            weight[SHOWDOWN_OUTCOMES * runs + outcome] = 1.0
    else:
        for street in range(N_STREETS):
            _load(work, hole, board, street, total)
            for seat in range(2):
                if seat == skip_seat or street > max_street:
                    bucket[seat, street] = 0
                else:
                    bucket[seat, street] = _seat_bucket(work, seat, 2, board_size(street), -1, lookup)
        weight[_outcome(_seat_value(work, 0, 2, 5), _seat_value(work, 1, 2, 5))] = 1.0


@njit(cache=True, nogil=True)
def _take(pool, left, state):
    """A card drawn uniformly from ``pool[:left[0]]`` (removed from it; swap with the last)."""
    count = left[0]
    pick = min(int(next_uniform(state) * count), count - 1)
    card = pool[pick]
    pool[pick] = pool[count - 1]
    left[0] = count - 1
    return card


@njit(cache=True, nogil=True)
def _resample_hidden(arguments, real, seat, street, keep_third, state, pool, hole, board, bounty):
    """Cards agreeing with what ``seat`` has seen on ``street`` of the real deal, the rest redrawn.

    ``arguments``: as in `real_deal`; ``real`` = (hole, board, bounty): the real deal's cards (layout
    in the module docstring); ``street``: the tree street (River of Blood run street ``3 + k`` keeps ``5 + k``
    board cards); ``keep_third``: the seat holds its Auction third card; ``state`` uint64[1]: the
    generator (advanced); ``pool`` int8[52]: scratch. Writes ``hole``, ``board``, ``bounty``.
    """
    deal_flags, flop_swap_probability, turn_swap_probability, max_runs, _ = arguments
    real_hole, real_board, real_bounty = real
    seen = np.zeros(N_CARDS, dtype=np.bool_)
    last = min(street, N_STREETS - 1)
    n_board = board_size(street)
    total = _board_cards(deal_flags, max_runs)
    other = 1 - seat
    for st in range(last + 1):
        for index in range(2):
            seen[real_hole[st, seat, index]] = True
    for index in range(n_board):
        seen[real_board[index]] = True
    third_cards = (deal_flags & DEAL_THIRD_CARD) != 0
    third = third_cards and keep_third
    if third:
        seen[real_hole[0, seat, 2]] = True
    left = np.zeros(1, dtype=np.int64)
    for card in range(N_CARDS):
        if not seen[card]:
            pool[left[0]] = card
            left[0] += 1
    for index in range(n_board):
        board[index] = real_board[index]
    for st in range(N_STREETS):
        for s in range(2):
            hole[st, s, 2] = -1
    # street 0: the seat's real cards, the opponent's redrawn
    for index in range(2):
        hole[0, seat, index] = real_hole[0, seat, index]
        hole[0, other, index] = _take(pool, left, state)
    if third_cards:
        hole[0, seat, 2] = real_hole[0, seat, 2] if third else _take(pool, left, state)
        hole[0, other, 2] = _take(pool, left, state)
    for st in range(1, N_STREETS):
        for s in range(2):
            for index in range(3):
                hole[st, s, index] = hole[st - 1, s, index]
        if deal_flags == PLAIN_DEAL:  # swaps, where their probabilities are above 0
            probability = flop_swap_probability if st == 1 else (turn_swap_probability if st == 2 else 0.0)
            for s in range(2):
                for index in range(2):
                    if s == seat and st <= last:
                        hole[st, s, index] = real_hole[st, s, index]
                    elif probability > 0.0 and next_uniform(state) < probability:
                        hole[st, s, index] = _take(pool, left, state)
    for index in range(n_board, total):
        board[index] = _take(pool, left, state)
    bounty[0] = -1
    bounty[1] = -1
    if deal_flags & DEAL_BOUNTY_RANKS:
        bounty[seat] = real_bounty[seat]
        bounty[other] = int(next_uniform(state) * N_BOUNTY_RANKS)


@njit(cache=True, nogil=True)
def real_deal(arguments, seed, deal, work, real, bucket, weight, chance, skip_seat, max_street):
    """Deal ``deal`` of ``seed`` into the cards ``real`` = (hole, board, bounty) and its deal rows
    (`_draw_cards` then `_evaluate_cards`). ``arguments``: `abstraction.chance.fresh_chance.FreshChance`'s
    kernel arguments (deal flags, flop and turn swap probabilities, max runs, bucket lookup)."""
    deal_flags, flop_swap_probability, turn_swap_probability, max_runs, lookup = arguments
    hole, board, bounty = real
    _draw_cards(
        seed, deal, deal_flags, flop_swap_probability, turn_swap_probability, max_runs, work, hole, board, bounty
    )
    _evaluate_cards(
        deal_flags, max_runs, lookup, hole, board, bounty, work, bucket, weight, chance, skip_seat, max_street
    )


@njit(cache=True, nogil=True)
def redraw_candidate(arguments, real, seat, street, keep_third, state, pool, work, cards, rows, skip_seat, max_street):
    """One candidate deal around seat ``seat``'s view of the cards ``real`` = (hole, board, bounty) on
    ``street``, and its deal rows (`_resample_hidden` then `_evaluate_cards`, with its ``skip_seat`` and
    ``max_street``). ``arguments`` as in `real_deal`; written: ``cards`` = (hole, board, bounty),
    ``rows`` = (bucket, weight, chance), ``state``, and the scratch ``pool``, ``work``."""
    deal_flags, _, _, max_runs, lookup = arguments
    hole, board, bounty = cards
    bucket, weight, chance = rows
    _resample_hidden(arguments, real, seat, street, keep_third, state, pool, hole, board, bounty)
    _evaluate_cards(
        deal_flags, max_runs, lookup, hole, board, bounty, work, bucket, weight, chance, skip_seat, max_street
    )

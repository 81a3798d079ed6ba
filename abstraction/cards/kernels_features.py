"""Numba kernels of the card features, behind `abstraction.cards.features` (users call that module).

Two families:

- **All hands on one board, exact** (2 hole cards). `_board_strengths` scores every live hand on a
  board of >= 3 cards against a uniform opponent: order the live hands by value, then count each
  hand's wins and ties against all non-overlapping hands by inclusion-exclusion over the cards it
  shares (all hands below, minus those holding card a, minus those holding card b), O(n) after
  the sort. Up to five board cards the order comes cheaply (`_sort_by_rank_pairs`): a hand that
  cannot make a flush is worth what its ranks are worth, so only the 91 rank pairs and the
  flush-making hands are evaluated (board key plus ``CARD_KEY``/``CARD_MASK``) and radix-sorted.
  `_runout_strengths` repeats this for every completion of a flop or turn to five cards.
- **One hand, any variant, exact or Monte Carlo** (`_hand_outcomes`): 2 or 3 hole cards, any
  board, future swaps (Swap Hold'em), run cards after a red river (River of Blood), an extra
  hole card drawn (Auction). Each runout's strength against the opponent range is exact
  (all opponent holdings) for 2-card opponents and sampled for 3-card opponents. Past five board
  cards the exact count evaluates once per opponent rank pair plus flush look-ups
  (`_long_board_strength`).

Strength = (wins + ties / 2) / opponent holdings, in [0, 1]. Dead entries are -1.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from game.cards.kernels_evaluator import (
    CARD_KEY,
    CARD_MASK,
    FLUSH_CLASS,
    STRENGTH_KEYS,
    class_from_state,
    class_of_key,
    evaluate_hand,
    nonflush_class,
    strength_key,
)

N_CARDS = 52
N_HANDS = 1326
FINAL_BOARD = 5

HAND_CARDS = np.array([(a, b) for a in range(N_CARDS) for b in range(a + 1, N_CARDS)], dtype=np.int8)
"""``(1326, 2)`` the two cards of each hand index, lower card first (hand order of every table)."""
HAND_FIRST = HAND_CARDS[:, 0].astype(np.int64)
"""``(1326,)`` lower card of each hand, int64 (cheaper indexing in hot loops)."""
HAND_SECOND = HAND_CARDS[:, 1].astype(np.int64)
"""``(1326,)`` higher card of each hand, int64."""
RANK_KEY = CARD_KEY & 0xFFFFFFFF
"""``(52,)`` the rank part (``5**rank``) of each card's evaluator key, without the suit counters."""
N_RANK_PAIRS = 91
RANK_PAIR_FIRST = np.array([r for r in range(13) for q in range(r, 13)], dtype=np.int64)
"""``(91,)`` lower rank of each unordered rank pair (pocket pairs included)."""
RANK_PAIR_SECOND = np.array([q for r in range(13) for q in range(r, 13)], dtype=np.int64)
"""``(91,)`` higher rank of each unordered rank pair."""
RANK_PAIR_HANDS = np.full((N_RANK_PAIRS, 16), -1, dtype=np.int64)
"""``(91, 16)`` the hands (by index) of each rank pair: 16 suit combinations, 6 for a pocket pair."""
RANK_PAIR_SIZE = np.zeros(N_RANK_PAIRS, dtype=np.int64)
for _hand, (_a, _b) in enumerate(HAND_CARDS.tolist()):
    _pair = next(
        i
        for i in range(N_RANK_PAIRS)
        if (RANK_PAIR_FIRST[i], RANK_PAIR_SECOND[i]) == (min(_a >> 2, _b >> 2), max(_a >> 2, _b >> 2))
    )
    RANK_PAIR_HANDS[_pair, RANK_PAIR_SIZE[_pair]] = _hand
    RANK_PAIR_SIZE[_pair] += 1
FLUSH_UNIT = 128
"""Sort-unit code offset of a single flush-making hand (rank-pair units are 0..90)."""
HAND_OF_PAIR = np.full((N_CARDS, N_CARDS), -1, dtype=np.int16)
"""``(52, 52)`` hand index of an unordered card pair (symmetric), -1 on the diagonal."""
for _index, (_a, _b) in enumerate(HAND_CARDS.tolist()):
    HAND_OF_PAIR[_a, _b] = HAND_OF_PAIR[_b, _a] = _index

HAND_BITS = 11
"""Low bits of a packed ``value << HAND_BITS | hand`` sort key that hold the hand index."""
HAND_MASK = (1 << HAND_BITS) - 1

RUNOUT_CHUNKS = 64
"""Runouts of one board are split into this many interleaved chunks for the threads."""

RED_SUITS_MASK = 0b0110
"""Suits diamond (1) and heart (2): a red river or run card deals one more run card."""


@njit(cache=True, nogil=True)
def _choose2(n: int) -> int:
    return n * (n - 1) // 2


@njit(cache=True, nogil=True, inline="always")
def _live_cards(dead: np.int64, deck: np.ndarray) -> int:
    """Write the cards not in the bit set ``dead`` into ``deck`` (int8, modified) in increasing order;
    return their count."""
    n_live = 0
    for card in range(N_CARDS):
        if not (dead >> card) & 1:
            deck[n_live] = card
            n_live += 1
    return n_live


@njit(cache=True, nogil=True)
def _radix_sort(keys: np.ndarray, buffer: np.ndarray, n: int, digit_counts: np.ndarray) -> None:
    """Sort ``keys[:n]`` (``value << HAND_BITS | code``, values < 2**14) by value: two LSD passes
    of 7 bits through ``buffer``. Modified in place: ``keys``, ``buffer``, ``digit_counts`` (int32[129])."""
    for sort_pass in range(2):
        shift = HAND_BITS + 7 * sort_pass
        source = keys if sort_pass == 0 else buffer
        target = buffer if sort_pass == 0 else keys
        for digit in range(129):
            digit_counts[digit] = 0
        for i in range(n):
            digit_counts[((source[i] >> shift) & 127) + 1] += 1
        for digit in range(128):
            digit_counts[digit + 1] += digit_counts[digit]
        for i in range(n):
            digit = (source[i] >> shift) & 127
            target[digit_counts[digit]] = source[i]
            digit_counts[digit] += 1


@njit(cache=True, nogil=True, inline="always")
def _flush_suit(board_key: np.int64) -> tuple[int, int]:
    """``(suit, count)``: the suit of which a board of <= 5 cards (its ``CARD_KEY`` values summed in
    ``board_key``) holds 3 or more cards, and how many; ``(-1, 0)`` when no suit can make a flush."""
    for suit in range(4):
        count = (board_key >> (32 + 4 * suit)) & 15
        if count >= 3:
            return suit, count
    return -1, 0


@njit(cache=True, nogil=True)
def _sort_by_rank_pairs(
    board: np.ndarray,
    board_bits: np.int64,
    board_key: np.int64,
    board_mask: np.int64,
    keys: np.ndarray,
    buffer: np.ndarray,
    digit_counts: np.ndarray,
) -> int:
    """Live hands on a board of <= 5 cards as ``value << HAND_BITS | hand`` in ``keys``, sorted by value.

    A hand that cannot make a flush is worth what its two ranks are worth, so only the 91 rank
    pairs are evaluated (from the rank part of the keys) and sorted, plus each flush-making hand
    on its own; the sorted units are then expanded into their live hands. Returns the number of
    live hands. Modified in place: ``keys``, ``buffer``, ``digit_counts``.
    """
    flush_suit, on_board = _flush_suit(board_key)
    flush_need = 5 - on_board if flush_suit >= 0 else 3
    for rank in range(13):
        digit_counts[rank] = 4
    for i in range(board.shape[0]):
        digit_counts[board[i] >> 2] -= 1
    board_ranks = board_key & 0xFFFFFFFF
    n_units = 0
    for pair in range(N_RANK_PAIRS):
        first = RANK_PAIR_FIRST[pair]
        second = RANK_PAIR_SECOND[pair]
        if digit_counts[first] < 1 or digit_counts[second] < (2 if first == second else 1):
            continue  # no live hand of these ranks
        value = class_from_state(board_ranks + RANK_KEY[4 * first] + RANK_KEY[4 * second], 0)
        keys[n_units] = (np.int64(value) << HAND_BITS) | pair
        n_units += 1
    if flush_suit >= 0:
        for hand in range(N_HANDS):
            a = HAND_FIRST[hand]
            b = HAND_SECOND[hand]
            if (board_bits >> a) & 1 or (board_bits >> b) & 1:
                continue
            if ((a & 3) == flush_suit) + ((b & 3) == flush_suit) >= flush_need:
                value = class_from_state(
                    board_key + CARD_KEY[a] + CARD_KEY[b], board_mask | CARD_MASK[a] | CARD_MASK[b]
                )
                keys[n_units] = (np.int64(value) << HAND_BITS) | (FLUSH_UNIT + hand)
                n_units += 1
    _radix_sort(keys, buffer, n_units, digit_counts)
    n_live = 0
    for unit in range(n_units):
        value_bits = (keys[unit] >> HAND_BITS) << HAND_BITS
        code = keys[unit] & HAND_MASK
        if code >= FLUSH_UNIT:
            buffer[n_live] = value_bits | (code - FLUSH_UNIT)
            n_live += 1
            continue
        for j in range(RANK_PAIR_SIZE[code]):
            hand = RANK_PAIR_HANDS[code, j]
            a = HAND_FIRST[hand]
            b = HAND_SECOND[hand]
            if (board_bits >> a) & 1 or (board_bits >> b) & 1:
                continue
            if flush_suit >= 0 and ((a & 3) == flush_suit) + ((b & 3) == flush_suit) >= flush_need:
                continue
            buffer[n_live] = value_bits | hand
            n_live += 1
    for i in range(n_live):
        keys[i] = buffer[i]
    return n_live


@njit(cache=True, nogil=True)
def _board_strengths(
    board: np.ndarray,
    keys: np.ndarray,
    buffer: np.ndarray,
    digit_counts: np.ndarray,
    lower_count: np.ndarray,
    equal_count: np.ndarray,
    cards: np.ndarray,
    out: np.ndarray,
) -> None:
    """Strength of all 1,326 hands on ``board`` (int8, >= 3 cards) vs a uniform 2-card opponent.

    Scratch (modified): ``keys``/``buffer`` int32[1326] (``value << 11 | hand``), ``digit_counts``
    int32[129], ``lower_count``/``equal_count`` int32[52], ``cards`` int8[len(board) + 2].
    ``out`` float64[1326] receives the strengths, -1 for hands that share a card with the board.
    """
    n_board = board.shape[0]
    board_bits = np.int64(0)
    board_key = np.int64(0)
    board_mask = np.int64(0)
    for i in range(n_board):
        board_bits |= np.int64(1) << board[i]
        board_key += CARD_KEY[board[i]]
        board_mask |= CARD_MASK[board[i]]
        cards[i] = board[i]
    for hand in range(N_HANDS):
        out[hand] = -1.0
    if n_board + 2 <= 7:
        n_live = _sort_by_rank_pairs(board, board_bits, board_key, board_mask, keys, buffer, digit_counts)
    else:
        n_live = 0
        for hand in range(N_HANDS):
            a = HAND_FIRST[hand]
            b = HAND_SECOND[hand]
            if (board_bits >> a) & 1 or (board_bits >> b) & 1:
                continue
            cards[n_board] = a
            cards[n_board + 1] = b
            keys[n_live] = (np.int64(evaluate_hand(cards)) << HAND_BITS) | hand
            n_live += 1
        _radix_sort(keys, buffer, n_live, digit_counts)
    for card in range(N_CARDS):
        lower_count[card] = 0
        equal_count[card] = 0
    scale = 1.0 / _choose2(N_CARDS - n_board - 2)
    lower_total = 0
    start = 0
    while start < n_live:
        value = keys[start] >> HAND_BITS
        stamp = (start + 1) << 16  # equal_count holds (group stamp << 16) + count: no reset pass
        end = start
        # Pass 1 over the group of equal values: wins against the hands below (unchanged within
        # the group) and the group's count per card.
        while end < n_live and keys[end] >> HAND_BITS == value:
            hand = keys[end] & HAND_MASK
            a = HAND_FIRST[hand]
            b = HAND_SECOND[hand]
            out[hand] = lower_total - lower_count[a] - lower_count[b]
            equal_count[a] = (equal_count[a] if equal_count[a] >= stamp else stamp) + 1
            equal_count[b] = (equal_count[b] if equal_count[b] >= stamp else stamp) + 1
            end += 1
        group = end - start
        # Pass 2: add half the ties (group - equal[a] - equal[b] + 1), then count the group as below.
        for i in range(start, end):
            hand = keys[i] & HAND_MASK
            a = HAND_FIRST[hand]
            b = HAND_SECOND[hand]
            ties = group + 1 - (equal_count[a] - stamp) - (equal_count[b] - stamp)
            out[hand] = (out[hand] + 0.5 * ties) * scale
            lower_count[a] += 1
            lower_count[b] += 1
        lower_total += group
        start = end


@njit(cache=True, nogil=True, parallel=True)
def _runout_strengths(board: np.ndarray, runouts: np.ndarray, out: np.ndarray) -> None:
    """Final-board strength of all hands for each runout: ``out[k, hand]`` (float64, -1 = dead).

    ``board`` has 3..5 cards; ``runouts`` (n_runouts, 5 - len(board)) lists the cards completing it.
    Parallel over runouts (when called from a parallel caller, numba runs it serially inside).
    Modified in place: ``out`` of shape (n_runouts, 1326).
    """
    n_board = board.shape[0]
    n_runouts = runouts.shape[0]
    n_chunks = min(n_runouts, RUNOUT_CHUNKS)
    for chunk in prange(n_chunks):
        full = np.empty(n_board + runouts.shape[1], dtype=np.int8)
        for i in range(n_board):
            full[i] = board[i]
        keys = np.empty(N_HANDS, dtype=np.int32)
        buffer = np.empty(N_HANDS, dtype=np.int32)
        digit_counts = np.empty(129, dtype=np.int32)
        lower_count = np.empty(N_CARDS, dtype=np.int32)
        equal_count = np.empty(N_CARDS, dtype=np.int32)
        cards = np.empty(FINAL_BOARD + 2, dtype=np.int8)
        for k in range(chunk, n_runouts, n_chunks):
            for j in range(runouts.shape[1]):
                full[n_board + j] = runouts[k, j]
            _board_strengths(full, keys, buffer, digit_counts, lower_count, equal_count, cards, out[k])


@njit(cache=True, nogil=True)
def _summarize_runouts(
    strengths: np.ndarray, n_bins: int, ehs: np.ndarray, ehs2: np.ndarray, histogram: np.ndarray
) -> None:
    """Per hand: mean strength (E[HS]), mean squared strength (E[HS²]) and a histogram over
    ``n_bins`` equal-width strength bins (fractions summing to 1), over the runouts where the hand
    is live. Dead hands get -1 and a zero histogram. Modified in place: ``ehs``, ``ehs2`` (1326,),
    ``histogram`` (1326, n_bins).
    """
    live = np.zeros(N_HANDS, dtype=np.int64)
    for hand in range(N_HANDS):
        ehs[hand] = 0.0
        ehs2[hand] = 0.0
        for b in range(n_bins):
            histogram[hand, b] = 0.0
    for k in range(strengths.shape[0]):  # runout-major: the rows of `strengths` are read in order
        row = strengths[k]
        for hand in range(N_HANDS):
            value = row[hand]
            if value < 0:
                continue
            ehs[hand] += value
            ehs2[hand] += value * value
            live[hand] += 1
            histogram[hand, min(int(value * n_bins), n_bins - 1)] += 1.0
    for hand in range(N_HANDS):
        if live[hand] == 0:
            ehs[hand] = -1.0
            ehs2[hand] = -1.0
            continue
        ehs[hand] /= live[hand]
        ehs2[hand] /= live[hand]
        for b in range(n_bins):
            histogram[hand, b] /= live[hand]


@njit(cache=True, nogil=True, parallel=True)
def _boards_features(
    boards: np.ndarray, runouts: np.ndarray, n_bins: int, ehs: np.ndarray, ehs2: np.ndarray, histogram: np.ndarray
) -> None:
    """`_summarize_runouts` for many boards of one size, in parallel over boards.

    ``boards`` (n_boards, n_board); ``runouts`` (n_runouts, 5 - n_board) are completions as
    *positions* into each board's sorted remaining deck. Modified in place: ``ehs``/``ehs2``
    (n_boards, 1326), ``histogram`` (n_boards, 1326, n_bins).
    """
    n_board = boards.shape[1]
    for index in prange(boards.shape[0]):
        board = boards[index]
        dead = np.int64(0)
        for i in range(n_board):
            dead |= np.int64(1) << board[i]
        deck = np.empty(N_CARDS - n_board, dtype=np.int8)
        _live_cards(dead, deck)
        cards = np.empty(runouts.shape, dtype=np.int8)
        for k in range(runouts.shape[0]):
            for j in range(runouts.shape[1]):
                cards[k, j] = deck[runouts[k, j]]
        strengths = np.empty((runouts.shape[0], N_HANDS), dtype=np.float64)
        _runout_strengths(board, cards, strengths)
        _summarize_runouts(strengths, n_bins, ehs[index], ehs2[index], histogram[index])


@njit(cache=True, nogil=True, inline="always")
def _toggle_cards(cards: np.ndarray, step: int, counts: np.ndarray, suit_masks: np.ndarray) -> None:
    """Add (``step`` 1) or remove (-1) distinct ``cards`` in rank counts int64[13] and 13-bit
    suit masks int64[4] (both modified in place; removed cards must be present)."""
    for i in range(cards.shape[0]):
        card = np.int64(cards[i])  # widen int8 cards so shifts cannot overflow
        counts[card >> 2] += step
        suit_masks[card & 3] ^= np.int64(1) << (card >> 2)


@njit(cache=True, nogil=True)
def _long_board_strength(hole: np.ndarray, board: np.ndarray, dead: np.int64) -> float:
    """Exact strength of ``hole`` (2 or 3 cards) on ``board`` (> 5 cards) vs every two-card
    opponent holding outside ``dead`` (bit set of hole, board and any card known gone): the exact
    path of `_strength_vs_range` past the evaluator's seven-card hash (River of Blood run boards).

    A hand's strength key is the larger of its best flush and its best hand from rank counts alone
    (straight flushes beat quads, quads and full houses beat flushes, flushes beat the rest), and
    class order follows key order. So an opponent holding's class is the larger of the class of the
    board plus its two ranks under the board's suit masks, a function of the rank pair evaluated
    once (at most 91 `strength_key` calls), and ``FLUSH_CLASS`` (0 below five cards) of each
    suit it holds: the board's mask of that suit plus its card(s) there. Equal to evaluating every
    holding with `game.cards.kernels_evaluator.evaluate_hand` (about 15 µs a call against 110 on any run board). Rank
    counts and suit masks are updated in place; arrays are allocated once per call, none per holding.
    """
    counts = np.zeros(13, dtype=np.int64)
    suit_masks = np.zeros(4, dtype=np.int64)
    _toggle_cards(board, 1, counts, suit_masks)
    _toggle_cards(hole, 1, counts, suit_masks)
    own = class_of_key(STRENGTH_KEYS, strength_key(counts, suit_masks))
    _toggle_cards(hole, -1, counts, suit_masks)
    rank_pair_class = np.zeros(13 * 13, dtype=np.int64)  # [lower rank * 13 + higher rank], 0 = not yet evaluated
    deck = np.empty(N_CARDS, dtype=np.int8)
    n_deck = _live_cards(dead, deck)
    wins = 0
    ties = 0
    for i in range(n_deck):
        first = np.int64(deck[i])
        first_rank = first >> 2
        first_suit = first & 3
        first_bit = np.int64(1) << first_rank
        first_flush = np.int64(FLUSH_CLASS[suit_masks[first_suit] | first_bit])
        for j in range(i + 1, n_deck):
            second = np.int64(deck[j])  # the deck is increasing: second_rank >= first_rank
            second_rank = second >> 2
            second_suit = second & 3
            second_bit = np.int64(1) << second_rank
            if second_suit == first_suit:
                flush = np.int64(FLUSH_CLASS[suit_masks[first_suit] | first_bit | second_bit])
            else:
                flush = max(first_flush, np.int64(FLUSH_CLASS[suit_masks[second_suit] | second_bit]))
            slot = first_rank * 13 + second_rank
            if rank_pair_class[slot] == 0:
                counts[first_rank] += 1
                counts[second_rank] += 1
                rank_pair_class[slot] = class_of_key(STRENGTH_KEYS, strength_key(counts, suit_masks))
                counts[first_rank] -= 1
                counts[second_rank] -= 1
            other = max(rank_pair_class[slot], flush)
            if own > other:
                wins += 1
            elif own == other:
                ties += 1
    return (wins + 0.5 * ties) / _choose2(n_deck)


@njit(cache=True, nogil=True)
def _strength_vs_range(
    hole: np.ndarray, board: np.ndarray, dead: np.int64, opponent_cards: int, n_opponent_samples: int, cards: np.ndarray
) -> float:
    """Strength of ``hole`` on ``board`` vs a uniform opponent holding ``opponent_cards`` cards.

    Cards in ``dead`` (bit set of hole, board and any card known gone) are excluded. Exact over
    all opponent pairs when ``opponent_cards == 2`` and ``n_opponent_samples == 0`` (boards of
    more than five cards through `_long_board_strength`), otherwise ``n_opponent_samples``
    uniform draws (numba's ``np.random`` state, seeded by the caller).
    ``cards`` is int8 scratch of length >= len(board) + max(len(hole), opponent_cards).
    """
    n_board = board.shape[0]
    exact = opponent_cards == 2 and n_opponent_samples == 0
    if exact and n_board > FINAL_BOARD:
        return _long_board_strength(hole, board, dead)
    for i in range(n_board):
        cards[i] = board[i]
    for i in range(hole.shape[0]):
        cards[n_board + i] = hole[i]
    own = evaluate_hand(cards[: n_board + hole.shape[0]])
    deck = np.empty(N_CARDS, dtype=np.int8)
    n_deck = _live_cards(dead, deck)
    score = 0.0
    count = 0
    if exact:
        # The board's summed key plus each opponent pair's cards (<= 7 cards: the evaluator's hash).
        board_key = np.int64(0)
        board_mask = np.int64(0)
        for i in range(n_board):
            board_key += CARD_KEY[board[i]]
            board_mask |= CARD_MASK[board[i]]
        for i in range(n_deck):
            first_key = board_key + CARD_KEY[deck[i]]
            first_mask = board_mask | CARD_MASK[deck[i]]
            for j in range(i + 1, n_deck):
                other = class_from_state(first_key + CARD_KEY[deck[j]], first_mask | CARD_MASK[deck[j]])
                score += 1.0 if own > other else (0.5 if own == other else 0.0)
                count += 1
        return score / count
    for _ in range(n_opponent_samples):
        # Partial Fisher-Yates on the live deck.
        for i in range(opponent_cards):
            j = i + np.random.randint(n_deck - i)
            swap = deck[i]
            deck[i] = deck[j]
            deck[j] = swap
            cards[n_board + i] = deck[i]
        other = evaluate_hand(cards[: n_board + opponent_cards])
        score += 1.0 if own > other else (0.5 if own == other else 0.0)
        count += 1
    return score / count


SUIT_BITS = np.int64(0x1111111111111)
"""Bits of suit 0 in a 52-card bit set (card = 4 rank + suit): shift left by the suit for the others."""


@njit(cache=True, nogil=True, inline="always")
def _popcount(bits: np.int64) -> np.int64:
    """Set bits of a non-negative int64 (SWAR)."""
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((bits * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, nogil=True, inline="always")
def _rank_pair_count(live: np.int64, first: np.int64, second: np.int64) -> np.int64:
    """Holdings of ranks ``first <= second`` among the cards of the bit set ``live``."""
    n_first = _popcount((live >> (4 * first)) & 15)
    if first == second:
        return n_first * (n_first - 1) // 2
    return n_first * _popcount((live >> (4 * second)) & 15)


@njit(cache=True, nogil=True, inline="always")
def _half_points(value: np.int64, own: np.int64) -> np.int64:
    """Half points of a hand of class ``own`` against a holding of class ``value`` (lower wins): 2 win,
    1 tie, 0 loss."""
    return 2 if value < own else (1 if value == own else 0)


@njit(cache=True, nogil=True)
def _river_strengths(board: np.ndarray, hole_0: np.ndarray, hole_1: np.ndarray) -> tuple[float, float]:
    """`_strength_vs_range` of two two-card hands on one five-card board, exact, in one pass.

    Each hand's strength is against every two-card holding outside its own cards and the board
    (990 holdings), the same float as ``_strength_vs_range(hole, board, hole | board, 2, 0, .)``,
    at about a tenth of the evaluator work for both: both hands face the same board, and on it a
    holding that makes no flush is worth what its two ranks are worth. So the at most 91 rank pairs
    are evaluated once (rank part of the keys, shared by both hands) and each hand counts the
    holdings of each rank pair from its live cards' rank counts (bit sets, no arrays). Holdings
    that make a flush (in the one suit with >= 3 board cards) are taken out of their rank pair and
    valued from the suit mask alone: with seven cards a flush beats every other hand they can
    make, so a flush-making holding is worth ``FLUSH_CLASS`` of the suit's ranks it completes.
    """
    board_bits = np.int64(0)
    board_key = np.int64(0)
    board_mask = np.int64(0)
    for i in range(board.shape[0]):
        board_bits |= np.int64(1) << board[i]
        board_key += CARD_KEY[board[i]]
        board_mask |= CARD_MASK[board[i]]
    full = (np.int64(1) << N_CARDS) - 1
    bits_0 = (np.int64(1) << hole_0[0]) | (np.int64(1) << hole_0[1])
    bits_1 = (np.int64(1) << hole_1[0]) | (np.int64(1) << hole_1[1])
    key_0 = board_key + CARD_KEY[hole_0[0]] + CARD_KEY[hole_0[1]]
    key_1 = board_key + CARD_KEY[hole_1[0]] + CARD_KEY[hole_1[1]]
    own_0 = class_from_state(key_0, board_mask | CARD_MASK[hole_0[0]] | CARD_MASK[hole_0[1]])
    own_1 = class_from_state(key_1, board_mask | CARD_MASK[hole_1[0]] | CARD_MASK[hole_1[1]])
    live_0 = full & ~(board_bits | bits_0)
    live_1 = full & ~(board_bits | bits_1)
    flush_suit, on_board = _flush_suit(board_key)
    suit_bits = SUIT_BITS << flush_suit if flush_suit >= 0 else np.int64(0)
    suit_mask = (board_mask >> (16 * flush_suit)) & 0x1FFF if flush_suit >= 0 else np.int64(0)
    points_0 = np.int64(0)  # 2 per holding beaten, 1 per tie (`_half_points`)
    points_1 = np.int64(0)
    # Holdings valued by their ranks: all but the flush-making ones (none with 5 suited board cards).
    if on_board <= 4:
        # With four suited board cards every holding with a suited card makes a flush: count the others.
        pair_live_0 = live_0 & ~suit_bits if on_board == 4 else live_0
        pair_live_1 = live_1 & ~suit_bits if on_board == 4 else live_1
        board_ranks = board_key & 0xFFFFFFFF
        for first in range(13):
            for second in range(first, 13):
                count_0 = _rank_pair_count(pair_live_0, first, second)
                count_1 = _rank_pair_count(pair_live_1, first, second)
                if on_board == 3 and first != second:  # the suited holding of these ranks makes a flush
                    suited = (np.int64(1) << (4 * first + flush_suit)) | (np.int64(1) << (4 * second + flush_suit))
                    if live_0 & suited == suited:
                        count_0 -= 1
                    if live_1 & suited == suited:
                        count_1 -= 1
                if count_0 == 0 and count_1 == 0:
                    continue
                value = nonflush_class(board_ranks + RANK_KEY[4 * first] + RANK_KEY[4 * second])
                points_0 += count_0 * _half_points(value, own_0)
                points_1 += count_1 * _half_points(value, own_1)
    if flush_suit >= 0:
        # Flush-making holdings: two suited cards (any of them once three are on the board), one
        # suited card and any other (four on the board), no suited card (five on the board).
        others_0 = _popcount(live_0 & ~suit_bits)
        others_1 = _popcount(live_1 & ~suit_bits)
        if on_board == 5:
            value = np.int64(FLUSH_CLASS[suit_mask])
            count_0 = others_0 * (others_0 - 1) // 2
            count_1 = others_1 * (others_1 - 1) // 2
            points_0 += count_0 * _half_points(value, own_0)
            points_1 += count_1 * _half_points(value, own_1)
        for first in range(13):
            first_bit = np.int64(1) << (4 * first + flush_suit)
            first_0 = (live_0 & first_bit) != 0
            first_1 = (live_1 & first_bit) != 0
            if not first_0 and not first_1:
                continue
            if on_board >= 4:
                value = np.int64(FLUSH_CLASS[suit_mask | (1 << first)])
                count_0 = others_0 if first_0 else 0
                count_1 = others_1 if first_1 else 0
                points_0 += count_0 * _half_points(value, own_0)
                points_1 += count_1 * _half_points(value, own_1)
            for second in range(first + 1, 13):
                second_bit = np.int64(1) << (4 * second + flush_suit)
                in_0 = first_0 and (live_0 & second_bit) != 0
                in_1 = first_1 and (live_1 & second_bit) != 0
                if not in_0 and not in_1:
                    continue
                value = np.int64(FLUSH_CLASS[suit_mask | (1 << first) | (1 << second)])
                if in_0:
                    points_0 += _half_points(value, own_0)
                if in_1:
                    points_1 += _half_points(value, own_1)
    holdings_0 = _choose2(_popcount(live_0))
    holdings_1 = _choose2(_popcount(live_1))
    return 0.5 * points_0 / holdings_0, 0.5 * points_1 / holdings_1


@njit(cache=True, nogil=True)
def _draw_card(deck: np.ndarray, n_deck: int) -> tuple[int, int]:
    """Remove a uniform card from ``deck[:n_deck]`` (modified in place); returns (card, n_deck - 1)."""
    j = np.random.randint(n_deck)
    card = deck[j]
    deck[j] = deck[n_deck - 1]
    deck[n_deck - 1] = card
    return card, n_deck - 1


@njit(cache=True, nogil=True)
def _hand_outcomes(
    hole: np.ndarray,
    board: np.ndarray,
    extra_hole_cards: int,
    swap_flop: float,
    swap_turn: float,
    run_cards: bool,
    opponent_cards: int,
    n_samples: int,
    n_opponent_samples: int,
    seed: int,
    out: np.ndarray,
) -> int:
    """Final strengths of one hand over its future, written to ``out`` (float64, modified in place).

    ``n_samples == 0`` enumerates every completion of ``board`` to five cards (plain Hold'em
    future only: no swaps, extra hole cards or run cards) and returns their number; otherwise
    draws ``n_samples`` futures: the extra hole cards (Auction's third card), the board up to five
    cards, each hole card swapped with probability ``swap_flop`` after the flop and ``swap_turn``
    after the turn if those are still to come (the replaced card leaves play), and while
    ``run_cards`` and the last card is red, one more run card (River of Blood). Returns the count.
    """
    np.random.seed(seed)
    n_hole = hole.shape[0]
    n_board = board.shape[0]
    max_board = n_board + FINAL_BOARD + 64
    final_hole = np.empty(n_hole + extra_hole_cards, dtype=np.int8)
    final_board = np.empty(max_board, dtype=np.int8)
    cards = np.empty(max_board + 3, dtype=np.int8)
    base_dead = np.int64(0)
    for i in range(n_hole):
        base_dead |= np.int64(1) << hole[i]
    for i in range(n_board):
        base_dead |= np.int64(1) << board[i]
        final_board[i] = board[i]
    deck = np.empty(N_CARDS, dtype=np.int8)
    n_base = _live_cards(base_dead, deck)
    missing = max(FINAL_BOARD - n_board, 0)
    if n_samples == 0:
        positions = np.arange(missing)
        count = 0
        while True:
            dead = base_dead
            for j in range(missing):
                final_board[n_board + j] = deck[positions[j]]
                dead |= np.int64(1) << deck[positions[j]]
            out[count] = _strength_vs_range(hole, final_board[: n_board + missing], dead, 2, 0, cards)
            count += 1
            # Next combination of `missing` positions out of n_base, lexicographic.
            j = missing - 1
            while j >= 0 and positions[j] == n_base - missing + j:
                j -= 1
            if j < 0:
                return count
            positions[j] += 1
            for k in range(j + 1, missing):
                positions[k] = positions[k - 1] + 1
    for sample in range(n_samples):
        n_deck = n_base
        for i in range(n_hole):
            final_hole[i] = hole[i]
        dead = base_dead
        for i in range(extra_hole_cards):
            card, n_deck = _draw_card(deck, n_deck)
            final_hole[n_hole + i] = card
            dead |= np.int64(1) << card
        size = n_board
        while size < FINAL_BOARD or (run_cards and (RED_SUITS_MASK >> (final_board[size - 1] & 3)) & 1):
            card, n_deck = _draw_card(deck, n_deck)
            final_board[size] = card
            dead |= np.int64(1) << card
            size += 1
            if size == 3 or size == 4:
                probability = swap_flop if size == 3 else swap_turn
                for i in range(n_hole + extra_hole_cards):
                    if probability > 0.0 and np.random.random() < probability:
                        card, n_deck = _draw_card(deck, n_deck)
                        final_hole[i] = card
                        dead |= np.int64(1) << card
        out[sample] = _strength_vs_range(
            final_hole, final_board[:size], dead, opponent_cards, n_opponent_samples, cards
        )
    return n_samples

"""Numba kernels that build and look up card buckets, behind `abstraction.cards.buckets`.

Build pass, one flop at a time (parallel over flops): score all hands on each of the 1,176
turn/river runouts (`_flop_strength_table`); then for every hand and turn card gather the 46
river strengths into the turn feature, give the turn class (suit-isomorphic index) its bucket if
it has none yet, and collect the hand's 47 turn buckets into its flop feature (potential-aware:
the flop feature is the distribution over next-street clusters, each placed at its cluster's
equity). Lookup (`card_bucket`): isomorphic index then table, or on the river and longer boards the
hand strength then the nearest 1-D centroid. `hand_bucket` is the one lookup the deal samplers
and the bot use: `card_bucket`, a fallback for classes a partial build never reached, and Bounty's
hit bit.

**Swap futures** (``swap_turn > 0``): a flop hand (the cards held once the flop swap is done)
faces the turn swap: after the turn each hole card is independently replaced with probability
``q`` by a card uniform over the unseen ones, then the river comes. Its flop feature is then
taken over that future: `_swap_flop_moments` (E[HS], E[HS²] exact over every turn, swap outcome,
replacement and river) and `_swap_flop_atoms` (EMD: the distribution of the *post-swap* turn
hand's turn bucket, as 47 quantiles). Both reduce the 47 x (1 + 2 x 46 + 1,035) x 44..46 futures
of a hand to O(47) (moments) or O(turn buckets) (atoms) work per hand by inclusion-exclusion
over per-turn and per-card sums of the flop's strength table. A final hand's strength is its
plain strength on the final board (against every holding not touching hand and board): a
replaced card, though known to be dead, is not removed from the opponent's range, as the river
lookup does not remove it either; the opponent's own swaps leave its final hand uniform over the
unseen cards, so the uniform range stands. Turn and river hands face no more swaps: their
features and tables are the plain ones.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from abstraction.cards.kernels_clustering import _nearest
from abstraction.cards.kernels_features import (
    HAND_CARDS,
    HAND_OF_PAIR,
    N_CARDS,
    N_HANDS,
    _live_cards,
    _river_strengths,
    _runout_strengths,
    _strength_vs_range,
)
from abstraction.cards.kernels_isomorphism import _hand_index

METHOD_EHS = 0
METHOD_EHS2 = 1
METHOD_EMD = 2
UNSET = 65535
"""Table entry of a class with no bucket yet (bucket tables are uint16)."""
N_RIVERS = 46
"""River cards left once hole cards, flop and turn are known."""
N_TURNS = 47
"""Turn cards left once hole cards and flop are known."""


@njit(cache=True, nogil=True)
def _flop_strength_table(
    flop: np.ndarray, pair_positions: np.ndarray, strengths: np.ndarray, row_of_pair: np.ndarray
) -> None:
    """Final strengths of all hands on every turn/river runout of ``flop``, hand-major.

    Modified in place: ``strengths`` float64 (1326, 1176) (``[hand, runout]``, -1 = dead) and
    ``row_of_pair`` int16 (52, 52) giving the runout of a (turn, river) pair in either order.
    """
    dead = np.int64(0)
    for i in range(3):
        dead |= np.int64(1) << flop[i]
    deck = np.empty(N_CARDS - 3, dtype=np.int8)
    _live_cards(dead, deck)
    runouts = np.empty((pair_positions.shape[0], 2), dtype=np.int8)
    for k in range(pair_positions.shape[0]):
        first = deck[pair_positions[k, 0]]
        second = deck[pair_positions[k, 1]]
        runouts[k, 0] = first
        runouts[k, 1] = second
        row_of_pair[first, second] = k
        row_of_pair[second, first] = k
    by_runout = np.empty((pair_positions.shape[0], N_HANDS))
    _runout_strengths(flop, runouts, by_runout)
    for k in range(by_runout.shape[0]):
        for hand in range(N_HANDS):
            strengths[hand, k] = by_runout[k, hand]


@njit(cache=True, nogil=True, inline="always")
def _strengths_after_turn(
    hand_strengths: np.ndarray, row_of_pair: np.ndarray, dead: np.int64, turn: int, atoms: np.ndarray
) -> tuple[float, float]:
    """Final strengths of one hand on the 46 rivers after ``turn``; returns their sum and sum of squares.

    Arguments as in `_turn_feature`. Modified in place: ``atoms`` float64[46], the strengths in river card order.
    """
    count = 0
    total = 0.0
    total_squares = 0.0
    for river in range(N_CARDS):
        if river == turn or (dead >> river) & 1:
            continue
        value = hand_strengths[row_of_pair[turn, river]]
        atoms[count] = value
        total += value
        total_squares += value * value
        count += 1
    return total, total_squares


@njit(cache=True, nogil=True)
def _turn_feature(
    hand_strengths: np.ndarray,
    row_of_pair: np.ndarray,
    dead: np.int64,
    turn: int,
    method: int,
    atoms: np.ndarray,
    feature: np.ndarray,
) -> float:
    """Feature of one hand after ``turn`` from its 46 river strengths; returns its key (E[HS]).

    ``hand_strengths`` is the hand's row of `_flop_strength_table`; ``dead`` the bits of hole and
    flop cards. Modified in place: ``atoms`` float64[46] scratch, ``feature`` (1 value for EHS,
    E[HS] and E[HS²] for EHS2, the 46 sorted strengths for EMD).
    """
    total, total_squares = _strengths_after_turn(hand_strengths, row_of_pair, dead, turn, atoms)
    mean = total / N_RIVERS
    if method == METHOD_EMD:
        atoms.sort()
        for i in range(N_RIVERS):
            feature[i] = atoms[i]
    else:
        feature[0] = mean
        if method == METHOD_EHS2:
            feature[1] = total_squares / N_RIVERS
    return mean


N_PAIRS_LEFT = 1035
"""Unordered pairs of the 46 unseen cards left after the turn: a hand whose both cards are replaced."""


@njit(cache=True, nogil=True)
def _swap_flop_moments(
    flop_bits: np.int64,
    strengths: np.ndarray,
    row_of_pair: np.ndarray,
    swap_turn: float,
    ehs: np.ndarray,
    ehs2: np.ndarray,
) -> None:
    """E[HS] and E[HS²] of every hand on a flop under the turn swap, exact (module docstring).

    ``strengths``/``row_of_pair`` come from `_flop_strength_table`; ``flop_bits`` are the flop's
    card bits. Hand (a, b), turn t, q = ``swap_turn``, U = the 47 unseen cards, T(h, t) = sum of
    h's final strengths over the rivers of turn t, C_t(x) = sum of T over the hands holding card
    x on flop + t, A_t = sum of T over all hands on flop + t, and R_k, R_k(x) the same sums of
    final strengths on runout k. The futures, for each t in U:

    - no swap, (1 - q)²: hand (a, b), the 46 rivers: T((a, b), t);
    - a replaced by c, q(1 - q): c in U - t, river in U - {t, c}: C_t(b) - T((a, b), t) - R_(t,a)(b),
      over 46 x 45 futures (the river cannot be a, which is dead: the runout (t, a) is taken out);
      b replaced alike;
    - both replaced, q²: a pair of U - t, river in U - t - pair:
      A_t - C_t(a) - C_t(b) + T((a, b), t) - (R_(t,a) - R_(t,a)(b)) - (R_(t,b) - R_(t,b)(a)),
      over 1,035 x 44 futures.

    Squares alike. Modified in place: ``ehs``, ``ehs2`` float64 (1326,), -1 for hands touching the flop.
    """
    n_runouts = strengths.shape[1]
    turn_sums = np.zeros((N_HANDS, N_CARDS))
    turn_squares = np.zeros((N_HANDS, N_CARDS))
    card_turn = np.zeros((N_CARDS, N_CARDS))  # [turn, card]
    card_turn_squares = np.zeros((N_CARDS, N_CARDS))
    all_turn = np.zeros(N_CARDS)
    all_turn_squares = np.zeros(N_CARDS)
    card_runout = np.zeros((N_CARDS, n_runouts))  # [card, runout]
    card_runout_squares = np.zeros((N_CARDS, n_runouts))
    all_runout = np.zeros(n_runouts)
    all_runout_squares = np.zeros(n_runouts)
    river_atoms = np.empty(N_RIVERS)
    for hand in range(N_HANDS):
        a = HAND_CARDS[hand, 0]
        b = HAND_CARDS[hand, 1]
        if (flop_bits >> a) & 1 or (flop_bits >> b) & 1:
            continue
        row = strengths[hand]
        for k in range(n_runouts):
            value = row[k]
            if value < 0.0:
                continue  # the runout holds a or b
            square = value * value
            all_runout[k] += value
            all_runout_squares[k] += square
            card_runout[a, k] += value
            card_runout[b, k] += value
            card_runout_squares[a, k] += square
            card_runout_squares[b, k] += square
        dead = flop_bits | (np.int64(1) << a) | (np.int64(1) << b)
        for turn in range(N_CARDS):
            if (dead >> turn) & 1:
                continue
            total, total_squares = _strengths_after_turn(row, row_of_pair, dead, turn, river_atoms)
            turn_sums[hand, turn] = total
            turn_squares[hand, turn] = total_squares
            card_turn[turn, a] += total
            card_turn[turn, b] += total
            card_turn_squares[turn, a] += total_squares
            card_turn_squares[turn, b] += total_squares
            all_turn[turn] += total
            all_turn_squares[turn] += total_squares
    keep = (1.0 - swap_turn) * (1.0 - swap_turn) / (N_TURNS * N_RIVERS)
    one = swap_turn * (1.0 - swap_turn) / (N_TURNS * N_RIVERS * (N_RIVERS - 1))
    both = swap_turn * swap_turn / (N_TURNS * N_PAIRS_LEFT * (N_RIVERS - 2))
    for hand in range(N_HANDS):
        a = HAND_CARDS[hand, 0]
        b = HAND_CARDS[hand, 1]
        if (flop_bits >> a) & 1 or (flop_bits >> b) & 1:
            ehs[hand] = -1.0
            ehs2[hand] = -1.0
            continue
        dead = flop_bits | (np.int64(1) << a) | (np.int64(1) << b)
        kept = 0.0
        single = 0.0
        double = 0.0
        kept_squares = 0.0
        single_squares = 0.0
        double_squares = 0.0
        for turn in range(N_CARDS):
            if (dead >> turn) & 1:
                continue
            with_a = row_of_pair[turn, a]  # runout (turn, river a): a is dead once replaced
            with_b = row_of_pair[turn, b]
            own = turn_sums[hand, turn]
            kept += own
            single += (
                card_turn[turn, b] - own - card_runout[b, with_a] + card_turn[turn, a] - own - card_runout[a, with_b]
            )
            double += (
                all_turn[turn] - card_turn[turn, a] - card_turn[turn, b] + own
                - (all_runout[with_a] - card_runout[b, with_a]) - (all_runout[with_b] - card_runout[a, with_b])
            )  # fmt: skip
            own = turn_squares[hand, turn]
            kept_squares += own
            single_squares += (
                card_turn_squares[turn, b] - own - card_runout_squares[b, with_a]
                + card_turn_squares[turn, a] - own - card_runout_squares[a, with_b]
            )  # fmt: skip
            double_squares += (
                all_turn_squares[turn] - card_turn_squares[turn, a] - card_turn_squares[turn, b] + own
                - (all_runout_squares[with_a] - card_runout_squares[b, with_a])
                - (all_runout_squares[with_b] - card_runout_squares[a, with_b])
            )  # fmt: skip
        ehs[hand] = keep * kept + one * single + both * double
        ehs2[hand] = keep * kept_squares + one * single_squares + both * double_squares


@njit(cache=True, nogil=True)
def _swap_flop_atoms(
    flop_bits: np.int64, labels: np.ndarray, label_keys: np.ndarray, swap_turn: float, atoms: np.ndarray
) -> None:
    """Potential-aware flop feature of every hand on a flop under the turn swap (module docstring).

    The next-street state of hand (a, b) is the hand held after the turn swap on flop + turn: (a, b)
    with chance (1 - q)², (c, b) or (a, c) for c uniform over the 46 unseen cards with chance
    q(1 - q) each, a uniform pair of them with chance q². Each state counts with its turn bucket's
    equity ``label_keys[label]``; the feature is that distribution's quantiles at the 47 midpoint
    levels (i + 1/2) / 47, so with q = 0 it is the plain feature (the 47 turn-bucket equities
    sorted) and the EMD between two features stays the mean absolute difference of their atoms.
    Counts per bucket come by inclusion-exclusion from per-turn and per-card bucket counts, so a
    hand costs O(turn buckets).

    ``labels`` int32 (1326, 52): the turn bucket of each hand on flop + turn, -1 where the hand is
    dead or the turn is on the flop (every hand and turn off the flop must be set). Modified in
    place: ``atoms`` float64 (1326, 47), -1 for hands touching the flop.
    """
    n_labels = label_keys.shape[0]
    order = np.argsort(label_keys)
    turn_count = np.zeros((N_CARDS, n_labels), dtype=np.int64)  # hands per bucket on flop + turn
    card_count = np.zeros((N_CARDS, n_labels), dtype=np.int64)  # over all turns, the hands holding a card
    all_count = np.zeros(n_labels, dtype=np.int64)
    for hand in range(N_HANDS):
        a = HAND_CARDS[hand, 0]
        b = HAND_CARDS[hand, 1]
        if (flop_bits >> a) & 1 or (flop_bits >> b) & 1:
            continue
        for turn in range(N_CARDS):
            label = labels[hand, turn]
            if label < 0:
                continue
            turn_count[turn, label] += 1
            card_count[a, label] += 1
            card_count[b, label] += 1
            all_count[label] += 1
    keep = (1.0 - swap_turn) * (1.0 - swap_turn) / N_TURNS
    one = swap_turn * (1.0 - swap_turn) / (N_TURNS * N_RIVERS)
    both = swap_turn * swap_turn / (N_TURNS * N_PAIRS_LEFT)
    kept = np.zeros(n_labels, dtype=np.int64)
    single = np.zeros(n_labels, dtype=np.int64)
    double = np.zeros(n_labels, dtype=np.int64)
    for hand in range(N_HANDS):
        a = HAND_CARDS[hand, 0]
        b = HAND_CARDS[hand, 1]
        if (flop_bits >> a) & 1 or (flop_bits >> b) & 1:
            for i in range(N_TURNS):
                atoms[hand, i] = -1.0
            continue
        dead = flop_bits | (np.int64(1) << a) | (np.int64(1) << b)
        for label in range(n_labels):
            kept[label] = 0
        for turn in range(N_CARDS):
            if not (dead >> turn) & 1:
                kept[labels[hand, turn]] += 1
        # Turns in U = all turns but a and b. Single swaps: hands holding b (a replaced) on each
        # turn but (a, b) itself; both: hands holding neither a nor b.
        for label in range(n_labels):
            in_u = all_count[label] - turn_count[a, label] - turn_count[b, label]
            single[label] = card_count[a, label] + card_count[b, label] - 2 * kept[label]
            double[label] = in_u - card_count[a, label] - card_count[b, label] + kept[label]
        for other in range(N_CARDS):
            if (dead >> other) & 1:
                continue
            # Turn a (not in U): the hands (b, other) counted in card_count[b]; turn b: (a, other).
            label = labels[HAND_OF_PAIR[b, other], a]
            single[label] -= 1
            double[label] += 1
            label = labels[HAND_OF_PAIR[a, other], b]
            single[label] -= 1
            double[label] += 1
        cumulative = 0.0
        level = 0
        last = 0.0
        for position in range(n_labels):
            label = order[position]
            mass = keep * kept[label] + one * single[label] + both * double[label]
            if mass <= 0.0:
                continue
            cumulative += mass
            last = label_keys[label]
            while level < N_TURNS and cumulative >= (level + 0.5) / N_TURNS:
                atoms[hand, level] = last
                level += 1
        while level < N_TURNS:  # rounding left the top levels uncovered
            atoms[hand, level] = last
            level += 1


@njit(cache=True, nogil=True, parallel=True)
def _flop_pass(
    flops: np.ndarray,
    pair_positions: np.ndarray,
    method: int,
    cards_per_round: np.ndarray,
    flop_keys: np.ndarray,
    flop_offsets: np.ndarray,
    turn_keys: np.ndarray,
    turn_offsets: np.ndarray,
    turn_centroids: np.ndarray,
    turn_centroid_keys: np.ndarray,
    turn_table: np.ndarray,
    flop_features: np.ndarray,
    progress: np.ndarray,
    swap_turn: float = 0.0,
) -> None:
    """Fill ``turn_table`` (uint16 per turn class, `UNSET` before) with nearest turn centroids and
    ``flop_features`` (float32 per flop class) with each hand's flop feature, for all ``flops``.

    Flop features: EMD, the 47 turn-bucket equities sorted (potential-aware); EHS/EHS2, E[HS]
    (and E[HS²]) over all runouts. With ``swap_turn > 0`` (Swap Hold'em) the flop features are
    taken over the turn swap too (`_swap_flop_moments`, `_swap_flop_atoms`); turn buckets are
    unchanged. ``progress[flop]`` is set to 1 when a flop is done.
    Modified in place: ``turn_table``, ``flop_features``, ``progress``.
    """
    use_l1 = method == METHOD_EMD
    order = np.argsort(turn_centroid_keys)
    sorted_keys = turn_centroid_keys[order]
    for flop_number in prange(flops.shape[0]):
        flop = flops[flop_number]
        strengths = np.empty((N_HANDS, pair_positions.shape[0]))
        row_of_pair = np.zeros((N_CARDS, N_CARDS), dtype=np.int16)
        _flop_strength_table(flop, pair_positions, strengths, row_of_pair)
        flop_bits = np.int64(0)
        for i in range(3):
            flop_bits |= np.int64(1) << flop[i]
        deal = np.empty(6, dtype=np.int8)
        for i in range(3):
            deal[2 + i] = flop[i]
        scratch = np.zeros((5, 4), dtype=np.int64)
        atoms = np.empty(N_RIVERS)
        turn_feature = np.empty(turn_centroids.shape[1])
        turn_values = np.empty(N_TURNS)
        swapping = swap_turn > 0.0
        labels = np.full((N_HANDS if swapping else 0, N_CARDS), -1, dtype=np.int32)
        hand_class = np.full(N_HANDS, -1, dtype=np.int64)
        for hand in range(N_HANDS):
            a = HAND_CARDS[hand, 0]
            b = HAND_CARDS[hand, 1]
            if (flop_bits >> a) & 1 or (flop_bits >> b) & 1:
                continue
            deal[0] = a
            deal[1] = b
            dead = flop_bits | (np.int64(1) << a) | (np.int64(1) << b)
            flop_index = _hand_index(deal, cards_per_round, 2, flop_keys, flop_offsets, scratch)
            hand_class[hand] = flop_index
            n_turns = 0
            total = 0.0
            total_squares = 0.0
            for turn in range(N_CARDS):
                if (dead >> turn) & 1:
                    continue
                key = _turn_feature(strengths[hand], row_of_pair, dead, turn, method, atoms, turn_feature)
                deal[5] = turn
                turn_index = _hand_index(deal, cards_per_round, 3, turn_keys, turn_offsets, scratch)
                label = np.int64(turn_table[turn_index])
                if label == UNSET:
                    label, _ = _nearest(turn_feature, key, turn_centroids, sorted_keys, order, use_l1)
                    turn_table[turn_index] = label
                turn_values[n_turns] = turn_centroid_keys[label]
                if swapping:
                    labels[hand, turn] = label
                total += key
                total_squares += turn_feature[1] if method == METHOD_EHS2 else 0.0
                n_turns += 1
            if method == METHOD_EMD:
                turn_values.sort()
                for i in range(N_TURNS):
                    flop_features[flop_index, i] = turn_values[i]
            else:
                flop_features[flop_index, 0] = total / n_turns
                if method == METHOD_EHS2:
                    flop_features[flop_index, 1] = total_squares / n_turns
        if swapping:
            if method == METHOD_EMD:
                swap_atoms = np.empty((N_HANDS, N_TURNS))
                _swap_flop_atoms(flop_bits, labels, turn_centroid_keys, swap_turn, swap_atoms)
                for hand in range(N_HANDS):
                    if hand_class[hand] >= 0:
                        for i in range(N_TURNS):
                            flop_features[hand_class[hand], i] = swap_atoms[hand, i]
            else:
                swap_ehs = np.empty(N_HANDS)
                swap_ehs2 = np.empty(N_HANDS)
                _swap_flop_moments(flop_bits, strengths, row_of_pair, swap_turn, swap_ehs, swap_ehs2)
                for hand in range(N_HANDS):
                    if hand_class[hand] >= 0:
                        flop_features[hand_class[hand], 0] = swap_ehs[hand]
                        if method == METHOD_EHS2:
                            flop_features[hand_class[hand], 1] = swap_ehs2[hand]
        progress[flop_number] = 1


@njit(cache=True, nogil=True)
def _nearest_sorted(value: float, sorted_centroids: np.ndarray) -> int:
    """Index of the nearest of increasing 1-D centroids."""
    right = np.searchsorted(sorted_centroids, value)
    if right == 0:
        return 0
    if right == sorted_centroids.shape[0]:
        return right - 1
    return right if sorted_centroids[right] - value < value - sorted_centroids[right - 1] else right - 1


@njit(cache=True, nogil=True)
def card_bucket(
    cards: np.ndarray,
    n_hole: int,
    cards_per_round: np.ndarray,
    preflop_keys: np.ndarray,
    preflop_offsets: np.ndarray,
    flop_keys: np.ndarray,
    flop_offsets: np.ndarray,
    turn_keys: np.ndarray,
    turn_offsets: np.ndarray,
    preflop_table: np.ndarray,
    flop_table: np.ndarray,
    turn_table: np.ndarray,
    river_centroids: np.ndarray,
    scratch: np.ndarray,
    card_scratch: np.ndarray,
) -> int:
    """Bucket of a hand: ``cards`` = ``n_hole`` (2, or 3 in the Auction) hole cards then the board
    (0, 3, 4 or >= 5 cards).

    Preflop, flop and turn: table entry of the suit-isomorphic index (under 1 µs); a three-card
    hand takes the highest bucket of its three two-card sub-hands (buckets are numbered by
    increasing equity, and the best five cards of the three-card hand are at least those of each
    sub-hand). River and River of Blood run boards: exact hand strength against all two-card
    opponent holdings (about 10 µs), then the nearest river centroid. ``scratch`` int64 (5, 4) and
    ``card_scratch`` int8 (len(cards) + 1) are modified.
    """
    n_board = cards.shape[0] - n_hole
    if n_board >= 5:
        dead = np.int64(0)
        for i in range(cards.shape[0]):
            dead |= np.int64(1) << cards[i]
        strength = _strength_vs_range(cards[:n_hole], cards[n_hole:], dead, 2, 0, card_scratch)
        return _nearest_sorted(strength, river_centroids)
    if n_board == 0:
        keys, offsets, table, n_rounds = preflop_keys, preflop_offsets, preflop_table, 1
    elif n_board == 3:
        keys, offsets, table, n_rounds = flop_keys, flop_offsets, flop_table, 2
    else:
        keys, offsets, table, n_rounds = turn_keys, turn_offsets, turn_table, 3
    if n_hole == 2:
        return table[_hand_index(cards, cards_per_round, n_rounds, keys, offsets, scratch)]
    deal = card_scratch[: 2 + n_board]
    for i in range(n_board):
        deal[2 + i] = cards[n_hole + i]
    best = 0
    for first in range(n_hole):
        for second in range(first + 1, n_hole):
            deal[0] = cards[first]
            deal[1] = cards[second]
            best = max(best, np.int64(table[_hand_index(deal, cards_per_round, n_rounds, keys, offsets, scratch)]))
    return best


@njit(cache=True, nogil=True)
def _unset_class_bucket(cards: np.ndarray, n_hole: int, centroid_keys: np.ndarray, card_scratch: np.ndarray) -> int:
    """Bucket of ``cards`` (``n_hole`` hole cards, then a flop or turn board) whose class the build
    left `UNSET`: the nearest of the street's increasing ``centroid_keys`` to the hand's exact
    strength against every two-card opponent holding. ``card_scratch`` is modified."""
    dead = np.int64(0)
    for i in range(cards.shape[0]):
        dead |= np.int64(1) << cards[i]
    strength = _strength_vs_range(cards[:n_hole], cards[n_hole:], dead, 2, 0, card_scratch)
    return _nearest_sorted(strength, centroid_keys)


@njit(cache=True, nogil=True)
def table_bucket(
    cards: np.ndarray,
    n_rounds: int,
    cards_per_round: np.ndarray,
    keys: np.ndarray,
    offsets: np.ndarray,
    table: np.ndarray,
    fallback_keys: np.ndarray,
    scratch: np.ndarray,
    card_scratch: np.ndarray,
) -> int:
    """`hand_bucket` of two hole cards on a board of 0, 3 or 4 cards (``n_rounds`` 1, 2, 3), no
    bounty, given only that street's arrays (``tables[0]`` and the street's keys, offsets and table
    of `hand_bucket`'s ``tables``; ``fallback_keys`` the centroid keys `hand_bucket` falls back
    on: flop keys on the flop, turn keys otherwise). The same bucket; a cheap call in a deal
    sampler's inner loop, where passing the whole ``tables`` tuple (its arrays go flattened, a
    dozen words each) cost more than the lookup."""
    value = np.int64(table[_hand_index(cards, cards_per_round, n_rounds, keys, offsets, scratch)])
    if value == UNSET:
        return _unset_class_bucket(cards, 2, fallback_keys, card_scratch)
    return value


@njit(cache=True, nogil=True)
def river_buckets(board: np.ndarray, hole_0: np.ndarray, hole_1: np.ndarray, tables: tuple) -> tuple[int, int]:
    """`card_bucket` of two two-card hands on one five-card board (a deal's two river hands), both at
    once: the same buckets (`_river_strengths` gives `_strength_vs_range`'s strengths, bit for
    bit, for about a seventh of the work of the two). ``tables`` as in `hand_bucket`."""
    strength_0, strength_1 = _river_strengths(board, hole_0, hole_1)
    river_centroids = tables[10]
    return _nearest_sorted(strength_0, river_centroids), _nearest_sorted(strength_1, river_centroids)


@njit(cache=True, nogil=True)
def bounty_bucket(base_bucket: int, cards: np.ndarray, bounty_rank: int) -> int:
    """Bounty bucket ``2 * base_bucket + hit``: ``hit`` is 1 when a card of ``cards`` (own hole
    cards and board) has rank ``bounty_rank`` (0..12)."""
    for i in range(cards.shape[0]):
        if cards[i] >> 2 == bounty_rank:
            return 2 * base_bucket + 1
    return 2 * base_bucket


@njit(cache=True, nogil=True)
def hand_bucket(
    cards: np.ndarray,
    n_hole: int,
    bounty_rank: int,
    tables: tuple,
    flop_centroid_keys: np.ndarray,
    turn_centroid_keys: np.ndarray,
    scratch: np.ndarray,
    card_scratch: np.ndarray,
) -> int:
    """Bucket of ``cards`` = ``n_hole`` (2, or 3 in the Auction from the flop on) hole cards then a
    board of 0, 3, 4 or >= 5 cards, for any variant's card abstraction.

    ``tables`` is the tuple of arrays `card_bucket` takes after ``cards, n_hole``
    (`abstraction.cards.buckets.CardAbstraction.kernel_arguments`). The bucket is `card_bucket`'s when the
    build reached the hand's class. **Fallback**: a flop or turn class left `UNSET` (a build on a
    subset of flops reaches all classes of a board or none) gets the nearest of the street's
    increasing centroid keys (``flop_centroid_keys`` or ``turn_centroid_keys``, float64) to the
    hand's exact strength against every two-card opponent holding. ``bounty_rank`` 0..12 gives the
    Bounty bucket ``2 * bucket + hit`` (`bounty_bucket`), -1 the plain bucket. ``scratch`` int64
    (5, 4) and ``card_scratch`` int8 (len(cards) + 1) are modified.
    """
    value = card_bucket(cards, n_hole, *tables, scratch, card_scratch)
    if value == UNSET:
        centroid_keys = flop_centroid_keys if cards.shape[0] - n_hole == 3 else turn_centroid_keys
        value = _unset_class_bucket(cards, n_hole, centroid_keys, card_scratch)
    if bounty_rank >= 0:
        return bounty_bucket(value, cards, bounty_rank)
    return value


@njit(cache=True, nogil=True)
def _hand_buckets(
    cards: np.ndarray,
    n_hole: int,
    bounty_ranks: np.ndarray,
    tables: tuple,
    flop_centroid_keys: np.ndarray,
    turn_centroid_keys: np.ndarray,
    scratch: np.ndarray,
    card_scratch: np.ndarray,
    out: np.ndarray,
) -> None:
    """`hand_bucket` of each row of ``cards`` (int8 [K, n]) with its ``bounty_ranks[k]`` into ``out``
    (int64 [K]); the other arguments as `hand_bucket`'s."""
    for k in range(cards.shape[0]):
        out[k] = hand_bucket(
            cards[k], n_hole, bounty_ranks[k], tables, flop_centroid_keys, turn_centroid_keys, scratch, card_scratch
        )

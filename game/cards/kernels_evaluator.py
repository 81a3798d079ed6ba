"""Numba kernels of the hand evaluator. Users call ``game.cards.evaluator``; other numba code may call these.

A hand value is an equivalence class 1..7462 of five-card poker hands (7462 = royal flush),
higher is better, equal for hands that tie.

Two paths compute it:
- **Any number of cards** (``_evaluate_direct``): rank counts and per-suit rank masks give the best
  five-card hand directly as a *strength key* ``category << 20 | r1 << 16 | ... | r5`` (ranks of
  the deciding cards, most significant first), which ``STRENGTH_KEYS`` maps to its class by
  binary search. Needed past seven cards (Auction's third hole card, River of Blood's run cards),
  where two suits can hold a flush and a flush can meet a full house.
- **Up to seven cards** (``evaluate_hand``'s fast path): each card adds ``CARD_KEY[card]``:
  ``5**rank`` (the rank multiset in base 5, counts <= 4) plus a 4-bit per-suit counter above bit
  32. A suit counter >= 5 means a flush, and with <= 7 cards a flush beats every other hand the
  cards can make, so its class is ``FLUSH_CLASS[13-bit suit mask]``. Otherwise the base-5 key is
  looked up through a perfect hash (``_HASH_*``) built once at import. All tables fit in L2.

Tables are built at import by ``_build_*`` kernels from ``strength_key`` alone, so both paths
share one definition of poker hand order, and tests check them against brute force and PyPI
evaluators.
"""

from __future__ import annotations

import numpy as np
from numba import njit

N_CLASSES = 7462

HIGH_CARD = 0
ONE_PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8

_SUIT_SHIFT = 32
_FLUSH_PROBE = 0x3333  # adding 3 to a 4-bit suit counter sets its top bit iff the count is >= 5
_FLUSH_BITS = 0x8888
_WHEEL = 0x100F  # A 2 3 4 5

# Perfect hash geometry: 2**_HASH_BUCKET_BITS buckets, 2**_HASH_SLOT_BITS slots.
_HASH_BUCKET_BITS = 14
_HASH_SLOT_BITS = 17


@njit(cache=True, nogil=True)
def _straight_high(mask: int) -> int:
    """Top rank (3..12) of the best straight in a 13-bit rank mask, or -1."""
    for top in range(12, 3, -1):
        run = 0x1F << (top - 4)
        if mask & run == run:
            return top
    if mask & _WHEEL == _WHEEL:
        return 3
    return -1


@njit(cache=True, nogil=True)
def _popcount13(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True, nogil=True)
def _top_ranks_key(mask: int, n: int, exclude_mask: int) -> int:
    """Pack the ``n`` highest ranks of ``mask`` outside ``exclude_mask``, 4 bits each, high first."""
    key = 0
    taken = 0
    for rank in range(12, -1, -1):
        if taken == n:
            break
        bit = 1 << rank
        if mask & bit and not exclude_mask & bit:
            key = (key << 4) | rank
            taken += 1
    return key


@njit(cache=True, nogil=True)
def strength_key(counts: np.ndarray, suit_masks: np.ndarray) -> int:
    """Strength key of the best five-card hand; ``counts[13]`` per rank, ``suit_masks[4]`` 13-bit.

    The key is ``category << 20`` plus the deciding ranks packed 4 bits each, most significant
    first, so larger keys are better hands. Works for any number of cards >= 5.
    """
    best = -1
    for suit in range(4):
        mask = suit_masks[suit]
        if _popcount13(mask) >= 5:
            high = _straight_high(mask)
            key = (STRAIGHT_FLUSH << 20) | (high << 16) if high >= 0 else (FLUSH << 20) | _top_ranks_key(mask, 5, 0)
            if key > best:
                best = key
    if best >= STRAIGHT_FLUSH << 20:
        return best

    present = 0
    quad = -1
    trips1 = -1
    trips2 = -1
    pair1 = -1
    pair2 = -1
    for rank in range(12, -1, -1):
        count = counts[rank]
        if count == 0:
            continue
        present |= 1 << rank
        if count >= 4 and quad < 0:
            quad = rank
        elif count == 3:
            if trips1 < 0:
                trips1 = rank
            elif trips2 < 0:
                trips2 = rank
        elif count == 2:
            if pair1 < 0:
                pair1 = rank
            elif pair2 < 0:
                pair2 = rank

    if quad >= 0:
        return (FOUR_OF_A_KIND << 20) | (quad << 16) | (_top_ranks_key(present, 1, 1 << quad) << 12)
    if trips1 >= 0:
        # The pair of a full house may come from a second set of trips.
        full_pair = max(trips2, pair1)
        if full_pair >= 0:
            return (FULL_HOUSE << 20) | (trips1 << 16) | (full_pair << 12)
    if best >= 0:
        return best
    high = _straight_high(present)
    if high >= 0:
        return (STRAIGHT << 20) | (high << 16)
    if trips1 >= 0:
        return (THREE_OF_A_KIND << 20) | (trips1 << 16) | (_top_ranks_key(present, 2, 1 << trips1) << 8)
    if pair2 >= 0:
        used = (1 << pair1) | (1 << pair2)
        return (TWO_PAIR << 20) | (pair1 << 16) | (pair2 << 12) | (_top_ranks_key(present, 1, used) << 8)
    if pair1 >= 0:
        return (ONE_PAIR << 20) | (pair1 << 16) | (_top_ranks_key(present, 3, 1 << pair1) << 4)
    return (HIGH_CARD << 20) | _top_ranks_key(present, 5, 0)


@njit(cache=True, nogil=True)
def _next_multiset(ranks: np.ndarray) -> bool:
    """Advance a non-decreasing rank sequence (values 0..12) in place; False when exhausted."""
    n = ranks.shape[0]
    i = n - 1
    while i >= 0 and ranks[i] == 12:
        i -= 1
    if i < 0:
        return False
    value = ranks[i] + 1
    for j in range(i, n):
        ranks[j] = value
    return True


@njit(cache=True, nogil=True)
def _multiset_counts(ranks: np.ndarray, counts: np.ndarray) -> bool:
    """Fill ``counts`` from a rank sequence; False if a rank appears more than four times."""
    counts[:] = 0
    for rank in ranks:
        counts[rank] += 1
        if counts[rank] > 4:
            return False
    return True


@njit(cache=True, nogil=True)
def _build_strength_keys() -> np.ndarray:
    """The 7462 distinct five-card strength keys, sorted ascending (index + 1 = class)."""
    keys = np.empty(6175 + 1287, dtype=np.int64)
    n = 0
    counts = np.zeros(13, dtype=np.int64)
    no_flush = np.zeros(4, dtype=np.int64)
    ranks = np.zeros(5, dtype=np.int64)
    while True:
        if _multiset_counts(ranks, counts):
            keys[n] = strength_key(counts, no_flush)
            n += 1
        if not _next_multiset(ranks):
            break
    suited = np.zeros(4, dtype=np.int64)
    for mask in range(1 << 13):
        if _popcount13(mask) == 5:
            suited[0] = mask
            keys[n] = strength_key(counts * 0, suited)
            n += 1
    return np.unique(keys[:n])


@njit(cache=True, nogil=True)
def class_of_key(strength_keys: np.ndarray, key: int) -> int:
    return np.searchsorted(strength_keys, key) + 1


@njit(cache=True, nogil=True)
def _build_flush_table(strength_keys: np.ndarray) -> np.ndarray:
    """Class of the best straight flush / flush in a 13-bit suit mask (0 if fewer than 5 bits)."""
    table = np.zeros(1 << 13, dtype=np.int16)
    counts = np.zeros(13, dtype=np.int64)
    suited = np.zeros(4, dtype=np.int64)
    for mask in range(1 << 13):
        if _popcount13(mask) >= 5:
            suited[0] = mask
            table[mask] = class_of_key(strength_keys, strength_key(counts, suited))
    return table


@njit(cache=True, nogil=True)
def _hash_mix(rank_key: int, multiplier: np.uint64) -> np.uint64:
    return np.uint64(rank_key) * multiplier


@njit(cache=True, nogil=True)
def _hash_bucket(mixed: np.uint64) -> np.uint64:
    return mixed >> np.uint64(64 - _HASH_BUCKET_BITS)


@njit(cache=True, nogil=True)
def _hash_slot(mixed: np.uint64, displacement: np.uint64) -> np.uint64:
    """Slot of a mixed key: unsigned all the way, so table indexing needs no negative-index check."""
    base = mixed >> np.uint64(64 - _HASH_BUCKET_BITS - _HASH_SLOT_BITS)
    return (base + displacement) & np.uint64((1 << _HASH_SLOT_BITS) - 1)


@njit(cache=True, nogil=True)
def _nonflush_entries(strength_keys: np.ndarray):
    """Base-5 rank keys and classes of every rank multiset of 5, 6 or 7 cards (counts <= 4)."""
    capacity = 80000
    rank_keys = np.empty(capacity, dtype=np.int64)
    classes = np.empty(capacity, dtype=np.int16)
    n = 0
    counts = np.zeros(13, dtype=np.int64)
    no_flush = np.zeros(4, dtype=np.int64)
    for size in range(5, 8):
        ranks = np.zeros(size, dtype=np.int64)
        while True:
            if _multiset_counts(ranks, counts):
                key = 0
                for rank in ranks:
                    key += 5**rank
                rank_keys[n] = key
                classes[n] = class_of_key(strength_keys, strength_key(counts, no_flush))
                n += 1
            if not _next_multiset(ranks):
                break
    return rank_keys[:n], classes[:n]


@njit(cache=True, nogil=True)
def _build_perfect_hash(rank_keys: np.ndarray, classes: np.ndarray, multiplier: np.uint64):
    """Hash-and-displace: per bucket, the smallest displacement that puts all its keys in free slots.

    Returns ``(displacements, table, ok)``; ``ok`` is False if two keys of a bucket collide
    before displacement (then the caller tries another multiplier).
    """
    n_buckets = 1 << _HASH_BUCKET_BITS
    n_slots = 1 << _HASH_SLOT_BITS
    bucket_of = np.empty(rank_keys.shape[0], dtype=np.int64)
    sizes = np.zeros(n_buckets, dtype=np.int64)
    for i in range(rank_keys.shape[0]):
        bucket_of[i] = _hash_bucket(_hash_mix(rank_keys[i], multiplier))
        sizes[bucket_of[i]] += 1
    order = np.argsort(bucket_of, kind="mergesort")
    starts = np.zeros(n_buckets + 1, dtype=np.int64)
    for b in range(n_buckets):
        starts[b + 1] = starts[b] + sizes[b]
    bucket_order = np.argsort(-sizes, kind="mergesort")
    displacements = np.zeros(n_buckets, dtype=np.int32)
    table = np.zeros(n_slots, dtype=np.int16)
    used = np.zeros(n_slots, dtype=np.bool_)
    slots = np.empty(64, dtype=np.int64)
    for b in bucket_order:
        size = sizes[b]
        if size == 0:
            break
        if size > 64:
            return displacements, table, False
        placed = False
        for displacement in range(n_slots):
            clash = False
            for j in range(size):
                slot = _hash_slot(_hash_mix(rank_keys[order[starts[b] + j]], multiplier), np.uint64(displacement))
                if used[slot]:
                    clash = True
                    break
                for k in range(j):
                    if slots[k] == slot:
                        clash = True
                        break
                if clash:
                    break
                slots[j] = slot
            if not clash:
                for j in range(size):
                    used[slots[j]] = True
                    table[slots[j]] = classes[order[starts[b] + j]]
                displacements[b] = displacement
                placed = True
                break
        if not placed:
            return displacements, table, False
    return displacements, table, True


def _build_tables():
    strength_keys = _build_strength_keys()
    flush_table = _build_flush_table(strength_keys)
    rank_keys, classes = _nonflush_entries(strength_keys)
    # Fixed odd multipliers tried in order: deterministic tables on every machine.
    for multiplier in (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93):
        displacements, table, ok = _build_perfect_hash(rank_keys, classes, np.uint64(multiplier))
        if ok:
            return strength_keys, flush_table, np.uint64(multiplier), displacements, table
    raise RuntimeError("could not build the evaluator's perfect hash")  # pragma: no cover


STRENGTH_KEYS, FLUSH_CLASS, _HASH_MULTIPLIER, _HASH_DISPLACEMENT, _HASH_TABLE = _build_tables()

CARD_KEY = np.array([5 ** (c >> 2) + (1 << (_SUIT_SHIFT + 4 * (c & 3))) for c in range(52)], dtype=np.int64)
"""Per-card additive key for the <= 7-card fast path: ``5**rank`` plus a suit counter."""
_CARD_KEY_UNSIGNED = CARD_KEY.view(np.uint64)  # same bits; unsigned sums compile to tighter code
CARD_MASK = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
"""Per-card bit in four 16-bit suit fields (OR them; the 13-bit mask of suit s is ``>> 16*s``)."""


@njit(cache=True, nogil=True)
def nonflush_class(key: int) -> int:
    """Class of a <= 7-card hand without a flush, from its summed ``CARD_KEY``."""
    mixed = np.uint64(key & 0xFFFFFFFF) * _HASH_MULTIPLIER
    return _HASH_TABLE[_hash_slot(mixed, np.uint64(_HASH_DISPLACEMENT[_hash_bucket(mixed)]))]


@njit(cache=True, nogil=True)
def class_from_state(key: int, mask: int) -> int:
    """Class of a hand of <= 7 cards from its summed ``CARD_KEY`` and OR-ed ``CARD_MASK``."""
    flush = ((key >> _SUIT_SHIFT) + _FLUSH_PROBE) & _FLUSH_BITS
    if flush:
        suit = 0
        while not flush & (8 << (4 * suit)):
            suit += 1
        return FLUSH_CLASS[(mask >> (16 * suit)) & 0x1FFF]
    return nonflush_class(key)


@njit(cache=True, nogil=True)
def _evaluate_direct(cards: np.ndarray) -> int:
    """Class of the best five-card hand among any number (>= 5) of distinct cards."""
    counts = np.zeros(13, dtype=np.int64)
    suit_masks = np.zeros(4, dtype=np.int64)
    for i in range(cards.shape[0]):
        card = np.int64(cards[i])  # widen int8 cards so shifts cannot overflow (also without JIT)
        counts[card >> 2] += 1
        suit_masks[card & 3] |= np.int64(1) << (card >> 2)
    return class_of_key(STRENGTH_KEYS, strength_key(counts, suit_masks))


@njit(cache=True, nogil=True)
def evaluate_hand(cards: np.ndarray) -> int:
    """Class 1..7462 of the best five-card hand among ``cards`` (1-D, 5..52 distinct cards)."""
    n = cards.shape[0]
    if n > 7:
        return _evaluate_direct(cards)
    key = 0
    mask = 0
    for i in range(n):
        key += CARD_KEY[cards[i]]
        mask |= CARD_MASK[cards[i]]
    return class_from_state(key, mask)


@njit(cache=True, nogil=True)
def _evaluate_seven_rows(hands: np.ndarray, out: np.ndarray) -> None:
    """``evaluate_hand`` specialised to (n, 7) rows: the suit mask is built only for the ~3% flushes."""
    for i in range(hands.shape[0]):
        key = np.uint64(0)
        for j in range(7):
            key += _CARD_KEY_UNSIGNED[np.uint8(hands[i, j])]  # unsigned index: no negative-index check
        if ((key >> np.uint64(_SUIT_SHIFT)) + np.uint64(_FLUSH_PROBE)) & np.uint64(_FLUSH_BITS):
            mask = 0
            for j in range(7):
                mask |= CARD_MASK[np.uint8(hands[i, j])]
            out[i] = class_from_state(np.int64(key), mask)
        else:
            out[i] = nonflush_class(np.int64(key))


@njit(cache=True, nogil=True)
def _evaluate_rows(hands: np.ndarray, out: np.ndarray) -> None:
    """Evaluate each row of ``hands`` (n, k) into ``out`` (n,). Modified in place."""
    if hands.shape[1] == 7:
        _evaluate_seven_rows(hands, out)
        return
    for i in range(hands.shape[0]):
        out[i] = evaluate_hand(hands[i])


@njit(cache=True, nogil=True)
def _first_invalid_row(hands: np.ndarray) -> int:
    """Index of the first row with a card outside 0..51 or a repeated card, or -1."""
    for i in range(hands.shape[0]):
        seen = 0
        for j in range(hands.shape[1]):
            card = np.int64(hands[i, j])
            if card < 0 or card > 51:
                return i
            bit = np.int64(1) << card
            if seen & bit:
                return i
            seen |= bit
    return -1


@njit(cache=True, nogil=True)
def _category_of_class(strength_keys: np.ndarray, value: int) -> int:
    return strength_keys[value - 1] >> 20


@njit(cache=True, nogil=True)
def _census(n_cards: int, category_counts: np.ndarray, value_seen: np.ndarray) -> None:
    """Evaluate every ``n_cards``-card hand (n_cards <= 7) of the deck, counting categories.

    ``category_counts[9]`` and ``value_seen[N_CLASSES + 1]`` are modified in place.
    """
    index = np.arange(n_cards)
    while True:
        key = 0
        mask = 0
        for i in range(n_cards):
            key += CARD_KEY[index[i]]
            mask |= CARD_MASK[index[i]]
        value = class_from_state(key, mask)
        category_counts[STRENGTH_KEYS[value - 1] >> 20] += 1
        value_seen[value] = True
        # Next combination in lexicographic order.
        i = n_cards - 1
        while i >= 0 and index[i] == 52 - n_cards + i:
            i -= 1
        if i < 0:
            return
        index[i] += 1
        for j in range(i + 1, n_cards):
            index[j] = index[j - 1] + 1

"""Suit-isomorphic indexer: known class counts, exhaustive flop check, brute-force canonical forms."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from abstraction.cards.isomorphism import HandIndexer, holdem_indexer

SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


def brute_canonical(cards: list[int], rounds: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Smallest image of the deal over all 24 suit permutations, cards sorted within rounds."""
    best = None
    for permutation in SUIT_PERMUTATIONS:
        mapped = [4 * (c >> 2) + permutation[c & 3] for c in cards]
        form, position = [], 0
        for n in rounds:
            form.append(tuple(sorted(mapped[position : position + n])))
            position += n
        candidate = tuple(form)
        if best is None or candidate < best:
            best = candidate
    return best


def test_holdem_class_counts_match_waugh_2013():
    # Waugh 2013, "A Fast and Optimal Hand Isomorphism Algorithm", Table 1 (Texas Hold'em).
    assert holdem_indexer().sizes == (169, 1_286_792, 55_190_538, 2_428_287_420)


def test_preflop_indices_are_a_bijection_onto_169_classes():
    holes = np.array(list(itertools.combinations(range(52), 2)), dtype=np.int8)
    indices = holdem_indexer().index_batch(holes)
    assert indices.min() == 0 and indices.max() == 168
    assert len(np.unique(indices)) == 169
    forms = {}
    for hole, index in zip(holes.tolist(), indices.tolist(), strict=True):
        forms.setdefault(index, set()).add(brute_canonical(hole, (2,)))
    assert all(len(f) == 1 for f in forms.values())


def test_every_flop_deal_hits_the_dense_range_exactly():
    """All 1326 x 19600 (hole, flop) deals: every index is in range and all 1,286,792 are hit."""
    indexer = holdem_indexer()
    seen = np.zeros(indexer.sizes[1], dtype=bool)
    flops = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int8)
    for a, b in itertools.combinations(range(52), 2):
        live = flops[~np.isin(flops, (a, b)).any(axis=1)]
        deals = np.empty((len(live), 5), dtype=np.int8)
        deals[:, 0], deals[:, 1], deals[:, 2:] = a, b, live
        indices = indexer.index_batch(deals)
        assert indices.min() >= 0 and indices.max() < indexer.sizes[1]
        seen[indices] = True
    assert seen.all()


@pytest.mark.parametrize("n_cards", [5, 6, 7])
def test_index_agrees_with_brute_force_canonical_form(n_cards):
    """Same index <=> same canonical form, on random deals (checks injectivity and invariance)."""
    indexer = holdem_indexer()
    rng = np.random.default_rng(n_cards)
    deals = np.array([rng.choice(52, n_cards, replace=False) for _ in range(3000)], dtype=np.int8)
    # Add suit-permuted copies so that equal classes really occur.
    permuted = deals.copy()
    permutation = np.array(SUIT_PERMUTATIONS[17])
    permuted = (4 * (permuted >> 2) + permutation[permuted & 3]).astype(np.int8)
    all_deals = np.concatenate([deals, permuted])
    indices = indexer.index_batch(all_deals)
    assert (indices[:3000] == indices[3000:]).all()
    assert indices.min() >= 0 and indices.max() < indexer.sizes[indexer.n_rounds_for(n_cards) - 1]
    form_of_index, index_of_form = {}, {}
    for deal, index in zip(all_deals.tolist(), indices.tolist(), strict=True):
        form = brute_canonical(deal, (2, 3, 1, 1)[: indexer.n_rounds_for(n_cards)])
        assert form_of_index.setdefault(index, form) == form
        assert index_of_form.setdefault(form, index) == index


def test_three_hole_cards_count_matches_burnside():
    """Three hole cards: 22,100 deals, 24 suit permutations; orbits counted by Burnside's lemma."""
    indexer = HandIndexer((3,))
    holes = list(itertools.combinations(range(52), 3))
    fixed = 0
    for permutation in SUIT_PERMUTATIONS:
        for hole in holes:
            fixed += sorted(4 * (c >> 2) + permutation[c & 3] for c in hole) == list(hole)
    assert indexer.sizes[0] == fixed // 24
    indices = indexer.index_batch(np.array(holes, dtype=np.int8))
    assert len(np.unique(indices)) == indexer.sizes[0]


def test_bad_input_names_the_value():
    with pytest.raises(ValueError, match="repeated card"):
        holdem_indexer().index_batch(np.array([[0, 0]]))
    with pytest.raises(ValueError, match=r"\(2, 4\)"):
        HandIndexer((2, 4))

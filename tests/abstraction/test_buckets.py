"""Card abstraction build on a few flops: tables against independently computed features, HDF5, lookup."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig, canonical_flops
from abstraction.cards.build import _preflop, build_card_abstraction
from abstraction.cards.features import board_strengths, hand_index, hand_strength
from abstraction.cards.isomorphism import holdem_indexer
from abstraction.cards.kernels_buckets import UNSET
from game.cards.deck import parse_cards

SMALL = dict(
    training_flops=3, turn_training_points=3000, river_training_points=3000, flop_training_points=2000, iterations=8
)


@pytest.fixture(scope="module", params=["emd", "ehs2"])
def small_build(request):
    flops = canonical_flops()[[0, 700]]
    config = CardAbstractionConfig(buckets=(169, 6, 8, 10), method=request.param, seed=7, **SMALL)
    return build_card_abstraction(config, flops=flops), flops


def suit_permuted(cards: np.ndarray, permutation=(2, 0, 3, 1)) -> np.ndarray:
    return (4 * (cards >> 2) + np.array(permutation)[cards & 3]).astype(np.int8)


def test_canonical_flops_count():
    assert canonical_flops().shape == (1755, 3)  # Waugh 2013: 1,755 flops up to suit isomorphism


def test_turn_buckets_are_nearest_centroids_of_independent_features(small_build):
    abstraction, flops = small_build
    rng = np.random.default_rng(0)
    flop = flops[1].tolist()
    deck = [c for c in range(52) if c not in flop]
    for _ in range(6):
        hole, turn = rng.choice(deck, 2, replace=False).tolist(), None
        turn = int(rng.choice([c for c in deck if c not in hole]))
        rivers = [c for c in deck if c not in hole and c != turn]
        strengths = np.sort([board_strengths([*flop, turn, r])[hand_index(hole)] for r in rivers])
        if abstraction.config.method == "emd":
            distances = np.abs(abstraction.turn_centroids - strengths).mean(axis=1)
        else:
            feature = np.array([strengths.mean(), (strengths**2).mean()])
            distances = np.sqrt(((abstraction.turn_centroids - feature) ** 2).sum(axis=1))
        assert abstraction.bucket(hole, [*flop, turn]) == int(np.argmin(distances))


def test_flop_and_turn_buckets_are_suit_invariant(small_build):
    abstraction, flops = small_build
    rng = np.random.default_rng(1)
    flop = flops[1]
    deck = np.setdiff1d(np.arange(52), flop)
    for _ in range(10):
        extra = rng.choice(deck, 3, replace=False).astype(np.int8)
        deal = np.concatenate([extra[:2], flop, extra[2:]])
        for board_size in (3, 4):
            original = abstraction.bucket(deal[:2], deal[2 : 2 + board_size])
            permuted = suit_permuted(deal)
            assert original != UNSET
            assert abstraction.bucket(permuted[:2], permuted[2 : 2 + board_size]) == original


def test_buckets_are_ordered_by_strength(small_build):
    abstraction, _flops = small_build
    reached = abstraction.flop_table[abstraction.flop_table != UNSET]
    assert reached.size > 0 and reached.max() < 6
    river_board = parse_cards("2c 7d 9h Jd Ks").tolist()
    assert abstraction.bucket("AhAs", river_board) > abstraction.bucket("3h4s", river_board)
    strength = hand_strength("QcQd", river_board)
    assert abstraction.bucket("QcQd", river_board) == int(np.argmin(np.abs(abstraction.river_centroids - strength)))
    # River of Blood: a six-card board is scored the same way, on the spot.
    run_board = [*river_board, parse_cards("Qh").tolist()[0]]
    run_strength = hand_strength("QcQd", run_board)
    assert abstraction.bucket("QcQd", run_board) == int(np.argmin(np.abs(abstraction.river_centroids - run_strength)))
    # Preflop at 169 buckets is lossless: one bucket per suit-isomorphic class.
    assert abstraction.bucket("AhAd") == holdem_indexer().index("AsAc") != abstraction.bucket("AhKh")


def test_save_load_round_trip(small_build, tmp_path):
    abstraction, _ = small_build
    path = tmp_path / "cards.h5"
    abstraction.save(path)
    loaded = CardAbstraction.load(path)
    assert loaded.config == abstraction.config
    for field in dataclasses.fields(CardAbstraction):
        if field.name != "config":
            np.testing.assert_array_equal(getattr(loaded, field.name), getattr(abstraction, field.name))
    import h5py

    with h5py.File(path, "a") as file:
        file.attrs["format_version"] = 99
    with pytest.raises(ValueError, match="version 99"):
        CardAbstraction.load(path)


def test_bounty_doubles_buckets_with_the_hit_bit(small_build):
    abstraction, _ = small_build
    bounty = dataclasses.replace(abstraction, config=dataclasses.replace(abstraction.config, variant="bounty"))
    base = abstraction.bucket("AhKd")
    assert bounty.bucket("AhKd", bounty_rank=12) == 2 * base + 1
    assert bounty.bucket("AhKd", bounty_rank=0) == 2 * base
    assert bounty.n_buckets(0) == 2 * 169
    with pytest.raises(ValueError, match="bounty_rank"):
        bounty.bucket("AhKd")


def test_build_is_reproducible():
    flops = canonical_flops()[[3]]
    config = CardAbstractionConfig(buckets=(169, 5, 5, 5), method="emd", seed=3, **SMALL)
    first = build_card_abstraction(config, flops=flops)
    again = build_card_abstraction(config, flops=flops)
    for name in ("flop_table", "turn_table", "river_centroids", "turn_centroids", "flop_centroids"):
        np.testing.assert_array_equal(getattr(first, name), getattr(again, name))


def test_preflop_clustering_orders_buckets_by_equity():
    config = CardAbstractionConfig(buckets=(12, 5, 5, 5), seed=1)
    table, centroids = _preflop(config)
    assert len(np.unique(table)) == 12 and np.all(np.diff(centroids[:, 0]) > 0)
    indexer = holdem_indexer()
    assert table[indexer.index("AhAd")] == 11 and table[indexer.index("7h2d")] < 3


def test_three_card_hands_take_their_best_two_card_sub_hand(small_build):
    abstraction, flops = small_build
    rng = np.random.default_rng(5)
    flop = flops[1].tolist()
    deck = [c for c in range(52) if c not in flop]
    for board_size in (3, 4):
        for _ in range(5):
            cards = rng.choice(deck, 4, replace=False).tolist()
            hole, board = cards[:3], flop + cards[3 : 3 + board_size - 3]
            expected = max(abstraction.bucket([hole[i], hole[j]], board) for i, j in ((0, 1), (0, 2), (1, 2)))
            assert abstraction.bucket(hole, board) == expected
    river = parse_cards("2c 7d 9s Jh 4c").tolist()
    hole = parse_cards("Ah As Kd").tolist()
    assert abstraction.bucket(hole, river) == int(
        np.argmin(np.abs(abstraction.river_centroids - hand_strength(hole, river)))
    )
    with pytest.raises(ValueError, match="3 from the flop on"):
        abstraction.bucket(hole, [])

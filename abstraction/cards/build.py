"""Building a card abstraction: features of every hand class, clustered into per-street buckets.

`build_card_abstraction` fits centroids on sampled hands (`abstraction.cards.features`,
`abstraction.cards.clustering`) and assigns every preflop, flop and turn class to one, returning the
`abstraction.cards.buckets.CardAbstraction` that stores and serves the tables; `estimate_build_memory`
says beforehand how much memory a build takes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from abstraction.cards.buckets import (
    METHODS,
    CardAbstraction,
    CardAbstractionConfig,
    canonical_flops,
    centroid_keys,
    feature_width,
)
from abstraction.cards.clustering import assign, fit_kmeans
from abstraction.cards.features import hand_features, runout_positions
from abstraction.cards.isomorphism import holdem_indexer
from abstraction.cards.kernels_buckets import (
    METHOD_EMD,
    N_RIVERS,
    UNSET,
    _flop_pass,
    _flop_strength_table,
    _turn_feature,
)
from abstraction.cards.kernels_features import HAND_CARDS, N_HANDS
from game.cards.rng import as_generator

ASSIGN_BLOCK = 100_000
"""Flop classes assigned to centroids per block (bounds the float64 copy of their features)."""

ProgressCallback = Callable[[str, int, int], None]
"""``progress(stage, done, total)``, called as the build advances."""


def estimate_build_memory(config: CardAbstractionConfig, threads: int = 2) -> int:
    """Bytes the build holds at its peak, beyond the interpreter and compiled kernels (about 0.4 GB
    more): the uint16 flop and turn tables, float32 flop features, each thread's two runout tables,
    and one float64 block of flop features being assigned."""
    indexer = holdem_indexer()
    width = feature_width(config.method, 1)
    tables = 2 * (indexer.sizes[1] + indexer.sizes[2])
    flop_features = 4 * indexer.sizes[1] * width
    per_thread = 2 * 8 * N_HANDS * 1176
    return tables + flop_features + threads * per_thread + 8 * ASSIGN_BLOCK * (width + 2)


def _preflop(config: CardAbstractionConfig) -> tuple[np.ndarray, np.ndarray]:
    indexer = holdem_indexer()
    classes = indexer.index_batch(HAND_CARDS)
    n_buckets = config.buckets[0]
    if n_buckets >= indexer.sizes[0]:
        return np.arange(indexer.sizes[0], dtype=np.uint16), np.zeros((0, 2))
    _, first = np.unique(classes, return_index=True)
    future = config.future
    features = np.array(
        [
            [f.ehs, f.ehs2]
            for f in (
                hand_features(HAND_CARDS[i], future=future, n_samples=400, seed=config.seed + int(i)) for i in first
            )
        ]
    )
    result = fit_kmeans(features, n_buckets, "l2", seed=config.seed, iterations=config.iterations)
    order = np.argsort(np.argsort(result.centroids[:, 0]))  # number buckets by increasing E[HS]
    return order[result.labels].astype(np.uint16), result.centroids[np.argsort(result.centroids[:, 0])]


def _training_samples(config: CardAbstractionConfig, method: int) -> tuple[np.ndarray, np.ndarray]:
    """Turn features of random (hand, turn) pairs and river strengths of random (hand, runout)
    pairs, from ``config.training_flops`` flops drawn uniformly from all 22,100 flops."""
    generator = as_generator(config.seed)
    all_flops = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int8)
    chosen = all_flops[generator.choice(all_flops.shape[0], size=config.training_flops, replace=False)]
    pairs = runout_positions(3)
    width = feature_width(config.method, 2)
    per_flop_turn = -(-config.turn_training_points // config.training_flops)
    per_flop_river = -(-config.river_training_points // config.training_flops)
    turn_features = np.empty((per_flop_turn * config.training_flops, width))
    river_strengths = []
    strengths = np.empty((N_HANDS, pairs.shape[0]))
    row_of_pair = np.zeros((52, 52), dtype=np.int16)
    atoms = np.empty(N_RIVERS)
    for number, flop in enumerate(chosen):
        _flop_strength_table(flop, pairs, strengths, row_of_pair)
        flop_bits = sum(1 << int(card) for card in flop)
        live = [
            h
            for h in range(N_HANDS)
            if not (flop_bits >> int(HAND_CARDS[h, 0])) & 1 and not (flop_bits >> int(HAND_CARDS[h, 1])) & 1
        ]
        for sample, hand in enumerate(generator.choice(live, per_flop_turn)):
            dead = flop_bits | (1 << int(HAND_CARDS[hand, 0])) | (1 << int(HAND_CARDS[hand, 1]))
            turn = int(generator.choice([c for c in range(52) if not (dead >> c) & 1]))
            _turn_feature(
                strengths[hand],
                row_of_pair,
                np.int64(dead),
                turn,
                method,
                atoms,
                turn_features[number * per_flop_turn + sample],
            )
        values = strengths[live].ravel()
        river_strengths.append(generator.choice(values[values >= 0], per_flop_river))
    return turn_features, np.concatenate(river_strengths)


def _ordered(result_centroids: np.ndarray, labels: np.ndarray, method: str) -> tuple[np.ndarray, np.ndarray]:
    """Renumber clusters by increasing equity (`centroid_keys`): bucket 0 is the weakest."""
    order = np.argsort(centroid_keys(result_centroids, method), kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    return result_centroids[order], rank[labels]


def build_card_abstraction(
    config: CardAbstractionConfig, progress: ProgressCallback | None = None, *, flops: np.ndarray | None = None
) -> CardAbstraction:
    """Build every street's buckets (see the module docstring). ``flops`` restricts the table pass
    to some flops (tests); classes never reached keep `UNSET`. Reports progress by stage."""
    report = progress or (lambda stage, done, total: None)
    method = METHODS[config.method]
    metric = "emd" if method == METHOD_EMD else "l2"
    indexer = holdem_indexer()
    table_flops = canonical_flops() if flops is None else np.asarray(flops, dtype=np.int8)

    report("preflop", 0, 1)
    preflop_table, _ = _preflop(config)
    report("preflop", 1, 1)

    report("training samples", 0, 1)
    turn_samples, river_samples = _training_samples(config, method)
    report("training samples", 1, 1)
    turn_fit = fit_kmeans(turn_samples, config.buckets[2], metric, seed=config.seed + 1, iterations=config.iterations)
    turn_centroids, _ = _ordered(turn_fit.centroids, turn_fit.labels, config.method)
    turn_keys = centroid_keys(turn_centroids, config.method)
    river_fit = fit_kmeans(
        river_samples[:, None], config.buckets[3], "l2", seed=config.seed + 2, iterations=config.iterations
    )
    river_centroids = np.sort(river_fit.centroids[:, 0])

    turn_table = np.full(indexer.sizes[2], UNSET, dtype=np.uint16)
    flop_features = np.full((indexer.sizes[1], feature_width(config.method, 1)), np.nan, dtype=np.float32)
    rounds, flop_keys, flop_offsets = indexer.kernel_tables(2)
    _, turn_class_keys, turn_offsets = indexer.kernel_tables(3)
    pairs = runout_positions(3)
    progress_flags = np.zeros(table_flops.shape[0], dtype=np.int8)
    block = 16
    for start in range(0, table_flops.shape[0], block):
        stop = min(start + block, table_flops.shape[0])
        _flop_pass(
            table_flops[start:stop], pairs, method, rounds, flop_keys, flop_offsets, turn_class_keys, turn_offsets,
            turn_centroids, turn_keys, turn_table, flop_features, progress_flags[start:stop], float(config.turn_swap_probability or 0.0),
        )  # fmt: skip
        report("flops", stop, table_flops.shape[0])

    reached = np.flatnonzero(~np.isnan(flop_features[:, 0]))
    generator = as_generator(config.seed + 3)
    sample = flop_features[
        np.sort(generator.choice(reached, min(reached.size, config.flop_training_points), replace=False))
    ]
    report("flop clustering", 0, reached.size)
    flop_fit = fit_kmeans(sample, config.buckets[1], metric, seed=config.seed + 4, iterations=config.iterations)
    flop_centroids, _ = _ordered(flop_fit.centroids, flop_fit.labels, config.method)
    flop_table = np.full(indexer.sizes[1], UNSET, dtype=np.uint16)
    for start in range(0, reached.size, ASSIGN_BLOCK):
        rows = reached[start : start + ASSIGN_BLOCK]
        labels, _ = assign(flop_features[rows], flop_centroids, metric)
        flop_table[rows] = labels
        report("flop clustering", min(start + ASSIGN_BLOCK, reached.size), reached.size)
    return CardAbstraction(
        config, preflop_table, flop_table, turn_table, river_centroids, flop_centroids, turn_centroids
    )

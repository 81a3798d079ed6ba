"""``vcfr bench abstraction``: feature and lookup speed, timed next to eval7 in the same run.

Measured (best of ``repeats`` where repeated; wall-clock and CPU seconds both reported, since the
machine may be shared):

- ``flop_all_hands_ms``: exact E[HS], E[HS²] and 50-bin histograms of all 1,326 hands on one flop
  (every turn/river runout, every opponent holding), parallel over the runouts on all threads
  (``flop_all_hands_cpu_ms`` is CPU time summed over threads, idle-spinning threads included;
  ``flop_all_hands_1thread_ms`` is the same work on one thread);
- ``all_flops_s``: the same for every one of the 1,755 suit-isomorphic flops, parallel over flops
  on all cores numba uses (``--flops`` runs a prefix and scales the time up, stated in the result);
- ``peer_eval7_mc_ms_per_hand``: eval7's ``py_hand_vs_range_monte_carlo`` for one hand against the
  full range on the same flop at ``peer_iterations`` samples, and its error against our exact value;
- ``lookup_numba_ns`` / ``lookup_python_us``: a flop/turn bucket lookup from real cards inside a
  numba loop and through `CardAbstraction.bucket` (tables of full size, contents irrelevant to speed);
  ``river_lookup_numba_us``: the river bucket, which computes the hand strength on the spot.
"""

from __future__ import annotations

import platform
import time

import numpy as np
from numba import get_num_threads, njit, set_num_threads

from abstraction.cards.buckets import CardAbstraction, canonical_flops
from abstraction.cards.features import all_hands_features, boards_features, hand_index
from abstraction.cards.kernels_buckets import card_bucket
from game.bench.timing import best_seconds
from game.cards.deck import format_cards, parse_cards

BENCH_FLOP = "Qh7d2c"
BENCH_HAND = "AsKd"
EVERY_HAND_RANGE = (
    "22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
    "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o"
)
"""All 1,326 two-card hands in eval7's range syntax."""


@njit(cache=True, nogil=True)
def _lookup_loop(deals: np.ndarray, n_hole: int, arguments: tuple, repeats: int) -> int:
    scratch = np.zeros((5, 4), dtype=np.int64)
    card_scratch = np.empty(deals.shape[1] + 1, dtype=np.int8)
    total = 0
    for _ in range(repeats):
        for row in range(deals.shape[0]):
            total += card_bucket(deals[row], n_hole, *arguments, scratch, card_scratch)
    return total


def _peer_eval7(iterations: int, repeats: int) -> dict:
    try:
        import eval7
    except ImportError:
        return {"peer_eval7_mc_ms_per_hand": None}
    hand = [eval7.Card(text) for text in format_cards(parse_cards(BENCH_HAND)).split()]
    board = [eval7.Card(text) for text in format_cards(parse_cards(BENCH_FLOP)).split()]
    every_hand = eval7.HandRange(EVERY_HAND_RANGE)
    results: list[float] = []
    wall, cpu = best_seconds(
        lambda: results.append(eval7.py_hand_vs_range_monte_carlo(hand, every_hand, board, iterations)), repeats
    )
    return {
        "peer_eval7_mc_ms_per_hand": wall * 1e3,
        "peer_eval7_mc_cpu_ms_per_hand": cpu * 1e3,
        "peer_iterations": iterations,
        "peer_eval7_equity": results[-1],
        "peer_eval7_all_hands_projected_ms": wall * 1e3 * 1326,
    }


def run_abstraction_benchmark(
    *, flops: int = 1755, repeats: int = 3, peer_iterations: int = 100_000, seed: int = 0
) -> dict:
    """Run every measurement; returns the JSON-able result of ``vcfr bench abstraction --json``."""
    if not 1 <= flops <= 1755 or repeats < 1 or peer_iterations < 1:
        raise ValueError(
            f"flops must be 1..1755 and repeats, peer_iterations >= 1, got {flops}, {repeats}, {peer_iterations}"
        )
    all_hands_features(BENCH_FLOP)  # compile or load kernels outside the timing
    features: list = []
    wall, cpu = best_seconds(lambda: features.append(all_hands_features(BENCH_FLOP)), repeats)
    threads = get_num_threads()
    set_num_threads(1)
    try:
        single_wall, _ = best_seconds(lambda: all_hands_features(BENCH_FLOP), repeats)
    finally:
        set_num_threads(threads)
    result: dict = {
        "flop_all_hands_ms": wall * 1e3,
        "flop_all_hands_cpu_ms": cpu * 1e3,
        "flop_all_hands_1thread_ms": single_wall * 1e3,
        "ours_equity": float(features[-1].ehs[hand_index(BENCH_HAND)]),
    }
    result.update(_peer_eval7(peer_iterations, repeats))
    if result["peer_eval7_mc_ms_per_hand"] is not None:
        result["peer_eval7_error"] = abs(result["peer_eval7_equity"] - result["ours_equity"])

    canonical = canonical_flops()[:flops]
    block = 64
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    for start in range(0, canonical.shape[0], block):
        boards_features(canonical[start : start + block], n_bins=10)
    elapsed = time.perf_counter() - start_wall
    result.update(
        {
            "all_flops_s": elapsed * 1755 / flops,
            "all_flops_cpu_s": (time.process_time() - start_cpu) * 1755 / flops,
            "all_flops_measured": flops,
            "threads": get_num_threads(),
        }
    )

    abstraction = CardAbstraction.blank((169, 200, 200, 200))
    arguments = abstraction.kernel_arguments()
    generator = np.random.default_rng(seed)
    for name, n_board, count in (
        ("lookup_numba_ns", 3, 100_000),
        ("turn_lookup_numba_ns", 4, 100_000),
        ("river_lookup_numba_us", 5, 2_000),
    ):
        deals = np.array([generator.choice(52, 2 + n_board, replace=False) for _ in range(count)], dtype=np.int8)
        _lookup_loop(deals[:2], 2, arguments, 1)
        wall, _ = best_seconds(lambda deals=deals: _lookup_loop(deals, 2, arguments, 1), repeats)
        result[name] = wall / count * (1e9 if name.endswith("_ns") else 1e6)
    hole, board = parse_cards(BENCH_HAND), parse_cards(BENCH_FLOP)
    abstraction.bucket(hole, board)
    calls = 2_000
    wall, _ = best_seconds(lambda: [abstraction.bucket(hole, board) for _ in range(calls)], repeats)
    result["lookup_python_us"] = wall / calls * 1e6
    result["machine"] = platform.processor() or platform.machine()
    return result

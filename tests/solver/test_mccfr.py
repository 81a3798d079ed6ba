"""Monte Carlo CFR (solver.solve.kernels_mccfr via solver.solve.cfr): determinism, resumability, convergence."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from abstraction.exact.exact_games import build_game
from abstraction.tree import SolverGame
from solver.evaluate.exploitability import exploitability
from solver.solve import kernels_mccfr
from solver.solve.cfr import SAMPLING, Solver, allocate_tables, run_iterations

# with NUMBA_DISABLE_JIT=1 the generator's uint64 arithmetic runs in NumPy scalars, which warn
# when they wrap around; wrapping is what splitmix64 wants
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered in scalar:RuntimeWarning")


def tables_equal(first: dict, second: dict) -> bool:
    return all(np.array_equal(first[name], second[name]) for name in first)


@pytest.mark.parametrize("algorithm", SAMPLING)
@pytest.mark.parametrize("options", [{}, {"linear_averaging": True}])
@pytest.mark.jit_only  # a convergence run
def test_same_seed_same_tables(leduc, algorithm, options) -> None:
    first = Solver(leduc, algorithm, seed=7, **options).run(3000).tables()
    second = Solver(leduc, algorithm, seed=7, **options).run(3000).tables()
    other = Solver(leduc, algorithm, seed=8, **options).run(3000).tables()
    assert tables_equal(first, second)
    assert not np.array_equal(first["regrets"], other["regrets"])


@pytest.mark.parametrize("algorithm", SAMPLING)
def test_any_split_gives_identical_tables(leduc, algorithm) -> None:
    options = {"prune_after": 500, "prune_threshold": -1.0} if algorithm == "es-mccfr" else {}
    whole = Solver(leduc, algorithm, seed=3, **options).run(2000).tables()
    pieces = Solver(leduc, algorithm, seed=3, **options)
    for count in (1, 999, 256, 744):  # block boundaries and odd places alike
        pieces.run(count)
    assert tables_equal(whole, pieces.tables())
    resumed = (
        Solver(leduc, algorithm, seed=3, **options)
        .load_tables(Solver(leduc, algorithm, seed=3, **options).run(1234).tables())
        .run(766)
    )
    assert tables_equal(whole, resumed.tables())


@pytest.mark.parametrize(
    ("algorithm", "options", "iterations", "bound"),
    [
        ("es-mccfr", {}, 100_000, 0.01),
        ("es-mccfr", {"linear_averaging": True}, 100_000, 0.01),
        ("os-mccfr", {}, 200_000, 0.02),
    ],
)
@pytest.mark.jit_only  # a convergence run
def test_kuhn_convergence(kuhn, algorithm, options, iterations, bound) -> None:
    solver = Solver(kuhn, algorithm, seed=0, **options)
    early = exploitability(kuhn, solver.run(1000).average_strategy()).exploitability_chips
    result = exploitability(kuhn, solver.run(iterations - 1000).average_strategy())
    assert result.exploitability_chips < min(bound, early)
    assert result.game_value == pytest.approx(-1 / 18, abs=0.01)


@pytest.mark.parametrize(
    ("options", "bound"),
    [({}, 0.06), ({"linear_averaging": True}, 0.05), ({"prune_after": 50_000, "prune_threshold": -3000.0}, 0.06)],
)
@pytest.mark.jit_only  # a convergence run
def test_leduc_external_sampling_convergence(leduc, options, bound) -> None:
    solver = Solver(leduc, "es-mccfr", seed=1, **options)
    early = exploitability(leduc, solver.run(2000).average_strategy()).exploitability_chips
    late = exploitability(leduc, solver.run(198_000).average_strategy()).exploitability_chips
    assert late < min(bound, early / 5)


def prunable_entries(game: SolverGame) -> np.ndarray:
    """Table entries whose action may be pruned: not on the last street, not into a terminal."""
    tree = game.tree
    mask = np.zeros(tree.table_size, dtype=bool)
    for node in np.flatnonzero(tree.infoset_group >= 0):
        group = tree.infoset_group[node]
        if tree.street[node] == tree.street.max():
            continue
        for k in range(tree.n_actions[group]):
            if tree.kind[tree.child_start[node] + k] == 0:
                mask[
                    tree.row_offset[group] + k : tree.row_offset[group]
                    + tree.n_buckets[group] * tree.n_actions[group] : tree.n_actions[group]
                ] = True
    return mask


@pytest.mark.jit_only  # a convergence run
def test_pruning_freezes_hopeless_actions(leduc) -> None:
    threshold = -50.0
    solver = Solver(leduc, "es-mccfr", seed=2, prune_after=20_000, prune_probability=1.0, prune_threshold=threshold)
    before = solver.run(20_000).tables()["regrets"]
    plain = Solver(leduc, "es-mccfr", seed=2).run(20_000).tables()["regrets"]
    assert np.array_equal(before, plain)  # pruning never starts before prune_after
    after = solver.run(20_000).tables()["regrets"]
    hopeless = prunable_entries(leduc) & (before < threshold)
    assert hopeless.sum() >= 5
    # always pruned once below the threshold: never traversed, never updated again
    assert np.array_equal(after[hopeless], before[hopeless])
    assert (after[~hopeless] != before[~hopeless]).sum() > 500


@pytest.mark.jit_only  # a convergence run
def test_pruning_reweights_skippable_subtrees_once(leduc) -> None:
    """A traversal that could have pruned (actions with negative regret, probability 1/2) but did not
    adds the other player's strategy below a prunable action with weight 2, not 2 per prunable
    action above it: one coin per traversal skips the whole subtree, so the weights stay unbiased.
    Checked on player 1's rows, which the first traversal of an iteration (player 0's) adds to
    before any regret of this iteration changes."""
    tree = leduc.tree
    player_1 = np.zeros(tree.table_size, dtype=bool)
    for node in np.flatnonzero((tree.infoset_group >= 0) & (tree.player == 1)):
        group = tree.infoset_group[node]
        player_1[tree.row_offset[group] : tree.row_offset[group] + tree.n_buckets[group] * tree.n_actions[group]] = True
    ratios = []
    for seed in range(30):
        history = Solver(leduc, "es-mccfr", seed=seed, table_dtype="float64").run(300).tables()
        before = history["strategy_sums"]
        plain = Solver(leduc, "es-mccfr", seed=seed, table_dtype="float64").load_tables(history).run(1)
        pruned = (
            Solver(
                leduc,
                "es-mccfr",
                seed=seed,
                table_dtype="float64",
                prune_after=0,
                prune_probability=0.5,
                prune_threshold=-1e-9,
            )
            .load_tables(history)
            .run(1)
        )
        plain_added = plain.tables()["strategy_sums"] - before
        pruned_added = pruned.tables()["strategy_sums"] - before
        visited = (plain_added > 0) & player_1
        assert not (pruned_added[player_1 & ~visited] != 0).any()  # pruning never visits what the plain walk does not
        ratios.append(pruned_added[visited] / plain_added[visited])
    ratios = np.round(np.concatenate(ratios), 6)
    assert set(np.unique(ratios)) <= {0.0, 1.0, 2.0}
    assert (ratios == 2.0).sum() > 50 and (ratios == 0.0).sum() > 50  # both coins were drawn


@pytest.mark.jit_only  # a convergence run
def test_threads_share_tables(leduc) -> None:
    """Two threads run disjoint iteration ranges on the same tables (lock-free, Pluribus style)."""
    solver = Solver(leduc, "es-mccfr", seed=5)
    tables = allocate_tables(leduc, np.float32)
    threads = [
        threading.Thread(
            target=run_iterations,
            args=(leduc, solver.config, tables["regrets"], tables["strategy_sums"], start, 50_000),
        )
        for start in (0, 50_000)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    serial = Solver(leduc, "es-mccfr", seed=5).run(100_000)
    shared = solver.load_tables({**tables, "iteration": np.array([100_000])})
    shared_value = exploitability(leduc, shared.average_strategy()).exploitability_chips
    serial_value = exploitability(leduc, serial.average_strategy()).exploitability_chips
    assert shared_value < 2 * serial_value + 0.01
    # opponent-node averaging adds each row's probabilities: total mass = visits, same order as serial
    assert shared.tables()["strategy_sums"].sum() == pytest.approx(serial.tables()["strategy_sums"].sum(), rel=0.05)


_PYTHON_PATH_SCRIPT = """
import sys, numpy as np
from abstraction.exact.exact_games import build_game
from solver.solve.cfr import Solver
game = build_game("kuhn")
tables = {}
for algorithm in ("cfr+", "es-mccfr", "os-mccfr"):
    solver = Solver(game, algorithm, seed=11, prune_after=40 if algorithm == "es-mccfr" else -1).run(100)
    for name, table in solver.tables().items():
        tables[algorithm + "/" + name] = table
np.savez(sys.argv[1], **tables)
"""


def test_python_path_equals_compiled(kuhn, tmp_path) -> None:
    """With NUMBA_DISABLE_JIT=1 (pure Python kernels) the tables are the compiled ones, bit for bit."""
    import os
    import subprocess
    import sys

    out = tmp_path / "tables.npz"
    environment = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    subprocess.run(
        [sys.executable, "-W", "error", "-c", _PYTHON_PATH_SCRIPT, str(out)], check=True, env=environment, timeout=300
    )
    python = np.load(out)
    for algorithm in ("cfr+", "es-mccfr", "os-mccfr"):
        solver = Solver(kuhn, algorithm, seed=11, prune_after=40 if algorithm == "es-mccfr" else -1).run(100)
        for name, table in solver.tables().items():
            assert np.array_equal(python[algorithm + "/" + name], table), (algorithm, name)


def test_generator_is_uniform() -> None:
    state = np.zeros(1, dtype=np.uint64)
    kernels_mccfr._seed_state(123, kernels_mccfr.ITERATION_STREAM, 4, state)
    draws = np.array([kernels_mccfr.next_uniform(state) for _ in range(20_000)])
    assert draws.min() >= 0.0 and draws.max() < 1.0
    assert draws.mean() == pytest.approx(0.5, abs=0.01)
    assert np.histogram(draws, bins=10, range=(0, 1))[0].min() > 1800


def test_bad_options_are_refused(kuhn) -> None:
    with pytest.raises(ValueError, match="prune_probability must lie in \\[0, 1\\], got 2"):
        Solver(kuhn, "es-mccfr", prune_probability=2)
    with pytest.raises(ValueError, match="epsilon must lie in \\(0, 1\\], got 0"):
        Solver(kuhn, "os-mccfr", epsilon=0)
    with pytest.raises(ValueError, match="regrets must be a float32 array of shape \\(24,\\)"):
        run_iterations(kuhn, Solver(kuhn, "es-mccfr").config, np.zeros(3), np.zeros(24), 0, 1)
    with pytest.raises(ValueError, match="table_dtype must be 'auto' or one of \\['float32', 'float64'\\], got 'int8'"):
        Solver(kuhn, "es-mccfr", table_dtype="int8")


def test_stratified_deals_cover_each_block(leduc) -> None:
    cumulative = leduc.deals.cumulative_probability()
    order = np.empty(leduc.deals.n_deals, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    for block in range(3):
        kernels_mccfr._block_order(9, block, order, state)
        deals = []
        for iteration in range(block * 120, block * 120 + 120):
            kernels_mccfr._seed_state(9, kernels_mccfr.ITERATION_STREAM, iteration, state)
            deals.append(
                kernels_mccfr._stratified_deal(cumulative, order, iteration, kernels_mccfr.next_uniform(state))
            )
        assert sorted(deals) == list(range(120))  # uniform deals: every deal once per block


def test_stratified_deals_follow_unequal_probabilities() -> None:
    probability = np.array([0.1, 0.3, 0.6])
    cumulative = np.cumsum(probability)
    order = np.empty(3, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    counts = np.zeros(3)
    for iteration in range(30_000):
        if iteration % 3 == 0:
            kernels_mccfr._block_order(4, iteration // 3, order, state)
        kernels_mccfr._seed_state(4, kernels_mccfr.ITERATION_STREAM, iteration, state)
        counts[kernels_mccfr._stratified_deal(cumulative, order, iteration, kernels_mccfr.next_uniform(state))] += 1
    np.testing.assert_allclose(counts / counts.sum(), probability, atol=0.01)


@pytest.mark.parametrize(("name", "iterations"), [("kuhn", 2000), ("leduc", 800)])
@pytest.mark.parametrize("linear", [False, True])
def test_external_sampling_equals_recursive_reference(name, iterations, linear) -> None:
    """The iterative kernel equals a recursive pure-Python walk bit for bit at the same seed."""
    from game.rules.exact import rules_config
    from tests.reference import ReferenceExternalSampling
    from tests.solver.test_cfr import reference_rows

    game = build_game(name)
    node_of_history = {game.tree.history(n): n for n in range(game.tree.n_nodes)}
    reference = ReferenceExternalSampling(rules_config(name), node_of_history, seed=13, linear_averaging=linear)
    for _ in range(iterations):
        reference.iterate()
    tables = Solver(game, "es-mccfr", seed=13, linear_averaging=linear, table_dtype="float64").run(iterations).tables()
    compared = 0
    for key, row in reference_rows(game).items():
        if key in reference.regrets:
            count = len(reference.regrets[key])
            assert tables["regrets"][row : row + count].tolist() == reference.regrets[key], key
            compared += 1
        if key in reference.strategy_sums:
            count = len(reference.strategy_sums[key])
            assert tables["strategy_sums"][row : row + count].tolist() == reference.strategy_sums[key], key
    assert compared > 0.9 * len(reference_rows(game)) if name == "kuhn" else compared > 300


@pytest.mark.slow
def test_leduc_external_sampling_ten_million_iterations(leduc) -> None:
    # 10M iterations take about 10 s of one core (~1M iterations/s); the brief's target is
    # <= 0.005 chips after 10 s (OpenSpiel's Python ES-MCCFR does ~10k iterations/s here)
    solver = Solver(leduc, "es-mccfr", seed=0).run(10_000_000)
    assert exploitability(leduc, solver.average_strategy()).exploitability_chips < 0.005


@pytest.mark.slow
def test_leduc_outcome_sampling_converges(leduc) -> None:
    solver = Solver(leduc, "os-mccfr", seed=0)
    early = exploitability(leduc, solver.run(100_000).average_strategy()).exploitability_chips
    late = exploitability(leduc, solver.run(9_900_000).average_strategy()).exploitability_chips
    assert late < min(0.1, early / 5)

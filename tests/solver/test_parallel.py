"""Parallel MCCFR: shared-table threads, delta-merging processes, and the same loop on Dask."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from abstraction.exact.exact_games import build_game
from solver.evaluate.exploitability import exploitability
from solver.solve.cfr import PrivateRows, Solver, first_round_end, normalized_strategy, run_iterations
from solver.solve.parallel import SHARING, check_parallel_settings, delta_block, iteration_runner, split_range
from solver.solve.training import TrainingConfig, train

KUHN = build_game("kuhn")
LEDUC = build_game("leduc")
UNIFORM_KUHN_EXPLOITABILITY = 11 / 24  # OpenSpiel exploitability_test.py: uniform Kuhn NashConv 11/12
KUHN_VALUE = -1 / 18  # OpenSpiel exploitability_test.py / Kuhn (1950): player 0's equilibrium value


def kuhn_exploitability(tables: dict[str, np.ndarray]) -> float:
    return exploitability(KUHN, normalized_strategy(KUHN, tables["strategy_sums"])).exploitability_chips


@given(first=st.integers(0, 10**9), count=st.integers(0, 10**6), parts=st.integers(1, 64))
def test_split_range_cuts_contiguous_balanced_pieces(first: int, count: int, parts: int) -> None:
    pieces = split_range(first, count, parts)
    assert len(pieces) == parts and pieces[0][0] == first
    for (start, size), (next_start, _) in itertools.pairwise(pieces):
        assert start + size == next_start
    sizes = [size for _, size in pieces]
    assert sum(sizes) == count and max(sizes) - min(sizes) <= 1


def test_processes_merge_worker_deltas_in_order() -> None:
    solver = Solver(KUHN, "es-mccfr", seed=5).run(300)
    tables = solver.tables()
    with iteration_runner(KUHN, solver.config, workers=2, backend="processes") as runner:
        runner(tables, 1001)
    # Oracle: each worker runs its half from the same starting tables; the parent adds the deltas.
    start = solver.tables()
    expected_regrets, expected_sums = start["regrets"].copy(), start["strategy_sums"].copy()
    for first, count in [(300, 501), (801, 500)]:
        regret_delta, sum_delta = delta_block(
            json.dumps(KUHN.config, sort_keys=True),
            tuple(sorted(solver.config.to_dict().items())),
            start["regrets"],
            start["strategy_sums"],
            first,
            count,
        )
        expected_regrets += regret_delta
        expected_sums += sum_delta
    np.testing.assert_array_equal(tables["regrets"], expected_regrets)
    np.testing.assert_array_equal(tables["strategy_sums"], expected_sums)
    assert int(tables["iteration"][0]) == 1301


def test_threads_share_the_tables_and_converge() -> None:
    solver = Solver(KUHN, "es-mccfr", seed=2)
    tables = solver.tables()
    with iteration_runner(KUHN, solver.config, workers=2, backend="threads") as runner:
        for _ in range(5):
            runner(tables, 4000)
    assert int(tables["iteration"][0]) == 20_000
    assert kuhn_exploitability(tables) < 0.05 < UNIFORM_KUHN_EXPLOITABILITY


def test_dask_backend_matches_processes_backend(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    settings = dict(game="kuhn", algorithm="es-mccfr", iterations=6000, seed=4, workers=2, evaluate_every=2000)
    reference = train(TrainingConfig(backend="processes", **settings), tmp_path / "processes.h5").record
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_dask = train(
            TrainingConfig(backend="dask", scheduler=cluster.scheduler_address, **settings), tmp_path / "dask.h5"
        ).record
    # Both merge the same worker deltas in the same order: bit-identical tables.
    for name in ("regrets", "strategy_sums", "iteration"):
        assert on_dask.tables[name].tobytes() == reference.tables[name].tobytes(), name
    assert on_dask.solver_config["backend"] == "dask"
    assert on_dask.convergence.exploitability[-1] < UNIFORM_KUHN_EXPLOITABILITY / 2


@pytest.mark.jit_only  # a convergence run
@pytest.mark.parametrize("sharing", SHARING)
def test_two_threads_reach_the_kuhn_value(sharing: str) -> None:
    solver = Solver(KUHN, "es-mccfr", seed=7)
    tables = solver.tables()
    with iteration_runner(KUHN, solver.config, workers=2, backend="threads", sharing=sharing) as runner:
        for _ in range(4):
            runner(tables, 20_000)
    result = exploitability(KUHN, normalized_strategy(KUHN, tables["strategy_sums"]))
    assert int(tables["iteration"][0]) == 80_000
    assert abs(result.game_value - KUHN_VALUE) < 0.002 and result.exploitability_chips < 0.01


def root_sum_mass(game, tables: dict[str, np.ndarray]) -> float:
    """Strategy-sum mass of the root's rows: player 1's traversal adds player 0's root strategy
    (a probability vector) once per iteration, so it equals the iterations run (uniform averaging)."""
    group = game.tree.infoset_group[0]
    start = game.tree.row_offset[group]
    return float(tables["strategy_sums"][start : start + game.tree.n_buckets[group] * game.tree.n_actions[group]].sum())


@pytest.mark.parametrize("sharing", SHARING)
@pytest.mark.parametrize("game", [KUHN, LEDUC], ids=["kuhn", "leduc"])
def test_merged_private_rows_conserve_the_iterations(game, sharing: str) -> None:
    """Two threads merge their first-round changes atomically: no iteration's strategy mass is lost."""
    solver = Solver(game, "es-mccfr", seed=3, table_dtype="float64")
    tables = solver.tables()
    with iteration_runner(game, solver.config, workers=2, backend="threads", sharing=sharing) as runner:
        runner(tables, 6_001)
        runner(tables, 1_999)
    assert int(tables["iteration"][0]) == 8_000
    assert root_sum_mass(game, tables) == pytest.approx(8_000, rel=1e-12)


def test_private_rows_on_one_thread_follow_the_in_place_solve() -> None:
    """Through private rows (shared + pending regret, merged every few iterations) one thread runs
    the same algorithm as in place: equal tables up to float rounding (float64 tables)."""
    plain = Solver(LEDUC, "es-mccfr", seed=4, table_dtype="float64").run(3000).tables()
    config = Solver(LEDUC, "es-mccfr", seed=4, table_dtype="float64").config
    tables = Solver(LEDUC, "es-mccfr", seed=4, table_dtype="float64").tables()
    private = PrivateRows.allocate(LEDUC, np.float64, regrets=True, merge_every=7)
    assert len(private.regrets) == len(private.strategy_sums) == first_round_end(LEDUC.tree) == 414  # round 1
    run_iterations(LEDUC, config, tables["regrets"], tables["strategy_sums"], 0, 1000, private)
    run_iterations(LEDUC, config, tables["regrets"], tables["strategy_sums"], 1000, 2000, private)
    assert not private.regrets.any() and not private.strategy_sums.any()  # merged on return
    np.testing.assert_allclose(tables["regrets"], plain["regrets"], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(tables["strategy_sums"], plain["strategy_sums"], rtol=1e-9, atol=1e-9)


def test_one_worker_is_bit_identical_with_or_without_the_threads_runner() -> None:
    plain = Solver(LEDUC, "es-mccfr", seed=6).run(5000).tables()
    tables = Solver(LEDUC, "es-mccfr", seed=6).tables()
    with iteration_runner(LEDUC, Solver(LEDUC, "es-mccfr", seed=6).config, workers=1) as runner:
        runner(tables, 2500)
        runner(tables, 2500)
    for name in ("regrets", "strategy_sums"):
        assert tables[name].tobytes() == plain[name].tobytes(), name


def test_bad_private_rows_are_refused() -> None:
    config = Solver(LEDUC, "es-mccfr").config
    tables = Solver(LEDUC, "es-mccfr").tables()
    inside_a_group = PrivateRows(np.zeros(5, np.float32), np.zeros(0, np.float32))
    with pytest.raises(ValueError, match="group boundary"):
        run_iterations(LEDUC, config, tables["regrets"], tables["strategy_sums"], 0, 10, inside_a_group)
    with pytest.raises(ValueError, match="'es-mccfr' only"):
        outcome = Solver(LEDUC, "os-mccfr")
        run_iterations(
            LEDUC,
            outcome.config,
            tables["regrets"],
            tables["strategy_sums"],
            0,
            10,
            PrivateRows.allocate(LEDUC, np.float32),
        )
    with pytest.raises(ValueError, match="float32 vector"):
        run_iterations(
            LEDUC, config, tables["regrets"], tables["strategy_sums"], 0, 10, PrivateRows.allocate(LEDUC, np.float64)
        )


def test_unknown_sharing_is_refused() -> None:
    with (
        pytest.raises(ValueError, match=r"sharing must be one of .* got 'hogwild'"),
        iteration_runner(KUHN, Solver(KUHN, "es-mccfr").config, workers=2, sharing="hogwild"),
    ):
        pass


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("cfr+", 2, "threads", None), "workers=2 needs a sampling algorithm"),
        (("es-mccfr", 0, "threads", None), "workers must be an int >= 1, got 0"),
        (("es-mccfr", 2, "mpi", None), "backend must be one of .* got 'mpi'"),
        (("es-mccfr", 2, "dask", None), "backend 'dask' needs a scheduler address"),
        (("es-mccfr", 2, "threads", "tcp://x:1"), "only applies to backend 'dask'"),
    ],
)
def test_bad_parallel_settings_are_refused(arguments: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_parallel_settings(*arguments)

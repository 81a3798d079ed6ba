"""Parallel MCCFR: shared-table threads, delta-merging processes, and the same loop on Dask."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from abstraction.exact_games import build_game
from solver.cfr import Solver, normalized_strategy
from solver.exploitability import exploitability
from solver.parallel import check_parallel_settings, delta_block, iteration_runner, split_range
from solver.training import TrainingConfig, train

KUHN = build_game("kuhn")
UNIFORM_KUHN_EXPLOITABILITY = 11 / 24  # OpenSpiel exploitability_test.py: uniform Kuhn NashConv 11/12


def kuhn_exploitability(tables: dict[str, np.ndarray]) -> float:
    return exploitability(KUHN, normalized_strategy(KUHN, tables["strategy_sums"])).exploitability_chips


@given(first=st.integers(0, 10**9), count=st.integers(0, 10**6), parts=st.integers(1, 64))
def test_split_range_cuts_contiguous_balanced_pieces(first: int, count: int, parts: int) -> None:
    pieces = split_range(first, count, parts)
    assert len(pieces) == parts and pieces[0][0] == first
    for (start, size), (next_start, _) in zip(pieces, pieces[1:]):
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
        regret_delta, sum_delta = delta_block(json.dumps(KUHN.config, sort_keys=True),
                                              tuple(sorted(solver.config.to_dict().items())),
                                              start["regrets"], start["strategy_sums"], first, count)
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
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        on_dask = train(TrainingConfig(backend="dask", scheduler=cluster.scheduler_address, **settings),
                        tmp_path / "dask.h5").record
    # Both merge the same worker deltas in the same order: bit-identical tables.
    for name in ("regrets", "strategy_sums", "iteration"):
        assert on_dask.tables[name].tobytes() == reference.tables[name].tobytes(), name
    assert on_dask.solver_config["backend"] == "dask"
    assert on_dask.convergence.exploitability[-1] < UNIFORM_KUHN_EXPLOITABILITY / 2


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

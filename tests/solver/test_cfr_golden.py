"""The solvers' tables on Kuhn and Leduc (two and three players) equal those of commit 3b78161.

`tests/data/cfr_tables_3b78161.npz` holds the regrets and strategy sums of every algorithm after a
fixed number of iterations (:data:`ITERATIONS`, seed 3; 3-player Leduc's every 61st entry), written by :func:`tables` at 3b78161, before
the full-traversal kernel kept only the traverser's and the others' reach and valued each deal's
terminals once. A faster kernel must leave them unchanged: equal within 1e-12 of each table's
largest entry (they are in fact bit-identical).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from abstraction.exact.exact_games import build_game
from solver.solve import kernels_cfr
from solver.solve.cfr import ALGORITHMS, Solver, allocate_tables, deal_arrays

pytestmark = pytest.mark.jit_only  # Leduc's hundred iterations take minutes as plain Python

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "cfr_tables_3b78161.npz"
GAMES = {"kuhn": ("kuhn", 2), "leduc": ("leduc", 2), "kuhn3": ("kuhn", 3), "leduc3": ("leduc", 3)}
"""Name: (exact game, players)."""
ITERATIONS = {"kuhn": 200, "leduc": 100, "kuhn3": 100, "leduc3": 10}
"""Full-traversal iterations per game; the sampling algorithms run 50 times as many."""
SAMPLING_FACTOR = 50
STRIDE = {"leduc3": 61}
"""Every ``STRIDE``-th entry of a game's tables is kept (3-player Leduc's would take 4.7 MB)."""


def tables(name: str, algorithm: str) -> dict[str, np.ndarray]:
    """The tables of ``algorithm`` on game ``name`` after its iterations (seed 3), every ``STRIDE``-th entry."""
    game, players = GAMES[name]
    iterations = ITERATIONS[name] * (SAMPLING_FACTOR if algorithm.endswith("mccfr") else 1)
    solver = Solver(build_game(game, {"players": players}), algorithm, seed=3).run(iterations)
    stride = STRIDE.get(name, 1)
    return {f"{name}/{algorithm}/{table}": np.asarray(values)[::stride] for table, values in solver.tables().items()}


@pytest.fixture(scope="module")
def golden() -> dict[str, np.ndarray]:
    with np.load(GOLDEN) as data:
        return {key: data[key] for key in data.files}


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_tables_equal_the_golden_ones(golden, name: str, algorithm: str) -> None:
    for key, table in tables(name, algorithm).items():
        expected = golden[key]
        assert table.dtype == expected.dtype and table.shape == expected.shape, key
        scale = max(1.0, float(np.abs(expected).max()))
        np.testing.assert_allclose(table, expected, rtol=0, atol=1e-12 * scale, err_msg=key)


@pytest.mark.parametrize("name", ["leduc", "kuhn3"])
def test_terminals_valued_in_every_sweep_give_the_same_tables(name: str) -> None:
    """A game whose per-deal terminal table would be too big values its terminals in every sweep
    (``max_terminal_entries`` 0 here): the same CFR+ tables to the last bit."""
    game, players = GAMES[name]
    game = build_game(game, {"players": players})
    results = []
    for max_entries in (kernels_cfr.TERMINAL_TABLE_ENTRIES, 0):
        tables = allocate_tables(game)
        kernels_cfr._cfr_iterations(
            game.tree.kernel_tree(), game.deals.probability, *deal_arrays(game.deals), tables["regrets"],
            tables["strategy_sums"], np.empty_like(tables["regrets"]), 0, 20, True, 1.0, False, 0.0, 0.0, max_entries,
        )  # fmt: skip
        results.append(tables)
    for key in ("regrets", "strategy_sums"):
        np.testing.assert_array_equal(results[0][key], results[1][key])
    assert np.abs(results[0]["strategy_sums"]).sum() > 0

"""``experiments/dask_recipe.py``: the 64-core projection's arithmetic, the table sizes it reads from
a strategy file, and its refusals (the Dask run itself is an experiment, not a test)."""

from __future__ import annotations

import pytest

from tests.experiment_scripts import load_experiment

dask_recipe = load_experiment("dask_recipe")


def test_projection_is_compute_over_block_time():
    rows = dask_recipe.projection(
        r1=50_000.0, overhead=0.5, n_bytes=10**6, merge_rate=10**10, network=10**9, share=1_000_000
    )
    assert [row["workers"] for row in rows] == list(dask_recipe.PROJECTED_WORKERS)
    for row in rows:
        seconds = 20.0 + 0.5 + row["workers"] * 2e6 / 1e9 + row["workers"] * 1e6 / 1e10
        assert row["compute_s"] == pytest.approx(20.0)
        assert row["iterations_per_second"] == pytest.approx(row["workers"] * 1_000_000 / seconds)
        assert row["efficiency"] == pytest.approx(20.0 / seconds)
    efficiencies = [row["efficiency"] for row in rows]
    assert efficiencies == sorted(efficiencies, reverse=True)  # traffic grows with the workers
    assert 0.9 < efficiencies[-1] < efficiencies[0] < 1.0


def test_table_bytes_reads_both_tables_of_a_strategy_file(tmp_path):
    from abstraction.exact.exact_games import build_game
    from solver.solve.cfr import Solver
    from solver.solve.training import TrainingConfig, train

    out = tmp_path / "kuhn.h5"
    train(TrainingConfig(game="kuhn", algorithm="es-mccfr", iterations=100), out)
    tables = Solver(build_game("kuhn"), "es-mccfr").tables()
    expected = tables["regrets"].nbytes + tables["strategy_sums"].nbytes
    assert expected > 0
    assert dask_recipe.table_bytes(out) == expected


def test_a_recipe_without_cards_is_refused(tmp_path):
    recipe = tmp_path / "r.toml"
    recipe.write_text('[rules]\nvariant = "swap"\n')
    with pytest.raises(ValueError, match=r"no \[cards\] path"):
        dask_recipe.recipe_cards(recipe)
    recipe.write_text('[rules]\nvariant = "swap"\n[cards]\npath = "c.h5"\n')
    assert dask_recipe.recipe_cards(recipe) == (tmp_path / "c.h5").resolve()


def test_bad_arguments_exit_with_a_message(capsys):
    with pytest.raises(SystemExit):
        dask_recipe.main(["--minutes", "0"])
    assert "--minutes must be > 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        dask_recipe.main(["--cards", "/nonexistent/cards.h5"])
    assert "does not exist" in capsys.readouterr().err

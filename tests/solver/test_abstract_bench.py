"""`vcfr bench abstract`: ES-MCCFR speed and table memory per variant, with the fixed-sample peer."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from solver.bench.abstract import format_table, random_abstraction, run_abstract_benchmark
from solver.cli.main import app


@pytest.mark.jit_only
def test_benchmark_measures_fresh_and_fixed_chance_on_holdem() -> None:
    result = run_abstract_benchmark(("holdem",), seconds=0.2, fixed_deals=2000)
    fresh, fixed = result["rows"]
    assert (fresh["chance"], fixed["chance"]) == ("fresh", "fixed 2000")
    assert fresh["nodes"] == fixed["nodes"] and fresh["infosets"] == fixed["infosets"] > 10_000
    assert fresh["bytes_per_infoset_action"] == 8.0  # two float32 tables
    assert fresh["iterations_per_second"] > 0 and fixed["iterations_per_second"] > 0
    assert result["fixed_over_fresh_holdem"] == fixed["iterations_per_second"] / fresh["iterations_per_second"]
    assert "| holdem |" in format_table(result)


@pytest.mark.slow  # builds the 296,913-node tree (about 20 s)
def test_benchmark_measures_three_player_limit() -> None:
    (row,) = run_abstract_benchmark(("limit",), seconds=0.2)["rows"]
    assert row["bets"] == "limit 3 players, 2 raises" and row["nodes"] == 296_913
    assert row["iterations_per_second"] > 0 and row["bytes_per_infoset_action"] == 8.0


def test_random_abstraction_spreads_hands_over_buckets() -> None:
    abstraction = random_abstraction("bounty", (169, 8, 8, 8), seed=1)
    assert abstraction.config.variant == "bounty" and abstraction.n_buckets(3) == 16  # flop buckets, doubled
    assert len(set(abstraction.flop_table[:10_000].tolist())) == 8


def test_cli_refuses_an_unknown_variant_and_prints_json() -> None:
    runner = CliRunner()
    refused = runner.invoke(app, ["bench", "abstract", "--variants", "blotto"])
    assert refused.exit_code == 2 and "blotto" in refused.output
    done = runner.invoke(app, ["bench", "abstract", "--variants", "swap", "--seconds", "0.1", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["rows"][0]["variant"] == "swap"

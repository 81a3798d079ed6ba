"""``vcfr abstract`` argument checks, ``vcfr bench abstraction --json`` and ``vcfr bench chance --json`` shapes."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from solver.cli.main import app

RUNNER = CliRunner()


def test_abstract_rejects_bad_buckets(tmp_path):
    result = RUNNER.invoke(app, ["abstract", "--buckets", "169,200", "--out", str(tmp_path / "x.h5")])
    assert result.exit_code != 0
    assert "169,200" in result.output
    result = RUNNER.invoke(app, ["abstract", "--method", "kmedoids", "--out", str(tmp_path / "x.h5")])
    assert result.exit_code != 0 and "kmedoids" in result.output
    assert not (tmp_path / "x.h5").exists()


def test_bench_abstraction_json_shape():
    result = RUNNER.invoke(
        app, ["bench", "abstraction", "--flops", "2", "--repeats", "1", "--peer-iterations", "2000", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("flop_all_hands_ms", "all_flops_s", "peer_eval7_mc_ms_per_hand", "lookup_numba_ns", "lookup_python_us"):
        assert key in data
    assert data["ours_equity"] == __import__("pytest").approx(0.5565, abs=5e-5)
    assert data["all_flops_measured"] == 2 and data["flop_all_hands_ms"] > 0


def test_bench_chance_json_shape():
    result = RUNNER.invoke(app, ["bench", "chance", "--deals", "50", "--repeats", "1", "--max-runs", "0,2", "--json"])
    assert result.exit_code == 0, result.output
    rates = json.loads(result.output)["deals_per_second"]
    assert sorted(rates) == ["auction", "bounty", "holdem", "river_of_blood_R0", "river_of_blood_R2", "swap"]
    assert all(rate["one_thread"] > 0 and rate["all_threads"] > 0 for rate in rates.values())
    result = RUNNER.invoke(app, ["bench", "chance", "--max-runs", "x"])
    assert result.exit_code != 0 and "x" in result.output

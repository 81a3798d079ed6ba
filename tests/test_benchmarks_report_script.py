"""``experiments/benchmarks_report.py``: results/benchmarks.md is generated from the JSON results, every
figure read from its file, targets judged from the figures, a missing file named with its command."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.experiment_scripts import load_experiment

report = load_experiment("benchmarks_report")
RESULTS = Path(__file__).resolve().parents[1] / "results"


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """A copy of the committed JSON results the page is made from."""
    for file, _ in report.SOURCES.values():
        shutil.copy(RESULTS / file, tmp_path / file)
    return tmp_path


def _edit(results: Path, name: str, change: Callable[[dict[str, Any]], object]) -> None:
    path = results / report.SOURCES[name][0]
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_the_committed_page_is_what_the_committed_json_makes() -> None:
    assert (RESULTS / "benchmarks.md").read_text() == report.render(report.load(RESULTS))


def test_figures_come_from_the_json(results: Path) -> None:
    evaluator = json.loads((results / "bench_evaluator.json").read_text())
    page = report.render(report.load(results))
    assert f"{evaluator['ours_evals_per_s'] / 1e6:.0f} M/s" in page
    _edit(results, "evaluator", lambda data: data.update(ours_evals_per_s=123.4e6))
    assert "| 123 M/s (" in report.render(report.load(results))


def test_a_figure_below_its_target_is_missed(results: Path) -> None:
    def status(what: str) -> bool | None:
        return next(row[-1] for row in report.rows(report.load(results)) if row[0].startswith(what))

    assert status("Leduc CFR+") is True
    _edit(results, "leduc", lambda data: data["result"]["cfr+"].update(speedup=49.0))
    assert status("Leduc CFR+") is False
    swap = "ES-MCCFR iterations / s, swap (fresh"
    assert status(swap) is True

    def slow_swap(data: dict[str, Any]) -> None:
        next(row for row in data["rows"] if row["variant"] == "swap")["iterations_per_second"] = 49_999.0

    _edit(results, "abstract", slow_swap)
    assert status(swap) is False and "**missed**" in report.render(report.load(results))
    _edit(results, "parallel", lambda data: data["variants"]["swap"]["target"].update(speedup=1.69))
    assert status("2 threads vs 1 worker, swap") is False
    assert status("2 threads vs 1 worker, holdem") is True


def test_the_header_names_the_machine_each_json_records(results: Path) -> None:
    parallel = json.loads((results / "parallel_scaling_abstract.json").read_text())
    header = report.render(report.load(results)).split("| what |")[0]
    assert f"`parallel_scaling_abstract.json` {parallel['machine']}" in header
    assert "`bench_client.json`" in header and "(see each JSON)" in header
    _edit(results, "client", lambda data: data.update(machine="a test box"))
    assert "`bench_client.json` a test box" in report.render(report.load(results))


def test_a_missing_or_broken_file_is_named_with_its_command(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (results / "bench_client.json").unlink()
    with pytest.raises(FileNotFoundError, match=r"bench_client\.json is missing: write it with `vcfr bench client"):
        report.load(results)
    (results / "bench_engine.json").write_text("{not json")
    shutil.copy(RESULTS / "bench_client.json", results / "bench_client.json")
    with pytest.raises(SystemExit) as exit_info:
        report.main(["--results", str(results)])
    assert exit_info.value.code == 2
    assert "bench_engine.json is not valid JSON" in capsys.readouterr().err
    assert not (results / "benchmarks.md").exists()

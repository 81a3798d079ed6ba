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
    _edit(results, "leduc", lambda data: data["cfr+"].update(speedup=49.0))
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


def test_every_row_names_the_commit_of_its_json(results: Path) -> None:
    reports = report.load(results)
    for what, _, commit, *_ in report.rows(reports):
        assert commit, what
    _edit(results, "client", lambda data: data.update(commit="abc1234"))
    page = report.render(report.load(results))
    client_row = next(line for line in page.splitlines() if line.startswith("| client + "))
    assert "| `abc1234` |" in client_row
    _edit(results, "client", lambda data: data.pop("commit"))
    with pytest.raises(ValueError, match=r"bench_client\.json names no commit.*--run client"):
        report.load(results)


def test_run_writes_the_json_with_its_command_commit_and_machine(
    results: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--run leduc``: the benchmark's short command runs (here a stand-in printing the committed figures
    as a quick run), its JSON is written with the command and the checkout's commit, and the page follows."""
    quick = json.loads((results / "bench_solver_leduc.json").read_text())
    for key in ("command", "commit", "commit_note", "machine"):
        quick.pop(key, None)
    quick["budgets_seconds"] = [1.0, 3.0]
    quick["cfr+"]["speedup"] = 77.0
    calls = []

    def runner(argv: list[str]) -> str:
        calls.append(argv)
        return json.dumps(quick)

    monkeypatch.setattr(report, "_subprocess_runner", runner)
    report.main(["--results", str(results), "--run", "leduc"])
    assert calls == [["vcfr", "bench", "solver", "--game", "leduc", "--quick", "--json"]]
    written = json.loads((results / "bench_solver_leduc.json").read_text())
    assert written["command"] == report.RUN_COMMANDS["leduc"]
    assert written["commit"] == report.harness.commit(short=True) and "commit_note" not in written
    assert written["machine"]
    page = (results / "benchmarks.md").read_text()
    leduc = [line for line in page.splitlines() if line.startswith("| Leduc")]
    assert f"`{written['commit']}`" in leduc[0] and ": 77x" in leduc[0] and "--quick" in leduc[0]
    assert "after 1 s" in leduc[1] and "(not judged: the run's budget was 1 s)" in leduc[1]


def test_a_failed_run_is_one_error(results: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(report, "_subprocess_runner", lambda argv: "no json here")
    with pytest.raises(SystemExit) as exit_info:
        report.main(["--results", str(results), "--run", "client"])
    assert exit_info.value.code == 2
    assert "error: benchmark client failed" in capsys.readouterr().err

"""``experiments/harness.py``: the machine description has every field, result files are written
atomically with their command and commit, and cached stages hit, miss and resume by key."""

from __future__ import annotations

import doctest
import json
import os

import pytest

from tests.experiment_scripts import load_experiment

harness = load_experiment("harness")


def test_doctests():
    assert doctest.testmod(harness).failed == 0


def test_machine_describes_this_machine():
    info = harness.machine(cores_used=2)
    assert info["cpu_count"] == os.cpu_count()
    assert info["cores_used"] == 2
    assert info["python"].split()[-1].count(".") == 2
    assert info["cpu_model"] and info["platform"] and info["architecture"]
    if hasattr(os, "sched_getaffinity"):
        assert info["affinity"] == len(os.sched_getaffinity(0))
    if hasattr(os, "getloadavg"):
        assert len(info["load_average"]) == 3
    json.dumps(info)  # a report field
    line = harness.machine_line(info)
    assert f"{os.cpu_count()} CPUs" in line and info["python"] in line
    assert harness.machine_line("an old report's string") == "an old report's string"


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "deep" / "out.json"
    harness.atomic_write_text(target, "first")
    harness.atomic_write_text(target, "second")
    assert target.read_text() == "second"
    assert sorted(path.name for path in target.parent.iterdir()) == ["out.json"]

    def broken_replace(self, other):
        raise OSError("disk gone")

    monkeypatch.setattr(type(target), "replace", broken_replace)
    with pytest.raises(OSError, match="disk gone"):
        harness.atomic_write_text(target, "third")
    assert target.read_text() == "second"  # the old file is intact
    assert sorted(path.name for path in target.parent.iterdir()) == ["out.json"]


def test_write_results_records_command_commit_and_machine(tmp_path):
    command = ".venv/bin/python experiments/x.py --seed 3"
    report = harness.write_results(
        tmp_path / "res", {"value": 1.5}, lambda data: f"# x\n\nvalue {data['value']}\n", command
    )
    written = json.loads((tmp_path / "res.json").read_text())
    assert written == json.loads(json.dumps(report))
    assert written["command"] == command and written["value"] == 1.5
    assert written["commit"] is None or len(written["commit"].removesuffix("-dirty")) == 40
    assert written["machine"]["cpu_count"] == os.cpu_count()
    text = (tmp_path / "res.md").read_text()
    assert text.startswith("# x\n\nvalue 1.5\n") and f"Command: `{command}`" in text
    harness.write_results(tmp_path / "res2", {"machine": "given"}, None, command)
    assert json.loads((tmp_path / "res2.json").read_text())["machine"] == "given"
    assert not (tmp_path / "res2.md").exists()


def test_stages_miss_then_hit_then_miss_on_a_new_key(tmp_path):
    stages = harness.Stages(tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return {"answer": len(calls)}

    marker = tmp_path / "year" / "stage.json"
    first = stages.run(marker, {"n": 1, "path": tmp_path}, compute)
    assert first["cached"] is False and first["result"] == {"answer": 1} and first["seconds"] >= 0
    second = stages.run(marker, {"n": 1, "path": tmp_path}, compute)
    assert second["cached"] is True and second["result"] == {"answer": 1} and len(calls) == 1
    third = stages.run(marker, {"n": 2, "path": tmp_path}, compute)
    assert third["cached"] is False and third["result"] == {"answer": 2}
    forced = harness.Stages(tmp_path, force=True).run(marker, {"n": 2, "path": tmp_path}, compute)
    assert forced["cached"] is False and len(calls) == 3
    output = tmp_path / "year" / "table.npy"
    assert stages.run(marker, {"n": 2, "path": tmp_path}, compute, outputs=(output,))["cached"] is False
    output.write_bytes(b"")  # the stage's file is there now: a hit
    assert stages.run(marker, {"n": 2, "path": tmp_path}, compute, outputs=(output,))["cached"] is True
    assert len(calls) == 4
    marker.write_text("{not json")
    assert stages.cached(marker, {"n": 2, "path": tmp_path}) is None  # a damaged marker is a miss


def test_stages_resume_an_interrupted_stage_with_the_same_key(tmp_path):
    stages = harness.Stages(tmp_path)
    marker = tmp_path / "solve.json"
    assert stages.begin(marker, {"minutes": 1}) is False  # first start
    # interrupted here: no marker saved; a rerun with the same key resumes
    assert stages.begin(marker, {"minutes": 1}) is True
    assert stages.begin(marker, {"minutes": 2}) is False  # new settings start over
    assert stages.begin(marker, {"minutes": 2}) is True
    assert harness.Stages(tmp_path, force=True).begin(marker, {"minutes": 2}) is False


def test_stopwatch_times_a_block():
    with harness.stopwatch() as clock:
        sum(range(1000))
    seconds = clock.seconds
    assert 0 <= seconds < 5 and clock.seconds == seconds  # frozen after the block


def test_run_vcfr_returns_stdout_and_peak_memory_and_names_the_log_on_failure(tmp_path):
    stdout, peak = harness.run_vcfr(["variants", "--json"], tmp_path / "logs" / "variants.log")
    names = [entry["name"] for entry in harness.last_json(stdout)["variants"]]
    assert "holdem" in names and peak > 10 * 2**20  # a Python with numpy loaded
    assert (tmp_path / "logs" / "variants.log").read_text() == stdout
    with pytest.raises(RuntimeError, match=r"vcfr solve failed \(exit 2\): .*log: .*bad\.log"):
        harness.run_vcfr(["solve", "--variant", "nonsense", "--iterations", "1"], tmp_path / "bad.log")


def test_command_line_is_relative_to_the_repository():
    assert harness.command_line(harness.ROOT / "experiments" / "x.py", ["--a", "b c"], python="python") == (
        "python experiments/x.py --a 'b c'"
    )

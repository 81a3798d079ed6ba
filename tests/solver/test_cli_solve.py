"""``vcfr solve``, ``vcfr exploit`` and ``vcfr bench solver`` (with the OpenSpiel peer)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.bench.openspiel_peer import OpenSpielSolver, PeerUnavailableError
from solver.cli.main import app

RUNNER = CliRunner()


def invoke(*arguments: str):
    return RUNNER.invoke(app, list(arguments))


def one_line_error(result) -> str:
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


def test_solve_then_exploit(tmp_path: Path) -> None:
    out = tmp_path / "kuhn.h5"
    kuhn = ("solve", "--variant", "kuhn", "--algorithm", "linear", "--out", str(out))
    solved = invoke(*kuhn, "--iterations", "300", "--checkpoint-every", "100", "--json")
    assert solved.exit_code == 0, solved.output
    summary = json.loads(solved.stdout)
    assert summary["iterations"] == 300 and summary["algorithm"] == "linear"
    exploited = invoke("exploit", str(out), "--json")
    assert exploited.exit_code == 0, exploited.output
    measured = json.loads(exploited.stdout)
    assert {"exploitability_chips", "exploitability_mbb", "game_value"} <= set(measured)
    assert measured["exploitability_chips"] == pytest.approx(summary["exploitability_chips"])
    assert measured["exploitability_chips"] < 5e-3
    assert measured["game_value"] == pytest.approx(-1 / 18, abs=5e-3)  # Kuhn game value -1/18 (Kuhn 1950)
    assert measured["exploitability_mbb"] == pytest.approx(1000 * measured["exploitability_chips"])
    resumed = invoke(*kuhn, "--iterations", "400", "--resume", "--quiet")
    assert resumed.exit_code == 0 and "resumed from iteration 300" in resumed.stdout
    text = invoke("exploit", str(out))
    assert "exploitability:" in text.stdout and "400 iterations" in text.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"\x89HDF\r\n\x1a\n" + bytes(100), "corrupt or truncated"),
        (b"hello", "not an HDF5 file"),
    ],
)
def test_exploit_refuses_bad_files_in_one_line(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "bad.h5"
    if content is not None:
        path.write_bytes(content)
    assert message in one_line_error(invoke("exploit", str(path)))


def test_solve_refuses_bad_options_in_one_line(tmp_path: Path) -> None:
    out = str(tmp_path / "x.h5")
    assert "--algorithm must be one of" in one_line_error(
        invoke("solve", "--algorithm", "cfr-", "--iterations", "5", "--out", out)
    )
    assert "exactly one of iterations and seconds" in one_line_error(invoke("solve", "--variant", "kuhn", "--out", out))
    assert "sampling algorithm" in one_line_error(
        invoke("solve", "--variant", "kuhn", "--iterations", "5", "--workers", "2", "--out", out)
    )


def test_openspiel_peer_matches_known_values() -> None:
    pytest.importorskip("pyspiel")
    peer = OpenSpielSolver("kuhn", "cfr+")
    peer.run(1)
    # After one CFR+ iteration the average policy is uniform: exploitability 11/24 (OpenSpiel
    # exploitability_test.py, uniform Kuhn NashConv 11/12).
    assert peer.exploitability() == pytest.approx(11 / 24)
    peer.run(200)
    assert peer.iteration == 201 and peer.exploitability() < 5e-3
    with pytest.raises(ValueError, match=r"algorithm must be one of .* got 'dqn'"):
        OpenSpielSolver("kuhn", "dqn")


def test_missing_openspiel_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    with pytest.raises(PeerUnavailableError, match="pip install"):
        OpenSpielSolver("leduc", "cfr+")
    assert "OpenSpiel (pyspiel) is not installed" in one_line_error(
        invoke("bench", "solver", "--game", "kuhn", "--quick")
    )


def test_bench_solver_json_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspiel")
    monkeypatch.setattr("solver.bench.solver.QUICK_BUDGET_SECONDS", (0.05, 0.1))
    result = invoke("bench", "solver", "--game", "kuhn", "--quick", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["cfr+"]) == {
        "ours_ms_per_iter",
        "openspiel_ms_per_iter",
        "speedup",
        "ours_expl_100",
        "openspiel_expl_100",
        "ours_expl_1000",
        "openspiel_expl_1000",
    }
    assert set(data["es-mccfr"]) == {
        "ours_iters_per_s",
        "openspiel_iters_per_s",
        "speedup",
        "ours_expl_10s",
        "openspiel_expl_10s",
        "ours_expl_60s",
        "openspiel_expl_60s",
    }
    # Same algorithm on the same game: CFR+ reaches about the same exploitability on both sides.
    assert data["cfr+"]["ours_expl_1000"] < 1e-3 and data["cfr+"]["openspiel_expl_1000"] < 1e-3
    assert data["budgets_seconds"] == [0.05, 0.1]


def test_help_names_the_run_file_tables():
    # typer renders help with rich markup, where an unescaped "[rules]" vanishes as a tag
    result = invoke("solve", "--help")
    assert result.exit_code == 0
    text = " ".join(result.output.replace("│", " ").split())
    for table in ("[rules]", "[cards]", "[bets]", "[solver]"):
        assert table in text, table


def kuhn_solve(out: Path, *extra: str):
    return invoke("solve", "--variant", "kuhn", "--iterations", "300", "--quiet", "--out", str(out), *extra)


def test_solve_refuses_to_replace_a_strategy_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 item 3: without --resume an existing strategy file was replaced without a word."""
    out = tmp_path / "kuhn.h5"
    assert kuhn_solve(out).exit_code == 0
    before = out.read_bytes()

    def no_work(*arguments, **keywords):
        raise AssertionError("the solve started")

    monkeypatch.setattr("solver.solve.training.train", no_work)
    refused = invoke("solve", "--variant", "kuhn", "--iterations", "100", "--out", str(out))
    message = one_line_error(refused)
    assert refused.exit_code == 1 and str(out) in message
    assert "a kuhn strategy (cfr+, 300 iterations)" in message and "--resume" in message and "--force" in message
    assert out.read_bytes() == before
    both = invoke("solve", "--variant", "kuhn", "--iterations", "100", "--out", str(out), "--resume", "--force")
    assert both.exit_code == 2 and "give one of them" in one_line_error(both)
    out.write_text("my notes")
    refused = invoke("solve", "--variant", "kuhn", "--iterations", "100", "--out", str(out))
    assert refused.exit_code == 1 and "not a readable strategy file" in one_line_error(refused)
    assert out.read_text() == "my notes"
    monkeypatch.undo()
    replaced = invoke("solve", "--variant", "kuhn", "--iterations", "100", "--out", str(out), "--force", "--json")
    assert replaced.exit_code == 0, replaced.output
    assert json.loads(replaced.stdout)["iterations"] == 100


def test_solve_refuses_an_unusable_out_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 item 7: an unwritable --out was reported after the solve, naming a hidden temporary file."""

    def no_work(*arguments, **keywords):
        raise AssertionError("the solve started")

    monkeypatch.setattr("solver.solve.training.train", no_work)
    folder = tmp_path / "folder"
    folder.mkdir()
    refused = kuhn_solve(folder, "--force")
    assert refused.exit_code == 1 and f"--out {str(folder)!r} is a directory" in one_line_error(refused)
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    inside = blocker / "kuhn.h5"
    refused = kuhn_solve(inside)
    message = one_line_error(refused)
    assert refused.exit_code == 1 and f"--out {str(inside)!r}: cannot create its folder" in message
    assert ".tmp" not in message


def test_workers_above_the_cores_get_a_warning_and_still_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21 item 6: --workers 1000 on 2 cores was accepted without a word (and ran about 10x slower)."""
    from game import cli_support

    cores = cli_support.available_cores()
    assert cli_support.warn_if_over_cores(cores) is False
    arguments = ["--variant", "kuhn", "--algorithm", "es-mccfr", "--iterations", "2000", "--quiet"]
    monkeypatch.setattr(cli_support, "available_cores", lambda: 1)
    solved = invoke("solve", *arguments, "--workers", "2", "--out", str(tmp_path / "k.h5"))
    assert solved.exit_code == 0, solved.output
    warning = solved.stderr.strip().splitlines()
    assert warning == [
        "warning: --workers 2 is more than the 1 core available to this process; "
        "the extra ones share those cores (no faster, often slower)"
    ]
    quiet = invoke("solve", *arguments, "--workers", "1", "--out", str(tmp_path / "k1.h5"))
    assert quiet.exit_code == 0 and quiet.stderr == ""
    lbr = invoke("lbr", str(tmp_path / "k.h5"), "--hands", "20", "--workers", "2", "--json")
    assert lbr.exit_code == 0, lbr.output
    assert "warning: --workers 2 is more than the 1 core" in lbr.stderr

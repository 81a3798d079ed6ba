"""``experiments/paired_lbr.py`` on two tiny Hold'em strategies: one row per file on the same deals, the first row
paired against itself exactly zero; fewer than two files or a missing one is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.experiment_scripts import load_experiment
from tests.solver.cli_support import solve_tiny

paired = load_experiment("paired_lbr")


@pytest.mark.slow
def test_one_row_per_file_on_the_same_deals(tmp_path: Path) -> None:
    first = solve_tiny(tmp_path / "a" / "tiny.h5")
    second = solve_tiny(tmp_path / "b" / "tiny.h5", stack=30)  # another game: other deals' outcomes
    out = tmp_path / "report"
    arguments = ["--strategies", f"{first},{first},{second}", "--hands", "6", "--candidates", "20", "--jobs", "1",
                 "--out", str(out)]  # fmt: skip
    report = paired.main(arguments)
    rows = report["rows"]
    assert [row["strategy"] for row in rows] == [str(first), str(first), str(second)]
    assert rows[0]["paired_mbb"] == 0.0 and rows[1]["paired_mbb"] == 0.0  # the same file: the same deals and play
    assert rows[1]["paired_ci95_mbb"] == 0.0
    assert all(len(row["lbr_deal_mbb"]) == 6 for row in rows)
    assert rows[2]["lbr"]["raise_streets"] == ["preflop", "flop", "turn", "river"]
    assert "| `" + str(second) + "` |" in out.with_suffix(".md").read_text()
    assert len(json.loads(out.with_suffix(".json").read_text())["rows"]) == 3


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--strategies", "a.h5"], "two or more"),
        (["--strategies", "a.h5,b.h5"], "missing: a.h5, b.h5"),
    ],
)
def test_bad_arguments_are_refused(capsys, arguments, message) -> None:
    with pytest.raises(SystemExit):
        paired.main(arguments)
    assert message in capsys.readouterr().err

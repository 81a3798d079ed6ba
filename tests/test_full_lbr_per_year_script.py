"""``experiments/full_lbr_per_year.py`` on a tiny Swap strategy in the 2022 slot: both LBRs run as
child processes and land in one table, a year without a blueprint gets a row saying so, and an
unknown year is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.experiment_scripts import load_experiment
from tests.solver.cli_support import solve_tiny

per_year = load_experiment("full_lbr_per_year")


@pytest.mark.slow
def test_both_lbrs_on_a_tiny_swap_blueprint(tmp_path: Path) -> None:
    solve_tiny(tmp_path / "bots" / "2022" / "blueprint_swap.h5", "swap")
    out = tmp_path / "report"
    arguments = ["--bots", str(tmp_path / "bots"), "--years", "2022,2023", "--hands", "10", "--tree-candidates", "10",
                 "--full-candidates", "10,20", "--cache", str(tmp_path / "cache"), "--out", str(out)]  # fmt: skip
    report = per_year.main(arguments)
    settings = [(row["year"], row["setting"]) for row in report["lbr"]]
    assert settings == [("2022", "in-tree, K = 10"), ("2022", "full game, K = 10"), ("2022", "full game, K = 20")]
    assert all("error" not in row and row["result"]["hands"] == 10 for row in report["lbr"])
    assert [row["result"].get("actions", "tree") for row in report["lbr"]] == ["tree", "full", "full"]
    assert [row["result"]["candidates"] for row in report["lbr"]] == [10, 10, 20]
    assert "2023" in report["missing"] and report["gauntlet"] is None
    text = out.with_suffix(".md").read_text()
    assert "| 2022 | full game, K = 20 |" in text and "no blueprint" in text
    assert json.loads(out.with_suffix(".json").read_text())["hands_per_seat"] == 10
    again = per_year.main(arguments)  # every run is in the cache: the same outcomes, seconds included
    assert again["lbr"] == report["lbr"] and len(list((tmp_path / "cache").glob("*.json"))) == 3


def test_an_unknown_year_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        per_year.main(["--years", "2021"])
    assert "unknown year" in capsys.readouterr().err

"""``experiments/lbr_by_street.py`` on a tiny Swap strategy in the 2022 slot: the restricted LBRs run as child
processes against the lookup bot (each street alone, then all four) and the re-solving bot, and land in one
table; an unknown year is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.experiment_scripts import load_experiment
from tests.solver.cli_support import solve_tiny

by_street = load_experiment("lbr_by_street")


@pytest.mark.slow
def test_restricted_lbrs_on_a_tiny_swap_blueprint(tmp_path: Path) -> None:
    solve_tiny(tmp_path / "bots" / "2022" / "blueprint_swap.h5", "swap")
    out = tmp_path / "report"
    arguments = ["--bots", str(tmp_path / "bots"), "--years", "2022,2023", "--hands", "6", "--resolve-hands", "4",
                 "--candidates", "10", "--size-sets", "1", "--resolve-streets", "river", "--out", str(out)]  # fmt: skip
    report = by_street.main(arguments)
    runs = [(row["bot"], row["raise_streets"], row["sizes"]) for row in report["runs"]]
    assert runs == [
        ("lookup", "none", "1"),
        *(("lookup", streets, "1") for streets in ("preflop", "flop", "turn", "river", "preflop,flop,turn,river")),
        ("resolve", "river", "1"),
    ]
    assert all("error" not in row for row in report["runs"]), report["runs"]
    assert [row["result"]["hands"] for row in report["runs"]] == [6] * 6 + [4]
    assert [row["result"]["raise_streets"] for row in report["runs"]][:3] == [[], ["preflop"], ["flop"]]
    assert report["runs"][-1]["result"]["bot"] == "resolve" and "2023" in report["missing"]
    text = out.with_suffix(".md").read_text()
    assert "| 2022 | resolve | river | 1 |" in text and "| 2022 | lookup | all four | 1 |" in text
    assert "| 2022 | lookup | none (folds, checks, calls) | - |" in text
    assert json.loads(out.with_suffix(".json").read_text())["candidates"] == 10


def test_an_unknown_year_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        by_street.main(["--years", "2021"])
    assert "unknown year" in capsys.readouterr().err

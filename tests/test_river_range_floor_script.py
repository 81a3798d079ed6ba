"""``experiments/river_range_floor.py`` on a tiny Hold'em strategy: one row per floor (with or without the river
gadget) with the river-only LBR and the head-to-head, both on the same deals, then LBR raising on other streets
without a match; bad floors, streets and rounds and a missing file are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.experiment_scripts import load_experiment
from tests.solver.cli_support import solve_tiny

floors = load_experiment("river_range_floor")


@pytest.mark.slow
def test_one_row_per_floor(tmp_path: Path) -> None:
    strategy = solve_tiny(tmp_path / "tiny.h5")
    out = tmp_path / "report"
    arguments = ["--strategy", str(strategy), "--floors", "lookup,0,0.5+gadget", "--hands", "6", "--candidates", "20",
                 "--rounds", "8", "--jobs", "1", "--out", str(out)]  # fmt: skip
    report = floors.main(arguments)
    assert [row["floor"] for row in report["rows"]] == [None, 0.0, 0.5] and report["rows"][0]["match"] is None
    assert [row["options"] for row in report["rows"]] == [[], [], ["gadget"]]
    for row in report["rows"][1:]:
        assert row["lbr"]["raise_streets"] == ["river"] and row["lbr"]["hands"] == 6 and row["lbr"]["bot_illegal"] == 0
        assert row["match"]["rounds"] == 8 and sum(row["match"]["illegal_actions"].values()) == 0
    text = out.with_suffix(".md").read_text()
    assert "| re-solving, range floor 0.5, gadget |" in text and "| lookup bot |" in text
    assert json.loads(out.with_suffix(".json").read_text())["strategy"] == str(strategy)
    arguments = ["--strategy", str(strategy), "--floors", "lookup,0+modelled,0+turn", "--hands", "4", "--candidates",
                 "20", "--rounds", "0", "--raise-streets", "flop,river", "--jobs", "1", "--out", str(out)]  # fmt: skip
    report = floors.main(arguments)  # LBR raising on two streets, no match; the last bot re-solves the turn too
    assert [row["lbr"]["raise_streets"] for row in report["rows"]] == [["flop", "river"]] * 3
    assert [row["match"] for row in report["rows"]] == [None] * 3
    assert [row["options"] for row in report["rows"][1:]] == [["modelled"], ["turn"]]
    assert report["rows"][2]["lbr"]["bot_illegal"] == 0
    assert "LBR raising on flop, river" in out.with_suffix(".md").read_text()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--floors", "0,2"], "--floors"),
        (["--floors", "0,half"], "--floors"),
        (["--floors", "lookup+gadget"], "--floors"),
        (["--floors", "0+gadget+gadget"], "--floors"),
        (["--floors", "0+fast"], "--floors"),
        (["--raise-streets", "river,showdown"], "--raise-streets"),
        (["--rounds", "-2"], "--rounds"),
        (["--strategy", "no.h5"], "no strategy"),
    ],
)
def test_bad_arguments_are_refused(capsys, arguments, message) -> None:
    with pytest.raises(SystemExit):
        floors.main(arguments)
    assert message in capsys.readouterr().err

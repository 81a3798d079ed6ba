"""``experiments/adaptation_gauntlets.py`` on a tiny Swap strategy in the 2022 slot: the four gauntlets (``--resolve``)
and the safety match run as child processes, land in one table with a verdict per opponent, and a second run is read
from the cache; bad arguments are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.experiment_scripts import load_experiment
from tests.solver.cli_support import solve_tiny

gauntlets = load_experiment("adaptation_gauntlets")


@pytest.mark.slow
def test_three_gauntlets_and_the_safety_match_on_a_tiny_swap_blueprint(tmp_path: Path) -> None:
    solve_tiny(tmp_path / "bots" / "2022" / "blueprint_swap.h5", "swap", stack=200)  # the engines' Swap stack
    out, cache = tmp_path / "report", tmp_path / "cache"
    arguments = ["--bots", str(tmp_path / "bots"), "--years", "2022,2023", "--hands", "4", "--jobs", "1",
                 "--cache", str(cache), "--out", str(out), "--resolve"]  # fmt: skip
    report = gauntlets.main(arguments)
    year = report["years"]["2022"]
    runs = {"blueprint", "equity", "adaptive", "adaptive_resolve", "safety"}
    assert set(year["runs"]) == runs and "2023" in report["missing"]
    assert all("error" not in run for run in year["runs"].values()), year["runs"]
    assert year["runs"]["adaptive"]["result"]["bot"].startswith("adaptive:")
    assert year["runs"]["adaptive_resolve"]["result"]["bot"].startswith("adaptive:resolve-final:")
    verdicts = next(iter(year["summary"]["opponents"].values()))
    assert verdicts["resolving_meets"] in ("yes", "overlap", "no")
    assert year["runs"]["safety"]["result"]["rounds"] == 4 and year["summary"]["safety_met"] in (True, False)
    opponents = [row["opponent"] for row in year["runs"]["blueprint"]["result"]["opponents"]]
    assert list(year["summary"]["opponents"]) == opponents and len(opponents) >= 12
    assert {v["meets"] for v in year["summary"]["opponents"].values()} <= {"yes", "overlap", "no"}
    assert year["summary"]["bot_faults"] == 0
    text = out.with_suffix(".md").read_text()
    assert "| **`maniac`** |" in text and "vcfr gauntlet --variant swap --bot adaptive:" in text
    again = gauntlets.main(arguments)  # every command from the cache: the same results
    assert again["years"]["2022"]["runs"] == year["runs"]
    assert json.loads(out.with_suffix(".json").read_text())["hands"] == 4


def test_verdicts_compare_the_adaptive_interval_with_the_better_bot() -> None:
    def row(mean: float, ci: float) -> dict[str, float]:
        return {"mbb_per_hand": mean, "ci95_mbb_per_hand": ci}

    assert gauntlets.verdicts(row(100, 50), row(900, 100), row(850, 100)) == ("yes", "clearly")
    assert gauntlets.verdicts(row(100, 50), row(900, 100), row(720, 100)) == ("overlap", "clearly")
    assert gauntlets.verdicts(row(100, 50), row(900, 100), row(650, 100)) == ("no", "clearly")
    assert gauntlets.verdicts(row(100, 50), row(900, 100), row(120, 100)) == ("no", "no")
    assert gauntlets.verdicts(row(900, 50), row(100, 100), row(900, 10)) == ("yes", "no")


def test_match_rounds_reach_every_gauntlet_command() -> None:
    plain = gauntlets.commands("swap", Path("bots/2022/blueprint_swap.h5"), 20000, 1, resolve=True)
    split = gauntlets.commands("swap", Path("bots/2022/blueprint_swap.h5"), 20000, 1, True, match_rounds=1000)
    assert set(split) == set(plain) == {"blueprint", "equity", "adaptive", "adaptive_resolve"}
    for name, command in split.items():
        assert command[-3:] == ["--match-rounds", "1000", "--json"] and "--match-rounds" not in plain[name]
        assert [part for part in command if part not in ("--match-rounds", "1000")] == plain[name]


@pytest.mark.parametrize(("arguments", "message"), [(["--years", "2021"], "unknown year"), (["--hands", "3"], "even")])
def test_bad_arguments_are_refused(capsys, arguments, message) -> None:
    with pytest.raises(SystemExit):
        gauntlets.main(arguments)
    assert message in capsys.readouterr().err

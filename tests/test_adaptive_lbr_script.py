"""``experiments/adaptive_lbr.py`` on a tiny Swap strategy in the 2022 slot: LBR against the adaptive bot and
against a copy of its base on the same deals, paired deal by deal; a missing year says so; bad arguments
are refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.experiment_scripts import load_experiment
from tests.solver.cli_support import solve_tiny

adaptive_lbr = load_experiment("adaptive_lbr")


def test_lbr_against_the_adaptive_bot_and_its_base_on_the_same_deals(tmp_path: Path) -> None:
    solve_tiny(tmp_path / "bots" / "2022" / "blueprint_swap.h5", "swap", stack=200)
    out = tmp_path / "report"
    arguments = ["--bots", str(tmp_path / "bots"), "--years", "2022,2023", "--hands", "6", "--candidates", "20",
                 "--jobs", "1", "--out", str(out)]  # fmt: skip
    report = adaptive_lbr.main(arguments)
    year = report["years"]["2022"]
    assert set(year["rows"]) == {"lookup", "adaptive"} and "2023" in report["missing"]
    lookup, adaptive = year["rows"]["lookup"], year["rows"]["adaptive"]
    assert len(lookup["lbr_deal_mbb"]) == len(adaptive["lbr_deal_mbb"]) == 6
    difference = np.array(adaptive["lbr_deal_mbb"]) - np.array(lookup["lbr_deal_mbb"])
    assert year["paired"]["mbb_per_hand"] == pytest.approx(difference.mean())
    assert year["paired"]["deals_differing"] == np.count_nonzero(difference)
    text = out.with_suffix(".md").read_text()
    assert "| 2022 (swap) |" in text and "2023" in text


@pytest.mark.parametrize(
    ("arguments", "message"), [(["--years", "2021"], "unknown year"), (["--hands", "1"], "--hands")]
)
def test_bad_arguments_are_refused(capsys, arguments, message) -> None:
    with pytest.raises(SystemExit):
        adaptive_lbr.main(arguments)
    assert message in capsys.readouterr().err

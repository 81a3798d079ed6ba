"""``experiments/engine_fuzz.py`` with a small N: every invariant holds and the JSON is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.experiment_scripts import load_experiment


@pytest.fixture(scope="module")
def engine_fuzz():  # type: ignore[no-untyped-def]
    return load_experiment("engine_fuzz")  # the scripts' one loader (it puts experiments/ on sys.path)


def test_small_fuzz_run_writes_the_summary(engine_fuzz, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "engine_fuzz.json"
    engine_fuzz.main(["--rounds", "150", "--seed", "3", "--out", str(out)])
    summary = json.loads(out.read_text())
    assert summary["all_passed"] is True
    rows = {(row["variant"], row["rules"]): row for row in summary["results"]}
    assert len(rows) == 10
    for row in rows.values():
        assert row["rounds"] == 150 and row["showdowns"] > 0 and row["replayed"] == 2
        assert sum(row["final_street_counts"].values()) == 150
    assert max(int(street) for street in rows[("river_of_blood", "document")]["final_street_counts"]) > 5
    assert "5" in rows[("auction", "engine")]["total_hole_cards_counts"]  # a third card was won
    assert rows[("bounty", "document")]["largest_win_chips"] > 0


def test_a_broken_invariant_is_reported(engine_fuzz, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from game.rules.holdem import HoldemRound

    monkeypatch.setattr(HoldemRound, "_split", lambda self: (1, 0))
    monkeypatch.setattr(HoldemRound, "_award", lambda self, winner: (5, -4))
    with pytest.raises(engine_fuzz.FuzzFailure, match="do not sum to zero"):
        engine_fuzz.fuzz_variant("holdem", "document", 50, 0)


def test_rounds_must_be_positive(engine_fuzz) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        engine_fuzz.main(["--rounds", "0"])

"""``experiments/adaptation_safety.py``: the paired matches agree with their parts, and the adaptive
bot differs from its base only in rounds where it deviated."""

from __future__ import annotations

import pytest

from tests.experiment_scripts import load_experiment

safety = load_experiment("adaptation_safety")


def test_paired_difference_isolates_the_deviations():
    # against the station the adaptive equity bot plays its station exploiter (another equity bot that
    # moves all-in from 60% equity) where the budget allows, so it deviates where the base bets less or
    # checks; the base, the station and the deals are deterministic, so every round without a
    # deviation is played as the base plays it. 400 rounds: the budget opens only once the base has won
    report = safety.measure("holdem", "equity", "station", 400, 0)
    assert report["deviations"] > 0 and report["verdict_at_end"] == "station"
    assert 400 - report["identical_rounds"] <= report["deviations"]
    difference = report["adaptive_mbb_per_hand"] - report["base_mbb_per_hand"]
    assert report["paired_difference_mbb_per_hand"] == pytest.approx(difference)
    assert report["paired_difference_ci95"] < report["adaptive_ci95"]  # the pairing removes the deals' luck


def test_exploit_settings_replace_the_rule_for_the_run():
    # a value of 1000 chips a round is never beaten: no budget, so the adaptive bot is its base hand for hand
    # (120 rounds: the station rule holds after about 80 against the equity bot's own prior)
    report = safety.measure("holdem", "equity", "station", 120, 0, {"value": [1000, 1000]})
    assert report["deviations"] == 0 and report["identical_rounds"] == 120 and report["over_budget"] > 0
    assert report["exploit"] == {"value": [1000, 1000]}
    with pytest.raises(ValueError, match="decision settings only"):
        safety.measure("holdem", "equity", "station", 40, 0, {"samples": 10})

"""``experiments/bounty_rank_inference.py``: against a calling station (every round a showdown) the
model names the opponent's bounty rank by the end of each period, and knows little after 5 rounds."""

from __future__ import annotations

import pytest

from tests.experiment_scripts import load_experiment

inference = load_experiment("bounty_rank_inference")


@pytest.mark.jit_only  # the equity bot's 1,000 deals a decision: 24 s as plain Python
def test_the_rank_is_learned_within_a_period():
    report = inference.measure("station", 100, 0)
    assert report["round_25"]["periods"] == 4
    assert report["round_25"]["probability_of_true_rank"] > 0.9 and report["round_25"]["most_likely_is_true"] == 1.0
    assert report["round_5"]["probability_of_true_rank"] < report["round_25"]["probability_of_true_rank"]

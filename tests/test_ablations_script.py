"""``experiments/ablations.py``: reading a curve at a time, the tables it writes, and its refusals
(the ablation runs themselves are experiments, not tests)."""

from __future__ import annotations

import math

import pytest

from tests.experiment_scripts import load_experiment

ablations = load_experiment("ablations")


def test_chips_at_takes_the_last_measurement_not_after_the_time():
    curve = [(1.0, 100, 5.0), (2.0, 200, 3.0), (3.0, 300, 4.0)]
    assert ablations.chips_at(curve, 2.5) == 3.0
    assert ablations.chips_at(curve, 3.0) == 4.0
    assert math.isnan(ablations.chips_at(curve, 0.5))


def test_solver_table_names_the_lowest_final_exploitability():
    report = {
        "command": "c",
        "machine": "m",
        "date": "d",
        "load": [0.1, 0.2],
        "game": {"cards": "x", "bets": "1p", "n_deals": 10, "n_infosets": 5},
        "settings": {"prune_after": 7, "repeats": 2, "checkpoints_s": [1.0, 2.0]},
        "summary": {
            "plain": {"iterations_per_second": 10.0, "chips_at": {"1": [3.0, 3.2], "2": [2.0, 2.2]}},
            "pruning": {"iterations_per_second": 12.0, "chips_at": {"1": [2.5, 2.7], "2": [1.0, 1.4]}},
        },
    }
    text = ablations.solver_markdown(report)
    assert "| pruning | 12 | 2.6000 | 1.2000 |" in text
    assert "Lowest exploitability at 2 s: **pruning**" in text


def test_abstraction_table_names_the_best_cell_against_equity():
    cell = {
        "buckets": 16,
        "bets": "1p,a cap=2",
        "iterations": 1000,
        "vs_equity_mbb": 500.0,
        "vs_equity_ci": 100.0,
        "lbr_mbb": -50.0,
        "lbr_ci": 30.0,
    }
    report = {
        "variant": "swap",
        "engine_year": 2022,
        "command": "c",
        "machine": "m",
        "date": "d",
        "load": [0, 0],
        "settings": {"flops": "all", "minutes": 1, "workers": 2, "hands": 100, "lbr_hands": 10},
        "cells": [cell, {**cell, "buckets": 32, "vs_equity_mbb": 900.0}],
    }
    text = ablations.abstraction_markdown(report)
    assert "| 32 | `1p,a cap=2` | 1,000 | +900 ± 100 | -50 ± 30 |" in text
    assert "Best against the equity bot: buckets 32" in text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solver", "--seconds", "0"], "--seconds must be > 0"),
        (["abstraction", "--variant", "swap", "--hands", "3"], "--hands even"),
        (["abstraction", "--variant", "holdem"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit):
        ablations.main(argv)
    assert message in capsys.readouterr().err

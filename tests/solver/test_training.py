"""The solve loop: schedule, convergence log, checkpoints, and exact resume after SIGKILL."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solver.solve.strategy_file import read_strategy_file
from solver.solve.training import TrainingConfig, TrainingProgress, evaluate_strategy_file, train
from tests.solver.cli_support import kill_once_written


def assert_same_tables(left: dict[str, np.ndarray], right: dict[str, np.ndarray]) -> None:
    assert set(left) == set(right)
    for name in left:
        assert left[name].tobytes() == right[name].tobytes(), name


def test_schedule_checkpoints_and_log(tmp_path: Path) -> None:
    events: list[TrainingProgress] = []
    config = TrainingConfig(game="kuhn", algorithm="cfr", iterations=95, evaluate_every=20, checkpoint_every=30)
    result = train(config, tmp_path / "k.h5", on_progress=events.append)
    # Block ends: multiples of 20 and of 30, then the target.
    expected = [20, 30, 40, 60, 80, 90, 95]
    assert [event.iteration for event in events] == expected
    assert [event.iteration for event in events if event.checkpoint] == [30, 60, 90]
    log = result.record.convergence
    assert log.iteration.tolist() == expected
    assert np.all(np.diff(log.seconds) > 0)
    assert log.exploitability[-1] < log.exploitability[0] < 11 / 24  # uniform Kuhn: 11/24 (OpenSpiel)
    assert read_strategy_file(tmp_path / "k.h5").iterations == 95
    assert evaluate_strategy_file(tmp_path / "k.h5")["exploitability_chips"] == pytest.approx(log.exploitability[-1])


def test_seconds_budget_stops_after_the_budget(tmp_path: Path) -> None:
    result = train(
        TrainingConfig(game="kuhn", algorithm="es-mccfr", seconds=0.3, evaluate_every=2000), tmp_path / "k.h5"
    )
    log = result.record.convergence
    assert log.seconds[-1] >= 0.3 and np.all(log.seconds[:-1] < 0.3)  # one block, on a slow or busy machine
    assert result.record.iterations == log.iteration[-1] and result.record.iterations % 2000 == 0


@pytest.mark.jit_only
def test_interrupted_cfr_plus_resumes_to_identical_tables(tmp_path: Path) -> None:
    config = TrainingConfig(game="leduc", algorithm="cfr+", iterations=60, evaluate_every=10, checkpoint_every=20)
    straight = train(config, tmp_path / "straight.h5").record

    def crash_after_second_checkpoint(event: TrainingProgress) -> None:
        if event.iteration == 40:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(config, tmp_path / "run.h5", on_progress=crash_after_second_checkpoint)
    assert read_strategy_file(tmp_path / "run.h5").iterations == 40
    resumed = train(config, tmp_path / "run.h5", resume=True)
    assert resumed.resumed_from == 40
    assert_same_tables(resumed.record.tables, straight.tables)
    np.testing.assert_array_equal(resumed.record.convergence.iteration, straight.convergence.iteration)
    np.testing.assert_array_equal(resumed.record.convergence.exploitability, straight.convergence.exploitability)


@pytest.mark.jit_only
def test_sigkilled_mccfr_run_resumes_to_identical_tables(tmp_path: Path) -> None:
    out = tmp_path / "killed.h5"
    arguments = [
        "solve",
        "--variant",
        "leduc",
        "--algorithm",
        "es-mccfr",
        "--iterations",
        "200000",
        "--seed",
        "7",
        "--evaluate-every",
        "10000",
        "--checkpoint-every",
        "10000",
        "--quiet",
        "--out",
        str(out),
    ]
    killed_at = kill_once_written(arguments, out)
    assert 0 < killed_at < 200_000 and killed_at % 10_000 == 0
    config = TrainingConfig(
        game="leduc", algorithm="es-mccfr", iterations=200_000, seed=7, evaluate_every=10_000, checkpoint_every=10_000
    )
    resumed = train(config, out, resume=True)
    assert resumed.resumed_from == killed_at
    straight = train(config, tmp_path / "straight.h5").record
    assert_same_tables(resumed.record.tables, straight.tables)


def test_resume_refuses_other_settings(tmp_path: Path) -> None:
    path = tmp_path / "k.h5"
    train(TrainingConfig(game="kuhn", algorithm="cfr+", iterations=20), path)
    with pytest.raises(ValueError, match="algorithm: file 'cfr\\+', requested 'cfr'"):
        train(TrainingConfig(game="kuhn", algorithm="cfr", iterations=40), path, resume=True)
    with pytest.raises(ValueError, match="another game \\(name: file 'kuhn', requested 'leduc'\\)"):
        train(TrainingConfig(game="leduc", algorithm="cfr+", iterations=40), path, resume=True)
    with pytest.raises(ValueError, match=r"rules\.players: file 2, requested 3"):
        train(TrainingConfig(game={"name": "kuhn", "rules": {"players": 3}}, iterations=40), path, resume=True)
    finished = train(TrainingConfig(game="kuhn", algorithm="cfr+", iterations=20), path, resume=True)
    assert finished.resumed_from == 20 and finished.record.iterations == 20


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": 0}, "iterations must be an int >= 1, got 0"),
        ({"iterations": 10, "algorithm": "cfr-"}, "unknown algorithm 'cfr-'"),
        ({"iterations": 10, "checkpoint_every": -5}, "checkpoint_every must be an int >= 1, got -5"),
        ({"seconds": -1.0}, "seconds must be > 0, got -1.0"),
        ({"iterations": 10, "workers": 2}, "workers=2 needs a sampling algorithm"),
    ],
)
def test_config_errors_name_the_bad_value(settings: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TrainingConfig(game="kuhn", **settings)

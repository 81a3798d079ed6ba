"""The solve loop on abstract heads-up games: schedule, wall-clock checkpoints, exact resume after SIGKILL,
exploitability where there is one, and the process/Dask backends rebuilding the game from its config."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy
from solver.solve.cfr import Solver
from solver.solve.strategy_file import StrategyFileError, read_strategy_file
from solver.solve.training import TrainingConfig, TrainingProgress, evaluate_strategy_file, train
from tests.solver.cli_support import CLI, kill_once_written

pytestmark = (
    pytest.mark.jit_only
)  # abstract games are trained, killed and resumed through the CLI: 10-40 s per test as plain Python


@pytest.fixture(scope="module")
def cards(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cards") / "cards.h5"
    CardAbstraction.blank((169, 4, 4, 4)).save(path)
    return path


def holdem(cards: Path, **settings) -> dict:
    return AbstractGameConfig(
        variant="holdem", rules={"stack": 20}, card_abstraction=str(cards), bets="1p,a cap=1", **settings
    ).to_dict()


def assert_same_tables(left: dict[str, np.ndarray], right: dict[str, np.ndarray]) -> None:
    assert set(left) == set(right)
    for name in left:
        assert left[name].tobytes() == right[name].tobytes(), name


def test_fresh_chance_run_logs_iterations_and_seconds_without_exploitability(cards: Path, tmp_path: Path) -> None:
    events: list[TrainingProgress] = []
    config = TrainingConfig(
        game=holdem(cards),
        algorithm="es-mccfr",
        iterations=20_000,
        seed=1,
        evaluate_every=5_000,
        checkpoint_every=10_000,
        block_seconds=0.02,
    )
    result = train(config, tmp_path / "h.h5", on_progress=events.append)
    assert events[-1].iteration == 20_000 and all(math.isnan(event.exploitability) for event in events)
    assert "fresh chance" in (events[-1].note or "") and events[-1].target_iterations == 20_000
    assert [event.iteration for event in events if event.checkpoint] == [10_000, 20_000]
    assert all(event.iterations_per_second > 0 for event in events)
    # Block ends include every scheduled stop; the log holds exactly those.
    assert {5_000, 10_000, 15_000, 20_000} <= {event.iteration for event in events}
    log = result.record.convergence
    assert log.iteration.tolist() == [5_000, 10_000, 15_000, 20_000]
    assert np.all(np.diff(log.seconds) > 0) and np.isnan(log.exploitability).all()
    stored = read_strategy_file(tmp_path / "h.h5")
    assert stored.game_config["kind"] == "sampled-nolimit" and stored.iterations == 20_000
    assert {"regrets", "strategy_sums", "iteration"} <= set(stored.tables)
    assert stored.tables["regrets"].dtype == np.float32


def test_interrupted_run_resumes_to_the_tables_of_a_straight_run(cards: Path, tmp_path: Path) -> None:
    config = TrainingConfig(
        game=holdem(cards), algorithm="es-mccfr", iterations=30_000, seed=5, checkpoint_every=10_000, block_seconds=0.01
    )
    straight = train(config, tmp_path / "straight.h5").record

    def crash_after_a_checkpoint(event: TrainingProgress) -> None:
        if event.checkpoint:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(config, tmp_path / "run.h5", on_progress=crash_after_a_checkpoint)
    assert read_strategy_file(tmp_path / "run.h5").iterations == 10_000
    resumed = train(config, tmp_path / "run.h5", resume=True)
    assert resumed.resumed_from == 10_000 and resumed.record.iterations == 30_000
    assert_same_tables(resumed.record.tables, straight.tables)
    np.testing.assert_array_equal(resumed.record.average_strategy, straight.average_strategy)


def test_sigkilled_vcfr_solve_resumes_to_identical_tables(cards: Path, tmp_path: Path) -> None:
    out = tmp_path / "killed.h5"
    total, every = 300_000, 10_000
    arguments = [
        "solve",
        "--variant",
        "holdem",
        "--rule",
        "stack=20",
        "--cards",
        str(cards),
        "--bets",
        "1p,a cap=1",
        "--iterations",
        str(total),
        "--seed",
        "7",
        "--checkpoint-every",
        str(every),
        "--quiet",
        "--out",
        str(out),
    ]
    killed_at = kill_once_written(arguments, out)
    assert 0 < killed_at < total and killed_at % every == 0
    resumed = subprocess.run([*CLI, *arguments, "--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed from iteration {killed_at:,}" in resumed.stdout
    config = TrainingConfig(game=holdem(cards), algorithm="es-mccfr", iterations=total, seed=7)
    straight = train(config, tmp_path / "straight.h5").record
    assert_same_tables(read_strategy_file(out).tables, straight.tables)


def test_wall_clock_budget_and_checkpoints_include_writing(cards: Path, tmp_path: Path) -> None:
    path = tmp_path / "timed.h5"
    seen: list[int] = []

    def on_progress(event: TrainingProgress) -> None:
        if event.checkpoint:
            seen.append(read_strategy_file(path).iterations)  # a complete, resumable file at every checkpoint
            assert event.iteration == seen[-1]

    config = TrainingConfig(
        game=holdem(cards), algorithm="es-mccfr", seconds=1.5, checkpoint_minutes=0.4 / 60, block_seconds=0.05
    )
    started = time.perf_counter()
    result = train(config, path, on_progress=on_progress)
    wall = time.perf_counter() - started
    log = result.record.convergence
    assert 1.5 <= log.seconds[-1] < 2.2 and wall < 10
    assert len(seen) >= 2 and seen == sorted(seen) and seen[-1] < result.record.iterations
    assert result.record.iterations == log.iteration[-1] and np.isnan(log.exploitability).all()
    # Resuming a seconds budget that is already spent writes the same tables back.
    again = train(config, path, resume=True)
    assert again.resumed_from == result.record.iterations
    assert_same_tables(again.record.tables, result.record.tables)


def test_threads_run_abstract_games(cards: Path, tmp_path: Path) -> None:
    config = TrainingConfig(game=holdem(cards), algorithm="es-mccfr", iterations=12_000, workers=2, seed=2)
    record = train(config, tmp_path / "t.h5").record
    assert record.iterations == 12_000 and record.solver_config["workers"] == 2
    assert float(record.tables["strategy_sums"].sum()) > 0


def test_fixed_chance_games_are_measured_with_the_big_blind_of_the_rules(cards: Path, tmp_path: Path) -> None:
    game = holdem(cards, chance="fixed", n_deals=500)
    assert "big_blind" not in game["rules"]  # stored rules hold only non-default fields
    result = train(TrainingConfig(game=game, algorithm="cfr+", iterations=40, evaluate_every=20), tmp_path / "f.h5")
    log = result.record.convergence
    assert log.iteration.tolist() == [20, 40] and np.isfinite(log.exploitability).all()
    assert log.exploitability[-1] < log.exploitability[0]
    measured = evaluate_strategy_file(tmp_path / "f.h5")
    assert measured["chance"] == "fixed" and measured["deals"] == 500
    assert measured["big_blind"] == 2.0  # Hold'em's default big blind, though absent from the stored rules
    assert measured["exploitability_chips"] == pytest.approx(log.exploitability[-1])
    assert measured["exploitability_mbb"] == pytest.approx(1000 * measured["exploitability_chips"] / 2)
    bigger = AbstractGameConfig(
        variant="holdem",
        rules={"stack": 40, "small_blind": 2, "big_blind": 4},
        card_abstraction=str(cards),
        bets="1p,a cap=1",
        chance="fixed",
        n_deals=200,
    ).to_dict()
    train(TrainingConfig(game=bigger, algorithm="cfr+", iterations=10), tmp_path / "b.h5")
    assert evaluate_strategy_file(tmp_path / "b.h5")["big_blind"] == 4.0


def test_fresh_chance_files_need_a_sample_for_exploitability(cards: Path, tmp_path: Path) -> None:
    train(TrainingConfig(game=holdem(cards), algorithm="es-mccfr", iterations=5_000), tmp_path / "h.h5")
    with pytest.raises(ValueError, match="needs a fixed deal table"):
        evaluate_strategy_file(tmp_path / "h.h5")
    sampled = evaluate_strategy_file(tmp_path / "h.h5", deals=300, deal_seed=1)
    assert sampled["chance"] == "sampled" and sampled["deals"] == 300 and sampled["exploitability_chips"] > 0
    assert sampled == evaluate_strategy_file(tmp_path / "h.h5", deals=300, deal_seed=1)


def test_resume_refuses_other_games_and_unusable_files(cards: Path, tmp_path: Path) -> None:
    path = tmp_path / "h.h5"
    config = TrainingConfig(game=holdem(cards), algorithm="es-mccfr", iterations=2_000)
    train(config, path)
    other_bets = dict(holdem(cards), bets="1p,a cap=2")
    with pytest.raises(ValueError, match="another game \\(bets: file '1p,a cap=1', requested '1p,a cap=2'\\)"):
        train(TrainingConfig(game=other_bets, algorithm="es-mccfr", iterations=4_000), path, resume=True)
    copy = tmp_path / "copy.h5"
    copy.write_bytes(cards.read_bytes())
    with pytest.raises(ValueError, match="card_abstraction: file"):
        train(TrainingConfig(game=holdem(copy), algorithm="es-mccfr", iterations=4_000), path, resume=True)
    with pytest.raises(ValueError, match="linear_averaging: file False, requested True"):
        train(dataclasses.replace(config, solver_params={"linear_averaging": True}), path, resume=True)
    truncated = tmp_path / "truncated.h5"
    truncated.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(StrategyFileError, match="corrupt or truncated"):
        train(config, truncated, resume=True)
    game = build_abstract_game(AbstractGameConfig.from_dict(holdem(cards)))
    bare = write_abstract_strategy(tmp_path / "bare.h5", game, Solver(game, "es-mccfr").run(100))
    with pytest.raises(ValueError, match="no resume state"):
        train(config, bare, resume=True)


def test_card_files_must_exist_and_fit_the_variant(cards: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        train(
            TrainingConfig(game=holdem(tmp_path / "missing.h5"), algorithm="es-mccfr", iterations=10), tmp_path / "x.h5"
        )
    bounty = AbstractGameConfig(
        variant="bounty", rules={"stack": 20}, card_abstraction=str(cards), bets="1p,a cap=1"
    ).to_dict()
    with pytest.raises(ValueError, match="built for variant 'holdem'; a bounty game needs one built for 'bounty'"):
        train(TrainingConfig(game=bounty, algorithm="es-mccfr", iterations=10), tmp_path / "x.h5")
    bounty_cards = tmp_path / "bounty.h5"
    blank = CardAbstraction.blank((169, 4, 4, 4))
    dataclasses.replace(blank, config=CardAbstractionConfig(buckets=(169, 4, 4, 4), variant="bounty")).save(
        bounty_cards
    )
    swap = AbstractGameConfig(
        variant="swap", rules={"stack": 20}, card_abstraction=str(bounty_cards), bets="1p,a cap=1"
    ).to_dict()
    with pytest.raises(ValueError, match="built for variant 'bounty'; a swap game needs one built for 'swap' or"):
        train(TrainingConfig(game=swap, algorithm="es-mccfr", iterations=10), tmp_path / "x.h5")
    record = train(
        TrainingConfig(game=dict(bounty, card_abstraction=str(bounty_cards)), algorithm="es-mccfr", iterations=3_000),
        tmp_path / "bounty_solve.h5",
    ).record
    assert record.iterations == 3_000


def two_worker_settings(cards: Path) -> dict:
    """The two-worker run the parallel backends are compared on (``TrainingConfig`` keywords but
    the backend)."""
    return dict(game=holdem(cards), algorithm="es-mccfr", iterations=6_000, seed=4, workers=2, evaluate_every=2_000)


def test_processes_backend_rebuilds_abstract_games_reproducibly(cards: Path, tmp_path: Path) -> None:
    settings = dict(two_worker_settings(cards), backend="processes")
    first = train(TrainingConfig(**settings), tmp_path / "a.h5").record
    second = train(TrainingConfig(**settings), tmp_path / "b.h5").record
    assert_same_tables(first.tables, second.tables)
    assert first.iterations == 6_000 and first.convergence.iteration.tolist() == [2_000, 4_000, 6_000]


def test_dask_backend_on_a_process_cluster_matches_the_processes_backend(cards: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    settings = two_worker_settings(cards)
    reference = train(TrainingConfig(backend="processes", **settings), tmp_path / "processes.h5").record
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_dask = train(
            TrainingConfig(backend="dask", scheduler=cluster.scheduler_address, **settings), tmp_path / "dask.h5"
        ).record
    # Worker processes rebuilt the game from its JSON config (reading the card file) and merged
    # the same deltas in the same order: bit-identical tables.
    assert_same_tables(on_dask.tables, reference.tables)
    assert on_dask.solver_config["backend"] == "dask"


def test_only_games_over_a_card_file_are_written_as_abstract_strategies(tmp_path: Path) -> None:
    from abstraction.exact.exact_games import build_game

    kuhn = build_game("kuhn")
    with pytest.raises(ValueError, match="not an abstract game over a card file"):
        write_abstract_strategy(tmp_path / "kuhn.h5", kuhn, Solver(kuhn))
    assert not (tmp_path / "kuhn.h5").exists()

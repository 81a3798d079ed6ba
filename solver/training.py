"""The solve loop: blocks of iterations, exploitability log, atomic checkpoints, exact resume.

The loop advances the solver tables block by block. Block ends fall on multiples of
``evaluate_every`` and ``checkpoint_every`` (and on the iteration target), so the schedule depends
only on the settings, never on timing; with one worker (or the ``processes`` backend) and the same
seed and schedule, a run interrupted at a checkpoint and resumed ends with bit-identical tables
(MCCFR iteration ``t`` samples from ``(seed, t)`` alone). At each block end the exploitability of
the average strategy is measured (time excluded from the solve's seconds) and appended to the
convergence log; at each checkpoint the strategy file is rewritten atomically.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from abstraction.exact_games import EXACT_GAMES, build_game
from abstraction.tree import SolverGame
from solver.cfr import ALGORITHMS, FULL_TRAVERSAL, Solver, normalized_strategy
from solver.exploitability import exploitability
from solver.parallel import check_parallel_settings, iteration_runner
from solver.strategy_file import (
    ConvergenceLog,
    StrategyFileError,
    StrategyRecord,
    read_strategy_file,
    write_strategy_file,
)

DEFAULT_EVALUATE_EVERY = {"full": 10, "sampling": 20_000}


@dataclass(frozen=True)
class TrainingConfig:
    """What to solve and how: the game, the algorithm, the budget, the workers and the schedule.

    ``game`` is an exact game of :mod:`abstraction.exact_games` (``kuhn``, ``leduc``). Exactly one of ``iterations`` (total iterations to reach) and ``seconds`` (total solve
    wall-clock seconds, time spent measuring exploitability excluded) is set. ``evaluate_every``
    is the number of iterations between exploitability measurements (default 10 for full
    traversals, 20,000 for sampling); ``checkpoint_every`` the number of iterations between
    strategy-file writes (``None``: only at the end). ``solver_params`` are extra
    :class:`solver.cfr.SolverConfig` fields (``alpha``, ``linear_averaging`` ...).

    >>> TrainingConfig(game="kuhn", algorithm="cfr+", iterations=100).evaluate_every
    10
    >>> TrainingConfig(game="kuhn", iterations=100, seconds=1.0)
    Traceback (most recent call last):
    ...
    ValueError: set exactly one of iterations and seconds, got iterations=100, seconds=1.0
    """

    game: str = "leduc"
    algorithm: str = "cfr+"
    iterations: int | None = None
    seconds: float | None = None
    seed: int = 0
    workers: int = 1
    backend: str = "threads"
    scheduler: str | None = None
    evaluate_every: int | None = None
    checkpoint_every: int | None = None
    solver_params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.game not in EXACT_GAMES:
            raise ValueError(f"unknown game {self.game!r}: expected one of {list(EXACT_GAMES)}")
        if (self.iterations is None) == (self.seconds is None):
            raise ValueError(
                f"set exactly one of iterations and seconds, got iterations={self.iterations!r}, seconds={self.seconds!r}"
            )
        if self.iterations is not None and (not isinstance(self.iterations, int) or self.iterations < 1):
            raise ValueError(f"iterations must be an int >= 1, got {self.iterations!r}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be > 0, got {self.seconds!r}")
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {self.algorithm!r}: expected one of {list(ALGORITHMS)}")
        check_parallel_settings(self.algorithm, self.workers, self.backend, self.scheduler)
        if self.evaluate_every is None:
            kind = "full" if self.algorithm in FULL_TRAVERSAL else "sampling"
            object.__setattr__(self, "evaluate_every", DEFAULT_EVALUATE_EVERY[kind])
        for name in ("evaluate_every", "checkpoint_every"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        object.__setattr__(self, "solver_params", dict(self.solver_params))

    def schedule(self) -> dict[str, Any]:
        """The settings stored as ``solver_config`` next to the solver's own (JSON)."""
        return {"workers": self.workers, "backend": self.backend, "evaluate_every": self.evaluate_every,
                "checkpoint_every": self.checkpoint_every}


@dataclass(frozen=True)
class TrainingProgress:
    """One block done: iterations done, solve seconds so far, iterations per second of the last
    block, the latest exploitability in chips, whether a checkpoint was written, and the CPU
    seconds this process spent solving in this call of :func:`train` (all its threads; worker
    processes not included)."""

    iteration: int
    seconds: float
    iterations_per_second: float
    exploitability: float
    checkpoint: bool
    cpu_seconds: float


@dataclass(frozen=True)
class TrainingResult:
    """The final strategy file's contents, where it was written, and the iteration it resumed from
    (``None`` for a fresh start)."""

    record: StrategyRecord
    path: Path
    resumed_from: int | None


def _as_json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def _next_stop(done: int, config: TrainingConfig) -> int:
    """The next block end after ``done`` iterations: a multiple of evaluate/checkpoint, or the target."""
    stops = [(done // config.evaluate_every + 1) * config.evaluate_every]
    if config.checkpoint_every:
        stops.append((done // config.checkpoint_every + 1) * config.checkpoint_every)
    if config.iterations is not None:
        stops.append(config.iterations)
    return min(stops)


def _resume_state(path: Path, game: SolverGame, solver_config: Mapping[str, Any]) -> tuple[dict[str, np.ndarray], ConvergenceLog]:
    record = read_strategy_file(path, expected_tree_fingerprint=game.tree.fingerprint())
    if record.game_config != _as_json(game.config):
        raise ValueError(f"{path}: solved game {record.game_config} differs from the requested {_as_json(game.config)}")
    stored = record.solver_config.get("solver", {})
    wanted = _as_json(solver_config)
    different = sorted(key for key in set(stored) | set(wanted) if stored.get(key) != wanted.get(key))
    if different:
        shown = ", ".join(f"{key}: file {stored.get(key)!r}, requested {wanted.get(key)!r}" for key in different)
        raise ValueError(f"{path}: cannot resume with other solver settings ({shown})")
    tables = {name: np.array(values) for name, values in record.tables.items()}
    for name in ("regrets", "strategy_sums", "iteration"):
        if name not in tables:
            raise ValueError(f"{path}: no resume state (missing table {name!r})")
    tables["iteration"] = tables["iteration"].astype(np.int64).reshape(1)
    return tables, record.convergence


def train(config: TrainingConfig, out: str | os.PathLike[str], *, resume: bool = False,
          on_progress: Callable[[TrainingProgress], None] | None = None) -> TrainingResult:
    """Solve ``config.game`` and write the strategy file ``out`` (checkpoints along the way).

    With ``resume=True`` and an existing ``out``, continue from its tables (refused with a
    ValueError if the file's game or solver settings differ); without an existing file, start
    fresh. ``on_progress`` is called after every block.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     result = train(TrainingConfig(game="kuhn", algorithm="cfr+", iterations=200), pathlib.Path(folder) / "k.h5")
    >>> result.record.iterations, bool(result.record.convergence.exploitability[-1] < 2e-3)
    (200, True)
    """
    path = Path(out)
    game = build_game(config.game)
    solver = Solver(game, config.algorithm, config.seed, **config.solver_params)
    tables, log = solver.tables(), ConvergenceLog.empty()
    resumed_from = None
    if resume and path.exists():
        tables, log = _resume_state(path, game, solver.config.to_dict())
        resumed_from = int(tables["iteration"][0])
    elapsed = float(log.seconds[-1]) if len(log) else 0.0
    cpu_seconds = 0.0
    fingerprint = game.tree.fingerprint()
    solver_config = {"solver": solver.config.to_dict(), **config.schedule()}

    def record() -> StrategyRecord:
        return StrategyRecord(
            game_config=game.config, solver_config=solver_config, iterations=int(tables["iteration"][0]),
            seed=config.seed, tree_fingerprint=fingerprint, tree_arrays=game.tree.to_arrays(),
            average_strategy=normalized_strategy(game, tables["strategy_sums"]), tables=tables, convergence=log,
        )

    def finished() -> bool:
        if config.iterations is not None:
            return int(tables["iteration"][0]) >= config.iterations
        return elapsed >= float(config.seconds or 0.0)

    with iteration_runner(game, solver.config, config.workers, config.backend, config.scheduler) as runner:
        while not finished():
            done = int(tables["iteration"][0])
            stop = _next_stop(done, config)
            started, cpu_started = time.perf_counter(), time.process_time()
            runner(tables, stop - done)
            block_seconds = time.perf_counter() - started
            elapsed += block_seconds
            cpu_seconds += time.process_time() - cpu_started
            value = exploitability(game, normalized_strategy(game, tables["strategy_sums"])).exploitability_chips
            log = log.appended(stop, elapsed, value)
            checkpoint = bool(config.checkpoint_every) and stop % config.checkpoint_every == 0
            if checkpoint:
                write_strategy_file(path, record())
            if on_progress is not None:
                on_progress(TrainingProgress(stop, elapsed, (stop - done) / max(block_seconds, 1e-12), value,
                                             checkpoint, cpu_seconds))
    final = record()
    write_strategy_file(path, final)
    return TrainingResult(final, path, resumed_from)



def load_solved_game(path: str | os.PathLike[str]) -> tuple[SolverGame, StrategyRecord]:
    """Read a strategy file and rebuild its game from the stored config; refuse a file whose tree
    is not the rebuilt game's tree (:class:`~solver.strategy_file.StrategyFileError`)."""
    record = read_strategy_file(path)
    try:
        game = build_game(**record.game_config)
    except (TypeError, ValueError) as error:
        raise StrategyFileError(f"{path}: cannot rebuild the game from its stored config ({error})") from None
    if game.tree.fingerprint() != record.tree_fingerprint:
        raise StrategyFileError(f"{path}: the stored tree is not the tree of the game {record.game_config}")
    return game, record


def evaluate_strategy_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Exact exploitability of a strategy file's average strategy, as a JSON-ready dict.

    Keys: ``exploitability_chips``, ``exploitability_mbb`` (mbb per hand), ``game_value`` (player 0,
    chips), ``nash_conv`` (chips), ``iterations``, ``game``, ``algorithm``.
    """
    game, record = load_solved_game(path)
    result = exploitability(game, record.average_strategy)
    return {
        "exploitability_chips": float(result.exploitability_chips),
        "exploitability_mbb": float(result.exploitability_mbb),
        "game_value": float(result.game_value),
        "nash_conv": float(result.nash_conv),
        "iterations": record.iterations,
        "game": game.name,
        "algorithm": record.solver_config.get("solver", {}).get("algorithm"),
    }

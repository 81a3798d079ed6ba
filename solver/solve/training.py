"""The solve loop for every game kind: blocks of iterations, a convergence log, atomic checkpoints, exact resume.

One loop serves every kind of solver game; the game's JSON config (``SolverGame.config``, stored
as a strategy file's ``game_config``) says which kind it is, and :mod:`solver.solve.game_kinds`
rebuilds it (exact Kuhn and Leduc, the heads-up abstract games, the N-player limit games).

Schedule. Block ends fall on multiples of ``evaluate_every`` and ``checkpoint_every`` (and on the
iteration target). MCCFR iteration ``t`` samples from ``(seed, t)`` alone, so with one worker the
tables depend on the seed and the iteration count only, never on how the iterations were cut into
blocks; with the ``processes``/``dask`` backends they also depend on the block ends, which then
come from the settings only. A run interrupted at a checkpoint and resumed therefore ends with
bit-identical tables (one worker, or the delta backends with the same schedule).

Exact games: at each block end the exact exploitability of the average strategy is measured
(time excluded from the solve's seconds) and logged; ``seconds`` counts solve time only.

Abstract games: blocks are also cut to about ``block_seconds`` of wall clock with one worker or
threads (this moves no table bit) so the progress report, the ``seconds`` budget and the
wall-clock checkpoints (``checkpoint_minutes``: at the first block end that many minutes after the
last write) stay responsive. ``seconds`` is wall clock from the first iteration, checkpoint writes
included (start-up: loading the card file, building the game, starting the workers, is not). A
fresh-chance game has no exact exploitability (no deal table to sum over): the log records
iterations and seconds with exploitability NaN, and :class:`TrainingProgress` says why in
``note``. A fixed-chance game is measured over its deal table (the best response within the
abstraction over that sample) when its two ``nodes x deals`` float64 arrays fit in
:data:`EXPLOITABILITY_MEMORY_LIMIT`. Every file written (checkpoints and the final one) holds the
solver tables, so any of them can be resumed.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from abstraction.tree import SolverGame
from game.dataclass_support import check_int
from solver.evaluate.exploitability import exploitability
from solver.solve.cfr import ALGORITHMS, FULL_TRAVERSAL, Solver, SolverConfig, normalized_strategy, table_dtype
from solver.solve.game_kinds import (
    ABSTRACT_KIND,
    EXACT_KIND,
    GameKind,
    abstract_config,
    as_json,
    build_game_from_config,
    game_config_of,
    game_kind,
)
from solver.solve.parallel import check_parallel_settings, iteration_runner
from solver.solve.strategy_file import (
    ConvergenceLog,
    StrategyFileError,
    StrategyRecord,
    StrategySummary,
    read_strategy_file,
    read_strategy_summary,
    write_strategy_file,
)

DEFAULT_EVALUATE_EVERY = {"full": 10, "sampling": 20_000, "abstract": 100_000}
"""Iterations between log entries by algorithm family (``abstract``: sampling on an abstract game)."""
EXPLOITABILITY_MEMORY_LIMIT = 512 * 2**20
"""Bytes the exact best response of a fixed-chance abstract game may take (two float64 ``nodes x deals``)."""
# --- settings and events -----------------------------------------------------------------------


@dataclass(frozen=True)
class TrainingConfig:
    """What to solve and how: the game, the algorithm, the budget, the workers and the schedule.

    ``game`` is an exact game's name (``kuhn``, ``leduc``) or a JSON game config of any kind in
    :data:`solver.solve.game_kinds.GAME_KINDS` (e.g. ``AbstractGameConfig(...).to_dict()``, or ``{"name": "kuhn", "rules":
    {"players": 3}}``). Exactly one of ``iterations`` (total iterations to reach) and ``seconds``
    (total solve seconds: exact games count solve time only, abstract games wall clock, see the
    module docstring) is set. ``evaluate_every`` is the number of iterations between log entries
    (and exploitability measurements where there is one; default 10 for full traversals, 20,000
    for sampling on exact games, 100,000 for sampling on abstract games); ``checkpoint_every`` the iterations
    between strategy-file writes and ``checkpoint_minutes`` the minutes between them (abstract
    games; ``None``: only at the end). ``block_seconds`` is the wall clock a block of an abstract
    game aims at. ``solver_params`` are extra :class:`solver.solve.cfr.SolverConfig` fields
    (``alpha``, ``linear_averaging``, ``table_dtype`` ...).

    >>> TrainingConfig(game="kuhn", algorithm="cfr+", iterations=100).evaluate_every
    10
    >>> TrainingConfig(game="kuhn", iterations=100, seconds=1.0)
    Traceback (most recent call last):
    ...
    ValueError: set exactly one of iterations and seconds, got iterations=100, seconds=1.0
    """

    game: str | Mapping[str, Any] = "leduc"
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
    checkpoint_minutes: float | None = None
    block_seconds: float = 1.0

    def __post_init__(self) -> None:
        config = game_config_of(self.game)
        if not isinstance(self.game, str):
            object.__setattr__(self, "game", config)
        if (self.iterations is None) == (self.seconds is None):
            raise ValueError(
                f"set exactly one of iterations and seconds, got iterations={self.iterations!r}, seconds={self.seconds!r}"
            )
        if self.iterations is not None and (
            not isinstance(self.iterations, int) or isinstance(self.iterations, bool) or self.iterations < 1
        ):
            raise ValueError(f"iterations must be an int >= 1, got {self.iterations!r}")
        if self.seconds is not None and not (isinstance(self.seconds, (int, float)) and self.seconds > 0):
            raise ValueError(f"seconds must be > 0, got {self.seconds!r}")
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {self.algorithm!r}: expected one of {list(ALGORITHMS)}")
        check_parallel_settings(self.algorithm, self.workers, self.backend, self.scheduler)
        if self.evaluate_every is None:
            family = "full" if self.algorithm in FULL_TRAVERSAL else "sampling"
            if family == "sampling" and not self.kind.exact:
                family = "abstract"
            object.__setattr__(self, "evaluate_every", DEFAULT_EVALUATE_EVERY[family])
        for name in ("evaluate_every", "checkpoint_every"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        if self.checkpoint_minutes is not None and not (
            isinstance(self.checkpoint_minutes, (int, float)) and self.checkpoint_minutes > 0
        ):
            raise ValueError(f"checkpoint_minutes must be > 0, got {self.checkpoint_minutes!r}")
        if not (isinstance(self.block_seconds, (int, float)) and self.block_seconds > 0):
            raise ValueError(f"block_seconds must be > 0, got {self.block_seconds!r}")
        object.__setattr__(self, "solver_params", dict(self.solver_params))

    @property
    def game_config(self) -> dict[str, Any]:
        """The game's JSON config (canonical form)."""
        return game_config_of(self.game)

    @property
    def kind(self) -> GameKind:
        return game_kind(self.game_config)

    def schedule(self) -> dict[str, Any]:
        """The settings stored as ``solver_config`` next to the solver's own (JSON)."""
        schedule = {
            "workers": self.workers,
            "backend": self.backend,
            "evaluate_every": self.evaluate_every,
            "checkpoint_every": self.checkpoint_every,
        }
        if self.checkpoint_minutes is not None:
            schedule["checkpoint_minutes"] = self.checkpoint_minutes
        return schedule


@dataclass(frozen=True)
class TrainingProgress:
    """One block done: iterations done, solve seconds so far, iterations per second of the last
    block, the latest exploitability in chips (NaN when there is none: ``note`` says why), whether
    a checkpoint was written, the CPU seconds this process spent solving in this call of
    :func:`train` (all its threads; worker processes not included), and the run's target
    (``iterations`` or ``seconds``, whichever the config sets)."""

    iteration: int
    seconds: float
    iterations_per_second: float
    exploitability: float
    checkpoint: bool
    cpu_seconds: float
    note: str | None = None
    target_iterations: int | None = None
    target_seconds: float | None = None


@dataclass(frozen=True)
class TrainingResult:
    """The final strategy file's contents, where it was written, and the iteration it resumed from
    (``None`` for a fresh start)."""

    record: StrategyRecord
    path: Path
    resumed_from: int | None


# --- the loop ----------------------------------------------------------------------------------


def _next_stop(done: int, config: TrainingConfig) -> int:
    """The next block end after ``done`` iterations: a multiple of evaluate/checkpoint, or the target."""
    assert config.evaluate_every is not None
    stops = [(done // config.evaluate_every + 1) * config.evaluate_every]
    if config.checkpoint_every:
        stops.append((done // config.checkpoint_every + 1) * config.checkpoint_every)
    if config.iterations is not None:
        stops.append(config.iterations)
    return min(stops)


def _block_end(done: int, config: TrainingConfig, rate: float, elapsed: float, cut: bool) -> tuple[int, int]:
    """``(scheduled, stop)``: the next scheduled stop after ``done`` iterations (`_next_stop`) and
    the end of the next block. With ``cut`` the block ends earlier, after about
    ``config.block_seconds`` (and no later than ``config.seconds`` of solving, ``elapsed`` seconds
    done) at ``rate`` iterations per second (1,000 iterations while the rate is unknown)."""
    scheduled = _next_stop(done, config)
    if not cut:
        return scheduled, scheduled
    budget = config.block_seconds
    if config.seconds is not None:
        budget = min(budget, max(float(config.seconds) - elapsed, 0.0))
    size = 1000 if rate <= 0 else max(256, int(rate * budget))
    return scheduled, min(scheduled, done + size)


def _checkpoint_due(stop: int, config: TrainingConfig, last_write: float) -> bool:
    """Whether the block ending at iteration ``stop`` writes a checkpoint: ``stop`` is a multiple of
    ``checkpoint_every``, or ``checkpoint_minutes`` have passed since ``last_write``
    (``time.perf_counter()`` seconds)."""
    due = bool(config.checkpoint_every) and stop % config.checkpoint_every == 0
    if config.checkpoint_minutes is not None:
        due = due or time.perf_counter() - last_write >= 60.0 * config.checkpoint_minutes
    return due


def exploitability_note(game: SolverGame) -> str | None:
    """Why the loop measures no exploitability on ``game`` (``None``: it does)."""
    if game.deals is None:
        return "fresh chance (a new deal per iteration) has no exact exploitability; chance = 'fixed' has one"
    needed = 16 * game.tree.n_nodes * game.deals.n_deals
    if needed > EXPLOITABILITY_MEMORY_LIMIT:
        return (
            f"no exploitability: the best response over {game.deals.n_deals:,} deals needs "
            f"{needed / 2**30:.1f} GiB (limit {EXPLOITABILITY_MEMORY_LIMIT / 2**30:.1f} GiB)"
        )
    return None


_UNSET = object()
_RESUME_TABLES = ("regrets", "strategy_sums", "iteration")
"""Tables a strategy file needs to be resumed (what :class:`~solver.solve.cfr.Solver` keeps)."""
_GAME_NAMES = ("kind", "name", "variant")
"""Config fields that name the game: when one differs, only they are reported (the rules of two games differ anyway)."""


def _differences(stored: Mapping[str, Any], wanted: Mapping[str, Any], prefix: str = "") -> str:
    """Each setting that differs, nested mappings field by field: ``"rules.stack: file 200, requested 400"``."""
    found = []
    for key in sorted(set(stored) | set(wanted)):
        old, new = stored.get(key, _UNSET), wanted.get(key, _UNSET)
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            found.append(_differences(old, new, f"{prefix}{key}."))
        elif old != new:
            shown = ["unset" if value is _UNSET else repr(value) for value in (old, new)]
            found.append(f"{prefix}{key}: file {shown[0]}, requested {shown[1]}")
    return "; ".join(part for part in found if part)


def _full_rules(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """``config`` with its ``rules`` spelled out field by field (defaults filled in) where the kind
    allows it, so that a difference shows both values (stored configs keep only non-defaults)."""
    try:
        if config.get("kind") == ABSTRACT_KIND:
            rules = asdict(abstract_config(config).variant_config())
        elif config.get("kind", EXACT_KIND) == EXACT_KIND:
            from game.rules.exact import rules_config

            rules = rules_config(config["name"], config.get("rules")).to_dict()
        else:
            return config
    except (KeyError, TypeError, ValueError):
        return config
    return {**config, "rules": as_json(rules)}


def check_resume(path: str | os.PathLike[str], config: TrainingConfig) -> StrategySummary:
    """Refuse to resume the strategy file ``path`` with ``config`` if the file solved another game or
    used other solver settings: ValueError naming each setting that differs, both values given
    (``rules.stack: file 200, requested 400``; ``bets``, ``card_abstraction``, ``variant``,
    ``algorithm`` ...). Reads the file's attributes only, so it runs before the game is built;
    :class:`StrategyFileError` if the file is not a readable strategy file. Returns its summary.
    """
    summary = read_strategy_summary(path)
    missing = [name for name in _RESUME_TABLES if name not in summary.table_names]
    if missing:
        raise ValueError(
            f"{path}: no resume state (missing table {missing[0]!r}); "
            "only files written by `vcfr solve` or train() can be resumed"
        )
    stored, wanted = dict(summary.game_config), config.game_config
    if not wanted.get("card_hash"):  # filled in from the card file when the game is built, checked then
        stored.pop("card_hash", None)
        wanted.pop("card_hash", None)
    games = {key: stored.get(key) for key in _GAME_NAMES}, {key: wanted.get(key) for key in _GAME_NAMES}
    different = _differences(*games) or _differences(_full_rules(stored), _full_rules(wanted))
    if different:
        raise ValueError(f"{path}: cannot resume: the file solved another game ({different})")
    solver = SolverConfig(algorithm=config.algorithm, seed=config.seed, **config.solver_params)
    different = _differences(summary.solver_config.get("solver", {}), as_json(solver.to_dict()))
    if different:
        raise ValueError(f"{path}: cannot resume with other solver settings ({different})")
    return summary


def _resume_state(path: Path, game: SolverGame, solver: Solver) -> tuple[dict[str, np.ndarray], ConvergenceLog]:
    """The tables and log to continue from (settings already checked by :func:`check_resume`)."""
    record = read_strategy_file(path, expected_tree_fingerprint=game.tree.fingerprint())
    if record.game_config != as_json(game.config):
        different = _differences(record.game_config, as_json(game.config))
        raise ValueError(f"{path}: solved game differs from the requested one ({different})")
    tables = {name: np.array(values) for name, values in record.tables.items()}
    dtype = np.dtype(table_dtype(solver.config))
    for name in ("regrets", "strategy_sums"):
        if tables[name].shape != (game.tree.table_size,) or tables[name].dtype != dtype:
            raise StrategyFileError(
                f"{path}: table {name!r} is {tables[name].dtype} {tables[name].shape}, "
                f"the solve needs {dtype} ({game.tree.table_size},)"
            )
    if tables["iteration"].size != 1:
        raise StrategyFileError(
            f"{path}: table 'iteration' must hold one number, got shape {tables['iteration'].shape}"
        )
    tables["iteration"] = tables["iteration"].astype(np.int64).reshape(1)
    if int(tables["iteration"][0]) != record.iterations:
        raise StrategyFileError(
            f"{path}: tables are at iteration {int(tables['iteration'][0])}, the file says {record.iterations}"
        )
    return tables, record.convergence


def train(
    config: TrainingConfig,
    out: str | os.PathLike[str],
    *,
    resume: bool = False,
    on_progress: Callable[[TrainingProgress], None] | None = None,
    on_build: Callable[[Any], None] | None = None,
) -> TrainingResult:
    """Solve ``config.game`` and write the strategy file ``out`` (checkpoints along the way).

    With ``resume=True`` and an existing ``out``, continue from its tables (refused before the
    game is built with a ValueError naming each game or solver setting that differs,
    :func:`check_resume`; StrategyFileError if the file is damaged); without an existing file,
    start fresh. Without ``resume`` an existing ``out`` is replaced (``vcfr solve`` refuses that
    unless given ``--force``). ``on_progress`` is called after every block; ``on_build`` gets the
    game's build progress (heads-up abstract games: `solver.games.abstract_games.BuildProgress`,
    the first one with the tree's size, before it is built). A tree too big for ``max_nodes`` or
    for the memory its solver tables need is refused (ValueError) before it is built.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     result = train(TrainingConfig(game="kuhn", algorithm="cfr+", iterations=200), pathlib.Path(folder) / "k.h5")
    >>> result.record.iterations, bool(result.record.convergence.exploitability[-1] < 2e-3)
    (200, True)
    """
    path = Path(out)
    kind = config.kind
    if resume and path.exists():
        check_resume(path, config)  # before the game is built: a mismatch is refused at once
    settings = SolverConfig(algorithm=config.algorithm, seed=config.seed, **config.solver_params)
    itemsize = np.dtype(table_dtype(settings)).itemsize
    game = kind.build(config.game_config, on_progress=on_build, table_itemsize=itemsize)
    solver = Solver(game, config.algorithm, config.seed, **config.solver_params)
    tables, log = solver.tables(), ConvergenceLog.empty()
    resumed_from = None
    if resume and path.exists():
        tables, log = _resume_state(path, game, solver)
        resumed_from = int(tables["iteration"][0])
    note = None if kind.exact else exploitability_note(game)
    big_blind = kind.big_blind(config.game_config)
    fingerprint = game.tree.fingerprint()
    solver_config = {"solver": solver.config.to_dict(), **config.schedule()}
    delta_backend = config.backend == "dask" or (config.backend == "processes" and config.workers > 1)
    cut_blocks = not kind.exact and not delta_backend

    def record() -> StrategyRecord:
        return StrategyRecord(
            game_config=game.config,
            solver_config=solver_config,
            iterations=int(tables["iteration"][0]),
            seed=config.seed,
            tree_fingerprint=fingerprint,
            tree_arrays=game.tree.to_arrays(),
            average_strategy=normalized_strategy(game, tables["strategy_sums"]),
            tables=tables,
            convergence=log,
        )

    def measure() -> float:
        if note is not None:
            return math.nan
        strategy = normalized_strategy(game, tables["strategy_sums"])
        return float(exploitability(game, strategy, big_blind=big_blind).exploitability_chips)

    base_seconds = float(log.seconds[-1]) if len(log) else 0.0
    elapsed = base_seconds
    cpu_seconds = 0.0
    last_value = float(log.exploitability[-1]) if len(log) else math.nan

    def finished() -> bool:
        if config.iterations is not None:
            return int(tables["iteration"][0]) >= config.iterations
        return elapsed >= float(config.seconds or 0.0)

    with iteration_runner(game, solver.config, config.workers, config.backend, config.scheduler) as runner:
        clock_started = time.perf_counter()
        last_write = clock_started
        rate = 0.0
        while not finished():
            done = int(tables["iteration"][0])
            scheduled, stop = _block_end(done, config, rate, elapsed, cut_blocks)
            started, cpu_started = time.perf_counter(), time.process_time()
            runner(tables, stop - done)
            block_seconds = time.perf_counter() - started
            cpu_seconds += time.process_time() - cpu_started
            rate = (stop - done) / max(block_seconds, 1e-12)
            if kind.exact:
                elapsed += block_seconds
                last_value = measure()
                log = log.appended(stop, elapsed, last_value)
                checkpoint = _checkpoint_due(stop, config, last_write)
                if checkpoint:
                    write_strategy_file(path, record())
                    last_write = time.perf_counter()
            else:
                elapsed = base_seconds + (time.perf_counter() - clock_started)
                checkpoint = _checkpoint_due(stop, config, last_write)
                on_schedule = (stop == scheduled and stop % config.evaluate_every == 0) or finished()
                if on_schedule and note is None:
                    last_value = measure()
                    elapsed = base_seconds + (time.perf_counter() - clock_started)
                if on_schedule or checkpoint:
                    log = log.appended(stop, elapsed, last_value if on_schedule else math.nan)
                if checkpoint:
                    write_strategy_file(path, record())
                    last_write = time.perf_counter()
                    elapsed = base_seconds + (last_write - clock_started)
            if on_progress is not None:
                on_progress(
                    TrainingProgress(
                        stop,
                        elapsed,
                        rate,
                        last_value,
                        checkpoint,
                        cpu_seconds,
                        note,
                        config.iterations,
                        config.seconds,
                    )
                )
    final = record()
    write_strategy_file(path, final)
    return TrainingResult(final, path, resumed_from)


# --- reading solved games back -----------------------------------------------------------------


def load_solved_game(path: str | os.PathLike[str]) -> tuple[SolverGame, StrategyRecord]:
    """Read a strategy file and rebuild its game from the stored config; refuse a file whose tree
    is not the rebuilt game's tree (:class:`~solver.solve.strategy_file.StrategyFileError`)."""
    record = read_strategy_file(path)
    try:
        game = build_game_from_config(record.game_config)
    except (TypeError, ValueError, OSError) as error:
        raise StrategyFileError(f"{path}: cannot rebuild the game from its stored config ({error})") from None
    if game.tree.fingerprint() != record.tree_fingerprint:
        raise StrategyFileError(f"{path}: the stored tree is not the tree of the game {record.game_config}")
    return game, record


def _fixed_sample_game(record: StrategyRecord, deals: int, deal_seed: int) -> SolverGame:
    """The stored fresh-chance abstract game with chance replaced by ``deals`` deals drawn once."""
    config = replace(abstract_config(record.game_config), chance="fixed", n_deals=deals, deal_seed=deal_seed)
    return build_game_from_config(config.to_dict())


def evaluate_strategy_file(
    path: str | os.PathLike[str], *, deals: int | None = None, deal_seed: int = 0
) -> dict[str, Any]:
    """Exact exploitability of a strategy file's average strategy, as a JSON-ready dict.

    Keys: ``exploitability_chips``, ``exploitability_mbb`` (mbb per hand, big blind from the game's
    rules, :attr:`GameKind.big_blind`), ``big_blind`` (chips), ``game_value`` (player 0, chips),
    ``nash_conv`` (chips), ``iterations``, ``game``, ``algorithm``, ``chance`` (``"exact"``,
    ``"fixed"`` or ``"sampled"``) and ``deals`` (deals summed over; ``None`` for exact games).

    Exact games: the true exploitability. Fixed-chance abstract games: the best response within
    the abstraction over the game's own deal table. A fresh-chance abstract game has no deal
    table: it is refused (ValueError) unless ``deals`` is given; then chance is replaced by
    ``deals`` deals drawn once with ``deal_seed`` and the best response is computed over that
    sample (within the abstraction). That best response also fits the sample's noise, so the
    value overstates the abstract game's exploitability, by more the fewer the deals.
    """
    game, record = load_solved_game(path)
    kind = game_kind(record.game_config)
    chance = "exact" if kind.exact else "fixed"
    if game.deals is None:
        if deals is None:
            raise ValueError(
                f"{path}: exact exploitability needs a fixed deal table, and this {game.name!r} game "
                "draws fresh chance (a new deal per iteration); pass --deals N to measure it over "
                "N sampled deals, or solve with chance = 'fixed'"
            )
        check_int("deals", deals)
        needed = 16 * game.tree.n_nodes * deals
        if needed > EXPLOITABILITY_MEMORY_LIMIT * 4:
            raise ValueError(
                f"a best response over {deals:,} deals on {game.tree.n_nodes:,} nodes needs "
                f"{needed / 2**30:.1f} GiB; use fewer deals"
            )
        game = _fixed_sample_game(record, deals, deal_seed)
        if game.tree.fingerprint() != record.tree_fingerprint:
            raise StrategyFileError(f"{path}: the fixed-sample game's tree is not the stored tree")
        chance = "sampled"
    elif deals is not None:
        raise ValueError(
            f"{path}: --deals only applies to fresh-chance abstract games; this game has its own "
            f"{'deals' if kind.exact else 'deal table'}"
        )
    big_blind = kind.big_blind(record.game_config)
    result = exploitability(game, record.average_strategy, big_blind=big_blind)
    return {
        "exploitability_chips": float(result.exploitability_chips),
        "exploitability_mbb": float(result.exploitability_mbb),
        "big_blind": big_blind,
        "game_value": float(result.game_value),
        "nash_conv": float(result.nash_conv),
        "iterations": record.iterations,
        "game": game.name,
        "algorithm": record.solver_config.get("solver", record.solver_config).get("algorithm"),
        "chance": chance,
        "deals": None if kind.exact else int(game.deals.n_deals),
    }

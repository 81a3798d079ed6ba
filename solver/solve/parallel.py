"""Run blocks of MCCFR iterations on several workers through joblib.

A block of ``n`` iterations ``t0 .. t0 + n - 1`` is cut into one contiguous range per worker.
Iteration ``t`` samples from a generator seeded by ``(seed, t)`` only (``solver.solve.cfr``), so the
workers draw different deals. Three shapes, all judged by exploitability against wall-clock time:

- ``threads``: joblib's threading backend; every worker runs the GIL-free MCCFR kernel on the SAME
  tables (lock-free, as Pluribus does). Not bit-reproducible: concurrent updates interleave.
  ``sharing`` says how (ES-MCCFR; OS-MCCFR always runs ``"buffers"``):

  - ``"sums"`` (default): regrets written in place; strategy sums too, except those of the first
    betting round, the rows every iteration writes: each worker adds to private buffers
    (:class:`solver.solve.cfr.PrivateRows`, kept for the runner's life) merged with atomic adds at the
    end of each kernel call (4,096 iterations, and its range of the block; the walk never reads
    sums), so two cores do not pull those cache lines back and forth. No staleness, and no
    table-sized buffer per block. A race on the
    other sums loses an update only when two workers add to the same entry in the same few
    nanoseconds.
  - ``"rows"``: the first round's regrets private too, merged every few iterations of each worker
    (:func:`solver.solve.cfr.merge_interval`, at most 64): each worker reads them up to that late. On
    Hold'em a merge interval long enough to save much traffic (1,024) slowed convergence per
    iteration by more than it could gain; 64 merges about every row written since the last merge.
  - ``"buffers"`` (the first scheme, kept to compare against): regrets in place, each extra worker's strategy sums
    in a table-sized buffer zeroed for the block and added in when it ends, while the workers wait
    (no update lost; page faults and the add take ~2 ms a block on Hold'em's 13 MB of sums, ~25 ms
    on Auction's 106 MB: 2.5% of a one-second block).
- ``processes``: joblib's loky backend; every worker copies the tables, runs its range and returns
  the change of each table (the delta); the parent adds the deltas in worker order. Reproducible
  for a fixed worker count and block schedule, but a worker does not see the others' regrets
  until the block ends. Stale regrets slow convergence per iteration: on Leduc with 20,000-iteration
  blocks, ~10x more exploitable than one worker after the same number of iterations
  (``experiments/parallel_scaling.py``).
- ``dask``: the same delta-merging loop on a Dask cluster through joblib's ``dask`` backend
  (``distributed.Client(scheduler)``), the way to scale past one machine.

Start-up (loading the compiled kernels; for ``processes`` and ``dask`` also spawning the workers
and building the game there) happens when the runner is created, before any block is timed.

Workers of the ``processes`` and ``dask`` backends receive the game as its JSON config only and
rebuild it once per worker process (:func:`solver.solve.game_kinds.build_game_from_config`): exact games
from their rules, abstract games (:mod:`solver.games.abstract_games`) with ``build_abstract_game``,
which reads the card-abstraction file named in the config (``card_abstraction``; ``vcfr solve``
stores it as an absolute path). Every worker must be able to read that file at that same path:
automatic on one machine; on a Dask cluster spanning machines, put the file on a shared file system
or copy it to the same path on each worker host first (a worker without it fails with "card
abstraction file ... does not exist"). A fixed-chance game draws its deal table from its
``deal_seed`` in every worker, so all workers hold the same deals.

Full-traversal algorithms (CFR, CFR+, linear, DCFR) are deterministic sweeps: splitting their
iterations over workers has no meaning here, so they run on one worker only.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from abstraction.tree import SolverGame
from game.dataclass_support import check_int
from solver.solve.cfr import SAMPLING, PrivateRows, SolverConfig, allocate_tables, run_iterations, table_dtype

BACKENDS = ("threads", "processes", "dask")
SHARING = ("sums", "rows", "buffers")
"""How ``threads`` workers share the tables (module docstring)."""

IterationRunner = Callable[[dict[str, np.ndarray], int], None]
"""``runner(tables, n_iterations)``: advance ``tables`` (``Solver.tables()`` layout: ``regrets``,
``strategy_sums``, ``iteration`` int64[1]) by ``n_iterations`` iterations, in place."""


def check_parallel_settings(algorithm: str, workers: int, backend: str, scheduler: str | None) -> None:
    """Raise ValueError naming the bad value if these settings cannot run together.

    >>> check_parallel_settings("es-mccfr", 2, "threads", None)
    >>> check_parallel_settings("cfr+", 2, "threads", None)
    Traceback (most recent call last):
    ...
    ValueError: workers=2 needs a sampling algorithm ('es-mccfr', 'os-mccfr'); 'cfr+' is a deterministic full traversal, run it with workers=1
    """
    check_int("workers", workers)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if workers > 1 and algorithm not in SAMPLING:
        raise ValueError(
            f"workers={workers} needs a sampling algorithm {SAMPLING}; {algorithm!r} is a deterministic "
            "full traversal, run it with workers=1"
        )
    if backend == "dask" and not scheduler:
        raise ValueError("backend 'dask' needs a scheduler address (e.g. tcp://127.0.0.1:8786)")
    if scheduler and backend != "dask":
        raise ValueError(f"a scheduler address ({scheduler!r}) only applies to backend 'dask', got backend {backend!r}")


def split_range(first: int, count: int, parts: int) -> list[tuple[int, int]]:
    """Cut iterations ``first .. first + count - 1`` into ``parts`` contiguous ``(first, count)`` pieces.

    >>> split_range(10, 7, 3)
    [(10, 3), (13, 2), (15, 2)]
    """
    base, extra = divmod(count, parts)
    pieces, start = [], first
    for part in range(parts):
        size = base + (1 if part < extra else 0)
        pieces.append((start, size))
        start += size
    return pieces


def _run_serial(game: SolverGame, config: SolverConfig, tables: dict[str, np.ndarray], n_iterations: int) -> None:
    first = int(tables["iteration"][0])
    run_iterations(game, config, tables["regrets"], tables["strategy_sums"], first, n_iterations)
    tables["iteration"][0] = first + n_iterations


def _run_shared(
    parallel: Any,
    workers: int,
    game: SolverGame,
    config: SolverConfig,
    private_rows: list[PrivateRows] | None,
    tables: dict[str, np.ndarray],
    n_iterations: int,
) -> None:
    """One block on ``workers`` threads sharing ``tables``; ``private_rows``: each worker's
    first-round buffers (ES-MCCFR), or ``None`` for sharing ``"buffers"`` (module docstring)."""
    import joblib

    first = int(tables["iteration"][0])
    regrets, strategy_sums = tables["regrets"], tables["strategy_sums"]
    pieces = split_range(first, n_iterations, workers)
    if private_rows is not None:
        parallel(
            joblib.delayed(run_iterations)(game, config, regrets, strategy_sums, start, count, private)
            for (start, count), private in zip(pieces, private_rows, strict=True)
            if count
        )
    else:
        # Sharing "buffers": strategy sums of worker k > 0 in a table-sized buffer added afterwards.
        private_sums = [strategy_sums] + [np.zeros_like(strategy_sums) for _ in range(workers - 1)]
        parallel(
            joblib.delayed(run_iterations)(game, config, regrets, sums, start, count)
            for (start, count), sums in zip(pieces, private_sums, strict=True)
            if count
        )
        for sums in private_sums[1:]:
            strategy_sums += sums
    tables["iteration"][0] = first + n_iterations


@functools.lru_cache(maxsize=4)
def _worker_game(game_json: str) -> SolverGame:
    """The game rebuilt once per worker process from its JSON config, whatever its kind
    (:func:`solver.solve.game_kinds.build_game_from_config`: exact games, abstract games read their card file)."""
    from solver.solve.game_kinds import build_game_from_config

    return build_game_from_config(json.loads(game_json))


def delta_block(
    game_json: str,
    config_items: tuple[tuple[str, Any], ...],
    regrets: np.ndarray,
    strategy_sums: np.ndarray,
    first: int,
    count: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Worker task: run iterations ``first .. first + count - 1`` on copies; return the table deltas.

    Takes only picklable plain data (the game's JSON config, the solver config as items, arrays).
    """
    game = _worker_game(game_json)
    config = SolverConfig(**dict(config_items))
    new_regrets = np.array(regrets, dtype=table_dtype(config))
    new_sums = np.array(strategy_sums, dtype=table_dtype(config))
    run_iterations(game, config, new_regrets, new_sums, first, count)
    new_regrets -= regrets
    new_sums -= strategy_sums
    return new_regrets, new_sums


def _warm_up(parallel: Any, workers: int, game: SolverGame, config: SolverConfig) -> None:
    """Start every worker, build the game and load the kernels there (outside any solve clock)."""
    import joblib

    tables = allocate_tables(game, table_dtype(config))  # one throw-away iteration per worker; the deltas are discarded
    parallel(
        joblib.delayed(delta_block)(
            _game_json(game), _config_items(config), tables["regrets"], tables["strategy_sums"], 0, 1
        )
        for _ in range(workers)
    )


def _game_json(game: SolverGame) -> str:
    return json.dumps(game.config, sort_keys=True)


def _config_items(config: SolverConfig) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(config.to_dict().items()))


def _run_merged(
    parallel: Any,
    workers: int,
    game: SolverGame,
    config: SolverConfig,
    tables: dict[str, np.ndarray],
    n_iterations: int,
) -> None:
    import joblib

    first = int(tables["iteration"][0])
    game_json, config_items = _game_json(game), _config_items(config)
    deltas = parallel(
        joblib.delayed(delta_block)(game_json, config_items, tables["regrets"], tables["strategy_sums"], start, count)
        for start, count in split_range(first, n_iterations, workers)
        if count
    )
    for regret_delta, sum_delta in deltas:  # a fixed order: reproducible sums
        tables["regrets"] += regret_delta
        tables["strategy_sums"] += sum_delta
    tables["iteration"][0] = first + n_iterations


@contextlib.contextmanager
def iteration_runner(
    game: SolverGame,
    config: SolverConfig,
    workers: int = 1,
    backend: str = "threads",
    scheduler: str | None = None,
    sharing: str = "sums",
) -> Iterator[IterationRunner]:
    """Yield ``runner(tables, n_iterations)`` for these settings; worker pools live for the ``with`` block.

    ``sharing``: how ``threads`` workers share the tables, one of :data:`SHARING` (module docstring).

    >>> from abstraction.exact.exact_games import build_game
    >>> from solver.solve.cfr import Solver
    >>> game = build_game("kuhn")
    >>> solver = Solver(game, "es-mccfr", seed=1)
    >>> tables = solver.tables()
    >>> with iteration_runner(game, solver.config, workers=2, backend="processes") as runner:
    ...     runner(tables, 100)
    >>> int(tables["iteration"][0])
    100
    """
    check_parallel_settings(config.algorithm, workers, backend, scheduler)
    if sharing not in SHARING:
        raise ValueError(f"sharing must be one of {SHARING}, got {sharing!r}")
    scratch = allocate_tables(
        game, table_dtype(config)
    )  # load (or compile) the kernels here, before any block is timed
    run_iterations(game, config, scratch["regrets"], scratch["strategy_sums"], 0, 1)
    if workers == 1 and backend != "dask":
        yield functools.partial(_run_serial, game, config)
        return
    import joblib

    if backend == "threads":
        buffers = None
        if sharing != "buffers" and config.algorithm == "es-mccfr":
            buffers = [
                PrivateRows.allocate(game, table_dtype(config), regrets=sharing == "rows") for _ in range(workers)
            ]
        with joblib.Parallel(n_jobs=workers, backend="threading") as parallel:
            yield functools.partial(_run_shared, parallel, workers, game, config, buffers)
    elif backend == "processes":
        with joblib.Parallel(n_jobs=workers, backend="loky") as parallel:
            _warm_up(parallel, workers, game, config)
            yield functools.partial(_run_merged, parallel, workers, game, config)
    else:
        try:
            from distributed import Client
        except ImportError:
            raise ImportError("backend 'dask' needs dask.distributed: pip install -e '.[distributed]'") from None
        with (
            Client(scheduler) as _client,
            joblib.parallel_config(backend="dask"),
            joblib.Parallel(n_jobs=workers) as parallel,
        ):
            _warm_up(parallel, workers, game, config)
            yield functools.partial(_run_merged, parallel, workers, game, config)

"""The solver API: CFR-family and Monte Carlo CFR over a :class:`~abstraction.tree.SolverGame`.

The loop: keep cumulative regrets and strategy sums per information set; each iteration turns
regrets into a current strategy by regret matching, measures every action's counterfactual value
against it (on every deal, or on one sampled deal for MCCFR), adds the regrets of not having
played each action, and adds the current strategy to the average. The average strategy converges
to a Nash equilibrium in two-player zero-sum games. Numba kernels do the work
(:mod:`solver.solve.kernels_cfr`, :mod:`solver.solve.kernels_mccfr`); this module validates, allocates and calls them.

>>> from abstraction.exact.exact_games import build_game
>>> solver = Solver(build_game("kuhn"), algorithm="cfr+")
>>> solver.run(200).iteration
200
>>> from solver.evaluate.exploitability import exploitability
>>> bool(exploitability(solver.game, solver.average_strategy()).exploitability_chips < 2e-3)
True
>>> Solver(build_game("kuhn"), algorithm="cfr++")
Traceback (most recent call last):
...
ValueError: unknown algorithm 'cfr++': expected one of ['cfr', 'cfr+', 'linear', 'dcfr', 'es-mccfr', 'os-mccfr']
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from abstraction.tree import DealTable, FlatTree, SolverGame
from solver.solve import kernels_cfr, kernels_mccfr

FULL_TRAVERSAL = ("cfr", "cfr+", "linear", "dcfr")
SAMPLING = ("es-mccfr", "os-mccfr")
ALGORITHMS = FULL_TRAVERSAL + SAMPLING
RENAMED_ALGORITHMS = {"lcfr": "linear"}
"""Earlier names of an algorithm, refused with the name to use (one name per algorithm)."""
TABLE_DTYPES = {"float32": np.float32, "float64": np.float64}
"""Solver table dtypes by name (``SolverConfig.table_dtype``)."""


@dataclass(frozen=True)
class SolverConfig:
    """Solver settings (JSON-serialisable via :meth:`to_dict`).

    ``algorithm``:
      - ``"cfr"``: vanilla CFR, alternating updates (Zinkevich et al. 2007), uniform averaging.
      - ``"cfr+"``: regret matching+, alternating updates, average weighted by iteration
        (Tammelin 2014, https://arxiv.org/abs/1407.5042), as OpenSpiel's ``CFRPlusSolver``.
      - ``"linear"``: linear CFR, regrets and average weighted by iteration (discounted CFR with
        ``alpha = beta = gamma = 1``; Brown & Sandholm 2019, https://arxiv.org/abs/1809.04040).
      - ``"dcfr"``: discounted CFR with ``alpha``, ``beta``, ``gamma`` (default 1.5, 0, 2).
      - ``"es-mccfr"``: external-sampling Monte Carlo CFR (Lanctot et al. 2009): one deal sampled
        per iteration (stratified over blocks of iterations: with uniform deals every deal once per
        block of ``n_deals`` iterations), each player traverses it in turn exploring all own
        actions and sampling the opponent's, whose strategy is added to the average where met
        (OpenSpiel's "simple" averaging). Options: ``linear_averaging`` (regret and average
        increments weighted by the iteration, as linear CFR) and Pluribus-style regret-based
        pruning (from iteration ``prune_after``, with probability ``prune_probability`` per
        traversal, skip actions whose regret is below ``prune_threshold`` chips, never on the
        last street nor into terminals).
      - ``"os-mccfr"``: outcome-sampling MCCFR, one trajectory per player per iteration, the
        traverser explores with ``epsilon`` (OpenSpiel default 0.6).
    ``table_dtype``: ``"float32"`` (8 bytes per information-set action for regrets and strategy
    sums) or ``"float64"``; ``"auto"`` picks float32 for the sampling algorithms and float64 for
    full traversal (exact games, where CFR+ converges past float32's precision).
    ``seed`` drives the sampling: iteration ``t`` draws from a generator seeded by ``(seed, t)``
    only, so any split of the iterations into calls gives bit-identical tables.
    """

    algorithm: str = "cfr+"
    seed: int = 0
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0
    linear_averaging: bool = False
    prune_after: int = -1
    prune_probability: float = 0.95
    prune_threshold: float = -300.0
    epsilon: float = 0.6
    table_dtype: str = "auto"

    def __post_init__(self) -> None:
        if self.algorithm in RENAMED_ALGORITHMS:
            raise ValueError(f"algorithm {self.algorithm!r} is now called {RENAMED_ALGORITHMS[self.algorithm]!r}")
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {self.algorithm!r}: expected one of {list(ALGORITHMS)}")
        if not isinstance(self.seed, (int, np.integer)) or isinstance(self.seed, bool) or not 0 <= self.seed < 2**63:
            raise ValueError(f"seed must be an int in [0, 2**63), got {self.seed!r}")
        if not 0.0 <= self.prune_probability <= 1.0:
            raise ValueError(f"prune_probability must lie in [0, 1], got {self.prune_probability!r}")
        if not 0.0 < self.epsilon <= 1.0:
            raise ValueError(f"epsilon must lie in (0, 1], got {self.epsilon!r}")
        if self.table_dtype == "auto":
            object.__setattr__(self, "table_dtype", "float64" if self.algorithm in FULL_TRAVERSAL else "float32")
        if self.table_dtype not in TABLE_DTYPES:
            raise ValueError(f"table_dtype must be 'auto' or one of {sorted(TABLE_DTYPES)}, got {self.table_dtype!r}")
        if self.prune_threshold > 0:
            raise ValueError(f"prune_threshold must be <= 0 (a regret in chips), got {self.prune_threshold!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SolverConfig:
        return cls(**data)


SAMPLING_BATCH = 4096
"""Iterations per kernel call of the sampling algorithms: one batch of fresh deals (or table rows) each."""


def deal_arrays(deals: DealTable) -> tuple[np.ndarray, ...]:
    """The deal fields in the order the kernels take them: bucket, weight, chance."""
    return (deals.bucket, deals.weight, deals.chance)


def check_supported(game: SolverGame, algorithm: str | None = None) -> None:
    """Raise TypeError/ValueError if ``game`` is no SolverGame or ``algorithm`` cannot run on its chance."""
    if not isinstance(game, SolverGame):
        raise TypeError(f"game must be a SolverGame (e.g. abstraction.exact.exact_games.build_game), got {game!r}")
    if algorithm in FULL_TRAVERSAL and game.fresh_chance:
        raise ValueError(
            f"{algorithm!r} traverses every deal; game {game.name!r} draws fresh chance "
            f"(use one of {list(SAMPLING)}, or build it with a deal table)"
        )


def table_dtype(config: SolverConfig) -> type:
    """numpy dtype of the solver tables of ``config``."""
    return TABLE_DTYPES[config.table_dtype]


def allocate_tables(game: SolverGame, dtype: Any = np.float64) -> dict[str, np.ndarray]:
    """Zeroed ``regrets`` and ``strategy_sums`` (``tree.table_size`` entries each, of ``dtype``)."""
    size = game.tree.table_size
    return {"regrets": np.zeros(size, dtype=dtype), "strategy_sums": np.zeros(size, dtype=dtype)}


@dataclass(frozen=True)
class PrivateRows:
    """One thread's pending changes to the first rows of tables it shares with other threads
    (ES-MCCFR; :func:`run_iterations`, ``solver.solve.kernels_mccfr._es_mccfr_iterations``).

    ``strategy_sums`` and ``regrets``: arrays of the tables' dtype holding this thread's changes
    to the first ``len(...)`` entries of each table (a whole number of rows from the start of the
    table, :func:`first_round_end`; length 0: written in place), zero between calls. The sums are
    merged into the shared table when a call returns (the walk never reads them); private regrets
    also every ``merge_every`` iterations of this thread, the staleness the other threads see.
    """

    strategy_sums: np.ndarray
    regrets: np.ndarray
    merge_every: int = 64
    """Iterations of this thread between merges of private regrets (:func:`merge_interval`)."""

    @classmethod
    def allocate(
        cls, game: SolverGame, dtype: Any, regrets: bool = False, merge_every: int | None = None
    ) -> PrivateRows:
        """Zeroed buffers for the strategy sums (and, if ``regrets``, the regrets) of ``game``'s
        first betting round (:func:`first_round_end`); private regrets merged every ``merge_every``
        iterations (default :func:`merge_interval` of their size)."""
        size = first_round_end(game.tree)
        return cls(
            np.zeros(size, dtype=dtype),
            np.zeros(size if regrets else 0, dtype=dtype),
            merge_interval(size) if merge_every is None else merge_every,
        )


MAX_MERGE_EVERY = 64
"""Most iterations between merges of a thread's private regrets (:func:`merge_interval`)."""


def merge_interval(private_entries: int) -> int:
    """Iterations between merges of ``private_entries`` private regret entries: one per 8 entries,
    within 16 .. :data:`MAX_MERGE_EVERY`. A merge scans the buffer and adds each changed entry
    atomically (~8 us for Hold'em's 11,433 preflop entries plus ~10 ns per changed one, about 950
    of them after 64 iterations); the other threads see this thread's regrets that late. Measured
    on two threads, exploitability after equal iterations: Kuhn merged every 1,024 iterations
    ended 2-7x more exploitable than in place after 80,000, every 16 alike; Hold'em (default tree,
    252 fixed deals) merged every 1,024 stayed ~8% more exploitable through 600,000 iterations,
    every 64 or 16 matched one worker.

    >>> merge_interval(24), merge_interval(414), merge_interval(11_433)
    (16, 51, 64)
    """
    return min(MAX_MERGE_EVERY, max(16, private_entries // 8))


def first_round_end(tree: FlatTree) -> int:
    """End of the table prefix that holds every row of the first betting round (the tree's lowest
    street): the rows each iteration writes. Group rows follow the groups' breadth-first order, so
    the prefix is short (Hold'em ``0.5p,1p,a cap=2``, 169 preflop buckets: 11,433 of 3.3 M entries)
    and ends at a group boundary.

    >>> from abstraction.exact.exact_games import build_game
    >>> tree = build_game("leduc").tree
    >>> first_round_end(tree), tree.table_size
    (414, 2184)
    """
    if tree.n_groups == 0:
        return 0
    first = tree.group_street == tree.group_street.min()
    return int((tree.row_offset[first] + tree.n_buckets[first].astype(np.int64) * tree.n_actions[first]).max())


def run_iterations(
    game: SolverGame,
    config: SolverConfig,
    regrets: np.ndarray,
    strategy_sums: np.ndarray,
    first_iteration: int,
    n_iterations: int,
    private: PrivateRows | None = None,
) -> None:
    """Run iterations ``first_iteration .. first_iteration + n_iterations - 1`` on the given tables.

    ``regrets`` and ``strategy_sums`` (of ``config.table_dtype``) are modified in place. The kernels
    release the GIL, so several threads may call this at once on SHARED tables with disjoint
    iteration ranges (MCCFR, lock-free as in Pluribus; updates may then interleave, so results are
    no longer bit-exact). ``private`` (ES-MCCFR only): this thread's :class:`PrivateRows`; the
    first rows of the tables are then updated through it and merged atomically (see the kernel),
    which keeps two threads from writing the same cache lines every iteration.
    """
    check_supported(game, config.algorithm)
    dtype = table_dtype(config)
    if private is not None:
        _check_private_rows(game, config, private)
    for name, table in (("regrets", regrets), ("strategy_sums", strategy_sums)):
        if not isinstance(table, np.ndarray) or table.dtype != dtype or table.shape != (game.tree.table_size,):
            raise ValueError(
                f"{name} must be a {np.dtype(dtype).name} array of shape ({game.tree.table_size},), "
                f"got {getattr(table, 'dtype', type(table))} {getattr(table, 'shape', '')}"
            )
        if not table.flags.c_contiguous or not table.flags.writeable:
            raise ValueError(f"{name} must be a writeable C-contiguous array")
    if first_iteration < 0 or n_iterations < 0:
        raise ValueError(f"iterations must be >= 0, got first {first_iteration!r}, count {n_iterations!r}")
    iterations = range(first_iteration, first_iteration + n_iterations)
    with np.errstate(over="ignore"):  # uint64 generator arithmetic wraps on purpose (NUMBA_DISABLE_JIT=1)
        if config.algorithm in FULL_TRAVERSAL:
            _run_full_traversal(game, config, iterations, regrets, strategy_sums)
            return
        for start in iterations[::SAMPLING_BATCH]:
            batch = range(start, min(start + SAMPLING_BATCH, iterations.stop))
            _run_sampling(game, config, batch, regrets, strategy_sums, private)


def _check_private_rows(game: SolverGame, config: SolverConfig, private: PrivateRows) -> None:
    if config.algorithm != "es-mccfr":
        raise ValueError(f"private rows apply to 'es-mccfr' only, got algorithm {config.algorithm!r}")
    dtype = table_dtype(config)
    tree = game.tree
    ends = np.concatenate([[0], tree.row_offset + tree.n_buckets.astype(np.int64) * tree.n_actions])
    for name in ("strategy_sums", "regrets"):
        buffer = getattr(private, name)
        if (
            not isinstance(buffer, np.ndarray)
            or buffer.dtype != dtype
            or buffer.ndim != 1
            or not buffer.flags.c_contiguous
            or not buffer.flags.writeable
        ):
            raise ValueError(
                f"private {name} must be a writeable C-contiguous {np.dtype(dtype).name} vector, "
                f"got {getattr(buffer, 'dtype', type(buffer))} {getattr(buffer, 'shape', '')}"
            )
        if len(buffer) not in ends:
            raise ValueError(
                f"private {name} must end at a group boundary of the table (e.g. first_round_end(tree) "
                f"= {first_round_end(tree)}), got {len(buffer)} entries"
            )
    if (
        isinstance(private.merge_every, bool)
        or not isinstance(private.merge_every, (int, np.integer))
        or private.merge_every < 1
    ):
        raise ValueError(f"merge_every must be an int >= 1, got {private.merge_every!r}")


def _run_full_traversal(
    game: SolverGame, config: SolverConfig, iterations: range, regrets: np.ndarray, strategy_sums: np.ndarray
) -> None:
    tree = game.tree
    alpha, beta, gamma = {
        "cfr": (0.0, 0.0, 0.0),
        "cfr+": (0.0, 0.0, 1.0),
        "linear": (1.0, 1.0, 1.0),
        "dcfr": (config.alpha, config.beta, config.gamma),
    }[config.algorithm]
    kernels_cfr._cfr_iterations(
        tree.kernel_tree(),
        game.deals.probability,
        *deal_arrays(game.deals),
        regrets,
        strategy_sums,
        np.empty_like(regrets),
        iterations.start,
        len(iterations),
        config.algorithm == "cfr+",
        gamma,
        config.algorithm in ("linear", "dcfr"),
        alpha,
        beta,
    )


def _run_sampling(
    game: SolverGame,
    config: SolverConfig,
    batch: range,
    regrets: np.ndarray,
    strategy_sums: np.ndarray,
    private: PrivateRows | None,
) -> None:
    """One batch of iterations: fresh deals from the sampler, or stratified table rows."""
    tree = game.tree
    first_iteration, n_iterations = batch.start, len(batch)
    if game.deals is None:
        deals = game.sampler.sample(first_iteration, n_iterations, config.seed)
        deal_of_iteration = np.arange(n_iterations, dtype=np.int64)
    else:
        deals = game.deals
        deal_of_iteration = np.empty(n_iterations, dtype=np.int64)
        kernels_mccfr._table_deals(
            game.deals.cumulative_probability(), config.seed, first_iteration, n_iterations, deal_of_iteration
        )
    # the tables, the iteration window, the seed and the averaging: what both samplers take
    window = (regrets, strategy_sums, first_iteration, n_iterations, config.seed, config.linear_averaging)
    if config.algorithm == "es-mccfr":
        if private is None:
            private = PrivateRows(strategy_sums[:0], regrets[:0], 1)
        kernels_mccfr._es_mccfr_iterations(
            tree.kernel_tree(),
            *deal_arrays(deals),
            deal_of_iteration,
            int(tree.street.max()),
            *window,
            config.prune_after,
            config.prune_probability,
            config.prune_threshold,
            private.regrets,
            private.strategy_sums,
            private.merge_every,
        )
    else:
        kernels_mccfr._os_mccfr_iterations(
            tree.kernel_tree(),
            *deal_arrays(deals),
            deal_of_iteration,
            *window,
            config.epsilon,
        )


def normalized_strategy(game: SolverGame, sums: np.ndarray) -> np.ndarray:
    """Rows of ``sums`` (never negative) scaled to probabilities; uniform where a row is all zero."""
    tree = game.tree
    out = np.empty(tree.table_size)
    kernels_cfr._regret_matching(np.ascontiguousarray(sums), tree.n_actions, tree.row_offset, tree.n_buckets, out)
    return out


class Solver:
    """A solve in progress: the game, the settings and the tables.

    ``Solver(game, algorithm="cfr+", seed=0, **params)``; ``params`` are the other
    :class:`SolverConfig` fields. Iterations are counted from 0; ``run`` continues where the last
    call stopped, and :meth:`tables` / :meth:`load_tables` save and restore everything needed to
    resume exactly.
    """

    def __init__(self, game: SolverGame, algorithm: str = "cfr+", seed: int = 0, **params: Any) -> None:
        self.config = SolverConfig(algorithm=algorithm, seed=seed, **params)
        check_supported(game, self.config.algorithm)
        self.game = game
        tables = allocate_tables(game, table_dtype(self.config))
        self._regrets = tables["regrets"]
        self._strategy_sums = tables["strategy_sums"]
        self.iteration = 0

    def run(self, iterations: int) -> Solver:
        """Run ``iterations`` more iterations; returns ``self``."""
        if not isinstance(iterations, (int, np.integer)) or iterations < 0:
            raise ValueError(f"iterations must be an int >= 0, got {iterations!r}")
        run_iterations(self.game, self.config, self._regrets, self._strategy_sums, self.iteration, int(iterations))
        self.iteration += int(iterations)
        return self

    def run_for(self, seconds: float, chunk: int | None = None) -> Solver:
        """Run chunks of iterations until ``seconds`` of wall clock have passed; returns ``self``."""
        if seconds < 0:
            raise ValueError(f"seconds must be >= 0, got {seconds!r}")
        chunk = chunk or (10 if self.config.algorithm in FULL_TRAVERSAL else 10_000)
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            self.run(chunk)
        return self

    def tables(self) -> dict[str, np.ndarray]:
        """Copies of everything a resume needs: ``regrets``, ``strategy_sums``, ``iteration`` (int64[1])."""
        return {
            "regrets": self._regrets.copy(),
            "strategy_sums": self._strategy_sums.copy(),
            "iteration": np.array([self.iteration], dtype=np.int64),
        }

    def load_tables(self, tables: dict[str, np.ndarray]) -> Solver:
        """Restore :meth:`tables` output (from this game); returns ``self``."""
        for name in ("regrets", "strategy_sums", "iteration"):
            if name not in tables:
                raise ValueError(f"tables are missing {name!r}")
        size = self.game.tree.table_size
        for name in ("regrets", "strategy_sums"):
            if np.shape(tables[name]) != (size,):
                raise ValueError(f"{name} has shape {np.shape(tables[name])}, this game needs ({size},)")
        self._regrets = np.array(tables["regrets"], dtype=table_dtype(self.config))
        self._strategy_sums = np.array(tables["strategy_sums"], dtype=table_dtype(self.config))
        self.iteration = int(np.asarray(tables["iteration"]).reshape(-1)[0])
        return self

    def average_strategy(self) -> np.ndarray:
        """The average strategy, flat like the tables, rows normalised (uniform where never reached)."""
        return normalized_strategy(self.game, self._strategy_sums)

    def current_strategy(self) -> np.ndarray:
        """The regret-matching strategy of the current regrets."""
        tree = self.game.tree
        out = np.empty(tree.table_size)
        kernels_cfr._regret_matching(self._regrets, tree.n_actions, tree.row_offset, tree.n_buckets, out)
        return out

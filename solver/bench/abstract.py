"""Speed and memory of ES-MCCFR on each variant's default abstract game (``vcfr bench abstract``).

For every heads-up variant and 3-player limit hold'em: build its default abstract game (:data:`DEFAULT_BETS`, buckets
:data:`DEFAULT_BUCKETS`, fresh chance), run ES-MCCFR on one thread for a time budget after a
warm-up, and report iterations per second, tree size, information sets and the bytes of the solver
tables per information set and per information-set action (two float32 tables: 8 bytes). The peer
in the same run is the fixed-sample path on the same Hold'em tree (``n_deals`` deals drawn once,
stratified), so the cost of fresh chance is measured, not assumed.

The card abstraction is a *random-table* abstraction: every flop and turn class in a random
bucket, river centroids spread evenly. Bucketing a hand costs exactly what a built abstraction
costs (the same table lookups and river strength), and the solver visits as many information sets
as with a real one, without the minutes a full k-means build takes; the strategies are
meaningless, the speed is not.

:func:`iterations_per_second` also measures several solver threads (``solver.solve.parallel``, backend
``threads``), as ``experiments/parallel_scaling_abstract.py`` does; the table itself is one thread.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig
from abstraction.cards.isomorphism import holdem_indexer
from abstraction.cards.kernels_buckets import N_RIVERS, N_TURNS
from abstraction.hooks import hooked_variants
from abstraction.tree import SolverGame
from game.rules.families import LIMIT_GAME, GameFamily, game_family
from game.rules.holdem import HoldemConfig
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game
from solver.games.limit_games import LimitGameConfig, build_limit_game
from solver.solve.cfr import Solver, SolverConfig, allocate_tables, table_dtype

DEFAULT_BUCKETS = (169, 50, 50, 50)
"""Buckets per street (preflop, flop, turn, river) of the benchmark's card abstractions."""
DEFAULT_BETS = {
    "holdem": "0.5p,1p,a cap=2",
    "swap": "0.5p,1p,a cap=2",
    "river_of_blood": "1p,a cap=2",
    "auction": "0.5p,1p,a cap=2 | bids=0.25p,1p",
    "bounty": "0.5p,1p,a cap=2",
}
"""Bet abstraction of each variant's default abstract game."""
LIMIT = LIMIT_GAME
"""The benchmark's name of 3-player limit hold'em (`solver.games.limit_games`, its default rules: raise cap 2)."""
BENCHMARK_GAMES = (*hooked_variants(), LIMIT)
FIXED_PEER = HoldemConfig.variant
"""The game whose fixed-sample path is measured next to its fresh chance (same tree, same cards)."""
FIXED_DEALS = 200_000
"""Deals of the fixed-sample peer."""


def random_abstraction(
    variant: str, buckets: tuple[int, int, int, int] = DEFAULT_BUCKETS, seed: int = 0
) -> CardAbstraction:
    """A full-size card abstraction of ``variant`` with random flop and turn tables (module docstring)."""
    rng = np.random.default_rng(seed)
    sizes = holdem_indexer().sizes
    return CardAbstraction(
        CardAbstractionConfig(buckets=buckets, variant=variant),
        np.minimum(np.arange(sizes[0]), buckets[0] - 1).astype(np.uint16),
        rng.integers(0, buckets[1], sizes[1]).astype(np.uint16),
        rng.integers(0, buckets[2], sizes[2]).astype(np.uint16),
        np.linspace(0.0, 1.0, buckets[3]),
        np.sort(rng.random((buckets[1], N_TURNS)), axis=0),
        np.sort(rng.random((buckets[2], N_RIVERS)), axis=0),
    )


def _iterations_per_second(game: SolverGame, seconds: float) -> float:
    """One thread, calls of 1,000 iterations (the table's method)."""
    solver = Solver(game, "es-mccfr", seed=1)
    solver.run(100)  # compile or load the kernels, fault the tables in
    done, started = 0, time.perf_counter()
    block = 1000
    while time.perf_counter() - started < seconds:
        solver.run(block)
        done += block
    return done / (time.perf_counter() - started)


def iterations_per_second(
    game: SolverGame, seconds: float, workers: int = 1, sharing: str = "sums", block_seconds: float = 0.5, seed: int = 1
) -> float:
    """ES-MCCFR iterations per second of wall clock on ``game`` with ``workers`` threads.

    The solve loop of ``solver.solve.parallel`` (backend ``threads``; ``sharing`` as there) from zeroed
    tables: a warm-up of ``100 * workers`` iterations (threads started, kernels loaded, tables
    faulted in), then blocks of about ``block_seconds`` each (the first of ``1000 * workers``
    iterations), as ``vcfr solve`` cuts them, until ``seconds`` have passed. Every worker count
    runs the same schedule, so block-end waits and merges are in the figure.
    """
    from solver.solve.parallel import iteration_runner

    config = SolverConfig(algorithm="es-mccfr", seed=seed)
    tables = allocate_tables(game, table_dtype(config))
    tables["iteration"] = np.zeros(1, dtype=np.int64)
    with iteration_runner(game, config, workers, "threads", sharing=sharing) as runner:
        runner(tables, 100 * workers)
        done, block = 0, 1000 * workers
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            block_started = time.perf_counter()
            runner(tables, block)
            done += block
            rate = block / max(time.perf_counter() - block_started, 1e-9)
            block = max(1000 * workers, int(rate * block_seconds))
        return done / (time.perf_counter() - started)


def _game_facts(game: SolverGame) -> dict[str, Any]:
    tree = game.tree
    table_bytes = tree.table_bytes()
    return {
        "nodes": tree.n_nodes,
        "groups": tree.n_groups,
        "infosets": tree.n_infosets,
        "infoset_actions": tree.table_size,
        "table_bytes": table_bytes,
        "bytes_per_infoset": table_bytes / tree.n_infosets,
        "bytes_per_infoset_action": table_bytes / tree.table_size,
    }


def default_game(variant: str, abstraction: CardAbstraction) -> tuple[SolverGame, str]:
    """The default abstract game of ``variant`` (or :data:`LIMIT`) and the text of its bets."""
    if game_family(variant) is GameFamily.LIMIT:
        limit = LimitGameConfig(card_abstraction="random-tables")
        rules = limit.limit_config()
        return build_limit_game(limit, abstraction), f"limit {rules.n_players} players, {rules.max_raises} raises"
    config = AbstractGameConfig(variant=variant, card_abstraction="random-tables", bets=DEFAULT_BETS[variant])
    return build_abstract_game(config, abstraction), config.bets


def run_abstract_benchmark(
    variants: tuple[str, ...] = BENCHMARK_GAMES, seconds: float = 5.0, fixed_deals: int = FIXED_DEALS
) -> dict[str, Any]:
    """ES-MCCFR iterations/s (one thread) and table memory per game, plus the fixed-sample peer on Hold'em."""
    rows = []
    for variant in variants:
        limit = game_family(variant) is GameFamily.LIMIT
        abstraction = random_abstraction(HoldemConfig.variant if limit else variant)  # limit plays on Hold'em cards
        started = time.perf_counter()
        game, bets = default_game(variant, abstraction)
        build_seconds = time.perf_counter() - started
        row = {
            "variant": variant,
            "bets": bets,
            "chance": "fresh",
            "build_seconds": build_seconds,
            **_game_facts(game),
            "iterations_per_second": _iterations_per_second(game, seconds),
        }
        rows.append(row)
        if variant == FIXED_PEER:
            fixed_config = AbstractGameConfig(
                variant=variant, card_abstraction="random-tables", bets=bets, chance="fixed", n_deals=fixed_deals
            )
            fixed = build_abstract_game(fixed_config, abstraction)
            rows.append(
                {
                    "variant": variant,
                    "bets": bets,
                    "chance": f"fixed {fixed_deals}",
                    "build_seconds": None,
                    **_game_facts(fixed),
                    "iterations_per_second": _iterations_per_second(fixed, seconds),
                }
            )
    fresh = next((r for r in rows if r["variant"] == FIXED_PEER and r["chance"] == "fresh"), None)
    fixed_row = next((r for r in rows if r["variant"] == FIXED_PEER and r["chance"] != "fresh"), None)
    ratio = fixed_row["iterations_per_second"] / fresh["iterations_per_second"] if fresh and fixed_row else None
    return {
        "benchmark": "abstract",
        "seconds_per_measurement": seconds,
        "buckets": list(DEFAULT_BUCKETS),
        "threads": 1,
        "rows": rows,
        "fixed_over_fresh_holdem": ratio,
    }


def format_table(result: dict[str, Any]) -> str:
    """The benchmark as a Markdown table."""
    lines = [
        "| variant | bets | chance | nodes | information sets | table bytes / infoset | bytes / infoset action "
        "| iterations/s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in result["rows"]:
        bets = row["bets"].replace("|", "\\|")  # a pipe inside a Markdown table cell must be escaped
        lines.append(
            f"| {row['variant']} | `{bets}` | {row['chance']} | {row['nodes']:,} | {row['infosets']:,} "
            f"| {row['bytes_per_infoset']:.1f} | {row['bytes_per_infoset_action']:.1f} "
            f"| {row['iterations_per_second']:,.0f} |"
        )
    if result["fixed_over_fresh_holdem"] is not None:
        lines.append("")
        lines.append(
            f"Fixed-sample / fresh-chance iterations per second on Hold'em: {result['fixed_over_fresh_holdem']:.2f}x"
        )
    return "\n".join(lines)

"""Our solvers next to OpenSpiel's C++ solvers in the same run: speed and exploitability.

Both sides are driven the same way (:func:`measure_convergence`): run iterations in timed blocks,
stop the clock, measure the exploitability of the average strategy in chips (NashConv / 2), go on.
Measuring is never counted as solving time. Our kernels are compiled (one warm-up iteration on a
throw-away solver) before any clock starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from solver.solve.strategy_file import ConvergenceLog

FULL_BUDGET_SECONDS = (10.0, 60.0)
QUICK_BUDGET_SECONDS = (1.0, 3.0)
CFR_PLUS_MARKS = (100, 1000)
_TARGET_BLOCK_SECONDS = 0.05


def measure_convergence(
    run: Callable[[int], None],
    evaluate: Callable[[], float],
    *,
    iteration_marks: Sequence[int] = (),
    second_marks: Sequence[float] = (),
    first_block: int = 1000,
) -> ConvergenceLog:
    """Exploitability at given iteration counts or solve seconds, with the solve time to each point.

    ``run(n)`` advances the solver by ``n`` iterations; ``evaluate()`` returns the exploitability
    of its average strategy (chips). Give either increasing ``iteration_marks`` (exact counts), or
    increasing ``second_marks``: then iterations run in blocks sized to take about 50 ms, and a
    measurement is taken at the first block end at or after each mark.

    >>> state = {"done": 0}
    >>> log = measure_convergence(lambda n: state.update(done=state["done"] + n),
    ...                           lambda: 1.0 / state["done"], iteration_marks=[10, 40])
    >>> log.iteration.tolist(), log.exploitability.tolist()
    ([10, 40], [0.1, 0.025])
    """
    if bool(iteration_marks) == bool(second_marks):
        raise ValueError(f"give either iteration_marks or second_marks, got {iteration_marks!r} and {second_marks!r}")
    log, done, elapsed = ConvergenceLog.empty(), 0, 0.0
    for mark in iteration_marks:
        if mark <= done:
            raise ValueError(f"iteration marks must increase and be positive, got {list(iteration_marks)}")
        started = time.perf_counter()
        run(mark - done)
        elapsed += time.perf_counter() - started
        done = mark
        log = log.appended(done, elapsed, evaluate())
    block = first_block
    for mark in second_marks:
        while elapsed < mark:
            started = time.perf_counter()
            run(block)
            block_seconds = time.perf_counter() - started
            elapsed += block_seconds
            done += block
            block = max(1, min(4 * block, int(block * _TARGET_BLOCK_SECONDS / max(block_seconds, 1e-9))))
        log = log.appended(done, elapsed, evaluate())
    return log


def ours_driver(game_name: str, algorithm: str, seed: int = 0) -> tuple[Callable[[int], None], Callable[[], float]]:
    """``(run, evaluate)`` for our solver, kernels already compiled (see :func:`measure_convergence`)."""
    from abstraction.exact.exact_games import build_game
    from solver.evaluate.exploitability import exploitability
    from solver.solve.cfr import Solver

    game = build_game(game_name)
    Solver(game, algorithm, seed).run(1)  # compile the kernels before the clock starts
    exploitability(game, Solver(game, algorithm, seed).average_strategy())
    solver = Solver(game, algorithm, seed)
    return solver.run, lambda: exploitability(game, solver.average_strategy()).exploitability_chips


def openspiel_driver(
    game_name: str, algorithm: str, seed: int = 0
) -> tuple[Callable[[int], None], Callable[[], float]]:
    """``(run, evaluate)`` for OpenSpiel's C++ solver (see :func:`measure_convergence`)."""
    from solver.bench.openspiel_peer import OpenSpielSolver

    peer = OpenSpielSolver(game_name, algorithm, seed)
    return peer.run, peer.exploitability


def run_solver_benchmark(game: str = "leduc", quick: bool = False, seed: int = 0) -> dict[str, Any]:
    """CFR+ per-iteration time and ES-MCCFR iterations per second, ours and OpenSpiel's, with
    exploitability (chips) after 100 and 1,000 CFR+ iterations and after the two ES-MCCFR time
    budgets (10 s and 60 s; with ``quick``, 1 s and 3 s, still reported under the ``10s``/``60s``
    keys and listed in ``budgets_seconds``). Raises ``PeerUnavailableError`` without OpenSpiel.
    """
    from solver.bench.openspiel_peer import load_pyspiel

    load_pyspiel()
    budgets = QUICK_BUDGET_SECONDS if quick else FULL_BUDGET_SECONDS
    cfr_plus = {
        side: measure_convergence(*make(game, "cfr+", seed), iteration_marks=CFR_PLUS_MARKS)
        for side, make in (("ours", ours_driver), ("openspiel", openspiel_driver))
    }
    sampling = {
        side: measure_convergence(*make(game, "es-mccfr", seed), second_marks=budgets)
        for side, make in (("ours", ours_driver), ("openspiel", openspiel_driver))
    }
    ms_per_iteration = {
        side: 1000.0 * float(log.seconds[-1]) / int(log.iteration[-1]) for side, log in cfr_plus.items()
    }
    rate = {side: int(log.iteration[-1]) / float(log.seconds[-1]) for side, log in sampling.items()}
    result: dict[str, Any] = {
        "game": game,
        "budgets_seconds": list(budgets),
        "cfr+": {
            "ours_ms_per_iter": ms_per_iteration["ours"],
            "openspiel_ms_per_iter": ms_per_iteration["openspiel"],
            "speedup": ms_per_iteration["openspiel"] / ms_per_iteration["ours"],
        },
        "es-mccfr": {
            "ours_iters_per_s": rate["ours"],
            "openspiel_iters_per_s": rate["openspiel"],
            "speedup": rate["ours"] / rate["openspiel"],
        },
    }
    for side, log in cfr_plus.items():
        for mark, value in zip(CFR_PLUS_MARKS, log.exploitability, strict=True):
            result["cfr+"][f"{side}_expl_{mark}"] = float(value)
    for side, log in sampling.items():
        for label, value in zip(("10s", "60s"), log.exploitability, strict=True):
            result["es-mccfr"][f"{side}_expl_{label}"] = float(value)
    return result

"""The timing rule every ``vcfr bench`` command shares: best of several passes, as seconds or a rate."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_rate(run: Callable[[], None], count: int, repeats: int) -> float:
    """``count`` divided by the fastest of ``repeats`` timed calls of ``run`` (items per second).

    ``run`` processes ``count`` items (hands, rounds) per call; the best pass is the one least
    disturbed by other work on the machine.

    >>> best_rate(lambda: None, 1000, 3) > 0
    True
    """
    return count / best_seconds(run, repeats)[0]


def best_seconds(run: Callable[[], object], repeats: int) -> tuple[float, float]:
    """The fastest of ``repeats`` calls of ``run``: ``(wall-clock seconds, CPU seconds)``, each
    the least over the calls (the CPU time counts every thread of this process).

    >>> wall, cpu = best_seconds(lambda: sum(range(1000)), 3)
    >>> 0 < wall < 1 and 0 <= cpu < 1
    True
    """
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu

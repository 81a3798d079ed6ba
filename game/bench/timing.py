"""The timing rule every ``vcfr bench`` command shares: best of several passes, as a rate."""

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
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best

"""One place where seeds become generators (never the global NumPy RNG)."""

from __future__ import annotations

import numpy as np

SeedLike = int | np.random.Generator | np.random.SeedSequence | None


def as_generator(seed: SeedLike) -> np.random.Generator:
    """Normalise a seed, a ``SeedSequence`` or an existing generator to a ``numpy.random.Generator``.

    >>> int(as_generator(3).integers(100)) == int(as_generator(3).integers(100))
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or isinstance(seed, (int, np.integer, np.random.SeedSequence)):
        return np.random.default_rng(seed)
    raise TypeError(f"seed must be an int, a numpy Generator, a SeedSequence or None, got {seed!r}")


def kernel_seed(rng: np.random.Generator) -> int:
    """Draw a seed for a numba kernel, which seeds its own ``np.random`` state with it.

    32 bits: ``np.random.seed`` accepts no more when the kernel runs as plain Python
    (``NUMBA_DISABLE_JIT=1``).
    """
    return int(rng.integers(0, 2**32))

"""The solver layer: abstract games (`solver.games`), solving (`solver.solve`), measuring strategies
(`solver.evaluate`), re-solving subgames at play time (`solver.resolve`), bots that play them (`solver.bots`), the ``vcfr`` command line (`solver.cli`) and
benchmarks (`solver.bench`). Built on `game` and `abstraction`."""

import game  # noqa: F401  (importing it clears numba's stale cached kernels: game.numba_cache)

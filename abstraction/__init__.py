"""The abstraction layer: cards to buckets (`abstraction.cards`), bets to sizes and betting trees
(`abstraction.bets`), chance samplers (`abstraction.chance`), exact small games (`abstraction.exact`),
per-variant tree hooks (`abstraction.hooks`) and the flat arrays of an abstract game (`abstraction.tree`).
Built on `game`; imports nothing from `solver`."""

import game  # noqa: F401  (importing it clears numba's stale cached kernels: game.numba_cache)

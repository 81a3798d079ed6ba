"""The abstraction layer: cards to buckets (`abstraction.cards`), bets to sizes and betting trees
(`abstraction.bets`), chance samplers (`abstraction.chance`), exact small games (`abstraction.exact`),
per-variant tree hooks (`abstraction.hooks`) and the flat arrays of an abstract game (`abstraction.tree`).
Built on `game`; imports nothing from `solver`."""

from game.numba_cache import clear_stale

clear_stale()

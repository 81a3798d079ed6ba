"""The game layer: cards and the evaluator (`game.cards`), every game's rules (`game.rules`), matches and
bots (`game.play`), the MIT Pokerbots engines' protocol and client (`game.pokerbots`), benchmarks
(`game.bench`), and what every layer shares: the conventions of the ``vcfr`` commands
(`game.cli_support`) and the field checks and JSON form of frozen dataclasses
(`game.dataclass_support`). Imports nothing from `abstraction` or `solver`. Importing it first clears
numba's cached kernels if their sources changed (`game.numba_cache`)."""

from game.numba_cache import clear_stale

clear_stale()

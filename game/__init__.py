"""The game layer: cards and the evaluator (`game.cards`), every game's rules (`game.rules`), matches and
bots (`game.play`), the MIT Pokerbots engines' protocol and client (`game.pokerbots`), benchmarks
(`game.bench`). Imports nothing from `abstraction` or `solver`."""

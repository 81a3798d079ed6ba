"""Benchmarks of the solver layer (``vcfr bench solver / abstract / resolve``): our solvers next to
OpenSpiel's C++ solvers (the peer, `solver.bench.openspiel_peer`, also the tests' exploitability
oracle), ES-MCCFR's speed and memory on each variant's default abstract game, and the subgame
solver next to its plain numpy peer (`solver.bench.resolve_numpy`). Not imported by library code."""

"""Benchmarks of the solver layer (``vcfr bench solver / abstract``): our solvers next to OpenSpiel's C++
solvers (the peer, `solver.bench.openspiel_peer`, also the tests' exploitability oracle), and
ES-MCCFR's speed and memory on each variant's default abstract game. Not imported by library code."""

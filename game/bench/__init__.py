"""Benchmarks of the game layer (``vcfr bench engine / evaluator / client``), each timed next to a peer
in the same run, and the timing rule every ``vcfr bench`` command shares. Not imported by library code."""

"""Benchmarks of the abstraction layer (``vcfr bench abstraction / chance``). Not imported by library
code."""

"""The strategy browser (``vcfr view``): a strategy file's betting tree as JSON per node (`browser`),
served with its small offline page (`server`, ``static/``)."""

DEFAULT_DEALS = 20_000
"""Fresh deals the reach of a full-size game is averaged over (here so the CLI reads it without
importing the browser's numba-backed modules)."""

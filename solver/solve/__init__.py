"""Solving: the CFR family and Monte Carlo CFR (API and numba kernels), parallel workers, the game kinds
that rebuild a game from its config, the training loop with checkpoints and resume, run files, and the HDF5 strategy file."""

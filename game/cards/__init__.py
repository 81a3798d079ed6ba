"""Cards and hand strength: card codes and their text form, seeded dealing and random numbers, the
hand evaluator and its numba kernels. Imports nothing else from the project."""

"""Counter-based random numbers for numba kernels: splitmix64 (Steele, Lea and Flood 2014).

A generator is one uint64 word, ``state`` (a ``uint64[1]`` array advanced in place): each draw
adds the golden-ratio increment and returns the splitmix64 finaliser of the new word. Seeding a
word from ``(seed, index)`` with ``splitmix64`` gives independent streams per deal or iteration,
so results do not depend on how work is split over threads. Used by
`abstraction.chance.kernels_chance` (fresh deals) and `solver.solve.kernels_mccfr` (Monte Carlo CFR).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_SHIFT_30 = np.uint64(30)
_SHIFT_27 = np.uint64(27)
_SHIFT_31 = np.uint64(31)
_SHIFT_11 = np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0  # 2 ** -53


@njit(cache=True, nogil=True, inline="always")
def splitmix64(value):
    """The splitmix64 finaliser of ``value + golden ratio`` (uint64 in, uint64 out)."""
    mixed = value + _GOLDEN
    mixed = (mixed ^ (mixed >> _SHIFT_30)) * _MIX_1
    mixed = (mixed ^ (mixed >> _SHIFT_27)) * _MIX_2
    return mixed ^ (mixed >> _SHIFT_31)


@njit(cache=True, nogil=True, inline="always")
def unit_float(bits):
    """The top 53 bits of a uint64 as a float in [0, 1)."""
    return float(bits >> _SHIFT_11) * _UNIT


@njit(cache=True, nogil=True, inline="always")
def next_uniform(state):
    """A float in [0, 1) from the one-word generator ``state`` (uint64[1], advanced in place)."""
    state[0] += _GOLDEN
    return unit_float(splitmix64(state[0]))

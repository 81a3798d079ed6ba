"""Chance of the abstract games: numba samplers of fresh deals per variant (heads-up and N-player
limit), fixed deal samples as one table, and the redraw of a deal's cards."""

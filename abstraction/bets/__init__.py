"""Bet abstraction and betting trees: the bet/raise sizes and bids per street, the heads-up no-limit
tree they define, N-player limit's tree walked from the rules engine, and action translation."""

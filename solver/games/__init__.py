"""The abstract games the solver trains: rules + card abstraction + bet abstraction, for the heads-up
no-limit variants and N-player limit hold'em, JSON-able so a strategy file can rebuild its game."""

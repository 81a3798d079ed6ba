"""Exact solver games built by walking the rules engines (Kuhn and Leduc with 2..6 players, small-deck
hold'em, small versions of the heads-up variants), their card abstractions and lifting strategies back."""

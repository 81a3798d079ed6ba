"""Tree hooks of Swap Hold'em: Hold'em's, unchanged.

Swaps are chance outside the betting: they happen when a street is dealt, before its first
decision, and each player sees only their own cards. So the tree is Hold'em's: slot s holds the
bucket of the cards a player holds on street s after that street's swaps, and the showdown
context's outcome is decided by the final hands; both are the deal's business
(`abstraction.fresh_chance`), not the tree's.
"""

from __future__ import annotations

from abstraction.hooks.holdem import HoldemHooks

HOOKS = HoldemHooks(variant="swap")
"""The Swap tree hooks (Hold'em's)."""

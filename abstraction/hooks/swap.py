"""Tree hooks of Swap Hold'em: Hold'em's tree, Swap's sampler.

Swaps are chance outside the betting: they happen when a street is dealt, before its first
decision, and each player sees only their own cards. So the tree is Hold'em's: slot s holds the
bucket of the cards a player holds on street s after that street's swaps, and the showdown
context's outcome is decided by the final hands; both are the deal's business
(`abstraction.chance.fresh_chance`, which draws the swaps with the config's probabilities), not the tree's.

>>> from game.rules.swap import SwapConfig
>>> HOOKS.sampler_arguments(SwapConfig(turn_swap_probability=0.2))[1:]
(0.1, 0.2, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from abstraction.hooks.holdem import HoldemHooks
from game.rules.nolimit import NoLimitConfig


@dataclass(frozen=True)
class SwapHooks(HoldemHooks):
    """Swap Hold'em: Hold'em's tree; the sampler swaps hole cards after the flop and the turn."""

    variant: str = "swap"
    small_deck: str = "Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As Jc"

    def sampler_arguments(self, config: NoLimitConfig) -> tuple[int, float, float, int]:
        """The swap probabilities of ``config`` (`game.rules.swap.SwapConfig`); Hold'em's deal flags."""
        return (self.deal_flags, float(config.flop_swap_probability), float(config.turn_swap_probability), 0)  # type: ignore[attr-defined]

    def small_rules(self, max_runs: int) -> dict[str, Any]:
        """Every hole card swapped on the flop, none on the turn: the smallest deck that keeps the swaps."""
        return {"flop_swap_probability": 1.0, "turn_swap_probability": 0.0}


HOOKS = SwapHooks()
"""The Swap tree hooks."""

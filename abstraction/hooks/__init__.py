"""Per-variant tree hooks: what the betting-tree builder asks a heads-up variant beyond its rules.

`tree_hooks(variant)` returns the hooks of a `game.rules.variants` variant: the bucket slot of each
decision, the outcome contexts of the terminals and their payoff rows (from the rules' own payoff
code on the terminal round), and chance nodes inside the betting. The base is Hold'em's
(`abstraction.hooks.holdem.HoldemHooks`); each variant's module holds only what differs:
Swap none, Bounty hit-dependent payoffs, Auction three-card slots and sealed bids, River of Blood
run streets and colour chance nodes. The hooks also name what the fresh-chance sampler needs
(`abstraction.chance.fresh_chance`): the card-abstraction street of each slot, the sampler kernel's
variant code and parameters, whether buckets carry Bounty's hit bit. So a variant's solver needs
sit in its hooks module: adding a heads-up variant takes its rules module (`game.rules.variants`), its
hooks module registered here and, if its chance differs, a sampler function in
`abstraction.chance.kernels_chance`.

>>> from game.rules.auction import AuctionConfig
>>> tree_hooks("auction").slot_names(AuctionConfig())
('preflop', 'flop', 'turn', 'river', 'flop, 3 cards', 'turn, 3 cards', 'river, 3 cards')
>>> tree_hooks("blotto")
Traceback (most recent call last):
...
ValueError: no tree hooks for variant 'blotto': known are auction, bounty, holdem, river_of_blood, swap
"""

from __future__ import annotations

from abstraction.hooks import auction, bounty, holdem, river_of_blood, swap
from abstraction.hooks.holdem import HoldemHooks

__all__ = ["HOOKED_VARIANTS", "HoldemHooks", "tree_hooks"]

_HOOKS: dict[str, HoldemHooks] = {
    module.HOOKS.variant: module.HOOKS for module in (holdem, swap, river_of_blood, auction, bounty)
}
HOOKED_VARIANTS = tuple(_HOOKS)
"""The heads-up variants with tree hooks, so with abstract games, in `game.rules.variants` order: ``holdem``,
``swap``, ``river_of_blood``, ``auction``, ``bounty``."""


def tree_hooks(variant: str) -> HoldemHooks:
    """The tree hooks of ``variant`` (a `game.rules.variants` name); ValueError naming the known ones otherwise."""
    try:
        return _HOOKS[variant]
    except KeyError:
        raise ValueError(f"no tree hooks for variant {variant!r}: known are {', '.join(sorted(_HOOKS))}") from None

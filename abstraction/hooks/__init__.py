"""Per-variant tree hooks: what the betting-tree builder asks a heads-up variant beyond its rules.

`tree_hooks(variant)` returns the hooks of a `game.rules.variants` variant: the bucket slot of each
decision, the outcome contexts of the terminals and their payoff rows (from the rules' own payoff
code on the terminal round), and chance nodes inside the betting. The base is Hold'em's
(`abstraction.hooks.holdem.HoldemHooks`); each variant's module holds only what differs:
Swap none, Bounty hit-dependent payoffs, Auction three-card slots and sealed bids, River of Blood
run streets and colour chance nodes. The hooks also name what the fresh-chance sampler needs
(`abstraction.chance.fresh_chance`): the card-abstraction street of each slot, the sampler kernel's
deal flags and parameters, whether buckets carry Bounty's hit bit; and the default short deck and
rules of the variant's exact small game (`abstraction.exact.small_variants`).

The extension contract. A new heads-up no-limit variant provides exactly these, and nothing else:

1. Its rules (`game.rules`): a frozen `game.rules.nolimit.NoLimitConfig` subclass whose class
   attribute ``variant`` is its name and whose feature flags (``has_swaps``, ``has_run_cards``,
   ``has_auction``, ``has_bounty``, ``board_card_cap``) say what it adds to Hold'em; a
   `game.rules.nolimit.NoLimitRound` subclass overriding the round's variant hooks (``_award``,
   ``_split``, ``_has_next_street``, ``next_match_state`` ...); both registered with
   ``game.rules.variants.register_variant(Variant(name, config_class, round_class, description))``.
2. Its hooks: a frozen `HoldemHooks` subclass whose ``variant`` is that name, overriding what its
   abstract game differs in (slots, contexts and payoff rows, chance nodes, public actions,
   ``deal_flags``, ``bounty_buckets``, ``small_deck`` and ``small_rules``), registered after the rules
   with `register_hooks`.
3. Only if its chance deals something no deal flag covers: a sampler, i.e. a ``_deal_*`` function in
   `abstraction.chance.kernels_chance` and its twin in `abstraction.chance.kernels_resample` behind a
   new ``DEAL_*`` flag (and the steps of that feature in `abstraction.exact.small_variants`).

From these the rest follows: its card file (Hold'em's unless it swaps or has a bounty,
`abstraction.cards.buckets.card_file_variant`), its abstract game, fresh chance, solving, local best
response, the lookup bot and matches. `registered` registers a variant and its hooks for the length of
a ``with`` block (tests/variant_contract/ does so for a variant defined under tests/).

>>> from game.rules.auction import AuctionConfig
>>> tree_hooks("auction").slot_names(AuctionConfig())
('preflop', 'flop', 'turn', 'river', 'flop, 3 cards', 'turn, 3 cards', 'river, 3 cards')
>>> tree_hooks("blotto")
Traceback (most recent call last):
...
ValueError: no tree hooks for variant 'blotto': known are auction, bounty, holdem, river_of_blood, swap
>>> register_hooks(HoldemHooks(variant="blotto"))
Traceback (most recent call last):
...
ValueError: hooks for variant 'blotto': no such rules variant (register it first with game.rules.variants.register_variant): unknown variant 'blotto': known are auction, bounty, holdem, river_of_blood, swap
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from abstraction.hooks import auction, bounty, holdem, river_of_blood, swap
from abstraction.hooks.holdem import HoldemHooks
from game.rules.variants import Variant, get_variant, register_variant, unregister_variant

__all__ = ["HoldemHooks", "hooked_variants", "register_hooks", "registered", "tree_hooks", "unregister_hooks"]

_HOOKS: dict[str, HoldemHooks] = {}


def register_hooks(hooks: HoldemHooks) -> None:
    """Register the tree hooks of ``hooks.variant``, a registered `game.rules.variants` variant; ValueError
    if that variant is not registered or already has hooks. `unregister_hooks` takes them back."""
    if not isinstance(hooks, HoldemHooks):
        raise TypeError(f"register_hooks takes a HoldemHooks (or subclass) instance, got {hooks!r}")
    try:
        get_variant(hooks.variant)
    except ValueError as error:
        raise ValueError(
            f"hooks for variant {hooks.variant!r}: no such rules variant "
            f"(register it first with game.rules.variants.register_variant): {error}"
        ) from None
    if hooks.variant in _HOOKS:
        raise ValueError(f"variant {hooks.variant!r} already has tree hooks: {_HOOKS[hooks.variant]!r}")
    _HOOKS[hooks.variant] = hooks


def unregister_hooks(variant: str) -> HoldemHooks:
    """Remove and return the tree hooks of ``variant`` (ValueError naming the known ones if none)."""
    hooks = tree_hooks(variant)
    del _HOOKS[variant]
    return hooks


@contextmanager
def registered(variant: Variant, hooks: HoldemHooks) -> Iterator[None]:
    """Register ``variant`` (`game.rules.variants.register_variant`) and its ``hooks`` for the block, and
    unregister both after it, even when it raises (tests with a variant of their own)."""
    register_variant(variant)
    try:
        register_hooks(hooks)
    except BaseException:
        unregister_variant(variant.name)
        raise
    try:
        yield
    finally:
        unregister_hooks(hooks.variant)
        unregister_variant(variant.name)


for _module in (holdem, swap, river_of_blood, auction, bounty):
    register_hooks(_module.HOOKS)


def hooked_variants() -> tuple[str, ...]:
    """The heads-up variants with tree hooks, so with abstract games, in registration order: ``holdem``,
    ``swap``, ``river_of_blood``, ``auction``, ``bounty``, then any registered since."""
    return tuple(_HOOKS)


def tree_hooks(variant: str) -> HoldemHooks:
    """The tree hooks of ``variant`` (a `game.rules.variants` name); ValueError naming the known ones otherwise."""
    try:
        return _HOOKS[variant]
    except KeyError:
        raise ValueError(f"no tree hooks for variant {variant!r}: known are {', '.join(sorted(_HOOKS))}") from None

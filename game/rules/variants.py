"""The heads-up no-limit variants by name: config class, round class, one-line description.

:data:`VARIANTS` is the registry every variant list derives from; `register_variant` adds a variant at
run time and `unregister_variant` takes it back (its tree hooks register in `abstraction.hooks`).

>>> sorted(VARIANTS)
['auction', 'bounty', 'holdem', 'river_of_blood', 'swap']
>>> from game.rules.chance import RandomChance
>>> round_ = start_round(get_variant("swap").config_class(), RandomChance(0))
>>> type(round_).__name__, round_.stacks
('SwapRound', (199, 198))
>>> get_variant("blotto")
Traceback (most recent call last):
...
ValueError: unknown variant 'blotto': known are auction, bounty, holdem, river_of_blood, swap
"""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.auction import AuctionConfig, AuctionRound
from game.rules.bounty import BountyConfig, BountyRound
from game.rules.chance import ChanceSource
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.nolimit import NoLimitConfig, NoLimitRound
from game.rules.river_of_blood import RiverOfBloodConfig, RiverOfBloodRound
from game.rules.swap import SwapConfig, SwapRound


@dataclass(frozen=True)
class Variant:
    """One variant: its name, config class, round class and a one-line description."""

    name: str
    config_class: type[NoLimitConfig]
    round_class: type[NoLimitRound]
    description: str

    def start_round(
        self, config: NoLimitConfig | None = None, chance: ChanceSource | None = None, *, match_state: object = None
    ) -> NoLimitRound:
        """A new round (default config; ``chance`` is required)."""
        if chance is None:
            raise ValueError(f"start_round of {self.name!r} needs a chance source (RandomChance or ScriptedChance)")
        return self.round_class(config if config is not None else self.config_class(), chance, match_state=match_state)


VARIANTS: dict[str, Variant] = {
    variant.name: variant
    for variant in (
        Variant("holdem", HoldemConfig, HoldemRound, "Heads-up no-limit Texas Hold'em, stack 400, blinds 1/2."),
        Variant(
            "swap",
            SwapConfig,
            SwapRound,
            "Swap Hold'em (Pokerbots 2022): hole cards swapped with p=0.10 on the flop, 0.05 on the turn; stack 200.",
        ),
        Variant(
            "river_of_blood",
            RiverOfBloodConfig,
            RiverOfBloodRound,
            "River of Blood Hold'em (Pokerbots 2023): run cards with a betting round while the last card is red.",
        ),
        Variant(
            "auction",
            AuctionConfig,
            AuctionRound,
            "Auction Hold'em (Pokerbots 2024): second-price auction for a third hole card after the flop.",
        ),
        Variant(
            "bounty",
            BountyConfig,
            BountyRound,
            "Bounty Hold'em (Pokerbots 2025): a winner holding their bounty rank wins 1.5x + 10.",
        ),
    )
}
"""Registered heads-up no-limit variants by name, in registration order (`register_variant` adds one)."""

_BY_CONFIG: dict[type[NoLimitConfig], Variant] = {variant.config_class: variant for variant in VARIANTS.values()}


def register_variant(variant: Variant) -> None:
    """Add ``variant`` to :data:`VARIANTS`: its config class must subclass `NoLimitConfig` with ``variant``
    (the class attribute) equal to its name, its round class `NoLimitRound`. ValueError for a name or a
    config class already registered; `unregister_variant` takes it back.

    >>> from game.rules.holdem import HoldemConfig
    >>> register_variant(Variant("holdem", HoldemConfig, HoldemRound, "again"))
    Traceback (most recent call last):
    ...
    ValueError: variant 'holdem' is already registered
    """
    if not isinstance(variant, Variant):
        raise TypeError(f"register_variant takes a game.rules.variants.Variant, got {variant!r}")
    if variant.name in VARIANTS:
        raise ValueError(f"variant {variant.name!r} is already registered")
    config_class, round_class = variant.config_class, variant.round_class
    if not (isinstance(config_class, type) and issubclass(config_class, NoLimitConfig)):
        raise TypeError(f"variant {variant.name!r}: config_class must subclass NoLimitConfig, got {config_class!r}")
    if not (isinstance(round_class, type) and issubclass(round_class, NoLimitRound)):
        raise TypeError(f"variant {variant.name!r}: round_class must subclass NoLimitRound, got {round_class!r}")
    if config_class.variant != variant.name:
        raise ValueError(
            f"variant {variant.name!r}: its config class {config_class.__name__} names variant {config_class.variant!r}"
        )
    if config_class in _BY_CONFIG:
        raise ValueError(f"config class {config_class.__name__} is already variant {_BY_CONFIG[config_class].name!r}'s")
    VARIANTS[variant.name] = variant
    _BY_CONFIG[config_class] = variant


def unregister_variant(name: str) -> Variant:
    """Remove the variant ``name`` from :data:`VARIANTS` and return it (tests registering a variant of
    their own); ValueError listing the known names if there is none."""
    variant = get_variant(name)
    del VARIANTS[name]
    del _BY_CONFIG[variant.config_class]
    return variant


def get_variant(name: str) -> Variant:
    """The variant called ``name``; ``ValueError`` listing the known names otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}: known are {', '.join(sorted(VARIANTS))}") from None


def start_round(config: NoLimitConfig, chance: ChanceSource, *, match_state: object = None) -> NoLimitRound:
    """A new round of the variant ``config`` belongs to (see ``game.rules.nolimit`` for the round API)."""
    variant = _BY_CONFIG.get(type(config))
    if variant is None:
        raise TypeError(f"no variant has config class {type(config).__name__}: got {config!r}")
    return variant.round_class(config, chance, match_state=match_state)

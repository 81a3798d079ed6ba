"""The official MIT Pokerbots engines (2022-2025) as the client must know them: stacks, blinds, clock,
the 2024 auction and the 2025 fold rule (`EngineRules`), by variant name or year."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EngineRules:
    """What differs between the official engines, as far as the client must know.

    Chips throughout. ``fold_always_legal``: 2025 accepts a fold even when checking is free.
    ``auction``: 2024's bid after the flop is dealt (big blind bids first, dealer sees the bid).
    """

    year: int
    variant: str
    starting_stack: int
    big_blind: int = 2
    small_blind: int = 1
    auction: bool = False
    fold_always_legal: bool = False
    game_clock_seconds: float = 30.0

    def __post_init__(self) -> None:
        if not 0 < self.small_blind <= self.big_blind < self.starting_stack:
            raise ValueError(
                f"need 0 < small blind {self.small_blind!r} <= big blind {self.big_blind!r} "
                f"< starting stack {self.starting_stack!r} chips"
            )


ENGINE_RULES: dict[str, EngineRules] = {
    "swap": EngineRules(2022, "swap", starting_stack=200),
    "river_of_blood": EngineRules(2023, "river_of_blood", starting_stack=400),
    "auction": EngineRules(2024, "auction", starting_stack=400, auction=True),
    "bounty": EngineRules(2025, "bounty", starting_stack=400, fold_always_legal=True, game_clock_seconds=60.0),
}
"""The four official engines by variant name (``engine-2022`` … ``engine-2025``)."""


def engine_rules(variant_or_year: str | int) -> EngineRules:
    """Rules of an official engine by variant name (``"auction"``) or year (``2024``).

    >>> engine_rules(2023).variant, engine_rules("bounty").year
    ('river_of_blood', 2025)
    >>> engine_rules("holdem")
    Traceback (most recent call last):
    ...
    ValueError: no official engine for 'holdem': known are swap (2022), river_of_blood (2023), auction (2024), bounty (2025)
    """
    for rules in ENGINE_RULES.values():
        if variant_or_year in (rules.variant, rules.year, str(rules.year)):
            return rules
    known = ", ".join(f"{rules.variant} ({rules.year})" for rules in ENGINE_RULES.values())
    raise ValueError(f"no official engine for {variant_or_year!r}: known are {known}")

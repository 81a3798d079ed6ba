"""Swap Hold'em (MIT Pokerbots 2022): after the flop and after the turn each hole card may be replaced.

When the flop is dealt, each of the four hole cards (seat 0's two, then seat 1's two) is
independently replaced with probability ``flop_swap_probability`` (0.10) by the next card of the
undealt deck; on the turn with ``turn_swap_probability`` (0.05). A replaced card is dead. Each
player sees only their own current cards. Stack 200.

Deal order: the street's board cards first, then the swap events and replacement cards. (The 2022
engine draws the replacements before the board; the deck is uniformly shuffled either way, so
the two orders give the same distribution.)

>>> from game.rules.chance import ScriptedChance
>>> from game.cards.deck import format_cards, parse_cards
>>> deck = parse_cards("Ah Ad Kc Qc 2s 7h 9d Js").tolist()
>>> round_ = SwapRound(SwapConfig(), ScriptedChance(deck, {"swap": [False, True, False, False]}))
>>> round_.apply(Action.call()); round_.apply(Action.check())
>>> format_cards(round_.hole_cards[0]), format_cards(round_.board), round_.chance_log.events
('Ah Js', '2s 7h 9d', {'swap': (False, True, False, False)})
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from game.rules.actions import Action
from game.rules.chance import UNKNOWN_CARD
from game.rules.nolimit import FLOP, TURN, EquityParameters, NoLimitConfig, NoLimitRound

__all__ = ["Action", "SwapConfig", "SwapRound"]


def _check_probability(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number in [0, 1], got {value!r}")
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")


@dataclass(frozen=True)
class SwapConfig(NoLimitConfig):
    """Swap Hold'em: stack 200, blinds 1/2, swap probabilities 0.10 (flop) and 0.05 (turn).

    >>> SwapConfig(turn_swap_probability=1.5)
    Traceback (most recent call last):
    ...
    ValueError: turn_swap_probability must be in [0, 1], got 1.5
    """

    stack: int = 200
    flop_swap_probability: float = 0.10
    """Chance that each hole card is replaced when the flop is dealt."""
    turn_swap_probability: float = 0.05
    """Chance that each hole card is replaced when the turn is dealt."""

    variant: ClassVar[str] = "swap"
    has_swaps: ClassVar[bool] = True

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_probability("flop_swap_probability", self.flop_swap_probability)
        _check_probability("turn_swap_probability", self.turn_swap_probability)

    def equity_parameters(self) -> EquityParameters:
        """Hold'em's, with the swap chances of the flop and the turn."""
        swaps = ((FLOP, self.flop_swap_probability), (TURN, self.turn_swap_probability))
        return replace(super().equity_parameters(), swaps=swaps)


class SwapRound(NoLimitRound):
    """One round of Swap Hold'em; swap events are logged as ``"swap"`` in ``chance_log``."""

    __slots__ = ()

    def _after_street_dealt(self) -> bool:
        street = self._street
        if street == FLOP:
            probability = self.config.flop_swap_probability
        elif street == TURN:
            probability = self.config.turn_swap_probability
        else:
            return False
        for hand in self._hole_cards:
            for index in range(len(hand)):
                swapped = self._flip("swap", probability)
                if swapped:
                    hand[index] = self._deal(1)[0]
                elif swapped is None:
                    hand[index] = UNKNOWN_CARD
        return False

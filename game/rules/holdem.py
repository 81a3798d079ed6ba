"""Plain heads-up no-limit Texas Hold'em (stack 400, blinds 1/2): the shared round with no additions.

>>> from game.rules.chance import RandomChance
>>> round_ = HoldemRound(HoldemConfig(), RandomChance(3))
>>> round_.apply(Action.fold())
>>> round_.payoffs().tolist()
[-1, 1]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from game.rules.actions import Action
from game.rules.nolimit import NoLimitConfig, NoLimitRound

__all__ = ["Action", "HoldemConfig", "HoldemRound"]


@dataclass(frozen=True)
class HoldemConfig(NoLimitConfig):
    """Heads-up no-limit Hold'em: stack 400, blinds 1/2, 1000 rounds per match."""

    variant: ClassVar[str] = "holdem"


class HoldemRound(NoLimitRound):
    """One round of heads-up no-limit Hold'em (see ``game.rules.nolimit`` for the API)."""

    __slots__ = ()

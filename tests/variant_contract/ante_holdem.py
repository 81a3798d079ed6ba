"""Ante Hold'em, a heads-up variant defined only here: Hold'em where both players also ante into the pot.

Each player puts ``ante`` chips into the pot before the blinds. The ante is dead money: it is in the
pot (and in each player's contribution, so a fold loses it) but not in the pips, so the betting is
Hold'em's with a bigger pot and shorter stacks. It proves the extension contract of
`abstraction.hooks`: a rules config and round (`AnteHoldemConfig`, `AnteHoldemRound`) and a hooks
subclass (`AnteHoldemHooks`), registered by `registered_ante_holdem`, are all a variant needs.

>>> from game.rules.chance import RandomChance
>>> round_ = AnteHoldemRound(AnteHoldemConfig(ante=3), RandomChance(0))
>>> round_.contributions, round_.pot, round_.stacks
((4, 5), 9, (396, 395))
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from abstraction.hooks import HoldemHooks, registered
from game.rules.chance import ChanceSource
from game.rules.nolimit import NoLimitConfig, NoLimitRound
from game.rules.variants import Variant

NAME = "ante_holdem"


@dataclass(frozen=True)
class AnteHoldemConfig(NoLimitConfig):
    """Heads-up no-limit Hold'em where each player antes ``ante`` chips (>= 1) before the blinds."""

    ante: int = 1
    variant: ClassVar[str] = NAME

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.ante, bool) or not isinstance(self.ante, int) or self.ante < 1:
            raise ValueError(f"ante must be an int >= 1 (chips), got {self.ante!r}")
        if self.stack <= self.ante + self.big_blind:
            raise ValueError(f"stack must be > ante + big_blind ({self.ante + self.big_blind}), got {self.stack!r}")


class AnteHoldemRound(NoLimitRound):
    """A round of Ante Hold'em: Hold'em's, with both antes taken from the stacks at the start."""

    __slots__ = ()

    def __init__(self, config: NoLimitConfig, chance: ChanceSource, *, match_state: object = None) -> None:
        super().__init__(config, chance, match_state=match_state)
        ante = config.ante  # type: ignore[attr-defined]
        self._stacks = [stack - ante for stack in self._stacks]


@dataclass(frozen=True)
class AnteHoldemHooks(HoldemHooks):
    """Hold'em's tree hooks (the payoff rows come from the round, antes included); a small game with
    antes of 1 on stacks of 4: a pot of 5 before the first action."""

    variant: str = NAME

    def small_rules(self, max_runs: int) -> dict[str, Any]:
        return {"ante": 1}


@contextmanager
def registered_ante_holdem() -> Iterator[None]:
    """Ante Hold'em registered (rules and hooks) for the length of the block."""
    variant = Variant(NAME, AnteHoldemConfig, AnteHoldemRound, "Hold'em with an ante from each player (tests only).")
    with registered(variant, AnteHoldemHooks()):
        yield

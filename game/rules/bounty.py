"""Bounty Hold'em (MIT Pokerbots 2025): a winner who hits their bounty rank wins more.

Each player has a bounty rank (0..12 = deuce..ace), drawn by the match every
``bounty_period`` (25) rounds, independently and uniformly (the two may be equal), and kept
across seat changes; a round takes them by seat as ``match_state=(rank of seat 0, rank of seat 1)``.
A player *hits* when the rank is among their hole cards or the board dealt when the round ends.

- A winner (fold or showdown) who hits wins ``bounty_multiplier * c + bounty_bonus`` where ``c``
  is the loser's contribution (default ``1.5 c + 10``), instead of ``c``.
- A showdown tie with exactly one hit: the hitter wins ``(bounty_multiplier - 1) / 2 * x +
  bounty_bonus`` where ``x`` is each player's contribution (default ``x / 4 + 10``).
- Non-integer winnings are rounded. ``rules="document"``: up if the winner (the one gaining
  chips) is out of position (seat 1, not the dealer), down otherwise. ``rules="engine"`` (2025
  engine): toward the player not to act at the terminal state, i.e. toward the folder's
  opponent, the caller of the last bet, or seat 1 after a final check-check. The engine also
  lets a player fold when checking is free.

>>> from game.rules.chance import ScriptedChance
>>> from game.cards.deck import parse_card, parse_cards
>>> deck = parse_cards("2c 3d Ah 5h").tolist()
>>> round_ = BountyRound(BountyConfig(), ScriptedChance(deck), match_state=(0, 12))
>>> round_.apply(Action.fold())    # the dealer folds; the big blind holds its bounty (an ace)
>>> round_.payoffs().tolist()      # 1.5 * 1 + 10 = 11.5, up: the winner is out of position
[-12, 12]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

import numpy as np

from game.cards.deck import N_RANKS
from game.cards.rng import SeedLike, as_generator
from game.rules.actions import Action, ActionKind
from game.rules.chance import UNKNOWN_CARD
from game.rules.nolimit import EquityParameters, NoLimitConfig, NoLimitRound, _check_int

__all__ = ["Action", "BountyConfig", "BountyRound", "draw_bounty_ranks"]


@dataclass(frozen=True)
class BountyConfig(NoLimitConfig):
    """Bounty Hold'em: stack 400, blinds 1/2, bounties re-drawn every 25 rounds, 1.5 x + 10.

    >>> BountyConfig(bounty_multiplier=0.5)
    Traceback (most recent call last):
    ...
    ValueError: bounty_multiplier must be a finite number >= 1, got 0.5
    """

    bounty_period: int = 25
    """Rounds between bounty draws (drawn before rounds 0, 25, 50, ... counting from 0)."""
    bounty_multiplier: float = 1.5
    """A hitting winner wins this times the loser's contribution ..."""
    bounty_bonus: int = 10
    """... plus this many chips."""

    variant: ClassVar[str] = "bounty"
    has_bounty: ClassVar[bool] = True

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_int("bounty_period", self.bounty_period, 1)
        _check_int("bounty_bonus", self.bounty_bonus, 0)
        multiplier = self.bounty_multiplier
        if isinstance(multiplier, bool) or not isinstance(multiplier, (int, float)):
            raise TypeError(f"bounty_multiplier must be a number, got {multiplier!r}")
        if not (math.isfinite(multiplier) and multiplier >= 1):
            raise ValueError(f"bounty_multiplier must be a finite number >= 1, got {multiplier!r}")

    def equity_parameters(self) -> EquityParameters:
        """Hold'em's, with the bounty payoff."""
        return replace(
            super().equity_parameters(), bounty_multiplier=self.bounty_multiplier, bounty_bonus=self.bounty_bonus
        )


@lru_cache(maxsize=64)
def _exact(multiplier: float) -> Fraction:
    """The multiplier as the decimal the user wrote (1.5 -> 3/2, 1.3 -> 13/10)."""
    return Fraction(str(multiplier))


def draw_bounty_ranks(seed: SeedLike) -> tuple[int, int]:
    """Two bounty ranks 0..12, independent and uniform (one per player, by player not seat).

    >>> draw_bounty_ranks(0) == draw_bounty_ranks(0)
    True
    """
    rng = as_generator(seed)
    first, second = rng.integers(0, N_RANKS, size=2).tolist()
    return (first, second)


class BountyRound(NoLimitRound):
    """One round of Bounty Hold'em; ``match_state=(rank of seat 0, rank of seat 1)``, ranks 0..12
    (``-1`` for a rank the scripting seat does not know; ``reveal_bounty`` sets it later)."""

    __slots__ = ()

    _FOLD_ALWAYS_LEGAL_IN_ENGINE: ClassVar[bool] = True

    @classmethod
    def next_match_state(
        cls,
        config: BountyConfig,
        round_index: int,
        previous: tuple[int, int] | None,
        rng: np.random.Generator,
    ) -> tuple[int, int]:
        """Bounty ranks by player for round ``round_index`` (0-based): new every ``bounty_period``."""
        if previous is None or round_index % config.bounty_period == 0:
            return draw_bounty_ranks(rng)
        return previous

    def _check_match_state(self, match_state: object) -> tuple[int, int]:
        if not isinstance(match_state, (tuple, list)) or len(match_state) != 2:
            raise ValueError(
                f"bounty needs match_state=(rank of seat 0, rank of seat 1), ranks 0..12, got {match_state!r}"
            )
        for rank in match_state:
            if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or not -1 <= rank < N_RANKS:
                raise ValueError(f"bounty ranks are 0..12 (or -1 if unknown), got {match_state!r}")
        return (int(match_state[0]), int(match_state[1]))

    @property
    def bounty_ranks(self) -> tuple[int, int]:
        return self.match_state  # type: ignore[return-value]

    def reveal_bounty(self, seat: int, rank: int) -> None:
        """Set the bounty rank of ``seat`` learned late (it was -1)."""
        ranks = list(self.bounty_ranks)
        if seat not in (0, 1) or not 0 <= rank < N_RANKS:
            raise ValueError(f"reveal_bounty needs a seat 0 or 1 and a rank 0..12, got seat {seat!r} rank {rank!r}")
        if ranks[seat] not in (UNKNOWN_CARD, rank):
            raise ValueError(f"seat {seat}'s bounty rank {ranks[seat]} is known; reveal_bounty gave {rank}")
        ranks[seat] = rank
        self.match_state = (ranks[0], ranks[1])
        self._payoffs = None

    def _bounty_rank(self, seat: int) -> int | None:
        rank = self.bounty_ranks[seat]
        return None if rank == UNKNOWN_CARD else rank

    def bounty_hits(self) -> tuple[bool, bool]:
        """Whether each seat's bounty rank is among its hole cards or the board dealt so far."""
        return (self._hit(0), self._hit(1))

    def _hit(self, seat: int) -> bool:
        rank = self.bounty_ranks[seat]
        if rank == UNKNOWN_CARD:
            raise ValueError(f"seat {seat}'s bounty rank is unknown; call reveal_bounty({seat}, rank) first")
        cards = self._hole_cards[seat] + self._board
        if UNKNOWN_CARD in cards:
            raise ValueError(f"cannot tell whether seat {seat} hit: its cards are unknown; call reveal first")
        return any(card >> 2 == rank for card in cards)

    def payoffs_for(self, hits: tuple[bool, bool], winner: int | None) -> tuple[int, int]:
        """Chips won by each seat had the bounty hits been ``hits`` (by seat) and ``winner`` (seat 0
        or 1; ``None``: a showdown tie) taken the pot: `payoffs` with the hits and the winner given
        instead of read from the cards, by the same award, split and rounding code. Only when
        terminal. For payoff tables over every hit pattern (the abstract game's terminal values).

        >>> from game.rules.chance import ScriptedChance
        >>> from game.cards.deck import parse_cards
        >>> round_ = BountyRound(BountyConfig(), ScriptedChance(parse_cards("2c 3d Ah 5h").tolist()),
        ...                      match_state=(0, 0))
        >>> round_.apply(Action.fold())
        >>> round_.payoffs_for((False, False), 1), round_.payoffs_for((False, True), 1)
        ((-1, 1), (-12, 12))
        """
        if self._to_act is not None:
            raise ValueError(f"no payoffs yet: the round is at {self._where()}")
        if winner is None:
            return self._split_hits(hits)
        if winner not in (0, 1):
            raise ValueError(f"winner must be seat 0, seat 1 or None (a tie), got {winner!r}")
        return self._award_hit(winner, bool(hits[winner]))

    def _award(self, winner: int) -> tuple[int, int]:
        return self._award_hit(winner, self._hit(winner))

    def _award_hit(self, winner: int, hit: bool) -> tuple[int, int]:
        won = self.config.stack - self._stacks[1 - winner]
        if not hit:
            return (won, -won) if winner == 0 else (-won, won)
        exact = _exact(self.config.bounty_multiplier) * won + self.config.bounty_bonus
        return self._rounded(winner, exact)

    def _split(self) -> tuple[int, int]:
        return self._split_hits(self.bounty_hits())

    def _split_hits(self, hits: tuple[bool, bool]) -> tuple[int, int]:
        if bool(hits[0]) == bool(hits[1]):
            return super()._split()
        hitter = 0 if hits[0] else 1
        each = self.config.stack - self._stacks[1 - hitter]
        exact = (_exact(self.config.bounty_multiplier) - 1) / 2 * each + self.config.bounty_bonus
        return self._rounded(hitter, exact)

    def _rounded(self, winner: int, exact: Fraction) -> tuple[int, int]:
        """Payoffs when ``winner`` wins ``exact`` chips, rounded by the configured rule."""
        if self._engine:
            last_kind = self._history[-1].action.kind if self._history else ActionKind.CHECK
            favored = self._last_actor if last_kind is ActionKind.CALL else 1 - self._last_actor
        else:
            favored = 1  # up when seat 1 (out of position) wins, down when the dealer wins
        won = math.ceil(exact) if favored == winner else math.floor(exact)
        return (won, -won) if winner == 0 else (-won, won)

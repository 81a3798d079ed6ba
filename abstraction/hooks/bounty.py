"""Tree hooks of Bounty Hold'em: a winner's payoff depends on the bounty hits, folds included.

Slots are Hold'em's (a Bounty bucket carries the player's hit bit, `2 * base + hit`; that is the
deal's business). Every terminal's payoff depends on the hits ``h = hit0 + 2 * hit1`` (a player
hits when their bounty rank is among their hole cards or the board dealt so far), so:

- contexts 0..3: a fold on street ordinal s = 0..3 (board of 0, 3, 4, 5 cards), 4 outcomes h;
- context 4: the showdown, 12 outcomes ``o = 4 * w + h`` with w the showdown outcome (0 seat 0
  wins, 1 tie, 2 seat 1 wins).

Each row is `game.rules.bounty.BountyRound.payoffs_for` on the terminal round: the rules' own award,
split and rounding (document or engine) for that hit pattern and winner.

>>> from game.rules.actions import Action
>>> from game.rules.bounty import BountyConfig
>>> walk = HOOKS.start(BountyConfig())
>>> round_, _ = walk.apply(walk.root, Action.fold(), ())     # the dealer folds preflop
>>> HOOKS.terminal_context(round_), HOOKS.terminal_values(round_).tolist()
(0, [[-1.0, 1.0], [-1.0, 1.0], [-12.0, 12.0], [-12.0, 12.0]])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from abstraction.bets.bet_abstraction import N_BETTING_STREETS
from abstraction.chance.kernels_chance import DEAL_BOUNTY_RANKS, HIT_OUTCOMES
from abstraction.hooks.holdem import SHOWDOWN_OUTCOMES, HoldemHooks, Walk, folder, street_ordinal
from game.rules.bounty import BountyRound
from game.rules.chance import RandomChance
from game.rules.nolimit import NoLimitConfig, NoLimitRound
from game.rules.variants import start_round

SHOWDOWN_CONTEXT = N_BETTING_STREETS
"""Context of the showdown (after the four fold contexts)."""
_WINNER = (0, None, 1)
"""`BountyRound.payoffs_for`'s winner of each showdown outcome (None: a tie)."""


def _hits(pattern: int) -> tuple[bool, bool]:
    return (bool(pattern & 1), bool(pattern & 2))


@dataclass(frozen=True)
class BountyHooks(HoldemHooks):
    """Bounty Hold'em: Hold'em's slots (buckets with the hit bit), hit-dependent fold and showdown contexts."""

    variant: str = "bounty"
    deal_flags: int = DEAL_BOUNTY_RANKS
    bounty_buckets: bool = True
    small_deck: str = "Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As"

    def start(self, config: NoLimitConfig) -> Walk:
        """A walk from a new round; the bounty ranks do not matter to the tree (rows cover every hit pattern)."""
        return Walk(start_round(config, RandomChance(0), match_state=(0, 0)))

    def context_size(self, config: NoLimitConfig) -> tuple[int, ...]:
        """Folds on each of the four streets (4 hit patterns), then the showdown (3 x 4)."""
        return (HIT_OUTCOMES,) * N_BETTING_STREETS + (SHOWDOWN_OUTCOMES * HIT_OUTCOMES,)

    def terminal_context(self, round_: NoLimitRound) -> int:
        """A fold's street ordinal, or the showdown context 4."""
        return street_ordinal(round_.street) if folder(round_) is not None else SHOWDOWN_CONTEXT

    def terminal_values(self, round_: NoLimitRound) -> np.ndarray:
        """Rows by outcome: a fold's h (the folder's opponent wins), a showdown's ``4 w + h``."""
        if not isinstance(round_, BountyRound):
            raise TypeError(f"the bounty tree hooks need a BountyRound, got {type(round_).__name__}")
        seat = folder(round_)
        if seat is not None:
            rows = [round_.payoffs_for(_hits(h), 1 - seat) for h in range(HIT_OUTCOMES)]
        else:
            rows = [
                round_.payoffs_for(_hits(h), _WINNER[w]) for w in range(SHOWDOWN_OUTCOMES) for h in range(HIT_OUTCOMES)
            ]
        return np.array(rows, dtype=np.float64)


HOOKS = BountyHooks()
"""The Bounty tree hooks."""

"""Match-level lock-in: once the bankroll lead cannot be lost any more, check or fold to the end.

An official MIT Pokerbots match (1000 rounds, seats alternating every round) is won on the
bankroll. A bot that only checks when checking is free, folds otherwise and bids 0 in an
auction can lose, per round, at most its own blind: as the dealer (seat 0) it folds to the big
blind at once and loses the small blind; as the big blind (seat 1) it never puts in another chip,
so it loses the big blind at a fold or a check-down showdown. Nothing else it pays: a bid of 0
costs nothing (a second-price winner pays the loser's bid; a 0-0 tie pays 0 each).

In Bounty (2025) a winner who hits their bounty wins ``bounty_multiplier * c + bounty_bonus``
instead of ``c``, ``c`` the loser's contribution, so a fold still costs that payout when the
opponent hits (the bot never sees the opponent's rank: assume it hits). With the defaults
(1.5 x + 10, blinds 1/2): the dealer's fold costs ``ceil(1.5 + 10) = 12`` (both rule sets round
up when seat 1 wins), the big blind's fold ``1.5 * 2 + 10 = 13``. The rounding per seat,
``rules="document"`` / ``"engine"`` (`game.rules.bounty`):

- dealer folds (or loses a check-down when the blinds are equal): seat 1 wins; the document
  rounds up (the winner is out of position), the engine rounds toward the folder's opponent (or
  toward seat 1 after a final check-check): up in both.
- big blind folds: the dealer wins; the document rounds down, the engine toward the folder's
  opponent, the dealer: ``floor`` / ``ceil``. A check-down the dealer wins rounds down in both
  (the engine favours seat 1 after a final check-check) and a chop with only the dealer hitting
  pays less, so the fold is the most.

`lock_in_threshold` sums that per-round bound over the remaining rounds, seats alternating as
the engines alternate them. `LockIn` wraps any bot: at its first decision of each round (when it
has put in only its blind) it compares the match's bankroll with the threshold of the rounds
left, this one included; once the lead *exceeds* it, the match is won whatever happens, and the
wrapper checks when it can, else folds (auction: bids 0), for the rest of the match, logging
once (level INFO; an exported bot's end-of-match summary line says when it locked in).

The wrapper reads the match's progress (``bankroll`` and ``rounds_played``, the engine's deltas
summed by `game.pokerbots.session.ClientSession`) from the object given to `attach`. Exported bots lock in
by default (`solver.bots.export_bot`, ``bot.json`` ``"lock_in"``); our own match runner
(`game.play.match`) never wraps bots, so its results measure the strategies.

>>> from game.rules.holdem import HoldemConfig
>>> from game.rules.bounty import BountyConfig
>>> lock_in_threshold(HoldemConfig(), 3, first_seat=0), lock_in_threshold(HoldemConfig(), 3, first_seat=1)
(4, 5)
>>> round_loss_bound(BountyConfig(rules="engine"), 0), round_loss_bound(BountyConfig(rules="engine"), 1)
(12, 13)
"""

from __future__ import annotations

import logging
import math
from fractions import Fraction
from typing import Any, Protocol

from game.dataclass_support import check_int
from game.rules.actions import Action, ActionKind, Policy
from game.rules.nolimit import NoLimitConfig

LOGGER = logging.getLogger("vcfr.lock_in")

__all__ = ["LockIn", "MatchCounter", "MatchProgress", "lock_in_threshold", "locked_action", "round_loss_bound"]


class MatchProgress(Protocol):
    """What the wrapper reads about the match (`game.pokerbots.session.ClientSession` has both)."""

    bankroll: int
    """Chips won so far in the match (the engine's round deltas summed)."""
    rounds_played: int
    """Rounds finished so far."""


class MatchCounter:
    """A `MatchProgress` counted from round results, for bots in our own match runner (which reports
    each finished round to a bot's ``round_over``): matches of ``rounds`` rounds follow each other,
    and ``bankroll`` and ``rounds_played`` count from the start of the current one.

    >>> counter = MatchCounter(2)
    >>> counter.record(5); (counter.bankroll, counter.rounds_played)
    (5, 1)
    >>> counter.record(-3); (counter.bankroll, counter.rounds_played, counter.matches)
    (0, 0, 1)
    """

    def __init__(self, rounds: int) -> None:
        check_int("rounds", rounds)
        self.rounds = rounds
        self.bankroll = 0
        """Chips won so far in the current match."""
        self.rounds_played = 0
        """Rounds finished in the current match."""
        self.matches = 0
        """Matches finished."""

    def record(self, chips: int) -> None:
        """Count one finished round that won ``chips``; after ``rounds`` rounds a new match starts."""
        self.bankroll += chips
        self.rounds_played += 1
        if self.rounds_played == self.rounds:
            self.bankroll, self.rounds_played = 0, 0
            self.matches += 1


def round_loss_bound(config: NoLimitConfig, seat: int) -> int:
    """The most chips one round can cost a bot that folds at its first chance (checks when free,
    bids 0) from ``seat`` (0 dealer / small blind, 1 big blind), per ``config``'s variant and rules.

    >>> from game.rules.bounty import BountyConfig
    >>> round_loss_bound(BountyConfig(rules="document", bounty_multiplier=1.25), 1)  # floor(12.5)
    12
    >>> round_loss_bound(BountyConfig(rules="engine", bounty_multiplier=1.25), 1)    # ceil(12.5)
    13
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 (dealer) or 1 (big blind), got {seat!r}")
    blind = config.small_blind if seat == 0 else config.big_blind
    parameters = config.equity_parameters()  # no bounty: 1 x + 0, the blind itself
    exact = Fraction(str(parameters.bounty_multiplier)) * blind + parameters.bounty_bonus
    rounds_up = seat == 0 or config.rules == "engine"  # see the module docstring
    return max(blind, math.ceil(exact) if rounds_up else math.floor(exact))


def lock_in_threshold(config: NoLimitConfig, rounds_left: int, first_seat: int) -> int:
    """The most chips the last ``rounds_left`` rounds can cost a bot that folds at every first
    opportunity and checks otherwise (bids 0), its seat being ``first_seat`` in the first of them
    and alternating after (as the engines seat the players).

    Hold'em, blinds 1/2, three rounds from the big blind: 2 + 1 + 2 = 5 chips.

    >>> from game.rules.holdem import HoldemConfig
    >>> lock_in_threshold(HoldemConfig(), 3, first_seat=1)
    5
    >>> lock_in_threshold(HoldemConfig(), 0, first_seat=0)
    0
    """
    check_int("rounds_left", rounds_left, 0)
    if first_seat not in (0, 1):
        raise ValueError(f"seat must be 0 (dealer) or 1 (big blind), got {first_seat!r}")
    bounds = (round_loss_bound(config, 0), round_loss_bound(config, 1))
    in_first_seat = (rounds_left + 1) // 2
    return in_first_seat * bounds[first_seat] + (rounds_left - in_first_seat) * bounds[1 - first_seat]


def locked_action(observation: Any) -> Action:
    """The locked-in answer: bid 0 at an auction, else check when it is legal, else fold."""
    legal = observation.legal_actions
    if ActionKind.BID in legal:
        return Action.bid(0)
    if ActionKind.CHECK in legal:
        return Action.check()
    if ActionKind.FOLD in legal:
        return Action.fold()
    return Action.call()  # no rules module offers neither check nor fold; never reached


class LockIn:
    """A bot that plays ``bot`` until the match is won, then checks or folds to the end.

    ``config`` gives the variant, blinds, bounty parameters, rules and rounds per match
    (``rounds`` overrides ``config.rounds``). ``attach`` the match's progress (a
    `game.pokerbots.session.ClientSession`) before play; unattached, the wrapper never locks in. ``locked``
    tells whether it has; ``locked_round`` (0-based round index), ``locked_bankroll`` and
    ``locked_threshold`` record when. In our own match runner attach a `MatchCounter`: the wrapper
    counts each finished round into it (``round_over``) and unlocks when a new match starts.
    ``policy`` is the wrapped bot's, or the locked-in answer, and changes nothing.
    """

    def __init__(
        self,
        bot: Any,
        config: NoLimitConfig,
        *,
        rounds: int | None = None,
        match: MatchProgress | None = None,
        logger: logging.Logger = LOGGER,
    ) -> None:
        if not callable(getattr(bot, "act", None)):
            raise TypeError(f"LockIn wraps a bot with an act(observation) method, got {bot!r}")
        self.bot = bot
        self.config = config
        self.rounds = config.rounds if rounds is None else rounds
        check_int("rounds", self.rounds)
        self.name = str(getattr(bot, "name", "bot"))
        self.match = match
        self.logger = logger
        self.locked = False
        self.locked_round: int | None = None
        self.locked_bankroll: int | None = None
        self.locked_threshold: int | None = None
        self._checked_round: int | None = None

    def attach(self, match: MatchProgress) -> None:
        """Read the bankroll and the rounds played from ``match`` from now on; a wrapped bot with an
        ``attach`` of its own (e.g. one that reads the game clock) is attached too."""
        self.match = match
        inner = getattr(self.bot, "attach", None)
        if callable(inner):
            inner(match)

    def __getattr__(self, name: str) -> Any:
        # counters and settings of the wrapped bot (the lookup bot's decisions, off_tree, errors)
        if name == "bot":
            raise AttributeError(name)
        return getattr(self.bot, name)

    def policy(self, observation: Any) -> Policy:
        """The locked-in answer once the lead cannot be lost, else the wrapped bot's policy."""
        if self.locked or self._threshold_if_won(observation) is not None:
            return ((locked_action(observation), 1.0),)
        return self.bot.policy(observation)

    def act(self, observation: Any) -> Action:
        if not self.locked:
            self._consider(observation)
        if self.locked:
            return locked_action(observation)
        return self.bot.act(observation)

    def round_over(self, observation: Any) -> None:
        """Count a finished round into an attached `MatchCounter` (a new match unlocks), then tell the
        wrapped bot if it listens."""
        if isinstance(self.match, MatchCounter) and observation.payoffs is not None:
            self.match.record(int(observation.payoffs[observation.seat]))
            if self.match.rounds_played == 0:
                self.locked, self._checked_round = False, None
                self.locked_round = self.locked_bankroll = self.locked_threshold = None
        listener = getattr(self.bot, "round_over", None)
        if listener is not None:
            listener(observation)

    def _threshold_if_won(self, observation: Any) -> int | None:
        """The most the rounds left (this one included) can cost, if the lead exceeds it, else ``None``."""
        match = self.match
        if match is None:
            return None
        rounds_left = self.rounds - int(match.rounds_played)
        if rounds_left < 1:
            return None  # past the match length we know: no bound
        threshold = lock_in_threshold(self.config, rounds_left, observation.seat)
        return threshold if int(match.bankroll) > threshold else None

    def _consider(self, observation: Any) -> None:
        """At my first decision of a round (only my blind is in), lock in if the lead exceeds the
        most the rounds left, this one included, can cost."""
        match = self.match
        if match is None:
            return
        played = int(match.rounds_played)
        if played == self._checked_round:
            return
        self._checked_round = played
        threshold = self._threshold_if_won(observation)
        if threshold is not None:
            bankroll = int(match.bankroll)
            self.locked = True
            self.locked_round, self.locked_bankroll, self.locked_threshold = played, bankroll, threshold
            self.logger.info(
                "locked in at round %d of %d: bankroll %+d chips exceeds %d, the most the %d rounds left can "
                "lose; checking or folding to the end",
                played + 1,
                self.rounds,
                bankroll,
                threshold,
                self.rounds - played,
            )

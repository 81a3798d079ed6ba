"""A heads-up match: N rounds between two bots, with dealer rotation, match state, duplicate dealing.

Seats alternate every round (seat 0 = dealer): player A sits at seat 0 in rounds 0, 2, 4, ...
Everything chance decides follows from ``seed``: for each deal the match draws the variant's
match state (Bounty: each player's rank, re-drawn every ``bounty_period`` rounds) and a deal
seed, from which a fresh ``RandomChance`` shuffles the deck and draws the events (swaps).

Duplicate dealing (``duplicate=True``): each deal is played twice, A at seat 0 then A at seat 1,
with the same deck and events; the match state is attached to the seats, so in the second play
each bot meets exactly what the other met in the first (Bounty ranks are re-drawn every
``bounty_period`` deals). Luck then cancels within a pair, and the confidence interval is
computed over the per-pair results.

A bot that raises or returns an illegal action does not stop the match: as in the official
engines the action becomes a check if legal, else a fold (auction: a bid of 0); each such fault
is counted, logged (``logging`` warning) and written to the hand history. A bot with a
``round_over(observation)`` method is shown each finished round from its seat (the payoffs in
``observation.payoffs``), as the engines call ``handle_round_over``; an error there is logged.

Results: bankrolls in chips by player (they sum to zero), and player A's win rate in mbb/hand
(thousandths of a big blind per round) with the half-width of a 95% normal confidence interval.

>>> from game.play.bots import CheckCallBot, RandomBot
>>> from game.rules.holdem import HoldemConfig
>>> result = play_match(HoldemConfig(), RandomBot(seed=1), CheckCallBot(), rounds=20, seed=5)
>>> result.rounds, sum(result.bankrolls.values())
(20, 0)
>>> result.bankrolls == play_match(HoldemConfig(), RandomBot(seed=1), CheckCallBot(), rounds=20, seed=5).bankrolls
True
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from game.cards.rng import SeedLike, as_generator
from game.dataclass_support import check_int
from game.play.history import Fault, HistoryHeader, RoundRecord
from game.play.history_files import open_history_writer
from game.rules.actions import Action, ActionKind, Bot, IllegalActionError
from game.rules.chance import RandomChance
from game.rules.nolimit import NoLimitConfig, NoLimitRound

logger = logging.getLogger(__name__)


def interval_95(values: np.ndarray) -> float | None:
    """Half-width of the two-sided 95% Student-t interval of the mean of ``values`` (1-D; same
    units), ``t(0.975, n - 1) * sample standard deviation / sqrt(n)``; ``None`` if fewer than 2.

    >>> round(interval_95(np.array([4.0, 2.0])), 3)  # t(0.975, 1) = 12.706, standard error 1
    12.706
    """
    from scipy.special import stdtrit  # scipy.special: a fraction of scipy.stats' import time

    n = len(values)
    if n < 2:
        return None
    return float(stdtrit(n - 1, 0.975) * np.std(values, ddof=1) / math.sqrt(n))


def mbb_per_hand(winnings: np.ndarray, big_blind: int, *, pair_size: int = 1) -> tuple[float, float | None]:
    """Mean win rate in mbb/hand and the half-width of its 95% confidence interval (``None`` if < 2 samples).

    ``winnings``: chips won per round, shape ``(rounds,)``. With ``pair_size=2`` (duplicate
    matches) consecutive rounds form one sample, the pair's mean: the interval is over pairs.
    The interval is Student's (`interval_95`): ``mean +- t(0.975, samples - 1) * sample standard
    deviation / sqrt(samples)``; with thousands of hands t is the normal 1.96.

    Hand-checked: winnings 10, -2, 4, 0 chips at big blind 2 average 3 chips = 1.5 bb = 1500
    mbb; their sample standard deviation is sqrt(84 / 3) = 5.29 chips, the standard error 2.65
    chips = 1322.88 mbb, times t(0.975, 3) = 3.18245 gives 4210.0. As pairs (8, 4 per pair; 4, 2
    per hand) the standard error is 1 chip = 500 mbb, times t(0.975, 1) = 12.7062 gives 6353.1.

    >>> mean, half_width = mbb_per_hand(np.array([10, -2, 4, 0]), 2)
    >>> round(mean, 1), round(half_width, 1)
    (1500.0, 4210.0)
    >>> mean, half_width = mbb_per_hand(np.array([10, -2, 4, 0]), 2, pair_size=2)
    >>> round(mean, 1), round(half_width, 1)
    (1500.0, 6353.1)
    """
    winnings = np.asarray(winnings, dtype=np.float64)
    if winnings.ndim != 1 or winnings.shape[0] % pair_size:
        raise ValueError(f"winnings must be 1-D with a multiple of {pair_size} rounds, got shape {winnings.shape}")
    if big_blind <= 0:
        raise ValueError(f"big_blind must be > 0 chips, got {big_blind!r}")
    if winnings.shape[0] == 0:
        raise ValueError("no rounds: cannot compute a win rate")
    per_sample = winnings.reshape(-1, pair_size).mean(axis=1) * 1000.0 / big_blind
    mean = float(per_sample.mean())
    return mean, interval_95(per_sample)


@dataclass(frozen=True)
class MatchResult:
    """A finished match. Chips throughout; ``winnings[i]`` is player A's result in round ``i``."""

    variant: str
    config: NoLimitConfig
    players: tuple[str, str]
    """Names of player A and player B (made distinct when the bots share a name)."""
    duplicate: bool
    winnings: np.ndarray
    """Chips won by player A per round, ``int64`` shape ``(rounds,)``."""
    faults: tuple[Fault, ...]

    @property
    def rounds(self) -> int:
        return int(self.winnings.shape[0])

    @property
    def bankrolls(self) -> dict[str, int]:
        """Chips won by each player over the match (sum 0)."""
        total = int(self.winnings.sum())
        return {self.players[0]: total, self.players[1]: -total}

    @property
    def illegal_actions(self) -> dict[str, int]:
        """Faults (exceptions and illegal actions) by player."""
        counts = dict.fromkeys(self.players, 0)
        for fault in self.faults:
            counts[fault.player] += 1
        return counts

    def win_rate(self) -> tuple[float, float | None]:
        """Player A's mbb/hand and the 95% CI half-width (over deal pairs when duplicate)."""
        return mbb_per_hand(self.winnings, self.config.big_blind, pair_size=2 if self.duplicate else 1)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary: win rates are player A's (``players[0]``); ``ci95_mbb_per_hand`` is the
        half-width of the 95% interval (``None`` with fewer than 2 samples)."""
        mean, half_width = self.win_rate()
        return {
            "variant": self.variant,
            "rounds": self.rounds,
            "duplicate": self.duplicate,
            "players": list(self.players),
            "bankrolls": self.bankrolls,
            "mbb_per_hand": mean,
            "ci95_mbb_per_hand": half_width,
            "illegal_actions": self.illegal_actions,
        }


def _fallback(round_: NoLimitRound) -> Action:
    """What a faulty bot plays: check if legal, else fold if legal, else bid 0 (the engines' rule)."""
    legal = round_.legal_actions()
    if ActionKind.CHECK in legal:
        return Action.check()
    if ActionKind.FOLD in legal:
        return Action.fold()
    return Action.bid(0)


def _play_round(round_: NoLimitRound, round_index: int, bots: tuple[Any, Any], names: tuple[str, str]) -> list[Fault]:
    """Ask the bots (by seat) for actions until the round ends; returns the faults."""
    faults: list[Fault] = []
    while (seat := round_.to_act) is not None:
        problem = None
        try:
            action = bots[seat].act(round_.observation(seat))
        except Exception as error:
            problem = f"raised {type(error).__name__}: {error}"
        else:
            try:
                round_.verify(action)
            except (IllegalActionError, TypeError) as error:
                problem = str(error)
        if problem is not None:
            action = _fallback(round_)
            fault = Fault(round_index, seat, names[seat], round_.street, problem, action)
            logger.warning(
                "round %d: %s at seat %d: %s; plays %s instead", round_index, names[seat], seat, problem, action
            )
            faults.append(fault)
        round_.apply(action)
    return faults


def _report_round_over(round_: NoLimitRound, round_index: int, bots: tuple[Any, Any], names: tuple[str, str]) -> None:
    """Show each bot that has ``round_over`` the finished round from its seat; log its errors."""
    for seat, bot in enumerate(bots):
        report = getattr(bot, "round_over", None)
        if report is None:
            continue
        try:
            report(round_.observation(seat))
        except Exception as error:
            logger.warning(
                "round %d: %s at seat %d: round_over raised %s: %s",
                round_index,
                names[seat],
                seat,
                type(error).__name__,
                error,
            )


def _player_names(bot_a: Bot, bot_b: Bot) -> tuple[str, str]:
    name_a, name_b = str(getattr(bot_a, "name", "a")), str(getattr(bot_b, "name", "b"))
    if name_a == name_b:
        return f"{name_a}-a", f"{name_b}-b"
    return name_a, name_b


def play_match(
    config: NoLimitConfig,
    bot_a: Bot,
    bot_b: Bot,
    *,
    rounds: int | None = None,
    seed: SeedLike = None,
    duplicate: bool = False,
    history: str | Path | IO[str] | None = None,
    on_round: Callable[[RoundRecord], None] | None = None,
) -> MatchResult:
    """Play ``rounds`` rounds (default ``config.rounds``) of the variant ``config`` between two bots.

    ``seed`` fixes every card, event and match state (bots carry their own seeds). ``duplicate``
    plays each deal twice with seats swapped (``rounds`` must be even). ``history``: a path or
    text file to receive the hand history: JSON lines (``game.play.history``), or PHH for a
    ``.phh``/``.phhs`` path (``game.play.phh``). ``on_round``: called with each round's
    ``RoundRecord`` as it ends (AIVAT replays the rounds from them).
    """
    from game.rules.variants import get_variant

    if not isinstance(config, NoLimitConfig):
        raise TypeError(f"config must be a heads-up variant config (NoLimitConfig), got {config!r}")
    rounds = config.rounds if rounds is None else rounds
    check_int("rounds", rounds)
    if duplicate and rounds % 2:
        raise ValueError(f"a duplicate match plays each deal twice: rounds must be even, got {rounds}")
    for bot in (bot_a, bot_b):
        if not callable(getattr(bot, "act", None)):
            raise TypeError(f"a bot needs an act(observation) method, got {bot!r}")
    variant = get_variant(config.variant)
    names = _player_names(bot_a, bot_b)
    rng = as_generator(seed)
    header = HistoryHeader(
        variant.name, config, int(seed) if isinstance(seed, (int, np.integer)) else None, names, rounds, duplicate
    )
    writer = open_history_writer(history, header) if history is not None else None
    winnings = np.zeros(rounds, dtype=np.int64)
    faults: list[Fault] = []
    state_by_player: object = None
    plays_per_deal = 2 if duplicate else 1
    try:
        for deal_index in range(rounds // plays_per_deal):
            state_by_player = variant.round_class.next_match_state(config, deal_index, state_by_player, rng)
            deal_seed = int(rng.integers(2**63 - 1))
            for play in range(plays_per_deal):
                round_index = deal_index * plays_per_deal + play
                a_seat = round_index % 2
                if state_by_player is None:
                    state_by_seat = None
                elif duplicate or a_seat == 0:
                    state_by_seat = tuple(state_by_player)  # type: ignore[arg-type]
                else:
                    state_by_seat = tuple(reversed(state_by_player))  # type: ignore[call-overload]
                seats = (names[a_seat], names[1 - a_seat])
                bots = (bot_a, bot_b) if a_seat == 0 else (bot_b, bot_a)
                round_ = variant.round_class(
                    config, RandomChance(np.random.default_rng(deal_seed)), match_state=state_by_seat
                )
                round_faults = _play_round(round_, round_index, bots, seats)
                _report_round_over(round_, round_index, bots, seats)
                payoffs = round_.payoffs()
                winnings[round_index] = payoffs[a_seat]
                faults.extend(round_faults)
                if writer is not None or on_round is not None:
                    record = RoundRecord(
                        round_index,
                        deal_index,
                        seats,
                        state_by_seat,  # type: ignore[arg-type]
                        round_.chance_log,
                        round_.history,
                        (int(payoffs[0]), int(payoffs[1])),
                        tuple(round_faults),
                    )
                    if writer is not None:
                        writer.write(record)
                    if on_round is not None:
                        on_round(record)
    finally:
        if writer is not None:
            writer.close()
    return MatchResult(variant.name, config, names, duplicate, winnings, tuple(faults))

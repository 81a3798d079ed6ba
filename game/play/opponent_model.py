"""An opponent model per match: frequencies of the opponent's play, learned online from what the
engine reveals, each a Beta (or Dirichlet) posterior around a prior frequency.

`OpponentModel.observe_round` reads one finished round from our seat (``Observation.history``:
actions and raise-to amounts; the auction's revealed bids; ``opponent_hole_cards`` at showdown)
and adds it to count arrays; no per-hand object is kept. The statistics (``STATS``; shapes in
brackets; street group 0 = preflop, 1 = postflop; position 0 = the dealer (small blind), 1 = the
big blind; size class `SIZE_CLASSES`):

- ``vpip`` [position]: first preflop action is a call or a raise (the big blind's free check is a trial);
- ``pfr`` [position]: first preflop action is a raise;
- ``fold_to_bet`` [street group, size class]: folds when facing our bet or raise, by its size as a
  fraction of the pot before it (``<= 0.5``, ``<= 1``, ``> 1`` pot, all-in);
- ``aggression`` [street 0..3 (preflop, flop, turn, river and later), position]: raises / (raises +
  calls); the aggression factor is ``p / (1 - p)``;
- ``showdown_strength`` [line]: the shown hand's percentile on its board (`showdown_percentile`: the
  share of the hands it could have been dealt that it beats, ties half; 1/2 on average for a hand
  dealt at random, whatever the board), line 0 = passive postflop, 1 = raised after the flop;
- ``bids`` (Dirichlet over `BID_CLASSES`): the auction bid as a fraction of the pot.

Beside the counts, the opponent's last ``bid_memory`` auction bids themselves (`recent_bids`) say
the least it is likely to bid next (`lowest_bid`): what a first bidder needs to bid one chip under
a constant bidder.

A Beta statistic with prior mean ``p``, prior weight ``w`` (pseudo-observations), ``s`` successes
out of ``n`` trials has posterior mean ``(w * p + s) / (w + n)``: after ``n`` observations at
frequency ``f`` the mean has moved the fraction ``n / (w + n)`` of the way from ``p`` to ``f``
(showdown strength adds fractional successes). The prior comes from `ModelPrior`: given, or measured
by `prior_from_self_play` (a bot against itself: its own frequencies, e.g. the blueprint's).

Pot sizes for the size classes replay the history from the blinds; Auction's payment for the third
card is not in them (the engines do not say who paid what until the round is over).

Bounty (``bounty``, a `BountyRule`): `BountyPosterior` infers the opponent's bounty rank from each
round's payoffs (`opponent_bounty_posterior`; see that class).

>>> model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat(weight=10.0))
>>> float(model.mean("vpip")[0])
0.5
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from game.cards.deck import N_RANKS
from game.cards.evaluator import evaluate, evaluate_batch
from game.rules.actions import ActionKind
from game.rules.nolimit import STREET_NAMES

_FOLD = ActionKind.FOLD
_CALL = ActionKind.CALL
_RAISE = ActionKind.RAISE
_BID = ActionKind.BID

SIZE_CLASSES: tuple[str, ...] = ("<=0.5p", "<=1p", ">1p", "all-in")
"""Bet size classes (the bet as a fraction of the pot before it; all-in takes precedence)."""
BID_CLASSES: tuple[str, ...] = ("0", "<=0.25p", "<=0.5p", "<=1p", ">1p", "all-in")
"""Auction bid classes (the bid as a fraction of the pot at the auction)."""
STREETS: tuple[str, ...] = STREET_NAMES
"""Street index of ``aggression`` (River of Blood's later streets count as the river)."""

STATS: dict[str, tuple[int, ...]] = {
    "vpip": (2,),
    "pfr": (2,),
    "fold_to_bet": (2, len(SIZE_CLASSES)),
    "aggression": (len(STREETS), 2),
    "showdown_strength": (2,),
}
"""The Beta statistics and their shapes (see the module docstring)."""

_OFFSETS: dict[str, int] = {}
_total = 0
for _name, _shape in STATS.items():
    _OFFSETS[_name] = _total
    _total += int(np.prod(_shape))
BETA_SIZE = _total
"""Entries of the flat Beta arrays (every statistic's cells, in ``STATS`` order)."""
_COMBINATIONS: dict[tuple[int, int], np.ndarray] = {}
"""`showdown_percentile`'s index arrays: every ``k``-subset of ``range(n)`` by ``(n, k)``."""


def _normal_below(threshold: Any, mean: np.ndarray, total: np.ndarray) -> np.ndarray:
    """The probability that a Beta of mean ``mean`` and ``total`` pseudo-counts is below ``threshold``
    (elementwise), taken as the normal of variance ``mean (1 - mean) / (total + 1)``."""
    deviation = np.sqrt(np.maximum(mean * (1.0 - mean) / (total + 1.0), 1e-18))
    z = (np.asarray(threshold, dtype=np.float64) - mean) / deviation
    return 0.5 * (1.0 + np.vectorize(math.erf)(z / math.sqrt(2.0)))


def showdown_percentile(shown: tuple[int, ...], board: tuple[int, ...], dead: tuple[int, ...] = ()) -> float:
    """The share of the hands of ``len(shown)`` cards from the cards not on ``board`` nor ``dead`` (ours)
    that ``shown`` beats on ``board``, ties counting half (``shown`` itself among them): a hand
    dealt at random from those cards scores 1/2 on average, so a range's mean is 1/2 exactly when
    it is no stronger than a random hand's. Card ints; ``board`` has at least 5 - ``len(shown)`` cards.

    >>> from game.cards.deck import parse_cards
    >>> cards = lambda text: tuple(parse_cards(text).tolist())
    >>> round(showdown_percentile(cards("Ah Kh"), cards("2h 7h 9h Tc Jd")), 4)  # the nuts: all but itself
    0.9995
    >>> round(showdown_percentile(cards("2c 3d"), cards("Ah Kh Qs 9c 7d"), cards("As Ad")), 3)  # plays the board
    0.081
    """
    live = np.setdiff1d(np.arange(52, dtype=np.int8), np.array(board + dead, dtype=np.int8))
    key = (live.size, len(shown))
    subsets = _COMBINATIONS.get(key)
    if subsets is None:
        subsets = _COMBINATIONS[key] = np.array(list(combinations(range(live.size), len(shown))), dtype=np.int16)
    hands = np.empty((subsets.shape[0], len(shown) + len(board)), dtype=np.int8)
    hands[:, : len(shown)] = live[subsets]
    hands[:, len(shown) :] = np.array(board, dtype=np.int8)
    values = evaluate_batch(hands, check=False)
    mine = evaluate(shown + board)
    return float((np.count_nonzero(values < mine) + 0.5 * np.count_nonzero(values == mine)) / values.size)


def size_class(bet: int, pot_before: int, all_in: bool) -> int:
    """Index into `SIZE_CLASSES` of a bet of ``bet`` chips into ``pot_before`` chips.

    >>> size_class(2, 4, False), size_class(4, 4, False), size_class(9, 4, False), size_class(1, 4, True)
    (0, 1, 2, 3)
    """
    if all_in:
        return 3
    fraction = bet / max(pot_before, 1)
    return 0 if fraction <= 0.5 else 1 if fraction <= 1.0 else 2


def bid_class(bid: int, pot: int, all_in: bool) -> int:
    """Index into `BID_CLASSES` of a bid of ``bid`` chips at a pot of ``pot`` chips.

    >>> [bid_class(b, 8, False) for b in (0, 2, 4, 8, 9)], bid_class(5, 8, True)
    ([0, 1, 2, 3, 4], 5)
    """
    if all_in:
        return 5
    if bid == 0:
        return 0
    fraction = bid / max(pot, 1)
    return 1 if fraction <= 0.25 else 2 if fraction <= 0.5 else 3 if fraction <= 1.0 else 4


@dataclass(frozen=True)
class ModelPrior:
    """Prior frequencies: ``beta`` float64 ``(BETA_SIZE,)`` means in [0, 1] (``STATS`` order), ``bids``
    float64 ``(len(BID_CLASSES),)`` probabilities summing to 1, and ``weight`` pseudo-observations
    per statistic (> 0)."""

    beta: np.ndarray
    bids: np.ndarray
    weight: float

    def __post_init__(self) -> None:
        beta, bids = np.asarray(self.beta, dtype=np.float64), np.asarray(self.bids, dtype=np.float64)
        if beta.shape != (BETA_SIZE,) or not np.all((beta >= 0.0) & (beta <= 1.0)):
            raise ValueError(f"prior beta must be {BETA_SIZE} means in [0, 1], got shape {beta.shape}")
        if bids.shape != (len(BID_CLASSES),) or np.any(bids < 0.0) or not np.isclose(bids.sum(), 1.0):
            raise ValueError(f"prior bids must be {len(BID_CLASSES)} probabilities summing to 1, got {bids!r}")
        if not self.weight > 0.0:
            raise ValueError(f"prior weight must be > 0 pseudo-observations, got {self.weight!r}")
        object.__setattr__(self, "beta", beta)
        object.__setattr__(self, "bids", bids)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready ``{"beta": [...], "bids": [...], "weight": w}`` (`from_dict` reads it back)."""
        return {"beta": self.beta.tolist(), "bids": self.bids.tolist(), "weight": float(self.weight)}

    @classmethod
    def from_dict(cls, data: Any) -> ModelPrior:
        """The prior `to_dict` wrote; ValueError naming what is missing or wrong.

        >>> ModelPrior.from_dict(ModelPrior.flat(5.0).to_dict()).weight
        5.0
        >>> ModelPrior.from_dict({"beta": []})
        Traceback (most recent call last):
        ...
        ValueError: a model prior needs beta, bids and weight, got ['beta']
        """
        if not isinstance(data, dict) or not {"beta", "bids", "weight"} <= data.keys():
            raise ValueError(
                f"a model prior needs beta, bids and weight, got {sorted(data) if isinstance(data, dict) else data!r}"
            )
        return cls(
            np.asarray(data["beta"], dtype=np.float64),
            np.asarray(data["bids"], dtype=np.float64),
            float(data["weight"]),
        )

    @classmethod
    def flat(cls, weight: float = 20.0) -> ModelPrior:
        """Every frequency 1/2, bids uniform over the classes."""
        return cls(np.full(BETA_SIZE, 0.5), np.full(len(BID_CLASSES), 1.0 / len(BID_CLASSES)), weight)


_OPPONENT_HOLE = 2  # the opponent's hole cards in Bounty


@dataclass(frozen=True)
class BountyRule:
    """Bounty's payout (`game.rules.bounty.BountyConfig`): a winner holding its bounty rank wins
    ``multiplier * c + bonus`` chips instead of ``c`` (``c``: the loser's contribution), a showdown tie
    with exactly one hit gives the hitter ``(multiplier - 1) / 2 * x + bonus`` (``x``: each player's
    contribution), rounded either way; ranks are re-drawn every ``period`` rounds."""

    multiplier: float = 1.5
    bonus: int = 10
    period: int = 25

    def __post_init__(self) -> None:
        if not (math.isfinite(self.multiplier) and self.multiplier >= 1.0) or self.bonus < 0 or self.period < 1:
            raise ValueError(
                f"a bounty rule needs multiplier >= 1, bonus >= 0 chips and period >= 1 rounds, got "
                f"{self.multiplier!r}, {self.bonus!r}, {self.period!r}"
            )

    @classmethod
    def of(cls, config: Any) -> BountyRule | None:
        """The rule of a variant config with a bounty (``config.has_bounty``), else ``None``."""
        if not getattr(config, "has_bounty", False):
            return None
        return cls(float(config.bounty_multiplier), int(config.bounty_bonus), int(config.bounty_period))


class BountyPosterior:
    """The posterior over the opponent's bounty rank (13 ranks, 0 = deuce .. 12 = ace; uniform prior)
    in the current period of ``rule.period`` rounds, from the payoffs the engine reports.

    A round the opponent won tells whether it hit: it won ``c`` chips (no hit) or ``multiplier * c +
    bonus`` rounded (hit), ``c`` our contribution; a showdown tie tells it too (0: it hit exactly when
    we did; ``+-((multiplier - 1) / 2 * x + bonus)``: only the winner of the chips hit). A payoff that
    fits both or neither formula, and a round we won, tell nothing. The likelihood of the round given
    rank ``r``: at a showdown, 1 if ``r`` is among the shown hole cards and the board, else 0 (the
    reverse for a miss); when we folded, the probability that ``r`` is on the board or among two hole
    cards drawn uniformly from the cards we did not see (its range taken as uniform; the reverse for a
    miss).

    The posterior restarts at each round index that is a multiple of ``rule.period`` (the re-draw). It is
    kept apart for each bounty rank of ours: in a match both ranks are drawn together, so ours names
    the period (a change of ours is a re-draw); in our duplicate matches the ranks belong to the seats
    (`game.play.match`), so the opponent's rank goes with ours. Evidence that rules out every rank
    (a re-draw not counted) restarts it from that round.
    """

    def __init__(self, rule: BountyRule) -> None:
        if not isinstance(rule, BountyRule):
            raise TypeError(f"rule must be a BountyRule, got {rule!r}")
        self.rule = rule
        self._weights: dict[int, np.ndarray] = {}
        self._own_rank = -1

    def posterior(self, own_rank: int | None = None) -> np.ndarray:
        """The probabilities of the opponent's 13 ranks (float64, sums to 1) while our bounty rank is
        ``own_rank`` (``None``: ours in the last round observed)."""
        key = self._own_rank if own_rank is None else int(own_rank)
        weights = self._weights.get(key)
        return np.full(N_RANKS, 1.0 / N_RANKS) if weights is None else weights.copy()

    def observe(self, observation: Any, round_index: int) -> None:
        """Add round ``round_index`` (0-based; a multiple of the period restarts) seen from our seat."""
        if round_index % self.rule.period == 0:
            self._weights.clear()
        rank = getattr(observation, "bounty_rank", None)
        self._own_rank = -1 if rank is None else int(rank)
        likelihood = self.likelihood(observation)
        if likelihood is None:
            return
        weights = self._weights.get(self._own_rank, np.full(N_RANKS, 1.0 / N_RANKS)) * likelihood
        if not weights.sum() > 0.0:
            weights = likelihood
        self._weights[self._own_rank] = weights / weights.sum()

    def likelihood(self, observation: Any) -> np.ndarray | None:
        """Probability of the round's outcome given each opponent rank (float64 ``(13,)``), or ``None``
        when the round tells nothing (class docstring)."""
        hit = self._opponent_hit(observation)
        if hit is None:
            return None
        board = tuple(observation.board)
        shown = tuple(observation.opponent_hole_cards)
        if shown:
            chance = np.zeros(N_RANKS)
            chance[[card >> 2 for card in shown + board]] = 1.0
        else:
            chance = rank_hit_chance(tuple(observation.hole_cards), board)
        return chance if hit else 1.0 - chance

    def _opponent_hit(self, observation: Any) -> bool | None:
        """Whether the opponent hit its bounty, read from the payoffs, or ``None`` if they do not say."""
        payoffs = getattr(observation, "payoffs", None)
        if payoffs is None or not observation.history:
            return None
        me = observation.seat
        gain = int(payoffs[1 - me])
        last = observation.history[-1]
        contribution = int(observation.contributions[me])
        multiplier = Fraction(str(self.rule.multiplier))
        if last.action.kind is _FOLD:
            if last.seat != me:
                return None
            return _hit_from(gain, contribution, multiplier * contribution + self.rule.bonus)
        shown = tuple(observation.opponent_hole_cards)
        board = tuple(observation.board)
        if not shown or min(shown + board) < 0:  # not shown, or shown as unknown cards
            return None
        ours = evaluate(np.array(tuple(observation.hole_cards) + board, dtype=np.int8))
        theirs = evaluate(np.array(shown + board, dtype=np.int8))
        if ours > theirs:
            return None
        if theirs > ours:
            return _hit_from(gain, contribution, multiplier * contribution + self.rule.bonus)
        single = _hit_from(abs(gain), 0, (multiplier - 1) / 2 * contribution + self.rule.bonus)
        if single is None:
            return None
        if single:
            return gain > 0
        rank = getattr(observation, "bounty_rank", None)
        if rank is None:
            return None
        return any(card >> 2 == rank for card in tuple(observation.hole_cards) + board)


def _hit_from(won: int, plain: int, exact: Fraction) -> bool | None:
    """Whether ``won`` chips are the hit payout ``exact`` (rounded either way) rather than ``plain``
    chips; ``None`` if they fit both or neither."""
    hit = won in (math.floor(exact), math.ceil(exact))
    return hit if hit != (won == plain) else None


def rank_hit_chance(hole: tuple[int, ...], board: tuple[int, ...]) -> np.ndarray:
    """For each rank (float64 ``(13,)``), the probability that it is on ``board`` or among the
    opponent's two hole cards drawn uniformly from the cards not in ``hole`` or ``board``:
    ``1 - C(N - n, 2) / C(N, 2)`` with ``N`` unseen cards of which ``n`` have the rank; 1 on the board.

    >>> from game.cards.deck import parse_cards
    >>> chance = rank_hit_chance(tuple(parse_cards("9c 9d").tolist()), ())
    >>> round(float(chance[0]), 6), round(float(chance[7]), 6)  # a deuce: 380/2450; a nine: 194/2450
    (0.155102, 0.079184)
    """
    seen = np.bincount([card >> 2 for card in hole + board], minlength=N_RANKS)
    unseen = 52 - len(hole) - len(board)
    left = 4 - seen
    misses = np.array([math.comb(unseen - n, _OPPONENT_HOLE) for n in left], dtype=np.float64)
    chance = 1.0 - misses / math.comb(unseen, _OPPONENT_HOLE)
    chance[[card >> 2 for card in board]] = 1.0
    return chance


class OpponentModel:
    """Counts of one opponent's play in one match and their posterior means (see the module docstring).

    Chips: ``small_blind``, ``big_blind``, ``stack`` (per round) as in the variant's config.
    ``memory`` (rounds, > 1; ``inf``: remember everything): before each round is added, every count
    is multiplied by ``1 - 1 / memory``, so a round ``k`` rounds back weighs about ``exp(-k / memory)``
    and an opponent that changes its style is seen to change. ``bounty`` (Bounty's `BountyRule`,
    ``None`` elsewhere): the rounds also feed a `BountyPosterior`, the round index being the number of
    rounds observed (the model sees every round of the match from its start). ``bid_memory``: how
    many of the opponent's latest auction bids `lowest_bid` reads.
    """

    def __init__(
        self,
        *,
        small_blind: int,
        big_blind: int,
        stack: int,
        prior: ModelPrior,
        memory: float = math.inf,
        bounty: BountyRule | None = None,
        bid_memory: int = 20,
    ) -> None:
        if not 0 < small_blind <= big_blind < stack:
            raise ValueError(
                f"need 0 < small_blind <= big_blind < stack chips, got {small_blind}, {big_blind}, {stack}"
            )
        if not isinstance(prior, ModelPrior):
            raise TypeError(f"prior must be a ModelPrior, got {prior!r}")
        if not memory > 1.0:
            raise ValueError(f"memory must be > 1 rounds (inf: no forgetting), got {memory!r}")
        if not isinstance(bid_memory, int) or bid_memory < 1:
            raise ValueError(f"bid_memory must be a positive number of bids, got {bid_memory!r}")
        self.decay = 1.0 - 1.0 / memory
        self.blinds = (small_blind, big_blind)
        self.stack = stack
        self.prior = prior
        self.successes = np.zeros(BETA_SIZE)
        """Observed successes per Beta cell (fractional for showdown strength)."""
        self.trials = np.zeros(BETA_SIZE)
        """Observed trials per Beta cell."""
        self.bid_counts = np.zeros(len(BID_CLASSES))
        """Observed bids per class."""
        self.recent_bids: deque[tuple[int, int, bool]] = deque(maxlen=bid_memory)
        """The opponent's latest bids, oldest first: (bid, pot at the auction, all in), chips."""
        self.rounds = 0
        """Rounds observed."""
        self.bounty = None if bounty is None else BountyPosterior(bounty)
        """The opponent's bounty rank (Bounty), else ``None``."""

    # ---------------------------------------------------------------- reading
    def mean(self, name: str) -> np.ndarray:
        """Posterior means of the statistic ``name`` (shape ``STATS[name]``)."""
        cells = self._cells(name)
        w = self.prior.weight
        return ((w * self.prior.beta[cells] + self.successes[cells]) / (w + self.trials[cells])).reshape(STATS[name])

    def prior_mean(self, name: str) -> np.ndarray:
        """Prior means of the statistic ``name`` (shape ``STATS[name]``): the frequencies the model starts from."""
        return self.prior.beta[self._cells(name)].reshape(STATS[name])

    def probability_below(self, name: str, threshold: float) -> np.ndarray:
        """Posterior probability that each frequency of the statistic ``name`` is below ``threshold``
        (shape ``STATS[name]``): how sure the model is that the opponent plays that way. The Beta
        posterior ``(a, b) = (w p + s, w (1 - p) + n - s)`` is taken as the normal of its mean ``a / (a
        + b)`` and variance ``mean (1 - mean) / (a + b + 1)`` (no scipy: exported bots carry numpy only).

        >>> model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat(weight=10.0))
        >>> float(model.probability_below("vpip", 0.5)[0])  # the prior Beta(5, 5) is symmetric
        0.5
        >>> model.trials[:2] = 90.0  # 90 trials and no VPIP in both positions: Beta(5, 95), sd 0.0217
        >>> round(float(model.probability_below("vpip", 0.1)[0]), 3)  # 2.30 sd above the mean 0.05
        0.989
        """
        cells = self._cells(name)
        total = self.prior.weight + self.trials[cells]
        mean = (self.prior.weight * self.prior.beta[cells] + self.successes[cells]) / total
        return _normal_below(threshold, mean, total).reshape(STATS[name])

    def probability_departed(self, name: str, margin: float) -> np.ndarray:
        """Posterior probability that each frequency of the statistic ``name`` lies more than ``margin``
        away from its prior mean, on the likelier side (shape ``STATS[name]``; the normal of
        `probability_below`): how sure the model is that the opponent does not play as the base the prior
        came from. ``"bids"``: each bid class's probability (the Dirichlet's Beta marginals; shape
        ``(len(BID_CLASSES),)``).

        >>> model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat(weight=10.0))
        >>> model.trials[:2] = 90.0  # 90 trials and no VPIP: mean 0.05, sd 0.0217, 0.2 below 0.5 - 0.25
        >>> round(float(model.probability_departed("vpip", 0.25)[0]), 4)
        1.0
        >>> round(float(model.probability_departed("bids", 0.25).max()), 3)  # no bid seen: the prior's spread only
        0.013
        """
        if name == "bids":
            prior, mean, total = self.prior.bids, self.bid_distribution(), self.prior.weight + self.bid_counts.sum()
        else:
            prior, mean = self.prior_mean(name), self.mean(name)
            total = self.prior.weight + self.count(name)
        return np.maximum(_normal_below(prior - margin, mean, total), 1.0 - _normal_below(prior + margin, mean, total))

    def count(self, name: str) -> np.ndarray:
        """Observed trials of the statistic ``name`` (shape ``STATS[name]``)."""
        return self.trials[self._cells(name)].reshape(STATS[name])

    def opponent_bounty_posterior(self, own_rank: int | None = None) -> np.ndarray:
        """The probabilities of the opponent's bounty ranks 0..12 (float64 ``(13,)``) in the current
        period (`BountyPosterior.posterior`); ValueError if the model has no bounty rule."""
        if self.bounty is None:
            raise ValueError("this opponent model has no bounty rule (OpponentModel(bounty=BountyRule(...)))")
        return self.bounty.posterior(own_rank)

    def opponent_bounty_posterior_now(self, own_rank: int | None) -> np.ndarray:
        """The probabilities of the opponent's bounty ranks (float64 ``(13,)``) in the round being
        played, the next to be observed (round index ``rounds``): uniform at a re-draw (an index that
        is a multiple of the period, whose rounds are not counted yet), else
        `opponent_bounty_posterior` for our bounty rank ``own_rank`` in this round.

        >>> model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat(), bounty=BountyRule())
        >>> bool(np.allclose(model.opponent_bounty_posterior_now(3), 1 / 13))
        True
        """
        posterior = self.opponent_bounty_posterior(own_rank)  # ValueError without a bounty rule
        return np.full(N_RANKS, 1.0 / N_RANKS) if self.rounds % self.bounty.rule.period == 0 else posterior

    def bid_distribution(self) -> np.ndarray:
        """Posterior mean of the bid class probabilities (Dirichlet; shape ``(len(BID_CLASSES),)``)."""
        w = self.prior.weight
        return (w * self.prior.bids + self.bid_counts) / (w + self.bid_counts.sum())

    def lowest_bid(self, pot: int, stack_left: int, evidence: int) -> int | None:
        """The least the opponent is likely to bid (chips) at an auction with ``pot`` chips in and
        ``stack_left`` chips behind it, by its `recent_bids`, at most ``stack_left``; ``None`` before
        ``evidence`` bids are remembered. Every one of them all-in: ``stack_left``. Else a bid of ``b``
        chips at a pot of ``p`` says the opponent's fraction of the pot was in
        ``[(b - 1/2) / p, (b + 1) / p)`` (rounded to the nearest chip or down), an all-in at least
        ``(b - 1/2) / p``. If one fraction fits every remembered bid (the intervals meet: a constant
        bidder), the bid is at least that fraction's least value times ``pot``, rounded down (either
        rounding of a larger product is no less); else the least of the bids each rescaled so.

        >>> model = OpponentModel(small_blind=1, big_blind=2, stack=400, prior=ModelPrior.flat())
        >>> model.recent_bids.extend([(398, 4, True), (396, 8, True)])
        >>> model.lowest_bid(20, 380, evidence=3), model.lowest_bid(20, 380, evidence=2)
        (None, 380)
        >>> model.recent_bids.clear()
        >>> model.recent_bids.extend([(2, 4, False), (6, 12, False)])  # half a pot, twice
        >>> model.lowest_bid(20, 380, evidence=2)  # each alone says at least 3/8 and 11/24 of a pot; both, 11/24
        9
        >>> model.recent_bids.append((2, 12, False))  # no one fraction fits: the least, 1.5 / 12 of 20
        >>> model.lowest_bid(20, 380, evidence=2)
        2
        """
        if len(self.recent_bids) < evidence:
            return None
        if all(all_in for _, _, all_in in self.recent_bids):
            return stack_left
        lows = [max(bid - 0.5, 0.0) / max(seen_pot, 1) for bid, seen_pot, _ in self.recent_bids]
        highs = [math.inf if all_in else (bid + 1.0) / max(seen_pot, 1) for bid, seen_pot, all_in in self.recent_bids]
        fraction = max(lows) if max(lows) < min(highs) else min(lows)
        return min(math.floor(fraction * pot), stack_left)

    def frequencies(self, weight: float) -> ModelPrior:
        """The observed frequencies as a prior of ``weight``; cells never observed keep this model's prior."""
        seen = self.trials > 0
        beta = np.where(seen, self.successes / np.maximum(self.trials, 1.0), self.prior.beta)
        total = self.bid_counts.sum()
        bids = self.bid_counts / total if total > 0 else self.prior.bids
        return ModelPrior(beta, bids, weight)

    @staticmethod
    def _cells(name: str) -> slice:
        shape = STATS.get(name)
        if shape is None:
            raise ValueError(f"unknown statistic {name!r}: known are {', '.join(STATS)}")
        start = _OFFSETS[name]
        return slice(start, start + int(np.prod(shape)))

    def _add(self, name: str, index: tuple[int, ...], success: float) -> None:
        cell = _OFFSETS[name] + int(np.ravel_multi_index(index, STATS[name]))
        self.successes[cell] += success
        self.trials[cell] += 1.0

    # ---------------------------------------------------------------- learning
    def observe_round(self, observation: Any) -> None:
        """Add one finished round seen from our seat (``observation.seat``; the opponent is the other)."""
        if self.decay < 1.0:
            self.successes *= self.decay
            self.trials *= self.decay
            self.bid_counts *= self.decay
        me = observation.seat
        opponent = 1 - me
        pips = list(self.blinds)
        contributions = list(self.blinds)
        street = 0
        acted_preflop = False
        raised_postflop = False
        for move in observation.history:
            if move.street != street:
                street, pips = move.street, [0, 0]
            action = move.action
            seat = move.seat
            if action.kind is _BID:
                if seat == opponent:
                    stack_left = self.stack - contributions[opponent]
                    all_in = action.amount >= stack_left
                    self.bid_counts[bid_class(action.amount, sum(contributions), all_in)] += 1
                    self.recent_bids.append((action.amount, sum(contributions), all_in))
                continue
            if seat == opponent:
                facing = pips[me] - pips[opponent]
                if street == 0 and not acted_preflop:
                    acted_preflop = True
                    self._add("vpip", (opponent,), float(action.kind in (_CALL, _RAISE)))
                    self._add("pfr", (opponent,), float(action.kind is _RAISE))
                if facing > 0 and pips[me] > (self.blinds[1] if street == 0 else 0):
                    pot_before = sum(contributions) - facing
                    all_in = contributions[me] >= self.stack
                    group = 0 if street == 0 else 1
                    self._add(
                        "fold_to_bet", (group, size_class(facing, pot_before, all_in)), float(action.kind is _FOLD)
                    )
                if action.kind in (_CALL, _RAISE):
                    street_index = min(street - 2, 3) if street else 0
                    self._add("aggression", (street_index, opponent), float(action.kind is _RAISE))
                    raised_postflop |= street > 0 and action.kind is _RAISE
            if action.kind is _CALL:
                paid = pips[1 - seat] - pips[seat]
            elif action.kind is _RAISE:
                paid = action.amount - pips[seat]
            else:
                paid = 0
            pips[seat] += paid
            contributions[seat] += paid
        shown = tuple(observation.opponent_hole_cards)
        board = tuple(observation.board)
        if shown and len(shown) + len(board) >= 5:
            value = showdown_percentile(shown, board, tuple(observation.hole_cards))
            self._add("showdown_strength", (int(raised_postflop),), value)
        if self.bounty is not None:
            self.bounty.observe(observation, self.rounds)
        self.rounds += 1


class _Watcher:
    """A bot that plays as ``bot`` and shows every finished round to ``model`` (then to ``bot``)."""

    def __init__(self, bot: Any, model: OpponentModel) -> None:
        self.name = f"{getattr(bot, 'name', 'bot')}-watched"
        self._bot, self._model = bot, model

    def act(self, observation: Any) -> Any:
        return self._bot.act(observation)

    def round_over(self, observation: Any) -> None:
        self._model.observe_round(observation)
        report = getattr(self._bot, "round_over", None)
        if report is not None:
            report(observation)


def prior_from_self_play(
    make: Callable[[int], Any], config: Any, *, rounds: int, weight: float, seed: int = 0
) -> ModelPrior:
    """The frequencies of a bot playing itself for ``rounds`` rounds (``make(seed) -> bot``, called
    twice), as a prior of ``weight`` pseudo-observations; cells never observed stay at 1/2.

    ``config``: the heads-up variant's config (`game.rules.nolimit.NoLimitConfig`).
    """
    from game.play.match import play_match

    model = OpponentModel(
        small_blind=config.small_blind, big_blind=config.big_blind, stack=config.stack, prior=ModelPrior.flat()
    )
    play_match(config, _Watcher(make(2 * seed), model), make(2 * seed + 1), rounds=rounds, seed=seed)
    return model.frequencies(weight)

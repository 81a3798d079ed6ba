"""Baseline bots implementing ``game.rules.actions.PolicyBot``, and the registry the CLI builds bots from.

- ``RandomBot``: a uniform legal action kind, then a uniform raise-to or bid amount (seeded).
- ``CheckCallBot``: checks when it can, else calls (auction: bids 0; limit showdown: announces
  its best hand).
- ``EquityBot``: Monte Carlo equity against a uniform opponent range, then thresholds on equity
  against pot odds (see the class docstring). Variant-aware: Swap's future swaps, River of
  Blood's run cards, Auction's third card, Bounty's payoff.

Each has ``policy(observation)``, the distribution ``act`` plays (`game.play.bot_support`). Every
bot plays the heads-up no-limit variants (``game.rules.nolimit.Observation``); ``RandomBot`` and
``CheckCallBot`` also play the N-player limit game (``game.rules.limit.LimitObservation``, whose
``legal_moves`` lists the concrete actions). The registry ``BOTS`` also holds the sparring styles
(`game.play.sparring`).

>>> from game.rules.chance import RandomChance
>>> from game.rules.holdem import HoldemConfig, HoldemRound
>>> round_ = HoldemRound(HoldemConfig(), RandomChance(0))
>>> CheckCallBot().act(round_.observation(0))
Action(kind=<ActionKind.CALL: 2>, amount=0)
>>> sorted(BASELINE_BOTS)
['checkcall', 'equity', 'random']
>>> make_bot("equity", seed=1).name, make_bot("maniac", seed=1).name
('equity', 'maniac')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from game.cards.rng import SeedLike, as_generator, kernel_seed
from game.play.bot_support import EquityEstimator, one_point, passive_action
from game.play.sparring import LIMIT_STYLES, STYLES, make_sparring_bot
from game.rules.actions import Action, ActionKind, Policy
from game.rules.nolimit import NoLimitConfig

__all__ = [
    "BASELINE_BOTS",
    "BOTS",
    "LIMIT_BOTS",
    "CheckCallBot",
    "EquityBot",
    "RandomBot",
    "make_bot",
    "passive_action",
]

_RAISE = ActionKind.RAISE
_BID = ActionKind.BID
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL


def _concrete_moves(observation: Any) -> Sequence[Action] | None:
    """The limit game's concrete legal moves, or ``None`` for a no-limit observation."""
    return getattr(observation, "legal_moves", None)


class RandomBot:
    """Uniform over the legal action kinds; a raise-to or bid amount uniform in its bounds (chips).

    Its policy lists every amount: ``1 / (kinds * amounts)`` each.

    >>> from game.rules.chance import RandomChance
    >>> from game.rules.holdem import HoldemConfig, HoldemRound
    >>> observation = HoldemRound(HoldemConfig(), RandomChance(0)).observation(0)
    >>> RandomBot(seed=3).act(observation) == RandomBot(seed=3).act(observation)
    True
    >>> policy = RandomBot().policy(observation)  # fold, call, raise to 4..400
    >>> len(policy), policy[0][1], round(policy[-1][1] * 3 * 397, 9)
    (399, 0.3333333333333333, 1.0)
    """

    def __init__(self, seed: SeedLike = None, name: str = "random") -> None:
        self.name = name
        self._rng = as_generator(seed)

    def _options(self, observation: Any) -> list[tuple[ActionKind, Sequence[Action] | range]]:
        """Per legal kind (sorted): its concrete actions, or the range of its raise-to or bid amounts."""
        kinds = sorted(observation.legal_actions)
        if not kinds:
            raise ValueError(f"{self.name} was asked to act with no legal action (seat {observation.seat})")
        moves = _concrete_moves(observation)
        options: list[tuple[ActionKind, Sequence[Action] | range]] = []
        for kind in kinds:
            if moves is not None:
                options.append((kind, [move for move in moves if move.kind is kind]))
            elif kind is _RAISE or kind is _BID:
                low, high = observation.raise_bounds if kind is _RAISE else observation.bid_bounds
                options.append((kind, range(low, high + 1)))
            else:
                options.append((kind, [Action(kind)]))
        return options

    def policy(self, observation: Any) -> Policy:
        options = self._options(observation)
        policy: list[tuple[Action, float]] = []
        for kind, choices in options:
            probability = 1.0 / (len(options) * len(choices))
            actions = [Action(kind, amount) for amount in choices] if isinstance(choices, range) else choices
            policy.extend((action, probability) for action in actions)
        return tuple(policy)

    def act(self, observation: Any) -> Action:
        """A draw from `policy` in two steps, a kind then one of its choices (no list of every amount)."""
        options = self._options(observation)
        kind, choices = options[int(self._rng.integers(len(options)))]
        if isinstance(choices, range):
            return Action(kind, int(self._rng.integers(choices.start, choices.stop)))
        return choices[int(self._rng.integers(len(choices)))]


class CheckCallBot:
    """Never folds, never raises: checks when it can, else calls; bids 0; announces its best hand.

    >>> from game.rules.auction import AuctionConfig, AuctionRound
    >>> from game.rules.chance import RandomChance
    >>> round_ = AuctionRound(AuctionConfig(), RandomChance(0))
    >>> bot = CheckCallBot()
    >>> while round_.street == 0:
    ...     round_.apply(bot.act(round_.observation(round_.to_act)))
    >>> bot.act(round_.observation(round_.to_act))
    Action(kind=<ActionKind.BID: 4>, amount=0)
    """

    def __init__(self, name: str = "checkcall") -> None:
        self.name = name

    def policy(self, observation: Any) -> Policy:
        return one_point(passive_action(observation))

    def act(self, observation: Any) -> Action:
        return passive_action(observation)


class EquityBot:
    """Plays by Monte Carlo equity against a uniform opponent range (``samples`` deals per decision).

    Equity is the expected share of the pot won at showdown (1 win, 1/2 tie), estimated from
    ``samples`` random completions of the unseen cards. Bounty: a win in a sample where our bounty
    rank is among our final cards counts ``bounty_multiplier`` times. Decisions (``pot`` = chips
    both players have put in; ``cost`` = chips to call):

    - equity >= ``raise_equity`` and a raise is legal: raise to the opponent's pip plus
      ``raise_pot_fraction * (pot + cost)``, clamped to the raise bounds;
    - else with nothing to call: check; facing a bet: call if equity >= ``cost / (pot + cost)``
      (the pot odds), else fold;
    - auction bid: ``(equity with the third card - equity if the opponent gets it) * pot``,
      clamped to the bid bounds (a second-price auction rewards bidding one's value).

    Its policy is one point: the action those thresholds give. The estimate is a pure function of
    the cards seen (`game.play.bot_support.EquityEstimator`, seeded from ``seed`` and the cards), so
    ``policy`` and ``act`` of one observation share it.

    ``config`` is the variant's config (for swap probabilities, River of Blood's cap, Bounty's
    multiplier); ``None`` uses the default config of the observed variant.

    >>> from game.rules.chance import ScriptedChance
    >>> from game.cards.deck import parse_cards
    >>> from game.rules.holdem import HoldemConfig, HoldemRound
    >>> round_ = HoldemRound(HoldemConfig(), ScriptedChance(parse_cards("Ah Ad 7c 2d").tolist()))
    >>> EquityBot(seed=0).act(round_.observation(0))  # aces: about 85% equity: raise the pot, to 2 + (3 + 1)
    Action(kind=<ActionKind.RAISE: 3>, amount=6)
    >>> EquityBot(samples=0)
    Traceback (most recent call last):
    ...
    ValueError: samples must be >= 1 Monte Carlo deals, got 0
    """

    def __init__(
        self,
        config: NoLimitConfig | None = None,
        *,
        samples: int = 1000,
        raise_equity: float = 0.7,
        raise_pot_fraction: float = 1.0,
        seed: SeedLike = None,
        name: str = "equity",
    ) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be >= 1 Monte Carlo deals, got {samples!r}")
        if not 0.0 <= raise_equity <= 1.5:
            raise ValueError(f"raise_equity must be in [0, 1.5], got {raise_equity!r}")
        if not raise_pot_fraction > 0.0:
            raise ValueError(f"raise_pot_fraction must be > 0, got {raise_pot_fraction!r}")
        if config is not None and not isinstance(config, NoLimitConfig):
            raise TypeError(
                f"EquityBot plays the heads-up no-limit variants; config must be a NoLimitConfig, got {config!r}"
            )
        self.name = name
        self.samples = samples
        self.raise_equity = raise_equity
        self.raise_pot_fraction = raise_pot_fraction
        self._estimator = EquityEstimator(config, samples=samples, seed=kernel_seed(as_generator(seed)))

    def equity(
        self, observation: Any, *, extra_hole_cards: int = 0, opponent_hole_cards: int | None = None
    ) -> tuple[float, float]:
        """``(equity, bounty-weighted equity)`` of the observing seat, by ``samples`` Monte Carlo deals."""
        try:
            return self._estimator.estimate(
                observation, extra_hole_cards=extra_hole_cards, opponent_hole_cards=opponent_hole_cards
            )
        except ValueError as error:
            raise ValueError(f"{self.name} was {error}") from None

    def policy(self, observation: Any) -> Policy:
        legal = observation.legal_actions
        if _concrete_moves(observation) is not None:
            raise TypeError(f"{self.name} plays the heads-up no-limit variants, not {type(observation).__name__}")
        pot = sum(observation.contributions)
        if _BID in legal:
            with_card = self.equity(observation, extra_hole_cards=1, opponent_hole_cards=2)[1]
            without_card = self.equity(observation, opponent_hole_cards=3)[1]
            low, high = observation.bid_bounds
            return one_point(Action.bid(min(high, max(low, round((with_card - without_card) * pot)))))
        equity = self.equity(observation)[1]
        seat = observation.seat
        cost = observation.pips[1 - seat] - observation.pips[seat]
        if _RAISE in legal and equity >= self.raise_equity:
            low, high = observation.raise_bounds
            target = observation.pips[1 - seat] + round(self.raise_pot_fraction * (pot + cost))
            return one_point(Action.raise_to(min(high, max(low, target))))
        if _CHECK in legal:
            return one_point(Action.check())
        if _CALL in legal and equity * (pot + cost) >= cost:
            return one_point(Action.call())
        return one_point(Action.fold())

    def act(self, observation: Any) -> Action:
        return self.policy(observation)[0][0]


BASELINE_BOTS: dict[str, Callable[..., Any]] = {
    "random": lambda config, seed: RandomBot(seed=seed),
    "checkcall": lambda config, seed: CheckCallBot(),
    "equity": lambda config, seed: EquityBot(config, seed=seed),
}
"""The baseline bots' factories by registry name: ``factory(config, seed) -> Bot``."""

BOTS: dict[str, Callable[..., Any]] = {
    **BASELINE_BOTS,
    **{name: (lambda config, seed, name=name: make_sparring_bot(name, config=config, seed=seed)) for name in STYLES},
}
"""Bot factories by registry name, the baselines then the sparring styles: ``factory(config, seed) -> Bot``."""

LIMIT_BOTS: tuple[str, ...] = ("random", "checkcall", *LIMIT_STYLES)
"""Registry names that play the N-player limit game (the equity bot is heads-up no-limit only)."""


def make_bot(name: str, *, config: NoLimitConfig | None = None, seed: SeedLike = None) -> Any:
    """The bot registered as ``name``, for the variant ``config`` (``None``: default), seeded by ``seed``.

    >>> make_bot("allin")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'allin': known are bid_allin, bid_pot, bid_zero, bounty_hunter, checkcall, equity, lag, ...
    """
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}: known are {', '.join(sorted(BOTS))}")
    return factory(config, seed)

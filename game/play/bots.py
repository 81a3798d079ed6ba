"""Baseline bots implementing ``game.rules.actions.Bot``, and the registry the CLI builds them from.

- ``RandomBot``: a uniform legal action kind, then a uniform raise-to or bid amount (seeded).
- ``CheckCallBot``: checks when it can, else calls (auction: bids 0; limit showdown: announces
  its best hand).
- ``EquityBot``: Monte Carlo equity against a uniform opponent range, then thresholds on equity
  against pot odds (see the class docstring). Variant-aware: Swap's future swaps, River of
  Blood's run cards, Auction's third card, Bounty's payoff.

Every bot plays the heads-up no-limit variants (``game.rules.nolimit.Observation``); ``RandomBot`` and
``CheckCallBot`` also play the N-player limit game (``game.rules.limit.LimitObservation``, whose
``legal_moves`` lists the concrete actions).

>>> from game.rules.chance import RandomChance
>>> from game.rules.holdem import HoldemConfig, HoldemRound
>>> round_ = HoldemRound(HoldemConfig(), RandomChance(0))
>>> CheckCallBot().act(round_.observation(0))
Action(kind=<ActionKind.CALL: 2>, amount=0)
>>> sorted(BOTS)
['checkcall', 'equity', 'random']
>>> make_bot("equity", seed=1).name
'equity'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from game.cards.evaluator import evaluate
from game.cards.rng import SeedLike, as_generator
from game.play.kernels_equity import _equity
from game.rules.actions import Action, ActionKind
from game.rules.nolimit import FLOP, TURN, NoLimitConfig

_RAISE = ActionKind.RAISE
_BID = ActionKind.BID
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_FOLD = ActionKind.FOLD
_ANNOUNCE = ActionKind.ANNOUNCE


def _concrete_moves(observation: Any) -> Sequence[Action] | None:
    """The limit game's concrete legal moves, or ``None`` for a no-limit observation."""
    return getattr(observation, "legal_moves", None)


class RandomBot:
    """Uniform over the legal action kinds; a raise-to or bid amount uniform in its bounds (chips).

    >>> from game.rules.chance import RandomChance
    >>> from game.rules.holdem import HoldemConfig, HoldemRound
    >>> observation = HoldemRound(HoldemConfig(), RandomChance(0)).observation(0)
    >>> RandomBot(seed=3).act(observation) == RandomBot(seed=3).act(observation)
    True
    """

    def __init__(self, seed: SeedLike = None, name: str = "random") -> None:
        self.name = name
        self._rng = as_generator(seed)

    def act(self, observation: Any) -> Action:
        kinds = sorted(observation.legal_actions)
        if not kinds:
            raise ValueError(f"{self.name} was asked to act with no legal action (seat {observation.seat})")
        kind = kinds[int(self._rng.integers(len(kinds)))]
        moves = _concrete_moves(observation)
        if moves is not None:
            choices = [move for move in moves if move.kind is kind]
            return choices[int(self._rng.integers(len(choices)))]
        if kind is _RAISE or kind is _BID:
            low, high = observation.raise_bounds if kind is _RAISE else observation.bid_bounds
            return Action(kind, int(self._rng.integers(low, high + 1)))
        return Action(kind)


def passive_action(observation: Any) -> Action:
    """Check, else call, else bid 0 (auction), else announce the best hand (limit showdown), else fold.

    What ``CheckCallBot`` plays, and the fallback of bots that cannot use their strategy.

    >>> from game.rules.chance import RandomChance
    >>> from game.rules.holdem import HoldemConfig, HoldemRound
    >>> round_ = HoldemRound(HoldemConfig(), RandomChance(0))
    >>> passive_action(round_.observation(0))  # the small blind faces the big blind: call
    Action(kind=<ActionKind.CALL: 2>, amount=0)
    """
    legal = observation.legal_actions
    if _CHECK in legal:
        return Action.check()
    if _CALL in legal:
        return Action.call()
    if _BID in legal:
        return Action.bid(0)
    if _ANNOUNCE in legal:
        announcements = [move for move in observation.legal_moves if move.kind is _ANNOUNCE]
        return max(announcements, key=lambda move: evaluate(np.array(move.cards, dtype=np.int8)))
    return Action.fold()


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
        self._config = config
        self._rng = as_generator(seed)

    def _config_for(self, variant: str) -> NoLimitConfig:
        if self._config is not None:
            if self._config.variant != variant:
                raise ValueError(f"{self.name} was configured for {self._config.variant!r} but observes {variant!r}")
            return self._config
        from game.rules.variants import get_variant

        self._config = get_variant(variant).config_class()
        return self._config

    def equity(
        self, observation: Any, *, extra_hole_cards: int = 0, opponent_hole_cards: int | None = None
    ) -> tuple[float, float]:
        """``(equity, bounty-weighted equity)`` of the observing seat, by ``samples`` Monte Carlo deals."""
        config = self._config_for(observation.variant)
        if opponent_hole_cards is None:
            opponent_hole_cards = self._opponent_hole_count(observation)
        board_count = len(observation.board)
        swap_streets = [
            probability
            for street, probability in (
                (FLOP, getattr(config, "flop_swap_probability", 0.0)),
                (TURN, getattr(config, "turn_swap_probability", 0.0)),
            )
            if board_count < street and probability > 0.0
        ]
        bounty_rank = observation.bounty_rank if observation.bounty_rank is not None else -1
        out = np.zeros(2, dtype=np.float64)
        _equity(
            np.array(observation.hole_cards, dtype=np.int8),
            np.array(observation.board, dtype=np.int8),
            extra_hole_cards,
            opponent_hole_cards,
            np.array(swap_streets, dtype=np.float64),
            config.variant == "river_of_blood",
            getattr(config, "max_board_cards", 5),
            bounty_rank,
            float(getattr(config, "bounty_multiplier", 1.0)),
            self.samples,
            int(self._rng.integers(2**32)),  # np.random.seed takes < 2**32 without numba
            out,
        )
        return float(out[0]), float(out[1])

    @staticmethod
    def _opponent_hole_count(observation: Any) -> int:
        """3 once the opponent has won (or tied) an auction, else 2."""
        mine, theirs = observation.bids[observation.seat], observation.bids[1 - observation.seat]
        return 3 if mine is not None and theirs is not None and theirs >= mine else 2

    def act(self, observation: Any) -> Action:
        legal = observation.legal_actions
        if _concrete_moves(observation) is not None:
            raise TypeError(f"{self.name} plays the heads-up no-limit variants, not {type(observation).__name__}")
        pot = sum(observation.contributions)
        if _BID in legal:
            with_card = self.equity(observation, extra_hole_cards=1, opponent_hole_cards=2)[1]
            without_card = self.equity(observation, opponent_hole_cards=3)[1]
            low, high = observation.bid_bounds
            return Action.bid(min(high, max(low, round((with_card - without_card) * pot))))
        equity = self.equity(observation)[1]
        seat = observation.seat
        cost = observation.pips[1 - seat] - observation.pips[seat]
        if _RAISE in legal and equity >= self.raise_equity:
            low, high = observation.raise_bounds
            target = observation.pips[1 - seat] + round(self.raise_pot_fraction * (pot + cost))
            return Action.raise_to(min(high, max(low, target)))
        if _CHECK in legal:
            return Action.check()
        if _CALL in legal and equity * (pot + cost) >= cost:
            return Action.call()
        return Action.fold()


BOTS: dict[str, Callable[..., Any]] = {
    "random": lambda config, seed: RandomBot(seed=seed),
    "checkcall": lambda config, seed: CheckCallBot(),
    "equity": lambda config, seed: EquityBot(config, seed=seed),
}
"""Bot factories by registry name: ``factory(config, seed) -> Bot``."""


def make_bot(name: str, *, config: NoLimitConfig | None = None, seed: SeedLike = None) -> Any:
    """The bot registered as ``name``, for the variant ``config`` (``None``: default), seeded by ``seed``.

    >>> make_bot("allin")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'allin': known are checkcall, equity, random
    """
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}: known are {', '.join(sorted(BOTS))}")
    return factory(config, seed)

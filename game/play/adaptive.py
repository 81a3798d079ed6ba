"""Safe exploitation: a bot that plays a base `game.rules.actions.PolicyBot` and deviates from it
toward what the opponent model (`game.play.opponent_model`) says is exploitable, risking only
what it has won above the game value (Ganzfried & Sandholm 2015, "Safe opponent exploitation").

The bound implemented ("risk what you've won", per round). ``won`` is the sum over finished rounds
of ``payoff - value[seat]`` (chips; ``value`` is the base's value by position, ``(0, 0)`` by
default: a symmetric game over a match that alternates seats). A deviation is playing an action
other than the base policy's (the base policy is replaced by one action). Its *cost* is the chips
it puts at risk:

- a raise the base did not play: the chips it adds (raise-to minus our pip);
- a call where the base folds: the chips to call;
- a check, call or fold where the base raises (or a fold where it calls): the pot, which the base's
  action might have won.

Within one round the deviations taken may cost at most ``max(won, 0)`` at the round's start:
``risk <= max(won, 0)`` is the invariant (`AdaptiveBot.check_invariant`), so no round risks more
than the match has won above the value. If each cost bounded the deviation's expected loss against
any opponent, the expected winnings above the value would stay above the base's (G&S's theorem).
The chips counted are those of the deviating action only, not those later streets can add: the
cost is a proxy for the worst case, not a proof of it.

The rules (``e`` = our Monte Carlo equity against a uniform range, bounty-weighted; postflop
statistics unless preflop; `ExploitConfig` holds the thresholds):

1. *Maniac* (the opponent's aggression on this street >= ``maniac_aggression``): facing a bet the
   base does not raise, its range is about uniform, so call when ``e >= cost / (pot + cost)`` and
   fold otherwise; no other rule plays (it bets for us).
2. *Calling station* (fold to a pot-sized bet <= ``station_fold``): value-bet a pot when ``e >=
   value_equity`` and the base would not raise; do not bluff (when the base raises with ``e < 1/2``,
   check, or call at pot odds, or fold).
3. *Folder* (fold to a pot-sized bet >= ``1/2 + folder_margin``, the break-even frequency of a
   pot-sized bluff plus a margin): bet a pot where the base would check.

Auction bids are the base's. ``policy`` is the base's or the one-point deviation; ``act`` plays the
base's ``act`` where it does not deviate (so a bot that never deviates plays exactly as its base,
its base's memory of the hand included), else the deviation, and records its cost; any error falls
back to the base's action (logged), then to the passive action. ``round_over`` updates the model, ``won`` and the base (if it has ``round_over``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import numpy as np

from game.cards.rng import SeedLike, as_generator, kernel_seed
from game.play.bot_support import EquityEstimator, one_point, passive_action, sample_policy
from game.play.opponent_model import ModelPrior, OpponentModel, prior_from_self_play
from game.rules.actions import Action, ActionKind, Policy
from game.rules.nolimit import NoLimitConfig

LOGGER = logging.getLogger("vcfr.adaptive")

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_RAISE = ActionKind.RAISE
_BID = ActionKind.BID
_POT_CLASS = 1  # `SIZE_CLASSES` index of a pot-sized bet


@dataclass(frozen=True)
class ExploitConfig:
    """Thresholds of the exploitation rules (frequencies and equities in [0, 1]; see the module docstring).

    ``prior_weight``: pseudo-observations of the model's prior. ``prior_rounds``: rounds of the base
    against itself that measure the prior (0: a flat prior, every frequency 1/2). ``value``: the
    base's value by seat in chips per round (``won`` counts winnings above it).
    """

    maniac_aggression: float = 0.75
    station_fold: float = 0.2
    folder_margin: float = 0.1
    value_equity: float = 0.6
    prior_weight: float = 20.0
    prior_rounds: int = 200
    value: tuple[float, float] = (0.0, 0.0)
    samples: int = 300

    def __post_init__(self) -> None:
        for name in ("maniac_aggression", "station_fold", "folder_margin", "value_equity"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if not self.prior_weight > 0.0 or self.prior_rounds < 0 or self.samples < 1:
            raise ValueError(
                f"need prior_weight > 0, prior_rounds >= 0 and samples >= 1, got {self.prior_weight!r}, "
                f"{self.prior_rounds!r}, {self.samples!r}"
            )


class AdaptiveBot:
    """A base PolicyBot shifted toward the model's best response within the safety budget (module docstring).

    ``base``: the bot to deviate from (``policy`` and ``act``). ``config``: the heads-up variant's
    config (blinds and stack for the model). ``prior``: the model's prior (``None``: flat, weight
    ``exploit.prior_weight``; `adaptive_player` measures it by self-play).
    """

    def __init__(
        self,
        base: Any,
        config: NoLimitConfig,
        *,
        prior: ModelPrior | None = None,
        exploit: ExploitConfig | None = None,
        seed: SeedLike = None,
        name: str | None = None,
    ) -> None:
        if not callable(getattr(base, "policy", None)) or not callable(getattr(base, "act", None)):
            raise TypeError(f"the base must be a PolicyBot (policy and act), got {base!r}")
        if not isinstance(config, NoLimitConfig):
            raise TypeError(f"config must be a heads-up variant config (NoLimitConfig), got {config!r}")
        self.base = base
        self.exploit = ExploitConfig() if exploit is None else exploit
        self.name = f"adaptive-{getattr(base, 'name', 'bot')}" if name is None else name
        self._rng = as_generator(seed)
        self._estimator = EquityEstimator(config, samples=self.exploit.samples, seed=kernel_seed(self._rng))
        self.model = OpponentModel(
            small_blind=config.small_blind,
            big_blind=config.big_blind,
            stack=config.stack,
            prior=ModelPrior.flat(self.exploit.prior_weight) if prior is None else prior,
        )
        self.won = 0.0
        """Chips won above the value over the finished rounds."""
        self.risk = 0
        """Cost (chips) of the deviations taken in the current round."""
        self.budget = 0.0
        """``max(won, 0)`` at the current round's start: what this round's deviations may cost."""
        self.deviations = 0
        """Deviations taken in the match."""
        self.risk_taken = 0
        """Total cost (chips) of the deviations taken in the match."""
        self.fallbacks = 0
        """Decisions answered by the base (or the passive action) after an error."""

    # ---------------------------------------------------------------- the engine
    def policy(self, observation: Any) -> Policy:
        return self._decide(observation)[0]

    def act(self, observation: Any) -> Action:
        try:
            policy, cost = self._decide(observation)
            action = sample_policy(policy, self._rng) if cost else self.base.act(observation)
        except Exception as error:  # a bot never crashes a match
            self.fallbacks += 1
            LOGGER.warning("%s fell back to its base after %s: %s", self.name, type(error).__name__, error)
            try:
                return self.base.act(observation)
            except Exception:
                return passive_action(observation)
        if cost:
            self.deviations += 1
            self.risk += cost
            self.risk_taken += cost
        return action

    def round_over(self, observation: Any) -> None:
        """Add the round to the model and ``won``; open the next round's budget; tell the base."""
        self.model.observe_round(observation)
        if observation.payoffs is not None:
            self.won += observation.payoffs[observation.seat] - self.exploit.value[observation.seat]
        self.check_invariant()
        self.risk = 0
        self.budget = max(self.won, 0.0)
        report = getattr(self.base, "round_over", None)
        if report is not None:
            report(observation)

    def check_invariant(self) -> None:
        """Raise AssertionError if this round's deviations cost more than its budget (never, by construction)."""
        if self.risk > self.budget:
            raise AssertionError(f"{self.name} risked {self.risk} chips with a budget of {self.budget}")

    # ---------------------------------------------------------------- a decision
    def _decide(self, observation: Any) -> tuple[Policy, int]:
        """The policy to play and the cost of its deviation (0: the base's policy)."""
        base = self.base.policy(observation)
        legal = observation.legal_actions
        if _BID in legal or (_RAISE not in legal and _CALL not in legal):
            return base, 0
        target = self._target(observation, base)
        if target is None:
            return base, 0
        probability = sum(p for action, p in base if action == target)
        if probability >= 1.0 - 1e-12:
            return base, 0
        cost = _cost(observation, base, target)
        if cost > self.budget - self.risk:
            return base, 0
        return one_point(target), cost

    def _target(self, observation: Any, base: Policy) -> Action | None:
        """The action the rules want here, or ``None`` for the base's."""
        exploit = self.exploit
        seat = observation.seat
        legal = observation.legal_actions
        cost = observation.pips[1 - seat] - observation.pips[seat]
        pot = sum(observation.contributions)
        street = observation.street
        street_index = min(street - 2, 3) if street else 0
        group = 0 if street == 0 else 1
        equity = self._estimator.estimate(observation)[1]
        base_raises = sum(p for action, p in base if action.kind is _RAISE)
        pot_odds_action = Action.call() if equity * (pot + cost) >= cost else Action.fold()
        if self.model.mean("aggression")[street_index, 1 - seat] >= exploit.maniac_aggression:
            return pot_odds_action if cost > 0 and base_raises == 0.0 else None
        fold_to_pot = float(self.model.mean("fold_to_bet")[group, _POT_CLASS])
        pot_bet = None
        if _RAISE in legal:
            low, high = observation.raise_bounds
            pot_bet = Action.raise_to(min(high, max(low, observation.pips[1 - seat] + pot + cost)))
        if fold_to_pot <= exploit.station_fold:
            if pot_bet is not None and equity >= exploit.value_equity and base_raises == 0.0:
                return pot_bet
            if base_raises > 0.0 and equity < 0.5:
                return Action.check() if _CHECK in legal else pot_odds_action
            return None
        if pot_bet is not None and _CHECK in legal and fold_to_pot >= 0.5 + exploit.folder_margin:
            return pot_bet if base_raises == 0.0 else None
        return None


def _cost(observation: Any, base: Policy, target: Action) -> int:
    """Chips at risk when ``target`` replaces the base policy ``base`` (module docstring)."""
    seat = observation.seat
    pot = sum(observation.contributions)
    if target.kind is _RAISE:
        return target.amount - observation.pips[seat]
    if target.kind is _CALL and all(action.kind is _FOLD for action, _ in base):
        return observation.pips[1 - seat] - observation.pips[seat]
    return pot


def adaptive_player(base_loader: Any, name: str, config: Any, seed: Any) -> AdaptiveBot:
    """The match player ``adaptive:BASE`` (`game.play.cli_game.make_player`): an `AdaptiveBot` around
    the player ``BASE`` (a bot name or a strategy file, built by ``base_loader(BASE, config, seed)``
    or `game.play.bots.make_bot` when ``base_loader`` is ``None``), its prior the base's frequencies
    against itself over ``ExploitConfig.prior_rounds`` rounds."""
    from game.play.bots import make_bot

    prefix, _, inner = name.partition(":")
    if prefix != "adaptive" or not inner:
        raise ValueError(f"an adaptive player is named adaptive:BASE (a bot name or a strategy file), got {name!r}")
    if not isinstance(config, NoLimitConfig):
        raise ValueError(f"adaptive players play the heads-up variants, got config {config!r}")

    def build(base_seed: Any) -> Any:
        if base_loader is None:
            return make_bot(inner, config=config, seed=base_seed)
        return base_loader(inner, config, base_seed)

    seeds = np.random.SeedSequence(entropy=kernel_seed(as_generator(seed))).spawn(2)
    base = build(seeds[0])
    if not callable(getattr(base, "policy", None)):
        raise ValueError(f"adaptive players need a base with a policy (a PolicyBot); {inner!r} has none")
    exploit = ExploitConfig()
    prior = prior_from_self_play(
        lambda index: build(np.random.SeedSequence((index, 7))),
        config,
        rounds=exploit.prior_rounds,
        weight=exploit.prior_weight,
    )
    return AdaptiveBot(base, config, prior=prior, exploit=exploit, seed=seeds[1], name=name)

"""Safe exploitation: a bot that plays a base `game.rules.actions.PolicyBot` and deviates from it
toward what the opponent model (`game.play.opponent_model`) says is exploitable, risking only
what it has won above the game value (Ganzfried & Sandholm 2015, "Safe opponent exploitation").

The bound implemented ("risk what you've won", per round). ``won`` is the sum over finished rounds
of ``payoff - value[seat]`` (chips; ``value`` is the base's value by position, ``(0, 0)`` by
default: a symmetric game over a match that alternates seats). A deviation is playing an action
other than the base policy's (the base policy is replaced by one action). Its *cost* is the chips
it puts at risk where the base would have played otherwise, times the base's probability of doing so,
``1 - base(target)``: a base that checks 70% of the time and bets 30% gives up a bet with probability
0.3 when it checks, so the check risks 0.3 of the pot (the expected loss relative to the base is
the sum over the base's other actions of their probability times what they might have won). The
chips, where the base would not play ``target``:

- a raise the base did not play: the chips it adds (raise-to minus our pip);
- a call where the base folds: the chips to call;
- a check, call or fold where the base raises (or a fold where it calls): the pot, which the base's
  action might have won;
- an auction bid at least the base's highest: its amount (the most a second-price auction charges);
  a lower bid: the pot (the base's bid might have won the card); nothing where the opponent's bid is
  known (the engine's second bidder) and both lose to it.

Within one round the deviations taken may cost at most ``max(won, 0)`` at the round's start:
``risk <= max(won, 0)`` is the invariant (`AdaptiveBot.check_invariant`), so no round risks more
than the match has won above the value. If each cost bounded the deviation's expected loss against
any opponent, the expected winnings above the value would stay above the base's (G&S's theorem).
The chips counted are those of the deviating action only, not those later streets can add: the
cost is a proxy for the worst case, not a proof of it.

The opponent is *exploitable* in one of five ways, each decided only when the model is confident:
the posterior probability (`OpponentModel.probability_below`, `probability_departed`) that its frequency is on the
exploitable side of a threshold is at least ``confidence`` (`ExploitConfig` holds the thresholds).
With the base's own frequencies as the prior (`adaptive_player`), few observations mean no deviation.

1. *Loose* (loose-aggressive: folding to a pot-sized raise preflop less often than ``loose_fold``
   and raising more than ``loose_raising`` of the hands it enters as the dealer (its opening raises:
   the big blind's raises answer ours, and an opponent that calls by the odds re-raises our opens
   too, the equity bot 44% of the time against the 2025 blueprint)): play the *exploiter*'s action
   in every round, with no trial (below). By default the exploiter is
   `game.play.bots.EquityBot` (equity against a uniform range, value bets, calls at pot odds): a
   best response against an opponent whose range is about uniform, and measured to win far more
   than a blueprint against the loose styles (``results/adaptation.md``). In an auction that is
   also the bid: the equity the third card gains against a uniform range, times the pot (it wins
   the card exactly when the card is worth the price), raised to one chip under the opponent's bid
   where that is known and ours loses to it anyway (`game.play.bot_support.losing_bid_raised`: the
   payment goes into the pot, so the highest losing bid makes an all-in bidder pay the most), and,
   where we bid first or unseen, to one chip under the least of the opponent's recent bids
   (`OpponentModel.lowest_bid`, once ``bid_evidence`` are remembered): a constant bidder then pays
   that, and one that bids less sells us the card at its own price (`AdaptiveBot._under_expected_bid`).
   No trial, because a trial cannot tell within a tournament's 1,000-round match: a round's chips
   vary by about 100 against a gain of 5-10 chips, so its arms need hundreds of rounds each, while
   these frequencies are seen in tens (``results/adaptation.md``, "Learning within a 1,000-round match").
2. *Station* (folding to a pot-sized bet after the flop less often than ``station_fold``): the
   *station exploiter*'s action in every round, no trial. Against an opponent that calls any bet, a
   bet of ``B`` chips with equity ``e`` against its range wins ``(2 e - 1) B`` more than checking
   down, so the best response bets all it can from ``e > 1/2``: by default an `EquityBot` that moves
   all-in from an equity of ``station_equity`` (0.6: a margin for the folds the rule allows),
   otherwise the exploiter. (Against the sparring station, 2,000 duplicate rounds: the exploiter's
   pot-sized value bets win 3,974 / 8,749 / 8,344 / 11,086 mbb/hand in Swap / River of Blood /
   Auction / Bounty, all-in from 0.6 24,206 / 46,068 / 72,818 / 41,914: ``results/station_exploiter.md``.)
3. *Caller* (the other signs of a loose opponent, which players the exploiter loses to show as
   well: it folds to a pot-sized raise less often than ``loose_fold`` preflop or
   ``loose_fold_postflop`` after the flop, but is neither style above, calling a lot and raising
   little as an opponent that calls by the odds also does; or, as the big blind, it enters more often
   than ``loose_vpip`` and raises more than ``loose_aggression`` of those, as a push-or-fold player
   also does): the exploiter's action, measured by the trial below (against the loose-passive, the
   equity bot and Bounty's pusher the base wins more).
4. *Folder* (it folds to a pot-sized postflop bet more often than ``1/2 + margin``, the
   break-even frequency of a pot-sized bluff plus a margin, and than the prior, the base's own
   frequency, plus the margin): bet a pot where the base would check.
5. *Departs* (any of its frequencies, ``vpip``, ``pfr``, ``fold_to_bet``, ``aggression`` or a bid
   class's share, lies more than ``departure`` from the base's own, the prior: it does not play as
   the base does, whatever its style): play the exploiter's action, as against a loose opponent. The
   rules above catch styles the exploiter was built for; this one lets the trial below try the
   exploiter against every other opponent that is plainly not the base (the Auction's all-in and
   pot bidders, min-raiser and overbettor, which the equity bot beats by 2.3 to 3.7 big blinds a
   hand more than the blueprint, were never classed loose), and never against the base itself.

Otherwise the base plays.

In rules 1 to 4 the frequency a rule rests on (folding to a pot-sized bet or raise, the big blind's
entering) must lie beyond the base's own, the prior, by ``margin`` as well as beyond the rule's
threshold: the base's own play is not taken for exploitable, so against its own base the bot does not
deviate. (Without it the 2024 Auction blueprint's big blind, entering 31% of its hands and raising
63% of those, sat on the 0.3 and 0.65 of the enter-and-raise test, and the bot, seated against its
own blueprint, was 90% sure of a *caller* often enough to deviate 1,807 times in 20,000 rounds:
``results/adaptation.md``, "2024 in 1,000-round matches".) The raise shares qualify a style and
stay absolute: the 2022 blueprint raises 47% of its dealer entries, as the lag does.

*Measured* (`ExploitTrial`; every rule but *loose* and *station*): a rule is a guess about the opponent, and the exploiter's way can win
less than the base's against one it fits (an opponent that calls a lot but folds its worst hands,
or the Auction's station: ``results/adaptation_gauntlets.md``). So a round the rule holds in is
drawn, at its first decision where the rule wants a deviation the budget affords, to deviate from
there on (the *exploit arm*) or to let the base play (the *base arm*), by Thompson sampling on the
chips the two arms have won per round so far against this opponent: the exploit arm with
probability ``Phi(gain / error)``, the posterior probability that it wins more (1/2 until each arm
has ``trial_minimum`` rounds). Rounds are assigned at random after the same event, so the
difference of the arms' means is an unbiased estimate of what deviating from that point wins per
round (intent to treat: a drawn round counts even where the budget let it deviate less later);
the bot keeps exploiting an opponent the rule fits, stops trying against one it does not, and
explores while the two are too close to tell. Rounds where the rule wants no deviation, or the
budget affords none, are not drawn and not counted: both arms would play them as the base, and
counted they would fill the exploit arm with rounds played as the base while the budget is closed,
so that a trial could settle on the base by chance before its first real deviation
(``results/adaptation.md``, "The trial's draw"). The budget bounds every deviation either way.

``policy`` is the base's, the one-point deviation, or before the round's draw the mixture of the
two by the exploit arm's probability (it draws nothing);
``act`` plays the base's ``act`` where it does not deviate (so a bot that never deviates plays
exactly as its base, its base's memory of the hand included), else the deviation, and records its
cost; any error falls back to the base's action (logged), then to the passive action.
``round_over`` updates the model, ``won`` and the base (if it has ``round_over``). In Bounty, a base
with ``opponent_rank_prior`` (the re-solving bot: its ranges' prior over the opponent's bounty rank)
gets the model's bounty-rank posterior before each decision. The base's ``attach`` (the re-solving
bot's game clock) is passed on.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from game.cards.rng import SeedLike, as_generator, kernel_seed
from game.play.bot_support import (
    known_first_bid,
    losing_bid_raised,
    one_point,
    passive_action,
    policy_rows_by_hand,
    raised_under_bid,
    sample_policy,
)
from game.play.bots import EquityBot
from game.play.opponent_model import BountyRule, ModelPrior, OpponentModel, prior_from_self_play
from game.rules.actions import Action, ActionKind, Policy
from game.rules.nolimit import NoLimitConfig

LOGGER = logging.getLogger("vcfr.adaptive")

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_RAISE = ActionKind.RAISE
_BID = ActionKind.BID
_POT_CLASS = 1  # `SIZE_CLASSES` index of a pot-sized bet
_UNSET: Any = object()
"""`AdaptiveBot._rule` before the round's rule is settled."""
_AT_ONCE = ("loose", "station")
"""The rules exploited in every round, no trial drawn (module docstring)."""
_DEPARTURES = ("vpip", "pfr", "fold_to_bet", "aggression", "bids")
"""The frequencies the *departs* rule compares with the base's (`OpponentModel.probability_departed`)."""


@dataclass(frozen=True)
class ExploitConfig:
    """Thresholds of the exploitation rules (frequencies in [0, 1]; see the module docstring).

    ``confidence``: the posterior probability a rule needs. ``memory``: the model's memory in rounds
    (`OpponentModel`; an opponent that changes style is seen to change). ``prior_weight``: pseudo-observations
    of the model's prior. ``prior_rounds``: rounds of the base against itself that measure the
    prior (0: a flat prior, every frequency 1/2). ``value``: the base's value by seat in chips per
    round (``won`` counts winnings above it). ``samples``: Monte Carlo deals per equity estimate of
    the default exploiter (`game.play.bots.EquityBot`). ``bid_evidence``: the opponent's bids the
    model must remember before a bid of ours is set one chip under the least of them
    (`OpponentModel.lowest_bid`). ``trial_minimum``: the rounds each arm of a trial plays before it
    leans either way. ``margin``: how far beyond the base's own frequency a rule's frequency must lie
    (the *folder*'s margin over a bluff's break-even, too). ``station_equity``: the equity against a
    uniform range from which the default station exploiter moves all-in.
    """

    loose_fold: float = 0.25
    loose_fold_postflop: float = 0.4
    loose_vpip: float = 0.3
    loose_aggression: float = 0.65
    loose_raising: float = 0.25
    station_fold: float = 0.2
    station_equity: float = 0.6
    margin: float = 0.1
    departure: float = 0.25
    confidence: float = 0.9
    memory: float = 1000.0
    prior_weight: float = 20.0
    prior_rounds: int = 200
    value: tuple[float, float] = (0.0, 0.0)
    samples: int = 1000
    trial_minimum: int = 30
    bid_evidence: int = 5

    def __post_init__(self) -> None:
        names = (
            "loose_fold",
            "loose_fold_postflop",
            "loose_vpip",
            "loose_aggression",
            "loose_raising",
            "station_fold",
            "station_equity",
            "margin",
            "departure",
            "confidence",
        )
        for name in names:
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if (
            not self.prior_weight > 0.0
            or self.prior_rounds < 0
            or self.samples < 1
            or not self.memory > 1.0
            or self.trial_minimum < 2
            or self.bid_evidence < 1
        ):
            raise ValueError(
                "need prior_weight > 0, prior_rounds >= 0, samples >= 1, memory > 1, trial_minimum >= 2 and "
                f"bid_evidence >= 1, got {self.prior_weight!r}, {self.prior_rounds!r}, {self.samples!r}, "
                f"{self.memory!r}, {self.trial_minimum!r}, {self.bid_evidence!r}"
            )


class ExploitTrial:
    """What one exploitation rule wins against this opponent, measured: the chips won per round in
    the rounds played by each arm (0: the base, 1: the rule's deviations), as counts, sums and sums
    of squares (float64 ``(2,)``).

    >>> trial = ExploitTrial()
    >>> for chips in (10, 14, 12):
    ...     trial.add(1, chips)
    >>> for chips in (1, 3, 2):
    ...     trial.add(0, chips)
    >>> trial.gain()  # the exploit arm's mean minus the base arm's, chips per round, and its standard error
    (10.0, 1.2909944487358056)
    >>> round(trial.exploit_probability(minimum=3), 6), trial.exploit_probability(minimum=4)
    (1.0, 0.5)
    """

    def __init__(self) -> None:
        self.rounds = np.zeros(2)
        self.total = np.zeros(2)
        self.squares = np.zeros(2)

    def add(self, arm: int, chips: float) -> None:
        """Count one finished round of ``arm`` (0 or 1) that won ``chips``."""
        self.rounds[arm] += 1.0
        self.total[arm] += chips
        self.squares[arm] += chips * chips

    def gain(self) -> tuple[float, float]:
        """The exploit arm's mean minus the base arm's (chips per round) and the standard error of
        that difference (sample variances; ``nan`` for an arm with fewer than 2 rounds)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            means = self.total / self.rounds
            variances = (self.squares - self.rounds * means * means) / (self.rounds - 1.0)
        return float(means[1] - means[0]), float(np.sqrt(np.sum(np.maximum(variances, 0.0) / self.rounds)))

    def exploit_probability(self, minimum: int) -> float:
        """The probability of drawing the exploit arm: the normal posterior probability that it wins
        more than the base, ``Phi(gain / error)`` (Thompson sampling), or 1/2 while an arm has fewer
        than ``minimum`` rounds."""
        if self.rounds.min() < minimum:
            return 0.5
        gain, error = self.gain()
        if error == 0.0:
            return 0.5 if gain == 0.0 else float(gain > 0.0)
        return 0.5 * (1.0 + math.erf(gain / error / math.sqrt(2.0)))

    def to_dict(self) -> dict[str, float]:
        """JSON-ready rounds per arm, the gain and its standard error (chips per round)."""
        gain, error = self.gain()
        return {"base_rounds": int(self.rounds[0]), "exploit_rounds": int(self.rounds[1]), "gain": gain, "error": error}


class AdaptiveBot:
    """A base PolicyBot shifted toward the model's best response within the safety budget (module docstring).

    ``base``: the bot to deviate from (``policy`` and ``act``). ``config``: the heads-up variant's
    config (blinds and stack for the model). ``prior``: the model's prior (``None``: flat, weight
    ``exploit.prior_weight``; `adaptive_player` measures it by self-play). ``exploiter``: the
    PolicyBot whose most likely action the bot plays against a loose, caller or departing opponent
    (``None``: an `EquityBot` of ``exploit.samples`` deals). ``station_exploiter``: the same against
    a station (``None``: an `EquityBot` that moves all-in from ``exploit.station_equity``).
    """

    def __init__(
        self,
        base: Any,
        config: NoLimitConfig,
        *,
        prior: ModelPrior | None = None,
        exploit: ExploitConfig | None = None,
        exploiter: Any = None,
        station_exploiter: Any = None,
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
        # one seed for both default exploiters: their estimates of a deal are the same draws
        exploiter_seed = kernel_seed(self._rng) if exploiter is None or station_exploiter is None else None
        samples = self.exploit.samples
        self.exploiter = EquityBot(config, samples=samples, seed=exploiter_seed) if exploiter is None else exploiter
        self.station_exploiter = (
            all_in_equity_bot(config, self.exploit.station_equity, samples=samples, seed=exploiter_seed)
            if station_exploiter is None
            else station_exploiter
        )
        self.model = OpponentModel(
            small_blind=config.small_blind,
            big_blind=config.big_blind,
            stack=config.stack,
            prior=ModelPrior.flat(self.exploit.prior_weight) if prior is None else prior,
            memory=self.exploit.memory,
            bounty=BountyRule.of(config),
        )
        self.won = 0.0
        """Chips won above the value over the finished rounds."""
        self.risk = 0
        """Cost (chips) of the deviations taken in the current round."""
        self.budget = 0.0
        """``max(won, 0)`` at the current round's start: what this round's deviations may cost."""
        self.deviations = 0
        """Deviations taken in the match."""
        self.over_budget = 0
        """Decisions where a rule held but the budget refused: nothing left of the round's budget (the
        deviation is then not asked for: every deviation costs chips, `_spent`), or less than the
        wanted deviation's cost."""
        self.risk_taken = 0
        """Total cost (chips) of the deviations taken in the match."""
        self.fallbacks = 0
        """Decisions answered by the base (or the passive action) after an error."""
        self.trials: dict[str, ExploitTrial] = {}
        """Each rule's trial (`ExploitTrial`) by rule name (`exploitable`)."""
        self._rule: str | None = _UNSET
        """The current round's rule (`exploitable`, ``None``: none holds), settled at its first decision
        with a raise, call or bid (`_round_rule`); ``_UNSET`` before."""
        self._arm: int | None = None
        """The current round's arm (1: the rule's deviations, 0: the base), drawn at its first wanted,
        affordable deviation (`_decide`); ``None`` before."""

    def __getattr__(self, name: str) -> Any:
        # counters and settings of the base (the lookup bot's decisions, off_tree, errors)
        if name in ("base", "policy_rows"):  # the base's rows are not this bot's policy: policy_rows below
            raise AttributeError(name)
        return getattr(self.base, name)

    # ---------------------------------------------------------------- the engine
    def policy(self, observation: Any) -> Policy:
        self._share_bounty_posterior(observation)
        policy = self._decide(observation, draw=False)[0]
        return self.base.policy(observation) if policy is None else policy

    def policy_rows(
        self, observation: Any, holes: Sequence[tuple[int, ...]], bounty_ranks: Sequence[int | None] | None = None
    ) -> tuple[list[Action], np.ndarray]:
        """:meth:`policy` with each of ``holes`` (and ``bounty_ranks``) substituted, as
        `solver.bots.lookup_bot.LookupBot.policy_rows`: the base's rows at once (its own ``policy_rows``
        if it has one) while no rule's deviations play this round or the budget allows none (every
        deviation but a bid of 0 costs chips), else one :meth:`policy` per hand."""
        ranks = list(bounty_ranks) if bounty_ranks is not None else [observation.bounty_rank] * len(holes)
        deviating = not self._spent(observation) and self._round_rule(observation) is not None
        rows = None if deviating else getattr(self.base, "policy_rows", None)
        if rows is not None:
            return rows(observation, holes, ranks)
        return policy_rows_by_hand(self if deviating else self.base, observation, holes, ranks)

    def act(self, observation: Any) -> Action:
        try:
            self._share_bounty_posterior(observation)
            policy, cost, over_budget = self._decide(observation, draw=True)
            action = self.base.act(observation) if cost is None else sample_policy(policy, self._rng)
        except Exception as error:  # a bot never crashes a match
            self.fallbacks += 1
            LOGGER.warning("%s fell back to its base after %s: %s", self.name, type(error).__name__, error)
            try:
                return self.base.act(observation)
            except Exception:
                return passive_action(observation)
        self.over_budget += over_budget
        if cost is not None:
            self.deviations += 1
            self.risk += cost
            self.risk_taken += cost
        return action

    def attach(self, match: Any) -> None:
        """Pass the match's progress and game clock on to the base if it reads them (the re-solving
        bot paces its re-solves by the clock: `solver.bots.resolving_bot.ResolvingBot.attach`)."""
        inner = getattr(self.base, "attach", None)
        if callable(inner):
            inner(match)

    def warm_up(self, observation: Any) -> None:
        """Ask the exploiter's policy (compiles its kernels) without changing anything: for an
        exported bot's warm-up round, so that no kernel compiles mid-match."""
        self.exploiter.policy(observation)

    def round_over(self, observation: Any) -> None:
        """Add the round to the model and ``won``; open the next round's budget; tell the base."""
        self.model.observe_round(observation)
        if observation.payoffs is not None:
            chips = observation.payoffs[observation.seat]
            self.won += chips - self.exploit.value[observation.seat]
            if self._arm is not None:  # drawn: a rule held (`_decide`)
                self.trials[self._rule].add(self._arm, chips)
        self._rule, self._arm = _UNSET, None
        self.check_invariant()
        self.risk = 0
        self.budget = max(self.won, 0.0)
        report = getattr(self.base, "round_over", None)
        if report is not None:
            report(observation)

    def summary(self) -> dict[str, Any]:
        """What the bot has done in its match so far, JSON-ready: ``deviations``, ``risk_taken_chips`` (chips
        its deviations put at risk, every round), ``over_budget`` (decisions under a rule the budget refused),
        ``won_chips`` (won above the game value), ``verdict_at_end`` (`exploitable` now) and ``trials``
        (each rule's `ExploitTrial.to_dict`)."""
        return {
            "deviations": self.deviations,
            "risk_taken_chips": self.risk_taken,
            "over_budget": self.over_budget,
            "won_chips": self.won,
            "verdict_at_end": self.exploitable(),
            "trials": {rule: trial.to_dict() for rule, trial in self.trials.items()},
        }

    def check_invariant(self) -> None:
        """Raise AssertionError if this round's deviations cost more than its budget (never, by construction)."""
        if self.risk > self.budget:
            raise AssertionError(f"{self.name} risked {self.risk} chips with a budget of {self.budget}")

    # ---------------------------------------------------------------- a decision
    def _share_bounty_posterior(self, observation: Any) -> None:
        """Bounty, a base that models the opponent's bounty rank (the re-solving bot's
        ``opponent_rank_prior``): set it to the model's posterior for the round being played
        (`OpponentModel.opponent_bounty_posterior_now`: uniform at a re-draw, kept per bounty rank of
        ours, so a duplicate match's two seats each get their own)."""
        if self.model.bounty is not None and hasattr(self.base, "opponent_rank_prior"):
            self.base.opponent_rank_prior = self.model.opponent_bounty_posterior_now(observation.bounty_rank)

    def _decide(self, observation: Any, *, draw: bool) -> tuple[Policy | None, int | None, bool]:
        """The policy to play (``None``: the base's, not computed), the cost of its deviation
        (``None``: the base's policy) and whether the budget refused (spent, or under the wanted
        deviation's cost). The base's policy is asked only when the model finds the opponent
        exploitable and the budget is not spent (a re-solving base
        solves its subgame for it; its ``act`` then reuses that solve if the base plays). At the
        round's first wanted, affordable deviation the trial's arm is drawn if ``draw`` (`act`), else
        (`policy`) the policy is the mixture the draw would play."""
        kind = self._round_rule(observation)
        if kind is None:
            return None, None, False
        if self._spent(observation):  # no deviation is affordable: neither policy is asked
            return None, None, True
        base = self.base.policy(observation)
        target = self._target(observation, base, kind)
        if target is None:
            return base, None, False
        probability = sum(p for action, p in base if action == target)
        if probability >= 1.0 - 1e-12:
            return base, None, False
        cost = _cost(observation, base, target)
        if cost > self.budget - self.risk:
            return base, None, True
        if self._arm is None:
            trial = self.trials.setdefault(kind, ExploitTrial())
            chance = 1.0 if kind in _AT_ONCE else trial.exploit_probability(self.exploit.trial_minimum)
            if not draw:
                return _mixture(base, target, chance), None, False
            self._arm = int(self._rng.random() < chance)
            if not self._arm:
                return base, None, False
        return one_point(target), cost, False

    def _spent(self, observation: Any) -> bool:
        """Whether nothing is left of the round's budget where no bid is legal: every deviation there
        costs more than 0 (`_cost`), so none is affordable. (At a bid a zero budget is left to
        `_cost`: the bid is one decision a round.)"""
        return self.budget - self.risk <= 0 and _BID not in observation.legal_actions

    def _round_rule(self, observation: Any) -> str | None:
        """The rule whose deviations this round may play at ``observation``, or ``None`` (no raise, call
        or bid to deviate with there, no rule holds, or the round drew the base arm). The rule is
        settled at the round's first decision with one of those and kept to its end: the model changes
        only between rounds, so `exploitable` is asked once a round."""
        if not observation.legal_actions & {_RAISE, _CALL, _BID}:
            return None
        if self._rule is _UNSET:
            self._rule = self.exploitable()
        return None if self._arm == 0 else self._rule

    def exploitable(self) -> str | None:
        """``"loose"``, ``"station"``, ``"caller"``, ``"folder"``, ``"departs"`` or ``None``: how the model is confident the
        opponent can be exploited (the first that holds; module docstring)."""
        model, exploit = self.model, self.exploit
        sure, margin = exploit.confidence, exploit.margin

        def below(name: str, cell: Any, threshold: float) -> float:
            """P(the frequency is under ``threshold`` and ``margin`` under the base's own)."""
            own = float(model.prior_mean(name)[cell])
            return float(model.probability_below(name, min(threshold, own - margin))[cell])

        preflop = below("fold_to_bet", (0, _POT_CLASS), exploit.loose_fold)
        postflop = below("fold_to_bet", (1, _POT_CLASS), exploit.loose_fold_postflop)
        station = below("fold_to_bet", (1, _POT_CLASS), exploit.station_fold)
        raising = 1.0 - model.probability_below("aggression", exploit.loose_raising)[0, 0]
        enters_above = max(exploit.loose_vpip, float(model.prior_mean("vpip")[1]) + margin)
        enters = 1.0 - model.probability_below("vpip", enters_above)[1]
        raises = 1.0 - model.probability_below("aggression", exploit.loose_aggression)[0, 1]
        if min(preflop, raising) >= sure:
            return "loose"
        if station >= sure:
            return "station"
        if max(preflop, postflop, min(enters, raises)) >= sure:
            return "caller"
        folds = max(0.5, float(model.prior_mean("fold_to_bet")[1, _POT_CLASS])) + margin
        if 1.0 - model.probability_below("fold_to_bet", folds)[1, _POT_CLASS] >= sure:
            return "folder"
        if max(float(model.probability_departed(name, exploit.departure).max()) for name in _DEPARTURES) >= sure:
            return "departs"
        return None

    def _target(self, observation: Any, base: Policy, kind: str) -> Action | None:
        """The action the rule ``kind`` (`exploitable`) wants here, or ``None`` for the base's."""
        if kind != "folder":
            exploiter = self.station_exploiter if kind == "station" else self.exploiter
            target = max(exploiter.policy(observation), key=lambda entry: entry[1])[0]  # no draw in policy
            return losing_bid_raised(observation, self._under_expected_bid(observation, target))
        legal = observation.legal_actions
        if _RAISE not in legal or _CHECK not in legal:
            return None
        if any(action.kind is _RAISE for action, _ in base):
            return None
        seat = observation.seat
        low, high = observation.raise_bounds
        return Action.raise_to(min(high, max(low, observation.pips[1 - seat] + sum(observation.contributions))))

    def _under_expected_bid(self, observation: Any, target: Action) -> Action:
        """``target``, or where it is a bid made without seeing the opponent's and lower than what the
        opponent is expected to bid (`OpponentModel.lowest_bid`), the bid one chip under that: the same
        as `losing_bid_raised` does with a seen bid, on the model's word. Against a constant bidder it
        still loses the auction and makes the winner pay one chip under its own bid; if the opponent
        bids less this time, we win the card at its price (second price), which the bid's cost
        (its amount, `_cost`) bounds."""
        if target.kind is not _BID or known_first_bid(observation) is not None:
            return target
        opponent = 1 - observation.seat
        expected = self.model.lowest_bid(
            sum(observation.contributions),
            self.model.stack - observation.contributions[opponent],
            self.exploit.bid_evidence,
        )
        return raised_under_bid(observation, target, expected)


def all_in_equity_bot(config: NoLimitConfig, equity: float, *, samples: int = 1000, seed: SeedLike = None) -> EquityBot:
    """The default station exploiter: an `EquityBot` that raises all-in (its pot fraction is the
    stack, clamped to the raise bounds) from ``equity`` against a uniform range, else plays as the
    equity bot (``samples`` Monte Carlo deals a decision)."""
    return EquityBot(config, samples=samples, raise_equity=equity, raise_pot_fraction=float(config.stack), seed=seed)


def _mixture(base: Policy, target: Action, chance: float) -> Policy:
    """``target`` with probability ``chance``, else the ``base`` policy (actions of probability 0 left out:
    a trial sure of the exploit arm plays the deviation alone).

    >>> _mixture(((Action.check(), 0.5), (Action.raise_to(8), 0.5)), Action.raise_to(8), 0.5)
    ((Action(kind=<ActionKind.CHECK: 1>, amount=0), 0.25), (Action(kind=<ActionKind.RAISE: 3>, amount=8), 0.75))
    """
    mixed = {action: (1.0 - chance) * p for action, p in base}
    mixed[target] = mixed.get(target, 0.0) + chance
    return tuple((action, p) for action, p in mixed.items() if p > 0.0)


def _cost(observation: Any, base: Policy, target: Action) -> float:
    """Chips at risk when ``target`` replaces the base policy ``base`` (module docstring): the chips
    of `_pure_cost` times the base's probability of playing something else, ``1 - base(target)``.

    A pot bet (8 chips) where the base checks always, then where it bets the pot a quarter of the time:

    >>> observation = type("O", (), {"seat": 0, "contributions": (4, 4), "pips": (0, 0)})()
    >>> bet, check = Action.raise_to(8), Action.check()
    >>> _cost(observation, ((check, 1.0),), bet), _cost(observation, ((bet, 0.25), (check, 0.75)), bet)
    (8.0, 6.0)
    """
    others = tuple((action, p) for action, p in base if action != target)
    return sum(p for _, p in others) * _pure_cost(observation, others, target)


def _pure_cost(observation: Any, others: Policy, target: Action) -> int:
    """Chips at risk when ``target`` replaces the actions ``others`` of the base policy (module docstring)."""
    seat = observation.seat
    pot = sum(observation.contributions)
    if target.kind is _RAISE:
        return target.amount - observation.pips[seat]
    if target.kind is _BID:
        highest = max((action.amount for action, _ in others if action.kind is _BID), default=0)
        first = known_first_bid(observation)
        if first is not None and target.amount < first and highest < first:
            return 0  # both lose the auction: only the price the opponent pays differs (`losing_bid_raised`)
        return target.amount if target.amount >= highest else pot
    if target.kind is _CALL and all(action.kind is _FOLD for action, _ in others):
        return observation.pips[1 - seat] - observation.pips[seat]
    return pot


_PRIORS: dict[tuple[Any, ...], ModelPrior] = {}
"""`adaptive_player`'s priors by (base name, loader, config, rounds, weight)."""


def adaptive_player(base_loader: Any, name: str, config: Any, seed: Any) -> AdaptiveBot:
    """The match player ``adaptive:BASE`` (`game.play.cli_game.make_player`): an `AdaptiveBot` around
    the player ``BASE`` (a bot name or a strategy file, built by ``base_loader(BASE, config, seed)``
    or `game.play.bots.make_bot` when ``base_loader`` is ``None``), its prior the base's frequencies
    against itself over ``ExploitConfig.prior_rounds`` rounds, measured once per process and base
    (a gauntlet worker reuses it for every opponent; the self-play seeds are fixed, so the prior is
    the same either way; `self_play_prior`: ``adaptive:resolve:FILE.h5`` takes the prior of
    ``FILE.h5``'s lookup bot)."""
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
    key = (inner, base_loader, config, exploit.prior_rounds, exploit.prior_weight)
    prior = _PRIORS.get(key)
    if prior is None:
        prior = _PRIORS[key] = self_play_prior(base, build, config, exploit)
    return AdaptiveBot(base, config, prior=prior, exploit=exploit, seed=seeds[1], name=name)


def self_play_prior(base: Any, make: Any, config: NoLimitConfig, exploit: ExploitConfig) -> ModelPrior:
    """The model's prior for an adaptive bot around ``base``: the frequencies of bots like it against
    each other (`prior_from_self_play`, ``exploit.prior_rounds`` rounds, weight ``exploit.prior_weight``),
    each built by ``make(seed)`` with the self-play's fixed seeds. A base with ``blueprint_bot(seed)``
    (the re-solving bot, `solver.bots.resolving_bot.ResolvingBot.blueprint_bot`) is measured by its
    blueprint's lookup bot instead, with the same seeds, so its prior is the strategy file's, to the
    last digit: 200 rounds of re-solving against itself would take minutes, and the re-solver plays
    the blueprint preflop and on the flop, where most of the statistics are counted; its turn and
    river frequencies are the blueprint's, not its own."""
    stand_in = getattr(base, "blueprint_bot", None)
    return prior_from_self_play(
        make if stand_in is None else stand_in, config, rounds=exploit.prior_rounds, weight=exploit.prior_weight
    )

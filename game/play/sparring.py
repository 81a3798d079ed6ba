"""The sparring suite: opponents in the styles human-written Pokerbots play, each one row of data.

A style is a frozen `Style` (thresholds on equity, bet sizes as pot fractions, a raise cap, an
auction bid rule, a bounty adjustment, match lock-in); `STYLES` is the table and `SparringBot` the
one engine that plays any row. Every style plays every heads-up variant under both rule sets and
the N-player limit game; `LIMIT_STYLES` are the five the limit gauntlet seats.

One decision (chips; ``pot`` = chips both seats put in, ``cost`` = chips to call; ``e`` = the
seat's Monte Carlo equity against a uniform range, `game.play.bot_support.EquityEstimator`,
bounty-weighted in Bounty; in the limit game ``e ** k`` against ``k`` opponents still in, as if
they were independent):

1. Auction bid: ``"equity_gain"`` bids ``(e with a third card - e if the opponent gets it) * pot``
   (as `game.play.bots.EquityBot`); ``"pot_fraction"`` bids ``bid_pot_fraction * pot`` (0: always
   0, ``ALL_IN``: the whole stack); clamped to the bid bounds.
2. Raise, when legal and the seat raised fewer than ``max_raises`` times this street: with
   probability 1 if ``e >= raise_equity``, else ``bluff``. The amount is uniform over ``sizes``:
   raise to the opponent's pip plus ``size * (pot + cost)``, ``MIN_RAISE`` the minimum and
   ``ALL_IN`` the maximum, clamped to the raise bounds (limit: its one raise).
3. Otherwise check if legal; else call if ``e >= max(min_call_equity, cost / (pot + cost) +
   call_margin)``, else fold (limit straddle: raising is the only way in, and plays as the call).

Bounty: when the seat's bounty rank is among its hole and board cards, ``bounty_raise_equity``
replaces ``raise_equity`` and ``sizes`` are multiplied by ``bounty_size_scale``. Lock-in
(``lock_in``): the match's bankroll and rounds are counted from the results the match runner
reports (``round_over``, `game.play.lock_in.MatchCounter`); once the lead exceeds
`game.play.lock_in.lock_in_threshold` of the rounds left, the bot checks or folds
(`game.play.lock_in.locked_action`) to the end of that match.

``policy(observation)`` is the distribution above; ``act`` draws from it with the bot's generator
(`game.play.bot_support.sample_policy`). Equity is a pure function of the cards seen, so
``policy`` changes nothing.

>>> from game.rules.chance import ScriptedChance
>>> from game.cards.deck import parse_cards
>>> from game.rules.holdem import HoldemConfig, HoldemRound
>>> round_ = HoldemRound(HoldemConfig(), ScriptedChance(parse_cards("7c 2d Ah Ad").tolist()))
>>> make_sparring_bot("maniac", seed=0).policy(round_.observation(0))  # 72o: pot raise or all-in
((Action(kind=<ActionKind.RAISE: 3>, amount=6), 0.5), (Action(kind=<ActionKind.RAISE: 3>, amount=400), 0.5))
>>> make_sparring_bot("rock", seed=0).act(round_.observation(0))
Action(kind=<ActionKind.FOLD: 0>, amount=0)
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace
from typing import Any, Literal

from game.cards.rng import SeedLike, as_generator, kernel_seed
from game.play.bot_support import EquityEstimator, one_point, passive_action, sample_policy
from game.play.lock_in import MatchCounter, lock_in_threshold, locked_action
from game.rules.actions import Action, ActionKind, Policy
from game.rules.nolimit import NoLimitConfig

LOGGER = logging.getLogger("vcfr.sparring")

MIN_RAISE = 0.0
"""A ``sizes`` entry: the minimum raise."""
ALL_IN = math.inf
"""A ``sizes`` or ``bid_pot_fraction`` entry: the whole stack."""

DEFAULT_SAMPLES = 300
"""Monte Carlo deals per equity estimate (about 0.1 ms each, one per street and cards)."""


@dataclass(frozen=True)
class Style:
    """One sparring style: the parameters `SparringBot` interprets (equities are shares of the pot,
    0..1, up to ``bounty_multiplier`` in Bounty; sizes are pot fractions; see the module docstring).

    >>> Style("x", "broken", sizes=())
    Traceback (most recent call last):
    ...
    ValueError: style 'x': sizes must list at least one pot fraction (MIN_RAISE = 0, ALL_IN = inf), got ()
    """

    name: str
    summary: str
    """One line: how it plays."""
    raise_equity: float = math.inf
    """Raise (or bet) with equity at least this; ``inf``: never for value."""
    bluff: float = 0.0
    """Probability of raising anyway below ``raise_equity``."""
    sizes: tuple[float, ...] = (1.0,)
    """Raise sizes as pot fractions, played uniformly; ``MIN_RAISE`` and ``ALL_IN`` allowed."""
    max_raises: int = 2
    """Raises this seat makes per street at most; after them it calls or folds."""
    min_call_equity: float = 0.0
    """Never call with less equity than this, whatever the pot odds."""
    call_margin: float = 0.0
    """Equity above the pot odds needed to call; -1 never folds."""
    bid: Literal["equity_gain", "pot_fraction"] = "equity_gain"
    """Auction bid rule."""
    bid_pot_fraction: float = 0.0
    """With ``bid="pot_fraction"``: the bid as a fraction of the pot (``ALL_IN``: the whole stack)."""
    bounty_raise_equity: float | None = None
    """Bounty: the raise threshold while the hand holds the bounty rank (``None``: ``raise_equity``)."""
    bounty_size_scale: float = 1.0
    """Bounty: sizes are multiplied by this while the hand holds the bounty rank."""
    lock_in: bool = False
    """Check or fold to the end of a heads-up match once its lead cannot be lost."""
    variants: tuple[str, ...] = ()
    """Heads-up variants where the style differs from the one it is built on and the gauntlet meets
    it by default (empty: all). It plays every variant."""

    def __post_init__(self) -> None:
        def fail(message: str) -> None:
            raise ValueError(f"style {self.name!r}: {message}")

        if not self.sizes or any(not size >= 0.0 for size in self.sizes):
            fail(f"sizes must list at least one pot fraction (MIN_RAISE = 0, ALL_IN = inf), got {self.sizes!r}")
        if not 0.0 <= self.bluff <= 1.0:
            fail(f"bluff must be a probability in [0, 1], got {self.bluff!r}")
        if isinstance(self.max_raises, bool) or not isinstance(self.max_raises, int) or self.max_raises < 0:
            fail(f"max_raises must be an int >= 0, got {self.max_raises!r}")
        if self.bid not in ("equity_gain", "pot_fraction"):
            fail(f"bid must be 'equity_gain' or 'pot_fraction', got {self.bid!r}")
        if not self.bid_pot_fraction >= 0.0 or not self.bounty_size_scale > 0.0:
            fail(
                f"bid_pot_fraction must be >= 0 and bounty_size_scale > 0, got {self.bid_pot_fraction!r}, "
                f"{self.bounty_size_scale!r}"
            )


_TAG = Style(
    "tag",
    "tight-aggressive: plays hands with half the pot's equity, raises 0.75 pot with 65%",
    raise_equity=0.65,
    bluff=0.05,
    sizes=(0.75,),
    max_raises=2,
    min_call_equity=0.5,
    call_margin=0.05,
)

STYLES: dict[str, Style] = {
    style.name: style
    for style in (
        Style(
            "maniac",
            "raises a pot or goes all-in with any two cards, never folds",
            raise_equity=0.0,
            sizes=(1.0, ALL_IN),
            max_raises=99,
            call_margin=-1.0,
            bid="pot_fraction",
            bid_pot_fraction=ALL_IN,
        ),
        Style(
            "lag",
            "loose-aggressive: raises 0.75 or 1 pot with 55% equity and bluffs a fifth of the rest",
            raise_equity=0.55,
            bluff=0.2,
            sizes=(0.75, 1.0),
            max_raises=3,
            min_call_equity=0.4,
            call_margin=-0.05,
        ),
        _TAG,
        Style(
            "tight_passive",
            "calls with 55% equity, raises half a pot only with 85%",
            raise_equity=0.85,
            sizes=(0.5,),
            max_raises=1,
            min_call_equity=0.55,
            call_margin=0.05,
        ),
        Style(
            "loose_passive",
            "calls with 35% equity, raises half a pot only with 80%",
            raise_equity=0.8,
            sizes=(0.5,),
            max_raises=1,
            min_call_equity=0.35,
            call_margin=-0.05,
        ),
        Style(
            "station", "calling station: never folds, never raises", max_raises=0, call_margin=-1.0, bid="pot_fraction"
        ),
        Style(
            "rock",
            "plays only strong hands (62% to call), raises a pot with 75%",
            raise_equity=0.75,
            max_raises=2,
            min_call_equity=0.62,
            call_margin=0.1,
        ),
        Style(
            "min_raiser",
            "min-raises with 60% equity (and a tenth of the rest), up to 4 times a street",
            raise_equity=0.6,
            bluff=0.1,
            sizes=(MIN_RAISE,),
            max_raises=4,
            min_call_equity=0.45,
        ),
        Style(
            "overbettor",
            "bets 0.33, 0.75, 1.5 or 3 pots (sizes no tree has) with 60% equity",
            raise_equity=0.6,
            bluff=0.15,
            sizes=(0.33, 0.75, 1.5, 3.0),
            max_raises=2,
            min_call_equity=0.45,
        ),
        Style(
            "reraiser",
            "re-raises half a pot whenever it has 50%, with no cap (past every tree's raise cap)",
            raise_equity=0.5,
            sizes=(0.5,),
            max_raises=99,
            min_call_equity=0.4,
        ),
        Style(
            "pusher",
            "all-in or fold: shoves with 62% equity, calls with 60%",
            raise_equity=0.62,
            sizes=(ALL_IN,),
            max_raises=1,
            min_call_equity=0.6,
        ),
        replace(
            _TAG,
            name="bid_allin",
            summary="tag that bids its whole stack",
            bid="pot_fraction",
            bid_pot_fraction=ALL_IN,
            variants=("auction",),
        ),
        replace(_TAG, name="bid_zero", summary="tag that always bids 0", bid="pot_fraction", variants=("auction",)),
        replace(
            _TAG,
            name="bid_pot",
            summary="tag that bids half the pot",
            bid="pot_fraction",
            bid_pot_fraction=0.5,
            variants=("auction",),
        ),
        replace(
            _TAG,
            name="bounty_hunter",
            summary="tag that raises twice as big with 40% equity while its hand holds its bounty rank",
            bounty_raise_equity=0.4,
            bounty_size_scale=2.0,
            variants=("bounty",),
        ),
        replace(
            _TAG, name="lock_in", summary="tag that checks or folds once its match lead cannot be lost", lock_in=True
        ),
    )
}
"""The sparring styles by name (``vcfr match --a maniac``). ``tag`` is also the auction's
equity-gain bidder (every style without a bid rule bids its equity gain)."""

LIMIT_STYLES: tuple[str, ...] = ("tight_passive", "loose_passive", "tag", "lag", "maniac")
"""Tight or loose crossed with passive or aggressive, and the maniac: the N-player limit opponents."""


def gauntlet_styles(variant: str) -> list[str]:
    """The styles the gauntlet meets by default in ``variant`` (those whose ``variants`` include it).

    >>> len(gauntlet_styles("bounty")), "bid_zero" in gauntlet_styles("auction")
    (13, True)
    """
    return [name for name, style in STYLES.items() if not style.variants or variant in style.variants]


class SparringBot:
    """Plays one `Style` (see the module docstring): a `game.rules.actions.PolicyBot`.

    ``config``: the heads-up variant's config (swap probabilities, bounty parameters, rules and
    rounds per match for the lock-in), ``None`` for the default config of the observed variant
    (and for the limit game). ``samples``: Monte Carlo deals per equity estimate.
    """

    def __init__(
        self,
        style: Style,
        config: NoLimitConfig | None = None,
        *,
        samples: int = DEFAULT_SAMPLES,
        seed: SeedLike = None,
        name: str | None = None,
    ) -> None:
        if not isinstance(style, Style):
            raise TypeError(f"style must be a Style, got {style!r}")
        self.style = style
        self.name = style.name if name is None else name
        self._rng = as_generator(seed)
        self._estimator = EquityEstimator(config, samples=samples, seed=kernel_seed(self._rng))
        self.match = MatchCounter(config.rounds if config is not None else NoLimitConfig().rounds)
        """The match's progress from this bot's side (read by the lock-in)."""
        self.locked_rounds = 0
        """Decisions answered by the lock-in so far."""

    # ---------------------------------------------------------------- the engine
    def policy(self, observation: Any) -> Policy:
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"{self.name} was asked to act with no legal action (seat {observation.seat})")
        if self._locked(observation):
            return one_point(locked_action(observation))
        if ActionKind.BID in legal:
            return one_point(self._bid(observation))
        if ActionKind.RAISE not in legal and ActionKind.CALL not in legal and ActionKind.FOLD not in legal:
            return one_point(passive_action(observation))  # check only, or a limit showdown
        style = self.style
        equity = self._equity(observation)
        seat = observation.seat
        facing = max(observation.pips)
        cost = facing - observation.pips[seat]
        pot = sum(observation.contributions)
        continues = ActionKind.CHECK in legal or equity >= max(
            style.min_call_equity, cost / (pot + cost) + style.call_margin
        )
        raise_equity, scale = style.raise_equity, 1.0
        if style.bounty_raise_equity is not None and _holds_bounty(observation):
            raise_equity, scale = style.bounty_raise_equity, style.bounty_size_scale
        raise_probability = 0.0
        if ActionKind.RAISE in legal and self._raises_this_street(observation) < style.max_raises:
            raise_probability = 1.0 if equity >= raise_equity else style.bluff
        if ActionKind.RAISE in legal and ActionKind.CHECK not in legal and ActionKind.CALL not in legal and continues:
            raise_probability = 1.0  # the limit straddle: raising is the only way in
        if ActionKind.CHECK in legal:
            passive = Action.check()
        elif continues and ActionKind.CALL in legal:
            passive = Action.call()
        else:
            passive = Action.fold()
        policy: dict[Action, float] = {}
        if raise_probability < 1.0:
            policy[passive] = 1.0 - raise_probability
        if raise_probability > 0.0:
            amounts = self._raise_amounts(observation, facing, pot + cost, scale)
            for amount in amounts:
                action = Action.raise_to(amount)
                policy[action] = policy.get(action, 0.0) + raise_probability / len(amounts)
        return tuple(policy.items())

    def act(self, observation: Any) -> Action:
        action = sample_policy(self.policy(observation), self._rng)
        if self._locked(observation):
            if self.locked_rounds == 0:
                LOGGER.info(
                    "%s locked in with %+d chips after %d rounds",
                    self.name,
                    self.match.bankroll,
                    self.match.rounds_played,
                )
            self.locked_rounds += 1
        return action

    def round_over(self, observation: Any) -> None:
        """Count the finished round's result (``observation.payoffs``) into the match's progress."""
        if observation.payoffs is not None:
            self.match.record(int(observation.payoffs[observation.seat]))

    # ---------------------------------------------------------------- parts of a decision
    def _equity(self, observation: Any) -> float:
        equity = self._estimator.estimate(observation)[1]
        folded = getattr(observation, "folded", None)
        if folded is None:
            return equity
        opponents = sum(1 for seat, out in enumerate(folded) if not out and seat != observation.seat)
        return equity ** max(opponents, 1)

    def _bid(self, observation: Any) -> Action:
        low, high = observation.bid_bounds
        pot = sum(observation.contributions)
        if self.style.bid == "equity_gain":
            with_card = self._estimator.estimate(observation, extra_hole_cards=1, opponent_hole_cards=2)[1]
            without_card = self._estimator.estimate(observation, opponent_hole_cards=3)[1]
            target = (with_card - without_card) * pot
        else:
            target = self.style.bid_pot_fraction * pot
        return Action.bid(high if target >= high else max(low, round(target)))

    def _raise_amounts(self, observation: Any, facing: int, pot_after_call: int, scale: float) -> list[int]:
        moves = getattr(observation, "legal_moves", None)
        if moves is not None:
            return [next(move.amount for move in moves if move.kind is ActionKind.RAISE)]
        low, high = observation.raise_bounds
        amounts = []
        for size in self.style.sizes:
            target = facing + size * scale * pot_after_call
            amounts.append(high if target >= high else max(low, round(target)))
        return amounts

    @staticmethod
    def _raises_this_street(observation: Any) -> int:
        return sum(
            1
            for move in observation.history
            if move.seat == observation.seat
            and move.street == observation.street
            and move.action.kind is ActionKind.RAISE
        )

    def _locked(self, observation: Any) -> bool:
        """Whether the lock-in plays: a heads-up match whose lead exceeds what the rounds left can cost."""
        if not self.style.lock_in or getattr(observation, "variant", None) is None:
            return False
        rounds_left = self.match.rounds - self.match.rounds_played
        config = self._estimator.config_for(observation.variant)
        return self.match.bankroll > lock_in_threshold(config, rounds_left, observation.seat)


def _holds_bounty(observation: Any) -> bool:
    """Whether the seat's bounty rank is among its hole and board cards."""
    rank = getattr(observation, "bounty_rank", None)
    return rank is not None and any(card >> 2 == rank for card in (*observation.hole_cards, *observation.board))


def make_sparring_bot(
    name: str, *, config: NoLimitConfig | None = None, seed: SeedLike = None, samples: int = DEFAULT_SAMPLES
) -> SparringBot:
    """The `SparringBot` of the style ``name`` (`STYLES`); ``config`` as `SparringBot` takes it (a
    limit config is treated as ``None``).

    >>> make_sparring_bot("shark")
    Traceback (most recent call last):
    ...
    ValueError: unknown sparring style 'shark': known are bid_allin, bid_pot, bid_zero, bounty_hunter, lag, \
lock_in, loose_passive, maniac, min_raiser, overbettor, pusher, reraiser, rock, station, tag, tight_passive
    """
    style = STYLES.get(name)
    if style is None:
        raise ValueError(f"unknown sparring style {name!r}: known are {', '.join(sorted(STYLES))}")
    return SparringBot(style, config if isinstance(config, NoLimitConfig) else None, seed=seed, samples=samples)

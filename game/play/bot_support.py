"""What the baseline and sparring bots share: drawing an action from a policy, the passive fallback
action, and a memoised Monte Carlo equity that is a pure function of the cards seen.

A `game.rules.actions.PolicyBot` answers ``act`` by ``sample_policy(self.policy(observation), rng)``,
so ``act`` and ``policy`` are one code path. ``policy`` must not touch the bot's random generator:
randomness a decision needs *before* its distribution is known (the Monte Carlo equity) is seeded
from the bot's seed and the cards (`EquityEstimator`), never drawn from the generator ``act`` uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from game.cards.evaluator import evaluate
from game.play.kernels_equity import _equity
from game.rules.actions import Action, ActionKind, Policy
from game.rules.nolimit import NoLimitConfig

_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_BID = ActionKind.BID
_ANNOUNCE = ActionKind.ANNOUNCE


def sample_policy(policy: Policy, rng: np.random.Generator) -> Action:
    """One action drawn from ``policy`` with one uniform draw of ``rng``; a one-point policy draws nothing.

    >>> sample_policy(((Action.check(), 1.0),), np.random.default_rng(0))
    Action(kind=<ActionKind.CHECK: 1>, amount=0)
    >>> policy = ((Action.fold(), 0.5), (Action.call(), 0.5))
    >>> sorted({str(sample_policy(policy, np.random.default_rng(seed))) for seed in range(20)})
    ['C', 'F']
    """
    if len(policy) == 1:
        return policy[0][0]
    draw = float(rng.random())
    total = 0.0
    for action, probability in policy:
        total += probability
        if draw < total:
            return action
    return policy[-1][0]  # rounding left the sum a hair under 1


def policy_rows_by_hand(
    bot: Any, observation: Any, holes: Sequence[tuple[int, ...]], bounty_ranks: Sequence[int | None]
) -> tuple[list[Action], np.ndarray]:
    """``bot.policy`` at ``observation`` with each of ``holes`` and ``bounty_ranks`` substituted, one call per
    hand: ``(actions, probabilities)``, probabilities float64 ``[len(holes), len(actions)]`` (the form of a
    bot's ``policy_rows``, for bots without one)."""
    actions: dict[Action, int] = {}
    entries = []
    for hole, rank in zip(holes, bounty_ranks, strict=True):
        policy = bot.policy(replace(observation, hole_cards=tuple(hole), bounty_rank=rank))
        entries.append([(actions.setdefault(action, len(actions)), p) for action, p in policy])
    matrix = np.zeros((len(holes), len(actions)))
    for k, entry in enumerate(entries):
        for column, probability in entry:
            matrix[k, column] += probability
    return list(actions), matrix


def one_point(action: Action) -> Policy:
    """The policy that always plays ``action``."""
    return ((action, 1.0),)


def losing_bid_raised(observation: Any, action: Action) -> Action:
    """The action to play for a planned ``action``: a bid that loses to the opponent's bid by more than a
    chip, where that bid is already known (the 2024 engine's dealer sees the big blind's bid), becomes the
    bid one chip under it (clamped to the bid bounds); any other action is itself.

    Every bid under the known one loses the auction, and the loser's bid is what the winner pays into
    the pot (a second-price auction), so among the losing bids the highest makes the opponent put the
    most chips into a pot that is partly ours, at no risk to our own: it changes neither who gets the
    third card nor what we pay. Against a bot that bids all-in, a blueprint that bids its abstract 0.25
    pot there leaves almost the opponent's whole stack out of the pot.

    >>> from game.rules.actions import Move
    >>> from types import SimpleNamespace
    >>> seen = SimpleNamespace(
    ...     seat=1, street=1, bid_bounds=(0, 190), legal_actions={ActionKind.BID}, history=(Move(0, 1, Action.bid(190)),)
    ... )
    >>> losing_bid_raised(seen, Action.bid(5)).amount, losing_bid_raised(seen, Action.bid(190)).amount
    (189, 190)
    >>> first = SimpleNamespace(seat=0, street=1, legal_actions={ActionKind.BID}, history=())  # bids first
    >>> losing_bid_raised(first, Action.bid(5)).amount
    5
    """
    return raised_under_bid(observation, action, known_first_bid(observation))


def raised_under_bid(observation: Any, action: Action, opponent_bid: int | None) -> Action:
    """``action``, or where it is a bid that loses to ``opponent_bid`` (chips; ``None``: none known) by
    more than a chip, the bid one chip under it, clamped to the bid bounds: the highest bid that still
    loses (`losing_bid_raised` with a seen bid; the adaptive bot with the bid its model expects).

    >>> from types import SimpleNamespace
    >>> bidding = SimpleNamespace(bid_bounds=(0, 190))
    >>> [raised_under_bid(bidding, Action.bid(5), bid).amount for bid in (None, 6, 50, 400)]
    [5, 5, 49, 190]
    """
    if action.kind is not ActionKind.BID or opponent_bid is None or action.amount >= opponent_bid - 1:
        return action
    low, high = observation.bid_bounds
    return Action.bid(max(low, min(high, opponent_bid - 1)))


def fallback_action(observation: Any) -> Action:
    """`passive_action`, with its bid of 0 raised by `losing_bid_raised`: what a strategy bot plays where
    its strategy has no answer (off its tree)."""
    return losing_bid_raised(observation, passive_action(observation))


def known_first_bid(observation: Any) -> int | None:
    """The opponent's bid in this auction (chips) when the seat to act bids second and sees it, else ``None``."""
    history = observation.history
    if not history or ActionKind.BID not in observation.legal_actions:
        return None
    first = history[-1]
    if first.action.kind is not ActionKind.BID or first.seat == observation.seat or first.street != observation.street:
        return None
    return first.action.amount


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


class EquityEstimator:
    """Monte Carlo equity of the observing seat against a uniform opponent range (`game.play.kernels_equity`).

    ``samples`` deals per estimate. The kernel's seed is derived from ``seed`` (an int) and the cards
    (hole cards, board, extra and opponent hole-card counts; not the bounty rank, so a rank changes
    only the weighting of the same draws), so an estimate is a pure function of what the seat sees:
    ``policy`` and ``act`` of one observation get the same number, and asking early changes
    nothing later. The last estimates are memoised by those cards (at most
    ``memo_size``), so the decisions of one street cost one estimate. The derived seed uses Python's
    hash of a tuple of ints, which is the same in every process (no string is hashed).

    ``config``: the variant's config (its ``equity_parameters()``: swap chances, board cap, bounty multiplier);
    ``None`` takes the default config of the first observed variant, and Hold'em's for an
    observation without a variant (the N-player limit game).

    >>> from game.cards.deck import parse_cards
    >>> from types import SimpleNamespace
    >>> aces = SimpleNamespace(variant="holdem", seat=0, hole_cards=tuple(parse_cards("Ah Ad").tolist()),
    ...     board=(), bounty_rank=None, bids=(None, None))
    >>> estimator = EquityEstimator(samples=2000, seed=1)
    >>> equity, _ = estimator.estimate(aces)
    >>> 0.8 < equity < 0.9, estimator.estimate(aces) == EquityEstimator(samples=2000, seed=1).estimate(aces)
    (True, True)
    """

    def __init__(self, config: NoLimitConfig | None = None, *, samples: int, seed: int, memo_size: int = 4096) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be >= 1 Monte Carlo deals, got {samples!r}")
        if config is not None and not isinstance(config, NoLimitConfig):
            raise TypeError(
                f"equity is computed for the heads-up no-limit variants; config must be a NoLimitConfig, got {config!r}"
            )
        self.samples = samples
        self.seed = int(seed)
        self._config = config
        self._memo: dict[tuple, tuple[float, float]] = {}
        self._memo_size = memo_size

    def config_for(self, variant: str | None) -> NoLimitConfig:
        """The config equity is computed under for an observation of ``variant`` (``None``: limit)."""
        from game.rules.variants import get_variant

        variant = "holdem" if variant is None else variant
        if self._config is not None:
            if self._config.variant != variant:
                raise ValueError(f"configured for {self._config.variant!r} but observes {variant!r}")
            return self._config
        self._config = get_variant(variant).config_class()
        return self._config

    def estimate(
        self, observation: Any, *, extra_hole_cards: int = 0, opponent_hole_cards: int | None = None
    ) -> tuple[float, float]:
        """``(equity, bounty-weighted equity)`` of the observing seat (shares of the pot, 0..1; the
        weighted one counts a win holding the bounty rank ``bounty_multiplier`` times)."""
        config = self.config_for(getattr(observation, "variant", None))
        if opponent_hole_cards is None:
            opponent_hole_cards = opponent_hole_count(observation)
        rank = getattr(observation, "bounty_rank", None)
        bounty_rank = -1 if rank is None else int(rank)
        cards = (tuple(observation.hole_cards), tuple(observation.board), extra_hole_cards, opponent_hole_cards)
        key = (cards, bounty_rank)
        known = self._memo.get(key)
        if known is not None:
            return known
        parameters = config.equity_parameters()
        swaps = [probability for probability in parameters.swaps_after(len(observation.board)) if probability > 0.0]
        out = np.zeros(2, dtype=np.float64)
        _equity(
            np.array(observation.hole_cards, dtype=np.int8),
            np.array(observation.board, dtype=np.int8),
            extra_hole_cards,
            opponent_hole_cards,
            np.array(swaps, dtype=np.float64),
            parameters.run_cards,
            parameters.max_board_cards,
            bounty_rank,
            float(parameters.bounty_multiplier),
            self.samples,
            hash((self.seed, cards)) & 0xFFFFFFFF,  # np.random.seed takes < 2**32 without numba
            out,
        )
        result = (float(out[0]), float(out[1]))
        if len(self._memo) >= self._memo_size:
            self._memo.clear()
        self._memo[key] = result
        return result


def opponent_hole_count(observation: Any) -> int:
    """The opponent's final hole-card count: 3 once it has won (or tied) an auction, else 2."""
    bids = getattr(observation, "bids", None)
    if bids is None:
        return 2
    mine, theirs = bids[observation.seat], bids[1 - observation.seat]
    return 3 if mine is not None and theirs is not None and theirs >= mine else 2

"""A cheap mixed-strategy PolicyBot for the AIVAT tests: it plays by a deterministic hand strength.

Strength ``s`` in [0, 1]: preflop the two hole ranks (and a pair bonus), after the flop the
evaluator's class of the best hand over 7462. Policy: raise the pot with probability ``s**2``
(when a raise is legal), fold facing a bet with probability ``max(0, 0.5 - s)``, else check or
call; at an auction, bid ``s`` times the pot with probability ``s``, else 0. ``act`` samples that policy with the bot's own generator; ``policy`` changes nothing.
"""

from __future__ import annotations

from typing import Any

from game.cards.evaluator import evaluate
from game.cards.rng import SeedLike, as_generator
from game.play.bot_support import passive_action
from game.rules.actions import Action, ActionKind, Policy


def strength(observation: Any) -> float:
    """The bot's hand strength in [0, 1] (see the module docstring)."""
    cards = list(observation.hole_cards) + list(observation.board)
    if len(cards) < 5:
        high, low = sorted((card >> 2 for card in observation.hole_cards[:2]), reverse=True)
        return min(1.0, (high + low) / 24 + (0.3 if high == low else 0.0))
    return evaluate(cards) / 7462


class StrengthPolicyBot:
    """A mixed strategy by hand strength (module docstring), for the heads-up no-limit variants."""

    def __init__(self, seed: SeedLike = None, name: str = "strength") -> None:
        self.name = name
        self._rng = as_generator(seed)

    def policy(self, observation: Any) -> Policy:
        legal = observation.legal_actions
        s = strength(observation)
        if ActionKind.BID in legal:
            bid = min(observation.bid_bounds[1], round(s * sum(observation.contributions)))
            if bid == 0 or s == 0:
                return ((Action.bid(0), 1.0),)
            return ((Action.bid(bid), s), (Action.bid(0), 1.0 - s)) if s < 1 else ((Action.bid(bid), 1.0),)
        me, them = observation.seat, 1 - observation.seat
        cost = observation.pips[them] - observation.pips[me]
        weights: dict[Action, float] = {}
        if ActionKind.RAISE in legal:
            low, high = observation.raise_bounds
            pot = sum(observation.contributions) + cost
            weights[Action.raise_to(min(high, max(low, observation.pips[them] + pot)))] = s * s
        if cost > 0 and ActionKind.FOLD in legal:
            weights[Action.fold()] = max(0.0, 0.5 - s)
        passive = Action.call() if ActionKind.CALL in legal else Action.check()
        weights[passive] = 1.0 - sum(weights.values())
        return tuple((action, weight) for action, weight in weights.items() if weight > 0)

    def act(self, observation: Any) -> Action:
        policy = self.policy(observation)
        pick = self._rng.random()
        for action, probability in policy:
            pick -= probability
            if pick < 0:
                return action
        return policy[-1][0]


class NoPolicyBot:
    """Checks or calls (bids 0) and exposes no ``policy``: a player AIVAT cannot correct."""

    name = "nopolicy"

    def act(self, observation: Any) -> Action:
        return passive_action(observation)

"""Tree hooks of heads-up no-limit Hold'em, the base the other heads-up variants' hooks extend.

The betting-tree builder (`abstraction.bets.betting_tree`) walks a variant's real round and asks the
variant's hooks (`abstraction.hooks.tree_hooks`) what the rules leave open in an abstract game:
the bucket slot a decision reads, the outcome context a terminal's payoff depends on and its
payoff row per outcome (NET chips by seat, `abstraction.tree.FlatTree.terminal_values`), and
where chance nodes sit inside the betting. The definitions are the spec's, the same ones
`abstraction.chance.fresh_chance` draws deals for. Here, plain Hold'em:

- slots: the street ordinal (`street_ordinal`): 0 preflop, 1 flop, 2 turn, 3 river;
- contexts: 0 = the showdown, 3 outcomes (0 seat 0 wins, 1 tie, 2 seat 1 wins; seat 0 is the
  dealer); a fold's payoff does not depend on the cards (context -1, one row: `payoffs()`);
- no chance inside the betting.

A showdown's rows come from the round's own payoff code on the terminal state (`showdown_payoffs`),
so the engine's odd-chip split and unequal contributions (Auction) are exactly the rules module's.

>>> from game.rules.actions import Action
>>> from game.rules.holdem import HoldemConfig
>>> hooks = HoldemHooks()
>>> walk = hooks.start(HoldemConfig(rules="engine"))
>>> round_, chance_slot = walk.apply(walk.root, Action.raise_to(6), ())
>>> hooks.slot(round_, round_.to_act), chance_slot
(0, -1)
>>> for text in ["C", "K", "K", "K", "K", "K", "K"]:
...     round_, _ = walk.apply(round_, Action.parse(text), ())
>>> hooks.terminal_context(round_), hooks.terminal_values(round_).tolist()
(0, [[6.0, -6.0], [0.0, 0.0], [-6.0, 6.0]])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from abstraction.bets.bet_abstraction import GAME_STREETS
from abstraction.chance.kernels_chance import PLAIN_DEAL, SHOWDOWN_OUTCOMES
from game.rules.actions import Action, ActionKind
from game.rules.chance import RandomChance
from game.rules.nolimit import RIVER, NoLimitConfig, NoLimitRound
from game.rules.variants import start_round

NO_CHANCE = -1
"""`Walk.apply`'s chance slot when the action dealt no card a chance node decides."""
NO_CONTEXT = -1
"""Context of a terminal whose payoff does not depend on the cards (a fold)."""


def street_ordinal(game_street: int) -> int:
    """Street ordinal of a `game.rules.nolimit` street: 0 preflop, 1 flop, 2 turn, 3 river, 3 + k run street k.

    The tree's ``street`` values and the slots of the plain variants.

    >>> [street_ordinal(street) for street in (0, 3, 4, 5, 6, 7)]
    [0, 1, 2, 3, 4, 5]
    """
    if game_street in GAME_STREETS:
        return GAME_STREETS.index(game_street)
    if game_street > RIVER:
        return len(GAME_STREETS) - 1 + game_street - RIVER
    raise ValueError(f"no street {game_street!r}: streets are 0, 3, 4, 5, 6, ...")


def folder(round_: NoLimitRound) -> int | None:
    """The seat that folded if the round ended on a fold, else ``None``."""
    history = round_.history
    if round_.is_terminal and history and history[-1].action.kind is ActionKind.FOLD:
        return history[-1].seat
    return None


def showdown_payoffs(round_: NoLimitRound, outcome: int) -> tuple[int, int]:
    """Chips won by each seat at the showdown ``round_`` if the cards gave ``outcome`` (0 seat 0
    wins, 1 tie, 2 seat 1 wins): the round's own award and split code
    (`game.rules.nolimit.NoLimitRound.payoffs_if`; document: a tie returns the contributions, engine:
    ``(stack0 - stack1) // 2`` to seat 0) on the terminal state."""
    return round_.payoffs_if(None if outcome == 1 else (0 if outcome == 0 else 1))


class Walk:
    """How the builder moves through the real round: ``root``, and one action at a time on a copy.

    ``apply(round_, action, outcomes)`` returns the copy of ``round_`` after ``action`` and the
    chance slot of a card dealt on the way whose outcome decides a chance node and is not among
    ``outcomes`` (the children taken at the chance nodes passed so far, by slot), else
    :data:`NO_CHANCE`. Here nothing chance deals is a chance node, so always :data:`NO_CHANCE`.
    """

    def __init__(self, root: NoLimitRound) -> None:
        self.root = root

    def apply(self, round_: NoLimitRound, action: Action, outcomes: tuple[int, ...]) -> tuple[NoLimitRound, int]:
        child = round_.clone()
        child.apply(action)
        return child, NO_CHANCE


@dataclass(frozen=True)
class HoldemHooks:
    """Tree hooks of Hold'em; a variant's hooks subclass it and override what differs.

    ``variant``: the `game.rules.variants` name the hooks serve; ``deal_flags``: what its fresh-chance
    kernel deals beyond Hold'em (`abstraction.chance.kernels_chance`: ``PLAIN_DEAL`` or one ``DEAL_*``
    flag; `abstraction.chance.kernels_chance._sample_deal` branches on it); ``bounty_buckets``: whether
    its card abstraction carries Bounty's hit bit; ``small_deck``: the default short deck of its exact
    small game (`abstraction.exact.small_variants`, with `small_rules`). Methods take the rules config
    of the tree (`walk_config`) or a round of its walk.
    """

    variant: str = "holdem"
    deal_flags: int = PLAIN_DEAL
    bounty_buckets: bool = False
    small_deck: str = "Jc Jd Jh Qc Qd Qh Kc Kd Kh Ac Ad Ah"

    def walk_config(self, config: NoLimitConfig, max_runs: int | None = None) -> NoLimitConfig:
        """The rules config the tree is built on: ``config`` itself (``max_runs`` must be None here)."""
        if config.variant != self.variant:
            raise ValueError(f"the {self.variant!r} tree hooks got a {config.variant!r} config: {config!r}")
        if max_runs is not None:
            raise ValueError(
                f"max_runs is River of Blood's run cap; a {self.variant!r} tree takes None, got {max_runs!r}"
            )
        return config

    def start(self, config: NoLimitConfig) -> Walk:
        """A walk from a new round of ``config`` (cards do not matter to the tree)."""
        return Walk(start_round(config, RandomChance(0)))

    def slot_names(self, config: NoLimitConfig) -> tuple[str, ...]:
        """Name of each bucket slot, in slot order (their number is the tree's slot count)."""
        return ("preflop", "flop", "turn", "river")

    def slot_streets(self, config: NoLimitConfig) -> tuple[int, ...]:
        """The card-abstraction street (0 preflop, 1 flop, 2 turn, 3 river) whose buckets each slot holds."""
        return tuple(range(len(GAME_STREETS)))

    def sampler_arguments(self, config: NoLimitConfig) -> tuple[int, float, float, int]:
        """``(deal flags, flop swap probability, turn swap probability, run cap R)``, the variant's
        head of `abstraction.chance.kernels_chance._sample_deal`'s arguments for the tree config ``config``."""
        return (self.deal_flags, 0.0, 0.0, 0)

    def small_rules(self, max_runs: int) -> dict[str, Any]:
        """Rules config fields of the exact small game besides stack and rules (`abstraction.exact.small_variants`;
        ``max_runs``: its run streets where the variant has run cards): none."""
        return {}

    def slot(self, round_: NoLimitRound, seat: int) -> int:
        """The bucket slot a decision of ``seat`` reads in ``round_``: the street ordinal."""
        return street_ordinal(round_.street)

    def context_size(self, config: NoLimitConfig) -> tuple[int, ...]:
        """Outcomes of each context: the showdown's three."""
        return (SHOWDOWN_OUTCOMES,)

    def chance_size(self, config: NoLimitConfig) -> tuple[int, ...]:
        """Children of the chance nodes of each chance slot: none."""
        return ()

    def public_action(self, round_: NoLimitRound, action: Action, child: NoLimitRound) -> str:
        """``action`` (taken in ``round_``, giving ``child``) as the actor at ``child`` sees it: all of it."""
        return str(action)

    def terminal_context(self, round_: NoLimitRound) -> int:
        """Context of the terminal ``round_``: -1 after a fold, else `showdown_context`."""
        return NO_CONTEXT if folder(round_) is not None else self.showdown_context(round_)

    def showdown_context(self, round_: NoLimitRound) -> int:
        """Context of a showdown: 0."""
        return 0

    def terminal_values(self, round_: NoLimitRound) -> np.ndarray:
        """Payoff rows float64 ``[outcomes of its context, 2]`` of the terminal ``round_`` (NET chips
        by seat): a fold's `payoffs()`; a showdown's `showdown_payoffs` for outcomes 0, 1, 2."""
        if folder(round_) is not None:
            return round_.payoffs().astype(np.float64)[None, :]
        return np.array([showdown_payoffs(round_, outcome) for outcome in range(SHOWDOWN_OUTCOMES)], dtype=np.float64)


HOOKS = HoldemHooks()
"""The Hold'em tree hooks."""

"""Kuhn poker: the smallest poker, a one-round member of the Leduc family (:mod:`game.rules.leduc`).

Standard rules, as in OpenSpiel's ``kuhn_poker``: a deck of three cards J Q K (here
``Js Qs Ks``); each player antes 1 chip and gets one card; player 0 checks or bets 1 chip;
one bet at most; facing a bet a player folds or calls; the higher card wins the showdown.
OpenSpiel's "pass" is our check (or fold when facing a bet) and its "bet" our raise (or call).
With N players (``kuhn_config(players=N)``, OpenSpiel's ``kuhn_poker(players=N)``) the deck has
N + 1 cards (J Q K A for three); seats check in turn until one bets, then every other seat calls or
folds once, and the highest card among those left wins.

>>> from game.rules.actions import Action
>>> from game.cards.deck import parse_cards
>>> game = kuhn_round(cards=parse_cards("Ks Js"))
>>> [str(a) for a in game.legal_actions()]
['K', 'R1']
>>> game.apply(Action.check()); game.apply(Action.raise_to(1))
>>> [str(a) for a in game.legal_actions()]
['F', 'C']
>>> game.apply(Action.call()); game.payoffs()
(2.0, -2.0)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from game.cards.rng import SeedLike
from game.rules.leduc import LeducConfig, LeducRound, standard_ranks

__all__ = ["KUHN", "KuhnRound", "kuhn_config", "kuhn_round"]

KuhnRound = LeducRound
"""A Kuhn hand is a :class:`~game.rules.leduc.LeducRound` played under :data:`KUHN`."""


def kuhn_config(ante: int = 1, bet: int = 1, players: int = 2) -> LeducConfig:
    """Kuhn rules: ``players + 1`` cards of one suit (J Q K for two), one betting round, at most one bet of
    ``bet`` chips.

    >>> kuhn_config().deck_text(), kuhn_config().n_streets, kuhn_config(players=3).deck_text()
    ('Js Qs Ks', 1, 'Js Qs Ks As')
    >>> kuhn_config(bet=0)
    Traceback (most recent call last):
    ...
    ValueError: raise_sizes must be positive chips, one per round, got (0,)
    """
    return LeducConfig(
        ranks=standard_ranks(players),
        suits="s",
        ante=ante,
        raise_sizes=(bet,),
        max_raises=1,
        board_cards=(0,),
        players=players,
    )


KUHN = kuhn_config()
"""The standard Kuhn rules (ante 1, bet 1)."""


def kuhn_round(cards: Sequence[int] | np.ndarray | None = None, seed: SeedLike = None) -> LeducRound:
    """A Kuhn hand with scripted ``cards`` (player 0's, player 1's) or cards dealt from ``seed``."""
    if cards is None:
        return LeducRound.deal(KUHN, seed)
    return LeducRound(KUHN, cards)

"""Leduc hold'em (and the small fixed-limit family it belongs to), as a round state machine.

Standard rules, as in OpenSpiel's ``leduc_poker`` (so our numbers match theirs): a deck of six
cards J J Q Q K K (here ``Jh Js Qh Qs Kh Ks``); each player antes 1 chip and gets one private
card; betting round 1, then one public card, then betting round 2. Bets are fixed: 2 chips in
round 1, 4 chips in round 2, at most 2 raises per round; player 0 acts first in both rounds.
Folding is only allowed when facing a bet. At showdown a private card pairing the public card
wins, otherwise the higher private card wins; equal ranks split the pot.

Kuhn poker is the same machine with another :class:`LeducConfig` (see :mod:`game.rules.kuhn`): variants
are data. Chips: commitments include the ante; a raise carries the raise-to total of the raiser's
*pip for the street* (antes are not pips), as in the Pokerbots engines. Chance is decided when the
round is made (``LeducRound.deal(config, seed)`` or a scripted ``cards`` tuple: one private card
per player in seat order, then the public cards); the public card is only revealed in round 2.

More players (``players=N``, 2..10) follow OpenSpiel's ``leduc_poker(players=N)`` and
``kuhn_poker(players=N)``: :func:`leduc_config` deals from N + 1 ranks in two suits; seats act in
order, each round opening with the first seat still in; a round ends once every player still in
has acted since the last raise (checking, or matching it); the hand ends when one player is left
(they take the pot) or after the last round, when the best hands among those left split the pot
equally.

>>> from game.rules.actions import Action
>>> from game.cards.deck import parse_cards
>>> game = LeducRound(LeducConfig(), cards=parse_cards("Kh Qs Qh"))
>>> [str(a) for a in game.legal_actions()]
['K', 'R2']
>>> for text in ["R2", "C", "K", "R4", "C"]:
...     game.apply(Action.parse(text))
>>> game.is_terminal, game.payoffs(), game.history_string()
(True, (-7.0, 7.0), 'R2C/KR4C')
>>> game.apply(Action.check())
Traceback (most recent call last):
...
game.rules.actions.IllegalActionError: K is not legal: the round is over
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.cards.deck import RANKS, SUITS, format_cards, make_card, rank_of
from game.cards.rng import SeedLike, as_generator
from game.rules.actions import Action, ActionKind, IllegalActionError

__all__ = ["MAX_PLAYERS", "LeducConfig", "LeducRound", "leduc_config", "standard_ranks"]

MAX_PLAYERS = 10
"""Most players a round seats (OpenSpiel's ``leduc_poker`` and ``kuhn_poker`` allow 10)."""


def standard_ranks(players: int) -> str:
    """The ``players + 1`` ranks OpenSpiel's N-player Kuhn and Leduc deal from, lowest first: J Q K, then
    the ace, then downwards from the jack.

    >>> standard_ranks(2), standard_ranks(3), standard_ranks(5)
    ('JQK', 'JQKA', '9TJQKA')
    """
    if not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be an int in 2..{MAX_PLAYERS}, got {players!r}")
    first = min(RANKS.index("J"), len(RANKS) - (players + 1))
    return RANKS[first : first + players + 1]


@dataclass(frozen=True)
class LeducConfig:
    """Rules of a one-card fixed-limit poker game (Leduc by default).

    ``ranks`` / ``suits``: the deck is every rank in every suit (text as in :mod:`game.cards.deck`).
    ``ante``: chips each player puts in before the deal. ``raise_sizes[street]``: chips per raise
    in each betting round (their number is the number of rounds). ``max_raises``: raises allowed
    per round. ``board_cards[street]``: public cards revealed at the start of each round.
    ``players``: seats, 2..:data:`MAX_PLAYERS` (:func:`leduc_config` gives OpenSpiel's deck for N).

    >>> LeducConfig().deck_text()
    'Jh Js Qh Qs Kh Ks'
    >>> LeducConfig(raise_sizes=(2, 4), board_cards=(0,))
    Traceback (most recent call last):
    ...
    ValueError: board_cards (0,) must give one count per betting round (2 rounds)
    """

    ranks: str = "JQK"
    suits: str = "hs"
    ante: int = 1
    raise_sizes: tuple[int, ...] = (2, 4)
    max_raises: int = 2
    board_cards: tuple[int, ...] = (0, 1)
    players: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool) or not 2 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be an int in 2..{MAX_PLAYERS}, got {self.players!r}")
        if not self.ranks or any(r not in RANKS for r in self.ranks) or len(set(self.ranks)) != len(self.ranks):
            raise ValueError(f"ranks must be distinct characters of {RANKS!r}, got {self.ranks!r}")
        if not self.suits or any(s not in SUITS for s in self.suits) or len(set(self.suits)) != len(self.suits):
            raise ValueError(f"suits must be distinct characters of {SUITS!r}, got {self.suits!r}")
        if self.ante < 0:
            raise ValueError(f"ante must be >= 0 chips, got {self.ante!r}")
        if not self.raise_sizes or any(size <= 0 for size in self.raise_sizes):
            raise ValueError(f"raise_sizes must be positive chips, one per round, got {self.raise_sizes!r}")
        if self.max_raises < 0:
            raise ValueError(f"max_raises must be >= 0, got {self.max_raises!r}")
        if len(self.board_cards) != len(self.raise_sizes) or any(n < 0 for n in self.board_cards):
            raise ValueError(
                f"board_cards {self.board_cards!r} must give one count per betting round "
                f"({len(self.raise_sizes)} rounds)"
            )
        if self.cards_per_deal > len(self.ranks) * len(self.suits):
            raise ValueError(f"a deal needs {self.cards_per_deal} cards but the deck has {self.deck_size}")

    @property
    def n_streets(self) -> int:
        """Number of betting rounds."""
        return len(self.raise_sizes)

    @property
    def deck_size(self) -> int:
        return len(self.ranks) * len(self.suits)

    @property
    def cards_per_deal(self) -> int:
        """Cards chance deals per round: one private card per player, then the public cards."""
        return self.players + sum(self.board_cards)

    def deck(self) -> tuple[int, ...]:
        """The deck as card ints (:mod:`game.cards.deck`), lowest rank first."""
        return tuple(make_card(RANKS.index(r), SUITS.index(s)) for r in self.ranks for s in self.suits)

    def deck_text(self) -> str:
        return format_cards(self.deck())

    def to_dict(self) -> dict[str, object]:
        """JSON-serialisable form; ``LeducConfig(**d)`` after turning lists into tuples rebuilds it."""
        return {
            "ranks": self.ranks,
            "suits": self.suits,
            "ante": self.ante,
            "raise_sizes": list(self.raise_sizes),
            "max_raises": self.max_raises,
            "board_cards": list(self.board_cards),
            "players": self.players,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> LeducConfig:
        values = dict(data)
        for key in ("raise_sizes", "board_cards"):
            if key in values:
                values[key] = tuple(values[key])  # type: ignore[arg-type]
        return cls(**values)  # type: ignore[arg-type]


def leduc_config(players: int = 2) -> LeducConfig:
    """OpenSpiel's ``leduc_poker(players=N)``: :func:`standard_ranks` in two suits, otherwise standard Leduc.

    >>> leduc_config(3).deck_text(), leduc_config(3).cards_per_deal
    ('Jh Js Qh Qs Kh Ks Ah As', 4)
    """
    return LeducConfig(ranks=standard_ranks(players), players=players)


class LeducRound:
    """One hand: the betting state machine plus the cards chance chose for it.

    ``to_act`` is the player to move (``None`` once the round is over); ``committed[p]`` the chips
    player ``p`` has put in (ante included); ``street`` the betting round (0-based);
    ``folded[p]`` whether ``p`` has folded.
    """

    def __init__(self, config: LeducConfig, cards: Sequence[int] | np.ndarray) -> None:
        if not isinstance(config, LeducConfig):
            raise TypeError(f"config must be a LeducConfig, got {config!r}")
        dealt = tuple(int(c) for c in cards)
        deck = set(config.deck())
        if len(dealt) != config.cards_per_deal or len(set(dealt)) != len(dealt) or not set(dealt) <= deck:
            raise ValueError(
                f"cards {format_cards(dealt)!r} must be {config.cards_per_deal} distinct cards of the deck "
                f"{config.deck_text()!r} (one private card per player in seat order, then the public cards)"
            )
        self.config = config
        self.cards = dealt
        self.street = 0
        self.to_act: int | None = 0
        self.committed = [config.ante] * config.players
        self.pips = [0] * config.players
        self.raises = 0
        self.folded = [False] * config.players
        self.pending = list(range(config.players))
        """Seats still to act this round, in acting order (everyone else after a raise)."""
        self.history: list[list[Action]] = [[]]

    @classmethod
    def deal(cls, config: LeducConfig, seed: SeedLike = None) -> LeducRound:
        """A round with cards shuffled by a seeded generator.

        >>> LeducRound.deal(LeducConfig(), seed=1).cards == LeducRound.deal(LeducConfig(), seed=1).cards
        True
        """
        deck = np.array(config.deck())
        as_generator(seed).shuffle(deck)
        return cls(config, deck[: config.cards_per_deal])

    def copy(self) -> LeducRound:
        """An independent copy (for tree walks)."""
        twin = _copy.copy(self)
        twin.committed = list(self.committed)
        twin.pips = list(self.pips)
        twin.folded = list(self.folded)
        twin.pending = list(self.pending)
        twin.history = [list(street) for street in self.history]
        return twin

    @property
    def is_terminal(self) -> bool:
        return self.to_act is None

    def private_card(self, player: int) -> int:
        return self.cards[player]

    @property
    def alive(self) -> tuple[int, ...]:
        """Seats that have not folded, in seat order."""
        return tuple(p for p in range(self.config.players) if not self.folded[p])

    @property
    def board(self) -> tuple[int, ...]:
        """Public cards revealed so far."""
        revealed = sum(self.config.board_cards[: self.street + 1])
        start = self.config.players
        return self.cards[start : start + revealed]

    def visible_cards(self, player: int) -> tuple[int, ...]:
        """What ``player`` has seen of chance: their private card, then the revealed public cards."""
        return (self.cards[player], *self.board)

    def legal_actions(self) -> list[Action]:
        """Legal actions of ``to_act`` (empty once the round is over)."""
        if self.to_act is None:
            return []
        me, level = self.to_act, max(self.pips)
        actions = []
        if level > self.pips[me]:
            actions += [Action.fold(), Action.call()]
        else:
            actions.append(Action.check())
        if self.raises < self.config.max_raises:
            actions.append(Action.raise_to(level + self.config.raise_sizes[self.street]))
        return actions

    def apply(self, action: Action) -> None:
        """Play ``action`` for ``to_act``; raises :class:`IllegalActionError` if it is not legal."""
        legal = self.legal_actions()
        if action not in legal:
            where = "the round is over" if not legal else f"legal: {' '.join(str(a) for a in legal)}"
            raise IllegalActionError(f"{action} is not legal: {where}")
        me = self.to_act
        assert me is not None
        self.history[self.street].append(action)
        self.pending.remove(me)
        if action.kind is ActionKind.FOLD:
            self.folded[me] = True
        elif action.kind is ActionKind.RAISE:
            self._put_in(me, action.amount)
            self.raises += 1
            n = self.config.players
            self.pending = [p for p in ((me + k) % n for k in range(1, n)) if not self.folded[p]]
        elif action.kind is ActionKind.CALL:
            self._put_in(me, max(self.pips))
        if len(self.alive) == 1:
            self.to_act = None
        elif self.pending:
            self.to_act = self.pending[0]
        else:
            self._end_street()

    def _put_in(self, player: int, pip: int) -> None:
        self.committed[player] += pip - self.pips[player]
        self.pips[player] = pip

    def _end_street(self) -> None:
        if self.street + 1 == self.config.n_streets:
            self.to_act = None
            return
        self.street += 1
        self.history.append([])
        self.pips = [0] * self.config.players
        self.raises = 0
        self.pending = list(self.alive)
        self.to_act = self.pending[0]

    def hand_strength(self, player: int) -> tuple[int, int]:
        """Showdown strength: (public cards paired by the private card, private rank); higher wins."""
        rank = rank_of(self.cards[player])
        return (sum(rank_of(c) == rank for c in self.board), rank)

    def showdown_winners(self, players: Sequence[int] | None = None) -> tuple[int, ...]:
        """Seats among ``players`` (default: those still in) holding the best hand on the board so far."""
        contenders = self.alive if players is None else tuple(players)
        strength = {p: self.hand_strength(p) for p in contenders}
        best = max(strength.values())
        return tuple(p for p in contenders if strength[p] == best)

    def award(self, winners: Sequence[int]) -> tuple[float, ...]:
        """Chips each player wins (+) or loses (-) when ``winners`` split the pot equally.

        >>> from game.cards.deck import parse_cards
        >>> hand = LeducRound(LeducConfig(), parse_cards("Kh Qs Qh"))
        >>> hand.award([0]), hand.award([0, 1])
        ((1.0, -1.0), (0.0, 0.0))
        """
        if not winners or len(set(winners)) != len(winners) or not set(winners) <= set(range(self.config.players)):
            raise ValueError(f"winners must be distinct seats of 0..{self.config.players - 1}, got {winners!r}")
        share = sum(self.committed) / len(winners)
        return tuple((share if p in winners else 0.0) - self.committed[p] for p in range(self.config.players))

    def payoffs(self) -> tuple[float, ...]:
        """Chips won (+) or lost (-) by each player; the round must be over."""
        if self.to_act is not None:
            raise ValueError(f"payoffs are only defined once the round is over; {self.to_act} is to act")
        alive = self.alive
        return self.award(alive if len(alive) == 1 else self.showdown_winners(alive))

    def history_string(self) -> str:
        """Betting so far, one ``/``-separated group per round (e.g. ``'R2C/K'``)."""
        return "/".join("".join(str(a) for a in street) for street in self.history)

    def __repr__(self) -> str:
        return (
            f"LeducRound(cards={format_cards(self.cards)!r}, history={self.history_string()!r}, "
            f"to_act={self.to_act!r}, committed={self.committed!r})"
        )

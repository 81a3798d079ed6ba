"""Chance sources for heads-up rounds: a seeded random deck, or a script that replays a hand.

A round asks its chance source for two kinds of outcome, in the order the rules produce them:

- ``deal(count)``: the next ``count`` cards of the deck (card ints 0..51; ``-1`` = unknown to
  whoever scripted the round, e.g. the opponent's hole cards seen from one seat);
- ``flip(name, probability)``: a yes/no event such as a swap (``True`` with ``probability``);
  ``None`` = unknown (a scripted opponent swap the scripting seat cannot see).

The deal order of every variant is written in ``game.rules.nolimit``. Every round records what it used
(``round.chance_log``); ``ChanceLog.replay()`` turns that record into a ``ScriptedChance`` that
plays the same hand again.

>>> chance = ScriptedChance(deck=[50, 51, 0, 1], events={"swap": [True, False]})
>>> chance.deal(2), chance.flip("swap", 0.1), chance.flip("swap", 0.1)
([50, 51], True, False)
>>> chance.deal(3)
Traceback (most recent call last):
...
ValueError: scripted deck exhausted: asked for 3 cards, 2 left of 4
>>> RandomChance(7).deal(2) == RandomChance(7).deal(2)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from game.cards.deck import N_CARDS, card_str
from game.cards.rng import SeedLike, as_generator

UNKNOWN_CARD = -1
"""A card the scripting seat does not know (the opponent's hole cards, their swap draws)."""


class ChanceSource(Protocol):
    """What a round needs from chance."""

    def deal(self, count: int) -> list[int]:
        """The next ``count`` cards of the deck (``-1`` for unknown cards)."""
        ...

    def flip(self, name: str, probability: float) -> bool | None:
        """A yes/no chance event named ``name`` (``None`` when unknown)."""
        ...

    def clone(self) -> ChanceSource:
        """An independent copy that continues from the same point."""
        ...


class RandomChance:
    """A uniformly shuffled 52-card deck plus uniform draws for events, from a seed or a Generator.

    One ``RandomChance`` serves one round. A match passes the same ``numpy.random.Generator`` to
    each round's ``RandomChance``, so the whole match follows from one seed. The deck order and
    the first ``PREDRAWN_EVENTS`` event draws are fixed when it is made, so ``clone()`` continues
    with exactly the outcomes the original would get (later events, which no variant needs, are
    drawn from the shared generator).

    >>> chance = RandomChance(3)
    >>> copy = chance.clone()
    >>> [chance.flip("swap", 0.5) for _ in range(8)] == [copy.flip("swap", 0.5) for _ in range(8)]
    True
    """

    PREDRAWN_EVENTS = 8
    """Event draws fixed in advance: Swap's 4 hole cards on the flop and 4 on the turn."""

    __slots__ = ("_cards", "_next", "_next_uniform", "_rng", "_uniforms")

    def __init__(self, seed: SeedLike = None) -> None:
        self._rng = as_generator(seed)
        self._cards: list[int] = self._rng.permutation(N_CARDS).tolist()
        self._next = 0
        self._uniforms: list[float] = self._rng.random(self.PREDRAWN_EVENTS).tolist()
        self._next_uniform = 0

    def deal(self, count: int) -> list[int]:
        start = self._next
        stop = start + count
        if stop > N_CARDS:
            raise ValueError(f"deck exhausted: asked for {count} cards, {N_CARDS - start} left")
        self._next = stop
        return self._cards[start:stop]

    def flip(self, name: str, probability: float) -> bool:
        index = self._next_uniform
        if index < len(self._uniforms):
            self._next_uniform = index + 1
            return self._uniforms[index] < probability
        return bool(self._rng.random() < probability)

    def clone(self) -> RandomChance:
        copy = RandomChance.__new__(RandomChance)
        copy._rng = self._rng
        copy._cards = self._cards
        copy._next = self._next
        copy._uniforms = self._uniforms
        copy._next_uniform = self._next_uniform
        return copy


class ScriptedChance:
    """Chance outcomes fixed in advance: a deck in deal order and named event lists.

    ``deck`` holds card ints in the order the round deals them (``-1`` for cards unknown to the
    scripting seat); ``events`` maps an event name (``"swap"``) to its outcomes in order
    (``True``/``False``, ``None`` for unknown). Known cards must be distinct. A live client
    that learns cards as the round goes on appends them with ``extend`` before the action that
    deals them.

    >>> ScriptedChance(deck=[3, 3])
    Traceback (most recent call last):
    ...
    ValueError: duplicate card '2s' in scripted deck [3, 3]
    """

    __slots__ = ("_deck", "_event_next", "_events", "_next")

    def __init__(
        self,
        deck: Iterable[int] = (),
        events: Mapping[str, Sequence[bool | None]] | None = None,
    ) -> None:
        self._deck: list[int] = []
        self._next = 0
        self._events: dict[str, list[bool | None]] = {}
        self._event_next: dict[str, int] = {}
        self.extend(deck, events)

    def extend(
        self,
        cards: Iterable[int] = (),
        events: Mapping[str, Sequence[bool | None]] | None = None,
    ) -> None:
        """Append cards to the scripted deck and outcomes to the named event lists."""
        added = [int(card) for card in cards]
        for card in added:
            if not UNKNOWN_CARD <= card < N_CARDS:
                raise ValueError(f"no card {card!r} in scripted deck {added}: cards are 0..51, or -1 if unknown")
        known = [card for card in self._deck + added if card != UNKNOWN_CARD]
        if len(set(known)) != len(known):
            duplicate = next(card for card in known if known.count(card) > 1)
            raise ValueError(f"duplicate card {card_str(duplicate)!r} in scripted deck {self._deck + added}")
        self._deck.extend(added)
        for name, outcomes in (events or {}).items():
            checked = []
            for outcome in outcomes:
                if outcome is not None and not isinstance(outcome, (bool, np.bool_)):
                    raise TypeError(f"scripted event {name!r} outcomes are True, False or None, got {outcome!r}")
                checked.append(None if outcome is None else bool(outcome))
            self._events.setdefault(name, []).extend(checked)
            self._event_next.setdefault(name, 0)

    def deal(self, count: int) -> list[int]:
        start = self._next
        stop = start + count
        if stop > len(self._deck):
            raise ValueError(
                f"scripted deck exhausted: asked for {count} cards, {len(self._deck) - start} left of {len(self._deck)}"
            )
        self._next = stop
        return self._deck[start:stop]

    def flip(self, name: str, probability: float) -> bool | None:
        outcomes = self._events.get(name, [])
        position = self._event_next.get(name, 0)
        if position >= len(outcomes):
            raise ValueError(f"scripted events exhausted: no outcome left for event {name!r} ({len(outcomes)} given)")
        self._event_next[name] = position + 1
        return outcomes[position]

    def clone(self) -> ScriptedChance:
        copy = ScriptedChance.__new__(ScriptedChance)
        copy._deck = list(self._deck)
        copy._next = self._next
        copy._events = {name: list(outcomes) for name, outcomes in self._events.items()}
        copy._event_next = dict(self._event_next)
        return copy


@dataclass(frozen=True)
class ChanceLog:
    """Every chance outcome a round used: cards in deal order and named events in order.

    >>> log = ChanceLog(deck=(50, 51, 0, 1), events={"swap": (False,)})
    >>> log.replay().deal(4)
    [50, 51, 0, 1]
    """

    deck: tuple[int, ...]
    events: Mapping[str, tuple[bool | None, ...]] = field(default_factory=dict)

    def replay(self) -> ScriptedChance:
        """A chance source that reproduces these outcomes."""
        return ScriptedChance(deck=self.deck, events=self.events)

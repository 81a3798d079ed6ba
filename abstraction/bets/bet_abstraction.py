"""Bet abstraction: per street, the bet/raise sizes a player may choose, a raise cap, and auction bids.

Text form of one street: comma-separated sizes, each ``<fraction>p`` (that fraction of the pot)
or ``a`` (all-in), optionally followed by ``cap=<n>`` (at most n bets and raises on the street;
no ``cap`` means unlimited). Streets are separated by ``;`` in the order preflop, flop, turn,
river; a single street's text applies to every street, and River of Blood run streets reuse the
river's sizes. Sizes of a raise: a raise of fraction f first calls, then adds f times the pot
after the call, i.e. ``raise_to = own_pip + cost + f * (pot + cost)`` chips, clamped to the legal
raise bounds. Auction bids use the same size text (``bids=``) as fractions of the pot.

>>> bets = BetAbstraction.parse("0.5p,1p,2p,a")
>>> bets.street(3)
StreetBets(sizes=(0.5, 1.0, 2.0), all_in=True, cap=None)
>>> str(BetAbstraction.parse("1p,a cap=3; 0.5p,1p,a cap=2", bids="0.25p,1p,a"))
'1p,a cap=3; 0.5p,1p,a cap=2; 0.5p,1p,a cap=2; 0.5p,1p,a cap=2 | bids=0.25p,1p,a'
>>> BetAbstraction.parse("0.5p,huge")
Traceback (most recent call last):
...
ValueError: bad bet size 'huge' in '0.5p,huge': expected '<fraction>p' such as '0.5p', 'a' or 'cap=<n>'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

N_BETTING_STREETS = 4
GAME_STREETS = (0, 3, 4, 5)
"""``game.rules.nolimit`` street numbers of preflop, flop, turn, river."""
_SIZE = re.compile(r"(\d+(?:\.\d*)?|\.\d+)p")


@dataclass(frozen=True)
class StreetBets:
    """One street's sizes (pot fractions, increasing, > 0), whether all-in is offered, and the cap
    on bets plus raises (None = unlimited)."""

    sizes: tuple[float, ...]
    all_in: bool = True
    cap: int | None = None

    def __post_init__(self) -> None:
        sizes = tuple(float(s) for s in self.sizes)
        if any(not s > 0 for s in sizes) or len(set(sizes)) != len(sizes):
            raise ValueError(f"bet sizes must be distinct pot fractions > 0, got {self.sizes!r}")
        object.__setattr__(self, "sizes", tuple(sorted(sizes)))
        if self.cap is not None and (isinstance(self.cap, bool) or not isinstance(self.cap, int) or self.cap < 0):
            raise ValueError(f"cap must be None or an int >= 0, got {self.cap!r}")
        if not sizes and not self.all_in and self.cap != 0:
            raise ValueError("a street offering no size and no all-in must have cap=0")

    @classmethod
    def parse(cls, text: str) -> StreetBets:
        """Parse ``"0.5p,1p,a cap=3"``."""
        sizes: list[float] = []
        all_in = False
        cap: int | None = None
        for token in re.split(r"[,\s]+", text.strip()):
            if not token:
                continue
            if token == "a":
                all_in = True
            elif token.startswith("cap="):
                if not token[4:].isdigit():
                    raise ValueError(f"bad cap {token!r} in {text!r}: expected 'cap=<n>' with n >= 0")
                cap = int(token[4:])
            elif _SIZE.fullmatch(token):
                sizes.append(float(token[:-1]))
            else:
                raise ValueError(
                    f"bad bet size {token!r} in {text!r}: expected '<fraction>p' such as '0.5p', 'a' or 'cap=<n>'"
                )
        return cls(tuple(sizes), all_in, cap)

    def __str__(self) -> str:
        parts = [f"{s:g}p" for s in self.sizes] + (["a"] if self.all_in else [])
        return ",".join(parts) + (f" cap={self.cap}" if self.cap is not None else "")

    def raise_to_amounts(self, own_pip: int, opponent_pip: int, pot: int, bounds: tuple[int, int]) -> list[int]:
        """Distinct raise-to amounts (chips) of these sizes at a decision, clamped to ``bounds``.

        ``pot`` is every chip committed so far (both players, earlier streets included).

        >>> StreetBets((0.5, 1.0)).raise_to_amounts(0, 0, 10, (2, 100))  # half pot, pot, all-in
        [5, 10, 100]
        """
        low, high = bounds
        cost = opponent_pip - own_pip
        amounts = {min(high, max(low, round(own_pip + cost + size * (pot + cost)))) for size in self.sizes}
        if self.all_in:
            amounts.add(high)
        return sorted(amounts)


@dataclass(frozen=True)
class BetAbstraction:
    """Sizes per betting street (preflop, flop, turn, river; run streets reuse the river) and bids."""

    streets: tuple[StreetBets, ...]
    bids: StreetBets = StreetBets((), all_in=False, cap=0)

    def __post_init__(self) -> None:
        if len(self.streets) != N_BETTING_STREETS or not all(isinstance(s, StreetBets) for s in self.streets):
            raise ValueError(
                f"streets must be {N_BETTING_STREETS} StreetBets (preflop, flop, turn, river), got {self.streets!r}"
            )

    @classmethod
    def parse(cls, text: str, bids: str = "") -> BetAbstraction:
        """Parse the text form (module docstring); ``bids`` lists auction bid sizes (pot fractions).

        The bids may also follow the streets as ``" | bids=<sizes>"`` (the :meth:`__str__` form).

        >>> BetAbstraction.parse("1p,a cap=2 | bids=0.5p,a").bids
        StreetBets(sizes=(0.5,), all_in=True, cap=None)
        >>> BetAbstraction.parse("1p | bids=0.5p", bids="1p")
        Traceback (most recent call last):
        ...
        ValueError: bids given twice: in '1p | bids=0.5p' and as bids='1p'
        """
        if "|" in text:
            text, _, suffix = text.partition("|")
            if not suffix.strip().startswith("bids="):
                raise ValueError(f"bad bet abstraction suffix {suffix.strip()!r}: expected '| bids=<sizes>'")
            if bids.strip():
                raise ValueError(f"bids given twice: in {text + '|' + suffix!r} and as bids={bids!r}")
            bids = suffix.strip()[len("bids=") :]
        parts = [part for part in text.split(";")]
        if len(parts) == 1:
            parts = parts * N_BETTING_STREETS
        elif len(parts) == 2:
            parts = parts[:1] + parts[1:] * (N_BETTING_STREETS - 1)
        if len(parts) != N_BETTING_STREETS:
            raise ValueError(f"bet abstraction {text!r} has {len(parts)} streets: give 1, 2 or {N_BETTING_STREETS}")
        bid_sizes = StreetBets.parse(bids) if bids.strip() else StreetBets((), all_in=False, cap=0)
        return cls(tuple(StreetBets.parse(part) for part in parts), bid_sizes)

    def street(self, game_street: int) -> StreetBets:
        """Sizes on a ``game.rules.nolimit`` street (0 preflop, 3 flop, 4 turn, 5 river, 6+ run streets)."""
        if game_street in GAME_STREETS:
            return self.streets[GAME_STREETS.index(game_street)]
        if game_street > 5:
            return self.streets[-1]
        raise ValueError(f"no betting street {game_street!r}: streets are 0, 3, 4, 5, 6, ...")

    def bid_amounts(self, pot: int, stack: int) -> list[int]:
        """Distinct bids (chips, 0 always included) for a pot and the bidder's stack.

        >>> BetAbstraction.parse("1p", bids="0.5p,1p,a").bid_amounts(20, 190)
        [0, 10, 20, 190]
        """
        amounts = {0} | {min(stack, round(size * pot)) for size in self.bids.sizes}
        if self.bids.all_in:
            amounts.add(stack)
        return sorted(amounts)

    def __str__(self) -> str:
        text = "; ".join(str(s) for s in self.streets)
        if self.bids.sizes or self.bids.all_in:
            text += f" | bids={self.bids}".replace(" cap=0", "")
        return text

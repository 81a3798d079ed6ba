"""Dividing the pot at a showdown by the N-player limit rules' *expectation* method.

Everything is derived from what each player put in (``contributions``, chips, one entry per seat,
folded players included) and how strong each claimant's hand is. The rules document (URCS
"Rules of Hold 'Em Poker for Computers", section *The Showdown*) gives each tied winner ``i`` an
expectation ``E_i``: the pot "if their bet had been the last bet made", which is
``sum_j min(c_j, c_i)``, and a share ``E_i / E`` of the pot, ``E = sum of E_i`` over the tied
players. It also says a tapped-out winner wins "only the amount in the pot at the time they
tapped out, and the remainder of the pot goes to the 2nd-highest hand(s)". We make the cascade
precise as follows (``divide_pot``):

1. Claimant groups are taken from the best hand down; equal strengths form one group.
2. A group may claim the chips between the level already claimed ``L`` (0 at first) and its
   largest contribution ``M``: ``G = sum_j (min(c_j, M) - min(c_j, L))``. Within the group,
   ``E_i = sum_j (min(c_j, c_i) - min(c_j, L))`` (0 for a player with ``c_i <= L``), and player
   ``i`` receives ``G * E_i / E``. When a tied player did not tap out, ``G`` is the whole rest of
   the pot and this is exactly the document's ``E_i / E`` rule; when every tied player tapped out,
   they share what the largest of their expectations covers (the document's cap), not more.
3. The level becomes ``M`` and the rest cascades to the next group.
4. Chips above every claimant's contribution (possible only when a bigger contributor mucked)
   go back to whoever put them in.

Shares are whole chips: each is rounded down and the odd chips left over are handed out one at a
time to the tied players in ``odd_chip_order`` (the dealer's choice the rules leave open; the
limit game passes first-position order, the button first). Without ties, this is the standard
side-pot division.

>>> divide_pot([30, 100, 100], [9, 9, 1], odd_chip_order=[0, 1, 2])  # tapped-out tie: E = 90 + 230
[65, 165, 0]
>>> divide_pot([30, 100, 100], [9, 5, 1], odd_chip_order=[0, 1, 2])  # the rest goes to 2nd best
[90, 140, 0]
"""

from __future__ import annotations

from collections.abc import Sequence


def expectation(contributions: Sequence[int], player: int, claimed_level: int = 0) -> int:
    """Chips ``player`` can claim: ``sum_j (min(c_j, c_player) - min(c_j, claimed_level))``.

    With ``claimed_level = 0`` this is the document's expectation ``E_i``: the pot as it would be
    had the player's last bet been the last bet of the hand.

    >>> expectation([30, 100, 100], 0), expectation([30, 100, 100], 1)
    (90, 230)
    >>> expectation([30, 100, 100], 1, claimed_level=30)
    140
    """
    own = contributions[player]
    return sum(max(min(chips, own) - min(chips, claimed_level), 0) for chips in contributions)


def divide_pot(
    contributions: Sequence[int],
    strengths: Sequence[int | None],
    odd_chip_order: Sequence[int],
) -> list[int]:
    """Chips each seat wins from the pot (a list as long as ``contributions``; it sums to the pot).

    ``contributions[j]`` is every chip seat ``j`` put in this hand (antes included, folded seats
    too); ``strengths[j]`` is the hand value of a claimant (higher wins, equal values tie) or
    ``None`` for a seat with no claim (folded or mucked). ``odd_chip_order`` lists seats in the
    order odd chips are given. See the module docstring for the rule.

    >>> divide_pot([50, 50, 20], [3, 3, None], odd_chip_order=[1, 2, 0])  # 120 split two ways
    [60, 60, 0]
    >>> divide_pot([5, 5, 5], [7, 7, 7], odd_chip_order=[2, 0, 1])  # 15 = 5+5+5, exact
    [5, 5, 5]
    >>> divide_pot([10, 10], [1, 1, 1], odd_chip_order=[0, 1])
    Traceback (most recent call last):
    ...
    ValueError: strengths has 3 entries but contributions has 2: one per seat
    """
    seats = len(contributions)
    if len(strengths) != seats:
        raise ValueError(f"strengths has {len(strengths)} entries but contributions has {seats}: one per seat")
    for seat, chips in enumerate(contributions):
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise ValueError(f"contribution {chips!r} of seat {seat} must be a non-negative int (chips)")
    if sorted(odd_chip_order) != list(range(seats)):
        raise ValueError(f"odd_chip_order {list(odd_chip_order)!r} must list every seat 0..{seats - 1} once")
    claimants = [seat for seat in range(seats) if strengths[seat] is not None]
    won = [0] * seats
    level = 0
    for strength in sorted({strengths[seat] for seat in claimants}, reverse=True):
        group = [seat for seat in claimants if strengths[seat] == strength]
        top = max(contributions[seat] for seat in group)
        if top <= level:
            continue
        expectations = {seat: expectation(contributions, seat, level) for seat in group}
        total_expectation = sum(expectations.values())
        group_pot = max(expectations.values())
        for seat in group:
            won[seat] += group_pot * expectations[seat] // total_expectation
        odd_chips = group_pot - sum(group_pot * expectations[seat] // total_expectation for seat in group)
        receivers = [seat for seat in odd_chip_order if expectations.get(seat, 0) > 0]
        for index in range(odd_chips):
            won[receivers[index % len(receivers)]] += 1
        level = top
    for seat, chips in enumerate(contributions):
        won[seat] += max(chips - level, 0)
    return won

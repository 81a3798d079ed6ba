"""LBR on exact tables conditions only on what the seat has seen (`solver.evaluate.lbr.seen_slots`).

The row filter of `solver.evaluate.kernels_lbr._lbr_table_hands` keeps the table rows whose seat
buckets equal the real deal's on the slots ``seen_slots`` marks at the decision. Checked on the
exact small variants (`abstraction.exact.small_variants`), independently of the tree's slots: at
every decision, two concrete deals that agree on every card the seat has been dealt and shown by
then (its hole cards, the board so far, River of Blood's runs so far, its own Swap replacements,
its Auction third card only if its bid won or tied on the path, its bounty rank) and differ in
everything else (the opponent's cards, later cards, a third card it did not win) must have equal
seat buckets on every marked slot.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from abstraction.exact.small_variants import SmallDeal, SmallVariant, build_small_variant
from game.cards.deck import N_RANKS
from game.rules.actions import ActionKind
from solver.evaluate.lbr import seen_slots

PAIRS = 12
"""Deal pairs checked per (seat, street, holds a third card) class of decisions."""
SMALL_GAMES = {
    "auction-document": ("auction", "document"),
    "auction-engine": ("auction", "engine"),
    "swap": ("swap", None),
    "river_of_blood": ("river_of_blood", None),
    "bounty": ("bounty", None),
}


@pytest.fixture(scope="module", params=list(SMALL_GAMES))
def small(request) -> SmallVariant:
    variant, rules = SMALL_GAMES[request.param]
    return build_small_variant(variant, rules=rules)


def _holds_third(small: SmallVariant, node: int, seat: int) -> bool:
    """Whether ``seat`` holds an Auction third card at ``node``, from the bids on its path (rules
    document: the higher bid wins a card, a tie gives both one)."""
    tree = small.game.tree
    parent = tree.parent_array()
    bids = {}
    child = node
    while parent[child] >= 0:
        if tree.action_kind[child] == int(ActionKind.BID):
            bids[int(tree.player[parent[child]])] = int(tree.action_amount[child])
        child = parent[child]
    return len(bids) == 2 and bids[seat] >= bids[1 - seat]


def _board_seen(street: int) -> int:
    """Board cards dealt by ``street`` (0 preflop, 1 flop, 2 turn, 3 river, 3 + k River of Blood's run k)."""
    return (0, 3, 4, 5)[street] if street <= 3 else 2 + street


def _redeal_unseen(
    small: SmallVariant, deal: SmallDeal, seat: int, street: int, third: bool, rng: np.random.Generator
) -> SmallDeal:
    """``deal`` with every card ``seat`` has not seen by ``street`` redrawn from the cards it has not seen
    (and the opponent's bounty rank redrawn). Swap's flips are kept (the small game's are fixed)."""
    n_board = _board_seen(street)
    kept = set(deal.hole[seat]) | set(deal.board[:n_board])
    if small.variant == "swap" and street >= 1:
        kept |= set(deal.replacements[2 * seat : 2 * seat + 2])  # flop flips all happen (probability 1)
    if third:
        kept.add(deal.thirds[seat])
    fresh = iter(int(c) for c in rng.permutation([c for c in small.deck if c not in kept]))

    def redraw(cards: tuple[int, ...], keep: set[int]) -> tuple[int, ...]:
        return tuple(c if c in keep else next(fresh) for c in cards)

    hole = list(deal.hole)
    hole[1 - seat] = redraw(deal.hole[1 - seat], set())
    ranks = list(deal.ranks)
    if small.variant == "bounty":
        ranks[1 - seat] = int(rng.integers(0, N_RANKS))
    return dataclasses.replace(
        deal,
        hole=tuple(hole),
        board=redraw(deal.board, kept),
        replacements=redraw(deal.replacements, kept),
        thirds=redraw(deal.thirds, kept),
        ranks=tuple(ranks),
    )


def _leaks(small: SmallVariant, seen: np.ndarray, seed: int = 0) -> list[str]:
    """Decisions whose marked slots tell apart two deals the seat cannot tell apart (empty: none)."""
    tree, bucket = small.game.tree, small.game.deals.bucket
    if small.variant == "swap":
        assert small.config.flop_swap_probability == 1.0 and small.config.turn_swap_probability == 0.0
    rng = np.random.default_rng(seed)
    classes: dict[tuple[int, int, bool], list[int]] = {}
    for node in np.flatnonzero(tree.infoset_group >= 0):
        seat = int(tree.player[node])
        classes.setdefault((seat, int(tree.street[node]), _holds_third(small, node, seat)), []).append(int(node))
    leaks = []
    for (seat, street, third), nodes in sorted(classes.items()):
        for _ in range(PAIRS):
            deal = small.random_deal(rng)
            rows = small.deal_row(deal), small.deal_row(_redeal_unseen(small, deal, seat, street, third, rng))
            differ = bucket[rows[0], seat] != bucket[rows[1], seat]
            leaks += [
                f"node {node} ({tree.history(node)}), seat {seat}: slots {np.flatnonzero(seen[node] & differ).tolist()}"
                for node in nodes
                if (seen[node] & differ).any()
            ]
    return leaks


def test_a_seat_conditions_only_on_cards_it_has_seen(small: SmallVariant) -> None:
    """Every variant and both Auction rule sets: no marked slot holds a card dealt after the decision
    or never shown to the seat, and the slot the decision itself reads is marked."""
    tree = small.game.tree
    seen = seen_slots(small.game, small.game.deals.bucket.shape[2])
    decisions = np.flatnonzero(tree.infoset_group >= 0)
    assert seen[decisions, tree.group_slot[tree.infoset_group[decisions]]].all()
    assert not seen[tree.infoset_group < 0].any()
    assert _leaks(small, seen) == []


def test_slots_dated_by_street_leak_only_the_auction_third_card(small: SmallVariant) -> None:
    """The check catches the old rule (a slot seen from the first street any group reads it): in the
    Auction it marks the three-card slots from the flop on, whoever holds the card, so a seat's belief
    conditioned on its third card before the auction and after losing it. Swap's swaps, River of
    Blood's runs and Bounty's ranks are dated right by street."""
    tree = small.game.tree
    first_street = np.full(small.game.deals.bucket.shape[2], 99)
    np.minimum.at(first_street, tree.group_slot, tree.group_street)
    street_dated = (first_street[None, :] <= tree.street[:, None]) & (tree.infoset_group >= 0)[:, None]
    leaks = _leaks(small, street_dated)
    if small.variant != "auction":
        assert leaks == []
        return
    assert leaks
    assert {leak.split("slots ")[1] for leak in leaks} <= {
        "[4]",
        "[5]",
        "[6]",
        "[4, 5]",
        "[4, 6]",
        "[5, 6]",
        "[4, 5, 6]",
    }

"""Tree hooks (`abstraction.hooks`) and the heads-up betting trees they shape, checked against the rules engine.

The key test draws real deals (cards, swaps, bounty ranks, third cards, run colours), walks a
random path of the abstract tree through the real round, and compares the terminal's value from
``terminal_values`` (weighted by the deal's outcomes, computed here in plain Python with
`game.cards.evaluator`) with the round's own ``payoffs()``. The same walk runs on deals drawn by
`abstraction.chance.fresh_chance` with its own outcome weights, so the tree and the sampler fit.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools

import numpy as np
import pytest

from abstraction.bets.bet_abstraction import BetAbstraction
from abstraction.bets.betting_tree import build_betting_tree, measure_betting_tree
from abstraction.cards.buckets import CardAbstraction
from abstraction.chance.fresh_chance import FreshChance
from abstraction.hooks import tree_hooks
from abstraction.tree import CHANCE, CHANCE_ACTION, DECISION, FOLD, SHOWDOWN, FlatTree, check_compatible
from game.cards.deck import parse_cards
from game.cards.evaluator import evaluate
from game.rules.actions import Action, ActionKind
from game.rules.bounty import BountyConfig, BountyRound
from game.rules.chance import RandomChance, ScriptedChance
from game.rules.nolimit import NoLimitRound, sample_legal_action
from game.rules.river_of_blood import RiverOfBloodConfig
from game.rules.variants import VARIANTS, get_variant, start_round
from tests.abstraction.size_support import assert_size_is_the_tree

RULES = ("document", "engine")
STACK = 30
BETS = BetAbstraction.parse("1p,a cap=2; 0.5p,a cap=2", bids="0.5p,a")
MAX_RUNS = 2
N_SLOTS = {"holdem": 4, "swap": 4, "bounty": 4, "auction": 7, "river_of_blood": 4 + MAX_RUNS}
CONTEXT_SIZE = {
    "holdem": [3],
    "swap": [3],
    "bounty": [4] * 4 + [12],
    "auction": [3] * 4,
    "river_of_blood": [3] * (MAX_RUNS + 1),
}
UNREACHABLE_CONTEXTS = {"auction": {3}}  # "no auction happened": a showdown always follows an auction
SWAP_PROBABILITY = 0.3
"""The test's own swap draws (the tree does not depend on the swap probabilities)."""
TIE_DEALS = 0.1
ROYAL_FLUSH = parse_cards("Th Jh Qh Kh Ah").tolist()
"""Red, so River of Blood runs on after it."""
FOLD_WEIGHT = 1 / 3
"""Relative chance a random path folds, so that showdowns come up often."""
ORDINAL = {0: 0, 3: 1, 4: 2, 5: 3}


def variant_config(variant: str, rules: str, **fields):
    return get_variant(variant).config_class(stack=STACK, rules=rules, **fields)


def real_config(variant: str, rules: str):
    """The rules the tree is exact for: River of Blood's board capped at 5 + MAX_RUNS cards."""
    if variant == "river_of_blood":
        return variant_config(variant, rules, max_board_cards=5 + MAX_RUNS)
    return variant_config(variant, rules)


@functools.cache
def tree_of(variant: str, rules: str) -> FlatTree:
    max_runs = MAX_RUNS if variant == "river_of_blood" else None
    return build_betting_tree(variant_config(variant, rules), BETS, (3,) * N_SLOTS[variant], max_runs=max_runs)


# ---------------------------------------------------------------------- deals and their outcomes, by hand
@dataclasses.dataclass(frozen=True)
class Deal:
    """Everything chance decides in one hand, in plain lists (cards are ints 0..51)."""

    hole: tuple[list[int], list[int]]
    board: list[int]
    """5 cards, River of Blood 5 + MAX_RUNS."""
    swaps: list[bool]
    """Swap: a flip per hole card (seat 0 first, second, seat 1 first, second) on the flop, then on the turn."""
    replacements: list[int]
    """Swap: the card each flip brings if it happens."""
    thirds: list[int]
    """Auction: each seat's candidate third card."""
    ranks: tuple[int, int]
    """Bounty ranks by seat."""


def draw_deal(variant: str, rng: np.random.Generator) -> Deal:
    """A uniform deal, or with probability TIE_DEALS one whose first five board cards are a royal
    flush (every showdown ties: splits are rare otherwise)."""
    cards = rng.permutation(52).tolist()
    n_board = 5 + (MAX_RUNS if variant == "river_of_blood" else 0)
    if rng.random() < TIE_DEALS:
        cards = [card for card in cards if card not in ROYAL_FLUSH]
        cards[4:4] = ROYAL_FLUSH
    board, rest = cards[4 : 4 + n_board], cards[4 + n_board :]
    swaps = (rng.random(8) < SWAP_PROBABILITY).tolist() if variant == "swap" else [False] * 8
    ranks = tuple(int(rank) for rank in rng.integers(0, 13, size=2))
    return Deal((cards[0:2], cards[2:4]), board, swaps, rest[:8], rest[8:10], ranks)


def red(card: int) -> int:
    return int((card & 3) in (1, 2))


def final_hands(deal: Deal) -> list[list[int]]:
    """The two-card hands after every swap."""
    hands = [list(deal.hole[0]), list(deal.hole[1])]
    for flip, (happened, card) in enumerate(zip(deal.swaps, deal.replacements, strict=True)):
        if happened:
            hands[flip % 4 // 2][flip % 2] = card
    return hands


def outcome_of(hand_0: list[int], hand_1: list[int], board: list[int]) -> int:
    """Showdown outcome: 0 seat 0 wins, 1 tie, 2 seat 1 wins."""
    value_0, value_1 = evaluate(hand_0 + board), evaluate(hand_1 + board)
    return 0 if value_0 > value_1 else 2 if value_0 < value_1 else 1


def hits(deal: Deal, n_board: int) -> int:
    """Bounty hit pattern hit0 + 2 hit1 on the first ``n_board`` board cards."""
    hit = [any(card >> 2 == deal.ranks[seat] for card in deal.hole[seat] + deal.board[:n_board]) for seat in (0, 1)]
    return int(hit[0]) + 2 * int(hit[1])


def one_hot(size: int, index: int) -> list[float]:
    return [1.0 if i == index else 0.0 for i in range(size)]


def deal_weights(variant: str, deal: Deal) -> np.ndarray:
    """The deal's outcome weights of every context, in context order (the spec's definitions)."""
    hole, board = deal.hole, deal.board
    if variant == "bounty":
        columns = [one_hot(4, hits(deal, n_board)) for n_board in (0, 3, 4, 5)]
        columns.append(one_hot(12, 4 * outcome_of(hole[0], hole[1], board) + hits(deal, 5)))
    elif variant == "auction":
        three = [hole[0] + [deal.thirds[0]], hole[1] + [deal.thirds[1]]]
        pairs = [(three[0], hole[1]), (hole[0], three[1]), (three[0], three[1]), (hole[0], hole[1])]
        columns = [one_hot(3, outcome_of(a, b, board)) for a, b in pairs]
    elif variant == "river_of_blood":
        columns = [one_hot(3, outcome_of(hole[0], hole[1], board[: 5 + runs])) for runs in range(MAX_RUNS + 1)]
    else:
        hands = final_hands(deal)
        columns = [one_hot(3, outcome_of(hands[0], hands[1], board))]
    return np.array([weight for column in columns for weight in column])


# ---------------------------------------------------------------------- paths through the tree and the real round
def children(tree: FlatTree, node: int) -> range:
    start = int(tree.child_start[node])
    return range(start, start + int(tree.n_children[node]))


def random_path(tree: FlatTree, deal: Deal, rng: np.random.Generator) -> list[int]:
    """Root to a terminal: uniform children at decisions (folds less likely), the deal's colour at chance."""
    path = [0]
    while tree.kind[path[-1]] in (DECISION, CHANCE):
        node = path[-1]
        options = children(tree, node)
        if tree.kind[node] == CHANCE:
            path.append(options[red(deal.board[4 + int(tree.context[node])])])
            continue
        weights = np.array([FOLD_WEIGHT if tree.action_kind[c] == ActionKind.FOLD else 1.0 for c in options])
        path.append(options[int(rng.choice(len(options), p=weights / weights.sum()))])
    return path


def third_cards(tree: FlatTree, deal: Deal, path: list[int]) -> list[int]:
    """The Auction's third cards in deal order for this path: the winner's, or both on a tie (0-0 when
    both were all-in before the flop under document rules)."""
    bids = {
        int(tree.player[parent]): int(tree.action_amount[node])
        for parent, node in itertools.pairwise(path)
        if tree.action_kind[node] == ActionKind.BID
    }
    if len(bids) == 2 and bids[0] != bids[1]:
        return [deal.thirds[0 if bids[0] > bids[1] else 1]]
    return list(deal.thirds) if bids or tree.street[path[-1]] >= 1 else []


def scripted_chance(variant: str, deal: Deal, tree: FlatTree, path: list[int]) -> ScriptedChance:
    """The deal in the order the real round deals it (`game.rules.nolimit`'s deal order)."""
    hole, board = deal.hole, deal.board
    deck = hole[0] + hole[1] + board[:3]
    if variant == "swap":
        swapped = [card for happened, card in zip(deal.swaps, deal.replacements, strict=True) if happened]
        flop_swaps = sum(deal.swaps[:4])
        deck += swapped[:flop_swaps] + board[3:4] + swapped[flop_swaps:] + board[4:5]
        return ScriptedChance(deck, {"swap": deal.swaps})
    if variant == "auction":
        return ScriptedChance(deck + third_cards(tree, deal, path) + board[3:])
    return ScriptedChance(deck + board[3:])


def terminal_value(tree: FlatTree, node: int, weights: np.ndarray) -> np.ndarray:
    """The spec's value of terminal ``node`` for a deal with outcome ``weights``."""
    context, row = int(tree.context[node]), int(tree.value_row[node])
    if context < 0:
        return tree.terminal_values[row]
    offset, size = int(tree.context_offset[context]), int(tree.context_size[context])
    return weights[offset : offset + size] @ tree.terminal_values[row : row + size]


def play(variant: str, rules: str, deal: Deal, path: list[int], tree: FlatTree | None = None) -> NoLimitRound:
    """Play ``path``'s actions on the real round of ``deal``, checking actors, chips and chance colours."""
    tree = tree_of(variant, rules) if tree is None else tree
    match_state = deal.ranks if variant == "bounty" else None
    round_ = start_round(
        real_config(variant, rules), scripted_chance(variant, deal, tree, path), match_state=match_state
    )
    for parent, node in itertools.pairwise(path):
        if tree.action_kind[node] == CHANCE_ACTION:
            card = 4 + int(tree.context[parent])
            assert len(round_.board) > card and red(round_.board[card]) == tree.action_amount[node]
            continue
        assert round_.to_act == tree.player[parent]
        round_.apply(Action(ActionKind(int(tree.action_kind[node])), int(tree.action_amount[node])))
        assert round_.contributions == tuple(tree.committed[node].astype(int))
    return round_


def check_random_paths(variant: str, rules: str, n_cases: int, seed: int) -> None:
    tree = tree_of(variant, rules)
    assert tree.context_size.tolist() == CONTEXT_SIZE[variant]
    rng = np.random.default_rng(seed)
    contexts_seen = set()
    for _ in range(n_cases):
        deal = draw_deal(variant, rng)
        path = random_path(tree, deal, rng)
        round_ = play(variant, rules, deal, path)
        terminal = path[-1]
        assert round_.is_terminal and tree.kind[terminal] in (FOLD, SHOWDOWN)
        expected = round_.payoffs()
        value = terminal_value(tree, terminal, deal_weights(variant, deal))
        assert value.tolist() == expected.tolist(), (tree.history(terminal), deal, round_)
        contexts_seen.add(int(tree.context[terminal]))
    assert contexts_seen >= set(range(len(CONTEXT_SIZE[variant]))) - UNREACHABLE_CONTEXTS.get(variant, set())


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_terminal_values_equal_the_rules_payoffs_on_random_deals_and_paths(variant: str, rules: str) -> None:
    check_random_paths(variant, rules, n_cases=2000, seed=sorted(VARIANTS).index(variant) + 10 * RULES.index(rules))


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_terminal_values_equal_the_rules_payoffs_many_cases(variant: str, rules: str) -> None:
    check_random_paths(
        variant, rules, n_cases=10_000, seed=1000 + sorted(VARIANTS).index(variant) + 10 * RULES.index(rules)
    )


# ---------------------------------------------------------------------- registry and builder arguments
def test_every_variant_has_hooks_and_unknown_names_are_refused() -> None:
    for name in VARIANTS:
        assert tree_hooks(name).variant == name
    with pytest.raises(ValueError, match="known are auction, bounty, holdem, river_of_blood, swap"):
        tree_hooks("blotto")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_measure_agrees_with_the_built_tree(variant: str) -> None:
    for rules in RULES:
        tree = tree_of(variant, rules)
        max_runs = MAX_RUNS if variant == "river_of_blood" else None
        size = measure_betting_tree(variant_config(variant, rules), BETS, (3,) * N_SLOTS[variant], max_runs=max_runs)
        assert_size_is_the_tree(size, tree)
        assert tree.n_slots == N_SLOTS[variant]


def test_bucket_counts_are_per_slot_and_max_runs_only_for_river_of_blood() -> None:
    with pytest.raises(
        ValueError, match=r"7 counts >= 1 for auction's slots \(preflop, flop, turn, river, flop, 3 cards"
    ):
        build_betting_tree(variant_config("auction", "document"), BETS, (3, 3, 3, 3))
    with pytest.raises(ValueError, match="max_runs is River of Blood's run cap"):
        build_betting_tree(variant_config("holdem", "document"), BETS, (3,) * 4, max_runs=2)
    with pytest.raises(ValueError, match="max_runs must be an int >= 0"):
        build_betting_tree(variant_config("river_of_blood", "document"), BETS, (3,) * 4, max_runs=-1)
    with pytest.raises(ValueError, match="max_nodes=50"):
        build_betting_tree(variant_config("holdem", "document"), BETS, (3,) * 4, max_nodes=50)
    with pytest.raises(TypeError, match="NoLimitConfig"):
        build_betting_tree("holdem", BETS, (3,) * 4)


# ---------------------------------------------------------------------- River of Blood: chance nodes
def parents(tree: FlatTree) -> np.ndarray:
    return tree.parent_array()


def test_river_of_blood_check_down_tree_has_one_chance_node_per_colour_card() -> None:
    # No bets (cap=0): fold or limp, then check-check on every street. The river's colour (chance
    # slot 0) decides run 1, run card 1's colour (slot 1) run 2; run card 2 is the cap's last card.
    tree = build_betting_tree(RiverOfBloodConfig(stack=3), BetAbstraction.parse("cap=0"), (1,) * 6)
    chance = np.flatnonzero(tree.kind == CHANCE)
    assert tree.context[chance].tolist() == [0, 1] and tree.street[chance].tolist() == [3, 4]
    assert [tree.history(int(n)) for n in chance] == ["CK/KK/KK/", "CK/KK/KK/~1KK/"]
    for node in chance:
        kids = list(children(tree, int(node)))
        assert tree.action_kind[kids].tolist() == [CHANCE_ACTION] * 2 and tree.action_amount[kids].tolist() == [0, 1]
        assert (tree.kind[kids] == DECISION).all() and len(set(tree.infoset_group[kids].tolist())) == 2
    showdowns = np.flatnonzero(tree.kind == SHOWDOWN)
    assert tree.context[showdowns].tolist() == [0, 1, 2] and tree.street[showdowns].tolist() == [3, 4, 5]
    assert tree.chance_size.tolist() == [2, 2] and tree.n_slots == 6


@pytest.mark.parametrize("rules", RULES)
def test_river_of_blood_paths_pass_one_chance_node_per_colour_card(rules: str) -> None:
    tree = tree_of("river_of_blood", rules)
    parent = parents(tree)
    for node in np.flatnonzero(tree.kind == CHANCE):
        assert tree.n_children[node] == 2 and tree.street[node] == 3 + tree.context[node]
    for terminal in np.flatnonzero(tree.kind == SHOWDOWN):
        colours = []  # chance children on the path, root first
        node = int(terminal)
        while node > 0:
            if tree.kind[parent[node]] == CHANCE:
                colours.append((int(tree.context[parent[node]]), int(tree.action_amount[node])))
            node = int(parent[node])
        colours.reverse()
        runs = int(tree.context[terminal])
        assert [slot for slot, _ in colours] == list(range(len(colours)))
        # c runs: c red cards, then a black one unless the cap ended the run
        assert [colour for _, colour in colours] == [1] * runs + ([0] if runs < MAX_RUNS else [])


def test_river_of_blood_all_in_chains_chance_nodes_only_under_document_rules() -> None:
    for rules, chained in (("document", True), ("engine", False)):
        tree = tree_of("river_of_blood", rules)
        chance = np.flatnonzero(tree.kind == CHANCE)
        red_children = [int(tree.child_start[n]) + 1 for n in chance if tree.context[n] == 0]
        assert any(tree.kind[child] == CHANCE for child in red_children) == chained


def test_river_of_blood_run_cap() -> None:
    bets = BetAbstraction.parse("cap=0")
    assert not (build_betting_tree(RiverOfBloodConfig(stack=3), bets, (1,) * 4, max_runs=0).kind == CHANCE).any()
    capped = build_betting_tree(RiverOfBloodConfig(stack=3, max_board_cards=6), bets, (1,) * 5, max_runs=3)
    assert capped.chance_size.tolist() == [2] and capped.context_size.tolist() == [3, 3]
    default = build_betting_tree(RiverOfBloodConfig(stack=3), bets, (1,) * 6)
    assert (
        default.fingerprint()
        == build_betting_tree(RiverOfBloodConfig(stack=3), bets, (1,) * 6, max_runs=2).fingerprint()
    )


# ---------------------------------------------------------------------- Auction: slots, sealed and sequential bids
def replay(tree: FlatTree, node: int, config, match_state=None) -> NoLimitRound:
    """The real round (random cards) after the actions on the path to ``node`` (no chance nodes here)."""
    parent = parents(tree)
    path = []
    while node > 0:
        path.append(node)
        node = int(parent[node])
    round_ = start_round(config, RandomChance(0), match_state=match_state)
    for step in reversed(path):
        round_.apply(Action(ActionKind(int(tree.action_kind[step])), int(tree.action_amount[step])))
    return round_


@pytest.mark.parametrize("rules", RULES)
def test_auction_slots_are_the_street_plus_three_for_three_cards_and_bids_read_the_flop(rules: str) -> None:
    tree = tree_of("auction", rules)
    decisions = np.flatnonzero(tree.kind == DECISION)
    seen = set()
    for node in [0, *np.random.default_rng(1).choice(decisions, 400, replace=False).tolist()]:
        round_ = replay(tree, node, variant_config("auction", rules))
        seat = round_.to_act
        if ActionKind.BID in round_.legal_actions():
            expected = 1
        else:
            expected = ORDINAL[round_.street] + (3 if len(round_.hole_cards[seat]) == 3 else 0)
        assert tree.group_slot[tree.infoset_group[node]] == expected
        seen.add(expected)
    assert seen == set(range(7))


@pytest.mark.parametrize("rules, sealed", [("document", True), ("engine", False)])
def test_auction_second_bid_sees_the_first_only_in_the_engine(rules: str, sealed: bool) -> None:
    tree = tree_of("auction", rules)
    parent = parents(tree)
    bid = int(ActionKind.BID)
    second = [
        int(n)
        for n in np.flatnonzero(tree.kind == DECISION)
        if tree.action_kind[n] == bid and tree.action_kind[tree.child_start[n]] == bid
    ]
    assert second
    groups_by_first: dict[int, set[int]] = {}
    for node in second:
        groups_by_first.setdefault(int(parent[node]), set()).add(int(tree.infoset_group[node]))
    if sealed:  # one group per first-bid node, shared by every first bid
        assert all(len(groups) == 1 for groups in groups_by_first.values())
        assert len({int(tree.infoset_group[n]) for n in second}) == len(groups_by_first)
    else:
        assert len({int(tree.infoset_group[n]) for n in second}) == len(second)
    assert all(tree.group_slot[tree.infoset_group[n]] == 1 for n in second)


# ---------------------------------------------------------------------- Bounty: contexts and payoff rows
@pytest.mark.parametrize("rules", RULES)
def test_bounty_folds_have_their_streets_context_and_showdowns_context_4(rules: str) -> None:
    tree = tree_of("bounty", rules)
    folds = np.flatnonzero(tree.kind == FOLD)
    assert (tree.context[folds] == tree.street[folds]).all()
    assert set(tree.street[folds].tolist()) == {0, 1, 2, 3}
    assert (tree.context[tree.kind == SHOWDOWN] == 4).all()
    # The dealer folds preflop: the big blind wins 1, or 1.5 * 1 + 10 = 11.5 rounded up (12) if it hits.
    fold = int(tree.child_start[0])
    assert tree.history(fold) == "F"
    assert tree.terminal_values[tree.value_row[fold] : tree.value_row[fold] + 4].tolist() == [
        [-1, 1],
        [-1, 1],
        [-12, 12],
        [-12, 12],
    ]


@pytest.mark.parametrize("rules", RULES)
def test_bounty_payoffs_for_the_real_hits_and_winner_is_payoffs(rules: str) -> None:
    rng = np.random.default_rng(7)
    config = BountyConfig(stack=60, rules=rules)
    for case in range(400):
        ranks = tuple(int(r) for r in rng.integers(0, 13, size=2))
        round_ = BountyRound(config, RandomChance(case), match_state=ranks)
        while not round_.is_terminal:
            round_.apply(sample_legal_action(round_, rng))
        last = round_.history[-1]
        if last.action.kind is ActionKind.FOLD:
            winner = 1 - last.seat
        else:
            values = [evaluate(list(round_.hole_cards[seat]) + list(round_.board)) for seat in (0, 1)]
            winner = None if values[0] == values[1] else int(values[1] > values[0])
        assert round_.payoffs_for(round_.bounty_hits(), winner) == tuple(round_.payoffs().tolist())
    with pytest.raises(ValueError, match="no payoffs yet"):
        BountyRound(config, RandomChance(0), match_state=(0, 0)).payoffs_for((True, False), 0)


# ---------------------------------------------------------------------- the tree fits fresh chance's deals
@pytest.mark.parametrize("variant", ["holdem", "bounty", "auction", "river_of_blood"])
def test_fresh_chance_deals_fit_the_tree_and_value_its_terminals_as_the_rules_do(variant: str) -> None:
    # Swap is left out: its deals do not record which hole cards were swapped (its tree is Hold'em's).
    blank = CardAbstraction.blank((169, 3, 3, 3))
    if variant == "bounty":
        blank = dataclasses.replace(blank, config=dataclasses.replace(blank.config, variant="bounty"))
    rules = "document"
    max_runs = MAX_RUNS if variant == "river_of_blood" else None
    chance = FreshChance(variant_config(variant, rules), blank, max_runs=max_runs)
    tree = build_betting_tree(variant_config(variant, rules), BETS, chance.n_buckets.tolist(), max_runs=max_runs)
    deals, cards, ranks = chance.sample_with_cards(first=0, count=300, seed=11)
    check_compatible(tree, deals)
    rng = np.random.default_rng(3)
    for row in range(deals.n_deals):
        drawn = [int(card) for card in cards[row] if card >= 0]
        spare = [card for card in range(52) if card not in drawn]
        board = drawn[4:7] + drawn[9:11] if variant == "auction" else drawn[4:]
        thirds = drawn[7:9] if variant == "auction" else spare[8:10]
        deal = Deal((drawn[0:2], drawn[2:4]), board, [False] * 8, spare[:8], thirds, tuple(ranks[row].tolist()))
        assert deals.chance[row].tolist() == [red(card) for card in board[4 : 4 + tree.n_chance_slots]]
        path = random_path(tree, deal, rng)
        round_ = play(variant, rules, deal, path, tree)
        assert terminal_value(tree, path[-1], deals.weight[row]).tolist() == round_.payoffs().tolist()

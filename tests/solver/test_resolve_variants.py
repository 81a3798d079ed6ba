"""Re-solving the final street of River of Blood and Bounty: Bounty's terminal values against the
rules' own payoffs, convergence of the river subgames, and the final-street test of River of Blood."""

from __future__ import annotations

import numpy as np
import pytest

from abstraction.bets.bet_abstraction import StreetBets
from game.cards.deck import parse_cards
from game.play.bots import passive_action
from game.rules.actions import Action
from game.rules.bounty import BountyConfig, BountyRound
from game.rules.chance import ScriptedChance
from game.rules.holdem import HoldemConfig
from game.rules.river_of_blood import RiverOfBloodConfig
from solver.bots.resolving_bot import RIVER, final_street
from solver.resolve.bounty import BountyRules, bounty_hands, rank_hits, terminal_coefficients
from solver.resolve.hands import river_hands
from solver.resolve.kernels_bounty import _bounty_value
from solver.resolve.ranges import combo_index
from solver.resolve.resolver import SubgameSolver
from solver.resolve.tree import DECISION, FOLD, SHOWDOWN, SubgameConfig, build_subgame_tree

BETS = StreetBets.parse("0.5p,1p,a cap=2")


def _path(tree, node: int) -> list[int]:
    """The nodes from the root's first child down to ``node``."""
    parent = {child: n for n in range(tree.n_nodes) for child in tree.children(n)}
    path = [node]
    while path[-1] in parent and parent[path[-1]] != 0:
        path.append(parent[path[-1]])
    return path[::-1]


def _real_action(tree, child: int) -> Action:
    text = tree.describe(child)
    if tree.kind[child] == FOLD:
        return Action.fold()
    if text in ("check", "call"):
        return Action.check() if text == "check" else Action.call()
    return Action.raise_to(int(text.split(" to ")[1]))


@pytest.mark.parametrize("rules", ["document", "engine"])
def test_bounty_terminal_values_equal_the_rules_payoffs(rules: str) -> None:
    """On 60 sampled deals (hole cards, board, both bounty ranks) and a random fold or showdown of
    the river tree (raised pots too): the kernel's value of the traverser's type (hand, hit) against
    the opponent's type alone equals `BountyRound.payoffs` after playing the same river actions, for
    both seats; the 1.5x + 10 awards, the tie awards and the rounding rule all occur."""
    config = BountyConfig(rules=rules)
    rng = np.random.default_rng(0)
    outcomes = set()
    for _ in range(60):
        deck = rng.permutation(52)[:9].tolist()
        ranks = tuple(int(r) for r in rng.integers(0, 13, size=2))
        if rng.random() < 0.3:  # a tie: both play the board (a straight flush of the board's 5)
            deck = [*rng.permutation(32)[:4].tolist(), 48, 44, 40, 36, 32]
        round_ = BountyRound(config, ScriptedChance(deck), match_state=ranks)
        while round_.street < RIVER:
            round_.apply(passive_action(round_.observation(round_.to_act)))
        board = deck[4:]
        hands = bounty_hands(board, BountyRules.of(config))
        tree = build_subgame_tree(
            SubgameConfig(pot_chips=round_.contributions, stacks=round_.stacks, first_player=round_.to_act, bets=BETS)
        )
        coefficients = terminal_coefficients(tree, hands.rules)
        terminals = np.flatnonzero((tree.kind == FOLD) | (tree.kind == SHOWDOWN))
        node = int(rng.choice(terminals))
        for child in _path(tree, node):
            round_.apply(_real_action(tree, child))
        payoffs = round_.payoffs()
        hits = rank_hits(board)
        holes = [deck[0:2], deck[2:4]]
        types = [
            hands.type_of(combo_index(hole), bool(hits[combo_index(hole), ranks[seat]]))
            for seat, hole in enumerate(holes)
        ]
        for seat in (0, 1):
            reach = np.zeros(hands.n_hands)
            reach[types[1 - seat]] = 1.0
            out = np.zeros(hands.n_hands)
            _bounty_value(
                hands.layout, coefficients[node, seat], reach, np.zeros((2, 52)), np.zeros((6, hands.n_base)), out
            )
            assert out[types[seat]] == pytest.approx(payoffs[seat], abs=1e-9), (tree.describe(node), seat, ranks)
        outcomes.add(
            (int(tree.kind[node]), tuple(bool(hits[combo_index(h), r]) for h, r in zip(holes, ranks, strict=True)))
        )
    assert len(outcomes) >= 6  # folds and showdowns with several hit patterns were checked


@pytest.mark.jit_only  # hundreds of CFR iterations over ~2,000 hands: minutes as plain Python
def test_bounty_river_resolve_converges_to_equilibrium() -> None:
    """A Bounty river (2,162 types, random ranges, the opponent's hit bits at the uniform rank prior's
    odds): NashConv of the re-solve falls tenfold from 30 to 600 iterations, to under 0.1% of the pot."""
    board = parse_cards("Ah Kd 7c 7s 2h")
    hands = bounty_hands(board, BountyRules.of(BountyConfig(rules="engine")))
    hits = rank_hits(board)
    rng = np.random.default_rng(1)
    weights = rng.random((2, 1326))
    ranges = np.stack([hands.type_range(weights[0], hits[:, 4]), hands.type_range(weights[1], hits.mean(axis=1))])
    tree = build_subgame_tree(SubgameConfig(pot_chips=(20, 20), stacks=(380, 380), bets=BETS))
    solver = SubgameSolver(tree, hands, ranges).run(30)
    early = solver.exploitability().nash_conv_pot_fraction
    late = solver.run(570).exploitability().nash_conv_pot_fraction
    assert late < early / 10 and late < 1e-3, (early, late)


@pytest.mark.jit_only  # hundreds of CFR iterations over ~2,000 hands: minutes as plain Python
def test_bounty_types_pay_more_than_holdem_for_a_hit() -> None:
    """With no bounty bonus and multiplier 1 the Bounty types' game is Hold'em's: against the same
    strategy each type's root value is its hand's Hold'em value (the opponent's two hit halves sum to
    its Hold'em range); with the default payoff a hitting type is worth at least its missing twin."""
    board = parse_cards("Qh Td 8c 5s 3h")
    plain = river_hands(board)
    tree = build_subgame_tree(SubgameConfig(pot_chips=(20, 20), stacks=(180, 180), bets=BETS))
    rng = np.random.default_rng(2)
    weights = rng.random(1326)
    holdem = SubgameSolver(tree, plain, np.stack([plain.range_from_1326(weights)] * 2)).run(50)
    strategy = holdem.average_strategy()
    for rules, equal in ((BountyRules(1.0, 0, True), True), (BountyRules(), False)):
        hands = bounty_hands(board, rules)
        ranges = np.stack([hands.type_range(weights, np.full(1326, 0.5))] * 2)
        bounty = SubgameSolver(tree, hands, ranges)
        values = bounty.values(np.tile(strategy, (1, 2)), 0, best=False)
        n = hands.n_base
        if equal:
            reference = holdem.values(strategy, 0, best=False)
            assert np.allclose(values[:n], reference) and np.allclose(values[n:], reference)
        else:
            assert np.all(values[n:] >= values[:n] - 1e-9) and values[n:].sum() > values[:n].sum() + 1


def test_final_street_follows_the_rules_flags() -> None:
    """Hold'em's river is final, its turn is not; River of Blood's street is final when its last card is
    black or the board is at the cap, and a red last card brings a run card."""
    holdem, blood = HoldemConfig(), RiverOfBloodConfig()
    assert final_street(holdem, parse_cards("Ah Kd 7c 7s 2h")) and not final_street(holdem, parse_cards("Ah Kd 7c 7s"))
    assert final_street(blood, parse_cards("Ah Kd 7c 7s 2c"))  # black river
    assert not final_street(blood, parse_cards("Ah Kd 7c 7s 2h"))  # red river: a run card follows
    assert not final_street(blood, parse_cards("Ah Kd 7c 7s 2h 3d"))  # red run card
    assert final_street(blood, parse_cards("Ah Kd 7c 7s 2h 3d 4s"))  # black run card
    assert final_street(RiverOfBloodConfig(max_board_cards=6), parse_cards("Ah Kd 7c 7s 2h 3d"))  # at the cap


@pytest.mark.jit_only  # hundreds of CFR iterations over ~2,000 hands: minutes as plain Python
def test_river_of_blood_long_board_resolve_converges() -> None:
    """A final run street of River of Blood (eight board cards: best five of ten) re-solves like a river:
    every hand the board leaves, NashConv under 0.2% of the pot after 500 iterations."""
    hands = river_hands("Ah Kd 7c 7s 2h 3d 9h Qs")
    assert hands.n_hands == 44 * 43 // 2
    tree = build_subgame_tree(SubgameConfig(pot_chips=(30, 30), stacks=(370, 370), bets=BETS))
    rng = np.random.default_rng(3)
    solver = SubgameSolver(tree, hands, rng.random((2, hands.n_hands))).run(500)
    assert solver.exploitability().nash_conv_pot_fraction < 2e-3
    assert tree.kind[0] == DECISION

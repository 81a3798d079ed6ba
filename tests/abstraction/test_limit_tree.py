"""The N-player limit abstract game's tree (abstraction.bets.limit_tree) and fresh chance (abstraction.chance.limit_chance)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from abstraction.bets.limit_tree import build_limit_tree, count_nodes, max_commitment, showdown_contexts
from abstraction.cards.buckets import BucketLookup, CardAbstraction
from abstraction.chance.limit_chance import LimitChance, all_contexts
from abstraction.exact.exact_games import showdown_outcomes
from abstraction.exact.small_limit import build_small_limit_game
from abstraction.tree import DECISION, FOLD, SHOWDOWN
from game.rules.chance import ScriptedChance
from game.rules.limit import LimitConfig, LimitRound, best_hand

BUCKETS = (169, 8, 8, 8)


@pytest.fixture(scope="module")
def abstraction() -> CardAbstraction:
    return CardAbstraction.blank(BUCKETS)


@pytest.fixture(scope="module")
def trees() -> dict[int, tuple[LimitConfig, object]]:
    configs = {2: LimitConfig(n_players=2, max_raises=2), 3: LimitConfig(n_players=3, max_raises=1)}
    return {n: (config, build_limit_tree(config, BUCKETS)) for n, config in configs.items()}


def _child(tree, node: int, move) -> int:
    start = int(tree.child_start[node])
    for child in range(start, start + int(tree.n_children[node])):
        if tree.action_kind[child] == int(move.kind) and tree.action_amount[child] == move.amount:
            return child
    raise AssertionError(f"move {move} not below node {node}")


@pytest.mark.parametrize("n_players", [2, 3])
def test_tree_payoffs_match_the_engine_on_random_deals_and_paths(trees, n_players: int) -> None:
    config, tree = trees[n_players]
    contexts = showdown_contexts(tree)
    offsets = tree.context_offset
    rng = np.random.default_rng(n_players)
    speaking = dataclasses.replace(config, cards_speak=True)
    showdowns = folds = 0
    for _ in range(300):
        cards = rng.permutation(52)[: 2 * n_players + 5].tolist()
        round_ = LimitRound(speaking, chance=ScriptedChance(cards))
        node = 0
        while not round_.is_terminal:
            assert tree.kind[node] == DECISION and tree.player[node] == round_.to_act
            moves = round_.legal_moves()
            assert int(tree.n_children[node]) == len(moves)
            # a bias towards calls and raises reaches showdowns with raises
            weights = np.array([0.2 if move.kind.name == "FOLD" else 1.0 for move in moves])
            move = moves[int(rng.choice(len(moves), p=weights / weights.sum()))]
            node = _child(tree, node, move)
            round_.apply(move)
            assert tree.committed[node].tolist() == list(round_.contributions)
        row = int(tree.value_row[node])
        if tree.kind[node] == FOLD:
            folds += 1
            assert tree.context[node] == -1
            expected = tree.terminal_values[row]
        else:
            showdowns += 1
            assert tree.kind[node] == SHOWDOWN
            alive = contexts[int(tree.context[node])]
            assert alive == tuple(seat for seat in range(n_players) if not round_.folded[seat])
            board = cards[2 * n_players :]
            values = {
                seat: best_hand(cards[2 * seat : 2 * seat + 2], board, config.must_use_hole_card)[0] for seat in alive
            }
            winners = tuple(seat for seat in alive if values[seat] == max(values.values()))
            outcome = showdown_outcomes(alive, n_players).index(winners)
            expected = tree.terminal_values[row + outcome]
            assert offsets[int(tree.context[node])] >= 0
        assert expected.tolist() == round_.payoffs().tolist()
    assert showdowns > 20 and folds > 20


def test_tree_shape_and_sizes(trees) -> None:
    config, tree = trees[3]
    assert tree.n_nodes == count_nodes(config) == 14035
    assert tree.n_players == 3 and tree.n_slots == 4
    assert showdown_contexts(tree) == all_contexts(3)
    assert tree.context_size.tolist() == [7, 3, 3, 3]
    assert np.array_equal(tree.n_buckets, np.array(BUCKETS)[tree.group_slot])
    assert np.allclose(tree.terminal_values.sum(axis=1), 0.0)  # net chips: zero-sum
    assert count_nodes(LimitConfig(n_players=3, max_raises=2)) == 296_913
    assert count_nodes(LimitConfig(n_players=3)) == 5_354_611  # the rules' default max_raises = 3


def test_no_tap_out_bound_is_exact() -> None:
    deep = LimitConfig(n_players=3, max_raises=1, buy_in=10**6)
    tight = dataclasses.replace(deep, buy_in=max_commitment(deep))
    assert build_limit_tree(tight, BUCKETS).fingerprint() == build_limit_tree(deep, BUCKETS).fingerprint()
    with pytest.raises(ValueError, match=r"assumes nobody taps out.*buy_in is 124 chips"):
        build_limit_tree(dataclasses.replace(deep, buy_in=max_commitment(deep) - 1), BUCKETS)


def test_bad_tree_configs() -> None:
    with pytest.raises(ValueError, match=r"seats 2..6 players, the rules 7"):
        build_limit_tree(LimitConfig(n_players=7, max_raises=0), BUCKETS)
    with pytest.raises(ValueError, match="5,354,611 nodes, more than max_nodes=2,000,000"):
        build_limit_tree(LimitConfig(n_players=3), BUCKETS, max_nodes=2_000_000)
    with pytest.raises(ValueError, match=r"buckets_per_street must be 4 counts >= 1 \(one per betting round"):
        build_limit_tree(LimitConfig(), (8, 8))
    with pytest.raises(TypeError, match="LimitConfig"):
        build_limit_tree({"n_players": 3}, BUCKETS)  # type: ignore[arg-type]


def test_small_limit_game_deals_are_the_engines() -> None:
    """The exact small-deck game (abstraction.exact.small_limit): every 5th deal checked down through
    the engine pays what the deal's outcome weights pick from the tree's showdown rows; buckets are
    the views the engine shows each seat; the tree has one bucket slot per betting round."""
    config = LimitConfig(n_players=3, max_raises=0, cards_speak=True, blinds=False, hole_cards=1, board_cards=(0, 1))
    small = build_small_limit_game(config, "2c 2d 3c 3d 4c 4d 5c 5d")
    game, tree = small.game, small.game.tree
    assert tree.n_slots == 2 and game.deals.n_deals == 8 * 7 * 6 * 5
    node = 0
    for _ in range(6):  # check, check, check; check, check, check: the showdown of all three
        node = int(tree.child_start[node])
    assert tree.kind[node] == SHOWDOWN and showdown_contexts(tree)[int(tree.context[node])] == (0, 1, 2)
    rows = tree.terminal_values[int(tree.value_row[node]) : int(tree.value_row[node]) + 7]
    for d in range(0, game.deals.n_deals, 5):
        deal = [card for part in small_deal(small, d) for card in part]
        round_ = LimitRound(config, chance=ScriptedChance(deal))
        for _ in range(6):
            round_.apply(round_.legal_moves()[0])
        assert np.allclose(game.deals.weight[d, :7] @ rows, round_.payoffs())
        for seat in range(3):
            view = round_.observation(seat)
            assert game.deals.bucket[d, seat, 1] == small.bucket_of(1, view.hole_cards, [view.board])


def small_deal(small, d: int) -> list[tuple[int, ...]]:  # type: ignore[no-untyped-def]
    """Deal ``d`` of ``small`` (its cards: hole cards by seat, then the board) read back from the buckets."""
    by_bucket = {bucket: view for view, bucket in small.views[1].items()}
    seats = [by_bucket[int(small.game.deals.bucket[d, seat, 1])] for seat in range(small.rules.n_players)]
    return [view[0] for view in seats] + [seats[0][1]]


@pytest.mark.parametrize("must_use_hole_card", [True, False])
def test_sampler_weights_are_the_engines_winners(abstraction, must_use_hole_card: bool) -> None:
    config = LimitConfig(n_players=3, must_use_hole_card=must_use_hole_card)
    chance = LimitChance(config, abstraction)
    deals, cards = chance.sample_with_cards(0, 300, seed=11)
    offsets = chance.context_offset
    lookup = BucketLookup(abstraction)
    for d in range(deals.n_deals):
        hands = cards[d].tolist()
        assert len(set(hands)) == len(hands)
        board = hands[6:]
        for alive_index, alive in enumerate(chance.contexts):
            engine = LimitRound(dataclasses.replace(config, cards_speak=True), chance=ScriptedChance(hands))
            # play it to a showdown among `alive`: the others fold at once, the rest check/call
            while not engine.is_terminal:
                seat = engine.to_act
                moves = engine.legal_moves()
                kinds = [move.kind.name for move in moves]
                if seat not in alive and "FOLD" in kinds:
                    engine.apply(moves[kinds.index("FOLD")])
                else:
                    engine.apply(next(m for m in moves if m.kind.name in ("CHECK", "CALL", "RAISE")))
            winners = tuple(seat for seat in alive if engine.winnings[seat] > 0)
            outcomes = showdown_outcomes(alive, 3)
            row = deals.weight[d, offsets[alive_index] : offsets[alive_index] + len(outcomes)]
            assert row.sum() == 1.0
            assert outcomes[int(np.argmax(row))] == winners, (d, alive)
        if d < 20:
            for seat in range(3):
                for slot, n_board in enumerate((0, 3, 4, 5)):
                    assert deals.bucket[d, seat, slot] == lookup.bucket(hands[2 * seat : 2 * seat + 2], board[:n_board])


def test_deal_depends_only_on_seed_and_index(abstraction) -> None:
    chance = LimitChance(LimitConfig(n_players=4, max_raises=0), abstraction)
    whole, cards = chance.sample_with_cards(0, 40, seed=5)
    part, part_cards = chance.sample_with_cards(25, 15, seed=5)
    assert np.array_equal(whole.bucket[25:], part.bucket) and np.array_equal(whole.weight[25:], part.weight)
    assert np.array_equal(cards[25:], part_cards)
    parallel = chance.sample(0, 40, seed=5, parallel=True)
    assert np.array_equal(parallel.bucket, whole.bucket) and np.array_equal(parallel.weight, whole.weight)
    other = chance.sample_with_cards(0, 40, seed=6)[1]
    assert not np.array_equal(other, cards)
    assert whole.bucket.shape == (40, 4, 4) and whole.chance.shape == (40, 0)
    assert whole.weight.shape == (40, chance.weight_columns) and chance.weight_columns == 15 + 4 * 7 + 6 * 3
    assert np.array_equal(whole.weight.sum(axis=1), np.full(40, len(chance.contexts)))


def test_sampler_refuses_bad_arguments(abstraction) -> None:
    chance = LimitChance(LimitConfig(n_players=3), abstraction)
    with pytest.raises(ValueError, match="count must be an int >= 1"):
        chance.sample(0, 0, seed=1)
    with pytest.raises(ValueError, match=r"seed must be an int in 0..18446744073709551615"):
        chance.sample(0, 1, seed=-1)
    with pytest.raises(ValueError, match=r"seats 2..6 players"):
        LimitChance(LimitConfig(n_players=7), abstraction)
    with pytest.raises(ValueError, match="showdown needs >= 2 distinct seats"):
        LimitChance(LimitConfig(n_players=3), abstraction, contexts=[(0,)])

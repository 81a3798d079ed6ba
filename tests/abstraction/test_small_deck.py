"""Small-deck exact games, card abstractions of them, lifting and deal-table features.

abstraction.exact.small_deck, abstraction.exact.lifting, abstraction.exact.deal_features.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from abstraction.exact.deal_features import METHODS, bucket_features, build_abstraction, cluster_street, showdown_shares
from abstraction.exact.exact_games import build_game
from abstraction.exact.lifting import CardAbstraction, abstract_game, lift_strategy, merge_deals
from abstraction.exact.small_deck import build_small_deck_game
from abstraction.tree import SHOWDOWN, DealTable, SolverGame
from game.cards.evaluator import evaluate
from game.rules.actions import Action
from game.rules.small_holdem import SmallHoldemConfig, SmallHoldemRound
from solver.evaluate.exploitability import exploitability, uniform_strategy
from solver.solve.cfr import Solver

LEDUC_UNIFORM_NASH_CONV = 4.747222222222222  # OpenSpiel exploitability_test.py, uniform Leduc policy


@functools.cache
def small(suit_isomorphism: bool = True):  # type: ignore[no-untyped-def]
    """The default 9-card game (Q K A in three suits)."""
    return build_small_deck_game(suit_isomorphism=suit_isomorphism)


@functools.cache
def leduc() -> SolverGame:
    return build_game("leduc")


def solved(game: SolverGame, iterations: int) -> np.ndarray:
    return Solver(game, algorithm="cfr+").run(iterations).average_strategy()


def test_deal_counts_and_probabilities() -> None:
    raw = small(False)
    assert raw.raw_deals == math.comb(9, 2) * math.comb(7, 2) * math.comb(5, 3)
    assert raw.game.deals.n_deals == raw.raw_deals  # raw views: every deal is its own bucket tuple
    assert raw.game.deals.n_buckets.tolist() == [math.comb(9, 2), math.comb(9, 2) * math.comb(7, 3)]
    iso = small(True)
    assert iso.game.deals.n_buckets.tolist()[0] == 9  # 3 pairs, 3 suited and 3 offsuit pairs of ranks
    assert abs(iso.game.deals.probability.sum() - 1.0) < 1e-12
    assert iso.game.config == {"rules": SmallHoldemConfig().to_dict(), "suit_isomorphism": True}
    rebuilt = build_small_deck_game(**iso.game.config)
    assert np.array_equal(rebuilt.game.deals.bucket, iso.game.deals.bucket)


def node_after(tree, actions) -> int:  # type: ignore[no-untyped-def]
    """The tree node reached from the root by ``actions``."""
    node = 0
    for action in actions:
        start = int(tree.child_start[node])
        node = next(
            c
            for c in range(start, start + int(tree.n_children[node]))
            if tree.action_kind[c] == int(action.kind) and tree.action_amount[c] == action.amount
        )
    return node


def test_showdown_outcomes_agree_with_the_rules_engine() -> None:
    """Replay every 7th raw deal through SmallHoldemRound on two lines to showdown: the deal's outcome weights
    are one-hot on the engine's winners, and the tree's terminal value on the deal is the engine's payoffs."""
    raw = small(False)
    deals, views, tree = raw.game.deals, raw.views, raw.game.tree
    assert tree.context_size.tolist() == [3] and deals.weight.shape == (deals.n_deals, 3)
    for d in range(0, deals.n_deals, 7):
        view0, view1 = views[1][deals.bucket[d, 0, 1]], views[1][deals.bucket[d, 1, 1]]
        assert np.array_equal(view0[2:], view1[2:])  # the same flop
        for line in ("K K K K", "R2 C K R4 C"):
            hand = SmallHoldemRound(raw.rules, [*view0[:2].tolist(), *view1[:2].tolist(), *view0[2:].tolist()])
            actions = [Action.parse(text) for text in line.split()]
            for action in actions:
                hand.apply(action)
            winners = hand.showdown_winners()
            assert deals.weight[d].tolist() == [
                float(winners == (0,)),
                float(winners == (0, 1)),
                float(winners == (1,)),
            ]
            node = node_after(tree, actions)
            rows = tree.terminal_values[tree.value_row[node] : tree.value_row[node] + 3]
            assert tree.kind[node] == SHOWDOWN and np.allclose(deals.weight[d] @ rows, hand.payoffs())


def test_tree_is_the_leduc_betting_walk() -> None:
    game = small().game
    assert game.tree.n_nodes == leduc().tree.n_nodes == 85  # same fixed-limit betting, cap 2 per street
    assert np.array_equal(game.tree.committed, leduc().tree.committed)


def test_bucket_of_inverts_the_views() -> None:
    iso = small(True)
    for street in range(2):
        for bucket in range(len(iso.views[street])):
            assert iso.bucket_of(street, iso.views[street][bucket]) == bucket
    assert iso.bucket_of(1, "Qh Kh Ah As Ad") == iso.bucket_of(1, "Qs Ks As Ad Ah")  # hearts <-> spades


def test_suit_isomorphism_is_lossless() -> None:
    """Mapping raw views to suit classes is an abstraction that loses nothing: the same exploitability."""
    raw, iso = small(False), small(True)
    classes = CardAbstraction(
        "suits", tuple(np.array([iso.bucket_of(s, view) for view in raw.views[s]], dtype=np.int32) for s in range(2))
    )
    merged = abstract_game(raw.game, classes)
    assert np.array_equal(merged.deals.bucket, iso.game.deals.bucket)
    assert np.allclose(merged.deals.probability, iso.game.deals.probability)
    assert np.allclose(merged.deals.weight, iso.game.deals.weight)
    strategy = solved(iso.game, 50)
    on_raw = exploitability(raw.game, lift_strategy(raw.game, classes, strategy))
    on_iso = exploitability(iso.game, strategy)
    assert on_raw.nash_conv == pytest.approx(on_iso.nash_conv, abs=1e-10)
    assert on_raw.game_value == pytest.approx(on_iso.game_value, abs=1e-10)


def test_identity_abstraction_reproduces_the_exact_solve() -> None:
    game = small().game
    identity = CardAbstraction.identity(game)
    abstract = abstract_game(game, identity)
    assert abstract.tree.table_size == game.tree.table_size
    lifted = lift_strategy(game, identity, solved(abstract, 30))
    direct = solved(game, 30)
    assert np.allclose(lifted, direct, atol=1e-12)
    assert exploitability(game, lifted).exploitability_chips == pytest.approx(
        exploitability(game, direct).exploitability_chips, abs=1e-12
    )


def test_more_buckets_do_better_on_a_sanity_case() -> None:
    """No card information, a coarse E[HS] abstraction, then lossless: exploitability falls each step."""
    game = small().game
    counts = game.deals.n_buckets.tolist()
    chain = [
        CardAbstraction("blind", tuple(np.zeros(n, dtype=np.int32) for n in counts)),
        build_abstraction(game, "ehs", [3, 12]),
        CardAbstraction.identity(game),
    ]
    scores = [
        exploitability(game, lift_strategy(game, a, solved(abstract_game(game, a), 200))).exploitability_mbb
        for a in chain
    ]
    assert scores[0] > scores[1] > scores[2]
    assert scores[2] < 20 < 200 < scores[1]  # CFR+ converges on the exact game; 3/12 buckets lose a lot


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_merging_and_lifting_are_exact_on_random_abstractions(data: st.DataObject) -> None:
    """Random abstractions of Leduc: merged deals value any strategy like the unmerged table, and
    lifting the abstract uniform strategy gives the exact uniform strategy (known NashConv)."""
    game = leduc()
    maps = []
    for n in game.deals.n_buckets.tolist():
        k = data.draw(st.integers(1, n))
        mapping = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int32)
        maps.append(np.unique(mapping, return_inverse=True)[1].astype(np.int32))
    abstraction = CardAbstraction("random", tuple(maps))
    abstract = abstract_game(game, abstraction)
    unmerged = SolverGame(
        "unmerged",
        abstract.tree,
        DealTable(
            game.deals.probability,
            np.stack([maps[s][game.deals.bucket[:, :, s]] for s in range(2)], axis=2),
            game.deals.weight,
            game.deals.chance,
            abstraction.n_buckets,
        ),
        {},
    )
    seed = data.draw(st.integers(0, 2**32 - 1))
    random_rows = np.random.default_rng(seed).random(abstract.tree.table_size)
    strategy = _normalized(abstract, random_rows)
    merged_result, unmerged_result = exploitability(abstract, strategy), exploitability(unmerged, strategy)
    assert merged_result.game_value == pytest.approx(unmerged_result.game_value, abs=1e-12)
    assert merged_result.nash_conv == pytest.approx(unmerged_result.nash_conv, abs=1e-12)
    lifted = lift_strategy(game, abstraction, uniform_strategy(abstract))
    assert exploitability(game, lifted).nash_conv == pytest.approx(LEDUC_UNIFORM_NASH_CONV, abs=1e-9)


def _normalized(game: SolverGame, values: np.ndarray) -> np.ndarray:
    out = values.copy()
    tree = game.tree
    for group in range(tree.n_groups):
        actions = int(tree.n_actions[group])
        for bucket in range(int(tree.n_buckets[group])):
            start = int(tree.row_offset[group]) + bucket * actions
            out[start : start + actions] /= out[start : start + actions].sum()
    return out


def test_merge_deals_is_idempotent_and_keeps_mass() -> None:
    deals = small().game.deals
    again = merge_deals(deals)
    assert again.n_deals == deals.n_deals and np.array_equal(again.bucket, deals.bucket)
    blind = merge_deals(
        DealTable(
            deals.probability, np.zeros_like(deals.bucket), deals.weight, deals.chance, np.ones(2, dtype=np.int32)
        )
    )
    win, split, loss = blind.weight[0]
    assert blind.n_deals == 1 and win == pytest.approx(loss) and win + split + loss == pytest.approx(1.0)  # symmetric
    assert np.allclose(showdown_shares(small().game)[:, 0] @ deals.probability, 0.5)


def test_merge_deals_averages_weights_and_keeps_chance_apart() -> None:
    """Deals merge only when buckets and chance children agree; outcome weights average by probability."""
    table = DealTable(
        probability=np.array([0.1, 0.3, 0.2, 0.4]),
        bucket=np.array([[[0], [1]], [[0], [1]], [[0], [1]], [[1], [0]]]),
        weight=np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [1.0, 0.0]]),
        chance=np.array([[0], [0], [1], [0]]),
        n_buckets=np.array([2]),
    )
    merged = merge_deals(table)
    assert merged.n_deals == 3
    assert merged.bucket[:, :, 0].tolist() == [[0, 1], [0, 1], [1, 0]] and merged.chance[:, 0].tolist() == [0, 1, 0]
    assert np.allclose(merged.probability, [0.4, 0.2, 0.4])
    assert np.allclose(merged.weight, [[0.25, 0.75], [0.0, 1.0], [1.0, 0.0]])


def test_features_match_direct_enumeration() -> None:
    iso = small()
    features = bucket_features(iso.game)
    config = iso.rules
    deck = list(config.deck())
    for bucket in (0, 4, 8):  # a pair, a suited and an offsuit hand
        hole = iso.views[0][bucket].tolist()
        rest = [c for c in deck if c not in hole]
        shares, strengths = [], []
        for flop in itertools.combinations(rest, 3):
            left = [c for c in rest if c not in flop]
            mine = evaluate([*hole, *flop])
            board_shares = [
                1.0 if mine > v else 0.5 if mine == v else 0.0
                for v in (evaluate([*opponent, *flop]) for opponent in itertools.combinations(left, 2))
            ]
            shares += board_shares
            strengths.append(np.mean(board_shares))
        assert features[0].ehs[bucket] == pytest.approx(np.mean(shares), abs=1e-12)
        assert features[0].ehs2[bucket] == pytest.approx(np.mean(np.square(strengths)), abs=1e-12)
        levels = (np.arange(32) + 0.5) / 32
        expected_atoms = np.sort(strengths)[np.ceil(levels * len(strengths)).astype(int) - 1]
        assert np.allclose(features[0].atoms[bucket], expected_atoms)
    aces, kings = iso.bucket_of(0, "Ah As"), iso.bucket_of(0, "Kh Ks")
    aces_hole = iso.views[0][aces].tolist()
    versus_kings = []
    for opponent in itertools.combinations([c for c in deck if c not in aces_hole], 2):
        if iso.bucket_of(0, list(opponent)) != kings:
            continue
        rest = [c for c in deck if c not in aces_hole and c not in opponent]
        for flop in itertools.combinations(rest, 3):
            mine, theirs = evaluate([*aces_hole, *flop]), evaluate([*opponent, *flop])
            versus_kings.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    assert features[0].ochs[aces, kings] == pytest.approx(np.mean(versus_kings), abs=1e-12)
    last = features[1]
    assert np.allclose(last.ehs2, last.ehs**2) and np.allclose(last.atoms, last.ehs[:, None])
    assert np.all(features[0].ehs2 >= features[0].ehs ** 2 - 1e-12)  # Jensen


def test_clustering_methods_and_errors() -> None:
    features = bucket_features(small().game)
    for method in METHODS:
        labels = cluster_street(features[0], 3, method, seed=1)
        assert sorted(set(labels.tolist())) == [0, 1, 2]
        assert np.array_equal(labels, cluster_street(features[0], 3, method, seed=1))  # seeded
        order = np.argsort(features[0].ehs)
        assert labels[order[0]] != labels[order[-1]]  # the weakest and strongest hands are apart
    assert cluster_street(features[0], 100, "ehs").tolist() == list(range(9))
    with pytest.raises(ValueError, match="method must be one of"):
        cluster_street(features[0], 3, "hs3")
    with pytest.raises(ValueError, match="one count per street"):
        build_abstraction(small().game, "ehs", [3])


def test_abstraction_errors_name_the_problem() -> None:
    game = small().game
    with pytest.raises(ValueError, match=r"maps \[2, 225\] exact buckets per slot, game 'small_holdem' has \[9, 225\]"):
        abstract_game(game, CardAbstraction("short", (np.array([0, 1]), np.zeros(225, dtype=np.int32))))
    identity = CardAbstraction.identity(game)
    with pytest.raises(ValueError, match="abstract_strategy must have shape"):
        lift_strategy(game, identity, np.zeros(3))
    with pytest.raises(ValueError, match="must use every abstract bucket"):
        CardAbstraction("gap", (np.array([0, 2]),))
    with pytest.raises(TypeError, match="rules must be a SmallHoldemConfig or a mapping"):
        build_small_deck_game(rules=3)  # type: ignore[arg-type]

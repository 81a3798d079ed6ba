"""Exact small versions of the heads-up variants (abstraction.exact.small_variants).

1. Payoffs: random deals of the short deck and random paths of the abstract tree, played by the
   rules engine on a ScriptedChance of the deal: the engine's payoffs equal the tree's terminal value
   on the deal's DealTable row (weights of the terminal's context; chance nodes follow the row).
2. Exactness: CFR+ on each small game; the exact best response over the full DealTable (the
   unabstracted short-deck game) gives an exploitability that falls with iterations and ends below
   1% of the starting pot (blinds 1 + 2 = 3 chips: < 0.03 chips per hand).
3. Kernels: solver.solve.cfr.Solver("cfr") equals the plain-Python reference (tests/solver/reference_tree_cfr.py)
   on a tiny instance of each variant (the small tree, a few of its deals).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from abstraction.exact.small_variants import build_small_variant
from abstraction.tree import CHANCE, DECISION, FOLD, SHOWDOWN, DealTable, SolverGame
from game.rules.actions import Action, ActionKind
from game.rules.variants import start_round
from solver.evaluate.exploitability import exploitability, uniform_strategy
from solver.solve.cfr import Solver
from tests.solver.reference_tree_cfr import ReferenceTreeCFR

VARIANTS = ("holdem", "bounty", "auction", "river_of_blood", "swap")
RULES = ("document", "engine")
START_POT = 3
TARGET = 0.01 * START_POT


@functools.cache
def small(variant: str, rules: str):  # type: ignore[no-untyped-def]
    return build_small_variant(variant, rules=rules)


# ---------------------------------------------------------------------- 1. payoffs
def random_path(tree, chance_row: np.ndarray, rng: np.random.Generator) -> list[int]:  # type: ignore[no-untyped-def]
    path = [0]
    while tree.kind[path[-1]] in (DECISION, CHANCE):
        node = path[-1]
        start = int(tree.child_start[node])
        if tree.kind[node] == CHANCE:
            path.append(start + int(chance_row[int(tree.context[node])]))
        else:
            path.append(start + int(rng.integers(int(tree.n_children[node]))))
    return path


def thirds_dealt(tree, path: list[int]) -> list[int]:  # type: ignore[no-untyped-def]
    """Seats whose Auction third card the engine deals on ``path``: the winner, both on a tie (also the
    0-0 tie of two all-in players under document rules, which takes no bids)."""
    bids = {
        int(tree.player[parent]): int(tree.action_amount[node])
        for parent, node in itertools.pairwise(path)
        if tree.action_kind[node] == ActionKind.BID
    }
    if len(bids) == 2 and bids[0] != bids[1]:
        return [0 if bids[0] > bids[1] else 1]
    return [0, 1] if bids or tree.street[path[-1]] >= 1 else []


def check_payoffs(variant: str, rules: str, n_cases: int, seed: int) -> None:
    game = small(variant, rules)
    tree, deals = game.game.tree, game.game.deals
    rng = np.random.default_rng(seed)
    kinds = set()
    for _ in range(n_cases):
        deal = game.random_deal(rng)
        row = game.deal_row(deal)
        path = random_path(tree, deals.chance[row], rng)
        chance = deal.scripted_chance(game.config, thirds_dealt(tree, path) if variant == "auction" else ())
        round_ = start_round(game.config, chance, match_state=deal.ranks if variant == "bounty" else None)
        for parent, node in itertools.pairwise(path):
            if tree.kind[parent] == CHANCE:
                card = round_.board[4 + int(tree.context[parent])]
                assert int((card & 3) in (1, 2)) == tree.action_amount[node]
                continue
            assert round_.to_act == tree.player[parent]
            round_.apply(Action(ActionKind(int(tree.action_kind[node])), int(tree.action_amount[node])))
            assert round_.contributions == tuple(tree.committed[node].astype(int))
        terminal = path[-1]
        assert round_.is_terminal and tree.kind[terminal] in (FOLD, SHOWDOWN)
        context, value_row = int(tree.context[terminal]), int(tree.value_row[terminal])
        if context < 0:
            value = tree.terminal_values[value_row]
        else:
            offset, size = int(tree.context_offset[context]), int(tree.context_size[context])
            value = deals.weight[row, offset : offset + size] @ tree.terminal_values[value_row : value_row + size]
        assert value.tolist() == round_.payoffs().tolist(), (tree.history(terminal), deal, round_)
        kinds.add(int(tree.kind[terminal]))
    assert kinds == {FOLD, SHOWDOWN}


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_terminal_values_equal_the_engine_payoffs(variant: str, rules: str) -> None:
    check_payoffs(variant, rules, n_cases=500, seed=VARIANTS.index(variant) + 10 * RULES.index(rules))


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_terminal_values_equal_the_engine_payoffs_many_cases(variant: str, rules: str) -> None:
    check_payoffs(variant, rules, n_cases=10_000, seed=100 + VARIANTS.index(variant) + 10 * RULES.index(rules))


# ---------------------------------------------------------------------- the games themselves
@pytest.mark.parametrize("variant", VARIANTS)
def test_deal_tables_are_distributions_and_buckets_are_views(variant: str) -> None:
    game = small(variant, "document")
    deals = game.game.deals
    assert abs(deals.probability.sum() - 1.0) < 1e-12 and (deals.probability > 0).all()
    sizes = game.game.tree.context_size
    offsets = game.game.tree.context_offset
    for c in range(len(sizes)):  # one outcome per context and deal
        assert (deals.weight[:, offsets[c] : offsets[c] + sizes[c]].sum(axis=1) == 1).all()
    # every deal's last-slot views of both players together determine the deal: rows are all distinct
    assert len({row.tobytes() for row in deals.bucket[:, :, -1]}) == deals.n_deals
    assert game.start_pot == START_POT


def test_every_legal_action_must_be_in_the_tree() -> None:
    with pytest.raises(ValueError, match="leaves out legal actions"):
        build_small_variant("holdem", stack=6)  # raises to 4 and 5 chips are legal, "a" only offers 6


def test_bounty_engine_trees_keep_the_fold_where_checking_is_free() -> None:
    """The 2025 engine lets a player fold where checking is free, which bounties make worth having
    (fold before the opponent's bounty can hit): the tree keeps it; document rules have no such fold."""
    document, engine = small("bounty", "document").game.tree, small("bounty", "engine").game.tree
    free = [
        n
        for n in np.flatnonzero(engine.kind == DECISION)
        if any(
            engine.action_kind[c] == ActionKind.CHECK
            for c in range(engine.child_start[n], engine.child_start[n] + engine.n_children[n])
        )
        and engine.action_kind[engine.child_start[n]] == ActionKind.FOLD
    ]
    assert free
    assert not any(
        document.action_kind[document.child_start[n]] == ActionKind.FOLD
        and document.action_kind[document.child_start[n] + 1] == ActionKind.CHECK
        for n in np.flatnonzero(document.kind == DECISION)
    )


def test_type_symmetry_is_lossless() -> None:
    """On a 9-card deck (no flush possible) the game over card types and the game over raw cards
    have the same value and the same exploitability of the uniform strategy, and their equilibria agree."""
    deck = "Qh Qs Qd Kh Ks Kd Ah As Ad"
    merged = build_small_variant("holdem", deck=deck).game
    raw = build_small_variant("holdem", deck=deck, merge_types=False).game
    assert raw.deals.n_deals == 15120 and merged.deals.n_deals < 300
    uniform = [exploitability(g, uniform_strategy(g)) for g in (merged, raw)]
    assert uniform[0].nash_conv == pytest.approx(uniform[1].nash_conv, abs=1e-12)
    assert uniform[0].game_value == pytest.approx(uniform[1].game_value, abs=1e-12)
    solved = [exploitability(g, Solver(g, "cfr+").run(150).average_strategy()) for g in (merged, raw)]
    assert all(r.exploitability_chips < TARGET for r in solved), [r.exploitability_chips for r in solved]
    assert solved[0].game_value == pytest.approx(solved[1].game_value, abs=2 * TARGET)


# ---------------------------------------------------------------------- 2. exactness
def check_convergence(variant: str, rules: str, checkpoints: tuple[int, ...]) -> list[float]:
    game = small(variant, rules).game
    solver = Solver(game, "cfr+")
    values = []
    for iterations in checkpoints:
        solver.run(iterations - solver.iteration)
        values.append(exploitability(game, solver.average_strategy()).exploitability_chips)
    assert all(later < earlier for earlier, later in itertools.pairwise(values)), values
    assert values[-1] < TARGET, values
    return values


@pytest.mark.parametrize("variant", VARIANTS)
def test_cfr_plus_exploitability_falls_below_one_percent_of_the_pot(variant: str) -> None:
    check_convergence(variant, "document", (5, 20, 80))


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_cfr_plus_exploitability_long_run(variant: str, rules: str) -> None:
    values = check_convergence(variant, rules, (10, 100, 300))
    assert values[-1] < 0.001 * START_POT


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_es_mccfr_exploitability_falls_below_one_percent_of_the_pot(variant: str) -> None:
    game = small(variant, "document").game
    solver = Solver(game, "es-mccfr", seed=3)
    values = []
    for iterations in (10_000, 3_000_000):
        solver.run(iterations - solver.iteration)
        values.append(exploitability(game, solver.average_strategy()).exploitability_chips)
    assert values[1] < values[0] and values[1] < TARGET, values


# ---------------------------------------------------------------------- 3. kernels = plain-Python reference
def tiny(game: SolverGame, n_deals: int, seed: int) -> SolverGame:
    """The small game's tree with ``n_deals`` of its deals (renormalised): a tiny exact instance."""
    rng = np.random.default_rng(seed)
    deals = game.deals
    rows = np.sort(rng.choice(deals.n_deals, size=n_deals, replace=False))
    probability = deals.probability[rows] / deals.probability[rows].sum()
    table = DealTable(probability, deals.bucket[rows], deals.weight[rows], deals.chance[rows], deals.n_buckets)
    return SolverGame(name=game.name + "_tiny", tree=game.tree, deals=table, config=game.config)


@pytest.mark.parametrize(
    "variant, rules",
    [(v, "document") for v in VARIANTS] + [("river_of_blood", "engine"), ("bounty", "engine"), ("auction", "engine")],
)
def test_cfr_kernel_equals_the_plain_python_reference(variant: str, rules: str) -> None:
    game = tiny(small(variant, rules).game, n_deals=30, seed=VARIANTS.index(variant))
    if variant == "river_of_blood":
        assert (game.deals.chance == 1).any() and (game.tree.kind == CHANCE).any()
    solver = Solver(game, "cfr")
    reference = ReferenceTreeCFR(game.tree, game.deals)
    for _ in range(2):
        solver.run(1)
        reference.iterate()
        tables = solver.tables()
        assert np.abs(tables["regrets"] - np.array(reference.regrets)).max() < 1e-9
        assert np.abs(tables["strategy_sums"] - np.array(reference.strategy_sums)).max() < 1e-9
    assert np.abs(np.array(reference.regrets)).max() > 0.1  # the comparison is not vacuous

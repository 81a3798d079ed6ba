"""``vcfr bench resolve``: the subgame solver's CFR iterations per second on river subgames, next to
the plain numpy implementation of the same algorithm (:mod:`solver.bench.resolve_numpy`) in the same run.

Cases: the issue's river (every unblocked hand for both players, uniform ranges; 0.5p, 1p and
all-in with one re-raise) and the re-solver's default sizes (0.33p, 0.67p, 1p, 1.5p, all-in, cap
3). An iteration updates both players. Beside them, the final-street rivers of the variants with
other showdowns (:func:`variant_rivers`, the issue's bets, ours only: the numpy peer has Hold'em's
payoffs): River of Blood's on a longer board (two red cards, then a black one), Bounty's over hand x
hit-bit types (the opponent's hit odds the uniform rank prior's). Kernels are compiled before any clock starts; each rate is
the best of ``repeats`` timed passes (the machine may be shared: the best pass is the least
disturbed), in wall-clock time and, beside it, in the process's CPU time (what the pass cost when
other work takes turns on the same core).

The turn (``turn``): the depth-limited subgame the re-solving bot solves on the turn (the board's first
four cards, 1,128 hands, uniform ranges, the issue's bets), ending at LEAF nodes (both matched: the
continuation values, k = 4 continuations over 32 hand classes, the bot's defaults) and RUNOUT nodes
(all in: the exact expectation over the 48 rivers). The leaves' matrices are a stand-in here (the
searcher's chips grow with its class and shrink with the opponent's, times the leaf's pot): a
blueprint's give other values but the same work per iteration. Their set-up (the ranges, the Monte
Carlo matrices, the gadget's values) is not timed here: ``experiments/turn_resolving.py`` times whole
turn re-solves of a blueprint.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from typing import Any

import numpy as np

from abstraction.bets.bet_abstraction import StreetBets
from game.bench.timing import best_seconds
from game.cards.deck import format_cards
from game.rules.variants import VARIANTS
from solver.bench.resolve_numpy import NumpySubgameSolver
from solver.resolve.bounty import BountyRules, bounty_hands, rank_hits
from solver.resolve.continuation import N_CONTINUATIONS, ContinuationConfig, hand_classes
from solver.resolve.hands import RiverHands, river_hands, turn_hands
from solver.resolve.leaves import LeafValues
from solver.resolve.resolver import ResolveConfig, SubgameSolver
from solver.resolve.tree import DEFAULT_BETS, RUNOUT, SubgameConfig, SubgameTree, build_subgame_tree

BOARD = "Qh Td 8c 5s 3h"
POT_CHIPS = (20, 20)
STACKS = (180, 180)
CASES = {"issue": StreetBets((0.5, 1.0), all_in=True, cap=2), "default": DEFAULT_BETS}
"""Bet sets by case name: the issue's speed target (one bet and one re-raise) and the default tree."""
RUN_CARDS = "7d 2c"
"""River of Blood's final street in the benchmark: after the red river (3h) a red run card, then a black one."""


def variant_rivers() -> dict[str, tuple[RiverHands, np.ndarray]]:
    """Per registered variant whose final street is not Hold'em's river (by its rules flags): the
    hands (or types) and uniform ranges of its benchmark river."""
    out = {}
    for name, variant in VARIANTS.items():
        config = variant.config_class()
        if config.has_bounty:
            hands = bounty_hands(BOARD, BountyRules.of(config))
            hit_odds = rank_hits(hands.board).mean(axis=1)  # the uniform prior over the 13 ranks
            out[name] = (hands, np.stack([hands.type_range(np.ones(1326), hit_odds)] * 2))
        elif config.has_run_cards:
            hands = river_hands(f"{BOARD} {RUN_CARDS}")
            out[name] = (hands, np.ones((2, hands.n_hands)))
    return out


def turn_subgame() -> tuple[SubgameTree, RiverHands, np.ndarray, LeafValues]:
    """The benchmark's depth-limited turn (module docstring): tree, hands, uniform ranges and the
    stand-in leaves (seat 0 searching; (n_leaves, 4, 32, 32) chips)."""
    hands = turn_hands(BOARD.rsplit(" ", 1)[0])
    tree = build_subgame_tree(
        SubgameConfig(pot_chips=POT_CHIPS, stacks=STACKS, bets=CASES["issue"], final_street=False)
    )
    n_classes = ContinuationConfig().n_classes
    grid = np.arange(n_classes) / (n_classes - 1)
    edge = grid[:, None] - grid[None, :]  # the searcher's class above the opponent's: (C, C) in [-1, 1]
    shading = 1.0 + 0.1 * np.arange(N_CONTINUATIONS)  # the continuations differ
    pots = tree.pot_chips[tree.leaves, 0]
    matrices = pots[:, None, None, None] * shading[None, :, None, None] * edge[None, None]
    leaves = LeafValues(0, hand_classes(hands, n_classes), matrices)
    return tree, hands, np.ones((2, hands.n_hands)), leaves


def best_rates(run: Callable[[], None], count: int, repeats: int) -> tuple[float, float]:
    """``count`` over the fastest of ``repeats`` calls of ``run``, in wall-clock and in CPU seconds."""
    wall, cpu = best_seconds(run, repeats)
    return count / wall, count / max(cpu, 1e-9)


def run_resolve_benchmark(iterations: int = 200, repeats: int = 5, algorithm: str = "dcfr") -> dict[str, Any]:
    """Iterations per second (ours and numpy), the speedup and NashConv after ``iterations``, per case.

    The numpy peer, 5-10x slower, is timed on ``min(iterations, 20)`` iterations per pass.
    """
    if iterations < 1 or repeats < 1:
        raise ValueError(f"iterations and repeats must be >= 1, got {iterations} and {repeats}")
    peer_iterations = min(iterations, 20)
    load_before = os.getloadavg()[0]
    hands = river_hands(BOARD)
    ranges = np.ones((2, hands.n_hands))
    config = ResolveConfig(algorithm)
    cases: dict[str, Any] = {}
    for name, bets in CASES.items():
        tree = build_subgame_tree(SubgameConfig(pot_chips=POT_CHIPS, stacks=STACKS, bets=bets))
        SubgameSolver(tree, hands, ranges, config).run(1)  # compile before the clock starts
        ours = SubgameSolver(tree, hands, ranges, config)
        ours_rate, ours_cpu_rate = best_rates(lambda solver=ours: solver.run(iterations), iterations, repeats)
        peer = NumpySubgameSolver(tree, hands, ranges, config)
        peer_rate, peer_cpu_rate = best_rates(
            lambda solver=peer: solver.run(peer_iterations), peer_iterations, max(1, repeats // 2)
        )
        solved = SubgameSolver(tree, hands, ranges, config).run(iterations)
        cases[name] = {
            "bets": str(bets),
            "nodes": tree.n_nodes,
            "decisions": tree.n_decisions,
            "ours_iters_per_s": ours_rate,
            "ours_ms_per_run": 1000.0 * iterations / ours_rate,
            "ours_cpu_iters_per_s": ours_cpu_rate,
            "numpy_iters_per_s": peer_rate,
            "numpy_cpu_iters_per_s": peer_cpu_rate,
            "speedup": ours_rate / peer_rate,
            "cpu_speedup": ours_cpu_rate / peer_cpu_rate,
            "nash_conv_pot_fraction": solved.exploitability().nash_conv_pot_fraction,
        }
    rivers: dict[str, Any] = {}
    tree = build_subgame_tree(SubgameConfig(pot_chips=POT_CHIPS, stacks=STACKS, bets=CASES["issue"]))
    for name, (variant_hands, variant_ranges) in variant_rivers().items():
        SubgameSolver(tree, variant_hands, variant_ranges, config).run(1)  # compile before the clock starts
        ours = SubgameSolver(tree, variant_hands, variant_ranges, config)
        rate, cpu_rate = best_rates(lambda solver=ours: solver.run(iterations), iterations, repeats)
        solved = SubgameSolver(tree, variant_hands, variant_ranges, config).run(iterations)
        rivers[name] = {
            "board": format_cards(variant_hands.board.tolist()),
            "hands_per_player": variant_hands.n_hands,
            "bets": str(CASES["issue"]),
            "nodes": tree.n_nodes,
            "ours_iters_per_s": rate,
            "ours_ms_per_run": 1000.0 * iterations / rate,
            "ours_cpu_iters_per_s": cpu_rate,
            "nash_conv_pot_fraction": solved.exploitability().nash_conv_pot_fraction,
        }
    turn_tree, turn_cards, turn_ranges, turn_leaves = turn_subgame()
    SubgameSolver(turn_tree, turn_cards, turn_ranges, config, leaves=turn_leaves).run(1)  # compile first
    ours = SubgameSolver(turn_tree, turn_cards, turn_ranges, config, leaves=turn_leaves)
    rate, cpu_rate = best_rates(lambda solver=ours: solver.run(iterations), iterations, repeats)
    turn = {
        "board": format_cards(turn_cards.board.tolist()),
        "hands_per_player": turn_cards.n_hands,
        "bets": str(CASES["issue"]),
        "nodes": turn_tree.n_nodes,
        "leaves": len(turn_tree.leaves),
        "runouts": int(np.count_nonzero(turn_tree.kind == RUNOUT)),
        "ours_iters_per_s": rate,
        "ours_ms_per_run": 1000.0 * iterations / rate,
        "ours_cpu_iters_per_s": cpu_rate,
    }
    return {
        "board": BOARD,
        "hands_per_player": hands.n_hands,
        "pot_chips": list(POT_CHIPS),
        "stacks": list(STACKS),
        "algorithm": algorithm,
        "iterations": iterations,
        "threads": 1,
        "cases": cases,
        "variants": rivers,
        "turn": turn,
        "cores": os.cpu_count(),
        "load_average_1min": [load_before, os.getloadavg()[0]],
        "machine": f"{platform.machine()} {platform.processor() or ''} {platform.python_implementation()} {platform.python_version()}".strip(),
    }


def format_table(result: dict[str, Any]) -> str:
    """The benchmark as text, one line per case."""
    lines = [
        f"river {result['board']}, {result['hands_per_player']:,} hands per player, pot {sum(result['pot_chips'])}, "
        f"{result['algorithm']}, 1 thread; load average {result['load_average_1min'][0]:.1f} before, "
        f"{result['load_average_1min'][1]:.1f} after on {result['cores']} cores (timings are noisy on a shared machine)"
    ]
    for name, case in result["cases"].items():
        lines.append(
            f"{name} ({case['bets']}, {case['nodes']} nodes): ours {case['ours_iters_per_s']:,.0f} it/s "
            f"({result['iterations']} in {case['ours_ms_per_run']:.1f} ms), numpy {case['numpy_iters_per_s']:,.0f} it/s "
            f"({case['speedup']:.1f}x); CPU time: ours {case['ours_cpu_iters_per_s']:,.0f} it/s, "
            f"numpy {case['numpy_cpu_iters_per_s']:,.0f} it/s ({case['cpu_speedup']:.1f}x); NashConv after {result['iterations']}: {100 * case['nash_conv_pot_fraction']:.3f}% of the pot"
        )
    for name, case in result.get("variants", {}).items():
        lines.append(
            f"{name} river {case['board']} ({case['hands_per_player']:,} hands or types per player, {case['bets']}, "
            f"{case['nodes']} nodes): ours {case['ours_iters_per_s']:,.0f} it/s ({result['iterations']} in "
            f"{case['ours_ms_per_run']:.1f} ms), CPU time {case['ours_cpu_iters_per_s']:,.0f} it/s; NashConv after "
            f"{result['iterations']}: {100 * case['nash_conv_pot_fraction']:.3f}% of the pot"
        )
    turn = result.get("turn")
    if turn is not None:
        lines.append(
            f"turn {turn['board']}, depth-limited ({turn['hands_per_player']:,} hands per player, {turn['bets']}, "
            f"{turn['nodes']} nodes: {turn['leaves']} leaves, {turn['runouts']} runouts; stand-in leaf values): ours "
            f"{turn['ours_iters_per_s']:,.0f} it/s ({result['iterations']} in {turn['ours_ms_per_run']:.1f} ms), "
            f"CPU time {turn['ours_cpu_iters_per_s']:,.0f} it/s"
        )
    return "\n".join(lines)

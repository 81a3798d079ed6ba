"""Depth-limited turn re-solving: time per turn re-solve, and the bot against the lookup bot.

The blueprint is the tiny Hold'em strategy of ``experiments/resolving_bot.py`` (stack 40 chips,
bets ``1p,a cap=2``, 4/3/3/3 ehs buckets, 100,000 ES-MCCFR iterations), built once into
``--workdir``. The re-solving bot (`solver.bots.resolving_bot.ResolvingBot`) re-solves the turn
(depth-limited: leaves valued by the blueprint's river against four continuations of the
opponent) and the river, at ``--iterations`` CFR iterations per re-solve (default: the bot's 200),
against the lookup bot of the same file, duplicate. Prints one JSON object: its mbb/hand with the
95% interval over deal pairs, counters, and per street the re-solves' wall-clock milliseconds
(p50, p99, mean) and the CPU milliseconds of the decisions that re-solved (``time.process_time``;
on a shared machine the CPU time is closer to what an idle core gives)::

    .venv/bin/python experiments/turn_resolving.py --rounds 200 --seed 7

``--no-turn`` plays the river-only bot instead (the same deals and seeds), for comparison.
``--strategy FILE`` plays another strategy file (its own rules) instead of the tiny one, e.g. the
2022 Swap blueprint (River of Blood and Bounty files re-solve their final streets only; the
per-street figures are keyed by board length, so River of Blood's run streets show as 6, 7, ...)::

    .venv/bin/python experiments/turn_resolving.py --strategy build/blueprints/2022/blueprint_swap.h5 --rounds 40
``--iteration-cost`` instead prints the CPU milliseconds of one CFR iteration (best of 3 runs of 50)
on the turn subgame ``Qh Td 8c 5s`` (pot 4 + 4 chips, 36 behind, the bot's bets; random ranges over
the 1,128 hands; 32 classes, 4 continuations, random leaf matrices), as it is, with its RUNOUT
nodes made leaves, and with every terminal a fold; and on the river ``Qh Td 8c 5s 2d`` with the same
chips and bets (1,081 hands)::

    .venv/bin/python experiments/turn_resolving.py --iteration-cost

``--convergence`` instead prints, for the turns checked down from the deals of seeds 1-3 (seat 1 to
act), the depth-limited subgame's NashConv (% of the pot; the opponent's best response includes its
choice of continuation at each leaf, the bot's keeps the blueprint there) after 25, 50, 100, 200 and
400 iterations of the bot's re-solve (its leaves, bets and the blueprint's ranges, no gadget), and
the CPU milliseconds of each step::

    .venv/bin/python experiments/turn_resolving.py --convergence
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path

import harness
import numpy as np
from resolving_bot import checked_down_rounds, match_against_lookup, timed_steps, tiny_strategy

from solver.bots.lookup_bot import LookupBot
from solver.bots.resolving_bot import TURN, ResolvingBot, ResolvingConfig
from solver.resolve.hands import river_hands, turn_hands
from solver.resolve.leaves import LeafValues
from solver.resolve.resolver import SubgameSolver
from solver.resolve.tree import DECISION, FOLD, LEAF, RUNOUT, SHOWDOWN, SubgameConfig, build_subgame_tree

KINDS = {"leaves": LEAF, "runouts": RUNOUT, "folds": FOLD, "showdowns": SHOWDOWN}


class Timed:
    """Forwards to ``bot``; per street (board length), the wall and CPU seconds of decisions that re-solved."""

    def __init__(self, bot: ResolvingBot) -> None:
        self.bot, self.name = bot, bot.name
        self.wall: dict[int, list[float]] = {}
        self.cpu: dict[int, list[float]] = {}

    def act(self, observation):
        before, cpu = self.bot.resolves, time.process_time()
        action = self.bot.act(observation)
        if self.bot.resolves > before:
            self.wall.setdefault(observation.street, []).append(self.bot.resolve_seconds[-1])
            self.cpu.setdefault(observation.street, []).append(time.process_time() - cpu)
        return action


def _summary(seconds: list[float]) -> dict:
    milliseconds = 1000 * np.array(seconds)
    return {
        "count": len(milliseconds),
        "p50": float(np.percentile(milliseconds, 50)),
        "p99": float(np.percentile(milliseconds, 99)),
        "mean": float(milliseconds.mean()),
    }


def iteration_cost() -> dict:
    """CPU milliseconds per iteration of the subgames of ``--iteration-cost`` (see the module docstring)."""
    hands = turn_hands("Qh Td 8c 5s")
    rng = np.random.default_rng(0)
    config = SubgameConfig(pot_chips=(4, 4), stacks=(36, 36), bets=ResolvingConfig().bets, final_street=False)
    tree = build_subgame_tree(config)
    as_leaves = dataclasses.replace(tree, kind=np.where(tree.kind == RUNOUT, LEAF, tree.kind).astype(np.int8))
    terminal = tree.kind != DECISION
    folds = dataclasses.replace(
        tree,
        kind=np.where(terminal, FOLD, tree.kind).astype(np.int8),
        player=np.where(terminal, 0, tree.player).astype(np.int8),
    )
    river = river_hands("Qh Td 8c 5s 2d")
    cases = {
        "turn": (tree, hands),
        "turn_runouts_as_leaves": (as_leaves, hands),
        "turn_all_folds": (folds, hands),
        "river": (build_subgame_tree(dataclasses.replace(config, final_street=True)), river),
    }
    out = {}
    for name, (subgame, subgame_hands) in cases.items():
        leaves = None
        if len(subgame.leaves):
            classes = np.arange(subgame_hands.n_hands) * 32 // subgame_hands.n_hands
            leaves = LeafValues(0, classes, rng.random((len(subgame.leaves), 4, 32, 32)))
        solver = SubgameSolver(subgame, subgame_hands, rng.random((2, subgame_hands.n_hands)), leaves=leaves).run(2)
        best = np.inf
        for _ in range(3):
            began = time.process_time()
            solver.run(50)
            best = min(best, (time.process_time() - began) / 50)
        counts = {kind: int(np.count_nonzero(subgame.kind == value)) for kind, value in KINDS.items()}
        out[name] = {"cpu_ms_per_iteration": 1000 * best, "nodes": subgame.n_nodes, **counts}
    return out


def convergence(path: Path) -> list[dict]:
    """NashConv of the bot's depth-limited turn re-solve on checked-down turns (see the module docstring)."""
    rows = []
    for bot, seed, round_ in checked_down_rounds(path, TURN):
        observation = round_.observation(1)
        hands = turn_hands(np.array(round_.board))
        ranges = np.stack([hands.range_from_1326(bot.blueprint_ranges(observation)[p]) for p in (0, 1)])
        subgame = SubgameConfig(
            pot_chips=observation.contributions,
            stacks=observation.stacks,
            first_player=1,
            bets=ResolvingConfig().bets,
            final_street=False,
        )
        tree = build_subgame_tree(subgame)
        leaves = bot._turn_leaves(tree, hands, 1, observation.history)
        solver = SubgameSolver(tree, hands, ranges / ranges.sum(axis=1, keepdims=True), leaves=leaves)
        points = timed_steps(solver, (25, 25, 50, 100, 200))
        rows.append({"seed": seed, "board": list(round_.board), "nodes": tree.n_nodes, "points": points})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds (even: duplicate)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals")
    parser.add_argument("--iterations", type=int, default=ResolvingConfig().iterations, help="CFR iterations")
    parser.add_argument("--no-turn", action="store_true", help="the river-only bot")
    parser.add_argument("--iteration-cost", action="store_true", help="CPU time per CFR iteration instead")
    parser.add_argument("--convergence", action="store_true", help="the turn re-solve's NashConv instead")
    parser.add_argument("--workdir", type=Path, default=Path("out/resolving_bot"))
    parser.add_argument("--strategy", type=Path, default=None, help="another strategy file instead")
    args = parser.parse_args()
    if args.iteration_cost:
        print(json.dumps({"iteration_cost": iteration_cost(), "machine": harness.machine(cores_used=1)}))
        return
    path = args.strategy if args.strategy is not None else tiny_strategy(args.workdir)
    if args.convergence:
        print(json.dumps({"convergence": convergence(path), "machine": harness.machine(cores_used=1)}))
        return
    config = LookupBot(path).config  # the rules the strategy was solved for
    resolving = ResolvingConfig(iterations=args.iterations, depth_limited=not args.no_turn)
    warm = ResolvingBot(path, config=config, seed=1, resolving=resolving)
    bot = Timed(ResolvingBot(path, config=config, seed=1, resolving=resolving))
    report = match_against_lookup(path, config, bot, warm, args)
    report.update(
        iterations=args.iterations,
        turn=not args.no_turn,
        resolve_wall_ms={street: _summary(seconds) for street, seconds in sorted(bot.wall.items())},
        decision_cpu_ms={street: _summary(seconds) for street, seconds in sorted(bot.cpu.items())},
    )
    print(json.dumps(report))


if __name__ == "__main__":
    main()

"""The re-solving bot against the lookup bot of the same blueprint: duplicate match and re-solve times.

The blueprint is a tiny Hold'em strategy (the recipe of ``tests/solver/test_lookup_bot.py``: stack 40
chips, blinds 1/2, bets ``1p,a cap=2``, an ehs card abstraction of 4/3/3/3 buckets trained on 2
flops, 100,000 ES-MCCFR iterations), built once into ``--workdir``. Both bots play it; the
re-solving bot (`solver.bots.resolving_bot.ResolvingBot`, default :class:`ResolvingConfig`) re-solves
every river it reaches. Prints one JSON object: A's (the re-solving bot's) mbb/hand with its 95%
interval over deal pairs, illegal actions, re-solves, fallbacks, and wall-clock milliseconds per
re-solve (mean, p50, p99; the machine's load average is printed too)::

    .venv/bin/python experiments/resolving_bot.py --rounds 2000 --seed 7

``--convergence`` instead prints, for rivers checked down from the deals of seeds 1-3, the subgame's
NashConv (% of the pot) after 50, 100, 200 and 400 iterations of the bot's
default re-solve, from each seat's range as its opponent infers it, at the game's stacks and at
196 chips behind, and the CPU milliseconds each step of iterations took::

    .venv/bin/python experiments/resolving_bot.py --convergence
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import harness
import numpy as np

from abstraction.cards.buckets import CardAbstractionConfig, canonical_flops
from abstraction.cards.build import build_card_abstraction
from game.play.bots import passive_action
from game.play.match import play_match
from game.rules.chance import RandomChance
from game.rules.holdem import HoldemConfig, HoldemRound
from solver.bots.lookup_bot import LookupBot
from solver.bots.resolving_bot import RIVER, ResolvingBot, ResolvingConfig
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy
from solver.resolve.hands import river_hands
from solver.resolve.resolver import SubgameSolver
from solver.resolve.tree import SubgameConfig, build_subgame_tree
from solver.solve.cfr import Solver

STACK = 40


def tiny_strategy(workdir: Path) -> Path:
    """The tiny Hold'em blueprint (see the module docstring), built once into ``workdir``."""
    strategy = workdir / "strategy.h5"
    if strategy.is_file():
        return strategy
    workdir.mkdir(parents=True, exist_ok=True)
    small = dict(
        training_flops=2, turn_training_points=500, river_training_points=500, flop_training_points=200, iterations=4
    )
    abstraction = build_card_abstraction(
        CardAbstractionConfig(buckets=(4, 3, 3, 3), method="ehs", seed=3, **small), flops=canonical_flops()[:2]
    )
    abstraction.save(workdir / "cards.h5")
    config = AbstractGameConfig(variant="holdem", rules={"stack": STACK}, card_abstraction=str(workdir / "cards.h5"))
    game = build_abstract_game(config, abstraction)
    return write_abstract_strategy(strategy, game, Solver(game, "es-mccfr", seed=2).run(100_000))


def checked_down_rounds(path: Path, street: int) -> Iterator[tuple[ResolvingBot, int, HoldemRound]]:
    """The default re-solving bot of ``path`` (stack ``STACK``) with, for seeds 1, 2 and 3, the round
    dealt by ``RandomChance(seed)``, both players checking or calling until ``street``."""
    config = HoldemConfig(stack=STACK)
    bot = ResolvingBot(path, config=config, seed=0)
    for seed in (1, 2, 3):
        round_ = HoldemRound(config, RandomChance(seed))
        while round_.street < street:
            round_.apply(passive_action(round_.observation(round_.to_act)))
        yield bot, seed, round_


def timed_steps(solver: SubgameSolver, steps: tuple[int, ...]) -> list[dict]:
    """Run ``solver`` ``steps`` iterations at a time: after each step its iterations, NashConv (% of
    the pot) and the step's CPU milliseconds."""
    points = []
    for n in steps:
        began = time.process_time()
        solver.run(n)
        cpu = time.process_time() - began
        fraction = solver.exploitability().nash_conv_pot_fraction
        points.append({"iterations": solver.iteration, "nash_conv_pct_pot": 100 * fraction, "cpu_ms": 1000 * cpu})
    return points


def convergence(path: Path) -> list[dict]:
    """NashConv of the default re-solve on checked-down rivers (see the module docstring)."""
    rows = []
    for bot, seed, round_ in checked_down_rounds(path, RIVER):
        observations = [round_.observation(seat) for seat in (0, 1)]
        hands = river_hands(np.array(round_.board))
        ranges = np.stack([hands.range_from_1326(bot.blueprint_ranges(observations[p])[p]) for p in (0, 1)])
        for stacks in (observations[1].stacks, (196, 196)):
            subgame = SubgameConfig(
                pot_chips=observations[1].contributions,
                stacks=tuple(stacks),
                first_player=1,
                bets=ResolvingConfig().bets,
            )
            solver = SubgameSolver(build_subgame_tree(subgame), hands, ranges)
            points = timed_steps(solver, (50, 50, 100, 200))
            rows.append({"seed": seed, "stacks": list(stacks), "points": points})
    return rows


def match_against_lookup(
    path: Path, config: HoldemConfig, bot: Any, warm_up: Any, arguments: argparse.Namespace
) -> dict[str, Any]:
    """A duplicate match of ``bot`` (a re-solving bot, or a wrapper of one as ``bot.bot``) against the
    lookup bot of the same strategy file, after ``warm_up`` played 10 untimed rounds (numba compiles):
    mbb/hand with its 95% interval, illegal actions, re-solves, fallbacks, errors, wall seconds, machine."""
    play_match(config, warm_up, LookupBot(path, config=config, seed=9), rounds=10, seed=99)
    machine = harness.machine(cores_used=1)
    with harness.stopwatch() as clock:
        result = play_match(
            config, bot, LookupBot(path, config=config, seed=2), rounds=arguments.rounds, seed=arguments.seed,
            duplicate=True,
        )  # fmt: skip
    mean, half_width = result.win_rate()
    resolving = getattr(bot, "bot", bot)
    return {
        "rounds": arguments.rounds,
        "seed": arguments.seed,
        "mbb_per_hand": mean,
        "ci95_mbb_per_hand": half_width,
        "illegal_actions": result.illegal_actions,
        "resolves": resolving.resolves,
        "fallbacks": resolving.fallbacks,
        "errors": resolving.errors,
        "match_seconds": clock.seconds,
        "machine": machine,
        "load_average_at_end": harness.load_average(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds (even: duplicate)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals")
    parser.add_argument("--workdir", type=Path, default=Path("out/resolving_bot"))
    parser.add_argument("--convergence", action="store_true", help="the re-solve's NashConv instead of a match")
    args = parser.parse_args()
    path = tiny_strategy(args.workdir)
    if args.convergence:
        print(json.dumps({"convergence": convergence(path), "machine": harness.machine(cores_used=1)}))
        return
    config = HoldemConfig(stack=STACK)
    resolving = ResolvingBot(path, config=config, seed=1)
    report = match_against_lookup(path, config, resolving, ResolvingBot(path, config=config, seed=1), args)
    milliseconds = np.array(resolving.resolve_seconds) * 1000
    report["resolve_ms"] = {
        "mean": float(milliseconds.mean()),
        "p50": float(np.percentile(milliseconds, 50)),
        "p99": float(np.percentile(milliseconds, 99)),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()

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
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from game.play.match import play_match
from game.rules.holdem import HoldemConfig
from solver.bots.lookup_bot import LookupBot
from solver.bots.resolving_bot import ResolvingBot, ResolvingConfig

sys.path.insert(0, str(Path(__file__).parent))
from resolving_bot import STACK, tiny_strategy


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds (even: duplicate)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the deals")
    parser.add_argument("--iterations", type=int, default=ResolvingConfig().iterations, help="CFR iterations")
    parser.add_argument("--no-turn", action="store_true", help="the river-only bot")
    parser.add_argument("--workdir", type=Path, default=Path("out/resolving_bot"))
    args = parser.parse_args()
    path = tiny_strategy(args.workdir)
    config = HoldemConfig(stack=STACK)
    resolving = ResolvingConfig(iterations=args.iterations, depth_limited=not args.no_turn)
    warm = ResolvingBot(path, config=config, seed=1, resolving=resolving)
    play_match(config, warm, LookupBot(path, config=config, seed=9), rounds=10, seed=99)  # compile first
    bot = Timed(ResolvingBot(path, config=config, seed=1, resolving=resolving))
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    result = play_match(
        config, bot, LookupBot(path, config=config, seed=2), rounds=args.rounds, seed=args.seed, duplicate=True
    )
    mean, half_width = result.win_rate()
    report = {
        "rounds": args.rounds,
        "seed": args.seed,
        "iterations": args.iterations,
        "turn": not args.no_turn,
        "mbb_per_hand": mean,
        "ci95_mbb_per_hand": half_width,
        "illegal_actions": result.illegal_actions,
        "resolves": bot.bot.resolves,
        "fallbacks": bot.bot.fallbacks,
        "errors": bot.bot.errors,
        "resolve_wall_ms": {street: _summary(seconds) for street, seconds in sorted(bot.wall.items())},
        "decision_cpu_ms": {street: _summary(seconds) for street, seconds in sorted(bot.cpu.items())},
        "match_seconds": time.perf_counter() - began,
        "load_average": [load_before, os.getloadavg()[0]],
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()

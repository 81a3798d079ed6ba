"""Hold'em end to end: card abstraction -> abstract game -> ES-MCCFR -> strategy file -> lookup bot -> matches.

Run: ``.venv/bin/python experiments/holdem_pipeline.py`` (about 4 minutes on a loaded 2-core
machine: card abstraction 55 s on first run, then cached; deals 10 s; 10^7 ES-MCCFR iterations
80-150 s; three 20,000-round matches 45 s). ``--flops 0 --output results/holdem_pipeline_allflops``
builds the card abstraction on all 1,755 flops instead (264 s on first run).

1. Card abstraction (`abstraction.cards.buckets`): ``--buckets`` per street by ``--method``; the flop
   and turn tables are built from the first ``--flops`` suit-isomorphic flops only, and hands on
   other flops use the fallback of `abstraction.cards.buckets.BucketLookup` (current strength to the nearest
   centroid). Cached in ``--work-dir`` (``build/holdem_pipeline``, not committed).
2. Abstract game (`solver.games.abstract_games`): heads-up no-limit Hold'em, stack 400, blinds 1/2, bet
   abstraction ``--bets`` (default ``1p,a cap=2``), chance = a fixed sample of ``--deals`` deals.
3. ES-MCCFR for ``--iterations`` iterations. (No exploitability here: an exact best response in
   the abstract game holds two float64 arrays of nodes x deals, 7 GB at the defaults.)
4. Strategy file (`solver.solve.strategy_file`) in the work directory.
5. Duplicate matches (`game.play.match.play_match`, ``--rounds`` rounds, seats swapped on every deal)
   of the lookup bot against the ``random``, ``checkcall`` and ``equity`` bots: mbb/hand of the
   lookup bot with the 95% confidence half-width over deal pairs, and the bot's own counters
   (decisions, off-tree fallbacks, internal errors) and mean decision time.

Outputs: ``results/holdem_pipeline.json`` (settings, command, stage timings, results) and
``results/holdem_pipeline.md`` (the same as a table).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import harness

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig, canonical_flops
from abstraction.cards.build import build_card_abstraction
from game.play.bots import make_bot
from game.play.match import play_match
from game.rules.actions import Action
from game.rules.holdem import HoldemConfig
from solver.bots.lookup_bot import LookupBot
from solver.games.abstract_games import AbstractGameConfig, build_abstract_game, write_abstract_strategy
from solver.solve.cfr import Solver

RESULTS = harness.ROOT / "results"
OPPONENTS = ("random", "checkcall", "equity")


class TimedBot:
    """Wraps a bot and accumulates the wall-clock seconds spent in ``act``."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.calls = 0

    def act(self, observation: Any) -> Action:
        started = time.perf_counter()
        action = self.bot.act(observation)
        self.seconds += time.perf_counter() - started
        self.calls += 1
        return action


def card_abstraction(arguments: argparse.Namespace, work: Path) -> tuple[CardAbstraction, Path, float, bool]:
    """Load the cached card abstraction of these settings, or build and save it; returns the seconds
    spent and whether it came from the cache."""
    buckets = tuple(int(part) for part in arguments.buckets.split(","))
    config = CardAbstractionConfig(buckets=buckets, method=arguments.method, seed=arguments.seed)  # type: ignore[arg-type]
    flop_text = "all" if arguments.flops == 0 else str(arguments.flops)
    path = work / f"cards_{arguments.method}_{'-'.join(map(str, buckets))}_flops{flop_text}_seed{arguments.seed}.h5"
    with harness.stopwatch() as clock:
        cached = path.is_file() and not arguments.rebuild
        if cached:
            abstraction = CardAbstraction.load(path)
        else:
            flops = None if arguments.flops == 0 else canonical_flops()[: arguments.flops]
            abstraction = build_card_abstraction(config, flops=flops)
            abstraction.save(path)
    return abstraction, path, clock.seconds, cached


def markdown(report: dict[str, Any]) -> str:
    settings = report["settings"]
    if settings["flops"]:
        tables = (
            f"flop/turn tables from the first {settings['flops']} canonical flops (other flops: the "
            "current-strength fallback of abstraction.cards.buckets.BucketLookup)"
        )
    else:
        tables = "flop/turn tables from all 1,755 canonical flops"
    lines = [
        "# Hold'em pipeline: abstraction -> ES-MCCFR -> strategy file -> lookup bot",
        "",
        f"Command: `{report['command']}`",
        "",
        f"Machine: {harness.machine_line(report['machine'])}.",
        "",
        f"Card abstraction: {settings['method']} buckets {settings['buckets']} (preflop, flop, turn, river), "
        f"{tables}. "
        f"Bets `{settings['bets']}`; chance = a fixed sample of {settings['deals']:,} deals; "
        f"ES-MCCFR {settings['iterations']:,} iterations, seed {settings['seed']}.",
        "",
        f"Abstract game: {report['game']['nodes']:,} nodes, {report['game']['infosets']:,} information sets.",
        "",
        "| opponent | rounds (duplicate) | lookup bot mbb/hand | 95% CI +- | off-tree decisions | errors | µs/decision |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in report["matches"]:
        lines.append(
            f"| {row['opponent']} | {row['rounds']} | {row['mbb_per_hand']:.0f} | {row['ci95_mbb_per_hand']:.0f} | "
            f"{row['off_tree']} / {row['decisions']} | {row['errors']} | {row['microseconds_per_decision']:.0f} |"
        )
    cached = " (card abstraction loaded from the cache of an earlier run)" if report["card_abstraction_cached"] else ""
    lines += [
        "",
        "mbb/hand are the lookup bot's winnings, duplicate deals with seats swapped; the 95% interval is over deal pairs.",
        "Off-tree decisions are answered by check/call (a raise beyond the abstract cap, or what follows it).",
        "",
        "Stage seconds: " + ", ".join(f"{name} {value:.1f}" for name, value in report["seconds"].items()) + cached,
        "",
    ]
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--buckets", default="16,16,16,16", help="buckets per street: preflop,flop,turn,river")
    parser.add_argument("--method", default="ehs2", choices=("ehs", "ehs2", "emd"))
    parser.add_argument("--flops", type=int, default=120, help="canonical flops in the table pass (0: all 1755)")
    parser.add_argument("--bets", default="1p,a cap=2")
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--iterations", type=int, default=10_000_000)
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per match (even: duplicate pairs)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work-dir", type=Path, default=harness.ROOT / "build" / "holdem_pipeline")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the card abstraction even if cached")
    parser.add_argument("--output", type=Path, default=RESULTS / "holdem_pipeline")
    return parser


def play_opponents(strategy_path: Path, abstraction: CardAbstraction, rounds: int, seed: int) -> list[dict[str, Any]]:
    """Duplicate matches of the lookup bot against each of :data:`OPPONENTS`: mbb/hand with its 95%
    interval, off-tree decisions, errors, illegal actions and microseconds per decision."""
    matches = []
    for number, opponent in enumerate(OPPONENTS):
        lookup = LookupBot(strategy_path, card_abstraction=abstraction, seed=seed + number)
        timed = TimedBot(lookup)
        result = play_match(
            HoldemConfig(), timed, make_bot(opponent, seed=seed + 100 + number),
            rounds=rounds, seed=seed + 200 + number, duplicate=True,
        )  # fmt: skip
        mean, half_width = result.win_rate()
        row = {
            "opponent": opponent,
            "rounds": result.rounds,
            "mbb_per_hand": mean,
            "ci95_mbb_per_hand": half_width,
            "decisions": lookup.decisions,
            "off_tree": lookup.off_tree,
            "errors": lookup.errors,
            "illegal_actions": result.illegal_actions[result.players[0]],
            "microseconds_per_decision": 1e6 * timed.seconds / max(timed.calls, 1),
        }
        matches.append(row)
        print(
            f"vs {opponent}: {mean:.0f} +- {half_width:.0f} mbb/hand, off-tree {lookup.off_tree}/{lookup.decisions}, "
            f"errors {lookup.errors}, {row['microseconds_per_decision']:.0f} µs/decision",
            flush=True,
        )
    return matches


def main(argv: list[str] | None = None) -> dict[str, Any]:
    arguments = build_parser().parse_args(argv)
    arguments.work_dir.mkdir(parents=True, exist_ok=True)
    seconds: dict[str, float] = {}

    abstraction, cards_path, seconds["card_abstraction"], cached = card_abstraction(arguments, arguments.work_dir)
    print(f"card abstraction {cards_path.name}: {seconds['card_abstraction']:.1f} s", flush=True)

    with harness.stopwatch() as clock:
        game_config = AbstractGameConfig.for_variant(
            HoldemConfig(), cards_path, bets=arguments.bets, chance="fixed", n_deals=arguments.deals,
            deal_seed=arguments.seed,
        )  # fmt: skip
        game = build_abstract_game(game_config, abstraction)
    seconds["abstract_game"] = clock.seconds
    print(
        f"abstract game: {game.tree.n_nodes} nodes, {game.tree.n_infosets} information sets, "
        f"{seconds['abstract_game']:.1f} s",
        flush=True,
    )

    with harness.stopwatch() as clock:
        solver = Solver(game, "es-mccfr", seed=arguments.seed)
        while solver.iteration < arguments.iterations:
            solver.run(min(100_000, arguments.iterations - solver.iteration))
    seconds["solve"] = clock.seconds
    print(f"solved {solver.iteration} iterations in {seconds['solve']:.1f} s", flush=True)

    strategy_path = write_abstract_strategy(arguments.work_dir / f"{arguments.output.name}_strategy.h5", game, solver)
    print(f"strategy file {strategy_path} ({strategy_path.stat().st_size / 2**20:.1f} MiB)", flush=True)

    with harness.stopwatch() as clock:
        matches = play_opponents(strategy_path, abstraction, arguments.rounds, arguments.seed)
    seconds["matches"] = clock.seconds

    report = {
        "card_abstraction_cached": cached,
        "settings": {
            "buckets": arguments.buckets, "method": arguments.method, "flops": arguments.flops,
            "bets": arguments.bets, "deals": arguments.deals, "iterations": arguments.iterations,
            "rounds": arguments.rounds, "seed": arguments.seed,
        },
        "game": {
            "nodes": game.tree.n_nodes, "groups": game.tree.n_groups, "infosets": game.tree.n_infosets,
            "table_entries": game.tree.table_size,
        },
        "matches": matches,
        "seconds": seconds,
        "machine": harness.machine(cores_used=1),
    }  # fmt: skip
    command = harness.command_line(__file__, argv, python="python")
    return harness.write_results(arguments.output, report, markdown, command)


if __name__ == "__main__":
    main()

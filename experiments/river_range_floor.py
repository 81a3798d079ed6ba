"""Does the river re-solve leak through the opponent range it assumes, or for want of a gadget? Full-game LBR
raising on the river only, and a head-to-head against the blueprint, for the final-street re-solving bot at
several range floors, with or without the safe gadget.

The re-solving bot takes the opponent's river range by Bayes from the blueprint's strategy. An opponent
that checks and calls strong hands until the river (as an LBR raising only on the river does) holds hands
that range calls unlikely. ``ResolvingConfig.range_floor`` mixes that share of uniform into the opponent's
range. ``ResolvingConfig.river_gadget`` puts the river's solves behind the safe gadget instead (each opponent
hand's value its best response to the blueprint's river). Per floor of ``--floors``, the bot
``ResolvingBot(FILE, resolving=ResolvingConfig(depth_limited=False, range_floor=F))`` (the turn plays the
blueprint, as in the engines under their clocks; ``F+gadget``: with ``river_gadget=True``; ``F+modelled``: with
``resolve_off_tree=False``, the blueprint playing rivers whose earlier history left its tree; ``F+translated``: with
``nested_gadget=False``, an off-tree river bet re-solved against the translated range alone, without the nested
gadget; ``F+turn``: with ``depth_limited=True``, the turn re-solved depth-limited too, the re-solving bot's
default; ``F+estimated``: the first solves' gadgets hold each opponent hand to its blueprint value, not its best
response, ``gadget_values="blueprint"``; any may be combined)
plays (``lookup`` among the floors: the file's lookup bot instead, LBR only, the reference a paired column can
subtract):

- full-game LBR (`solver.evaluate.full_lbr`, sizes 0.5, 1, 2 pot and all-in) raising on the river only
  (``--raise-streets``: on those streets; ``preflop,flop,turn,river`` is the whole full-game LBR),
  ``--hands`` deals per seat, ``--candidates`` K, seed ``--seed`` (the same deals for every floor);
- a duplicate match against the file's lookup bot, ``--rounds`` rounds (0: none), engine rules as the file's.

LBR's win at each floor is also given paired, deal by deal, against the first floor's (the same deals).

Each floor runs in its own process (``--jobs`` at a time). Writes ``<out>.md`` and ``<out>.json``::

    .venv/bin/python experiments/river_range_floor.py --strategy build/blueprints/2022/blueprint_swap.h5 \\
        --floors 0,0.3 --out results/river_range_floor
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import harness
import numpy as np
from harness import ROOT
from joblib import Parallel, delayed

from game.play.match import interval_95
from solver.evaluate.full_lbr import FullLBRConfig


def measure(
    strategy: Path,
    floor: float | None,
    options: tuple[str, ...],
    lbr: FullLBRConfig,
    rounds: int,
) -> dict[str, Any]:
    """LBR (``lbr``: its deals, candidates, seed and raising streets) and the head-to-head (``rounds``, 0: none)
    of the final-street re-solving bot at ``floor`` with ``options`` (``gadget``: behind the river gadget;
    ``modelled``: the blueprint where the history left its tree; ``translated``: off-tree river bets re-solved
    without the nested gadget; ``turn``: the turn re-solved depth-limited too; ``estimated``: the gadgets'
    blueprint values); ``None``: LBR against the file's lookup bot (no match)."""
    from game.play.match import play_match
    from solver.bots.lookup_bot import LookupBot
    from solver.bots.resolving_bot import ResolvingBot, ResolvingConfig
    from solver.evaluate.full_lbr import full_lbr

    seed = lbr.seed

    def make_bot() -> Any:
        if floor is None:
            return LookupBot(strategy, seed=seed, name="lookup")
        settings = ResolvingConfig(
            depth_limited="turn" in options,
            range_floor=floor,
            river_gadget="gadget" in options,
            gadget_values="blueprint" if "estimated" in options else "best_response",
            nested_gadget="translated" not in options,
            resolve_off_tree="modelled" not in options,
        )
        return ResolvingBot(strategy, resolving=settings, seed=seed, name=label(floor, options))

    bot = make_bot()
    began = time.perf_counter()
    result = full_lbr(bot.config, bot, lbr)
    row = {
        "floor": floor,
        "options": list(options),
        "lbr": result.to_dict()
        | {"bot_resolves": getattr(bot, "resolves", 0), "bot_unmodelled": getattr(bot, "unmodelled", 0)},
        "lbr_deal_mbb": (result.payoffs.mean(axis=1) * 1000.0 / bot.config.big_blind).tolist(),
        "lbr_seconds": time.perf_counter() - began,
        "match": None,
    }
    if floor is None or rounds == 0:
        return row
    bot, blueprint = make_bot(), LookupBot(strategy, seed=seed + 1, name="blueprint")
    began = time.perf_counter()
    match = play_match(bot.config, bot, blueprint, rounds=rounds, seed=seed, duplicate=True).to_dict()
    return row | {"match": match, "match_seconds": time.perf_counter() - began, "match_resolves": bot.resolves}


def add_lbr_arguments(parser: argparse.ArgumentParser, *, hands: int, streets: str) -> None:
    """The full-game LBR's settings as options: ``--hands`` (default ``hands``), ``--candidates``,
    ``--raise-streets`` (default ``streets``) and ``--seed`` (:func:`lbr_config` reads them)."""
    parser.add_argument("--hands", type=int, default=hands, help="LBR deals per seat")
    parser.add_argument("--candidates", type=int, default=500, help="LBR's candidate hands K")
    parser.add_argument(
        "--raise-streets", default=streets, help=f"comma-separated streets LBR raises on (default: {streets})"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals, the bots and LBR")


def lbr_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> FullLBRConfig:
    """The `FullLBRConfig` of :func:`add_lbr_arguments`' options (a bad street is the parser's error)."""
    streets = tuple(street.strip() for street in args.raise_streets.split(","))
    try:
        return FullLBRConfig(hands=args.hands, candidates=args.candidates, seed=args.seed, raise_streets=streets)
    except ValueError as error:
        parser.error(f"--raise-streets: {error}")


def paired_with_first(rows: list[dict[str, Any]]) -> list[str]:
    """Set each row's ``paired_mbb`` and ``paired_ci95_mbb``: its LBR win minus the first row's, deal by deal
    (``lbr_deal_mbb``, the same deals), with the 95% interval; returns them as table cells (``-`` for the first)."""
    first = np.array(rows[0]["lbr_deal_mbb"])
    for row in rows:
        difference = np.array(row["lbr_deal_mbb"]) - first
        row["paired_mbb"], row["paired_ci95_mbb"] = float(difference.mean()), interval_95(difference)
    return ["-"] + [f"{row['paired_mbb']:+,.0f} ± {row['paired_ci95_mbb']:,.0f}" for row in rows[1:]]


OPTIONS = ("gadget", "modelled", "translated", "turn", "estimated")
"""What ``+NAME`` after a floor turns on (see the module docstring)."""


def label(floor: float | None, options: tuple[str, ...] = ()) -> str:
    """A row's bot: the lookup bot, or the re-solving bot at a range floor with its options."""
    return "lookup bot" if floor is None else ", ".join([f"re-solving, range floor {floor:g}", *options])


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--strategy", type=Path, default=ROOT / "build" / "blueprints" / "2022" / "blueprint_swap.h5", help="blueprint"
    )
    parser.add_argument(
        "--floors",
        default="0,0.3",
        help="comma-separated range floors in [0, 1], each F or F+OPTION[+OPTION...] with OPTION gadget, modelled, translated, turn or estimated; "
        "lookup: the lookup bot instead",
    )
    add_lbr_arguments(parser, hands=600, streets="river")
    parser.add_argument("--rounds", type=int, default=4_000, help="head-to-head rounds (even; 0: no match)")
    parser.add_argument("--jobs", type=int, default=2, help="floors measured at a time")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "river_range_floor", help="OUT.md, OUT.json")
    args = parser.parse_args(argv)
    refused = f"--floors must be shares in [0, 1] (F, F+OPTION, OPTION one of {', '.join(OPTIONS)}) or lookup, got {args.floors!r}"
    specs = [value.strip().split("+") for value in args.floors.split(",")]
    chosen = [tuple(spec[1:]) for spec in specs]
    try:
        floors = [None if spec == ["lookup"] else float(spec[0]) for spec in specs]
    except ValueError:
        parser.error(refused)
    if not all(
        (floor is None or 0.0 <= floor <= 1.0) and set(options) <= set(OPTIONS) and len(set(options)) == len(options)
        for floor, options in zip(floors, chosen, strict=True)
    ):
        parser.error(refused)
    lbr = lbr_config(parser, args)
    streets = lbr.raise_streets
    if args.rounds < 0 or args.rounds % 2:
        parser.error(f"--rounds must be even and at least 0, got {args.rounds}")
    if not args.strategy.is_file():
        parser.error(f"no strategy file {args.strategy}")
    where = "the river only" if streets == ("river",) else ", ".join(streets)
    rows = Parallel(n_jobs=args.jobs)(
        delayed(measure)(args.strategy, floor, options, lbr, args.rounds)
        for floor, options in zip(floors, chosen, strict=True)
    )
    line = harness.command_line(__file__, argv)
    report = {"machine": harness.machine(cores_used=args.jobs), "strategy": str(args.strategy), "rows": rows}
    lines = [
        f"# The river re-solve's opponent range and gadget: full-game LBR raising on {where} and the head-to-head",
        "",
        f"Command: `{line}`.",
        f"Machine: {harness.machine_line(report['machine'])} (at the end of the run). Strategy `{args.strategy}`; the "
        f"bot re-solves final streets only; LBR raises 0.5, 1, 2 pot or all-in on {where}, "
        f"{args.hands:,} deals per seat, K = {args.candidates}; the match is duplicate, {args.rounds:,} rounds, "
        "against the file's lookup bot. mbb/hand with 95% intervals; LBR's win positive.",
        "",
        f"The paired column is LBR's win against this row's bot minus against the first row's "
        f"({label(floors[0], chosen[0])}), "
        "deal by deal (the same deals), with its 95% interval.",
        "",
        f"| bot | LBR raising on {where} | paired, minus {label(floors[0], chosen[0])} | re-solving bot vs blueprint | "
        "re-solves (LBR run) | seconds (LBR, match) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row, paired in zip(rows, paired_with_first(rows), strict=True):
        found, match = row["lbr"], row["match"]
        head_to_head = "-" if match is None else f"{match['mbb_per_hand']:+,.0f} ± {match['ci95_mbb_per_hand']:,.0f}"
        seconds = f"{row['lbr_seconds']:.0f}" + ("" if match is None else f", {row['match_seconds']:.0f}")
        lines.append(
            f"| {label(row['floor'], tuple(row['options']))} | {found['mbb_per_hand']:+,.0f} ± {found['ci95_mbb']:,.0f} | {paired} | "
            f"{head_to_head} | {found['bot_resolves']:,} | {seconds} |"
        )
    return harness.write_results(args.out, report, lambda _: "\n".join(lines), line)


if __name__ == "__main__":
    main()

"""Where a blueprint leaks: full-game LBR allowed to raise on one street at a time, with off-tree and
with in-tree sizes, against the lookup bot and the re-solving bot of the same file.

Each run is ``vcfr lbr FILE --actions full --raise-streets S --sizes Z [--bot resolve]``: LBR folds,
checks or calls everywhere and raises only on the streets ``S`` (each restricted LBR is still a lower
bound on the bot's exploitability). Per year with a strategy file ``<bots>/<year>/blueprint_<variant>.h5``
(as ``experiments/full_lbr_per_year.py``), on the same deals and candidates (``--seed``):

- against the lookup bot, ``--hands`` deals per seat: first raising nowhere (``none``: what LBR's folds and
  calls alone win, the base the raising rows add to), then for each street alone and all four, with each size
  set of ``--size-sets`` (default ``0.5,1,2`` pot, the off-tree sizes of the full-game LBR, and ``1`` pot,
  a size of every postflop tree of the blueprints; all-in always added): if LBR wins about as much with
  the tree's own sizes, the leak is the card abstraction and the strategy, not the translation of sizes;
- against the re-solving bot (which re-solves Hold'em and Swap turns and rivers, and the final street of
  River of Blood and Bounty, with exact cards), ``--resolve-hands`` deals per seat, for the streets of
  ``--resolve-streets`` (default turn and river) where the year's variant re-solves (:func:`resolved_streets`: not
  the Auction, whose re-solving bot plays its blueprint), with the first size set.

Writes ``<out>.md`` and ``<out>.json``; ``--cache`` keeps each finished command so a killed run resumes::

    .venv/bin/python experiments/lbr_by_street.py --years 2022 --cache build/lbr_by_street --out results/lbr_by_street
"""

from __future__ import annotations

import argparse
import functools
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import harness
from full_lbr_per_year import YEARS, blueprints, parse_years, run, vcfr
from harness import ROOT

from game.rules.nolimit import STREET_NAMES as STREETS

ALL = ",".join(STREETS)


def resolved_streets(variant: str) -> tuple[str, ...]:
    """The streets where the variant's re-solving bot re-solves, by the bot's own rules flags
    (`solver.bots.resolving_bot.re_solves_variant`, `depth_limited_turn`): the final street (a river, or
    a River of Blood run street, which ``--raise-streets river`` covers), the turn where it is
    depth-limited, none at the Auction; elsewhere it plays its lookup bot."""
    from game.rules.variants import get_variant
    from solver.bots.resolving_bot import depth_limited_turn, re_solves_variant

    config = get_variant(variant).config_class()
    if not re_solves_variant(config):
        return ()
    return ("turn", "river") if depth_limited_turn(config) else ("river",)


def command(strategy: Path, bot: str, streets: str, sizes: str, args: argparse.Namespace) -> list[str]:
    """One restricted full-game LBR run (JSON on stdout)."""
    hands = args.resolve_hands if bot == "resolve" else args.hands
    return [
        *vcfr(), "lbr", str(strategy), "--actions", "full", "--bot", bot, "--raise-streets", streets,
        "--sizes", sizes, "--candidates", str(args.candidates), "--hands", str(hands),
        "--seed", str(args.seed), "--json", "--quiet",
    ]  # fmt: skip


def row(year: str, bot: str, streets: str, sizes: str, outcome: dict[str, Any]) -> str:
    """One markdown row: year, bot, LBR's raising streets and sizes, mbb/hand ± CI, hands, off-tree, seconds."""
    where = {ALL: "all four", "none": "none (folds, checks, calls)"}.get(streets, streets)
    head = f"| {year} | {bot} | {where} | {'-' if streets == 'none' else sizes} |"
    if "error" in outcome:
        return f"{head} error: {' '.join(outcome['error'])} | | | {outcome['seconds']:.0f} |"
    result = outcome["result"]
    return (
        f"{head} {result['mbb_per_hand']:+,.0f} ± {result['ci95_mbb']:,.0f} | {result['hands']:,} | "
        f"{result['bot_off_tree']:,} of {result['bot_decisions']:,} | {outcome['seconds']:.0f} |"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bots", type=Path, default=ROOT / "build" / "blueprints", help="folder of <year>/blueprint_<variant>.h5"
    )
    parser.add_argument("--years", default="2022", help="comma-separated years (default: 2022)")
    parser.add_argument("--hands", type=int, default=1_500, help="deals per seat against the lookup bot")
    parser.add_argument("--resolve-hands", type=int, default=600, help="deals per seat against the re-solving bot")
    parser.add_argument("--candidates", type=int, default=500, help="LBR's candidate hands K")
    parser.add_argument("--size-sets", default="0.5,1,2;1", help="semicolon-separated LBR size sets (pot fractions)")
    parser.add_argument("--resolve-streets", default="turn;river", help="semicolon-separated street sets (0: none)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals, candidates and runouts")
    parser.add_argument("--jobs", type=int, default=2, help="commands run at a time")
    parser.add_argument("--cache", type=Path, default=None, help="keep each finished run here and reuse it (resume)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "lbr_by_street", help="writes OUT.md, OUT.json")
    args = parser.parse_args(argv)
    years = parse_years(parser, args.years)
    size_sets = [sizes.strip() for sizes in args.size_sets.split(";") if sizes.strip()]
    resolve_streets = [] if args.resolve_streets == "0" else [s.strip() for s in args.resolve_streets.split(";")]

    runs: list[tuple[str, str, str, str]] = []
    found, missing = blueprints(args.bots, years)
    for year in found:
        runs.append((year, "lookup", "none", size_sets[0]))
        runs += [(year, "lookup", streets, sizes) for sizes in size_sets for streets in (*STREETS, ALL)]
        resolved = resolved_streets(YEARS[year])
        runs += [(year, "resolve", streets, size_sets[0]) for streets in resolve_streets if streets in resolved]
    commands = [command(found[year], bot, streets, sizes, args) for year, bot, streets, sizes in runs]
    with ThreadPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(functools.partial(run, cache=args.cache), commands))

    line = harness.command_line(__file__, argv)
    report = {
        "machine": harness.machine(cores_used=args.jobs),
        "seed": args.seed,
        "candidates": args.candidates,
        "runs": [
            {"year": year, "variant": YEARS[year], "bot": bot, "raise_streets": streets, "sizes": sizes, **outcome}
            for (year, bot, streets, sizes), outcome in zip(runs, outcomes, strict=True)
        ],
        "missing": missing,
    }
    lines = [
        "# Full-game LBR street by street",
        "",
        f"Command: `{line}`.",
        f"Machine: {harness.machine_line(report['machine'])} (at the end of the run). Seed {args.seed}, "
        f"{args.candidates} candidates; LBR raises only on the streets named (all-in added to its sizes) and "
        "checks, calls or folds elsewhere; mbb/hand with the 95% interval, LBR's win positive; the bot's "
        "off-tree decisions are those it could not map onto its tree at all (translated sizes are not counted).",
        "",
        "| year | bot | LBR raises on | LBR sizes (pot) | mbb/hand | deals per seat | bot off its tree | seconds |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    lines += [row(*key, outcome) for key, outcome in zip(runs, outcomes, strict=True)]
    lines += [f"| {year} | - | - | - | {reason} | | | |" for year, reason in missing.items()]
    return harness.write_results(args.out, report, lambda _: "\n".join(lines), line)


if __name__ == "__main__":
    main()

"""The adaptation table of issue "Win matches": per Pokerbots year, the blueprint, the equity bot and the
adaptive bot through the whole gauntlet, and the adaptive bot against the blueprint itself.

Per year with a strategy file ``<bots>/<year>/blueprint_<variant>.h5`` (as ``experiments/full_lbr_per_year.py``;
a missing file gives a line saying so), each a child process run one after the other:

- ``vcfr gauntlet --variant V --bot B --hands N --jobs J --json`` for B the file (its lookup bot), ``equity``
  and ``adaptive:FILE`` (duplicate, engine rules, seed 0: the same deals for every bot and opponent), and with
  ``--resolve`` ``adaptive:resolve-final:FILE`` too: the adaptive bot over the re-solving bot that re-solves
  final streets (what ``vcfr export-bot --resolve`` plays under the engines' clocks; in the Auction it is the
  lookup bot, which re-solves nothing there);
- ``experiments/adaptation_safety.py --variant V --base FILE --opponent FILE --rounds N --seed 0`` (in
  this process): the adaptive bot against its own blueprint, a near-equilibrium opponent, paired deal by
  deal with the blueprint against itself on the same deals (0 in expectation: a duplicate match of a
  strategy against itself). The issue's floor is -30 mbb/hand, interval included: the paired
  difference's lower end.

Per opponent the table gives the three win rates (mbb/hand, 95% interval) and two verdicts:

- *meets target*: ``yes`` when the better of the blueprint's and the equity bot's means lies inside or
  below the adaptive bot's interval, ``overlap`` when only the two intervals overlap, ``no`` otherwise
  (with ``--resolve``, the same for the re-solving adaptive bot);
- *above the blueprint*: ``clearly`` when the adaptive bot's interval lies wholly above the blueprint's.

``--match-rounds M`` plays each gauntlet as independent matches of M rounds with fresh bots
(`game.play.gauntlet`), the interval over the matches: an adaptive bot's one long match is one path
of its learning, and a tournament plays 1,000-round matches.

Writes ``<out>.md`` and ``<out>.json``; ``--cache`` keeps each finished command (keyed by its command line)
so a killed run resumes::

    .venv/bin/python experiments/adaptation_gauntlets.py --hands 20000 --cache build/adaptation_gauntlets \\
        --out results/adaptation_gauntlets
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import harness
from adaptation_safety import measure
from full_lbr_per_year import YEARS, add_blueprint_options, blueprints, parse_years, run, vcfr
from harness import ROOT

LOOSE = ("maniac", "station", "overbettor")
"""The loose styles the issue names: against them the adaptive bot must be clearly above the blueprint."""
GAUNTLET_BOTS = ("blueprint", "equity", "adaptive")
"""The three bots each year's gauntlets seat: the file's lookup bot, the equity bot, the adaptive bot."""
RESOLVING = "adaptive_resolve"
"""The fourth gauntlet's bot with ``--resolve``: the adaptive bot over the final-street re-solving bot."""
SAFETY_FLOOR_MBB = -30.0
"""The issue's floor against the blueprint itself (mbb/hand, the lower end of the interval)."""


def verdicts(blueprint: dict[str, Any], equity: dict[str, Any], adaptive: dict[str, Any]) -> tuple[str, str]:
    """``(meets target, above the blueprint)`` of one opponent's three gauntlet rows (see the module docstring)."""
    better = max((blueprint, equity), key=lambda row: row["mbb_per_hand"])
    top = adaptive["mbb_per_hand"] + adaptive["ci95_mbb_per_hand"]
    if better["mbb_per_hand"] <= top:
        meets = "yes"
    elif better["mbb_per_hand"] - better["ci95_mbb_per_hand"] <= top:
        meets = "overlap"
    else:
        meets = "no"
    low = adaptive["mbb_per_hand"] - adaptive["ci95_mbb_per_hand"]
    above = "clearly" if low > blueprint["mbb_per_hand"] + blueprint["ci95_mbb_per_hand"] else "no"
    return meets, above


def commands(
    variant: str, strategy: Path, hands: int, jobs: int, resolve: bool = False, match_rounds: int | None = None
) -> dict[str, list[str]]:
    """The year's gauntlet commands, by bot (:data:`GAUNTLET_BOTS`, and :data:`RESOLVING` if ``resolve``),
    with ``--match-rounds`` if ``match_rounds``."""
    gauntlet = ["gauntlet", "--variant", variant, "--hands", str(hands), "--jobs", str(jobs), "--json"]
    if match_rounds is not None:
        gauntlet[-1:-1] = ["--match-rounds", str(match_rounds)]
    bots = {"blueprint": str(strategy), "equity": "equity", "adaptive": f"adaptive:{strategy}"}
    if resolve:
        bots[RESOLVING] = f"adaptive:resolve-final:{strategy}"
    return {name: [*vcfr(), *gauntlet[:3], "--bot", bot, *gauntlet[3:]] for name, bot in bots.items()}


def safety(variant: str, strategy: Path, rounds: int, cache: Path | None) -> dict[str, Any]:
    """The paired safety match (`adaptation_safety.measure`, seed 0) with its command and seconds, kept in
    ``cache`` (keyed by its command line, `harness.cached_stage`) as :func:`full_lbr_per_year.run` keeps commands."""
    arguments = ["--variant", variant, "--base", str(strategy), "--opponent", str(strategy), "--rounds", str(rounds)]
    line = " ".join(["python experiments/adaptation_safety.py", *arguments, "--seed", "0"])

    seconds, result = harness.cached_stage(
        cache, line, lambda: measure(variant, str(ROOT / strategy), str(ROOT / strategy), rounds, 0)
    )
    return {"command": line, "seconds": seconds, "result": result}


def _cell(row: dict[str, Any]) -> str:
    return f"{row['mbb_per_hand']:+,.0f} ± {row['ci95_mbb_per_hand'] or 0:,.0f}"


def year_lines(year: str, outcomes: dict[str, dict[str, Any]]) -> tuple[list[str], dict[str, Any]]:
    """One year's markdown (its commands, the table, the safety match) and its verdicts."""
    variant = YEARS[year]
    lines = [f"## {year} ({variant})", "", "```bash", *(outcome["command"] for outcome in outcomes.values()), "```", ""]
    failed = {name: outcome["error"] for name, outcome in outcomes.items() if "error" in outcome}
    if failed:
        return [*lines, *(f"- `{name}` failed: {' '.join(error)}" for name, error in failed.items()), ""], {}
    bots = [name for name in (*GAUNTLET_BOTS, RESOLVING) if name in outcomes]
    rows = {name: {row["opponent"]: row for row in outcomes[name]["result"]["opponents"]} for name in bots}
    resolving = RESOLVING in rows
    header = "| opponent | blueprint | equity bot | adaptive | meets target | above the blueprint |"
    rule = "| --- | ---: | ---: | ---: | --- | --- |"
    if resolving:
        header += " adaptive, re-solving | meets target | above the blueprint |"
        rule += " ---: | --- | --- |"
    lines += [header, rule]
    summary: dict[str, Any] = {"opponents": {}}
    for opponent, blueprint in rows["blueprint"].items():
        equity, adaptive = rows["equity"][opponent], rows["adaptive"][opponent]
        meets, above = verdicts(blueprint, equity, adaptive)
        summary["opponents"][opponent] = {"meets": meets, "above_blueprint": above}
        name = f"**`{opponent}`**" if opponent in LOOSE else f"`{opponent}`"
        line = f"| {name} | {_cell(blueprint)} | {_cell(equity)} | {_cell(adaptive)} | {meets} | {above} |"
        if resolving:
            meets, above = verdicts(blueprint, equity, rows[RESOLVING][opponent])
            summary["opponents"][opponent] |= {"resolving_meets": meets, "resolving_above_blueprint": above}
            line += f" {_cell(rows[RESOLVING][opponent])} | {meets} | {above} |"
        lines.append(line)
    faults = sum(row["faults"]["bot"] for name in bots for row in rows[name].values())
    paired = outcomes["safety"]["result"]
    low = paired["paired_difference_mbb_per_hand"] - paired["paired_difference_ci95"]
    summary |= {"bot_faults": faults, "safety_paired_low_mbb": low, "safety_met": low >= SAFETY_FLOOR_MBB}
    seconds = ", ".join(f"{name} {outcome['seconds']:.0f}" for name, outcome in outcomes.items())
    lines += [
        "",
        f"Our bots' faults over the {len(bots)} gauntlets: {faults}. Loose styles in bold. Against its blueprint, "
        f"{paired['rounds']:,} rounds: the adaptive bot {paired['adaptive_mbb_per_hand']:+,.0f} ± "
        f"{paired['adaptive_ci95']:,.0f} mbb/hand, the blueprint itself {paired['base_mbb_per_hand']:+,.0f} ± "
        f"{paired['base_ci95']:,.0f} on the same deals; paired difference "
        f"{paired['paired_difference_mbb_per_hand']:+,.0f} ± {paired['paired_difference_ci95']:,.0f} "
        f"({paired['deviations']:,} deviations, {paired['identical_rounds']:,} identical rounds), lower end "
        f"{low:+,.0f} against the floor {SAFETY_FLOOR_MBB:+,.0f}: {'met' if low >= SAFETY_FLOOR_MBB else 'not met'}. "
        f"Seconds: {seconds}.",
        "",
    ]
    return lines, summary


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_blueprint_options(parser)
    parser.add_argument("--hands", type=int, default=20_000, help="duplicate hands per opponent and match rounds")
    parser.add_argument("--jobs", type=int, default=2, help="each gauntlet's worker processes")
    parser.add_argument("--cache", type=Path, default=None, help="keep each finished run here and reuse it (resume)")
    parser.add_argument(
        "--resolve", action="store_true", help="also the adaptive bot over the final-street re-solving bot"
    )
    parser.add_argument(
        "--match-rounds",
        type=int,
        default=None,
        help="the gauntlets' hands in independent matches of this many rounds, fresh bots each, the interval "
        "over matches (vcfr gauntlet --match-rounds; default: one match)",
    )
    parser.add_argument(
        "--out", type=Path, default=ROOT / "results" / "adaptation_gauntlets", help="writes OUT.md, OUT.json"
    )
    args = parser.parse_args(argv)
    years = parse_years(parser, args.years)
    if args.hands < 2 or args.hands % 2:
        parser.error(f"--hands must be even and at least 2 (duplicate pairs), got {args.hands}")
    found, missing = blueprints(args.bots if args.bots.is_absolute() else ROOT / args.bots, years)
    line = harness.command_line(__file__, argv)
    report: dict[str, Any] = {"machine": None, "hands": args.hands, "years": {}, "missing": missing}
    lines = [
        "# Adaptation: the blueprint, the equity bot and the adaptive bot through the gauntlet, per year",
        "",
        f"Command: `{line}`.",
        "",
        f"{args.hands:,} duplicate hands per opponent, engine rules, seed 0 (the same deals for every bot and "
        "opponent); mbb/hand with the 95% Student-t interval "
        + (
            "over deal pairs"
            if args.match_rounds is None
            else f"over {args.hands // args.match_rounds} independent matches of {args.match_rounds:,} rounds "
            "(fresh bots each; the safety match is one match)"
        )
        + ". *Meets target*: the better of "
        "the blueprint's and the equity bot's means inside or below the adaptive bot's interval (`yes`), or "
        "only the intervals overlapping (`overlap`). *Above the blueprint*: the adaptive bot's interval wholly "
        "above the blueprint's (`clearly`).",
        "",
    ]
    if args.resolve:
        lines += [
            "*Adaptive, re-solving*: `adaptive:resolve-final:FILE`, the adaptive bot over the re-solving bot that "
            "re-solves final streets (in the Auction the lookup bot: it re-solves nothing there); its verdicts as "
            "the adaptive bot's.",
            "",
        ]
    for year, strategy in found.items():
        relative = strategy.relative_to(ROOT) if strategy.is_relative_to(ROOT) else strategy
        outcomes = {
            name: run(command, args.cache)
            for name, command in commands(
                YEARS[year], relative, args.hands, args.jobs, args.resolve, args.match_rounds
            ).items()
        }
        outcomes["safety"] = safety(YEARS[year], relative, args.hands, args.cache)
        year_text, summary = year_lines(year, outcomes)
        lines += year_text
        report["years"][year] = {"variant": YEARS[year], "runs": outcomes, "summary": summary}
    lines += [f"- {year}: {reason}" for year, reason in missing.items()]
    report["machine"] = harness.machine(cores_used=args.jobs)
    lines.insert(3, f"Machine: {harness.machine_line(report['machine'])} (at the end of the run).")
    return harness.write_results(args.out, report, lambda _: "\n".join(lines), line)


if __name__ == "__main__":
    main()

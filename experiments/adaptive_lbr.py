"""How exploitable is the adaptive bot? Full-game LBR against it and against its own lookup bot, paired, per year.

Issue "Win matches" asks that exploiting the opponent stay safe. The safety match plays the blueprint and
the switching opponent; this plays the strongest adversary we have, the full-game LBR (`solver.evaluate.full_lbr`:
sizes 0.5, 1, 2 pot and all-in, bids 0, 0.25 and 1 pot and all-in at the Auction), which reads the bot's
policy at every decision. Its deals are one match to the adaptive bot: it learns LBR round by round and may
deviate where its rules and its budget ("risk what you've won") let it.

Per year with a strategy file ``<bots>/<year>/blueprint_<variant>.h5`` (as ``full_lbr_per_year.py``), two
runs on the same deals (``--hands`` per seat, K = ``--candidates``, ``--seed``), each in its own process
(``--jobs`` at a time):

- ``adaptive``: ``adaptive:FILE`` (`game.play.adaptive.adaptive_player`, as ``vcfr lbr --bot adaptive``);
- ``lookup``: a copy of that adaptive bot's base, taken before play (the same lookup bot, seed and random
  draws), so that the two runs play identically until the adaptive bot's policy first differs from its
  base's: LBR reads that policy, so a deviation the budget would allow any candidate hand changes LBR's
  play, and after the bot's first deviation the base's random draws fall out of step. The paired
  difference, deal by deal, is what adapting changed.

Writes ``<out>.md`` and ``<out>.json``::

    .venv/bin/python experiments/adaptive_lbr.py --hands 2400 --out results/adaptive_lbr
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path
from typing import Any

import harness
import numpy as np
from full_lbr_per_year import YEARS, add_blueprint_options, blueprints, parse_years
from harness import ROOT
from joblib import Parallel, delayed

BOTS = ("lookup", "adaptive")
"""The two runs per year (the module docstring)."""


def measure(variant: str, strategy: Path, bot_kind: str, hands: int, candidates: int, seed: int) -> dict[str, Any]:
    """Full-game LBR against ``bot_kind`` (:data:`BOTS`) of ``strategy``: the summary, LBR's mbb per deal
    (mean of its two seats), and the adaptive bot's counters."""
    import solver.cli.main  # noqa: F401  (registers strategy files as players)
    from game.play.cli_game import make_player
    from game.rules.variants import get_variant
    from solver.evaluate.full_lbr import FullLBRConfig, full_lbr

    config = get_variant(variant).config_class(rules="engine")
    adaptive = make_player(f"adaptive:{strategy}", config, seed)
    bot = adaptive if bot_kind == "adaptive" else copy.deepcopy(adaptive.base)
    began = time.perf_counter()
    result = full_lbr(config, bot, FullLBRConfig(hands=hands, candidates=candidates, seed=seed))
    counters = adaptive.summary() if bot_kind == "adaptive" else {}
    return {
        "bot": bot_kind,
        "lbr": result.to_dict(),
        "lbr_deal_mbb": (result.payoffs.mean(axis=1) * 1000.0 / config.big_blind).tolist(),
        "seconds": time.perf_counter() - began,
        **counters,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from game.play.match import interval_95

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_blueprint_options(parser)
    parser.add_argument("--hands", type=int, default=2_400, help="LBR deals per seat")
    parser.add_argument("--candidates", type=int, default=500, help="LBR's candidate hands K")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals, the bots and LBR")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "adaptive_lbr", help="writes OUT.md, OUT.json")
    args = parser.parse_args(argv)
    years = parse_years(parser, args.years)
    if args.hands < 2:
        parser.error(f"--hands must be at least 2, got {args.hands}")
    if args.candidates < 1:
        parser.error(f"--candidates must be at least 1, got {args.candidates}")
    found, missing = blueprints(args.bots if args.bots.is_absolute() else ROOT / args.bots, years)
    runs = [(year, kind) for year in found for kind in BOTS]
    results = Parallel(n_jobs=args.jobs)(
        delayed(measure)(YEARS[year], found[year], kind, args.hands, args.candidates, args.seed) for year, kind in runs
    )
    line = harness.command_line(__file__, argv)
    report: dict[str, Any] = {"machine": harness.machine(cores_used=args.jobs), "years": {}, "missing": missing}
    lines = [
        "# Full-game LBR against the adaptive bot and against its lookup bot, paired, per year",
        "",
        f"Command: `{line}`.",
        f"Machine: {harness.machine_line(report['machine'])} (at the end of the run). LBR raises 0.5, 1, 2 pot or "
        f"all-in (bids 0, 0.25, 1 pot or all-in), {args.hands:,} deals per seat, K = {args.candidates}, seed "
        f"{args.seed}; engine rules. The lookup bot is a copy of the adaptive bot's base (the same draws): the two "
        "runs play alike until the adaptive policy LBR reads first differs from the base's, and the paired "
        "difference, deal by deal, is what adapting changed. mbb/hand with 95% intervals; LBR's win positive.",
        "",
        "| year | LBR vs lookup bot | LBR vs adaptive bot | paired, adaptive minus lookup | deals that differ | "
        "deviations | rule at the end |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for year in found:
        rows = {row["bot"]: row for (y, _), row in zip(runs, results, strict=True) if y == year}
        lookup, adaptive = rows["lookup"], rows["adaptive"]
        difference = np.array(adaptive["lbr_deal_mbb"]) - np.array(lookup["lbr_deal_mbb"])
        half = interval_95(difference)
        paired = {
            "mbb_per_hand": float(difference.mean()),
            "ci95_mbb": None if half is None else float(half),
            "deals_differing": int(np.count_nonzero(difference)),
        }
        report["years"][year] = {"variant": YEARS[year], "strategy": str(found[year]), "rows": rows, "paired": paired}
        cells = [f"{row['lbr']['mbb_per_hand']:+,.0f} ± {row['lbr']['ci95_mbb']:,.0f}" for row in (lookup, adaptive)]
        lines.append(
            f"| {year} ({YEARS[year]}) | {cells[0]} | {cells[1]} | {paired['mbb_per_hand']:+,.0f} ± "
            f"{paired['ci95_mbb'] or 0:,.0f} | {paired['deals_differing']:,} of {args.hands:,} | "
            f"{adaptive['deviations']:,} | {adaptive['verdict_at_end'] or 'none'} |"
        )
    lines += ["", *(f"- {year}: {reason}" for year, reason in missing.items())]
    return harness.write_results(args.out, report, lambda _: "\n".join(lines), line)


if __name__ == "__main__":
    main()

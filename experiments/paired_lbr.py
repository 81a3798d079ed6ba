"""Full-game LBR against the lookup bots of several strategy files of one game, paired deal by deal.

Two builds of a blueprint (another recipe, another bid set, another solve) are compared by the full-game LBR
(`solver.evaluate.full_lbr`: off-tree sizes 0.5, 1, 2 pot and all-in; in the Auction bids 0, 0.25 and 1 pot and
all-in) on the same deals: each file's lookup bot meets the same ``--hands`` deals per seat, candidates K and seed,
so the difference of two rows is measured deal by deal, with an interval far narrower than the two rows' own
when the bots play alike. Each file runs in its own process (``--jobs`` at a time; the measurement is
`river_range_floor.measure`'s lookup row). Writes ``<out>.md`` and ``<out>.json``::

    .venv/bin/python experiments/paired_lbr.py --strategies A.h5,B.h5 --hands 4800 --out results/paired_lbr
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import harness
from harness import ROOT
from joblib import Parallel, delayed
from river_range_floor import add_lbr_arguments, lbr_config, measure, paired_with_first


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", required=True, help="comma-separated strategy files of one game")
    add_lbr_arguments(parser, hands=1_500, streets="preflop,flop,turn,river")
    parser.add_argument("--jobs", type=int, default=2, help="files measured at a time")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "paired_lbr", help="OUT.md, OUT.json")
    args = parser.parse_args(argv)
    paths = [Path(value.strip()) for value in args.strategies.split(",") if value.strip()]
    missing = [str(path) for path in paths if not path.is_file()]
    if len(paths) < 2 or missing:
        parser.error(f"--strategies needs two or more strategy files; missing: {', '.join(missing) or 'none'}")
    lbr = lbr_config(parser, args)
    streets = lbr.raise_streets
    rows = Parallel(n_jobs=args.jobs)(delayed(measure)(path, None, (), lbr, 0) for path in paths)
    for path, row in zip(paths, rows, strict=True):
        row["strategy"] = str(path)
    cells = paired_with_first(rows)
    line = harness.command_line(__file__, argv)
    report = {"machine": harness.machine(cores_used=args.jobs), "rows": rows}
    lines = [
        "# Full-game LBR against several strategy files' lookup bots, paired deal by deal",
        "",
        f"Command: `{line}`.",
        f"Machine: {harness.machine_line(report['machine'])} (at the end of the run). LBR raises on "
        f"{', '.join(streets)}; {args.hands:,} deals per seat, K = {args.candidates}, seed {args.seed}: the same deals "
        "for every file. mbb/hand with 95% intervals; LBR's win positive. The paired column is the row's win minus "
        "the first row's, deal by deal.",
        "",
        f"| strategy | LBR's win | paired, minus `{paths[0].name}` | seconds |",
        "| --- | ---: | ---: | ---: |",
    ]
    for row, paired in zip(rows, cells, strict=True):
        found = row["lbr"]
        lines.append(
            f"| `{row['strategy']}` | {found['mbb_per_hand']:+,.0f} ± {found['ci95_mbb']:,.0f} | {paired} | "
            f"{row['lbr_seconds']:.0f} |"
        )
    return harness.write_results(args.out, report, lambda _: "\n".join(lines), line)


if __name__ == "__main__":
    main()

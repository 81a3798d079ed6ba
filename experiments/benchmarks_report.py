"""Writes results/benchmarks.md from the benchmarks' JSON results: one table, every figure read from a file.

Run::

    python experiments/benchmarks_report.py            # results/*.json -> results/benchmarks.md

Each row names the command that wrote its JSON (the `vcfr bench ...` commands time ours beside a
peer in the same run; the parallel rows come from `experiments/parallel_scaling_abstract.py`).
Targets are the project's requirements; "met" / "missed" is computed from the figures.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SOURCES = {
    "evaluator": ("bench_evaluator.json", "vcfr bench evaluator --json"),
    "engine": ("bench_engine.json", "vcfr bench engine --json"),
    "client": ("bench_client.json", "vcfr bench client --json"),
    "abstraction": ("bench_abstraction.json", "vcfr bench abstraction --json"),
    "leduc": ("bench_solver_leduc.json", "vcfr bench solver --game leduc --json"),
    "abstract": ("bench_abstract.json", "vcfr bench abstract --seconds 10 --json"),
    "parallel": ("parallel_scaling_abstract.json", "python experiments/parallel_scaling_abstract.py --wait-idle 10"),
}
"""Benchmark name: (JSON file in the results folder, the command that writes it)."""

RIVER_NOTE = (
    "The river bucket computes the hand's exact strength against every opponent holding on the spot "
    "(2.4e9 river classes cannot be a table), so it misses the 1 µs target by design."
)

Row = tuple[str, str, str, str, str, bool | None]
"""what, command, ours, peer (same run), target, met (None: no numeric target)."""


def load(results: Path) -> dict[str, dict[str, Any]]:
    """Every benchmark's JSON, by the names of `SOURCES`; a missing or unreadable file is an error naming it
    and the command that writes it."""
    reports = {}
    for name, (file, command) in SOURCES.items():
        path = results / file
        try:
            reports[name] = json.loads(path.read_text())
        except FileNotFoundError:
            raise FileNotFoundError(f"{path} is missing: write it with `{command}`") from None
        except json.JSONDecodeError as error:
            raise ValueError(f"{path} is not valid JSON ({error}): rewrite it with `{command}`") from None
    return reports


def _command(name: str) -> str:
    file, command = SOURCES[name]
    return f"`{command}` → `{file}`"


def _evaluator(report: dict[str, Any]) -> list[Row]:
    peers = report["peers"]
    best = max(peers.values())
    ours = report["ours_evals_per_s"]
    return [
        (
            "7-card evaluations / s, 1 thread",
            _command("evaluator"),
            f"{ours / 1e6:.0f} M/s ({report['ours_checked_evals_per_s'] / 1e6:.0f} M/s with input checks)",
            ", ".join(f"{peer} {rate / 1e6:.2f} M/s" for peer, rate in peers.items()) + f": {ours / best:.0f}x",
            ">= 150 M/s, >= 15x",
            ours >= 150e6 and ours / best >= 15,
        )
    ]


def _engine(report: dict[str, Any]) -> list[Row]:
    rates = report["rounds_per_s"]
    others = ", ".join(
        f"{variant.replace('_', ' ')} {rate:,.0f}" for variant, rate in rates.items() if variant != "holdem"
    )
    ratio = rates["holdem"] / report["pokerkit_rounds_per_s"]
    return [
        (
            "random heads-up rounds / s",
            _command("engine"),
            f"holdem {rates['holdem']:,.0f} ({others})",
            f"PokerKit {report['pokerkit_rounds_per_s']:,.0f}: {ratio:.1f}x",
            ">= 10x",
            ratio >= 10,
        )
    ]


def _client(report: dict[str, Any]) -> list[Row]:
    return [
        (
            f"client + {report['bot']} bot decision ({report['variant']}, {report['decisions']:,} decisions)",
            _command("client"),
            f"mean {report['mean_ms']:.3f} ms, p99 {report['p99_ms']:.3f} ms",
            "—",
            "p99 < 1 ms",
            report["p99_ms"] < 1.0,
        )
    ]


def _abstraction(report: dict[str, Any]) -> list[Row]:
    equity_ms = report["flop_all_hands_ms"]
    lookups_ns = (report["lookup_numba_ns"], report["turn_lookup_numba_ns"])
    return [
        (
            "exact flop equity, all 1,326 hands",
            _command("abstraction"),
            f"{equity_ms:.1f} ms ({report['threads']} threads), {report['flop_all_hands_1thread_ms']:.1f} ms (1 thread)",
            f"eval7 Monte Carlo {report['peer_eval7_mc_ms_per_hand']:.1f} ms per hand "
            f"({report['peer_eval7_all_hands_projected_ms'] / 1e3:.1f} s for all hands)",
            "<= 20 ms",
            equity_ms <= 20,
        ),
        (
            f"feature pass over all 1,755 flops (measured {report['all_flops_measured']:,})",
            "same",
            f"{report['all_flops_s']:.1f} s on {report['threads']} cores",
            "—",
            "<= 60 s",
            report["all_flops_s"] <= 60,
        ),
        (
            "bucket lookup",
            "same",
            f"flop {lookups_ns[0] / 1e3:.2f} µs, turn {lookups_ns[1] / 1e3:.2f} µs, river "
            f"{report['river_lookup_numba_us']:.1f} µs in numba; {report['lookup_python_us']:.1f} µs from Python",
            "—",
            "flop and turn <= 1 µs, from Python <= 50 µs",
            max(lookups_ns) <= 1e3 and report["lookup_python_us"] <= 50,
        ),
    ]


def _leduc(report: dict[str, Any]) -> list[Row]:
    cfr, mccfr = report["result"]["cfr+"], report["result"]["es-mccfr"]
    return [
        (
            "Leduc CFR+ ms / iteration",
            _command("leduc"),
            f"{cfr['ours_ms_per_iter']:.3f} ms; {cfr['ours_expl_1000']:.2e} chips after 1,000 iterations",
            f"OpenSpiel C++ {cfr['openspiel_ms_per_iter']:.2f} ms; {cfr['openspiel_expl_1000']:.2e} chips: "
            f"{cfr['speedup']:.0f}x",
            ">= 50x",
            cfr["speedup"] >= 50,
        ),
        (
            "Leduc ES-MCCFR iterations / s",
            "same",
            f"{mccfr['ours_iters_per_s'] / 1e3:,.0f}k/s; {mccfr['ours_expl_10s']:.4f} chips after 10 s, "
            f"{mccfr['ours_expl_60s']:.4f} after 60 s",
            f"OpenSpiel C++ {mccfr['openspiel_iters_per_s'] / 1e3:,.0f}k/s; {mccfr['openspiel_expl_10s']:.3f} after "
            f"10 s, {mccfr['openspiel_expl_60s']:.3f} after 60 s: {mccfr['speedup']:.0f}x",
            ">= 10x, <= 0.005 after 10 s",
            mccfr["speedup"] >= 10 and mccfr["ours_expl_10s"] <= 0.005,
        ),
    ]


SWAP_RATE_TARGET = 50_000
"""Iterations/s of one-thread ES-MCCFR with fresh chance on Swap's default abstract game (issue 11)."""


def _abstract(report: dict[str, Any]) -> list[Row]:
    rows = []
    for entry in report["rows"]:
        swap = entry["variant"] == "swap" and entry["chance"] == "fresh"
        rows.append(
            (
                f"ES-MCCFR iterations / s, {entry['variant'].replace('_', ' ')} ({entry['chance']} chance, "
                f"{entry['nodes']:,} nodes, bets `{entry['bets']}`), 1 thread",
                _command("abstract") if not rows else "same",
                f"{entry['iterations_per_second']:,.0f}",
                "—",
                f">= {SWAP_RATE_TARGET:,}" if swap else "report",
                entry["iterations_per_second"] >= SWAP_RATE_TARGET if swap else None,
            )
        )
    return rows


PARALLEL_TARGETS = (1.8, 1.7)
"""2 threads over 1 worker: iterations/s, and time to an exact-exploitability target (issue 11)."""


def _parallel(report: dict[str, Any]) -> list[Row]:
    rows = []
    for variant, measured in report["variants"].items():
        rate, time_ratio = measured["rates"]["speedups"]["2 threads"], measured["target"]["speedup"]
        rows.append(
            (
                f"2 threads vs 1 worker, {variant.replace('_', ' ')}: iterations / s; time to target",
                _command("parallel") if not rows else "same",
                f"{rate:.2f}x; {time_ratio:.2f}x",
                f"2 independent solves {measured['rates']['speedups']['2 independent solves']:.2f}x",
                f">= {PARALLEL_TARGETS[0]}x; >= {PARALLEL_TARGETS[1]}x",
                rate >= PARALLEL_TARGETS[0] and time_ratio >= PARALLEL_TARGETS[1],
            )
        )
    return rows


ROWS: dict[str, Callable[[dict[str, Any]], list[Row]]] = {
    "evaluator": _evaluator,
    "engine": _engine,
    "client": _client,
    "abstraction": _abstraction,
    "leduc": _leduc,
    "abstract": _abstract,
    "parallel": _parallel,
}


def rows(reports: dict[str, dict[str, Any]]) -> list[Row]:
    """The table's rows, benchmark by benchmark in the order of `SOURCES`."""
    return [row for name in SOURCES for row in ROWS[name](reports[name])]


def _status(met: bool | None) -> str:
    return "—" if met is None else ("met" if met else "**missed**")


def render(reports: dict[str, dict[str, Any]]) -> str:
    """The Markdown page: header, the table (what, command, ours, peer, target, status), the notes."""
    lines = [
        "# Benchmarks",
        "",
        "Generated by `python experiments/benchmarks_report.py` from the JSON files in `results/`; do not edit by "
        "hand. Each benchmark times ours next to its peer in the same run; rerun a row's command, then this one. "
        "Machine: the project's 2-core AMD EPYC machine (24 GB, CPython 3.11.7), idle apart from the benchmark; "
        "each JSON records what it measured on.",
        "",
        "| what | command | ours | peer (same run) | target | status |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for what, command, ours, peer, target, met in rows(reports):
        cells = (what, command, ours, peer, target, _status(met))
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    lines += ["", RIVER_NOTE, ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=ROOT / "results", help="folder of the JSON results")
    parser.add_argument("--out", type=Path, default=None, help="Markdown file (default RESULTS/benchmarks.md)")
    arguments = parser.parse_args(argv)
    out = arguments.out or arguments.results / "benchmarks.md"
    try:
        page = render(load(arguments.results))
    except (FileNotFoundError, ValueError) as error:
        parser.exit(2, f"error: {error}\n")
    out.write_text(page)
    print(f"wrote {out}")
    return out


if __name__ == "__main__":
    main()

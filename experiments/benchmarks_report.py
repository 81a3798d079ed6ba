"""Writes results/benchmarks.md from the benchmarks' JSON results: one table, every figure read from a file.

Run::

    python experiments/benchmarks_report.py                 # results/*.json -> results/benchmarks.md
    python experiments/benchmarks_report.py --run leduc     # rerun the Leduc solver benchmark first
    python experiments/benchmarks_report.py --run all       # rerun every benchmark (short settings)

Each row names the command that wrote its JSON (the `vcfr bench ...` commands time ours beside a
peer in the same run; the parallel rows come from `experiments/parallel_scaling_abstract.py`) and
the commit it was measured at (the JSON's ``commit``). ``--run`` runs the named benchmarks with the
short settings of `RUN_COMMANDS` (seconds to a minute or two each; the parallel one about 10 minutes)
and writes their JSON with the command, the commit (``-dirty`` with uncommitted changes) and the
machine. Targets are the project's requirements; "met" / "missed" is computed from the figures.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import harness
from harness import ROOT

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

RUN_COMMANDS = {
    "evaluator": "vcfr bench evaluator --hands 500000 --repeats 3 --json",
    "engine": "vcfr bench engine --repeats 2 --json",
    "client": "vcfr bench client --json",
    "abstraction": "vcfr bench abstraction --flops 100 --peer-iterations 20000 --json",
    "leduc": "vcfr bench solver --game leduc --quick --json",
    "abstract": "vcfr bench abstract --seconds 2 --json",
    "parallel": "python experiments/parallel_scaling_abstract.py --rate-seconds 3 --target-seconds 5 --repeats 1 "
    "--checks 5 --out {out}",
}
"""The short run ``--run`` makes of each benchmark (``{out}``: the JSON path without suffix, for a script
that writes its own file; the others print their JSON)."""

TARGETS = {
    "evaluations_per_s": 150e6,
    "evaluator_over_best_peer": 15,
    "engine_over_pokerkit": 10,
    "client_p99_ms": 1,
    "flop_equity_ms": 20,
    "feature_pass_s": 60,
    "flop_turn_lookup_us": 1,
    "python_lookup_us": 50,
    "leduc_cfr_over_openspiel": 50,
    "leduc_mccfr_over_openspiel": 10,
    "leduc_mccfr_chips_after_10s": 0.005,
    "swap_iterations_per_s": 50_000,
    "parallel_iterations_speedup": 1.8,
    "parallel_time_to_target_speedup": 1.7,
}
"""The project's speed requirements (the Swap rate and the 2-thread speedups); the only numbers not read
from a JSON. Swap's rate is one-thread ES-MCCFR with fresh chance on its default abstract game; the 2-thread
speedups are over 1 worker, in iterations/s and in time to an exact-exploitability target."""

RIVER_NOTE = (
    "The river bucket computes the hand's exact strength against every opponent holding on the spot "
    "(2.4e9 river classes cannot be a table), so it misses the 1 µs target by design."
)

Row = tuple[str, str, str, str, str, bool | None]
"""what, command, ours, peer (same run), target, met (None: no numeric target); `rows` adds the commit."""
FIRST = ""
"""The command cell of a benchmark's first row, filled in by `rows` (`_command`); the next rows say "same"."""
SHORT_BUDGET_SECONDS = 10
"""The ES-MCCFR budget the Leduc exploitability target is set at (a ``--quick`` run measures others)."""


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
        if "commit" not in reports[name]:
            raise ValueError(
                f"{path} names no commit it was measured at: rewrite it with "
                f"`python experiments/benchmarks_report.py --run {name}`"
            )
    return reports


def run_benchmark(name: str, results: Path, runner: Callable[[list[str]], str] | None = None) -> Path:
    """Run benchmark ``name``'s short command (`RUN_COMMANDS`) and write its JSON into ``results``, stamped
    with the command, the commit and (when the benchmark records none) the machine; return the file.
    ``runner(argv)`` runs a command from the repository root and returns its stdout (default: a
    subprocess with this Python's ``vcfr``)."""
    file = results / SOURCES[name][0]
    command = RUN_COMMANDS[name].format(out=file.with_suffix(""))
    runner = runner or _subprocess_runner
    printed = runner(shlex.split(command))
    report = json.loads(file.read_text()) if "{out}" in RUN_COMMANDS[name] else json.loads(printed)
    report.update(command=command, commit=harness.commit(short=True))
    report.setdefault("machine", harness.machine())  # after the run: its load average says what slowed it
    return harness.atomic_write_text(file, json.dumps(report, indent=2) + "\n")


def _subprocess_runner(argv: list[str]) -> str:
    executable = {"vcfr": str(Path(sys.executable).with_name("vcfr")), "python": sys.executable}
    argv = [executable.get(argv[0], argv[0]), *argv[1:]]
    return subprocess.run(argv, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def _threads(count: int) -> str:
    return f"{count} thread" + ("" if count == 1 else "s")


def _command(name: str, report: dict[str, Any]) -> str:
    """The command cell of benchmark ``name``: the command its JSON records (else `SOURCES`') and the file."""
    file, command = SOURCES[name]
    return f"`{report.get('command', command)}` → `{file}`"


def _evaluator(report: dict[str, Any]) -> list[Row]:
    peers, ours, ratio = report["peers"], report["ours_evals_per_s"], report["ratio_vs_best_peer"]
    return [
        (
            f"7-card evaluations / s, {_threads(report['threads'])}",
            FIRST,
            f"{ours / 1e6:.0f} M/s ({report['ours_checked_evals_per_s'] / 1e6:.0f} M/s with input checks)",
            ", ".join(f"{peer} {rate / 1e6:.2f} M/s" for peer, rate in peers.items()) + f": {ratio:.0f}x",
            f">= {TARGETS['evaluations_per_s'] / 1e6:g} M/s, >= {TARGETS['evaluator_over_best_peer']:g}x",
            ours >= TARGETS["evaluations_per_s"] and ratio >= TARGETS["evaluator_over_best_peer"],
        )
    ]


def _engine(report: dict[str, Any]) -> list[Row]:
    rates = report["rounds_per_s"]
    others = ", ".join(
        f"{variant.replace('_', ' ')} {rate:,.0f}" for variant, rate in rates.items() if variant != "holdem"
    )
    ratio = report["ratio_vs_pokerkit"]
    return [
        (
            "random heads-up rounds / s",
            FIRST,
            f"holdem {rates['holdem']:,.0f} ({others})",
            f"PokerKit {report['pokerkit_rounds_per_s']:,.0f}: {ratio:.1f}x",
            f">= {TARGETS['engine_over_pokerkit']:g}x",
            ratio >= TARGETS["engine_over_pokerkit"],
        )
    ]


def _client(report: dict[str, Any]) -> list[Row]:
    return [
        (
            f"client + {report['bot']} bot decision ({report['variant']}, {report['decisions']:,} decisions)",
            FIRST,
            f"mean {report['mean_ms']:.3f} ms, p99 {report['p99_ms']:.3f} ms",
            "—",
            f"p99 < {TARGETS['client_p99_ms']:g} ms",
            report["p99_ms"] < TARGETS["client_p99_ms"],
        )
    ]


def _abstraction(report: dict[str, Any]) -> list[Row]:
    equity_ms = report["flop_all_hands_ms"]
    lookups_us = (report["lookup_numba_ns"] / 1e3, report["turn_lookup_numba_ns"] / 1e3)
    return [
        (
            "exact flop equity, all 1,326 hands",
            FIRST,
            f"{equity_ms:.1f} ms ({_threads(report['threads'])}), {report['flop_all_hands_1thread_ms']:.1f} ms "
            f"({_threads(1)})",
            f"eval7 Monte Carlo {report['peer_eval7_mc_ms_per_hand']:.1f} ms per hand "
            f"({report['peer_eval7_all_hands_projected_ms'] / 1e3:.1f} s for all hands)",
            f"<= {TARGETS['flop_equity_ms']:g} ms",
            equity_ms <= TARGETS["flop_equity_ms"],
        ),
        (
            f"feature pass over all 1,755 flops (measured {report['all_flops_measured']:,})",
            "same",
            f"{report['all_flops_s']:.1f} s on {report['threads']} cores",
            "—",
            f"<= {TARGETS['feature_pass_s']:g} s",
            report["all_flops_s"] <= TARGETS["feature_pass_s"],
        ),
        (
            "bucket lookup",
            "same",
            f"flop {lookups_us[0]:.2f} µs, turn {lookups_us[1]:.2f} µs, river "
            f"{report['river_lookup_numba_us']:.1f} µs in numba; {report['lookup_python_us']:.1f} µs from Python",
            "—",
            f"flop and turn <= {TARGETS['flop_turn_lookup_us']:g} µs, from Python <= {TARGETS['python_lookup_us']:g} µs",
            max(lookups_us) <= TARGETS["flop_turn_lookup_us"]
            and report["lookup_python_us"] <= TARGETS["python_lookup_us"],
        ),
    ]


def _leduc(report: dict[str, Any]) -> list[Row]:
    cfr, mccfr = report["cfr+"], report["es-mccfr"]
    short, long = report["budgets_seconds"]  # measured under the keys "10s" and "60s" whatever the budgets
    chips_target = TARGETS["leduc_mccfr_chips_after_10s"]
    judged = short == SHORT_BUDGET_SECONDS
    return [
        (
            "Leduc CFR+ ms / iteration",
            FIRST,
            f"{cfr['ours_ms_per_iter']:.3f} ms; {cfr['ours_expl_1000']:.2e} chips after 1,000 iterations",
            f"OpenSpiel C++ {cfr['openspiel_ms_per_iter']:.2f} ms; {cfr['openspiel_expl_1000']:.2e} chips: "
            f"{cfr['speedup']:.0f}x",
            f">= {TARGETS['leduc_cfr_over_openspiel']:g}x",
            cfr["speedup"] >= TARGETS["leduc_cfr_over_openspiel"],
        ),
        (
            "Leduc ES-MCCFR iterations / s",
            "same",
            f"{mccfr['ours_iters_per_s'] / 1e3:,.0f}k/s; {mccfr['ours_expl_10s']:.4f} chips after {short:g} s, "
            f"{mccfr['ours_expl_60s']:.4f} after {long:g} s",
            f"OpenSpiel C++ {mccfr['openspiel_iters_per_s'] / 1e3:,.0f}k/s; {mccfr['openspiel_expl_10s']:.3f} "
            f"after {short:g} s, {mccfr['openspiel_expl_60s']:.3f} after {long:g} s: {mccfr['speedup']:.0f}x",
            f">= {TARGETS['leduc_mccfr_over_openspiel']:g}x, <= {chips_target:g} after {SHORT_BUDGET_SECONDS} s"
            + ("" if judged else f" (not judged: the run's budget was {short:g} s)"),
            mccfr["speedup"] >= TARGETS["leduc_mccfr_over_openspiel"]
            and (not judged or mccfr["ours_expl_10s"] <= chips_target),
        ),
    ]


def _abstract(report: dict[str, Any]) -> list[Row]:
    rows, target = [], TARGETS["swap_iterations_per_s"]
    for entry in report["rows"]:
        swap = entry["variant"] == "swap" and entry["chance"] == "fresh"
        rows.append(
            (
                f"ES-MCCFR iterations / s, {entry['variant'].replace('_', ' ')} ({entry['chance']} chance, "
                f"{entry['nodes']:,} nodes, bets `{entry['bets']}`), {_threads(report['threads'])}",
                FIRST if not rows else "same",
                f"{entry['iterations_per_second']:,.0f}",
                "—",
                f">= {target:,}" if swap else "report",
                entry["iterations_per_second"] >= target if swap else None,
            )
        )
    return rows


def _parallel(report: dict[str, Any]) -> list[Row]:
    rows, targets = [], (TARGETS["parallel_iterations_speedup"], TARGETS["parallel_time_to_target_speedup"])
    for variant, measured in report["variants"].items():
        rate, time_ratio = measured["rates"]["speedups"]["2 threads"], measured["target"]["speedup"]
        rows.append(
            (
                f"2 threads vs 1 worker, {variant.replace('_', ' ')}: iterations / s; time to target",
                FIRST if not rows else "same",
                f"{rate:.2f}x; {time_ratio:.2f}x",
                f"2 independent solves {measured['rates']['speedups']['2 independent solves']:.2f}x",
                f">= {targets[0]:g}x; >= {targets[1]:g}x",
                rate >= targets[0] and time_ratio >= targets[1],
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


def rows(reports: dict[str, dict[str, Any]]) -> list[tuple[str, str, str, str, str, str, bool | None]]:
    """The table's rows, benchmark by benchmark in the order of `SOURCES`: what, command, the commit it
    was measured at, ours, peer, target, met."""
    return [
        (what, command or _command(name, reports[name]), reports[name]["commit"], ours, peer, target, met)
        for name in SOURCES
        for what, command, ours, peer, target, met in ROWS[name](reports[name])
    ]


def _status(met: bool | None) -> str:
    return "—" if met is None else ("met" if met else "**missed**")


def machine(reports: dict[str, dict[str, Any]]) -> str:
    """The machines as the JSON files record them (their `machine` field, with `python` where separate); the files
    without one are named, to be read for what they say."""
    recorded, unrecorded = [], []
    for name, (file, _) in SOURCES.items():
        report = reports[name]
        if "machine" not in report:
            unrecorded.append(f"`{file}`")
            continue
        described = " ".join(harness.machine_line(report["machine"]).split())
        if "python" in report and str(report["python"]) not in described:
            described += f", CPython {report['python']}"
        recorded.append(f"`{file}` {described}")
    sentence = "Machine, as each JSON's `machine` field records it: " + "; ".join(recorded)
    if unrecorded:
        sentence += f"; {', '.join(unrecorded)} record none (see each JSON)"
    return sentence + "."


def render(reports: dict[str, dict[str, Any]]) -> str:
    """The Markdown page: header, the table (what, command, commit, ours, peer, target, status), the notes."""
    lines = [
        "# Benchmarks",
        "",
        "Generated by `python experiments/benchmarks_report.py` from the JSON files in `results/`; do not edit by "
        "hand. Each benchmark times ours next to its peer in the same run and names the commit it was measured at "
        "(rows of different commits come from separate runs); `python experiments/benchmarks_report.py --run NAME` "
        "reruns one with short settings, or rerun a row's command, then this one. Targets are the project's "
        "requirements; met / missed is computed from the figures.",
        "",
        machine(reports),
        "",
        "| what | command | commit | ours | peer (same run) | target | status |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for what, command, commit, ours, peer, target, met in rows(reports):
        cells = (what, command, f"`{commit}`", ours, peer, target, _status(met))
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    notes = [
        f"`{file}` {reports[name]['commit_note']}"
        for name, (file, _) in SOURCES.items()
        if "commit_note" in reports[name]
    ]
    lines += ["", RIVER_NOTE, ""]
    if notes:
        lines += ["How the commit of some rows was found (the JSON's `commit_note`): " + "; ".join(notes) + ".", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> Path:
    """Parse the command line, rerun the ``--run`` benchmarks, write the page, and return its path; a missing or
    broken JSON, or a failed run, exits with status 2."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=ROOT / "results", help="folder of the JSON results")
    parser.add_argument("--out", type=Path, default=None, help="Markdown file (default RESULTS/benchmarks.md)")
    parser.add_argument(
        "--run",
        nargs="+",
        default=[],
        choices=[*SOURCES, "all"],
        metavar="NAME",
        help=f"rerun these benchmarks first with short settings ({', '.join(SOURCES)}, or all)",
    )
    arguments = parser.parse_args(argv)
    out = arguments.out or arguments.results / "benchmarks.md"
    for name in SOURCES if "all" in arguments.run else dict.fromkeys(arguments.run):
        print(f"running {name}: {RUN_COMMANDS[name].format(out='...')}", flush=True)
        try:
            print(f"wrote {run_benchmark(name, arguments.results)}")
        except (subprocess.CalledProcessError, ValueError) as error:
            detail = getattr(error, "stderr", "") or ""
            parser.exit(2, f"error: benchmark {name} failed: {error}\n{detail.strip()[-2000:]}\n")
    try:
        page = render(load(arguments.results))
    except (FileNotFoundError, ValueError) as error:
        parser.exit(2, f"error: {error}\n")
    harness.atomic_write_text(out, page)
    print(f"wrote {out}")
    return out


if __name__ == "__main__":
    main()

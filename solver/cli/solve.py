"""``vcfr solve``, ``vcfr exploit``, ``vcfr bench solver`` and ``vcfr bench abstract``.

``vcfr solve`` takes a TOML run file (``--config``, :mod:`solver.solve.run_config`), flags, or both (flags
win), and runs :func:`solver.solve.training.train` on any game kind. Usage errors (bad flags, run-file
keys or values) exit with code 2, failures (missing or wrong card files, damaged strategy files on
``--resume``) with code 1, each as one ``error: ...`` line on stderr. Before any work it checks
``--out`` (its folder is created; a directory or a folder that cannot be made is refused) and
refuses to replace an existing file unless given ``--resume`` or ``--force``; a new solve whose card
file is missing stops there too, with the ``vcfr abstract`` command that builds it (from the run
file's ``[cards]`` build settings when it has them); ``--workers`` above the available cores gets a
one-line warning.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from game.cli_support import RUNTIME, JsonFlag, OneLineErrors, StrategyArgument, output_file, warn_if_over_cores
from game.cli_support import fail as _fail

GAMES = ("kuhn", "leduc")
"""`game.rules.exact.EXACT_GAMES`, spelled out so that ``vcfr --help`` imports no rules (a test ties them)."""
ALGORITHMS = ("cfr", "cfr+", "linear", "dcfr", "es-mccfr", "os-mccfr")
SOLVE_DEFAULTS = {
    "variant": "leduc",
    "algorithm": "cfr+ on exact games, es-mccfr on abstract ones",
    "workers": "1",
    "backend": "threads",
    "seed": "0",
    "chance": "fresh",
    "table_dtype": "auto",
}
"""What ``vcfr solve`` uses when neither a flag nor the run file sets the key, shown by ``--help``
(the flags themselves default to None so that a run file's value is not overridden)."""


def _choice(name: str, value: str, allowed: tuple[str, ...], renamed: dict[str, str] | None = None) -> str:
    """``value`` if it is one of ``allowed``; else a usage error (naming the new name of a ``renamed`` one)."""
    new_name = (renamed or {}).get(value)
    if new_name is not None:
        raise _fail(f"--{name} {value} is now called {new_name}: use --{name} {new_name}", 2)
    if value not in allowed:
        raise _fail(f"--{name} must be one of {', '.join(allowed)}; got {value!r}", 2)
    return value


def _clock(seconds: float) -> str:
    if not math.isfinite(seconds) or seconds < 0:
        return "-:--:--"
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _progress_reporter(total: float, by_seconds: bool, console: Any = None) -> Any:
    """A rich progress bar and the ``on_progress`` callback that feeds it: iterations, iterations/s
    (smoothed over blocks), ETA (from that rate, or the seconds budget left) and the latest
    exploitability, or ``n/a`` with the reason printed once above the bar."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("[bold]solve"),
        BarColumn(),
        TextColumn("{task.fields[iteration]:>12,} it"),
        TextColumn("{task.fields[rate]:>10,.0f} it/s"),
        TextColumn("ETA {task.fields[eta]}"),
        TextColumn("expl {task.fields[exploitability]}"),
        TimeElapsedColumn(),
        transient=False,
        console=console,
    )
    task = progress.add_task("solve", total=total, iteration=0, rate=0.0, eta="-:--:--", exploitability="-")
    state: dict[str, Any] = {"rate": 0.0, "noted": False}

    def report(event: Any) -> None:
        rate = (
            event.iterations_per_second
            if state["rate"] <= 0
            else 0.7 * state["rate"] + 0.3 * event.iterations_per_second
        )
        state["rate"] = rate
        if by_seconds:
            eta = max(total - event.seconds, 0.0)
        else:
            eta = max(total - event.iteration, 0) / rate if rate > 0 else math.inf
        if math.isfinite(event.exploitability):
            shown = f"{event.exploitability:.6g} chips"
        else:
            shown = "n/a"
            if event.note and not state["noted"]:
                progress.console.print(f"exploitability: {event.note}")
                state["noted"] = True
        progress.update(
            task,
            completed=event.seconds if by_seconds else event.iteration,
            iteration=event.iteration,
            rate=rate,
            eta=_clock(eta),
            exploitability=shown,
        )

    return progress, report


def _existing_output(target: Path) -> str:
    """Why ``vcfr solve`` will not write over ``target`` without ``--resume`` or ``--force``."""
    from solver.solve.strategy_file import StrategyFileError, read_strategy_summary

    try:
        held = read_strategy_summary(target).describe()
    except StrategyFileError as error:
        return f"--out {str(target)!r} exists and is not a readable strategy file ({error}); --force replaces it"
    return f"--out {str(target)!r} already holds {held}: --resume continues it, --force replaces it"


def _summary_line(summary: dict[str, Any]) -> str:
    resumed = "" if summary["resumed_from"] is None else f" (resumed from iteration {summary['resumed_from']:,})"
    rate = summary["iterations_per_second"]
    speed = f", {summary['seconds']:.1f} s, {rate:,.0f} it/s" if rate else ""
    value = summary["exploitability_chips"]
    if value is None:
        shown = f"exploitability n/a: {summary['note']}" if summary.get("note") else "exploitability n/a"
    else:
        shown = f"exploitability {value:.6g} chips"
    return f"{summary['out']}: {summary['iterations']:,} iterations{resumed}{speed}, {shown}"


@dataclass(frozen=True)
class SolveOptions:
    """The options of ``vcfr solve`` as given (``None``: not given, so the run file's value or the
    default of :data:`SOLVE_DEFAULTS` applies); their help texts are the command's."""

    config: Path | None
    out: Path | None
    variant: str | None
    rule: list[str] | None
    cards: Path | None
    bets: str | None
    bids: str | None
    max_runs: int | None
    max_nodes: int | None
    algorithm: str | None
    iterations: int | None
    minutes: float | None
    seconds: float | None
    workers: int | None
    backend: str | None
    scheduler: str | None
    seed: int | None
    chance: str | None
    deals: int | None
    deal_seed: int | None
    table_dtype: str | None
    checkpoint_every: int | None
    checkpoint_minutes: float | None
    evaluate_every: int | None
    resume: bool
    force: bool
    quiet: bool
    as_json: bool

    def overrides(self) -> dict[str, dict[str, Any]]:
        """The flags as run-file tables (:func:`solver.solve.run_config.merge_overrides`); RunConfigError
        on a bad ``--rule``."""
        from solver.solve.run_config import parse_rule

        rules: dict[str, Any] = dict(parse_rule(text) for text in self.rule or [])
        if self.variant:
            rules["variant"] = self.variant
        solver_keys = (
            "algorithm", "iterations", "minutes", "seconds", "workers", "backend", "scheduler", "seed", "chance",
            "deals", "deal_seed", "table_dtype", "checkpoint_every", "checkpoint_minutes", "evaluate_every",
        )  # fmt: skip
        return {
            "rules": rules,
            "cards": {"path": None if self.cards is None else os.path.abspath(self.cards)},
            "bets": {"text": self.bets, "bids": self.bids, "max_runs": self.max_runs, "max_nodes": self.max_nodes},
            "solver": {
                **{key: getattr(self, key) for key in solver_keys},
                "out": None if self.out is None else str(self.out),
            },
        }


def _checked_run(options: SolveOptions) -> tuple[Any, Any]:
    """The run (file and flags merged) and its training config; usage errors exit 2."""
    from solver.solve.cfr import RENAMED_ALGORITHMS
    from solver.solve.run_config import RunConfigError, load_run_config, run_variants

    if options.resume and options.force:
        raise _fail("--resume continues --out and --force replaces it: give one of them", 2)
    if options.config is not None and not options.config.is_file():  # a runtime error, like every command's
        raise _fail(f"run file {str(options.config)!r} does not exist", RUNTIME)
    if options.variant is not None:
        _choice("variant", options.variant, run_variants())
    if options.algorithm is not None:
        _choice("algorithm", options.algorithm, ALGORITHMS, RENAMED_ALGORITHMS)
    try:
        run = load_run_config(options.config, options.overrides())
        run.check_solver_params()
        return run, run.training_config()
    except (RunConfigError, ValueError) as error:
        raise _fail(str(error), 2) from None


def _checked_target(run: Any, options: SolveOptions) -> Path:
    """The strategy file to write, refused (exit 1) if it exists without --resume or --force, or if a
    new solve's card file is missing (the message names the ``vcfr abstract`` command that builds it;
    a resumed file is first checked against its own settings, by ``train``)."""
    if run.solver.out is None:
        raise _fail("no strategy file to write: pass --out or set [solver] out", 2)
    target = output_file(run.solver.out)
    if target.exists() and not (options.resume or options.force):
        raise _fail(_existing_output(target))
    missing_cards = run.missing_cards_message()
    if missing_cards is not None and not (options.resume and target.exists()):
        raise _fail(missing_cards)
    return target


def _train(training: Any, target: Path, options: SolveOptions) -> tuple[Any, Any]:
    """Run the training with a progress bar (unless quiet or JSON); returns its result and the last
    progress event (``None`` if none came). Failures exit 1, an interrupt 130."""
    from solver.cli.build_progress import build_reporter
    from solver.solve.strategy_file import StrategyFileError
    from solver.solve.training import train

    show_progress = not (options.quiet or options.as_json)
    by_seconds = training.seconds is not None
    progress, report = _progress_reporter(float(training.seconds or training.iterations or 0), by_seconds)
    last: list[Any] = []

    def remember(event: Any) -> None:
        if show_progress and not last:
            progress.start()  # after start-up (game, card file, workers): no bar for a run that fails early
        last[:] = [event]
        if show_progress:
            report(event)

    try:
        with build_reporter(show_progress) as on_build:  # the tree's size, and a bar on long builds
            result = train(training, target, resume=options.resume, on_progress=remember, on_build=on_build)
    except (StrategyFileError, ValueError, OSError, ImportError) as error:
        raise _fail(str(error)) from None
    except KeyboardInterrupt:
        raise _fail(f"interrupted; {target} holds the last checkpoint (continue with --resume)", 130) from None
    finally:
        if show_progress and last:
            progress.stop()
    return result, last[0] if last else None


def _solve_summary(run: Any, training: Any, result: Any, event: Any) -> dict[str, Any]:
    """What ``vcfr solve --json`` prints: the file, game, algorithm, iterations, seconds, iterations/s
    of this run (a resumed run: since the resume), final exploitability (chips) or why it is n/a."""
    record = result.record
    log = record.convergence
    value = float(log.exploitability[-1]) if len(log) else math.nan
    summary = {
        "out": str(result.path),
        "game": run.rules.variant,
        "algorithm": training.algorithm,
        "iterations": record.iterations,
        "seconds": float(log.seconds[-1]) if len(log) else 0.0,
        "iterations_per_second": None,
        "exploitability_chips": value if math.isfinite(value) else None,
        "note": event.note if event is not None else None,
        "resumed_from": result.resumed_from,
    }
    done = record.iterations - (result.resumed_from or 0)
    first_seconds = 0.0
    if result.resumed_from is not None:
        earlier = log.seconds[log.iteration <= result.resumed_from]
        first_seconds = float(earlier[-1]) if len(earlier) else 0.0
    if done > 0 and summary["seconds"] > first_seconds:
        summary["iterations_per_second"] = done / (summary["seconds"] - first_seconds)
    return summary


def run_solve(options: SolveOptions) -> None:
    """``vcfr solve``: check the run and its output, train, print the summary line (or JSON)."""
    run, training = _checked_run(options)
    target = _checked_target(run, options)
    if training.backend != "dask":  # Dask workers run on the cluster's machines
        warn_if_over_cores(training.workers)
    result, event = _train(training, target, options)
    summary = _solve_summary(run, training, result, event)
    typer.echo(json.dumps(summary) if options.as_json else _summary_line(summary))


def solve(
    config: Path | None = typer.Option(
        None,
        "--config",
        help="TOML run file: \\[rules], \\[cards], \\[bets], \\[solver] "
        "(see solver/solve/run_config.py); flags override its values.",
    ),
    out: Path | None = typer.Option(None, "--out", help="Strategy file to write (HDF5); or \\[solver] out."),
    variant: str | None = typer.Option(
        None,
        help="Game: a name `vcfr variants` lists (= \\[rules] variant).",
        show_default=SOLVE_DEFAULTS["variant"],
    ),
    rule: list[str] | None = typer.Option(None, "--rule", help="Rules field KEY=VALUE, repeatable (e.g. stack=200)."),
    cards: Path | None = typer.Option(None, help="Card-abstraction file (vcfr abstract) of an abstract game."),
    bets: str | None = typer.Option(None, help='Bet abstraction text, e.g. "0.5p,1p,a cap=2".'),
    bids: str | None = typer.Option(None, help='Auction bid sizes, e.g. "0.25p,1p".'),
    max_runs: int | None = typer.Option(None, help="River of Blood run streets in the abstract game."),
    max_nodes: int | None = typer.Option(None, help="Refuse abstract trees with more nodes."),
    algorithm: str | None = typer.Option(
        None, help=f"Algorithm: {', '.join(ALGORITHMS)}.", show_default=SOLVE_DEFAULTS["algorithm"]
    ),
    iterations: int | None = typer.Option(None, help="Total iterations to reach."),
    minutes: float | None = typer.Option(None, help="Total solve minutes."),
    seconds: float | None = typer.Option(
        None,
        help="Total solve seconds (exact games: exploitability checks "
        "excluded; abstract games: wall clock, checkpoints included).",
    ),
    workers: int | None = typer.Option(
        None, help="Parallel workers (sampling algorithms only).", show_default=SOLVE_DEFAULTS["workers"]
    ),
    backend: str | None = typer.Option(
        None,
        help="threads (shared tables), processes (merged deltas) or dask.",
        show_default=SOLVE_DEFAULTS["backend"],
    ),
    scheduler: str | None = typer.Option(None, help="Dask scheduler address, with --backend dask."),
    seed: int | None = typer.Option(None, help="Root seed.", show_default=SOLVE_DEFAULTS["seed"]),
    chance: str | None = typer.Option(
        None,
        help="Abstract games: fresh (a new deal per iteration) or fixed.",
        show_default=SOLVE_DEFAULTS["chance"],
    ),
    deals: int | None = typer.Option(None, help="Deals drawn once with --chance fixed."),
    deal_seed: int | None = typer.Option(None, help="Seed of the fixed deals."),
    table_dtype: str | None = typer.Option(
        None, help="Solver tables: auto, float32 or float64.", show_default=SOLVE_DEFAULTS["table_dtype"]
    ),
    checkpoint_every: int | None = typer.Option(None, help="Write the file atomically every N iterations."),
    checkpoint_minutes: float | None = typer.Option(None, help="Also write it every M minutes of wall clock."),
    evaluate_every: int | None = typer.Option(None, help="Log (and measure exploitability) every N iterations."),
    resume: bool = typer.Option(False, "--resume", help="Continue from --out if it exists."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out (without it, solve refuses)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary only."),
) -> None:
    """Solve any game (Kuhn, Leduc, or an abstract heads-up variant) and write a strategy file, with
    checkpoints and exact resume."""
    run_solve(SolveOptions(**locals()))  # the parameters, exactly as typer passed them


def exploit(
    path: StrategyArgument,
    deals: int | None = typer.Option(
        None,
        help="Fresh-chance abstract games: measure over this many deals "
        "drawn once (the best response fits that sample: an overestimate).",
    ),
    deal_seed: int = typer.Option(0, help="Seed of the --deals sample."),
    lbr: bool = typer.Option(
        False,
        "--lbr",
        help="Local best response instead (a lower bound that works on full-size games; see vcfr lbr).",
    ),
    hands: int = typer.Option(10_000, help="With --lbr: hands per seat."),
    candidates: int = typer.Option(100, help="With --lbr: deals in LBR's belief."),
    seed: int = typer.Option(0, help="With --lbr: seed."),
    as_json: JsonFlag = False,
) -> None:
    """Exact exploitability of a strategy file's average strategy (abstract games: within the
    abstraction, over the game's fixed deal table); --lbr: local best response (vcfr lbr)."""
    from solver.solve.strategy_file import StrategyFileError
    from solver.solve.training import evaluate_strategy_file

    if lbr:
        from solver.cli.lbr import run_lbr

        if deals is not None:
            raise _fail("--deals is for the exact best response; --lbr deals its own hands (--hands)", 2)
        run_lbr(path, hands, candidates, seed, as_json)
        return
    if deals is not None and deals < 1:
        raise _fail(f"--deals must be >= 1, got {deals}", 2)
    try:
        result = evaluate_strategy_file(path, deals=deals, deal_seed=deal_seed)
    except (StrategyFileError, ValueError, OSError) as error:
        raise _fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"{path}: {result['game']} {result['algorithm']}, {result['iterations']:,} iterations")
    if result["chance"] == "sampled":
        typer.echo(
            f"over {result['deals']:,} deals sampled with seed {deal_seed} (the game draws fresh chance; "
            "the best response fits the sample, so this overstates the exploitability)"
        )
    elif result["chance"] == "fixed":
        typer.echo(f"over the game's fixed table of {result['deals']:,} deals, within the abstraction")
    typer.echo(
        f"exploitability: {result['exploitability_chips']:.6g} chips "
        f"({result['exploitability_mbb']:.4g} mbb/hand, big blind {result['big_blind']:g} chips)"
    )
    typer.echo(f"game value (player 0): {result['game_value']:.6g} chips")


def bench_solver(
    game: str = typer.Option("leduc", help=f"Game: {', '.join(GAMES)}."),
    quick: bool = typer.Option(False, "--quick", help="ES-MCCFR budgets of 1 s and 3 s instead of 10 s and 60 s."),
    seed: int = typer.Option(0, help="Seed of the sampling solvers."),
    as_json: JsonFlag = False,
) -> None:
    """Our CFR+ and ES-MCCFR next to OpenSpiel's C++ solvers: speed and exploitability (chips)."""
    from solver.bench.openspiel_peer import PeerUnavailableError
    from solver.bench.solver import run_solver_benchmark

    _choice("game", game, GAMES)
    try:
        result = run_solver_benchmark(game=game, quick=quick, seed=seed)
    except PeerUnavailableError as error:
        raise _fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps(result))
        return
    cfr_plus, sampling = result["cfr+"], result["es-mccfr"]
    short, long = result["budgets_seconds"]
    typer.echo(
        f"{game} CFR+: ours {cfr_plus['ours_ms_per_iter']:.3f} ms/iter, OpenSpiel "
        f"{cfr_plus['openspiel_ms_per_iter']:.3f} ms/iter ({cfr_plus['speedup']:.1f}x)"
    )
    for mark in (100, 1000):
        typer.echo(
            f"  exploitability after {mark:,}: ours {cfr_plus[f'ours_expl_{mark}']:.3g}, "
            f"OpenSpiel {cfr_plus[f'openspiel_expl_{mark}']:.3g} chips"
        )
    typer.echo(
        f"{game} ES-MCCFR: ours {sampling['ours_iters_per_s']:,.0f} it/s, OpenSpiel "
        f"{sampling['openspiel_iters_per_s']:,.0f} it/s ({sampling['speedup']:.1f}x)"
    )
    for label, budget in (("10s", short), ("60s", long)):
        typer.echo(
            f"  exploitability after {budget:g} s: ours {sampling[f'ours_expl_{label}']:.3g}, "
            f"OpenSpiel {sampling[f'openspiel_expl_{label}']:.3g} chips"
        )


def bench_abstract(
    variants: str | None = typer.Option(
        None,
        help="Comma-separated heads-up variants and limit (3-player limit hold'em).",
        show_default="all of them",
    ),
    seconds: float = typer.Option(5.0, help="Seconds of ES-MCCFR per measurement (after a warm-up)."),
    fixed_deals: int = typer.Option(200_000, help="Deals of the fixed-sample peer on Hold'em."),
    as_json: JsonFlag = False,
) -> None:
    """ES-MCCFR iterations/s and table bytes per information set on each variant's default abstract game,
    with the fixed-sample path on Hold'em as the peer."""
    from solver.bench.abstract import BENCHMARK_GAMES, format_table, run_abstract_benchmark

    chosen = BENCHMARK_GAMES if variants is None else tuple(n.strip() for n in variants.split(",") if n.strip())
    for name in chosen:
        _choice("variant", name, BENCHMARK_GAMES)
    result = run_abstract_benchmark(chosen, seconds=seconds, fixed_deals=fixed_deals)
    typer.echo(json.dumps(result) if as_json else format_table(result))


def register(app: typer.Typer, bench: typer.Typer) -> None:
    """Add ``vcfr solve``, ``vcfr exploit``, ``vcfr bench solver`` and ``vcfr bench abstract``."""
    app.command(cls=OneLineErrors)(solve)
    app.command(cls=OneLineErrors)(exploit)
    bench.command("solver")(bench_solver)
    bench.command("abstract")(bench_abstract)

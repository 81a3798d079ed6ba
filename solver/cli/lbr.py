"""``vcfr lbr``: local best response against a strategy file (`solver.evaluate.lbr`); ``vcfr exploit --lbr`` calls
:func:`run_lbr` too. ``--opponent equity`` / ``checkcall`` run the same LBR (the file's game: tree,
buckets, sampler; same hands, candidates and seed) against the equity bot's rule or check/call,
the reference lines of a blueprint. ``--actions full`` runs full-game LBR instead
(`solver.evaluate.full_lbr`: the real game against the file's lookup bot, raises of ``--sizes`` and
bids of ``--bids`` that need not be in the tree, ``--candidates`` hands in the belief). Usage errors (bad numbers, unknown opponent) exit with code 2,
failures (missing or damaged files, games LBR or the opponent cannot play) with code 1, each as
one ``error: ...`` line on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from game.cli_support import JsonFlag, OneLineErrors, StrategyArgument, warn_if_over_cores
from game.cli_support import fail as _fail
from game.rules.nolimit import STREET_NAMES

DEFAULT_HANDS = 10_000
DEFAULT_CANDIDATES = 100
DEFAULT_FULL_CANDIDATES = 400
"""Full-game LBR's default belief size: K = 100 hid the blueprints' weakness (README, "Full-game LBR")."""
ACTIONS = ("tree", "full")
FULL_BOTS = ("lookup", "resolve", "adaptive")
BOT_NAMES = {"lookup": "lookup bot", "resolve": "re-solving bot", "adaptive": "adaptive bot"}


def _at_least(flag: str, value: int, minimum: int) -> None:
    """A usage error (exit code 2) naming ``flag`` unless ``value >= minimum``."""
    if value < minimum:
        raise _fail(f"{flag} must be >= {minimum}, got {value}", 2)


def _hands_progress(label: str, total: int, shown: bool) -> tuple[Any, Any]:
    """A started rich progress bar over ``total`` hands and its ``report(done, total)`` callback,
    or ``(None, None)`` when not ``shown``; the caller stops the bar."""
    if not shown:
        return None, None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
    )
    task = progress.add_task(label, total=total)

    def report(done: int, total: int) -> None:
        progress.update(task, completed=done)

    progress.start()
    return progress, report


def _fractions(text: str, option: str) -> tuple[float, ...]:
    """``"0.5,1,2"`` -> pot fractions; a usage error naming ``option`` otherwise."""
    try:
        values = tuple(float(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise _fail(f"{option} must be comma-separated pot fractions like 0.5,1,2, got {text!r}", 2) from None
    if not all(value >= 0 and value < float("inf") for value in values):
        raise _fail(f"{option} must be finite pot fractions >= 0, got {text!r}", 2)
    return values


def _streets(text: str | None) -> tuple[str, ...]:
    """``"turn,river"`` -> street names, ``"none"`` -> none, ``None`` -> all four; a usage error naming
    ``--raise-streets`` otherwise."""
    if text is None:
        return STREET_NAMES
    if text.strip() == "none":
        return ()
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    if not names or not set(names) <= set(STREET_NAMES):
        raise _fail(
            f"--raise-streets must be comma-separated names among {','.join(STREET_NAMES)}, or none, got {text!r}", 2
        )
    return names


def run_full_lbr(
    path: Path,
    hands: int,
    candidates: int,
    seed: int,
    as_json: bool,
    sizes: str,
    bids: str,
    samples: int,
    quiet: bool = False,
    bot_kind: str = "lookup",
    raise_streets: str | None = None,
) -> None:
    """Full-game LBR of ``path``'s lookup bot, or with ``bot_kind="resolve"`` its re-solving bot, or with
    ``"adaptive"`` the adaptive bot around its lookup bot (``adaptive:FILE``: it learns LBR over the deals,
    a match to it), in its game's real rules with default settings, and print the result (JSON or lines)."""
    from game.play.cli_game import make_player
    from solver.bots.lookup_bot import LookupBot
    from solver.bots.resolving_bot import ResolvingBot
    from solver.evaluate.full_lbr import FullLBRConfig, full_lbr
    from solver.solve.strategy_file import StrategyFileError

    _at_least("--hands", hands, 2)
    _at_least("--candidates", candidates, 1)
    _at_least("--samples", samples, 1)
    if not 0 <= seed <= 2**63 - 1:
        raise _fail(f"--seed must be in 0..2**63-1 with --actions full, got {seed}", 2)
    settings = FullLBRConfig(
        hands=hands,
        candidates=candidates,
        sizes=_fractions(sizes, "--sizes"),
        bids=_fractions(bids, "--bids"),
        samples=samples,
        seed=seed,
        raise_streets=_streets(raise_streets),
    )
    try:
        if bot_kind == "resolve":
            bot = ResolvingBot(path, seed=seed)
        else:
            bot = LookupBot(path, seed=seed)
            if bot_kind == "adaptive":
                bot = make_player(f"adaptive:{path}", bot.config, seed)
    except (StrategyFileError, ValueError, TypeError, OSError) as error:
        raise _fail(str(error)) from None
    progress, report = _hands_progress("full lbr", 2 * hands, shown=not (as_json or quiet))
    try:
        result = full_lbr(bot.config, bot, settings, on_progress=report)
    finally:
        if progress is not None:
            progress.stop()
    out = result.to_dict() | {
        "path": str(path),
        "bot_decisions": bot.decisions,
        "bot_off_tree": bot.off_tree,
        "bot_errors": bot.errors,
        "bot": bot_kind,
        "bot_deviations": getattr(bot, "deviations", 0),
    }
    if as_json:
        typer.echo(json.dumps(out))
        return
    if raise_streets is None:
        where = ""
    elif settings.raise_streets:
        where = f"; raising on {', '.join(settings.raise_streets)} only"
    else:
        where = "; never raising"
    typer.echo(f"{path}: full-game LBR against the {BOT_NAMES[bot_kind]}, {result.variant} ({result.rules} rules)")
    typer.echo(
        f"over {hands:,} deals per seat (belief: {candidates} candidate hands; raises {sizes} pot and all-in"
        + (f", bids {bids} pot and all-in" if bot.config.has_auction else "")
        + where
        + f"; seed {seed})"
    )
    typer.echo(
        f"LBR wins {result.mbb_per_hand:.4g} +- {result.ci95_mbb:.3g} mbb/hand (95%; "
        f"{result.chips_per_hand:.6g} chips, big blind {result.big_blind} chips)"
    )
    seat_0, seat_1 = out["seat_chips"]
    typer.echo(
        f"per seat: {seat_0:.6g} / {seat_1:.6g} chips; {result.seconds:.1f} s "
        f"({out['seconds_per_1000_hands']:.1f} s per 1,000 hands); the bot was off its tree at "
        f"{bot.off_tree:,} of {bot.decisions:,} decisions"
    )


def run_lbr(
    path: Path,
    hands: int,
    candidates: int,
    seed: int,
    as_json: bool,
    workers: int = 1,
    quiet: bool = False,
    opponent: str = "strategy",
    equity_samples: int | None = None,
) -> None:
    """Run LBR on ``path`` against ``opponent`` and print the result (JSON, or a few lines); raise typer
    exits on errors. ``equity_samples``: Monte Carlo deals per equity of the equity opponent (None:
    `game.play.bots.EquityBot`'s default)."""
    from solver.evaluate.lbr import OPPONENTS, EquityRule, LBRConfig, lbr_strategy_file
    from solver.solve.strategy_file import StrategyFileError

    if opponent not in OPPONENTS:
        raise _fail(f"--opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r}", 2)
    if equity_samples is not None and equity_samples < 1:
        raise _fail(f"--equity-samples must be >= 1, got {equity_samples}", 2)
    if equity_samples is not None and opponent != "equity":
        raise _fail(f"--equity-samples applies to --opponent equity only, got --opponent {opponent}", 2)
    rule = None
    if opponent == "equity":
        rule = EquityRule() if equity_samples is None else EquityRule(samples=equity_samples)

    _at_least("--hands", hands, 2)
    _at_least("--candidates", candidates, 1)
    _at_least("--workers", workers, 1)
    if not 0 <= seed <= 2**64 - 1:
        raise _fail(f"--seed must be in 0..2**64-1, got {seed}", 2)
    warn_if_over_cores(workers)
    config = LBRConfig(hands=hands, candidates=candidates, seed=seed, workers=workers, batch=max(1, min(2_000, hands)))
    progress, report = _hands_progress("lbr", 2 * hands, shown=not (as_json or quiet))
    try:
        result = lbr_strategy_file(path, config, on_progress=report, opponent=opponent, rule=rule)
    except (StrategyFileError, ValueError, TypeError, OSError) as error:
        raise _fail(str(error)) from None
    finally:
        if progress is not None:
            progress.stop()
    result["path"] = str(path)
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"{path}: {result['game']} {result['algorithm']}, {result['iterations']:,} iterations")
    belief = (
        "every consistent deal of the table" if result["chance"] == "exact" else f"{result['candidates']} redrawn deals"
    )
    against = {
        "strategy": "the average strategy",
        "checkcall": "check/call (CheckCallBot)",
        "equity": "the equity bot's rule on exact cards ({samples} Monte Carlo deals per equity)",
    }[opponent]
    typer.echo(f"local best response against {against.format(**(result['equity_rule'] or {}))}")
    typer.echo(f"over {result['hands']:,} hands per seat (belief: {belief}, seed {seed})")
    typer.echo(
        f"LBR wins {result['mbb_per_hand']:.4g} +- {result['ci95_mbb']:.3g} mbb/hand (95%; "
        f"{result['chips_per_hand']:.6g} chips, big blind {result['big_blind']:g} chips)"
    )
    seat_0, seat_1 = result["seat_chips"]
    typer.echo(f"per seat: {seat_0:.6g} / {seat_1:.6g} chips; {result['seconds']:.1f} s")
    if result["unreached_decisions"]:
        typer.echo(
            f"note: {result['unreached_decisions']:,} decisions had no candidate the opponent could reach "
            "(raise --candidates)"
        )


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @app.command(cls=OneLineErrors)
    def lbr(
        path: StrategyArgument,
        hands: int = typer.Option(DEFAULT_HANDS, help="Hands per seat."),
        candidates: int | None = typer.Option(
            None,
            help=f"Deals in LBR's belief (fresh-chance games; exact games use every consistent deal); default "
            f"{DEFAULT_CANDIDATES}, with --actions full {DEFAULT_FULL_CANDIDATES} hands of the bot.",
        ),
        seed: int = typer.Option(0, help="Seed of the deals, the opponent's actions and the candidates."),
        workers: int = typer.Option(1, help="Threads (results do not depend on it)."),
        opponent: str = typer.Option(
            "strategy",
            help="Who LBR plays in the file's game: strategy (the file's "
            "average strategy), equity (the equity bot's rule on exact cards) or checkcall.",
        ),
        equity_samples: int = typer.Option(
            None, help="Monte Carlo deals per equity of --opponent equity (default: the equity bot's)."
        ),
        actions: str = typer.Option(
            "tree",
            help="tree: LBR inside the strategy's tree (the file's abstract game); full: full-game LBR in the "
            "real game against the file's lookup bot, with --sizes and --bids that need not be in the tree.",
        ),
        sizes: str = typer.Option("0.5,1,2", help="--actions full: LBR's raise sizes, pot fractions (all-in added)."),
        bids: str = typer.Option("0,0.25,1", help="--actions full: LBR's Auction bids, pot fractions (all-in added)."),
        samples: int = typer.Option(16, help="--actions full: runouts per candidate hand and decision."),
        bot: str = typer.Option(
            "lookup",
            help="--actions full: the file's bot LBR plays: lookup, resolve (the re-solving bot) or adaptive (the "
            "adaptive bot around the lookup bot, learning LBR over the deals as over a match).",
        ),
        raise_streets: str | None = typer.Option(
            None,
            help="--actions full: the streets where LBR may raise (default all four; it checks, calls or folds "
            "elsewhere), e.g. turn,river, to see where a bot leaks; river includes River of Blood's run streets; "
            "none: LBR never raises.",
        ),
        quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
        as_json: JsonFlag = False,
    ) -> None:
        """Local best response (Lisý & Bowling 2017): a lower bound on the exploitability of a strategy
        file's average strategy, in mbb/hand with a 95% interval; works on full-size heads-up games.
        --opponent equity/checkcall: the same LBR against the equity bot or check/call (reference lines).
        --actions full: full-game LBR against the file's lookup bot (off-tree sizes, its translation), or
        with --bot resolve its re-solving bot, with --bot adaptive the adaptive bot."""
        if actions not in ACTIONS:
            raise _fail(f"--actions must be tree or full, got {actions!r}", 2)
        if bot not in FULL_BOTS:
            raise _fail(f"--bot must be lookup, resolve or adaptive, got {bot!r}", 2)
        if bot != "lookup" and actions != "full":
            raise _fail(f"--bot {bot} needs --actions full (tree LBR plays the file's average strategy)", 2)
        if actions != "full" and raise_streets is not None:
            raise _fail("--raise-streets needs --actions full", 2)
        if actions == "full":
            if opponent != "strategy" or equity_samples is not None or workers != 1:
                raise _fail("--actions full plays the file's bot: no --opponent, --equity-samples or --workers", 2)
            full_candidates = DEFAULT_FULL_CANDIDATES if candidates is None else candidates
            run_full_lbr(
                path,
                hands,
                full_candidates,
                seed,
                as_json,
                sizes,
                bids,
                samples,
                quiet=quiet,
                bot_kind=bot,
                raise_streets=raise_streets,
            )
            return
        run_lbr(
            path,
            hands,
            DEFAULT_CANDIDATES if candidates is None else candidates,
            seed,
            as_json,
            workers=workers,
            quiet=quiet,
            opponent=opponent,
            equity_samples=equity_samples,
        )

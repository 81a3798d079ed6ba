"""``vcfr export-bot`` (a bot folder for the official MIT Pokerbots engines), ``vcfr check-bot`` (that
folder played in a local engine, `solver.bots.check_bot`) and ``vcfr bench client``.

``vcfr export-bot`` refuses bad input before writing anything, as one ``error: ...`` line on stderr:
an unknown variant or bot with exit code 2; an ``--out`` that is a file or an unwritable place, a
file that is not a strategy of the variant, a card abstraction whose hash is not the strategy's ...
with exit code 1, like a bot that fails its warm-up round.

This module also lets ``vcfr match`` and ``vcfr gauntlet`` (`game.play.cli_game`) take strategy files
and exported folders as players: `game` may not import `solver`, so the solver side registers the
``.h5`` suffix with `game.play.cli_game.register_player_file` (a lookup bot of the file, checked
like ``export-bot --strategy`` checks it) and folders holding ``bot.json`` with
`game.play.cli_game.register_player_folder` (the folder's bot, built in-process).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from game.cli_support import JsonFlag, output_folder

RESOLVE_PREFIX = "resolve:"
"""A ``vcfr match`` player ``resolve:FILE.h5`` is the re-solving bot of the strategy file ``FILE.h5``."""
RESOLVE_FINAL_PREFIX = "resolve-final:"
"""``resolve-final:FILE.h5``: the re-solving bot that re-solves only the final street (no depth-limited
turn), as the exported bot does when the engine's clock leaves no time for turn re-solves."""


def strategy_player(path: str, config: Any, seed: Any) -> Any:
    """``vcfr match``'s and ``vcfr freezeout``'s player for a strategy file, named by the file's name.

    Heads-up rules ``config``: a `solver.bots.lookup_bot.LookupBot`; ValueError (one line) unless
    ``path`` is a vcfr strategy file of an abstract game of ``config``'s variant, solved for its
    stack and blinds, whose card file is at hand with the stored hash
    (`solver.bots.export_bot.check_strategy`); other rules (document or engine) get the lookup
    bot's warning. ``resolve:FILE.h5`` (the prefix :data:`RESOLVE_PREFIX`): a
    `solver.bots.resolving_bot.ResolvingBot` of the file at its default settings (it re-solves
    Hold'em and Swap turns and rivers, River of Blood and Bounty final streets, and plays the lookup
    bot elsewhere), named
    ``resolve:`` and the file's name; ``resolve-final:FILE.h5`` (:data:`RESOLVE_FINAL_PREFIX`) the
    same bot re-solving final streets only (``ResolvingConfig(depth_limited=False)``). N-player limit rules (`game.rules.limit.LimitConfig`): a `solver.bots.limit_lookup_bot.LimitLookupBot` of that file
    (it plays check/call at player counts the file was not solved for)."""
    from game.rules.limit import LimitConfig
    from solver.bots.export_bot import check_strategy
    from solver.bots.limit_lookup_bot import LimitLookupBot
    from solver.bots.lookup_bot import LookupBot
    from solver.bots.resolving_bot import ResolvingBot, ResolvingConfig

    prefix = next((p for p in (RESOLVE_PREFIX, RESOLVE_FINAL_PREFIX) if path.startswith(p)), "")
    path = path.removeprefix(prefix)
    if isinstance(config, LimitConfig):
        if prefix:
            raise ValueError(f"the re-solving bot plays heads-up Hold'em, not N-player limit: {path!r}")
        return LimitLookupBot(path, seed=seed, name=Path(path).name)
    cards, _ = check_strategy(path, config.variant, config)
    if prefix:
        settings = ResolvingConfig(depth_limited=prefix == RESOLVE_PREFIX)
        return ResolvingBot(
            path, card_abstraction=cards, config=config, resolving=settings, seed=seed, name=prefix + Path(path).name
        )
    return LookupBot(path, card_abstraction=cards, config=config, seed=seed, name=Path(path).name)


def folder_player(path: str, config: Any, seed: Any) -> Any:
    """``vcfr match``'s and ``vcfr gauntlet``'s player for a folder written by ``vcfr export-bot``: the bot
    its ``bot.json`` names (its own seed; ``seed`` is unused), built in this process as the folder's
    player.py builds it (`solver.bots.export_bot.make_player`). Its lock-in counts the match from the
    rounds our match runner reports (`game.play.lock_in.MatchCounter`, 1000-round matches as in the
    engines). ValueError unless ``config`` is its variant under engine rules (the folder plays the
    engines' rules)."""
    from game.play.lock_in import LockIn, MatchCounter
    from solver.bots.export_bot import BotSpec, make_player

    spec = BotSpec.read(path)
    if spec.variant != getattr(config, "variant", None) or config.rules != "engine":
        raise ValueError(
            f"the exported bot {path!r} plays {spec.variant} under engine rules, not "
            f"{getattr(config, 'variant', config)!r} under {getattr(config, 'rules', '?')!r} rules"
        )
    player = make_player(spec, path)
    if isinstance(player, LockIn):
        player.attach(MatchCounter(player.rounds))
    return player


def register(app: typer.Typer, bench: typer.Typer) -> None:
    from game.cli_support import RUNTIME, USAGE, benchmark_result, fail
    from game.play.cli_game import register_player_file, register_player_folder

    register_player_file(".h5", strategy_player)
    register_player_folder("bot.json", folder_player)

    @app.command("export-bot")
    def export_bot_command(
        variant: str = typer.Option(
            ..., help="Engine variant or year: swap (2022), river_of_blood (2023), auction (2024), bounty (2025)."
        ),
        bot: str | None = typer.Option(
            None,
            help="A game.play.bots name (random, checkcall, equity), lookup (plays --strategy), "
            "module:attribute, or file.py:attribute. Required unless --resolve.",
        ),
        resolve: bool = typer.Option(
            False,
            "--resolve",
            help="Play --strategy with real-time re-solving of the turn and river (the re-solving bot, paced by "
            "the engine's game clock; Hold'em and Swap re-solve the turn and river, River of Blood and Bounty "
            "their final street, the Auction plays the strategy throughout).",
        ),
        out: Path = typer.Option(..., help="Folder to write (must be empty or absent)."),
        strategy: Path | None = typer.Option(
            None,
            help="Strategy file (.h5) of the variant, copied into the folder "
            "with its card abstraction (checked by hash).",
        ),
        seed: int = typer.Option(0, help="Seed passed to the bot."),
        python: str = typer.Option(
            sys.executable, help="Interpreter the engine starts (needs Python >= 3.11, numpy, numba)."
        ),
        force: bool = typer.Option(False, "--force", help="Replace an earlier export in OUT."),
        transcript: bool = typer.Option(False, "--transcript", help="Record each match in OUT/transcript.txt.gz."),
        lock_in: bool = typer.Option(
            True,
            "--lock-in/--no-lock-in",
            help="Check or fold to the end of a match once the bankroll lead exceeds the "
            "most the rounds left can lose (recorded in bot.json).",
        ),
        adapt: bool | None = typer.Option(
            None,
            "--adapt/--no-adapt",
            help="Model the opponent over the match and exploit it within a safety bound "
            "(game.play.adaptive; recorded in bot.json). Default: on for bots with a policy, --resolve "
            "included (its prior: the blueprint's lookup bot against itself).",
            show_default=False,
        ),
        as_json: JsonFlag = False,
    ) -> None:
        """Write a ready bot folder (commands.json, player.py, the needed package files) for an engine;
        print its size zipped and the peak memory of its warm-up round."""
        from solver.bots.export_bot import export_bot
        from solver.solve.strategy_file import StrategyFileError

        if resolve:
            if bot not in (None, "lookup", "resolve"):
                raise fail(f"--resolve plays --strategy with re-solving; it takes no --bot {bot!r}", USAGE)
            if strategy is None:
                raise fail("--resolve needs --strategy (the blueprint it plays and re-solves from)", USAGE)
            bot = "resolve"
        elif bot is None:
            raise fail("give --bot (or --resolve with --strategy)", USAGE)
        output_folder(out)
        try:
            summary = export_bot(
                variant,
                bot,
                out,
                strategy=strategy,
                seed=seed,
                python=python,
                force=force,
                transcript=transcript,
                lock_in=lock_in,
                adapt=adapt,
            )
        except StrategyFileError as error:  # the strategy or its card file cannot be used
            raise fail(str(error), RUNTIME) from None
        except ValueError as error:
            raise fail(str(error), USAGE) from None
        except OSError as error:  # writing the folder failed after all
            raise fail(f"--out {str(out)!r}: cannot write ({error.strerror or error})") from None
        except RuntimeError as error:  # the bot failed its warm-up round
            raise fail(f"export failed: {error}") from None
        result = {**summary.as_json(), "lock_in": lock_in}
        if as_json:
            typer.echo(json.dumps(result))
            return
        typer.echo(
            f"wrote {summary.folder}: {len(summary.files)} files, {summary.total_bytes / 1e6:.2f} MB "
            f"({summary.zipped_bytes / 1e6:.2f} MB zipped)"
        )
        peak = "n/a" if summary.peak_memory_bytes is None else f"{summary.peak_memory_bytes / 1e6:.0f} MB"
        typer.echo(f"peak memory of the warm-up round (max RSS): {peak}")
        typer.echo(f"project modules: {', '.join(summary.modules)}")
        typer.echo("match lock-in: " + ("on (--no-lock-in turns it off)" if lock_in else "off"))
        typer.echo("opponent adaptation: " + ("on (--no-adapt turns it off)" if summary.adapt else "off"))
        typer.echo(f"engine config: PLAYER_1_PATH = '{summary.folder.resolve()}'")

    @app.command("check-bot")
    def check_bot_command(
        folder: Path = typer.Argument(..., help="A bot folder written by vcfr export-bot."),
        rounds: int = typer.Option(200, help="Rounds to play (an official match has 1000)."),
        opponent: str = typer.Option("equity", help="Baseline bot: equity, checkcall or random."),
        seed: int = typer.Option(0, help="Seed of the deals and of the baseline."),
        as_json: JsonFlag = False,
    ) -> None:
        """Check an exported bot without the official engine: its warm-up (python player.py --warm-up),
        then --rounds rounds of its year's game against a baseline in a local engine, through the
        bot's own TCP client. Reports faults (illegal actions, timeouts, crashes, disconnects),
        decision times and the clock used; exit code 1 on any fault."""
        from solver.bots.check_bot import BotFolderError, check_bot

        try:
            report = check_bot(folder, rounds=rounds, opponent=opponent, seed=seed)
        except BotFolderError as error:
            raise fail(str(error), RUNTIME) from None
        except ValueError as error:
            raise fail(str(error), USAGE) from None
        if as_json:
            typer.echo(json.dumps(report.as_json()))
        else:
            _print_check(report)
        if not report.ok:
            raise typer.Exit(1)

    @bench.command("client")
    def bench_client(
        transcript: Path | None = typer.Option(
            None, help="Recorded engine transcript (default: the 2024 one in tests/data)."
        ),
        bot: str = typer.Option("random", help="Baseline bot from game.play.bots (random, checkcall, equity)."),
        repeats: int = typer.Option(3, help="Timed passes over the transcript; the best is reported."),
        seed: int = typer.Option(0, help="Seed of the bot."),
        as_json: JsonFlag = False,
    ) -> None:
        """Time the engine client + a baseline bot on every line of a recorded 1000-round match."""
        from game.bench.client import DEFAULT_TRANSCRIPT, run_client_benchmark

        source = transcript or DEFAULT_TRANSCRIPT
        if not source.is_file():
            raise fail(f"--transcript {str(source)!r}: no such file")
        # A ValueError (an unknown bot, a transcript outside a year's folder ...) is a usage error.
        result = benchmark_result(lambda: run_client_benchmark(source, bot=bot, seed=seed, repeats=repeats), as_json)
        if result is None:
            return
        typer.echo(
            f"{result['variant']}, bot {result['bot']}: {result['decisions']} decisions, "
            f"mean {result['mean_ms']:.3f} ms, p99 {result['p99_ms']:.3f} ms, max {result['max_ms']:.1f} ms"
        )
        typer.echo(
            f"client alone: mean {result['client_only_mean_ms']:.3f} ms per decision; "
            f"acks {result['ack_mean_ms']:.3f} ms"
        )


def _print_check(report: Any) -> None:
    """The text form of a `solver.bots.check_bot.CheckReport`."""
    peak = "n/a" if report.peak_memory_bytes is None else f"{report.peak_memory_bytes / 1e6:.0f} MB"
    typer.echo(
        f"{report.folder}: {report.variant} ({report.year} engine); warm-up {report.warm_up_seconds:.1f} s, "
        f"peak memory {peak}"
    )
    if report.mbb_per_hand is not None:
        interval = "" if report.ci95_mbb_per_hand is None else f" +- {report.ci95_mbb_per_hand:,.0f}"
        typer.echo(
            f"{report.rounds} rounds against {report.opponent} (seed {report.seed}): bankroll "
            f"{report.bankroll:+,d} chips, {report.mbb_per_hand:+,.0f}{interval} mbb/hand (95% CI)"
        )
    faults = ", ".join(f"{count} {kind.replace('_', '-')}" for kind, count in report.faults.items() if count)
    typer.echo(f"faults: {faults or 'none'}")
    for note in report.fault_notes:
        typer.echo(f"  {note}")
    times = report.decision_ms
    if report.decisions:
        typer.echo(
            f"decision time (engine round trip): p50 {times['p50']:.2f} ms, p99 {times['p99']:.2f} ms, "
            f"max {times['max']:.1f} ms over {report.decisions} decisions"
        )
        per_match = report.as_json()["clock_used_seconds_per_1000_rounds"]
        typer.echo(
            f"game clock: {report.clock_used_seconds:.2f} s used of {report.clock_seconds:g} s "
            f"({per_match:.1f} s per 1000-round match)"
        )
    if not report.ok and report.log_tail.strip():
        typer.echo("end of the bot's log:\n" + report.log_tail.rstrip())

"""``vcfr export-bot`` (a bot folder for the official MIT Pokerbots engines) and ``vcfr bench client``.

``vcfr export-bot`` refuses bad input (unknown variant or bot, a file that is not a strategy of the
variant, a card abstraction whose hash is not the strategy's ...) as one ``error: ...`` line on
stderr with exit code 2, before writing anything; a bot that fails its warm-up round exits with 1.

This module also lets ``vcfr match`` (`game.play.cli_game`) take strategy files as players: `game` may
not import `solver`, so the solver side registers the ``.h5`` suffix with
`game.play.cli_game.register_player_file` (a lookup bot of the file, checked like ``export-bot
--strategy`` checks it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

RESOLVE_PREFIX = "resolve:"
"""A ``vcfr match`` player ``resolve:FILE.h5`` is the re-solving bot of the strategy file ``FILE.h5``."""


def strategy_player(path: str, config: Any, seed: Any) -> Any:
    """``vcfr match``'s and ``vcfr freezeout``'s player for a strategy file, named by the file's name.

    Heads-up rules ``config``: a `solver.bots.lookup_bot.LookupBot`; ValueError (one line) unless
    ``path`` is a vcfr strategy file of an abstract game of ``config``'s variant, solved for its
    stack and blinds, whose card file is at hand with the stored hash
    (`solver.bots.export_bot.check_strategy`); other rules (document or engine) get the lookup
    bot's warning. ``resolve:FILE.h5`` (the prefix :data:`RESOLVE_PREFIX`): a
    `solver.bots.resolving_bot.ResolvingBot` of the file at its default settings (plain Hold'em
    only), named ``resolve:`` and the file's name. N-player limit rules
    (`game.rules.limit.LimitConfig`): a `solver.bots.limit_lookup_bot.LimitLookupBot` of that file
    (it plays check/call at player counts the file was not solved for)."""
    from game.rules.limit import LimitConfig
    from solver.bots.export_bot import check_strategy
    from solver.bots.limit_lookup_bot import LimitLookupBot
    from solver.bots.lookup_bot import LookupBot
    from solver.bots.resolving_bot import ResolvingBot

    resolving = path.startswith(RESOLVE_PREFIX)
    path = path.removeprefix(RESOLVE_PREFIX)
    if isinstance(config, LimitConfig):
        if resolving:
            raise ValueError(f"the re-solving bot plays heads-up Hold'em, not N-player limit: {path!r}")
        return LimitLookupBot(path, seed=seed, name=Path(path).name)
    cards, _ = check_strategy(path, config.variant, config)
    if resolving:
        name = RESOLVE_PREFIX + Path(path).name
        return ResolvingBot(path, card_abstraction=cards, config=config, seed=seed, name=name)
    return LookupBot(path, card_abstraction=cards, config=config, seed=seed, name=Path(path).name)


def register(app: typer.Typer, bench: typer.Typer) -> None:
    from game.cli_support import OneLineErrors
    from game.cli_support import fail as _fail
    from game.play.cli_game import register_player_file

    register_player_file(".h5", strategy_player)

    @app.command("export-bot", cls=OneLineErrors)
    def export_bot_command(
        variant: str = typer.Option(
            ..., help="Engine variant or year: swap (2022), river_of_blood (2023), auction (2024), bounty (2025)."
        ),
        bot: str = typer.Option(
            ...,
            help="A game.play.bots name (random, checkcall, equity), lookup (plays --strategy), "
            "module:attribute, or file.py:attribute.",
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
        force: bool = typer.Option(False, help="Replace an earlier export in OUT."),
        transcript: bool = typer.Option(False, help="Record each match in OUT/transcript.txt.gz."),
        lock_in: bool = typer.Option(
            True,
            "--lock-in/--no-lock-in",
            help="Check or fold to the end of a match once the bankroll lead exceeds the "
            "most the rounds left can lose (recorded in bot.json).",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """Write a ready bot folder (commands.json, player.py, the needed package files) for an engine;
        print its size zipped and the peak memory of its warm-up round."""
        from solver.bots.export_bot import export_bot

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
            )
        except ValueError as error:
            raise _fail(str(error), 2) from None
        except RuntimeError as error:  # the bot failed its warm-up round
            typer.echo(f"export failed: {error}", err=True)
            raise typer.Exit(1) from None
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
        typer.echo(f"engine config: PLAYER_1_PATH = '{summary.folder.resolve()}'")

    @bench.command("client")
    def bench_client(
        transcript: Path | None = typer.Option(
            None, help="Recorded engine transcript (default: the 2024 one in tests/data)."
        ),
        bot: str = typer.Option("random", help="Baseline bot from game.play.bots (random, checkcall, equity)."),
        repeats: int = typer.Option(3, help="Timed passes over the transcript; the best is reported."),
        seed: int = typer.Option(0, help="Seed of the bot."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """Time the engine client + a baseline bot on every line of a recorded 1000-round match."""
        from game.bench.client import DEFAULT_TRANSCRIPT, run_client_benchmark

        result = run_client_benchmark(transcript or DEFAULT_TRANSCRIPT, bot=bot, seed=seed, repeats=repeats)
        if as_json:
            typer.echo(json.dumps(result))
            return
        typer.echo(
            f"{result['variant']}, bot {result['bot']}: {result['decisions']} decisions, "
            f"mean {result['mean_ms']:.3f} ms, p99 {result['p99_ms']:.3f} ms, max {result['max_ms']:.1f} ms"
        )
        typer.echo(
            f"client alone: mean {result['client_only_mean_ms']:.3f} ms per decision; "
            f"acks {result['ack_mean_ms']:.3f} ms"
        )

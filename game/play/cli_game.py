"""``vcfr variants``, ``vcfr match``, ``vcfr replay``, ``vcfr convert-history`` and ``vcfr bench engine``.

A ``vcfr match`` player is a baseline bot name (`game.play.bots.BOTS`) or a file whose suffix a higher
layer registered with :func:`register_player_file`: `game` never imports `solver` (the layers are
game <- abstraction <- solver), so the solver's command module, which is loaded into the same
``vcfr`` app, registers ``.h5`` strategy files (played by its lookup bot) from its side.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from game.cli_support import RUNTIME, USAGE, JsonFlag, OneLineErrors, Repeats, fail, output_file

if TYPE_CHECKING:
    from game.rules.limit import LimitConfig

PlayerLoader = Callable[[str, Any, Any], Any]
"""``loader(path, config, seed) -> bot``: builds a match player from a file for the variant config
``config`` (its rules); raises ValueError (one line) on a file it cannot play."""

PLAYER_FILES: dict[str, PlayerLoader] = {}
"""Match players given as files, by file suffix (e.g. ``".h5"``), filled by :func:`register_player_file`."""


def register_player_file(suffix: str, loader: PlayerLoader) -> None:
    """Let ``vcfr match`` take files ending in ``suffix`` as players, built by ``loader``."""
    if not suffix.startswith(".") or len(suffix) < 2:
        raise ValueError(f"a player file suffix starts with a dot, got {suffix!r}")
    PLAYER_FILES[suffix.lower()] = loader


class PlayerFileError(ValueError):
    """A player file cannot be played (missing, unreadable, of another game): a runtime error of
    the commands (exit code 1), where an unknown bot name is a usage error (exit code 2)."""


def is_player_file(name: str) -> bool:
    """Whether the player ``name`` is a file of a registered suffix (:data:`PLAYER_FILES`)."""
    return Path(name).suffix.lower() in PLAYER_FILES


PLAYER_FOLDERS: dict[str, PlayerLoader] = {}
"""Match players given as folders, by the file that marks them (e.g. ``"bot.json"``), filled by
:func:`register_player_folder`."""


def register_player_folder(marker: str, loader: PlayerLoader) -> None:
    """Let match commands take folders holding the file ``marker`` as players, built by ``loader``."""
    if not marker or "/" in marker:
        raise ValueError(f"a player folder marker is a file name, got {marker!r}")
    PLAYER_FOLDERS[marker] = loader


def player_loader(name: str) -> PlayerLoader | None:
    """The registered loader of the player file or folder ``name`` (:data:`PLAYER_FILES`,
    :data:`PLAYER_FOLDERS`), or ``None`` for a `game.play.bots` name; ValueError for neither.
    ``adaptive:BASE`` (BASE a bot name, strategy file, ``resolve:`` strategy file or folder) is the
    safe-exploiting bot around BASE (`game.play.adaptive.adaptive_player`).

    >>> player_loader("checkcall") is None
    True
    >>> player_loader("strategy.zip")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'strategy.zip' is neither a bot name nor a player file; files ending in ... are players
    """
    from game.play.bots import BOTS

    if name.startswith("adaptive:"):
        from game.play.adaptive import adaptive_player

        return functools.partial(adaptive_player, player_loader(name.partition(":")[2]))
    if Path(name).is_dir():
        for marker, loader in PLAYER_FOLDERS.items():
            if (Path(name) / marker).is_file():
                return loader
        markers = ", ".join(sorted(PLAYER_FOLDERS)) or "none registered"
        raise ValueError(f"folder {name!r} is not a player: player folders hold one of {markers}")
    suffix = Path(name).suffix.lower()
    if suffix in PLAYER_FILES:
        return PLAYER_FILES[suffix]
    if suffix and name not in BOTS:
        known = ", ".join(sorted(PLAYER_FILES)) or "none registered"
        raise ValueError(f"{name!r} is neither a bot name nor a player file; files ending in {known} are players")
    return None


def make_player(name: str, config: Any, seed: Any) -> Any:
    """A match player: a file of a registered suffix (:data:`PLAYER_FILES`), else a `game.play.bots` name.
    :class:`PlayerFileError` when the file's loader refuses it, ValueError on an unknown name.

    >>> make_player("checkcall", None, 0).name
    'checkcall'
    """
    from game.play.bots import make_bot

    loader = player_loader(name)
    if loader is None:
        return make_bot(name, config=config, seed=seed)
    return CheckedLoader(loader)(name, config, seed)


@dataclass(frozen=True)
class CheckedLoader:
    """A player loader whose refusals (ValueError, OSError) become :class:`PlayerFileError`.

    A module-level class, so worker processes can unpickle it (the gauntlet's joblib workers never
    see the solver's registrations in :data:`PLAYER_FILES`, so they get the loader itself)."""

    loader: PlayerLoader

    def __call__(self, name: str, config: Any, seed: Any) -> Any:
        try:
            return self.loader(name, config, seed)
        except (ValueError, OSError) as error:
            raise PlayerFileError(" ".join(str(error).split())) from None


EXACT_GAME_DESCRIPTIONS = {
    "kuhn": "Kuhn poker (OpenSpiel's kuhn_poker, 2..10 players): an exactly solvable test game.",
    "leduc": "Leduc Hold'em (OpenSpiel's leduc_poker, 2..10 players): an exactly solvable test game.",
}


def variant_parameters() -> list[dict[str, Any]]:
    """Every game: the heads-up variants, the exact games ``kuhn`` and ``leduc`` (their standard
    two-player rules), then the N-player ``limit`` game, each with its config defaults.

    >>> names = [entry["name"] for entry in variant_parameters()]
    >>> names[-1], variant_parameters()[0]["parameters"]["stack"], names[-3:-1]
    ('limit', 400, ['kuhn', 'leduc'])
    """
    from game.rules.exact import rules_config
    from game.rules.families import LIMIT_GAME
    from game.rules.limit import LimitConfig
    from game.rules.variants import VARIANTS

    entries: list[dict[str, Any]] = [
        {
            "name": v.name,
            "description": v.description,
            "parameters": {
                field.name: None if field.default is MISSING else field.default for field in fields(v.config_class)
            },
        }
        for v in VARIANTS.values()
    ]
    for name, description in EXACT_GAME_DESCRIPTIONS.items():
        entries.append({"name": name, "description": description, "parameters": rules_config(name).to_dict()})
    entries.append(
        {
            "name": LIMIT_GAME,
            "description": "N-player limit Texas Hold'em (URCS rules document), played as a freeze-out.",
            "parameters": {
                field.name: None if field.default is MISSING else field.default for field in fields(LimitConfig)
            },
        }
    )
    return entries


def _bot_seeds(seed: int) -> tuple[Any, Any]:
    """Seeds of bot A and bot B derived from the match seed (the deal uses ``seed`` itself)."""
    import numpy as np

    return np.random.SeedSequence((seed, 1)), np.random.SeedSequence((seed, 2))


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @app.command()
    def variants(as_json: JsonFlag = False) -> None:
        """List the variants and every config parameter with its default."""
        entries = variant_parameters()
        if as_json:
            typer.echo(json.dumps({"variants": entries}))
            return
        for entry in entries:
            typer.secho(entry["name"], bold=True)
            typer.echo(f"  {entry['description']}")
            for name, default in entry["parameters"].items():
                typer.echo(f"    {name} = {default!r}")

    @app.command()
    def match(
        variant: str = typer.Option("holdem", help="Variant (see `vcfr variants`)."),
        a: str = typer.Option(
            "equity",
            "--a",
            help="Player A: random, checkcall, equity (Monte Carlo equity, 1000 "
            "samples per decision), a sparring style (maniac, tag, ...; see README), a strategy file (.h5) of the "
            "variant (resolve:FILE.h5: the re-solving bot of the file; resolve-final:FILE.h5: it re-solves final streets "
            "only), or adaptive:BASE (BASE "
            "exploited safely by an opponent model, e.g. adaptive:equity or adaptive:resolve:FILE.h5).",
        ),
        b: str = typer.Option(
            "random",
            "--b",
            help="Player B: random, checkcall, equity, a sparring style, a strategy file (.h5), resolve:FILE.h5 "
            "or adaptive:BASE.",
        ),
        rounds: int = typer.Option(1000, help="Rounds to play (even when duplicate)."),
        seed: int = typer.Option(0, help="Seed of the deals (bots get seeds derived from it)."),
        duplicate: bool = typer.Option(
            True,
            "--duplicate/--no-duplicate",
            help="Play each deal twice with seats swapped (the 95% CI is over deal pairs).",
        ),
        rules: str = typer.Option("document", help="document (the rules documents) or engine (the official engines)."),
        history: Path | None = typer.Option(
            None, help="Write the hand history here: PHH for a .phh/.phhs path, else JSON lines."
        ),
        aivat: bool = typer.Option(
            False,
            "--aivat",
            help="Also score A by AIVAT (A must expose a policy; B's decisions are corrected too if B exposes "
            "one): A's mbb/hand with its 95% CI on the same rounds, and the variance reduction.",
        ),
        aivat_turn_rivers: int = typer.Option(
            2,
            min=0,
            help="With --aivat and both policies known: river cards per alternative turn in the turn card's "
            "correction (0: the turn card and the flop keep the check-down value; about 5x cheaper, noisier).",
        ),
        as_json: JsonFlag = False,
    ) -> None:
        """Play a duplicate match between two players (baseline bots or strategy files); print bankrolls
        and A's mbb/hand with a 95% CI over deal pairs (with --aivat, also AIVAT's estimate)."""
        from game.play.aivat import aivat_match
        from game.play.match import play_match
        from game.rules.variants import get_variant

        if history is not None:
            output_file(history, "--history")
        try:
            config = get_variant(variant).config_class(rules=rules)  # type: ignore[call-arg]
        except ValueError as error:
            raise fail(str(error), USAGE) from None
        try:
            seed_a, seed_b = _bot_seeds(seed)
            bot_a = make_player(a, config, seed_a)
            bot_b = make_player(b, config, seed_b)
            scored = None
            if aivat:
                if not callable(getattr(bot_a, "policy", None)):
                    raise ValueError(f"--aivat needs player A to expose a policy; {a!r} does not")
                scored = aivat_match(
                    config,
                    bot_a,
                    bot_b,
                    rounds=rounds,
                    seed=seed,
                    duplicate=duplicate,
                    history=history,
                    turn_rivers=aivat_turn_rivers,
                )
                result = scored.match
            else:
                result = play_match(
                    config, bot_a, bot_b, rounds=rounds, seed=seed, duplicate=duplicate, history=history
                )
        except PlayerFileError as error:
            raise fail(str(error), RUNTIME) from None
        except ValueError as error:  # an unknown bot, bad --rounds, --aivat without a policy ...
            raise fail(str(error), USAGE) from None
        except OSError as error:  # the history file could not be written after all
            raise fail(f"--history {str(history)!r}: cannot write ({error.strerror or error})") from None
        summary = result.to_dict() if scored is None else scored.to_dict()
        if history is not None:
            summary["history"] = str(history)
        if as_json:
            typer.echo(json.dumps(summary))
            return
        mean, half_width = summary["mbb_per_hand"], summary["ci95_mbb_per_hand"]
        interval = "n/a" if half_width is None else f"{half_width:,.0f}"
        kind = " duplicate" if duplicate else ""
        typer.echo(f"{variant}{kind}, {result.rounds} rounds, rules {rules}, seed {seed}")
        for name, chips in summary["bankrolls"].items():
            typer.echo(f"  {name}: {chips:+,} chips ({summary['illegal_actions'][name]} faulty actions)")
        samples = f"{result.rounds // 2:,} deal pairs" if duplicate else f"{result.rounds:,} rounds"
        typer.echo(f"  {result.players[0]}: {mean:+,.0f} mbb/hand +- {interval} (95% CI over {samples})")
        if scored is not None:
            aivat_mean, aivat_half = summary["aivat_mbb_per_hand"], summary["aivat_ci95_mbb_per_hand"]
            aivat_interval = "n/a" if aivat_half is None else f"{aivat_half:,.0f}"
            both = "; both players' decisions corrected" if scored.opponent_corrected else ""
            typer.echo(
                f"  {result.players[0]}: {aivat_mean:+,.0f} mbb/hand +- {aivat_interval} (AIVAT, same {samples}; "
                f"variance / {summary['variance_reduction']:.2f}{both})"
            )
        if history is not None:
            typer.echo(f"  hand history: {history}")

    @app.command()
    def freezeout(
        bots: str = typer.Option(
            "checkcall,random,random",
            help="One player per seat, comma-separated: random, checkcall, a limit sparring style (tight_passive, "
            "loose_passive, tag, lag, maniac) or a limit strategy file (.h5).",
        ),
        seed: int = typer.Option(0, help="Seed of the deals (bots get seeds derived from it)."),
        max_games: int = typer.Option(1000, help="Stop after this many games if nobody holds every chip."),
        cards_speak: bool = typer.Option(True, "--cards-speak/--announced", help="Showdown mode of the limit game."),
        as_json: JsonFlag = False,
    ) -> None:
        """Play the N-player limit game (limit-holdem-nplayer.txt) as a freeze-out between baseline bots and
        strategy files (`vcfr solve --variant limit`)."""
        from game.rules.limit import LimitConfig

        names = [name.strip() for name in bots.split(",") if name.strip()]
        try:
            config = LimitConfig(n_players=len(names), cards_speak=cards_speak)
            result = play_freeze_out(config, names, seed=seed, max_games=max_games)
        except PlayerFileError as error:
            raise fail(str(error), RUNTIME) from None
        except ValueError as error:
            raise fail(str(error), USAGE) from None
        if as_json:
            typer.echo(json.dumps(result))
            return
        outcome = f"{result['winner']} holds every chip" if result["winner"] is not None else "no winner yet"
        typer.echo(
            f"limit freeze-out, {result['players']} players, seed {seed}: {outcome} after {result['games']} games"
        )
        for name, chips in result["stacks"].items():
            typer.echo(f"  {name}: {chips:,} chips")

    @app.command(cls=OneLineErrors)
    def gauntlet(
        variant: str = typer.Option(
            ..., help="Heads-up variant (see `vcfr variants`), or limit (3-player freeze-outs)."
        ),
        bot: str = typer.Option(
            ...,
            help="The bot to test: a bot name (equity, tag, ...), a strategy file (.h5), a folder written by "
            "vcfr export-bot (played in-process with its lock-in; engine rules only), resolve:FILE.h5 (the "
            "re-solving bot; resolve-final:FILE.h5 re-solving final streets only) or adaptive:BASE (e.g. adaptive:FILE.h5, adaptive:resolve:FILE.h5).",
        ),
        hands: int = typer.Option(2000, help="Duplicate hands per opponent (even; heads-up variants)."),
        rules: str = typer.Option("engine", help="engine (the official engines) or document (the rules documents)."),
        seed: int = typer.Option(0, help="Seed of the deals (the same for every opponent) and of the bots."),
        opponents: str | None = typer.Option(
            None,
            help="Comma-separated opponents (default: the sparring styles the variant features, then random, "
            "checkcall, equity; limit: every pair of tight_passive, loose_passive, tag, lag, maniac).",
        ),
        jobs: int = typer.Option(2, help="Worker processes playing opponents in parallel."),
        freezeouts: int = typer.Option(6, help="Limit: freeze-outs per pair of opponents (the bot's seat rotates)."),
        max_games: int = typer.Option(1000, help="Limit: games before an open freeze-out goes to the chip leader."),
        match_rounds: int | None = typer.Option(
            None,
            help="Split the hands into independent matches of this many rounds (even; e.g. 1000, a tournament's "
            "match), a fresh bot each, the interval over the matches' win rates (default: one match).",
        ),
        png: Path | None = typer.Option(None, help="Write a bar chart (PNG) with the 95% intervals here."),
        as_json: JsonFlag = False,
    ) -> None:
        """Play a bot against the whole sparring suite and the baselines (duplicate, engine rules by
        default): a table of mbb/hand with a Student-t 95% interval and win/loss per opponent; under
        limit, 3-player freeze-outs against pairs of limit styles with the win share's Wilson interval."""
        from game.play.gauntlet import run_gauntlet, write_chart

        if png is not None:
            output_file(png, "--png")
        try:
            loader = player_loader(bot)
            loader = None if loader is None else CheckedLoader(loader)  # a refused file: a runtime error
            names = None if opponents is None else [name.strip() for name in opponents.split(",") if name.strip()]
            progress = None if as_json else _gauntlet_progress(variant, names)
            on_done = None
            if progress is not None:
                progress_bar, task = progress
                progress_bar.start()

                def on_done(row: dict) -> None:
                    progress_bar.update(task, advance=1, last=row.get("opponent") or "+".join(row["opponents"]))

            try:
                report = run_gauntlet(
                    variant,
                    bot,
                    hands=hands,
                    rules=rules,
                    seed=seed,
                    opponents=names,
                    jobs=jobs,
                    loader=loader,
                    freezeouts=freezeouts,
                    max_games=max_games,
                    match_rounds=match_rounds,
                    on_done=on_done,
                )
            finally:
                if progress is not None:
                    progress[0].stop()
        except PlayerFileError as error:
            raise fail(str(error), RUNTIME) from None
        except ValueError as error:
            raise fail(str(error), USAGE) from None
        if png is not None:
            write_chart(report, str(png))
            report["png"] = str(png)
        if as_json:
            typer.echo(json.dumps(report))
            return
        _print_gauntlet(report)

    @app.command()
    def replay(
        path: Path = typer.Argument(..., help="A hand history written by `vcfr match --history` (JSON lines or PHH)."),
        as_json: JsonFlag = False,
    ) -> None:
        """Re-run every round of a hand history and verify its payoffs (exit code 1 on a mismatch)."""
        from game.play.history_files import replay as replay_history

        try:
            report = replay_history(path)
        except OSError as error:
            raise fail(f"hand history {str(path)!r}: {error.strerror or error}") from None
        except ValueError as error:  # not a hand history, or a malformed one
            raise fail(f"hand history {str(path)!r}: {error}") from None
        if as_json:
            typer.echo(json.dumps(report.to_dict()))
        elif report.ok:
            chips = ", ".join(f"{name} {value:+,}" for name, value in report.bankrolls.items())
            typer.echo(f"verified {report.rounds_checked} rounds of {report.variant}: {chips} chips")
        else:
            typer.echo(f"MISMATCH after {report.rounds_checked} verified rounds: {report.mismatch}")
        if not report.ok:
            raise typer.Exit(1)

    @app.command("convert-history")
    def convert_history(
        source: Path = typer.Argument(
            ..., help="A hand history: JSON lines, PHH (.phh/.phhs), or an official engine's game log (--engine)."
        ),
        destination: Path = typer.Argument(..., help="Where to write it: PHH for .phh/.phhs, else JSON lines."),
        engine: str | None = typer.Option(
            None, help="SOURCE is this official engine's game log: year or variant (2022 swap ... 2025 bounty)."
        ),
    ) -> None:
        """Convert a hand history between JSON lines and PHH, or an engine game log to either, verifying
        every round on the way."""
        from game.play.history_files import open_history_writer, read_records
        from game.pokerbots.engines import engine_rules
        from game.pokerbots.gamelog import is_game_log, read_game_log

        try:
            rules = None if engine is None else engine_rules(engine)
        except ValueError as error:
            raise fail(f"--engine: {error}", USAGE) from None
        output_file(destination, "OUT")
        try:
            if rules is not None:
                header, records = read_game_log(source.read_text(), rules)
            else:
                with source.open() as handle:
                    if is_game_log(handle.readline()):
                        raise fail(
                            f"hand history {str(source)!r} is an engine game log: give --engine YEAR (2022..2025)",
                            USAGE,
                        )
                header, records = read_records(source)
        except UnicodeDecodeError:
            raise fail(f"hand history {str(source)!r}: not a text file", RUNTIME) from None
        except OSError as error:
            raise fail(f"hand history {str(source)!r}: {error.strerror or error}", RUNTIME) from None
        except ValueError as error:  # not a hand history, a malformed one, or a round that does not replay
            raise fail(f"hand history {str(source)!r}: {error}", RUNTIME) from None
        try:
            with open_history_writer(destination, header) as writer:
                for record in records:
                    writer.write(record)
        except OSError as error:
            raise fail(f"OUT {str(destination)!r}: cannot write ({error.strerror or error})", RUNTIME) from None
        typer.echo(f"wrote {len(records)} rounds of {header.variant} to {destination}")

    @bench.command("engine")
    def bench_engine(
        rounds: int = typer.Option(2000, help="Random rounds per variant per timed pass."),
        pokerkit_rounds: int = typer.Option(300, help="Random PokerKit hold'em rounds per timed pass."),
        repeats: Repeats = 3,
        seed: int = typer.Option(0, help="Seed of the cards and actions."),
        as_json: JsonFlag = False,
    ) -> None:
        """Random heads-up rounds per second in every variant, next to PokerKit's hold'em."""
        from game.bench.engine import run_engine_benchmark

        try:
            result = run_engine_benchmark(rounds=rounds, pokerkit_rounds=pokerkit_rounds, repeats=repeats, seed=seed)
        except ValueError as error:
            raise fail(str(error), USAGE) from None
        if as_json:
            typer.echo(json.dumps(result))
            return
        for name, rate in result["rounds_per_s"].items():
            typer.echo(f"{name}: {rate:,.0f} rounds/s")
        if result["pokerkit_rounds_per_s"] is None:
            typer.echo("pokerkit: not installed")
        else:
            typer.echo(f"pokerkit hold'em: {result['pokerkit_rounds_per_s']:,.0f} rounds/s")
            typer.echo(f"ratio (our hold'em / pokerkit): {result['ratio_vs_pokerkit']:.1f}x")


def _gauntlet_progress(variant: str, opponents: list[str] | None) -> tuple[Any, Any]:
    """A rich progress bar over the gauntlet's matches (or limit pairs), on stderr, and its task."""
    from itertools import combinations_with_replacement

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from game.play.gauntlet import default_opponents
    from game.play.sparring import LIMIT_STYLES
    from game.rules.families import GameFamily, game_family

    if game_family(variant) is GameFamily.LIMIT:
        total = len(list(combinations_with_replacement(opponents or LIMIT_STYLES, 2)))
    else:
        total = len(opponents) if opponents is not None else len(default_opponents(variant))
    progress = Progress(
        TextColumn("[bold]gauntlet"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[last]}"),
        TimeElapsedColumn(),
        transient=True,
        console=Console(stderr=True),
    )
    return progress, progress.add_task("gauntlet", total=total, last="")


def _print_gauntlet(report: dict[str, Any]) -> None:
    """The gauntlet's table (rich) and a summary line."""
    from rich.console import Console
    from rich.table import Table

    from game.rules.families import GameFamily, game_family

    if game_family(report["variant"]) is GameFamily.LIMIT:
        table = Table(title=f"{report['bot']}: limit, 3-player freeze-outs, {report['freezeouts_per_pair']} per pair")
        for column in ("opponents", "wins", "win share", "Wilson 95%", "finished", "games"):
            table.add_column(
                column, justify="left" if column == "opponents" else "right", no_wrap=column == "opponents"
            )
        for row in [*report["pairs"], {**report["overall"], "opponents": ["overall"], "finished": None, "games": None}]:
            low, high = row["wilson95"]
            table.add_row(
                " + ".join(row["opponents"]),
                f"{row['wins']}/{row['freezeouts']}",
                f"{row['win_share']:.3f}",
                f"{low:.3f}..{high:.3f}",
                "" if row["finished"] is None else str(row["finished"]),
                "" if row["games"] is None else f"{row['games']:,}",
            )
        Console().print(table)
        typer.echo(f"fair share 1/3; {report['seconds']:.0f} s")
        return
    matches = f" in matches of {report['match_rounds']:,}" if "match_rounds" in report else ""
    table = Table(
        title=f"{report['bot']}: {report['variant']}, {report['hands']:,} duplicate hands per opponent{matches}, "
        f"{report['rules']} rules, seed {report['seed']}"
    )
    for column in ("opponent", "mbb/hand", "95% CI", "result", "chips", "faults (bot/opp)", "s"):
        table.add_column(column, justify="left" if column in ("opponent", "result") else "right", no_wrap=True)
    colours = {"win": "green", "loss": "red", "even": "yellow"}
    for row in report["opponents"]:
        half = row["ci95_mbb_per_hand"]
        table.add_row(
            row["opponent"],
            f"{row['mbb_per_hand']:+,.0f}",
            "n/a" if half is None else f"+- {half:,.0f}",
            f"[{colours[row['result']]}]{row['result']}[/]",
            f"{row['chips']:+,}",
            f"{row['faults']['bot']}/{row['faults']['opponent']}",
            f"{row['seconds']:.1f}",
        )
    Console().print(table)
    counts = {result: sum(row["result"] == result for row in report["opponents"]) for result in ("win", "even", "loss")}
    typer.echo(
        f"{counts['win']} wins, {counts['even']} even, {counts['loss']} losses; {report['seconds']:.0f} s "
        f"with {report['jobs']} jobs" + (f"; chart: {report['png']}" if "png" in report else "")
    )


def baseline_match_lines(rounds: int = 200, seed: int = 0) -> list[str]:
    """One readable line per variant: EquityBot vs RandomBot over ``rounds`` duplicate rounds, then
    a 3-player limit freeze-out (check/call vs two random bots, at most 1000 games).

    >>> baseline_match_lines(rounds=2)[0].startswith("holdem: equity vs random over 2 duplicate rounds:")
    True
    """
    from game.play.bots import make_bot
    from game.play.match import play_match
    from game.rules.limit import LimitConfig
    from game.rules.variants import VARIANTS

    lines = []
    seed_a, seed_b = _bot_seeds(seed)
    for name, variant in VARIANTS.items():
        config = variant.config_class()
        result = play_match(
            config,
            make_bot("equity", config=config, seed=seed_a),
            make_bot("random", seed=seed_b),
            rounds=rounds,
            seed=seed,
            duplicate=True,
        )
        mean, half_width = result.win_rate()
        interval = "" if half_width is None else f" +- {half_width:,.0f}"
        lines.append(
            f"{name}: equity vs random over {rounds} duplicate rounds: {result.bankrolls['equity']:+,} chips, "
            f"{mean:+,.0f}{interval} mbb/hand (95% CI)"
        )
    result = play_freeze_out(LimitConfig(n_players=3), ["checkcall", "random", "random"], seed=seed, max_games=1000)
    stacks = ", ".join(f"{name} {chips:,}" for name, chips in result["stacks"].items())
    outcome = f"{result['winner']} won" if result["winner"] is not None else "no winner yet"
    lines.append(f"limit (3-player freeze-out): {outcome} after {result['games']} games; stacks {stacks}")
    return lines


def play_freeze_out(config: LimitConfig, bot_names: list[str], *, seed: int, max_games: int) -> dict:
    """Play a limit freeze-out, one player per seat; JSON-able summary (chips). A player is a baseline
    bot of `game.play.bots.LIMIT_BOTS` (random, checkcall, the limit sparring styles) or a file of a registered suffix (:data:`PLAYER_FILES`: the solver
    registers ``.h5`` strategy files, played by the limit lookup bot).

    Players repeated by name are told apart as ``random-1``, ``random-2`` ...

    >>> from game.rules.limit import LimitConfig
    >>> play_freeze_out(LimitConfig(n_players=2, buy_in=40), ["checkcall", "random"], seed=1, max_games=500)["winner"]
    'checkcall'
    """
    import numpy as np

    from game.play.bots import LIMIT_BOTS, make_bot
    from game.play.freeze_out import FreezeOut

    files = {name for name in bot_names if is_player_file(name)}
    unsupported = sorted(set(bot_names) - set(LIMIT_BOTS) - files)
    if unsupported:
        suffixes = ", ".join(sorted(PLAYER_FILES)) or "none registered"
        raise ValueError(
            f"the limit game is played by the bots {', '.join(LIMIT_BOTS)} and by strategy files "
            f"(ending in {suffixes}), not {unsupported}"
        )
    if len(bot_names) != config.n_players:
        raise ValueError(f"need one bot per seat: {config.n_players} players, got {len(bot_names)} bots {bot_names!r}")
    labels = [
        f"{name}-{bot_names[: index + 1].count(name)}" if bot_names.count(name) > 1 else name
        for index, name in enumerate(bot_names)
    ]
    seeds = np.random.SeedSequence(seed).generate_state(len(bot_names))
    bots = [
        make_player(name, config, int(bot_seed)) if name in files else make_bot(name, seed=int(bot_seed))
        for name, bot_seed in zip(bot_names, seeds, strict=True)
    ]
    freeze_out = FreezeOut(config, bots, seed=seed)
    games = len(freeze_out.run(max_games=max_games))
    return {
        "players": config.n_players,
        "games": games,
        "winner": None if freeze_out.winner is None else labels[freeze_out.winner],
        "stacks": dict(zip(labels, (int(chips) for chips in freeze_out.stacks), strict=True)),
        "seed": seed,
    }

"""``vcfr variants``, ``vcfr match``, ``vcfr replay`` and ``vcfr bench engine``.

A ``vcfr match`` player is a baseline bot name (`game.play.bots.BOTS`) or a file whose suffix a higher
layer registered with :func:`register_player_file`: `game` never imports `solver` (the layers are
game <- abstraction <- solver), so the solver's command module, which is loaded into the same
``vcfr`` app, registers ``.h5`` strategy files (played by its lookup bot) from its side.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import MISSING, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

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


def make_player(name: str, config: Any, seed: Any) -> Any:
    """A match player: a file of a registered suffix (:data:`PLAYER_FILES`), else a `game.play.bots` name.

    >>> make_player("checkcall", None, 0).name
    'checkcall'
    >>> make_player("strategy.zip", None, 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'strategy.zip' is neither a bot name nor a player file; files ending in ... are players
    """
    from game.play.bots import BOTS, make_bot

    suffix = Path(name).suffix.lower()
    if suffix in PLAYER_FILES:
        return PLAYER_FILES[suffix](name, config, seed)
    if suffix and name not in BOTS:
        known = ", ".join(sorted(PLAYER_FILES)) or "none registered"
        raise ValueError(f"{name!r} is neither a bot name nor a player file; files ending in {known} are players")
    return make_bot(name, config=config, seed=seed)


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
            "name": "limit",
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
    def variants(as_json: bool = typer.Option(False, "--json", help="Print JSON only.")) -> None:
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
            "samples per decision) or a strategy file (.h5) of the variant (resolve:FILE.h5: the "
            "re-solving bot of the file, Hold'em only).",
        ),
        b: str = typer.Option("random", "--b", help="Player B: random, checkcall, equity or a strategy file (.h5)."),
        rounds: int = typer.Option(1000, help="Rounds to play (even when duplicate)."),
        seed: int = typer.Option(0, help="Seed of the deals (bots get seeds derived from it)."),
        duplicate: bool = typer.Option(
            True,
            "--duplicate/--no-duplicate",
            help="Play each deal twice with seats swapped (the 95% CI is over deal pairs).",
        ),
        rules: str = typer.Option("document", help="document (the rules documents) or engine (the official engines)."),
        history: Path | None = typer.Option(None, help="Write the JSON-lines hand history here."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """Play a duplicate match between two players (baseline bots or strategy files); print bankrolls
        and A's mbb/hand with a 95% CI over deal pairs."""
        from game.play.match import play_match
        from game.rules.variants import get_variant

        try:
            config = get_variant(variant).config_class(rules=rules)  # type: ignore[call-arg]
            seed_a, seed_b = _bot_seeds(seed)
            bot_a = make_player(a, config, seed_a)
            bot_b = make_player(b, config, seed_b)
            result = play_match(config, bot_a, bot_b, rounds=rounds, seed=seed, duplicate=duplicate, history=history)
        except ValueError as error:  # a usage error: one line on stderr, exit code 2
            typer.echo(f"error: {' '.join(str(error).split())}", err=True)
            raise typer.Exit(2) from None
        summary = result.to_dict()
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
        if history is not None:
            typer.echo(f"  hand history: {history}")

    @app.command()
    def freezeout(
        bots: str = typer.Option(
            "checkcall,random,random",
            help="One player per seat, comma-separated: random, checkcall, or a limit strategy file (.h5).",
        ),
        seed: int = typer.Option(0, help="Seed of the deals (bots get seeds derived from it)."),
        max_games: int = typer.Option(1000, help="Stop after this many games if nobody holds every chip."),
        cards_speak: bool = typer.Option(True, "--cards-speak/--announced", help="Showdown mode of the limit game."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """Play the N-player limit game (limit-holdem-nplayer.txt) as a freeze-out between baseline bots and
        strategy files (`vcfr solve --variant limit`)."""
        from game.rules.limit import LimitConfig

        names = [name.strip() for name in bots.split(",") if name.strip()]
        try:
            config = LimitConfig(n_players=len(names), cards_speak=cards_speak)
            result = play_freeze_out(config, names, seed=seed, max_games=max_games)
        except ValueError as error:
            raise typer.BadParameter(str(error)) from None
        if as_json:
            typer.echo(json.dumps(result))
            return
        outcome = f"{result['winner']} holds every chip" if result["winner"] is not None else "no winner yet"
        typer.echo(
            f"limit freeze-out, {result['players']} players, seed {seed}: {outcome} after {result['games']} games"
        )
        for name, chips in result["stacks"].items():
            typer.echo(f"  {name}: {chips:,} chips")

    @app.command()
    def replay(
        path: Path = typer.Argument(..., help="A JSON-lines hand history written by `vcfr match --history`."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """Re-run every round of a hand history and verify its payoffs (exit code 1 on a mismatch)."""
        from game.play.history import replay as replay_history

        try:
            report = replay_history(path)
        except (OSError, ValueError) as error:
            raise typer.BadParameter(str(error)) from None
        if as_json:
            typer.echo(json.dumps(report.to_dict()))
        elif report.ok:
            chips = ", ".join(f"{name} {value:+,}" for name, value in report.bankrolls.items())
            typer.echo(f"verified {report.rounds_checked} rounds of {report.variant}: {chips} chips")
        else:
            typer.echo(f"MISMATCH after {report.rounds_checked} verified rounds: {report.mismatch}")
        if not report.ok:
            raise typer.Exit(1)

    @bench.command("engine")
    def bench_engine(
        rounds: int = typer.Option(2000, help="Random rounds per variant per timed pass."),
        pokerkit_rounds: int = typer.Option(300, help="Random PokerKit hold'em rounds per timed pass."),
        repeats: int = typer.Option(3, help="Timed passes; the best is reported."),
        seed: int = typer.Option(0, help="Seed of the cards and actions."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON only."),
    ) -> None:
        """Random heads-up rounds per second in every variant, next to PokerKit's hold'em."""
        from game.bench.engine import run_engine_benchmark

        result = run_engine_benchmark(rounds=rounds, pokerkit_rounds=pokerkit_rounds, repeats=repeats, seed=seed)
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


LIMIT_BOTS = ("random", "checkcall")
"""Baseline bots that play the N-player limit game (the equity bot is heads-up no-limit only)."""


def play_freeze_out(config: LimitConfig, bot_names: list[str], *, seed: int, max_games: int) -> dict:
    """Play a limit freeze-out, one player per seat; JSON-able summary (chips). A player is a baseline
    bot of :data:`LIMIT_BOTS` or a file of a registered suffix (:data:`PLAYER_FILES`: the solver
    registers ``.h5`` strategy files, played by the limit lookup bot).

    Players repeated by name are told apart as ``random-1``, ``random-2`` ...

    >>> from game.rules.limit import LimitConfig
    >>> play_freeze_out(LimitConfig(n_players=2, buy_in=40), ["checkcall", "random"], seed=1, max_games=500)["winner"]
    'checkcall'
    """
    import numpy as np

    from game.play.bots import make_bot
    from game.play.freeze_out import FreezeOut

    files = {name for name in bot_names if Path(name).suffix.lower() in PLAYER_FILES}
    unsupported = sorted(set(bot_names) - set(LIMIT_BOTS) - files)
    if unsupported:
        suffixes = ", ".join(sorted(PLAYER_FILES)) or "none registered"
        raise ValueError(
            f"the limit game is played by the {' and '.join(LIMIT_BOTS)} bots and by strategy files "
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

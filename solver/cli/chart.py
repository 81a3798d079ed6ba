"""``vcfr chart``: PNG charts of a strategy file (preflop grids, convergence curve)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from game.cli_support import RUNTIME, JsonFlag, StrategyArgument, check_output_folder, fail


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @app.command()
    def chart(
        strategy: StrategyArgument,
        out: Path | None = typer.Option(
            None, help="Folder for the PNG files (default: <strategy>_charts next to the file)."
        ),
        points: int = typer.Option(
            4, min=0, help="Preflop decision points to chart, breadth-first from the first decision."
        ),
        cards: Path | None = typer.Option(
            None, help="Card abstraction file (default: the one the strategy file names)."
        ),
        as_json: JsonFlag = False,
    ) -> None:
        """Write the 13x13 preflop grid of action frequencies per decision point and the convergence curve."""
        from abstraction.cards.buckets import CardAbstraction
        from solver.bots.lookup_bot import find_card_abstraction
        from solver.evaluate.charts import write_charts
        from solver.games.abstract_games import GAME_KIND, AbstractGameConfig
        from solver.solve.strategy_file import read_strategy_file

        folder = out if out is not None else strategy.with_name(f"{strategy.stem}_charts")
        try:
            record = read_strategy_file(strategy)
            check_output_folder(folder)
            abstraction = None
            if record.game_config.get("kind") == GAME_KIND:
                config = AbstractGameConfig.from_dict(dict(record.game_config))
                abstraction = CardAbstraction.load(
                    cards if cards is not None else find_card_abstraction(config, strategy)
                )
            written = write_charts(record, abstraction, folder, points=points)
        except (ValueError, OSError) as error:  # an unreadable or mismatched file, an unwritable --out
            raise fail(str(error), RUNTIME) from None
        if as_json:
            typer.echo(json.dumps({"charts": [str(path) for path in written]}))
            return
        if not written:
            typer.echo(f"{strategy}: nothing to chart (no preflop grid for this game and no convergence log)")
        for path in written:
            typer.echo(f"wrote {path}")

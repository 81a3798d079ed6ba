"""``vcfr view``: the strategy browser, a local web page walking a strategy file's betting tree."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import typer

from game.cli_support import RUNTIME, StrategyArgument, fail
from solver.view import DEFAULT_DEALS

SHUTDOWN_SECONDS = 5.0
"""Longest wait, after Ctrl-C, for the serving loop to stop before the command returns anyway."""


def register(app: typer.Typer, bench: typer.Typer) -> None:
    @app.command()
    def view(
        strategy: StrategyArgument,
        compare: Path | None = typer.Option(
            None, help="A second strategy file of the same tree (game and bets), shown side by side."
        ),
        port: int = typer.Option(8765, min=0, max=65535, help="Port on 127.0.0.1 (0: any free port)."),
        cards: Path | None = typer.Option(
            None, help="Card abstraction file of STRATEGY (default: the one it names; --compare's file finds its own)."
        ),
        deals: int = typer.Option(
            DEFAULT_DEALS, min=1, help="Fresh deals the reach of a full-size game is averaged over (seed 0)."
        ),
        no_open: bool = typer.Option(False, "--no-open", help="Do not open the page in a web browser."),
    ) -> None:
        """Serve a page that walks the betting tree by clicking actions: at each node the 13x13 grid
        (preflop) or the buckets' action frequencies, the pot, the stacks and the reach. Ctrl-C stops it."""
        from solver.view.browser import StrategyView, check_same_tree
        from solver.view.server import bind

        try:
            views = [StrategyView.open(strategy, cards=cards, deals=deals)]
            if compare is not None:
                views.append(StrategyView.open(compare, deals=deals))
                check_same_tree(*views)
        except (ValueError, OSError) as error:  # an unreadable or mismatched file
            raise fail(str(error), RUNTIME) from None
        try:
            server = bind(views, port=port)
        except OSError as error:  # the port is taken or not ours to use
            raise fail(f"cannot serve on 127.0.0.1 port {port}: {error.strerror or error}", RUNTIME) from None
        url = f"http://127.0.0.1:{server.server_port}/"
        typer.echo(f"serving {strategy}{f' and {compare}' if compare else ''} at {url} (Ctrl-C stops)")
        if not no_open:
            import webbrowser

            webbrowser.open(url)
        # Ctrl-C stops it even when the parent left SIGINT ignored or blocked (both survive exec: a test
        # runner's worker that spawned process pools did), so the promise on the line above holds.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        # The server runs in a thread and the main thread only waits, so Ctrl-C (delivered to the main
        # thread) never lands inside a request, where wsgiref's handler would swallow it and serve on.
        serving = threading.Thread(target=server.serve_forever, name="vcfr-view", daemon=True)
        try:
            serving.start()  # inside the try: a Ctrl-C may arrive before start() returns (seen in CI)
            while serving.is_alive():
                serving.join(0.5)
        except KeyboardInterrupt:
            # shutdown() waits for the serving loop to notice; bounded, so that Ctrl-C always stops the
            # command (the serving thread is a daemon and ends with the process).
            stopper = threading.Thread(target=server.shutdown, name="vcfr-view-stop", daemon=True)
            stopper.start()
            stopper.join(SHUTDOWN_SECONDS)
        finally:
            server.server_close()

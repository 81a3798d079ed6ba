"""What ``vcfr solve`` shows while it builds an abstract game: its size, then a progress bar on long builds.

`build_reporter` gives the ``on_build`` callback of `solver.solve.training.train`: at the first
`solver.games.abstract_games.BuildProgress` (before the walk) it prints one line, ``building the
abstract game: ~N nodes, M information sets, X GB of tables``; a tree of :data:`BAR_NODES` nodes
or more also gets a rich bar of nodes built, removed once the tree is built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

BAR_NODES = 20_000
"""Trees of at least this many nodes get a progress bar: the builder walks several thousand nodes
a second, so these take a few seconds or more."""


@contextmanager
def build_reporter(show: bool, console: Any = None) -> Iterator[Callable[[Any], None] | None]:
    """The ``on_build`` callback (None when ``show`` is false: ``--quiet``, ``--json``); the bar,
    if one was started, is stopped on leaving, also when the build fails."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = console or Console()
    bar = Progress(
        TextColumn("[bold]build"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("nodes"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    task: list[Any] = []

    def report(event: Any) -> None:
        size = event.size
        if event.nodes_built == 0:
            console.print(
                f"building the abstract game: {size.summary(event.table_itemsize)}", soft_wrap=True, highlight=False
            )
            if size.n_nodes >= BAR_NODES and not task:
                task.append(bar.add_task("build", total=size.n_nodes))
                bar.start()
        elif task:
            bar.update(task[0], completed=event.nodes_built)
            if event.nodes_built >= size.n_nodes:
                bar.stop()

    try:
        yield report
    finally:
        if task:
            bar.stop()

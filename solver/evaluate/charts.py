"""Charts of a strategy file: the 13x13 preflop grid of each decision point, and the convergence curve.

The preflop grid is the chart every poker player reads: one cell per starting-hand class (pairs on
the diagonal, suited hands above it, offsuit hands below, aces first), split left to right into
the average strategy's action frequencies at one preflop decision point of the abstract tree
(fold blue, check or call green, raises from light to dark red by size, all-in darkest). A
class's frequencies are those of its preflop bucket in the card abstraction, so classes sharing a
bucket look alike; with 169 preflop buckets every class is its own. Bounty buckets carry the hit
bit: the grid shows hands whose bounty rank is not among the hole cards.

The convergence curve plots the file's log (`solver.solve.strategy_file.ConvergenceLog`): exploitability
in chips per hand against iterations on log-log axes when it was measured, else (fresh-chance
abstract games, where exact exploitability is not computed during the solve) iterations against
solve seconds.

`preflop_grid` returns the numbers, `write_charts` the PNG files (`vcfr chart`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from abstraction.cards.buckets import CardAbstraction
from abstraction.tree import DECISION, FlatTree
from game.cards.deck import RANKS, SUITS
from game.rules.actions import ActionKind
from solver.solve.strategy_file import ConvergenceLog, StrategyRecord

GRID_RANKS = RANKS[::-1]
"""Row and column order of the grid: ``A K Q ... 2``."""
FOLD_COLOUR = "#4a90c2"
CALL_COLOUR = "#5cb85c"
COMBOS = np.where(np.eye(13, dtype=bool), 6, np.where(np.triu(np.ones((13, 13), dtype=bool)), 4, 12))
"""Two-card combinations of each grid class: 6 per pair, 4 suited, 12 offsuit (1,326 in all)."""
RAISE_COLOURS = ("#f4a582", "#e7705a", "#d6604d", "#b2182b", "#8b0000", "#67001f")
"""Raise sizes from the smallest up; the largest (all-in) takes the darkest."""


def hand_class(row: int, column: int) -> str:
    """The class of grid cell ``(row, column)``: ``'AA'``, ``'AKs'`` (above the diagonal), ``'AKo'`` (below).

    >>> hand_class(0, 0), hand_class(0, 1), hand_class(1, 0), hand_class(12, 12)
    ('AA', 'AKs', 'AKo', '22')
    """
    high, low = GRID_RANKS[min(row, column)], GRID_RANKS[max(row, column)]
    if row == column:
        return high + low
    return high + low + ("s" if row < column else "o")


def class_cards(row: int, column: int) -> str:
    """Two cards of cell ``(row, column)``'s class (a representative; suits do not matter preflop).

    >>> class_cards(0, 1), class_cards(1, 0), class_cards(3, 3)
    ('AcKc', 'AcKd', 'JcJd')
    """
    high, low = GRID_RANKS[min(row, column)], GRID_RANKS[max(row, column)]
    suited = row < column
    return f"{high}{SUITS[0]}{low}{SUITS[0] if suited else SUITS[1]}"


@dataclass(frozen=True)
class PreflopGrid:
    """The average strategy at one preflop decision point, per hand class.

    ``node``: the decision node (breadth-first first node of its information-set group);
    ``history``: its action history (``''`` at the root); ``player``: the seat to act;
    ``actions``: the labels of its children (``'F'``, ``'C'``, ``'R6'`` ...); ``frequencies``:
    float64 ``(13, 13, n_actions)``, rows summing to 1, cells as in `hand_class`.
    """

    node: int
    history: str
    player: int
    actions: tuple[str, ...]
    frequencies: np.ndarray


def preflop_points(tree: FlatTree, limit: int | None = None) -> list[int]:
    """The preflop decision nodes, one per information-set group, breadth-first (``limit`` of them)."""
    seen: set[int] = set()
    nodes: list[int] = []
    for node in np.flatnonzero((tree.kind == DECISION) & (tree.street == 0)).tolist():
        group = int(tree.infoset_group[node])
        if group not in seen:
            seen.add(group)
            nodes.append(node)
    return nodes if limit is None else nodes[:limit]


def preflop_grid(
    tree: FlatTree, average_strategy: np.ndarray, cards: CardAbstraction, node: int, *, bounty_hit: bool = False
) -> PreflopGrid:
    """The 13x13 grid of ``average_strategy`` (flat, as in the strategy file) at the preflop decision ``node``.

    Bounty: each class's hands whose bounty rank is not among the hole cards, or with ``bounty_hit``
    those whose bounty rank is (the bucket's hit bit set)."""
    if tree.kind[node] != DECISION or tree.street[node] != 0:
        raise ValueError(
            f"node {node} is not a preflop decision (kind {int(tree.kind[node])}, street {int(tree.street[node])})"
        )
    group = int(tree.infoset_group[node])
    n_actions = int(tree.n_actions[group])
    if cards.n_buckets(0) != int(tree.n_buckets[group]):
        raise ValueError(
            f"the card abstraction has {cards.n_buckets(0)} preflop buckets, the tree {int(tree.n_buckets[group])}"
        )
    bounty = cards.lookup.bounty  # buckets carry the bounty hit bit
    frequencies = np.empty((13, 13, n_actions))
    for row in range(13):
        for column in range(13):
            hole = class_cards(row, column)
            bounty_rank = None
            if bounty:  # the first rank that is (hit) or is not (no hit) among the hole cards
                bounty_rank = next(rank for rank in range(13) if (RANKS[rank] in hole[::2]) == bounty_hit)
            bucket = cards.bucket(hole, bounty_rank=bounty_rank)
            offset = int(tree.row_offset[group]) + bucket * n_actions
            frequencies[row, column] = average_strategy[offset : offset + n_actions]
    return PreflopGrid(node, tree.history(node), int(tree.player[node]), action_labels(tree, node), frequencies)


def action_labels(tree: FlatTree, node: int) -> tuple[str, ...]:
    """The labels of ``node``'s children (``'F'``, ``'C'``, ``'R6'`` ...), a raise to the largest
    commitment in the tree marked ``' (all-in)'``."""
    first = int(tree.child_start[node])
    stack = float(tree.committed.max())
    return tuple(
        tree.action_label(child)
        + (
            " (all-in)"
            if tree.action_kind[child] == ActionKind.RAISE and tree.committed[child, tree.player[node]] >= stack
            else ""
        )
        for child in range(first, first + int(tree.n_children[node]))
    )


def action_colours(tree: FlatTree, node: int) -> list[str]:
    """A colour per child of ``node``: fold, check/call, then raises by size (the largest darkest)."""
    first = int(tree.child_start[node])
    children = range(first, first + int(tree.n_children[node]))
    raises = sorted(child for child in children if tree.action_kind[child] == ActionKind.RAISE)
    colours = []
    for child in children:
        kind = int(tree.action_kind[child])
        if kind == ActionKind.FOLD:
            colours.append(FOLD_COLOUR)
        elif kind == ActionKind.RAISE:
            rank = raises.index(child)
            step = (
                len(RAISE_COLOURS) - len(raises) + rank
                if len(raises) <= len(RAISE_COLOURS)
                else rank * len(RAISE_COLOURS) // len(raises)
            )
            colours.append(RAISE_COLOURS[max(step, 0)])
        else:
            colours.append(CALL_COLOUR)
    return colours


def _plot_grid(grid: PreflopGrid, colours: Sequence[str], title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Rectangle

    figure, axes = plt.subplots(figsize=(8.6, 9.2))
    for row in range(13):
        for column in range(13):
            left = float(column)
            for share, colour in zip(grid.frequencies[row, column], colours, strict=True):
                if share > 0:
                    axes.add_patch(Rectangle((left, row), share, 1.0, facecolor=colour, edgecolor="none"))
                    left += share
            axes.add_patch(Rectangle((column, row), 1.0, 1.0, fill=False, edgecolor="white", linewidth=1.2))
            axes.text(
                column + 0.5,
                row + 0.5,
                hand_class(row, column),
                ha="center",
                va="center",
                fontsize=8.5,
                color="black",
                fontweight="bold" if row == column else "normal",
                bbox={"facecolor": "white", "alpha": 0.65, "edgecolor": "none", "pad": 1.0},
            )
    axes.set_xlim(0, 13)
    axes.set_ylim(13, 0)
    axes.set_aspect("equal")
    axes.axis("off")
    average = np.tensordot(COMBOS, grid.frequencies, axes=([0, 1], [0, 1])) / COMBOS.sum()
    handles = [
        Patch(facecolor=colour, label=f"{label} ({share:.0%} of hands)")
        for label, colour, share in zip(grid.actions, colours, average, strict=True)
    ]
    axes.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.01),
        ncol=min(4, len(handles)),
        frameon=False,
        fontsize=9,
    )
    axes.set_title(title, fontsize=11)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _plot_convergence(log: ConvergenceLog, title: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    measured = np.isfinite(log.exploitability) & (log.exploitability > 0)
    if measured.any():
        axes.loglog(log.iteration[measured], log.exploitability[measured], marker="o", markersize=3)
        axes.set_xlabel("iterations")
        axes.set_ylabel("exploitability (chips per hand)")
    else:
        axes.plot(log.seconds, log.iteration, marker="o", markersize=3)
        axes.set_xlabel("solve time (s)")
        axes.set_ylabel("iterations")
        title += "\n(exploitability not measured during this solve)"
    axes.grid(True, which="both", alpha=0.3)
    axes.set_title(title, fontsize=11)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _slug(history: str) -> str:
    return "".join(character if character.isalnum() else "_" for character in history) or "root"


def write_charts(
    record: StrategyRecord, cards: CardAbstraction | None, out: str | Path, *, points: int = 4
) -> list[Path]:
    """Write ``out/preflop_<k>_<history>.png`` for the first ``points`` preflop decision points
    (none without a card abstraction, e.g. Kuhn and Leduc) and ``out/convergence.png`` when the
    file has a convergence log. Returns the paths written."""
    if points < 0:
        raise ValueError(f"points must be >= 0, got {points}")
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    tree = FlatTree.from_arrays(dict(record.tree_arrays))
    strategy = np.asarray(record.average_strategy, dtype=np.float64)
    game = record.game_config.get("variant") or record.game_config.get("name", "game")
    solver = record.solver_config.get("solver", record.solver_config)
    name = f"{game}, {solver.get('algorithm', 'solver')}, {record.iterations:,} iterations"
    written = []
    if cards is not None:
        for index, node in enumerate(preflop_points(tree, points)):
            grid = preflop_grid(tree, strategy, cards, node)
            where = f"after {grid.history}" if grid.history else "first decision"
            path = folder / f"preflop_{index}_{_slug(grid.history)}.png"
            seat = f"seat {grid.player}" + (" (dealer)" if grid.player == 0 and tree.n_players == 2 else "")
            _plot_grid(grid, action_colours(tree, node), f"{name}\npreflop, {seat} to act, {where}", path)
            written.append(path)
    if len(record.convergence):
        path = folder / "convergence.png"
        _plot_convergence(record.convergence, name, path)
        written.append(path)
    return written

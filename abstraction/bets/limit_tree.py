"""The betting tree of N-player limit hold'em (`game.rules.limit`), walked from the rules engine.

Nothing about the betting is re-encoded: the tree is the walk of :class:`game.rules.limit.LimitRound`
(``legal_moves`` / ``apply`` on clones) from a round with the button on seat 0 and every player
holding ``config.buy_in`` chips. Betting in limit does not depend on the cards, so one walk serves
every deal. Conventions (those of `abstraction.exact.exact_games`, whose helpers are reused):

- seats are relative to the button: seat 0 is the button (it posts the blind), seat 1 the
  straddler, ...; a real game with the button elsewhere is rotated onto this tree;
- the bucket slot of a decision is its street ordinal (0 preflop, 1 flop, 2 turn, 3 river) and
  every decision node is its own information-set group (the betting is public);
- a showdown's outcome context is the set of seats alive there (:func:`showdown_contexts`, the
  largest sets first) and its outcomes are the winner subsets
  (`abstraction.exact.exact_games.showdown_outcomes`); each outcome's payoff row is
  :meth:`LimitRound.payoffs_if` of those winners: NET chips per seat, divided by the rules'
  expectation method (`game.rules.pots`), odd chips from the button clockwise;
- a fold terminal (one player left) has one row, the round's own ``payoffs()``.

Assumptions of the abstract game (the lookup bot copes when reality breaks them):

- **cards speak**: at a showdown the best hand of each player wins (with
  ``must_use_hole_card`` the best hand using a hole card); in announced-hands rules
  (``cards_speak=False``) every player is assumed to announce their best hand, never to muck;
- **no tap-outs**: every player can put in the most a game can cost, ``ante + (max_raises + 1) *
  (2 * low_limit + 2 * high_limit)`` chips (:func:`max_commitment`); a config whose ``buy_in``
  is smaller is refused with a ValueError (a tap-out would change who may act later).

Sizes (3 players, default limits, blinds in round two): ``max_raises`` 0: 393 nodes, 1: 14,035,
2: 296,913, 3 (the rules' default): 5,354,611 (:func:`measure_limit_tree` measures without building).

>>> from game.rules.limit import LimitConfig
>>> tree = build_limit_tree(LimitConfig(n_players=3, max_raises=1), [169, 8, 8, 8])
>>> tree.n_nodes, tree.n_players, tree.n_slots, showdown_contexts(tree)
(14035, 3, 4, [(0, 1, 2), (0, 1), (0, 2), (1, 2)])
>>> tree.context_size.tolist(), count_nodes(LimitConfig(n_players=3, max_raises=1))
([7, 3, 3, 3], 14035)
>>> build_limit_tree(LimitConfig(n_players=3, buy_in=100), [169, 8, 8, 8])
Traceback (most recent call last):
...
ValueError: the limit abstract game assumes nobody taps out: a player can put in up to 245 chips in one game (ante 5 + 4 bets of 10, 10, 20, 20 per street), but buy_in is 100 chips; raise buy_in to >= 245 or lower max_raises
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from abstraction.bets.betting_tree import TreeSize
from abstraction.exact.exact_games import showdown_contexts, showdown_outcomes
from abstraction.tree import DECISION, FOLD, MAX_PLAYERS, SHOWDOWN, FlatTree
from game.rules.chance import ScriptedChance
from game.rules.limit import LimitConfig, LimitRound
from game.rules.nolimit import FLOP, PREFLOP, RIVER, TURN

__all__ = [
    "STREET_ORDINAL",
    "build_limit_tree",
    "count_nodes",
    "max_commitment",
    "measure_limit_tree",
    "showdown_contexts",
    "walk_config",
]

STREET_ORDINAL = {PREFLOP: 0, FLOP: 1, TURN: 2, RIVER: 3}
"""Board cards of a street (0, 3, 4, 5) -> its ordinal, the decision's bucket slot."""


def max_commitment(config: LimitConfig) -> int:
    """The most chips one player can put in during one game: the ante plus, per street, the
    opening bet (or the straddle) and ``max_raises`` raises of that street's limit.

    >>> max_commitment(LimitConfig()), max_commitment(LimitConfig(max_raises=2))
    (245, 185)
    """
    return int(config.ante) + (config.max_raises + 1) * sum(config.limit(street) for street in config.streets)


def check_no_tap_out(config: LimitConfig) -> None:
    """ValueError unless ``config.buy_in`` covers :func:`max_commitment` (nobody can tap out)."""
    needed = max_commitment(config)
    if config.buy_in < needed:
        limits = ", ".join(str(config.limit(street)) for street in config.streets)
        raise ValueError(
            f"the limit abstract game assumes nobody taps out: a player can put in up to {needed} chips in one "
            f"game (ante {config.ante} + {config.max_raises + 1} bets of {limits} per street), but buy_in is "
            f"{config.buy_in} chips; raise buy_in to >= {needed} or lower max_raises"
        )


def walk_config(config: LimitConfig) -> LimitConfig:
    """The rules the tree is walked with: ``config`` with announced hands (the walk stops when the
    betting is over, before any hand is evaluated; cards are irrelevant to the betting)."""
    if not isinstance(config, LimitConfig):
        raise TypeError(f"config must be a game.rules.limit.LimitConfig, got {config!r}")
    if config.n_players > MAX_PLAYERS:
        raise ValueError(f"the limit abstract game seats 2..{MAX_PLAYERS} players, the rules {config.n_players}")
    check_no_tap_out(config)
    values = {name: getattr(config, name) for name in config.__dataclass_fields__}
    values["cards_speak"] = False
    return LimitConfig(**values)


def _root(config: LimitConfig) -> LimitRound:
    rules = walk_config(config)
    n = rules.n_players
    cards = list(range(n * rules.hole_cards + sum(rules.board_cards)))  # any distinct cards: the walk never looks
    return LimitRound(rules, [rules.buy_in] * n, 0, chance=ScriptedChance(cards))


def _betting_over(round_: LimitRound) -> bool:
    return round_.is_terminal or round_.in_showdown


def _buckets(config: LimitConfig, buckets_per_street: Sequence[int]) -> np.ndarray:
    buckets = np.asarray(buckets_per_street, dtype=np.int32).reshape(-1)
    rounds = len(config.board_cards)
    if buckets.shape != (rounds,) or (buckets < 1).any():
        raise ValueError(
            f"buckets_per_street must be {rounds} counts >= 1 (one per betting round: preflop, flop, turn, river "
            f"in hold'em), got {buckets_per_street!r}"
        )
    return buckets


def measure_limit_tree(config: LimitConfig, buckets_per_street: Sequence[int]) -> TreeSize:
    """Nodes, groups, information sets and memory of the tree `build_limit_tree` would build (same
    arguments), without building it: milliseconds, since the subtree below a street's start depends
    only on the street and who folded (nobody taps out), so each is walked once.

    >>> size = measure_limit_tree(LimitConfig(n_players=3, max_raises=1), [169, 8, 8, 8])
    >>> tree = build_limit_tree(LimitConfig(n_players=3, max_raises=1), [169, 8, 8, 8])
    >>> (size.n_nodes, size.n_infosets, size.table_entries) == (tree.n_nodes, tree.n_infosets, tree.table_size)
    True
    """
    root = _root(config)
    buckets = _buckets(config, buckets_per_street).tolist()
    n_players = config.n_players
    memo: dict[tuple, tuple[int, int, int, int, int]] = {}
    contexts: set[tuple[int, ...]] = set()

    def walk(round_: LimitRound, street_start: bool) -> tuple[int, int, int, int, int]:
        """``(nodes, groups, information sets, table entries, payoff rows)`` of the subtree at ``round_``."""
        key = (round_.street, round_.folded, _betting_over(round_)) if street_start else None
        if key is not None and key in memo:
            return memo[key]
        if _betting_over(round_):
            alive = tuple(seat for seat, out in enumerate(round_.folded) if not out)
            if len(alive) > 1:
                contexts.add(alive)
            totals = (1, 0, 0, 0, len(showdown_outcomes(alive, n_players)) if len(alive) > 1 else 1)
        else:
            moves = round_.legal_moves()
            count = buckets[config.street_ordinal(round_.street)]
            nodes, groups, infosets, entries, rows = 1, 1, count, count * len(moves), 0
            for move in moves:
                child = round_.clone()
                child.apply(move)
                n, g, i, e, r = walk(child, child.street != round_.street)
                nodes, groups, infosets, entries, rows = nodes + n, groups + g, infosets + i, entries + e, rows + r
            totals = (nodes, groups, infosets, entries, rows)
        if key is not None:
            memo[key] = totals
        return totals

    n_nodes, n_groups, n_infosets, entries, n_rows = walk(root, True)
    tree_bytes = FlatTree.array_bytes(n_nodes, n_groups, n_rows, n_players, len(contexts), 0)
    return TreeSize(n_nodes, n_groups, n_infosets, entries, tree_bytes)


def count_nodes(config: LimitConfig) -> int:
    """Nodes of the tree of ``config`` without building it (`measure_limit_tree`'s count; milliseconds)."""
    return measure_limit_tree(config, (1,) * len(config.board_cards)).n_nodes


def build_limit_tree(
    config: LimitConfig, buckets_per_street: Sequence[int], *, max_nodes: int | None = None, table_itemsize: int = 4
) -> FlatTree:
    """The :class:`FlatTree` of limit hold'em with ``config`` (2..6 players; see the module docstring).

    ``buckets_per_street``: buckets of each betting round's slot (hold'em: preflop, flop, turn, river;
    ``config.board_cards`` sets the rounds, so a small-deck game has fewer). ``max_nodes``: refuse
    (ValueError, before walking: `measure_limit_tree`) a tree with more nodes, or one whose build and
    solver tables of ``table_itemsize`` bytes per entry do not fit in memory (`TreeSize.check`). Arrays: ``committed`` float64
    ``[n_nodes, n_players]`` chips put in (antes and blinds included); ``terminal_values`` float64
    ``[rows, n_players]`` NET chips; ``action_amount`` the raise-to total of the street's bets.
    """
    root = _root(config)
    buckets = _buckets(config, buckets_per_street)
    if max_nodes is not None:
        size = measure_limit_tree(config, buckets)
        if size.n_nodes > max_nodes:
            raise ValueError(
                f"the limit tree of {config.n_players} players with max_raises={config.max_raises} has "
                f"{size.n_nodes:,} nodes, more than max_nodes={max_nodes:,}; lower max_raises (rules) or raise max_nodes"
            )
        size.check(None, table_itemsize)
    n_players = config.n_players
    # Depth-first walk into flat lists (memory: no round is kept once its subtree is done), then
    # renumbered breadth-first.
    walk = _DepthFirstNodes()
    row_cache: dict[tuple, tuple[tuple[int, ...], ...]] = {}

    def visit(round_: LimitRound, up: int, index: int, level: int, move_kind: int, move_amount: int) -> None:
        node = len(walk.kind)
        walk.parent.append(up)
        walk.rank.append(index)
        walk.depth.append(level)
        walk.action_kind.append(move_kind)
        walk.action_amount.append(move_amount)
        walk.street.append(config.street_ordinal(round_.street))
        walk.committed.append(round_.contributions)
        if _betting_over(round_):
            folded = round_.folded
            alive = tuple(seat for seat in range(n_players) if not folded[seat])
            walk.n_children.append(0)
            if len(alive) == 1:
                walk.kind.append(FOLD)
                walk.player.append(folded.index(True) if n_players == 2 else -1)
                walk.rows_of[node] = (tuple(int(chips) for chips in round_.payoffs()),)
            else:
                walk.kind.append(SHOWDOWN)
                walk.player.append(-1)
                walk.alive_of[node] = alive
                key = (round_.contributions, folded)
                rows = row_cache.get(key)
                if rows is None:
                    rows = tuple(round_.payoffs_if(winners) for winners in showdown_outcomes(alive, n_players))
                    row_cache[key] = rows
                walk.rows_of[node] = rows
            return
        moves = round_.legal_moves()
        walk.kind.append(DECISION)
        walk.player.append(int(round_.to_act))
        walk.n_children.append(len(moves))
        for child_index, move in enumerate(moves):
            child = round_.clone()
            child.apply(move)
            visit(child, node, child_index, level + 1, int(move.kind), int(move.amount))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        visit(root, -1, 0, 0, -1, -1)
    finally:
        sys.setrecursionlimit(limit)
    return _flat_tree(walk, buckets, n_players)


@dataclass
class _DepthFirstNodes:
    """The nodes of the walk in depth-first order: per node its parent, rank among its siblings,
    depth and the fields of `FlatTree`; ``alive_of`` (showdowns) and ``rows_of`` (terminals) by node."""

    parent: list[int] = field(default_factory=list)
    rank: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    kind: list[int] = field(default_factory=list)
    player: list[int] = field(default_factory=list)
    street: list[int] = field(default_factory=list)
    action_kind: list[int] = field(default_factory=list)
    action_amount: list[int] = field(default_factory=list)
    committed: list[tuple[int, ...]] = field(default_factory=list)
    n_children: list[int] = field(default_factory=list)
    alive_of: dict[int, tuple[int, ...]] = field(default_factory=dict)
    rows_of: dict[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict)


def _breadth_first(parent: np.ndarray, rank: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """``order``: the depth-first node indices listed breadth-first (children contiguous, by rank)."""
    new_index = np.full(len(parent), -1, dtype=np.int64)
    new_index[0] = 0
    order_parts = [np.zeros(1, dtype=np.int64)]
    next_free = 1
    by_depth = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[by_depth], np.arange(int(depth.max()) + 2))
    for level in range(1, int(depth.max()) + 1):
        nodes = by_depth[bounds[level] : bounds[level + 1]]
        ordered = nodes[np.lexsort((rank[nodes], new_index[parent[nodes]]))]
        new_index[ordered] = np.arange(next_free, next_free + len(ordered))
        next_free += len(ordered)
        order_parts.append(ordered)
    return np.concatenate(order_parts)


def _flat_tree(walk: _DepthFirstNodes, buckets: np.ndarray, n_players: int) -> FlatTree:
    order = _breadth_first(
        np.asarray(walk.parent, dtype=np.int64),
        np.asarray(walk.rank, dtype=np.int64),
        np.asarray(walk.depth, dtype=np.int64),
    )
    n_nodes = len(order)
    children = np.asarray(walk.n_children, dtype=np.int32)[order]
    child_start = np.zeros(n_nodes, dtype=np.int32)
    starts = 1 + np.concatenate([[0], np.cumsum(children[:-1], dtype=np.int64)])
    child_start[children > 0] = starts[children > 0]
    contexts = sorted(set(walk.alive_of.values()), key=lambda alive: (-len(alive), alive))
    context_index = {alive: c for c, alive in enumerate(contexts)}
    context = np.full(n_nodes, -1, dtype=np.int32)
    value_row = np.full(n_nodes, -1, dtype=np.int64)
    rows: list[tuple[int, ...]] = []
    for new, old in enumerate(order.tolist()):
        block = walk.rows_of.get(old)
        if block is None:
            continue
        value_row[new] = len(rows)
        if old in walk.alive_of:
            context[new] = context_index[walk.alive_of[old]]
        rows.extend(block)
    return FlatTree.without_chance(
        kind=np.asarray(walk.kind, dtype=np.int8)[order],
        player=np.asarray(walk.player, dtype=np.int8)[order],
        street=np.asarray(walk.street, dtype=np.int8)[order],
        child_start=child_start,
        n_children=children,
        committed=np.asarray(walk.committed, dtype=np.float64).reshape(-1, n_players)[order],
        action_kind=np.asarray(walk.action_kind, dtype=np.int8)[order],
        action_amount=np.asarray(walk.action_amount, dtype=np.int32)[order],
        context=context,
        value_row=value_row,
        terminal_values=rows,
        context_size=np.array([len(showdown_outcomes(alive, n_players)) for alive in contexts], dtype=np.int32),
        buckets_per_street=buckets,
    )

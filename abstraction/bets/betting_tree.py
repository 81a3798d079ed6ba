"""Build the abstract betting tree (`abstraction.tree.FlatTree`) of a heads-up no-limit variant and a bet abstraction.

The walk drives the variant's own round (`game.rules.variants`), so every abstract action is legal by
the real rules: at each decision the children are fold (when legal), check or call, then the
raise-to amounts of the street's sizes (`StreetBets.raise_to_amounts`, clamped to the real raise
bounds, duplicates merged) while the street's cap allows; in the Auction, the bids of
`BetAbstraction.bid_amounts`. What the rules leave open comes from the variant's tree hooks
(`abstraction.hooks.tree_hooks`): the bucket slot each decision reads (``group_slot``), each
terminal's outcome context and its payoff rows (``terminal_values``, NET chips by seat, from the
rules' own payoff code on the terminal round), and River of Blood's chance nodes (is the river,
or run card j, red?) with its run streets capped at ``max_runs``.

Nodes are stored breadth-first. Decision nodes share an information-set group when their actor
has seen the same public history (actions and chance outcomes): every decision is its own group,
except that under document rules the Auction's second sealed bid has one group per history
before the auction (the dealer does not see the big blind's bid). Streets in the tree are
ordinals (`street_ordinal`: 0 preflop, 1 flop, 2 turn, 3 river, 3 + k run street k); a chance
node has the street of the card it looks at.

Sizes are known before anything big is allocated: `measure_betting_tree` walks once and counts
nodes, groups, information sets and the bytes of the tree arrays and solver tables.

>>> from game.rules.holdem import HoldemConfig
>>> bets = BetAbstraction.parse("1p,a cap=2")
>>> size = measure_betting_tree(HoldemConfig(stack=20), bets, (169, 50, 50, 50))
>>> size.n_nodes, size.n_groups
(570, 248)
>>> tree = build_betting_tree(HoldemConfig(stack=20), bets, (169, 50, 50, 50))
>>> tree.n_nodes == size.n_nodes and tree.table_size == size.table_entries
True
>>> from game.rules.river_of_blood import RiverOfBloodConfig
>>> tree = build_betting_tree(RiverOfBloodConfig(stack=20), bets, (169, 50, 50, 50, 50, 50), max_runs=2)
>>> tree.n_slots, tree.context_size.tolist(), tree.chance_size.tolist(), int((tree.kind == CHANCE).sum())
(6, [3, 3, 3], [2, 2], 242)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from abstraction.bets.bet_abstraction import BetAbstraction
from abstraction.hooks import HoldemHooks, tree_hooks
from abstraction.hooks.holdem import NO_CHANCE, Walk, folder, street_ordinal
from abstraction.tree import CHANCE, CHANCE_ACTION, DECISION, FOLD, SHOWDOWN, FlatTree
from game.rules.actions import Action, ActionKind
from game.rules.nolimit import NoLimitConfig, NoLimitRound

__all__ = ["TreeSize", "build_betting_tree", "measure_betting_tree", "street_ordinal"]

_N_PLAYERS = 2
_BYTES_PER_NODE = 1 + 1 + 1 + 4 + 4 + 8 * _N_PLAYERS + 4 + 1 + 4 + 4 + 8
"""kind, player, street, child_start, n_children, committed, infoset_group, action_kind,
action_amount, context, value_row."""
_BYTES_PER_GROUP = 4 + 8 + 4 + 1 + 1 + 1
"""n_actions, row_offset, n_buckets, group_player, group_street, group_slot."""
_BYTES_PER_VALUE_ROW = 8 * _N_PLAYERS


@dataclass(frozen=True)
class TreeSize:
    """Counts and memory (bytes) of a betting tree, known before building it."""

    n_nodes: int
    n_groups: int
    n_infosets: int
    table_entries: int
    tree_bytes: int

    def solver_bytes(self, n_tables: int = 2, itemsize: int = 4) -> int:
        """Bytes of ``n_tables`` solver tables of ``table_entries`` entries of ``itemsize`` bytes, as
        `FlatTree.table_bytes` (MCCFR: two float32 tables; full-traversal CFR: ``n_tables=3, itemsize=8``)."""
        return itemsize * n_tables * self.table_entries

    def __str__(self) -> str:
        return (
            f"{self.n_nodes:,} nodes, {self.n_groups:,} groups, {self.n_infosets:,} information sets; "
            f"tree {self.tree_bytes / 2**20:.1f} MiB, solver tables {self.solver_bytes() / 2**30:.2f} GiB"
        )


def _actions(round_: NoLimitRound, bets: BetAbstraction, raises_this_street: int) -> list[Action]:
    legal = round_.legal_actions()
    if ActionKind.BID in legal:
        low, high = round_.bid_bounds()
        return [Action.bid(amount) for amount in bets.bid_amounts(round_.pot, high) if low <= amount <= high]
    # Every legal fold is kept, also where checking is free (the 2025 Bounty engine): there it is not
    # dominated, since a player sure to lose pays less folding now than after the opponent hits its bounty.
    actions = [Action(kind) for kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL) if kind in legal]
    street = bets.street(round_.street)
    if ActionKind.RAISE in legal and (street.cap is None or raises_this_street < street.cap):
        seat = round_.to_act
        pips = round_.pips
        amounts = street.raise_to_amounts(pips[seat], pips[1 - seat], round_.pot, round_.raise_bounds())
        actions.extend(Action.raise_to(amount) for amount in amounts)
    return actions


class _Node(NamedTuple):
    """A node of the walk. ``round``: its state (a chance node: after the action that deals its card,
    dealt black); ``action_kind``/``action_amount``: the edge into it; ``raises``: bets and raises
    on its street so far; ``history``: the public history (``(street, action)`` and ``("chance", slot,
    child)`` steps); ``key``: the history as its actor sees it (the group key); ``outcomes``: the
    children taken at the chance nodes above it, by slot; ``chance_slot``: a chance node's slot
    (NO_CHANCE for other nodes); ``before``/``action`` (chance nodes only): the round before the
    action that deals its card, and that action."""

    round: NoLimitRound
    action_kind: int
    action_amount: int
    raises: int
    history: tuple
    key: tuple
    outcomes: tuple[int, ...]
    chance_slot: int = NO_CHANCE
    before: NoLimitRound | None = None
    action: Action | None = None


def _advance(
    walk: Walk, before: NoLimitRound, action: Action, outcomes: tuple[int, ...], raises: int
) -> tuple[NoLimitRound, int, int]:
    """``(round, chance slot, raises on its street)`` after ``action`` in ``before`` with chance
    ``outcomes``; the chance slot (`Walk.apply`) is NO_CHANCE unless the node is a chance node."""
    round_, chance_slot = walk.apply(before, action, outcomes)
    same_street = round_.street == before.street
    return round_, chance_slot, (raises if same_street else 0) + (action.kind is ActionKind.RAISE and same_street)


def _dealing(chance_slot: int, before: NoLimitRound, action: Action) -> tuple[NoLimitRound | None, Action | None]:
    """What a chance node keeps to make its children: the round before the action that deals its card, and the action."""
    return (before, action) if chance_slot != NO_CHANCE else (None, None)


def _walk(hooks: HoldemHooks, config: NoLimitConfig, bets: BetAbstraction) -> Iterator[tuple[_Node, int]]:
    """Breadth-first ``(node, number of children)`` for every node of the tree."""
    walk = hooks.start(config)
    chance_size = hooks.chance_size(config)
    queue: deque[_Node] = deque([_Node(walk.root, -1, -1, 0, (), (), ())])
    while queue:
        node = queue.popleft()
        children = []
        if node.chance_slot != NO_CHANCE:
            before, action = node.before, node.action
            for outcome in range(chance_size[node.chance_slot]):
                outcomes = (*node.outcomes, outcome)
                round_, chance_slot, raises = _advance(walk, before, action, outcomes, node.raises)
                step = ("chance", node.chance_slot, outcome)
                children.append(
                    _Node(
                        round_,
                        CHANCE_ACTION,
                        outcome,
                        raises,
                        (*node.history, step),
                        (*node.key, step),
                        outcomes,
                        chance_slot,
                        *_dealing(chance_slot, before, action),
                    )
                )
        elif not node.round.is_terminal:
            before = node.round
            for action in _actions(before, bets, node.raises):
                round_, chance_slot, raises = _advance(walk, before, action, node.outcomes, node.raises)
                seen = hooks.public_action(before, action, round_)
                children.append(
                    _Node(
                        round_,
                        int(action.kind),
                        action.amount,
                        raises,
                        (*node.history, (before.street, str(action))),
                        (*node.history, (before.street, seen)),
                        node.outcomes,
                        chance_slot,
                        *_dealing(chance_slot, before, action),
                    )
                )
        yield node, len(children)
        queue.extend(children)


def _kind_and_player(node: _Node) -> tuple[int, int]:
    """``(kind, player)``: chance; decision and actor; fold and folder; or showdown."""
    if node.chance_slot != NO_CHANCE:
        return CHANCE, -1
    round_ = node.round
    if not round_.is_terminal:
        return DECISION, int(round_.to_act)
    seat = folder(round_)
    return (SHOWDOWN, -1) if seat is None else (FOLD, seat)


def _prepare(
    config: NoLimitConfig, buckets_per_slot: Sequence[int], max_runs: int | None
) -> tuple[HoldemHooks, NoLimitConfig, np.ndarray]:
    """The variant's hooks, the rules config of the tree and the bucket counts, checked."""
    if not isinstance(config, NoLimitConfig):
        raise TypeError(f"config must be a heads-up variant config (NoLimitConfig), got {config!r}")
    hooks = tree_hooks(config.variant)
    config = hooks.walk_config(config, max_runs)
    names = hooks.slot_names(config)
    buckets = np.asarray(buckets_per_slot, dtype=np.int64)
    if buckets.shape != (len(names),) or (buckets < 1).any():
        raise ValueError(
            f"buckets_per_slot must be {len(names)} counts >= 1 for {config.variant}'s slots "
            f"({', '.join(names)}), got {list(buckets_per_slot)!r}"
        )
    return hooks, config, buckets


def measure_betting_tree(
    config: NoLimitConfig, bets: BetAbstraction, buckets_per_slot: Sequence[int], *, max_runs: int | None = None
) -> TreeSize:
    """Count nodes, groups, information sets and memory of the tree `build_betting_tree` would build
    (same arguments), storing nothing per node."""
    hooks, config, buckets = _prepare(config, buckets_per_slot, max_runs)
    context_size = hooks.context_size(config)
    n_nodes = n_rows = 0
    groups: dict[tuple, tuple[int, int]] = {}
    for node, n_children in _walk(hooks, config, bets):
        n_nodes += 1
        kind, player = _kind_and_player(node)
        if kind == DECISION:
            groups.setdefault(node.key, (hooks.slot(node.round, player), n_children))
        elif kind != CHANCE:
            context = hooks.terminal_context(node.round)
            n_rows += 1 if context < 0 else context_size[context]
    n_infosets = sum(int(buckets[slot]) for slot, _ in groups.values())
    entries = sum(int(buckets[slot]) * count for slot, count in groups.values())
    tree_bytes = (
        n_nodes * _BYTES_PER_NODE
        + len(groups) * _BYTES_PER_GROUP
        + n_rows * _BYTES_PER_VALUE_ROW
        + 4 * (len(context_size) + len(hooks.chance_size(config)))
    )
    return TreeSize(n_nodes, len(groups), n_infosets, entries, tree_bytes)


def build_betting_tree(
    config: NoLimitConfig,
    bets: BetAbstraction,
    buckets_per_slot: Sequence[int],
    *,
    max_nodes: int | None = None,
    max_runs: int | None = None,
) -> FlatTree:
    """The flat abstract betting tree of ``config``'s variant under ``bets``.

    ``buckets_per_slot``: buckets of each bucket slot of the variant, in slot order (Hold'em, Swap,
    Bounty: preflop, flop, turn, river; Auction: those, then flop, turn, river with three hole
    cards; River of Blood: the four, then run streets 1..R), e.g.
    ``abstraction.chance.fresh_chance.FreshChance.n_buckets``. ``max_runs``: River of Blood's run cap R
    (None: 2; the tree's board holds at most ``min(config.max_board_cards, 5 + R)`` cards); None for
    the other variants. ``max_nodes`` stops with ValueError before a tree grows past it.
    """
    hooks, config, buckets = _prepare(config, buckets_per_slot, max_runs)
    context_size = hooks.context_size(config)
    kinds, players, streets, counts, committed, action_kinds, action_amounts = [], [], [], [], [], [], []
    contexts, value_rows, rows = [], [], []
    infoset_group: list[int] = []
    group_of_key: dict[tuple, int] = {}
    group_facts: list[tuple[int, int, int, int]] = []  # (slot, street, player, n_actions)
    for node, n_children in _walk(hooks, config, bets):
        kind, player = _kind_and_player(node)
        round_ = node.round
        street = street_ordinal(round_.street)
        context, value_row, group = -1, -1, -1
        if kind == DECISION:
            slot = hooks.slot(round_, player)
            group = group_of_key.setdefault(node.key, len(group_of_key))
            if group == len(group_facts):
                group_facts.append((slot, street, player, n_children))
            elif group_facts[group][0] != slot:
                raise ValueError(
                    f"{config.variant} tree hooks give slots {group_facts[group][0]} and {slot} "
                    f"to one information-set group (history {node.key})"
                )
        elif kind == CHANCE:
            context = node.chance_slot
        else:
            context = hooks.terminal_context(round_)
            values = hooks.terminal_values(round_)
            expected = 1 if context < 0 else context_size[context]
            if values.shape != (expected, _N_PLAYERS):
                raise ValueError(
                    f"{config.variant} tree hooks give {values.shape[0]} payoff rows to a terminal "
                    f"of context {context}, which has {expected} outcomes"
                )
            value_row = len(rows)
            rows.extend(values)
        kinds.append(kind)
        players.append(player)
        streets.append(street)
        counts.append(n_children)
        committed.append(round_.contributions)
        action_kinds.append(node.action_kind)
        action_amounts.append(node.action_amount)
        infoset_group.append(group)
        contexts.append(context)
        value_rows.append(value_row)
        if max_nodes is not None and len(kinds) > max_nodes:
            raise ValueError(f"the betting tree exceeds max_nodes={max_nodes}: use fewer sizes or a lower cap")
    n_children = np.array(counts, dtype=np.int32)
    child_start = np.where(n_children > 0, 1 + np.concatenate([[0], np.cumsum(n_children)[:-1]]), 0)
    group_slot, group_street, group_player, n_actions = (
        np.array(column, dtype=np.int64).reshape(-1) for column in zip(*group_facts, strict=True)
    )
    n_buckets = buckets[group_slot]
    sizes = n_buckets * n_actions
    tree = FlatTree(
        kind=np.array(kinds),
        player=np.array(players),
        street=np.array(streets),
        child_start=child_start,
        n_children=n_children,
        committed=np.array(committed, dtype=np.float64),
        infoset_group=np.array(infoset_group),
        action_kind=np.array(action_kinds),
        action_amount=np.array(action_amounts),
        context=np.array(contexts),
        value_row=np.array(value_rows),
        n_actions=n_actions,
        row_offset=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
        n_buckets=n_buckets,
        group_player=group_player,
        group_street=group_street,
        group_slot=group_slot,
        terminal_values=np.array(rows, dtype=np.float64).reshape(len(rows), _N_PLAYERS),
        context_size=np.array(context_size, dtype=np.int32),
        chance_size=np.array(hooks.chance_size(config), dtype=np.int32),
    )
    tree.validate()
    return tree

"""Build the abstract betting tree (`abstraction.tree.FlatTree`) of a no-limit variant and a bet abstraction.

The walk drives the variant's own round (`game.variants.start_round`), so every abstract action
is legal by the real rules: at each decision the children are fold (when facing a bet),
check or call, then the raise-to amounts of the street's sizes (`StreetBets.raise_to_amounts`,
clamped to the real raise bounds, duplicates merged) while the street's cap allows; in the
Auction, the bids of `BetAbstraction.bid_amounts`. Nodes are stored breadth-first. Each decision
node is its own information-set group, except that the second sealed bid shares one group per
first-bid history (the second bidder does not see the first bid). Streets in the tree are
ordinals (0 preflop, 1 flop, 2 turn, 3 river), the index into the per-street bucket counts.

Sizes are known before anything big is allocated: `measure_betting_tree` walks once and counts
nodes, groups, information sets and the bytes of the tree arrays and solver tables.
River of Blood is not built: whether another run street comes is chance inside the betting,
which needs chance nodes this builder does not make.

>>> from game.holdem import HoldemConfig
>>> bets = BetAbstraction.parse("1p,a cap=2")
>>> size = measure_betting_tree(HoldemConfig(stack=20), bets, (169, 50, 50, 50))
>>> size.n_nodes, size.n_groups
(570, 248)
>>> tree = build_betting_tree(HoldemConfig(stack=20), bets, (169, 50, 50, 50))
>>> tree.n_nodes == size.n_nodes and tree.table_size == size.table_entries
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from abstraction.bet_abstraction import GAME_STREETS, BetAbstraction
from abstraction.tree import DECISION, FOLD, SHOWDOWN, FlatTree
from game.actions import Action, ActionKind
from game.chance import RandomChance
from game.nolimit import NoLimitConfig, NoLimitRound
from game.variants import start_round

_BYTES_PER_NODE = 1 + 1 + 1 + 4 + 4 + 16 + 4 + 1 + 4
_BYTES_PER_GROUP = 4 + 8 + 4 + 1 + 1


@dataclass(frozen=True)
class TreeSize:
    """Counts and memory of a betting tree, known before building it (bytes; float64 solver tables)."""

    n_nodes: int
    n_groups: int
    n_infosets: int
    table_entries: int
    tree_bytes: int

    def solver_bytes(self, n_tables: int = 3) -> int:
        """Bytes of ``n_tables`` float64 tables of ``table_entries`` (CFR keeps three)."""
        return 8 * n_tables * self.table_entries

    def __str__(self) -> str:
        return (
            f"{self.n_nodes:,} nodes, {self.n_groups:,} groups, {self.n_infosets:,} information sets; "
            f"tree {self.tree_bytes / 2**20:.1f} MiB, solver tables {self.solver_bytes() / 2**30:.2f} GiB"
        )


def _street_ordinal(game_street: int) -> int:
    return GAME_STREETS.index(game_street) if game_street in GAME_STREETS else len(GAME_STREETS) - 1


def _start(config: NoLimitConfig) -> NoLimitRound:
    if config.variant == "river_of_blood":
        raise ValueError("the betting tree builder does not support 'river_of_blood' (run streets need chance nodes)")
    match_state = (0, 0) if config.variant == "bounty" else None
    return start_round(config, RandomChance(0), match_state=match_state)


def _actions(round_: NoLimitRound, bets: BetAbstraction, raises_this_street: int) -> list[Action]:
    legal = round_.legal_actions()
    if ActionKind.BID in legal:
        low, high = round_.bid_bounds()
        return [Action.bid(amount) for amount in bets.bid_amounts(round_.pot, high) if low <= amount <= high]
    actions = [Action(kind) for kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL) if kind in legal]
    street = bets.street(round_.street)
    if ActionKind.RAISE in legal and (street.cap is None or raises_this_street < street.cap):
        seat = round_.to_act
        pips = round_.pips
        amounts = street.raise_to_amounts(pips[seat], pips[1 - seat], round_.pot, round_.raise_bounds())
        actions.extend(Action.raise_to(amount) for amount in amounts)
    return actions


def _walk(config: NoLimitConfig, bets: BetAbstraction) -> Iterator[tuple[NoLimitRound, Action | None, list[Action], tuple]]:
    """Breadth-first ``(round, action into it, its abstract actions, group key)`` for every node.

    The group key is the public history as the actor sees it: the true history, except that the
    second sealed bid sees the first bid as ``"bid?"``.
    """
    queue: deque[tuple[NoLimitRound, Action | None, int, tuple, tuple]] = deque([(_start(config), None, 0, (), ())])
    while queue:
        round_, action, raises, history, key = queue.popleft()
        actions = [] if round_.is_terminal else _actions(round_, bets, raises)
        yield round_, action, actions, key
        for child_action in actions:
            child = round_.clone()
            child.apply(child_action)
            same_street = child.street == round_.street
            child_raises = (raises if same_street else 0) + (child_action.kind == ActionKind.RAISE and same_street)
            step = (round_.street, str(child_action))
            hidden = child_action.kind == ActionKind.BID and ActionKind.BID in child.legal_actions()
            child_key = history + ((round_.street, "bid?"),) if hidden else history + (step,)
            queue.append((child, child_action, child_raises, history + (step,), child_key))


def _node_facts(round_: NoLimitRound) -> tuple[int, int]:
    """``(kind, player)`` of a node: decision and actor, fold and folder, or showdown."""
    if not round_.is_terminal:
        return DECISION, int(round_.to_act)
    last = round_.history[-1] if round_.history else None
    if last is not None and last.action.kind == ActionKind.FOLD:
        return FOLD, int(last.seat)
    return SHOWDOWN, -1


def _check_buckets(buckets_per_street: Sequence[int]) -> np.ndarray:
    array = np.asarray(buckets_per_street, dtype=np.int64)
    if array.shape != (len(GAME_STREETS),) or (array < 1).any():
        raise ValueError(f"buckets_per_street must be {len(GAME_STREETS)} counts >= 1 (preflop, flop, turn, river), got {list(buckets_per_street)!r}")
    return array


def measure_betting_tree(config: NoLimitConfig, bets: BetAbstraction, buckets_per_street: Sequence[int]) -> TreeSize:
    """Count nodes, groups, information sets and memory of the tree, storing nothing per node."""
    buckets = _check_buckets(buckets_per_street)
    n_nodes = 0
    groups: dict[tuple, tuple[int, int]] = {}
    for round_, _, actions, key in _walk(config, bets):
        n_nodes += 1
        if actions:
            groups.setdefault(key, (_street_ordinal(round_.street), len(actions)))
    n_infosets = sum(int(buckets[street]) for street, _ in groups.values())
    entries = sum(int(buckets[street]) * count for street, count in groups.values())
    return TreeSize(n_nodes, len(groups), n_infosets, entries, n_nodes * _BYTES_PER_NODE + len(groups) * _BYTES_PER_GROUP)


def build_betting_tree(config: NoLimitConfig, bets: BetAbstraction, buckets_per_street: Sequence[int], *, max_nodes: int | None = None) -> FlatTree:
    """The flat abstract betting tree; ``max_nodes`` stops with ValueError before a tree grows past it."""
    buckets = _check_buckets(buckets_per_street)
    kinds, players, streets, counts, committed, action_kinds, action_amounts, keys = [], [], [], [], [], [], [], []
    for round_, action, actions, key in _walk(config, bets):
        kind, player = _node_facts(round_)
        kinds.append(kind)
        players.append(player)
        streets.append(_street_ordinal(round_.street))
        counts.append(len(actions))
        committed.append(round_.contributions)
        action_kinds.append(-1 if action is None else int(action.kind))
        action_amounts.append(0 if action is None else action.amount)
        keys.append(key)
        if max_nodes is not None and len(kinds) > max_nodes:
            raise ValueError(f"the betting tree exceeds max_nodes={max_nodes}: use fewer sizes or a lower cap")
    n_children = np.array(counts, dtype=np.int32)
    child_start = np.where(n_children > 0, 1 + np.concatenate([[0], np.cumsum(n_children)[:-1]]), 0)
    group_of_key: dict[tuple, int] = {}
    infoset_group = np.full(len(kinds), -1, dtype=np.int32)
    for node, key in enumerate(keys):
        if kinds[node] == DECISION:
            infoset_group[node] = group_of_key.setdefault(key, len(group_of_key))
    first_node = np.zeros(len(group_of_key), dtype=np.int64)
    for node in range(len(kinds) - 1, -1, -1):
        if infoset_group[node] >= 0:
            first_node[infoset_group[node]] = node
    group_street = np.array([streets[n] for n in first_node], dtype=np.int8)
    n_actions = n_children[first_node]
    n_buckets = buckets[group_street]
    sizes = n_buckets * n_actions
    tree = FlatTree(
        kind=np.array(kinds),
        player=np.array(players),
        street=np.array(streets),
        child_start=child_start,
        n_children=n_children,
        committed=np.array(committed, dtype=np.float64),
        infoset_group=infoset_group,
        action_kind=np.array(action_kinds),
        action_amount=np.array(action_amounts),
        n_actions=n_actions,
        row_offset=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
        n_buckets=n_buckets,
        group_player=np.array([players[n] for n in first_node], dtype=np.int8),
        group_street=group_street,
    )
    tree.validate()
    return tree

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

Sizes are known before anything is built: `measure_betting_tree` counts nodes, groups,
information sets and the bytes of the tree arrays and solver tables exactly, in seconds even for
trees of hundreds of millions of nodes (each distinct betting state once: `_SizeCounter`), and
`TreeSize.check` refuses a tree past a node limit or the machine's free memory.

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

import os
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from abstraction.bets.bet_abstraction import BetAbstraction, StreetBets
from abstraction.hooks import HoldemHooks, tree_hooks
from abstraction.hooks.holdem import NO_CHANCE, Walk, folder, street_ordinal
from abstraction.tree import CHANCE, CHANCE_ACTION, DECISION, FOLD, SHOWDOWN, FlatTree
from game.rules.actions import Action, ActionKind
from game.rules.nolimit import PREFLOP, NoLimitConfig, NoLimitRound

__all__ = [
    "PROGRESS_NODES",
    "TreeSize",
    "available_memory",
    "build_betting_tree",
    "measure_betting_tree",
    "street_ordinal",
]

_N_PLAYERS = 2
BUILD_BYTES_PER_NODE = 2_500
"""Peak memory of `build_betting_tree` per node of the tree (its queue of rounds and its per-node
lists): 1.37 GB peak resident building the 559,490-node Bounty tree of ``0.5p,1p,2p,a cap=4``."""
PROGRESS_NODES = 10_000
"""`build_betting_tree` reports its progress every this many nodes."""


def _memory(n_bytes: int) -> str:
    """Bytes to two significant digits in GB (10**9 bytes), MB or kB, whole numbers from 10 up.

    >>> _memory(20_163_000_000), _memory(1_234_000_000), _memory(74_000_000), _memory(62_000)
    ('20 GB', '1.2 GB', '74 MB', '62 kB')
    """
    unit, scale = next(
        (unit, scale) for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)) if n_bytes >= scale or unit == "kB"
    )
    value = n_bytes / scale
    return f"{value:,.0f} {unit}" if value >= 10 else f"{value:.2g} {unit}"


def available_memory() -> int | None:
    """Bytes of memory the machine can give a new allocation now: ``MemAvailable`` of
    ``/proc/meminfo`` (Linux), else free physical pages; None when neither can be read."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


@dataclass(frozen=True)
class TreeSize:
    """Counts and memory (bytes) of a betting tree, known before building it.

    ``n_groups``: information-set groups (decision nodes sharing what their actor saw);
    ``n_infosets``: groups times the buckets of their slot; ``table_entries``: information sets
    times actions, the length of each solver table; ``tree_bytes``: the `FlatTree` arrays.
    """

    n_nodes: int
    n_groups: int
    n_infosets: int
    table_entries: int
    tree_bytes: int

    def solver_bytes(self, n_tables: int = 2, itemsize: int = 4) -> int:
        """Bytes of ``n_tables`` solver tables of ``table_entries`` entries of ``itemsize`` bytes, as
        `FlatTree.table_bytes` (MCCFR: two float32 tables; full-traversal CFR: ``n_tables=3, itemsize=8``)."""
        return itemsize * n_tables * self.table_entries

    def summary(self, itemsize: int = 4) -> str:
        """``"~N nodes, M information sets, X GB of tables"`` (or MB, kB): the regrets and strategy sums of ``itemsize`` bytes.

        >>> TreeSize(1_234_567, 1000, 50_000, 150_000_000, 10**8).summary()
        '~1,234,567 nodes, 50,000 information sets, 1.2 GB of tables'
        """
        return (
            f"~{self.n_nodes:,} nodes, {self.n_infosets:,} information sets, "
            f"{_memory(self.solver_bytes(2, itemsize))} of tables"
        )

    def memory_bytes(self, itemsize: int = 4) -> int:
        """The most memory building then solving the tree takes: the build's peak
        (:data:`BUILD_BYTES_PER_NODE` per node) or the tree arrays with two solver tables of
        ``itemsize`` bytes per entry, whichever is larger."""
        return max(self.n_nodes * BUILD_BYTES_PER_NODE, self.tree_bytes + self.solver_bytes(2, itemsize))

    def check(self, max_nodes: int | None, itemsize: int = 4, available: int | None = None) -> None:
        """ValueError (one line with :meth:`summary`) when the tree has more than ``max_nodes`` nodes
        or :meth:`memory_bytes` exceeds ``available`` bytes (None: the machine's `available_memory`).

        >>> size = TreeSize(3_000_000, 1000, 50_000, 150_000_000, 10**8)
        >>> size.check(max_nodes=2_000_000, available=10**12)
        Traceback (most recent call last):
        ...
        ValueError: the abstract game has ~3,000,000 nodes, 50,000 information sets, 1.2 GB of tables: more than max_nodes=2,000,000; use fewer bet sizes or a lower cap, or raise max_nodes (--max-nodes, [bets] max_nodes)
        >>> size.check(max_nodes=None, available=4 * 10**9)
        Traceback (most recent call last):
        ...
        ValueError: the abstract game has ~3,000,000 nodes, 50,000 information sets, 1.2 GB of tables: building and solving it takes about 7.5 GB, more than the 4 GB of memory available; use fewer bet sizes, a lower cap or fewer buckets
        """
        if max_nodes is not None and self.n_nodes > max_nodes:
            raise ValueError(
                f"the abstract game has {self.summary(itemsize)}: more than max_nodes={max_nodes:,}; "
                "use fewer bet sizes or a lower cap, or raise max_nodes (--max-nodes, [bets] max_nodes)"
            )
        available = available_memory() if available is None else available
        needed = self.memory_bytes(itemsize)
        if available is not None and needed > available:
            raise ValueError(
                f"the abstract game has {self.summary(itemsize)}: building and solving it takes about "
                f"{_memory(needed)}, more than the {_memory(available)} of memory available; "
                "use fewer bet sizes, a lower cap or fewer buckets"
            )

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


_Totals = tuple[int, int, int, int, int]
"""What a subtree adds to a `TreeSize`: ``(nodes, groups, information sets, table entries, payoff rows)``."""
_Group = tuple[int, int] | None
"""A subtree root's information-set group: ``(slot, actions)`` of a decision, None for other nodes."""


class _Street(NamedTuple):
    """Where a street's betting starts, for `_SizeCounter`: the real round there, the number of its
    signature (street, hole and board card counts, the walk's chance outcomes: with the stacks, all
    the shape of what follows depends on), the walk's chance outcomes, the street's sizes, whether
    it is preflop, and each seat's slot."""

    round: NoLimitRound
    signature: int
    outcomes: tuple[int, ...]
    bets: StreetBets
    preflop: bool
    slots: tuple[int, int]


_Path = tuple | None
"""The betting actions from a street's start to a node, linked backwards: ``(parent, kind, amount)``; None at the start."""


class _SizeCounter:
    """`measure_betting_tree`'s count: the builder's walk, each distinct state counted once.

    Outside a street's betting (chance nodes, bids, terminals after the last action, street starts)
    nodes are the real round, walked as the builder walks it (`_advance`, `_actions`, the hooks)
    and memoised on its state: street, seat to act, legal kinds, pips, stacks, hole and board card
    counts, this street's moves, and the walk's raises, street actions and chance outcomes. Inside
    a street's betting, where big trees are big, a node is ``(seat, pips, stacks, whether anyone
    acted, raises)`` moved by the rules' betting arithmetic (`game.rules.nolimit.NoLimitRound`: legal
    kinds, the engine's raise bounds, a street closing on a second check or on a call other than
    the preflop limp); only a fold, or the action that closes the street, is replayed on the real
    round, once per street signature and outcome. That relies on what every variant's hooks do:
    betting actions are public, and a decision's slot and a fold's payoff context depend on the
    street's signature and the seat. `tests/abstraction/test_hooks.py` checks the count against
    built trees of every variant under both rules.
    """

    def __init__(self, hooks: HoldemHooks, config: NoLimitConfig, bets: BetAbstraction, buckets: np.ndarray) -> None:
        self.hooks, self.bets = hooks, bets
        self.buckets = [int(count) for count in buckets]
        self.context_size = hooks.context_size(config)
        self.chance_size = hooks.chance_size(config)
        self.walk = hooks.start(config)
        self.big_blind, self.stack = config.big_blind, config.stack
        limp = self.walk.root.clone()
        limp.apply(Action.call())  # the big blind's option: checking is free
        self.fold_when_free = ActionKind.FOLD in limp.legal_actions()
        self.signatures: dict[tuple, int] = {}
        self.real: dict[tuple, tuple[_Totals, _Group]] = {}
        self.betting: dict[tuple, tuple[_Totals, int]] = {}
        self.closes: dict[tuple, _Totals] = {}
        self.folds: dict[tuple, _Totals] = {}

    def count(self) -> _Totals:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 100_000))  # uncapped streets of tiny sizes nest deep
        try:
            return self._real(self.walk.root, 0, 0, ())[0]
        finally:
            sys.setrecursionlimit(limit)

    def _child(
        self, before: NoLimitRound, action: Action, outcomes: tuple[int, ...], raises: int, acted: int
    ) -> tuple[_Totals, NoLimitRound, _Group]:
        """The subtree ``action`` leads to from ``before`` (a chance node and its children when it
        deals a chance card), the round there and the group of its root."""
        round_, chance_slot, raises = _advance(self.walk, before, action, outcomes, raises)
        acted = acted + (action.kind is not ActionKind.BID) if round_.street == before.street else 0
        if chance_slot == NO_CHANCE:
            totals, group = self._real(round_, raises, acted, outcomes)
            return totals, round_, group
        nodes, groups, infosets, entries, rows = 1, 0, 0, 0, 0
        for outcome in range(self.chance_size[chance_slot]):
            (n, g, i, e, r), _, _ = self._child(before, action, (*outcomes, outcome), raises, acted)
            nodes, groups, infosets, entries, rows = nodes + n, groups + g, infosets + i, entries + e, rows + r
        return (nodes, groups, infosets, entries, rows), round_, None

    def _real(self, round_: NoLimitRound, raises: int, acted: int, outcomes: tuple[int, ...]) -> tuple[_Totals, _Group]:
        """A terminal, a bid, or the start of a street's betting, on the real round."""
        legal = round_.legal_actions()
        street = round_.street
        signature = (street, tuple(len(cards) for cards in round_.hole_cards), len(round_.board), outcomes)
        moves = tuple(move for move in round_.history if move.street == street)
        key = (signature, round_.to_act, legal, round_.pips, round_.stacks, moves, raises, acted)
        known = self.real.get(key)
        if known is not None:
            return known
        if not legal:
            context = self.hooks.terminal_context(round_)
            result: tuple[_Totals, _Group] = ((1, 0, 0, 0, 1 if context < 0 else self.context_size[context]), None)
        elif ActionKind.BID in legal:
            result = self._bids(round_, raises, acted, outcomes)
        else:
            seat = round_.to_act
            slots = (self.hooks.slot(round_, 0), self.hooks.slot(round_, 1))
            number = self.signatures.setdefault(signature, len(self.signatures))
            start = _Street(round_, number, outcomes, self.bets.street(street), street == PREFLOP, slots)
            totals, n_actions = self._bet(start, seat, round_.pips, round_.stacks, min(acted, 1), raises, None)
            result = (totals, (slots[seat], n_actions))
        self.real[key] = result
        return result

    def _bids(self, round_: NoLimitRound, raises: int, acted: int, outcomes: tuple[int, ...]) -> tuple[_Totals, _Group]:
        """A bid decision: the builder's children, sibling decisions the actor cannot tell apart
        (`HoldemHooks.public_action`: a sealed bid) counted as one group."""
        slot = self.hooks.slot(round_, round_.to_act)
        actions = _actions(round_, self.bets, raises)
        buckets = self.buckets[slot]
        nodes, groups, infosets, entries, rows = 1, 1, buckets, buckets * len(actions), 0
        seen_groups: dict[str, _Group] = {}
        for action in actions:
            (n, g, i, e, r), child, group = self._child(round_, action, outcomes, raises, acted)
            nodes, groups, infosets, entries, rows = nodes + n, groups + g, infosets + i, entries + e, rows + r
            seen = self.hooks.public_action(round_, action, child)
            if group is not None and seen_groups.setdefault(seen, group) is not group:
                first_slot, first_actions = seen_groups[seen]  # the builder keeps the first node's group
                groups -= 1
                infosets -= self.buckets[first_slot]
                entries -= self.buckets[first_slot] * first_actions
        return (nodes, groups, infosets, entries, rows), (slot, len(actions))

    def _bet(
        self,
        street: _Street,
        seat: int,
        pips: tuple[int, int],
        stacks: tuple[int, int],
        acted: int,
        raises: int,
        path: _Path,
    ) -> tuple[_Totals, int]:
        """A betting decision of ``seat`` and its number of actions. ``acted``: 1 if anyone acted on
        the street (all the rules ask: a check closes the street, a call other than the limp does)."""
        key = (street.signature, seat, pips, stacks, acted, raises)
        known = self.betting.get(key)
        if known is not None:
            return known
        other = 1 - seat
        cost = pips[other] - pips[seat]
        children: list[_Totals] = []
        if cost > 0 or self.fold_when_free:
            children.append(self._fold(street, seat, path))
        if cost == 0:
            step = (path, ActionKind.CHECK, 0)
            if acted:
                children.append(self._close(street, stacks, step, raises))
            else:
                children.append(self._bet(street, other, pips, stacks, 1, raises, step)[0])
        else:
            called = (pips[other], pips[other])
            after = (stacks[0] - cost, stacks[1]) if seat == 0 else (stacks[0], stacks[1] - cost)
            step = (path, ActionKind.CALL, 0)
            if street.preflop and not acted:  # the limp: the big blind's option
                children.append(self._bet(street, other, called, after, 1, raises, step)[0])
            else:
                children.append(self._close(street, after, step, raises))
        can_raise = (stacks[0] > 0 and stacks[1] > 0) if cost == 0 else (cost < stacks[seat] and stacks[other] > 0)
        cap = street.bets.cap
        if can_raise and (cap is None or raises < cap):
            most = min(stacks[seat], stacks[other] + cost)
            least = min(most, cost + max(cost, self.big_blind))
            pot = 2 * self.stack - stacks[0] - stacks[1]
            bounds = (pips[seat] + least, pips[seat] + most)
            counted = raises + 1 if cap is not None else 0  # without a cap raises do not matter: more sharing
            for amount in street.bets.raise_to_amounts(pips[seat], pips[other], pot, bounds):
                added = amount - pips[seat]
                raised = (amount, pips[1]) if seat == 0 else (pips[0], amount)
                after = (stacks[0] - added, stacks[1]) if seat == 0 else (stacks[0], stacks[1] - added)
                step = (path, ActionKind.RAISE, amount)
                children.append(self._bet(street, other, raised, after, 1, counted, step)[0])
        buckets = self.buckets[street.slots[seat]]
        nodes, groups, infosets, entries, rows = 1, 1, buckets, buckets * len(children), 0
        for n, g, i, e, r in children:
            nodes, groups, infosets, entries, rows = nodes + n, groups + g, infosets + i, entries + e, rows + r
        result = ((nodes, groups, infosets, entries, rows), len(children))
        self.betting[key] = result
        return result

    def _replay(self, street: _Street, path: _Path) -> NoLimitRound:
        """The real round after ``path`` from the street's start."""
        steps = []
        while path is not None:
            path, kind, amount = path
            steps.append(Action(kind, amount))
        round_ = street.round.clone()
        for action in reversed(steps):
            round_.apply(action)
        return round_

    def _close(self, street: _Street, stacks: tuple[int, int], path: tuple, raises: int) -> _Totals:
        """The action ending ``path`` closes the street leaving ``stacks``: what follows, on the real
        round (the same for every way of reaching those stacks on a street of this signature)."""
        key = (street.signature, stacks)
        known = self.closes.get(key)
        if known is None:
            parent, kind, amount = path
            before = self._replay(street, parent)
            known = self._child(before, Action(kind, amount), street.outcomes, raises, 1)[0]
            self.closes[key] = known
        return known

    def _fold(self, street: _Street, seat: int, path: _Path) -> _Totals:
        """``seat`` folds: one terminal, with the payoff rows of its context."""
        key = (street.signature, seat)
        known = self.folds.get(key)
        if known is None:
            round_ = self._replay(street, path)
            round_.apply(Action.fold())
            context = self.hooks.terminal_context(round_)
            known = self.folds[key] = (1, 0, 0, 0, 1 if context < 0 else self.context_size[context])
        return known


def measure_betting_tree(
    config: NoLimitConfig, bets: BetAbstraction, buckets_per_slot: Sequence[int], *, max_runs: int | None = None
) -> TreeSize:
    """Count nodes, groups, information sets and memory of the tree `build_betting_tree` would build
    (same arguments), exactly, without building it: each distinct betting state is counted once
    (`_SizeCounter`), so even trees of hundreds of millions of nodes take seconds."""
    hooks, config, buckets = _prepare(config, buckets_per_slot, max_runs)
    n_nodes, n_groups, n_infosets, entries, n_rows = _SizeCounter(hooks, config, bets, buckets).count()
    n_contexts, n_chance_slots = len(hooks.context_size(config)), len(hooks.chance_size(config))
    tree_bytes = FlatTree.array_bytes(n_nodes, n_groups, n_rows, _N_PLAYERS, n_contexts, n_chance_slots)
    return TreeSize(n_nodes, n_groups, n_infosets, entries, tree_bytes)


def build_betting_tree(
    config: NoLimitConfig,
    bets: BetAbstraction,
    buckets_per_slot: Sequence[int],
    *,
    max_nodes: int | None = None,
    max_runs: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> FlatTree:
    """The flat abstract betting tree of ``config``'s variant under ``bets``.

    ``buckets_per_slot``: buckets of each bucket slot of the variant, in slot order (Hold'em, Swap,
    Bounty: preflop, flop, turn, river; Auction: those, then flop, turn, river with three hole
    cards; River of Blood: the four, then run streets 1..R), e.g.
    ``abstraction.chance.fresh_chance.FreshChance.n_buckets``. ``max_runs``: River of Blood's run cap R
    (None: 2; the tree's board holds at most ``min(config.max_board_cards, 5 + R)`` cards); None for
    the other variants. ``max_nodes``: refuse (ValueError, before walking: `measure_betting_tree`,
    `TreeSize.check`) a tree with more nodes, or whose solver tables do not fit in memory.
    ``on_progress(nodes built)`` is called every :data:`PROGRESS_NODES` nodes and once at the end
    (the builder walks several thousand nodes a second).
    """
    if max_nodes is not None:
        measure_betting_tree(config, bets, buckets_per_slot, max_runs=max_runs).check(max_nodes)
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
        if on_progress is not None and len(kinds) % PROGRESS_NODES == 0:
            on_progress(len(kinds))
    if on_progress is not None:
        on_progress(len(kinds))
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

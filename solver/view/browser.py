"""A strategy file node by node, as JSON: the data of the strategy browser (``vcfr view``).

`StrategyView.open` reads a strategy file, its card abstraction (abstract games) and chance, and
`StrategyView.node` describes one node of the file's abstract betting tree (its breadth-first
index, 0 the root) as a JSON-ready dict:

- where it is: the history, the street, the seat to act, the pot, each seat's committed chips and,
  for the heads-up variants, its stack behind (chips);
- ``reach``: the probability of reaching the node when every seat plays the file's average
  strategy, averaged over deals (the hands chance deals, and chance nodes' outcomes): exact over an
  exact game's deal table (standard error 0), else the mean over ``deals`` fresh deals drawn with
  ``seed`` (``reach_error``: its standard error);
- ``children``: each action's label, kind, colour (as `vcfr chart` draws it) and reach;
- at a decision, ``strategy``: the actor's bucket slot (named: ``"flop, 3 cards"`` is an Auction
  player holding three hole cards), one row of action frequencies per bucket, each bucket's share
  of the actor's hands that reach the node (from the same deals), the reach-weighted average
  frequencies, and, preflop on a card abstraction, the 13x13 grid per hand class
  (`solver.evaluate.charts.preflop_grid`) with each class's range weight: the product of the
  actor's own earlier preflop frequencies for that class (the opponent's actions do not depend on
  it). Bounty buckets carry the hit bit (``2 * base + hit``): the buckets and the grids come in two
  views, bounty rank not held and held.

`check_same_tree` refuses to compare two files of different trees.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from abstraction.cards.buckets import CardAbstraction
from abstraction.tree import CHANCE, DECISION, KIND_NAMES, DealTable, FlatTree, check_compatible
from game.dataclass_support import check_int
from game.rules.nolimit import STREET_NAMES
from solver.evaluate.charts import action_colours, action_labels, hand_class, preflop_grid
from solver.solve.strategy_file import StrategyFileError, StrategyRecord, read_strategy_file
from solver.view import DEFAULT_DEALS

HAND_CLASSES = [[hand_class(row, column) for column in range(13)] for row in range(13)]


@dataclass(frozen=True)
class BucketView:
    """One list of buckets the page draws together: a title and the bucket indices (Bounty: the
    even buckets, bounty rank not held, then the odd ones, held)."""

    title: str
    buckets: tuple[int, ...]


class StrategyView:
    """A strategy file, its tree, its chance (a `DealTable`) and, for abstract games, its card
    abstraction; `node` answers one node as JSON.

    Kuhn under the uniform strategy: the first seat checks half the time, and each of the second
    seat's answers takes half of that; each of the three cards is a third of the hands there.

    >>> from abstraction.exact.exact_games import build_game
    >>> kuhn = build_game("kuhn")
    >>> uniform = np.full(kuhn.tree.table_size, 0.5)
    >>> record = StrategyRecord(kuhn.config, {}, 0, 0, kuhn.tree.fingerprint(), kuhn.tree.to_arrays(), uniform)
    >>> answer = StrategyView(Path("kuhn.h5"), record, kuhn.deals, exact=True).node(1)
    >>> answer["history"], answer["player"], answer["pot"], round(answer["reach"], 12)
    ('K', 1, 2.0, 0.5)
    >>> [round(child["reach"], 12) for child in answer["children"]], answer["strategy"]["bucket_share"]
    ([0.25, 0.25], [0.3333333333333333, 0.3333333333333333, 0.3333333333333333])
    """

    def __init__(
        self,
        path: Path,
        record: StrategyRecord,
        deals: DealTable,
        *,
        exact: bool,
        cards: CardAbstraction | None = None,
        slot_names: tuple[str, ...] = (),
        stack: float | None = None,
        seed: int = 0,
    ) -> None:
        self.path = path
        self.record = record
        self.tree = FlatTree.from_arrays(dict(record.tree_arrays))
        self.strategy = np.asarray(record.average_strategy, dtype=np.float64)
        try:
            check_compatible(self.tree, deals)
        except ValueError as error:
            raise StrategyFileError(f"{path}: its chance does not fit its tree ({error})") from None
        self.deals = deals
        self.exact = exact
        self.cards = cards
        self.slot_names = slot_names
        self.stack = stack
        self.seed = seed
        self.bounty = cards is not None and cards.lookup.bounty  # buckets carry the bounty hit bit
        self._parent = self.tree.parent_array()

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        cards: str | os.PathLike[str] | None = None,
        deals: int = DEFAULT_DEALS,
        seed: int = 0,
    ) -> StrategyView:
        """Read ``path`` (any game kind). Abstract heads-up games load their card abstraction
        (``cards``, checked against the file's ``card_hash``; default: the one the file names,
        `solver.bots.lookup_bot.find_card_abstraction`) and draw ``deals`` fresh deals with ``seed``; exact games use their whole deal table; other
        kinds (N-player limit) rebuild their game from the stored config and sample it.
        `StrategyFileError` (a ValueError) naming the file when any of it cannot be used."""
        from solver.games.abstract_games import GAME_KIND, AbstractGameConfig
        from solver.solve.game_kinds import build_game_from_config, game_kind

        check_int("deals", deals)
        source = Path(path)
        record = read_strategy_file(source)
        config = dict(record.game_config)
        try:
            if config.get("kind") == GAME_KIND:
                return cls._open_abstract(source, record, AbstractGameConfig.from_dict(config), cards, deals, seed)
            kind = game_kind(config)
            solver_game = build_game_from_config(config)
            table = solver_game.deals if solver_game.deals is not None else solver_game.sampler.sample(0, deals, seed)
            exact = kind.exact and solver_game.deals is not None
            if "card_abstraction" not in config:  # Kuhn, Leduc: buckets are the game's own cards
                return cls(source, record, table, exact=exact, seed=seed)
            # N-player limit hold'em: one slot per street, preflop grids from its (Hold'em) card file
            abstraction = _load_cards(source, config.get("card_hash", ""), cards or config["card_abstraction"])
            return cls(source, record, table, exact=exact, cards=abstraction, slot_names=STREET_NAMES, seed=seed)
        except StrategyFileError:
            raise
        except (ValueError, TypeError, OSError) as error:
            raise StrategyFileError(f"{source}: cannot rebuild its game ({error})") from None

    @classmethod
    def _open_abstract(
        cls,
        source: Path,
        record: StrategyRecord,
        game: Any,
        cards: str | os.PathLike[str] | None,
        deals: int,
        seed: int,
    ) -> StrategyView:
        """A heads-up abstract game (``game``: its `AbstractGameConfig`): its card file, ``deals``
        fresh deals of its chance, its hooks' slot names and its starting stack."""
        from abstraction.chance.fresh_chance import FreshChance
        from abstraction.hooks import tree_hooks
        from solver.bots.lookup_bot import find_card_abstraction

        abstraction = _load_cards(source, game.card_hash, cards or find_card_abstraction(game, source))
        rules = game.variant_config()
        hooks = tree_hooks(game.variant)
        return cls(
            source,
            record,
            FreshChance(rules, abstraction, max_runs=game.max_runs).sample(0, deals, seed, parallel=True),
            exact=False,
            cards=abstraction,
            slot_names=hooks.slot_names(hooks.walk_config(rules, game.max_runs)),
            stack=float(rules.stack),
            seed=seed,
        )

    # --- what the page shows -------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """The file: its name and path (as given), game, bets, algorithm, iterations, tree size, tree
        fingerprint and how reach is averaged."""
        solver = self.record.solver_config.get("solver", self.record.solver_config)
        config = self.record.game_config
        return {
            "file": self.path.name,
            "path": str(self.path),
            "game": str(config.get("variant") or config.get("name") or config.get("kind") or "game"),
            "bets": config.get("bets"),
            "algorithm": solver.get("algorithm") if isinstance(solver, dict) else None,
            "iterations": int(self.record.iterations),
            "nodes": self.tree.n_nodes,
            "players": self.tree.n_players,
            "fingerprint": self.record.tree_fingerprint,
            "chance": "exact" if self.exact else f"{self.deals.n_deals:,} fresh deals (seed {self.seed})",
            "bounty": self.bounty,
        }

    def node(self, node: int) -> dict[str, Any]:
        """Node ``node`` as a JSON-ready dict (see the module docstring); ValueError if out of range."""
        tree = self.tree
        if isinstance(node, bool) or not isinstance(node, (int, np.integer)) or not 0 <= node < tree.n_nodes:
            raise ValueError(f"node must be an int in 0..{tree.n_nodes - 1}, got {node!r}")
        node = int(node)
        kind = int(tree.kind[node])
        committed = tree.committed[node]
        reach = self._reach_vector(node)
        first, count = int(tree.child_start[node]), int(tree.n_children[node])
        labels = action_labels(tree, node) if count else ()
        colours = action_colours(tree, node) if count else []
        children = []
        for index, child in enumerate(range(first, first + count)):
            child_reach = reach * self._step(node, child)
            children.append(
                {
                    "node": child,
                    "label": labels[index],
                    "kind": KIND_NAMES[int(tree.kind[child])],
                    "colour": colours[index],
                    "reach": self._mean(child_reach),
                }
            )
        stacks = None if self.stack is None else [self.stack - float(chips) for chips in committed]
        return {
            "node": node,
            "parent": int(self._parent[node]) if node else None,
            "path": [{"node": step, "label": tree.action_label(step)} for step in self._path(node)],
            "history": tree.history(node),
            "kind": KIND_NAMES[kind],
            "street": int(tree.street[node]),
            "street_name": self._street_name(int(tree.street[node])),
            "player": int(tree.player[node]) if kind == DECISION else None,
            "pot": float(committed.sum()),
            "committed": [float(chips) for chips in committed],
            "stacks": stacks,
            "reach": self._mean(reach),
            "reach_error": self._error(reach),
            "children": children,
            "strategy": self._strategy(node, reach) if kind == DECISION else None,
        }

    # --- reach ---------------------------------------------------------------------------------

    def _path(self, node: int) -> list[int]:
        """The nodes from the root to ``node``."""
        path = [node]
        while path[-1] > 0:
            path.append(int(self._parent[path[-1]]))
        return path[::-1]

    def _step(self, parent: int, child: int) -> np.ndarray:
        """Per deal, the probability of moving from ``parent`` to its ``child``: the actor's
        frequency of that action in its bucket, or whether chance takes that child."""
        tree, index = self.tree, child - int(self.tree.child_start[parent])
        if tree.kind[parent] == CHANCE:
            return (self.deals.chance[:, int(tree.context[parent])] == index).astype(np.float64)
        group = int(tree.infoset_group[parent])
        bucket = self.deals.bucket[:, int(tree.player[parent]), int(tree.group_slot[group])].astype(np.int64)
        return self.strategy[int(tree.row_offset[group]) + bucket * int(tree.n_actions[group]) + index]

    def _reach_vector(self, node: int) -> np.ndarray:
        """Per deal, the probability of reaching ``node`` (float64 ``[n_deals]``)."""
        path = self._path(node)
        reach = np.ones(self.deals.n_deals)
        for parent, child in itertools.pairwise(path):
            reach *= self._step(parent, child)
        return reach

    def _mean(self, reach: np.ndarray) -> float:
        return float(self.deals.probability @ reach)

    def _error(self, reach: np.ndarray) -> float:
        """Standard error of the sampled mean (0 over an exact deal table)."""
        if self.exact or self.deals.n_deals < 2:
            return 0.0
        return float(reach.std(ddof=1) / np.sqrt(self.deals.n_deals))

    # --- a decision ----------------------------------------------------------------------------

    def _street_name(self, street: int) -> str:
        if not self.slot_names:
            return f"round {street + 1}"
        return STREET_NAMES[street] if street < len(STREET_NAMES) else f"run {street - len(STREET_NAMES) + 1}"

    def bucket_views(self, n_buckets: int) -> list[BucketView]:
        """How the page lists ``n_buckets`` buckets: Bounty by hit bit, else one list."""
        if self.bounty:
            return [
                BucketView("bounty rank not held", tuple(range(0, n_buckets, 2))),
                BucketView("bounty rank held", tuple(range(1, n_buckets, 2))),
            ]
        return [BucketView("buckets", tuple(range(n_buckets)))]

    def _strategy(self, node: int, reach: np.ndarray) -> dict[str, Any]:
        tree = self.tree
        group = int(tree.infoset_group[node])
        n_actions, n_buckets = int(tree.n_actions[group]), int(tree.n_buckets[group])
        slot = int(tree.group_slot[group])
        start = int(tree.row_offset[group])
        rows = self.strategy[start : start + n_buckets * n_actions].reshape(n_buckets, n_actions)
        held = self.deals.bucket[:, int(tree.player[node]), slot]
        weights = np.bincount(held, weights=self.deals.probability * reach, minlength=n_buckets)
        total = weights.sum()
        share = weights / total if total > 0 else np.zeros(n_buckets)
        average = share @ rows if total > 0 else rows.mean(axis=0)
        return {
            "slot": slot,
            "slot_name": self.slot_names[slot] if slot < len(self.slot_names) else f"slot {slot}",
            "buckets": rows.tolist(),
            "bucket_share": share.tolist(),
            "bucket_views": [
                {"title": view.title, "buckets": list(view.buckets)} for view in self.bucket_views(n_buckets)
            ],
            "average": np.asarray(average).tolist(),
            "grids": self._grids(node),
        }

    def _grids(self, node: int) -> list[dict[str, Any]]:
        """Preflop on a card abstraction: the 13x13 grids (two for Bounty: not held, held)."""
        tree = self.tree
        if self.cards is None or tree.street[node] != 0:
            return []
        if self.cards.n_buckets(0) != int(tree.n_buckets[int(tree.infoset_group[node])]):
            return []
        actor = int(tree.player[node])
        grids = []
        for hit in (False, True) if self.bounty else (False,):
            grid = preflop_grid(tree, self.strategy, self.cards, node, bounty_hit=hit)
            weight = np.ones((13, 13))
            path = self._path(node)
            for parent, child in itertools.pairwise(path):
                if tree.kind[parent] == DECISION and int(tree.player[parent]) == actor:
                    earlier = preflop_grid(tree, self.strategy, self.cards, parent, bounty_hit=hit)
                    weight *= earlier.frequencies[:, :, child - int(tree.child_start[parent])]
            title = ("bounty rank held" if hit else "bounty rank not held") if self.bounty else "hand classes"
            grids.append(
                {
                    "title": title,
                    "classes": HAND_CLASSES,
                    "frequencies": grid.frequencies.tolist(),
                    "range": weight.tolist(),
                }
            )
        return grids


def _load_cards(source: Path, card_hash: str, cards: str | os.PathLike[str]) -> CardAbstraction:
    """The card abstraction in ``cards`` if its sha256 is the strategy file's ``card_hash`` (any
    file when the strategy predates the hash); `CardHashMismatch` naming both hashes otherwise."""
    from solver.games.abstract_games import check_card_hash

    check_card_hash(cards, card_hash, str(source))
    return CardAbstraction.load(cards)


def check_same_tree(first: StrategyView, second: StrategyView) -> None:
    """Refuse (`StrategyFileError`, naming both files) two files whose trees differ: the browser
    walks one tree and shows both strategies at each node."""
    if first.record.tree_fingerprint != second.record.tree_fingerprint:
        raise StrategyFileError(
            f"{second.path} has another tree than {first.path} (tree fingerprints "
            f"{second.record.tree_fingerprint[:16]}... and {first.record.tree_fingerprint[:16]}...): "
            "compare strategies of the same game and bet abstraction"
        )

"""The lookup bot of N-player limit hold'em: plays a solved limit abstract game (`solver.games.limit_games`).

A `game.rules.actions.Bot` for `game.rules.limit.LimitRound` / `game.play.freeze_out.FreezeOut`. At each decision it

1. picks the strategy file solved for the number of seats in the game (one file per player count
   may be given: a 3-player freeze-out becomes heads-up once a player is out);
2. rotates seats so the button is seat 0 (the tree's convention) and replays the public history
   on the stored tree: folds, checks and calls to the child of the same kind (a tap-out ``CALL``
   for less is a ``CALL``; a straddle tapped out with ``CALL`` is the straddle), raises to the
   child with the same raise-to amount (limit raises are exact); a raise where the tree's street
   is capped (real rules allowing more raises than the abstract game) is read as a call. A seat
   that tapped out (0 chips behind) is skipped by the real game; where the tree still asks it to
   act, the bot advances the tree with that seat's check, else call;
3. buckets its cards with `abstraction.cards.buckets.BucketLookup` (the sampler's function);
4. samples an action from the average strategy of ``(node, bucket)`` and plays it when legal: a
   raise the real game refuses (cap reached, too few chips) becomes a call (a straddle becomes the
   tap-out call), a fold with nothing to call a check.

**Off the tree** (no file for this many seats, a raise amount the tree does not have, actor or
street disagreeing after the replay, e.g. after a tap-out changed who posts the blinds) it plays
check, else call. At an announced showdown (``cards_speak=False``) it announces its best hand
(``must_use_hole_card`` honoured by the legal announcements). On any internal error it logs a
warning and plays check, else call, else announces, else folds (`game.play.bots.passive_action`):
it never crashes and never returns an illegal action. Counters: ``decisions``, ``off_tree``,
``errors``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from abstraction.bets.limit_tree import STREET_ORDINAL
from abstraction.cards.buckets import BucketLookup, CardAbstraction
from abstraction.tree import DECISION, FlatTree
from game.cards.evaluator import evaluate
from game.cards.rng import SeedLike, as_generator
from game.play.bots import passive_action
from game.rules.actions import Action, ActionKind
from game.rules.limit import LimitObservation
from solver.games.limit_games import LimitGameConfig
from solver.solve.strategy_file import read_strategy_file

logger = logging.getLogger(__name__)

OFF_TREE = -1
"""Abstract node of a history the tree cannot follow."""
_FOLD, _CHECK, _CALL, _RAISE, _ANNOUNCE = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.RAISE,
    ActionKind.ANNOUNCE,
)


class _LimitStrategy:
    """One strategy file: its tree (as lists), average strategy and bucket lookup."""

    def __init__(self, path: Path, card_abstraction: CardAbstraction | str | Path | None) -> None:
        from solver.bots.lookup_bot import find_card_abstraction
        from solver.games.abstract_games import check_card_hash

        record = read_strategy_file(path)
        try:
            self.game_config = LimitGameConfig.from_dict(dict(record.game_config))
        except ValueError as error:
            raise ValueError(f"{str(path)!r} is not a strategy of the N-player limit game ({error})") from None
        self.rules = self.game_config.limit_config()
        if not isinstance(card_abstraction, CardAbstraction):
            if card_abstraction is None:
                cards = find_card_abstraction(self.game_config, path)
            else:
                cards = Path(card_abstraction)
                check_card_hash(cards, self.game_config.card_hash, f"strategy {str(path)!r}")
            card_abstraction = CardAbstraction.load(cards)
        self.lookup = BucketLookup(card_abstraction)
        tree = FlatTree.from_arrays(dict(record.tree_arrays))
        if tree.n_players != self.rules.n_players:
            raise ValueError(f"{path}: the tree seats {tree.n_players} players, its rules {self.rules.n_players}")
        if not np.array_equal(tree.n_buckets, np.asarray(self.lookup.n_buckets)[tree.group_slot]):
            raise ValueError(
                f"the card abstraction's buckets {self.lookup.n_buckets} do not match the strategy file "
                f"{str(path)!r}'s tree"
            )
        self.n_players = tree.n_players
        self.kind = tree.kind.tolist()
        self.player = tree.player.tolist()
        self.street = tree.street.tolist()
        self.group = tree.infoset_group.tolist()
        self.child_start = tree.child_start.tolist()
        self.n_children = tree.n_children.tolist()
        self.action_kind = tree.action_kind.tolist()
        self.action_amount = tree.action_amount.tolist()
        self.row_offset = tree.row_offset.tolist()
        self.n_actions = tree.n_actions.tolist()
        self.strategy = np.asarray(record.average_strategy, dtype=np.float64)

    def children(self, node: int) -> range:
        start = self.child_start[node]
        return range(start, start + self.n_children[node])

    def child_of_kind(self, node: int, *kinds: ActionKind) -> int:
        """The first child reached by one of ``kinds`` (tried in order), else :data:`OFF_TREE`."""
        for kind in kinds:
            for child in self.children(node):
                if self.action_kind[child] == int(kind):
                    return child
        return OFF_TREE


class LimitLookupBot:
    """Plays the average strategy of limit strategy files (`solver.games.abstract_games.write_abstract_strategy`
    or `solver.solve.training.train` on a `LimitGameConfig`).

    ``strategy_files``: one path, or several solved for different player counts (at most one per
    count); ``card_abstraction``: a `CardAbstraction` or its file (default: each file's own, found
    as `solver.bots.lookup_bot.find_card_abstraction` does); ``seed``: the bot's randomness.
    """

    def __init__(
        self,
        strategy_files: str | Path | Sequence[str | Path],
        *,
        card_abstraction: CardAbstraction | str | Path | None = None,
        seed: SeedLike = None,
        name: str = "limit-lookup",
    ) -> None:
        paths = [strategy_files] if isinstance(strategy_files, (str, Path)) else list(strategy_files)
        if not paths:
            raise ValueError("the limit lookup bot needs at least one strategy file")
        self._strategies: dict[int, _LimitStrategy] = {}
        for path in paths:
            strategy = _LimitStrategy(Path(path), card_abstraction)
            if strategy.n_players in self._strategies:
                raise ValueError(f"two strategy files for {strategy.n_players} players: give one per player count")
            self._strategies[strategy.n_players] = strategy
        self._rng = as_generator(seed)
        self.name = name
        self.decisions = 0
        self.off_tree = 0
        self.errors = 0
        self._cards = np.empty(7, dtype=np.int8)

    @property
    def player_counts(self) -> list[int]:
        """Player counts the bot has a strategy for."""
        return sorted(self._strategies)

    # ------------------------------------------------------------------ the Bot protocol
    def act(self, observation: Any) -> Action:
        """A legal action for ``observation`` (a `game.rules.limit.LimitObservation` of the seat to act)."""
        try:
            return self._act(observation)
        except Exception as error:
            self.errors += 1
            logger.warning("%s: %s: %s; playing check/call instead", self.name, type(error).__name__, error)
            return passive_action(observation)

    def _act(self, observation: LimitObservation) -> Action:
        moves = observation.legal_moves
        if not moves:
            raise ValueError(f"asked to act with no legal action (seat {observation.seat})")
        self.decisions += 1
        if _ANNOUNCE in observation.legal_actions:  # announced showdown: the best hand we may show
            announcements = [move for move in moves if move.kind is _ANNOUNCE]
            return max(announcements, key=lambda move: evaluate(np.array(move.cards, dtype=np.int8)))
        strategy = self._strategies.get(len(observation.stacks))
        node = OFF_TREE if strategy is None else self.abstract_node(observation, strategy)
        if node == OFF_TREE:
            self.off_tree += 1
            return passive_action(observation)
        group = strategy.group[node]
        n_actions = strategy.n_actions[group]
        offset = strategy.row_offset[group] + self._bucket(observation, strategy) * n_actions
        row = strategy.strategy[offset : offset + n_actions]
        target = self._rng.random()
        index, running = n_actions - 1, 0.0
        for k in range(n_actions):
            running += row[k]
            if target < running:
                index = k
                break
        child = strategy.children(node)[index]
        return self._real_action(observation, ActionKind(strategy.action_kind[child]))

    # ------------------------------------------------------------------ cards
    def _bucket(self, observation: LimitObservation, strategy: _LimitStrategy) -> int:
        hole, board = observation.hole_cards, observation.board
        if len(hole) != 2 or len(board) not in (0, 3, 4, 5):
            raise ValueError(f"cannot bucket {len(hole)} hole cards on a board of {len(board)} cards")
        cards = self._cards[: 2 + len(board)]
        cards[:2] = hole
        cards[2:] = board
        return strategy.lookup.bucket_unchecked(cards, 2)

    # ------------------------------------------------------------------ history -> abstract node
    def abstract_node(self, observation: LimitObservation, strategy: _LimitStrategy | None = None) -> int:
        """The tree node where the seat to act decides (:data:`OFF_TREE` if the tree cannot follow)."""
        strategy = strategy if strategy is not None else self._strategies.get(len(observation.stacks))
        if strategy is None:
            return OFF_TREE
        n = len(observation.stacks)
        button = observation.button
        tapped_out = {
            (seat - button) % n for seat in range(n) if observation.stacks[seat] == 0 and not observation.folded[seat]
        }
        node = 0
        for move in observation.history:
            seat = (move.seat - button) % n
            node = self._skip_tapped_out(strategy, node, seat, tapped_out)
            node = self._step(strategy, node, seat, STREET_ORDINAL.get(move.street, -1), move.action)
            if node == OFF_TREE:
                return OFF_TREE
        seat = (observation.seat - button) % n
        node = self._skip_tapped_out(strategy, node, seat, tapped_out)
        if (
            node == OFF_TREE
            or strategy.kind[node] != DECISION
            or strategy.player[node] != seat
            or strategy.street[node] != STREET_ORDINAL.get(observation.street, -1)
        ):
            return OFF_TREE
        return node

    @staticmethod
    def _skip_tapped_out(strategy: _LimitStrategy, node: int, seat: int, tapped_out: set[int]) -> int:
        """Advance past decisions of seats the real game skips (tapped out): their check, else call."""
        for _ in range(strategy.n_players * 4):
            if (
                node == OFF_TREE
                or strategy.kind[node] != DECISION
                or strategy.player[node] == seat
                or strategy.player[node] not in tapped_out
            ):
                return node
            node = strategy.child_of_kind(node, _CHECK, _CALL)
        return node

    @staticmethod
    def _step(strategy: _LimitStrategy, node: int, seat: int, street: int, action: Action) -> int:
        """The child a real move of ``seat`` on street ordinal ``street`` leads to (:data:`OFF_TREE` if none)."""
        if (
            node == OFF_TREE
            or strategy.kind[node] != DECISION
            or strategy.player[node] != seat
            or strategy.street[node] != street
        ):
            return OFF_TREE
        kind = action.kind
        if kind is _FOLD:
            return strategy.child_of_kind(node, _FOLD)
        if kind is _CHECK:
            return strategy.child_of_kind(node, _CHECK, _CALL)
        if kind is _CALL:  # a straddle node has no call: a CALL there is the straddle tapped out
            return strategy.child_of_kind(node, _CALL, _CHECK, _RAISE)
        if kind is _RAISE:
            raises = [child for child in strategy.children(node) if strategy.action_kind[child] == int(_RAISE)]
            for child in raises:
                if strategy.action_amount[child] == action.amount:
                    return child
            if not raises:  # the abstract street is capped: read the raise as a call
                return strategy.child_of_kind(node, _CALL)
        return OFF_TREE

    # ------------------------------------------------------------------ abstract action -> real action
    @staticmethod
    def _real_action(observation: LimitObservation, kind: ActionKind) -> Action:
        moves = observation.legal_moves
        by_kind = {move.kind: move for move in moves}
        if kind is _RAISE and _RAISE in by_kind:
            return by_kind[_RAISE]
        if kind is _FOLD:
            if _CHECK in by_kind:
                return by_kind[_CHECK]
            if _FOLD in by_kind:
                return by_kind[_FOLD]
        if kind is _CHECK and _CHECK in by_kind:
            return by_kind[_CHECK]
        return passive_action(observation)

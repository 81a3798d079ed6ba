"""The strategy lookup bot: plays a solved abstract no-limit game (`solver.games.abstract_games`) for real.

At each decision the bot

1. maps the public betting history onto the abstract tree stored in the strategy file: a check or
   call goes to the check/call child (a check where the tree has only a call, and the reverse,
   are read as the other), a fold to the fold child, a raise to one of the abstract raise children
   by the randomised pseudo-harmonic translation (`abstraction.bets.translation`) of its pot fraction
   (``(raise_to - own pip - cost) / (pot + cost)``, the bet abstraction's definition) among the
   children's fractions at that node; a real all-in is read as the abstract all-in when the node
   has one. The bot's own actions are read back as the abstract child it chose. Translations are
   drawn once per history and remembered, so one hand reads the same history the same way;
   A bid goes to the abstract bid nearest in chips; in a sealed (document-rules) auction the
   dealer bids before seeing the big blind's bid, and every abstract bid of the big blind leads
   to the dealer's one information set, so the bot reads the first abstract bid until the
   auction resolves and both bids are public. At a River of Blood chance node the bot takes the
   child of the real card's colour (red: a run follows). **Past the abstract run cap** (the real
   board keeps running after the tree's last run street) the bot replays the last abstract run
   street: each further run street starts again at that street's first node, with buckets of
   the real, longer board;
2. buckets its real cards (`abstraction.cards.buckets.BucketLookup`, as the deal sampler did):
   two or three hole cards, any board length, the Bounty rank's hit bit;
3. samples an abstract action from the average strategy of ``(group, bucket)``;
4. turns it into a legal real action: a raise of pot fraction f becomes
   ``own pip + cost + f * (pot + cost)`` chips clamped to the real raise bounds (all-in: the
   maximum); a fold with nothing to call becomes a check; anything impossible becomes check/call.
   A bid that loses to the opponent's bid seen before it (the 2024 engine's dealer) becomes one chip
   under that bid (`game.play.bot_support.losing_bid_raised`: the winner pays the loser's bid).

Off the tree (a raise where the abstract street is capped, which is read as a call, and any later
mismatch of actor or street), the bot checks, else calls (bids 0 in an auction, raised as above):
the documented fallback. On any internal error it logs a warning and plays check, else call, else
fold (else bid 0). Counters ``decisions``, ``off_tree`` and ``errors`` report how it went.

Rules. The bot plays the rules ``config`` it is given; when they differ from those the strategy was
solved for (:func:`rules_differences`: any field but the match length ``rounds``, e.g. document
rules solved, engine rules played), it logs one warning naming both and plays on, mapping the real
chips onto the tree as above. The commands that play a strategy file (``vcfr match``, ``vcfr
export-bot``) go further and refuse a file solved for other chips (:data:`CHIP_FIELDS`:
:func:`check_played_chips`): the abstract tree's amounts (raise sizes, the all-in, what each street
starts with) belong to the solved stack and blinds.

**Policy** (`game.rules.actions.PolicyBot`): ``policy(observation)`` is the distribution ``act``
draws from, by the same computation (``act`` makes one draw over its choices): each reading of
the history (the translations drawn earlier this hand when the remembered walk extends to the
observation's history; otherwise, as a fresh ``act`` would draw them, every translation outcome of
every raise and bid in the history with its probability), times the strategy row of the bucket,
each abstract action turned into its real action (rounding, clamping, impossible actions as
check/call), plus the fallbacks off the tree. It changes no state: translations are enumerated,
never drawn. ``policy_rows`` gives it for many substituted hole cards at once (full-game LBR).

The bot is not in `game.play.bots`' ``BOTS`` registry, whose factories take ``(config, seed)`` and no
strategy file: build it with :class:`LookupBot`, with :func:`make_lookup_bot` (the signature
``vcfr export-bot`` passes: ``config``, ``strategy``, ``seed``), or add a named entry for one file
at run time with :func:`register_lookup_bot`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from abstraction.bets.betting_tree import street_ordinal
from abstraction.bets.translation import translation_probabilities
from abstraction.cards.buckets import BucketLookup, CardAbstraction
from abstraction.chance.fresh_chance import FreshChance
from abstraction.tree import CHANCE, DECISION, SHOWDOWN, FlatTree
from game.cards.rng import SeedLike, as_generator
from game.play.bot_support import fallback_action, losing_bid_raised
from game.play.bots import passive_action
from game.rules.actions import Action, ActionKind, Move, Policy
from game.rules.nolimit import NoLimitConfig, Observation
from solver.games.abstract_games import AbstractGameConfig, CardHashMismatch, card_file_hash, check_card_hash
from solver.solve.strategy_file import read_strategy_file

logger = logging.getLogger(__name__)

_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_RAISE = ActionKind.RAISE
_BID = ActionKind.BID
OFF_TREE = -1
"""Abstract node of a history the tree cannot follow."""


_RED_SUITS = (1, 2)  # diamonds, hearts (suits c d h s = 0 1 2 3)
_FIRST_CHANCE_CARD = 4
"""Board index of the card a River of Blood chance slot 0 looks at (the river)."""


CHIP_FIELDS = ("stack", "small_blind", "big_blind")
"""Rules fields in chips: a strategy's abstract tree is built from them, so playing it with other
values maps its raises and all-ins onto a different game (``vcfr match`` and ``vcfr export-bot`` refuse)."""
MATCH_FIELDS = ("rounds",)
"""Rules fields of a match, not of a hand: they never make a strategy's rules differ."""


def rules_differences(solved: NoLimitConfig, played: NoLimitConfig) -> dict[str, tuple[Any, Any]]:
    """``{field: (solved value, played value)}`` for every rules field (but :data:`MATCH_FIELDS`)
    where the rules played differ from those a strategy was solved for.

    >>> from game.rules.bounty import BountyConfig
    >>> rules_differences(BountyConfig(stack=200), BountyConfig(rules="engine", rounds=10))
    {'stack': (200, 400), 'rules': ('document', 'engine')}
    """
    names = [f.name for f in dataclasses.fields(solved) if f.name not in MATCH_FIELDS]
    return {
        name: (getattr(solved, name), getattr(played, name, None))
        for name in names
        if getattr(solved, name) != getattr(played, name, None)
    }


def _both(differences: dict[str, tuple[Any, Any]], side: int) -> str:
    return ", ".join(f"{name} {values[side]!r}" for name, values in differences.items())


def check_played_chips(strategy: str | Path, solved: NoLimitConfig, played: NoLimitConfig) -> None:
    """Refuse (ValueError, one line naming both) to play ``strategy``, solved under ``solved``, at
    other :data:`CHIP_FIELDS` than it was solved for: its tree's chip amounts would not apply."""
    chips = {name: values for name, values in rules_differences(solved, played).items() if name in CHIP_FIELDS}
    if chips:
        again = " ".join(f"--rule {name}={values[1]}" for name, values in chips.items())
        raise ValueError(
            f"{strategy} was solved for {_both(chips, 0)} and would be played at {_both(chips, 1)}: "
            f"its abstract tree's chip amounts (raise sizes, all-in) do not apply; solve again with {again}"
        )


class _AbstractTree:
    """The stored tree with what the bot needs per node: street-start commitments, raise fractions."""

    def __init__(self, tree: FlatTree, stack: int) -> None:
        self.tree = tree
        n_nodes = tree.n_nodes
        parent = tree.parent_array()
        street_base = np.array(tree.committed)  # chips committed before the street: pip = committed - base
        street_base[tree.street == 0] = 0.0  # preflop pips hold the blinds
        for node in range(1, n_nodes):  # breadth-first: parents come first
            up = parent[node]
            if tree.street[node] == tree.street[up]:
                street_base[node] = street_base[up]
        self.street_base = street_base
        street_start = np.arange(n_nodes)  # first node of each node's street along its path
        for node in range(1, n_nodes):
            up = parent[node]
            if tree.street[node] == tree.street[up] and tree.kind[up] != CHANCE:
                street_start[node] = street_start[up]
        self.street_start = street_start.tolist()
        self.context = tree.context.tolist()
        self.last_street = int(tree.street.max())
        self.stack = stack
        self.kind = tree.kind.tolist()
        self.player = tree.player.tolist()
        self.street = tree.street.tolist()
        self.group = tree.infoset_group.tolist()
        self._children: dict[int, tuple[list[int], list[int]]] = {}

    def children(self, node: int) -> tuple[list[int], list[int]]:
        """``(child nodes, their action kinds)`` of a decision node (cached)."""
        cached = self._children.get(node)
        if cached is None:
            start = int(self.tree.child_start[node])
            nodes = list(range(start, start + int(self.tree.n_children[node])))
            cached = (nodes, [int(self.tree.action_kind[child]) for child in nodes])
            self._children[node] = cached
        return cached

    def raise_fraction(self, node: int, child: int) -> float:
        """Pot fraction of the raise into ``child`` at decision ``node`` (bet abstraction's definition)."""
        seat = self.player[node]
        pips = self.tree.committed[node] - self.street_base[node]
        cost = pips[1 - seat] - pips[seat]
        pot = self.tree.committed[node].sum()
        return float((self.tree.action_amount[child] - pips[seat] - cost) / (pot + cost))

    def is_all_in(self, child: int, seat: int) -> bool:
        return bool(self.tree.committed[child, seat] >= self.stack)

    def through_chance(self, node: int, board: tuple[int, ...]) -> int:
        """Follow chance nodes from ``node`` by the real board's colours (unchanged while the card is not dealt)."""
        while node != OFF_TREE and self.kind[node] == CHANCE:
            index = _FIRST_CHANCE_CARD + self.context[node]
            if index >= len(board):
                return node
            red = (board[index] & 3) in _RED_SUITS
            node = int(self.tree.child_start[node]) + int(red)
        return node

    def capped(self, street: int) -> int:
        """The tree street a real street ordinal plays as: itself, or the last street past the run cap."""
        return min(street, self.last_street)

    def past_cap(self, node: int, street: int) -> int:
        """The node to play from on real ``street`` (an ordinal) when the tree stopped at ``node``.

        A showdown reached by closing the last abstract run street, met on a later real run
        street, restarts that last street (the documented behaviour past the run cap).
        """
        if node != OFF_TREE and self.kind[node] == SHOWDOWN and street > self.last_street == self.street[node] >= 4:
            return self.street_start[node]
        return node


class _Walk(NamedTuple):
    """The readings of a history: ``readings`` maps abstract node -> probability (translations);
    street, pips and contributions (chips) after it are the same for every reading."""

    readings: dict[int, float]
    street: int
    pips: tuple[int, int]
    contributions: tuple[int, int]


class _Decision(NamedTuple):
    """One reading at the decision: its probability, the walked node, the decision node
    (:data:`OFF_TREE`: fallback) and ``(child, kind, real action)`` per abstract action."""

    probability: float
    reading: int
    node: int
    real: tuple[tuple[int, int, Action], ...]


class _Choice(NamedTuple):
    """One outcome of a decision: probability, real action, decision node, abstract child and its
    kind (-1 off the tree), and the reading it came from."""

    probability: float
    action: Action
    node: int
    child: int
    kind: int
    reading: int


def _draw(rng: np.random.Generator, choices: list[_Choice]) -> _Choice:
    """One choice drawn by probability (one uniform draw)."""
    target = rng.random()
    running = 0.0
    for choice in choices:
        running += choice.probability
        if target < running:
            return choice
    return choices[-1]


def _draw_pair(rng: np.random.Generator, pairs: list[tuple[int, float]]) -> int:
    """One value of ``(value, probability)`` pairs drawn by probability (no draw if there is one)."""
    if len(pairs) == 1:
        return pairs[0][0]
    target = rng.random()
    running = 0.0
    for value, probability in pairs:
        running += probability
        if target < running:
            return value
    return pairs[-1][0]


class LookupBot:
    """Plays the average strategy of a strategy file written by `solver.games.abstract_games.write_abstract_strategy`.

    ``strategy_file``: the HDF5 strategy file; ``card_abstraction``: a `CardAbstraction` (taken as
    is) or its file (default: :func:`find_card_abstraction`: the path in the file's game config,
    else the same name or ``cards.h5`` next to the strategy file); a file must have the strategy's
    ``card_hash`` (ValueError naming both hashes otherwise); ``config``: the real game's rules
    (default: the abstract game's; others are played with one logged warning naming both, see the
    module docstring); ``seed``: the bot's randomness (action sampling and
    translation). Implements `game.rules.actions.Bot`.
    """

    def __init__(
        self,
        strategy_file: str | Path,
        *,
        card_abstraction: CardAbstraction | str | Path | None = None,
        config: NoLimitConfig | None = None,
        seed: SeedLike = None,
        name: str = "lookup",
    ) -> None:
        record = read_strategy_file(strategy_file)
        self.game_config = AbstractGameConfig.from_dict(dict(record.game_config))
        self.config = config if config is not None else self.game_config.variant_config()
        if not isinstance(self.config, NoLimitConfig):
            raise TypeError(f"config must be a heads-up variant config (NoLimitConfig), got {self.config!r}")
        if self.config.variant != self.game_config.variant:
            raise ValueError(
                f"the strategy was solved for {self.game_config.variant!r}, config is {self.config.variant!r}"
            )
        if card_abstraction is None:
            card_abstraction = find_card_abstraction(self.game_config, strategy_file)  # hash checked
        elif not isinstance(card_abstraction, CardAbstraction):
            check_card_hash(card_abstraction, self.game_config.card_hash, repr(str(strategy_file)))
        if not isinstance(card_abstraction, CardAbstraction):
            card_abstraction = CardAbstraction.load(card_abstraction)
        differences = rules_differences(self.game_config.variant_config(), self.config)
        if differences:
            logger.warning(
                "%s: %s was solved for %s and plays %s (the strategy may not fit these rules)",
                name,
                strategy_file,
                _both(differences, 0),
                _both(differences, 1),
            )
        self.lookup = BucketLookup(card_abstraction)
        tree = FlatTree.from_arrays(dict(record.tree_arrays))
        slots = FreshChance(self.game_config.variant_config(), self.lookup, max_runs=self.game_config.max_runs)
        if tree.n_slots > len(slots.n_buckets) or not np.array_equal(tree.n_buckets, slots.n_buckets[tree.group_slot]):
            raise ValueError(
                f"the card abstraction's buckets {self.lookup.n_buckets} do not match the strategy file's tree"
            )
        self._setup(tree, record.average_strategy, self.game_config.variant_config().stack, seed, name)
        self._bucket_of: Callable[[Observation, int], int] | None = None

    @classmethod
    def from_game(
        cls,
        tree: FlatTree,
        strategy: np.ndarray,
        config: NoLimitConfig,
        bucket: Callable[[Observation, int], int],
        *,
        seed: SeedLike = None,
        name: str = "lookup",
    ) -> LookupBot:
        """A bot of an in-memory abstract game whose card abstraction is not a `CardAbstraction` (the
        exact small variants): ``tree`` and flat ``strategy`` table of the game, the real rules
        ``config`` it plays, and ``bucket(observation, slot)``: the acting seat's bucket in a slot."""
        bot = cls.__new__(cls)
        bot.config = config
        bot._setup(tree, strategy, config.stack, seed, name)
        bot._bucket_of = bucket
        return bot

    def _setup(self, tree: FlatTree, strategy: np.ndarray, stack: int, seed: SeedLike, name: str) -> None:
        self._tree = _AbstractTree(tree, stack)
        self._strategy = np.asarray(strategy, dtype=np.float64)
        self._row_offset = tree.row_offset.tolist()
        self._n_actions = tree.n_actions.tolist()
        self._slot = tree.group_slot.tolist()
        self._rng = as_generator(seed)
        self.name = name
        self.decisions = 0
        self.off_tree = 0
        self.errors = 0
        self._cards = np.empty(3 + 48, dtype=np.int8)
        self._cache_key: tuple = ()
        self._cache_moves: tuple = ()
        self._cache_state: tuple = ()
        self._bucket_memo: tuple = ((), None)

    # ------------------------------------------------------------------ the Bot protocol
    def act(self, observation: Any) -> Action:
        """A legal action for ``observation`` (a `game.rules.nolimit.Observation` of the seat to act),
        sampled from :meth:`policy`'s computation (one draw over its choices)."""
        try:
            return self._act(observation)
        except Exception as error:
            self.errors += 1
            self._cache_key = ()
            logger.warning("%s: %s: %s; playing check/call/fold instead", self.name, type(error).__name__, error)
            return passive_action(observation)

    def policy(self, observation: Any) -> Policy:
        """The distribution :meth:`act` samples from at ``observation``, changing no state.

        The same computation as ``act``: the readings of the history (the translations of raises
        and bids drawn earlier this hand when the bot's remembered walk extends to this history,
        else every translation outcome of the history with its probability: a mixture), the
        strategy row of the bucket at each reading, the real action of each abstract action
        (rounding, clamping, impossible actions as check/call) and the fallbacks off the tree.
        On an internal error it is ``act``'s fallback, check/call/fold with probability 1.
        ValueError if the seat has no legal action.
        """
        if not observation.legal_actions:
            raise ValueError(f"asked for a policy with no legal action (seat {observation.seat})")
        try:
            choices = self._choices(observation, self._decisions(observation, self._readings(observation)))
        except Exception:
            return ((passive_action(observation), 1.0),)
        merged = summed_by_action((choice.action, choice.probability) for choice in choices)
        total = sum(probability for _, probability in merged)
        return tuple((action, probability / total) for action, probability in merged if probability > 0)

    def policy_rows(
        self,
        observation: Observation,
        holes: Sequence[tuple[int, ...]],
        bounty_ranks: Sequence[int | None] | None = None,
    ) -> tuple[list[Action], np.ndarray]:
        """:meth:`policy` at ``observation`` with its hole cards (and Bounty rank) replaced by each of
        ``holes`` (and ``bounty_ranks``), at once: ``(actions, probabilities)`` with probabilities
        float64 ``[len(holes), len(actions)]``, rows summing to 1 (full-game LBR's belief). The
        readings and real actions are computed once (they do not depend on the cards), the buckets
        in one kernel call."""
        holes = [tuple(hole) for hole in holes]
        ranks = list(bounty_ranks) if bounty_ranks is not None else [observation.bounty_rank] * len(holes)
        cached = np.array([self._extends_cache(observation, hole) for hole in holes], dtype=bool)
        columns: dict[Action, int] = {}
        parts: list[tuple[np.ndarray, float, int, np.ndarray | None]] = []
        for flag in (False, True):
            members = np.flatnonzero(cached == flag)
            if len(members) == 0:
                continue
            first = int(members[0])
            view = replace(observation, hole_cards=holes[first], bounty_rank=ranks[first])
            found: list[tuple[np.ndarray, float, Action, np.ndarray | None]] = []
            try:
                buckets: dict[int, np.ndarray] = {}
                for decision in self._decisions(view, self._readings(view)):
                    if decision.node == OFF_TREE:
                        found.append((members, decision.probability, fallback_action(view), None))
                        continue
                    group = self._tree.group[decision.node]
                    slot = self._slot[group]
                    if slot not in buckets:
                        buckets[slot] = self._buckets(
                            view, group, [holes[k] for k in members], [ranks[k] for k in members]
                        )
                    n_actions = self._n_actions[group]
                    rows = self._strategy[
                        self._row_offset[group] + buckets[slot][:, None] * n_actions + np.arange(n_actions)
                    ]
                    for index, (_, _, action) in enumerate(decision.real):
                        found.append((members, decision.probability, action, rows[:, index]))
            except Exception:
                found = [(members, 1.0, passive_action(view), None)]
            for members_, probability, action, values in found:
                parts.append((members_, probability, columns.setdefault(action, len(columns)), values))
        matrix = np.zeros((len(holes), len(columns)))
        for members, probability, column, values in parts:
            matrix[members, column] += probability if values is None else probability * values
        matrix /= matrix.sum(axis=1, keepdims=True)
        return list(columns), matrix

    def _buckets(
        self, observation: Observation, group: int, holes: list[tuple[int, ...]], ranks: list[int | None]
    ) -> np.ndarray:
        """Buckets (int64) of ``observation`` with each of ``holes`` and ``ranks`` substituted."""
        sizes = {len(hole) for hole in holes}
        if self._bucket_of is not None or len(sizes) != 1:
            return np.array(
                [
                    self._bucket(replace(observation, hole_cards=hole, bounty_rank=rank), group)
                    for hole, rank in zip(holes, ranks, strict=True)
                ],
                dtype=np.int64,
            )
        (n_hole,) = sizes
        board = observation.board
        if n_hole not in (2, 3) or (len(board) not in (0, 3) and len(board) < 4):
            raise ValueError(f"cannot bucket {n_hole} hole cards on a board of {len(board)} cards")
        cards = np.empty((len(holes), n_hole + len(board)), dtype=np.int8)
        cards[:, :n_hole] = holes
        cards[:, n_hole:] = board
        rank_array = np.array([-1 if rank is None else rank for rank in ranks], dtype=np.int64)
        key = (cards.tobytes(), n_hole, rank_array.tobytes())
        if self._bucket_memo[0] != key:  # LBR asks again for each of its raises: same cards, same buckets
            self._bucket_memo = (key, self.lookup.buckets_unchecked(cards, n_hole, rank_array))
        return self._bucket_memo[1]

    def _act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"asked to act with no legal action (seat {observation.seat})")
        self.decisions += 1
        walk = self._readings(observation)
        choice = _draw(self._rng, self._choices(observation, self._decisions(observation, walk)))
        self._remember_walk(observation, walk, choice.reading)
        if choice.node == OFF_TREE:
            self.off_tree += 1
            return choice.action
        child, action = choice.child, choice.action
        if action.kind != choice.kind:  # the abstract action was impossible here: read back what was played
            child = self._step(
                choice.node,
                Move(observation.seat, observation.street, action),
                observation.pips,
                observation.contributions,
            )
        self._remember_own_choice(observation, child, action)
        return action

    def _decisions(self, observation: Observation, walk: _Walk) -> list[_Decision]:
        """Per reading of the history: the decision node and each abstract child's real action
        (what does not depend on the cards), or the passive fallback off the tree."""
        tree = self._tree
        seat = observation.seat
        street = tree.capped(street_ordinal(observation.street))
        decisions = []
        for reading, probability in walk.readings.items():
            node = tree.past_cap(tree.through_chance(reading, observation.board), street_ordinal(observation.street))
            sealed = _BID in observation.legal_actions and node != OFF_TREE and tree.kind[node] == DECISION
            if sealed and tree.player[node] != seat:
                node = tree.children(node)[0][0]  # sealed bids: every first bid leads to our one information set
            if (
                node == OFF_TREE
                or tree.kind[node] != DECISION
                or tree.player[node] != seat
                or tree.street[node] != street
            ):
                decisions.append(_Decision(probability, reading, OFF_TREE, ()))
                continue
            children, kinds = tree.children(node)
            real = tuple(
                (child, kind, self._real_action(observation, node, child, kind))
                for child, kind in zip(children, kinds, strict=True)
            )
            decisions.append(_Decision(probability, reading, node, real))
        return decisions

    def _choices(self, observation: Observation, decisions: list[_Decision]) -> list[_Choice]:
        """Every (reading, abstract action) with its probability for the observation's cards."""
        choices: list[_Choice] = []
        bucket = -1
        for decision in decisions:
            if decision.node == OFF_TREE:
                choices.append(
                    _Choice(
                        decision.probability, fallback_action(observation), OFF_TREE, OFF_TREE, -1, decision.reading
                    )
                )
                continue
            group = self._tree.group[decision.node]
            if bucket < 0:
                bucket = self._bucket(observation, group)
            offset = self._row_offset[group] + bucket * self._n_actions[group]
            row = self._strategy[offset : offset + self._n_actions[group]]
            for probability, (child, kind, action) in zip(row.tolist(), decision.real, strict=True):
                if probability > 0:
                    choices.append(
                        _Choice(
                            decision.probability * probability, action, decision.node, child, kind, decision.reading
                        )
                    )
        return choices

    # ------------------------------------------------------------------ cards
    def _bucket(self, observation: Observation, group: int) -> int:
        if self._bucket_of is not None:
            return self._bucket_of(observation, self._slot[group])
        hole, board = observation.hole_cards, observation.board
        if len(hole) not in (2, 3) or (len(board) not in (0, 3) and len(board) < 4):
            raise ValueError(f"cannot bucket {len(hole)} hole cards on a board of {len(board)} cards")
        cards = self._cards[: len(hole) + len(board)]
        cards[: len(hole)] = hole
        cards[len(hole) :] = board
        rank = -1 if observation.bounty_rank is None else int(observation.bounty_rank)
        return self.lookup.bucket_unchecked(cards, len(hole), rank)

    # ------------------------------------------------------------------ history -> abstract node
    def abstract_node(self, observation: Observation) -> int:
        """Abstract node of the observation's history (:data:`OFF_TREE` if the tree cannot follow it),
        one reading drawn as :meth:`act` draws it (and remembered, as ``act`` does)."""
        walk = self._readings(observation)
        readings = list(walk.readings.items())
        reading = readings[0][0] if len(readings) == 1 else _draw_pair(self._rng, readings)
        self._remember_walk(observation, walk, reading)
        return self._tree.past_cap(
            self._tree.through_chance(reading, observation.board), street_ordinal(observation.street)
        )

    def _extends_cache(self, observation: Observation, hole: tuple[int, ...] | None = None) -> bool:
        """Whether the remembered walk (same seat and hole cards, default the observation's; a prefix of
        the history) applies."""
        key = (observation.seat, observation.hole_cards if hole is None else hole)
        return key == self._cache_key and observation.history[: len(self._cache_moves)] == self._cache_moves

    def _readings(self, observation: Observation) -> _Walk:
        """Every reading of the observation's history with its probability (no state changes).

        Replays the chips (street, pips, contributions) alongside. From the remembered walk of this
        hand when the history extends it (its translations were drawn and are kept), else from the
        root; each raise or bid met after that splits the reading by its translation probabilities
        (readings reaching the same node are merged).
        """
        history = observation.history
        if self._extends_cache(observation):
            node, street, pips, contributions = self._cache_state
            start = len(self._cache_moves)
        else:
            config = self.config
            node, street = 0, 0
            pips = (config.small_blind, config.big_blind)
            contributions = pips
            start = 0
        tree = self._tree
        readings = {node: 1.0}
        for move in history[start:]:
            if move.street != street:
                street, pips = move.street, (0, 0)
            after: dict[int, float] = {}
            for reading, probability in readings.items():
                here = tree.past_cap(tree.through_chance(reading, observation.board), street_ordinal(move.street))
                for child, share in self._step_distribution(here, move, pips, contributions):
                    after[child] = after.get(child, 0.0) + probability * share
            readings = after
            pips, contributions = _after(move.seat, move.action, pips, contributions)
        return _Walk(readings, street, pips, contributions)

    def _remember_walk(self, observation: Observation, walk: _Walk, reading: int) -> None:
        """Keep the drawn reading of the observation's history, so later decisions read it the same way."""
        self._cache_key, self._cache_moves = (observation.seat, observation.hole_cards), observation.history
        self._cache_state = (reading, walk.street, walk.pips, walk.contributions)

    def _remember_own_choice(self, observation: Observation, child: int, action: Action) -> None:
        """Record our own move as the abstract child chosen, so the next walk reads it back exactly."""
        pips, contributions = _after(observation.seat, action, observation.pips, observation.contributions)
        self._cache_moves = (*self._cache_moves, Move(observation.seat, observation.street, action))
        self._cache_state = (child, observation.street, pips, contributions)

    def _step(self, node: int, move: Move, pips: tuple[int, int], contributions: tuple[int, int]) -> int:
        """The abstract child a real move leads to from ``node``, drawn by its translation."""
        return _draw_pair(self._rng, self._step_distribution(node, move, pips, contributions))

    def _step_distribution(
        self, node: int, move: Move, pips: tuple[int, int], contributions: tuple[int, int]
    ) -> list[tuple[int, float]]:
        """The abstract children a real move leads to from ``node`` with their translation
        probabilities (``[(OFF_TREE, 1.0)]`` if none)."""
        off = [(OFF_TREE, 1.0)]
        tree = self._tree
        seat, action = move.seat, move.action
        if (
            node == OFF_TREE
            or tree.kind[node] != DECISION
            or tree.player[node] != seat
            or tree.street[node] != tree.capped(street_ordinal(move.street))
        ):
            return off
        children, kinds = tree.children(node)
        kind = action.kind
        if kind is _BID:
            return self._bid_children(node, children, kinds, action.amount)
        if kind is _FOLD:
            return [(children[kinds.index(_FOLD)], 1.0)] if _FOLD in kinds else off
        if kind is _CHECK or kind is _CALL:
            for wanted in (kind, _CALL if kind is _CHECK else _CHECK):
                if wanted in kinds:
                    return [(children[kinds.index(wanted)], 1.0)]
            return off
        if kind is not _RAISE:
            return off
        raises = [child for child, child_kind in zip(children, kinds, strict=True) if child_kind == _RAISE]
        if not raises:  # the abstract street is capped: read the raise as a call
            return [(children[kinds.index(_CALL)], 1.0)] if _CALL in kinds else off
        own_pip, opponent_pip = pips[seat], pips[1 - seat]
        cost = opponent_pip - own_pip
        stack_left = self.config.stack - contributions[seat]
        if action.amount >= own_pip + stack_left and tree.is_all_in(raises[-1], seat):
            return [(raises[-1], 1.0)]
        real_fraction = (action.amount - own_pip - cost) / (sum(contributions) + cost)
        fractions = [tree.raise_fraction(node, child) for child in raises]
        probabilities = translation_probabilities(max(real_fraction, 0.0), fractions)
        return [(child, float(p)) for child, p in zip(raises, probabilities, strict=True) if p > 0]

    def _bid_children(self, node: int, children: list[int], kinds: list[int], amount: int) -> list[tuple[int, float]]:
        """The abstract bid children for a real bid of ``amount`` chips with their probabilities:
        pseudo-harmonic between the nearest abstract bids, in fractions of the pot."""
        bids = [child for child, child_kind in zip(children, kinds, strict=True) if child_kind == _BID]
        if not bids:
            return [(OFF_TREE, 1.0)]
        pot = float(self._tree.tree.committed[node].sum())
        amounts = [float(self._tree.tree.action_amount[child]) / pot for child in bids]
        order = np.argsort(amounts, kind="stable")
        probabilities = translation_probabilities(max(amount / pot, 0.0), [amounts[i] for i in order])
        return [(bids[int(index)], float(p)) for index, p in zip(order, probabilities, strict=True) if p > 0]

    # ------------------------------------------------------------------ abstract action -> real action
    def _real_action(self, observation: Observation, node: int, child: int, kind: int) -> Action:
        legal = observation.legal_actions
        if kind == _BID and _BID in legal:
            low, high = observation.bid_bounds
            return losing_bid_raised(
                observation, Action.bid(min(high, max(low, int(self._tree.tree.action_amount[child]))))
            )
        if kind == _FOLD:
            if _CHECK in legal:
                return Action.check()
            if _FOLD in legal:
                return Action.fold()
        if kind == _RAISE and _RAISE in legal:
            seat = observation.seat
            low, high = observation.raise_bounds
            if self._tree.is_all_in(child, seat):
                return Action.raise_to(high)
            pips = observation.pips
            cost = pips[1 - seat] - pips[seat]
            fraction = self._tree.raise_fraction(node, child)
            target = round(pips[seat] + cost + fraction * (sum(observation.contributions) + cost))
            return Action.raise_to(min(high, max(low, target)))
        return fallback_action(observation)


def summed_by_action(pairs: Iterable[tuple[Action, float]]) -> Policy:
    """``(action, probability)`` pairs with equal actions' probabilities summed, in first-seen order."""
    out: dict[Action, float] = {}
    for action, probability in pairs:
        out[action] = out.get(action, 0.0) + float(probability)
    return tuple(out.items())


def _after(
    seat: int, action: Action, pips: tuple[int, int], contributions: tuple[int, int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Pips and contributions (chips) after ``seat`` plays ``action``."""
    kind = action.kind
    if kind is _CALL:
        added = pips[1 - seat] - pips[seat]
    elif kind is _RAISE:
        added = action.amount - pips[seat]
    else:
        return pips, contributions
    new_pips = (pips[0] + added, pips[1]) if seat == 0 else (pips[0], pips[1] + added)
    new_contributions = (
        (contributions[0] + added, contributions[1]) if seat == 0 else (contributions[0], contributions[1] + added)
    )
    return new_pips, new_contributions


CARDS_FILE_NAME = "cards.h5"
"""Name of the card-abstraction file next to a strategy file that `vcfr export-bot` writes (and the
last name :func:`find_card_abstraction` tries there)."""


def find_card_abstraction(game_config: AbstractGameConfig, strategy_file: str | Path) -> Path:
    """The card-abstraction file of a strategy file's game, checked against the stored ``card_hash``.

    Tried in order: the stored path as given (relative paths also from the strategy file's folder),
    then, next to the strategy file, a file with the stored file's name, then that name in a ``cards``
    folder beside the strategy's folder (the layout of ``experiments/blueprints.py``:
    ``<work>/cards/<name>.h5`` and ``<work>/<year>/blueprint_<variant>.h5``), then ``cards.h5``. The
    first existing file whose sha256 is the stored ``card_hash`` wins (any existing file when the
    strategy predates the hash), so a folder holding a strategy file and its card file, or a blueprint
    build folder, still works after it is moved. ValueError (one line) otherwise:
    :class:`~solver.games.abstract_games.CardHashMismatch` naming the expected hash and each file found
    with its hash, or "not found" naming the paths tried.
    """
    stored = Path(game_config.card_abstraction)
    folder = Path(strategy_file).parent
    candidates = list(
        dict.fromkeys(
            (
                stored,
                folder / stored,
                folder / stored.name,
                folder.parent / "cards" / stored.name,
                folder / CARDS_FILE_NAME,
            )
        )
    )
    expected = game_config.card_hash
    mismatched: list[str] = []
    seen: set[Path] = set()
    for candidate in candidates:
        if not candidate.is_file():
            continue
        resolved = candidate.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        if not expected:
            return candidate
        actual = card_file_hash(candidate)
        if actual == expected:
            return candidate
        mismatched.append(f"{str(candidate)!r} has sha256 {actual}")
    if mismatched:
        raise CardHashMismatch(
            f"no card abstraction of {str(strategy_file)!r} matches its card sha256 {expected}: "
            f"{'; '.join(mismatched)}; use the card file it was solved with"
        )
    tried = ", ".join(repr(str(candidate)) for candidate in candidates)
    raise ValueError(
        f"card abstraction file {str(stored)!r} of {str(strategy_file)!r} not found (tried {tried}); "
        "pass card_abstraction="
    )


def make_lookup_bot(
    config: NoLimitConfig | None = None,
    strategy: str | Path | None = None,
    seed: SeedLike = None,
    card_abstraction: str | Path | None = None,
) -> LookupBot:
    """A :class:`LookupBot` for ``strategy`` (required), playing the rules ``config`` (default: the
    file's), with the card file ``card_abstraction`` (default: :func:`find_card_abstraction`).

    >>> make_lookup_bot()
    Traceback (most recent call last):
    ...
    ValueError: the lookup bot needs a strategy file: pass strategy=<path of an .h5 strategy file>
    """
    if strategy is None:
        raise ValueError("the lookup bot needs a strategy file: pass strategy=<path of an .h5 strategy file>")
    return LookupBot(strategy, card_abstraction=card_abstraction, config=config, seed=seed)


def register_lookup_bot(strategy_file: str | Path, name: str = "lookup") -> None:
    """Add ``name`` to `game.play.bots.BOTS` (at run time, this process only), building a
    :class:`LookupBot` of ``strategy_file`` for ``make_bot(name, config=..., seed=...)``."""
    from game.play.bots import BOTS

    path = Path(strategy_file)
    read_strategy_file(path)  # fail now, not at the first match
    BOTS[name] = lambda config, seed: LookupBot(path, config=config, seed=seed, name=name)

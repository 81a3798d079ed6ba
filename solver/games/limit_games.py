"""The abstract game of N-player limit hold'em (`game.rules.limit`): rules + card abstraction, JSON-able.

`LimitGameConfig` is what a strategy file stores as its ``game_config`` (``kind`` =
:data:`GAME_KIND`); `build_limit_game` rebuilds the same `SolverGame` from it as long as the
card-abstraction file is there. The betting tree is `abstraction.bets.limit_tree.build_limit_tree` (every
legal limit action: no bet abstraction is needed), chance is always fresh
(`abstraction.chance.limit_chance.LimitChance`: a new deal per Monte Carlo iteration, so solve it with
``es-mccfr`` or ``os-mccfr``). The abstract game assumes cards speak at showdown (the best hand
is announced, nobody mucks) and that nobody taps out (``buy_in`` must cover the most one game can
cost; a config breaking that is refused).

``rules`` are `game.rules.limit.LimitConfig` fields (chips). Fields not given take the rules' defaults,
except two abstract-game defaults (:data:`DEFAULT_RULES`): 3 players and ``max_raises`` 2, since
the rules' 3 raises per round give 5.35 million nodes for 3 players (2: 296,913 nodes, 122,830
decision nodes; 1: 14,035).

>>> config = LimitGameConfig(rules={"max_raises": 1}, card_abstraction="cards.h5")
>>> config.rules
{'n_players': 3, 'max_raises': 1}
>>> LimitGameConfig.from_dict(config.to_dict()) == config, config.to_dict()["kind"]
(True, 'limit')
>>> config.limit_config().n_players, config.limit_config().low_limit
(3, 10)
>>> LimitGameConfig(rules={"players": 3}, card_abstraction="cards.h5")
Traceback (most recent call last):
...
ValueError: unknown limit rules fields ['players']: known are ['ante', 'blinds', 'blinds_in_second_round', 'board_cards', 'buy_in', 'cards_speak', 'check_raise', 'high_limit', 'hole_cards', 'low_limit', 'max_raises', 'must_use_hole_card', 'n_players']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from abstraction.bets.limit_tree import build_limit_tree, check_no_tap_out, showdown_contexts
from abstraction.cards.buckets import BucketLookup, CardAbstraction
from abstraction.chance.limit_chance import LimitChance
from abstraction.tree import MAX_PLAYERS, SolverGame
from game.dataclass_support import check_int, check_sha256_or_empty
from game.rules.limit import LimitConfig
from solver.games.abstract_games import KindConfig, load_card_abstraction

GAME_KIND = "limit"
"""``kind`` entry of the JSON config of the limit abstract games."""
DEFAULT_RULES: dict[str, Any] = {"n_players": 3, "max_raises": 2}
"""Rules fields of the abstract game that differ from `LimitConfig`'s defaults unless given."""
DEFAULT_MAX_NODES = 2_000_000


@dataclass(frozen=True)
class LimitGameConfig(KindConfig):
    """One limit abstract game, JSON-able (:meth:`to_dict`).

    ``rules``: `game.rules.limit.LimitConfig` fields (chips; :data:`DEFAULT_RULES` filled in, so the stored
    dict names the player count and the raise cap); ``card_abstraction``: path of the HDF5 card
    abstraction (built for ``holdem``); ``max_nodes``: refuse bigger trees; ``card_hash``: sha256 of
    the card file (filled in by `build_limit_game` when the file is there; a rebuild refuses another
    file).
    """

    KIND: ClassVar[str] = GAME_KIND

    rules: dict[str, Any] = field(default_factory=dict)
    card_abstraction: str = ""
    max_nodes: int = DEFAULT_MAX_NODES
    card_hash: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.rules, dict):
            raise TypeError(f"rules must be a dict of LimitConfig fields, got {self.rules!r}")
        object.__setattr__(self, "rules", {**DEFAULT_RULES, **self.rules})
        object.__setattr__(self, "card_abstraction", str(self.card_abstraction))
        if not self.card_abstraction:
            raise ValueError("card_abstraction must name the HDF5 card-abstraction file, got ''")
        check_int("max_nodes", self.max_nodes)
        check_sha256_or_empty("card_hash", self.card_hash, "the card file")
        rules = self.limit_config()  # bad rules fail here, naming the bad value
        if not rules.is_holdem:
            raise ValueError(
                f"the limit abstract game deals hold'em (2 hole cards, boards 0 3 1 1), got hole_cards="
                f"{rules.hole_cards}, board_cards={list(rules.board_cards)} (small-deck games are exact: "
                "abstraction.exact.small_limit)"
            )
        if rules.n_players > MAX_PLAYERS:
            raise ValueError(f"the limit abstract game seats 2..{MAX_PLAYERS} players, the rules {rules.n_players}")
        check_no_tap_out(rules)

    def limit_config(self) -> LimitConfig:
        """The rules (`LimitConfig` defaults overridden by ``rules``)."""
        known = {f.name for f in dataclasses.fields(LimitConfig)}
        unknown = sorted(set(self.rules) - known)
        if unknown:
            raise ValueError(f"unknown limit rules fields {unknown}: known are {sorted(known)}")
        return LimitConfig(**self.rules)

    @property
    def n_players(self) -> int:
        return self.limit_config().n_players


def build_limit_game(
    config: LimitGameConfig, abstraction: CardAbstraction | None = None, *, table_itemsize: int = 4
) -> SolverGame:
    """The `SolverGame` of ``config``: the limit betting tree with fresh chance (`LimitChance`).

    ``abstraction`` skips loading ``config.card_abstraction`` (it must be that file's contents). The
    game's config carries the card file's hash when the file is there (a stored hash must match).
    Building walks the rules engine: about 20 s for 3 players with ``max_raises`` 2. A tree past
    ``config.max_nodes``, or whose build and solver tables of ``table_itemsize`` bytes per entry do
    not fit in memory, is refused before it is built (`abstraction.bets.limit_tree.measure_limit_tree`).
    """
    if not isinstance(config, LimitGameConfig):
        raise TypeError(f"config must be a LimitGameConfig, got {config!r}")
    config, abstraction = load_card_abstraction(config, abstraction)
    rules = config.limit_config()
    lookup = BucketLookup(abstraction)
    if lookup.bounty:
        raise ValueError("the limit game needs a holdem card abstraction, got a Bounty one")
    tree = build_limit_tree(rules, lookup.n_buckets, max_nodes=config.max_nodes, table_itemsize=table_itemsize)
    chance = LimitChance(rules, lookup, contexts=showdown_contexts(tree))
    name = f"limit {rules.n_players}p max_raises={rules.max_raises}"
    return SolverGame(name=name, tree=tree, deals=None, config=config.to_dict(), sampler=chance)


def limit_big_blind(config: LimitGameConfig) -> float:
    """Chips of the big blind for mbb/hand: the straddle (the low limit)."""
    return float(config.limit_config().straddle)

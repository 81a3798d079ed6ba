"""Abstract games of the full-size heads-up variants: rules config + card abstraction + bet abstraction.

Four orthogonal configs make one solve (Slumbot style): the variant's rules config
(`game.rules.holdem.HoldemConfig` ...), the card abstraction (an HDF5 file of
`abstraction.cards.buckets.CardAbstraction`), the bet abstraction (`abstraction.bets.bet_abstraction`
text, with ``bids=`` for the Auction) and the solver settings (`solver.solve.cfr.SolverConfig`).
`AbstractGameConfig` holds the first three plus how chance is drawn, and is JSON-able: strategy
files store it as their ``game_config``, and `build_abstract_game` rebuilds the same `SolverGame`
from it as long as the card-abstraction file is there.

The tree is `abstraction.bets.betting_tree.build_betting_tree` (bucket slots, outcome contexts and
payoff rows from the variant's hooks in `abstraction.hooks`; River of Blood's run streets capped at
``max_runs``). Chance is ``"fresh"`` by default: `abstraction.chance.fresh_chance.FreshChance` draws a new
deal for every Monte Carlo iteration. ``"fixed"`` draws ``n_deals`` deals once
(`abstraction.chance.sampled_deals.sample_deal_table`): the option for full-traversal solvers and exact
best responses over the sample, at the price of fitting that sample. Every heads-up variant is
supported: ``holdem``, ``swap``, ``river_of_blood``, ``auction``, ``bounty``.

>>> config = AbstractGameConfig(variant="holdem", rules={"stack": 20}, card_abstraction="cards.h5",
...                             bets="1p,a cap=2")
>>> AbstractGameConfig.from_dict(config.to_dict()) == config
True
>>> config.variant_config()
HoldemConfig(stack=20, small_blind=1, big_blind=2, rounds=1000, rules='document')
>>> AbstractGameConfig(variant="blotto", card_abstraction="cards.h5")
Traceback (most recent call last):
...
ValueError: abstract games support variants ('holdem', 'swap', 'river_of_blood', 'auction', 'bounty'), got 'blotto'
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Self

from abstraction.bets.bet_abstraction import BetAbstraction
from abstraction.bets.betting_tree import TreeSize, build_betting_tree, measure_betting_tree
from abstraction.cards.buckets import BucketLookup, CardAbstraction
from abstraction.chance.fresh_chance import FreshChance
from abstraction.chance.sampled_deals import sample_deal_table
from abstraction.hooks import hooked_variants
from abstraction.hooks.river_of_blood import DEFAULT_MAX_RUNS
from abstraction.tree import DealTable, SolverGame
from game.dataclass_support import check_int, check_sha256_or_empty
from game.rules.nolimit import NoLimitConfig
from game.rules.variants import get_variant

CHANCE_MODES = ("fresh", "fixed")

GAME_KIND = "sampled-nolimit"
"""``kind`` entry of the JSON config, telling these games apart from `abstraction.exact.exact_games` ones."""


class KindConfig:
    """JSON form of a frozen dataclass game config tagged with its ``kind`` (class attribute
    ``KIND``), as strategy files store it: `to_dict` / `from_dict`."""

    KIND: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict of the fields, plus ``kind`` = ``KIND``."""
        data = dataclasses.asdict(self)  # type: ignore[call-overload]
        data["kind"] = self.KIND
        json.dumps(data)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Inverse of :meth:`to_dict` (``kind`` must be ``KIND`` when present); ValueError naming a bad field."""
        values = dict(data)
        kind = values.pop("kind", cls.KIND)
        if kind != cls.KIND:
            raise ValueError(f"not a {cls.KIND!r} game config: kind {kind!r}")
        try:
            return cls(**values)
        except TypeError as error:
            raise ValueError(f"bad {cls.KIND} game config: {error}") from None


@dataclass(frozen=True)
class AbstractGameConfig(KindConfig):
    """One abstract heads-up game, JSON-able (:meth:`to_dict`).

    ``variant``: a variant with tree hooks (`abstraction.hooks.hooked_variants`); ``rules``: fields of the variant's config that
    differ from its defaults (chips, e.g. ``{"stack": 200}``); ``card_abstraction``: path of the
    HDF5 card abstraction (of the same variant for Bounty, whose buckets carry the hit bit);
    ``bets``: bet-abstraction text (`BetAbstraction.parse`); ``chance``: ``"fresh"`` (a new deal
    per iteration) or ``"fixed"`` (``n_deals`` deals drawn once with ``deal_seed``);
    ``max_runs``: River of Blood's run streets in the abstract game (None for other variants;
    default :data:`DEFAULT_MAX_RUNS` there); ``max_nodes``: refuse bigger trees; ``card_hash``: sha256
    (hex) of the card-abstraction file's bytes (:func:`card_file_hash`), filled by
    `build_abstract_game` from the file it loads, and checked there and by the lookup bot (``""``:
    unknown, as in files written before the field existed; nothing is checked then).
    """

    KIND: ClassVar[str] = GAME_KIND

    variant: str = "holdem"
    rules: dict[str, Any] = field(default_factory=dict)
    card_abstraction: str = ""
    bets: str = "1p,a cap=2"
    chance: str = "fresh"
    n_deals: int = 100_000
    deal_seed: int = 0
    max_runs: int | None = None
    max_nodes: int = 2_000_000
    card_hash: str = ""

    def __post_init__(self) -> None:
        if self.variant not in hooked_variants():
            raise ValueError(f"abstract games support variants {hooked_variants()}, got {self.variant!r}")
        if not isinstance(self.rules, dict):
            raise TypeError(f"rules must be a dict of config fields, got {self.rules!r}")
        object.__setattr__(self, "card_abstraction", str(self.card_abstraction))
        if not self.card_abstraction:
            raise ValueError("card_abstraction must name the HDF5 card-abstraction file, got ''")
        BetAbstraction.parse(self.bets)
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {CHANCE_MODES}, got {self.chance!r}")
        if get_variant(self.variant).config_class.has_run_cards:
            if self.max_runs is None:
                object.__setattr__(self, "max_runs", DEFAULT_MAX_RUNS)
            if isinstance(self.max_runs, bool) or not isinstance(self.max_runs, int) or self.max_runs < 0:
                raise ValueError(f"max_runs must be an int >= 0 (run streets), got {self.max_runs!r}")
        elif self.max_runs is not None:
            raise ValueError(
                f"max_runs is River of Blood's run cap; {self.variant!r} takes none, got {self.max_runs!r}"
            )
        for name in ("n_deals", "max_nodes"):
            check_int(name, getattr(self, name))
        check_int("deal_seed", self.deal_seed, 0)
        check_sha256_or_empty("card_hash", self.card_hash, "the card file")
        self.variant_config()  # bad rules fail here, naming the bad value

    def variant_config(self) -> NoLimitConfig:
        """The variant's rules config (defaults overridden by ``rules``)."""
        config_class = get_variant(self.variant).config_class
        known = {f.name for f in dataclasses.fields(config_class)}
        unknown = sorted(set(self.rules) - known)
        if unknown:
            raise ValueError(f"unknown {self.variant} rules fields {unknown}: known are {sorted(known)}")
        return config_class(**self.rules)

    def bet_abstraction(self) -> BetAbstraction:
        return BetAbstraction.parse(self.bets)

    @classmethod
    def for_variant(cls, config: NoLimitConfig, card_abstraction: str | Path, **settings: Any) -> AbstractGameConfig:
        """From a variant config object: ``rules`` keeps the fields that differ from the defaults."""
        defaults = type(config)()
        rules = {
            f.name: getattr(config, f.name)
            for f in dataclasses.fields(config)
            if getattr(config, f.name) != getattr(defaults, f.name)
        }
        return cls(variant=config.variant, rules=rules, card_abstraction=str(card_abstraction), **settings)


def card_file_hash(path: str | Path) -> str:
    """sha256 (hex) of a card-abstraction file's bytes: what ``AbstractGameConfig.card_hash`` holds.

    The bytes identify the contents: `CardAbstraction.save` writes the same bytes for the same
    abstraction (h5py records no timestamps; checked across processes and load/save round trips).
    """
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


class CardHashMismatch(ValueError):
    """A card-abstraction file is not the one a game was solved with (its hash differs)."""


def check_card_hash(path: str | Path, expected: str, solved: str = "the game") -> str:
    """The file's :func:`card_file_hash`; :class:`CardHashMismatch` (one line naming both hashes and
    the path) when ``expected`` is set and differs. ``solved`` names what was solved with ``expected``."""
    actual = card_file_hash(path)
    if expected and actual != expected:
        raise CardHashMismatch(
            f"card abstraction {str(path)!r} has sha256 {actual}, but {solved} was solved with "
            f"card sha256 {expected}: use the card file it was solved with"
        )
    return actual


def load_card_abstraction(config: Any, abstraction: CardAbstraction | None = None) -> tuple[Any, CardAbstraction]:
    """``(config with its card_hash, the card abstraction)`` of a game config holding
    ``card_abstraction`` (a path) and ``card_hash`` (heads-up or limit).

    ``abstraction`` given: it is used as the file's contents, and the hash is checked or filled
    only if the file exists. Otherwise the file must exist; its sha256 must equal a stored hash
    (:class:`CardHashMismatch`), an empty one is filled in.
    """
    path = Path(config.card_abstraction)
    if abstraction is None:
        if not path.is_file():
            raise ValueError(f"card abstraction file {str(path)!r} does not exist")
        return dataclasses.replace(config, card_hash=check_card_hash(path, config.card_hash)), CardAbstraction.load(
            path
        )
    if path.is_file():
        config = dataclasses.replace(config, card_hash=check_card_hash(path, config.card_hash))
    return config, abstraction


@dataclass(frozen=True)
class BuildProgress:
    """Where `build_abstract_game` is: the tree's measured ``size``, the nodes built so far (0 before
    the walk, ``size.n_nodes`` once the tree is built) and the bytes per solver-table entry the size
    was checked for (``size.summary(table_itemsize)`` describes it)."""

    size: TreeSize
    nodes_built: int
    table_itemsize: int = 4


def build_abstract_game(
    config: AbstractGameConfig,
    abstraction: CardAbstraction | None = None,
    *,
    on_progress: Callable[[BuildProgress], None] | None = None,
    table_itemsize: int = 4,
) -> SolverGame:
    """The `SolverGame` of ``config``: betting tree of its bets and bucket slots, fresh or fixed chance.

    ``abstraction`` skips loading ``config.card_abstraction`` (it must be that file's contents).
    The game's config carries the card file's hash (``card_hash``): a config that already holds one
    (rebuilt from a strategy file) must match the file (:class:`CardHashMismatch` otherwise); an
    empty one is filled from the file when it exists.

    The tree is measured first (`measure_betting_tree`, seconds even for huge trees) and refused
    with a ValueError giving its size when it has more than ``config.max_nodes`` nodes or when its
    arrays and two solver tables of ``table_itemsize`` bytes per entry (4: float32, 8: float64)
    do not fit in the machine's available memory (`TreeSize.check`). ``on_progress`` gets a
    :class:`BuildProgress` before the walk, every few thousand nodes and at the end.
    """
    if not isinstance(config, AbstractGameConfig):
        raise TypeError(f"config must be an AbstractGameConfig, got {config!r}")
    config, abstraction = load_card_abstraction(config, abstraction)
    variant_config = config.variant_config()
    chance = FreshChance(variant_config, BucketLookup(abstraction), max_runs=config.max_runs)
    bets, buckets = config.bet_abstraction(), chance.n_buckets.tolist()
    size = measure_betting_tree(variant_config, bets, buckets, max_runs=config.max_runs)
    size.check(config.max_nodes, table_itemsize)

    def report(nodes_built: int) -> None:
        if on_progress is not None:
            on_progress(BuildProgress(size, nodes_built, table_itemsize))

    report(0)
    tree = build_betting_tree(variant_config, bets, buckets, max_runs=config.max_runs, on_progress=report)
    name = f"{config.variant} {config.bets}"
    if config.chance == "fixed":
        deals: DealTable = sample_deal_table(
            variant_config, chance.lookup, config.n_deals, seed=config.deal_seed, max_runs=config.max_runs
        )
        return SolverGame(name=name, tree=tree, deals=deals, config=config.to_dict())
    return SolverGame(name=name, tree=tree, deals=None, config=config.to_dict(), sampler=chance)


def write_abstract_strategy(path: str | Path, game: SolverGame, solver: Any, *, include_tables: bool = False) -> Path:
    """Write ``solver``'s average strategy for ``game`` to an HDF5 strategy file (`solver.solve.strategy_file`).

    ``game`` is an abstract game over a card file: a heads-up one (this module) or a limit one
    (`solver.games.limit_games`). ``game_config`` is ``game.config`` (its config's ``to_dict``, with the
    card file's ``card_hash`` filled in if the game had none and the file is there), so
    `solver.bots.lookup_bot.LookupBot` / `solver.bots.limit_lookup_bot.LimitLookupBot` find the card
    abstraction and the rules from the file alone. ``include_tables`` also stores regrets and
    strategy sums (for resuming; larger file).
    """
    from solver.solve.strategy_file import StrategyRecord, write_strategy_file

    if not game.config.get("card_abstraction"):
        raise ValueError(
            f"game {game.name!r} is not an abstract game over a card file (its config names no card_abstraction; "
            f"kind {game.config.get('kind')!r})"
        )
    game_config = dict(game.config)
    cards = Path(str(game_config.get("card_abstraction", "")))
    if not game_config.get("card_hash") and cards.is_file():  # a game built without its file at hand
        game_config["card_hash"] = card_file_hash(cards)
    record = StrategyRecord(
        game_config=game_config,
        solver_config=solver.config.to_dict(),
        iterations=solver.iteration,
        seed=solver.config.seed,
        tree_fingerprint=game.tree.fingerprint(),
        tree_arrays=game.tree.to_arrays(),
        average_strategy=solver.average_strategy(),
        tables=solver.tables() if include_tables else {},
    )
    return write_strategy_file(path, record)

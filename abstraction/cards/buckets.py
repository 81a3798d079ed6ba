"""Card abstraction: per-street bucket tables and centroids, stored in HDF5, and the bucket of a hand.

The tables are built by clustering in `abstraction.cards.build`; a hand's bucket is served by
`BucketLookup` below (`CardAbstraction.bucket` is that lookup).

Streets and what maps a real hand to its bucket:

- preflop: a table over the 169 suit-isomorphic classes (lossless at 169 buckets);
- flop: a table over the 1,286,792 flop classes (uint16);
- turn: a table over the 55,190,538 turn classes (uint16, 110 MB);
- river (and River of Blood run streets): no table (2.4e9 classes): the hand's exact strength
  against all opponent holdings is computed on the spot (about 10 µs in numba) and mapped to the
  nearest of the 1-D river centroids.

Methods (``method``): ``ehs`` clusters E[HS], ``ehs2`` clusters (E[HS], E[HS²]) (both L2 k-means),
``emd`` clusters distributions under earth mover's distance: a turn hand by its 46 river
strengths, a flop hand potential-aware by its 47 next-street (turn) buckets, each placed at its
bucket's equity (so the ground distance between turn buckets is the difference of their
equities, a 1-D simplification of Johanson et al. 2013's centroid-to-centroid distance).
Preflop below 169 buckets clusters (E[HS], E[HS²]) from Monte Carlo features for every method.

Variants: Hold'em tables serve every variant but Swap's (below). Bounty doubles the buckets:
``2 * bucket + hit`` where ``hit`` says whether the own bounty rank is among the known cards (if it
is not, the chance it still hits depends on the street only, so that one bit carries both). River
of Blood run streets score the longer board on the spot like the river. An Auction three-card
hand takes the highest bucket of its three two-card sub-hands on the flop and turn, and its own
strength on the river.

Swap (``variant="swap"``) clusters on Swap's futures, with the probabilities
``flop_swap_probability`` / ``turn_swap_probability`` of the config (default: `game.rules.swap.SwapConfig`'s
0.10 / 0.05; other variants hold 0): a preflop hand faces the flop swap and the turn swap (its
Monte Carlo E[HS], E[HS²] draw them, `abstraction.cards.features.hand_features`), a flop hand (the cards
held after the flop swap) faces the turn swap (E[HS], E[HS²] exact over every turn, swap outcome,
replacement card and river; EMD: the distribution of the turn bucket of the hand held after the
turn swap; `abstraction.cards.kernels_buckets._swap_flop_moments` and ``_swap_flop_atoms``), and turn and
river hands face no more swaps, so their tables and centroids are the plain ones. The opponent is
uniform over the unseen cards throughout: its own swaps leave its final hand uniform. On the flop
a replaced own card, although known dead, is not taken out of the opponent's range (as in the
river lookup); preflop it is. With both probabilities 0 a Swap file equals the Hold'em one.
A Swap file serves only Swap games (`abstraction.chance.fresh_chance.FreshChance` refuses it elsewhere).

Not in the tables: River of Blood run-card potential at the river.

HDF5 file format (version 1), written to a temporary file and renamed:
attributes ``format = "vcfr-card-abstraction"``, ``format_version = 1``, ``config`` (JSON of
`CardAbstractionConfig`), ``cards_per_round`` (2, 3, 1, 1); datasets ``preflop_table`` (169,),
``flop_table`` (1286792,), ``turn_table`` (55190538,) as uint16, ``river_centroids`` (k,) increasing
float64, ``flop_centroids`` and ``turn_centroids`` (k, d) float64. Loading checks the version.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from abstraction.cards.features import FutureModel
from abstraction.cards.isomorphism import HandIndexer, holdem_indexer
from abstraction.cards.kernels_buckets import (
    METHOD_EHS,
    METHOD_EHS2,
    METHOD_EMD,
    N_RIVERS,
    N_TURNS,
    UNSET,
    _hand_buckets,
    hand_bucket,
)
from game.cards.deck import N_RANKS, CardsLike, format_cards, parse_cards
from game.rules.variants import VARIANTS as RULES_VARIANTS

FILE_FORMAT = "vcfr-card-abstraction"
FILE_VERSION = 1
METHODS = {"ehs": METHOD_EHS, "ehs2": METHOD_EHS2, "emd": METHOD_EMD}
MAX_BUCKETS = UNSET - 1
PREFLOP_CLASSES = 169
"""Suit-isomorphic two-card hands: at most this many preflop buckets (169 is lossless)."""


def feature_width(method: str, street: int) -> int:
    """Values in one feature that ``method`` clusters on the flop (``street`` 1) or the turn (2):
    1 for EHS (E[HS]), 2 for EHS2 (E[HS], E[HS²]), and for EMD the sorted atoms of the equity
    distribution over the next card: 47 turn cards on the flop, 46 river cards on the turn.

    >>> feature_width("ehs2", 1), feature_width("emd", 1), feature_width("emd", 2)
    (2, 47, 46)
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}")
    if street not in (1, 2):
        raise ValueError(f"street must be 1 (flop) or 2 (turn), got {street!r}")
    return {"ehs": 1, "ehs2": 2, "emd": N_TURNS if street == 1 else N_RIVERS}[method]


def card_file_variant(variant: str) -> str:
    """The ``vcfr abstract --variant`` of the card file a game of ``variant`` plays on (the
    N-player ``limit`` game included): its own for a variant with swaps (clustered on them) or a
    bounty (buckets carry the hit bit), else Hold'em's.

    >>> card_file_variant("auction"), card_file_variant("limit"), card_file_variant("bounty")
    ('holdem', 'holdem', 'bounty')
    """
    rules = RULES_VARIANTS.get(variant)
    own = rules is not None and (rules.config_class.has_swaps or rules.config_class.has_bounty)
    return variant if own else "holdem"


@dataclass(frozen=True)
class CardAbstractionConfig:
    """How to build a card abstraction: buckets per street (preflop, flop, turn, river), method,
    seed, and the sample sizes used to fit centroids (clusters are then assigned to every class).

    >>> CardAbstractionConfig(buckets=(169, 200, 200, 200)).method
    'emd'
    >>> CardAbstractionConfig(buckets=(169, 0, 200, 200))
    Traceback (most recent call last):
    ...
    ValueError: buckets must be 4 counts in 1..65534 (preflop, flop, turn, river), got (169, 0, 200, 200)
    >>> CardAbstractionConfig(buckets=(170, 8, 8, 8))
    Traceback (most recent call last):
    ...
    ValueError: buckets: at most 169 preflop buckets (there are 169 preflop hand classes), got 170
    """

    buckets: tuple[int, int, int, int] = (169, 200, 200, 200)
    method: str = "emd"
    variant: str = "holdem"
    seed: int = 0
    training_flops: int = 48
    """Random flops whose hands train the turn and river centroids."""
    turn_training_points: int = 60_000
    """(hand, turn card) pairs whose features fit the turn centroids (rounded up to a whole number per flop)."""
    river_training_points: int = 100_000
    """(hand, runout) pairs whose strengths fit the river centroids (rounded up likewise)."""
    flop_training_points: int = 60_000
    """Flop classes, drawn from those the build reached, whose features fit the flop centroids."""
    iterations: int = 20
    """Lloyd iterations per street."""
    flop_swap_probability: float | None = None
    """Swap only: chance each hole card is replaced when the flop is dealt (None: the rules'
    default, `game.rules.swap.SwapConfig`; stored resolved, 0.0 for the other variants)."""
    turn_swap_probability: float | None = None
    """Swap only: chance each hole card is replaced when the turn is dealt (as above)."""

    def __post_init__(self) -> None:
        buckets = tuple(self.buckets)
        if len(buckets) != 4 or any(not isinstance(b, (int, np.integer)) or not 1 <= b <= MAX_BUCKETS for b in buckets):
            raise ValueError(
                f"buckets must be 4 counts in 1..{MAX_BUCKETS} (preflop, flop, turn, river), got {self.buckets!r}"
            )
        object.__setattr__(self, "buckets", tuple(int(b) for b in buckets))
        if self.buckets[0] > PREFLOP_CLASSES:
            raise ValueError(
                f"buckets: at most {PREFLOP_CLASSES} preflop buckets (there are {PREFLOP_CLASSES} preflop "
                f"hand classes), got {self.buckets[0]}"
            )
        for street, count, points in zip(
            ("flop", "turn", "river"),
            self.buckets[1:],
            (self.flop_training_points, self.turn_training_points, self.river_training_points),
            strict=True,
        ):
            if count > points:
                raise ValueError(
                    f"buckets: at most {points:,} {street} buckets (k-means fits them on "
                    f"{street}_training_points = {points:,} hands), got {count:,}"
                )
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {sorted(METHODS)}, got {self.method!r}")
        if self.variant not in RULES_VARIANTS:
            raise ValueError(f"variant must be one of {tuple(RULES_VARIANTS)}, got {self.variant!r}")
        for name in (
            "training_flops",
            "turn_training_points",
            "river_training_points",
            "flop_training_points",
            "iterations",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)!r}")
        for name in ("flop_swap_probability", "turn_swap_probability"):
            value = getattr(self, name)
            if not self.has_swaps:
                if value not in (None, 0, 0.0) or isinstance(value, bool):
                    swapping = ", ".join(repr(n) for n, v in RULES_VARIANTS.items() if v.config_class.has_swaps)
                    raise ValueError(
                        f"{name} is a rule of variants with swaps ({swapping}); variant {self.variant!r} has none, "
                        f"got {value!r}"
                    )
                object.__setattr__(self, name, 0.0)
                continue
            if value is None:
                value = getattr(RULES_VARIANTS[self.variant].config_class, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
            object.__setattr__(self, name, float(value))

    @property
    def has_swaps(self) -> bool:
        """Whether the variant swaps hole cards (its rules config's ``has_swaps``): the swap probabilities apply."""
        return RULES_VARIANTS[self.variant].config_class.has_swaps

    @property
    def future(self) -> FutureModel:
        """What chance does to a preflop hand under this config (Swap's swaps; plain otherwise).

        >>> CardAbstractionConfig(variant="swap", turn_swap_probability=0.2).future
        FutureModel(swap_flop=0.1, swap_turn=0.2, run_cards=False, extra_hole_cards=0, opponent_cards=2)
        """
        return FutureModel(
            swap_flop=float(self.flop_swap_probability or 0.0), swap_turn=float(self.turn_swap_probability or 0.0)
        )


def canonical_flops() -> np.ndarray:
    """One flop per suit-isomorphism class: int8 (1755, 3)."""
    flops = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int8)
    classes = HandIndexer((3,)).index_batch(flops)
    _, first = np.unique(classes, return_index=True)
    return flops[np.sort(first)]


@dataclass(frozen=True)
class CardAbstraction:
    """Built bucket tables; `bucket` maps real cards to a bucket, `save`/`load` use HDF5."""

    config: CardAbstractionConfig
    preflop_table: np.ndarray
    flop_table: np.ndarray
    turn_table: np.ndarray
    river_centroids: np.ndarray
    flop_centroids: np.ndarray
    turn_centroids: np.ndarray

    def n_buckets(self, street: int) -> int:
        """Buckets on ``street`` (0 preflop, 3 flop, 4 turn, >= 5 river/run), doubled for Bounty."""
        index = {0: 0, 3: 1, 4: 2}.get(street, 3 if street >= 5 else -1)
        if index < 0:
            raise ValueError(f"no street {street!r}: streets are 0, 3, 4, 5, 6, ...")
        return self.config.buckets[index] * (2 if self.bounty else 1)

    @property
    def bounty(self) -> bool:
        """Whether buckets carry Bounty's hit bit (a card file of a variant with a bounty: buckets doubled)."""
        return RULES_VARIANTS[self.config.variant].config_class.has_bounty

    def kernel_arguments(self) -> tuple:
        """The arrays `abstraction.cards.kernels_buckets.card_bucket` takes after ``cards, n_hole`` (minus scratch)."""
        indexer = holdem_indexer()
        rounds, preflop_keys, preflop_offsets = indexer.kernel_tables(1)
        _, flop_keys, flop_offsets = indexer.kernel_tables(2)
        _, turn_keys, turn_offsets = indexer.kernel_tables(3)
        return (
            rounds,
            preflop_keys,
            preflop_offsets,
            flop_keys,
            flop_offsets,
            turn_keys,
            turn_offsets,
            self.preflop_table,
            self.flop_table,
            self.turn_table,
            self.river_centroids,
        )

    def bucket(self, hole: CardsLike, board: CardsLike = (), bounty_rank: int | None = None) -> int:
        """Bucket of 2 hole cards (3 after winning the Auction, from the flop on) on a board of 0, 3,
        4 or 5..48 cards (Bounty: pass ``bounty_rank`` 0..12). The one bucket API: this is
        `BucketLookup.bucket` on this abstraction (`lookup`), with its one
        documented fallback for flops a partial build left out.

        >>> tiny = CardAbstraction.blank((169, 4, 4, 4))
        >>> tiny.bucket("AhAd") == tiny.bucket("AsAc"), tiny.bucket("AhAs", "2c7d9sJh4c"), tiny.bucket("3h2s", "Ac7d9sJh4c")
        (True, 3, 0)
        """
        return self.lookup.bucket(hole, board, bounty_rank)

    @functools.cached_property
    def lookup(self) -> BucketLookup:
        """The `BucketLookup` of this abstraction, built on first use."""
        return BucketLookup(self)

    @classmethod
    def blank(cls, buckets: tuple[int, int, int, int]) -> CardAbstraction:
        """Full-size tables with every flop and turn class in bucket 0, the identity preflop (169
        buckets) and river centroids spread evenly over [0, 1]: for speed tests and examples."""
        sizes = holdem_indexer().sizes
        if buckets[0] != sizes[0]:
            raise ValueError(
                f"a blank abstraction has the identity preflop table: buckets[0] must be {sizes[0]}, got {buckets!r}"
            )
        config = CardAbstractionConfig(buckets=buckets)
        return cls(
            config,
            np.arange(sizes[0], dtype=np.uint16),
            np.zeros(sizes[1], dtype=np.uint16),
            np.zeros(sizes[2], dtype=np.uint16),
            np.linspace(0.0, 1.0, buckets[3]),
            np.zeros((buckets[1], feature_width(config.method, 1))),
            np.zeros((buckets[2], feature_width(config.method, 2))),
        )

    def save(self, path: str | Path) -> None:
        """Write the HDF5 file described in the module docstring (temporary file, then rename)."""
        import h5py

        target = Path(path)
        handle, temporary = tempfile.mkstemp(suffix=".h5.tmp", dir=target.parent if str(target.parent) else ".")
        os.close(handle)
        try:
            with h5py.File(temporary, "w") as file:
                file.attrs["format"] = FILE_FORMAT
                file.attrs["format_version"] = FILE_VERSION
                file.attrs["config"] = json.dumps(asdict(self.config))
                file.attrs["cards_per_round"] = np.array(holdem_indexer().cards_per_round)
                for name in ("preflop_table", "flop_table", "turn_table"):
                    file.create_dataset(name, data=getattr(self, name), chunks=True, compression="lzf")
                for name in ("river_centroids", "flop_centroids", "turn_centroids"):
                    file.create_dataset(name, data=getattr(self, name))
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions
            os.replace(temporary, target)
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)

    @classmethod
    def load(cls, path: str | Path) -> CardAbstraction:
        """Read a file written by `save`; raises ValueError on another format or version."""
        import h5py

        with h5py.File(path, "r") as file:
            found_format = str(file.attrs.get("format", ""))
            found_version = int(file.attrs.get("format_version", -1))
            if found_format != FILE_FORMAT or found_version != FILE_VERSION:
                raise ValueError(
                    f"{str(path)!r} is not a {FILE_FORMAT} file of version {FILE_VERSION}: "
                    f"format {found_format!r}, version {found_version}"
                )
            raw = json.loads(file.attrs["config"])
            raw["buckets"] = tuple(raw["buckets"])
            for name in ("flop_swap_probability", "turn_swap_probability"):
                raw.setdefault(name, 0.0)  # files written before Swap futures were built: plain tables
            arrays = {
                name: file[name][...]
                for name in (
                    "preflop_table",
                    "flop_table",
                    "turn_table",
                    "river_centroids",
                    "flop_centroids",
                    "turn_centroids",
                )
            }
        return cls(CardAbstractionConfig(**raw), **arrays)


MAX_BOARD = 48
"""Longest board a hand can be bucketed on (52 cards minus 4 hole cards, as River of Blood's cap)."""
MAX_CARDS = 50
"""Most hole plus board cards: two cards must be left for an opponent's holding."""


def centroid_keys(centroids: np.ndarray, method: str) -> np.ndarray:
    """Equity key of each centroid (float64, increasing as the buckets): the mean of an EMD
    distribution, else the first feature (E[HS])."""
    centroids = np.asarray(centroids, dtype=np.float64)
    if centroids.ndim != 2 or centroids.shape[0] == 0:
        raise ValueError(f"centroids must be a non-empty 2-D array, got shape {centroids.shape}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {sorted(METHODS)}, got {method!r}")
    keys = centroids.mean(axis=1) if METHODS[method] == METHOD_EMD else centroids[:, 0]
    return np.ascontiguousarray(keys)


class BucketLookup:
    """Real cards to abstract buckets, the one function the deal samplers and the lookup bot share.

    `BucketLookup` wraps a `CardAbstraction` of any variant and gives the bucket of a hand:
    2 hole cards (3 in the Auction after winning the third card, from the flop on) on a board of 0,
    3, 4 or 5 cards, or longer (River of Blood run boards, bucketed like the river); Bounty
    abstractions take the player's bounty rank and add the hit bit (``2 * bucket + hit``).
    Preflop, flop and turn read the abstraction's tables, the river and run boards score the hand
    on the spot against the nearest river centroid (`abstraction.cards.kernels_buckets.card_bucket`).

    **Fallback** (the only one): a build restricted to a subset of flops
    (``build_card_abstraction(..., flops=...)``) leaves the other boards' flop and turn classes
    without a bucket; for those the lookup takes the hand's current strength against a uniform
    two-card opponent holding and maps it to the nearest centroid key of the street (buckets are
    numbered by increasing equity, so the fallback keeps the order, but it ignores potential). A
    full build never falls back. Solver and bot must bucket alike, so both go through this class
    (numba code calls `abstraction.cards.kernels_buckets.hand_bucket` with `kernel_arguments`).

    >>> from abstraction.cards.build import build_card_abstraction
    >>> small = dict(training_flops=2, turn_training_points=500, river_training_points=500,
    ...              flop_training_points=200, iterations=4)
    >>> abstraction = build_card_abstraction(CardAbstractionConfig(buckets=(4, 3, 3, 3), method="ehs", **small),
    ...                                      flops=canonical_flops()[:2])
    >>> lookup = BucketLookup(abstraction)
    >>> lookup.n_buckets
    (4, 3, 3, 3)
    >>> 0 <= lookup.bucket("AhAd", "Kc7s2d9h") < 3
    True
    >>> 0 <= lookup.bucket("AhAdQs", "Kc7s2d9h4d3h") < 3   # Auction's third card on a River of Blood board
    True
    >>> lookup.bucket("AhAd", "Kc")
    Traceback (most recent call last):
    ...
    ValueError: bucket needs 2 hole cards (3 from the flop on) and a board of 0, 3, 4 or 5..48 cards, all distinct, at most 50 in all; got 'Ah Ad' on 'Kc'
    >>> lookup.bucket("AhAd", bounty_rank=12)
    Traceback (most recent call last):
    ...
    ValueError: bounty_rank is for a Bounty card abstraction; this one is for 'holdem', got bounty_rank=12
    """

    @classmethod
    def of(cls, source: BucketLookup | CardAbstraction) -> BucketLookup:
        """``source`` itself if it is a lookup, else the lookup of the card abstraction ``source``."""
        if isinstance(source, BucketLookup):
            return source
        if isinstance(source, CardAbstraction):
            return cls(source)
        raise TypeError(f"lookup must be a BucketLookup or a CardAbstraction, got {source!r}")

    def __init__(self, abstraction: CardAbstraction) -> None:
        if not isinstance(abstraction, CardAbstraction):
            raise TypeError(f"abstraction must be a CardAbstraction, got {abstraction!r}")
        self.abstraction = abstraction
        method = abstraction.config.method
        self._arguments = (
            abstraction.kernel_arguments(),
            centroid_keys(abstraction.flop_centroids, method),
            centroid_keys(abstraction.turn_centroids, method),
        )
        self._scratch = np.zeros((5, 4), dtype=np.int64)
        self._card_scratch = np.empty(MAX_CARDS + 1, dtype=np.int8)

    @property
    def variant(self) -> str:
        """The card abstraction's variant (``abstraction.config.variant``)."""
        return self.abstraction.config.variant

    @property
    def bounty(self) -> bool:
        """Whether buckets carry Bounty's hit bit (`CardAbstraction.bounty`)."""
        return self.abstraction.bounty

    @property
    def n_buckets(self) -> tuple[int, int, int, int]:
        """Buckets on preflop, flop, turn and river (run boards as the river); doubled for Bounty."""
        return tuple(self.abstraction.n_buckets(street) for street in (0, 3, 4, 5))  # type: ignore[return-value]

    def kernel_arguments(self) -> tuple:
        """What `abstraction.cards.kernels_buckets.hand_bucket` takes after ``cards, n_hole, bounty_rank``
        (minus scratch): the card abstraction's kernel tables (one tuple of arrays), then the flop and
        turn centroid keys of the fallback."""
        return self._arguments

    def bucket(self, hole: CardsLike, board: CardsLike = (), bounty_rank: int | None = None) -> int:
        """Bucket of 2 hole cards (3 from the flop on: Auction) on a board of 0, 3, 4 or 5..48 cards
        (text or card ints); a Bounty abstraction needs the player's ``bounty_rank`` 0..12."""
        hole_cards = parse_cards(hole) if isinstance(hole, str) else np.asarray(hole, dtype=np.int64).reshape(-1)
        board_cards = parse_cards(board) if isinstance(board, str) else np.asarray(board, dtype=np.int64).reshape(-1)
        cards = np.concatenate([hole_cards, board_cards]).astype(np.int64)
        n_hole, n_board = hole_cards.size, board_cards.size
        if (
            not (n_hole == 2 or (n_hole == 3 and n_board >= 3))
            or n_board in (1, 2)
            or n_board > MAX_BOARD
            or cards.size > MAX_CARDS
            or ((cards < 0) | (cards > 51)).any()
            or len(set(cards.tolist())) != cards.size
        ):
            raise ValueError(
                f"bucket needs 2 hole cards (3 from the flop on) and a board of 0, 3, 4 or 5..{MAX_BOARD} cards, "
                f"all distinct, at most {MAX_CARDS} in all; got {_describe(hole_cards)!r} on {_describe(board_cards)!r}"
            )
        if not self.bounty and bounty_rank is not None:
            raise ValueError(
                f"bounty_rank is for a Bounty card abstraction; this one is for {self.variant!r}, got bounty_rank={bounty_rank!r}"
            )
        if self.bounty and (
            isinstance(bounty_rank, bool)
            or not isinstance(bounty_rank, (int, np.integer))
            or not 0 <= bounty_rank < N_RANKS
        ):
            raise ValueError(f"a Bounty card abstraction needs bounty_rank 0..12 (deuce..ace), got {bounty_rank!r}")
        return self.bucket_unchecked(cards.astype(np.int8), n_hole, -1 if bounty_rank is None else int(bounty_rank))

    def bucket_unchecked(self, cards: np.ndarray, n_hole: int = 2, bounty_rank: int = -1) -> int:
        """Bucket of int8 ``cards`` = ``n_hole`` hole cards then the board, as `bucket` would check them
        (not checked: hot path); ``bounty_rank`` -1 for a plain abstraction."""
        return int(hand_bucket(cards, n_hole, bounty_rank, *self._arguments, self._scratch, self._card_scratch))

    def buckets_unchecked(self, cards: np.ndarray, n_hole: int, bounty_ranks: np.ndarray) -> np.ndarray:
        """`bucket_unchecked` of each row of int8 ``cards`` ``[K, n]`` (hole cards then board) with its
        int64 ``bounty_ranks[k]`` (-1 for a plain abstraction), in one kernel call: int64 ``[K]``."""
        out = np.empty(cards.shape[0], dtype=np.int64)
        _hand_buckets(cards, n_hole, bounty_ranks, *self._arguments, self._scratch, self._card_scratch, out)
        return out


def _describe(cards: np.ndarray) -> str:
    try:
        return format_cards(cards)
    except ValueError:
        return str(cards.tolist())

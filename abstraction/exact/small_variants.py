"""Exact small versions of the heads-up variants: short deck, small stacks, every legal action in the tree.

`build_small_variant_game(variant, deck=..., rules=..., bets=...)` is the abstract game of the
real machinery (`abstraction.bets.betting_tree.build_betting_tree` on the variant's rules config and
its hooks) with a `DealTable` listing every chance outcome of the short-deck game with its exact
probability, so that the abstract game *is* the real game on that deck. The variant's default deck
and small rules are its hooks' (`abstraction.hooks.holdem.HoldemHooks.small_deck`, ``small_rules``);
what a deal holds follows the rules config's feature flags (``has_swaps``, ``has_auction``,
``has_run_cards``, ``has_bounty``; none: Hold'em's deal), never the variant's name, so a registered
variant with one of these deals gets its small game from its rules and hooks alone:

- Betting: stack 4 chips, blinds 1/2 (the start pot is 3 chips). Every raise is then all-in, so
  the bet abstraction ``"a"`` (all-in, no cap) holds every legal raise, and the Auction's bids
  ``0.25p,a`` every legal bid (the pot at the auction is 4, bids are 0..2). `build_small_variant`
  checks this by walking the rules engine along the tree: every legal action at every node (each
  raise-to and bid amount in its bounds) must be a child, else ValueError (the 2025 Bounty engine's
  fold where checking is free included).
- Chance: every deal of the short deck, in the engine's deal order (hole cards of seat 0, seat 1,
  flop, [Swap: flop swaps], [Auction: a candidate third card per seat], turn, [Swap: turn swaps],
  river, [River of Blood: run cards]), plus Bounty's two bounty ranks (uniform over the 13 ranks
  and independent, as the rules: ranks the deck does not hold never hit and form one class).
- Buckets: a player's bucket in a slot is the dense index of their exact view there: own hole
  cards, the public cards street by street, Swap's own dead and new cards per swap street, the
  Auction's own third card in the three-card slots, River of Blood's run cards, Bounty's own
  bounty rank. So the card abstraction is lossless.
- Symmetry: when no suit of the deck holds 5 cards no flush is possible, and cards of one rank
  (River of Blood: of one rank and colour, which decides the runs) are interchangeable: swapping
  two of them maps the game onto itself. Deals are then enumerated over card *types* (multisets
  per group, with their multivariate hypergeometric probabilities), which is lossless; pass
  ``merge_types=False`` to enumerate raw cards (a test checks both give the same game values).
  Deals with equal (buckets, outcome weights, chance) rows are merged (probabilities summed).
- Outcomes: showdown weights from `game.cards.evaluator.evaluate_batch` exactly as each variant decides
  (Swap: the hands after swaps; Auction: each third-card holding; River of Blood: every run
  length's board; Bounty: the hit pattern with the board dealt at each fold street and at showdown).

The small versions (default decks; ``python experiments/small_variants_exactness.py`` reports sizes):

=============== ========================================= ===========================================
variant         deck                                      what differs from the full rules
=============== ========================================= ===========================================
holdem          J Q K A in c d h (12 cards)               stack 4 (blinds 1/2 kept)
bounty          Q K A in c d h s (12 cards)               stack 4; bounty ranks uniform over 13 ranks
                                                          (10 absent ranks never hit), 1.5 x + 10 kept
auction         Q K A in c d h s (12 cards)               stack 4
river_of_blood  K A in c d h s, Qd Qs (10 cards)          stack 4, board capped at 6 cards (1 run):
                                                          ``max_board_cards = 6`` in the real rules too
swap            Q K A in c d h s, Jc (13 cards)           stack 4; ``flop_swap_probability = 1``,
                                                          ``turn_swap_probability = 0``
=============== ========================================= ===========================================

Swap is the one variant whose real chance cannot be enumerated small: every hole card may be
swapped on the flop and on the turn, so the real rules need 17 cards (9 + 8 replacements), and a
17-card deck has a suit of 5 (flushes, so no type symmetry): billions of deals. The small version
keeps the swap machinery (replacement cards from the undealt deck, dead cards, each player seeing
only their own swaps) with the smallest deck that allows it, 13 cards (4 replacements), and
deterministic flop swaps: ``SwapConfig(flop_swap_probability=1.0, turn_swap_probability=0.0)``, a
real Swap config played by the unchanged engine (19,335 deals). The document's flop probability is
buildable too, ``config_fields={"flop_swap_probability": 0.1}``: 1,336,770 raw and 297,594 merged
deals (each flip pattern and replacement card is a deal), too big for the test budget.

>>> small = build_small_variant("holdem")
>>> small.game.deals.n_deals, small.game.tree.n_nodes, small.game.deals.n_buckets.tolist()
(9408, 34, [10, 172, 604, 1980])
>>> small.config.stack, small.bets
(4, 'a')
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np

from abstraction.bets.bet_abstraction import BetAbstraction
from abstraction.bets.betting_tree import build_betting_tree
from abstraction.hooks import tree_hooks
from abstraction.tree import CHANCE, DECISION, DealTable, FlatTree, SolverGame
from game.cards.deck import N_RANKS, format_cards, parse_cards
from game.cards.evaluator import evaluate_batch
from game.rules.actions import Action, ActionKind
from game.rules.chance import ScriptedChance
from game.rules.nolimit import NoLimitConfig, NoLimitRound
from game.rules.variants import get_variant

__all__ = ["SmallDeal", "SmallVariant", "build_small_variant", "build_small_variant_game", "default_deck"]

DEFAULT_STACK = 4
DEFAULT_BETS = "a"
DEFAULT_BIDS = "0.25p,a"
DEFAULT_MAX_RUNS = 1
ABSENT = -1
_RED_SUITS = (1, 2)


# ---------------------------------------------------------------------- card types
@dataclass(frozen=True)
class _Types:
    """The deck's card types: ``cards[t]`` its cards (sorted), ``rank[t]``, ``red[t]``."""

    cards: tuple[tuple[int, ...], ...]
    rank: np.ndarray
    red: np.ndarray

    @property
    def count(self) -> np.ndarray:
        return np.array([len(c) for c in self.cards], dtype=np.int64)

    @property
    def n(self) -> int:
        return len(self.cards)

    def of_card(self) -> dict[int, int]:
        return {card: t for t, cards in enumerate(self.cards) for card in cards}


def _types(deck: Sequence[int], by_colour: bool, merge: bool | None) -> tuple[_Types, bool]:
    """Card types of ``deck``: by rank (``by_colour``, where colours decide run cards: rank and colour) when no
    suit holds 5 cards, else single cards."""
    suits = np.bincount(np.asarray(deck) & 3, minlength=4)
    lossless = bool(suits.max() < 5)
    if merge is None:
        merge = lossless
    if merge and not lossless:
        raise ValueError(
            f"merge_types needs a deck with no flush (at most 4 cards per suit), got suit counts {suits.tolist()}"
        )

    def key(card: int) -> tuple[int, ...]:
        if not merge:
            return (card,)
        return (card >> 2, int((card & 3) in _RED_SUITS)) if by_colour else (card >> 2,)

    groups: dict[tuple[int, ...], list[int]] = {}
    for card in sorted(deck):
        groups.setdefault(key(card), []).append(card)
    cards = tuple(tuple(groups[k]) for k in sorted(groups))
    rank = np.array([c[0] >> 2 for c in cards], dtype=np.int64)
    red = np.array([int((c[0] & 3) in _RED_SUITS) for c in cards], dtype=np.int64)
    return _Types(cards, rank, red), bool(merge)


# ---------------------------------------------------------------------- the enumeration
class _Enumeration:
    """Rows of chance outcomes built step by step: ``cols[name]`` int64 arrays (a type, -1 for none,
    a flip 0/1 or a rank class), ``prob`` float64, ``used`` [n, T] cards of each type dealt."""

    def __init__(self, types: _Types) -> None:
        self.types = types
        self.count = types.count
        self.total = int(self.count.sum())
        self.prob = np.ones(1)
        self.used = np.zeros((1, types.n), dtype=np.int64)
        self.cols: dict[str, np.ndarray] = {}
        top = int(self.count.max()) + 1
        self._comb = np.array([[comb(a, b) for b in range(top)] for a in range(top)], dtype=np.float64)

    def _expand(self, row: np.ndarray, factor: np.ndarray) -> None:
        self.prob = self.prob[row] * factor
        self.used = self.used[row]
        self.cols = {name: col[row] for name, col in self.cols.items()}

    def draw(self, names: Sequence[str]) -> None:
        """An unordered group of ``len(names)`` cards; ``names`` get its types in increasing order."""
        k = len(names)
        multisets = [m for m in itertools.combinations_with_replacement(range(self.types.n), k)]
        vectors = np.zeros((len(multisets), self.types.n), dtype=np.int64)
        for i, m in enumerate(multisets):
            for t in m:
                vectors[i, t] += 1
        avail = self.count[None, :] - self.used
        feasible = (vectors[None, :, :] <= avail[:, None, :]).all(axis=2)
        row, pick = np.nonzero(feasible)
        ways = self._comb[avail[row], vectors[pick]].prod(axis=1)
        left = self.total - self.used.sum(axis=1)[row]
        factor = ways / np.array([comb(int(n), k) for n in range(self.total + 1)])[left]
        self._expand(row, factor)
        self.used = self.used + vectors[pick]
        table = np.array(multisets, dtype=np.int64).reshape(len(multisets), k)
        for j, name in enumerate(names):
            self.cols[name] = table[pick, j]

    def draw_if(self, name: str, flag: str) -> None:
        """One card where column ``flag`` is 1, else -1."""
        yes = self.cols[flag] == 1
        avail = self.count[None, :] - self.used
        left = self.total - self.used.sum(axis=1)
        rows, types, factors = (
            [np.flatnonzero(~yes)],
            [np.full(int((~yes).sum()), ABSENT)],
            [np.ones(int((~yes).sum()))],
        )
        for t in range(self.types.n):
            ok = np.flatnonzero(yes & (avail[:, t] > 0))
            rows.append(ok)
            types.append(np.full(len(ok), t))
            factors.append(avail[ok, t] / left[ok])
        row, drawn = np.concatenate(rows), np.concatenate(types)
        self._expand(row, np.concatenate(factors))
        hit = drawn >= 0
        self.used[np.flatnonzero(hit), drawn[hit]] += 1
        self.cols[name] = drawn

    def choice(self, name: str, probabilities: Sequence[float]) -> None:
        """An independent outcome 0..len-1 with these probabilities (zero-probability outcomes dropped)."""
        outcomes = [i for i, p in enumerate(probabilities) if p > 0]
        n = len(self.prob)
        row = np.tile(np.arange(n), len(outcomes))
        value = np.repeat(np.array(outcomes, dtype=np.int64), n)
        self._expand(row, np.array(probabilities, dtype=np.float64)[value])
        self.cols[name] = value


def _layout(config: NoLimitConfig, runs: int) -> list[tuple]:
    """The chance steps of a deal in the engine's order: ``("draw", names)``, ``("flip", name, p)``,
    ``("draw_if", name, flag)``, ``("bounty", name)``."""
    swap = config.has_swaps
    steps: list[tuple] = []
    if swap:
        steps += [("draw", ("h0",)), ("draw", ("h1",)), ("draw", ("h2",)), ("draw", ("h3",))]
    else:
        steps += [("draw", ("h0", "h1")), ("draw", ("h2", "h3"))]
    steps.append(("draw", ("f0", "f1", "f2")))
    if swap:
        for i in range(4):
            steps += [("flip", f"x{i}", float(config.flop_swap_probability)), ("draw_if", f"r{i}", f"x{i}")]  # type: ignore[attr-defined]
    if config.has_auction:
        steps += [("draw", ("a0",)), ("draw", ("a1",))]
    steps.append(("draw", ("turn",)))
    if swap:
        for i in range(4):
            steps += [("flip", f"y{i}", float(config.turn_swap_probability)), ("draw_if", f"s{i}", f"y{i}")]  # type: ignore[attr-defined]
    steps.append(("draw", ("river",)))
    steps += [("draw", (f"run{k}",)) for k in range(runs)]
    if config.has_bounty:
        steps += [("bounty", "b0"), ("bounty", "b1")]
    return steps


def _bounty_classes(types: _Types) -> tuple[np.ndarray, list[float]]:
    """Bounty rank classes: each deck rank (increasing), then every rank the deck lacks as one class
    (rank -1, never hits); their probabilities under ranks uniform over 0..12."""
    ranks = sorted(set(types.rank.tolist()))
    probabilities = [1 / N_RANKS] * len(ranks)
    if len(ranks) < N_RANKS:
        ranks.append(ABSENT)
        probabilities.append((N_RANKS - len(ranks) + 1) / N_RANKS)
    return np.array(ranks, dtype=np.int64), probabilities


# ---------------------------------------------------------------------- rows of the deal table from type columns
def _hands(cols: Mapping[str, np.ndarray], swap: bool) -> tuple[list[np.ndarray], dict]:
    """Hole types by position (h0..h3: seat 0 first, second; seat 1 first, second) at each swap stage."""
    initial = [cols[f"h{i}"] for i in range(4)]
    stages = {"initial": initial}
    if swap:
        flop = [np.where(cols[f"x{i}"] == 1, cols[f"r{i}"], initial[i]) for i in range(4)]
        turn = [np.where(cols[f"y{i}"] == 1, cols[f"s{i}"], flop[i]) for i in range(4)]
        stages.update(flop=flop, turn=turn)
    return initial, stages


def _counts(n_types: int, *columns: np.ndarray) -> np.ndarray:
    """[n, T] counts of types among ``columns`` (-1 ignored)."""
    n = len(columns[0])
    out = np.zeros((n, n_types), dtype=np.int64)
    for col in columns:
        ok = col >= 0
        np.add.at(out, (np.flatnonzero(ok), col[ok]), 1)
    return out


def _views(config: NoLimitConfig, cols: Mapping[str, np.ndarray], n_types: int, runs: int) -> list[list[np.ndarray]]:
    """``views[slot][seat]``: int64 [n, F] features of the seat's exact view in the slot (type counts per group)."""
    swap = config.has_swaps
    _, stages = _hands(cols, swap)
    out: list[list[np.ndarray]] = []
    board_groups = [(cols["f0"], cols["f1"], cols["f2"]), (cols["turn"],), (cols["river"],)]
    board_groups += [(cols[f"run{k}"],) for k in range(runs)]
    seat_parts: list[list[list[np.ndarray]]] = [[], []]  # per seat, the groups revealed by each street
    for seat in (0, 1):
        pos = (2 * seat, 2 * seat + 1)
        hole = _counts(n_types, *(stages["initial"][p] for p in pos))
        extra = [np.full((len(hole), 1), 0)]
        if config.has_bounty:
            extra = [cols[f"b{seat}"][:, None]]
        parts = [[hole, *extra]]
        for street, group in enumerate(board_groups):
            groups = [_counts(n_types, *group)]
            if swap and street < 2:
                before = stages["initial"] if street == 0 else stages["flop"]
                flag, new = ("x", "r") if street == 0 else ("y", "s")
                dead = [np.where(cols[f"{flag}{p}"] == 1, before[p], ABSENT) for p in pos]
                added = [cols[f"{new}{p}"] for p in pos]
                groups += [_counts(n_types, *dead), _counts(n_types, *added)]
            parts.append(groups)
        seat_parts[seat] = parts
    n_slots = 4 + (3 if config.has_auction else 0) + runs
    for slot in range(n_slots):
        per_seat = []
        for seat in (0, 1):
            parts = seat_parts[seat]
            if config.has_auction and slot >= 4:
                street = slot - 3
                third = _counts(n_types, cols[f"a{seat}"])
                groups = [g for p in parts[: street + 1] for g in p] + [third]
            else:
                groups = [g for p in parts[: slot + 1] for g in p]  # run street k (slot 3 + k): run cards 1..k
            per_seat.append(np.concatenate(groups, axis=1))
        out.append(per_seat)
    return out


def _representatives(types: _Types, cols: Mapping[str, np.ndarray], order: Sequence[str]) -> dict[str, np.ndarray]:
    """A card per type column: the next unused card of its type, in ``order``."""
    n = len(cols[order[0]])
    taken = np.zeros((n, types.n), dtype=np.int64)
    table = np.full((types.n, int(types.count.max())), -1, dtype=np.int64)
    for t, cards in enumerate(types.cards):
        table[t, : len(cards)] = cards
    out = {}
    for name in order:
        col = cols[name]
        ok = np.flatnonzero(col >= 0)
        card = np.full(n, -1, dtype=np.int64)
        card[ok] = table[col[ok], taken[ok, col[ok]]]
        taken[ok, col[ok]] += 1
        out[name] = card
    return out


def _outcome(hand_a: np.ndarray, hand_b: np.ndarray, board: np.ndarray) -> np.ndarray:
    """0 seat 0 wins, 1 tie, 2 seat 1 wins; hands and board are card arrays [n, k]."""
    a = evaluate_batch(np.concatenate([hand_a, board], axis=1), check=False)
    b = evaluate_batch(np.concatenate([hand_b, board], axis=1), check=False)
    return np.where(a > b, 0, np.where(a == b, 1, 2))


def _weights_and_chance(
    config: NoLimitConfig,
    cards: Mapping[str, np.ndarray],
    cols: Mapping[str, np.ndarray],
    types: _Types,
    classes: np.ndarray,
    runs: int,
    tree: FlatTree,
) -> tuple[np.ndarray, np.ndarray]:
    """Outcome weights [n, W] (one-hot per context) and chance children [n, K] of each row."""
    n = len(cards["h0"])
    stack = lambda *names: np.stack([cards[name] for name in names], axis=1)  # noqa: E731
    board = stack("f0", "f1", "f2", "turn", "river", *[f"run{k}" for k in range(runs)])
    weight = np.zeros((n, tree.weight_columns))
    offset = tree.context_offset
    rows = np.arange(n)
    chance = np.zeros((n, tree.n_chance_slots), dtype=np.int8)
    if config.has_swaps:
        final = [
            np.where(cols[f"y{i}"] == 1, cards[f"s{i}"], np.where(cols[f"x{i}"] == 1, cards[f"r{i}"], cards[f"h{i}"]))
            for i in range(4)
        ]
        weight[rows, _outcome(np.stack(final[:2], 1), np.stack(final[2:], 1), board)] = 1.0
        return weight, chance
    holes = [stack("h0", "h1"), stack("h2", "h3")]
    if config.has_auction:
        three = [np.concatenate([holes[s], cards[f"a{s}"][:, None]], axis=1) for s in (0, 1)]
        for context, (a, b) in enumerate(
            [(three[0], holes[1]), (holes[0], three[1]), (three[0], three[1]), (holes[0], holes[1])]
        ):
            weight[rows, offset[context] + _outcome(a, b, board)] = 1.0
    elif config.has_run_cards:
        for c in range(runs + 1):
            weight[rows, offset[c] + _outcome(holes[0], holes[1], board[:, : 5 + c])] = 1.0
        for j in range(runs):
            chance[:, j] = ((board[:, 4 + j] & 3) == 1) | ((board[:, 4 + j] & 3) == 2)
    elif config.has_bounty:
        rank = [classes[cols[f"b{s}"]] for s in (0, 1)]

        def hits(n_board: int) -> np.ndarray:
            seen = [np.concatenate([holes[s], board[:, :n_board]], axis=1) >> 2 for s in (0, 1)]
            hit = [(seen[s] == rank[s][:, None]).any(axis=1) & (rank[s] >= 0) for s in (0, 1)]
            return hit[0].astype(np.int64) + 2 * hit[1].astype(np.int64)

        for street, n_board in enumerate((0, 3, 4, 5)):
            weight[rows, offset[street] + hits(n_board)] = 1.0
        weight[rows, offset[4] + 4 * _outcome(holes[0], holes[1], board) + hits(5)] = 1.0
    else:
        weight[rows, _outcome(holes[0], holes[1], board)] = 1.0
    return weight, chance


# ---------------------------------------------------------------------- one concrete deal
@dataclass(frozen=True)
class SmallDeal:
    """One concrete deal of the short deck as the engine deals it (card ints).

    ``hole``: seat 0's and seat 1's cards in deal order; ``board``: 5 cards (River of Blood 5 + R);
    ``swaps``: Swap's 8 flips (flop: seat 0 first, second, seat 1 first, second; then the turn's)
    and ``replacements``: the card each flip that happened brings, in order; ``thirds``: the
    Auction's candidate third card of each seat; ``ranks``: Bounty's ranks 0..12 by seat.
    """

    hole: tuple[tuple[int, int], tuple[int, int]]
    board: tuple[int, ...]
    swaps: tuple[bool, ...] = ()
    replacements: tuple[int, ...] = ()
    thirds: tuple[int, ...] = ()
    ranks: tuple[int, int] = (0, 0)

    def scripted_chance(self, config: NoLimitConfig, thirds_dealt: Sequence[int] = ()) -> ScriptedChance:
        """The deal in the engine's deal order for the rules ``config``; ``thirds_dealt``: the seats whose
        third card the Auction deals on the path played (the winner, or 0 then 1 on a tie)."""
        deck = [*self.hole[0], *self.hole[1], *self.board[:3]]
        if config.has_swaps:
            flop_swaps = sum(self.swaps[:4])
            deck += [*self.replacements[:flop_swaps], self.board[3], *self.replacements[flop_swaps:], self.board[4]]
            return ScriptedChance(deck, {"swap": list(self.swaps)})
        if config.has_auction:
            deck += [self.thirds[seat] for seat in thirds_dealt]
        return ScriptedChance(deck + list(self.board[3:]))


# ---------------------------------------------------------------------- the game
@dataclass(frozen=True, eq=False)
class SmallVariant:
    """A small exact variant game: ``game`` (the `SolverGame`), ``config`` (the real rules it is exact
    for: `game.rules.variants.start_round(config, deal.scripted_chance(...))` plays it), ``deck`` (card
    ints), ``bets`` (the bet abstraction text), ``max_runs`` (River of Blood's R, else None),
    ``raw_deals`` (rows before merging), ``merge_types``."""

    variant: str
    game: SolverGame
    config: NoLimitConfig
    deck: tuple[int, ...]
    bets: str
    max_runs: int | None
    raw_deals: int
    merge_types: bool
    _types: _Types = field(repr=False)
    _classes: np.ndarray = field(repr=False)
    _view_index: tuple[dict[bytes, int], ...] = field(repr=False)
    _row_index: dict[bytes, int] = field(repr=False)

    @property
    def runs(self) -> int:
        return self.max_runs or 0

    @property
    def start_pot(self) -> int:
        return self.config.small_blind + self.config.big_blind

    def random_deal(self, rng: np.random.Generator) -> SmallDeal:
        """A deal of the short deck drawn by the real rules (a shuffled deck; swaps with the
        config's probabilities; bounty ranks uniform over 0..12)."""
        cards = [int(c) for c in rng.permutation(np.array(self.deck))]
        hole = ((cards[0], cards[1]), (cards[2], cards[3]))
        n_board = 5 + self.runs
        board, rest = tuple(cards[4 : 4 + n_board]), cards[4 + n_board :]
        swaps: tuple[bool, ...] = ()
        config = self.config
        if config.has_swaps:
            swaps = tuple(
                bool(rng.random() < p)
                for p in [config.flop_swap_probability] * 4  # type: ignore[attr-defined]
                + [config.turn_swap_probability] * 4
            )  # type: ignore[attr-defined]
        replacements = tuple(rest[: sum(swaps)])
        thirds = tuple(rest[:2]) if config.has_auction else ()
        ranks = tuple(int(r) for r in rng.integers(0, N_RANKS, size=2)) if config.has_bounty else (0, 0)
        return SmallDeal(hole, board, swaps, replacements, thirds, ranks)  # type: ignore[arg-type]

    def _columns(self, deal: SmallDeal) -> dict[str, np.ndarray]:
        of = self._types.of_card()
        cols: dict[str, int] = {}

        def group(names: Sequence[str], cards: Sequence[int]) -> None:
            for name, t in zip(names, sorted(of[c] for c in cards), strict=True):
                cols[name] = t

        if self.config.has_swaps:
            for i, card in enumerate([*deal.hole[0], *deal.hole[1]]):
                cols[f"h{i}"] = of[card]
            replacements = iter(deal.replacements)
            for i, happened in enumerate(deal.swaps):
                flag, new = ("x", "r") if i < 4 else ("y", "s")
                cols[f"{flag}{i % 4}"] = int(happened)
                cols[f"{new}{i % 4}"] = of[next(replacements)] if happened else ABSENT
        else:
            group(("h0", "h1"), deal.hole[0])
            group(("h2", "h3"), deal.hole[1])
        group(("f0", "f1", "f2"), deal.board[:3])
        cols["turn"], cols["river"] = of[deal.board[3]], of[deal.board[4]]
        for k in range(self.runs):
            cols[f"run{k}"] = of[deal.board[5 + k]]
        if self.config.has_auction:
            cols["a0"], cols["a1"] = of[deal.thirds[0]], of[deal.thirds[1]]
        if self.config.has_bounty:
            for s in (0, 1):
                rank = deal.ranks[s] if deal.ranks[s] in self._classes.tolist() else ABSENT
                cols[f"b{s}"] = self._classes.tolist().index(rank)
        return {name: np.array([value], dtype=np.int64) for name, value in cols.items()}

    def deal_row(self, deal: SmallDeal) -> int:
        """The `DealTable` row of a concrete deal (KeyError if the deal is not of this game)."""
        cols = self._columns(deal)
        views = _views(self.config, cols, self._types.n, self.runs)
        bucket = np.array(
            [[self._view_index[slot][views[slot][seat][0].tobytes()] for slot in range(len(views))] for seat in (0, 1)],
            dtype=np.int32,
        )
        cards = _representatives(self._types, cols, _order(self.config, self.runs))
        weight, chance = _weights_and_chance(
            self.config, cards, cols, self._types, self._classes, self.runs, self.game.tree
        )
        return self._row_index[_row_matrix(bucket[None], weight, chance)[0].tobytes()]


def _order(config: NoLimitConfig, runs: int) -> list[str]:
    names = ["h0", "h1", "h2", "h3", "f0", "f1", "f2"]
    if config.has_swaps:
        names += [f"r{i}" for i in range(4)]
    if config.has_auction:
        names += ["a0", "a1"]
    names.append("turn")
    if config.has_swaps:
        names += [f"s{i}" for i in range(4)]
    return names + ["river"] + [f"run{k}" for k in range(runs)]


def _dense_ids(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)`` of the distinct rows of a non-negative int matrix (as ``np.unique(axis=0)``,
    without its slow structured sort): columns packed into 62-bit words, then one lexsort."""
    n = len(matrix)
    widths = [max(1, int(column.max(initial=0)).bit_length()) for column in matrix.T]
    words, word, used = [], np.zeros(n, dtype=np.int64), 0
    for j, width in enumerate(widths):
        if used + width > 62:
            words.append(word)
            word, used = np.zeros(n, dtype=np.int64), 0
        word = word | (matrix[:, j].astype(np.int64) << np.int64(used))
        used += width
    words.append(word)
    order = np.lexsort(words[::-1])
    packed = np.stack(words, axis=1)[order]
    new = np.ones(n, dtype=bool)
    new[1:] = (packed[1:] != packed[:-1]).any(axis=1)
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return order[new], inverse


def _row_matrix(bucket: np.ndarray, weight: np.ndarray, chance: np.ndarray) -> np.ndarray:
    """int64 [n, F]: a deal row's buckets, outcome (one-hot) and chance children side by side (the merge key)."""
    return np.ascontiguousarray(
        np.concatenate(
            [
                bucket.reshape(len(bucket), -1).astype(np.int64),
                (weight > 0.5).astype(np.int64),
                chance.astype(np.int64),
            ],
            axis=1,
        )
    )


def default_deck(variant: str) -> str:
    """The default short deck of ``variant``'s small game: its hooks' ``small_deck`` (module docstring).

    >>> default_deck("river_of_blood")
    'Kc Kd Kh Ks Ac Ad Ah As Qd Qs'
    """
    return tree_hooks(variant).small_deck


def small_config(
    variant: str,
    rules: str | None = None,
    *,
    stack: int = DEFAULT_STACK,
    max_runs: int = DEFAULT_MAX_RUNS,
    **fields: Any,
) -> NoLimitConfig:
    """The real rules config of the small version (module docstring): stack, blinds 1/2, ``rules``, the
    variant's small rules (its hooks' `small_rules`: River of Blood's board capped at 5 + ``max_runs``,
    Swap's swap probabilities 1 and 0); ``fields`` override."""
    extra = tree_hooks(variant).small_rules(max_runs) | fields
    return get_variant(variant).config_class(stack=stack, rules=rules or "document", **extra)


def build_small_variant(
    variant: str,
    *,
    deck: str | None = None,
    rules: str | None = None,
    bets: str = DEFAULT_BETS,
    bids: str = DEFAULT_BIDS,
    stack: int = DEFAULT_STACK,
    max_runs: int = DEFAULT_MAX_RUNS,
    merge_types: bool | None = None,
    max_nodes: int | None = 100_000,
    config_fields: Mapping[str, Any] | None = None,
) -> SmallVariant:
    """The exact small game of ``variant`` (see the module docstring) with its helpers."""
    config = small_config(variant, rules, stack=stack, max_runs=max_runs, **dict(config_fields or {}))
    runs = max_runs if config.has_run_cards else 0
    deck_cards = tuple(int(c) for c in parse_cards(deck or default_deck(variant)))
    need = 9 + 2 * config.has_auction + runs
    if config.has_swaps:
        need += 4 * (config.flop_swap_probability > 0) + 4 * (config.turn_swap_probability > 0)  # type: ignore[attr-defined]
    if len(deck_cards) < need:
        raise ValueError(f"a small {variant} game needs a deck of at least {need} cards, got {len(deck_cards)}")
    types, merged = _types(deck_cards, config.has_run_cards, merge_types)
    enum = _Enumeration(types)
    classes, class_probabilities = _bounty_classes(types)
    for step in _layout(config, runs):
        if step[0] == "draw":
            enum.draw(step[1])
        elif step[0] == "flip":
            enum.choice(step[1], [1.0 - step[2], step[2]])
        elif step[0] == "draw_if":
            enum.draw_if(step[1], step[2])
        else:
            enum.choice(step[1], class_probabilities)
    cols = enum.cols
    views = _views(config, cols, types.n, runs)
    n_rows = len(enum.prob)
    bucket = np.empty((n_rows, 2, len(views)), dtype=np.int32)
    view_index = []
    for slot, (a, b) in enumerate(views):
        both = np.concatenate([a, b])
        first, inverse = _dense_ids(both)
        unique = both[first]
        bucket[:, 0, slot], bucket[:, 1, slot] = inverse[:n_rows], inverse[n_rows:]
        view_index.append({row.tobytes(): i for i, row in enumerate(unique)})
    n_buckets = np.array([len(v) for v in view_index], dtype=np.int32)
    bet_abstraction = BetAbstraction.parse(bets, bids=bids if config.has_auction else "")
    tree = build_betting_tree(
        config, bet_abstraction, n_buckets, max_nodes=max_nodes, max_runs=runs if config.has_run_cards else None
    )
    _check_actions(tree, config, bet_abstraction, runs)
    cards = _representatives(types, cols, _order(config, runs))
    weight, chance = _weights_and_chance(config, cards, cols, types, classes, runs, tree)
    flat = _row_matrix(bucket, weight, chance)
    first_rows, inverse = _dense_ids(flat)
    prob = np.bincount(inverse, weights=enum.prob, minlength=len(first_rows))
    row_index = {row.tobytes(): i for i, row in enumerate(flat[first_rows])}
    deals = DealTable(prob / prob.sum(), bucket[first_rows], weight[first_rows], chance[first_rows], n_buckets)
    if abs(prob.sum() - 1.0) > 1e-9:
        raise AssertionError(f"deal probabilities sum to {prob.sum()!r}")
    game_config = {
        "variant": variant,
        "deck": format_cards(deck_cards),
        "rules": dataclasses.asdict(config) | {"variant": variant},
        "bets": bets,
        "bids": bids,
        "max_runs": runs or None,
        "merge_types": merged,
    }
    game = SolverGame(name=f"small_{variant}", tree=tree, deals=deals, config=game_config)
    return SmallVariant(
        variant,
        game,
        config,
        deck_cards,
        bets,
        runs or None,
        n_rows,
        merged,
        types,
        classes,
        tuple(view_index),
        row_index,
    )


def build_small_variant_game(
    variant: str, *, deck: str | None = None, rules: str | None = None, bets: str = DEFAULT_BETS, **options: Any
) -> SolverGame:
    """The `SolverGame` of `build_small_variant` (same arguments)."""
    return build_small_variant(variant, deck=deck, rules=rules, bets=bets, **options).game


# ---------------------------------------------------------------------- every legal action is in the tree
def _legal_actions(round_: NoLimitRound) -> set[tuple[int, int]]:
    """Every legal action of the real round as ``(kind, amount)``."""
    legal = round_.legal_actions()
    out = set()
    for kind in legal:
        if kind is ActionKind.RAISE:
            low, high = round_.raise_bounds()
            out |= {(int(kind), amount) for amount in range(low, high + 1)}
        elif kind is ActionKind.BID:
            low, high = round_.bid_bounds()
            out |= {(int(kind), amount) for amount in range(low, high + 1)}
        else:
            out.add((int(kind), 0))
    return out


def _check_actions(tree: FlatTree, config: NoLimitConfig, bets: BetAbstraction, runs: int) -> None:
    """Walk the rules engine along ``tree``: ValueError unless every legal action at every decision is a
    child."""
    hooks = tree_hooks(config.variant)
    walk = hooks.start(hooks.walk_config(config, runs if config.has_run_cards else None))
    stack: list[tuple] = [(0, walk.root, (), None, None)]  # node, round, chance outcomes, (chance nodes) before, action
    while stack:
        node, round_, outcomes, before, dealing = stack.pop()
        start, count = int(tree.child_start[node]), int(tree.n_children[node])
        if tree.kind[node] == CHANCE:
            for k in range(count):
                after, _ = walk.apply(before, dealing, (*outcomes, k))
                stack.append((start + k, after, (*outcomes, k), before, dealing))
            continue
        if tree.kind[node] != DECISION:
            if not round_.is_terminal:
                raise AssertionError(f"tree terminal {node} ({tree.history(node)}) is no terminal of the engine")
            continue
        if round_.to_act != tree.player[node]:
            raise AssertionError(
                f"tree node {node} ({tree.history(node)}) has actor {tree.player[node]}, the engine {round_.to_act}"
            )
        children = {(int(tree.action_kind[c]), int(tree.action_amount[c])): c for c in range(start, start + count)}
        missing = _legal_actions(round_) - set(children)
        if missing:
            shown = ", ".join(str(Action(ActionKind(k), a)) for k, a in sorted(missing))
            raise ValueError(
                f"the bet abstraction {bets} leaves out legal actions at {tree.history(node)!r}: "
                f"{shown}; use a smaller stack or more sizes"
            )
        for key, child in children.items():
            action = Action(ActionKind(key[0]), key[1])
            after, _ = walk.apply(round_, action, outcomes)
            stack.append((child, after, outcomes, round_, action))

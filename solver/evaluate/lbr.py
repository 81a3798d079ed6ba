"""Local best response (Lisý & Bowling 2017, "Equilibrium approximation quality of current no-limit
poker bots"): a lower bound on how much a strategy file's average strategy can be exploited, for
games too big for an exact best response.

Method. The LBR player sits in seat ``s`` and plays hands against the strategy (the opponent
samples its actions from the strategy at its bucket of the real deal). Deals are fresh (a
heads-up variant's sampler) or rows of an exact game's table. At each LBR decision, its belief
over the opponent's private state is a set of candidate deals consistent with everything seat
``s`` has observed (its own cards on every street so far, the public cards, public chance and
the betting), each weighted by the opponent's reach probability: the product, over the
opponent's past decisions on the path, of the strategy's probability of the action taken, read
at the candidate's opponent bucket. Nodes seat ``s`` cannot tell apart (one information-set
group, e.g. the Auction's second sealed bid) all enter the belief, each with its own reach. For
each LBR action ``a`` the value is the expected NET chips of seat ``s`` assuming that the
opponent responds at the next decision by its strategy (from each candidate's bucket) if that
decision is the opponent's, and that after that every player takes the passive action (check or
call; at an Auction bid node the smallest bid) to the end, chance following the candidate's
deal; a fold's value is its terminal's row. LBR takes the best action; ties go to the more
passive one (check/call, then fold, then raises by size). The hand's actual payoff to seat ``s``
is recorded.

Candidates:

- exact games (Kuhn, Leduc: `abstraction.exact.exact_games`, whose buckets are the exact views, and
  whose table is the whole distribution): every table row whose seat-``s`` bucket equals the real
  deal's on every slot the seat has read at its decisions so far (:func:`seen_slots`: never a card
  dealt after the decision, nor an Auction third card the seat does not hold), weighted by the row's
  probability times the opponent's reach. The belief is then exact.
- heads-up variants (holdem, swap, bounty, auction, river_of_blood) with fresh chance: ``K``
  deals redrawn around seat ``s``'s view by `abstraction.chance.kernels_resample._resample_hidden` (its
  own hole cards on every street so far, the board and River of Blood run cards so far, its
  Auction third card once it holds it, its bounty rank kept; the opponent's hole cards, swaps,
  bounty rank and third card and all future cards redrawn), with buckets and outcomes exactly as
  the sampler computes them; redrawn once per street (and once more when the seat receives its
  Auction third card). A fixed-table abstract game is played with the fresh sampler of its
  config (same tree: the LBR plays the real game, not the table sample).

Opponents (reference lines for a blueprint's LBR): the same LBR (game, tree, candidates, seed, hand ``h`` =
deal ``h``) also plays ``"checkcall"`` (`game.play.bots.CheckCallBot` as a table: probability 1 on
check/call, the smallest bid at an Auction bid node) and ``"equity"`` (`game.play.bots.EquityBot`'s
rule evaluated on the exact cards of the real deal and of every candidate, raise sizes mapped onto
the nearest tree raise in chips; :class:`EquityRule`, kernels in `solver.evaluate.kernels_lbr_rule`). The
equity opponent is deterministic given its cards (its Monte Carlo equity is keyed by the cards),
so a candidate's reach is 0 or 1; it needs a heads-up hold'em variant (not Kuhn/Leduc, which have no
hold'em cards). In the Auction its bid is the bot's (equity with a third card minus equity if the
opponent gets it, times the pot) mapped to the nearest tree bid, and after the auction its equity
counts three hole cards for each seat that won or tied it.

The LBR strategy is a legal strategy of the game, so its expected winnings are at most the best
response value; the estimate is the mean of ``hands`` hands per seat, the same deals for both
seats (hand ``h`` is deal ``h`` of the run's seed), reported as ``1000 * chips / big blind``
averaged over the seats, with a 95% Student-t interval over the per-hand seat averages. Against
an exact equilibrium LBR wins nothing in expectation (it cannot beat the game value of each seat,
whose average is 0). Everything per hand runs in `solver.evaluate.kernels_lbr` (numba), and hand ``h``
depends only on ``(seed, h)``: any split of the hands into batches or threads gives identical
payoffs.

>>> from abstraction.exact.exact_games import build_game
>>> from solver.evaluate.exploitability import uniform_strategy
>>> game = build_game("kuhn")
>>> result = local_best_response(game, uniform_strategy(game), LBRConfig(hands=4000, seed=1))
>>> result.chance, result.hands, bool(0.2 < result.chips_per_hand < 0.6)  # exact BR: 0.458 chips
('exact', 4000, True)
"""

from __future__ import annotations

import functools
import inspect
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np

from abstraction.chance.fresh_chance import FreshChance, TableChance
from abstraction.tree import DECISION, DealTable, KernelTree, SolverGame
from game.dataclass_support import check_int, json_fields
from game.play.match import interval_95
from game.rules.actions import ActionKind
from game.rules.nolimit import FLOP, TURN
from solver.evaluate import kernels_lbr, kernels_lbr_rule

MAX_SEED = 2**64 - 1
PASSIVE_KINDS = (int(ActionKind.CHECK), int(ActionKind.CALL))
OPPONENTS = ("strategy", "equity", "checkcall")
"""Who LBR plays: the strategy table; `game.play.bots.EquityBot`'s rule on exact cards; `game.play.bots.CheckCallBot`."""


@dataclass(frozen=True)
class LBRConfig:
    """How to run LBR: ``hands`` per seat (>= 2), ``candidates`` K (deals in the belief of a
    fresh-chance game; exact games use every consistent table row), ``seed`` (0..2**64-1),
    ``batch`` hands per kernel call and ``workers`` threads (results do not depend on either).

    >>> LBRConfig(hands=1)
    Traceback (most recent call last):
    ...
    ValueError: hands must be an int >= 2, got 1
    """

    hands: int = 10_000
    candidates: int = 200
    seed: int = 0
    batch: int = 2_000
    workers: int = 1

    def __post_init__(self) -> None:
        for name, minimum in (("hands", 2), ("candidates", 1), ("batch", 1), ("workers", 1)):
            check_int(name, getattr(self, name), minimum)
        if (
            isinstance(self.seed, bool)
            or not isinstance(self.seed, (int, np.integer))
            or not 0 <= self.seed <= MAX_SEED
        ):
            raise ValueError(f"seed must be an int in 0..2**64-1, got {self.seed!r}")


@dataclass(frozen=True)
class LBRResult:
    """What LBR won against the strategy, per hand.

    ``mbb_per_hand`` = 1000 * ``chips_per_hand`` / ``big_blind``, the mean over both seats;
    ``ci95_mbb``/``ci95_chips``: half-width of its 95% interval (Student-t over the ``hands``
    per-hand seat averages); ``seat_chips``/``seat_ci95_chips``: per seat; ``hands``: per seat;
    ``candidates``: K (None for exact games); ``chance``: ``"exact"`` (table rows) or ``"fresh"``;
    ``unreached_decisions``: LBR decisions where no candidate had positive opponent reach (the
    prior alone was used; should be 0 or rare, else raise K); ``seconds``: wall clock.
    ``payoffs`` float64 [2, hands]: seat ``s``'s chips in hand ``h`` (not in :meth:`to_dict`).
    ``opponent``: one of :data:`OPPONENTS`; ``equity_rule``: the :class:`EquityRule` as a dict
    (opponent ``"equity"``), else None.
    """

    mbb_per_hand: float
    ci95_mbb: float
    chips_per_hand: float
    ci95_chips: float
    seat_chips: tuple[float, float]
    seat_ci95_chips: tuple[float, float]
    hands: int
    candidates: int | None
    seed: int
    big_blind: float
    chance: str
    unreached_decisions: int
    seconds: float
    payoffs: np.ndarray = field(repr=False, compare=False)
    opponent: str = "strategy"
    equity_rule: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict of every field but ``payoffs``."""
        return json_fields(self, exclude=("payoffs",))


def _equity_bot_default(name: str) -> Any:
    """The default of `game.play.bots.EquityBot`'s keyword ``name`` (one source for the rule's parameters)."""
    from game.play.bots import EquityBot

    return inspect.signature(EquityBot.__init__).parameters[name].default


@dataclass(frozen=True)
class EquityRule:
    """`game.play.bots.EquityBot`'s decision rule as an LBR opponent (opponent ``"equity"``).

    ``samples``: Monte Carlo deals per equity (one equity per seat, street and cards); ``raise_equity``
    and ``raise_pot_fraction`` as in `EquityBot`. Every default is `EquityBot`'s own, read from its
    signature. Values are checked by `EquityBot` itself.

    >>> from game.play.bots import EquityBot
    >>> EquityRule().samples == EquityBot().samples
    True
    >>> EquityRule(samples=0)
    Traceback (most recent call last):
    ...
    ValueError: samples must be >= 1 Monte Carlo deals, got 0
    """

    samples: int = _equity_bot_default("samples")
    raise_equity: float = _equity_bot_default("raise_equity")
    raise_pot_fraction: float = _equity_bot_default("raise_pot_fraction")

    def __post_init__(self) -> None:
        from game.play.bots import EquityBot

        EquityBot(samples=self.samples, raise_equity=self.raise_equity, raise_pot_fraction=self.raise_pot_fraction)

    def to_dict(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "raise_equity": self.raise_equity,
            "raise_pot_fraction": self.raise_pot_fraction,
        }


# --- tree and game preparation ------------------------------------------------------------------


def _preference_rank(passive_index: int, kinds: np.ndarray, amounts: np.ndarray, k: int) -> tuple[int, int, int]:
    """Sort key of action ``k`` of a node in LBR's order of preference: the passive action, fold,
    then raises and bids by increasing amount (chips)."""
    if k == passive_index:
        return (0, 0, k)
    if kinds[k] == int(ActionKind.FOLD):
        return (1, 0, k)
    return (2, int(amounts[k]), k)


class LbrTree(NamedTuple):
    """What the LBR kernels (`solver.evaluate.kernels_lbr`, `solver.evaluate.kernels_lbr_rule`) read of a
    game's tree, as one argument: its `abstraction.tree.KernelTree` and the tables of the walk, int64.

    ``parent[n]`` (-1 at the root); ``group_nodes[group_start[g]:group_start[g + 1]]`` the nodes of
    group ``g``; ``passive_child[n]`` the check/call child of a decision (Auction bid: the smallest
    bid); ``preference[child_start[n] + r]`` the action index in place ``r`` of the tie order
    (passive first, then fold, then the others by increasing amount).
    """

    flat: KernelTree
    parent: np.ndarray
    group_start: np.ndarray
    group_nodes: np.ndarray
    passive_child: np.ndarray
    preference: np.ndarray


def tree_arguments(game: SolverGame) -> LbrTree:
    """The `LbrTree` of ``game``: what the LBR kernels read of its tree."""
    tree = game.tree
    parent = tree.parent_array()
    groups = tree.infoset_group
    decisions = np.flatnonzero(groups >= 0)
    order = decisions[np.argsort(groups[decisions], kind="stable")].astype(np.int64)
    counts = np.bincount(groups[decisions], minlength=tree.n_groups)
    group_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    passive = np.full(tree.n_nodes, -1, dtype=np.int64)
    preference = np.zeros(max(1, tree.n_nodes), dtype=np.int64)
    for node in np.flatnonzero(tree.kind == DECISION):
        start, count = int(tree.child_start[node]), int(tree.n_children[node])
        kinds = tree.action_kind[start : start + count].astype(int)
        amounts = tree.action_amount[start : start + count].astype(int)
        passive_index = next((k for k in range(count) if kinds[k] in PASSIVE_KINDS), None)
        if passive_index is None:
            bids = [k for k in range(count) if kinds[k] == int(ActionKind.BID)]
            if bids:
                passive_index = min(bids, key=lambda k: (amounts[k], k))
            else:
                passive_index = next((k for k in range(count) if kinds[k] != int(ActionKind.FOLD)), 0)
        passive[node] = start + passive_index
        preference[start : start + count] = sorted(
            range(count), key=functools.partial(_preference_rank, passive_index, kinds, amounts)
        )
    return LbrTree(tree.kernel_tree(), parent, group_start, order, passive, preference)


def seen_slots(game: SolverGame, n_slots: int) -> np.ndarray:
    """bool [n_nodes, n_slots]: at each decision node, the bucket slots its actor has read at its own
    decisions from the root to the node (inclusive); False at chance and terminal nodes.

    A slot is a view of the cards dealt to a seat so far (an exact game's bucket is that view), so
    these are the views the actor has seen: a slot read only later (a street not yet dealt), only by
    the other seat, or only on other paths (the Auction's three-card slots, read by a seat once it
    holds its third card) is not among them.

    >>> from abstraction.exact.exact_games import build_game
    >>> game = build_game("leduc")
    >>> seen = seen_slots(game, 2)
    >>> decisions = game.tree.infoset_group >= 0
    >>> [sorted({tuple(row) for row in seen[decisions & (game.tree.street == s)].tolist()}) for s in (0, 1)]
    [[(True, False)], [(True, True)]]
    """
    tree = game.tree
    groups = tree.infoset_group
    read = np.zeros((tree.n_nodes, tree.n_players, n_slots), dtype=np.bool_)
    stack = [0]
    while stack:
        node = stack.pop()
        if groups[node] >= 0:
            read[node, tree.player[node], tree.group_slot[groups[node]]] = True
        children = range(int(tree.child_start[node]), int(tree.child_start[node]) + int(tree.n_children[node]))
        read[children] = read[node]
        stack.extend(children)
    seen = np.zeros((tree.n_nodes, n_slots), dtype=np.bool_)
    decisions = np.flatnonzero(groups >= 0)
    seen[decisions] = read[decisions, tree.player[decisions]]
    return seen


def checkcall_strategy(game: SolverGame) -> np.ndarray:
    """`game.play.bots.CheckCallBot` as a strategy table of ``game`` (float64 [table_size]): probability 1 on
    the passive child of every information set (check, else call; at an Auction bid node the
    smallest bid, 0 in the trees we build, which is what the bot bids), whatever the bucket.

    >>> from abstraction.exact.exact_games import build_game
    >>> table = checkcall_strategy(build_game("kuhn")).reshape(-1, 2)  # 12 infosets x (check, bet) or (fold, call)
    >>> table.argmax(axis=1).tolist()  # check when first to act, call (never fold) facing a bet
    [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    """
    tree = game.tree
    passive = tree_arguments(game).passive_child
    table = np.zeros(tree.table_size)
    groups = tree.infoset_group
    for node in np.flatnonzero(groups >= 0):
        group = int(groups[node])
        index = int(passive[node] - tree.child_start[node])
        count, start = int(tree.n_actions[group]), int(tree.row_offset[group])
        table[start + index : start + count * int(tree.n_buckets[group]) : count] = 1.0
    return table


def equity_rule_arguments(
    game: SolverGame, sampler: FreshChance, rule: EquityRule
) -> tuple[tuple[np.ndarray, ...], tuple[Any, ...]]:
    """The ``rule`` and ``params`` tuples of `solver.evaluate.kernels_lbr_rule` for ``game``'s tree.

    Per decision node: ``pot`` (chips both players have put in, float64), ``cost`` (chips to call),
    the indices of the check, call and fold children (-1: none) and of the raise the bot picks: its
    target is raise-to ``committed[opponent] + round(raise_pot_fraction * (pot + cost))`` chips (the
    opponent's pip plus the pot after calling, as `EquityBot.act`), mapped to the tree raise whose
    total is nearest in chips (ties: the smaller); -1 when the tree has no raise there (raise cap),
    and the rule then checks or calls as the bot does when it cannot raise. ``params``: the rule's
    numbers and the ``equity_parameters()`` of ``sampler.config`` (swap chances of the flop and the
    turn, run cards, board cap, bounty multiplier), as `EquityBot` reads its config.

    Auction: at a bid node ``bid_high`` is the bidder's stack (the bid bounds are ``(0, stack)``); the
    kernel computes the bot's chip bid from two equities and maps it to the nearest tree bid
    (`solver.evaluate.kernels_lbr_rule._bid_index`). ``holders`` (the equity slot) says who holds a third
    card at each decision (:func:`_auction_holders`), so that the rule's equity after the auction
    counts 3 hole cards for each winner, as `EquityBot.equity` does.
    """
    tree = game.tree
    n_nodes = tree.n_nodes
    indices = {kind: np.full(n_nodes, -1, dtype=np.int64) for kind in ("raise", "check", "call", "fold")}
    pot = np.zeros(n_nodes)
    cost = np.zeros(n_nodes)
    raise_kind, check_kind = int(ActionKind.RAISE), int(ActionKind.CHECK)
    call_kind, fold_kind, bid_kind = int(ActionKind.CALL), int(ActionKind.FOLD), int(ActionKind.BID)
    config = sampler.config
    bid_high = np.full(n_nodes, -1.0)
    holders = _auction_holders(game)
    for node in np.flatnonzero(tree.kind == DECISION):
        actor = int(tree.player[node])
        other = 1 - actor
        committed = tree.committed[node]
        pot[node] = float(committed.sum())
        cost[node] = float(committed[other] - committed[actor])
        target = float(committed[other]) + round(rule.raise_pot_fraction * (pot[node] + cost[node]))
        best_distance = math.inf
        start = int(tree.child_start[node])
        for k in range(int(tree.n_children[node])):
            kind = int(tree.action_kind[start + k])
            if kind == raise_kind:
                distance = abs(float(tree.committed[start + k, actor]) - target)
                if distance < best_distance:
                    best_distance = distance
                    indices["raise"][node] = k
            elif kind == check_kind:
                indices["check"][node] = k
            elif kind == call_kind:
                indices["call"][node] = k
            elif kind == fold_kind:
                indices["fold"][node] = k
            elif kind == bid_kind:
                bid_high[node] = float(config.stack) - float(committed[actor])  # EquityBot's bid bounds: (0, stack)
            else:
                raise ValueError(
                    f"the equity rule has no action for {ActionKind(kind).name} nodes (node {node} of {game.name!r})"
                )
    parameters = config.equity_parameters()
    swaps = dict(parameters.swaps)
    params = (
        float(rule.raise_equity),
        int(rule.samples),
        float(swaps.get(FLOP, 0.0)),
        float(swaps.get(TURN, 0.0)),
        parameters.run_cards,
        int(parameters.max_board_cards),
        float(parameters.bounty_multiplier),
    )
    decision = tree.kind == DECISION
    actor = np.where(decision, tree.player, 0).astype(np.int64)
    nodes = np.arange(n_nodes)
    slot = (holders[nodes, actor] + 2 * holders[nodes, 1 - actor]) * decision
    arrays = (
        indices["raise"],
        indices["check"],
        indices["call"],
        indices["fold"],
        pot,
        cost,
        slot.astype(np.int64),
        bid_high,
        tree.action_amount.astype(np.float64),
    )
    return arrays, params


def _auction_holders(game: SolverGame) -> np.ndarray:
    """int64 [n_nodes, 2]: 1 where the seat holds an Auction third card at the node (it won or tied the
    auction on the path to it), else 0 (all 0 outside the Auction). The auction resolves at the edge
    of the second bid: each seat whose bid is at least the other's gets a card."""
    tree = game.tree
    n_nodes = tree.n_nodes
    holders = np.zeros((n_nodes, 2), dtype=np.int64)
    parent = tree.parent_array().astype(np.int64)
    bid = int(ActionKind.BID)
    nodes = np.arange(n_nodes)
    has_parent = parent >= 0
    second = np.zeros(n_nodes, dtype=bool)  # the edge into the node is a second bid
    second[has_parent] = (tree.action_kind[nodes[has_parent]] == bid) & (tree.action_kind[parent[has_parent]] == bid)
    if not second.any():
        return holders
    # pointer jumping to the nearest ancestor-or-self where the auction resolves (else the root)
    source = np.where(second | ~has_parent, nodes, np.maximum(parent, 0))
    while True:
        jumped = source[source]
        if np.array_equal(jumped, source):
            break
        source = jumped
    resolved = np.flatnonzero(second)
    last_bidder = tree.player[parent[resolved]].astype(np.int64)
    last_bid = tree.action_amount[resolved].astype(np.float64)
    first_bid = tree.action_amount[parent[resolved]].astype(np.float64)
    at = np.zeros((n_nodes, 2), dtype=np.int64)
    at[resolved, last_bidder] = last_bid >= first_bid
    at[resolved, 1 - last_bidder] = first_bid >= last_bid
    return at[source]


def _check_opponent(game: SolverGame, opponent: str, dealer: tuple[str, Any]) -> None:
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown LBR opponent {opponent!r}: known are {', '.join(OPPONENTS)}")
    if opponent != "equity":
        return
    mode, _ = dealer
    if mode == "exact":
        raise ValueError(
            f"the equity opponent plays EquityBot's rule on cards; {game.name!r} is an exact game "
            "without hold'em cards (use opponent 'strategy' or 'checkcall')"
        )


def _check_strategy(game: SolverGame, strategy: np.ndarray | None) -> np.ndarray:
    if strategy is None:
        raise TypeError("opponent 'strategy' needs a strategy table, got None")
    strategy = np.ascontiguousarray(strategy, dtype=np.float64)
    size = game.tree.table_size
    if strategy.shape != (size,):
        raise ValueError(f"strategy must have shape ({size},) (the game's table size), got {strategy.shape}")
    if not np.isfinite(strategy).all() or (strategy < 0).any():
        raise ValueError("strategy entries must be finite probabilities >= 0")
    return strategy


def _is_exact_config(config: dict[str, Any]) -> bool:
    return config.get("kind", "exact") == "exact"


def lbr_game(game: SolverGame) -> tuple[str, Any]:
    """How LBR deals in ``game``: ``("exact", DealTable)`` or ``("fresh", FreshChance)``.

    Exact games (and a `TableChance` sampler) use their table; heads-up variants with fresh chance
    their sampler; a fixed-table abstract game the fresh sampler of its config (rebuilt: its card
    file must exist). Raises ValueError for anything else (more than two players, other samplers).
    """
    if not isinstance(game, SolverGame):
        raise TypeError(f"game must be a SolverGame, got {game!r}")
    if game.tree.n_players != 2:
        raise ValueError(f"local best response is heads-up only; game {game.name!r} has {game.tree.n_players} players")
    if isinstance(game.sampler, FreshChance):
        return "fresh", game.sampler
    if isinstance(game.sampler, TableChance):
        return "exact", game.sampler.deals
    if game.deals is not None and _is_exact_config(game.config):
        return "exact", game.deals
    if game.deals is not None and game.config.get("kind") == "sampled-nolimit":
        fresh = fresh_twin(game)
        return "fresh", fresh.sampler
    raise ValueError(
        f"local best response cannot deal game {game.name!r}: it needs an exact game's deal table or "
        "a heads-up variant's fresh sampler"
    )


def fresh_twin(game: SolverGame) -> SolverGame:
    """A fixed-table abstract game rebuilt with fresh chance (same tree), from its config."""
    from solver.solve.game_kinds import abstract_config, build_game_from_config

    config = replace(abstract_config(game.config), chance="fresh")
    twin = build_game_from_config(config.to_dict())
    if twin.tree.fingerprint() != game.tree.fingerprint():
        raise ValueError(f"the fresh-chance rebuild of {game.name!r} has another tree")
    return twin


# --- running hands ------------------------------------------------------------------------------


def lbr_payoffs(
    game: SolverGame,
    strategy: np.ndarray | None,
    seat: int,
    first: int,
    count: int,
    config: LBRConfig = LBRConfig(),
    *,
    dealer: tuple[str, Any] | None = None,
    tree: LbrTree | None = None,
    opponent: str = "strategy",
    rule: EquityRule | None = None,
    rule_arguments: tuple[tuple[np.ndarray, ...], tuple[Any, ...]] | None = None,
) -> tuple[np.ndarray, int]:
    """Seat ``seat``'s chips in LBR hands ``first .. first + count - 1`` (float64 [count]) and the
    number of decisions no candidate reached. ``dealer`` (from :func:`lbr_game`), ``tree`` (from
    :func:`tree_arguments`) and ``rule_arguments`` (from :func:`equity_rule_arguments`) skip
    recomputing them. ``opponent`` (:data:`OPPONENTS`): ``"strategy"`` plays ``strategy``,
    ``"checkcall"`` :func:`checkcall_strategy`, ``"equity"`` the rule ``rule`` (default
    :class:`EquityRule`); the last two ignore ``strategy`` (may be None)."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    mode, source = dealer if dealer is not None else lbr_game(game)
    _check_opponent(game, opponent, (mode, source))
    tree = tree if tree is not None else tree_arguments(game)
    payoff = np.zeros(int(count))
    unreached = np.zeros(1, dtype=np.int64)
    if opponent == "equity":
        sampler: FreshChance = source
        if rule_arguments is None:
            rule_arguments = equity_rule_arguments(game, sampler, rule if rule is not None else EquityRule())
        arrays, params = rule_arguments
        with np.errstate(over="ignore"):  # uint64 generator arithmetic wraps on purpose
            kernels_lbr_rule._lbr_rule_hands(
                tree, arrays, params, sampler.kernel_arguments(), sampler.n_slots, sampler.weight_columns,
                len(sampler.chance_size), 4 + sampler.runs, int(seat), np.uint64(config.seed), np.int64(first),
                int(count), int(config.candidates), payoff, unreached,
            )  # fmt: skip
        return payoff, int(unreached[0])
    strategy = checkcall_strategy(game) if opponent == "checkcall" else _check_strategy(game, strategy)
    with np.errstate(over="ignore"):  # uint64 generator arithmetic wraps on purpose
        if mode == "exact":
            deals: DealTable = source
            kernels_lbr._lbr_table_hands(
                tree, deals.probability, deals.cumulative_probability(), deals.bucket, deals.weight, deals.chance,
                seen_slots(game, deals.bucket.shape[2]), strategy, int(seat), np.uint64(config.seed),
                np.int64(first), int(count), payoff, unreached,
            )  # fmt: skip
        else:
            sampler = source
            kernels_lbr._lbr_fresh_hands(
                tree, sampler.kernel_arguments(), sampler.n_slots, sampler.weight_columns, len(sampler.chance_size),
                strategy, int(seat), np.uint64(config.seed), np.int64(first), int(count), int(config.candidates),
                payoff, unreached,
            )  # fmt: skip
    return payoff, int(unreached[0])


def game_big_blind(game: SolverGame) -> float:
    """Chips per big blind of ``game``'s rules (abstract games: the rebuilt variant config's)."""
    from solver.evaluate.exploitability import default_big_blind

    if game.config.get("kind") == "sampled-nolimit":
        from solver.solve.game_kinds import abstract_config

        return float(abstract_config(game.config).variant_config().big_blind)
    return default_big_blind(game)


def _interval(values: np.ndarray) -> float:
    """Half-width of the 95% Student-t interval of the mean of ``values`` (`game.play.match.interval_95`);
    infinite below 2 values."""
    half_width = interval_95(values)
    return math.inf if half_width is None else half_width


def local_best_response(
    game: SolverGame,
    strategy: np.ndarray | None,
    config: LBRConfig = LBRConfig(),
    big_blind: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    *,
    opponent: str = "strategy",
    rule: EquityRule | None = None,
) -> LBRResult:
    """LBR in both seats of ``game``, ``config.hands`` hands each, against ``opponent``:

    - ``"strategy"``: the flat table ``strategy`` at the opponent's bucket;
    - ``"checkcall"``: `game.play.bots.CheckCallBot`, as the table :func:`checkcall_strategy`;
    - ``"equity"``: `game.play.bots.EquityBot`'s rule ``rule`` (default :class:`EquityRule`, the bot's
      defaults) on the opponent's exact cards (`solver.evaluate.kernels_lbr_rule`); heads-up hold'em variants.

    The game (tree, LBR's actions, sampler, buckets) and ``config`` are the same whatever the
    opponent, and so are the real deals (hand ``h`` is deal ``h`` of ``config.seed``): the three
    lines are reference lines of one LBR. ``strategy`` is ignored (may be None) unless ``opponent``
    is ``"strategy"``. ``big_blind``: chips per big blind for mbb (default: the game's rules,
    :func:`game_big_blind`). ``on_progress(done, total)`` is called after each batch (hands over
    both seats). Raises ValueError for an unknown opponent or a game it cannot play.
    """
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown LBR opponent {opponent!r}: known are {', '.join(OPPONENTS)}")
    if rule is not None and not isinstance(rule, EquityRule):
        raise TypeError(f"rule must be an EquityRule, got {rule!r}")
    dealer = lbr_game(game)
    _check_opponent(game, opponent, dealer)
    if opponent == "strategy":
        strategy = _check_strategy(game, strategy)
    elif opponent == "checkcall":
        strategy = checkcall_strategy(game)
    rule = (rule if rule is not None else EquityRule()) if opponent == "equity" else None
    big_blind = game_big_blind(game) if big_blind is None else float(big_blind)
    if not big_blind > 0:
        raise ValueError(f"big_blind must be > 0 chips, got {big_blind!r}")
    started = time.perf_counter()
    tree = tree_arguments(game)
    rule_arguments = equity_rule_arguments(game, dealer[1], rule) if rule is not None else None
    kernel_opponent = "equity" if rule is not None else "strategy"
    hands = int(config.hands)
    payoffs = np.zeros((2, hands))
    jobs = [
        (seat, first, min(config.batch, hands - first)) for first in range(0, hands, config.batch) for seat in (0, 1)
    ]
    unreached = 0
    done = 0

    def run(job: tuple[int, int, int]) -> tuple[int, int, np.ndarray, int]:
        seat, first, count = job
        values, missed = lbr_payoffs(
            game,
            strategy,
            seat,
            first,
            count,
            config,
            dealer=dealer,
            tree=tree,
            opponent=kernel_opponent,
            rule_arguments=rule_arguments,
        )
        return seat, first, values, missed

    workers = min(int(config.workers), len(jobs), os.cpu_count() or 1)
    if workers > 1:
        with ThreadPoolExecutor(workers) as pool:
            outputs = pool.map(run, jobs)
            for seat, first, values, missed in outputs:
                payoffs[seat, first : first + len(values)] = values
                unreached += missed
                done += len(values)
                if on_progress is not None:
                    on_progress(done, 2 * hands)
    else:
        for job in jobs:
            seat, first, values, missed = run(job)
            payoffs[seat, first : first + len(values)] = values
            unreached += missed
            done += len(values)
            if on_progress is not None:
                on_progress(done, 2 * hands)
    paired = payoffs.mean(axis=0)
    chips = float(paired.mean())
    ci = _interval(paired)
    return LBRResult(
        mbb_per_hand=1000.0 * chips / big_blind,
        ci95_mbb=1000.0 * ci / big_blind,
        chips_per_hand=chips,
        ci95_chips=ci,
        seat_chips=(float(payoffs[0].mean()), float(payoffs[1].mean())),
        seat_ci95_chips=(_interval(payoffs[0]), _interval(payoffs[1])),
        hands=hands,
        candidates=None if dealer[0] == "exact" else int(config.candidates),
        seed=int(config.seed),
        big_blind=big_blind,
        chance=dealer[0],
        unreached_decisions=unreached,
        seconds=time.perf_counter() - started,
        payoffs=payoffs,
        opponent=opponent,
        equity_rule=None if rule is None else rule.to_dict(),
    )


def lbr_strategy_file(
    path: str | os.PathLike[str],
    config: LBRConfig = LBRConfig(),
    on_progress: Callable[[int, int], None] | None = None,
    *,
    opponent: str = "strategy",
    rule: EquityRule | None = None,
) -> dict[str, Any]:
    """LBR in a strategy file's game, as a JSON-ready dict: :meth:`LBRResult.to_dict` plus ``game``,
    ``algorithm``, ``iterations`` (the big blind comes from the game's rules). ``opponent``
    (:data:`OPPONENTS`): the file's average strategy (default), or the equity bot's rule or
    check/call played in the file's game with the same LBR (:func:`local_best_response`)."""
    from solver.solve.game_kinds import game_kind
    from solver.solve.training import load_solved_game

    if opponent not in OPPONENTS:
        raise ValueError(f"unknown LBR opponent {opponent!r}: known are {', '.join(OPPONENTS)}")
    game, record = load_solved_game(path)
    big_blind = game_kind(record.game_config).big_blind(record.game_config)
    result = local_best_response(
        game,
        record.average_strategy,
        config,
        big_blind=big_blind,
        on_progress=on_progress,
        opponent=opponent,
        rule=rule,
    )
    return _file_summary(result, game, record)


def _file_summary(result: LBRResult, game: SolverGame, record: Any) -> dict[str, Any]:
    """:meth:`LBRResult.to_dict` plus the strategy file's ``game``, ``algorithm`` and ``iterations``."""
    summary = result.to_dict()
    summary.update(
        {
            "game": game.name,
            "algorithm": record.solver_config.get("solver", record.solver_config).get("algorithm"),
            "iterations": record.iterations,
        }
    )
    return summary


def lbr_reference_lines(
    path: str | os.PathLike[str],
    config: LBRConfig = LBRConfig(),
    rule: EquityRule | None = None,
    opponents: tuple[str, ...] = OPPONENTS,
) -> dict[str, dict[str, Any]]:
    """The same LBR (``config``) in a strategy file's game against each of ``opponents``, loading the
    file once: ``{opponent: summary}``, each summary as :func:`lbr_strategy_file` returns it.

    Issue 11's target compares two of them: ``summary["strategy"]["mbb_per_hand"] <= 0.5 *
    summary["equity"]["mbb_per_hand"]`` (LBR wins at most half as much against the blueprint as
    against the equity bot, same settings, same run).
    """
    from solver.solve.game_kinds import game_kind
    from solver.solve.training import load_solved_game

    for opponent in opponents:
        if opponent not in OPPONENTS:
            raise ValueError(f"unknown LBR opponent {opponent!r}: known are {', '.join(OPPONENTS)}")
    game, record = load_solved_game(path)
    big_blind = game_kind(record.game_config).big_blind(record.game_config)
    lines = {}
    for opponent in opponents:
        result = local_best_response(
            game, record.average_strategy, config, big_blind=big_blind, opponent=opponent, rule=rule
        )
        lines[opponent] = _file_summary(result, game, record)
    return lines

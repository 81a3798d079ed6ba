"""The re-solving bot: the lookup bot preflop and on the flop, subgames solved in real time on the turn and river.

Preflop and on the flop it plays exactly as :class:`~solver.bots.lookup_bot.LookupBot`. On the
turn it solves a depth-limited subgame (below, "The turn"). On the river (the last street of plain
Hold'em):

1. **Ranges.** At its first river decision of a hand it computes both players' ranges over the 1,326
   combinations (:mod:`solver.resolve.ranges`): uniform over the combinations the board (and, for
   the opponent's range, its own cards) leaves, then, for every move before the river, multiplied
   by the blueprint's probability of the abstract action the move maps to (the lookup bot's own
   reading of the history: the same translation of off-tree raises) at that node, for each
   combination's bucket on that street. Its own range is computed the same way: what the opponent
   can infer.
2. **Re-solve.** It builds the river's betting tree from the real chips at the street's start
   (:class:`~solver.resolve.tree.SubgameConfig`: contributions, stacks, the seat acting first on
   the river, the bet set of :class:`ResolvingConfig`), runs the subgame solver
   (:class:`~solver.resolve.resolver.SubgameSolver`) from the two ranges and keeps the average
   strategy. Its own combination's weight is floored at 1e-6 of its range's largest so that the
   average strategy is defined at its hand.
3. **Play and walk.** It plays its combination's row at its node, each subgame action mapped to the
   real action (the tree's amounts are the engines' legal amounts). Every river move, its own and
   the opponent's, walks the solved tree and multiplies the mover's range by the solved strategy's
   probability of it. An opponent raise to an amount the tree does not hold is off the tree: the
   opponent's range is multiplied by the solved strategy's probability of the raises it translates
   to (pseudo-harmonic, the mix of the two nearest; unchanged past the tree's cap, where the tree
   holds no raise), and the bot re-solves from the current node (real pot, stacks and pips, bets and
   raises made so far on the street, so past the cap it may only fold or call) behind the safe
   re-solving gadget (:class:`~solver.resolve.resolver.OpponentValues`; ``ResolvingConfig.nested_gadget``,
   on by default): each opponent hand may take instead its best in-tree value at that node against
   the previous solve, and the gadget's reach is the opponent's range before the bet, so the off-tree
   bet gains no hand it could have made more than it could already get. (Without the gadget the
   re-solve plays against the translated range alone, a best response to a guess: results/resolving.md
   measures what the full-game LBR wins from it.)

**The turn** (``ResolvingConfig.depth_limited``, on by default) goes the same way with a
depth-limited subgame (Brown, Sandholm & Amos 2018): ranges from the blueprint over the preflop and
flop moves; the turn's tree (the same bet set) ends where both have matched with chips behind (a
LEAF) or a call leaves a player all-in (a RUNOUT, the river dealt and shown down exactly). At a
leaf the bot's value is the blueprint's river play against one of four continuation strategies of
the opponent, chosen per opponent hand by the solve (:mod:`solver.resolve.continuation`: the
blueprint and the blueprint biased toward fold, call, raise), each leaf reading the blueprint's
river from the abstract node its turn history translates to (the most probable translation of each
raise). Off-tree opponent bets on the turn re-solve from the current node behind the nested gadget,
as on the river. The turn's first solve is behind the gadget too
(``ResolvingConfig.turn_gadget``), each opponent hand's alternative its best response to the
blueprint's own turn (its bet set, from the abstract node the history leads to, chips scaled to the
real pot) and, at its leaves, to the blueprint's river against the best of the same continuations;
where the blueprint cannot follow the history it solves without. A final street's first solve goes behind
the same gadget when ``ResolvingConfig.river_gadget`` is on (off by default), each opponent hand's
alternative its best response to the blueprint's own betting of the street, to showdown (Bounty's
types included: the bot's bucket is ``2 * bucket + hit``). The river's
ranges still come from the blueprint over the turn's moves (the turn's re-solved strategy is not
carried to the river).

**The clock.** A `solver.bots.time_manager.TimeManager` sets each re-solve's budget, per street
(turn and river), from the game clock of the match :meth:`ResolvingBot.attach` gives it (an exported
bot attaches its engine client, `game.pokerbots.session.ClientSession`, whose clock is the engine's
``T``); the bot asks once the street's tree is built and before it computes ranges, leaves or
gadget values, and the solver runs in chunks until the budget (or ``ResolvingConfig.iterations``)
is spent. When the clock is down to the manager's reserve, or a budget is too small for the
street's minimum of iterations (``ResolvingConfig.min_iterations`` on the river,
``turn_min_iterations`` on the turn), the blueprint plays that decision (counted in
``clock_fallbacks``). Unattached (our own match runner, the gauntlet) nothing bounds a solve but
``iterations`` and ``seconds``.

It never crashes a match: a failure on the turn or river is logged and the blueprint plays (then
check/call as the lookup bot does). Counters: ``resolves`` (subgames solved), ``resolve_seconds``
(wall time of each), ``fallbacks`` (turn and river decisions the blueprint played after a failure),
``clock_fallbacks``. Deterministic under a seed unless ``ResolvingConfig.seconds`` or a game clock
bounds the solve.

Variants (:data:`RESOLVED_VARIANTS`, from the rules flags: :func:`re_solves_variant`). The bot
re-solves a *final* street (:func:`final_street`: the river, or in River of Blood a street whose
last card is black or whose board is at ``board_card_cap``) to showdown, and the turn depth-limited
where the river after it is a final Hold'em showdown (:func:`depth_limited_turn`: Hold'em and Swap).
Swap's swaps are chance between streets: the ranges take each street's swap event
(:func:`~solver.resolve.ranges.swapped`, each card replaced with the config's probability by a
uniform unseen card) before that street's moves; the subgames are Hold'em's (no swap on the river;
the turn's leaves continue on a river without one). The bot's own swapped-out cards are not known
to the ranges (the opponent's range keeps them possible). River of Blood: the ranges follow the
blueprint through its run-card chance nodes (and past its run cap, as the lookup bot does); the
final street's hands hold every board card (best five of all); a street a run card follows (red
last card) and the turn play the blueprint. Bounty: the ranges are joint over combination and
bounty rank (:meth:`ResolvingBot.rank_ranges`: uniform over the 13 ranks a priori, the
blueprint's buckets carry the hit bit); the river's subgame is over hand x hit-bit types
(:mod:`solver.resolve.bounty`), the bot's own by its known rank, the opponent's hit odds per hand
from its joint range; the turn plays the blueprint (the leaves have no bounty payoffs). In the
Auction the bot plays the lookup bot on every street (winners hold three cards).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from abstraction.bets.bet_abstraction import StreetBets
from abstraction.bets.betting_tree import street_ordinal
from abstraction.bets.translation import translation_probabilities
from abstraction.cards.buckets import CardAbstraction
from abstraction.cards.kernels_features import RED_SUITS_MASK
from abstraction.tree import DECISION as ABSTRACT_DECISION
from abstraction.tree import SHOWDOWN as ABSTRACT_SHOWDOWN
from game.cards.deck import N_RANKS
from game.cards.rng import SeedLike
from game.dataclass_support import check_int
from game.play.bots import passive_action
from game.rules.actions import Action, ActionKind, Move, Policy
from game.rules.nolimit import NoLimitConfig, Observation
from game.rules.variants import VARIANTS
from solver.bots.lookup_bot import OFF_TREE, LookupBot, _after, summed_by_action
from solver.bots.time_manager import TimeConfig, TimeManager, run_within
from solver.resolve.bounty import BountyHands, BountyRules, bounty_hands, rank_hits
from solver.resolve.continuation import ContinuationConfig, RiverBlueprint, blueprint_opponent_values, leaf_values
from solver.resolve.hands import RiverHands, TurnHands, river_hands, turn_hands
from solver.resolve.leaves import LeafValues
from solver.resolve.ranges import (
    ComboBuckets,
    blueprint_likelihood,
    combo_index,
    initial_range,
    swapped,
)
from solver.resolve.resolver import OpponentValues, ResolveConfig, SubgameSolver
from solver.resolve.tree import DECISION, FOLD, SubgameConfig, SubgameTree, build_subgame_tree

logger = logging.getLogger(__name__)

RIVER = 5
"""Board length (the observation's ``street``) of Hold'em's river, the street the bot re-solves to showdown."""
TURN = 4
"""Board length of Hold'em's turn, the street the bot re-solves depth-limited."""


def re_solves_variant(config: NoLimitConfig) -> bool:
    """Whether the bot re-solves in the variant of ``config``: every variant of two-card hands (an
    Auction winner holds three cards, which neither the ranges nor the subgames model)."""
    return not config.has_auction


def depth_limited_turn(config: NoLimitConfig) -> bool:
    """Whether the turn can be re-solved depth-limited: its leaves continue on a river that ends at a
    Hold'em showdown (no run card can follow the river, no bounty payoff)."""
    return not config.has_run_cards and not config.has_bounty


def final_street(config: NoLimitConfig, board: Sequence[int]) -> bool:
    """Whether no card can follow the street of ``board``: the river, except in River of Blood where
    a red last card brings a run card unless the board is at ``config.board_card_cap``."""
    if len(board) < RIVER:
        return False
    if not config.has_run_cards or len(board) >= config.board_card_cap:
        return True
    return not (RED_SUITS_MASK >> (int(board[-1]) & 3)) & 1


RESOLVED_VARIANTS = tuple(name for name, variant in VARIANTS.items() if re_solves_variant(variant.config_class()))
"""Variants in which the bot re-solves (:func:`re_solves_variant`); in the others it plays the lookup bot throughout."""
OWN_FLOOR = 1e-6
"""Floor on the bot's own combination's weight, relative to its range's largest weight."""
_RIVER_TABLES_KEPT = 512
"""Continuation tables of abstract river nodes kept across turn re-solves (then the cache starts over)."""
GADGET_VALUES = ("best_response", "blueprint")
"""What a first solve's gadget holds each opponent hand to (`ResolvingConfig.gadget_values`)."""


@dataclass(frozen=True)
class ResolvingConfig:
    """How the bot re-solves the turn and the river.

    ``bets``: the runtime tree's sizes (pot fractions, all-in, cap on bets plus raises);
    ``iterations``: CFR iterations per re-solve at most (each updates both players); ``seconds``: a
    wall-clock budget per re-solve (None: none; when set, or when a game clock is attached, the solve
    stops at whichever budget ends first, `solver.bots.time_manager.run_within`, and play is no
    longer deterministic); ``min_iterations`` / ``turn_min_iterations``: fewer iterations than this
    within a river / turn budget and the blueprint plays instead (the turn's is half the river's by
    default: 100 iterations of a depth-limited turn reach the NashConv, as a fraction of the pot,
    that 200 reach on the river, results/resolving.md); ``time``: how the game clock is spent;
    ``solver``: the CFR variant. ``depth_limited``: re-solve the turn too (leaves of
    ``continuation``: hand classes, Monte Carlo samples, bias; see
    :mod:`solver.resolve.continuation`), else play the blueprint there; ``turn_gadget``: the turn's
    first solve behind the safe gadget, with the opponent's best-response values against the
    blueprint; ``river_gadget``: the same on final streets (each opponent hand's value its best
    response to the blueprint's own betting of the street, to showdown). ``gadget_values``: the value
    each opponent hand is held to by these two gadgets: ``"best_response"`` (above: safe, re-solving
    cannot make the bot more exploitable than the blueprint, but loose where the blueprint is very
    exploitable) or ``"blueprint"``, its value when both players play the blueprint's betting of the
    street (Brown & Sandholm 2017's estimated values: tighter, without the guarantee; on the turn its
    leaves as the re-solve's own). ``nested_gadget``: an
    opponent's off-tree bet, on any street, is re-solved behind the previous solve's values (nested
    safe solving, Brown & Sandholm 2017), the opponent's range at the re-solve's root its range before
    the bet, so that every hand that could have made it is held to what it could get in the tree
    (False: the re-solve takes the range the translated bet leaves and plays against it alone;
    results/resolving.md measures both). ``resolve_off_tree``: re-solve a street
    whose earlier history the blueprint could not follow (Bayes stops at the move that left its tree,
    so both ranges ignore what came after); False: the blueprint plays such a street (counted in
    ``ResolvingBot.unmodelled``). ``range_floor``: on a final street without bounty types, the opponent's range the
    subgame assumes is this share of uniform over the hands the board leaves plus the rest of its
    range by Bayes from the blueprint (0: Bayes alone), so that hands the blueprint would rarely
    hold there (an opponent that slow-plays) are not taken for impossible.
    """

    bets: StreetBets = field(default_factory=lambda: StreetBets.parse("0.5p,1p,a cap=2"))
    iterations: int = 200
    seconds: float | None = None
    min_iterations: int = 20
    turn_min_iterations: int = 10
    time: TimeConfig = field(default_factory=TimeConfig)
    solver: ResolveConfig = field(default_factory=ResolveConfig)
    depth_limited: bool = True
    turn_gadget: bool = True
    river_gadget: bool = False
    gadget_values: str = "best_response"
    nested_gadget: bool = True
    resolve_off_tree: bool = True
    continuation: ContinuationConfig = field(default_factory=ContinuationConfig)
    range_floor: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.bets, StreetBets):
            raise TypeError(f"bets must be a StreetBets (e.g. StreetBets.parse('0.5p,1p,a cap=2')), got {self.bets!r}")
        check_int("iterations", self.iterations)
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be None or > 0 (a wall-clock budget), got {self.seconds!r}")
        for name in ("min_iterations", "turn_min_iterations"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= self.iterations:
                raise ValueError(f"{name} must be an int in [1, iterations], got {value!r}")
        if not isinstance(self.time, TimeConfig):
            raise TypeError(f"time must be a TimeConfig, got {self.time!r}")
        if not 0.0 <= self.range_floor <= 1.0:
            raise ValueError(f"range_floor must be a share in [0, 1], got {self.range_floor!r}")
        if self.gadget_values not in GADGET_VALUES:
            raise ValueError(f"gadget_values must be one of {GADGET_VALUES}, got {self.gadget_values!r}")


@dataclass(frozen=True)
class _Session:
    """A solved turn or river subgame of one hand and where play stands in it.

    ``ranges``: (2, n_hands) both players' ranges over ``hands`` at ``node``, summing to 1 each;
    ``moves``: the history walked so far (``node`` is where it leads); ``solver``: the solve."""

    key: tuple
    hands: RiverHands
    own: int
    tree: SubgameTree
    strategy: np.ndarray
    ranges: np.ndarray
    node: int
    moves: tuple[Move, ...]
    solver: SubgameSolver


class _NoTime(Exception):
    """The game clock leaves no budget for a useful re-solve: the blueprint plays this decision."""


class _Unmodelled(Exception):
    """The blueprint could not follow the history before the street (``resolve_off_tree`` off): the
    blueprint plays this decision."""


def _nested_gadget(session: _Session, node: int, opponent: int) -> OpponentValues:
    """The safe re-solving gadget for a re-solve after the opponent's off-tree bet at ``node``:
    each opponent hand's values are what its best in-tree action at ``node`` was worth against the
    previous solve's strategy (chips per deal, :meth:`SubgameSolver.hand_values`), so the re-solve
    gives the off-tree bet no more than the opponent could already get there."""
    return OpponentValues(opponent, session.solver.hand_values(session.strategy, opponent, best=True, node=node))


class ResolvingBot(LookupBot):
    """:class:`LookupBot` that re-solves the turn and the river (see the module docstring).

    Arguments as :class:`LookupBot`'s, plus ``resolving`` (:class:`ResolvingConfig`). Implements
    `game.rules.actions.PolicyBot`.
    """

    def __init__(
        self,
        strategy_file: str | Path,
        *,
        resolving: ResolvingConfig | None = None,
        card_abstraction: CardAbstraction | str | Path | None = None,
        config: NoLimitConfig | None = None,
        seed: SeedLike = None,
        name: str = "resolve",
    ) -> None:
        super().__init__(strategy_file, card_abstraction=card_abstraction, config=config, seed=seed, name=name)
        self.strategy_file = Path(strategy_file)
        self.resolving = resolving if resolving is not None else ResolvingConfig()
        if not isinstance(self.resolving, ResolvingConfig):
            raise TypeError(f"resolving must be a ResolvingConfig, got {self.resolving!r}")
        self.re_solves = re_solves_variant(self.config)
        self._turn_resolves = self.re_solves and self.resolving.depth_limited and depth_limited_turn(self.config)
        if not self.re_solves:
            logger.info("%s: %s is not re-solved; the lookup bot plays every street", name, self.config.variant)
        self.time = TimeManager(self.resolving.time, rounds=self.config.rounds)
        self._combo_buckets = ComboBuckets(self.lookup) if self.re_solves else None  # two-card buckets (no hit bit)
        self._n_buckets = self._tree.tree.n_buckets.tolist()
        self._session: _Session | None = None
        self.resolves = 0
        self.resolve_seconds: list[float] = []
        self.fallbacks = 0
        self.clock_fallbacks = 0
        self.unmodelled = 0
        self._blueprint_river = (
            RiverBlueprint(self._tree.tree, self._rows, self.lookup.abstraction.river_centroids)
            if self.re_solves
            else None
        )
        self._river_tables: dict = {}
        self.opponent_rank_prior: np.ndarray | None = None
        """Bounty: (13,) the opponent's bounty-rank probabilities before this round's moves (for
        example an opponent model's posterior over the rounds of the bounty period,
        `game.play.opponent_model.OpponentModel.opponent_bounty_posterior`); None: uniform."""
        self._turn_hands: tuple[tuple, TurnHands | None] = ((), None)
        self._asked: tuple | None = None  # the last policy()'s solve, for an act() on the same observation

    def attach(self, match: Any) -> None:
        """Pace re-solves by ``match``'s game clock (see `solver.bots.time_manager.TimeManager.attach`)."""
        self.time.attach(match)

    def blueprint_bot(self, seed: SeedLike = None) -> LookupBot:
        """The lookup bot of this bot's blueprint (its strategy file, card abstraction and rules), which
        plays as this bot does preflop and on the flop: `game.play.adaptive` measures the opponent
        model's prior by its self-play, where 200 rounds of re-solving would take minutes."""
        return LookupBot(
            self.strategy_file, card_abstraction=self.lookup.abstraction, config=self.config, seed=seed, name="lookup"
        )

    # ------------------------------------------------------------------ the Bot and PolicyBot protocols
    def _act(self, observation: Observation) -> Action:
        if not self._resolves(observation):
            return super()._act(observation)
        try:
            self._adopt_asked_solve(observation)
            actions, probabilities = self._resolved_policy(observation)
        except (_NoTime, _Unmodelled) as reason:  # the blueprint plays this decision, counted by why
            if isinstance(reason, _NoTime):
                self.clock_fallbacks += 1
            else:
                self.unmodelled += 1
            self._session = None
            return super()._act(observation)
        except Exception as error:
            self.fallbacks += 1
            self._session = None
            logger.warning(
                "%s: re-solving failed (%s: %s); the blueprint plays", self.name, type(error).__name__, error
            )
            return super()._act(observation)
        self.decisions += 1
        target = self._rng.random()
        running = 0.0
        for action, probability in zip(actions, probabilities, strict=True):
            running += probability
            if target < running:
                return action
        return actions[-1]

    def policy(self, observation: Any) -> Policy:
        """The distribution :meth:`act` samples from for ``observation`` (no state change: the random
        stream, caches, session and counters are restored; a turn or river policy solves its
        subgame). Where the bot does not re-solve, and where a re-solve fails, it is the lookup bot's
        exact policy, as ``act`` then plays the lookup bot."""
        if not self._resolves(observation):
            return super().policy(observation)
        saved, before = self._save_state(), self._played_token()
        try:
            actions, probabilities = self._resolved_policy(observation)
        except Exception:
            self._restore_state(saved)
            return super().policy(observation)
        self._asked = (observation, before, self._save_state(), self.resolve_seconds[saved[9] :])
        self._restore_state(saved)
        return summed_by_action(zip(actions, probabilities, strict=True))

    def _played_token(self) -> tuple:
        """What changes when the bot plays or its solve's inputs change: the session, the random
        stream, the decisions and re-solves counted, the opponent's rank prior."""
        prior = self.opponent_rank_prior
        return (
            self._session,
            self._rng.bit_generator.state,
            self.decisions,
            self.resolves,
            len(self.resolve_seconds),
            None if prior is None else np.asarray(prior, dtype=np.float64).tobytes(),
        )

    def _adopt_asked_solve(self, observation: Observation) -> None:
        """An ``act`` right after a ``policy`` of the same observation, nothing played in between (the
        adaptive bot asks its base's policy, then lets it act): take the state that policy's solve
        left (its session, random stream, counters and clock pace) instead of solving the same
        subgame twice. The action drawn is the one a bot asked only ``act`` would draw (up to the
        solve's time budget, under a clock)."""
        asked, self._asked = self._asked, None
        if asked is None:
            return
        seen, token, after, seconds = asked
        if seen != observation or token[0] is not self._session or token[1:] != self._played_token()[1:]:
            return
        self.resolve_seconds.extend(seconds)
        self._restore_state(after)

    def policy_rows(
        self,
        observation: Observation,
        holes: Sequence[tuple[int, ...]],
        bounty_ranks: Sequence[int | None] | None = None,
    ) -> tuple[list[Action], np.ndarray]:
        """:meth:`policy` with the hole cards replaced by each of ``holes``, from ONE solve (full-game
        LBR's belief): ``(actions, probabilities [len(holes), len(actions)])``, each row that hand's
        row of the subgame solved for the observation's own hand. That solve depends on the own hand
        only through the card removal in the opponent's range and the floor on the own hand's weight,
        so a row is the policy of a solve for that hand up to these (exact for the own hand). State
        is restored as by :meth:`policy`. Where the bot does not re-solve, or the solve fails (or a
        hand is not a two-card hand the board leaves), it is :meth:`LookupBot.policy_rows`."""
        if not self._resolves(observation):
            return super().policy_rows(observation, holes, bounty_ranks)
        saved = self._save_state()
        try:
            actions, rows = self._resolved_rows(observation)
            columns = self._columns(observation, holes, bounty_ranks)
        except Exception:
            self._restore_state(saved)
            return super().policy_rows(observation, holes, bounty_ranks)
        self._restore_state(saved)
        merged: dict[Action, int] = {}
        matrix = np.zeros((len(holes), len(set(actions))))
        for action, row in zip(actions, rows, strict=True):
            matrix[:, merged.setdefault(action, len(merged))] += row[columns]
        return list(merged), matrix

    def _columns(
        self, observation: Observation, holes: Sequence[tuple[int, ...]], bounty_ranks: Sequence[int | None] | None
    ) -> list[int]:
        """The session's hand (Bounty: type, by each hole's rank, default the observation's) of each hole."""
        hands = self._session.hands
        if not isinstance(hands, BountyHands):
            position = {int(combo): hand for hand, combo in enumerate(hands.hand_index)}
            return [position[combo_index(hole)] for hole in holes]
        hits = rank_hits(observation.board)
        ranks = list(bounty_ranks) if bounty_ranks is not None else [observation.bounty_rank] * len(holes)
        return [
            hands.type_of(combo_index(hole), bool(hits[combo_index(hole), rank]))
            for hole, rank in zip(holes, ranks, strict=True)
        ]

    def _save_state(self) -> tuple:
        return (
            self._rng.bit_generator.state,
            self._cache_key,
            self._cache_moves,
            self._cache_state,
            self._session,
            self.decisions,
            self.off_tree,
            self.errors,
            self.resolves,
            len(self.resolve_seconds),
            self.fallbacks,
            self.clock_fallbacks,
            self.unmodelled,
            self.time.state(),
        )

    def _restore_state(self, saved: tuple) -> None:
        self._rng.bit_generator.state = saved[0]
        self._cache_key, self._cache_moves, self._cache_state, self._session = saved[1:5]
        self.decisions, self.off_tree, self.errors, self.resolves = saved[5:9]
        del self.resolve_seconds[saved[9] :]
        self.fallbacks, self.clock_fallbacks, self.unmodelled = saved[10:13]
        self.time.restore(saved[13])

    # ------------------------------------------------------------------ ranges from the blueprint
    def _rows(self, group: int) -> np.ndarray:
        """(n_buckets, n_actions) the blueprint's average strategy of information-set group ``group``."""
        n_actions = self._n_actions[group]
        offset = self._row_offset[group]
        return self._strategy[offset : offset + self._n_buckets[group] * n_actions].reshape(-1, n_actions)

    def blueprint_ranges(self, observation: Observation) -> np.ndarray:
        """(2, 1326) both seats' ranges at the start of the observation's street, by Bayes from the
        blueprint over the moves of earlier streets (see the module docstring); each sums to 1.
        In Bounty the bounty ranks are summed out (:meth:`rank_ranges` keeps them). ValueError in a
        variant the bot does not re-solve (:func:`re_solves_variant`)."""
        return self.rank_ranges(observation).sum(axis=2)

    def rank_ranges(self, observation: Observation) -> np.ndarray:
        """(2, 1326, k) both seats' joint ranges over combination and bounty rank at the start of the
        observation's street (k = 13 ranks in Bounty, else k = 1; the opponent's rank prior
        :attr:`opponent_rank_prior`, uniform if unset, the bot's own uniform), by Bayes from
        the blueprint as :meth:`blueprint_ranges`; each seat's sums to 1. In Bounty the blueprint's
        bucket of a combination with rank ``r`` is ``2 * bucket + hit`` (``r`` among its cards and
        the board so far), so a move reweighs each (combination, rank) by its row. Chance nodes of
        the blueprint (River of Blood's run-card colours) are followed by the real board, past the
        abstract run cap as the lookup bot goes. A check counts the blueprint's fold there too (the
        lookup bot plays a fold as a check when checking is free, as Bounty's engine tree allows)."""
        return self._walked_ranges(observation)[0]

    def _street_ranges(self, observation: Observation) -> np.ndarray:
        """:meth:`rank_ranges` for a re-solve: :class:`_Unmodelled` when the blueprint could not
        follow the history and ``ResolvingConfig.resolve_off_tree`` is off."""
        ranges, followed = self._walked_ranges(observation)
        if not followed and not self.resolving.resolve_off_tree:
            raise _Unmodelled
        return ranges

    def _walked_ranges(self, observation: Observation) -> tuple[np.ndarray, bool]:
        """:meth:`rank_ranges`, and whether the blueprint followed every move before the street."""
        if self._combo_buckets is None:
            raise ValueError(f"the re-solving bot models no ranges in {self.config.variant!r}")
        board, seat = observation.board, observation.seat
        priors = [self._rank_prior(player == seat) for player in (0, 1)]
        ranges = [
            initial_range(board, () if player == seat else observation.hole_cards)[:, None] * priors[player]
            for player in (0, 1)
        ]
        tree = self._tree
        node, street = 0, 0
        pips = (self.config.small_blind, self.config.big_blind)
        contributions = pips
        followed = True
        for move in observation.history:
            if move.street >= observation.street:
                break
            if move.street != street:
                self._apply_swaps(ranges, observation, street, move.street)
                street, pips = move.street, (0, 0)
            node = tree.past_cap(tree.through_chance(node, board), street_ordinal(move.street))
            child = self._step(node, move, pips, contributions)
            if child == OFF_TREE:
                logger.info("%s: the history leaves the blueprint at %s: Bayes stops there", self.name, move)
                followed = False
                break
            children, kinds = tree.children(node)
            columns = [children.index(child)]
            if move.action.kind is ActionKind.CHECK and ActionKind.FOLD in kinds:  # a free fold is played as a check
                columns.append(kinds.index(ActionKind.FOLD))
            likelihood = self._likelihood(tree.group[node], board[: move.street], columns)
            posterior = ranges[move.seat] * likelihood
            if posterior.sum() > 0:
                ranges[move.seat] = posterior / posterior.sum()
            else:
                logger.info("%s: %s has probability 0 under the blueprint: that range stays as it was", self.name, move)
            pips, contributions = _after(move.seat, move.action, pips, contributions)
            node = child
        self._apply_swaps(ranges, observation, street, observation.street)
        return np.stack(ranges), followed

    def _rank_prior(self, own: bool) -> np.ndarray:
        """(k,) a seat's rank prior: one column outside Bounty; the bot's own, and the opponent's
        without :attr:`opponent_rank_prior`, uniform over the 13 ranks."""
        if not self.config.has_bounty:
            return np.ones(1)
        prior = self.opponent_rank_prior
        if own or prior is None:
            return np.full(N_RANKS, 1 / N_RANKS)
        prior = np.asarray(prior, dtype=np.float64)
        if prior.shape != (N_RANKS,) or np.any(prior < 0) or not prior.sum() > 0:
            raise ValueError(f"opponent_rank_prior must be {N_RANKS} non-negative probabilities, got {prior!r}")
        return prior / prior.sum()

    def _likelihood(self, group: int, board: Sequence[int], actions: list[int]) -> np.ndarray:
        """(1326, k) the blueprint's probability of any of ``actions`` (columns) at information-set
        ``group`` per combination (and bounty rank: k = 13 in Bounty, else 1) on ``board``."""
        buckets = self._combo_buckets.of(board)
        if self.config.has_bounty:
            buckets = np.where(buckets[:, None] >= 0, 2 * buckets[:, None] + rank_hits(board), -1)
        else:
            buckets = buckets[:, None]
        return sum(blueprint_likelihood(self._rows(group), buckets, action) for action in actions)

    def _apply_swaps(self, ranges: list[np.ndarray], observation: Observation, after: int, upto: int) -> None:
        """The swap events (the config's ``equity_parameters().swaps``) of the streets dealt after board
        length ``after`` up to ``upto`` applied to both ranges (:func:`~solver.resolve.ranges.swapped`;
        each as its observer sees it: the bot's range knowing only the board, the opponent's knowing the
        bot's cards too); nothing in variants without swaps."""
        for street, probability in self.config.equity_parameters().swaps:
            if after < street <= upto:
                for player in (0, 1):
                    own = () if player == observation.seat else observation.hole_cards
                    ranges[player] = np.stack(
                        [swapped(column, observation.board, own, probability) for column in ranges[player].T], axis=1
                    )

    # ------------------------------------------------------------------ the turn
    def _resolves(self, observation: Observation) -> bool:
        """Whether the bot re-solves at ``observation``: in a re-solved variant, on a final street
        (:func:`final_street`), and on the turn if depth-limited (:func:`depth_limited_turn`)."""
        if not self.re_solves:
            return False
        return final_street(self.config, observation.board) or (observation.street == TURN and self._turn_resolves)

    def _resolved_policy(self, observation: Observation) -> tuple[list[Action], list[float]]:
        """Real actions and their probabilities for the bot's own hand at a turn or river decision."""
        actions, rows = self._resolved_rows(observation)
        return actions, rows[:, self._session.own].tolist()

    def _start_turn(self, observation: Observation, key: tuple) -> _Session:
        """Ranges from the blueprint and a depth-limited subgame solved from the turn's first action."""
        seat = observation.seat
        moves, tree = self._street_tree(observation)
        clock = self._clock(TURN, tree)  # before ranges, leaves and gadget: when the clock says no, spend nothing
        board = tuple(observation.board)
        if self._turn_hands[0] != board:
            self._turn_hands = (board, turn_hands(np.array(board)))
        hands = self._turn_hands[1]
        own = int(np.flatnonzero(hands.hand_index == combo_index(observation.hole_cards))[0])
        combos = self._street_ranges(observation).sum(axis=2)
        ranges = _normalised(np.stack([hands.range_from_1326(combos[player]) for player in (0, 1)]))
        gadget = self._blueprint_gadget(hands, ranges, seat, tree.config, moves, board)
        return self._solve(key, hands, own, seat, ranges, tree, moves, clock, gadget)

    def _blueprint_gadget(
        self,
        hands: RiverHands,
        ranges: np.ndarray,
        seat: int,
        config: SubgameConfig,
        moves: tuple[Move, ...],
        board: Sequence[int],
    ) -> OpponentValues | None:
        """The safe re-solving gadget of a street's first solve: each opponent hand's value is its
        best response (or with ``gadget_values="blueprint"`` its blueprint value) to the blueprint's
        betting of the street (on the turn, and at its leaves its
        river against the best of the continuations; on a final street to showdown), from the
        abstract node ``moves`` lead to on ``board`` (None where the blueprint cannot follow, or
        ``ResolvingConfig.turn_gadget`` / ``river_gadget`` is off)."""
        wanted = self.resolving.river_gadget if config.final_street else self.resolving.turn_gadget
        tree = self._tree
        root = tree.past_cap(tree.through_chance(self._abstract_walk(moves, board), board), street_ordinal(len(board)))
        if not wanted or root == OFF_TREE or tree.player[root] != config.first_player:
            return None
        buckets = self._combo_buckets.of(hands.board)[hands.hand_index]
        if isinstance(hands, BountyHands):  # a type's bucket is 2 * bucket + its hit bit
            buckets = 2 * buckets + (np.arange(hands.n_hands) >= hands.n_base)
        try:
            values = blueprint_opponent_values(
                hands,
                ranges,
                seat,
                root,
                config,
                self._blueprint_river,
                buckets,
                self.resolving.continuation,
                self._river_tables,
                best=self.resolving.gadget_values == "best_response",
            )
        except ValueError as error:
            logger.info("%s: no blueprint values for the gadget (%s)", self.name, error)
            return None
        return OpponentValues(1 - seat, values)

    def _turn_leaves(self, tree: SubgameTree, hands: TurnHands, seat: int, moves: tuple[Move, ...]) -> LeafValues:
        """The leaves' continuation values, the bot's seat the searcher (see :meth:`leaf_roots`)."""
        roots = self.leaf_roots(tree, moves)
        if len(self._river_tables) > _RIVER_TABLES_KEPT:
            self._river_tables.clear()
        return leaf_values(
            hands, tree, seat, roots, self._blueprint_river, self.resolving.continuation, self._river_tables
        )

    def leaf_roots(self, tree: SubgameTree, moves: tuple[Move, ...]) -> list[int]:
        """Per leaf of a turn subgame (``tree.leaves``), the abstract river node the blueprint
        continues from: ``moves`` (the history before the subgame's root), then the subgame's path
        to the leaf, each raise read as its likeliest translation (OFF_TREE where the blueprint
        cannot follow or is not on the river's first node)."""
        base = np.array(tree.config.pot_chips) - np.array(tree.config.pips)
        reached = {0: self._abstract_walk(moves)}
        leaves = set(tree.leaves.tolist())
        roots = []
        for sub in range(tree.n_nodes):
            abstract = reached.get(sub, OFF_TREE)
            if sub in leaves:
                roots.append(self._river_root(abstract))
            if tree.kind[sub] != DECISION:
                continue
            actor = int(tree.player[sub])
            contributions = tuple(round(c) for c in tree.pot_chips[sub])
            pips = tuple(round(c - b) for c, b in zip(tree.pot_chips[sub], base, strict=True))
            for child in tree.children(sub):
                move = Move(actor, TURN, _tree_action(tree, sub, child))
                reached[child] = self._likeliest_step(abstract, move, pips, contributions)
        return roots

    def _river_root(self, abstract: int) -> int:
        """The abstract river node a turn leaf continues from (OFF_TREE if the blueprint is elsewhere)."""
        tree = self._tree
        if abstract == OFF_TREE or tree.street[abstract] != street_ordinal(RIVER):
            return OFF_TREE
        return abstract if tree.kind[abstract] in (ABSTRACT_DECISION, ABSTRACT_SHOWDOWN) else OFF_TREE

    def _likeliest_step(self, node: int, move: Move, pips: tuple[int, int], contributions: tuple[int, int]) -> int:
        """The abstract child a real move most likely translates to (no random draw)."""
        if node == OFF_TREE:
            return OFF_TREE
        return max(self._step_distribution(node, move, pips, contributions), key=lambda pair: pair[1])[0]

    def _abstract_walk(self, moves: tuple[Move, ...], board: Sequence[int] = ()) -> int:
        """The abstract node after ``moves`` (likeliest translations; chance nodes followed by ``board``,
        past the abstract run cap as the lookup bot goes)."""
        tree, board = self._tree, tuple(board)
        node, street = 0, 0
        pips = (self.config.small_blind, self.config.big_blind)
        contributions = pips
        for move in moves:
            if move.street != street:
                street, pips = move.street, (0, 0)
            node = tree.past_cap(tree.through_chance(node, board), street_ordinal(move.street))
            node = self._likeliest_step(node, move, pips, contributions)
            pips, contributions = _after(move.seat, move.action, pips, contributions)
        return node

    # ------------------------------------------------------------------ the river
    def _resolved_rows(self, observation: Observation) -> tuple[list[Action], np.ndarray]:
        """Real actions at the bot's turn or river decision and the solved strategy there for every
        hand of the subgame, (n_actions, n_hands) (``self._session.hands``' order). A turn subgame is
        depth-limited and solved at the bot's first turn decision of the hand, a river one at its
        first river decision; both are then walked (and re-solved off the tree)."""
        seat, history = observation.seat, observation.history
        key = (seat, observation.hole_cards, observation.board)
        session = self._session
        if session is None or session.key != key or history[: len(session.moves)] != session.moves:
            start = self._start_turn if observation.street == TURN else self._start_river
            session = start(observation, key)
        session = self._walk(session, observation)
        self._session = session
        tree, node = session.tree, session.node
        if tree.kind[node] != DECISION or tree.player[node] != seat:
            raise ValueError(f"the solved tree is at {tree.describe(node)!r}, not at a decision of seat {seat}")
        children = tree.children(node)
        actions = [self._subgame_action(tree, node, child, observation) for child in children]
        return actions, session.strategy[children.start : children.stop]

    def _start_river(self, observation: Observation, key: tuple) -> _Session:
        """Ranges from the blueprint and a subgame solved from the first action of a final street (the
        river, or River of Blood's last run street: the hands hold every board card). In Bounty the
        subgame's hands are types, hand x hit bit (:mod:`solver.resolve.bounty`): the bot's own
        hits by its known rank, the opponent's with the probability its rank posterior gives
        (:meth:`rank_ranges`, uniform over the 13 ranks before the blueprint's moves)."""
        moves, tree = self._street_tree(observation)
        clock = self._clock(RIVER, tree)  # before the ranges: when the clock says no, spend nothing
        board, seat, combo = np.array(observation.board), observation.seat, combo_index(observation.hole_cards)
        if self.config.has_bounty:
            hands, own, ranges = self._bounty_types(observation, board, combo)
        else:
            hands = river_hands(board)
            own = int(np.flatnonzero(hands.hand_index == combo)[0])
            combos = self._street_ranges(observation).sum(axis=2)
            ranges = _normalised(np.stack([hands.range_from_1326(combos[player]) for player in (0, 1)]))
            floor = self.resolving.range_floor
            ranges[1 - seat] = (1.0 - floor) * ranges[1 - seat] + floor / hands.n_hands
        gadget = self._blueprint_gadget(hands, ranges, seat, tree.config, moves, board)
        return self._solve(key, hands, own, seat, ranges, tree, moves, clock, gadget)

    def _bounty_types(
        self, observation: Observation, board: np.ndarray, combo: int
    ) -> tuple[BountyHands, int, np.ndarray]:
        """Bounty's final-street types, the bot's own type and both ranges over the types (see
        :meth:`_start_river`)."""
        if observation.bounty_rank is None:
            raise ValueError("the bot's own bounty rank is unknown")
        hands = bounty_hands(board, BountyRules.of(self.config))
        hits, rank = rank_hits(board), int(observation.bounty_rank)
        joint = self._street_ranges(observation)
        ranges = []
        for player in (0, 1):
            if player == observation.seat:
                ranges.append(hands.type_range(joint[player, :, rank], hits[:, rank]))
                continue
            weights = joint[player].sum(axis=1)
            hit_mass = (joint[player] * hits).sum(axis=1)
            ranges.append(
                hands.type_range(weights, np.divide(hit_mass, weights, np.zeros_like(weights), where=weights > 0))
            )
        return hands, hands.type_of(combo, bool(hits[combo, rank])), _normalised(np.stack(ranges))

    def _street_tree(self, observation: Observation) -> tuple[tuple[Move, ...], SubgameTree]:
        """The moves before the observation's street and the street's subgame tree from its first
        action (real chips; depth-limited below the river)."""
        history, seat = observation.history, observation.seat
        start = next((i for i, move in enumerate(history) if move.street == observation.street), len(history))
        pips = observation.pips
        config = SubgameConfig(
            pot_chips=tuple(c - p for c, p in zip(observation.contributions, pips, strict=True)),
            stacks=tuple(s + p for s, p in zip(observation.stacks, pips, strict=True)),
            first_player=history[start].seat if start < len(history) else seat,
            bets=self.resolving.bets,
            big_blind=self.config.big_blind,
            final_street=final_street(self.config, observation.board),
        )
        return history[:start], build_subgame_tree(config)

    def _clock(self, street: int, tree: SubgameTree) -> tuple[float, float]:
        """``(began, deadline)``, ``time.perf_counter`` values, of a re-solve of ``tree`` on ``street``:
        the game clock's budget (its pace per node, the street's minimum of iterations), capped by
        ``ResolvingConfig.seconds``; :class:`_NoTime` when the clock leaves none."""
        budget = self.time.budget(street, self._min_iterations(street), size=tree.n_nodes)
        if budget is None:
            raise _NoTime
        began = time.perf_counter()
        return began, began + min(budget, self.resolving.seconds or math.inf)

    def _min_iterations(self, street: int) -> int:
        return self.resolving.turn_min_iterations if street == TURN else self.resolving.min_iterations

    def _solve(
        self,
        key: tuple,
        hands: RiverHands,
        own: int,
        seat: int,
        ranges: np.ndarray,
        tree: SubgameTree,
        moves: tuple[Move, ...],
        clock: tuple[float, float],
        gadget: OpponentValues | None = None,
    ) -> _Session:
        """Solve ``tree`` from ``ranges`` (and the turn's leaves) until ``clock``'s deadline (from
        :meth:`_clock`, whose start it counts from); :class:`_NoTime` if that was too short for the
        street's minimum of iterations."""
        began, deadline = clock
        street = TURN if isinstance(hands, TurnHands) else RIVER
        ranges = ranges.copy()
        ranges[seat, own] = max(ranges[seat, own], OWN_FLOOR * ranges[seat].max())
        leaves = self._turn_leaves(tree, hands, seat, moves) if street == TURN else None
        solver = SubgameSolver(tree, hands, ranges, self.resolving.solver, gadget=gadget, leaves=leaves)
        run = run_within(solver.run, max_iterations=self.resolving.iterations, deadline=deadline)
        spent = time.perf_counter() - began
        self.time.record(street, spent, run, size=tree.n_nodes)
        if run.iterations < self._min_iterations(street):
            raise _NoTime
        self.resolves += 1
        self.resolve_seconds.append(spent)
        return _Session(key, hands, own, tree, solver.average_strategy(), ranges, 0, moves, solver)

    def _walk(self, session: _Session, observation: Observation) -> _Session:
        """Follow the history's new river moves in the solved tree, updating the movers' ranges;
        an opponent raise off the tree re-solves from the current node. So does an off-tree raise
        followed by other moves (the bot did not play the moves after it: a wrapper did,
        `game.play.adaptive.AdaptiveBot`'s deviations, ours off the tree or after the opponent's),
        the mover's range updated the same way, the moves after it updating nothing (no solved
        strategy holds them) and no gadget (the earlier solve's values do not hold there)."""
        history, seat = observation.history, observation.seat
        tree, strategy, node = session.tree, session.strategy, session.node
        ranges = session.ranges.copy()
        for index in range(len(session.moves), len(history)):
            move = history[index]
            if tree.kind[node] != DECISION or tree.player[node] != move.seat:
                raise ValueError(f"move {move} does not fit the solved river tree at {tree.describe(node)!r}")
            child = _subgame_child(tree, node, move.action)
            if child is not None:
                ranges[move.seat] = _updated(ranges[move.seat], strategy[child])
                node = child
                continue
            before = ranges[move.seat].copy()
            ranges[move.seat] = _updated(before, _off_tree_likelihood(tree, node, strategy, move.action))
            raises = sum(1 for m in history if m.street == observation.street and m.action.kind is ActionKind.RAISE)
            config = SubgameConfig(
                pot_chips=observation.contributions,
                stacks=observation.stacks,
                pips=observation.pips,
                first_player=seat,
                bets=self.resolving.bets,
                raises_made=raises,
                big_blind=self.config.big_blind,
                final_street=final_street(self.config, observation.board),
            )
            tree = build_subgame_tree(config)
            clock = self._clock(TURN if isinstance(session.hands, TurnHands) else RIVER, tree)
            last = index == len(history) - 1
            if not (self.resolving.nested_gadget and last):
                return self._solve(session.key, session.hands, session.own, seat, ranges, tree, history, clock)
            # the gadget's reach: every hand that could have bet, each held to its in-tree value;
            # the translated range stays the session's, for the moves that follow
            reach = ranges.copy()
            reach[move.seat] = before
            gadget = _nested_gadget(session, node, move.seat)
            solved = self._solve(session.key, session.hands, session.own, seat, reach, tree, history, clock, gadget)
            kept = solved.ranges.copy()
            kept[move.seat] = ranges[move.seat]
            return dataclasses.replace(solved, ranges=kept)
        return dataclasses.replace(session, ranges=ranges, node=node, moves=history)

    def _subgame_action(self, tree: SubgameTree, node: int, child: int, observation: Observation) -> Action:
        """The real action of subgame ``child`` (check/call if it is not legal here)."""
        legal = observation.legal_actions
        text = tree.describe(child)
        if tree.kind[child] == FOLD and ActionKind.FOLD in legal:
            return Action.fold()
        if text == "check" and ActionKind.CHECK in legal:
            return Action.check()
        if text == "call" and ActionKind.CALL in legal:
            return Action.call()
        if tree.kind[child] == DECISION and text != "check" and ActionKind.RAISE in legal:
            low, high = observation.raise_bounds
            return Action.raise_to(min(high, max(low, _raise_to(tree, node, child))))
        return passive_action(observation)


def _tree_action(tree: SubgameTree, node: int, child: int) -> Action:
    """The real action of subgame ``child`` at ``node`` (the tree's chips are the engines' amounts)."""
    text = tree.describe(child)
    if tree.kind[child] == FOLD:
        return Action.fold()
    if text in ("check", "call"):
        return Action.check() if text == "check" else Action.call()
    return Action.raise_to(_raise_to(tree, node, child))


def _raise_to(tree: SubgameTree, node: int, child: int) -> int:
    """The pip (chips put in on the street) the actor at ``node`` raises to by taking ``child``."""
    actor = int(tree.player[node])
    street_base = tree.config.pot_chips[actor] - tree.config.pips[actor]
    return round(float(tree.pot_chips[child, actor] - street_base))


def _subgame_child(tree: SubgameTree, node: int, action: Action) -> int | None:
    """The child of ``node`` a real action takes (None: a raise to an amount the tree lacks)."""
    for child in tree.children(node):
        text = tree.describe(child)
        if action.kind is ActionKind.FOLD and tree.kind[child] == FOLD:
            return child
        if (action.kind is ActionKind.CHECK and text == "check") or (action.kind is ActionKind.CALL and text == "call"):
            return child
        if (
            action.kind is ActionKind.RAISE
            and tree.kind[child] == DECISION
            and text != "check"
            and _raise_to(tree, node, child) == action.amount
        ):
            return child
    return None


def _off_tree_likelihood(tree: SubgameTree, node: int, strategy: np.ndarray, action: Action) -> np.ndarray:
    """(n_hands,) probability of an off-tree raise: the solved strategy's probabilities of the tree's
    raises it translates to (pseudo-harmonic over pot fractions, as the lookup bot translates)."""
    actor = int(tree.player[node])
    pips = tree.pot_chips[node] - (np.array(tree.config.pot_chips) - np.array(tree.config.pips))
    cost = pips[1 - actor] - pips[actor]
    pot = tree.pot_chips[node].sum()
    raises = [c for c in tree.children(node) if tree.kind[c] == DECISION and tree.describe(c) != "check"]
    if not raises:  # past the runtime tree's cap: no model of the raise, the range stays as it was
        return np.ones(strategy.shape[1])
    fractions = [(_raise_to(tree, node, c) - pips[actor] - cost) / (pot + cost) for c in raises]
    real = max((action.amount - pips[actor] - cost) / (pot + cost), 0.0)
    weights = translation_probabilities(real, fractions)
    return sum(weight * strategy[child] for weight, child in zip(weights, raises, strict=True))


def _normalised(ranges: np.ndarray) -> np.ndarray:
    totals = ranges.sum(axis=1, keepdims=True)
    if np.any(totals <= 0):
        raise ValueError("a range holds no combination the board leaves")
    return ranges / totals


def _updated(weights: np.ndarray, likelihood: np.ndarray) -> np.ndarray:
    """``weights * likelihood`` normalised; the prior kept (and logged) if that leaves nothing."""
    posterior = weights * likelihood
    total = posterior.sum()
    if total <= 0:
        logger.info("an action of probability 0 under the solved strategy: that range stays as it was")
        return weights
    return posterior / total


def make_resolving_bot(
    config: NoLimitConfig | None = None,
    strategy: str | Path | None = None,
    seed: SeedLike = None,
    card_abstraction: str | Path | None = None,
) -> ResolvingBot:
    """A :class:`ResolvingBot` of ``strategy`` (required) at its default settings, playing the rules
    ``config`` (default: the file's), with the card file ``card_abstraction`` (default: found as the
    lookup bot finds it): the bot ``vcfr export-bot --resolve`` exports.

    >>> make_resolving_bot()
    Traceback (most recent call last):
    ...
    ValueError: the re-solving bot needs a strategy file: pass strategy=<path of an .h5 strategy file>
    """
    if strategy is None:
        raise ValueError("the re-solving bot needs a strategy file: pass strategy=<path of an .h5 strategy file>")
    return ResolvingBot(strategy, card_abstraction=card_abstraction, config=config, seed=seed)

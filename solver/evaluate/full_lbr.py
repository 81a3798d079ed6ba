"""Full-game local best response (Lisý & Bowling 2017) against any bot that exposes its policy.

LBR plays the real game (`game.rules`, any heads-up variant, either rule set) against a
`game.rules.actions.PolicyBot`, ``hands`` deals per seat (the same deal twice, LBR in seat 0
then seat 1), and reports its winnings in mbb/hand with a Student-t 95% interval over the deals
(positive: LBR wins). The bot plays with ``act``; LBR reads only its own view and the bot's
``policy``. The rounds are one match to the bot: a bot with ``round_over`` (the adaptive bot,
`game.play.adaptive.AdaptiveBot`, learning its opponent) is shown each finished round from its seat,
as the match runner and the engines do.

**LBR's actions.** Fold, check/call, raises of the configured pot fractions (default 0.5p, 1p, 2p;
a raise of pot fraction f is ``own pip + cost + f * (pot + cost)`` chips, the bet abstraction's
definition, clamped to the legal bounds) and all-in; at the Auction, bids of the configured pot
fractions (default 0, 0.25p, 1p) and all-in. None of them need be in the bot's tree.

**The belief.** ``candidates`` K private states of the bot consistent with LBR's view, drawn
uniformly from the cards LBR has not seen at the start of the hand (Bounty: with a uniform
bounty rank), weighted 1. Each chance step is applied to each candidate as the rules deal it:
a board card held by a candidate (or a card LBR receives) zeroes it; Swap's swaps are drawn per
candidate with the rules' probabilities; at the Auction a candidate receives a third card when
the bot won or tied the auction. Each bot action, once LBR sees it, multiplies each candidate's
weight by the bot's probability of that action with the candidate's cards substituted in its
observation (``policy_rows`` if the bot has it, else ``policy`` per candidate). If every weight
is 0 the belief is redrawn uniformly around the current view (counted in ``belief_resets``).

**The decision rule** (Lisý & Bowling, with the check-down assumption), each value being LBR's
expected net chips of the hand, averaged over the candidates by weight:

- fold: minus LBR's contribution (Bounty: the bot's bounty payoff where the candidate hits);
- check/call: the showdown value after calling, the rest checked down;
- raise to a: the bot folds with its policy's probability ``f`` at each candidate (LBR wins the
  bot's contribution, with its own bounty if it hits), else it calls and the hand is checked
  down: ``f * fold value + (1 - f) * showdown value`` (a re-raise counted as a call);
- bid b: each bid of the bot with its policy's probability at each candidate; the auction then
  resolves by the rules (second price, both pay and both draw on a tie) and the hand is checked
  down.

Showdown values come from `solver.evaluate.kernels_full_lbr._showdown_outcomes` (Monte Carlo over the
variant's runouts: the Auction's third cards, Swap's future swaps, River of Blood's runs, Bounty's
hits), ``samples`` runouts per candidate. LBR takes the largest value; ties go to the passive
action (check/call, then fold, then bids and raises by size). When no bet is possible (a stack is
empty; the engines still ask for checks) LBR checks. The estimate is what LBR actually
wins in the real game, so it is a lower bound on the bot's exploitability whatever the quality
of the heuristic values. Per hand the rules, the bot and the belief bookkeeping run in Python; the
runouts over candidates in numba.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from game.dataclass_support import check_int
from game.play.bot_support import passive_action, policy_rows_by_hand
from game.play.match import interval_95
from game.rules.actions import Action, ActionKind, PolicyBot
from game.rules.chance import RandomChance
from game.rules.nolimit import FLOP, PREFLOP, RIVER, STREET_NAMES, TURN, NoLimitConfig, NoLimitRound, Observation
from game.rules.variants import start_round
from solver.evaluate import kernels_full_lbr
from solver.evaluate.kernels_full_lbr import LOSE, LOSE_HIT, N_OUTCOMES, TIE_HIT, TIE_THEY_HIT, WIN, WIN_HIT

_CHECK_OR_FOLD = frozenset({ActionKind.CHECK, ActionKind.FOLD})
DEFAULT_SIZES = (0.5, 1.0, 2.0)
DEFAULT_BIDS = (0.0, 0.25, 1.0)
_FOLD, _CHECK, _CALL, _RAISE, _BID = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.RAISE,
    ActionKind.BID,
)


@dataclass(frozen=True)
class FullLBRConfig:
    """How full-game LBR plays: ``hands`` deals (each played once per seat, >= 2), ``candidates`` K,
    raise ``sizes`` and auction ``bids`` (pot fractions >= 0; all-in is always added), ``samples``
    runouts per candidate and decision, ``seed`` (deals, candidates, runouts). ``raise_streets``: the
    streets (names of :data:`STREET_NAMES`; "river" includes River of Blood's run streets) where LBR may
    raise; elsewhere it only folds, checks or calls. Restricting them measures where a bot leaks:
    each restricted LBR is still a lower bound on the bot's exploitability.

    >>> FullLBRConfig(sizes=(-1.0,))
    Traceback (most recent call last):
    ...
    ValueError: sizes must be finite pot fractions >= 0, got (-1.0,)
    >>> FullLBRConfig(raise_streets=("flop", "showdown"))
    Traceback (most recent call last):
    ...
    ValueError: raise_streets must be names among ('preflop', 'flop', 'turn', 'river'), got ('flop', 'showdown')
    """

    hands: int = 1_000
    candidates: int = 400
    sizes: tuple[float, ...] = DEFAULT_SIZES
    bids: tuple[float, ...] = DEFAULT_BIDS
    samples: int = 16
    seed: int = 0
    raise_streets: tuple[str, ...] = STREET_NAMES

    def __post_init__(self) -> None:
        if not set(self.raise_streets) <= set(STREET_NAMES) or not isinstance(self.raise_streets, tuple):
            raise ValueError(f"raise_streets must be names among {STREET_NAMES}, got {self.raise_streets!r}")
        for name, minimum in (("hands", 2), ("candidates", 1), ("samples", 1), ("seed", 0)):
            check_int(name, getattr(self, name), minimum)
        for name in ("sizes", "bids"):
            values = getattr(self, name)
            if not all(isinstance(v, (int, float)) and np.isfinite(v) and v >= 0 for v in values):
                raise ValueError(f"{name} must be finite pot fractions >= 0, got {values!r}")


@dataclass(frozen=True)
class FullLBRResult:
    """Full-game LBR's winnings: ``payoffs`` int64 ``[hands, 2]`` chips LBR won on each deal in seat 0
    and seat 1; ``mbb_per_hand`` and ``ci95_mbb`` (Student-t over the deals' seat averages);
    ``seconds`` wall time; ``belief_resets`` hands where every candidate reached weight 0;
    ``bot_illegal`` illegal bot actions (replaced by check/call/fold)."""

    variant: str
    rules: str
    config: FullLBRConfig
    payoffs: np.ndarray = field(repr=False)
    big_blind: int
    mbb_per_hand: float
    ci95_mbb: float
    seconds: float
    belief_resets: int
    bot_illegal: int

    @property
    def chips_per_hand(self) -> float:
        return float(self.payoffs.mean())

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "rules": self.rules,
            "actions": "full",
            "hands": self.config.hands,
            "candidates": self.config.candidates,
            "sizes": list(self.config.sizes),
            "bids": list(self.config.bids),
            "samples": self.config.samples,
            "seed": self.config.seed,
            "raise_streets": list(self.config.raise_streets),
            "big_blind": self.big_blind,
            "mbb_per_hand": self.mbb_per_hand,
            "ci95_mbb": self.ci95_mbb,
            "chips_per_hand": self.chips_per_hand,
            "seat_chips": [float(x) for x in self.payoffs.mean(axis=0)],
            "seconds": self.seconds,
            "seconds_per_1000_hands": 1000.0 * self.seconds / (2 * self.config.hands),
            "belief_resets": self.belief_resets,
            "bot_illegal": self.bot_illegal,
        }


class DeckChance:
    """A chance source dealing a given deck (card ints) in uniformly shuffled order; flips uniform.
    For games on a short deck (`abstraction.exact.small_variants`); ``RandomChance`` deals 52 cards."""

    def __init__(self, deck: Sequence[int], rng: np.random.Generator) -> None:
        self._cards = [int(c) for c in rng.permutation(np.asarray(deck))]
        self._flips = rng.random(8).tolist()
        self._next = 0
        self._next_flip = 0

    def deal(self, count: int) -> list[int]:
        if self._next + count > len(self._cards):
            raise ValueError(f"deck exhausted: asked for {count} cards, {len(self._cards) - self._next} left")
        cards = self._cards[self._next : self._next + count]
        self._next += count
        return cards

    def flip(self, name: str, probability: float) -> bool:
        outcome = self._flips[self._next_flip % len(self._flips)] < probability
        self._next_flip += 1
        return bool(outcome)

    def clone(self) -> DeckChance:
        copy = DeckChance.__new__(DeckChance)
        copy._cards, copy._flips = self._cards, self._flips
        copy._next, copy._next_flip = self._next, self._next_flip
        return copy


def policy_matrix(
    bot: PolicyBot, observation: Observation, holes: list[tuple[int, ...]], ranks: list[int | None]
) -> tuple[list[Action], np.ndarray]:
    """The bot's policy at ``observation`` with each candidate's hole cards and bounty rank substituted:
    ``(actions, probabilities [K, len(actions)])``; the bot's ``policy_rows`` when it has one."""
    rows = getattr(bot, "policy_rows", None)
    if rows is not None:
        return rows(observation, holes, ranks)
    return policy_rows_by_hand(bot, observation, holes, ranks)


class _Belief:
    """K candidate private states of the bot (hole cards, count, bounty rank) with weights."""

    def __init__(self, lbr: _LBR, observation: Observation) -> None:
        self.lbr = lbr
        self.street = 0
        self.board = 0  # board cards applied
        self.thirds = False
        self.resets = 0
        self.bot_moves = 0  # bot moves applied
        self.draw(observation)

    def draw(self, observation: Observation) -> None:
        """K candidates uniform over the cards LBR has not seen (current hole cards only)."""
        lbr, k = self.lbr, self.lbr.settings.candidates
        pool = lbr.unseen(observation)
        picks = np.argsort(lbr.rng.random((k, len(pool))), axis=1)[:, :2]
        self.hole = np.full((k, 3), -1, dtype=np.int8)
        self.hole[:, :2] = pool[picks]
        self.count = np.full(k, 2, dtype=np.int64)
        bounty = lbr.config.has_bounty
        self.rank = lbr.rng.integers(0, 13, size=k) if bounty else np.full(k, -1, dtype=np.int64)
        self.weight = np.ones(k)

    def holes(self, live: np.ndarray) -> tuple[list[tuple[int, ...]], list[int | None]]:
        holes = [
            tuple(row[:count]) for row, count in zip(self.hole[live].tolist(), self.count[live].tolist(), strict=True)
        ]
        ranks = [rank if rank >= 0 else None for rank in self.rank[live].tolist()]
        return holes, ranks

    def advance(self, observation: Observation, street: int) -> None:
        """Apply chance up to ``street``: board cards (conflicts zeroed), swaps, Auction thirds."""
        swaps = dict(self.lbr.parameters.swaps)
        while self.street < street:
            self.street = FLOP if self.street == 0 else self.street + 1
            if self.street in swaps:
                self._swap(observation, swaps[self.street])
        n_board = min(len(observation.board), 3 + max(0, street - FLOP) if street >= FLOP else 0)
        for card in observation.board[self.board : n_board]:
            self.weight[(self.hole == card).any(axis=1)] = 0.0
        self.board = max(self.board, n_board)
        for card in observation.hole_cards:
            self.weight[(self.hole == card).any(axis=1)] = 0.0

    def give_thirds(self, observation: Observation) -> None:
        """The bot won or tied the auction: each candidate draws its third card from the unseen cards."""
        self.thirds = True
        pool = self.lbr.unseen(observation)
        for k in np.flatnonzero(self.weight > 0):
            free = pool[~np.isin(pool, self.hole[k, :2])]
            self.hole[k, 2] = free[int(self.lbr.rng.random() * len(free))]
            self.count[k] = 3

    def _swap(self, observation: Observation, probability: float) -> None:
        pool = self.lbr.unseen(observation)
        flips = self.lbr.rng.random((len(self.weight), 2)) < probability
        for k, i in zip(*np.nonzero(flips), strict=True):
            free = pool[~np.isin(pool, self.hole[k, :2])]
            self.hole[k, i] = free[int(self.lbr.rng.random() * len(free))]

    def reweight(self, observation: Observation, action: Action) -> None:
        """Multiply each live candidate's weight by the bot's probability of ``action``."""
        live = np.flatnonzero(self.weight > 0)
        if len(live) == 0:
            return
        holes, ranks = self.holes(live)
        actions, matrix = policy_matrix(self.lbr.bot, observation, holes, ranks)
        column = actions.index(action) if action in actions else -1
        self.weight[live] *= matrix[:, column] if column >= 0 else 0.0

    def check(self, observation: Observation) -> None:
        if not (self.weight > 0).any():
            self.resets += 1
            self.draw(observation)
            if self.thirds:
                self.give_thirds(observation)


class _LBR:
    """One full-game LBR run: the rules, the bot, the settings and the decision rule."""

    def __init__(self, config: NoLimitConfig, bot: PolicyBot, settings: FullLBRConfig, deck: np.ndarray) -> None:
        self.config = config
        self.bot = bot
        self.settings = settings
        self.deck = deck
        self.rng = np.random.default_rng(settings.seed)
        self.bot_illegal = 0
        self.resets = 0
        self.seen: set[int] = set()
        self.pending: list[tuple[Observation, Action]] = []
        self.parameters = parameters = config.equity_parameters()
        self.multiplier = float(parameters.bounty_multiplier)
        self.bonus = float(parameters.bounty_bonus)
        self.raising = [False] * (RIVER + 1)
        for name, street in zip(STREET_NAMES, (PREFLOP, FLOP, TURN, RIVER), strict=True):
            self.raising[street] = name in settings.raise_streets

    def unseen(self, observation: Observation) -> np.ndarray:
        """Deck cards LBR has not seen (int8)."""
        seen = self.seen | set(observation.hole_cards) | set(observation.board)
        return np.array([c for c in self.deck.tolist() if c not in seen], dtype=np.int8)

    # ------------------------------------------------------------------ one hand
    def play(self, round_: NoLimitRound, seat: int) -> int:
        """Play one round with LBR in ``seat``; LBR's chips won."""
        self.seen = set()
        belief: _Belief | None = None
        self.pending = pending = []
        bot_seat = 1 - seat
        while (to_act := round_.to_act) is not None:
            if to_act == bot_seat:
                observation = round_.observation(bot_seat)
                action = self.bot.act(observation)
                if not round_.can_apply(action):
                    self.bot_illegal += 1
                    action = passive_action(observation)
                pending.append((observation, action))
                round_.apply(action)
                continue
            observation = round_.observation(seat)
            if observation.legal_actions <= _CHECK_OR_FOLD:  # a stack is empty: the engine asks for checks
                round_.apply(Action.check())
                continue
            self.seen |= set(observation.hole_cards)
            if belief is None:
                belief = _Belief(self, observation)
            visible = sum(1 for move in observation.history if move.seat == bot_seat)
            for bot_view, action in pending[belief.bot_moves : visible]:
                belief.advance(observation, bot_view.street)
                if self._bot_won_third(observation, bot_view, belief):
                    belief.give_thirds(observation)
                belief.reweight(bot_view, action)
                belief.check(observation)
            belief.bot_moves = max(belief.bot_moves, visible)
            belief.advance(observation, observation.street)
            if self._bot_won_third(observation, observation, belief):
                belief.give_thirds(observation)
            belief.check(observation)
            round_.apply(self.decide(round_, observation, belief))
        if belief is not None:
            self.resets += belief.resets
        report = getattr(self.bot, "round_over", None)
        if report is not None:
            report(round_.observation(bot_seat))
        return int(round_.payoffs()[seat])

    def _bot_won_third(self, lbr_view: Observation, at: Observation, belief: _Belief) -> bool:
        """Whether the candidates must hold a third card at ``at`` (the auction resolved before it, the
        bot's bid at least LBR's), and do not yet."""
        bids = lbr_view.bids
        if belief.thirds or bids[0] is None or at.street < FLOP or _BID in at.legal_actions:
            return False
        bot = 1 - lbr_view.seat
        return bids[bot] >= bids[lbr_view.seat]

    # ------------------------------------------------------------------ the decision rule
    def decide(self, round_: NoLimitRound, observation: Observation, belief: _Belief) -> Action:
        legal = observation.legal_actions
        seat, bot = observation.seat, 1 - observation.seat
        live = np.flatnonzero(belief.weight > 0)
        weight = belief.weight[live] / belief.weight[live].sum()
        contribution, bot_contribution = observation.contributions[seat], observation.contributions[bot]
        if _BID in legal:
            return self._bid(round_, observation, belief, live, weight)
        auction_open = self.config.has_auction and observation.street < FLOP
        outcomes = self._outcomes(observation, belief, live, auction_open, auction_open)
        options: list[tuple[Action, float]] = []
        stack = self.config.stack
        if _CHECK in legal:
            options.append((Action.check(), self._showdown(outcomes, contribution, bot_contribution) @ weight))
        if _CALL in legal:
            called = min(bot_contribution, stack)
            options.append((Action.call(), self._showdown(outcomes, called, called) @ weight))
        if _FOLD in legal:
            options.append((Action.fold(), self._fold_value(observation, belief, live, contribution) @ weight))
        if _RAISE in legal and self.raising[min(observation.street, RIVER)]:
            win_now = self._bot_folds_value(observation, bot_contribution)
            for amount in self._raise_amounts(observation):
                after = round_.clone()
                after.apply(Action.raise_to(amount))
                view = after.observation(bot)
                holes, ranks = belief.holes(live)
                actions, matrix = policy_matrix(self.bot, view, holes, ranks)
                folds = sum(matrix[:, j] for j, a in enumerate(actions) if a.kind is _FOLD)
                total = min(contribution + amount - observation.pips[seat], stack)
                called = self._showdown(outcomes, total, total)
                options.append((Action.raise_to(amount), (folds * win_now + (1 - folds) * called) @ weight))
        best, value = options[0]
        for action, option_value in options[1:]:
            if option_value > value + 1e-9:
                best, value = action, option_value
        return best

    def _raise_amounts(self, observation: Observation) -> list[int]:
        low, high = observation.raise_bounds
        seat = observation.seat
        pips = observation.pips
        cost = pips[1 - seat] - pips[seat]
        pot = sum(observation.contributions)
        amounts = {min(high, max(low, round(pips[seat] + cost + f * (pot + cost)))) for f in self.settings.sizes}
        return sorted(amounts | {high})

    def _outcomes(
        self, observation: Observation, belief: _Belief, live: np.ndarray, extra: bool, candidate_extra: bool
    ) -> np.ndarray:
        """Showdown outcome fractions ``[len(live), 6]`` of LBR's hand against each live candidate."""
        excluded = np.zeros(52, dtype=np.bool_)
        excluded[list(self.seen | set(observation.board) | set(observation.hole_cards))] = True
        out = np.zeros((len(live), N_OUTCOMES))
        kernels_full_lbr._showdown_outcomes(
            np.array(observation.hole_cards, dtype=np.int8),
            int(extra),
            -1 if observation.bounty_rank is None else int(observation.bounty_rank),
            np.ascontiguousarray(belief.hole[live]),
            belief.count[live],
            int(candidate_extra),
            belief.rank[live],
            np.ones(len(live)),
            np.array(observation.board, dtype=np.int8),
            self.deck,
            excluded,
            np.array(self.parameters.swaps_after(observation.street), dtype=np.float64),
            int(self.parameters.max_board_cards),
            self.settings.samples,
            int(self.rng.integers(2**31)),
            out,
        )
        return out

    def _showdown(self, outcomes: np.ndarray, mine: float, theirs: float) -> np.ndarray:
        """LBR's net chips per candidate at a showdown with contributions ``mine`` and ``theirs``."""
        m, b = self.multiplier, self.bonus
        tie = (m - 1) / 2
        return (
            outcomes[:, WIN_HIT] * (m * theirs + b)
            + outcomes[:, WIN] * theirs
            - outcomes[:, LOSE_HIT] * (m * mine + b)
            - outcomes[:, LOSE] * mine
            + outcomes[:, TIE_HIT] * (tie * theirs + b)
            - outcomes[:, TIE_THEY_HIT] * (tie * mine + b)
        )

    def _fold_value(self, observation: Observation, belief: _Belief, live: np.ndarray, mine: float) -> np.ndarray:
        """LBR folds: it loses its contribution, with the bot's bounty where the candidate hits."""
        if belief.rank[0] < 0:
            return np.full(len(live), -float(mine))
        board_ranks = {card >> 2 for card in observation.board}
        hole_ranks = belief.hole[live] >> 2
        hits = np.isin(belief.rank[live], list(board_ranks)) | (
            (hole_ranks == belief.rank[live][:, None]) & (belief.hole[live] >= 0)
        ).any(axis=1)
        return np.where(hits, -(self.multiplier * mine + self.bonus), -float(mine))

    def _bot_folds_value(self, observation: Observation, theirs: float) -> float:
        """The bot folds: LBR wins its contribution, with LBR's bounty if it hits."""
        rank = observation.bounty_rank
        if rank is not None and any(card >> 2 == rank for card in (*observation.hole_cards, *observation.board)):
            return self.multiplier * theirs + self.bonus
        return float(theirs)

    def _bid(
        self, round_: NoLimitRound, observation: Observation, belief: _Belief, live: np.ndarray, weight: np.ndarray
    ) -> Action:
        """The bid of largest value against the bot's bid policy at each candidate (module docstring)."""
        seat, bot = observation.seat, 1 - observation.seat
        low, high = observation.bid_bounds
        pot = sum(observation.contributions)
        bids = sorted({min(high, max(low, round(f * pot))) for f in self.settings.bids} | {high})
        # the three auction outcomes' showdowns: LBR draws, the bot draws, both draw
        cases = {
            "lbr": self._outcomes(observation, belief, live, True, False),
            "bot": self._outcomes(observation, belief, live, False, True),
            "tie": self._outcomes(observation, belief, live, True, True),
        }
        mine, theirs = observation.contributions[seat], observation.contributions[bot]
        holes, ranks = belief.holes(live)
        best, value = bids[0], -np.inf
        for bid in bids:
            after = round_.clone()
            after.apply(Action.bid(bid))
            shown_bids = [move.action for move in observation.history if move.seat == bot and move.action.kind is _BID]
            if shown_bids:  # the bot bid first, in the open (engine rules)
                actions, matrix = shown_bids[-1:], np.ones((len(live), 1))
            elif after.to_act == bot:  # the bot bids after LBR
                actions, matrix = policy_matrix(self.bot, after.observation(bot), holes, ranks)
            else:  # the bot bid first, sealed: its policy at that decision
                view = next(view for view, action in reversed(self.pending) if action.kind is _BID)
                actions, matrix = policy_matrix(self.bot, view, holes, ranks)
            values = np.zeros(len(live))
            for column, action in enumerate(actions):
                their = action.amount
                if bid > their:
                    shown = self._showdown(cases["lbr"], mine + their, theirs)
                elif their > bid:
                    shown = self._showdown(cases["bot"], mine, theirs + bid)
                else:
                    shown = self._showdown(cases["tie"], mine + bid, theirs + bid)
                values += matrix[:, column] * shown
            option = float(values @ weight)
            if option > value + 1e-9:
                best, value = bid, option
        return Action.bid(best)


def full_lbr(
    config: NoLimitConfig,
    bot: PolicyBot,
    settings: FullLBRConfig | None = None,
    *,
    deck: Sequence[int] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> FullLBRResult:
    """Full-game LBR (module docstring) of ``bot`` in the real game ``config``: ``settings.hands`` deals,
    each played with LBR in seat 0 and in seat 1. ``deck``: the cards the game deals (default 52);
    a short deck is dealt by :class:`DeckChance`. Bounty's ranks are drawn uniformly per deal.
    ``on_progress(done, total)`` after each round.
    """
    settings = settings or FullLBRConfig()
    if not isinstance(config, NoLimitConfig):
        raise TypeError(f"full-game LBR plays a heads-up variant (NoLimitConfig), got {config!r}")
    if not callable(getattr(bot, "policy", None)):
        raise TypeError(f"full-game LBR needs a bot with a policy (game.rules.actions.PolicyBot), got {bot!r}")
    cards = np.arange(52, dtype=np.int8) if deck is None else np.array(sorted(set(deck)), dtype=np.int8)
    lbr = _LBR(config, bot, settings, cards)
    deals = np.random.default_rng([settings.seed, 1])
    payoffs = np.zeros((settings.hands, 2), dtype=np.int64)
    start = time.perf_counter()
    for hand in range(settings.hands):
        deal_seed = int(deals.integers(2**63))
        ranks = tuple(int(r) for r in deals.integers(0, 13, size=2)) if config.has_bounty else None
        for seat in (0, 1):
            if deck is None:
                source: Any = RandomChance(deal_seed)
            else:
                source = DeckChance(cards, np.random.default_rng(deal_seed))
            round_ = start_round(config, source, match_state=ranks)
            payoffs[hand, seat] = lbr.play(round_, seat)
            if on_progress is not None:
                on_progress(2 * hand + seat + 1, 2 * settings.hands)
    seconds = time.perf_counter() - start
    per_deal = payoffs.mean(axis=1) * 1000.0 / config.big_blind
    interval = interval_95(per_deal)
    return FullLBRResult(
        variant=config.variant,
        rules=config.rules,
        config=settings,
        payoffs=payoffs,
        big_blind=config.big_blind,
        mbb_per_hand=float(per_deal.mean()),
        ci95_mbb=float(interval) if interval is not None else float("nan"),
        seconds=seconds,
        belief_resets=lbr.resets,
        bot_illegal=lbr.bot_illegal,
    )

"""AIVAT (Burch, Schmid, Moravcik, Morrill, Bowling 2018): an unbiased, lower-variance match estimate.

For each round of a heads-up match between a ``PolicyBot`` X (the evaluated side) and any
opponent, AIVAT's estimate of X's payoff (chips) is

    realised payoff
    - sum over chance events of (v(after the event) - E_event[v])
    - sum over X's decisions of (v(after X's action) - sum_a pi_X(a) v(after a))

The opponent's decisions get no correction when its policy is unknown; when it exposes one too
(``correct_opponent``), they are corrected the same way, with the opponent's policy and still X's
v. Each correction has mean zero given everything before it, for any fixed value function v, so
the estimate is unbiased; v only decides how much variance goes. ``pi_X`` is ``X.policy`` at X's
observation, recorded as X plays (a bot whose action was replaced as faulty, or whose policy
raised, gets no correction at that decision: ``uncorrected_decisions`` counts them).

The value function: the check-down value, X's expected chips if nobody bets again from a
full-information state (both players' cards are known to the evaluator after the round): a bet
still to be answered is called (contributions equalised), then the rest of the chance is dealt
by the rules (board cards, Swap's swaps, River of Blood's run cards) and the showdown pays by
the variant's formula (Bounty: ``bounty_multiplier * c + bounty_bonus`` for a hitting winner,
without the integer rounding; engine ties split as the engine does). After a fold, v is the
rules' exact payoff.

The expectation over a chance event: v is itself an expectation over the chance to come, so
``E_event[v(after)] = v(before)`` (the tower property; a street's board cards, its swaps and the
run cards it triggers form one event). v is computed exactly (every completion of the board)
once the hole cards are known, at least the flop is out and no swap, run or third card can follow
(Hold'em and Bounty from the flop on, Swap after the turn's swaps, River of Blood once a black
card ends the runs, Auction after the auction); elsewhere (preflop, the hole-card deal, Swap's
pending swaps, River of Blood's runs, Auction's pending third cards) by ``samples`` Monte Carlo
deals drawn independently of the match. An independent unbiased estimate of v keeps every
correction's mean at zero, so the estimate stays unbiased; its noise is small beside the luck
removed (all the contribution levels at one card state share the same samples, so X's action
corrections stay consistent).

On the turn and the river, when both players expose a policy (the opponent's decisions are
corrected) and no chance follows the river (every variant but River of Blood, whose runs may
follow), v is instead the policy value (``PolicyValue``): X's expected chips when the betting to
the round's end is played out from the state by both players' policies (actions below
``MIN_PROBABILITY`` not followed), a fold or showdown paid by the rules, and where the turn's
betting ends, the mean over the river cards of v after the card. With both policies known this
is the true value of the state (up to the pruned actions), so the betting of the turn and the
river adds almost no variance (each decision's correction removes its luck). The river card's
correction is v after the card dealt minus that mean. The mean is over every card the deck still
holds (the cards dealt so far, Swap's discarded hole cards included, are out), each alternative
round replayed through the rules; or, with ``river_cards``, over that many of them drawn once per
turn independently of the match (the same ones for both rounds of a duplicate pair): an unbiased
estimate of the full mean (the check-down value's exact mean plus the sampled cards' mean gain
over it), so every correction keeps its zero mean (it is linear in the means), at the price of
the sampling's noise.

The turn card's correction (with Swap's turn swaps: one event) uses the policy value too: v after
the event minus an estimate m of its mean, the check-down value's mean (its value before the
event, as elsewhere) plus the mean gain of the policy value over the check-down value at the
turn's start (``PolicyValue.turn_gain``): over every turn card the deck holds, no swap, and (Swap)
with the probability of a turn swap, 1 - (1 - 0.05)^4, over ``TURN_SWAP_SAMPLES`` turn events drawn
given one; each alternative turn's ends averaged over ``turn_rivers`` river cards drawn for it. It
stays unbiased: m is computed from the state before the turn and from draws of a generator of the
value seed and the deal pair alone, so it does not depend on the turn event the match deals (the
turn card dealt being one of the alternatives changes nothing); m is linear in river means that are
unbiased for the exact ones (as with ``river_cards``; the policies' weights are fixed functions of
the states) and the two swap strata are weighted by their exact probabilities, so over the draws
E[m] = E_turn[v after the event], and the correction's mean is zero (the draws being independent
of the match, as the check-down value's Monte Carlo is). The flop's decisions then use the policy
value as well (``PolicyValue.values_flop``; not Auction, whose flop opens with the bids and their
third cards): the flop's betting played out by both policies and, where it ends, the check-down
value plus that mean gain (the same draws for every end: they are compared on the same cards), so
the switch from the check-down value to the policy value lies at the flop's start (the flop
cards' correction keeps the check-down value: its mean would need a flop tree per flop).
``turn_rivers=0`` keeps the check-down value at the turn card and on the flop.

After an action its policy gives less than ``MIN_PROBABILITY`` (a fixed function of the state, the
policies being known), v is the check-down value: a policy spread over every raise amount (the
random bot's) then costs one tree per likely action, not one per amount (on the flop, one tree per
likely action and alternative turn: about 10x the match against the random bot).

Auction: an auction not yet resolved counts a missing bid as 0 (before it opens, both bids are
0: a tie, both players get a third card and pay nothing; after one bid b > 0, its bidder gets the
card for 0). The second bid is a decision (its payments) followed by a chance event (the third
cards), corrected separately.

>>> from game.play.bots import CheckCallBot
>>> from game.rules.holdem import HoldemConfig
>>> class CheckCallPolicy(CheckCallBot):
...     def policy(self, observation):
...         return ((self.act(observation), 1.0),)
>>> result = aivat_match(HoldemConfig(), CheckCallPolicy(), CheckCallBot(), rounds=20, seed=1, samples=200)
>>> result.rounds, result.uncorrected_decisions
(20, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from game.cards.rng import SeedLike, as_generator
from game.dataclass_support import check_int
from game.play.history import RoundRecord
from game.play.kernels_aivat import _N_OUTCOMES, _outcomes_exact, _outcomes_sampled
from game.play.match import MatchResult, mbb_per_hand, play_match
from game.rules.actions import Action, ActionKind, Bot, IllegalActionError, PolicyBot
from game.rules.chance import ChanceLog, ScriptedChance
from game.rules.nolimit import FLOP, RIVER, TURN, NoLimitConfig, NoLimitRound
from game.rules.variants import VARIANTS, get_variant

DEFAULT_SAMPLES = 2_000
"""Monte Carlo deals per card state where v is not computed exactly (see the module docstring)."""

_VALUE_SEED_KEY = 0xA17A7
"""Mixed with the match seed into the value function's seed (independent of the deals and bots)."""

_NO_CARDS = np.empty(0, dtype=np.int8)

CardState = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, int]] | None
"""X's hole cards, the opponent's, the board, the street, and the third cards X and the opponent
will still receive (Auction; 0 or 1 each); ``None`` before the hole cards are dealt."""


class CheckDownValue:
    """The check-down value v (see the module docstring) for one variant config, player X at ``x_seat``.

    ``samples``: Monte Carlo deals where v is not exact; ``seed`` drives them (independent of the
    match). Outcome probabilities are cached per card state, for the round being evaluated.
    """

    def __init__(self, config: NoLimitConfig, *, samples: int = DEFAULT_SAMPLES, seed: SeedLike = None) -> None:
        if config.variant not in VARIANTS:  # read now: a variant registered after import is scored too
            raise ValueError(f"AIVAT supports {', '.join(VARIANTS)}; not {config.variant!r}")
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be >= 1 Monte Carlo deals, got {samples!r}")
        self.config = config
        self.samples = samples
        self._rng = as_generator(seed)
        self._cache: dict[CardState, np.ndarray] = {}
        self._ranks = (-1, -1)
        self._x_seat = 0

    def start_round(self, x_seat: int, match_state: object) -> None:
        """Forget the cached card states; X sits at ``x_seat``; ``match_state`` by seat (Bounty ranks)."""
        self._cache.clear()
        self._x_seat = x_seat
        if self.config.has_bounty:
            ranks: tuple[int, int] = match_state  # type: ignore[assignment]
            self._ranks = (ranks[x_seat], ranks[1 - x_seat])
        else:
            self._ranks = (-1, -1)

    @property
    def x_seat(self) -> int:
        """X's seat in the round being evaluated."""
        return self._x_seat

    def card_state(self, round_: NoLimitRound, bids: tuple[int | None, int | None] | None = None) -> CardState:
        """The cards of ``round_`` seen from X (hole cards by player, board, street, third cards to
        come). ``bids`` by seat: the auction's bids if not those of ``round_`` (a decision not yet
        applied)."""
        holes = round_.hole_cards
        x = self._x_seat
        extras = (0, 0)
        if self.config.has_auction:
            if bids is None:
                bids = round_.bids  # type: ignore[attr-defined]
            if round_.street < FLOP or (len(holes[0]) == 2 and len(holes[1]) == 2):
                extras = _third_cards(bids, x)
        return (holes[x], holes[1 - x], round_.board, round_.street, extras)

    def outcomes(self, state: CardState) -> np.ndarray:
        """Probabilities of the 12 showdown outcomes (``game.play.kernels_aivat``) from ``state``."""
        cached = self._cache.get(state)
        if cached is not None:
            return cached
        out = np.zeros(_N_OUTCOMES, dtype=np.float64)
        rank_x, rank_o = self._ranks
        if state is None:
            hole_x = hole_o = board = _NO_CARDS
            street, extras = -1, ((1, 1) if self.config.has_auction else (0, 0))
        else:
            hole_x, hole_o, board = (np.array(cards, dtype=np.int8) for cards in state[:3])
            street, extras = state[3], state[4]
        swaps = self._pending_swaps(street)
        exact = state is not None and board.shape[0] >= FLOP and extras == (0, 0)
        if exact and swaps.shape[0] == 0 and not self._runs_may_follow(board):
            _outcomes_exact(hole_x, hole_o, board, rank_x, rank_o, out)
        else:
            runs = self.config.has_run_cards
            cap = self.config.board_card_cap
            seed = int(self._rng.integers(2**31 - 1))
            _outcomes_sampled(hole_x, hole_o, *extras, board, swaps, runs, cap, rank_x, rank_o, self.samples, seed, out)
        self._cache[state] = out
        return out

    def round_value(self, round_: NoLimitRound) -> float:
        """v of ``round_`` as it stands (X's chips; each player's contribution as paid)."""
        paid = round_.contributions
        return self.value(self.card_state(round_), paid[self._x_seat], paid[1 - self._x_seat])

    def _pending_swaps(self, street: int) -> np.ndarray:
        """Swap probabilities of the swap streets still to come after ``street`` (-1: before the deal)."""
        if not self.config.has_swaps:
            return np.empty(0, dtype=np.float64)
        flop, turn = self.config.flop_swap_probability, self.config.turn_swap_probability  # type: ignore[attr-defined]
        pending = [flop, turn] if street < FLOP else ([turn] if street == FLOP else [])
        return np.array(pending, dtype=np.float64)

    def _runs_may_follow(self, board: np.ndarray) -> bool:
        if not self.config.has_run_cards:
            return False
        return board.shape[0] < RIVER or (board.shape[0] < self.config.board_card_cap and int(board[-1]) & 3 in (1, 2))

    def payoffs(self, x_contribution: int, o_contribution: int) -> np.ndarray:
        """X's chips in each of the 12 showdown outcomes, given each player's contribution (chips)."""
        config = self.config
        bounty = config.has_bounty
        multiplier = float(config.bounty_multiplier) if bounty else 1.0  # type: ignore[attr-defined]
        bonus = config.bounty_bonus if bounty else 0  # type: ignore[attr-defined]
        engine_split = 0  # a tie: the document returns contributions; the engine gives seat 0 (c1 - c0) // 2
        if config.rules == "engine":
            first, second = (x_contribution, o_contribution) if self._x_seat == 0 else (o_contribution, x_contribution)
            to_seat0 = (second - first) // 2
            engine_split = to_seat0 if self._x_seat == 0 else -to_seat0
        values = np.empty(_N_OUTCOMES, dtype=np.float64)
        for hit_x in (0, 1):
            for hit_o in (0, 1):
                index = hit_x * 2 + hit_o
                values[index] = multiplier * o_contribution + bonus if hit_x else o_contribution
                values[4 + index] = -(multiplier * x_contribution + bonus) if hit_o else -x_contribution
                if hit_x == hit_o:
                    values[8 + index] = engine_split
                elif hit_x:
                    values[8 + index] = (multiplier - 1) / 2 * o_contribution + bonus
                else:
                    values[8 + index] = -((multiplier - 1) / 2 * x_contribution + bonus)
        return values

    def value(self, state: CardState, x_contribution: int, o_contribution: int) -> float:
        """v at ``state`` with these contributions (chips to X)."""
        return float(self.outcomes(state) @ self.payoffs(x_contribution, o_contribution))


def _third_cards(bids: tuple[int | None, int | None], x_seat: int) -> tuple[int, int]:
    """Third cards (X, opponent) an auction with these bids by seat gives, a missing bid counting as 0
    (the unresolved auction's rule): the higher bid gets one, a tie gives both one."""
    x_bid, o_bid = bids[x_seat] or 0, bids[1 - x_seat] or 0
    return (int(x_bid >= o_bid), int(o_bid >= x_bid))


def _after_decision(value: CheckDownValue, round_: NoLimitRound, action: Action) -> tuple[CardState, int, int]:
    """The state right after the seat to act plays ``action`` (not applied) and before any chance:
    its cards, X's and the opponent's contributions (chips), a bet assumed called, an auction's
    payments made if both bids are in. Not for a fold."""
    seat = round_.to_act
    x = value.x_seat
    paid = list(round_.contributions)
    pips = round_.pips
    bids = None
    if action.kind is ActionKind.BID:
        bids = list(round_.bids)  # type: ignore[attr-defined]
        bids[seat] = action.amount
        other = bids[1 - seat]
        if other is not None:  # the second bid resolves the auction: second price, both pay on a tie
            if other == action.amount:
                paid = [paid[0] + action.amount, paid[1] + action.amount]
            else:
                winner = seat if action.amount > other else 1 - seat
                paid[winner] += min(action.amount, other)
        bids = (bids[0], bids[1])
    else:
        if action.kind is ActionKind.CALL:
            paid[seat] += pips[1 - seat] - pips[seat]
        elif action.kind is ActionKind.RAISE:
            paid[seat] += action.amount - pips[seat]
            paid[1 - seat] += action.amount - pips[1 - seat]
        elif action.kind is not ActionKind.CHECK:
            raise ValueError(f"AIVAT cannot value action {action} (variant {round_.variant})")
    return value.card_state(round_, bids), paid[x], paid[1 - x]


def _value_after(value: CheckDownValue, round_: NoLimitRound, action: Action, x_seat: int) -> float:
    """v (X's chips, X at ``x_seat``) after the seat to act plays ``action`` in ``round_`` (not
    applied): a fold pays exactly (the rules' payoff); otherwise the check-down value of the state
    after the decision (`_after_decision`)."""
    if action.kind is ActionKind.FOLD:
        folded = round_.clone()
        folded.apply(action)
        return float(folded.payoffs()[x_seat])
    return value.value(*_after_decision(value, round_, action))


def _closes_street(round_: NoLimitRound, action: Action) -> bool:
    """Whether ``action`` by the seat to act after the flop ends the street's betting (a call, or a
    check after the street's first action), so the next card is dealt."""
    if action.kind is ActionKind.CALL:
        return True
    return action.kind is ActionKind.CHECK and any(move.street == round_.street for move in round_.history)


MIN_PROBABILITY = 0.02
"""``PolicyValue``'s default: actions a policy gives less probability are not followed in its tree."""

DEFAULT_TURN_RIVERS = 2
"""``PolicyValue``'s default: river cards drawn per alternative turn in ``PolicyValue.turn_gain``."""

TURN_SWAP_SAMPLES = 8
"""Swap: turn events with a swap drawn per ``PolicyValue.turn_gain`` (probability 1 - 0.95^4 = 0.19)."""


@dataclass(frozen=True)
class _Turn:
    """A turn being valued: its index (the caches' key), the chance dealt and the actions played
    when its betting began, and the river cards its ends are averaged over."""

    index: int
    chance: ChanceLog
    actions: tuple[Action, ...]
    rivers: tuple[int, ...]


class PolicyValue:
    """v on the flop, the turn and the river from both players' policies (see the module docstring), X at ``x_seat``.

    From a state on the turn or the river, the betting to the round's end is played out by both
    policies, every action of probability at least ``min_probability`` followed (the rest
    renormalised: v stays one fixed function of the state, so the estimate stays unbiased, and a
    policy spread over every raise amount, as the random bot's, does not blow the tree up); a fold
    or the showdown pays by the rules. Where the turn's betting ends, v is the mean over river cards
    of v after the card: every card the deck still holds, or ``river_cards`` of them drawn once per
    turn with ``seed`` (`start_round`; independently of the match: the mean is then an unbiased estimate of the
    full one, and the same cards at every end of the turn keep the turn's actions compared on the
    same rivers). ``bots`` by player: X's and the opponent's, both exposing ``policy`` (a pure
    function of the observation, as ``PolicyBot`` requires). A decision whose policy raises or is empty is valued by
    ``check_down`` (the pending bet called), an illegal action in a policy by ``check_down`` after
    it. On the flop (``values_flop``), the flop's betting is played out the same way and, where it
    ends, v is the check-down value plus `turn_gain` (``turn_rivers`` river cards per alternative
    turn; ``0``: the flop and the turn card keep the check-down value). Values are cached per round
    by the turn, its cards and the actions since it (or the flop) began.
    """

    def __init__(
        self,
        check_down: CheckDownValue,
        bots: tuple[PolicyBot, PolicyBot],
        *,
        min_probability: float = MIN_PROBABILITY,
        river_cards: int | None = None,
        turn_rivers: int | None = DEFAULT_TURN_RIVERS,
        seed: SeedLike = None,
    ) -> None:
        if not 0.0 <= min_probability < 1.0:
            raise ValueError(f"min_probability must be in [0, 1), got {min_probability!r}")
        for name, count, minimum in (("river_cards", river_cards, 1), ("turn_rivers", turn_rivers, 0)):
            if count is not None:  # None: every card
                check_int(name, count, minimum)
        if check_down.config.has_run_cards:
            raise ValueError(
                f"the policy value needs nothing dealt after the river; {check_down.config.variant!r} deals run cards"
            )
        self.check_down = check_down
        self.min_probability = min_probability
        self.river_cards = river_cards
        self.turn_rivers = turn_rivers
        self.values_flop = turn_rivers != 0 and not check_down.config.has_auction
        """Whether v on the flop is the policy value too (see the module docstring)."""
        self._root = int(as_generator(seed).integers(2**63))
        self._rng = np.random.default_rng(self._root)
        self._bots = bots
        self._x_seat = 0
        self._pair = 0
        self._record: RoundRecord | None = None
        self._turns = 0
        self._turn: _Turn | None = None
        self._cache: dict[tuple[Any, ...], float] = {}
        self._river_means: dict[tuple[Any, ...], float] = {}
        self._turn_gains: dict[tuple[Action, ...], float] = {}

    def start_round(self, x_seat: int, record: RoundRecord) -> None:
        """Forget the cached values; X sits at ``x_seat`` in the round ``record`` (being replayed). The
        draws of river cards restart from a generator of the seed and the round's deal
        pair (``round_index // 2``), so both rounds of a duplicate pair, which share their cards,
        draw the same ones: their sampling noise then cancels as their luck does."""
        self._pair = record.round_index // 2
        self._rng = np.random.default_rng((self._root, self._pair))
        self._cache.clear()
        self._river_means.clear()
        self._turn_gains.clear()
        self._turns = 0
        self._turn = None
        self._x_seat = x_seat
        self._record = record

    def start_turn(self, round_: NoLimitRound) -> None:
        """``round_``'s turn betting begins (its card and Swap's turn swaps dealt): value it from now
        on, over ``river_cards`` river cards."""
        self._turn = self._new_turn(round_, self.river_cards, self._rng)

    def _new_turn(self, round_: NoLimitRound, river_cards: int | None, rng: np.random.Generator) -> _Turn:
        """A new turn to value: ``round_`` at its start, its ends averaged over ``river_cards`` river
        cards drawn by ``rng`` (``None``: every card the deck still holds)."""
        log = round_.chance_log
        rivers = sorted(set(range(52)) - set(log.deck))
        if river_cards is not None and river_cards < len(rivers):
            rivers = sorted(rng.choice(rivers, size=river_cards, replace=False).tolist())
        actions = tuple(move.action for move in round_.history)
        self._turns += 1
        return _Turn(self._turns - 1, log, actions, tuple(rivers))

    def turn_gain(self, round_: NoLimitRound, action: Action) -> float:
        """v's mean gain over the check-down value at the start of the turn, over the turn event (its
        card, and Swap's turn swaps), once ``action`` ends the flop's betting in ``round_`` (not
        applied); 0 if a player is then all-in (no betting follows). Estimated over every turn card
        the deck holds with no swap (exact but for the river cards), and with probability
        1 - (1 - q)^4 (Swap: a turn swap, q each hole card) over ``TURN_SWAP_SAMPLES`` turn events
        drawn given at least one swap; each alternative turn's ends are averaged over
        ``turn_rivers`` river cards. The draws come from a generator of the seed and the deal pair
        alone, not from the match (see the module docstring). Cached per round by the actions."""
        assert self._record is not None, "start_round first"
        actions = (*(move.action for move in round_.history), action)
        cached = self._turn_gains.get(actions)
        if cached is not None:
            return cached
        stacks = list(round_.stacks)
        if action.kind is ActionKind.CALL:
            stacks[round_.to_act] -= round_.pips[1 - round_.to_act] - round_.pips[round_.to_act]
        if min(stacks) == 0:
            self._turn_gains[actions] = 0.0
            return 0.0
        config = self.check_down.config
        log = round_.chance_log
        rng = np.random.default_rng((self._root, self._pair, TURN))
        deck = sorted(set(range(52)) - set(log.deck))
        actual = self._turn

        def gain(cards: list[int], swaps: list[bool]) -> float:
            events = dict(log.events)
            if swaps:
                events["swap"] = (*events.get("swap", ()), *swaps)
            turn = self._replay([*log.deck, *cards], events, actions)
            self._turn = self._new_turn(turn, self.turn_rivers, rng)
            return self.value(turn) - self.check_down.round_value(turn)

        holes = 4  # Swap: two hole cards each
        swap = config.turn_swap_probability if config.has_swaps else 0.0  # type: ignore[attr-defined]
        result = sum(gain([card], [False] * holes if config.has_swaps else []) for card in deck) / len(deck)
        if swap > 0.0:
            swapped = 0.0
            for _ in range(TURN_SWAP_SAMPLES):
                flips = rng.random(holes) < swap
                while not flips.any():
                    flips = rng.random(holes) < swap
                cards = rng.choice(deck, size=1 + int(flips.sum()), replace=False).tolist()
                swapped += gain(cards, flips.tolist())
            chance_swap = 1.0 - (1.0 - swap) ** holes
            result = (1.0 - chance_swap) * result + chance_swap * swapped / TURN_SWAP_SAMPLES
        self._turn = actual
        self._turn_gains[actions] = result
        return result

    def _replay(self, deck: list[int], events: Any, actions: tuple[Action, ...]) -> NoLimitRound:
        """The round of this round's match state dealt ``deck`` (and the chance ``events``, Swap's
        swaps), ``actions`` applied through the rules."""
        config = self.check_down.config
        chance = ScriptedChance(deck, events)
        round_ = get_variant(config.variant).round_class(config, chance, match_state=self._record.match_state)  # type: ignore[union-attr]
        for action in actions:
            round_.apply(action)
        return round_

    def value(self, round_: NoLimitRound, path: tuple[Action, ...] = ()) -> float:
        """v (X's chips) of ``round_`` on the flop (`values_flop`), on the current turn (`start_turn`)
        or its river (or over); ``path``: the actions since the flop or the turn began."""
        if round_.street == FLOP:
            index = -1
        else:
            assert self._turn is not None, "start_turn first"
            index = self._turn.index
        key = (index, tuple(round_.board), path)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if round_.is_terminal:
            result = float(round_.payoffs()[self._x_seat])
        else:
            seat = round_.to_act
            bot = self._bots[0 if seat == self._x_seat else 1]
            try:
                policy = tuple(bot.policy(round_.observation(seat)))
            except Exception:  # a faulty policy: this decision is valued by the check-down value
                policy = ()
            followed = [(action, p) for action, p in policy if p > 0.0 and p >= self.min_probability]
            mass = sum(probability for _, probability in followed)
            if mass > 0.0:
                result = sum(probability * self.value_after(round_, action, path) for action, probability in followed)
                result /= mass
            else:
                called = max(round_.contributions)
                result = self.check_down.value(self.check_down.card_state(round_), called, called)
        self._cache[key] = result
        return result

    def value_after(self, round_: NoLimitRound, action: Action, path: tuple[Action, ...]) -> float:
        """v after the seat to act in ``round_`` (``path`` played since the flop or the turn began)
        plays ``action``: if it ends the flop's betting, the check-down value then plus
        `turn_gain`; if it ends the turn's, the mean over the river cards (`river_mean`); an
        illegal action gets the check-down value (`_value_after`)."""
        child = round_.clone()
        try:
            if round_.street in (FLOP, TURN) and _closes_street(round_, action):  # a card comes next
                child.verify(action)
                if round_.street == FLOP:
                    return _value_after(self.check_down, round_, action, self._x_seat) + self.turn_gain(round_, action)
                return self.river_mean((*path, action))
            child.apply(action)
        except IllegalActionError:
            return _value_after(self.check_down, round_, action, self._x_seat)
        return self.value(child, (*path, action))

    def river_mean(self, path: tuple[Action, ...]) -> float:
        """v's mean over the current turn's river cards once the turn's actions ``path`` end its
        betting, each alternative round replayed through the rules: the check-down value there (exact
        over every river card) plus the mean gain of v over the check-down value after the card (so
        a sample of river cards estimates only the betting's gain, not the card's luck)."""
        turn = self._turn
        assert turn is not None and self._record is not None, "start_turn first"
        cached = self._river_means.get((turn.index, path))
        if cached is not None:
            return cached
        check_down = self.check_down
        total = 0.0
        for card in turn.rivers:
            round_ = self._replay([*turn.chance.deck, card], turn.chance.events, (*turn.actions, *path))
            total += self.value(round_, path) - check_down.round_value(round_)
        paid = round_.contributions
        x = self._x_seat
        holes_x, holes_o, board, _, extras = check_down.card_state(round_)  # type: ignore[misc]
        result = check_down.value((holes_x, holes_o, board[:4], TURN, extras), paid[x], paid[1 - x])
        result += total / len(turn.rivers)
        self._river_means[(turn.index, path)] = result
        return result


@dataclass(frozen=True)
class RoundCorrections:
    """AIVAT's corrections of one round (chips, X's side): subtract both from X's payoff."""

    chance: float
    action: float
    """The corrected decisions' sum (X's, and the opponent's when corrected)."""
    uncorrected_decisions: int


def round_corrections(
    value: CheckDownValue,
    record: RoundRecord,
    x_seat: int,
    policies: dict[int, list[tuple[Any, Any, Any]]],
    policy_value: PolicyValue | None = None,
) -> RoundCorrections:
    """Replay ``record`` (played under ``value.config``) and sum its corrections for X at ``x_seat``.

    ``policies`` by seat, for the seats whose decisions are corrected (X's, maybe the opponent's):
    the ``(observation, policy, action the bot returned)`` of each of that seat's decisions in this
    round, in order (``policy`` ``None`` if it could not be had, the action ``None`` if ``act``
    raised); the replayed observations must match them. A decision is corrected only if the move
    played is the bot's own action and in its policy (a faulty bot's replacement is not).
    ``policy_value``: v on the river (both players' policies); ``None`` keeps the check-down value there.
    """
    config = value.config
    round_ = get_variant(config.variant).round_class(config, record.chance.replay(), match_state=record.match_state)
    value.start_round(x_seat, record.match_state)
    x_paid, o_paid = round_.contributions[x_seat], round_.contributions[1 - x_seat]
    chance = value.round_value(round_) - value.value(None, x_paid, o_paid)
    action_total = 0.0
    uncorrected = 0
    decisions = {seat: iter(recorded) for seat, recorded in policies.items()}
    if policy_value is not None:
        policy_value.start_round(x_seat, record)
    path: tuple[Action, ...] = ()  # the actions since the flop or the turn began (the policy value's key)

    def value_after(action: Action, probability: float) -> float:
        if (
            policy_value is not None
            and probability >= policy_value.min_probability
            and (round_.street in (TURN, RIVER) or (round_.street == FLOP and policy_value.values_flop))
        ):
            return policy_value.value_after(round_, action, path)
        return _value_after(value, round_, action, x_seat)

    for move in record.moves:
        if move.seat in decisions:
            observation, policy, played = next(decisions[move.seat], (None, None, None))
            if observation != round_.observation(move.seat):
                raise RuntimeError(f"round {record.round_index}: recorded decisions do not match the replay")
            if policy is None or played != move.action or all(action != played for action, _ in policy):
                uncorrected += 1  # a faulty policy or action: the move was not drawn from the policy
            else:
                expected = sum(p * value_after(a, p) for a, p in policy)
                action_total += value_after(move.action, dict(policy)[move.action]) - expected
        decided = None if move.action.kind is ActionKind.FOLD else _after_decision(value, round_, move.action)[0]
        board = len(round_.board)
        flop = round_.clone() if policy_value is not None and board == 3 else None
        if round_.street in (FLOP, TURN, RIVER):
            path = (*path, move.action)
        round_.apply(move.action)
        after = value.card_state(round_)
        x_paid, o_paid = round_.contributions[x_seat], round_.contributions[1 - x_seat]
        if policy_value is not None and board == 4 and len(round_.board) == 5:  # the river card alone
            chance += policy_value.value(round_, path) - policy_value.river_mean(path)
        elif flop is not None and len(round_.board) == 4:  # the turn card (and swaps) alone: its betting begins
            policy_value.start_turn(round_)  # type: ignore[union-attr]
            path = ()
            if policy_value.turn_rivers == 0:  # type: ignore[union-attr]
                chance += value.value(after, x_paid, o_paid) - value.value(decided, x_paid, o_paid)
            else:
                mean = value.value(decided, x_paid, o_paid) + policy_value.turn_gain(flop, move.action)  # type: ignore[union-attr]
                chance += policy_value.value(round_) - mean  # type: ignore[union-attr]
        elif decided is not None and after[:3] != decided[:3]:  # type: ignore[index]
            chance += value.value(after, x_paid, o_paid) - value.value(decided, x_paid, o_paid)
    return RoundCorrections(chance, action_total, uncorrected)


class _PolicyRecorder:
    """Plays a bot and records ``(observation, bot.policy(observation), action returned)`` for each
    decision (policy ``None`` if it raised; action ``None`` if ``act`` raised)."""

    def __init__(self, bot: PolicyBot) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "x")
        self.decisions: list[tuple[Any, Any, Any]] = []

    def act(self, observation: Any) -> Action:
        try:
            policy = tuple(self.bot.policy(observation))
        except Exception:  # a faulty policy leaves the decision uncorrected; act decides the play
            policy = None
        self.decisions.append((observation, policy, None))
        action = self.bot.act(observation)
        self.decisions[-1] = (observation, policy, action)
        return action


@dataclass(frozen=True)
class AivatResult:
    """A match scored plainly and by AIVAT on the same rounds (chips; X is player A)."""

    match: MatchResult
    """The match as played (``match.winnings``: X's chips per round)."""
    chance_corrections: np.ndarray
    """Per round, the chance corrections' sum (chips, float64 shape ``(rounds,)``)."""
    action_corrections: np.ndarray
    """Per round, the decision corrections' sum (chips, float64 shape ``(rounds,)``)."""
    uncorrected_decisions: int
    opponent_corrected: bool
    """Whether the opponent's decisions were corrected too (it exposed a policy)."""

    @property
    def rounds(self) -> int:
        return self.match.rounds

    @property
    def winnings(self) -> np.ndarray:
        """X's chips per round (float64)."""
        return self.match.winnings.astype(np.float64)

    @property
    def estimates(self) -> np.ndarray:
        """AIVAT's estimate of X's chips per round."""
        return self.winnings - self.chance_corrections - self.action_corrections

    def _rate(self, values: np.ndarray) -> tuple[float, float | None]:
        return mbb_per_hand(values, self.match.config.big_blind, pair_size=2 if self.match.duplicate else 1)

    def plain_rate(self) -> tuple[float, float | None]:
        """X's mbb/hand and 95% Student-t half-width from the payoffs (over deal pairs if duplicate)."""
        return self._rate(self.winnings)

    def aivat_rate(self) -> tuple[float, float | None]:
        """The same from AIVAT's estimates."""
        return self._rate(self.estimates)

    def correction_rate(self) -> tuple[float, float | None]:
        """The corrections' mean and half-width in mbb/hand (zero in expectation)."""
        return self._rate(self.chance_corrections + self.action_corrections)

    def variance_reduction(self) -> float:
        """Variance of the plain samples over the variance of AIVAT's (samples: rounds, or deal pairs)."""
        pair = 2 if self.match.duplicate else 1
        plain = self.winnings.reshape(-1, pair).mean(axis=1)
        aivat = self.estimates.reshape(-1, pair).mean(axis=1)
        return float(np.var(plain, ddof=1) / np.var(aivat, ddof=1))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (mbb/hand; ``ci95`` are half-widths)."""
        plain, plain_ci = self.plain_rate()
        aivat, aivat_ci = self.aivat_rate()
        return {
            **self.match.to_dict(),
            "mbb_per_hand": plain,
            "ci95_mbb_per_hand": plain_ci,
            "aivat_mbb_per_hand": aivat,
            "aivat_ci95_mbb_per_hand": aivat_ci,
            "variance_reduction": self.variance_reduction(),
            "uncorrected_decisions": self.uncorrected_decisions,
            "opponent_corrected": self.opponent_corrected,
        }


def aivat_match(
    config: NoLimitConfig,
    bot_x: PolicyBot,
    opponent: Bot,
    *,
    rounds: int | None = None,
    seed: SeedLike = None,
    duplicate: bool = True,
    samples: int = DEFAULT_SAMPLES,
    value_seed: SeedLike = None,
    history: str | Path | IO[str] | None = None,
    correct_opponent: bool | None = None,
    river_cards: int | None = None,
    turn_rivers: int | None = DEFAULT_TURN_RIVERS,
) -> AivatResult:
    """Play ``bot_x`` (player A) against ``opponent`` with ``game.play.match.play_match`` and score X's
    rounds plainly and by AIVAT. ``samples`` and ``value_seed``: the Monte Carlo of the check-down
    value (see the module docstring); ``value_seed`` ``None`` derives it from ``seed``. ``history``:
    the match's hand history, as in ``play_match``. ``correct_opponent``: correct the opponent's
    decisions with its policy too (``None``: if it exposes ``policy``). ``river_cards``: the policy
    value's river cards per turn (``PolicyValue``; ``None``: every card); ``turn_rivers``: its river
    cards per alternative turn at the turn card's correction (``0``: the turn card and the flop keep
    the check-down value)."""
    if not callable(getattr(bot_x, "policy", None)):
        raise TypeError(f"AIVAT needs player X to expose policy(observation); {bot_x!r} does not")
    has_policy = callable(getattr(opponent, "policy", None))
    if correct_opponent is None:
        correct_opponent = has_policy
    elif correct_opponent and not has_policy:
        raise TypeError(f"correct_opponent needs the opponent to expose policy(observation); {opponent!r} does not")
    if value_seed is None and isinstance(seed, (int, np.integer)):
        value_seed = np.random.SeedSequence((int(seed), _VALUE_SEED_KEY))
    value_rng = as_generator(value_seed)
    value = CheckDownValue(config, samples=samples, seed=value_rng)
    recorders = (_PolicyRecorder(bot_x), _PolicyRecorder(opponent) if correct_opponent else None)
    policy_value = None
    if correct_opponent and not config.has_run_cards:
        policy_value = PolicyValue(
            value, (bot_x, opponent), river_cards=river_cards, turn_rivers=turn_rivers, seed=value_rng
        )
    corrections: list[RoundCorrections] = []

    def score(record: RoundRecord) -> None:
        x_seat = record.round_index % 2
        policies = {x_seat: recorders[0].decisions}
        if recorders[1] is not None:
            policies[1 - x_seat] = recorders[1].decisions
        corrections.append(round_corrections(value, record, x_seat, policies, policy_value))
        for recorded in policies.values():
            recorded.clear()

    players = (recorders[0], recorders[1] if recorders[1] is not None else opponent)
    result = play_match(
        config, *players, rounds=rounds, seed=seed, duplicate=duplicate, history=history, on_round=score
    )
    return AivatResult(
        result,
        np.array([c.chance for c in corrections]),
        np.array([c.action for c in corrections]),
        sum(c.uncorrected_decisions for c in corrections),
        correct_opponent,
    )

"""Full-game LBR (solver.evaluate.full_lbr): anchors against always-fold and always-call, and a lower bound on
the exact small variants (at most the exact best response of the strategy the lookup bot plays)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from abstraction.exact.small_variants import SmallDeal, SmallVariant, build_small_variant
from game.play.bots import passive_action
from game.rules.actions import Action, ActionKind
from game.rules.bounty import BountyConfig
from game.rules.holdem import HoldemConfig
from game.rules.nolimit import Observation
from game.rules.variants import get_variant
from solver.bots.lookup_bot import LookupBot
from solver.evaluate.exploitability import exploitability
from solver.evaluate.full_lbr import FullLBRConfig, full_lbr
from solver.solve.cfr import Solver
from tests.solver.cli_support import invoke, one_line_error, solve_tiny

pytestmark = pytest.mark.jit_only  # thousands of Monte Carlo showdowns per hand


class AlwaysFold:
    """Folds whenever it faces a bet, else checks."""

    name = "fold"

    def policy(self, observation: Observation) -> tuple[tuple[Action, float], ...]:
        seat = observation.seat
        facing = observation.pips[1 - seat] > observation.pips[seat]
        if facing and ActionKind.FOLD in observation.legal_actions:
            return ((Action.fold(), 1.0),)
        return ((passive_action(observation), 1.0),)

    def act(self, observation: Observation) -> Action:
        return self.policy(observation)[0][0]


class AlwaysCall(AlwaysFold):
    name = "call"

    def policy(self, observation: Observation) -> tuple[tuple[Action, float], ...]:
        return ((passive_action(observation), 1.0),)


@pytest.mark.parametrize("variant", ["holdem", "swap", "river_of_blood", "auction"])
@pytest.mark.parametrize("rules", ["document", "engine"])
def test_always_fold_anchor_is_750(variant, rules):
    """LBR raises as the dealer (the bot folds: +2 chips) and the bot folds its small blind (+1):
    1.5 chips = 750 mbb on every hand, so the interval is 0."""
    config = get_variant(variant).config_class(rules=rules)
    result = full_lbr(config, AlwaysFold(), FullLBRConfig(hands=30, candidates=50, seed=2))
    assert result.mbb_per_hand == 750.0 and result.ci95_mbb == 0.0
    assert result.payoffs[:, 0].tolist() == [2] * 30 and result.payoffs[:, 1].tolist() == [1] * 30


@pytest.mark.parametrize("rules", ["document", "engine"])
def test_always_fold_anchor_bounty(rules):
    """Bounty: a fold pays 1.5 c + 10 when LBR's rank is among its two hole cards. As the dealer LBR
    wins the big blind, 2 chips (hit: 13, a whole number); in the big blind the small blind, 1 chip
    (hit: 11.5, rounded up: the winner is out of position / the folder's opponent under both rules: 12).
    A uniform rank hits two random cards with probability 1 - (48/52)(47/51) = 396/2652."""
    result = full_lbr(BountyConfig(rules=rules), AlwaysFold(), FullLBRConfig(hands=400, candidates=50, seed=3))
    assert set(result.payoffs[:, 0].tolist()) <= {2, 13} and set(result.payoffs[:, 1].tolist()) <= {1, 12}
    hit = 396 / 2652
    expected_mbb = 1000 * (1.5 + hit * ((13 - 2) + (12 - 1)) / 2) / 2  # 1571.3 mbb/hand
    assert abs(result.mbb_per_hand - expected_mbb) <= result.ci95_mbb, (result.mbb_per_hand, result.ci95_mbb)


class RoundCounter(AlwaysCall):
    """A calling station that counts the finished rounds it is shown and checks each is over, from its seat."""

    def __init__(self) -> None:
        self.shown: list[tuple[int, int]] = []

    def round_over(self, observation: Observation) -> None:
        assert observation.payoffs is not None
        self.shown.append((observation.seat, observation.payoffs[observation.seat]))


def test_a_learning_bot_is_shown_every_finished_round():
    """LBR's deals are one match to the bot: ``round_over`` after each round, from the bot's seat, with its
    payoff (LBR's negated)."""
    bot = RoundCounter()
    result = full_lbr(HoldemConfig(), bot, FullLBRConfig(hands=6, candidates=20, seed=5))
    assert [seat for seat, _ in bot.shown] == [1, 0] * 6  # LBR in seat 0, then in seat 1
    assert [-chips for _, chips in bot.shown] == result.payoffs.reshape(-1).tolist()


def test_always_call_loses_clearly():
    result = full_lbr(HoldemConfig(), AlwaysCall(), FullLBRConfig(hands=100, candidates=100, seed=4))
    assert result.mbb_per_hand - result.ci95_mbb > 5_000  # value-bets every strong hand into a station
    assert result.bot_illegal == 0 and result.belief_resets == 0


class RaiseRecorder(AlwaysCall):
    """A calling station that records the streets of its opponent's raises it sees."""

    def __init__(self) -> None:
        self.raise_streets: set[int] = set()

    def policy(self, observation: Observation) -> tuple[tuple[Action, float], ...]:
        for move in observation.history:
            if move.seat != observation.seat and move.action.kind is ActionKind.RAISE:
                self.raise_streets.add(move.street)
        return super().policy(observation)


@pytest.mark.parametrize(
    ("streets", "allowed"), [(("river",), set(range(5, 53))), (("preflop", "turn"), {0, 4}), ((), set())]
)
def test_raise_streets_restrict_where_lbr_raises(streets, allowed):
    """LBR raises only on the streets it is given ("river" takes River of Blood's run streets too), and
    against a calling station it still wins by value-betting there; with no street it never raises."""
    bot = RaiseRecorder()
    result = full_lbr(
        get_variant("river_of_blood").config_class(),
        bot,
        FullLBRConfig(hands=40, candidates=50, seed=6, raise_streets=streets),
    )
    assert bot.raise_streets <= allowed and (bot.raise_streets or not allowed)
    assert result.to_dict()["raise_streets"] == list(streets)


# ---------------------------------------------------------------------- the lower bound on exact small games
def small_bucket(small: SmallVariant):
    """``bucket(observation, slot)`` of the small game's exact views: any deal completing the seat's
    view gives its bucket (the table row of a completed deal), cached per view."""
    cache: dict[tuple, int] = {}
    runs = small.runs

    def bucket(observation: Observation, slot: int) -> int:
        seat = observation.seat
        key = (seat, observation.hole_cards, observation.board, observation.bounty_rank, slot)
        if key not in cache:
            own = observation.hole_cards
            rest = [c for c in small.deck if c not in own and c not in observation.board]
            other, rest = tuple(rest[:2]), rest[2:]
            board = (*observation.board, *rest[: 5 + runs - len(observation.board)])
            rest = rest[5 + runs - len(observation.board) :]
            hole = (own[:2], other) if seat == 0 else (other, own[:2])
            thirds = [rest[0], rest[1]] if small.variant == "auction" else []
            if len(own) == 3:
                thirds[seat] = own[2]
            ranks = [0, 0]
            ranks[seat] = observation.bounty_rank if observation.bounty_rank is not None else 0
            deal = SmallDeal(hole, board, thirds=tuple(thirds), ranks=tuple(ranks))  # type: ignore[arg-type]
            cache[key] = int(small.game.deals.bucket[small.deal_row(deal), seat, slot])
        return cache[key]

    return bucket


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["holdem", "bounty", "river_of_blood", "auction"])
@pytest.mark.parametrize("rules", ["document", "engine"])
def test_lbr_stays_below_the_exact_best_response(variant, rules):
    """Every legal action of the small games is in the tree (stack 4: every raise is all-in), so the
    full-game LBR plays inside the tree; the lookup bot plays a 3-iteration CFR strategy (far from
    equilibrium, so LBR has something to find). LBR's winnings cannot exceed the exact best response."""
    small = build_small_variant(variant, rules=rules)
    strategy = Solver(small.game, "cfr", seed=0).run(3).average_strategy()
    exact = exploitability(small.game, strategy).exploitability_chips
    bot = LookupBot.from_game(small.game.tree, strategy, small.config, small_bucket(small), seed=1)
    result = full_lbr(small.config, bot, FullLBRConfig(hands=600, candidates=60, seed=5), deck=small.deck)
    ci_chips = result.ci95_mbb * small.config.big_blind / 1000
    assert result.chips_per_hand <= exact + ci_chips, (result.chips_per_hand, ci_chips, exact)
    assert result.chips_per_hand > 0.25 * exact  # and it is not a vacuous bound
    assert bot.off_tree == 0 and bot.errors == 0 and result.bot_illegal == 0


# ---------------------------------------------------------------------- the command
def test_cli_lbr_actions_full(tmp_path: Path) -> None:
    """``vcfr lbr --actions full`` plays the file's lookup bot in the real game; ``--actions tree`` is the
    in-tree LBR; bad values are usage errors (exit 2)."""
    path = solve_tiny(tmp_path / "tiny.h5")
    result = invoke("lbr", path, "--actions", "full", "--hands", "20", "--candidates", "20", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["actions"] == "full" and summary["hands"] == 20 and summary["candidates"] == 20
    assert summary["sizes"] == [0.5, 1.0, 2.0] and summary["bot_errors"] == 0 and summary["bot_decisions"] > 20
    assert np.isfinite(summary["mbb_per_hand"]) and summary["seconds_per_1000_hands"] > 0
    text = invoke("lbr", path, "--actions", "full", "--hands", "4", "--sizes", "1", "--quiet")
    assert text.exit_code == 0 and "mbb/hand" in text.stdout and "per 1,000 hands" in text.stdout
    tree = json.loads(invoke("lbr", path, "--actions", "tree", "--hands", "20", "--json").stdout)
    assert tree["chance"] == "fresh"
    assert "--actions must be" in one_line_error(invoke("lbr", path, "--actions", "some"), 2)
    assert "--sizes" in one_line_error(invoke("lbr", path, "--actions", "full", "--sizes", "half"), 2)
    assert "--opponent" in one_line_error(invoke("lbr", path, "--actions", "full", "--opponent", "equity"), 2)
    assert "--raise-streets must be" in one_line_error(
        invoke("lbr", path, "--actions", "full", "--raise-streets", "flop,showdown"), 2
    )
    assert "needs --actions full" in one_line_error(invoke("lbr", path, "--raise-streets", "flop"), 2)
    adaptive = invoke("lbr", path, "--actions", "full", "--bot", "adaptive", "--hands", "10", "--candidates", "20")
    assert adaptive.exit_code == 0 and "against the adaptive bot" in adaptive.stdout, adaptive.output
    assert "--bot adaptive needs --actions full" in one_line_error(invoke("lbr", path, "--bot", "adaptive"), 2)


# ---------------------------------------------------------------------- the runout kernel
def outcomes(hole: str, candidates: list[str], board: str = "", ranks=(-1, -1), samples: int = 1, **kw):
    from game.cards.deck import parse_cards
    from solver.evaluate.kernels_full_lbr import _showdown_outcomes

    cands = np.full((len(candidates), 3), -1, dtype=np.int8)
    for k, text in enumerate(candidates):
        cards = parse_cards(text)
        cands[k, : len(cards)] = cards
    counts = (cands >= 0).sum(axis=1).astype(np.int64)
    mine, table = parse_cards(hole).astype(np.int8), parse_cards(board).astype(np.int8)
    excluded = np.zeros(52, dtype=np.bool_)
    excluded[list(mine) + list(table)] = True
    out = np.zeros((len(candidates), 6))
    _showdown_outcomes(
        mine, kw.get("extra", 0), ranks[0], cands, counts, kw.get("candidate_extra", 0),
        np.full(len(candidates), ranks[1], dtype=np.int64), np.ones(len(candidates)), table,
        np.arange(52, dtype=np.int8), excluded, np.zeros(0), kw.get("max_board", 5), samples, 7, out,
    )  # fmt: skip
    return out


def test_showdown_outcomes_known_values():
    from solver.evaluate.kernels_full_lbr import LOSE, TIE_HIT, WIN, WIN_HIT

    board = "2c 3d 4h 5s 6c"  # a straight on the board: Ah Kh and Ac Kc tie, 7d 8d beats both
    out = outcomes("Ah Kh", ["Ac Kc", "7d 8d"], board)
    assert out[0].tolist() == [0, 0, 0, 0, 0, 0] and out[1, LOSE] == 1
    assert outcomes("Ah Kh", ["Qc Jd"], "Kd 9c 5h 3s 2c")[0, WIN] == 1  # a pair of kings beats queen high
    # Bounty: LBR's king hits, the candidate's jack does not: the tie is LBR's; a win with a hit
    out = outcomes("Ah Kh", ["Ac Kc", "Qc Qd"], board.replace("6c", "7h"), ranks=(11, 9))
    assert out[0, TIE_HIT] == 1 and out[1, WIN_HIT] == 1
    # preflop AA against KK: 81.9% wins, 0.5% ties over all boards (known equity)
    aces = outcomes("As Ah", ["Kc Kd"], samples=20_000)[0]
    assert abs(aces[WIN] - 0.8195) < 0.015 and aces.sum() < 1.0

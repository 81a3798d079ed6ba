"""LBR against the reference opponents (`solver.evaluate.lbr` opponents ``checkcall`` and ``equity``,
`solver.evaluate.kernels_lbr_rule`) and ``vcfr lbr --opponent``.

The check/call table picks what `game.play.bots.CheckCallBot` plays; the equity rule's equity equals
`game.play.kernels_equity._equity` (the bot's own Monte Carlo) within sampling error, and its action at
a tree node is `game.play.bots.EquityBot.act` on the same cards and pot mapped onto the tree (in the
Auction: its bid mapped to the nearest tree bid, and three hole cards for each auction winner); LBR beats
check/call by a wide margin; LBR against the rule is reproducible and independent of batches and
threads.
"""

from __future__ import annotations

import dataclasses
import itertools
import json

import numpy as np
import pytest

from abstraction.cards.buckets import CardAbstraction, CardAbstractionConfig
from abstraction.exact.exact_games import build_game
from abstraction.tree import CHANCE_ACTION
from game.cards.deck import parse_cards
from game.play.bots import CheckCallBot, EquityBot
from game.play.kernels_equity import _equity
from game.rules.actions import Action, ActionKind
from game.rules.chance import ScriptedChance
from game.rules.variants import get_variant
from solver.evaluate import kernels_lbr_rule
from solver.evaluate.exploitability import uniform_strategy
from solver.evaluate.lbr import (
    EquityRule,
    LBRConfig,
    checkcall_strategy,
    equity_rule_arguments,
    lbr_game,
    lbr_reference_lines,
    lbr_strategy_file,
    local_best_response,
    tree_arguments,
)
from solver.solve.training import TrainingConfig, train
from tests.solver.cli_support import invoke, one_line_error

pytestmark = (
    pytest.mark.jit_only
)  # the equity rule runs thousands of Monte Carlo equities: 20-40 s per test as plain Python


@pytest.fixture(scope="module")
def blanks() -> dict[str, CardAbstraction]:
    blank = CardAbstraction.blank((169, 8, 8, 8))
    bounty = dataclasses.replace(blank, config=CardAbstractionConfig(buckets=(169, 8, 8, 8), variant="bounty"))
    return {"plain": blank, "bounty": bounty}


AUCTION_BIDS = " | bids=0.1p,0.25p,0.5p,1p,a"
"""The Auction's bid sizes in `tiny_game` (pot fractions), so that the bid rule has a choice."""


def tiny_game(name: str, blanks, bets: str = "1p,a cap=1"):
    from solver.games.abstract_games import AbstractGameConfig, build_abstract_game

    if name == "auction" and "bids=" not in bets:
        bets += AUCTION_BIDS
    config = AbstractGameConfig(variant=name, rules={"stack": 20}, card_abstraction="unused.h5", bets=bets)
    return build_abstract_game(config, blanks["bounty" if name == "bounty" else "plain"])


def node_of(game, history: str) -> int:
    """The decision node whose history (`FlatTree.history`) is ``history``."""
    tree = game.tree
    for node in np.flatnonzero(tree.kind == 0):
        if tree.history(int(node)) == history:
            return int(node)
    raise KeyError(history)


def path_actions(game, node: int) -> list[Action] | None:
    """The actions of the tree path from the root to ``node`` (None if it crosses a chance node)."""
    tree = game.tree
    parent = tree.parent_array()
    actions = []
    while node > 0:
        if tree.action_kind[node] == CHANCE_ACTION:
            return None
        actions.append(Action(ActionKind(int(tree.action_kind[node])), int(tree.action_amount[node])))
        node = int(parent[node])
    return actions[::-1]


def play_to(game, node: int, deck: str | list[int]):
    """A hold'em round of the game's rules with the scripted ``deck``, played along the tree path to ``node``."""
    config = lbr_game(game)[1].config
    cards = parse_cards(deck).tolist() if isinstance(deck, str) else list(deck)
    round_ = get_variant(config.variant).round_class(config, ScriptedChance(cards))
    actions = path_actions(game, node)
    if actions is None:
        return None
    for action in actions:
        round_.apply(action)
    return round_


def tree_child(game, node: int, action: Action) -> int:
    """The action index of ``action`` at ``node`` (raises: the child nearest in chips)."""
    tree = game.tree
    start, count = int(tree.child_start[node]), int(tree.n_children[node])
    kinds = tree.action_kind[start : start + count]
    same = [k for k in range(count) if kinds[k] == int(action.kind)]
    assert same, f"no {action.kind.name} child at {tree.history(node)!r}"
    return min(same, key=lambda k: abs(int(tree.action_amount[start + k]) - action.amount))


def rule_index(
    game, node: int, hole: str | list[int], board: str | list[int], bounty_rank: int = -1, samples: int = 4000
) -> int:
    """The equity rule's action index at ``node`` for the actor's ``hole`` on ``board`` (kernel path)."""
    sampler = lbr_game(game)[1]
    arrays, params = equity_rule_arguments(game, sampler, EquityRule(samples=samples))
    cards = (parse_cards(hole) if isinstance(hole, str) else np.array(hole)).astype(np.int8).reshape(1, 2)
    shown = np.full(48, -1, dtype=np.int8)
    if isinstance(board, str):
        board_cards = parse_cards(board).astype(np.int8) if board else np.zeros(0, dtype=np.int8)
    else:
        board_cards = np.array(board, dtype=np.int8)
    shown[: len(board_cards)] = board_cards
    out = np.zeros(1)
    street = int(game.tree.street[node])
    with np.errstate(over="ignore"):
        kernels_lbr_rule._equity_batch(
            cards, 0, 2, shown, len(board_cards), street, bounty_rank, params, np.uint64(3), out
        )
    return int(kernels_lbr_rule._rule_index(arrays, params, node, out[0]))


# ------------------------------------------------------------------------------------------ check/call


@pytest.mark.parametrize("name", ["holdem", "auction", "river_of_blood"])
def test_checkcall_table_is_what_checkcallbot_plays(name, blanks) -> None:
    game = tiny_game(name, blanks)
    tree = game.tree
    table = checkcall_strategy(game)
    assert table.shape == (tree.table_size,)
    rows = table.reshape(-1)  # every infoset: one action with probability 1
    for group in range(tree.n_groups):
        start, count = int(tree.row_offset[group]), int(tree.n_actions[group])
        block = rows[start : start + count * int(tree.n_buckets[group])].reshape(-1, count)
        assert (block.sum(axis=1) == 1.0).all() and (block.max(axis=1) == 1.0).all()
    checked = 0
    deck = "Ah Ad 7c 2d Kd Qs 3h 9c 4s 5h 6h Ts"
    decisions = np.flatnonzero(tree.kind == 0)
    for node in decisions[:: max(1, len(decisions) // 300)]:
        node = int(node)
        round_ = play_to(game, node, deck)
        if round_ is None:  # River of Blood run streets: the path crosses a chance node
            continue
        seat = int(tree.player[node])
        expected = CheckCallBot().act(round_.observation(seat))
        group = int(tree.infoset_group[node])
        row = table[int(tree.row_offset[group]) : int(tree.row_offset[group]) + int(tree.n_actions[group])]
        chosen = int(row.argmax())
        start = int(tree.child_start[node])
        assert int(tree.action_kind[start + chosen]) == int(expected.kind), tree.history(node)
        if expected.kind is ActionKind.BID:
            assert int(tree.action_amount[start + chosen]) == expected.amount == 0
        checked += 1
    assert checked >= 30


def test_lbr_beats_checkcall_clearly(blanks) -> None:
    game = tiny_game("swap", blanks)
    result = local_best_response(game, None, LBRConfig(hands=400, candidates=16, seed=2), opponent="checkcall")
    assert result.opponent == "checkcall" and result.equity_rule is None
    assert result.mbb_per_hand - result.ci95_mbb > 500  # over a quarter big blind per hand (10-big-blind stacks)
    same = local_best_response(game, checkcall_strategy(game), LBRConfig(hands=400, candidates=16, seed=2))
    assert same.mbb_per_hand == result.mbb_per_hand  # checkcall is the table fed to the strategy LBR


# ----------------------------------------------------------------------------------------- equity rule


@pytest.mark.parametrize(
    ("variant", "hole", "board", "street", "rank"),
    [
        ("holdem", "Ah Ad", "", 0, -1),
        ("swap", "7c 2d", "", 0, -1),
        ("swap", "Kh Qh", "Jh Th 2c", 1, -1),
        ("bounty", "9s 9d", "2c 5h 9h Kc", 2, 7),
        ("river_of_blood", "Ac Kd", "2h 5d 9h Kc Qh", 3, -1),
    ],
)
def test_rule_equity_matches_the_bots_monte_carlo(variant, hole, board, street, rank, blanks) -> None:
    """`_rule_equity` (counter-based generator) against the bot's `_equity` kernel, 20,000 deals each."""
    game = tiny_game(variant, blanks)
    config = get_variant(variant).config_class()
    if variant == "swap":
        config = dataclasses.replace(config, flop_swap_probability=0.5, turn_swap_probability=0.5)
        sampler = dataclasses.replace(lbr_game(game)[1], config=config)
    else:
        sampler = lbr_game(game)[1]
    _, params = equity_rule_arguments(game, sampler, EquityRule(samples=20_000))
    cards = parse_cards(hole).astype(np.int8)
    board_cards = parse_cards(board).astype(np.int8) if board else np.zeros(0, dtype=np.int8)
    shown = np.full(48, -1, dtype=np.int8)
    shown[: len(board_cards)] = board_cards
    mine = np.zeros(1)
    with np.errstate(over="ignore"):
        kernels_lbr_rule._equity_batch(
            cards.reshape(1, 2), 0, 2, shown, len(board_cards), street, rank, params, np.uint64(11), mine
        )
    swaps = [p for p, upto in ((params[2], 3), (params[3], 4)) if len(board_cards) < upto and p > 0]
    reference = np.zeros(2)
    _equity(
        cards,
        board_cards,
        0,
        2,
        np.array(swaps, dtype=np.float64),
        params[4],
        params[5],
        rank,
        params[6],
        20_000,
        5,
        reference,
    )
    assert mine[0] == pytest.approx(reference[1], abs=0.02)  # two 20,000-deal means: sd about 0.005


@pytest.mark.parametrize(
    ("history", "deck", "actor_hole", "board", "bot_kind", "tree_kind"),
    [
        ("", "Ah Ad 7c 2d Kd Qs 3h 9c 4s", "Ah Ad", "", ActionKind.RAISE, ActionKind.RAISE),  # aces: pot raise to 6
        ("", "7c 2d Ah Ad Kd Qs 3h 9c 4s", "7c 2d", "", ActionKind.CALL, ActionKind.CALL),  # about 1/3 > 1 / (3 + 1)
        ("C", "Ah Ad 7c 2d Kd Qs 3h 9c 4s", "7c 2d", "", ActionKind.CHECK, ActionKind.CHECK),  # free: check
        ("CK/R4", "7c 2d Ah Ad Kd Qs 3h 9c 4s", "7c 2d", "Kd Qs 3h", ActionKind.FOLD, ActionKind.FOLD),  # pot bet
        # trips facing a pot bet: the bot raises, but the tree's raise cap (1) allows none there: call
        ("CK/R4", "As 9d Kh Kc Ac 7s 2c 9c 4s", "As 9d", "Ac 7s 2c", ActionKind.RAISE, ActionKind.CALL),
    ],
)
def test_rule_action_is_the_equity_bots(history, deck, actor_hole, board, bot_kind, tree_kind, blanks) -> None:
    game = tiny_game("holdem", blanks)
    node = node_of(game, history)
    seat = int(game.tree.player[node])
    observation = play_to(game, node, deck).observation(seat)
    assert sorted(observation.hole_cards) == sorted(parse_cards(actor_hole).tolist())
    assert sorted(observation.board) == sorted(parse_cards(board).tolist()) if board else not observation.board
    bot = EquityBot(lbr_game(game)[1].config, samples=20_000, seed=0).act(observation)
    assert bot.kind is bot_kind
    index = rule_index(game, node, actor_hole, board)
    start = int(game.tree.child_start[node])
    assert int(game.tree.action_kind[start + index]) == int(tree_kind)
    if bot_kind is tree_kind:
        assert index == tree_child(game, node, bot)
    if tree_kind is ActionKind.RAISE:
        assert int(game.tree.action_amount[start + index]) == bot.amount == 6  # 2 + (3 + 1), the pot raise


@pytest.mark.parametrize("history", ["", "C", "CK/", "CK/R4", "R6C/K"])
def test_rule_agrees_with_the_equity_bot_on_random_deals(history, blanks) -> None:
    """On 150 random deals the rule's tree action is the bot's (mapped onto the tree), except where the
    bot's equity lies within 0.05 of a threshold (raise equity or pot odds): two independent
    2,000-deal equities differ by about 0.015 (one sd), so such spots are Monte Carlo coin flips."""
    game = tiny_game("holdem", blanks)
    node = node_of(game, history)
    seat = int(game.tree.player[node])
    config = lbr_game(game)[1].config
    start, count = int(game.tree.child_start[node]), int(game.tree.n_children[node])
    has_raise = (game.tree.action_kind[start : start + count] == int(ActionKind.RAISE)).any()
    rng = np.random.default_rng(7)
    agree = 0
    kinds = set()
    for deal in range(150):
        observation = play_to(game, node, rng.permutation(52)[:9].tolist()).observation(seat)
        bot = EquityBot(config, samples=2000, seed=deal).act(observation)
        equity = EquityBot(config, samples=2000, seed=deal).equity(observation)[1]  # the same draws as act's
        index = rule_index(game, node, list(observation.hole_cards), list(observation.board), samples=2000)
        if bot.kind is ActionKind.RAISE and not has_raise:  # raise cap: the rule calls or checks instead
            bot = Action.check() if observation.pips[seat] == observation.pips[1 - seat] else Action.call()
        kinds.add(bot.kind)
        if index == tree_child(game, node, bot):
            agree += 1
            continue
        pot = sum(observation.contributions)
        cost = observation.pips[1 - seat] - observation.pips[seat]
        thresholds = [EquityBot().raise_equity] + ([cost / (pot + cost)] if cost > 0 else [])
        assert min(abs(equity - threshold) for threshold in thresholds) < 0.05, (deal, bot, equity)
    assert agree >= 135
    assert len(kinds) >= 2  # the spot is not trivial: the bot plays at least two different actions


def test_raise_maps_to_the_nearest_tree_size(blanks) -> None:
    """With half-pot and all-in bets only, the bot's pot raise (to 6 preflop) maps to the half pot (to 4)."""
    game = tiny_game("holdem", blanks, bets="0.5p,a cap=1")
    sampler = lbr_game(game)[1]
    arrays, _ = equity_rule_arguments(game, sampler, EquityRule())
    tree = game.tree
    start = int(tree.child_start[0])
    assert int(tree.action_amount[start + arrays[0][0]]) == 4
    capped = [int(n) for n in np.flatnonzero(tree.kind == 0) if arrays[1][n] < 0 and arrays[0][n] < 0]
    assert capped and all(arrays[2][n] >= 0 for n in capped)  # no raise left: the rule calls or folds


@pytest.mark.parametrize("name", ["holdem", "swap", "bounty", "river_of_blood", "auction"])
def test_lbr_against_equity_is_reproducible_and_split_free(name, blanks) -> None:
    game = tiny_game(name, blanks)
    rule = EquityRule(samples=200)
    one = local_best_response(
        game, None, LBRConfig(hands=40, candidates=8, seed=5, batch=40), opponent="equity", rule=rule
    )
    split = local_best_response(
        game, None, LBRConfig(hands=40, candidates=8, seed=5, batch=7, workers=2), opponent="equity", rule=rule
    )
    assert np.array_equal(one.payoffs, split.payoffs)
    assert one.opponent == "equity" and one.equity_rule == {
        "samples": 200,
        "raise_equity": 0.7,
        "raise_pot_fraction": 1.0,
    }
    other = local_best_response(game, None, LBRConfig(hands=40, candidates=8, seed=6), opponent="equity", rule=rule)
    assert not np.array_equal(one.payoffs, other.payoffs)
    assert np.abs(one.payoffs).max() <= np.abs(game.tree.terminal_values[:, 0]).max()
    json.dumps(one.to_dict())


# ----------------------------------------------------------------------------------------- auction rule


def kernel_opponent_index(game, node: int, round_, samples: int, seed: int = 3) -> tuple[int, np.ndarray]:
    """The rule's action index at ``node`` on the cards of ``round_`` (kernel path: bids and equity slots
    included) and the equity memo it filled ([street, slot])."""
    arrays, params = equity_rule_arguments(game, lbr_game(game)[1], EquityRule(samples=samples))
    hole = np.full((4, 2, 3), -1, dtype=np.int8)
    for seat in range(2):
        cards = list(round_.hole_cards[seat])
        hole[:, seat, : len(cards)] = cards
    board = np.full(48, -1, dtype=np.int8)
    shown = list(round_.observation(0).board)
    board[: len(shown)] = shown
    cache = np.full((4, kernels_lbr_rule.EQUITY_SLOTS), -1.0)
    with np.errstate(over="ignore"):
        index = kernels_lbr_rule._opponent_index(
            tree_arguments(game),
            arrays,
            params,
            node,
            hole,
            board,
            np.full(2, -1, dtype=np.int64),
            cache,
            np.uint64(seed),
            kernels_lbr_rule._scratch(),
        )
    return int(index), cache


def bid_nodes(game) -> tuple[int, list[int]]:
    """The first bid node after a limped preflop (``CK/``) and the second bid nodes below it."""
    tree = game.tree
    first = node_of(game, "CK/")
    start, count = int(tree.child_start[first]), int(tree.n_children[first])
    assert (tree.action_kind[start : start + count] == int(ActionKind.BID)).all() and count >= 4
    return first, list(range(start, start + count))


def test_auction_holders_are_the_rounds(blanks) -> None:
    """The rule's equity slot at every decision counts the third cards the rules engine deals on that path."""
    game = tiny_game("auction", blanks)
    tree = game.tree
    arrays, _ = equity_rule_arguments(game, lbr_game(game)[1], EquityRule())
    slots, bid_high = arrays[6], arrays[7]
    seen = set()
    deck = "Ah Ad 7c 2d Kd Qs 3h 9c 4s 5h 6h Ts"
    for node in np.flatnonzero(tree.kind == 0):
        node = int(node)
        round_ = play_to(game, node, deck)
        actor = int(tree.player[node])
        if bid_high[node] >= 0:
            assert round_.observation(actor).legal_actions == {ActionKind.BID}
            assert bid_high[node] == round_.bid_bounds()[1]  # the bidder's stack
            continue
        counts = [len(cards) for cards in round_.hole_cards]
        assert slots[node] == (counts[actor] == 3) + 2 * (counts[1 - actor] == 3), tree.history(node)
        seen.add(int(slots[node]))
    assert seen == {0, 1, 2, 3}  # preflop; the actor won; the opponent won; a tie


@pytest.mark.parametrize("second", [False, True])
def test_rule_bid_is_the_equity_bots(second, blanks) -> None:
    """At a bid node the rule bids EquityBot.act's bid mapped to the nearest tree bid, on random deals,
    except where the bot's chip bid lies within 0.6 chips of the midpoint between two tree bids (two
    independent 4,000-deal bids differ by about 0.2 chips, one sd, at this pot)."""
    game = tiny_game("auction", blanks)
    tree = game.tree
    first, children = bid_nodes(game)
    config = lbr_game(game)[1].config
    rng = np.random.default_rng(11)
    agree = 0
    chosen = set()
    for deal in range(40):
        node = children[deal % len(children)] if second else first
        round_ = play_to(game, node, rng.permutation(52)[:12].tolist())
        actor = int(tree.player[node])
        observation = round_.observation(actor)
        bot = EquityBot(config, samples=4000, seed=deal)
        value = (
            bot.equity(observation, extra_hole_cards=1, opponent_hole_cards=2)[1]
            - bot.equity(observation, opponent_hole_cards=3)[1]
        ) * sum(observation.contributions)
        action = EquityBot(config, samples=4000, seed=deal).act(observation)  # the same draws: bids round(value)
        assert action.kind is ActionKind.BID and action.amount == min(round_.bid_bounds()[1], max(0, round(value)))
        index, _ = kernel_opponent_index(game, node, round_, samples=4000)
        chosen.add(index)
        start, count = int(tree.child_start[node]), int(tree.n_children[node])
        amounts = sorted(int(tree.action_amount[start + k]) for k in range(count))
        nearest = min(
            range(count),
            key=lambda k: (abs(int(tree.action_amount[start + k]) - action.amount), int(tree.action_amount[start + k])),
        )
        if index == nearest:
            agree += 1
            continue
        midpoints = [(low + high) / 2 for low, high in itertools.pairwise(amounts)]
        assert min(abs(value - midpoint) for midpoint in midpoints) < 0.6, (deal, value, action, index)
    assert agree >= 34
    assert len(chosen) >= 2  # the bid is not constant: deals bid different tree amounts


def test_bid_maps_to_the_nearest_tree_bid(blanks) -> None:
    """`_bid_index` on given equities: the chip bid round((with - without) * pot), clamped to (0, stack),
    goes to the tree bid nearest in chips, ties to the smaller bid."""
    game = tiny_game("auction", blanks)
    tree = game.tree
    arrays, _ = equity_rule_arguments(game, lbr_game(game)[1], EquityRule())
    first, _ = bid_nodes(game)
    start, count = int(tree.child_start[first]), int(tree.n_children[first])
    amounts = [int(tree.action_amount[start + k]) for k in range(count)]
    assert amounts == [0, 1, 2, 4, 18] and arrays[4][first] == 4.0  # pot 4: 0.1p, 0.25p, 0.5p, 1p rounded; all-in

    def bid(with_card: float, without_card: float) -> int:
        index = kernels_lbr_rule._bid_index(arrays, tree.child_start, tree.n_children, first, with_card, without_card)
        return amounts[index]

    assert bid(0.5, 0.5) == 0
    assert bid(0.6, 0.3) == 1  # 1.2 chips rounds to 1
    assert bid(0.75, 0.0) == 2  # 3 chips, 1 from both 2 and 4: the smaller
    assert bid(0.4, 0.6) == 0  # negative: clamped to 0
    assert bid(1.5, 0.0) == 4  # 6 chips: nearer 4 than 18
    assert bid(5.0, 0.0) == 18  # 20 chips: clamped to the stack, 18


def test_equity_after_the_auction_counts_third_cards(blanks) -> None:
    """After the auction the rule's equity is EquityBot.equity with the observation's hole-card counts
    (three for each seat that won or tied): within Monte Carlo error of the bot's, and far from the
    two-against-two equity on these deals."""
    game = tiny_game("auction", blanks)
    tree = game.tree
    config = lbr_game(game)[1].config
    _first, children = bid_nodes(game)
    # Flush draw (7c 2c on Kc Qc 3h) against aces. The big blind (seat 1) bids first at CK/.
    deck = "Ah Ad 7c 2c Kc Qc 3h 9c 4s 5h 6h Ts"
    checked = 0
    for child in children:
        below = int(tree.child_start[child])  # the second bidder's bids below this first bid
        for k in range(int(tree.n_children[child])):
            node = below + k
            if tree.kind[node] != 0:
                continue
            round_ = play_to(game, node, deck)
            actor = int(tree.player[node])
            counts = [len(cards) for cards in round_.hole_cards]
            observation = round_.observation(actor)
            _, cache = kernel_opponent_index(game, node, round_, samples=20_000)
            street = int(tree.street[node])
            slot = int((counts[actor] == 3) + 2 * (counts[1 - actor] == 3))
            assert (cache[street] >= 0).sum() == 1 and cache[street, slot] >= 0
            bot = EquityBot(config, samples=20_000, seed=1).equity(observation)[1]
            assert cache[street, slot] == pytest.approx(bot, abs=0.02)
            plain = EquityBot(config, samples=20_000, seed=1).equity(observation, opponent_hole_cards=2)
            if counts != [2, 2] and counts[actor] == 2:
                assert abs(plain[1] - bot) > 0.04  # the opponent's third card matters here
            checked += 1
    assert checked >= 10


def test_rule_defaults_are_the_equity_bots() -> None:
    bot = EquityBot()
    assert (EquityRule().samples, EquityRule().raise_equity, EquityRule().raise_pot_fraction) == (
        bot.samples,
        bot.raise_equity,
        bot.raise_pot_fraction,
    )


def test_refusals(blanks) -> None:
    kuhn = build_game("kuhn")
    with pytest.raises(ValueError, match="unknown LBR opponent 'allin'"):
        local_best_response(kuhn, uniform_strategy(kuhn), LBRConfig(hands=10), opponent="allin")
    with pytest.raises(ValueError, match="exact game"):
        local_best_response(kuhn, None, LBRConfig(hands=10), opponent="equity")
    result = local_best_response(kuhn, None, LBRConfig(hands=2000, seed=1), opponent="checkcall")
    assert result.mbb_per_hand > 0  # Kuhn: betting every king and folding nothing else beats check/call


# --------------------------------------------------------------------------------------------- command


def test_cli_opponent_flag(tmp_path) -> None:
    cards = tmp_path / "cards.h5"
    CardAbstraction.blank((169, 4, 4, 4)).save(cards)
    path = tmp_path / "holdem.h5"
    solve = [
        "solve",
        "--rule",
        "stack=20",
        "--cards",
        cards,
        "--bets",
        "1p,a cap=1",
        "--variant",
        "holdem",
        "--quiet",
        "--iterations",
        "500",
        "--out",
        path,
    ]
    assert invoke(*solve).exit_code == 0
    common = ["lbr", path, "--hands", "30", "--candidates", "4", "--seed", "3", "--json"]
    summaries = {}
    for opponent in ("strategy", "checkcall", "equity"):
        extra = ["--equity-samples", "100"] if opponent == "equity" else []
        result = invoke(*common, "--opponent", opponent, *extra)
        assert result.exit_code == 0, result.output
        summaries[opponent] = json.loads(result.stdout)
        assert summaries[opponent]["opponent"] == opponent and summaries[opponent]["hands"] == 30
    assert summaries["equity"]["equity_rule"]["samples"] == 100
    assert summaries["strategy"]["equity_rule"] is None
    text = invoke("lbr", path, "--hands", "10", "--candidates", "4", "--opponent", "checkcall", "--quiet")
    assert text.exit_code == 0 and "check/call" in text.stdout
    assert "--opponent must be one of strategy, equity, checkcall" in one_line_error(
        invoke("lbr", path, "--opponent", "allin"), 2
    )
    assert "--equity-samples must be >= 1" in one_line_error(
        invoke("lbr", path, "--opponent", "equity", "--equity-samples", "0"), 2
    )
    assert "--opponent equity only" in one_line_error(invoke("lbr", path, "--equity-samples", "10"), 2)
    config = LBRConfig(hands=30, candidates=4, seed=3)
    lines = lbr_reference_lines(path, config, rule=EquityRule(samples=100))
    assert set(lines) == {"strategy", "equity", "checkcall"}
    for opponent, line in lines.items():  # the same numbers as one run per opponent
        assert line["mbb_per_hand"] == summaries[opponent]["mbb_per_hand"]
    assert lbr_strategy_file(path, config, opponent="checkcall")["mbb_per_hand"] == lines["checkcall"]["mbb_per_hand"]
    with pytest.raises(ValueError, match="unknown LBR opponent"):
        lbr_reference_lines(path, config, opponents=("strategy", "bot"))
    leduc = tmp_path / "leduc.h5"
    train(TrainingConfig(game="leduc", algorithm="cfr+", iterations=5), leduc)
    assert "exact game" in one_line_error(invoke("lbr", leduc, "--hands", "10", "--opponent", "equity"), 1)

"""Ranges by Bayes from the blueprint, and the re-solving bot on the tiny solved Hold'em of test_lookup_bot.

The strategy (stack 40 chips, bets ``1p,a cap=2``, 4/3/3/3 buckets) is solved once per module by
the ``solved`` fixture of ``test_lookup_bot``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from abstraction.bets.bet_abstraction import StreetBets
from abstraction.cards.buckets import BucketLookup
from abstraction.cards.kernels_features import HAND_CARDS
from game.cards.deck import parse_cards
from game.play.bots import make_bot, passive_action
from game.play.cli_game import make_player
from game.play.match import play_match
from game.rules.actions import Action
from game.rules.chance import RandomChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.nolimit import NoLimitConfig
from solver.bots.lookup_bot import LookupBot
from solver.bots.resolving_bot import RIVER, TURN, ResolvingBot, ResolvingConfig
from solver.resolve.continuation import (
    ContinuationConfig,
    RiverBlueprint,
    blueprint_street_tree,
    river_buckets,
    river_tables,
)
from solver.resolve.hands import TurnHands, river_hands, turn_hands
from solver.resolve.ranges import (
    N_COMBOS,
    ComboBuckets,
    bayes_update,
    blueprint_likelihood,
    combo_index,
    initial_range,
)
from solver.resolve.resolver import SubgameSolver
from solver.resolve.tree import DECISION, SubgameConfig, build_subgame_tree
from tests.solver.test_lookup_bot import STACK, solved  # noqa: F401 (the module fixture)
from tests.solver.tiny_bounty import blank_cards, solve_tiny

pytestmark = pytest.mark.jit_only  # a Hold'em game is solved in a module fixture: minutes as plain Python

FAST = ResolvingConfig(iterations=20, depth_limited=False)  # the river tests: the blueprint plays the turn
TURN_FAST = ResolvingConfig(iterations=10, min_iterations=10, continuation=ContinuationConfig(n_classes=16, samples=16))


def test_bayes_update_equals_a_brute_force_product(solved):  # noqa: F811
    """Three actions on three streets: the vectorised chain equals a loop over combinations bucketing
    each with the checked `BucketLookup.bucket`, blocked combinations are 0, the result sums to 1."""
    _, abstraction, _ = solved
    lookup = BucketLookup(abstraction)
    board = parse_cards("Qh Td 8c 5s 3h")
    own = parse_cards("Ah Kd")
    rng = np.random.default_rng(0)
    moves = [(0, 1), (3, 0), (4, 2)]  # (board length, action column) of the actions, preflop to turn
    rows = [rng.dirichlet(np.ones(3), size=lookup.n_buckets[street]) for street in range(3)]
    buckets = ComboBuckets(lookup)
    weights = initial_range(board, own)
    for (length, action), table in zip(moves, rows, strict=True):
        weights = bayes_update(weights, blueprint_likelihood(table, buckets.of(board[:length]), action))
    brute = np.zeros(N_COMBOS)
    dead = set(board.tolist()) | set(own.tolist())
    for combo, cards in enumerate(HAND_CARDS.tolist()):
        if dead & set(cards):
            continue
        brute[combo] = np.prod(
            [
                table[lookup.bucket(cards, board[:length]), action]
                for (length, action), table in zip(moves, rows, strict=True)
            ]
        )
    assert np.allclose(weights, brute / brute.sum(), rtol=1e-12, atol=0)
    assert weights[combo_index(parse_cards("Ah Qc"))] == 0 and weights[combo_index(parse_cards("Qh 2c"))] == 0
    assert abs(weights.sum() - 1) < 1e-12 and np.count_nonzero(weights) == 45 * 44 // 2
    with pytest.raises(ValueError, match="probability 0 for every combination"):
        bayes_update(weights, np.zeros(N_COMBOS))


def river_spot(seed: int) -> HoldemRound:
    """A round checked down to the river (the small blind limps), the big blind to act on the river."""
    round_ = HoldemRound(HoldemConfig(stack=STACK), RandomChance(seed))
    while round_.street < RIVER:
        round_.apply(passive_action(round_.observation(round_.to_act)))
    return round_


def blueprint_into_subgame(bot: LookupBot, tree, hands, observation) -> np.ndarray:
    """The blueprint's river strategy at the observation's abstract node, read on the subgame tree
    built with the blueprint's own bet set (the two trees match child for child)."""
    buckets = ComboBuckets(bot.lookup).of(observation.board)[hands.hand_index]
    out = np.zeros((tree.n_nodes, hands.n_hands))
    pending = [(0, bot.abstract_node(observation))]
    while pending:
        sub, abstract = pending.pop()
        if tree.kind[sub] != DECISION:
            continue
        children, _ = bot._tree.children(abstract)
        assert len(children) == len(tree.children(sub))
        rows = bot._rows(bot._tree.group[abstract])
        for k, (sub_child, abstract_child) in enumerate(zip(tree.children(sub), children, strict=True)):
            out[sub_child] = rows[buckets, k]
            pending.append((sub_child, abstract_child))
    return out


def test_bot_ranges_equal_a_brute_force_walk_of_the_blueprint(solved):  # noqa: F811
    """On a river checked down from the deal, each seat's range from the bot (seat 1's view) equals,
    per combination, the product over that seat's three earlier actions of the blueprint's
    probability of the action in the combination's bucket on that street (checked
    `BucketLookup.bucket`), normalised; blocked combinations (board; for seat 0 also seat 1's cards) 0."""
    path, abstraction, _ = solved
    bot = ResolvingBot(path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), seed=0)
    lookup = BucketLookup(abstraction)
    observation = river_spot(5).observation(1)
    board = np.array(observation.board)
    removed = (set(board.tolist()) | set(observation.hole_cards), set(board.tolist()))  # by seat
    brute = np.array([[0.0 if set(cards) & removed[seat] else 1.0 for cards in HAND_CARDS.tolist()] for seat in (0, 1)])
    assert len(observation.history) == 6  # preflop call and check, then check-check on flop and turn
    node = 0
    for move in observation.history:
        children, kinds = bot._tree.children(node)
        column = kinds.index(move.action.kind)
        rows = bot._rows(bot._tree.group[node])
        for combo in np.flatnonzero(brute[move.seat]):
            brute[move.seat, combo] *= rows[lookup.bucket(HAND_CARDS[combo], board[: move.street]), column]
        node = children[column]
    assert np.allclose(bot.blueprint_ranges(observation), brute / brute.sum(axis=1, keepdims=True), rtol=1e-12, atol=0)


@pytest.mark.parametrize("seed", [1, 2])
def test_resolve_is_less_exploitable_than_the_blueprint_in_its_subgame(solved, seed):  # noqa: F811
    """From the ranges the blueprint reaches on a checked-down river, 200 iterations of the subgame
    solver give a strategy the subgame's best responses gain less against than the blueprint's own
    river strategy (mapped onto the same tree: same bets, same chips)."""
    path, abstraction, _ = solved
    bot = ResolvingBot(path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), seed=0)
    observation = river_spot(seed).observation(1)
    ranges = bot.blueprint_ranges(observation)
    assert np.allclose(ranges.sum(axis=1), 1)
    board = list(observation.board)
    assert not ranges[1][[c for c in range(N_COMBOS) if set(HAND_CARDS[c].tolist()) & set(board)]].any()
    assert ranges[0][combo_index(observation.hole_cards)] == 0  # the opponent's range, from seat 1's view
    hands = river_hands(np.array(board))
    # exact ranges: each seat's range as its opponent infers it (public: only the board removes cards)
    exact = np.stack([hands.range_from_1326(bot.blueprint_ranges(river_spot(seed).observation(p))[p]) for p in (0, 1)])
    config = SubgameConfig(
        pot_chips=observation.contributions,
        stacks=observation.stacks,
        first_player=1,
        bets=StreetBets.parse("1p,a cap=2"),
        big_blind=2,
    )
    tree = build_subgame_tree(config)
    solver = SubgameSolver(tree, hands, exact)
    blueprint = solver.exploitability(blueprint_into_subgame(bot, tree, hands, observation)).nash_conv
    resolved = solver.run(200).exploitability().nash_conv
    assert resolved < blueprint / 10, (resolved, blueprint)  # measured: 0.01-0.02 against 1.27-1.32 chips


class StreetCounter:
    """Forwards to ``bot``; counts the rounds in which the bot was asked to act on ``street``."""

    def __init__(self, bot: ResolvingBot, street: int) -> None:
        self.bot, self.name, self.street, self.rounds, self._last = bot, bot.name, street, 0, None

    def act(self, observation):
        if observation.street == self.street and (observation.hole_cards, observation.board) != self._last:
            self._last = (observation.hole_cards, observation.board)
            self.rounds += 1
        return self.bot.act(observation)


def assert_resolves_every_round(bot: ResolvingBot, config: NoLimitConfig, street: int, opponent: str) -> None:
    """200 duplicate rounds of ``bot`` against the ``opponent`` bot: no illegal action, no error, no
    fallback to the blueprint, a re-solve in every round (more than 20) reaching the bot's ``street``."""
    counter = StreetCounter(bot, street)
    result = play_match(config, counter, make_bot(opponent, seed=4), rounds=200, seed=5, duplicate=True)
    assert sum(result.illegal_actions.values()) == 0
    assert bot.errors == 0 and bot.fallbacks == 0
    assert counter.rounds > 20 and bot.resolves >= counter.rounds, (counter.rounds, bot.resolves)


@pytest.mark.parametrize("rules", ["document", "engine"])
@pytest.mark.parametrize("opponent", ["random", "checkcall"])
def test_bot_plays_every_round_legally_and_resolves_every_river(solved, rules, opponent):  # noqa: F811
    """200 duplicate rounds: no illegal action, no error, no fallback to the blueprint (random raises
    past the runtime tree's cap and off its sizes), a re-solve in every round reaching the bot's river."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK, rules=rules)
    bot = ResolvingBot(path, card_abstraction=abstraction, config=config, seed=3, resolving=FAST)
    assert_resolves_every_round(bot, config, RIVER, opponent)


def test_range_floor_mixes_uniform_into_the_opponents_river_range(solved):  # noqa: F811
    """``range_floor`` F: the river subgame's opponent range is F uniform over the hands plus (1 - F)
    of the Bayes range, the bot's own range untouched; F = 0 is the Bayes range bit for bit. Shares
    outside [0, 1] are refused."""
    path, abstraction, _ = solved
    observation = river_spot(5).observation(1)
    ranges = {}
    for floor in (0.0, 0.25):
        resolving = dataclasses.replace(FAST, range_floor=floor)
        bot = ResolvingBot(path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), resolving=resolving)
        bot.act(observation)
        ranges[floor] = bot._session.solver.ranges
    bayes, floored = ranges[0.0], ranges[0.25]
    n_hands = bayes.shape[1]
    assert np.array_equal(floored[1], bayes[1])  # the bot's own range (seat 1)
    np.testing.assert_allclose(floored[0], 0.75 * bayes[0] + 0.25 / n_hands, atol=1e-12)
    assert bayes[0].min() < 0.25 / n_hands  # the blueprint's range is not uniform: the floor changed it
    with pytest.raises(ValueError, match="range_floor"):
        ResolvingConfig(range_floor=1.5)


def count_solves(bot: ResolvingBot) -> list[int]:
    """Count the bot's subgame solves from now on: a one-element list, updated in place."""
    count, inner = [0], bot._solve

    def counted(*args, **kwargs):
        count[0] += 1
        return inner(*args, **kwargs)

    bot._solve = counted
    return count


def test_policy_changes_nothing_and_act_samples_it(solved):  # noqa: F811
    """Two bots of one seed, against random and checkcall: one asks for its policy before every action; both play the same
    actions (policy left the random stream, caches and session as they were), each in the policy's
    support, the policy a distribution; river decisions re-solve. The asking bot's act takes the
    solve its policy just made (as the adaptive bot asks both): it solves as often as the plain one."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    plain, asking = (
        ResolvingBot(path, card_abstraction=abstraction, config=config, seed=8, resolving=FAST) for _ in range(2)
    )
    solves = {bot: count_solves(bot) for bot in (plain, asking)}
    opponents = make_bot("random", seed=1), make_bot("checkcall")
    river_policies = 0
    for seed in range(16):
        round_ = HoldemRound(config, RandomChance(seed))
        opponent = opponents[seed % 2]
        while (seat := round_.to_act) is not None:
            observation = round_.observation(seat)
            if seat == 0:
                policy = asking.policy(observation)
                action = asking.act(observation)
                assert plain.act(observation) == action
                assert abs(sum(p for _, p in policy) - 1) < 1e-9 and all(p >= 0 for _, p in policy)
                assert action in [a for a, p in policy if p > 0], (action, policy)
                assert all(round_.can_apply(a) for a, _ in policy)
                river_policies += observation.street >= RIVER
            else:
                action = opponent.act(observation)
            round_.apply(action)
    assert river_policies > 0 and asking.resolves == plain.resolves > 0
    assert asking.errors == plain.errors == 0 and asking.fallbacks == 0
    assert solves[asking] == solves[plain] > [0] and len(asking.resolve_seconds) == len(plain.resolve_seconds)


@pytest.mark.parametrize("resolving", [FAST, TURN_FAST], ids=["river", "turn"])
def test_policy_rows_read_one_solve_and_change_nothing(solved, resolving):  # noqa: F811
    """Two bots of one seed against check/call: one asks for its policy rows of 12 candidate hands (its
    own among them) before every action. Both play the same actions (state restored); the own
    hand's row is its policy exactly; preflop and flop the rows are the lookup bot's; on re-solved
    streets another hand's row is close to that hand's own policy (one solve, differing only by the
    card removal in the opponent's range and the own-hand floor) and every row a distribution."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    plain, asking = (
        ResolvingBot(path, card_abstraction=abstraction, config=config, seed=8, resolving=resolving) for _ in range(2)
    )
    lookup = LookupBot(path, card_abstraction=abstraction, config=config, seed=8)
    opponent = make_bot("checkcall")  # every hand reaches the river
    rng = np.random.default_rng(0)
    resolved, gaps = 0, []
    for seed in range(3):
        round_ = HoldemRound(config, RandomChance(seed))
        while (seat := round_.to_act) is not None:
            observation = round_.observation(seat)
            if seat == 1:
                round_.apply(opponent.act(observation))
                continue
            unseen = np.setdiff1d(np.arange(52), [*observation.board, *observation.hole_cards])
            holes = [observation.hole_cards] + [tuple(rng.choice(unseen, 2, replace=False)) for _ in range(11)]
            actions, matrix = asking.policy_rows(observation, holes)
            assert np.allclose(matrix.sum(axis=1), 1) and np.all(matrix >= 0)
            assert dict(zip(actions, matrix[0], strict=True)) == pytest.approx(dict(asking.policy(observation)))
            if observation.street < TURN:
                lookup_actions, lookup_matrix = lookup.policy_rows(observation, holes)
                assert lookup_actions == actions and np.array_equal(lookup_matrix, matrix)
            elif asking._resolves(observation):
                resolved += 1
                for hole, row in zip(holes[1:], matrix[1:], strict=True):
                    alone = dict(asking.policy(dataclasses.replace(observation, hole_cards=hole)))
                    gaps.append(sum(abs(p - alone.get(a, 0.0)) for a, p in zip(actions, row, strict=True)) / 2)
            action = asking.act(observation)
            assert plain.act(observation) == action
            round_.apply(action)
    assert resolved > 0 and asking.resolves == plain.resolves > 0 and asking.fallbacks == 0
    assert np.mean(gaps) < 0.1, np.mean(gaps)  # total variation between one solve's row and the hand's own solve


def test_off_tree_bet_resolves_from_the_current_node(solved):  # noqa: F811
    """An opponent's river bet of a size the runtime tree lacks makes the bot solve again from there."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    bot = ResolvingBot(path, card_abstraction=abstraction, config=config, seed=2, resolving=FAST)
    round_ = river_spot(4)
    low, high = round_.raise_bounds()
    round_.apply(Action.raise_to(min(high, low + 1)))  # 3 chips into a pot of 4: no 0.5p, 1p or all-in size
    action = bot.act(round_.observation(0))
    assert round_.can_apply(action)
    assert bot.resolves == 2 and bot.fallbacks == 0 and bot.errors == 0  # street start, then the bet


def test_off_tree_river_bet_resolves_behind_the_nested_gadget(solved):  # noqa: F811
    """After the opponent's off-tree river bet the bot re-solves behind the gadget (``nested_gadget``, the
    default) whose reach is the opponent's river range before the bet: every hand that could have bet is
    held to its best in-tree value, and gains less above it than against a plain re-solve. The session
    walks on with the range the translated bet leaves. With ``nested_gadget`` off the re-solve has no
    gadget and plays against that translated range."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    round_ = river_spot(4)
    low, high = round_.raise_bounds()
    round_.apply(Action.raise_to(min(high, low + 1)))  # 3 chips into a pot of 4: off the tree
    observation = round_.observation(0)
    bots = {
        nested: ResolvingBot(
            path,
            card_abstraction=abstraction,
            config=config,
            seed=2,
            resolving=ResolvingConfig(iterations=300, depth_limited=False, nested_gadget=nested),
        )
        for nested in (True, False)
    }
    for bot in bots.values():
        assert round_.can_apply(bot.act(observation)) and bot.resolves == 2
    nested, plain = bots[True]._session, bots[False]._session
    hands = nested.hands
    before = hands.range_from_1326(bots[True]._street_ranges(observation).sum(axis=2)[1])
    np.testing.assert_allclose(nested.solver.ranges[1], before / before.sum(), atol=1e-12)
    assert nested.solver.gadget is not None and nested.solver.gadget.player == 1
    assert plain.solver.gadget is None
    np.testing.assert_allclose(nested.ranges[1], plain.ranges[1], atol=1e-12)  # the walk goes on translated
    np.testing.assert_allclose(plain.solver.ranges[1], plain.ranges[1], atol=1e-12)
    assert np.abs(nested.ranges[1] - nested.solver.ranges[1]).sum() > 0.1  # the bet moved the range
    gadget, unsafe, pot = gadget_and_plain_excess(bots[True], seat=0)
    assert gadget < unsafe and gadget < 0.02 * pot, (gadget, unsafe, pot)


def test_a_history_the_blueprint_cannot_follow_is_played_by_the_blueprint_unless_resolve_off_tree(solved):  # noqa: F811
    """Three preflop raises (past the blueprint's ``cap=2``) then checks to the river: Bayes stops at the
    third raise. With ``resolve_off_tree`` off the bot plays the blueprint there (counted unmodelled, no
    re-solve, a legal action); with it on (the default) it re-solves from the ranges up to that raise."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    round_ = HoldemRound(config, RandomChance(4))
    for _ in range(3):
        low, _high = round_.raise_bounds()
        round_.apply(Action.raise_to(low))
    while round_.street < RIVER:
        round_.apply(passive_action(round_.observation(round_.to_act)))
    observation = round_.observation(round_.to_act)
    walker = ResolvingBot(path, card_abstraction=abstraction, config=config)
    assert not walker._walked_ranges(observation)[1] and walker._walked_ranges(river_spot(4).observation(1))[1]
    guarded = dataclasses.replace(FAST, resolve_off_tree=False)
    for resolving, resolves, unmodelled in ((guarded, 0, 1), (FAST, 1, 0)):
        bot = ResolvingBot(path, card_abstraction=abstraction, config=config, seed=2, resolving=resolving)
        assert round_.can_apply(bot.act(observation))
        assert (bot.resolves, bot.unmodelled, bot.fallbacks, bot.errors) == (resolves, unmodelled, 0, 0)


def test_match_seats_the_resolving_bot_by_prefix(solved):  # noqa: F811
    import solver.cli.main  # noqa: F401 (registers the .h5 player files)

    path, _, _ = solved
    bot = make_player(f"resolve:{path}", HoldemConfig(stack=STACK), 0)
    assert isinstance(bot, ResolvingBot) and bot.name == f"resolve:{path.name}"
    assert bot.resolving.depth_limited
    final = make_player(f"resolve-final:{path}", HoldemConfig(stack=STACK), 0)
    assert isinstance(final, ResolvingBot) and final.name == f"resolve-final:{path.name}"
    assert not final.resolving.depth_limited and final.resolving.iterations == bot.resolving.iterations
    assert type(make_player(str(path), HoldemConfig(stack=STACK), 0)) is LookupBot


def test_time_budget_stops_the_solve_and_bad_settings_are_refused(solved):  # noqa: F811
    path, abstraction, _ = solved
    # The budget counts from before the ranges and the solver are set up, and on a loaded machine
    # 0.05 s held no iteration at all (the bot then rightly plays the blueprint): 0.5 s and at least
    # one iteration still show the clock stopping a million-iteration solve.
    budget = ResolvingConfig(iterations=1_000_000, seconds=0.5, min_iterations=1)
    bot = ResolvingBot(path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), seed=0, resolving=budget)
    action = bot.act(river_spot(3).observation(1))
    assert bot.resolves == 1 and bot.fallbacks == 0 and action.kind is not None
    assert bot.resolve_seconds[0] < 5  # a million iterations would take minutes: the clock stopped it
    with pytest.raises(ValueError, match="iterations must be an int >= 1"):
        ResolvingConfig(iterations=0)
    with pytest.raises(ValueError, match="seconds must be None or > 0"):
        ResolvingConfig(seconds=0)
    with pytest.raises(TypeError, match="bets must be a StreetBets"):
        ResolvingConfig(bets="0.5p")
    with pytest.raises(ValueError, match=r"turn_min_iterations must be an int in \[1, iterations\]"):
        ResolvingConfig(iterations=50, turn_min_iterations=60)


def turn_spot(seed: int) -> HoldemRound:
    """A round checked down to the turn (the small blind limps), the big blind to act on the turn."""
    round_ = HoldemRound(HoldemConfig(stack=STACK), RandomChance(seed))
    while round_.street < TURN:
        round_.apply(passive_action(round_.observation(round_.to_act)))
    return round_


def turn_subgame(observation) -> SubgameConfig:
    """The turn subgame (not the last street) at ``observation`` of `turn_spot`, seat 1 first to act,
    with the blueprint's bets ``1p,a cap=2``."""
    return SubgameConfig(
        pot_chips=observation.contributions,
        stacks=observation.stacks,
        first_player=1,
        bets=StreetBets.parse("1p,a cap=2"),
        final_street=False,
    )


def test_river_buckets_of_turn_hands_equal_the_card_abstraction(solved):  # noqa: F811
    """The leaves' river buckets, computed for every turn hand and river at once, are the card
    abstraction's own (`BucketLookup.bucket`) on every hand of three rivers; -1 where the hand
    holds the river card."""
    _, abstraction, _ = solved
    lookup = BucketLookup(abstraction)
    board = parse_cards("Qh Td 8c 5s")
    hands = turn_hands(board)
    buckets = river_buckets(hands, abstraction.river_centroids)
    for row in (0, 20, 47):
        river = int(hands.river_cards[row])
        expected = [
            -1 if river in cards else lookup.bucket(cards, [*board.tolist(), river]) for cards in hands.cards.tolist()
        ]
        assert buckets[row].tolist() == expected


def test_leaves_continue_from_the_blueprint_river_the_lookup_bot_reaches(solved):  # noqa: F811
    """On a turn checked down from the deal, the check-check leaf of the bot's turn subgame reads
    the blueprint's river from the abstract node the lookup bot reaches after the same checks; a
    bet-call leaf from the river node after the abstract pot bet and call (the tree's 1p bet is
    the blueprint's own size)."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    bot = ResolvingBot(path, card_abstraction=abstraction, config=config, seed=0)
    round_ = turn_spot(1)
    observation = round_.observation(1)
    subgame = turn_subgame(observation)
    tree = build_subgame_tree(subgame)
    roots = bot.leaf_roots(tree, observation.history)
    paths = {
        tuple(tree.describe(c) for c in _path(tree, leaf)): root for leaf, root in zip(tree.leaves, roots, strict=True)
    }
    for actions in (("check", "check"), ("bet to 4", "call")):
        lookup = LookupBot(path, card_abstraction=abstraction, config=config, seed=0)
        played = HoldemRound(config, RandomChance(1))
        while played.street < TURN:
            played.apply(passive_action(played.observation(played.to_act)))
        for text in actions:
            played.apply(Action.check() if text == "check" else Action.call() if text == "call" else Action.raise_to(4))
        assert played.street == RIVER
        assert paths[actions] == lookup.abstract_node(played.observation(played.to_act)) >= 0


def _path(tree, node: int) -> list[int]:
    """The nodes from the root's child down to ``node``."""
    parent = {c: p for p in range(tree.n_nodes) for c in tree.children(p)}
    out = [node]
    while parent.get(out[-1], 0) != 0:
        out.append(parent[out[-1]])
    return out[::-1]


@pytest.mark.slow  # about 40 s a match on a loaded machine: a depth-limited re-solve in most rounds
@pytest.mark.parametrize("opponent", ["equity", "random"])
def test_bot_resolves_every_turn_and_plays_legally(solved, opponent):  # noqa: F811
    """200 duplicate rounds (engine rules) against the equity and random bots: no illegal action, no
    error, no fallback to the blueprint, a depth-limited re-solve in every round reaching the bot's
    turn (plus the river's)."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK, rules="engine")
    bot = ResolvingBot(path, card_abstraction=abstraction, config=config, seed=3, resolving=TURN_FAST)
    assert_resolves_every_round(bot, config, TURN, opponent)


def test_turn_resolve_is_deterministic_and_walks_off_tree_bets(solved):  # noqa: F811
    """Two bots of one seed give the same turn policy on three checked-down turns (a depth-limited
    subgame solved for each); an opponent's turn bet the tree lacks re-solves from there, once."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    bots = [
        ResolvingBot(path, card_abstraction=abstraction, config=config, seed=s, resolving=TURN_FAST) for s in (1, 2)
    ]
    for seed in (1, 2, 3):
        observation = turn_spot(seed).observation(1)
        policies = [bot.policy(observation) for bot in bots]
        assert policies[0] == policies[1] and abs(sum(p for _, p in policies[0]) - 1) < 1e-9
    assert bots[0].resolves == 0  # policy restores the counters
    round_ = turn_spot(4)
    low, high = round_.raise_bounds()
    round_.apply(Action.raise_to(min(high, low + 1)))  # 3 chips into a pot of 4: no 0.5p, 1p or all-in size
    bot = bots[0]
    action = bot.act(round_.observation(0))
    assert round_.can_apply(action)
    assert bot.resolves == 2 and bot.fallbacks == 0 and bot.errors == 0  # street start, then the bet


def test_river_tables_equal_a_path_enumeration_of_the_blueprint(solved):  # noqa: F811
    """The continuation tables at the river node a checked-down turn leads to equal, for every
    bucket pair and showdown outcome, the sum over the abstract river's terminals of the path's
    probability (the blueprint's rows; the opponent's fold, check/call or raise columns multiplied
    by 5 and renormalised in continuations 1-3) times the searcher's chips there; with bias 1 the
    four continuations are the blueprint's."""
    path, abstraction, _ = solved
    bot = ResolvingBot(path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), seed=0)
    played = turn_spot(2)
    played.apply(Action.check())
    played.apply(Action.check())
    root = bot.abstract_node(played.observation(played.to_act))
    flat = bot._tree.tree
    assert flat.street[root] == 3 and flat.kind[root] == 0  # the river's first decision
    blueprint = RiverBlueprint(flat, bot._rows, abstraction.river_centroids)
    n_buckets = len(abstraction.river_centroids)
    biased = [None, {0}, {1, 2}, {3}]  # ActionKind values: fold; check, call; raise
    for searcher in (0, 1):
        tables = river_tables(blueprint, root, searcher, n_buckets)
        assert np.allclose(river_tables(blueprint, root, searcher, n_buckets, bias=1.0), tables[0][None])
        for choice, kinds in enumerate(biased):
            for mine in range(n_buckets):
                for theirs in range(n_buckets):
                    stack = [(root, 1.0)]
                    expected = np.zeros(3)
                    while stack:
                        node, probability = stack.pop()
                        committed = flat.committed[node]
                        if flat.kind[node] == 1:  # fold: the folder loses what it put in
                            folder = flat.player[node]
                            expected += probability * (
                                -committed[searcher] if folder == searcher else committed[1 - searcher]
                            )
                            continue
                        if flat.kind[node] == 2:
                            own, other = committed[searcher], committed[1 - searcher]
                            expected += probability * np.array([-own, (other - own) / 2, other])
                            continue
                        actor = flat.player[node]
                        row = bot._rows(flat.infoset_group[node])[mine if actor == searcher else theirs].copy()
                        children = list(bot._tree.children(node)[0])
                        if actor != searcher and kinds is not None:
                            row *= [5.0 if flat.action_kind[c] in kinds else 1.0 for c in children]
                            row /= row.sum()
                        stack.extend((c, probability * p) for c, p in zip(children, row, strict=True))
                    assert np.allclose(tables[choice, mine, theirs], expected, rtol=0, atol=1e-9)


def test_off_tree_turn_bet_resolves_behind_the_gadget(solved):  # noqa: F811
    """After an opponent's off-tree turn bet the bot re-solves behind the gadget, the opponent's
    values per hand its best in-tree values at that node in the first solve. Against the re-solve
    the opponent's hands gain less above those values (range-weighted) than against a plain
    re-solve of the same subgame from the same ranges and leaves."""
    path, abstraction, _ = solved
    resolving = ResolvingConfig(iterations=300, continuation=ContinuationConfig(n_classes=16, samples=16))
    bot = ResolvingBot(
        path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), seed=0, resolving=resolving
    )
    round_ = turn_spot(4)
    low, high = round_.raise_bounds()
    round_.apply(Action.raise_to(min(high, low + 1)))
    bot.act(round_.observation(0))
    assert bot.resolves == 2
    gadget, plain, pot = gadget_and_plain_excess(bot, seat=0)  # measured: 0.0 against 0.26 chips, pot 7
    assert gadget < plain and gadget < 0.02 * pot, (gadget, plain, pot)


def gadget_and_plain_excess(bot: ResolvingBot, seat: int) -> tuple[float, float, float]:
    """After the bot (in ``seat``) re-solved a street behind the gadget: the opponent's range-weighted
    gain above its gadget values against that solve and against a plain re-solve of the same
    subgame (300 iterations), and the pot (chips)."""
    session = bot._session
    solver = session.solver
    opponent = 1 - seat
    assert solver.gadget is not None and solver.gadget.player == opponent
    turn = isinstance(session.hands, TurnHands)
    leaves = bot._turn_leaves(session.tree, session.hands, seat, session.moves) if turn else None
    plain = SubgameSolver(session.tree, session.hands, solver.ranges, leaves=leaves).run(300)
    weights = solver.ranges[opponent] / solver.ranges[opponent].sum()

    def excess(subgame: SubgameSolver) -> float:
        response = subgame.hand_values(subgame.average_strategy(), opponent, best=True)
        return float(weights @ np.maximum(response - solver.gadget.values, 0.0))

    return excess(solver), excess(plain), float(session.tree.pot_chips[0].sum())


@pytest.mark.parametrize("street", [TURN, RIVER])
def test_blueprint_street_tree_is_the_runtime_tree_of_the_blueprint_bets(solved, street):  # noqa: F811
    """On a turn or a river checked down from the deal (real chips = abstract chips), the blueprint's
    own betting of the street converted to a subgame tree has the node kinds (leaves and runouts on
    the turn, showdowns on the river), players and chips of the runtime tree built with the
    blueprint's bet set (``1p,a cap=2``)."""
    path, abstraction, _ = solved
    bot = ResolvingBot(path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), seed=0)
    observation = (turn_spot(3) if street == TURN else river_spot(3)).observation(1)
    config = dataclasses.replace(turn_subgame(observation), final_street=street == RIVER)
    root = bot.abstract_node(observation)
    converted, abstract = blueprint_street_tree(bot._blueprint_river, root, config)
    built = build_subgame_tree(config)
    assert abstract[0] == root and converted.n_nodes == built.n_nodes
    assert np.array_equal(converted.kind, built.kind) and np.array_equal(converted.player, built.player)
    assert np.array_equal(converted.pot_chips, built.pot_chips) and np.array_equal(
        converted.reach_source, built.reach_source
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_first_river_solve_is_behind_the_blueprint_gadget(solved, seed):  # noqa: F811
    """With ``river_gadget`` the river's first solve runs behind the gadget, each opponent hand's
    value its best response to the blueprint's river, which equals the best response computed apart
    on the runtime tree of the blueprint's bets (`blueprint_into_subgame`). Against the re-solve the
    opponent's hands gain less above those values (range-weighted) than against a plain re-solve of
    the same subgame; without the option the river is solved plain."""
    path, abstraction, _ = solved
    config = HoldemConfig(stack=STACK)
    observation = river_spot(seed).observation(1)
    plain_bot = ResolvingBot(path, card_abstraction=abstraction, config=config, seed=0, resolving=FAST)
    plain_bot.act(observation)
    assert plain_bot._session.solver.gadget is None
    resolving = ResolvingConfig(iterations=300, depth_limited=False, river_gadget=True)
    bot = ResolvingBot(path, card_abstraction=abstraction, config=config, seed=0, resolving=resolving)
    bot.act(observation)
    assert bot.resolves == 1
    session = bot._session
    tree = build_subgame_tree(dataclasses.replace(turn_subgame(observation), final_street=True))
    strategy = blueprint_into_subgame(bot, tree, session.hands, observation)
    apart = SubgameSolver(tree, session.hands, session.ranges).hand_values(strategy, 0, best=True)
    pot = float(session.tree.pot_chips[0].sum())
    assert np.allclose(session.solver.gadget.values, apart, rtol=0, atol=1e-4 * pot)
    gadget, plain, pot = gadget_and_plain_excess(bot, seat=1)  # measured: 1e-4 against 0.023 and 0.085 chips, pot 4
    assert gadget < plain and gadget < 0.02 * pot, (gadget, plain, pot)

    # gadget_values="blueprint": each hand held to its value when both play the blueprint, computed
    # apart the same way; never above its best response, and below it for some hands
    resolving = dataclasses.replace(resolving, gadget_values="blueprint")
    estimated = ResolvingBot(path, card_abstraction=abstraction, config=config, seed=0, resolving=resolving)
    estimated.act(observation)
    values = estimated._session.solver.gadget.values
    expected = SubgameSolver(tree, session.hands, session.ranges).hand_values(strategy, 0, best=False)
    assert np.allclose(values, expected, rtol=0, atol=1e-4 * pot)
    assert np.all(values <= apart + 1e-9 * pot) and np.any(values < apart - 0.01 * pot)


def test_gadget_values_must_be_known():
    with pytest.raises(ValueError, match="gadget_values must be one of"):
        ResolvingConfig(gadget_values="best")


@pytest.mark.parametrize("seed", [1, 2])
def test_first_turn_solve_is_behind_the_blueprint_gadget(solved, seed):  # noqa: F811
    """The turn's first solve runs behind the gadget, each opponent hand's value its best response
    to the blueprint (same leaf model). Against the re-solve the opponent's hands gain less above
    those values (range-weighted) than against a plain re-solve of the same subgame."""
    path, abstraction, _ = solved
    resolving = ResolvingConfig(iterations=300, continuation=ContinuationConfig(n_classes=16, samples=16))
    bot = ResolvingBot(
        path, card_abstraction=abstraction, config=HoldemConfig(stack=STACK), seed=0, resolving=resolving
    )
    bot.act(turn_spot(seed).observation(1))
    assert bot.resolves == 1
    gadget, plain, pot = gadget_and_plain_excess(bot, seat=1)  # measured: 1e-5 against 0.015 and 0.027 chips, pot 4
    assert gadget < plain and gadget < 0.02 * pot, (gadget, plain, pot)


@pytest.mark.slow  # a tiny Swap game is solved first (seconds), then depth-limited re-solves in most rounds
def test_swap_bot_resolves_the_turn_and_plays_legally(tmp_path):
    """Swap (engine rules): a tiny solved Swap game (blank card abstraction, ``1p,a cap=1``) seated
    as the re-solving bot plays 200 duplicate rounds against the equity bot with no illegal
    action, error or fallback, re-solving turns and rivers (ranges through the swap events)."""
    strategy, _ = solve_tiny(tmp_path, blank_cards("swap"))
    bot = ResolvingBot(strategy, seed=3, resolving=TURN_FAST)
    assert bot.config.variant == "swap"
    assert_resolves_every_round(bot, bot.config, TURN, "equity")

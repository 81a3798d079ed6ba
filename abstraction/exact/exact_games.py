"""Exact (unabstracted) solver games for Kuhn and Leduc with 2..6 players, built by walking the rules engine.

Nothing about the rules is re-encoded here: the betting tree is the breadth-first walk of
:class:`game.rules.leduc.LeducRound` (``legal_actions`` / ``apply`` on copies), every ordered deal of
``config.cards_per_deal`` distinct cards of ``config.deck()`` is enumerated, a player's bucket on a
street (the street is the bucket slot) is the dense index of what the round shows them there
(``visible_cards``: private card, then the public cards). Payoffs come from the round's own code:
a fold terminal's row is the terminal round's ``payoffs()``; a showdown terminal has one row per
outcome of its context, the round's ``award`` to that outcome's winners. A showdown context is the
set of players left at the showdown (one per set that occurs in the tree, the largest first) and
its outcomes are the possible winner sets (:func:`showdown_outcomes`); each deal's weight row is
one-hot on the winners the round's ``showdown_winners`` names after checking the hand down.
Betting in this family does not depend on the cards, so one walk serves every deal.

>>> game = build_game("leduc")
>>> game.tree.n_infosets, game.deals.n_deals, game.deals.n_buckets.tolist(), game.tree.context_size.tolist()
(936, 120, [6, 30], [3])
>>> three = build_game("kuhn", {"players": 3})  # OpenSpiel's kuhn_poker(players=3)
>>> three.tree.n_players, three.deals.n_deals, showdown_contexts(three.tree), three.tree.context_size.tolist()
(3, 24, [(0, 1, 2), (0, 1), (0, 2), (1, 2)], [7, 3, 3, 3])
>>> build_game("holdem")
Traceback (most recent call last):
...
ValueError: unknown exact game 'holdem': expected one of ['kuhn', 'leduc']
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from abstraction.tree import DECISION, FOLD, MAX_PLAYERS, SHOWDOWN, DealTable, FlatTree, SolverGame
from game.rules.actions import Action, ActionKind
from game.rules.exact import rules_config
from game.rules.leduc import LeducConfig, LeducRound


def build_game(name: str, rules: Mapping[str, Any] | None = None) -> SolverGame:
    """The exact solver game for ``name`` (``"kuhn"`` or ``"leduc"``), optionally with changed rules.

    ``game.config`` is ``{"name": name, "rules": {...}}``; ``build_game(**game.config)`` rebuilds it.
    Memory: ``deck! / (deck - cards_per_deal)!`` deals (3-player Leduc: 1,680).

    >>> game = build_game("kuhn")
    >>> build_game(**game.config).tree.fingerprint() == game.tree.fingerprint()
    True
    """
    config = rules_config(name, rules)
    if config.players > MAX_PLAYERS:
        raise ValueError(f"solver trees seat 2..{MAX_PLAYERS} players, the rules {config.players}")
    deal_cards = list(itertools.permutations(config.deck(), config.cards_per_deal))
    keys, finals = _deal_views(config, deal_cards)
    index = _bucket_index(keys, config.n_streets)
    n_buckets = np.array([len(street) for street in index], dtype=np.int32)
    tree = walk_betting(LeducRound(config, deal_cards[0]), n_buckets)
    bucket = np.array(
        [[[index[s][deal[p][s]] for s in range(config.n_streets)] for p in range(config.players)] for deal in keys],
        dtype=np.int32,
    )
    weight = np.zeros((len(deal_cards), tree.weight_columns))
    offset = tree.context_offset
    for c, alive in enumerate(showdown_contexts(tree)):
        outcome = outcome_table(alive, config.players)
        for d, final in enumerate(finals):
            weight[d, offset[c] + outcome[winner_mask(final.showdown_winners(alive))]] = 1.0
    deals = DealTable.equally_likely(bucket, weight, n_buckets)
    return SolverGame(name=name, tree=tree, deals=deals, config={"name": name, "rules": config.to_dict()})


def showdown_outcomes(alive: Sequence[int], n_players: int) -> list[tuple[int, ...]]:
    """The winner sets of a showdown among the seats ``alive``, in outcome order.

    Two players: outcome 0 player 0 wins, 1 they split, 2 player 1 wins. More players: the winners
    as a bit number over the ``k`` seats of ``alive`` in seat order (bit ``j``: the ``j``-th of them
    wins), outcome ``bits - 1`` (``2**k - 1`` outcomes).

    >>> showdown_outcomes((0, 1), 2)
    [(0,), (0, 1), (1,)]
    >>> showdown_outcomes((0, 2), 3)
    [(0,), (2,), (0, 2)]
    """
    alive = tuple(int(p) for p in alive)
    if len(alive) < 2 or sorted(set(alive)) != list(alive) or not set(alive) <= set(range(n_players)):
        raise ValueError(f"a showdown needs >= 2 distinct seats of 0..{n_players - 1} in order, got {alive!r}")
    if n_players == 2:
        return [(0,), (0, 1), (1,)]
    return [tuple(p for j, p in enumerate(alive) if bits >> j & 1) for bits in range(1, 2 ** len(alive))]


def winner_mask(winners: Sequence[int]) -> int:
    """The seats ``winners`` as a bit mask (bit ``p``: seat ``p``)."""
    return sum(1 << int(p) for p in set(winners))


def outcome_table(alive: Sequence[int], n_players: int) -> np.ndarray:
    """int64 ``[2**n_players]``: outcome index of each winner mask (:func:`winner_mask`) of a showdown among
    ``alive`` (:func:`showdown_outcomes`); -1 for masks that are no outcome."""
    table = np.full(2**n_players, -1, dtype=np.int64)
    for outcome, winners in enumerate(showdown_outcomes(alive, n_players)):
        table[winner_mask(winners)] = outcome
    return table


def showdown_contexts(tree: FlatTree) -> list[tuple[int, ...]]:
    """The seats left at the showdowns of each outcome context of ``tree`` (those who never folded on the
    way there), read off the tree: a child reached by a fold removes its parent's actor."""
    parent = tree.parent_array()
    folded = np.zeros(tree.n_nodes, dtype=np.int64)
    alive_of: dict[int, tuple[int, ...]] = {}
    for node in range(1, tree.n_nodes):
        up = int(parent[node])
        folded[node] = folded[up] | (
            (1 << int(tree.player[up])) if tree.action_kind[node] == int(ActionKind.FOLD) else 0
        )
        if tree.kind[node] != SHOWDOWN or tree.context[node] < 0:
            continue
        alive = tuple(p for p in range(tree.n_players) if not folded[node] >> p & 1)
        context = int(tree.context[node])
        if alive_of.setdefault(context, alive) != alive:
            raise ValueError(f"context {context} holds showdowns among {alive_of[context]} and {alive} (node {node})")
    missing = sorted(set(range(tree.n_contexts)) - set(alive_of))
    if missing:
        raise ValueError(f"contexts {missing} have no showdown terminal")
    return [alive_of[c] for c in range(tree.n_contexts)]


def locate(game: SolverGame, round_: LeducRound) -> tuple[int, int]:
    """``(node, row)``: the tree node of ``round_``'s betting and the table row of the player to act.

    The row is where that player's information set starts in the solver tables (its
    ``n_actions`` entries follow, in the order of ``round_.legal_actions()``).

    >>> from game.rules.actions import Action
    >>> from game.cards.deck import parse_cards
    >>> game = build_game("leduc")
    >>> hand = LeducRound(LeducConfig(), parse_cards("Kh Qs Qh"))
    >>> hand.apply(Action.raise_to(2)); hand.apply(Action.call())
    >>> node, row = locate(game, hand)
    >>> game.tree.history(node), int(game.tree.n_children[node])
    ('R2C/', 2)
    """
    if round_.is_terminal:
        raise ValueError(f"the round is over ({round_.history_string()!r}): no one is to act")
    tree = game.tree
    node = 0
    for action in (a for street in round_.history for a in street):
        start = int(tree.child_start[node])
        for child in range(start, start + int(tree.n_children[node])):
            if tree.action_kind[child] == int(action.kind) and tree.action_amount[child] == action.amount:
                node = child
                break
        else:
            raise ValueError(f"action {action} of {round_.history_string()!r} is not in the tree of {game.name!r}")
    player = int(tree.player[node])
    bucket = bucket_index(round_.config)[round_.street][round_.visible_cards(player)]
    group = int(tree.infoset_group[node])
    return node, int(tree.row_offset[group] + bucket * tree.n_actions[group])


@functools.lru_cache(maxsize=8)
def bucket_index(config: LeducConfig) -> list[dict[tuple[int, ...], int]]:
    """Per street, the bucket of each possible view: (private card, revealed public cards) -> bucket.

    >>> from game.cards.deck import parse_cards
    >>> index = bucket_index(LeducConfig())
    >>> index[0][tuple(parse_cards("Qh"))], index[1][tuple(parse_cards("Qh Ks"))]
    (2, 14)
    """
    deal_cards = list(itertools.permutations(config.deck(), config.cards_per_deal))
    return _bucket_index(_deal_views(config, deal_cards)[0], config.n_streets)


def _checked_down(config: LeducConfig, cards: tuple[int, ...]) -> list[LeducRound]:
    """The round at the start of each street and at the end, when every player only checks."""
    round_ = LeducRound(config, cards)
    snapshots = [round_.copy()]
    while not round_.is_terminal:
        street = round_.street
        round_.apply(Action.check())
        if round_.is_terminal or round_.street != street:
            snapshots.append(round_.copy())
    return snapshots


def _deal_views(
    config: LeducConfig, deal_cards: list[tuple[int, ...]]
) -> tuple[list[list[list[tuple[int, ...]]]], list[LeducRound]]:
    """``keys[d][player][street]``: the cards ``player`` sees on ``street`` in deal ``d``; and each deal's
    round checked down to the end (every card revealed)."""
    keys, finals = [], []
    for cards in deal_cards:
        snapshots = _checked_down(config, cards)
        keys.append([[snap.visible_cards(p) for snap in snapshots[: config.n_streets]] for p in range(config.players)])
        finals.append(snapshots[-1])
    return keys, finals


def _bucket_index(keys: list[list[list[tuple[int, ...]]]], n_streets: int) -> list[dict[tuple[int, ...], int]]:
    return [
        {tuple(int(c) for c in key): i for i, key in enumerate(sorted({view[s] for deal in keys for view in deal}))}
        for s in range(n_streets)
    ]


def walk_betting(root: LeducRound, buckets_per_street: np.ndarray) -> FlatTree:
    """Breadth-first walk of the betting from ``root``; each decision node is its own group, its slot its street.

    Terminal payoffs come from the terminal rounds (see the module docstring) and do not depend on
    ``root``'s cards: a fold pays the same whatever the cards, a showdown has one row per winner set.
    """
    n_players = root.config.players
    nodes: list[dict[str, Any]] = []
    queue: deque[tuple[LeducRound, Action | None]] = deque([(root, None)])
    while queue:
        round_, action = queue.popleft()
        node: dict[str, Any] = {
            "committed": list(round_.committed),
            "street": round_.street,
            "action_kind": -1 if action is None else int(action.kind),
            "action_amount": -1 if action is None else action.amount,
            "round": round_,
        }
        if round_.is_terminal:
            kind = FOLD if len(round_.alive) == 1 else SHOWDOWN
            heads_up_folder = n_players == 2 and kind == FOLD
            node.update(kind=kind, player=round_.folded.index(True) if heads_up_folder else -1, children=0)
        else:
            legal = round_.legal_actions()
            node.update(kind=DECISION, player=round_.to_act, children=len(legal))
            for child_action in legal:
                child = round_.copy()
                child.apply(child_action)
                queue.append((child, child_action))
        nodes.append(node)
    contexts = sorted({n["round"].alive for n in nodes if n["kind"] == SHOWDOWN}, key=lambda m: (-len(m), m))
    context = np.full(len(nodes), -1, dtype=np.int32)
    value_row = np.full(len(nodes), -1, dtype=np.int64)
    rows: list[tuple[float, ...]] = []
    for i, node in enumerate(nodes):
        if node["kind"] == DECISION:
            continue
        value_row[i] = len(rows)
        round_ = node["round"]
        if node["kind"] == FOLD:
            rows.append(round_.payoffs())
            continue
        context[i] = contexts.index(round_.alive)
        rows += [round_.award(winners) for winners in showdown_outcomes(round_.alive, n_players)]
    child_start = np.zeros(len(nodes), dtype=np.int32)
    next_free = 1
    for i, node in enumerate(nodes):
        child_start[i] = next_free if node["children"] else 0
        next_free += node["children"]
    return FlatTree.without_chance(
        kind=[n["kind"] for n in nodes],
        player=[n["player"] for n in nodes],
        street=[n["street"] for n in nodes],
        child_start=child_start,
        n_children=[n["children"] for n in nodes],
        committed=[n["committed"] for n in nodes],
        action_kind=[n["action_kind"] for n in nodes],
        action_amount=[n["action_amount"] for n in nodes],
        context=context,
        value_row=value_row,
        terminal_values=rows,
        context_size=[len(showdown_outcomes(m, n_players)) for m in contexts],
        buckets_per_street=buckets_per_street,
    )

"""Exact (unabstracted) solver games for Kuhn and Leduc, built by walking the rules engine.

Nothing about the rules is re-encoded here: the betting tree is the breadth-first walk of
:class:`game.leduc.LeducRound` (``legal_actions`` / ``apply`` on copies), every ordered deal of
``config.cards_per_deal`` distinct cards of ``config.deck()`` is enumerated, a player's bucket on a
street is the dense index of what the round shows them there (``visible_cards``: private card, then
the public cards), and player 0's showdown share comes from the round's own ``payoffs`` after
checking the hand down. Betting in this family does not depend on the cards, so one walk serves
every deal.

>>> game = build_game("leduc")
>>> game.tree.n_infosets, game.deals.n_deals, game.deals.n_buckets.tolist()
(936, 120, [6, 30])
>>> build_game("holdem")
Traceback (most recent call last):
...
ValueError: unknown exact game 'holdem': expected one of ['kuhn', 'leduc']
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from collections.abc import Mapping
from typing import Any

import numpy as np

from abstraction.tree import DECISION, FOLD, SHOWDOWN, DealTable, FlatTree, SolverGame
from game.actions import Action
from game.kuhn import KUHN
from game.leduc import LeducConfig, LeducRound

EXACT_GAMES = ("kuhn", "leduc")


def rules_config(name: str, rules: Mapping[str, Any] | None = None) -> LeducConfig:
    """The rules of exact game ``name``; ``rules`` overrides fields of the standard rules."""
    if name not in EXACT_GAMES:
        raise ValueError(f"unknown exact game {name!r}: expected one of {list(EXACT_GAMES)}")
    base = KUHN if name == "kuhn" else LeducConfig()
    return LeducConfig.from_dict({**base.to_dict(), **dict(rules or {})})


def build_game(name: str, rules: Mapping[str, Any] | None = None) -> SolverGame:
    """The exact solver game for ``name`` (``"kuhn"`` or ``"leduc"``), optionally with changed rules.

    ``game.config`` is ``{"name": name, "rules": {...}}``; ``build_game(**game.config)`` rebuilds it.

    >>> game = build_game("kuhn")
    >>> build_game(**game.config).tree.fingerprint() == game.tree.fingerprint()
    True
    """
    config = rules_config(name, rules)
    deal_cards = list(itertools.permutations(config.deck(), config.cards_per_deal))
    deals = _deal_table(config, deal_cards)
    tree = walk_betting(LeducRound(config, deal_cards[0]), deals.n_buckets)
    return SolverGame(name=name, tree=tree, deals=deals, config={"name": name, "rules": config.to_dict()})


def locate(game: SolverGame, round_: LeducRound) -> tuple[int, int]:
    """``(node, row)``: the tree node of ``round_``'s betting and the table row of the player to act.

    The row is where that player's information set starts in the solver tables (its
    ``n_actions`` entries follow, in the order of ``round_.legal_actions()``).

    >>> from game.actions import Action
    >>> from game.cards import parse_cards
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

    >>> from game.cards import parse_cards
    >>> index = bucket_index(LeducConfig())
    >>> index[0][tuple(parse_cards("Qh"))], index[1][tuple(parse_cards("Qh Ks"))]
    (2, 14)
    """
    deal_cards = list(itertools.permutations(config.deck(), config.cards_per_deal))
    return _bucket_index(_bucket_keys(config, deal_cards), config.n_streets)


def _checked_down(config: LeducConfig, cards: tuple[int, ...]) -> list[LeducRound]:
    """The round at the start of each street and at the end, when both players only check."""
    round_ = LeducRound(config, cards)
    snapshots = [round_.copy()]
    while not round_.is_terminal:
        street = round_.street
        round_.apply(Action.check())
        if round_.is_terminal or round_.street != street:
            snapshots.append(round_.copy())
    return snapshots


def _bucket_keys(config: LeducConfig, deal_cards: list[tuple[int, ...]]) -> list[list[list[tuple[int, ...]]]]:
    """``keys[d][player][street]``: the cards ``player`` sees on ``street`` in deal ``d``."""
    keys = []
    for cards in deal_cards:
        snapshots = _checked_down(config, cards)[: config.n_streets]
        keys.append([[snap.visible_cards(player) for snap in snapshots] for player in range(2)])
    return keys


def _bucket_index(keys: list[list[list[tuple[int, ...]]]], n_streets: int) -> list[dict[tuple[int, ...], int]]:
    return [
        {tuple(int(c) for c in key): i
         for i, key in enumerate(sorted({deal[p][s] for deal in keys for p in range(2)}))}
        for s in range(n_streets)
    ]


def _deal_table(config: LeducConfig, deal_cards: list[tuple[int, ...]]) -> DealTable:
    keys = _bucket_keys(config, deal_cards)
    index = _bucket_index(keys, config.n_streets)
    bucket = np.array(
        [[[index[s][deal[p][s]] for s in range(config.n_streets)] for p in range(2)] for deal in keys],
        dtype=np.int32,
    )
    share = np.empty(len(deal_cards))
    for d, cards in enumerate(deal_cards):
        final = _checked_down(config, cards)[-1]
        pot = sum(final.committed)
        share[d] = (final.payoffs()[0] + final.committed[0]) / pot
    probability = np.full(len(deal_cards), 1.0 / len(deal_cards))
    return DealTable(probability=probability, bucket=bucket, showdown_share=share,
                     n_buckets=np.array([len(s) for s in index], dtype=np.int32))


def walk_betting(root: LeducRound, buckets_per_street: np.ndarray) -> FlatTree:
    """Breadth-first walk of the betting from ``root``; each decision node is its own group."""
    nodes: list[dict[str, Any]] = []
    queue: deque[tuple[LeducRound, Action | None]] = deque([(root, None)])
    while queue:
        round_, action = queue.popleft()
        node: dict[str, Any] = {
            "committed": list(round_.committed),
            "street": round_.street,
            "action_kind": -1 if action is None else int(action.kind),
            "action_amount": 0 if action is None else action.amount,
        }
        if round_.is_terminal:
            folded = round_.folded
            node.update(kind=FOLD if folded is not None else SHOWDOWN, player=-1 if folded is None else folded,
                        children=0)
        else:
            legal = round_.legal_actions()
            node.update(kind=DECISION, player=round_.to_act, children=len(legal))
            for child_action in legal:
                child = round_.copy()
                child.apply(child_action)
                queue.append((child, child_action))
        nodes.append(node)
    child_start = np.zeros(len(nodes), dtype=np.int32)
    next_free = 1
    for i, node in enumerate(nodes):
        child_start[i] = next_free if node["children"] else 0
        next_free += node["children"]
    decisions = [i for i, node in enumerate(nodes) if node["kind"] == DECISION]
    group = np.full(len(nodes), -1, dtype=np.int32)
    group[decisions] = np.arange(len(decisions))
    n_actions = np.array([nodes[i]["children"] for i in decisions], dtype=np.int32)
    group_street = np.array([nodes[i]["street"] for i in decisions], dtype=np.int8)
    n_buckets = buckets_per_street[group_street]
    sizes = n_buckets.astype(np.int64) * n_actions
    tree = FlatTree(
        kind=np.array([n["kind"] for n in nodes]),
        player=np.array([n["player"] for n in nodes]),
        street=np.array([n["street"] for n in nodes]),
        child_start=child_start,
        n_children=np.array([n["children"] for n in nodes]),
        committed=np.array([n["committed"] for n in nodes], dtype=np.float64),
        infoset_group=group,
        action_kind=np.array([n["action_kind"] for n in nodes]),
        action_amount=np.array([n["action_amount"] for n in nodes]),
        n_actions=n_actions,
        row_offset=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
        n_buckets=n_buckets,
        group_player=np.array([nodes[i]["player"] for i in decisions], dtype=np.int8),
        group_street=group_street,
    )
    tree.validate()
    return tree

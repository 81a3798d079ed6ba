"""Property tests of ``game.rules.limit`` (hypothesis): random configs, stacks and playouts.

Invariants: chips are conserved at every step, payoffs sum to zero, no stack goes negative,
the game is terminal iff no action is legal, every legal action is accepted and every illegal
one is refused with ``IllegalActionError`` without changing the game.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.actions import Action, ActionKind, IllegalActionError
from game.rules.limit import LimitConfig, LimitRound

configs = st.builds(
    LimitConfig,
    n_players=st.integers(2, 10),
    low_limit=st.sampled_from([2, 4, 10]),
    high_limit=st.sampled_from([4, 8, 20]),
    ante=st.one_of(st.none(), st.integers(0, 6)),
    max_raises=st.integers(0, 4),
    check_raise=st.booleans(),
    cards_speak=st.booleans(),
    blinds_in_second_round=st.booleans(),
    must_use_hole_card=st.booleans(),
)


def candidate_actions(game: LimitRound, data: st.DataObject) -> list[Action]:
    """A spread of actions around the legal ones, legal or not."""
    limit = game.config.limit(game.street)
    amounts = {
        0,
        limit,
        game.config.straddle,
        *(move.amount + step for move in game.legal_moves() for step in (-limit, 0, limit)),
    }
    actions = [
        Action(kind, amount)
        for kind in ActionKind
        if kind is not ActionKind.ANNOUNCE
        for amount in amounts
        if amount >= 0
    ]
    cards = data.draw(st.lists(st.integers(0, 51), min_size=4, max_size=6, unique=True), label="announce")
    return [*actions, Action(ActionKind.ANNOUNCE, cards=tuple(cards))]


@settings(max_examples=60, deadline=None)
@given(config=configs, data=st.data())
def test_random_playouts_keep_every_invariant(config: LimitConfig, data: st.DataObject) -> None:
    stacks = data.draw(
        st.lists(st.integers(1, 150), min_size=config.n_players, max_size=config.n_players), label="stacks"
    )
    button = data.draw(st.integers(0, config.n_players - 1), label="button")
    game = LimitRound(config, stacks, button, seed=data.draw(st.integers(0, 2**32), label="seed"))
    total = sum(stacks)
    while True:
        assert min(game.stacks) >= 0
        legal = game.legal_moves()
        assert game.is_terminal == (not legal) == (game.to_act is None)
        if game.is_terminal:
            break
        assert sum(game.stacks) + game.pot == total  # the pot is divided only at the end
        assert game.legal_actions() == frozenset(move.kind for move in legal)
        for move in legal:
            copy = game.clone()
            copy.apply(move)
            assert sum(copy.stacks) + (0 if copy.is_terminal else copy.pot) == total
        before = repr(game)
        for action in candidate_actions(game, data):
            normalized = action
            if action.kind is ActionKind.ANNOUNCE:
                normalized = Action(ActionKind.ANNOUNCE, cards=tuple(sorted(action.cards)))
            if normalized in legal:
                continue
            assert not game.can_apply(action)
            try:
                game.apply(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"illegal {action} accepted at {before}")
            assert repr(game) == before
        game.apply(legal[data.draw(st.integers(0, len(legal) - 1), label="move")])
    payoffs = game.payoffs()
    assert payoffs.sum() == 0 and sum(game.stacks) == total
    assert sum(game.winnings or ()) == game.pot
    assert all(game.stacks[seat] == stacks[seat] + payoffs[seat] for seat in range(config.n_players))

"""Property tests for every heads-up no-limit variant under both rule sets.

Random rounds driven by hypothesis interleave legal actions with attempted actions of any kind
and amount: legal ones must be accepted, illegal ones refused with ``IllegalActionError`` and no
change of state. After every step: chips are conserved, no stack is negative, the round is
terminal iff no action is legal; at the end payoffs sum to zero and the chance log replays the
same hand.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.actions import Action, ActionKind, IllegalActionError
from game.rules.chance import RandomChance
from game.rules.nolimit import NoLimitRound
from game.rules.variants import VARIANTS
from tests.game.test_nolimit import snapshot

CASES = [(name, rules) for name in sorted(VARIANTS) for rules in ("document", "engine")]
ALL_KINDS = [ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.RAISE, ActionKind.BID]
MAX_STEPS = 2_000


def state_of(round_: NoLimitRound) -> tuple:
    """``snapshot`` plus what each seat observes."""
    return (*snapshot(round_), round_.observation(0), round_.observation(1))


def check_invariants(round_: NoLimitRound) -> None:
    stack = round_.config.stack
    for seat in (0, 1):
        assert round_.stacks[seat] >= 0
        assert round_.stacks[seat] + round_.contributions[seat] == stack
        assert 0 <= round_.pips[seat] <= round_.contributions[seat]
        seen = round_.observation(seat)
        assert seen.hole_cards == round_.hole_cards[seat]
        assert seen.stacks == round_.stacks and seen.board == round_.board
        if round_.config.variant == "bounty":
            assert seen.bounty_rank == round_.match_state[seat]
        if not round_.is_terminal:
            assert seen.opponent_hole_cards == ()
    assert round_.pot == sum(round_.contributions)
    legal = round_.legal_actions()
    assert round_.is_terminal == (not legal)
    assert round_.is_terminal == (round_.to_act is None)
    if not round_.is_terminal:
        assert round_.to_act in (0, 1)


def check_payoffs(round_: NoLimitRound) -> None:
    payoffs = round_.payoffs().tolist()
    assert sum(payoffs) == 0
    contributions = round_.contributions
    config = round_.config
    for seat in (0, 1):
        if config.variant == "bounty":
            bound = math.ceil(config.bounty_multiplier * contributions[1 - seat]) + config.bounty_bonus
            assert payoffs[seat] <= bound
        else:
            assert -contributions[seat] <= payoffs[seat] <= contributions[1 - seat]


def start(name: str, rules: str, seed: int, ranks: tuple[int, int]) -> NoLimitRound:
    variant = VARIANTS[name]
    match_state = ranks if name == "bounty" else None
    return variant.round_class(variant.config_class(rules=rules), RandomChance(seed), match_state=match_state)


@pytest.mark.parametrize(("name", "rules"), CASES)
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    ranks=st.tuples(st.integers(0, 12), st.integers(0, 12)),
    data=st.data(),
)
def test_random_rounds_keep_every_invariant(
    name: str, rules: str, seed: int, ranks: tuple[int, int], data: st.DataObject
) -> None:
    round_ = start(name, rules, seed, ranks)
    initial_copy = round_.clone()
    check_invariants(round_)
    for _ in range(MAX_STEPS):
        if round_.is_terminal:
            break
        if data.draw(st.booleans()):
            kind = data.draw(st.sampled_from(ALL_KINDS))
            amount = data.draw(st.integers(0, 2 * round_.config.stack))
            attempt = Action(kind, amount if kind in (ActionKind.RAISE, ActionKind.BID) else 0)
            if round_.can_apply(attempt):
                round_.apply(attempt)
            else:
                before = state_of(round_)
                with pytest.raises(IllegalActionError):
                    round_.apply(attempt)
                assert state_of(round_) == before
        else:
            legal = sorted(round_.legal_actions())
            if len(legal) > 1 and data.draw(st.integers(0, 9)) > 0:
                legal = [kind for kind in legal if kind is not ActionKind.FOLD]  # keep most rounds going
            kind = data.draw(st.sampled_from(legal))
            if kind is ActionKind.RAISE:
                amount = data.draw(st.integers(*round_.raise_bounds()))
            elif kind is ActionKind.BID:
                amount = data.draw(st.integers(*round_.bid_bounds()))
            else:
                amount = 0
            round_.apply(Action(kind, amount))
        check_invariants(round_)
    assert round_.is_terminal
    with pytest.raises(IllegalActionError):
        round_.apply(Action.check())
    check_payoffs(round_)

    for move in round_.history:  # a clone made at the start follows the same path
        initial_copy.apply(move.action)
    assert initial_copy.payoffs().tolist() == round_.payoffs().tolist()
    assert initial_copy.hole_cards == round_.hole_cards and initial_copy.chance_log == round_.chance_log

    replay = type(round_)(round_.config, round_.chance_log.replay(), match_state=round_.match_state)
    for move in round_.history:
        replay.apply(move.action)
    assert replay.board == round_.board and replay.hole_cards == round_.hole_cards
    assert replay.payoffs().tolist() == round_.payoffs().tolist()

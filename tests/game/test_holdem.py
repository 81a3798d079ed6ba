"""Heads-up no-limit Hold'em: scripted hands with exact payoffs, and PokerKit as an oracle."""

from __future__ import annotations

import numpy as np
import pytest

from game.cards.deck import format_cards
from game.rules.actions import Action, ActionKind
from game.rules.chance import RandomChance, ScriptedChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.nolimit import sample_legal_action
from tests.game.pokerkit_oracle import pokerkit_automations
from tests.game.scripted import cards


def play(deck: str, actions: str, **config: object) -> HoldemRound:
    round_ = HoldemRound(HoldemConfig(**config), ScriptedChance(cards(deck)))  # type: ignore[arg-type]
    for text in actions.split():
        round_.apply(Action.parse(text))
    return round_


@pytest.mark.parametrize(
    ("deck", "actions", "payoffs", "board"),
    [
        # Seat 1's flush (clubs) beats seat 0's aces after a three-street fight.
        ("Ah Ad Kc Qc 2c 7h 9c 3d 4c", "R6 R18 C R20 C K R60 C K K", [-98, 98], "2c 7h 9c 3d 4c"),
        # Seat 0's flopped set wins a stack-off on the turn.
        ("7s 7d Kc Qc 7h Kd 2s 9c 4h", "C K K R10 R30 C R40 R368 C", [400, -400], "7h Kd 2s 9c 4h"),
        # Kicker decides: A-K beats A-Q on A-8-5-3-2 rainbow.
        ("As Kd Ac Qh Ad 8s 5c 3h 2d", "C K K K K K K K", [2, -2], "Ad 8s 5c 3h 2d"),
        # Seat 0 folds the river to a bet by seat 1 (who acts first after the flop).
        ("5s 4s Kc Qc Ah 9d 2c 3d Td", "C R8 C K K K K R30 F", [-8, 8], "Ah 9d 2c 3d Td"),
        # Straight on board, nobody improves: a tie.
        ("2c 2d 3c 3d 9h Th Js Qs Kd", "R6 C R10 C K K K K", [0, 0], "9h Th Js Qs Kd"),
    ],
)
def test_scripted_hands(deck: str, actions: str, payoffs: list[int], board: str) -> None:
    round_ = play(deck, actions)
    assert round_.is_terminal
    assert round_.payoffs().tolist() == payoffs
    assert format_cards(round_.board) == board


def test_scripted_hand_same_under_engine_rules() -> None:
    deck, actions = "Ah Ad Kc Qc 2c 7h 9c 3d 4c", "R6 R18 C R20 C K R60 C K K"
    assert play(deck, actions, rules="engine").payoffs().tolist() == [-98, 98]


def test_default_config() -> None:
    config = HoldemConfig()
    assert (config.variant, config.stack, config.small_blind, config.big_blind, config.rounds) == (
        "holdem",
        400,
        1,
        2,
        1000,
    )


def _pokerkit_payoffs(round_: HoldemRound) -> list[int]:
    """Replay ``round_`` (cards and actions) in PokerKit; payoffs by our seat."""
    pokerkit = pytest.importorskip("pokerkit")
    automations = pokerkit_automations(pokerkit)
    stack = round_.config.stack
    state = pokerkit.NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (stack, stack), 2)
    # PokerKit heads-up: its player 0 posts the big blind (our seat 1), player 1 is the dealer (our seat 0).
    state.deal_hole("".join(format_cards(round_.hole_cards[1]).split()))
    state.deal_hole("".join(format_cards(round_.hole_cards[0]).split()))
    board = list(round_.board)
    dealt = 0
    for move in round_.history:
        while state.can_deal_board():
            count = 3 if dealt == 0 else 1
            state.deal_board("".join(format_cards(board[dealt : dealt + count]).split()))
            dealt += count
        assert state.actor_index == 1 - move.seat
        kind = move.action.kind
        if kind is ActionKind.FOLD:
            state.fold()
        elif kind is ActionKind.RAISE:
            state.complete_bet_or_raise_to(move.action.amount)
        else:
            state.check_or_call()
    while state.can_deal_board():
        count = 3 if dealt == 0 else 1
        state.deal_board("".join(format_cards(board[dealt : dealt + count]).split()))
        dealt += count
    assert not state.status
    return [state.stacks[1] - stack, state.stacks[0] - stack]


@pytest.mark.filterwarnings("ignore:A card being dealt")  # PokerKit's own deck/burns; we deal explicitly
def test_random_hands_agree_with_pokerkit() -> None:
    # Oracle: PokerKit (uoftcprg/pokerkit) plays the same cards and actions to the same chips.
    rng = np.random.default_rng(2024)
    for _ in range(150):
        round_ = HoldemRound(HoldemConfig(), RandomChance(rng))
        while not round_.is_terminal:
            action = sample_legal_action(round_, rng)
            if action.kind is ActionKind.FOLD and rng.random() < 0.7:
                continue  # resample: keep most hands going to later streets
            round_.apply(action)
        assert _pokerkit_payoffs(round_) == round_.payoffs().tolist(), repr(round_)

"""Hand-computed games of N-player limit hold'em (``game.rules.limit``) against the rules document.

The document is URCS "Rules of Hold 'Em Poker for Computers" (Ferguson and Brown, after Cardoza
and Scarne); default parameters from its last section: buy-in 1000, limits 10/20, 3 raises,
check-and-raise allowed, announced hands. Section names are cited in comments.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from game.cards.deck import format_cards, parse_cards
from game.play.freeze_out import FreezeOut
from game.rules.actions import Action, ActionKind, IllegalActionError
from game.rules.chance import ScriptedChance
from game.rules.limit import LimitConfig, LimitRound, best_hand
from game.rules.nolimit import FLOP, RIVER, TURN


def scripted(*hands: str, board: str = "2c 3d 8h 9s Kd") -> ScriptedChance:
    """Hole cards for seats 0, 1, ... then the board, in the game's deal order."""
    return ScriptedChance(parse_cards(" ".join(hands) + " " + board).tolist())


def play(game: LimitRound, actions: str) -> None:
    for text in actions.split():
        game.apply(Action.parse(text))


def moves(game: LimitRound) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def four_players(**overrides: object) -> LimitRound:
    config = LimitConfig(n_players=4, **overrides)  # type: ignore[arg-type]
    return LimitRound(config, button=2, chance=scripted("Ah Kh", "2d 7c", "Qs Qd", "5h 6h"))


# ---- The Ante; First Betting Round ------------------------------------------------------------


def test_ante_blind_and_straddle_defaults() -> None:
    # "Each player antes one-half of the low betting limit" (5); the button blinds 5.
    game = four_players()
    assert game.config.ante == 5 and game.config.blind == 5 and game.config.straddle == 10
    assert game.stacks == (995, 995, 990, 995)
    assert game.pot == 25
    assert game.to_act == 3  # the next player after the button straddles, folds or taps out
    assert moves(game) == ["F", "R10"]
    play(game, "R10")
    assert game.pot == 35 and game.to_act == 0
    assert moves(game) == ["F", "C", "R20"]  # "raise: Add (N + low limit) dollars"


def test_document_ante_of_two_is_an_override() -> None:
    # The defaults line says "ante=$2", contradicting the rule (half of 10 = 5).
    game = four_players(ante=2)
    assert game.pot == 4 * 2 + 5
    assert LimitConfig(low_limit=3).ante == 1 and LimitConfig(low_limit=2, ante=None).ante == 1


def test_raise_cap_excludes_the_straddle() -> None:
    # "a limit on the total number of raises ... (not including the straddle)"
    game = four_players()
    play(game, "R10 R20 R30 R40")
    assert game.raises_this_round == 3
    assert moves(game) == ["F", "C"]  # seat 3, the straddler, may only call or fold
    play(game, "C C C")  # seats 3, 0, 1 call 40; the button (seat 2) raised last
    assert game.street == FLOP and game.pot == 4 * 5 + 4 * 40 + 5


def test_straddle_fold_leaves_the_blind_as_the_bet() -> None:
    game = LimitRound(LimitConfig(n_players=3), button=0, chance=scripted("Ah Kh", "2d 7c", "Qs Qd"))
    play(game, "F")  # seat 1 declines to straddle
    assert moves(game) == ["F", "C", "R15"]  # seat 2 owes the blind's 5
    play(game, "C")  # the blind is paid up: the round is over
    assert game.street == FLOP and game.pot == 15 + 5 + 5 + 5  # antes, blind, call, flop blind
    # Round two repeats the blind (button) and the straddle (next player still in: seat 2).
    assert game.to_act == 2 and moves(game) == ["F", "R10"] and game.pips == (5, 0, 0)


def test_round_two_repeats_blinds_by_default_and_not_when_configured() -> None:
    deal = ("Ah Kh", "2d 7c", "Qs Qd")
    game = LimitRound(LimitConfig(n_players=3), button=0, chance=scripted(*deal))
    play(game, "R10 C C")
    assert game.street == FLOP and game.to_act == 1 and game.pot == 45 + 5
    play(game, "R10 C C")  # straddle, seat 2 calls, the blind calls
    assert game.street == TURN and game.to_act == 0 and moves(game) == ["K", "R20"]  # high limit, no blind

    standard = LimitRound(LimitConfig(n_players=3, blinds_in_second_round=False), button=0, chance=scripted(*deal))
    play(standard, "R10 C C")
    assert standard.street == FLOP and standard.pot == 45
    assert standard.to_act == 0 and moves(standard) == ["K", "R10"]  # first position may check


def test_without_blinds_every_round_opens_with_the_button_who_may_check() -> None:
    game = LimitRound(LimitConfig(n_players=3, blinds=False), button=1, chance=scripted("Ah Kh", "2d 7c", "Qs Qd"))
    assert game.pot == 15 and game.to_act == 1 and moves(game) == ["K", "R10"]
    play(game, "K R10 C R20 R30 R40")  # the opening bet, then max_raises (3) raises, a check-raise the first
    assert moves(game) == ["F", "C"]
    play(game, "C C")
    assert game.street == FLOP and game.to_act == 1 and game.pot == 15 + 120


def test_a_small_deal_one_hole_card_and_a_board_card_per_round() -> None:
    """One hole card each, one board card on each of two later rounds (limits: low, low, high); hands of
    fewer than five cards rank by pairs, then ranks."""
    config = LimitConfig(n_players=2, cards_speak=True, blinds=False, hole_cards=1, board_cards=(0, 1, 1))
    game = LimitRound(config, chance=ScriptedChance(parse_cards("Kh Ad 2c Kd").tolist()))
    assert config.streets == (0, 1, 2) and game.hole_cards == ((parse_cards("Kh")[0],), (parse_cards("Ad")[0],))
    play(game, "K K")
    assert game.street == 1 and format_cards(game.observation(0).board) == "2c" and moves(game) == ["K", "R10"]
    play(game, "K R10 C")
    assert game.street == 2 and moves(game) == ["K", "R20"]
    with pytest.raises(IllegalActionError, match="at round 3 for seat 0"):
        play(game, "R10")
    play(game, "R20 C")
    assert format_cards(game.observation(0).board) == "2c Kd" and game.payoffs().tolist() == [35, -35]  # kings


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"board_cards": (3, 1)}, r"board_cards must list .* 0 first and >= 1 after .* got \(3, 1\)"),
        ({"board_cards": (0, 0)}, r"board_cards must list"),
        ({"hole_cards": 0}, r"hole_cards must be an int >= 1, got 0"),
        ({"n_players": 10, "hole_cards": 5}, r"deals 55 cards .* more than the deck's 52"),
    ],
)
def test_bad_deals_are_refused(fields: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LimitConfig(**fields)


def test_post_flop_raise_cap_does_not_count_the_opening_bet() -> None:
    config = LimitConfig(n_players=3, blinds_in_second_round=False)
    game = LimitRound(config, button=0, chance=scripted("Ah Kh", "2d 7c", "Qs Qd"))
    play(game, "R10 C C R10 R20 R30 R40")
    assert game.raises_this_round == 3 and moves(game) == ["F", "C"]


# ---- Third Betting Round: check and raise -----------------------------------------------------


@pytest.mark.parametrize("check_raise", [True, False])
def test_check_raise(check_raise: bool) -> None:
    config = LimitConfig(n_players=3, check_raise=check_raise, blinds_in_second_round=False)
    game = LimitRound(config, button=0, chance=scripted("Ah Kh", "2d 7c", "Qs Qd"))
    play(game, "R10 C C K R10 C")  # pre-flop; flop: seat 0 checks, seat 1 bets, seat 2 calls
    assert moves(game) == (["F", "C", "R20"] if check_raise else ["F", "C"])
    play(game, "C K R20 R40")  # turn: 0 checks, 1 bets, 2 raises
    assert moves(game) == (["F", "C", "R60"] if check_raise else ["F", "C"])
    play(game, "C R60 C")  # 0 calls; 1 re-raises; 2 calls: back to seat 0, who has now bet
    assert game.to_act == 0 and moves(game) == ["F", "C", "R80"]  # "After betting ... may raise"


# ---- Tapping out ------------------------------------------------------------------------------


def test_tapping_out_for_a_call_and_the_straddle() -> None:
    chance = scripted("Ah Kd", "2c 7d", "Ad Kc", board="Qs Jh 3c 4d 9s")
    game = LimitRound(LimitConfig(n_players=3, cards_speak=True), [1000, 1000, 23], button=0, chance=chance)
    play(game, "R10")
    assert moves(game) == ["F", "C"]  # seat 2 has 18 after the ante: a call but not a raise
    play(game, "C C")
    assert game.street == FLOP and game.stacks == (980, 985, 8)  # the button blinds again
    play(game, "R10")  # flop: blind (seat 0) and straddle (seat 1) again
    assert moves(game) == ["F", "C"]
    play(game, "C C")  # seat 2 taps out for 8; the button calls 5
    assert game.stacks == (975, 975, 0)
    assert game.to_act == 0 and game.street == TURN  # seat 2 makes no more bets
    play(game, "R20 C K K")
    assert game.is_terminal
    # Seats 0 and 2 tie (A K Q J 9); seat 2 tapped out. Contributions 45, 45, 23; pot 113.
    # E_2 = 3 * 23 = 69, E_0 = 113 (not tapped out), E = 182: seat 2 gets 113 * 69 / 182 = 42.8 -> 42,
    # seat 0 113 * 113 / 182 = 70.2 -> 70 plus the odd chip (first from the button).
    assert game.contributions == (45, 45, 23)
    assert game.winnings == (71, 0, 42)
    assert game.payoffs().tolist() == [26, -45, 19]


def test_tapped_out_winner_takes_only_its_expectation() -> None:
    chance = scripted("2c 7d", "9h 9d", "Ac Ad", board="Qs Jh 3c 4d 8s")
    game = LimitRound(LimitConfig(n_players=3, cards_speak=True), [1000, 1000, 23], button=0, chance=chance)
    play(game, "R10 C C R10 C C R20 C K K")
    # Seat 2 (aces) wins 3 * 23 = 69; the 2 * 22 left goes to the second-best hand, seat 1's nines.
    assert game.winnings == (0, 44, 69)


def test_short_stacks_tap_out_on_the_ante_and_the_straddle() -> None:
    chance = scripted("Ah Jc", "2d 7d", "Ad Kc", "5c 5d")
    game = LimitRound(LimitConfig(n_players=4), [3, 500, 8, 500], button=0, chance=chance)
    # Seat 0 taps out on the ante (3 of 5): the blind passes to seat 1, the straddle to seat 2.
    assert game.stacks == (0, 490, 3, 495) and game.to_act == 2
    assert moves(game) == ["F", "C"]  # 3 chips: tap out for the straddle, or fold
    play(game, "C")
    assert game.to_act == 3 and moves(game) == ["F", "C", "R20"]  # the full straddle is owed


def test_no_fold_when_checking_is_free_and_no_raise_against_all_in_players() -> None:
    game = LimitRound(LimitConfig(n_players=2, blinds_in_second_round=False), [1000, 22], button=0, seed=5)
    play(game, "R10 C")  # seat 1 has 7 left
    assert game.to_act == 0 and moves(game) == ["K", "R10"]
    play(game, "R10")
    assert moves(game) == ["F", "C"]  # 7 < 10: tap out or fold
    play(game, "C")  # nobody can bet any more: the board runs out to the showdown
    assert game.street == RIVER and game.in_showdown and game.to_act == 0 and len(game.board) == 5


# ---- The Showdown -----------------------------------------------------------------------------


def test_kickers_decide_trips_with_a_shared_board() -> None:
    # The document says trips cannot tie (true without a board); in hold'em the kicker decides.
    chance = scripted("Ah 4d", "Kh 4s", board="7c 7d 7h 2s 3c")
    game = LimitRound(LimitConfig(n_players=2, cards_speak=True), button=0, chance=chance)
    play(game, "R10 C R10 C K K K K")
    assert game.winnings == (game.pot, 0)


@pytest.mark.parametrize(("must_use_hole_card", "winnings"), [(True, (0, 50)), (False, (25, 25))])
def test_one_or_both_hole_cards(must_use_hole_card: bool, winnings: tuple[int, int]) -> None:
    # "using one or both of their hole cards": the royal flush on the board is nobody's hand.
    chance = scripted("2d 3h", "4c 5c", board="Ts Js Qs Ks As")
    config = LimitConfig(n_players=2, cards_speak=True, must_use_hole_card=must_use_hole_card)
    game = LimitRound(config, button=0, chance=chance)
    play(game, "R10 C R10 C K K K K")
    assert game.winnings == winnings


def announced_game(river: str) -> LimitRound:
    chance = scripted("Ah Kh", "Qc Qd", board="Qh 2h 7h 9c 3s")  # seat 0: flush; seat 1: trip queens
    game = LimitRound(LimitConfig(n_players=2), button=0, chance=chance)
    play(game, "R10 C R10 C K K " + river)
    return game


def test_called_player_shows_first_and_may_not_muck() -> None:
    game = announced_game("K R20 C")  # river: seat 0 checks, seat 1 bets, seat 0 calls
    assert game.in_showdown and game.to_act == 1  # the river bettor is "called"
    assert game.legal_actions() == frozenset({ActionKind.ANNOUNCE})
    assert len(game.legal_moves()) == 20  # five of seven cards, at least one hole card
    with pytest.raises(IllegalActionError, match="illegal action M"):
        game.apply(Action(ActionKind.MUCK))


def test_announcement_the_cards_cannot_make_is_refused() -> None:
    game = announced_game("R20 C")  # the river bettor, seat 0, shows first
    assert game.to_act == 0
    with pytest.raises(IllegalActionError, match="announce five distinct cards"):
        game.apply(Action.parse("SQcQhQd7h9c"))  # Qc and Qd are seat 1's
    with pytest.raises(IllegalActionError, match="at least one hole card"):
        game.apply(Action.parse("SQh2h7h9c3s"))  # the board alone
    assert game.to_act == 0 and not game.is_terminal  # refused actions change nothing


def test_weaker_true_announcement_is_official() -> None:
    game = announced_game("R20 C")
    play(game, "SAhKh9c7h3s")  # seat 0 announces ace-high, not its flush (card order is free)
    assert game.to_act == 1 and ActionKind.MUCK in game.legal_actions()
    play(game, "SQcQdQh9c7h")
    assert game.winnings == (0, game.pot)


def test_announced_best_hand_wins_and_muck_concedes() -> None:
    game = announced_game("K K")  # nobody bet the river: first position (the button) shows first
    assert game.to_act == 0
    play(game, "S" + format_cards(best_hand(game.hole_cards[0], game.board, True)[1], sep=""))
    play(game, "M")
    assert game.winnings == (game.pot, 0) and game.observation(1).shown[-1] == (1, None)


# ---- Round API ----------------------------------------------------------------------------------


def test_observation_hides_other_hole_cards() -> None:
    game = four_players()
    seen = game.observation(0)
    assert seen.hole_cards == tuple(parse_cards("Ah Kh").tolist()) and seen.legal_moves == ()
    acting = game.observation(3)
    assert acting.legal_moves == tuple(game.legal_moves()) and acting.pot == game.pot
    assert not hasattr(acting, "opponent_hole_cards")


def test_clone_is_independent_and_replay_reproduces() -> None:
    game = LimitRound(LimitConfig(n_players=5, cards_speak=True), seed=11)
    rng = np.random.default_rng(0)
    copy = game.clone()
    while not game.is_terminal:
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])
    assert copy.history == () and not copy.is_terminal
    replay = LimitRound(LimitConfig(n_players=5, cards_speak=True), chance=game.chance_log.replay())
    for move in game.history:
        replay.apply(move.action)
    assert replay.payoffs().tolist() == game.payoffs().tolist()
    assert replay.hole_cards == game.hole_cards and replay.board == game.board


def test_bad_configs_and_stacks_are_refused() -> None:
    with pytest.raises(ValueError, match=r"n_players must be 2..10, got 11"):
        LimitConfig(n_players=11)
    with pytest.raises(ValueError, match="ante must be None or an int >= 0 chips, got -1"):
        LimitConfig(ante=-1)
    with pytest.raises(ValueError, match=r"every stack must be >= 1 chip, got \[10, 0\]"):
        LimitRound(LimitConfig(), [10, 0])
    with pytest.raises(ValueError, match=r"button must be a seat 0..1, got 2"):
        LimitRound(LimitConfig(), button=2)


# ---- Freeze-out ---------------------------------------------------------------------------------


class RandomBot:
    """Seeded random legal moves (never folds a free check)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, observation):  # type: ignore[no-untyped-def]
        legal = observation.legal_moves
        return legal[int(self._rng.integers(len(legal)))]


def test_freeze_out_plays_until_one_player_has_every_chip() -> None:
    config = LimitConfig(n_players=4, buy_in=80)
    match = FreezeOut(config, [RandomBot(seed) for seed in range(4)], seed=2)
    records = match.run()
    assert match.winner is not None and match.stacks[match.winner] == 320 and sum(match.stacks) == 320
    eliminated: set[int] = set()
    for previous, record in itertools.pairwise(records):
        for seat, player in enumerate(previous.players):
            if previous.starting_stacks[seat] + previous.payoffs[seat] == 0:
                eliminated.add(player)
        assert sum(record.payoffs) == 0 and not eliminated & set(record.players)
        # The button moves clockwise to the next player still in.
        button_player = previous.players[previous.button]
        survivors = [player for player in range(4) if player not in eliminated]
        expected = next(p for p in [(button_player + k) % 4 for k in range(1, 5)] if p in survivors)
        assert record.players[record.button] == expected
    with pytest.raises(ValueError, match="the freeze-out is over"):
        match.play_game()


def test_freeze_out_needs_one_bot_per_seat() -> None:
    with pytest.raises(ValueError, match=r"config.n_players is 3 but 2 bots"):
        FreezeOut(LimitConfig(n_players=3), [RandomBot(0), RandomBot(1)])

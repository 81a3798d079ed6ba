"""The match runner: reproducibility, dealer rotation, duplicate dealing, bounty re-draws, faults, results."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.play.bots import CheckCallBot, RandomBot
from game.play.match import MatchResult, interval_95, mbb_per_hand, play_match
from game.rules.actions import Action, ActionKind
from game.rules.auction import AuctionConfig
from game.rules.bounty import BountyConfig
from game.rules.holdem import HoldemConfig
from game.rules.variants import VARIANTS


def history_lines(config, bot_a, bot_b, **options) -> tuple[MatchResult, list[dict]]:
    buffer = io.StringIO()
    result = play_match(config, bot_a, bot_b, history=buffer, **options)
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    return result, lines


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_match_is_reproducible_from_its_seed(variant: str) -> None:
    config = VARIANTS[variant].config_class()
    first, first_lines = history_lines(config, RandomBot(seed=1), RandomBot(seed=2), rounds=30, seed=11)
    second, second_lines = history_lines(config, RandomBot(seed=1), RandomBot(seed=2), rounds=30, seed=11)
    _other, other_lines = history_lines(config, RandomBot(seed=1), RandomBot(seed=2), rounds=30, seed=12)
    assert first_lines == second_lines
    np.testing.assert_array_equal(first.winnings, second.winnings)
    assert [line["deck"] for line in first_lines[1:]] != [line["deck"] for line in other_lines[1:]]


def test_seats_alternate_and_seat_zero_is_the_dealer() -> None:
    _, lines = history_lines(HoldemConfig(), RandomBot(seed=1, name="a"), RandomBot(seed=2, name="b"), rounds=6, seed=0)
    assert [line["seats"] for line in lines[1:]] == [["a", "b"], ["b", "a"]] * 3
    # The dealer (seat 0) acts first preflop.
    assert all(line["actions"][0].startswith("0:") for line in lines[1:])


def test_bots_with_the_same_name_get_distinct_player_names() -> None:
    result = play_match(HoldemConfig(), CheckCallBot(), CheckCallBot(), rounds=2, seed=0)
    assert result.players == ("checkcall-a", "checkcall-b")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_duplicate_dealing_plays_the_same_cards_with_seats_swapped(variant: str) -> None:
    config = VARIANTS[variant].config_class()
    _, lines = history_lines(
        config, RandomBot(seed=3, name="a"), RandomBot(seed=4, name="b"), rounds=40, seed=5, duplicate=True
    )
    for first, second in zip(lines[1::2], lines[2::2], strict=True):
        assert first["deal"] == second["deal"]
        assert first["seats"] == ["a", "b"] and second["seats"] == ["b", "a"]
        assert first["match_state"] == second["match_state"]  # attached to the seats
        # Both plays draw from one deck; a longer round just deals further into it.
        short, long = sorted((first["deck"].split(), second["deck"].split()), key=len)
        assert long[: len(short)] == short and len(short) >= 4
        for name in set(first["events"]) | set(second["events"]):
            few, many = sorted((first["events"].get(name, []), second["events"].get(name, [])), key=len)
            assert many[: len(few)] == few


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_duplicate_mirror_match_of_a_deterministic_bot_is_exactly_even(variant: str) -> None:
    """Same cards, seats swapped, same deterministic bot on both sides: every pair cancels."""
    config = VARIANTS[variant].config_class()
    result = play_match(config, CheckCallBot(), CheckCallBot(), rounds=60, seed=9, duplicate=True)
    pair_sums = result.winnings.reshape(-1, 2).sum(axis=1)
    assert np.all(pair_sums == 0)
    assert np.any(result.winnings != 0)  # the rounds themselves were not all ties
    assert result.win_rate() == (0.0, 0.0)


def test_duplicate_needs_an_even_number_of_rounds() -> None:
    with pytest.raises(ValueError, match="rounds must be even, got 7"):
        play_match(HoldemConfig(), CheckCallBot(), CheckCallBot(), rounds=7, duplicate=True)


def ranks_by_player(line: dict) -> tuple[int, int]:
    """Bounty ranks of (player a, player b) from a round line (match_state is by seat)."""
    by_seat = dict(zip(line["seats"], line["match_state"], strict=True))
    return by_seat["a"], by_seat["b"]


def test_bounty_ranks_are_redrawn_every_25_rounds_and_follow_the_player() -> None:
    _, lines = history_lines(
        BountyConfig(), RandomBot(seed=1, name="a"), RandomBot(seed=2, name="b"), rounds=100, seed=4
    )
    ranks = [ranks_by_player(line) for line in lines[1:]]
    blocks = [ranks[start : start + 25] for start in range(0, 100, 25)]
    for block in blocks:
        assert len(set(block)) == 1  # kept across seat changes within the block
    # Four independent draws of two ranks out of 13 (seeded): not all the same.
    assert len({block[0] for block in blocks}) > 1
    # The ranks are by seat in the record: seat order flips every round.
    assert lines[1]["match_state"] == list(ranks[0]) and lines[2]["match_state"] == list(reversed(ranks[1]))


def test_bounty_period_comes_from_the_config() -> None:
    _, lines = history_lines(
        BountyConfig(bounty_period=3), RandomBot(seed=1, name="a"), RandomBot(seed=2, name="b"), rounds=12, seed=4
    )
    ranks = [ranks_by_player(line) for line in lines[1:]]
    assert all(len(set(ranks[start : start + 3])) == 1 for start in range(0, 12, 3))


class Crasher:
    name = "crasher"

    def act(self, observation):
        raise ZeroDivisionError("boom")


class Overbettor:
    """Always raises to a million chips: illegal everywhere."""

    name = "overbettor"

    def act(self, observation):
        return Action.raise_to(10**6)


@pytest.mark.parametrize("faulty", [Crasher(), Overbettor()])
def test_a_faulty_bot_is_replaced_by_check_or_fold_and_counted(faulty) -> None:
    result, lines = history_lines(HoldemConfig(), faulty, RandomBot(seed=2), rounds=40, seed=1)
    faults = [(line, fault) for line in lines[1:] for fault in line["faults"]]
    assert result.illegal_actions[faulty.name] == len(faults) > 0
    assert result.illegal_actions["random"] == 0
    assert result.rounds == 40 and sum(result.bankrolls.values()) == 0
    for line, fault in faults:
        assert line["seats"][fault["seat"]] == faulty.name
        assert fault["replacement"] in ("K", "F")
        expected = "raised ZeroDivisionError: boom" if isinstance(faulty, Crasher) else "illegal action R1000000"
        assert expected in fault["problem"]
    # Every decision of the faulty bot was a fault, so it only ever checked or folded.
    for line in lines[1:]:
        seat = line["seats"].index(faulty.name)
        mine = [action.split(":")[1] for action in line["actions"] if action.startswith(f"{seat}:")]
        assert len(mine) == len(line["faults"])
        assert set(mine) <= {"K", "F"}
    # Facing the big blind preflop the dealer cannot check, so a faulty dealer folds at once.
    dealer_rounds = [line for line in lines[1:] if line["seats"][0] == faulty.name]
    assert all(line["actions"] == ["0:F"] for line in dealer_rounds)


def test_a_faulty_bidder_bids_zero() -> None:
    result, lines = history_lines(AuctionConfig(), Crasher(), CheckCallBot(), rounds=40, seed=2)
    replacements = [fault["replacement"] for line in lines[1:] for fault in line["faults"]]
    assert "A0" in replacements
    assert result.illegal_actions == {"crasher": len(replacements), "checkcall": 0}


@settings(max_examples=15, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32), duplicate=st.booleans())
def test_bankrolls_sum_to_zero_and_match_the_history(variant: str, seed: int, duplicate: bool) -> None:
    config = VARIANTS[variant].config_class()
    result, lines = history_lines(
        config,
        RandomBot(seed=seed, name="a"),
        RandomBot(seed=seed + 1, name="b"),
        rounds=10,
        seed=seed,
        duplicate=duplicate,
    )
    assert sum(result.bankrolls.values()) == 0
    from_history = {"a": 0, "b": 0}
    for line in lines[1:]:
        assert sum(line["payoffs"]) == 0
        for seat, player in enumerate(line["seats"]):
            from_history[player] += line["payoffs"][seat]
    assert from_history == result.bankrolls


def test_mbb_per_hand_and_confidence_interval_on_a_hand_checked_case() -> None:
    # Winnings 10, -2, 4, 0 chips, big blind 2: mean 3 chips = 1500 mbb/hand. Sample variance
    # (49 + 25 + 1 + 9) / 3 = 28 chips^2, standard error sqrt(28 / 4) = 2.6458 chips = 1322.88 mbb;
    # Student's t with 3 degrees of freedom: 3.18245 (tables).
    mean, half_width = mbb_per_hand(np.array([10, -2, 4, 0]), big_blind=2)
    assert mean == pytest.approx(1500.0)
    assert half_width == pytest.approx(3.182446 * 1000 * np.sqrt(7) / 2)
    assert half_width == pytest.approx(4209.99, abs=0.01)
    # As duplicate pairs: per-hand pair means 4 and 2 chips, standard error 1 chip = 500 mbb; t(1) = 12.7062.
    mean, half_width = mbb_per_hand(np.array([10, -2, 4, 0]), big_blind=2, pair_size=2)
    assert mean == pytest.approx(1500.0)
    assert half_width == pytest.approx(12.706205 * 500)
    assert mbb_per_hand(np.array([7]), big_blind=2) == (3500.0, None)
    with pytest.raises(ValueError, match="multiple of 2 rounds"):
        mbb_per_hand(np.array([1, 2, 3]), big_blind=2, pair_size=2)


def test_interval_is_students_and_tends_to_the_normal() -> None:
    rng = np.random.default_rng(0)
    values = rng.normal(size=100_000)
    standard_error = values.std(ddof=1) / np.sqrt(len(values))
    assert interval_95(values) == pytest.approx(1.959964 * standard_error, rel=1e-4)
    assert interval_95(values[:10]) == pytest.approx(2.262157 * values[:10].std(ddof=1) / np.sqrt(10))
    assert interval_95(values[:1]) is None


def test_match_result_reports_player_a_in_json() -> None:
    result = MatchResult("holdem", HoldemConfig(), ("a", "b"), True, np.array([10, -2, 4, 0]), ())
    summary = result.to_dict()
    assert summary["bankrolls"] == {"a": 12, "b": -12}
    assert summary["mbb_per_hand"] == pytest.approx(1500.0)
    assert summary["ci95_mbb_per_hand"] == pytest.approx(12.706205 * 500)
    assert summary["illegal_actions"] == {"a": 0, "b": 0}
    json.dumps(summary)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="rounds must be an int >= 1, got 0"):
        play_match(HoldemConfig(), CheckCallBot(), CheckCallBot(), rounds=0)
    with pytest.raises(TypeError, match="act"):
        play_match(HoldemConfig(), object(), CheckCallBot(), rounds=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="NoLimitConfig"):
        play_match("holdem", CheckCallBot(), CheckCallBot(), rounds=2)  # type: ignore[arg-type]


def test_a_dealer_that_folds_loses_the_small_blind() -> None:
    class Folder:
        name = "folder"

        def act(self, observation):
            return Action.fold() if ActionKind.FOLD in observation.legal_actions else Action.check()

    _result, lines = history_lines(HoldemConfig(), Folder(), CheckCallBot(), rounds=4, seed=3)
    dealer_lines = [line for line in lines[1:] if line["seats"][0] == "folder"]
    assert all(line["payoffs"] == [-1, 1] for line in dealer_lines)


def test_duplicate_bounty_ranks_are_redrawn_every_25_deals() -> None:
    _, lines = history_lines(
        BountyConfig(), RandomBot(seed=1, name="a"), RandomBot(seed=2, name="b"), rounds=100, seed=4, duplicate=True
    )
    by_seat = [tuple(line["match_state"]) for line in lines[1:]]
    assert len(set(by_seat[:50])) == 1 and len(set(by_seat[50:])) == 1  # 25 deals = 50 rounds each
    assert by_seat[0] != by_seat[50]  # seeded: the second draw differs

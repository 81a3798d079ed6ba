"""Hand histories: the JSON-lines format, and replay that verifies them and finds tampering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cards.deck import parse_cards
from game.play.bots import CheckCallBot, RandomBot
from game.play.history import HISTORY_FORMAT, HistoryHeader, RoundRecord, read_history
from game.play.history_files import replay
from game.play.match import play_match
from game.rules.actions import Action
from game.rules.bounty import BountyConfig
from game.rules.chance import ScriptedChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.variants import VARIANTS


def write_match(tmp_path: Path, variant: str = "holdem", rounds: int = 30, **options) -> tuple[Path, dict]:
    path = tmp_path / f"{variant}.jsonl"
    config = VARIANTS[variant].config_class(**options.pop("config", {}))
    result = play_match(
        config, RandomBot(seed=1, name="a"), RandomBot(seed=2, name="b"), rounds=rounds, seed=8, history=path, **options
    )
    return path, result.bankrolls


def rewrite_line(path: Path, number: int, change) -> None:
    """Apply ``change`` to the JSON object on line ``number`` (1-based) of ``path``."""
    lines = path.read_text().splitlines()
    data = json.loads(lines[number - 1])
    change(data)
    lines[number - 1] = json.dumps(data)
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("duplicate", [False, True])
def test_replay_verifies_a_written_history(tmp_path: Path, variant: str, duplicate: bool) -> None:
    path, bankrolls = write_match(tmp_path, variant, duplicate=duplicate)
    report = replay(path)
    assert report.ok, report.mismatch
    assert report.rounds_checked == 30
    assert report.bankrolls == bankrolls


def test_replay_verifies_engine_rules_histories(tmp_path: Path) -> None:
    path, bankrolls = write_match(tmp_path, "bounty", rounds=60, config={"rules": "engine"})
    header, _ = read_history(path)
    assert header.config == BountyConfig(rules="engine")
    report = replay(path)
    assert report.ok and report.bankrolls == bankrolls


def test_replay_detects_tampered_payoffs(tmp_path: Path) -> None:
    path, _ = write_match(tmp_path)
    rewrite_line(path, 5, lambda data: data.update(payoffs=[data["payoffs"][0] + 1, data["payoffs"][1] - 1]))
    report = replay(path)
    assert not report.ok
    assert report.rounds_checked == 3
    assert report.mismatch.startswith("line 5 (round 3): recorded payoffs")
    assert "but the rules give" in report.mismatch


def test_replay_detects_a_tampered_action(tmp_path: Path) -> None:
    path, _ = write_match(tmp_path)
    rewrite_line(path, 2, lambda data: data.update(actions=["0:R100000", *data["actions"][1:]]))
    report = replay(path)
    assert report.mismatch is not None
    assert report.mismatch.startswith("line 2 (round 0): action 1 '0:R100000' is illegal: illegal action R100000")


def test_replay_detects_an_action_by_the_wrong_seat(tmp_path: Path) -> None:
    path, _ = write_match(tmp_path)
    rewrite_line(path, 3, lambda data: data.update(actions=["1" + data["actions"][0][1:], *data["actions"][1:]]))
    assert "is by seat 1 but seat 0 is to act" in replay(path).mismatch


def test_replay_detects_swapped_hole_cards(tmp_path: Path) -> None:
    """Exchanging the two players' hole cards changes the winner of some showdown."""
    path, _ = write_match(tmp_path, rounds=60)
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines[1:], start=2):
        cards = json.loads(line)["deck"].split()
        if len(cards) < 9:  # no showdown
            continue
        rewrite_line(
            path, number, lambda data, cards=cards: data.update(deck=" ".join(cards[2:4] + cards[0:2] + cards[4:]))
        )
        report = replay(path)
        if not report.ok:
            assert report.mismatch.startswith(f"line {number} ")
            assert "recorded payoffs" in report.mismatch
            return
    pytest.fail("no showdown changed winner when the hole cards were exchanged")


def test_replay_detects_extra_recorded_cards_and_missing_rounds(tmp_path: Path) -> None:
    path, _ = write_match(tmp_path)

    def add_a_card(data: dict) -> None:
        cards = data["deck"].split()
        unused = next(card for card in ("2c", "2d", "2h", "2s", "3c") if card not in cards)
        data["deck"] = " ".join([*cards, unused])

    rewrite_line(path, 2, add_a_card)
    report = replay(path)
    assert report.mismatch is not None
    assert report.mismatch.startswith("line 2 (round 0): the round used chance outcomes")
    path, _ = write_match(tmp_path)
    path.write_text("\n".join(path.read_text().splitlines()[:-1]) + "\n")
    assert replay(path).mismatch == "the header announces 30 rounds but 29 are recorded"


def test_replay_refuses_files_that_are_not_histories(tmp_path: Path) -> None:
    path = tmp_path / "other.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(ValueError, match=f"not a {HISTORY_FORMAT} header"):
        replay(path)
    path.write_text("")
    with pytest.raises(ValueError, match="is empty"):
        replay(path)
    path.write_text(json.dumps({"format": HISTORY_FORMAT, "version": 99}) + "\n")
    with pytest.raises(ValueError, match="version 99 is not supported"):
        replay(path)


def test_a_round_line_holds_the_chance_log_actions_and_payoffs() -> None:
    deck = parse_cards("Ah Ad Kc Qc 2s 7h 9d 3c 4d").tolist()
    round_ = HoldemRound(HoldemConfig(), ScriptedChance(deck))
    for text in ["R6", "C", "K", "K", "K", "K", "R10", "C"]:
        round_.apply(Action.parse(text))
    record = RoundRecord(
        0, 0, ("a", "b"), None, round_.chance_log, round_.history, tuple(int(x) for x in round_.payoffs())
    )  # type: ignore[arg-type]
    assert json.loads(record.to_json()) == {
        "round": 0,
        "deal": 0,
        "seats": ["a", "b"],
        "match_state": None,
        "deck": "Ah Ad Kc Qc 2s 7h 9d 3c 4d",
        "events": {},
        "actions": ["0:R6", "1:C", "1:K", "0:K", "1:K", "0:K", "1:R10", "0:C"],
        "payoffs": [16, -16],  # the game.rules.nolimit docstring example: aces win 6 + 10
        "faults": [],
    }


def test_header_round_trips_with_the_full_config() -> None:
    header = HistoryHeader("bounty", BountyConfig(bounty_period=5, rules="engine"), 3, ("a", "b"), 10, True)
    assert HistoryHeader.from_json(header.to_json()) == header


def test_faults_are_written_to_the_history(tmp_path: Path) -> None:
    class Crasher:
        name = "crasher"

        def act(self, observation):
            raise RuntimeError("no strategy")

    path = tmp_path / "faults.jsonl"
    play_match(HoldemConfig(), Crasher(), CheckCallBot(), rounds=4, seed=1, history=path)
    _, lines = read_history(path)
    faults = [fault for _, line in lines for fault in json.loads(line)["faults"]]
    assert faults and all(fault["problem"] == "raised RuntimeError: no strategy" for fault in faults)
    assert replay(path).ok

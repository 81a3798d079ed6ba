"""PHH hand histories: every variant round-trips through our replay; PokerKit (a test-only oracle)
loads our files and plays Hold'em to our finishing stacks; malformed files get one clear error."""

from __future__ import annotations

import random
import re
import tomllib
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from game.play.bots import CheckCallBot, RandomBot
from game.play.history_files import read_records, replay
from game.play.match import play_match
from game.play.phh import PhhError, dumps_hands, read_phh, read_phh_text
from game.rules.actions import ActionKind
from game.rules.variants import VARIANTS
from solver.cli.main import app

HEADS_UP = ("holdem", "swap", "river_of_blood", "auction", "bounty")


def play(tmp_path: Path, variant: str, rules: str, rounds: int, suffix: str = ".phhs", **options) -> tuple[Path, dict]:
    path = tmp_path / f"{variant}-{rules}{suffix}"
    config = VARIANTS[variant].config_class(rules=rules)
    result = play_match(
        config, RandomBot(seed=1, name="a"), RandomBot(seed=2, name="b"), rounds=rounds, seed=8, history=path, **options
    )
    return path, result.bankrolls


@pytest.mark.parametrize("rules", ["document", "engine"])
@pytest.mark.parametrize("variant", HEADS_UP)
def test_thousand_hands_round_trip_through_replay(tmp_path: Path, variant: str, rules: str) -> None:
    path, bankrolls = play(tmp_path, variant, rules, 1000)
    report = replay(path)
    assert report.ok, report.mismatch
    assert report.rounds_checked == 1000 and report.bankrolls == bankrolls
    # The same match written as JSON lines reads back to the very same records.
    jsonl, _ = play(tmp_path, variant, rules, 1000, suffix=".jsonl")
    assert read_records(jsonl) == read_records(path)
    text = path.read_text()
    if variant in ("swap", "river_of_blood", "auction"):  # the variant's extras were exercised
        assert "_vcfr_deck" in text
    if variant in ("river_of_blood", "auction") or rules == "engine":
        assert "_vcfr_moves" in text


@pytest.mark.parametrize("rules", ["document", "engine"])
def test_pokerkit_plays_our_holdem_files_to_our_finishing_stacks(tmp_path: Path, rules: str) -> None:
    # Oracle: PokerKit (uoftcprg/pokerkit) reads our PHH and plays its actions itself.
    pokerkit = pytest.importorskip("pokerkit")
    path, _ = play(tmp_path, "holdem", rules, 1000)
    _, records = read_phh(path)
    hands = list(pokerkit.HandHistory.loads_all(path.read_text()))
    assert len(hands) == len(records) == 1000
    showdowns = all_ins = 0
    for hand, (_, record) in zip(hands, records, strict=True):
        *_, state = hand  # PokerKit plays the hand through to its last state
        assert list(state.stacks) == hand.finishing_stacks, hand.actions
        assert list(state.stacks) == [400 + record.payoffs[1], 400 + record.payoffs[0]]
        assert hand.players == [record.seats[1], record.seats[0]]
        showdowns += any(" sm " in action for action in hand.actions)
        all_ins += 0 in state.stacks
    assert showdowns > 100 and all_ins > 100  # the hard cases are covered


@pytest.mark.parametrize("variant", HEADS_UP)
def test_pokerkit_loads_every_variant(tmp_path: Path, variant: str) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    path, _ = play(tmp_path, variant, "document", 50)
    hands = list(pokerkit.HandHistory.loads_all(path.read_text()))
    assert len(hands) == 50
    assert {hand.variant for hand in hands} == {"NT"}
    assert {hand.user_defined_fields["_vcfr_variant"] for hand in hands} == {variant}
    if variant == "auction":
        return  # the bids move chips PHH's NT cannot: PokerKit loads these hands but cannot play them
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about folds it finds pointless
        for hand in hands:  # every action is legal to PokerKit, whatever the variant did besides
            for _ in hand:
                pass


def test_a_pokerkit_written_hand_reads_as_holdem() -> None:
    # A hand with PHH's own fields only (no _vcfr_ fields), as PokerKit's documentation writes them.
    text = (
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [200, 200]\n"
        "actions = ['d dh p1 AsAd', 'd dh p2 KcKd', 'p2 cbr 6', 'p1 cc', 'd db 2c3d4h', 'p1 cc', 'p2 cbr 10',"
        " 'p1 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'd db Ts', 'p1 cc', 'p2 cc', 'p1 sm AsAd', 'p2 sm KcKd']\n"
    )
    header, [(_, record)] = read_phh_text(text)
    assert header.variant == "holdem" and header.config.stack == 200
    assert [str(move) for move in record.moves] == ["0:R6", "1:C", "1:K", "0:R10", "1:C", "1:K", "0:K", "1:K", "0:K"]
    assert record.payoffs == (-16, 16)  # seat 1 (p1) holds the aces


def test_malformed_files_name_the_hand_line_and_field(tmp_path: Path) -> None:
    path, _ = play(tmp_path, "holdem", "document", 5)
    text = path.read_text()
    start = text.index("[3]")
    line = text[:start].count("\n") + 1

    def error_of(changed: str) -> str:
        with pytest.raises(PhhError) as caught:
            read_phh_text(changed, "x.phhs")
        return str(caught.value)

    assert "not PHH (TOML)" in error_of(text.replace("antes = [0, 0]", "antes = [0, 0", 1))
    assert "line " in error_of(text.replace("antes = [0, 0]", "antes = [0, 0", 1))
    section = text[start:].split("\n\n")[0]
    missing = section.replace(re.search(r"^actions = .*$", section, re.M)[0], "")
    assert error_of(text.replace(section, missing)) == f"x.phhs hand [3] (line {line}): field 'actions' is missing"
    illegal = re.sub(r'"p2 (cc|f|cbr \d+)"', '"p2 cbr 9999"', section, count=1)
    message = error_of(text.replace(section, illegal))
    assert message.startswith(f"x.phhs hand [3] (line {line}): field 'actions' item 3 'p2 cbr 9999': illegal action")
    assert "p3 cc" in error_of(text.replace(section, section.replace('"d dh p2', '"p3 cc", "d dh p2', 1)))


def test_replay_finds_tampered_finishing_stacks(tmp_path: Path) -> None:
    path, _ = play(tmp_path, "bounty", "document", 6)
    text = path.read_text()
    second = text.index("[2]")
    stacks = re.search(r"finishing_stacks = \[(\d+), (\d+)\]", text[second:])
    tampered = f"finishing_stacks = [{int(stacks[1]) + 1}, {int(stacks[2]) - 1}]"
    path.write_text(text[:second] + text[second:].replace(stacks[0], tampered, 1))
    report = replay(path)
    assert report.rounds_checked == 1
    assert re.match(r".*hand \[2\] \(line \d+\) \(round 1\): recorded payoffs .* but the rules give", report.mismatch)


def test_engine_forced_checks_and_bids_are_kept_outside_the_phh_actions(tmp_path: Path) -> None:
    path, _ = play(tmp_path, "auction", "engine", 200)
    for _, record in read_phh(path)[1]:
        assert all(move.action.kind is not ActionKind.BID or move.street == 3 for move in record.moves)
    text = path.read_text()
    assert re.search(r'_vcfr_moves = \["\d+ [01]:A\d+"', text)  # the bids
    assert re.search(r'"\d+ [01]:K"', text)  # the engine's checks once a stack is empty


def test_cli_match_replay_and_convert(tmp_path: Path) -> None:
    runner = CliRunner()
    phhs, jsonl, back = tmp_path / "m.phhs", tmp_path / "m.jsonl", tmp_path / "back.phhs"
    arguments = ["match", "--variant", "swap", "--a", "random", "--b", "checkcall", "--rounds", "40"]
    assert runner.invoke(app, [*arguments, "--history", str(phhs)]).exit_code == 0
    assert "verified 40 rounds of swap" in runner.invoke(app, ["replay", str(phhs)]).output
    result = runner.invoke(app, ["convert-history", str(phhs), str(jsonl)])
    assert result.exit_code == 0 and "wrote 40 rounds of swap" in result.output
    assert "verified 40 rounds of swap" in runner.invoke(app, ["replay", str(jsonl)]).output
    assert runner.invoke(app, ["convert-history", str(jsonl), str(back)]).exit_code == 0
    assert back.read_text() == phhs.read_text()
    phhs.write_text(phhs.read_text().replace("min_bet = 2", "min_bet = [", 1))
    result = runner.invoke(app, ["replay", str(phhs)])
    assert result.exit_code == 1 and result.output.count("error: hand history") == 1  # one line, no traceback
    assert "Traceback" not in result.output


def test_checkcall_matches_round_trip_with_showdowns(tmp_path: Path) -> None:
    path = tmp_path / "cc.phhs"
    config = VARIANTS["river_of_blood"].config_class()
    result = play_match(config, RandomBot(seed=3), CheckCallBot(), rounds=300, seed=2, history=path)
    report = replay(path)
    assert report.ok and report.bankrolls == result.bankrolls
    assert " sm " in path.read_text()


def test_faults_round_trip_with_their_messages(tmp_path: Path) -> None:
    class Crasher:
        name = "crasher"

        def act(self, observation):
            raise RuntimeError("no 'strategy' for \"this\" \\ node\n")

    paths = [tmp_path / "faults.phhs", tmp_path / "faults.jsonl"]
    for path in paths:
        play_match(VARIANTS["auction"].config_class(), Crasher(), CheckCallBot(), rounds=6, seed=1, history=path)
    header, records = read_records(paths[0])
    assert (header, records) == read_records(paths[1])
    assert any(record.faults for record in records)
    assert all(fault.player == "crasher" and '"this" \\ node\n' in fault.problem for r in records for fault in r.faults)


@pytest.mark.parametrize("variant", HEADS_UP)
def test_corrupted_fields_give_a_phh_error_or_a_replay_mismatch_never_a_crash(tmp_path: Path, variant: str) -> None:
    path, _ = play(tmp_path, variant, "engine", 12)
    hands = list(tomllib.loads(path.read_text()).values())
    junk = [None, 0, -1, 10**6, "x", "", True, [], [1], ["a", "b"], {}, {"a": 1}, 1.5, ["0 0:K"], ["3 2:K"], "Ah Ah"]
    rng = random.Random(variant)
    for _ in range(60):
        changed = [dict(hand) for hand in hands]
        hand = rng.choice(changed)
        key = rng.choice(sorted(hand))
        value = rng.choice(junk)
        if isinstance(hand[key], dict) and rng.random() < 0.5:  # corrupt inside _vcfr_config, _vcfr_match, ...
            hand[key] = {**hand[key], rng.choice(sorted(hand[key]) or ["a"]): value if value is not None else "x"}
        elif value is None:
            del hand[key]
        else:
            hand[key] = value
        path.write_text(dumps_hands(changed))
        try:
            replay(path)
        except PhhError as error:
            assert str(error).startswith(f"{path} hand [")

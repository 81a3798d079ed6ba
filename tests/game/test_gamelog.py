"""Official engines' game logs as hand histories (game.pokerbots.gamelog, ``vcfr convert-history --engine``).

Each year's recorded 1000-round log (tests/data/gamelogs) is rebuilt round by round in our rules
modules under the engine's rules, every round paying exactly the engine's ``awarded`` chips (checked
by `read_game_log`); here the totals must equal the log's ``Final`` bankrolls, every variant's own
chance must be exercised (swaps, third cards, run streets, bounty ranks), and the PHH written from
the records must replay through ``vcfr replay`` to the same bankrolls.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from game.play.history_files import open_history_writer, replay
from game.pokerbots.gamelog import read_game_log
from tests.solver.cli_support import invoke, one_line_error

DATA = Path(__file__).resolve().parents[1] / "data" / "gamelogs"
YEARS = {2022: "swap", 2023: "river_of_blood", 2024: "auction", 2025: "bounty"}


def game_log(year: int) -> str:
    return gzip.decompress((DATA / f"random_vs_random_{year}.txt.gz").read_bytes()).decode()


def variant_chance(year: int, records) -> int:  # type: ignore[no-untyped-def]
    """Rounds in which the year's own chance shows: a swap, a third card, a run card, a bounty rank drawn."""
    if year == 2022:
        return sum(any(record.chance.events.get("swap", ())) for record in records)
    if year == 2024:
        return sum(any(move.action.kind.name == "BID" for move in record.moves) for record in records)
    if year == 2023:
        return sum(len(record.chance.deck) > 9 for record in records)
    return len({record.match_state for record in records})


@pytest.mark.parametrize("year", YEARS)
def test_every_round_of_a_recorded_log_replays_to_the_engines_chips(tmp_path: Path, year: int) -> None:
    text = game_log(year)
    header, records = read_game_log(text, year)
    assert header.variant == YEARS[year] and len(records) == header.rounds == 1000
    final_line = next(line for line in text.splitlines() if line.startswith("Final, "))
    final = {name: int(chips) for name, chips in re.findall(r"(\S+) \((-?\d+)\)", final_line)}
    totals = dict.fromkeys(header.players, 0)
    for record in records:
        for seat, name in enumerate(record.seats):
            totals[name] += record.payoffs[seat]
    assert totals == final
    assert variant_chance(year, records) > 10
    path = tmp_path / "log.phhs"
    with open_history_writer(path, header) as writer:
        for record in records:
            writer.write(record)
    report = replay(path)
    assert report.rounds_checked == 1000 and report.mismatch is None and report.bankrolls == final


def test_cli_converts_a_game_log_and_needs_the_engine(tmp_path: Path) -> None:
    source = tmp_path / "gamelog.txt"
    source.write_text(game_log(2025))
    result = invoke("convert-history", str(source), str(tmp_path / "log.phhs"), "--engine", "2025")
    assert result.exit_code == 0 and "wrote 1000 rounds of bounty" in result.output
    assert invoke("replay", str(tmp_path / "log.phhs")).exit_code == 0
    message = one_line_error(invoke("convert-history", str(source), str(tmp_path / "again.phhs")), 2)
    assert "is an engine game log: give --engine" in message


def test_a_log_that_is_not_the_engines_is_refused_naming_the_round_and_line() -> None:
    text = game_log(2025)
    tampered = text.replace("A awarded 107\n", "A awarded 108\n", 1)
    with pytest.raises(ValueError, match=r"round #1 \(line 3\): the engine awarded \(108, -107\).*pay \(107, -107\)"):
        read_game_log(tampered, 2025)
    with pytest.raises(ValueError, match=r"round #1 \(line 3\): bounty ranks in a 2022 \(swap\) game log"):
        read_game_log(text, "swap")
    without_bounties = "\n".join(line for line in text.splitlines() if not line.startswith("Bounties"))
    with pytest.raises(ValueError, match=r"round #1 \(line 3\), line 13: illegal action K at flop auction"):
        read_game_log(without_bounties, 2024)  # the 2024 engine holds an auction on the flop
    with pytest.raises(ValueError, match=r"round #1 \(line 3\), line 10: .*no outcome left for event 'swap'"):
        read_game_log(without_bounties, 2022)  # no 2022 hand lines: the swaps are unknown
    with pytest.raises(ValueError, match="not an engine game log"):
        read_game_log("hello\n", 2025)


@pytest.mark.parametrize("year", YEARS)
def test_pokerkit_loads_the_converted_logs(tmp_path: Path, year: int) -> None:
    """PokerKit (the PHH oracle) reads every converted hand, with the year's players and variant."""
    pokerkit = pytest.importorskip("pokerkit")
    header, records = read_game_log(game_log(year), year)
    path = tmp_path / "log.phhs"
    with open_history_writer(path, header) as writer:
        for record in records:
            writer.write(record)
    hands = list(pokerkit.HandHistory.loads_all(path.read_text()))
    assert len(hands) == 1000 and {hand.user_defined_fields["_vcfr_variant"] for hand in hands} == {YEARS[year]}
    assert [hand.players for hand in hands] == [[record.seats[1], record.seats[0]] for record in records]

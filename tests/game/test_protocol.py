"""The wire protocol of the official MIT Pokerbots engines: parsing and formatting."""

from __future__ import annotations

import gzip

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.pokerbots.protocol import (
    AuctionResult,
    Board,
    Bounty,
    BountyHits,
    Clock,
    Delta,
    GameOver,
    HistoryAction,
    HoleCards,
    OpponentCards,
    Seat,
    UpdatedHoleCards,
    format_answer,
    parse_clause,
    parse_line,
)
from game.rules.actions import Action, ActionKind
from tests.game.scripted import TRANSCRIPTS
from tests.game.scripted import card_tuple as cards


def test_example_of_the_engine_doc_parses_clause_by_clause() -> None:
    # The Swap example of pokerbots-engines.md (seat 1), line by line.
    assert parse_line("T29.999 P1 H9s,7s C").clauses == (
        Clock(29.999),
        Seat(1),
        HoleCards(cards("9s 7s")),
        HistoryAction(Action.call()),
    )
    assert parse_line("T29.999 R4 R6").clauses == (
        Clock(29.999),
        HistoryAction(Action.raise_to(4)),
        HistoryAction(Action.raise_to(6)),
    )
    assert parse_line("T29.999 C B5d,5c,Ac UQs,7s").clauses == (
        Clock(29.999),
        HistoryAction(Action.call()),
        Board(cards("5d 5c Ac")),
        UpdatedHoleCards(cards("Qs 7s")),
    )
    assert parse_line("T29.999 K K O3d,3s D18").clauses == (
        Clock(29.999),
        HistoryAction(Action.check()),
        HistoryAction(Action.check()),
        OpponentCards(cards("3d 3s")),
        Delta(18),
    )


def test_year_specific_clauses() -> None:
    # 2024 auction line and 2025 bounty clauses, as recorded from the engines.
    line = parse_line("T29.999 A17 P0 N396,396_17,0_3s,Kc,3h BJd,8s,4s K")
    assert line.malformed == ()
    assert line.clauses[0:4] == (
        Clock(29.999),
        HistoryAction(Action.bid(17)),
        Seat(0),
        AuctionResult((396, 396), (17, 0), cards("3s Kc 3h")),
    )
    assert parse_line("T60.000 P0 H3s,9h G3").clauses[-1] == Bounty(1)
    assert parse_clause("GA") == Bounty(12)
    assert parse_clause("Y#0") == BountyHits(None, False)
    assert parse_clause("Y10") == BountyHits(True, False)
    assert parse_clause("Q") == GameOver()
    assert parse_clause("D-400") == Delta(-400)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "X",
        "R",
        "R-3",
        "R1.5",
        "A",
        "Rabc",
        "FF",
        "KK",
        "C1",
        "P2",
        "P",
        "H",
        "HAh,",
        "HAh,Ah",
        "B1x",
        "D",
        "D--1",
        "D4-",
        "T",
        "Tnan",
        "Tinf",
        "Tabc",
        "G1",
        "GAA",
        "Y",
        "Y2",
        "Y1#0",
        "Q1",
        "N1,2_3,4",
        "N1_2,3_Ah",
        "N1,2_3,4_",
        "N1,2,3_4,5_Ah",
        "R\u0664",
    ],
)
def test_malformed_clauses_raise_value_error_naming_them(text: str) -> None:
    with pytest.raises(ValueError, match="malformed clause"):
        parse_clause(text)


def test_line_keeps_good_clauses_around_bad_ones() -> None:
    parsed = parse_line("T1.5 Rx P1 ?? HAh,Kd\n")
    assert parsed.clauses == (Clock(1.5), Seat(1), HoleCards(cards("Ah Kd")))
    assert parsed.malformed == ("Rx", "??")


def test_format_answer_accepts_only_engine_answers() -> None:
    assert [format_answer(a) for a in (Action.fold(), Action.check(), Action.call())] == ["F", "K", "C"]
    assert format_answer(Action.raise_to(400)) == "R400"
    with pytest.raises(ValueError, match="not 'M'"):
        format_answer(Action(ActionKind.MUCK))
    with pytest.raises(TypeError, match="expected an Action"):
        format_answer("K")  # type: ignore[arg-type]


@pytest.mark.parametrize("year", ["2022", "2023", "2024", "2025"])
def test_every_recorded_engine_line_and_answer_parses(year: str) -> None:
    # Every line the official engine sent in a recorded 1000-round match, and every answer the
    # skeleton bot gave, round-trips through our parser and formatter.
    for path in sorted((TRANSCRIPTS / year).glob("*.txt.gz")):
        with gzip.open(path, "rt") as transcript:
            rows = transcript.read().splitlines()
        sent = [row[3:] for row in rows if row.startswith("<< ")]
        answers = [row[3:] for row in rows if row.startswith(">> ")]
        assert len(sent) > 3000 and len(answers) == len(sent) - 1  # the final Q gets no answer
        for line in sent:
            parsed = parse_line(line)
            assert parsed.malformed == (), line
            assert isinstance(parsed.clauses[0], Clock | GameOver)
        for answer in answers:
            assert format_answer(Action.parse(answer)) == answer


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_fuzz_parse_line_never_raises_on_text(text: str) -> None:
    parsed = parse_line(text)
    assert len(parsed.clauses) + len(parsed.malformed) == len(text.split())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="TPHFCKRABUNODGYQ0123456789-.,_#cdhsAKQJT ", max_size=60))
def test_fuzz_protocol_alphabet_clauses_parse_or_raise_value_error(text: str) -> None:
    for clause in text.split():
        try:
            parse_clause(clause)
        except ValueError as error:
            assert repr(clause) in str(error)

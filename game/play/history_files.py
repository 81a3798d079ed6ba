"""Hand history files of either format (JSON lines, ``game.play.history``; PHH, ``game.play.phh``):
open a writer by the file name, read a history back, and ``replay`` it through the rules.

``replay(path)`` rebuilds each round from its deck, events and match state, applies the recorded
actions (checking the seat to act and legality), and checks the round ends, used exactly the
recorded chance outcomes, and pays the recorded payoffs; it reports the first mismatch by line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from game.cards.deck import format_cards, parse_cards
from game.dataclass_support import json_fields
from game.play.history import Fault, HistoryHeader, HistoryWriter, RoundRecord, read_history
from game.play.phh import PhhWriter, is_phh_path, read_phh
from game.rules.actions import Action, IllegalActionError
from game.rules.chance import ScriptedChance
from game.rules.nolimit import NoLimitRound


def open_history_writer(destination: str | Path | IO[str], header: HistoryHeader) -> Any:
    """A ``PhhWriter`` for a ``.phh``/``.phhs`` path (``game.play.phh``), else a JSON-lines ``HistoryWriter``."""
    if isinstance(destination, (str, Path)) and is_phh_path(destination):
        return PhhWriter(destination, header)
    return HistoryWriter(destination, header)


@dataclass(frozen=True)
class ReplayReport:
    """What ``replay`` found: rounds verified, bankrolls by player (chips), the first mismatch if any."""

    path: str
    variant: str
    rounds_checked: int
    bankrolls: dict[str, int]
    mismatch: str | None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def to_dict(self) -> dict[str, Any]:
        return {**json_fields(self), "ok": self.ok}


class _Mismatch(Exception):
    """A recorded round that the rules do not reproduce (message says how)."""


def _replay_round(header: HistoryHeader, data: dict[str, Any]) -> NoLimitRound:
    """Re-run one round line; returns the finished round (paying the recorded payoffs), or raises ``_Mismatch``."""
    from game.rules.variants import start_round

    try:
        deck = [int(card) for card in parse_cards(data["deck"])] if data["deck"] else []
        events = {name: list(outcomes) for name, outcomes in data["events"].items()}
        match_state = None if data["match_state"] is None else tuple(data["match_state"])
        actions = list(data["actions"])
        recorded = [int(chips) for chips in data["payoffs"]]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise _Mismatch(f"malformed round record: {error}") from None
    try:
        round_ = start_round(header.config, ScriptedChance(deck, events), match_state=match_state)
    except ValueError as error:
        raise _Mismatch(f"the round cannot start: {error}") from None
    for number, text in enumerate(actions, start=1):
        seat_text, _, action_text = str(text).partition(":")
        if round_.is_terminal:
            raise _Mismatch(f"action {number} {text!r} comes after the end of the round")
        if seat_text != str(round_.to_act):
            raise _Mismatch(f"action {number} {text!r} is by seat {seat_text} but seat {round_.to_act} is to act")
        try:
            round_.apply(Action.parse(action_text))
        except IllegalActionError as error:
            raise _Mismatch(f"action {number} {text!r} is illegal: {error}") from None
        except ValueError as error:  # a malformed action, or the recorded deck ran out
            raise _Mismatch(f"action {number} {text!r} cannot be replayed: {error}") from None
    if not round_.is_terminal:
        raise _Mismatch(f"the round is not over after the {len(actions)} recorded actions: {round_!r}")
    used = round_.chance_log
    if list(used.deck) != deck or {name: list(o) for name, o in used.events.items()} != events:
        raise _Mismatch(
            f"the round used chance outcomes {format_cards(used.deck)!r} {dict(used.events)} "
            f"but the record lists {data['deck']!r} {data['events']}"
        )
    try:
        replayed = [int(chips) for chips in round_.payoffs()]
    except ValueError as error:
        raise _Mismatch(f"the payoffs cannot be computed: {error}") from None
    if replayed != recorded:
        raise _Mismatch(f"recorded payoffs {recorded} but the rules give {replayed}")
    return round_


def _record_of(data: dict[str, Any], round_: NoLimitRound) -> RoundRecord:
    """The record of a verified round line (``round_`` is its replay)."""
    seats = (str(data["seats"][0]), str(data["seats"][1]))
    index = int(data["round"])
    payoffs = round_.payoffs()
    return RoundRecord(
        round_index=index,
        deal_index=int(data["deal"]),
        seats=seats,
        match_state=None if data["match_state"] is None else tuple(data["match_state"]),  # type: ignore[arg-type]
        chance=round_.chance_log,
        moves=round_.history,
        payoffs=(int(payoffs[0]), int(payoffs[1])),
        faults=tuple(
            Fault(index, f["seat"], seats[f["seat"]], f["street"], f["problem"], Action.parse(f["replacement"]))
            for f in data["faults"]
        ),
    )


def read_records(path: str | Path) -> tuple[HistoryHeader, list[RoundRecord]]:
    """The header and every round of a history (JSON lines, or PHH for ``.phh``/``.phhs``), each
    verified by replaying it; ``ValueError`` naming the first round that does not replay."""
    header, rounds, mismatch = _verify(path)
    if mismatch is not None:
        raise ValueError(f"{path}: {mismatch}")
    return header, rounds


def replay(path: str | Path) -> ReplayReport:
    """Re-run every round of the history at ``path`` and verify its recorded payoffs.

    Stops at the first mismatch, reported as ``"line L (round i): ..."``. Bankrolls are the
    recorded payoffs summed by player (chips), over the rounds verified. A ``.phh``/``.phhs``
    path is read as PHH (``game.play.phh``; a malformed hand raises ``ValueError`` naming it)
    and its rounds verified the same way, reported as ``"<file> hand [n] (line L): ..."``.
    """
    header, rounds, mismatch = _verify(path)
    bankrolls = dict.fromkeys(header.players, 0)
    for record in rounds:
        for seat, player in enumerate(record.seats):
            bankrolls[player] += record.payoffs[seat]
    return ReplayReport(str(path), header.variant, len(rounds), bankrolls, mismatch)


def _verify(path: str | Path) -> tuple[HistoryHeader, list[RoundRecord], str | None]:
    """The header, the rounds verified in order, and the first mismatch (``None`` if all are)."""
    if is_phh_path(path):
        header, records = read_phh(path)
        rounds: list[tuple[str, str]] = [(where, record.to_json()) for where, record in records]
    else:
        header, lines = read_history(path)
        rounds = [(f"line {number}", line) for number, line in lines]
    verified: list[RoundRecord] = []
    mismatch = None
    for where, line in rounds:
        try:
            try:
                data = json.loads(line)
            except json.JSONDecodeError as error:
                raise _Mismatch(f"not JSON: {error}") from None
            if not isinstance(data, dict):
                raise _Mismatch(f"expected a JSON object, got {data!r}")
            where = f"{where} (round {data.get('round', '?')})"
            seats = data.get("seats")
            if not isinstance(seats, list) or sorted(seats) != sorted(header.players):
                raise _Mismatch(f"seats {seats!r} are not the players {list(header.players)}")
            round_ = _replay_round(header, data)
            try:
                verified.append(_record_of(data, round_))
            except (KeyError, TypeError, ValueError, IndexError) as error:
                raise _Mismatch(f"malformed fault record: {error!r}") from None
        except _Mismatch as error:
            mismatch = f"{where}: {error}"
            break
    if mismatch is None and len(verified) != header.rounds:
        mismatch = f"the header announces {header.rounds} rounds but {len(verified)} are recorded"
    return header, verified, mismatch

"""Hand histories in JSON lines, and ``replay`` that re-runs them through the rules and checks them.

Format ``vcfr-hand-history`` version 1, one JSON object per line (UTF-8):

- Line 1, the header: ``{"format": "vcfr-hand-history", "version": 1, "variant": "holdem",
  "config": {every field of the variant's config}, "seed": 7 or null, "players": [A, B],
  "rounds": N, "duplicate": false}``.
- Then one line per round, in play order: ``{"round": i, "deal": d, "seats": [player at seat 0,
  player at seat 1], "match_state": null or by seat (Bounty: [rank of seat 0, rank of seat 1],
  ranks 0..12), "deck": "Ah Kd ..." (every card dealt, in deal order, see ``game.rules.nolimit``),
  "events": {"swap": [true, false, ...]}, "actions": ["0:R6", "1:C", ...] (seat:action as played,
  after any replacement of a faulty bot's action), "payoffs": [chips to seat 0, chips to seat 1],
  "faults": [{"seat": 1, "street": 3, "problem": "...", "replacement": "K"}]}``.

``replay(path)`` rebuilds each round from its deck, events and match state, applies the recorded
actions (checking the seat to act and legality), and checks the round ends, used exactly the
recorded chance outcomes, and pays the recorded payoffs; it reports the first mismatch by line.

>>> import io, json
>>> from game.rules.holdem import HoldemConfig
>>> header = HistoryHeader("holdem", HoldemConfig(), seed=1, players=("a", "b"), rounds=1, duplicate=False)
>>> json.loads(header.to_json())["config"]["stack"]
400
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any, Self

from game.cards.deck import format_cards, parse_cards
from game.rules.actions import Action, IllegalActionError, Move
from game.rules.chance import ChanceLog, ScriptedChance
from game.rules.nolimit import NoLimitConfig, NoLimitRound

HISTORY_FORMAT = "vcfr-hand-history"
HISTORY_VERSION = 1


@dataclass(frozen=True)
class Fault:
    """A bot's exception or illegal action, and the action played instead (check, fold or bid 0)."""

    round_index: int
    seat: int
    player: str
    street: int
    problem: str
    """``"raised ValueError: ..."`` or the ``IllegalActionError`` message naming the action."""
    replacement: Action


@dataclass(frozen=True)
class RoundRecord:
    """One played round: who sat where, every chance outcome, the actions and the payoffs (chips)."""

    round_index: int
    deal_index: int
    """Rounds with the same deal index share cards (duplicate matches); else equal to ``round_index``."""
    seats: tuple[str, str]
    """Player names by seat (seat 0 = dealer)."""
    match_state: tuple[int, int] | None
    """By seat (Bounty: ranks 0..12); ``None`` for variants without match state."""
    chance: ChanceLog
    moves: tuple[Move, ...]
    payoffs: tuple[int, int]
    """Chips won by seat 0 and seat 1 (sum 0)."""
    faults: tuple[Fault, ...] = field(default=())

    def to_json(self) -> str:
        """The round's history line (no newline)."""
        return json.dumps(
            {
                "round": self.round_index,
                "deal": self.deal_index,
                "seats": list(self.seats),
                "match_state": None if self.match_state is None else list(self.match_state),
                "deck": format_cards(self.chance.deck),
                "events": {name: list(outcomes) for name, outcomes in self.chance.events.items()},
                "actions": [str(move) for move in self.moves],
                "payoffs": list(self.payoffs),
                "faults": [
                    {"seat": f.seat, "street": f.street, "problem": f.problem, "replacement": str(f.replacement)}
                    for f in self.faults
                ],
            }
        )


@dataclass(frozen=True)
class HistoryHeader:
    """The first line of a history: variant, its full config, seed, players, rounds, duplicate."""

    variant: str
    config: NoLimitConfig
    seed: int | None
    players: tuple[str, str]
    rounds: int
    duplicate: bool

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": HISTORY_FORMAT,
                "version": HISTORY_VERSION,
                "variant": self.variant,
                "config": asdict(self.config),
                "seed": self.seed,
                "players": list(self.players),
                "rounds": self.rounds,
                "duplicate": self.duplicate,
            }
        )

    @classmethod
    def from_json(cls, line: str) -> HistoryHeader:
        """Parse and check a header line (format, version, a valid config for the variant)."""
        from game.rules.variants import get_variant

        data = json.loads(line)
        if not isinstance(data, dict) or data.get("format") != HISTORY_FORMAT:
            raise ValueError(f"not a {HISTORY_FORMAT} header: {line.strip()[:120]!r}")
        if data.get("version") != HISTORY_VERSION:
            raise ValueError(
                f"history format version {data.get('version')!r} is not supported (expected {HISTORY_VERSION})"
            )
        variant = get_variant(data["variant"])
        return cls(
            variant=variant.name,
            config=variant.config_class(**data["config"]),
            seed=data["seed"],
            players=tuple(data["players"]),  # type: ignore[arg-type]
            rounds=int(data["rounds"]),
            duplicate=bool(data["duplicate"]),
        )


class TextSink:
    """A path (opened for writing, replacing any old file, closed by :meth:`close`) or an open text
    file (flushed by :meth:`close`, left open); a context manager. The base of the history writers."""

    def __init__(self, destination: str | Path | IO[str]) -> None:
        if isinstance(destination, (str, Path)):
            self._file: IO[str] = open(destination, "w", encoding="utf-8")  # noqa: SIM115 - closed in close()
            self._owned = True
        else:
            self._file = destination
            self._owned = False

    def close(self) -> None:
        if self._owned:
            self._file.close()
        else:
            self._file.flush()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class HistoryWriter(TextSink):
    """Writes a header and then one line per round to a path or an open text file.

    Use as a context manager; a path is opened for writing (replacing any old file).
    """

    def __init__(self, destination: str | Path | IO[str], header: HistoryHeader) -> None:
        super().__init__(destination)
        self._file.write(header.to_json() + "\n")

    def write(self, record: RoundRecord) -> None:
        self._file.write(record.to_json() + "\n")


def open_history_writer(destination: str | Path | IO[str], header: HistoryHeader) -> Any:
    """A ``PhhWriter`` for a ``.phh``/``.phhs`` path (``game.play.phh``), else a JSON-lines ``HistoryWriter``."""
    from game.play.phh import PhhWriter, is_phh_path

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
        return {
            "path": self.path,
            "variant": self.variant,
            "ok": self.ok,
            "rounds_checked": self.rounds_checked,
            "bankrolls": self.bankrolls,
            "mismatch": self.mismatch,
        }


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


def read_history(path: str | Path) -> tuple[HistoryHeader, list[tuple[int, str]]]:
    """The header of the history at ``path`` and its round lines as ``(line number, text)``."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    if not lines:
        raise ValueError(f"{path} is empty: a history starts with a {HISTORY_FORMAT} header line")
    header = HistoryHeader.from_json(lines[0])
    return header, [(number, line) for number, line in enumerate(lines[1:], start=2) if line.strip()]


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
    from game.play.phh import is_phh_path, read_phh

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

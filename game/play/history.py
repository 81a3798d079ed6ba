"""Hand histories: the round and header records, and their JSON-lines format.

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

Reading a history back and checking it against the rules (either format): ``game.play.history_files``.

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
from typing import IO, Self

from game.cards.deck import format_cards
from game.rules.actions import Action, Move
from game.rules.chance import ChanceLog
from game.rules.nolimit import NoLimitConfig

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


def read_history(path: str | Path) -> tuple[HistoryHeader, list[tuple[int, str]]]:
    """The header of the history at ``path`` and its round lines as ``(line number, text)``."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    if not lines:
        raise ValueError(f"{path} is empty: a history starts with a {HISTORY_FORMAT} header line")
    header = HistoryHeader.from_json(lines[0])
    return header, [(number, line) for number, line in enumerate(lines[1:], start=2) if line.strip()]

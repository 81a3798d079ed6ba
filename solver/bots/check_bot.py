"""Check an exported bot folder without the official engine (``vcfr check-bot``).

`check_bot` runs the folder's warm-up (``player.py --warm-up``, `solver.bots.export_bot.warm_up`),
then starts the folder's bot as the engine would (``commands.json``, a TCP port on 127.0.0.1, no
``PYTHONPATH``: only what the folder holds) and plays ``rounds`` rounds of its year's game against
a baseline bot in the local engine (`game.pokerbots.local_engine.LocalEngine`: our rules deal
and judge, the year's wire protocol, the game clock). The baseline answers through the same
client as the bot (`game.pokerbots.session.ClientSession`), in this process.

The report (`CheckReport`): the bot's bankroll (chips) and win rate (mbb/hand with a 95%
interval), its faults by kind (`game.pokerbots.local_engine.FAULT_KINDS`, plus ``warm_up``: the
warm-up failed), its decision times as the engine measures them (the round trip of each query
but the acks; p50, p99, max in ms) and the game clock it used. A sound bot has no fault.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from game.dataclass_support import json_fields
from game.pokerbots.engines import engine_rules
from game.pokerbots.local_engine import (
    FAULT_KINDS,
    EnginePlayer,
    LocalEngine,
    SessionEndpoint,
    engine_config,
    launch_bot,
    read_commands,
)

OPPONENTS = ("equity", "checkcall", "random")
"""Baselines of ``game.play.bots`` the bot can be checked against."""
WARM_UP_FAULT = "warm_up"
ENGINE_ROUNDS = 1000
"""Rounds of an official match: the clock used is also given per this many rounds."""


class BotFolderError(ValueError):
    """A folder that is not a bot of ``vcfr export-bot`` (a runtime error of ``vcfr check-bot``,
    exit code 1, where a bad ``--rounds`` or ``--opponent`` is a usage error)."""


@dataclass(frozen=True)
class CheckReport:
    """What `check_bot` measured. Chips, mbb/hand (thousandths of a big blind per round),
    milliseconds and seconds as named."""

    folder: str
    variant: str
    year: int
    opponent: str
    rounds: int
    seed: int
    bankroll: int
    mbb_per_hand: float | None
    ci95_mbb_per_hand: float | None
    faults: dict[str, int]
    fault_notes: tuple[str, ...]
    decisions: int
    decision_ms: dict[str, float | None]
    """``p50``, ``p99`` and ``max`` of the decisions' round trips (ms); ``None`` without decisions."""
    clock_seconds: float
    clock_used_seconds: float
    warm_up_seconds: float
    peak_memory_bytes: int | None
    """Of the warm-up run (maximum resident set size); ``None`` if it failed or is not reported."""
    log_tail: str
    """The end of the bot's output (its log)."""

    @property
    def ok(self) -> bool:
        """No fault of any kind."""
        return not any(self.faults.values())

    def as_json(self) -> dict[str, Any]:
        """JSON-ready values (``vcfr check-bot --json``): every field but ``log_tail``, the clock used
        per 1,000 rounds (the engine's match length) and ``ok``."""
        return {
            **json_fields(self, exclude=("log_tail",)),
            "clock_used_seconds_per_1000_rounds": self.clock_used_seconds * ENGINE_ROUNDS / max(self.rounds, 1),
            "ok": self.ok,
        }


def check_bot(folder: str | Path, *, rounds: int = 200, opponent: str = "equity", seed: int = 0) -> CheckReport:
    """Warm up and play ``rounds`` rounds of the folder's bot against ``opponent`` in the local engine.

    :class:`BotFolderError` (one line) for a folder that is not an export (no ``bot.json`` or
    ``commands.json``), ValueError for an unknown opponent or ``rounds < 1``; everything the bot
    does wrong is in the report."""
    from game.play.bots import make_bot
    from game.play.match import mbb_per_hand
    from game.pokerbots.session import ClientSession, bot_decider
    from solver.bots.export_bot import BotSpec, warm_up

    root = Path(folder)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"--rounds must be an integer >= 1, got {rounds!r}")
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r}: known are {', '.join(OPPONENTS)}")
    if not (root / "bot.json").is_file():
        raise BotFolderError(f"{str(folder)!r} has no bot.json: not a folder written by vcfr export-bot")
    try:
        spec = BotSpec.read(root)
        read_commands(root)  # a folder the engine cannot start is refused before any work
    except (OSError, KeyError, TypeError, ValueError) as error:
        raise BotFolderError(f"{str(folder)!r} is not a bot folder of vcfr export-bot ({error})") from None
    rules = engine_rules(spec.variant)
    faults = dict.fromkeys((WARM_UP_FAULT, *FAULT_KINDS), 0)
    notes: list[str] = []

    started = time.perf_counter()
    peak_memory = None
    try:
        peak_memory = warm_up(root).get("peak_memory_bytes")
    except RuntimeError as error:
        faults[WARM_UP_FAULT] += 1
        notes.append(f"{WARM_UP_FAULT}: {' '.join(str(error).split())[-500:]}")
    warm_up_seconds = time.perf_counter() - started

    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    with tempfile.TemporaryFile() as log:
        launched = launch_bot(root, log, environment=environment)
        winnings = np.zeros(0, dtype=np.int64)
        bot = None
        try:
            if launched.endpoint is None:
                faults["crash"] += 1
                notes.append(f"crash: the bot {launched.problem}")
            else:
                bot = EnginePlayer("bot", launched.endpoint, rules.game_clock_seconds)
                baseline = make_bot(opponent, config=engine_config(rules), seed=seed + 1)
                session = ClientSession(rules, bot_decider(baseline))
                other = EnginePlayer(opponent, SessionEndpoint(session), rules.game_clock_seconds)
                engine = LocalEngine(rules, (bot, other))
                winnings = engine.play_match(rounds, seed)
        finally:
            _code, crash = launched.finish()
        if crash is not None and launched.endpoint is not None:
            faults["crash"] += 1
            notes.append(f"crash: the bot {crash}")
        log.seek(0)
        log_tail = log.read()[-2000:].decode(errors="replace")

    if bot is not None:
        for kind, count in bot.faults.items():
            faults[kind] += count
        notes.extend(bot.fault_notes)
    seconds = np.array(bot.decision_seconds if bot is not None else [], dtype=np.float64) * 1000.0
    decision_ms: dict[str, float | None] = {
        "p50": float(np.percentile(seconds, 50)) if len(seconds) else None,
        "p99": float(np.percentile(seconds, 99)) if len(seconds) else None,
        "max": float(seconds.max()) if len(seconds) else None,
    }
    mean, half_width = mbb_per_hand(winnings, rules.big_blind) if len(winnings) else (None, None)
    return CheckReport(
        folder=str(root),
        variant=rules.variant,
        year=rules.year,
        opponent=opponent,
        rounds=len(winnings),
        seed=seed,
        bankroll=int(winnings.sum()),
        mbb_per_hand=mean,
        ci95_mbb_per_hand=half_width,
        faults=faults,
        fault_notes=tuple(notes),
        decisions=len(seconds),
        decision_ms=decision_ms,
        clock_seconds=rules.game_clock_seconds,
        clock_used_seconds=0.0 if bot is None else rules.game_clock_seconds - bot.clock_seconds,
        warm_up_seconds=warm_up_seconds,
        peak_memory_bytes=peak_memory,
        log_tail=log_tail,
    )

"""Blueprint bots in the OFFICIAL MIT Pokerbots engines: duplicate matches against the year's
skeleton bot and our equity bot, with illegal actions, timeouts, crashes and decision times.

Per year and opponent (`play_official`): two matches of ``rounds / 2`` rounds in the year's
unmodified ``engine.py``, our bot first as the engine's player 1, then as player 2, on the same
deals. Round ``r`` of match 1 and round ``r`` of match 2 form a duplicate pair (same cards, seats
swapped); the result is mbb/hand (big blind from the engine's ``config.py``) with a 95% normal
interval over pairs. The game logs give per-round deltas and every illegal action, misformatted
answer, timeout and disconnect; engine output and the players' logs give crashes; our bot's
decision times are measured inside its own process (``game.pokerbots.client``, ``VCFR_DECISION_SECONDS``).

Getting the engines (they are not part of this project; pass their parent folder as ``--engines``)::

    mkdir engines && cd engines
    for year in 2022 2023 2024 2025; do git clone https://github.com/mitpokerbots/engine-$year; done

The engines need ``eval7`` (``pip install eval7``) in the interpreter running this script. Each
engine's checkout is only read: the engine runs in a child process of this script
(``--engine-runner``) that loads the checkout's ``config.py`` as the module ``config`` with our
overrides (player names and paths, ``NUM_ROUNDS``), binds the engine's listening socket to
127.0.0.1 instead of all interfaces, and seeds Python's ``random`` before every round.

Duplicate deals. The engines draw all chance from Python's global ``random`` (``eval7.Deck.shuffle``,
2025's bounty ranks, 2022's swaps). Seeding once per match is not enough: the 2022 engine draws its
four swap events with ``random.random()`` only when a round reaches the flop (again at the turn),
so the stream, and every later deal, would depend on play. The runner therefore re-seeds ``random``
from ``(seed, round number)`` before each round (the bounty draw of 2025 included), which makes
every round's chance independent of play in all four engines: both matches see the same hole
cards, boards, bounties and swap outcomes wherever both reach them. This is checked from the game
logs (``identical_deals``), not assumed. (Seen on 2022 with our random bot against the skeleton,
100 rounds a match: seeded once per match, 5 of 100 rounds repeated their deal; seeded every
round, 100 of 100: ``play_official(..., seed_every_round=False)``.) Only the deals repeat: the skeleton bots of 2024 and 2025
call ``random`` unseeded in their own processes, so their play differs between the two matches.

Run: ``python experiments/official_engines.py --years 2022,2023,2024,2025 --bots build/blueprints
--engines engines --rounds 2000 --out results/official_engines``. A year's bot is the strategy file
``<bots>/<year>/blueprint_<variant>.h5`` of a finished blueprint run (``<bots>/<year>/export.json``
present), exported here with lock-in OFF (``vcfr export-bot --bot lookup --no-lock-in``, which
adapts to its opponent unless ``--no-adapt``; with ``--resolve``, the re-solving bot of that file,
``vcfr export-bot --resolve --no-lock-in``, which paces its re-solves by the engine's game clock and
adapts too unless ``--no-adapt``);
the equity opponent is ``vcfr export-bot --bot equity --no-adapt``. A year without a finished
blueprint gets a row saying so.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import harness
import numpy as np

PROJECT_ROOT = harness.ROOT
YEARS = ("2022", "2023", "2024", "2025")
VARIANTS = {"2022": "swap", "2023": "river_of_blood", "2024": "auction", "2025": "bounty"}
"""The official engine of each year and its variant (`game.pokerbots.engines.ENGINE_RULES`)."""
OPPONENTS = ("skeleton", "equity")
ENGINE = "engine"
"""Key of crashes of the match itself (engine exit code, missing or short game log)."""
OUR_NAME = "blueprint"
"""Our bot's player name in the engine (its game-log name and its log file ``blueprint.txt``)."""
DECISION_SECONDS_ENV = "VCFR_DECISION_SECONDS"
"""Same as ``game.pokerbots.client.DECISION_SECONDS_ENV`` (kept literal: the engine runner imports nothing of ours)."""
P99_TARGET_MS = 2.0
"""Issue 11: p99 decision time in the official engine at most 2 ms (the lookup bot)."""
CLOCK_USED_TARGET = 0.6
"""Issue 23: game clock used at the end of each match at most 60% of the starting clock (the
re-solving bot, whose re-solves take tens of milliseconds: decision times are reported, no target)."""
CLONE_HINT = "git clone https://github.com/mitpokerbots/engine-{year}"


# --------------------------------------------------------------------------------------------
# The engine runner: a child process that plays one match in an unmodified engine.py.


class _LoopbackSocket(socket.socket):
    """``socket.socket`` whose ``bind(('', port))`` binds 127.0.0.1 (the engines bind all interfaces)."""

    def bind(self, address: Any) -> None:
        if isinstance(address, tuple) and address and address[0] in ("", "0.0.0.0"):
            address = ("127.0.0.1", *address[1:])
        super().bind(address)


def round_seed(seed: int, round_number: int) -> str:
    """The value ``random.seed`` gets before round ``round_number`` (1-based) of a match.

    >>> round_seed(7, 12)
    'vcfr-official-engines:7:12'
    """
    return f"vcfr-official-engines:{seed}:{round_number}"


def load_engine_config(engine_dir: Path) -> dict[str, Any]:
    """The public names ``engine_dir/config.py`` defines (executed, as the engine imports it)."""
    path = Path(engine_dir) / "config.py"
    namespace: dict[str, Any] = {"__name__": "config", "__file__": str(path)}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return {name: value for name, value in namespace.items() if not name.startswith("_")}


def run_engine(spec: dict[str, Any]) -> None:
    """Play one match: ``spec`` has ``engine`` (engine.py), ``config`` (overrides), ``seed`` and
    optionally ``seed_every_round`` (default true; false seeds ``random`` once, before round 1).

    Runs in the current process and working directory (where the engine writes its logs)."""
    engine = Path(spec["engine"])
    config = types.ModuleType("config")
    config.__dict__.update(load_engine_config(engine.parent))
    config.__dict__.update(spec["config"])
    sys.modules["config"] = config  # the engine's `from config import *` takes this module
    socket.socket = _LoopbackSocket  # type: ignore[misc]
    namespace: dict[str, Any] = {"__name__": "official_engine", "__file__": str(engine)}
    exec(compile(engine.read_text(), str(engine), "exec"), namespace)
    game_class = namespace["Game"]
    play_round = game_class.run_round
    seed = int(spec["seed"])
    next_round = itertools.count(2)

    def run_round(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return play_round(self, *args, **kwargs)
        finally:
            random.seed(round_seed(seed, next(next_round)))  # before the next round's draws

    if spec.get("seed_every_round", True):
        game_class.run_round = run_round
    random.seed(round_seed(seed, 1))
    game_class().run()


# --------------------------------------------------------------------------------------------
# Game logs.

_FINAL = re.compile(r"^Final, (\S+) \((-?\d+)\), (\S+) \((-?\d+)\)$")
_EVENTS = (
    ("illegal", re.compile(r"^(\S+) attempted illegal \S+")),
    ("misformatted", re.compile(r"^(\S+) response misformatted: ")),
    ("timeouts", re.compile(r"^(\S+) ran out of time$")),
    ("disconnects", re.compile(r"^(\S+) disconnected$")),
)
EVENT_KINDS = ("illegal", "misformatted", "timeouts", "disconnects", "crashes")


@dataclasses.dataclass
class LoggedRound:
    """One round of an engine game log. Seats: 0 is the dealer (small blind), 1 the big blind."""

    number: int
    seats: tuple[str, str]
    deltas: dict[str, int] = dataclasses.field(default_factory=dict)
    hands: list[str] = dataclasses.field(default_factory=list)
    """Hole cards dealt, by seat."""
    boards: list[str] = dataclasses.field(default_factory=list)
    """Every board shown, in order (flop, turn, river, River of Blood runs)."""
    updated_hands: list[str] = dataclasses.field(default_factory=list)
    """2022: both seats' hands after the swaps of each street reached, seat 0 first."""
    bounties: tuple[str, str] | None = None
    """2025: the bounty ranks drawn before this round, by seat, if drawn."""

    def deal(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "boards": self.boards,
            "updated_hands": self.updated_hands,
            "bounties": self.bounties,
        }


@dataclasses.dataclass
class GameLog:
    """What `parse_game_log` reads from one engine game log."""

    rounds: list[LoggedRound]
    events: list[tuple[str, str, int, str]]
    """``(kind, player, round number, log line)`` for every illegal action, misformatted answer,
    timeout and disconnect."""
    final: dict[str, int] | None
    """Final bankrolls by player name, if the log has its ``Final`` line."""


def parse_game_log(text: str) -> GameLog:
    """Rounds, events and final bankrolls of an engine game log (2022-2025 formats).

    >>> log = parse_game_log("6.9630 MIT Pokerbots - A vs B\\n\\nRound #1, A (0), B (0)\\n"
    ...                      "A posts the blind of 1\\nB posts the blind of 2\\nA dealt [Ah Kd]\\n"
    ...                      "B dealt [2c 7d]\\nA attempted illegal RaiseAction\\nA folds\\n"
    ...                      "A awarded -1\\nB awarded 1\\n\\nFinal, A (-1), B (1)")
    >>> log.rounds[0].deltas, log.rounds[0].hands, log.events[0][:3], log.final
    ({'A': -1, 'B': 1}, ['Ah Kd', '2c 7d'], ('illegal', 'A', 1), {'A': -1, 'B': 1})
    """
    # the line patterns of the project's game-log reader (imported here: the engine runner, which
    # loads this script in the engine's process, does not need the project)
    from game.pokerbots.gamelog import AWARDED_LINE, BOUNTIES_LINE, DEALT_LINE, HAND_LINE, ROUND_LINE, STREET_LINE

    rounds: list[LoggedRound] = []
    events: list[tuple[str, str, int, str]] = []
    final = None
    for line in text.splitlines():
        line = line.rstrip()
        current = rounds[-1] if rounds else None
        if match := ROUND_LINE.match(line):
            rounds.append(LoggedRound(int(match[1]), (match[2], match[4])))
        elif match := _FINAL.match(line):
            final = {match[1]: int(match[2]), match[3]: int(match[4])}
        elif current is None:
            continue
        elif match := AWARDED_LINE.match(line):
            current.deltas[match[1]] = int(match[2])
        elif match := DEALT_LINE.match(line):
            current.hands.append(match[2])
        elif match := STREET_LINE.match(line):
            current.boards.append(match[2])
        elif match := HAND_LINE.match(line):
            current.updated_hands.append(match[2])
        elif match := BOUNTIES_LINE.match(line):
            by_name = {match[2]: match[1], match[4]: match[3]}
            current.bounties = (by_name.get(current.seats[0], "?"), by_name.get(current.seats[1], "?"))
        else:
            for kind, pattern in _EVENTS:
                if match := pattern.match(line):
                    events.append((kind, match[1], current.number, line))
                    break
    return GameLog(rounds, events, final)


def compare_deals(first: LoggedRound, second: LoggedRound) -> bool:
    """True if two rounds dealt the same cards wherever both show them: hole cards and bounties by
    seat, boards up to the shorter of the two, 2022's post-swap hands for the streets both reached."""
    if first.hands != second.hands or first.bounties != second.bounties:
        return False
    shared = min(len(first.boards), len(second.boards))
    if first.boards[:shared] != second.boards[:shared]:
        return False
    shared = min(len(first.updated_hands), len(second.updated_hands))
    return first.updated_hands[:shared] == second.updated_hands[:shared]


# --------------------------------------------------------------------------------------------
# Duplicate aggregation.


def duplicate_summary(ours_first: list[int], ours_second: list[int], big_blind: int) -> dict[str, Any]:
    """mbb/hand of our bot over duplicate pairs and its 95% interval.

    ``ours_first[r]`` and ``ours_second[r]`` are our chips in round ``r`` of the two matches (same
    deal, seats swapped). A pair's value is the mean of its two rounds; the interval is
    Student's (`game.play.match.interval_95`) over the pair values, in milli big blinds per hand. Unpaired rounds (one
    match shorter) are left out and counted.

    >>> summary = duplicate_summary([10, -4, 6], [-6, 8, 0], 2)  # pairs of 2, 2, 3 chips; big blind 2
    >>> summary["pairs"], summary["mbb_per_hand"], round(summary["ci95_mbb"], 1)
    (3, 1166.7, 717.1)
    >>> duplicate_summary([1], [], 2)["mbb_per_hand"] is None
    True
    """
    if big_blind <= 0:
        raise ValueError(f"big blind must be positive, got {big_blind!r}")
    pairs = min(len(ours_first), len(ours_second))
    values = (np.asarray(ours_first[:pairs], dtype=float) + np.asarray(ours_second[:pairs], dtype=float)) / 2
    scale = 1000.0 / big_blind
    mean = float(values.mean()) * scale if pairs else None
    from game.play.match import interval_95  # lazily: the engine-side runner of this file imports nothing of ours

    half_width = interval_95(values)
    interval = None if half_width is None else half_width * scale
    return {
        "pairs": pairs,
        "unpaired_rounds": abs(len(ours_first) - len(ours_second)),
        "mbb_per_hand": None if mean is None else round(mean, 1),
        "ci95_mbb": interval,
        "chips_total": int(sum(ours_first) + sum(ours_second)),
    }


def decision_summary(seconds: list[float]) -> dict[str, Any]:
    """Count, p50, p99 and max of decision times, in ms.

    >>> decision_summary([0.001, 0.002, 0.003])["p50_ms"]
    2.0
    >>> decision_summary([])["p99_ms"] is None
    True
    """
    if not seconds:
        return {"count": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}
    milliseconds = np.asarray(seconds, dtype=float) * 1000
    return {
        "count": int(milliseconds.size),
        "p50_ms": round(float(np.percentile(milliseconds, 50)), 4),
        "p99_ms": round(float(np.percentile(milliseconds, 99)), 4),
        "max_ms": round(float(milliseconds.max()), 4),
    }


# --------------------------------------------------------------------------------------------
# Players, engine output, one match.

_MATCH_OVER = re.compile(
    r"match over: (\d+) rounds, bankroll (-?\d+), (\d+) repairs, (\d+) errors, game clock left ([\d.]+) s"
)
_BOT_COUNTERS = re.compile(r"; bot: (.*)$")
_CRASH_MARKERS = ("Traceback (most recent call last)", " ERROR ", " CRITICAL ")
_BENIGN_ENGINE_LINES = ("connected successfully", "ran out of time", "disconnected")


def engine_checkout(engine_dir: Path, year: str) -> Path:
    """``engine_dir/engine-<year>``, checked to hold ``engine.py`` and ``config.py``."""
    checkout = Path(engine_dir) / f"engine-{year}"
    for name in ("engine.py", "config.py"):
        if not (checkout / name).is_file():
            raise FileNotFoundError(
                f"official engine {year} not found: expected {checkout / name} "
                f"(get it with `{CLONE_HINT.format(year=year)} {checkout}`)"
            )
    return checkout


def engine_commit(checkout: Path) -> str | None:
    """The checkout's git commit (``git rev-parse HEAD``), or ``None`` if it is not a git checkout."""
    if not (Path(checkout) / ".git").exists():
        return None
    done = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def _wrap_player(bot_dir: Path, wrapper: Path, seconds_file: Path) -> Path:
    """A player folder whose commands run ``bot_dir``'s own commands there, with
    ``VCFR_DECISION_SECONDS`` set for that bot only (the engine gives both bots its environment)."""
    commands = json.loads((bot_dir / "commands.json").read_text())
    launcher = (
        "import os, sys; os.environ[sys.argv[1]] = sys.argv[2]; os.chdir(sys.argv[3]); "
        "os.execvp(sys.argv[4], sys.argv[4:])"
    )
    prefix = [sys.executable, "-c", launcher, DECISION_SECONDS_ENV, str(seconds_file), str(bot_dir.resolve())]
    wrapper.mkdir(parents=True, exist_ok=True)
    wrapped = {key: (prefix + list(commands[key]) if commands.get(key) else []) for key in ("build", "run")}
    (wrapper / "commands.json").write_text(json.dumps(wrapped))
    return wrapper


def _player_log_findings(text: str) -> tuple[list[str], dict[str, Any] | None, int]:
    """Crash lines, our client's ``match over`` summary and its ``bot failed`` count from a player log."""
    crashes = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if any(marker in line for marker in _CRASH_MARKERS):
            detail = line
            if line.startswith("Traceback"):  # name the exception: the traceback's last line
                tail = next((row for row in lines[index + 1 :] if row and not row.startswith((" ", "\t"))), "")
                detail = f"{line} ... {tail}"
            crashes.append(detail.strip())
    summary = None
    for line in lines:
        if match := _MATCH_OVER.search(line):
            summary = {
                "rounds": int(match[1]),
                "bankroll": int(match[2]),
                "repairs": int(match[3]),
                "errors": int(match[4]),
                "clock_left_seconds": float(match[5]),
            }
            if counters := _BOT_COUNTERS.search(line):  # the bot's own counts (decisions, re-solves, ...)
                summary["bot"] = {
                    name.replace("-", "_"): int(value) for value, name in re.findall(r"(\d+) ([a-z-]+)", counters[1])
                }
    failures = sum("bot failed" in line for line in lines)
    return crashes, summary, failures


def _engine_output_crashes(text: str, names: tuple[str, str]) -> dict[str, list[str]]:
    """Engine output lines about a player that are not routine (connect/build/run failures, hangs)."""
    found: dict[str, list[str]] = {name: [] for name in names}
    for line in text.splitlines():
        line = line.strip()
        if not line or any(line.endswith(benign) for benign in _BENIGN_ENGINE_LINES):
            continue
        for name in names:
            if re.search(rf"(^|\s){re.escape(name)}(\s|$)", line):
                found[name].append(line)
    return found


@dataclasses.dataclass
class MatchResult:
    """One engine match as played: player names by engine order, the parsed log and findings."""

    names: tuple[str, str]
    log: GameLog
    crashes: dict[str, list[str]]
    client: dict[str, Any] | None
    bot_failures: int
    decision_seconds: list[float]
    wall_seconds: float
    exit_code: int | None


def _match_crashes(
    engine_output: str, exit_code: int | None, timeout_seconds: float, game_log: Path, log: GameLog, rounds: int
) -> list[str]:
    """The match's own failures: stopped at the timeout, a non-zero engine exit (with its last output
    line), no game log, or a log short of ``rounds`` or without its Final line."""
    crashes = []
    if exit_code is None:
        crashes.append(f"match stopped after {timeout_seconds:.0f} s (engine did not finish)")
    elif exit_code != 0:
        last = [line for line in engine_output.splitlines() if line.strip()][-1:] or [""]
        crashes.append(f"engine exited with code {exit_code}: {last[0].strip()}")
    if not game_log.is_file():
        crashes.append(f"no game log written ({game_log})")
    elif log.final is None or len(log.rounds) != rounds:
        crashes.append(
            f"game log has {len(log.rounds)} of {rounds} rounds" + ("" if log.final is not None else ", no Final line")
        )
    return crashes


def play_match(
    engine: Path,
    players: list[tuple[str, Path]],
    rounds: int,
    seed: int,
    work: Path,
    *,
    seconds_file: Path,
    timeout_seconds: float,
    seed_every_round: bool = True,
) -> MatchResult:
    """One match in ``engine/engine.py`` (run by ``--engine-runner`` in ``work``), players in engine order."""
    work.mkdir(parents=True, exist_ok=True)
    for stale in (work / "gamelog.txt", seconds_file):
        stale.unlink(missing_ok=True)
    config = {"NUM_ROUNDS": rounds, "GAME_LOG_FILENAME": "gamelog"}
    for index, (name, path) in enumerate(players, start=1):
        config[f"PLAYER_{index}_NAME"] = name
        config[f"PLAYER_{index}_PATH"] = str(Path(path).resolve())
    spec = {
        "engine": str(Path(engine).resolve() / "engine.py"),
        "config": config,
        "seed": seed,
        "seed_every_round": seed_every_round,
    }
    (work / "match.json").write_text(json.dumps(spec, indent=1))
    environment = dict(os.environ)
    environment["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), environment.get("PATH", "")])
    environment.pop(DECISION_SECONDS_ENV, None)
    environment["PYTHONUNBUFFERED"] = "1"
    start = time.perf_counter()
    exit_code: int | None
    with open(work / "engine_output.txt", "wb") as output:
        process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--engine-runner", str(work / "match.json")],
            cwd=work,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=environment,
            start_new_session=True,
        )
        try:
            exit_code = process.wait(timeout=timeout_seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the runner and the bots it started
            process.wait()
            exit_code = None
    wall = time.perf_counter() - start
    names = (players[0][0], players[1][0])
    game_log = work / "gamelog.txt"
    log = parse_game_log(game_log.read_text()) if game_log.is_file() else GameLog([], [], None)
    engine_output = (work / "engine_output.txt").read_text(errors="replace")
    crashes = _engine_output_crashes(engine_output, names)
    crashes[ENGINE] = _match_crashes(engine_output, exit_code, timeout_seconds, game_log, log, rounds)
    client, failures = None, 0
    for name in names:
        player_log = work / f"{name}.txt"
        if not player_log.is_file():
            crashes[name].append(f"no player log {player_log.name}")
            continue
        found, summary, failed = _player_log_findings(player_log.read_text(errors="replace"))
        crashes[name].extend(found)
        if name == OUR_NAME:
            client, failures = summary, failed
    seconds = [float(row) for row in seconds_file.read_text().split()] if seconds_file.is_file() else []
    return MatchResult(names, log, crashes, client, failures, seconds, wall, exit_code)


# --------------------------------------------------------------------------------------------
# The library entry point.

ROLES = ("ours", "opponent", ENGINE)
"""Whose events a row counts: our bot, the opponent, the match itself."""


def _role(player: str) -> str:
    return "ours" if player == OUR_NAME else ENGINE if player == ENGINE else "opponent"


def export_folder(
    variant: str,
    bot: str,
    out: Path,
    *,
    strategy: Path | None = None,
    lock_in: bool = True,
    adapt: bool | None = None,
) -> dict[str, Any]:
    """``vcfr export-bot --variant V --bot B [--strategy S] [--no-lock-in] [--no-adapt] --out OUT``
    (reused if ``OUT/bot.json`` exists; ``adapt`` None: export-bot's default); returns the command
    and whether it was reused."""
    command = ["vcfr", "export-bot", "--variant", variant] + (["--resolve"] if bot == "resolve" else ["--bot", bot])
    command += ["--strategy", str(strategy)] if strategy is not None else []
    command += [] if lock_in else ["--no-lock-in"]
    command += ["--no-adapt"] if adapt is False else []
    command += ["--out", str(out)]
    reused = (out / "bot.json").is_file()
    if not reused:
        from solver.bots.export_bot import export_bot  # the installed project (pip install -e .)

        export_bot(variant, bot, out, strategy=strategy, lock_in=lock_in, adapt=adapt, force=True)
    return {"command": shlex.join(command), "reused": reused}


def opponent_folder(year: str, opponent: str, engine_dir: Path, work: Path) -> Path:
    """The opponent's player folder: the engine's ``python_skeleton`` (copied into ``work``, so the
    checkout is never written to) or our exported equity bot."""
    if opponent == "skeleton":
        target = work / "skeleton"
        if not target.is_dir():
            shutil.copytree(
                engine_checkout(engine_dir, year) / "python_skeleton",
                target,
                ignore=shutil.ignore_patterns("__pycache__"),
            )
        return target
    if opponent == "equity":
        target = work / "equity"
        export_folder(VARIANTS[year], "equity", target, adapt=False)  # the plain equity bot
        return target
    raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r}")


def _check_official(year: str, opponent: str, rounds: Any, bot_dir: Path) -> None:
    """ValueError (FileNotFoundError for the bot folder) naming a bad argument of :func:`play_official`."""
    if year not in VARIANTS:
        raise ValueError(f"year must be one of {', '.join(YEARS)}, got {year!r}")
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r}")
    if not (isinstance(rounds, int) and rounds >= 2 and rounds % 2 == 0):
        raise ValueError(f"rounds must be an even number >= 2 (two matches of rounds/2), got {rounds!r}")
    if not (bot_dir / "commands.json").is_file():
        raise FileNotFoundError(f"no bot folder at {bot_dir} (expected {bot_dir / 'commands.json'})")


def _play_seat_order(
    index: int,
    checkout: Path,
    bot_dir: Path,
    opponent: tuple[str, Path],
    rounds: int,
    seed: int,
    work: Path,
    timeout_seconds: float,
    seed_every_round: bool,
) -> MatchResult:
    """Match ``index`` of a duplicate pair: 1 with our bot the engine's player 1, 2 as player 2."""
    name = opponent[0]
    match_work = work / name / f"match{index}"
    seconds_file = match_work / "decision_seconds.txt"
    ours = (OUR_NAME, _wrap_player(bot_dir, work / name / f"wrapper{index}", seconds_file))
    order = [ours, opponent] if index == 1 else [opponent, ours]
    return play_match(
        checkout, order, rounds, seed, match_work, seconds_file=seconds_file, timeout_seconds=timeout_seconds,
        seed_every_round=seed_every_round,
    )  # fmt: skip


def _deal_agreement(matches: list[MatchResult]) -> dict[str, Any]:
    """How far the two matches dealt the same cards: rounds compared, identical deals, rounds whose
    seats are swapped with our bot in them, and the first five mismatches."""
    first_rounds = {logged.number: logged for logged in matches[0].log.rounds}
    compared = identical = swapped_seats = 0
    mismatches = []
    for logged in matches[1].log.rounds:
        other = first_rounds.get(logged.number)
        if other is None:
            continue
        compared += 1
        swapped_seats += other.seats == logged.seats[::-1] and OUR_NAME in logged.seats
        if compare_deals(other, logged):
            identical += 1
        elif len(mismatches) < 5:
            mismatches.append({"round": logged.number, "match1": other.deal(), "match2": logged.deal()})
    return {
        "rounds_compared": compared,
        "identical": identical,
        "seats_swapped": swapped_seats,
        "first_mismatches": mismatches,
    }


def _events(matches: list[MatchResult]) -> dict[str, dict[str, list[str]]]:
    """Every logged event (illegal, misformatted, timeouts, disconnects) and crash of both matches,
    by role (:data:`ROLES`) and kind, each with its match, round and log line."""
    events: dict[str, dict[str, list[str]]] = {role: {kind: [] for kind in EVENT_KINDS} for role in ROLES}
    for index, match in enumerate(matches, start=1):
        for kind, player, number, line in match.log.events:
            events[_role(player)][kind].append(f"match {index} round {number}: {line}")
        for player, lines in match.crashes.items():
            events[_role(player)]["crashes"].extend(f"match {index}: {line}" for line in lines)
    return events


def play_official(
    year: str,
    bot_dir: Path,
    opponent: str,
    rounds: int,
    seed: int,
    engine_dir: Path,
    work: Path,
    *,
    seed_every_round: bool = True,
) -> dict[str, Any]:
    """Duplicate match of the bot folder ``bot_dir`` against ``opponent`` in the official engine of
    ``year`` (``engine_dir/engine-<year>``): two matches of ``rounds / 2`` rounds on the same deals,
    our bot the engine's player 1 then player 2. Scratch files go to ``work``.

    ``seed_every_round=False`` seeds the engine's ``random`` once per match instead of before every
    round (to see how far deals repeat without it: in 2022 they stop repeating after the first round
    that reaches a flop in one match only).

    Returns a JSON-able dict: ``duplicate`` (pairs, mbb_per_hand, ci95_mbb), ``deals`` (rounds
    compared, identical), ``matches`` (players in engine order, final bankrolls, our per-round
    deltas, our client's summary), ``counts`` and ``events`` (illegal, misformatted, timeouts,
    disconnects, crashes; for our bot, the opponent and the match itself, each event with its log
    line), ``decision_time`` (our bot, ms) and ``wall_seconds``."""
    year = str(year)
    _check_official(year, opponent, rounds, Path(bot_dir))
    checkout = engine_checkout(Path(engine_dir), year)
    config = load_engine_config(checkout)
    big_blind = int(config["BIG_BLIND"])
    work = Path(work)
    started = time.perf_counter()
    opponent_dir = opponent_folder(year, opponent, Path(engine_dir), work / "players")
    clock = float(config.get("STARTING_GAME_CLOCK", 30.0))
    timeout_seconds = max(600.0, 4 * clock + rounds // 2 * 1.0)
    matches = [
        _play_seat_order(
            index, checkout, Path(bot_dir), (opponent, opponent_dir), rounds // 2, seed, work, timeout_seconds,
            seed_every_round,
        )
        for index in (1, 2)
    ]  # fmt: skip
    ours_by_match = [
        [logged.deltas.get(OUR_NAME, 0) for logged in match.log.rounds if OUR_NAME in logged.deltas]
        for match in matches
    ]
    events = _events(matches)
    seconds = [value for match in matches for value in match.decision_seconds]
    return {
        "year": year,
        "variant": VARIANTS[year],
        "opponent": opponent,
        "bot": str(bot_dir),
        "engine": str(checkout),
        "engine_commit": engine_commit(checkout),
        "rounds_requested": rounds,
        "rounds": sum(len(rows) for rows in ours_by_match),
        "seed": seed,
        "seed_every_round": seed_every_round,
        "big_blind": big_blind,
        "starting_game_clock_seconds": clock,
        "duplicate": duplicate_summary(ours_by_match[0], ours_by_match[1], big_blind),
        "deals": _deal_agreement(matches),
        "matches": [
            {
                "players": list(match.names),
                "final_bankrolls": match.log.final,
                "rounds": len(match.log.rounds),
                "ours_chips": int(sum(rows)),
                "ours_deltas": rows,
                "client": match.client,
                "bot_failures_answered_safely": match.bot_failures,
                "decisions": len(match.decision_seconds),
                "engine_exit_code": match.exit_code,
                "wall_seconds": round(match.wall_seconds, 1),
            }
            for match, rows in zip(matches, ours_by_match, strict=True)
        ],
        "counts": {role: {kind: len(lines) for kind, lines in found.items()} for role, found in events.items()},
        "events": events,
        "decision_time": decision_summary(seconds),
        "wall_seconds": round(time.perf_counter() - started, 1),
    }


# --------------------------------------------------------------------------------------------
# The CLI: every requested year x opponent, one table.


def blueprint_files(bots: Path, year: str) -> tuple[Path | None, str | None]:
    """The year's finished blueprint strategy file, or ``None`` and why not."""
    folder = Path(bots) / year
    strategy = folder / f"blueprint_{VARIANTS[year]}.h5"
    for required in (folder / "export.json", strategy):
        if not required.is_file():
            return None, f"no finished blueprint: {required} missing"
    return strategy, None


def _eval7_version() -> str | None:
    """The installed eval7 (the engines' card library), or None."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("eval7")
    except PackageNotFoundError:
        return None


def _years(text: str) -> list[str]:
    years = [part.strip() for part in text.split(",") if part.strip()]
    bad = [year for year in years if year not in VARIANTS]
    if not years or bad:
        raise argparse.ArgumentTypeError(f"years must be a comma-separated subset of {','.join(YEARS)}, got {text!r}")
    return years


def _rounds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 2 or value % 2:
        raise argparse.ArgumentTypeError(f"rounds must be an even number >= 2 (two matches of rounds/2), got {text!r}")
    return value


def _opponents(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names or any(name not in OPPONENTS for name in names):
        raise argparse.ArgumentTypeError(
            f"opponents must be a comma-separated subset of {','.join(OPPONENTS)}, got {text!r}"
        )
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="official_engines.py",
        description="Duplicate matches of the blueprint bots in the official MIT Pokerbots engines.",
    )
    parser.add_argument("--years", type=_years, default=list(YEARS), help="comma-separated, e.g. 2022,2025")
    harness.add_path_options(
        parser,
        {
            "--bots": (
                PROJECT_ROOT / "build" / "blueprints",
                "folder of blueprint runs: <bots>/<year>/blueprint_<variant>.h5 and export.json",
            )
        },
    )
    parser.add_argument(
        "--engines",
        type=Path,
        required=True,
        help="folder holding engine-2022 ... engine-2025 checkouts of github.com/mitpokerbots",
    )
    parser.add_argument("--rounds", type=_rounds, default=2000, help="rounds per year and opponent (two matches)")
    parser.add_argument("--opponents", type=_opponents, default=list(OPPONENTS), help="skeleton,equity")
    parser.add_argument("--seed", type=int, default=0, help="seed of the engines' deals")
    harness.add_path_options(
        parser,
        {
            "--out": (PROJECT_ROOT / "results" / "official_engines", "writes OUT.md and OUT.json"),
            "--work": (None, "scratch folder (default: a new temporary one)"),
        },
    )
    parser.add_argument(
        "--resolve",
        action="store_true",
        help="export the blueprint as the re-solving bot (vcfr export-bot --resolve) instead of the lookup bot",
    )
    parser.add_argument(
        "--no-adapt",
        dest="adapt",
        action="store_const",
        const=False,
        default=None,
        help="export our bot with --no-adapt (default: export-bot's, which adapts the bot to its opponent)",
    )
    return parser


def _checkouts(parser: argparse.ArgumentParser, options: argparse.Namespace) -> dict[str, Path]:
    """Each requested year's engine checkout; a usage error (exit 2) names a missing one."""
    if not options.engines.is_dir():
        parser.error(
            f"--engines {options.engines} is not a folder; it must hold engine-<year> checkouts, e.g. "
            f"{options.engines / 'engine-2025' / 'engine.py'} ({CLONE_HINT.format(year=2025)})"
        )
    checkouts = {}
    for year in options.years:
        try:
            checkouts[year] = engine_checkout(options.engines, year)
        except FileNotFoundError as error:
            parser.error(str(error))
    return checkouts


def _missing_rows(year: str, opponents: list[str], why: str) -> list[dict[str, Any]]:
    return [{"year": year, "variant": VARIANTS[year], "opponent": opponent, "missing": why} for opponent in opponents]


def _year_rows(year: str, options: argparse.Namespace, bot: str, work: Path) -> list[dict[str, Any]]:
    """The year's rows: one per opponent, played, or saying why not (no blueprint, export failed,
    the match failed)."""
    strategy, missing = blueprint_files(options.bots, year)
    if strategy is None:
        print(f"{year}: {missing}", flush=True)
        return _missing_rows(year, options.opponents, missing)
    year_work = work / year
    try:
        export = export_folder(
            year, bot, year_work / "blueprint", strategy=strategy, lock_in=False, adapt=options.adapt
        )
    except Exception as error:
        print(f"{year}: export failed: {error!r}", flush=True)
        return _missing_rows(year, options.opponents, f"export of {strategy} failed: {error!r}")
    rows = []
    for opponent in options.opponents:
        print(f"{year} vs {opponent}: {options.rounds} rounds ...", flush=True)
        try:
            row = play_official(
                year, year_work / "blueprint", opponent, options.rounds, options.seed, options.engines, year_work
            )
        except Exception as error:
            rows += _missing_rows(year, [opponent], f"not played: {error!r}")
            print(f"  {rows[-1]['missing']}", flush=True)
            continue
        row["strategy"] = str(strategy)
        row["export_command"] = export["command"]
        rows.append(row)
        print(f"  {_row_text(row)}", flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["--engine-runner"]:
        run_engine(json.loads(Path(arguments[1]).read_text()))
        return 0
    parser = build_parser()
    options = parser.parse_args(arguments)
    checkouts = _checkouts(parser, options)
    work = options.work
    if work is None:
        import tempfile

        work = Path(tempfile.mkdtemp(prefix="official_engines_"))
    bot = "resolve" if options.resolve else "lookup"
    report: dict[str, Any] = {
        "started": harness.now(),
        "machine": harness.machine(),
        "eval7": _eval7_version(),
        "engines": {year: {"path": str(path), "commit": engine_commit(path)} for year, path in checkouts.items()},
        "bot": bot,
        "adapt": options.adapt is not False,
        "rows": [row for year in options.years for row in _year_rows(year, options, bot, work)],
    }
    report["finished"] = harness.now()
    report["load_average_at_end"] = harness.machine()["load_average"]
    command = harness.command_line(__file__, arguments, python="python")
    harness.write_results(options.out, report, render_markdown, command, dump=dump_json)
    print(f"wrote {options.out.with_suffix('.md')} and {options.out.with_suffix('.json')}")
    return 0


def dump_json(report: dict[str, Any]) -> str:
    """``report`` as indented JSON with lists of numbers on one line (the per-round deltas).

    >>> print(dump_json({"deltas": [1, -2, 3], "name": "x"}), end="")
    {
     "deltas": [1, -2, 3],
     "name": "x"
    }
    """
    text = json.dumps(report, indent=1)
    numbers = re.compile(r"\[\s*(-?[\d.]+(?:,\s*-?[\d.]+)*)\s*\]")
    return numbers.sub(lambda found: "[" + ", ".join(re.split(r",\s*", found[1])) + "]", text) + "\n"


def _interval_text(duplicate: dict[str, Any]) -> str:
    if duplicate["mbb_per_hand"] is None:
        return "n/a"
    interval = duplicate["ci95_mbb"]
    return f"{duplicate['mbb_per_hand']:+,.0f}" + ("" if interval is None else f" ± {interval:,.0f}")


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _crashes(row: dict[str, Any]) -> int:
    """Crashes charged to our side: our bot's and the match's own (engine exit, short game log)."""
    return row["counts"]["ours"]["crashes"] + row["counts"][ENGINE]["crashes"]


def _row_text(row: dict[str, Any]) -> str:
    ours = row["counts"]["ours"]
    timing = row["decision_time"]
    return (
        f"{_interval_text(row['duplicate'])} mbb/hand over {row['rounds']} rounds; "
        f"deals identical {row['deals']['identical']}/{row['deals']['rounds_compared']}; "
        f"illegal {ours['illegal']}, misformatted {ours['misformatted']}, timeouts {ours['timeouts']}, "
        f"disconnects {ours['disconnects']}, crashes {_crashes(row)}; "
        f"p50 {timing['p50_ms']} ms, p99 {timing['p99_ms']} ms; {row['wall_seconds']} s"
    )


def render_markdown(report: dict[str, Any]) -> str:
    """The results table and everything it rests on, as Markdown."""
    lines = _header_lines(report) + _results_lines(report) + _client_lines(report)
    return "\n".join(lines)


def _header_lines(report: dict[str, Any]) -> list[str]:
    """What a row is, the command, the run's time, commit and machine, and the engines' commits."""
    lines = [
        "# Blueprint bots in the official MIT Pokerbots engines",
        "",
        f"Each row: our blueprint bot ({'re-solving' if report.get('bot') == 'resolve' else 'lookup'} bot, "
        f"{'adapting to its opponent, ' if report.get('adapt') else ''}lock-in OFF) against the year's official Python "
        "skeleton bot or our equity bot in the year's unmodified official engine, duplicate: two "
        "matches of half the rounds on the same deals (per-round seeded engine RNG), our bot "
        "player 1 then player 2; mbb/hand of our bot with a 95% interval over the pairs. Counts are "
        "of our bot (crashes include the match's own: engine exit code, short game log); decision times (p50/p99) are measured inside our bot's process, from receiving "
        "the engine's line to the answer. Each engine ran from its checkout with its own `config.py` "
        "except player names and paths and `NUM_ROUNDS` (rounds / 2 per match), its listening socket "
        "bound to 127.0.0.1.",
        "",
        f"Command: `{report['command']}`",
        "",
        f"Run {report['started']} to {report.get('finished')}, project commit `{report['commit']}`; "
        f"machine: {harness.machine_line(report['machine'])} at the start, {report.get('load_average_at_end')} at "
        f"the end (other jobs shared the CPUs); eval7 {report.get('eval7')}.",
        "",
        "| engine | commit |",
        "| --- | --- |",
    ]
    for year, engine in report["engines"].items():
        lines.append(f"| engine-{year} | `{engine['commit'] or 'not a git checkout'}` |")
    return lines


def _results_lines(report: dict[str, Any]) -> list[str]:
    """The table (one row per year and opponent), the bot's targets, and every named event."""
    lines = [
        "",
        "| year | variant | opponent | rounds | mbb/hand ± 95% | identical deals | illegal | misformatted "
        "| timeouts | disconnects | crashes | p50 ms | p99 ms | wall s |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    named: list[str] = []
    for row in report["rows"]:
        if "missing" in row:
            lines.append(
                f"| {row['year']} | {row['variant']} | {row['opponent']} | — | {row['missing']} | | | | | | | | | |"
            )
            continue
        ours = row["counts"]["ours"]
        timing = row["decision_time"]
        deals = row["deals"]
        lines.append(
            f"| {row['year']} | {row['variant']} | {row['opponent']} | {row['rounds']:,} "
            f"| {_interval_text(row['duplicate'])} | {deals['identical']}/{deals['rounds_compared']} "
            f"| {ours['illegal']} | {ours['misformatted']} | {ours['timeouts']} | {ours['disconnects']} "
            f"| {_crashes(row)} | {_ms(timing['p50_ms'])} | {_ms(timing['p99_ms'])} | {row['wall_seconds']:,.0f} |"
        )
        for role in ROLES:
            for kind, found in row["events"][role].items():
                who = {"ours": "our bot", ENGINE: "the match"}.get(role, row["opponent"])
                named += [f"- {row['year']} vs {row['opponent']}, {who}, {kind}: {line}" for line in found[:10]]
                if len(found) > 10:
                    named.append(f"- {row['year']} vs {row['opponent']}, {who}, {kind}: ... {len(found) - 10} more")
    lines += ["", target_line(report)]
    lines += ["", "## Named events (illegal actions, misformatted answers, timeouts, disconnects, crashes)", ""]
    lines += named or ["None, for either player in any match."]
    return lines


def target_line(report: dict[str, Any]) -> str:
    """The check of the bot's own targets over the played rows: the lookup bot's p99 decision time
    (issue 11, `P99_TARGET_MS`); the re-solving bot's game clock used at the end of each match (issue
    23, `CLOCK_USED_TARGET`) with its decision times' p50 and p99 ranges, which are reported only.

    >>> row = {"starting_game_clock_seconds": 30.0, "decision_time": {"p50_ms": 0.2, "p99_ms": 98.7},
    ...        "matches": [{"client": {"clock_left_seconds": 15.0}}, {"client": None}]}
    >>> target_line({"bot": "resolve", "rows": [row]})
    'Game clock used target ≤ 60% at the end of a match: worst match 50.0% (met; 1 of 2 matches with a client summary); decision time p50 0.200 ms, p99 98.700 ms (reported).'
    >>> target_line({"bot": "lookup", "rows": [row]})
    'p99 decision time target ≤ 2 ms: worst row 98.700 ms (NOT met).'
    """
    played = [row for row in report["rows"] if "missing" not in row]
    timed = [row["decision_time"] for row in played if row["decision_time"]["p99_ms"] is not None]
    if report.get("bot") != "resolve":
        if not timed:
            return f"p99 decision time target ≤ {P99_TARGET_MS:g} ms: no decisions timed."
        worst = max(timing["p99_ms"] for timing in timed)
        return (
            f"p99 decision time target ≤ {P99_TARGET_MS:g} ms: worst row {worst:.3f} ms "
            f"({'met' if worst <= P99_TARGET_MS else 'NOT met'})."
        )
    matches = [match for row in played for match in row["matches"]]
    used = [
        1 - match["client"]["clock_left_seconds"] / row["starting_game_clock_seconds"]
        for row in played
        for match in row["matches"]
        if (match["client"] or {}).get("clock_left_seconds") is not None
    ]
    clock = (
        "no client summary"
        if not used
        else f"worst match {100 * max(used):.1f}% ({'met' if max(used) <= CLOCK_USED_TARGET else 'NOT met'}; "
        f"{len(used)} of {len(matches)} matches with a client summary)"
    )
    times = (
        "no decisions timed"
        if not timed
        else "p50 "
        + _range_ms([timing["p50_ms"] for timing in timed])
        + ", p99 "
        + _range_ms([timing["p99_ms"] for timing in timed])
    )
    return (
        f"Game clock used target ≤ {100 * CLOCK_USED_TARGET:g}% at the end of a match: {clock}; "
        f"decision time {times} (reported)."
    )


def _range_ms(values: list[float]) -> str:
    low, high = min(values), max(values)
    return f"{low:.3f} ms" if low == high else f"{low:.3f}-{high:.3f} ms"


def _client_lines(report: dict[str, Any]) -> list[str]:
    """Our client's own summary of each match (seat order, bankroll, repairs, errors, clock used)."""
    played = [row for row in report["rows"] if "missing" not in row]
    lines = [
        "",
        "## Client summary of our bot per match",
        "",
        "| year | opponent | match | our seat order | bankroll (game log) | client rounds | repairs | "
        "client errors | engine clock used s | decisions |",
        "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in played:
        for index, match in enumerate(row["matches"], start=1):
            client = match["client"] or {}
            order = "player 1" if match["players"][0] == OUR_NAME else "player 2"
            bankroll = (match["final_bankrolls"] or {}).get(OUR_NAME, "—")
            left = client.get("clock_left_seconds")
            used = "—" if left is None else f"{row['starting_game_clock_seconds'] - left:.3f}"
            lines.append(
                f"| {row['year']} | {row['opponent']} | {index} | {order} | {bankroll} | "
                f"{client.get('rounds', '—')} | {client.get('repairs', '—')} | {client.get('errors', '—')} | "
                f"{used} | {match['decisions']} |"
            )
    lines += [
        "",
        "Notes: engine clock used is the game clock the engine charged our bot over the match (its "
        "starting clock minus the last `T` our client received), timed by the engine around each query "
        "including the round-end acknowledgements and the socket round trip. A repair is our client changing the bot's wanted action into a legal one before "
        "sending it (the engine never sees an illegal action from it); client errors are bot "
        "exceptions or bad lines answered with a safe action. Deals: every round's chance is seeded "
        "from (seed, round) because the 2022 engine draws swap events only when a flop or turn is "
        "reached, which would otherwise make later deals depend on play; identical deals counts "
        "rounds whose hole cards, bounties, swaps and boards agree between the two matches wherever "
        "both show them. The 2024 and 2025 skeletons play with unseeded randomness of their own.",
        "",
    ]
    return lines


if __name__ == "__main__":
    sys.exit(main())

"""Every ``vcfr`` command in README.md's shell blocks runs, on tiny settings, as a new user would.

The commands are read from the README itself (```bash blocks; continued lines joined, comments
dropped) and run in README order in a temporary folder laid out like a fresh clone (a copy of
``experiments/configs``, the only repository files the commands name), in this process through
the ``vcfr`` app. Outputs of one command are inputs of the next; a command that names a file no
command has written yet waits until one has (``vcfr match --a bounty.h5`` runs after the solve
that writes ``bounty.h5``). Each command is rewritten to tiny settings by one table:

- `REWRITES`: a flag's value replaced (``--rounds 1000`` -> ``--rounds 20``, ...);
- `ADDED`: flags appended to a command (``--flops 2`` to ``vcfr abstract``, short benchmark passes);
- `PREPARED`: files the README's text assumes but no command writes (a Bounty card file, a
  Hold'em strategy), made by the commands given there when a command waits for them; `COPIES`:
  the Python example's ``auction.h5``, copied from its command-line twin's output.

A README ``vcfr`` command is either run or listed in `NOT_RUN` with the reason; the test fails
on any other, and on any command that fails.
"""

from __future__ import annotations

import re
import shlex
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.solver.cli_support import invoke

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
COPIED = ("experiments/configs",)
"""Repository folders the commands name, copied into the fresh-clone folder."""

REWRITES: dict[str, Callable[[str], str]] = {
    "--rounds": lambda value: "20",  # match, check-bot (even: duplicate matches play deal pairs)
    "--hands": lambda value: "6",  # lbr hands per seat
    "--iterations": lambda value: "200",
    "--seconds": lambda value: "1",
    "--minutes": lambda value: "0.02",  # 1.2 s
    "--buckets": lambda value: value.split(",")[0] + ",3,3,3",  # preflop kept, 3 buckets a street after
    "--points": lambda value: "1",  # charts
    "--checkpoint-every": lambda value: "500",
    "--candidates": lambda value: "10",  # lbr's belief
    "--bets": lambda value: "1p,a cap=1",  # a small tree builds in a second, not a minute
    "--freezeouts": lambda value: "1",  # limit gauntlet: one freeze-out per pair of styles
}
"""Flag -> its tiny value (from the README's value)."""

ADDED: dict[str, tuple[str, ...]] = {
    "abstract": ("--flops", "2"),
    "solve --config": ("--minutes", "0.02", "--bets", "1p,a cap=1", "--bids", "1p"),  # the run file says 60 min
    "lbr": ("--candidates", "10"),
    "bench evaluator": ("--hands", "20000", "--repeats", "1"),
    "bench engine": ("--rounds", "20", "--pokerkit-rounds", "5", "--repeats", "1"),
    "bench client": ("--repeats", "1"),
    "bench chance": ("--deals", "50", "--repeats", "1", "--max-runs", "0,2"),
    "gauntlet --variant limit": ("--max-games", "5"),
}
"""A command's first words -> flags appended (those the command does not give)."""

PREPARED: dict[str, tuple[str, ...]] = {
    "bounty_cards.h5": ("abstract", "--variant", "bounty", "--buckets", "169,3,3,3", "--method", "ehs", "--flops", "2",
                        "--out", "bounty_cards.h5"),
    "out/holdem.h5": ("solve", "--variant", "holdem", "--rule", "stack=20", "--bets", "1p,a cap=1", "--cards",
                      "experiments/configs/cards/holdem.h5", "--seconds", "1", "--out", "out/holdem.h5"),
    "out/bounty.h5": ("solve", "--variant", "bounty", "--rule", "rules=engine", "--bets", "1p,a cap=1", "--cards",
                      "bounty_cards.h5", "--seconds", "1", "--out", "out/bounty.h5"),
    "limit.h5": ("solve", "--variant", "limit", "--rule", "n_players=3", "--rule", "max_raises=1", "--cards",
                 "experiments/configs/cards/holdem.h5", "--seconds", "1", "--out", "limit.h5"),
}  # fmt: skip
"""Files the README assumes but no README command writes -> the ``vcfr`` arguments that make them."""
COPIES = {"auction.h5": "out/auction.h5"}
"""The README's Python example writes ``auction.h5``; its ``vcfr solve --config`` twin writes this."""

NOT_RUN: dict[str, str] = {
    "bench solver --game leduc --json": (
        "OpenSpiel's Leduc CFR+ alone takes 13 s (1,000 iterations); tests/solver/test_cli_solve.py::"
        "test_bench_solver_json_shape runs the command on Kuhn with --quick"
    ),
    "bench abstraction --json": (
        "10+ s even on 2 flops (eval7's Monte Carlo peer); tests/abstraction/test_cli_abstraction.py::"
        "test_bench_abstraction_json_shape runs it on these tiny settings"
    ),
    "convert-history gamelog.txt log.phhs --engine 2025": (
        "needs an official engine's game log; tests/game/test_gamelog.py::"
        "test_cli_converts_a_game_log_and_needs_the_engine runs it on a recorded 2025 log"
    ),
    "bench abstract --json": (
        "builds a 169/50/50/50 abstract game per variant (10 s for one); tests/solver/test_abstract_bench.py::"
        "test_cli_refuses_an_unknown_variant_and_prints_json runs it on Swap for 0.1 s"
    ),
    "view auction.h5": (
        "serves the page until Ctrl-C; tests/solver/test_strategy_view.py serves it on a free port and reads every "
        "route, and its slow test drives the page in Chromium"
    ),
}
"""README commands (after ``vcfr``, as written) not run here, with the reason."""


@dataclass(frozen=True)
class Command:
    """One README ``vcfr`` command: the words after ``vcfr`` as written, and its line."""

    words: tuple[str, ...]
    line: int

    @property
    def text(self) -> str:
        return " ".join(self.words)


def readme_commands(text: str) -> list[Command]:
    """The ``vcfr`` commands of the shell blocks of ``text`` in order (a line ending in ``\\``
    continues on the next)."""
    commands = []
    for match in re.finditer(r"```(?:bash|sh|shell|console)\n(.*?)```", text, re.S):
        first_line = text.count("\n", 0, match.start()) + 2
        joined = ""
        for offset, line in enumerate(match.group(1).splitlines()):
            if not joined:
                start = first_line + offset
            joined += line
            if joined.endswith("\\"):
                joined = joined[:-1] + " "
                continue
            words = shlex.split(joined, comments=True)
            joined = ""
            if words and Path(words[0]).name == "vcfr":
                commands.append(Command(tuple(words[1:]), start))
    return commands


def tiny(command: Command) -> list[str]:
    """The command's arguments with `REWRITES` applied and `ADDED` appended."""
    words = list(command.words)
    for index in range(1, len(words)):
        if words[index - 1] in REWRITES:
            words[index] = REWRITES[words[index - 1]](words[index])
    added = next((flags for start, flags in ADDED.items() if command.text.startswith(start + " ")), ())
    flags = [index for index, word in enumerate(added) if word.startswith("--") and word not in words]
    for index in flags:
        words.append(added[index])
        words.extend(word for word in added[index + 1 : index + 2] if not word.startswith("--"))
    return words


def inputs(arguments: list[str]) -> list[str]:
    """Files a command reads: its words ending in .h5, .jsonl or .toml, or naming a bot folder,
    except the values of ``--out`` and ``--history`` (written)."""
    written = {arguments[index + 1] for index, word in enumerate(arguments[:-1]) if word in ("--out", "--history")}
    return [
        word
        for word in arguments
        if word not in written and (word.endswith((".h5", ".jsonl", ".toml")) or word.startswith("bots/"))
    ]


def run(arguments: list[str] | tuple[str, ...]) -> tuple[bool, str, float]:
    """Run ``vcfr *arguments`` in this process: (exit code 0, its output, seconds)."""
    started = time.monotonic()
    result = invoke(*arguments)
    seconds = time.monotonic() - started
    output = result.output + (f"\n{result.exception!r}" if result.exception and result.exit_code != 0 else "")
    return result.exit_code == 0, output, seconds


def test_every_readme_command_is_run_or_listed() -> None:
    commands = readme_commands(README.read_text())
    assert len(commands) > 20 and any(command.words[0] == "check-bot" for command in commands)
    texts = {command.text for command in commands}
    for listed in NOT_RUN:
        assert listed in texts, f"{listed!r} is listed here but no longer in README.md"


@pytest.mark.jit_only
def test_readme_commands_run_on_tiny_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in COPIED:
        shutil.copytree(ROOT / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    pending = [command for command in readme_commands(README.read_text()) if command.text not in NOT_RUN]
    prepared = dict(PREPARED)
    failures: list[str] = []
    while pending:
        ready = [command for command in pending if all(Path(name).exists() for name in inputs(tiny(command)))]
        if not ready:  # a file the README assumes: make it, then try again
            missing = {name for command in pending for name in inputs(tiny(command)) if not Path(name).exists()}
            makeable = sorted(
                name
                for name in missing
                if name in prepared and all(Path(needed).exists() for needed in inputs(list(prepared[name])))
            )
            copyable = sorted(name for name in missing if name in COPIES and Path(COPIES[name]).exists())
            if copyable:
                shutil.copy(COPIES[copyable[0]], copyable[0])
                continue
            assert makeable, f"no command writes {sorted(missing)}: add it to PREPARED or NOT_RUN"
            ok, output, seconds = run(prepared.pop(makeable[0]))
            assert ok, f"preparing {makeable[0]} failed:\n{output}"
            print(f"{seconds:6.1f} s  (prepared) {makeable[0]}", flush=True)
            continue
        command = ready[0]
        pending.remove(command)
        arguments = tiny(command)
        ok, output, seconds = run(arguments)
        print(f"{seconds:6.1f} s  vcfr {' '.join(arguments)}: {'ok' if ok else 'FAILED'}", flush=True)
        if not ok:
            failures.append(f"README.md:{command.line}: vcfr {' '.join(arguments)}\n{output[-2000:]}")
    assert not failures, "\n\n".join(failures)

"""Running ``vcfr`` commands in tests: one in-process runner (also for ``--json`` summaries), the
check of a one-line error, a subprocess run killed mid-solve, and a tiny solved strategy file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from solver.cli.main import app
from solver.solve.strategy_file import read_strategy_file

RUNNER = CliRunner()


def invoke(*arguments: object):
    """Run ``vcfr`` with ``arguments`` (turned into strings) in-process; the click result."""
    return RUNNER.invoke(app, [str(argument) for argument in arguments])


def invoke_json(*arguments: object) -> dict:
    """Run ``vcfr`` with ``arguments`` and ``--json`` in-process; assert it succeeded and return the
    JSON it printed."""
    result = invoke(*arguments, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def solve_tiny(out: Path, variant: str = "holdem", stack: int = 20) -> Path:
    """``vcfr solve`` a tiny strategy of ``variant`` into ``out`` (``stack`` chips, bets ``1p,a cap=1``, a
    blank 169/4/4/4 card file beside it, 2,000 iterations): seconds, for tests of the commands and scripts
    that read one (an engine's stack for those that play under engine rules). Returns ``out``."""
    from abstraction.cards.buckets import CardAbstraction

    out.parent.mkdir(parents=True, exist_ok=True)
    cards = out.with_name(out.stem + "_cards.h5")
    CardAbstraction.blank((169, 4, 4, 4)).save(cards)
    solve = ["solve", "--rule", f"stack={stack}", "--cards", cards, "--bets", "1p,a cap=1", "--variant", variant]
    result = invoke(*solve, "--iterations", "2000", "--quiet", "--out", out)
    assert result.exit_code == 0, result.output
    return out


def one_line_error(result, code: int) -> str:
    """Assert ``result`` exited with ``code`` printing one ``error: ...`` line on stderr and no
    traceback; return that line."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


CLI = [sys.executable, "-c", "from solver.cli.main import app; app()"]
"""``vcfr`` in a subprocess of the test's interpreter (for runs a test kills)."""


def kill_once_written(arguments: list[str], out: Path) -> int:
    """Start ``vcfr *arguments`` in a subprocess, SIGKILL it as soon as ``out`` (its strategy file) exists
    (at most 120 s), and return the iterations of the file it left: a solve killed between checkpoints."""
    process = subprocess.Popen([*CLI, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not out.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait()
    assert process.returncode == -signal.SIGKILL, process.stderr.read() if process.stderr else ""
    return read_strategy_file(out).iterations

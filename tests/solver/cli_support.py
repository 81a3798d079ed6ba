"""Running ``vcfr`` commands in tests: one runner, and the check of a one-line error."""

from __future__ import annotations

from typer.testing import CliRunner

from solver.cli import app

RUNNER = CliRunner()


def invoke(*arguments: object):
    """Run ``vcfr`` with ``arguments`` (turned into strings) in-process; the click result."""
    return RUNNER.invoke(app, [str(argument) for argument in arguments])


def one_line_error(result, code: int) -> str:
    """Assert ``result`` exited with ``code`` printing one ``error: ...`` line on stderr and no
    traceback; return that line."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]

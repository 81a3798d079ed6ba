"""Play one of our bots in an official MIT Pokerbots engine over its TCP wire protocol.

`play_session` connects to the engine, answers every line with a
`game.pokerbots.session.ClientSession` until the match ends, and can write a transcript
(``<< line`` / ``>> answer`` rows, read back by `read_transcript`). If the environment variable
``VCFR_DECISION_SECONDS`` names a file when a match ends, ``play_session`` appends the session's
decision seconds there, one float per line (how ``experiments/official_engines.py`` measures
decision times inside the bot's own process).
"""

from __future__ import annotations

import gzip
import os
import socket
import time
from pathlib import Path
from typing import TextIO

from game.pokerbots.engines import EngineRules
from game.pokerbots.session import ClientSession, Decide

CONNECT_TIMEOUT_SECONDS = 10.0
"""The engines wait this long for a bot to connect after launching it."""

DECISION_SECONDS_ENV = "VCFR_DECISION_SECONDS"
"""Environment variable naming a file to which ``play_session`` appends the match's decision
seconds (one per line) when the match ends; unset, nothing is written."""


def read_transcript(path: str | Path) -> list[tuple[str, str | None]]:
    """``(engine line, answer or None)`` pairs of a transcript written by ``serve`` (gzip if ``.gz``).

    The format: ``<< line`` for each engine line, followed by ``>> answer`` unless the line was
    the final ``Q``.
    """
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as stream:
        rows = stream.read().splitlines()
    pairs: list[tuple[str, str | None]] = []
    for row in rows:
        if row.startswith("<< "):
            pairs.append((row[3:], None))
        elif row.startswith(">> ") and pairs and pairs[-1][1] is None:
            pairs[-1] = (pairs[-1][0], row[3:])
        else:
            raise ValueError(f"malformed transcript row {row!r} in {str(path)!r}: expected '<< line' or '>> answer'")
    return pairs


def connect(port: int, host: str = "127.0.0.1", timeout: float = CONNECT_TIMEOUT_SECONDS) -> socket.socket:
    """Connect to the engine, retrying until ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection((host, port), timeout=max(0.1, deadline - time.monotonic()))
        except OSError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def serve(session: ClientSession, stream: TextIO, *, transcript: TextIO | None = None) -> None:
    """Answer every line of ``stream`` until ``Q`` or end of stream.

    ``transcript`` (optional) receives ``<< line`` and ``>> answer`` rows, the format of
    ``tests/data/transcripts``.
    """
    for line in stream:
        reply = session.answer(line)
        if transcript is not None:
            transcript.write(f"<< {line.rstrip()}\n")
            if reply is not None:
                transcript.write(f">> {reply}\n")
        if reply is None:
            return
        stream.write(reply + "\n")
        stream.flush()


def run_client(
    port: int,
    rules: EngineRules,
    decide: Decide,
    *,
    host: str = "127.0.0.1",
    transcript: TextIO | None = None,
) -> ClientSession:
    """Connect to an engine on ``host:port`` and play the whole match; returns the session.

    Raises ``OSError`` if no connection is made within ``CONNECT_TIMEOUT_SECONDS``; a connection
    lost during the match (the engine stopped) ends the match quietly with a warning.
    """
    return play_session(ClientSession(rules, decide), port, host=host, transcript=transcript)


def play_session(
    session: ClientSession, port: int, *, host: str = "127.0.0.1", transcript: TextIO | None = None
) -> ClientSession:
    """`run_client` with a session built beforehand (e.g. for a bot wrapper that reads its
    bankroll, `game.play.lock_in.LockIn`): connect, answer every line until the match ends.

    If ``VCFR_DECISION_SECONDS`` names a file, the session's decision seconds are appended to it
    at the end (one float per line), also when the connection is lost."""
    with connect(port, host) as connection:
        connection.settimeout(None)
        try:
            with connection.makefile("rw") as stream:
                serve(session, stream, transcript=transcript)
        except OSError as error:
            session.logger.warning("connection to the engine lost after %d rounds: %s", session.rounds_played, error)
        finally:
            write_decision_seconds(session)
    return session


def write_decision_seconds(session: ClientSession, path: str | Path | None = None) -> Path | None:
    """Append ``session.decision_seconds`` to ``path`` (default: the file named by
    ``VCFR_DECISION_SECONDS``), one float per line; returns the file, or ``None`` if none is named.
    Never raises: a file that cannot be written is logged."""
    target = path if path is not None else os.environ.get(DECISION_SECONDS_ENV)
    if not target:
        return None
    try:
        with open(target, "a", encoding="ascii") as stream:
            stream.writelines(f"{seconds:.9f}\n" for seconds in session.decision_seconds)
    except OSError as error:
        session.logger.warning("could not write decision seconds to %r: %s", str(target), error)
        return None
    return Path(target)

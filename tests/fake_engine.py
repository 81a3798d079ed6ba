"""A fake Pokerbots engine for socket tests: it sends recorded lines and collects the bot's answers."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Sequence


def start_fake_engine(
    server: socket.socket,
    lines: Sequence[str],
    answers: list[str],
    on_connect: Callable[[], None] | None = None,
) -> threading.Thread:
    """Play the engine's side on ``server`` in a started daemon thread.

    The thread accepts one bot, calls ``on_connect`` (if given), sends ``lines`` one at a time and,
    after each line but ``"Q"``, appends the bot's answer line to ``answers``.
    """

    def engine() -> None:
        connection, _ = server.accept()
        if on_connect is not None:
            on_connect()
        with connection, connection.makefile("rw") as stream:
            for line in lines:
                stream.write(line + "\n")
                stream.flush()
                if line != "Q":
                    answers.append(stream.readline().strip())

    thread = threading.Thread(target=engine, daemon=True)
    thread.start()
    return thread

"""Time the engine client: every line of a recorded 1000-round engine transcript through a session.

Each engine line goes through ``ClientSession.answer`` (parse, rebuild the round, ask the bot,
repair, format); a line that awaits a decision is timed as one decision, the others (end-of-round
acks) separately. The same transcript is also played with a trivial decision function, so the
client's own share shows next to the bot's. Times in milliseconds per line.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from game.pokerbots.client import read_transcript
from game.pokerbots.engines import engine_rules
from game.pokerbots.session import ClientSession, bot_decider
from game.pokerbots.wire_round import WireRound
from game.rules.actions import Action

DEFAULT_TRANSCRIPT = (
    Path(__file__).resolve().parents[2] / "tests" / "data" / "transcripts" / "2024" / "random_vs_random_player_A.txt.gz"
)
"""A recorded Auction match (engine-2024), 1000 rounds, about 5,000 engine lines."""


def _time_session(lines: list[str], session: ClientSession) -> tuple[np.ndarray, np.ndarray]:
    decision_ms: list[float] = []
    ack_ms: list[float] = []
    clock = time.perf_counter
    for line in lines:
        start = clock()
        answer = session.answer(line)
        elapsed = (clock() - start) * 1e3
        current = session.round
        is_ack = answer is None or current is None or current.is_over or current.folded
        (ack_ms if is_ack else decision_ms).append(elapsed)
    return np.array(decision_ms), np.array(ack_ms)


def run_client_benchmark(
    transcript: str | Path = DEFAULT_TRANSCRIPT,
    *,
    bot: str = "random",
    seed: int = 0,
    repeats: int = 3,
) -> dict[str, Any]:
    """Play ``transcript`` ``repeats`` times with baseline ``bot`` (``game.play.bots`` name); best pass reported.

    The variant comes from the transcript's folder name (the engine year). Returns
    ``{"mean_ms", "p99_ms", "max_ms", "ack_mean_ms", "client_only_mean_ms", "decisions",
    "lines", "bot", "variant", "transcript"}`` (milliseconds per decision unless named otherwise).
    """
    from game.play.bots import make_bot
    from game.rules.variants import get_variant

    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats!r}")
    path = Path(transcript)
    rules = engine_rules(path.parent.name)
    lines = [line for line, _ in read_transcript(path)]
    config = get_variant(rules.variant).config_class(rules="engine")

    def check_or_bid(view: WireRound) -> Action:
        return Action.check()

    passes = [
        _time_session(lines, ClientSession(rules, bot_decider(make_bot(bot, config=config, seed=seed))))
        for _ in range(repeats)
    ]
    decisions, acks = min(passes, key=lambda timed: timed[0].mean())
    client_only = min(_time_session(lines, ClientSession(rules, check_or_bid))[0].mean() for _ in range(repeats))
    return {
        "mean_ms": float(decisions.mean()),
        "p99_ms": float(np.percentile(decisions, 99)),
        "max_ms": float(decisions.max()),
        "ack_mean_ms": float(acks.mean()),
        "client_only_mean_ms": float(client_only),
        "decisions": int(decisions.size),
        "lines": len(lines),
        "bot": bot,
        "variant": rules.variant,
        "transcript": str(path),
    }

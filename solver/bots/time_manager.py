"""Game-clock budgets for real-time re-solving: how many seconds each re-solve may spend.

An official engine gives each bot one game clock for the whole match (30 s for 1000 rounds in
2022-2024, 60 s in 2025), charged for every query, acknowledgements included, and sends what is
left with every line (the ``T`` clause; `game.pokerbots.session.ClientSession.clock_seconds`). A bot
whose clock runs out forfeits the rest of the match, so re-solving must pace itself.

`TimeManager` plans the clock as follows (``C0`` the starting clock, ``C`` what is left now, ``R`` the
rounds still to play, this one included):

- **Reserve.** ``(1 - target_fraction) * C0`` is never planned for re-solving: with ``C`` at or
  below it, :meth:`TimeManager.budget` answers ``None`` and the bot plays its blueprint (about a
  millisecond a decision). The default ``target_fraction`` 0.5 aims at half the clock used at the
  end of a match (at most 60% is the project's target; the blueprint's own decisions after the
  plan is spent add a few percent).
- **Per round.** What is above the reserve is spread evenly over the rounds left:
  ``(C - reserve) / R``, less the clock a round costs besides re-solving (measured so far in the
  match: clock used minus the re-solves' own seconds, per round played, counted from the first
  finished round the manager sees, since the first round also pays for loading code, and over at
  least ``prior_rounds`` rounds).
- **Per street.** A round may hold re-solves on several streets (``street_weights``: board length
  -> relative share of one re-solve on that street). With ``n_s`` the re-solves per round seen so
  far on street ``s`` (shrunk towards ``prior_rate`` by ``prior_rounds`` pseudo-rounds), one
  re-solve on street ``s`` gets ``per_round * w_s / sum_t w_t n_t``, at most ``max_seconds``; a
  budget below ``min_seconds``, or below what the caller's minimum of iterations takes at the
  street's measured pace times ``margin`` (the pace varies with the machine's load), is ``None``:
  the blueprint plays, nothing is spent, and the budgets grow as the clock so saved is spread over
  fewer re-solves.
- **Measured pace.** Per street, the medians over the last ``PACE_SAMPLES`` re-solves of the
  seconds per iteration per unit of the caller's ``size`` (e.g. the subgame's nodes; the first
  chunk of iterations left out, since it pays for loading compiled code) and of the seconds outside
  the iterations (tree, tables, strategy). The street's first re-solve in the process is a warm-up
  (it pays for loading compiled code as well, e.g. 0.23 s against 0.10 s for the next one in an
  official engine): it counts only until the second arrives, which replaces it. A median shrugs
  off one load spike among several re-solves.
- **Probes.** A street refused for its pace is measured again now and then, else one slow
  measurement would refuse it for the rest of the match: after ``probe_every`` refusals in a row
  the next budget is granted anyway (a probe, its measurement counts like any other), and each
  probe that does not bring the street back doubles the refusals before the next one, so a street
  that is truly too slow costs a few probes a match. A probe is granted only while the clock above
  the reserve holds the street's measured cost (margin included), so even a probe as slow as that
  measurement leaves the reserve whole; the reserve is never planned for.

Without a game clock (no match attached, or a match object without ``clock_seconds``, as in our own
match runner) every budget is ``math.inf``: the bot's own per-re-solve settings bound the solve.

`run_within` spends a budget: it runs the solver in chunks and stops before a chunk whose cost,
estimated from the chunks so far, would cross the deadline (the first chunk is one iteration); it
reports the iterations done and the pace after the first chunk.
Everything reads time through an injected ``now`` (default ``time.perf_counter``), so tests drive
it with a fake clock.

>>> class Match:  # what the engine client offers (ClientSession has both)
...     clock_seconds, rounds_played = 30.0, 0
>>> manager = TimeManager(TimeConfig(), rounds=1000)
>>> manager.budget(5)  # no clock attached: unbounded
inf
>>> manager.attach(Match())  # before the match: its clock now is the starting clock
>>> round(manager.budget(5), 4)  # 15 s over 1000 rounds, half a river re-solve a round expected
0.03
>>> Match.clock_seconds = 14.9  # below the reserve (half the clock): the blueprint plays
>>> manager.budget(5) is None
True
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from game.dataclass_support import check_int

__all__ = ["Run", "TimeConfig", "TimeManager", "run_within"]

Now = Callable[[], float]
"""A monotonic clock in seconds (``time.perf_counter`` or a fake one in tests)."""
PACE_SAMPLES = 5
"""Re-solves per street whose median is the street's measured pace (the latest ones)."""


class Run(NamedTuple):
    """What `run_within` did: ``iterations`` run, and ``seconds_per_iteration`` over the chunks after
    the first (``None`` if only the first ran)."""

    iterations: int
    seconds_per_iteration: float | None


@dataclass(frozen=True)
class TimeConfig:
    """How a `TimeManager` spends the game clock (see the module docstring; seconds throughout).

    ``target_fraction``: share of the starting clock the plan spends by the end of a match (the
    rest is the reserve); ``max_seconds`` / ``min_seconds``: cap on one re-solve's budget / smallest
    budget worth solving (below it the blueprint plays); ``prior_rate``: re-solves per round on
    each street of ``street_weights`` assumed before the match shows its own rate, counted as
    ``prior_rounds`` rounds; ``margin``: a budget must exceed the measured time of the caller's
    minimum of iterations by this factor; ``probe_every``: refusals in a row for a street's pace
    before a probe re-solve measures it again (doubling after each probe that fails); ``street_weights``: ``(board length, weight)`` pairs, one re-solve's
    share per street (5: the river, 4: the turn, 3: the flop); a street not listed weighs 1.
    """

    target_fraction: float = 0.5
    max_seconds: float = 0.5
    min_seconds: float = 0.004
    prior_rate: float = 0.5
    prior_rounds: int = 20
    margin: float = 1.5
    probe_every: int = 10
    street_weights: tuple[tuple[int, float], ...] = ((5, 1.0),)

    def __post_init__(self) -> None:
        if not 0 < self.target_fraction < 1:
            raise ValueError(
                f"target_fraction must be in (0, 1) (a share of the game clock), got {self.target_fraction!r}"
            )
        if not 0 < self.min_seconds <= self.max_seconds:
            raise ValueError(
                f"need 0 < min_seconds <= max_seconds, got min_seconds={self.min_seconds!r}, "
                f"max_seconds={self.max_seconds!r}"
            )
        if not self.margin >= 1:
            raise ValueError(f"margin must be >= 1 (a factor on the measured time), got {self.margin!r}")
        if not self.prior_rate > 0:
            raise ValueError(f"prior_rate must be > 0 (re-solves per round), got {self.prior_rate!r}")
        check_int("prior_rounds", self.prior_rounds)
        check_int("probe_every", self.probe_every)
        if not self.street_weights or any(not weight > 0 for _, weight in self.street_weights):
            raise ValueError(f"street_weights must be (board length, weight > 0) pairs, got {self.street_weights!r}")

    def weight(self, street: int) -> float:
        """One re-solve's relative share on ``street`` (board length)."""
        return dict(self.street_weights).get(street, 1.0)


class TimeManager:
    """Budgets for the re-solves of one bot over a match (see the module docstring).

    ``rounds``: rounds per match. :meth:`attach` the match before it starts (anything with
    ``clock_seconds`` and ``rounds_played``, e.g. `game.pokerbots.session.ClientSession`; the clock
    it shows then is the starting clock); :meth:`budget` before a re-solve, :meth:`record` after it.
    :meth:`state` / :meth:`restore` save and restore the counts (for a policy query that must leave
    the bot as it was). The measured paces and the probes' counts are the process's: a new match
    keeps them.
    """

    def __init__(self, config: TimeConfig, *, rounds: int) -> None:
        if not isinstance(config, TimeConfig):
            raise TypeError(f"config must be a TimeConfig, got {config!r}")
        check_int("rounds", rounds)
        self.config = config
        self.starting_clock = math.inf
        self.rounds = rounds
        self.match: Any = None
        self._counts: dict[int, int] = {}
        self._seconds = 0.0
        self._rounds_seen = 0
        self._samples: dict[int, tuple[tuple[float | None, float], ...]] = {}
        self._measured: dict[int, int] = {}
        self._refusals: dict[int, tuple[int, int]] = {}
        self._baseline: tuple[float, int, float] | None = None

    @property
    def reserve_seconds(self) -> float:
        """Clock never planned for re-solving: ``(1 - target_fraction) * starting_clock``."""
        return (1 - self.config.target_fraction) * self.starting_clock

    def attach(self, match: Any) -> None:
        """Read the clock left and the rounds played from ``match`` from now on (its clock now is the
        starting clock; a match without ``clock_seconds`` has none); counts start afresh."""
        self.match = match
        left = self.clock_left()
        self.starting_clock = math.inf if left is None else left
        self._counts, self._seconds, self._rounds_seen, self._baseline = {}, 0.0, 0, None

    def clock_left(self) -> float | None:
        """The game clock left (seconds), or ``None`` without a clocked match."""
        left = getattr(self.match, "clock_seconds", None)
        return None if left is None else float(left)

    def budget(self, street: int, min_iterations: int = 1, size: float = 1.0) -> float | None:
        """Seconds the next re-solve on ``street`` (board length) of ``size`` (any measure its cost
        per iteration is proportional to, the same in :meth:`record`) may take: ``math.inf`` without
        a game clock, ``None`` when the blueprint should play instead (clock at the reserve, a budget
        under ``min_seconds`` or too short for ``min_iterations`` at the street's measured pace, unless
        a probe is due: see the module docstring)."""
        left = self.clock_left()
        if left is None:
            return math.inf
        played = self._played()
        config = self.config
        spendable = left - self.reserve_seconds
        if spendable <= 0:
            return None
        rounds_left = max(1, self.rounds - played)
        other = self._other_per_round(left, played)
        per_round = spendable / rounds_left - other
        streets = {street, *(s for s, _ in config.street_weights), *self._counts}
        expected = sum(config.weight(s) * self._rate(s, played) for s in streets)
        seconds = min(config.max_seconds, per_round * config.weight(street) / expected)
        if seconds < config.min_seconds:
            return None
        per_unit, fixed = self.pace(street) or (None, 0.0)
        needed = config.margin * (fixed + min_iterations * (per_unit or 0.0) * size)
        refused, interval = self._refusals.get(street, (0, config.probe_every))
        if seconds >= needed:
            self._refusals.pop(street, None)
            return seconds
        if refused < interval or needed >= spendable:
            self._refusals[street] = (refused + 1, interval)
            return None
        self._refusals[street] = (0, 2 * interval)  # a probe; the next one waits twice as long
        return seconds

    def record(self, street: int, seconds: float, run: Run | None = None, size: float = 1.0) -> None:
        """Count one re-solve on ``street`` of ``size`` that took ``seconds`` of wall time in all,
        ``run`` (from `run_within`) its iterations and their pace (``None``: not measured). A run of no
        iteration (the deadline passed before the solver started: ranges, tables) measures the
        seconds outside the iterations only, so that a street whose fixed cost alone overruns its
        budgets is refused (but for probes) instead of paying it every time. The street's first
        measurement is a warm-up, replaced by the second."""
        self._played()
        self._counts[street] = self._counts.get(street, 0) + 1
        self._seconds += float(seconds)
        if run is None:
            return
        if run.seconds_per_iteration is not None:
            iterating = run.iterations * run.seconds_per_iteration
            latest = (run.seconds_per_iteration / size, max(0.0, seconds - iterating))
        elif run.iterations == 0:
            latest = (None, float(seconds))
        else:
            return
        measured = self._measured.get(street, 0) + 1
        kept = self._samples.get(street, ()) if measured != 2 else ()  # the warm-up gives way
        self._samples[street] = (*kept, latest)[-PACE_SAMPLES:]
        self._measured[street] = measured

    def pace(self, street: int) -> tuple[float | None, float] | None:
        """The street's measured pace (see the module docstring), if measured: (seconds per iteration
        per unit of size, ``None`` until a run measured it; seconds outside the iterations)."""
        samples = self._samples.get(street)
        if not samples:
            return None
        paces = [per_unit for per_unit, _ in samples if per_unit is not None]
        return (statistics.median(paces) if paces else None), statistics.median(fixed for _, fixed in samples)

    def state(self) -> tuple:
        return (
            dict(self._counts),
            self._seconds,
            self._rounds_seen,
            dict(self._samples),
            dict(self._measured),
            dict(self._refusals),
        )

    def restore(self, state: tuple) -> None:
        counts, self._seconds, self._rounds_seen, samples, measured, refusals = state
        self._counts, self._samples = dict(counts), dict(samples)
        self._measured, self._refusals = dict(measured), dict(refusals)

    def _played(self) -> int:
        """Rounds played in the attached match; a count that went down starts a new match."""
        played = int(getattr(self.match, "rounds_played", 0))
        if played < self._rounds_seen:
            self._counts, self._seconds, self._baseline = {}, 0.0, None
        self._rounds_seen = played
        left = self.clock_left()
        if self._baseline is None and played >= 1 and left is not None:
            self._baseline = (left, played, self._seconds)
        return played

    def _other_per_round(self, left: float, played: int) -> float:
        """Clock a round costs besides re-solving, measured from the first time this manager saw a
        round finished (the first round pays for loading code), over at least ``prior_rounds`` rounds."""
        if self._baseline is None:
            return 0.0
        clock, rounds, seconds = self._baseline
        used = clock - left - (self._seconds - seconds)
        return max(0.0, used) / max(played - rounds, self.config.prior_rounds)

    def _rate(self, street: int, played: int) -> float:
        """Re-solves per round on ``street``, shrunk towards the prior."""
        prior = self.config.prior_rounds
        return (self._counts.get(street, 0) + self.config.prior_rate * prior) / (played + prior)


def run_within(
    step: Callable[[int], Any],
    *,
    max_iterations: int,
    deadline: float,
    now: Now = time.perf_counter,
    chunk: int = 16,
) -> Run:
    """Call ``step(n)`` (run ``n`` more iterations) until ``max_iterations`` are done or the next
    chunk would end past ``deadline`` (a ``now()`` value; ``math.inf``: none, all iterations in
    one call); returns the iterations done and the pace after the first chunk. Chunks are at most ``chunk`` iterations; the first is
    one iteration, later ones as many as fit before the deadline at this run's mean seconds per
    iteration so far.

    >>> clock = [0.0]
    >>> def step(n):  # a solver taking 3 ms an iteration on a fake clock
    ...     clock[0] += 0.003 * n
    >>> run = run_within(step, max_iterations=200, deadline=0.1, now=lambda: clock[0])
    >>> run.iterations, round(run.seconds_per_iteration, 6), round(clock[0], 3)
    (33, 0.003, 0.099)
    """
    done = 0
    started = now()
    after_first: float | None = None
    first = 0
    while done < max_iterations:
        current = now()
        remaining = deadline - current
        if math.isinf(remaining) and remaining > 0:
            size = max_iterations - done
        elif remaining <= 0:
            break
        elif done == 0:
            size = 1
        else:
            per_iteration = (current - started) / done
            size = chunk if per_iteration <= 0 else min(chunk, int(remaining // per_iteration))
        size = min(size, max_iterations - done)
        if size < 1:
            break
        step(size)
        done += size
        if after_first is None:
            after_first, first = now(), size
    if after_first is None or done == first:
        return Run(done, None)
    return Run(done, (now() - after_first) / (done - first))

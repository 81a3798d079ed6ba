"""The time manager: budgets from the game clock (split over rounds and streets, the reserve, the
measured pace) and the chunked runner, on fake clocks only (no timing flakiness)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from solver.bots.time_manager import Run, TimeConfig, TimeManager, run_within


class FakeMatch:
    """What the engine client offers the manager: the clock left and the rounds played."""

    def __init__(self, clock_seconds: float = 30.0, rounds_played: int = 0) -> None:
        self.clock_seconds = clock_seconds
        self.rounds_played = rounds_played


class FakeClock:
    """``now()`` for `run_within`; ``step`` advances it as a solver of ``pace`` seconds an iteration."""

    def __init__(self, pace: float, first: float = 0.0) -> None:
        self.time = 0.0
        self.pace = pace
        self.first = first  # extra cost of the first chunk (loading compiled code)
        self.calls: list[int] = []

    def now(self) -> float:
        return self.time

    def step(self, iterations: int) -> None:
        self.time += self.pace * iterations + (self.first if not self.calls else 0.0)
        self.calls.append(iterations)


def test_budget_splits_the_clock_above_the_reserve_over_rounds_and_streets() -> None:
    """Hand-computed: 30 s, reserve 15 s, 1000 rounds: 15 ms a round; prior 0.5 re-solves a round on
    each of two streets weighing 2 (turn) and 1 (river): the river gets 15 / (2 * 0.5 + 0.5) = 10 ms,
    the turn 20 ms, so the expected spend a round is exactly the 15 ms."""
    config = TimeConfig(street_weights=((4, 2.0), (5, 1.0)), max_seconds=10.0)
    manager = TimeManager(config, rounds=1000)
    match = FakeMatch()
    manager.attach(match)
    assert manager.reserve_seconds == 15.0
    assert manager.budget(5) == pytest.approx(0.010) and manager.budget(4) == pytest.approx(0.020)
    assert 0.5 * manager.budget(4) + 0.5 * manager.budget(5) == pytest.approx(0.015)

    # the first round cost 10 ms (loading code): the cost of a round besides re-solving counts after it
    match.clock_seconds, match.rounds_played = 29.99, 1
    assert manager.budget(5) == pytest.approx((29.99 - 15.0) / 999 / (3 * 10 / 21))  # rates (0 + 10) / 21
    # 100 rounds in: 4.5 s re-solving 50 rivers and no turn, 0.49 s elsewhere since the first round
    match.clock_seconds, match.rounds_played = 25.0, 100
    for _ in range(50):
        manager.record(5, 0.09)
    per_round = (25.0 - 15.0) / 900 - 0.49 / 99
    river_rate, turn_rate = (50 + 10) / 120, 10 / 120  # shrunk towards 0.5 by 20 pseudo-rounds
    assert manager.budget(5) == pytest.approx(per_round / (2 * turn_rate + river_rate))
    assert manager.budget(4) == pytest.approx(2 * manager.budget(5))


def test_below_the_reserve_or_the_minimum_the_blueprint_plays() -> None:
    manager = TimeManager(TimeConfig(target_fraction=0.4, min_seconds=0.005), rounds=1000)
    match = FakeMatch(30.0)
    manager.attach(match)
    assert manager.budget(5) == pytest.approx(12.0 / 1000 / 0.5)
    match.clock_seconds = 18.0  # exactly the reserve (60% of 30 s)
    assert manager.budget(5) is None
    match.clock_seconds = 18.5  # above it, but 0.5 s over 1000 rounds is 1 ms a re-solve: under min_seconds
    assert manager.budget(5) is None
    match.rounds_played = 990  # 10 rounds left: 0.5 s over them is worth re-solving again
    assert manager.budget(5) == pytest.approx(min(0.5, 0.5 / 10 / ((0.5 * 20) / (990 + 20))))


def test_a_measured_pace_too_slow_for_the_minimum_iterations_saves_the_clock_until_it_fits() -> None:
    """At 1 ms an iteration plus 2 ms outside them, 20 iterations need 22 ms (33 ms with the 1.5
    margin): a 30 ms budget is refused; as rounds pass without re-solves the rate estimate falls and
    the budget grows until it fits."""
    manager = TimeManager(TimeConfig(), rounds=1000)
    match = FakeMatch()
    manager.attach(match)
    manager.record(5, 0.002 + 10 * 0.001, Run(10, 0.001))
    assert manager.pace(5) == pytest.approx((0.001, 0.002))
    assert manager.budget(5) is not None and manager.budget(5, min_iterations=20) is None
    match.rounds_played = 30  # 30 rounds, one re-solve: rate (1 + 10) / 50
    assert manager.budget(5, min_iterations=20) == pytest.approx(15.0 / 970 / (11 / 50))
    assert manager.budget(5, min_iterations=20) > 1.5 * 0.022
    # the pace is per unit of size (the subgame's nodes): a tree 60 times as big needs 60 times the iterations' time
    sized = TimeManager(TimeConfig(), rounds=1000)
    sized.attach(FakeMatch())
    sized.record(5, 0.002 + 10 * 0.001, Run(10, 0.001), size=50)
    assert sized.pace(5) == pytest.approx((0.001 / 50, 0.002))
    assert sized.budget(5, min_iterations=20, size=50) is None  # 33 ms needed, 27 ms offered
    assert sized.budget(5, min_iterations=20, size=1) == pytest.approx(0.015 / 0.55)  # needs 1.5 * (2 + 0.4) ms


def test_a_fixed_cost_past_the_deadline_is_measured_and_refused_from_then_on() -> None:
    """A turn re-solve whose ranges, leaves and gadget took 100 ms, past its 15 ms budget, ran no
    iteration: that fixed cost is measured (no pace per iteration yet), so the next turn budget is
    refused (150 ms needed with the margin) instead of paying it again; a later measured run's pace
    is taken as it is, not averaged with the unmeasured one."""
    manager = TimeManager(TimeConfig(), rounds=1000)
    manager.attach(FakeMatch())
    assert manager.budget(4, min_iterations=10) == pytest.approx(0.015)  # nothing measured: only min_seconds
    manager.record(4, 0.1, Run(0, None))
    assert manager.pace(4) == pytest.approx((None, 0.1)) and manager.budget(4, min_iterations=10) is None
    assert manager.budget(5, min_iterations=20) is not None  # the river's pace is its own
    manager.record(4, 0.1 + 10 * 0.002, Run(10, 0.002))
    assert manager.pace(4) == pytest.approx((0.002, 0.25 * 0.1 + 0.75 * 0.1))


def test_without_a_clock_every_budget_is_unbounded_and_a_new_match_starts_afresh() -> None:
    manager = TimeManager(TimeConfig(), rounds=1000)
    assert manager.budget(5) == math.inf  # nothing attached
    manager.attach(object())  # e.g. our match runner's round counter: no clock
    assert manager.budget(5) == math.inf
    match = FakeMatch(30.0, 500)
    manager.attach(match)
    manager.record(5, 0.5)
    saved = manager.state()
    manager.record(5, 0.5)
    manager.restore(saved)
    assert manager.state() == saved
    match.rounds_played = 0  # the count went down: a new match, the old re-solves no longer count
    assert manager.budget(5) == pytest.approx(15.0 / 1000 / 0.5)
    with pytest.raises(ValueError, match="target_fraction must be in"):
        TimeConfig(target_fraction=1.0)
    with pytest.raises(ValueError, match="margin must be >= 1"):
        TimeConfig(margin=0.5)
    with pytest.raises(ValueError, match="rounds must be an int >= 1"):
        TimeManager(TimeConfig(), rounds=0)


def test_run_within_never_passes_the_deadline_at_a_steady_pace() -> None:
    for pace in (0.0003, 0.001, 0.0071):
        clock = FakeClock(pace)
        run = run_within(clock.step, max_iterations=10**6, deadline=0.05, now=clock.now)
        assert clock.time <= 0.05 and clock.time > 0.05 - pace * 2  # stops within an iteration or so
        assert run.iterations == sum(clock.calls) and run.seconds_per_iteration == pytest.approx(pace)
        assert clock.calls[0] == 1 and max(clock.calls) <= 16
    clock = FakeClock(0.001)
    assert run_within(clock.step, max_iterations=200, deadline=math.inf, now=clock.now) == Run(200, None)
    assert clock.calls == [200]  # no deadline: one call, nothing to pace
    clock.time = 5.0
    assert run_within(clock.step, max_iterations=200, deadline=4.0, now=clock.now) == Run(0, None)
    # a first chunk that pays for loading code past the deadline: one iteration, no pace measured
    clock = FakeClock(0.001, first=0.2)
    assert run_within(clock.step, max_iterations=200, deadline=0.1, now=clock.now) == Run(1, None)


def test_a_simulated_match_stays_within_the_target_and_every_budget() -> None:
    """1000 rounds on a fake clock: 1.5 ms of blueprint play a round, a river re-solve in 55% of rounds
    at a pace drawn per re-solve (0.2-0.8 ms an iteration, 1-3 ms outside the iterations, the first
    re-solve 150 ms slower to start). No re-solve passes its budget, the clock never runs out, and
    the match ends with 40-60% of the clock used; most rivers are re-solved."""
    rng = np.random.default_rng(3)
    manager = TimeManager(TimeConfig(), rounds=1000)
    match = FakeMatch(30.0)
    manager.attach(match)
    solved = refused = 0
    for played in range(1000):
        match.rounds_played = played
        match.clock_seconds -= 0.0015
        if rng.random() >= 0.55:
            continue
        budget = manager.budget(5, min_iterations=20)
        if budget is None:
            refused += 1
            continue
        clock = FakeClock(rng.uniform(0.0002, 0.0008), first=0.150 if solved == 0 else 0.0)
        setup = rng.uniform(0.001, 0.003)
        clock.time = setup
        run = run_within(clock.step, max_iterations=200, deadline=budget, now=clock.now)
        spent = clock.time
        assert spent <= budget or (solved == 0 and run.iterations == 1)  # only the code load overruns
        match.clock_seconds -= spent
        manager.record(5, spent, run)
        solved += 1
        assert match.clock_seconds > 0
    used = 1 - match.clock_seconds / 30.0
    assert 0.4 <= used <= 0.6, used
    assert solved > 4 * refused, (solved, refused)


def test_a_slow_first_re_solve_no_longer_locks_the_street_out_for_the_match() -> None:
    """A first river re-solve of 0.4 s (loading compiled code, a load spike) needs 0.6 s with the
    margin, more than the 0.5 s cap: it used to refuse the river for the rest of the match. Now the
    10th refusal is followed by a probe, whose 12 ms replaces the warm-up, and the river is
    re-solved again from then on; a later spike among steady re-solves moves the median not at all."""
    manager = TimeManager(TimeConfig(), rounds=1000)
    match = FakeMatch()
    manager.attach(match)
    manager.record(5, 0.39 + 10 * 0.001, Run(10, 0.001))
    budgets = []
    for played in range(1, 12):
        match.rounds_played = played
        budgets.append(manager.budget(5, min_iterations=20))
    assert budgets[:10] == [None] * 10 and budgets[10] is not None  # the probe
    manager.record(5, 0.002 + 10 * 0.001, Run(10, 0.001))
    assert manager.pace(5) == pytest.approx((0.001, 0.002))  # the warm-up is gone
    for played in range(12, 16):
        match.rounds_played = played
        assert manager.budget(5, min_iterations=20) is not None
        manager.record(5, 0.002 + 10 * 0.001, Run(10, 0.001))
    manager.record(5, 0.3 + 10 * 0.01, Run(10, 0.01))  # one load spike
    match.rounds_played = 40
    assert manager.pace(5) == pytest.approx((0.001, 0.002)) and manager.budget(5, min_iterations=20) is not None


def test_a_street_too_slow_for_its_budgets_is_probed_at_a_doubling_interval() -> None:
    """Every turn re-solve takes 0.4 s: a probe after 10 refusals, then 20, 40, ...: six probes in 1000
    rounds, each refused and probed budget leaves the reserve alone; a state restored undoes the
    refusals counted meanwhile."""
    manager = TimeManager(TimeConfig(), rounds=1000)
    match = FakeMatch()
    manager.attach(match)
    manager.record(4, 0.4, Run(0, None))
    probes = []
    for played in range(1000):
        match.rounds_played = played
        saved = manager.state()
        manager.budget(4, min_iterations=10)
        manager.restore(saved)
        assert manager.state() == saved
        if manager.budget(4, min_iterations=10) is not None:
            probes.append(played)
            match.clock_seconds -= 0.4
            manager.record(4, 0.4, Run(0, None))
    assert [b - a for a, b in itertools.pairwise(probes)] == [21, 41, 81, 161, 321]
    assert match.clock_seconds > manager.reserve_seconds
    # no probe when the clock above the reserve could not pay the measured cost
    match.clock_seconds = manager.reserve_seconds + 0.5
    for _ in range(1000):
        assert manager.budget(4, min_iterations=10) is None


def test_a_match_with_random_costs_a_load_spike_and_slow_first_re_solves_ends_above_the_reserve() -> None:
    """1000 rounds on a fake clock, turn (weight 2) and river re-solves with costs drawn per re-solve,
    the first of each street 0.6 s slower (more than a budget's cap), and a load spike (rounds
    300-349, everything 8 times slower). The clock never reaches the reserve, every re-solve but a
    fixed cost and a first iteration stays within its budget, and both streets are re-solved after the spike."""
    rng = np.random.default_rng(7)
    manager = TimeManager(TimeConfig(street_weights=((4, 2.0), (5, 1.0))), rounds=1000)
    match = FakeMatch(30.0)
    manager.attach(match)
    late = {4: 0, 5: 0}
    for played in range(1000):
        match.rounds_played = played
        slow = 8.0 if 300 <= played < 350 else 1.0
        match.clock_seconds -= 0.0015 * slow
        for street, chance, pace, setup, least in ((4, 0.4, 0.0005, 0.004, 10), (5, 0.55, 0.0003, 0.002, 20)):
            if rng.random() >= chance:
                continue
            budget = manager.budget(street, min_iterations=least)
            if budget is None:
                continue
            first = 0.6 if manager.pace(street) is None else 0.0
            clock = FakeClock(slow * pace * rng.uniform(0.5, 1.5))
            clock.time = first + slow * setup * rng.uniform(0.5, 1.5)
            run = run_within(clock.step, max_iterations=200, deadline=budget, now=clock.now)
            assert clock.time <= budget or run.iterations <= 1  # only a fixed cost and a first iteration overrun
            match.clock_seconds -= clock.time
            manager.record(street, clock.time, run)
            late[street] += played >= 500
            assert match.clock_seconds > manager.reserve_seconds
    assert 0.4 <= 1 - match.clock_seconds / 30.0 <= 0.6  # the project's target: at most 60%
    assert late[4] > 50 and late[5] > 50, late

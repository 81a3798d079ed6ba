"""One measured blueprint per Pokerbots year: build every recipe, evaluate it, write one table.

Run (full budget: about an hour per year on 2 cores; cached per stage, so it resumes)::

    .venv/bin/python experiments/blueprints.py --years 2022,2023,2024,2025,limit

Years and recipes: ``2022`` Swap (`swap`), ``2023`` River of Blood (`river_of_blood`), ``2024``
Auction (`auction`), ``2025`` Bounty (`bounty`), ``limit`` 3-player limit hold'em. A recipe is a
committed run file ``experiments/configs/blueprint_<variant>.toml`` (schema: solver/solve/run_config.py;
``rules = "engine"`` for the four engine years), whose comment line ``# blueprint-cards: variant=...
buckets=... method=... flops=... seed=...`` holds the card-abstraction build settings (the [cards]
table takes only a path), and ``# blueprint-companions: FILE ...`` extra run files solved in the same
year (limit: the heads-up limit game the lookup bot plays once a freeze-out is down to 2 players).

Stages per year, each cached in ``--work`` (default build/blueprints) and skipped when its output
exists with the same settings (``--force`` redoes them; a stage whose settings changed is redone):

1. ``cards``: ``vcfr abstract`` with the recipe's settings, cached by those settings
   (``<work>/cards/<variant>_<method>_<buckets>_flops<N>_seed<S>.h5``; years with equal settings
   share one file).
2. ``solve``: ``vcfr solve --config RECIPE --cards <card file> --out <work>/<year>/<stem>.h5
   [--minutes]`` (an interrupted solve resumes from its checkpoint with ``--resume``).
3. ``lbr``: ``vcfr lbr`` against the blueprint, one fixed setting throughout (:data:`LBR_SETTING`):
   5,000 hands per seat, 100 candidates, seed 0 (``--lbr-hands`` changes the hands; the smoke run
   uses fewer). Heads-up only: LBR refuses 3 players, so the limit row says so. LBR's actions are
   the blueprint's tree (fold, check/call, its raise sizes). Reference lines (``lbr_equity``,
   ``lbr_checkcall``): the same LBR in the same game against the equity bot's rule on exact cards
   and against always-call (``vcfr lbr --opponent``); target: LBR against the blueprint at most
   half of LBR against the equity bot.
4. ``matches``: duplicate matches under engine rules (`game.play.match.play_match`, what ``vcfr match
   --a strategy.h5 --b equity --rules engine`` runs) of the lookup bot against ``random``,
   ``checkcall`` and ``equity``, ``--hands`` rounds each (default 20,000); limit: ``--freezeouts``
   3-player freeze-outs (`game.play.freeze_out.FreezeOut`, real `LimitConfig(n_players=3)` rules) of
   `solver.bots.limit_lookup_bot.LimitLookupBot` against two ``random`` or two ``checkcall`` bots, the
   blueprint's seat rotating; wins (Wilson 95% interval) and final chips (95% interval).
   Every decision of the lookup bot is timed (``time.perf_counter`` around ``act``) after a short
   untimed warm-up match: p50/p99 in ms.
5. ``export``: `solver.bots.export_bot.export_bot` (``vcfr export-bot --bot lookup``, lock-in on, as
   uploaded): the folder's zipped size and the peak memory of its warm-up round. The limit game
   has no engine, so no export.

Outputs: ``<out>.md`` and ``<out>.json`` (default results/blueprints): every figure with its 95%
interval and number of hands, the targets (blueprint vs equity mean-CI > 0 and mean >= +300
mbb/hand; vs checkcall and random mean-CI > 0; p99 <= 2 ms; build <= 60 min and <= 8 GB; limit:
lower bound of the win share > 1/3) with a met/missed column (missed targets are reported as
missed), the exact command, the machine and the wall-clock seconds per stage and year.

``--smoke`` shrinks every card abstraction (buckets 20,8,8,8 on 5 flops) for tests; with tiny
``--minutes``, ``--hands``, ``--lbr-hands`` and ``--freezeouts`` a year takes about a minute.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import re
import shlex
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "experiments" / "configs"
YEARS = {"2022": "swap", "2023": "river_of_blood", "2024": "auction", "2025": "bounty", "limit": "limit"}
OPPONENTS = ("random", "checkcall", "equity")
LIMIT_LINEUPS = ("random", "checkcall")
LBR_CANDIDATES = 100
LBR_REFERENCES = ("equity", "checkcall")
"""Reference lines: the same LBR (game, hands, candidates, seed) against these bots (`vcfr lbr --opponent`)."""
EQUITY_SAMPLES = {"auction": 300}
"""Monte Carlo deals per equity of the equity-rule opponent where not the bot's own 1,000: the
Auction's bid nodes need two equities per candidate and every post-auction street a three-card one,
so 1,000 samples cost about 0.3 s per hand (50 min for the 10,000 hands); 300 samples gave the same
LBR value within its interval on Bounty (+15,745 ± 2,061 against +14,919 ± 2,062 mbb/hand)."""
LBR_SEED = 0
DEFAULT_LBR_HANDS = 5_000
LBR_SETTING = (
    "LBR: {hands:,} hands per seat (same deals in both seats), {candidates} candidate deals in the belief, "
    "seed {seed}, LBR's actions those of the blueprint's tree; the same LBR against the equity bot (its rule "
    "on the exact cards) and against always-call as reference lines"
)
SMOKE_CARDS = {"buckets": "20,8,8,8", "flops": "5"}
P99_TARGET_MS = 2.0
EQUITY_TARGET_MBB = 300.0
PARALLEL_RATE_TARGET = 1.8
PARALLEL_TIME_TARGET = 1.7
SWAP_RATE_TARGET = 50_000
BUDGET_SECONDS = 3600.0
BUDGET_BYTES = 8 * 1024**3
COLUMNS = ("year", "variant", "measure", "result", "95% CI ±", "hands", "target", "status")
"""Columns of the results table (markdown and ``rows`` of the JSON)."""
CARDS_LINE = re.compile(r"^#\s*blueprint-cards:\s*(.+)$", re.MULTILINE)
COMPANIONS_LINE = re.compile(r"^#\s*blueprint-companions:\s*(.+)$", re.MULTILINE)


# ----------------------------------------------------------------------------------------- recipes
@dataclass(frozen=True)
class CardSettings:
    """``vcfr abstract`` settings of a recipe (the ``blueprint-cards:`` comment line)."""

    variant: str
    buckets: str
    method: str
    flops: str = "all"
    seed: int = 0

    @property
    def key(self) -> str:
        return f"{self.variant}_{self.method}_{self.buckets.replace(',', '-')}_flops{self.flops}_seed{self.seed}"

    def arguments(self, out: Path) -> list[str]:
        flags = [
            "abstract",
            "--variant",
            self.variant,
            "--buckets",
            self.buckets,
            "--method",
            self.method,
            "--seed",
            str(self.seed),
            "--out",
            str(out),
            "--json",
        ]
        if self.flops != "all":
            flags[-3:-3] = ["--flops", self.flops]
        return flags


@dataclass(frozen=True)
class Recipe:
    """One year's recipe: run files (the main one first, then companions) and card settings."""

    year: str
    variant: str
    configs: tuple[Path, ...]
    cards: CardSettings
    tables: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def heads_up(self) -> bool:
        return self.variant != "limit"

    def summary(self) -> dict[str, Any]:
        rules, bets, solver = (self.tables.get(name, {}) for name in ("rules", "bets", "solver"))
        return {
            "configs": [
                str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path) for path in self.configs
            ],
            "cards": self.cards.__dict__,
            "rules": rules,
            "bets": bets,
            "solver": {key: solver.get(key) for key in ("algorithm", "minutes", "workers", "seed") if key in solver},
        }


def parse_card_settings(text: str, where: str = "recipe") -> CardSettings:
    """The ``key=value`` pairs of a ``blueprint-cards:`` line.

    >>> parse_card_settings("variant=swap buckets=169,32,32,32 method=ehs2 flops=all seed=0").key
    'swap_ehs2_169-32-32-32_flopsall_seed0'
    """
    values = {}
    for part in text.split():
        name, equals, value = part.partition("=")
        if not equals:
            raise ValueError(f"{where}: blueprint-cards takes key=value pairs, got {part!r}")
        values[name] = value
    unknown = set(values) - {"variant", "buckets", "method", "flops", "seed"}
    if unknown or not {"variant", "buckets", "method"} <= set(values):
        raise ValueError(
            f"{where}: blueprint-cards needs variant, buckets, method (flops, seed optional); got {text!r}"
        )
    return CardSettings(
        values["variant"], values["buckets"], values["method"], values.get("flops", "all"), int(values.get("seed", 0))
    )


def load_recipe(year: str, configs_dir: Path = CONFIGS) -> Recipe:
    variant = YEARS[year]
    path = configs_dir / f"blueprint_{variant}.toml"
    text = path.read_text()
    match = CARDS_LINE.search(text)
    if match is None:
        raise ValueError(f"{path}: no '# blueprint-cards: ...' line")
    cards = parse_card_settings(match.group(1), str(path))
    companions = COMPANIONS_LINE.search(text)
    configs = [path] + ([configs_dir / name for name in companions.group(1).split()] if companions else [])
    return Recipe(year, variant, tuple(configs), cards, tomllib.loads(text))


def config_minutes(path: Path) -> float:
    solver = tomllib.loads(path.read_text()).get("solver", {})
    if "minutes" in solver:
        return float(solver["minutes"])
    if "seconds" in solver:
        return float(solver["seconds"]) / 60.0
    raise ValueError(f"{path}: a blueprint recipe sets [solver] minutes")


# ----------------------------------------------------------------------------------------- stages
class Stages:
    """Cached stages: ``<work>/<year>/<stage>.json`` markers holding the stage's settings (``key``),
    its wall-clock seconds and its result."""

    def __init__(self, work: Path, force: bool) -> None:
        self.work = work
        self.force = force

    def cached(self, marker: Path, key: dict[str, Any]) -> dict[str, Any] | None:
        if self.force or not marker.is_file():
            return None
        try:
            data = json.loads(marker.read_text())
        except (OSError, json.JSONDecodeError):
            return None
        return data if data.get("key") == key else None

    @staticmethod
    def save(marker: Path, key: dict[str, Any], seconds: float, result: dict[str, Any]) -> dict[str, Any]:
        data = {
            "key": key,
            "seconds": seconds,
            "result": result,
            "finished": dt.datetime.now().isoformat(timespec="seconds"),
        }
        marker.parent.mkdir(parents=True, exist_ok=True)
        temporary = marker.with_suffix(".tmp")
        temporary.write_text(json.dumps(data, indent=1))
        temporary.replace(marker)
        return data


def run_command(arguments: list[str], log: Path) -> tuple[str, int]:
    """Run ``vcfr ARGUMENTS`` in a child process (stdout and stderr to ``log``); returns its stdout and
    peak memory (max RSS of that child, bytes). RuntimeError naming the log on failure."""
    command = [sys.executable, "-m", "solver.cli.main", *arguments]
    log.parent.mkdir(parents=True, exist_ok=True)
    print(f"$ vcfr {shlex.join(arguments)}", flush=True)
    with log.open("w") as out, log.with_suffix(".err").open("w") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    stdout = log.read_text()
    if process.returncode != 0:
        errors = log.with_suffix(".err").read_text().strip().splitlines()
        raise RuntimeError(
            f"vcfr {arguments[0]} failed (exit {process.returncode}): "
            f"{errors[-1] if errors else 'no message'} (log: {log})"
        )
    return stdout, int(usage.ru_maxrss) * 1024


def last_json(stdout: str) -> dict[str, Any]:
    for line in reversed(stdout.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError(f"no JSON line in {stdout[-300:]!r}")


def stage_cards(recipe: Recipe, stages: Stages, smoke: bool) -> tuple[Path, dict[str, Any]]:
    settings = recipe.cards
    if smoke:
        settings = CardSettings(
            settings.variant, SMOKE_CARDS["buckets"], settings.method, SMOKE_CARDS["flops"], settings.seed
        )
    path = stages.work / "cards" / f"{settings.key}.h5"
    marker = path.with_suffix(".json")
    key = {"cards": settings.__dict__}
    data = stages.cached(marker, key) if path.is_file() else None
    if data is not None:
        return path, {**data, "cached": True}
    started = time.perf_counter()
    stdout, peak = run_command(settings.arguments(path), marker.with_suffix(".log"))
    result = {**last_json(stdout), "peak_memory_bytes": peak}
    return path, {**stages.save(marker, key, time.perf_counter() - started, result), "cached": False}


def _solve_settings(path: Path) -> dict[str, Any]:
    """The run file's tables as the solve sees them, less its solve time (the cache key holds the
    minutes actually given): comments and the recipe's own minutes do not invalidate a finished solve."""
    tables = tomllib.loads(path.read_text())
    solver = {name: value for name, value in tables.get("solver", {}).items() if name not in ("minutes", "seconds")}
    return {**tables, "solver": solver}


def stage_solve(
    recipe: Recipe, cards: Path, stages: Stages, minutes: float | None
) -> tuple[list[Path], dict[str, Any]]:
    """Solve every run file of the recipe; ``minutes`` (the year's total) splits over them in
    proportion to their own minutes."""
    own = [config_minutes(path) for path in recipe.configs]
    total = sum(own)
    shares = own if minutes is None else [minutes * value / total for value in own]
    outputs, runs, seconds, peak = [], [], 0.0, 0
    all_cached = True
    for path, share in zip(recipe.configs, shares, strict=True):
        out = stages.work / recipe.year / f"{path.stem}.h5"
        marker = out.with_suffix(".solve.json")
        key = {
            "config": _solve_settings(path),
            "cards": str(cards),
            "card_bytes": cards.stat().st_size,
            "minutes": share,
        }
        data = stages.cached(marker, key) if out.is_file() else None
        if data is None:
            all_cached = False
            started_marker = out.with_suffix(".started.json")
            resume = (
                out.is_file()
                and not stages.force
                and started_marker.is_file()
                and json.loads(started_marker.read_text()) == key
            )
            if not resume:
                for stale in out.parent.glob(out.name + "*"):
                    stale.unlink()
                out.parent.mkdir(parents=True, exist_ok=True)
                started_marker.write_text(json.dumps(key))
            arguments = [
                "solve",
                "--config",
                str(path),
                "--cards",
                str(cards),
                "--out",
                str(out),
                "--seconds",
                f"{share * 60:.3f}",
                "--quiet",
                "--json",
            ] + (["--resume"] if resume else [])
            started = time.perf_counter()
            stdout, memory = run_command(arguments, out.with_suffix(".solve.log"))
            data = stages.save(
                marker, key, time.perf_counter() - started, {**last_json(stdout), "peak_memory_bytes": memory}
            )
        outputs.append(out)
        seconds += data["seconds"]
        peak = max(peak, data["result"]["peak_memory_bytes"])
        runs.append({"config": path.name, "minutes": share, **data["result"]})
    return outputs, {"seconds": seconds, "cached": all_cached, "result": {"runs": runs, "peak_memory_bytes": peak}}


def stage_lbr(recipe: Recipe, strategy: Path, stages: Stages, hands: int, opponent: str = "strategy") -> dict[str, Any]:
    """LBR in the blueprint's game against ``opponent``: ``strategy`` (the blueprint), or a reference
    line, ``equity`` (the equity bot's rule on exact cards) or ``checkcall``; the same LBR settings."""
    marker = stages.work / recipe.year / ("lbr.json" if opponent == "strategy" else f"lbr_{opponent}.json")
    key = {"strategy": _file_key(strategy), "hands": hands, "candidates": LBR_CANDIDATES, "seed": LBR_SEED}
    flags = []
    if opponent != "strategy":
        key["opponent"] = opponent
    if opponent == "equity" and recipe.variant in EQUITY_SAMPLES:
        key["equity_samples"] = EQUITY_SAMPLES[recipe.variant]
        flags = ["--equity-samples", str(EQUITY_SAMPLES[recipe.variant])]
    data = stages.cached(marker, key)
    if data is not None:
        return {**data, "cached": True}
    started = time.perf_counter()
    stdout, memory = run_command(
        [
            "lbr",
            str(strategy),
            "--hands",
            str(hands),
            "--candidates",
            str(LBR_CANDIDATES),
            "--seed",
            str(LBR_SEED),
            "--workers",
            "2",
            "--opponent",
            opponent,
            *flags,
            "--quiet",
            "--json",
        ],
        marker.with_suffix(".log"),
    )
    return {
        **stages.save(marker, key, time.perf_counter() - started, {**last_json(stdout), "peak_memory_bytes": memory}),
        "cached": False,
    }


def _file_key(path: Path) -> list[Any]:
    stat = path.stat()
    return [str(path), stat.st_size, stat.st_mtime_ns]


class TimedBot:
    """Wraps a bot; records the wall-clock seconds of every ``act`` call while ``timing`` is on."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []
        self.timing = True

    def act(self, observation: Any) -> Any:
        started = time.perf_counter()
        action = self.bot.act(observation)
        if self.timing:
            self.times.append(time.perf_counter() - started)
        return action


def _bot_seeds(seed: int) -> tuple[Any, Any]:
    import numpy as np

    return np.random.SeedSequence((seed, 1)), np.random.SeedSequence((seed, 2))


def stage_matches(
    recipe: Recipe, strategies: list[Path], stages: Stages, hands: int, freezeouts: int, max_games: int, seed: int
) -> dict[str, Any]:
    import numpy as np

    year_dir = stages.work / recipe.year
    marker = year_dir / "matches.json"
    key = {
        "strategies": [_file_key(path) for path in strategies],
        "hands": hands,
        "freezeouts": freezeouts,
        "max_games": max_games,
        "seed": seed,
    }
    data = stages.cached(marker, key)
    if data is not None and (year_dir / "decision_seconds.npy").is_file():
        return {**data, "cached": True}
    started = time.perf_counter()
    if recipe.heads_up:
        result, times = _heads_up_matches(strategies[0], hands, seed)
    else:
        result, times = _limit_freezeouts(strategies, freezeouts, max_games, seed)
    np.save(year_dir / "decision_seconds.npy", np.asarray(times, dtype=np.float64))
    result["decision_ms"] = _decision_summary(times)
    return {**stages.save(marker, key, time.perf_counter() - started, result), "cached": False}


def _decision_summary(times: list[float]) -> dict[str, Any]:
    import numpy as np

    if not times:
        return {"decisions": 0, "p50": None, "p99": None, "max": None, "mean": None}
    milliseconds = np.asarray(times) * 1e3
    return {
        "decisions": int(milliseconds.size),
        "p50": float(np.percentile(milliseconds, 50)),
        "p99": float(np.percentile(milliseconds, 99)),
        "max": float(milliseconds.max()),
        "mean": float(milliseconds.mean()),
    }


def _heads_up_matches(strategy: Path, hands: int, seed: int) -> tuple[dict[str, Any], list[float]]:
    from game.play.bots import make_bot
    from game.play.match import play_match
    from solver.bots.lookup_bot import LookupBot

    seed_a, seed_b = _bot_seeds(seed)
    bot = LookupBot(strategy, seed=seed_a, name="blueprint")
    config = bot.config
    if getattr(config, "rules", None) != "engine":
        raise ValueError(f"{strategy}: solved under rules {getattr(config, 'rules', None)!r}, not the engine's")
    timed = TimedBot(bot)
    timed.timing = False  # warm-up: numba compiles the lookups on the first hands
    play_match(
        config, timed, make_bot("checkcall", config=config, seed=seed_b), rounds=20, seed=seed + 10**6, duplicate=True
    )
    timed.timing = True
    matches = {}
    for opponent in OPPONENTS:
        before = (bot.decisions, bot.off_tree, bot.errors)
        match_started = time.perf_counter()
        result = play_match(
            config, timed, make_bot(opponent, config=config, seed=seed_b), rounds=hands, seed=seed, duplicate=True
        )
        summary = result.to_dict()
        summary.update(
            {
                "hands": result.rounds,
                "decisions": bot.decisions - before[0],
                "off_tree": bot.off_tree - before[1],
                "bot_errors": bot.errors - before[2],
                "seconds": time.perf_counter() - match_started,
            }
        )
        matches[opponent] = summary
        print(
            f"  vs {opponent}: {summary['mbb_per_hand']:+.0f} ± {summary['ci95_mbb_per_hand'] or float('nan'):.0f} "
            f"mbb/hand over {result.rounds} hands",
            flush=True,
        )
    return {"kind": "duplicate", "rules": config.rules, "stack": config.stack, "matches": matches}, timed.times


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """Wilson 95% interval of a proportion.

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    """
    from scipy.stats import binomtest

    if trials == 0:
        return 0.0, 1.0
    interval = binomtest(successes, trials).proportion_ci(confidence_level=0.95, method="wilson")
    return float(interval.low), float(interval.high)


def _limit_freezeouts(
    strategies: list[Path], freezeouts: int, max_games: int, seed: int
) -> tuple[dict[str, Any], list[float]]:
    import numpy as np

    from game.play.bots import make_bot
    from game.play.freeze_out import FreezeOut
    from game.play.match import interval_95
    from game.rules.limit import LimitConfig
    from solver.bots.limit_lookup_bot import LimitLookupBot

    bot = LimitLookupBot(strategies, seed=np.random.SeedSequence((seed, 1)), name="blueprint")
    timed = TimedBot(bot)
    config = LimitConfig(n_players=3)
    timed.timing = False
    FreezeOut(config, [timed, make_bot("checkcall", seed=1), make_bot("checkcall", seed=2)], seed=seed + 10**6).run(
        max_games=3
    )
    timed.timing = True
    lineups = {}
    for opponent in LIMIT_LINEUPS:
        before = (bot.decisions, bot.off_tree, bot.errors)
        started = time.perf_counter()
        wins = finished = games = 0
        chips = []
        for index in range(freezeouts):
            seat = index % 3
            others = iter(
                make_bot(opponent, seed=int(value))
                for value in np.random.SeedSequence((seed, 2, index)).generate_state(2)
            )
            bots = [timed if player == seat else next(others) for player in range(3)]
            freeze_out = FreezeOut(config, bots, seed=np.random.SeedSequence((seed, 3, index)))
            games += len(freeze_out.run(max_games=max_games))
            finished += freeze_out.winner is not None
            wins += freeze_out.winner == seat
            chips.append(int(freeze_out.stacks[seat]))
        low, high = wilson(wins, freezeouts)
        chips_array = np.asarray(chips, dtype=np.float64)
        chips_ci = interval_95(chips_array)
        lineups[opponent] = {
            "opponents": [opponent, opponent],
            "freezeouts": freezeouts,
            "finished": finished,
            "wins": wins,
            "win_share": wins / freezeouts,
            "win_share_ci95": [low, high],
            "fair_share": 1 / 3,
            "hands": games,
            "chips_mean": float(chips_array.mean()),
            "chips_ci95": chips_ci,
            "chips_total": 3 * config.buy_in,
            "decisions": bot.decisions - before[0],
            "off_tree": bot.off_tree - before[1],
            "bot_errors": bot.errors - before[2],
            "seconds": time.perf_counter() - started,
        }
        print(
            f"  limit vs 2x {opponent}: {wins}/{freezeouts} freeze-outs won, mean {chips_array.mean():,.0f} chips, "
            f"{games} games",
            flush=True,
        )
    return {"kind": "freezeout", "rules": config.__dict__, "lineups": lineups}, timed.times


def stage_export(recipe: Recipe, strategy: Path, stages: Stages) -> dict[str, Any]:
    marker = stages.work / recipe.year / "export.json"
    key = {"strategy": _file_key(strategy)}
    data = stages.cached(marker, key)
    if data is not None:
        return {**data, "cached": True}
    from solver.bots.export_bot import export_bot

    started = time.perf_counter()
    summary = export_bot(recipe.variant, "lookup", stages.work / recipe.year / "bot", strategy=strategy, force=True)
    result = {**summary.as_json(), "lock_in": True}
    return {**stages.save(marker, key, time.perf_counter() - started, result), "cached": False}


# ----------------------------------------------------------------------------------------- report
def _fmt(value: float | None, digits: int = 0, sign: bool = False) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    return f"{value:+,.{digits}f}" if sign else f"{value:,.{digits}f}"


def _status(ok: bool | None) -> str:
    return "—" if ok is None else ("met" if ok else "**missed**")


def year_rows(year: dict[str, Any]) -> list[dict[str, str]]:
    """The table rows of one year's report (:data:`COLUMNS` keys)."""
    rows: list[dict[str, str]] = []
    name, variant = year["year"], year["variant"]

    def row(measure: str, result: str, ci: str, hands: str, target: str, ok: bool | None) -> None:
        rows.append(dict(zip(COLUMNS, (name, variant, measure, result, ci, hands, target, _status(ok)), strict=True)))

    if "error" in year:
        row("build / evaluation", f"failed: {year['error']}", "n/a", "n/a", "every target", False)
        return rows
    stages = year["stages"]
    build_seconds = sum(stages[stage]["seconds"] for stage in ("cards", "solve") if stage in stages)
    build_peak = max(
        (stages[stage]["result"].get("peak_memory_bytes") or 0) for stage in ("cards", "solve") if stage in stages
    )
    row(
        "build wall clock (cards + solve, s)",
        _fmt(build_seconds),
        "n/a",
        "n/a",
        "<= 3,600 s on 2 cores",
        build_seconds <= BUDGET_SECONDS,
    )
    row(
        "build peak memory (GB)",
        _fmt(build_peak / 1e9, 2),
        "n/a",
        "n/a",
        "<= 8 GB (8.59e9 bytes)",
        build_peak <= BUDGET_BYTES,
    )
    lbr = year.get("lbr")
    if lbr is None:
        row(
            "LBR vs blueprint (mbb/hand)",
            "n/a: LBR is heads-up only (refuses 3 players)",
            "n/a",
            "n/a",
            "report only (lower is better)",
            None,
        )
    else:
        result = lbr["result"]
        reference = year.get("lbr_equity")
        ok = None if reference is None else result["mbb_per_hand"] <= 0.5 * reference["result"]["mbb_per_hand"]
        row(
            "LBR vs blueprint (mbb/hand)",
            _fmt(result["mbb_per_hand"], sign=True),
            _fmt(result["ci95_mbb"]),
            f"{2 * result['hands']:,} ({result['hands']:,}/seat)",
            "<= 1/2 x LBR vs equity bot (same LBR, same run)",
            ok,
        )
        for opponent, label in (("equity", "equity bot (its rule on exact cards)"), ("checkcall", "always-call")):
            line = year.get(f"lbr_{opponent}")
            if f"lbr_{opponent}_error" in year:
                row(
                    f"LBR vs {label}, reference (mbb/hand)",
                    f"n/a: {year[f'lbr_{opponent}_error']}",
                    "n/a",
                    "n/a",
                    "reference",
                    None,
                )
            elif line is not None:
                result = line["result"]
                if opponent == "equity" and "equity_samples" in line.get("key", {}):
                    label += f", {line['key']['equity_samples']} samples per equity"
                row(
                    f"LBR vs {label}, reference (mbb/hand)",
                    _fmt(result["mbb_per_hand"], sign=True),
                    _fmt(result["ci95_mbb"]),
                    f"{2 * result['hands']:,} ({result['hands']:,}/seat)",
                    "reference",
                    None,
                )
    matches = year["matches"]["result"]
    if matches["kind"] == "duplicate":
        for opponent in OPPONENTS:
            match = matches["matches"][opponent]
            mean, ci = match["mbb_per_hand"], match["ci95_mbb_per_hand"]
            lower = None if ci is None else mean - ci
            if opponent == "equity":
                target = "mean - CI > 0 and mean >= +300"
                ok = lower is not None and lower > 0 and mean >= EQUITY_TARGET_MBB
            else:
                target = "mean - CI > 0"
                ok = lower is not None and lower > 0
            row(
                f"vs {opponent}, duplicate, engine rules (mbb/hand)",
                _fmt(mean, sign=True),
                _fmt(ci),
                f"{match['hands']:,}",
                target,
                ok,
            )
    else:
        for opponent in LIMIT_LINEUPS:
            lineup = matches["lineups"][opponent]
            low, high = lineup["win_share_ci95"]
            row(
                f"freeze-outs vs 2x {opponent}: wins",
                f"{lineup['wins']}/{lineup['freezeouts']} ({lineup['win_share']:.0%})",
                f"[{low:.0%}, {high:.0%}]",
                f"{lineup['hands']:,}",
                "win-share CI lower bound > 1/3",
                low > 1 / 3,
            )
            row(
                f"freeze-outs vs 2x {opponent}: final chips (of {lineup['chips_total']:,})",
                _fmt(lineup["chips_mean"]),
                _fmt(lineup["chips_ci95"]),
                f"{lineup['hands']:,}",
                "report only",
                None,
            )
    decision = matches["decision_ms"]
    p99 = decision["p99"]
    row(
        "decision time p50 / p99 (ms)",
        f"{_fmt(decision['p50'], 3)} / {_fmt(p99, 3)}",
        "n/a",
        f"{decision['decisions']:,} decisions",
        "p99 <= 2 ms",
        None if p99 is None else p99 <= P99_TARGET_MS,
    )
    export = year.get("export")
    if export is None:
        row("bot zipped size (MB)", "n/a: no engine for the limit game (no export)", "n/a", "n/a", "report only", None)
        row("bot peak memory (MB)", "n/a: no engine for the limit game (no export)", "n/a", "n/a", "report only", None)
    else:
        result = export["result"]
        peak = result["peak_memory_bytes"]
        row("bot zipped size (MB)", _fmt(result["zipped_bytes"] / 1e6, 2), "n/a", "n/a", "report only", None)
        row(
            "bot peak memory (MB, warm-up round)",
            "n/a" if peak is None else _fmt(peak / 1e6, 0),
            "n/a",
            "n/a",
            "report only",
            None,
        )
    return rows


def _read_report(path: Path) -> dict[str, Any] | None:
    """A separate experiment's JSON report (official engines, parallel scaling, speed bench), or None if
    it has not been written."""
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None


def official_rows(year: dict[str, Any], official: dict[str, Any] | None) -> list[dict[str, str]]:
    """Rows of the year's play in its official engine, read from ``experiments/official_engines.py``'s
    report (a separate run: the engines are test-time peers cloned by the user, see that script)."""
    from game.pokerbots.engines import ENGINE_RULES

    name, variant = year["year"], year["variant"]
    if variant not in ENGINE_RULES:
        return []

    def row(measure: str, result: str, ci: str, hands: str, target: str, ok: bool | None) -> dict[str, str]:
        return dict(zip(COLUMNS, (name, variant, measure, result, ci, hands, target, _status(ok)), strict=True))

    played = [entry for entry in (official or {}).get("rows", []) if entry.get("year") == name and "duplicate" in entry]
    if not played:
        return [
            row(
                "official engine play",
                "n/a: not run (experiments/official_engines.py)",
                "n/a",
                "n/a",
                ">= 2,000 rounds, 0 illegal / timeouts / crashes",
                None,
            )
        ]
    rows = []
    for entry in played:
        duplicate = entry["duplicate"]
        rows.append(
            row(
                f"official {entry['year']} engine vs {entry['opponent']}, duplicate (mbb/hand)",
                _fmt(duplicate["mbb_per_hand"], sign=True),
                _fmt(duplicate["ci95_mbb"]),
                f"{entry['rounds']:,}",
                ">= 2,000 rounds",
                entry["rounds"] >= 2000,
            )
        )
    rounds = sum(entry["rounds"] for entry in played)
    events = sum(count for entry in played for side in ("ours", "engine") for count in entry["counts"][side].values())
    rows.append(
        row(
            "official engine: illegal actions, misformatted, timeouts, disconnects, crashes",
            f"{events}",
            "n/a",
            f"{rounds:,}",
            "0",
            events == 0,
        )
    )
    p99 = max(entry["decision_time"]["p99_ms"] for entry in played)
    rows.append(
        row(
            "official engine: decision time p99 (ms, inside the bot)",
            _fmt(p99, 3),
            "n/a",
            f"{sum(entry['decision_time']['count'] for entry in played):,} decisions",
            "<= 2 ms",
            p99 <= P99_TARGET_MS,
        )
    )
    return rows


def speed_rows(
    year: dict[str, Any], parallel: dict[str, Any] | None, bench: dict[str, Any] | None
) -> list[dict[str, str]]:
    """Rows of the solver's speed on the year's variant, from two separate runs that need an idle machine:
    ``experiments/parallel_scaling_abstract.py`` (2 threads vs 1 on the variant's default abstract game) and,
    for Swap, ``vcfr bench abstract`` (one-thread ES-MCCFR with fresh chance on Swap's default abstract game)."""
    from game.rules.variants import VARIANTS

    name, variant = year["year"], year["variant"]

    def row(measure: str, result: str, target: str, ok: bool | None) -> dict[str, str]:
        return dict(zip(COLUMNS, (name, variant, measure, result, "n/a", "n/a", target, _status(ok)), strict=True))

    rows = []
    measured = (parallel or {}).get("variants", {}).get(variant)
    if measured is not None:
        rate = measured["rates"]["speedups"]["2 threads"]
        time_ratio = measured["target"]["speedup"]
        rows.append(
            row(
                "parallel ES-MCCFR, 2 threads vs 1: iterations/s; time to an exact-exploitability target "
                "(results/parallel_scaling_abstract.md, separate idle-machine run)",
                f"{rate:.2f}x; {time_ratio:.2f}x",
                f">= {PARALLEL_RATE_TARGET}x; >= {PARALLEL_TIME_TARGET}x",
                rate >= PARALLEL_RATE_TARGET and time_ratio >= PARALLEL_TIME_TARGET,
            )
        )
    elif variant in VARIANTS:
        rows.append(row("parallel ES-MCCFR, 2 threads vs 1", "n/a: not run", ">= 1.8x; >= 1.7x", None))
    swap_rows = [entry for entry in (bench or {}).get("rows", []) if entry["variant"] == "swap"]
    if variant == "swap" and swap_rows:
        speed = swap_rows[0]["iterations_per_second"]
        rows.append(
            row(
                f"ES-MCCFR iterations/s, one thread, fresh chance, Swap game of {swap_rows[0]['nodes']:,} nodes "
                "(buckets 169/50/50/50, bets 0.5p,1p,a cap=2; results/bench_abstract.md, separate run)",
                f"{speed:,.0f}",
                f">= {SWAP_RATE_TARGET:,}",
                speed >= SWAP_RATE_TARGET,
            )
        )
    return rows


def markdown(report: dict[str, Any]) -> str:
    machine = report["machine"]
    lines = [
        "# Blueprints: one measured recipe per Pokerbots year",
        "",
    ]
    if report["smoke"]:
        lines += [
            "**SMOKE RUN: tiny card abstractions, seconds of solving, a handful of hands. These numbers say "
            "nothing about the recipes; the full run is `.venv/bin/python experiments/blueprints.py --years "
            "2022,2023,2024,2025,limit`.**",
            "",
        ]
    lines += [
        f"Command: `{report['command']}`",
        "",
        f"Machine: {machine['cores_used']} cores used (os.cpu_count {machine['cpu_count']}, "
        f"affinity {machine['affinity']}), {machine['ram_gb']:.1f} GB RAM, {machine['platform']}, Python "
        f"{machine['python']}. Date: {report['date']}.",
        "",
        LBR_SETTING.format(hands=report["settings"]["lbr_hands"], candidates=LBR_CANDIDATES, seed=LBR_SEED)
        + "; the same for every year. Matches: the lookup bot without lock-in (so they measure the strategy; "
        "exported bots lock in by default), duplicate deals (seats swapped), rules = engine, "
        f"{report['settings']['hands']:,} hands per opponent, seed {report['settings']['seed']}; the 95% interval "
        "is over deal pairs. Limit: 3-player freeze-outs (real LimitConfig(n_players=3) rules, buy-in 1,000), "
        f"{report['settings']['freezeouts']} per lineup, at most {report['settings']['max_games']:,} games each, the "
        'blueprint\'s seat rotating; wins with a Wilson 95% interval, chips with a Student-t one; "hands" = games played.',
        "Decision time: every `act` of the lookup bot during those matches (after an untimed warm-up).",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    for row in report["rows"]:
        lines.append("| " + " | ".join(str(row[column]).replace("|", "\\|") for column in COLUMNS) + " |")
    lines += ["", "## Recipes", ""]
    for year in report["years"].values():
        recipe = year["recipe"]
        cards = recipe["cards"]
        bets = recipe["bets"]
        bet_text = ", ".join(f"{key} `{value}`" for key, value in bets.items()) or "the limit (one raise size)"
        lines.append(
            f"- **{year['year']}** ({year['variant']}): {', '.join(recipe['configs'])}; cards "
            f"`vcfr abstract --variant {cards['variant']} --buckets {cards['buckets']} --method {cards['method']}"
            f"{'' if cards['flops'] == 'all' else ' --flops ' + str(cards['flops'])}`"
            f"{' (smoke: ' + year.get('cards_used', 'n/a') + ')' if report['smoke'] else ''}; bets {bet_text}; rules "
            f"{json.dumps(recipe['rules'])}; solver {json.dumps(recipe['solver'])}."
        )
    lines += [
        "",
        "## Wall-clock seconds per stage",
        "",
        "| year | " + " | ".join(STAGE_NAMES) + " | total |",
        "|---|" + "---|" * (len(STAGE_NAMES) + 1),
    ]
    for year in report["years"].values():
        cells = []
        for stage in STAGE_NAMES:
            info = year.get("stages", {}).get(stage)
            cells.append(
                "n/a" if info is None else f"{info['seconds']:,.1f}{' (cached)' if info.get('cached') else ''}"
            )
        total = sum(info["seconds"] for info in year.get("stages", {}).values())
        lines.append(f"| {year['year']} | " + " | ".join(cells) + f" | {total:,.1f} |")
    lines += [
        "",
        "Cached stages show the seconds of the run that built them. Solve iterations: "
        + "; ".join(
            f"{year['year']} "
            + ", ".join(f"{run['config']} {run['iterations']:,}" for run in year["stages"]["solve"]["result"]["runs"])
            for year in report["years"].values()
            if "solve" in year.get("stages", {})
        )
        + ".",
        "",
    ]
    return "\n".join(lines)


STAGE_NAMES = ("cards", "solve", "lbr", "matches", "export")


def machine_info(workers: int) -> dict[str, Any]:
    ram = 0.0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = int(line.split()[1]) * 1024 / 1e9
    except OSError:
        pass
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cores_used": workers,
        "cpu_count": os.cpu_count(),
        "affinity": affinity,
        "ram_gb": ram,
        "platform": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
    }


# ----------------------------------------------------------------------------------------- main
def run_year(year: str, arguments: argparse.Namespace, stages: Stages) -> dict[str, Any]:
    recipe = load_recipe(year, arguments.configs)
    report: dict[str, Any] = {"year": year, "variant": recipe.variant, "recipe": recipe.summary(), "stages": {}}
    print(f"== {year} ({recipe.variant})", flush=True)
    try:
        cards, report["stages"]["cards"] = stage_cards(recipe, stages, arguments.smoke)
        report["cards_used"] = cards.name
        strategies, report["stages"]["solve"] = stage_solve(recipe, cards, stages, arguments.minutes)
        if recipe.heads_up:
            report["lbr"] = report["stages"]["lbr"] = stage_lbr(recipe, strategies[0], stages, arguments.lbr_hands)
            for opponent in LBR_REFERENCES:
                try:
                    report[f"lbr_{opponent}"] = report["stages"][f"lbr_{opponent}"] = stage_lbr(
                        recipe, strategies[0], stages, arguments.lbr_hands, opponent
                    )
                except RuntimeError as error:  # a reference LBR refused (e.g. no equity rule for a variant)
                    report[f"lbr_{opponent}_error"] = " ".join(str(error).split())
                    print(f"  lbr_{opponent} not run: {report[f'lbr_{opponent}_error']}", flush=True)
        report["matches"] = report["stages"]["matches"] = stage_matches(
            recipe, strategies, stages, arguments.hands, arguments.freezeouts, arguments.max_games, arguments.seed
        )
        if recipe.heads_up:
            report["export"] = report["stages"]["export"] = stage_export(recipe, strategies[0], stages)
    except (RuntimeError, ValueError, OSError) as error:
        report["error"] = " ".join(str(error).split())
        print(f"  {year} failed: {report['error']}", flush=True)
    for name, info in report["stages"].items():
        print(f"  {name}: {info['seconds']:.1f} s{' (cached)' if info.get('cached') else ''}", flush=True)
    return report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--years", default="2022,2023,2024,2025,limit", help=f"comma-separated, of {', '.join(YEARS)} (default: all)"
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="solve minutes per year, replacing the recipes' (limit: split over its run files)",
    )
    parser.add_argument("--hands", type=int, default=20_000, help="hands per duplicate match (even; default 20,000)")
    parser.add_argument("--lbr-hands", type=int, default=DEFAULT_LBR_HANDS, help="LBR hands per seat (default 5,000)")
    parser.add_argument("--freezeouts", type=int, default=30, help="limit: 3-player freeze-outs per lineup")
    parser.add_argument("--max-games", type=int, default=500, help="limit: games at most per freeze-out")
    parser.add_argument("--seed", type=int, default=0, help="seed of the match deals")
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "results" / "blueprints",
        help="writes OUT.md and OUT.json (default results/blueprints)",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=ROOT / "build" / "blueprints",
        help="cached stages: card files, strategies, logs, bot folders",
    )
    parser.add_argument("--configs", type=Path, default=CONFIGS, help="folder of the blueprint_*.toml recipes")
    parser.add_argument(
        "--official",
        type=Path,
        default=ROOT / "results" / "official_engines.json",
        help="experiments/official_engines.py's JSON report, whose rows join the table",
    )
    parser.add_argument(
        "--parallel",
        type=Path,
        default=ROOT / "results" / "parallel_scaling_abstract.json",
        help="experiments/parallel_scaling_abstract.py's JSON report (needs an idle machine), whose rows join the table",
    )
    parser.add_argument(
        "--bench",
        type=Path,
        default=ROOT / "results" / "bench_abstract.json",
        help="`vcfr bench abstract --json`'s report (one-thread ES-MCCFR speed), whose Swap row joins the table",
    )
    parser.add_argument("--force", action="store_true", help="redo every stage even if its output exists")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"tiny card abstractions (buckets {SMOKE_CARDS['buckets']}, {SMOKE_CARDS['flops']} flops) for tests",
    )
    arguments = parser.parse_args(argv)
    years = [year.strip() for year in arguments.years.split(",") if year.strip()]
    unknown = [year for year in years if year not in YEARS]
    if unknown or not years:
        parser.error(f"--years takes {', '.join(YEARS)}; got {arguments.years!r}")
    if arguments.hands < 2 or arguments.hands % 2:
        parser.error(f"--hands must be even and >= 2 (duplicate pairs), got {arguments.hands}")
    if arguments.lbr_hands < 2 or arguments.freezeouts < 1 or arguments.max_games < 1:
        parser.error("--lbr-hands must be >= 2, --freezeouts and --max-games >= 1")
    if arguments.minutes is not None and arguments.minutes <= 0:
        parser.error(f"--minutes must be > 0, got {arguments.minutes}")
    arguments.work = arguments.work.resolve()
    arguments.configs = arguments.configs.resolve()
    stages = Stages(arguments.work, arguments.force)
    command = shlex.join([".venv/bin/python", "experiments/blueprints.py", *(sys.argv[1:] if argv is None else argv)])
    started = time.perf_counter()
    reports = {year: run_year(year, arguments, stages) for year in years}
    official = _read_report(arguments.official)
    parallel, bench = _read_report(arguments.parallel), _read_report(arguments.bench)
    rows = [
        row
        for year in reports.values()
        for row in year_rows(year) + official_rows(year, official) + speed_rows(year, parallel, bench)
    ]
    report = {
        "command": command,
        "smoke": arguments.smoke,
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine_info(2),
        "settings": {
            "hands": arguments.hands,
            "lbr_hands": arguments.lbr_hands,
            "lbr_candidates": LBR_CANDIDATES,
            "lbr_seed": LBR_SEED,
            "freezeouts": arguments.freezeouts,
            "max_games": arguments.max_games,
            "seed": arguments.seed,
            "minutes": arguments.minutes,
            "work": str(arguments.work),
        },
        "targets": {
            "equity": "mean-CI > 0 and mean >= +300 mbb/hand",
            "checkcall": "mean-CI > 0",
            "random": "mean-CI > 0",
            "p99_ms": P99_TARGET_MS,
            "build_seconds": BUDGET_SECONDS,
            "build_bytes": BUDGET_BYTES,
            "limit_win_share_lower": "> 1/3",
        },
        "columns": list(COLUMNS),
        "rows": rows,
        "years": reports,
        "seconds": time.perf_counter() - started,
    }
    out = arguments.out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(report, indent=1, default=str) + "\n")
    out.with_suffix(".md").write_text(markdown(report))
    print(f"wrote {out.with_suffix('.md')} and {out.with_suffix('.json')} ({report['seconds']:.0f} s)", flush=True)
    return report


if __name__ == "__main__":
    main()

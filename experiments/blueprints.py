"""One measured blueprint per Pokerbots year: build every recipe, evaluate it, write one table.

Run (full budget: about an hour per year on 2 cores; cached per stage, so it resumes)::

    .venv/bin/python experiments/blueprints.py --years 2022,2023,2024,2025,limit

Years and recipes: ``2022`` Swap (`swap`), ``2023`` River of Blood (`river_of_blood`), ``2024``
Auction (`auction`), ``2025`` Bounty (`bounty`), ``limit`` 3-player limit hold'em. A recipe is a
committed run file ``experiments/configs/blueprint_<variant>.toml`` (schema: solver/solve/run_config.py;
``rules = "engine"`` for the four engine years), whose ``[cards]`` table holds the card-abstraction
build settings (``buckets``, ``method``, ``seed``; the card file's variant follows the game's), plus
the run files :data:`COMPANIONS` solves in the same year (limit: the heads-up limit game the lookup
bot plays once a freeze-out is down to 2 players).

Stages per year, each cached in ``--work`` (default build/blueprints) by ``harness.Stages`` and
skipped when its output exists with the same settings (``--force`` redoes them; a stage whose
settings changed is redone):

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
import json
import math
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import harness
from harness import ROOT, Stages, run_vcfr

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
COMPANIONS = {"limit": ("blueprint_limit_hu.toml",)}
"""Run files solved with a year's recipe, in its configs folder (the main file's budget split over all)."""


# ----------------------------------------------------------------------------------------- recipes
@dataclass(frozen=True)
class CardSettings:
    """``vcfr abstract`` settings of a recipe (its run file's ``[cards]`` table); ``variant`` is the
    card file's (`abstraction.cards.buckets.card_file_variant` of the game's)."""

    variant: str
    buckets: str
    method: str
    flops: str = "all"
    seed: int = 0

    @property
    def key(self) -> str:
        return f"{self.variant}_{self.method}_{self.buckets.replace(',', '-')}_flops{self.flops}_seed{self.seed}"

    def arguments(self, out: Path) -> list[str]:
        """``vcfr abstract ... --out OUT --json``.

        >>> CardSettings("swap", "169,32,32,32", "ehs2", "5").arguments(Path("c.h5"))[-6:]
        ['0', '--flops', '5', '--out', 'c.h5', '--json']
        """
        from solver.solve.run_config import CardsTable

        flops = None if self.flops == "all" else int(self.flops)
        return [
            *CardsTable(str(out), self.buckets, self.method, flops, self.seed).build_arguments(self.variant),
            "--json",
        ]

    @classmethod
    def of_run_file(cls, path: Path) -> CardSettings:
        """The ``[cards]`` build settings of a run file (ValueError naming the file if it has none).

        >>> CardSettings.of_run_file(harness.ROOT / "experiments/configs/blueprint_bounty.toml").key
        'bounty_ehs2_169-24-24-24_flopsall_seed0'
        """
        from abstraction.cards.buckets import card_file_variant
        from solver.solve.run_config import load_run_config

        run = load_run_config(path)
        cards = run.cards
        if not cards.buildable:
            raise ValueError(f"{path}: a blueprint recipe's [cards] table sets buckets and method (vcfr abstract)")
        flops = "all" if cards.flops is None else str(cards.flops)
        return cls(card_file_variant(run.rules.variant), str(cards.buckets), str(cards.method), flops, cards.seed or 0)


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


def load_recipe(year: str, configs_dir: Path = CONFIGS) -> Recipe:
    variant = YEARS[year]
    path = configs_dir / f"blueprint_{variant}.toml"
    text = path.read_text()
    cards = CardSettings.of_run_file(path)
    configs = [path] + [configs_dir / name for name in COMPANIONS.get(year, ())]
    return Recipe(year, variant, tuple(configs), cards, tomllib.loads(text))


def config_minutes(path: Path) -> float:
    solver = tomllib.loads(path.read_text()).get("solver", {})
    if "minutes" in solver:
        return float(solver["minutes"])
    if "seconds" in solver:
        return float(solver["seconds"]) / 60.0
    raise ValueError(f"{path}: a blueprint recipe sets [solver] minutes")


# ----------------------------------------------------------------------------------------- stages
def stage_cards(recipe: Recipe, stages: Stages, smoke: bool) -> tuple[Path, dict[str, Any]]:
    settings = recipe.cards
    if smoke:
        settings = CardSettings(
            settings.variant, SMOKE_CARDS["buckets"], settings.method, SMOKE_CARDS["flops"], settings.seed
        )
    path = stages.work / "cards" / f"{settings.key}.h5"
    marker = path.with_suffix(".json")

    def build() -> dict[str, Any]:
        stdout, peak = run_vcfr(settings.arguments(path), marker.with_suffix(".log"))
        return {**harness.last_json(stdout), "peak_memory_bytes": peak}

    return path, stages.run(marker, {"cards": settings.__dict__}, build, outputs=(path,))


def _solve_settings(path: Path) -> dict[str, Any]:
    """The run file's tables as the solve sees them, less its solve time (the cache key holds the
    minutes actually given): comments and the recipe's own minutes do not invalidate a finished solve."""
    tables = tomllib.loads(path.read_text())
    solver = {name: value for name, value in tables.get("solver", {}).items() if name not in ("minutes", "seconds")}
    return {**tables, "solver": solver}


def _solve_one(path: Path, cards: Path, out: Path, minutes: float, stages: Stages) -> dict[str, Any]:
    """One run file solved for ``minutes`` into ``out`` (cached; an interrupted solve with the same
    settings resumes from its last checkpoint)."""
    marker = out.with_suffix(".solve.json")
    key = {"config": _solve_settings(path), "cards": str(cards), "card_bytes": cards.stat().st_size, "minutes": minutes}

    def solve() -> dict[str, Any]:
        resume = stages.begin(marker, key) and out.is_file()
        if not resume:
            for stale in out.parent.glob(out.name + "*"):
                stale.unlink()
        arguments = ["solve", "--config", str(path), "--cards", str(cards), "--out", str(out)]
        arguments += ["--seconds", f"{minutes * 60:.3f}", "--quiet", "--json"] + (["--resume"] if resume else [])
        stdout, memory = run_vcfr(arguments, out.with_suffix(".solve.log"))
        return {**harness.last_json(stdout), "peak_memory_bytes": memory}

    return stages.run(marker, key, solve, outputs=(out,))


def stage_solve(
    recipe: Recipe, cards: Path, stages: Stages, minutes: float | None
) -> tuple[list[Path], dict[str, Any]]:
    """Solve every run file of the recipe; ``minutes`` (the year's total) splits over them in
    proportion to their own minutes."""
    own = [config_minutes(path) for path in recipe.configs]
    shares = own if minutes is None else [minutes * value / sum(own) for value in own]
    outputs = [stages.work / recipe.year / f"{path.stem}.h5" for path in recipe.configs]
    solved = [
        _solve_one(path, cards, out, share, stages)
        for path, out, share in zip(recipe.configs, outputs, shares, strict=True)
    ]
    runs = [
        {"config": path.name, "minutes": share, **data["result"]}
        for path, share, data in zip(recipe.configs, shares, solved, strict=True)
    ]
    return outputs, {
        "seconds": sum(data["seconds"] for data in solved),
        "cached": all(data["cached"] for data in solved),
        "result": {"runs": runs, "peak_memory_bytes": max(data["result"]["peak_memory_bytes"] for data in solved)},
    }


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
    arguments = ["lbr", str(strategy), "--hands", str(hands), "--candidates", str(LBR_CANDIDATES)]
    arguments += ["--seed", str(LBR_SEED), "--workers", "2", "--opponent", opponent, *flags, "--quiet", "--json"]

    def measure() -> dict[str, Any]:
        stdout, memory = run_vcfr(arguments, marker.with_suffix(".log"))
        return {**harness.last_json(stdout), "peak_memory_bytes": memory}

    return stages.run(marker, key, measure)


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
    times_file = year_dir / "decision_seconds.npy"

    def play() -> dict[str, Any]:
        if recipe.heads_up:
            result, times = _heads_up_matches(strategies[0], hands, seed)
        else:
            result, times = _limit_freezeouts(strategies, freezeouts, max_games, seed)
        np.save(times_file, np.asarray(times, dtype=np.float64))
        return {**result, "decision_ms": _decision_summary(times)}

    return stages.run(marker, key, play, outputs=(times_file,))


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


def _freezeout_lineup(
    config: Any, timed: TimedBot, opponent: str, freezeouts: int, max_games: int, seed: int
) -> dict[str, Any]:
    """``freezeouts`` 3-player freeze-outs of the blueprint (``timed``) against two ``opponent`` bots, its
    seat rotating: wins (Wilson 95% interval), final chips (95% interval), games, the bot's counters."""
    import numpy as np

    from game.play.bots import make_bot
    from game.play.freeze_out import FreezeOut
    from game.play.match import interval_95

    bot = timed.bot
    before = (bot.decisions, bot.off_tree, bot.errors)
    started = time.perf_counter()
    wins = finished = games = 0
    chips = []
    for index in range(freezeouts):
        seat = index % 3
        others = iter(
            make_bot(opponent, seed=int(value)) for value in np.random.SeedSequence((seed, 2, index)).generate_state(2)
        )
        bots = [timed if player == seat else next(others) for player in range(3)]
        freeze_out = FreezeOut(config, bots, seed=np.random.SeedSequence((seed, 3, index)))
        games += len(freeze_out.run(max_games=max_games))
        finished += freeze_out.winner is not None
        wins += freeze_out.winner == seat
        chips.append(int(freeze_out.stacks[seat]))
    low, high = wilson(wins, freezeouts)
    chips_array = np.asarray(chips, dtype=np.float64)
    print(
        f"  limit vs 2x {opponent}: {wins}/{freezeouts} freeze-outs won, mean {chips_array.mean():,.0f} chips, "
        f"{games} games",
        flush=True,
    )
    return {
        "opponents": [opponent, opponent],
        "freezeouts": freezeouts,
        "finished": finished,
        "wins": wins,
        "win_share": wins / freezeouts,
        "win_share_ci95": [low, high],
        "fair_share": 1 / 3,
        "hands": games,
        "chips_mean": float(chips_array.mean()),
        "chips_ci95": interval_95(chips_array),
        "chips_total": 3 * config.buy_in,
        "decisions": bot.decisions - before[0],
        "off_tree": bot.off_tree - before[1],
        "bot_errors": bot.errors - before[2],
        "seconds": time.perf_counter() - started,
    }


def _limit_freezeouts(
    strategies: list[Path], freezeouts: int, max_games: int, seed: int
) -> tuple[dict[str, Any], list[float]]:
    import numpy as np

    from game.play.bots import make_bot
    from game.play.freeze_out import FreezeOut
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
    lineups = {
        opponent: _freezeout_lineup(config, timed, opponent, freezeouts, max_games, seed) for opponent in LIMIT_LINEUPS
    }
    return {"kind": "freezeout", "rules": config.__dict__, "lineups": lineups}, timed.times


def stage_export(recipe: Recipe, strategy: Path, stages: Stages) -> dict[str, Any]:
    marker = stages.work / recipe.year / "export.json"
    key = {"strategy": _file_key(strategy)}

    def export() -> dict[str, Any]:
        from solver.bots.export_bot import export_bot

        folder = stages.work / recipe.year / "bot"
        summary = export_bot(recipe.variant, "lookup", folder, strategy=strategy, force=True)
        return {**summary.as_json(), "lock_in": True}

    return stages.run(marker, key, export)


# ----------------------------------------------------------------------------------------- report
def _fmt(value: float | None, digits: int = 0, sign: bool = False) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    return f"{value:+,.{digits}f}" if sign else f"{value:,.{digits}f}"


def _status(ok: bool | None) -> str:
    return "—" if ok is None else ("met" if ok else "**missed**")


def _row(
    year: dict[str, Any], measure: str, result: str, ci: str, hands: str, target: str, ok: bool | None
) -> dict[str, str]:
    """One table row (:data:`COLUMNS` keys) of ``year``; ``ok`` None: no target to meet."""
    values = (year["year"], year["variant"], measure, result, ci, hands, target, _status(ok))
    return dict(zip(COLUMNS, values, strict=True))


def _build_rows(year: dict[str, Any]) -> list[dict[str, str]]:
    """Wall clock and peak memory of the build (card abstraction + solve) against the budget."""
    stages = year["stages"]
    built = [stages[stage] for stage in ("cards", "solve") if stage in stages]
    seconds = sum(stage["seconds"] for stage in built)
    peak = max((stage["result"].get("peak_memory_bytes") or 0) for stage in built)
    return [
        _row(year, "build wall clock (cards + solve, s)", _fmt(seconds), "n/a", "n/a", "<= 3,600 s on 2 cores",
             seconds <= BUDGET_SECONDS),
        _row(year, "build peak memory (GB)", _fmt(peak / 1e9, 2), "n/a", "n/a", "<= 8 GB (8.59e9 bytes)",
             peak <= BUDGET_BYTES),
    ]  # fmt: skip


def _lbr_hands(result: dict[str, Any]) -> str:
    return f"{2 * result['hands']:,} ({result['hands']:,}/seat)"


def _lbr_rows(year: dict[str, Any]) -> list[dict[str, str]]:
    """LBR against the blueprint (target: at most half of LBR against the equity bot) and the
    reference lines (equity bot, always-call), or why they are missing."""
    lbr = year.get("lbr")
    measure = "LBR vs blueprint (mbb/hand)"
    if lbr is None:
        only = "n/a: LBR is heads-up only (refuses 3 players)"
        return [_row(year, measure, only, "n/a", "n/a", "report only (lower is better)", None)]
    result = lbr["result"]
    reference = year.get("lbr_equity")
    ok = None if reference is None else result["mbb_per_hand"] <= 0.5 * reference["result"]["mbb_per_hand"]
    rows = [
        _row(year, measure, _fmt(result["mbb_per_hand"], sign=True), _fmt(result["ci95_mbb"]), _lbr_hands(result),
             "<= 1/2 x LBR vs equity bot (same LBR, same run)", ok)
    ]  # fmt: skip
    for opponent, label in (("equity", "equity bot (its rule on exact cards)"), ("checkcall", "always-call")):
        line = year.get(f"lbr_{opponent}")
        if f"lbr_{opponent}_error" in year:
            error = f"n/a: {year[f'lbr_{opponent}_error']}"
            rows.append(_row(year, f"LBR vs {label}, reference (mbb/hand)", error, "n/a", "n/a", "reference", None))
        elif line is not None:
            result = line["result"]
            if opponent == "equity" and "equity_samples" in line.get("key", {}):
                label += f", {line['key']['equity_samples']} samples per equity"
            rows.append(
                _row(year, f"LBR vs {label}, reference (mbb/hand)", _fmt(result["mbb_per_hand"], sign=True),
                     _fmt(result["ci95_mbb"]), _lbr_hands(result), "reference", None)
            )  # fmt: skip
    return rows


def _duplicate_rows(year: dict[str, Any], matches: dict[str, Any]) -> list[dict[str, str]]:
    """Heads-up duplicate matches: the mean's 95% interval above 0 (and +300 against the equity bot)."""
    rows = []
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
        measure = f"vs {opponent}, duplicate, engine rules (mbb/hand)"
        rows.append(_row(year, measure, _fmt(mean, sign=True), _fmt(ci), f"{match['hands']:,}", target, ok))
    return rows


def _freezeout_rows(year: dict[str, Any], matches: dict[str, Any]) -> list[dict[str, str]]:
    """3-player limit freeze-outs: the win share's lower bound above 1/3, and the final chips."""
    rows = []
    for opponent in LIMIT_LINEUPS:
        lineup = matches["lineups"][opponent]
        low, high = lineup["win_share_ci95"]
        hands = f"{lineup['hands']:,}"
        wins = f"{lineup['wins']}/{lineup['freezeouts']} ({lineup['win_share']:.0%})"
        rows.append(
            _row(year, f"freeze-outs vs 2x {opponent}: wins", wins, f"[{low:.0%}, {high:.0%}]", hands,
                 "win-share CI lower bound > 1/3", low > 1 / 3)
        )  # fmt: skip
        rows.append(
            _row(year, f"freeze-outs vs 2x {opponent}: final chips (of {lineup['chips_total']:,})",
                 _fmt(lineup["chips_mean"]), _fmt(lineup["chips_ci95"]), hands, "report only", None)
        )  # fmt: skip
    return rows


def _bot_rows(year: dict[str, Any], decision: dict[str, Any]) -> list[dict[str, str]]:
    """The lookup bot's decision time (p99 target) and its exported folder's size and memory."""
    p99 = decision["p99"]
    rows = [
        _row(year, "decision time p50 / p99 (ms)", f"{_fmt(decision['p50'], 3)} / {_fmt(p99, 3)}", "n/a",
             f"{decision['decisions']:,} decisions", "p99 <= 2 ms", None if p99 is None else p99 <= P99_TARGET_MS)
    ]  # fmt: skip
    export = year.get("export")
    if export is None:
        no_export = "n/a: no engine for the limit game (no export)"
        rows.append(_row(year, "bot zipped size (MB)", no_export, "n/a", "n/a", "report only", None))
        rows.append(_row(year, "bot peak memory (MB)", no_export, "n/a", "n/a", "report only", None))
        return rows
    result = export["result"]
    peak = result["peak_memory_bytes"]
    size = _fmt(result["zipped_bytes"] / 1e6, 2)
    rows.append(_row(year, "bot zipped size (MB)", size, "n/a", "n/a", "report only", None))
    memory = "n/a" if peak is None else _fmt(peak / 1e6, 0)
    rows.append(_row(year, "bot peak memory (MB, warm-up round)", memory, "n/a", "n/a", "report only", None))
    return rows


def year_rows(year: dict[str, Any]) -> list[dict[str, str]]:
    """The table rows of one year's report (:data:`COLUMNS` keys): build, LBR, matches, the bot."""
    if "error" in year:
        return [_row(year, "build / evaluation", f"failed: {year['error']}", "n/a", "n/a", "every target", False)]
    matches = year["matches"]["result"]
    played = _duplicate_rows if matches["kind"] == "duplicate" else _freezeout_rows
    return _build_rows(year) + _lbr_rows(year) + played(year, matches) + _bot_rows(year, matches["decision_ms"])


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

    name = year["year"]
    if year["variant"] not in ENGINE_RULES:
        return []

    def row(measure: str, result: str, ci: str, hands: str, target: str, ok: bool | None) -> dict[str, str]:
        return _row(year, measure, result, ci, hands, target, ok)

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

    variant = year["variant"]

    def row(measure: str, result: str, target: str, ok: bool | None) -> dict[str, str]:
        return _row(year, measure, result, "n/a", "n/a", target, ok)

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


def _header_lines(report: dict[str, Any]) -> list[str]:
    """The smoke warning, command, machine and the LBR, match and decision-time settings."""
    lines = ["# Blueprints: one measured recipe per Pokerbots year", ""]
    if report["smoke"]:
        lines += [
            "**SMOKE RUN: tiny card abstractions, seconds of solving, a handful of hands. These numbers say "
            "nothing about the recipes; the full run is `.venv/bin/python experiments/blueprints.py --years "
            "2022,2023,2024,2025,limit`.**",
            "",
        ]
    settings = report["settings"]
    return [
        *lines,
        f"Command: `{report['command']}`" + (f" (commit {report['commit']})" if report.get("commit") else ""),
        "",
        f"Machine: {harness.machine_line(report['machine'])}. Date: {report['date']}.",
        "",
        LBR_SETTING.format(hands=settings["lbr_hands"], candidates=LBR_CANDIDATES, seed=LBR_SEED)
        + "; the same for every year. Matches: the lookup bot without lock-in (so they measure the strategy; "
        "exported bots lock in by default), duplicate deals (seats swapped), rules = engine, "
        f"{settings['hands']:,} hands per opponent, seed {settings['seed']}; the 95% interval "
        "is over deal pairs. Limit: 3-player freeze-outs (real LimitConfig(n_players=3) rules, buy-in 1,000), "
        f"{settings['freezeouts']} per lineup, at most {settings['max_games']:,} games each, the "
        'blueprint\'s seat rotating; wins with a Wilson 95% interval, chips with a Student-t one; "hands" = games played.',
        "Decision time: every `act` of the lookup bot during those matches (after an untimed warm-up).",
        "",
    ]


def _table_lines(rows: list[dict[str, str]]) -> list[str]:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    return lines + [
        "| " + " | ".join(str(row[column]).replace("|", "\\|") for column in COLUMNS) + " |" for row in rows
    ]


def _recipe_lines(report: dict[str, Any]) -> list[str]:
    """One line per year: run files, the ``vcfr abstract`` settings, bets, rules and solver."""
    lines = ["", "## Recipes", ""]
    for year in report["years"].values():
        recipe = year["recipe"]
        cards = recipe["cards"]
        bet_text = (
            ", ".join(f"{key} `{value}`" for key, value in recipe["bets"].items()) or "the limit (one raise size)"
        )
        lines.append(
            f"- **{year['year']}** ({year['variant']}): {', '.join(recipe['configs'])}; cards "
            f"`vcfr abstract --variant {cards['variant']} --buckets {cards['buckets']} --method {cards['method']}"
            f"{'' if cards['flops'] == 'all' else ' --flops ' + str(cards['flops'])}`"
            f"{' (smoke: ' + year.get('cards_used', 'n/a') + ')' if report['smoke'] else ''}; bets {bet_text}; rules "
            f"{json.dumps(recipe['rules'])}; solver {json.dumps(recipe['solver'])}."
        )
    return lines


def _stage_lines(report: dict[str, Any]) -> list[str]:
    """Wall-clock seconds per stage and year (cached stages: those of the run that built them)."""
    lines = [
        "",
        "## Wall-clock seconds per stage",
        "",
        "| year | " + " | ".join(STAGE_NAMES) + " | total |",
        "|---|" + "---|" * (len(STAGE_NAMES) + 1),
    ]
    for year in report["years"].values():
        stages = year.get("stages", {})
        cells = [
            "n/a"
            if (info := stages.get(stage)) is None
            else f"{info['seconds']:,.1f}{' (cached)' if info.get('cached') else ''}"
            for stage in STAGE_NAMES
        ]
        total = sum(info["seconds"] for info in stages.values())
        lines.append(f"| {year['year']} | " + " | ".join(cells) + f" | {total:,.1f} |")
    iterations = "; ".join(
        f"{year['year']} "
        + ", ".join(f"{run['config']} {run['iterations']:,}" for run in year["stages"]["solve"]["result"]["runs"])
        for year in report["years"].values()
        if "solve" in year.get("stages", {})
    )
    return [
        *lines,
        "",
        f"Cached stages show the seconds of the run that built them. Solve iterations: {iterations}.",
        "",
    ]


def markdown(report: dict[str, Any]) -> str:
    lines = _header_lines(report) + _table_lines(report["rows"]) + _recipe_lines(report) + _stage_lines(report)
    return "\n".join(lines)


STAGE_NAMES = ("cards", "solve", "lbr", "matches", "export")


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


def build_parser() -> argparse.ArgumentParser:
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
    results = ROOT / "results"
    harness.add_path_options(
        parser,
        {
            "--out": (results / "blueprints", "writes OUT.md and OUT.json (default results/blueprints)"),
            "--work": (ROOT / "build" / "blueprints", "cached stages: card files, strategies, logs, bot folders"),
            "--configs": (CONFIGS, "folder of the blueprint_*.toml recipes"),
            "--official": (
                results / "official_engines.json",
                "experiments/official_engines.py's JSON report, whose rows join the table",
            ),
            "--parallel": (
                results / "parallel_scaling_abstract.json",
                "experiments/parallel_scaling_abstract.py's JSON report (needs an idle machine), whose rows join "
                "the table",
            ),
            "--bench": (
                results / "bench_abstract.json",
                "`vcfr bench abstract --json`'s report (one-thread ES-MCCFR speed), whose Swap row joins the table",
            ),
        },
    )
    parser.add_argument("--force", action="store_true", help="redo every stage even if its output exists")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"tiny card abstractions (buckets {SMOKE_CARDS['buckets']}, {SMOKE_CARDS['flops']} flops) for tests",
    )
    return parser


def _parse_arguments(argv: list[str] | None) -> tuple[argparse.Namespace, list[str]]:
    """The checked arguments (folders made absolute) and the years, in order; usage errors exit 2."""
    parser = build_parser()
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
    return arguments, years


TARGETS = {
    "equity": "mean-CI > 0 and mean >= +300 mbb/hand",
    "checkcall": "mean-CI > 0",
    "random": "mean-CI > 0",
    "p99_ms": P99_TARGET_MS,
    "build_seconds": BUDGET_SECONDS,
    "build_bytes": BUDGET_BYTES,
    "limit_win_share_lower": "> 1/3",
}
"""The targets, as the JSON report records them."""


def main(argv: list[str] | None = None) -> dict[str, Any]:
    arguments, years = _parse_arguments(argv)
    stages = Stages(arguments.work, arguments.force)
    with harness.stopwatch() as clock:
        reports = {year: run_year(year, arguments, stages) for year in years}
    official = _read_report(arguments.official)
    parallel, bench = _read_report(arguments.parallel), _read_report(arguments.bench)
    rows = [
        row
        for year in reports.values()
        for row in year_rows(year) + official_rows(year, official) + speed_rows(year, parallel, bench)
    ]
    settings = {name: getattr(arguments, name) for name in ("hands", "lbr_hands", "freezeouts", "max_games", "seed")}
    report = {
        "smoke": arguments.smoke,
        "date": harness.now(),
        "machine": harness.machine(cores_used=2),
        "settings": {
            **settings,
            "lbr_candidates": LBR_CANDIDATES,
            "lbr_seed": LBR_SEED,
            "minutes": arguments.minutes,
            "work": str(arguments.work),
        },
        "targets": TARGETS,
        "columns": list(COLUMNS),
        "rows": rows,
        "years": reports,
        "seconds": clock.seconds,
    }
    report = harness.write_results(arguments.out, report, markdown, harness.command_line(__file__, argv))
    out = arguments.out
    print(f"wrote {out.with_suffix('.md')} and {out.with_suffix('.json')} ({report['seconds']:.0f} s)", flush=True)
    return report


if __name__ == "__main__":
    main()

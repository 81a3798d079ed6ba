"""``vcfr gauntlet``: one bot against the whole sparring suite and the baselines.

Heads-up variants: a duplicate match (`game.play.match`) of ``hands`` rounds against each opponent
(by default the sparring styles the variant features, `game.play.sparring.gauntlet_styles`, then
the baselines random, checkcall and equity). Every match deals the same cards (``seed``); the bots'
seeds come from ``(seed, opponent's position)``, so results do not depend on ``jobs``. Per
opponent: the bot's mbb/hand and the half-width of its Student-t 95% interval over deal pairs, a
verdict (``win`` when the whole interval is above 0, ``loss`` below, else ``even``), faults.

``match_rounds`` splits the ``hands`` into independent duplicate matches of that many rounds, as a
tournament plays them: a fresh bot and opponent per match (seeds from ``(seed, opponent's position,
match)``) on the deals of ``(seed, match)``, the same for every bot and opponent. The interval is then
over the matches' win rates: an adaptive bot's rounds are not independent samples (what it learns
early decides how it plays late), so an interval over one long match's deal pairs understates how
much its result moves with its own draws; the matches are independent. The interval over deal pairs
is kept beside it (``ci95_over_deal_pairs``), with each match's mbb/hand (``match_mbb``).

The N-player limit game (``variant="limit"``): 3-player freeze-outs (`game.play.freeze_out`) of the
bot against every pair of `game.play.sparring.LIMIT_STYLES` (a style may meet itself),
``freezeouts`` per pair with the bot's seat rotating; a freeze-out still open after ``max_games``
games goes to the chip leader. Per pair and overall: the bot's win share with its Wilson 95%
interval (a fair share is 1/3).

Opponents (or pairs) run in ``jobs`` worker processes (joblib) when ``jobs > 1``. The player is a
name (`game.play.bots.BOTS`) or, with ``loader``, anything ``loader(player, config, seed)`` builds
(`game.play.cli_game.PLAYER_FILES`: the solver registers strategy files); the loader must be a
module-level function so workers can import it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np

from game.dataclass_support import check_int
from game.play.bots import BASELINE_BOTS, BOTS, LIMIT_BOTS, make_bot
from game.play.sparring import LIMIT_STYLES, gauntlet_styles
from game.rules.families import LIMIT_GAME, GameFamily, game_family

Loader = Callable[[str, Any, Any], Any]
"""``loader(player, config, seed) -> bot`` (`game.play.cli_game.PlayerLoader`)."""


def default_opponents(variant: str) -> list[str]:
    """The gauntlet's opponents in ``variant``: the sparring styles it features, then the baselines.

    >>> default_opponents("bounty")[-3:], len(default_opponents("bounty"))
    (['random', 'checkcall', 'equity'], 16)
    """
    return [*gauntlet_styles(variant), *BASELINE_BOTS]


def wilson_interval(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): ``(low, high)``.

    >>> [round(x, 3) for x in wilson_interval(5, 10)]
    [0.237, 0.763]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1.0 + z * z / trials
    center = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1.0 - share) / trials + z * z / (4 * trials * trials)) / denominator
    # the bounds are exactly 0 and 1 at no successes and at no failures (no rounding off them)
    return (0.0 if successes == 0 else center - half), (1.0 if successes == trials else center + half)


def verdict(mean: float, half_width: float | None) -> str:
    """``"win"`` if the 95% interval lies above 0, ``"loss"`` below, else ``"even"``."""
    if half_width is not None and mean - half_width > 0:
        return "win"
    if half_width is not None and mean + half_width < 0:
        return "loss"
    return "even"


def _build(player: str, loader: Loader | None, config: Any, seed: Any) -> Any:
    return make_bot(player, config=config, seed=seed) if loader is None else loader(player, config, seed)


def _heads_up_match(
    variant: str,
    rules: str,
    player: str,
    loader: Loader | None,
    opponent: str,
    index: int,
    hands: int,
    seed: int,
    match_rounds: int | None = None,
) -> dict[str, Any]:
    """The duplicate matches of the gauntlet against one opponent (runs in a worker): one match of
    ``hands`` rounds, or ``hands / match_rounds`` matches of ``match_rounds`` with fresh bots."""
    from game.play.match import interval_95, mbb_per_hand, play_match
    from game.rules.variants import get_variant

    config = get_variant(variant).config_class(rules=rules)  # type: ignore[call-arg]
    started = time.perf_counter()
    rounds = hands if match_rounds is None else match_rounds
    results = []
    for match in range(hands // rounds):
        key = (seed, index) if match_rounds is None else (seed, index, match)
        bot = _build(player, loader, config, np.random.SeedSequence((*key, 1)))
        other = make_bot(opponent, config=config, seed=np.random.SeedSequence((*key, 2)))
        deals = seed if match_rounds is None else np.random.SeedSequence((seed, match))
        results.append(play_match(config, bot, other, rounds=rounds, seed=deals, duplicate=True))
    winnings = np.concatenate([result.winnings for result in results])
    mean, half_width = mbb_per_hand(winnings, config.big_blind, pair_size=2)
    row: dict[str, Any] = {"index": index, "opponent": opponent, "mbb_per_hand": mean}
    if match_rounds is not None:  # the matches are the independent samples: an adaptive bot's rounds are not
        match_means = np.array([result.win_rate()[0] for result in results])
        row.update(
            matches=len(results),
            match_rounds=match_rounds,
            ci95_over_deal_pairs=half_width,
            match_mbb=match_means.tolist(),
        )
        half_width = interval_95(match_means)
    bot_name, opponent_name = results[0].players
    return {
        **row,
        "ci95_mbb_per_hand": half_width,
        "result": verdict(mean, half_width),
        "chips": int(winnings.sum()),
        "hands": int(winnings.shape[0]),
        "faults": {
            "bot": sum(result.illegal_actions[bot_name] for result in results),
            "opponent": sum(result.illegal_actions[opponent_name] for result in results),
        },
        "seconds": time.perf_counter() - started,
    }


def _limit_pair(
    player: str, loader: Loader | None, pair: tuple[str, str], index: int, freezeouts: int, max_games: int, seed: int
) -> dict[str, Any]:
    """The freeze-outs of the bot against one pair of limit styles (runs in a worker)."""
    from game.play.freeze_out import FreezeOut
    from game.rules.limit import LimitConfig

    config = LimitConfig(n_players=3)
    bot = _build(player, loader, config, np.random.SeedSequence((seed, index, 0)))
    started = time.perf_counter()
    wins = finished = games = 0
    for game_index in range(freezeouts):
        seat = game_index % 3
        others = iter(
            make_bot(name, seed=np.random.SeedSequence((seed, index, game_index, k))) for k, name in enumerate(pair)
        )
        bots = [bot if place == seat else next(others) for place in range(3)]
        freeze_out = FreezeOut(config, bots, seed=np.random.SeedSequence((seed, index, game_index, 9)))
        games += len(freeze_out.run(max_games=max_games))
        finished += freeze_out.winner is not None
        leader = freeze_out.winner if freeze_out.winner is not None else int(np.argmax(freeze_out.stacks))
        wins += leader == seat
    low, high = wilson_interval(wins, freezeouts)
    return {
        "index": index,
        "opponents": list(pair),
        "freezeouts": freezeouts,
        "finished": finished,
        "wins": wins,
        "win_share": wins / freezeouts,
        "wilson95": [low, high],
        "games": games,
        "seconds": time.perf_counter() - started,
    }


def _run(function: Callable[..., dict], tasks: list[tuple], jobs: int, on_done: Callable[[dict], None] | None):
    """Every task's result in task order, ``jobs`` processes at a time; ``on_done`` as each finishes."""
    if jobs == 1:
        results: Iterable[dict] = (function(*task) for task in tasks)
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=jobs, return_as="generator_unordered")(delayed(function)(*task) for task in tasks)
    collected = []
    for result in results:
        collected.append(result)
        if on_done is not None:
            on_done(result)
    return sorted(collected, key=lambda result: result["index"])


def _absolute_files(player: str) -> str:
    """``player`` with each ``:``-separated part that names an existing file or folder made absolute
    (``adaptive:out/bounty.h5`` -> ``adaptive:/home/.../out/bounty.h5``), so that a worker process
    started in another working folder finds it; bot names are unchanged."""
    return ":".join(str(Path(part).resolve()) if part and Path(part).exists() else part for part in player.split(":"))


def run_gauntlet(
    variant: str,
    player: str,
    *,
    hands: int = 2000,
    rules: str = "engine",
    seed: int = 0,
    opponents: list[str] | None = None,
    jobs: int = 1,
    loader: Loader | None = None,
    freezeouts: int = 6,
    max_games: int = 1000,
    match_rounds: int | None = None,
    on_done: Callable[[dict], None] | None = None,
) -> dict[str, Any]:
    """Play ``player`` against every opponent of the gauntlet (see the module docstring); a JSON-ready
    report. Heads-up: ``hands`` rounds per opponent (even), ``rules``; limit: ``freezeouts`` per
    pair of ``opponents`` (default: every pair of `LIMIT_STYLES`), at most ``max_games`` games each.

    >>> report = run_gauntlet("holdem", "checkcall", hands=20, opponents=["maniac", "station"])
    >>> [(row["opponent"], row["hands"]) for row in report["opponents"]]
    [('maniac', 20), ('station', 20)]
    >>> run_gauntlet("holdem", "checkcall", hands=20, opponents=["shark"])
    Traceback (most recent call last):
    ...
    ValueError: unknown opponent 'shark': known are bid_allin, bid_pot, bid_zero, bounty_hunter, checkcall, \
equity, lag, lock_in, loose_passive, maniac, min_raiser, overbettor, pusher, random, reraiser, rock, station, tag, \
tight_passive
    """
    from game.rules.variants import VARIANTS

    check_int("jobs", jobs)
    started = time.perf_counter()
    shown, player = player, _absolute_files(player)  # worker processes may run in another folder
    family = game_family(variant)
    if family is GameFamily.LIMIT:
        check_int("freezeouts", freezeouts)
        check_int("max_games", max_games)
        styles = LIMIT_STYLES if opponents is None else tuple(opponents)
        unknown = [name for name in (*styles, *([] if loader else [player])) if name not in LIMIT_BOTS]
        if unknown:
            raise ValueError(f"{unknown[0]!r} does not play the limit game: limit bots are {', '.join(LIMIT_BOTS)}")
        pairs = list(combinations_with_replacement(styles, 2))
        tasks = [(player, loader, pair, index, freezeouts, max_games, seed) for index, pair in enumerate(pairs)]
        rows = _run(_limit_pair, tasks, jobs, on_done)
        wins = sum(row["wins"] for row in rows)
        trials = sum(row["freezeouts"] for row in rows)
        return {
            "variant": variant,
            "bot": shown,
            "players": 3,
            "seed": seed,
            "freezeouts_per_pair": freezeouts,
            "max_games": max_games,
            "fair_share": 1 / 3,
            "pairs": rows,
            "overall": {
                "wins": wins,
                "freezeouts": trials,
                "win_share": wins / trials,
                "wilson95": list(wilson_interval(wins, trials)),
            },
            "jobs": jobs,
            "seconds": time.perf_counter() - started,
        }
    if family is not GameFamily.HEADS_UP:
        raise ValueError(f"unknown variant {variant!r}: known are {', '.join([*VARIANTS, LIMIT_GAME])}")
    check_int("hands", hands, 2)
    if hands % 2:
        raise ValueError(f"the gauntlet plays duplicate deals: hands must be even, got {hands}")
    if rules not in ("document", "engine"):
        raise ValueError(f"rules must be 'document' or 'engine', got {rules!r}")
    if match_rounds is not None:
        check_int("match_rounds", match_rounds, 2)
        if match_rounds % 2 or hands % match_rounds or hands == match_rounds:
            raise ValueError(
                f"match_rounds must be even and divide hands into at least 2 matches, got {match_rounds} for {hands}"
            )
    names = default_opponents(variant) if opponents is None else list(opponents)
    for name in names:
        if name not in BOTS:
            raise ValueError(f"unknown opponent {name!r}: known are {', '.join(sorted(BOTS))}")
    if loader is None and player not in BOTS:
        raise ValueError(f"unknown bot {player!r}: known are {', '.join(sorted(BOTS))}")
    tasks = [
        (variant, rules, player, loader, name, index, hands, seed, match_rounds) for index, name in enumerate(names)
    ]
    rows = _run(_heads_up_match, tasks, jobs, on_done)
    return {
        "variant": variant,
        "bot": shown,
        "rules": rules,
        "hands": hands,
        "seed": seed,
        "duplicate": True,
        **({} if match_rounds is None else {"match_rounds": match_rounds}),
        "opponents": rows,
        "jobs": jobs,
        "seconds": time.perf_counter() - started,
    }


def write_chart(report: dict[str, Any], path: str) -> None:
    """A horizontal bar chart of ``report`` (`run_gauntlet`) as PNG: mbb/hand with 95% error bars per
    opponent, or the limit win share with Wilson error bars per pair and the fair share 1/3."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if game_family(report["variant"]) is GameFamily.LIMIT:
        rows = report["pairs"]
        labels = [" + ".join(row["opponents"]) for row in rows]
        values = np.array([row["win_share"] for row in rows])
        errors = np.array(
            [
                [row["win_share"] - row["wilson95"][0] for row in rows],
                [row["wilson95"][1] - row["win_share"] for row in rows],
            ]
        )
        colours = ["tab:blue"] * len(rows)
        reference, xlabel = report["fair_share"], "win share of 3-player freeze-outs (Wilson 95%)"
        title = f"{report['bot']}: limit gauntlet, {report['freezeouts_per_pair']} freeze-outs per pair"
    else:
        rows = report["opponents"]
        labels = [row["opponent"] for row in rows]
        values = np.array([row["mbb_per_hand"] for row in rows])
        errors = np.array([row["ci95_mbb_per_hand"] or 0.0 for row in rows])
        palette = {"win": "tab:green", "loss": "tab:red", "even": "tab:gray"}
        colours = [palette[row["result"]] for row in rows]
        reference, xlabel = 0.0, "mbb/hand (Student-t 95% interval over deal pairs)"
        title = f"{report['bot']}: {report['variant']} gauntlet, {report['hands']:,} duplicate hands, {report['rules']} rules"
    figure, axes = plt.subplots(figsize=(8, 0.4 * len(rows) + 1.5))
    positions = np.arange(len(rows))[::-1]
    axes.barh(positions, values, xerr=errors, color=colours, capsize=3)
    axes.axvline(reference, color="black", linewidth=0.8)
    axes.set_yticks(positions, labels)
    axes.set_xlabel(xlabel)
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)

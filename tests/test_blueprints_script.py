"""``experiments/blueprints.py``: the committed recipes parse, the table has every column and marks
missed targets, and (slow) a smoke run of one year writes the markdown and JSON, then reuses its cache."""

from __future__ import annotations

import doctest
import json

import pytest

from tests.experiment_scripts import load_experiment

blueprints = load_experiment("blueprints")


def test_doctests():
    assert doctest.testmod(blueprints).failed == 0


@pytest.mark.parametrize("year", list(blueprints.YEARS))
def test_every_committed_recipe_loads(year):
    from solver.solve.run_config import load_run_config

    recipe = blueprints.load_recipe(year)
    assert recipe.variant == blueprints.YEARS[year]
    for path in recipe.configs:
        run = load_run_config(path)
        assert run.rules.variant == recipe.variant
        assert blueprints.config_minutes(path) > 0
        if recipe.heads_up:
            assert run.rules.fields.get("rules") == "engine", path  # trained under the official engine's semantics
    total = sum(blueprints.config_minutes(path) for path in recipe.configs)
    assert total <= 50  # leaves the card abstraction and the evaluation inside the 60-minute budget
    assert recipe.cards.method in ("ehs", "ehs2", "emd")
    assert recipe.cards.variant == ("bounty" if year == "2025" else "swap" if year == "2022" else "holdem")
    if year == "limit":
        assert [path.name for path in recipe.configs] == ["blueprint_limit.toml", "blueprint_limit_hu.toml"]
        assert load_run_config(recipe.configs[0]).rules.fields["n_players"] == 3


def _stage(seconds, **result):
    return {"seconds": seconds, "cached": False, "result": result}


def _heads_up_year(equity_mean, equity_ci, p99):
    matches = {
        "kind": "duplicate",
        "matches": {
            "random": {"mbb_per_hand": 2000.0, "ci95_mbb_per_hand": 400.0, "hands": 20_000},
            "checkcall": {"mbb_per_hand": 100.0, "ci95_mbb_per_hand": 150.0, "hands": 20_000},
            "equity": {"mbb_per_hand": equity_mean, "ci95_mbb_per_hand": equity_ci, "hands": 20_000},
        },
        "decision_ms": {"decisions": 90_000, "p50": 0.05, "p99": p99, "max": 9.0, "mean": 0.06},
    }
    stages = {
        "cards": _stage(200.0, peak_memory_bytes=700_000_000),
        "solve": _stage(
            2700.0, peak_memory_bytes=900_000_000, runs=[{"config": "blueprint_swap.toml", "iterations": 10}]
        ),
        "lbr": _stage(90.0, mbb_per_hand=850.0, ci95_mbb=120.0, hands=5000),
        "matches": {"seconds": 60.0, "cached": True, "result": matches},
        "export": _stage(15.0, zipped_bytes=3_100_000, peak_memory_bytes=370_000_000),
    }
    return {
        "year": "2022",
        "variant": "swap",
        "stages": stages,
        "lbr": stages["lbr"],
        "matches": stages["matches"],
        "export": stages["export"],
        "cards_used": "cards.h5",
        "recipe": {
            "configs": ["experiments/configs/blueprint_swap.toml"],
            "rules": {"variant": "swap"},
            "bets": {"text": "1p,a cap=2"},
            "solver": {"minutes": 45},
            "cards": {"variant": "swap", "buckets": "169,32,32,32", "method": "ehs2", "flops": "all", "seed": 0},
        },
    }


def _limit_year():
    lineup = {
        "wins": 7,
        "freezeouts": 10,
        "win_share": 0.7,
        "win_share_ci95": [0.4, 0.89],
        "hands": 1234,
        "chips_mean": 2100.0,
        "chips_ci95": 300.0,
        "chips_total": 3000,
    }
    matches = {
        "kind": "freezeout",
        "lineups": {"random": lineup, "checkcall": {**lineup, "win_share_ci95": [0.2, 0.6]}},
        "decision_ms": {"decisions": 500, "p50": 0.04, "p99": 0.3, "max": 1.0, "mean": 0.05},
    }
    stages = {
        "cards": _stage(1.0, peak_memory_bytes=1),
        "solve": _stage(2.0, peak_memory_bytes=2, runs=[]),
        "matches": _stage(3.0, **matches),
    }
    return {
        "year": "limit",
        "variant": "limit",
        "stages": stages,
        "matches": stages["matches"],
        "cards_used": "c.h5",
        "recipe": {
            "configs": ["experiments/configs/blueprint_limit.toml"],
            "rules": {"n_players": 3},
            "bets": {},
            "solver": {"minutes": 35},
            "cards": {"variant": "holdem", "buckets": "169,16,16,16", "method": "ehs2", "flops": "all", "seed": 0},
        },
    }


def _rows_by_measure(rows):
    return {row["measure"]: row for row in rows}


def test_table_marks_met_and_missed_targets():
    rows = blueprints.year_rows(_heads_up_year(equity_mean=250.0, equity_ci=100.0, p99=2.5))
    assert all(tuple(row) == blueprints.COLUMNS for row in rows)
    by = _rows_by_measure(rows)
    assert by["vs equity, duplicate, engine rules (mbb/hand)"]["status"] == "**missed**"  # mean below +300
    assert by["vs random, duplicate, engine rules (mbb/hand)"]["status"] == "met"
    assert by["vs checkcall, duplicate, engine rules (mbb/hand)"]["status"] == "**missed**"  # interval straddles 0
    assert by["decision time p50 / p99 (ms)"]["status"] == "**missed**"
    assert by["decision time p50 / p99 (ms)"]["hands"] == "90,000 decisions"
    assert by["build wall clock (cards + solve, s)"]["status"] == "met"
    assert by["LBR vs blueprint (mbb/hand)"]["result"] == "+850"
    assert by["LBR vs blueprint (mbb/hand)"]["hands"] == "10,000 (5,000/seat)"
    good = _rows_by_measure(blueprints.year_rows(_heads_up_year(equity_mean=1053.0, equity_ci=345.0, p99=0.2)))
    assert good["vs equity, duplicate, engine rules (mbb/hand)"]["status"] == "met"
    assert good["decision time p50 / p99 (ms)"]["status"] == "met"


def test_limit_rows_say_lbr_is_heads_up_only():
    by = _rows_by_measure(blueprints.year_rows(_limit_year()))
    assert "heads-up only" in by["LBR vs blueprint (mbb/hand)"]["result"]
    assert by["freeze-outs vs 2x random: wins"]["status"] == "met"
    assert by["freeze-outs vs 2x checkcall: wins"]["status"] == "**missed**"
    assert by["freeze-outs vs 2x random: wins"]["hands"] == "1,234"


def test_failed_year_is_reported_missed():
    rows = blueprints.year_rows({"year": "2024", "variant": "auction", "error": "vcfr solve failed", "stages": {}})
    assert rows[0]["status"] == "**missed**" and "failed" in rows[0]["result"]


def test_markdown_has_header_columns_and_stage_seconds():
    years = {"2022": _heads_up_year(1053.0, 345.0, 0.2), "limit": _limit_year()}
    report = {
        "command": ".venv/bin/python experiments/blueprints.py --years 2022,limit",
        "smoke": True,
        "date": "2026-01-01T00:00:00+00:00",
        "machine": blueprints.harness.machine(cores_used=2),
        "settings": {"hands": 20_000, "lbr_hands": 5000, "freezeouts": 30, "max_games": 500, "seed": 0},
        "rows": [row for year in years.values() for row in blueprints.year_rows(year)],
        "years": years,
    }
    text = blueprints.markdown(report)
    assert "SMOKE RUN" in text
    assert "| " + " | ".join(blueprints.COLUMNS) + " |" in text
    assert "Command: `.venv/bin/python experiments/blueprints.py --years 2022,limit`" in text
    assert "CPUs (affinity" in text and "2 used" in text
    assert "| 2022 | 200.0 | 2,700.0 | 90.0 | 60.0 (cached) | 15.0 | 3,065.0 |" in text
    assert "5,000 hands per seat" in text and "100 candidate deals" in text


@pytest.mark.slow
def test_smoke_run_writes_markdown_and_json(tmp_path):
    out = tmp_path / "results" / "blueprints"
    arguments = [
        "--years",
        "2023",
        "--smoke",
        "--minutes",
        "0.05",
        "--hands",
        "40",
        "--lbr-hands",
        "10",
        "--out",
        str(out),
        "--work",
        str(tmp_path / "work"),
    ]
    report = blueprints.main(arguments)
    markdown = out.with_suffix(".md").read_text()
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["columns"] == list(blueprints.COLUMNS)
    assert data["smoke"] is True and "SMOKE RUN" in markdown
    assert "| " + " | ".join(blueprints.COLUMNS) + " |" in markdown
    measures = {row["measure"] for row in data["rows"]}
    for measure in (
        "LBR vs blueprint (mbb/hand)",
        "LBR vs equity bot (its rule on exact cards), reference (mbb/hand)",
        "LBR vs always-call, reference (mbb/hand)",
        "vs random, duplicate, engine rules (mbb/hand)",
        "vs checkcall, duplicate, engine rules (mbb/hand)",
        "vs equity, duplicate, engine rules (mbb/hand)",
        "decision time p50 / p99 (ms)",
        "bot zipped size (MB)",
        "bot peak memory (MB, warm-up round)",
    ):
        assert measure in measures, measure
    assert all(
        set(row) == set(blueprints.COLUMNS) and row["status"] in ("met", "**missed**", "—") for row in data["rows"]
    )
    year = data["years"]["2023"]
    assert "error" not in year, year.get("error")
    assert year["matches"]["result"]["matches"]["equity"]["hands"] == 40
    assert year["matches"]["result"]["rules"] == "engine"
    assert set(year["stages"]) == {"cards", "solve", "lbr", "lbr_equity", "lbr_checkcall", "matches", "export"}
    assert report["years"]["2023"]["stages"]["export"]["result"]["zipped_bytes"] > 0
    again = blueprints.main(arguments)  # every stage cached
    assert all(stage["cached"] for stage in again["years"]["2023"]["stages"].values())


def test_official_engine_rows_count_every_event_and_take_the_worst_p99():
    year = {"year": "2024", "variant": "auction"}
    entry = {
        "year": "2024",
        "opponent": "skeleton",
        "rounds": 2000,
        "duplicate": {"mbb_per_hand": 1500.0, "ci95_mbb": 900.0},
        "counts": {"ours": {"illegal": 0, "timeouts": 0}, "engine": {"crashes": 0}, "opponent": {"illegal": 5}},
        "decision_time": {"p99_ms": 0.4, "count": 100},
    }
    slow = {
        **entry,
        "opponent": "equity",
        "counts": {"ours": {"illegal": 1, "timeouts": 0}, "engine": {"crashes": 0}},
        "decision_time": {"p99_ms": 2.5, "count": 50},
    }
    rows = blueprints.official_rows(year, {"rows": [entry, slow]})
    by_measure = {row["measure"]: row for row in rows}
    events = by_measure["official engine: illegal actions, misformatted, timeouts, disconnects, crashes"]
    assert events["result"] == "1" and events["status"] == "**missed**"  # ours and the engine's only
    p99 = by_measure["official engine: decision time p99 (ms, inside the bot)"]
    assert p99["result"] == "2.500" and p99["status"] == "**missed**" and p99["hands"] == "150 decisions"
    assert by_measure["official 2024 engine vs skeleton, duplicate (mbb/hand)"]["result"] == "+1,500"
    missing = blueprints.official_rows(year, None)
    assert len(missing) == 1 and missing[0]["result"].startswith("n/a: not run")
    assert blueprints.official_rows({"year": "limit", "variant": "limit"}, {"rows": [entry]}) == []


def test_speed_rows_need_both_parallel_bars_and_swap_its_rate():
    def parallel(rate: float, time_ratio: float) -> dict:
        return {"variants": {"swap": {"rates": {"speedups": {"2 threads": rate}}, "target": {"speedup": time_ratio}}}}

    bench = {"rows": [{"variant": "holdem", "iterations_per_second": 1.0, "nodes": 9}]}
    bench["rows"].append({"variant": "swap", "iterations_per_second": 50_000.0, "nodes": 41_938})
    swap = {"year": "2022", "variant": "swap"}
    met = blueprints.speed_rows(swap, parallel(1.8, 1.7), bench)
    assert [row["status"] for row in met] == ["met", "met"]
    assert met[0]["result"] == "1.80x; 1.70x" and met[1]["result"] == "50,000" and "41,938 nodes" in met[1]["measure"]
    slow_time = blueprints.speed_rows(swap, parallel(1.95, 1.69), None)
    assert [row["status"] for row in slow_time] == ["**missed**"]  # no bench report: no Swap rate row
    bench["rows"][1]["iterations_per_second"] = 49_999.0
    assert blueprints.speed_rows(swap, parallel(1.79, 2.0), bench)[1]["status"] == "**missed**"
    not_run = blueprints.speed_rows({"year": "2024", "variant": "auction"}, parallel(2.0, 2.0), None)
    assert len(not_run) == 1 and not_run[0]["result"] == "n/a: not run"
    assert blueprints.speed_rows({"year": "limit", "variant": "limit"}, None, bench) == []

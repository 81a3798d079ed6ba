"""``vcfr demo``: every step's command runs, on a tiny configuration (slow: about a minute)."""

from __future__ import annotations

import pytest

from solver.cli.demo import DemoConfig, run_demo


def test_demo_config_refuses_bad_values():
    with pytest.raises(ValueError, match="heads-up variant"):
        DemoConfig(variant="limit")
    with pytest.raises(ValueError, match="solve_seconds must be >= 1"):
        DemoConfig(solve_seconds=0)


def test_demo_steps_cover_the_main_job():
    commands = [arguments[0] for _, arguments in DemoConfig().steps()]
    assert commands == ["solve", "abstract", "solve", "lbr", "match", "chart", "export-bot"]
    # plain Hold'em has no official engine: the demo ends with the charts instead of failing there
    holdem = [arguments[0] for _, arguments in DemoConfig(variant="holdem").steps()]
    assert holdem == ["solve", "abstract", "solve", "lbr", "match", "chart"]


@pytest.mark.slow
def test_tiny_demo_writes_every_output(tmp_path, capsys):
    config = DemoConfig(
        variant="bounty",
        buckets="20,4,4,4",
        flops=3,
        solve_seconds=3,
        lbr_hands=20,
        match_rounds=20,
        out=tmp_path / "demo",
    )
    run_demo(config)
    out = capsys.readouterr().out
    assert "demo done" in out
    for name in ("leduc.h5", "cards.h5", "bounty.h5", "charts/convergence.png", "bot/strategy.h5", "bot/cards.h5"):
        assert (tmp_path / "demo" / name).exists(), name

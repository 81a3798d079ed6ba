"""``vcfr demo``: the main job end to end on one Pokerbots variant, on a small default.

Each step is the ``vcfr`` command a user would type, printed and then run in a child process
(so the demo is also a worked example of the command line): build a card abstraction, solve the
abstract game with ES-MCCFR on fresh chance (progress bar, strategy file), measure it with local
best response, play a duplicate match against the equity bot, chart it and export a bot folder
for the official engine (the four Pokerbots variants; plain Hold'em has no official engine, so its
demo stops after the charts). A first step solves Leduc exactly, where the exploitability is known to
go to zero. Every output goes under ``out`` and the last lines say where.

On the default (Swap, 2022's game; 30/12/12/12 buckets on 300 flops; 90 s of solving) the whole
demo takes about five minutes on two cores.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import typer

from game.pokerbots.engines import ENGINE_RULES
from game.rules.variants import VARIANTS


def engine_solve_arguments(variant: str, cards: str | Path, bets: str, *options: str) -> list[str]:
    """``vcfr solve`` arguments of ``variant``'s abstract game under the official engine's rules
    (``rules=engine``) on the card file ``cards`` with the bet abstraction ``bets``, then ``options``
    (budget, workers, ``--out`` ...).

    >>> engine_solve_arguments("swap", "c.h5", "1p,a cap=2", "--seconds", "5")
    ['solve', '--variant', 'swap', '--rule', 'rules=engine', '--cards', 'c.h5', '--bets', '1p,a cap=2', '--seconds', '5']
    """
    return ["solve", "--variant", variant, "--rule", "rules=engine", "--cards", str(cards), "--bets", bets, *options]


@dataclass(frozen=True)
class DemoConfig:
    """The demo's small default. ``solve_seconds``: wall-clock solve budget (s); ``lbr_hands``:
    LBR hands per seat; ``match_rounds``: rounds of the duplicate match (even)."""

    variant: str = "swap"
    buckets: str = "30,12,12,12"
    flops: int = 300
    bets: str = "0.5p,1p,a cap=2"
    solve_seconds: float = 90.0
    lbr_hands: int = 1000
    match_rounds: int = 2000
    out: Path = Path("out/demo")

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"the demo runs a heads-up variant {sorted(VARIANTS)}, got {self.variant!r}")
        for name in ("flops", "solve_seconds", "lbr_hands", "match_rounds"):
            if not getattr(self, name) >= 1:  # NaN too
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)!r}")

    def steps(self) -> list[tuple[str, list[str]]]:
        """``(title, vcfr arguments)`` of every step, in pipeline order."""
        out, variant = self.out, self.variant
        cards, strategy = out / "cards.h5", out / f"{variant}.h5"
        steps = [
            (
                "Solve Leduc hold'em exactly (CFR+; exploitability goes to zero)",
                [
                    "solve",
                    "--variant",
                    "leduc",
                    "--algorithm",
                    "cfr+",
                    "--iterations",
                    "1000",
                    "--out",
                    str(out / "leduc.h5"),
                    "--force",
                ],
            ),
            (
                f"Card abstraction for {variant} ({self.buckets} buckets, tables on {self.flops} flops)",
                [
                    "abstract",
                    "--variant",
                    variant,
                    "--buckets",
                    self.buckets,
                    "--method",
                    "ehs2",
                    "--flops",
                    str(self.flops),
                    "--out",
                    str(cards),
                ],
            ),
            (
                f"Solve abstract {variant} (engine rules) with ES-MCCFR on fresh chance for {self.solve_seconds:g} s",
                engine_solve_arguments(
                    variant,
                    cards,
                    self.bets,
                    "--seconds",
                    f"{self.solve_seconds:g}",
                    "--checkpoint-minutes",
                    "1",
                    "--out",
                    str(strategy),
                    "--force",  # a new demo run replaces the last one's outputs
                ),
            ),
            (
                "Local best response against the strategy file",
                ["lbr", str(strategy), "--hands", str(self.lbr_hands), "--quiet"],
            ),
            (
                "Duplicate match against the equity bot",
                [
                    "match",
                    "--variant",
                    variant,
                    "--a",
                    str(strategy),
                    "--b",
                    "equity",
                    "--rounds",
                    str(self.match_rounds),
                    "--rules",
                    "engine",
                ],
            ),
            ("Charts: preflop grids and the convergence curve", ["chart", str(strategy), "--out", str(out / "charts")]),
        ]
        if self.has_engine:
            export = ["export-bot", "--variant", variant, "--bot", "lookup", "--strategy", str(strategy)]
            steps.append(
                ("Export a bot folder for the official engine", [*export, "--out", str(out / "bot"), "--force"])
            )
        return steps

    @property
    def has_engine(self) -> bool:
        """Whether an official MIT Pokerbots engine plays the variant (then the demo exports a bot for it)."""
        return self.variant in ENGINE_RULES


WIDTH = 80
"""Columns of the demo's sentences: wrapped between words, never mid-word by the terminal."""


def _say(text: str, indent: str = "", bold: bool = False) -> None:
    """Print ``text`` wrapped at :data:`WIDTH` columns, continuation lines indented by ``indent``."""
    typer.secho(
        textwrap.fill(text, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False),
        bold=bold,
    )


def run_demo(config: DemoConfig | None = None) -> None:
    """Run every step of ``config`` (default :class:`DemoConfig`) in order; exit 1 naming the step that fails."""
    config = config or DemoConfig()
    config.out.mkdir(parents=True, exist_ok=True)
    steps = config.steps()
    started = time.perf_counter()
    for number, (title, arguments) in enumerate(steps, start=1):
        prefix = f"[{number}/{len(steps)}] "
        _say(prefix + title, " " * len(prefix), bold=True)
        typer.echo(f"$ vcfr {shlex.join(arguments)}")
        step_started = time.perf_counter()
        code = subprocess.call([sys.executable, "-m", "solver.cli.main", *arguments])
        if code != 0:
            typer.echo(f"error: demo step {number} ({title}) failed with exit code {code}", err=True)
            raise typer.Exit(1)
        typer.echo(f"({time.perf_counter() - step_started:.0f} s)\n")
    out = config.out
    _say(f"demo done in {time.perf_counter() - started:.0f} s. Outputs:", bold=True)
    for what, path in [
        ("Leduc strategy", out / "leduc.h5"),
        ("card abstraction", out / "cards.h5"),
        (f"{config.variant} strategy (checkpointed in place every minute)", out / f"{config.variant}.h5"),
        ("charts", out / "charts"),
        *([("bot folder for the engine", out / "bot")] if config.has_engine else []),
    ]:
        _say(f"  {what}: {path}", "    ")
    if not config.has_engine:
        _say(f"  no bot folder: no official engine plays {config.variant} (engines: {', '.join(ENGINE_RULES)})", "    ")

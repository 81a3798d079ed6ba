"""Run files of ``vcfr solve --config run.toml``: four orthogonal TOML tables, checked, then merged with flags.

A run file (TOML, read with :mod:`tomllib`) has up to four tables, each independent of the others:

- ``[rules]``: ``variant`` (a heads-up variant ``holdem``, ``swap``, ``river_of_blood``,
  ``auction``, ``bounty``, the N-player ``limit`` game, or an exact game ``kuhn``, ``leduc``) and any
  field of that variant's rules config (``vcfr variants`` lists them with their defaults; values
  equal to the default are dropped, as strategy files store only the fields that differ; the limit
  game keeps every field given, its abstract defaults being 3 players and ``max_raises`` 2).
- ``[cards]``: ``path`` of the card-abstraction file (``vcfr abstract``); a relative path is read
  relative to the run file's folder (a ``--cards`` flag: relative to the working directory). It is
  stored as an absolute path, which every worker process or Dask worker must be able to read.
  Optionally how that file is built, the ``vcfr abstract`` settings: ``buckets`` (preflop,flop,
  turn,river counts, e.g. ``"169,24,24,24"``) and ``method`` (``ehs``, ``ehs2``, ``emd``) together,
  ``flops`` (the first N canonical flops only; absent: all) and ``seed`` (default 0); the card
  file's variant is the game's (:func:`abstraction.cards.buckets.card_file_variant`). ``vcfr solve``
  does not build a missing card file (a full-size build takes many minutes and gigabytes); it fails
  with the exact ``vcfr abstract`` command that builds it (:meth:`RunConfig.missing_cards_message`).
- ``[bets]``: ``text`` (bet abstraction, :mod:`abstraction.bets.bet_abstraction`), ``bids`` (Auction bid
  sizes), ``max_runs`` (River of Blood run streets), ``max_nodes`` (refuse bigger trees).
- ``[solver]``: ``algorithm`` (default ``cfr+`` on exact games, ``es-mccfr`` on abstract ones),
  exactly one budget of ``iterations`` / ``minutes`` / ``seconds``, ``workers``, ``backend``
  (``threads``, ``processes``, ``dask``), ``scheduler`` (Dask address), ``seed``, ``chance``
  (``fresh`` or ``fixed``), ``deals`` and ``deal_seed`` (fixed chance), ``evaluate_every``,
  ``checkpoint_every`` (iterations), ``checkpoint_minutes``, ``table_dtype`` (``auto``,
  ``float32``, ``float64``), the algorithm parameters ``linear_averaging``, ``prune_after``,
  ``prune_probability``, ``prune_threshold``, ``epsilon``, ``alpha``, ``beta``, ``gamma``, and
  ``out`` (the strategy file; a relative path is read relative to the working directory).

Exact games (Kuhn, Leduc) take no ``[cards]`` nor ``[bets]``. Command-line flags override file
values key by key (:func:`merge_overrides`; a budget flag replaces the file's budget). Unknown
tables or keys, values of the wrong type and bad values raise :class:`RunConfigError` naming the
table and key.

Example (``experiments/configs/holdem.toml`` is one)::

    [rules]
    variant = "holdem"
    stack = 200

    [cards]
    path = "cards/holdem.h5"  # vcfr abstract --variant holdem --buckets 169,8,8,8 --method ehs --out ...

    [bets]
    text = "0.5p,1p,a cap=2"

    [solver]
    iterations = 1_000_000
    checkpoint_minutes = 10

>>> run = parse_run_config('''
... [rules]
... variant = "holdem"
... stack = 20
... [cards]
... path = "cards.h5"
... [bets]
... text = "1p,a cap=1"
... [solver]
... minutes = 2
... ''', base_dir="/runs")
>>> run.game_config()["card_abstraction"], run.training_config().seconds, run.training_config().algorithm
('/runs/cards.h5', 120.0, 'es-mccfr')
>>> parse_run_config('[solver]\\niterations = "many"')
Traceback (most recent call last):
...
solver.solve.run_config.RunConfigError: [solver] iterations must be an integer, got 'many'
"""

from __future__ import annotations

import dataclasses
import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.rules.exact import EXACT_GAMES
from game.rules.families import LIMIT_GAME
from game.rules.variants import VARIANTS
from solver.solve.training import TrainingConfig

EXACT_VARIANTS = EXACT_GAMES
"""The exact games (`game.rules.exact`)."""
LIMIT_VARIANT = LIMIT_GAME
"""The N-player limit abstract game (:mod:`solver.games.limit_games`): ``[rules]`` takes ``LimitConfig``
fields (``n_players``, ``max_raises`` ...), ``[bets]`` only ``max_nodes``, chance is fresh."""


def run_variants() -> tuple[str, ...]:
    """Every ``[rules] variant`` a run file (and ``vcfr solve --variant``) takes: the heads-up no-limit
    variants registered now (`game.rules.variants`, each played on an abstract game), the limit game,
    the exact games."""
    return (*VARIANTS, LIMIT_VARIANT, *EXACT_VARIANTS)


TABLES = ("rules", "cards", "bets", "solver")


class RunConfigError(ValueError):
    """A run file or flag is malformed: unknown table or key, wrong type or bad value (usage error)."""


# Expected types per key: "int", "float" (an int is fine), "str", "bool".
_SCHEMA: dict[str, dict[str, str]] = {
    "cards": {"path": "str", "buckets": "str", "method": "str", "flops": "int", "seed": "int"},
    "bets": {"text": "str", "bids": "str", "max_runs": "int", "max_nodes": "int"},
    "solver": {
        "algorithm": "str",
        "iterations": "int",
        "minutes": "float",
        "seconds": "float",
        "workers": "int",
        "backend": "str",
        "scheduler": "str",
        "seed": "int",
        "chance": "str",
        "deals": "int",
        "deal_seed": "int",
        "evaluate_every": "int",
        "checkpoint_every": "int",
        "checkpoint_minutes": "float",
        "table_dtype": "str",
        "linear_averaging": "bool",
        "prune_after": "int",
        "prune_probability": "float",
        "prune_threshold": "float",
        "epsilon": "float",
        "alpha": "float",
        "beta": "float",
        "gamma": "float",
        "out": "str",
    },
}
_SOLVER_PARAMS = (
    "table_dtype",
    "linear_averaging",
    "prune_after",
    "prune_probability",
    "prune_threshold",
    "epsilon",
    "alpha",
    "beta",
    "gamma",
)
_BUDGETS = ("iterations", "minutes", "seconds")
_TYPE_NAMES = {"int": "an integer", "float": "a number", "str": "a string", "bool": "true or false"}


def _check_type(where: str, value: Any, kind: str) -> Any:
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "str": isinstance(value, str),
        "bool": isinstance(value, bool),
    }[kind]
    if not ok:
        raise RunConfigError(f"{where} must be {_TYPE_NAMES[kind]}, got {value!r}")
    if kind == "float":
        if not math.isfinite(value):
            raise RunConfigError(f"{where} must be a finite number, got {value!r}")
        return float(value)
    return value


def _rules_class(variant: str) -> type:
    if variant == LIMIT_VARIANT:
        from game.rules.limit import LimitConfig

        return LimitConfig
    if variant in EXACT_VARIANTS:
        from game.rules.leduc import LeducConfig

        return LeducConfig
    from game.rules.variants import get_variant

    return get_variant(variant).config_class


def _check_rule(variant: str, name: str, value: Any, default: Any) -> Any:
    where = f"[rules] {name}"
    if isinstance(default, bool):
        return _check_type(where, value, "bool")
    if isinstance(default, int):
        return _check_type(where, value, "int")
    if isinstance(default, float):
        return _check_type(where, value, "float")
    if isinstance(default, str):
        return _check_type(where, value, "str")
    if isinstance(default, (tuple, list)):
        if not isinstance(value, list):
            raise RunConfigError(f"{where} must be an array, got {value!r}")
        return value
    return value


@dataclass(frozen=True)
class RulesTable:
    """``[rules]``: the variant and the rules fields that differ from its defaults."""

    variant: str = "leduc"
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        return self.variant in EXACT_VARIANTS

    @classmethod
    def parse(cls, table: Mapping[str, Any]) -> RulesTable:
        values = dict(table)
        variant = _check_type("[rules] variant", values.pop("variant", "leduc"), "str")
        if variant not in run_variants():
            raise RunConfigError(f"[rules] variant must be one of {', '.join(run_variants())}; got {variant!r}")
        config_class = _rules_class(variant)
        defaults = {f.name: f.default for f in dataclasses.fields(config_class) if f.default is not dataclasses.MISSING}
        known = [f.name for f in dataclasses.fields(config_class) if f.name != "variant"]
        fields: dict[str, Any] = {}
        for name, value in values.items():
            if name not in known:
                raise RunConfigError(
                    f"unknown key [rules] {name} for variant {variant}: known keys are variant, {', '.join(known)}"
                )
            value = _check_rule(variant, name, value, defaults.get(name))
            if variant in VARIANTS and value == defaults.get(name):
                continue  # stored configs hold only the fields that differ from the defaults
            fields[name] = value
        return cls(variant, fields)


@dataclass(frozen=True)
class CardsTable:
    """``[cards]``: the card-abstraction file (absolute path), or ``None``, and optionally its
    ``vcfr abstract`` build settings (``buckets`` and ``method`` together; ``flops`` absent = all
    1,755 canonical flops; ``seed`` absent = 0)."""

    path: str | None = None
    buckets: str | None = None
    method: str | None = None
    flops: int | None = None
    seed: int | None = None

    @property
    def buildable(self) -> bool:
        """Whether the table says how to build its card file."""
        return self.buckets is not None

    def build_arguments(self, variant: str, out: str | os.PathLike[str] | None = None) -> list[str]:
        """``vcfr abstract`` arguments that build the card file (to ``out``, default :attr:`path`) for a
        game of ``variant`` (the card file's variant is derived from it).

        >>> CardsTable("/c/b.h5", "169,24,24,24", "ehs2").build_arguments("bounty")
        ['abstract', '--variant', 'bounty', '--buckets', '169,24,24,24', '--method', 'ehs2', '--seed', '0', \
'--out', '/c/b.h5']
        """
        from abstraction.cards.buckets import card_file_variant

        if not self.buildable:
            raise RunConfigError("[cards] has no build settings (buckets, method)")
        arguments = ["abstract", "--variant", card_file_variant(variant), "--buckets", str(self.buckets)]
        arguments += ["--method", str(self.method), "--seed", str(self.seed or 0)]
        if self.flops is not None:
            arguments += ["--flops", str(self.flops)]
        return [*arguments, "--out", str(self.path if out is None else out)]


@dataclass(frozen=True)
class BetsTable:
    """``[bets]``: bet-abstraction text, Auction bids, River of Blood's run cap, the tree-size limit."""

    text: str | None = None
    bids: str | None = None
    max_runs: int | None = None
    max_nodes: int | None = None

    def combined(self) -> str:
        """The bets text with the bids appended as ``| bids=...`` (the AbstractGameConfig form)."""
        text = self.text if self.text is not None else "1p,a cap=2"
        if self.bids:
            if "|" in text:
                raise RunConfigError(f"[bets] bids given twice: in text {text!r} and as bids {self.bids!r}")
            text = f"{text} | bids={self.bids}"
        return text


@dataclass(frozen=True)
class SolverTable:
    """``[solver]``: algorithm, budget, workers, schedule and solver parameters (module docstring)."""

    algorithm: str | None = None
    iterations: int | None = None
    minutes: float | None = None
    seconds: float | None = None
    workers: int = 1
    backend: str = "threads"
    scheduler: str | None = None
    seed: int = 0
    chance: str = "fresh"
    deals: int | None = None
    deal_seed: int | None = None
    evaluate_every: int | None = None
    checkpoint_every: int | None = None
    checkpoint_minutes: float | None = None
    table_dtype: str | None = None
    linear_averaging: bool | None = None
    prune_after: int | None = None
    prune_probability: float | None = None
    prune_threshold: float | None = None
    epsilon: float | None = None
    alpha: float | None = None
    beta: float | None = None
    gamma: float | None = None
    out: str | None = None


@dataclass(frozen=True)
class RunConfig:
    """A checked run: the four tables. :meth:`game_config` and :meth:`training_config` turn it into
    what :func:`solver.solve.training.train` takes."""

    rules: RulesTable = field(default_factory=RulesTable)
    cards: CardsTable = field(default_factory=CardsTable)
    bets: BetsTable = field(default_factory=BetsTable)
    solver: SolverTable = field(default_factory=SolverTable)

    @classmethod
    def from_tables(cls, tables: Mapping[str, Any], base_dir: str | os.PathLike[str] | None = None) -> RunConfig:
        """Check parsed TOML tables (``{"rules": {...}, ...}``); relative card paths join ``base_dir``."""
        unknown = sorted(set(tables) - set(TABLES))
        if unknown:
            raise RunConfigError(
                f"unknown table [{unknown[0]}]: a run file has tables {', '.join(f'[{name}]' for name in TABLES)}"
            )
        checked: dict[str, dict[str, Any]] = {}
        for name in TABLES:
            table = tables.get(name, {})
            if not isinstance(table, Mapping):
                raise RunConfigError(f"[{name}] must be a table, got {table!r}")
            if name == "rules":
                continue
            values = {}
            for key, value in table.items():
                if key not in _SCHEMA[name]:
                    raise RunConfigError(f"unknown key [{name}] {key}: known keys are {', '.join(_SCHEMA[name])}")
                if value is not None:
                    values[key] = _check_type(f"[{name}] {key}", value, _SCHEMA[name][key])
            checked[name] = values
        rules = RulesTable.parse(tables.get("rules", {}))
        cards = dict(checked["cards"])
        if "path" in cards:
            path = Path(cards["path"]).expanduser()
            if not path.is_absolute() and base_dir is not None:
                path = Path(base_dir) / path
            cards["path"] = os.path.abspath(path)
        run = cls(rules, CardsTable(**cards), BetsTable(**checked["bets"]), SolverTable(**checked["solver"]))
        run._check()
        return run

    def _check(self) -> None:
        solver = self.solver
        budgets = [name for name in _BUDGETS if getattr(solver, name) is not None]
        if len(budgets) != 1:
            shown = ", ".join(f"{name}={getattr(solver, name)!r}" for name in budgets) or "none"
            raise RunConfigError(
                f"set exactly one of iterations and seconds (or minutes) in [solver] or on the "
                f"command line; got {shown}"
            )
        for name in ("iterations", "workers", "evaluate_every", "checkpoint_every", "deals"):
            value = getattr(solver, name)
            if value is not None and value < 1:
                raise RunConfigError(f"[solver] {name} must be >= 1, got {value!r}")
        for name in ("minutes", "seconds", "checkpoint_minutes"):
            value = getattr(solver, name)
            if value is not None and value <= 0:
                raise RunConfigError(f"[solver] {name} must be > 0, got {value!r}")
        if self.rules.exact:
            for name, table in (("cards", self.cards), ("bets", self.bets)):
                set_keys = [f.name for f in dataclasses.fields(table) if getattr(table, f.name) is not None]
                if set_keys:
                    raise RunConfigError(
                        f"[{name}] {set_keys[0]} applies to abstract games; {self.rules.variant} is an exact game"
                    )
            if solver.chance != "fresh" or solver.deals is not None or solver.deal_seed is not None:
                raise RunConfigError(
                    f"[solver] chance, deals and deal_seed apply to abstract games; "
                    f"{self.rules.variant} is an exact game (it sums over every deal)"
                )
        else:
            if self.rules.variant == LIMIT_VARIANT:
                for name in ("text", "bids", "max_runs"):
                    if getattr(self.bets, name) is not None:
                        raise RunConfigError(
                            f"[bets] {name} does not apply to the limit game (one raise size; "
                            "max_nodes is its only [bets] key)"
                        )
                if solver.chance != "fresh" or solver.deals is not None or solver.deal_seed is not None:
                    raise RunConfigError("[solver] chance, deals and deal_seed: the limit game draws fresh chance only")
            self._check_card_build()
            if self.cards.path is None:
                from abstraction.cards.buckets import card_file_variant

                raise RunConfigError(
                    f"a {self.rules.variant} game needs a card abstraction: set [cards] path or "
                    f"--cards (build one with vcfr abstract --variant {card_file_variant(self.rules.variant)})"
                )
            from solver.solve.cfr import FULL_TRAVERSAL

            if solver.chance == "fresh" and self.algorithm in FULL_TRAVERSAL:
                raise RunConfigError(
                    f"[solver] algorithm {self.algorithm!r} traverses every deal, and fresh chance "
                    "draws a new deal per iteration: use es-mccfr or os-mccfr, or chance = 'fixed'"
                )

    def _check_card_build(self) -> None:
        """The ``[cards]`` build settings: ``buckets`` and ``method`` together, values ``vcfr abstract`` takes."""
        cards = self.cards
        given = [name for name in ("buckets", "method", "flops", "seed") if getattr(cards, name) is not None]
        if not given:
            return
        if cards.buckets is None or cards.method is None:
            raise RunConfigError(
                f"[cards] {given[0]} is a build setting: give buckets and method too "
                f"(got {', '.join(f'{name}={getattr(cards, name)!r}' for name in given)})"
            )
        if cards.flops is not None and not 1 <= cards.flops <= 1755:
            raise RunConfigError(f"[cards] flops must be in 1..1755 (canonical flops), got {cards.flops!r}")
        from abstraction.cards.buckets import CardAbstractionConfig, card_file_variant

        try:
            counts = tuple(int(part) for part in cards.buckets.split(","))
        except ValueError:
            raise RunConfigError(
                f"[cards] buckets must be four comma-separated counts (preflop,flop,turn,river), got {cards.buckets!r}"
            ) from None
        try:
            CardAbstractionConfig(
                buckets=counts, method=cards.method, variant=card_file_variant(self.rules.variant), seed=cards.seed or 0
            )
        except (TypeError, ValueError) as error:
            raise RunConfigError(f"[cards] {' '.join(str(error).split())}") from None

    def missing_cards_message(self) -> str | None:
        """``None`` if the game needs no card file or its file exists; else why the run cannot start and
        the exact ``vcfr abstract`` command that builds the file (from the ``[cards]`` build settings,
        or a template naming the settings to choose when the table has none)."""
        path = self.cards.path
        if path is None or Path(path).is_file():
            return None
        import shlex

        if self.cards.buildable:
            command = "vcfr " + shlex.join(self.cards.build_arguments(self.rules.variant))
            return f"card abstraction file {path!r} does not exist (build it with: {command})"
        from abstraction.cards.buckets import card_file_variant

        return (
            f"card abstraction file {path!r} does not exist (build it with: vcfr abstract --variant "
            f"{card_file_variant(self.rules.variant)} --out {shlex.quote(path)} and your buckets and method; "
            "with [cards] buckets and method in the run file this names the exact command)"
        )

    @property
    def algorithm(self) -> str:
        """The algorithm; default CFR+ on exact games, ES-MCCFR on abstract ones."""
        default = "cfr+" if self.rules.exact or self.solver.chance == "fixed" else "es-mccfr"
        return self.solver.algorithm or default

    def game_config(self) -> dict[str, Any]:
        """The JSON game config (:func:`solver.solve.game_kinds.game_config_of` form)."""
        from solver.solve.game_kinds import game_config_of

        if self.rules.exact:
            config: dict[str, Any] = {"name": self.rules.variant}
            if self.rules.fields:
                config["rules"] = dict(self.rules.fields)
            return _checked(lambda: game_config_of(config))
        if self.rules.variant == LIMIT_VARIANT:
            from solver.games.limit_games import LimitGameConfig

            limits = {} if self.bets.max_nodes is None else {"max_nodes": self.bets.max_nodes}
            return _checked(
                lambda: LimitGameConfig(
                    rules=dict(self.rules.fields), card_abstraction=str(self.cards.path), **limits
                ).to_dict()
            )
        from solver.games.abstract_games import AbstractGameConfig

        settings: dict[str, Any] = {"chance": self.solver.chance}
        if self.solver.deals is not None:
            settings["n_deals"] = self.solver.deals
        if self.solver.deal_seed is not None:
            settings["deal_seed"] = self.solver.deal_seed
        if self.bets.max_runs is not None:
            settings["max_runs"] = self.bets.max_runs
        if self.bets.max_nodes is not None:
            settings["max_nodes"] = self.bets.max_nodes
        return _checked(
            lambda: AbstractGameConfig(
                variant=self.rules.variant,
                rules=dict(self.rules.fields),
                card_abstraction=str(self.cards.path),
                bets=self.bets.combined(),
                **settings,
            ).to_dict()
        )

    def training_config(self) -> TrainingConfig:
        """The :class:`~solver.solve.training.TrainingConfig` of this run (RunConfigError on bad values)."""
        solver = self.solver
        seconds = solver.seconds if solver.minutes is None else 60.0 * solver.minutes
        params = {name: getattr(solver, name) for name in _SOLVER_PARAMS if getattr(solver, name) is not None}
        return _checked(
            lambda: TrainingConfig(
                game=self.game_config(),
                algorithm=self.algorithm,
                iterations=solver.iterations,
                seconds=seconds,
                seed=solver.seed,
                workers=solver.workers,
                backend=solver.backend,
                scheduler=solver.scheduler,
                evaluate_every=solver.evaluate_every,
                checkpoint_every=solver.checkpoint_every,
                checkpoint_minutes=solver.checkpoint_minutes,
                solver_params=params,
            )
        )

    def check_solver_params(self) -> None:
        """Build the solver settings once, so bad parameters fail as usage errors before any work."""
        from solver.solve.cfr import SolverConfig

        params = {name: getattr(self.solver, name) for name in _SOLVER_PARAMS if getattr(self.solver, name) is not None}
        _checked(lambda: SolverConfig(algorithm=self.algorithm, seed=self.solver.seed, **params))


def _checked(build: Any) -> Any:
    try:
        return build()
    except RunConfigError:
        raise
    except (TypeError, ValueError) as error:
        raise RunConfigError(" ".join(str(error).split())) from None


def read_run_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The raw tables of a TOML run file (RunConfigError if missing or not valid TOML)."""
    source = Path(path)
    try:
        with source.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise RunConfigError(f"run file {str(source)!r} does not exist") from None
    except tomllib.TOMLDecodeError as error:
        raise RunConfigError(f"run file {str(source)!r} is not valid TOML: {error}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RunConfigError(f"run file {str(source)!r} cannot be read: {error}") from None


def merge_overrides(tables: Mapping[str, Any], overrides: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """``tables`` with ``overrides`` (``{"solver": {"workers": 2}, ...}``; ``None`` values ignored) on top.

    A budget override (``iterations``, ``minutes``, ``seconds``) replaces every budget of the file.

    >>> merge_overrides({"solver": {"minutes": 5, "seed": 1}}, {"solver": {"iterations": 10, "seed": None}})
    {'solver': {'seed': 1, 'iterations': 10}}
    """
    merged = {name: dict(table) if isinstance(table, Mapping) else table for name, table in tables.items()}
    for name, values in overrides.items():
        given = {key: value for key, value in values.items() if value is not None}
        if not given:
            continue
        table = merged.setdefault(name, {})
        if not isinstance(table, dict):
            raise RunConfigError(f"[{name}] must be a table, got {table!r}")
        if name == "solver" and any(key in given for key in _BUDGETS):
            for key in _BUDGETS:
                table.pop(key, None)
        table.update(given)
    return merged


def parse_rule(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` of a ``--rule`` flag; VALUE is read as a TOML value, else as a string.

    >>> parse_rule("stack=200"), parse_rule("rules=engine"), parse_rule("bounty_multiplier=2.5")
    (('stack', 200), ('rules', 'engine'), ('bounty_multiplier', 2.5))
    """
    key, equals, value = text.partition("=")
    if not equals or not key.strip():
        raise RunConfigError(f"--rule takes KEY=VALUE, got {text!r}")
    try:
        parsed = tomllib.loads(f"value = {value.strip()}")["value"]
    except tomllib.TOMLDecodeError:
        parsed = value.strip()
    return key.strip(), parsed


def parse_run_config(
    text: str, base_dir: str | os.PathLike[str] | None = None, overrides: Mapping[str, Mapping[str, Any]] | None = None
) -> RunConfig:
    """A :class:`RunConfig` from TOML text (usage errors as :class:`RunConfigError`)."""
    try:
        tables = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RunConfigError(f"not valid TOML: {error}") from None
    return RunConfig.from_tables(merge_overrides(tables, overrides or {}), base_dir)


def load_run_config(
    path: str | os.PathLike[str] | None, overrides: Mapping[str, Mapping[str, Any]] | None = None
) -> RunConfig:
    """The :class:`RunConfig` of a run file (or of the overrides alone when ``path`` is None)."""
    tables = read_run_file(path) if path is not None else {}
    base_dir = Path(path).resolve().parent if path is not None else None
    return RunConfig.from_tables(merge_overrides(tables, overrides or {}), base_dir)

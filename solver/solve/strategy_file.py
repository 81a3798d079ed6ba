"""HDF5 strategy files: one self-describing file per solve.

File format, version 2 (everything below is checked by :func:`read_strategy_file`)::

    /                         root group, attributes:
        format                "vcfr-strategy"                       (magic string)
        format_version        2                                     (int; bumped on any layout change:
                                                                    2 added N players, chance nodes,
                                                                    outcome contexts and payoff rows)
        package_version       version of vcfr that wrote the file   (str)
        game_config           JSON object, enough to rebuild the game with exact_games.build_game
        solver_config         JSON object: algorithm, its parameters, workers, backend ...
        iterations            iterations done                       (int)
        seed                  root seed of the solve                (int)
        tree_fingerprint      sha256 of the tree arrays (FlatTree.fingerprint)  (str)
    /tree/<name>              the FlatTree arrays (FlatTree.to_arrays), one dataset per field
    /strategy/average         float64[table_size]: average strategy, one row of n_actions[group]
                              probabilities per information set (group, bucket), flat layout of
                              the solver tables (row_offset[group] + bucket * n_actions[group])
    /tables/<name>            the solver's resume state (Solver.tables(): regrets, strategy sums
                              in the solve's table dtype, float32 or float64 ...)
    /convergence/iteration    int64[k]   iterations done at each measurement
    /convergence/seconds      float64[k] solve wall-clock seconds at each measurement (evaluation
                              time excluded)
    /convergence/exploitability float64[k] exploitability in chips ((BR_0 + BR_1) / 2)

Every non-scalar dataset is chunked, shuffled, gzip-compressed and Fletcher-32 checksummed, so a
flipped byte in the data is detected on read. Files are written to a temporary file in the target
directory (``.NAME.<pid>.<8 hex>.tmp``) and moved into place with ``os.replace``: a crash never
leaves a half-written file in place of ``NAME``. A temporary file left by a killed writer (its pid
no longer a live process) is removed by the next read or write of ``NAME``
(:func:`remove_stale_temporaries`). No pickle anywhere: attributes are strings and numbers,
datasets are plain numeric arrays.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FORMAT_NAME = "vcfr-strategy"
FORMAT_VERSION = 2
_REQUIRED_ATTRIBUTES = (
    "format",
    "format_version",
    "package_version",
    "game_config",
    "solver_config",
    "iterations",
    "seed",
    "tree_fingerprint",
)
_CONVERGENCE_FIELDS = ("iteration", "seconds", "exploitability")
_TEMPORARY_SUFFIX = re.compile(r"\.(?P<pid>[0-9]+)\.[0-9a-f]{8}\.tmp")
"""What :func:`write_strategy_file` appends to ``.NAME`` for its temporary file: ``.<pid>.<8 hex>.tmp``."""


class StrategyFileError(ValueError):
    """A strategy file cannot be used; the message names the file and the check that failed."""


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("vcfr")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


@dataclass(frozen=True)
class ConvergenceLog:
    """Exploitability measured during a solve.

    ``iteration`` (int64[k]) counts iterations done, ``seconds`` (float64[k]) is the solve's
    wall-clock time in seconds (time spent measuring excluded), ``exploitability`` (float64[k]) is
    in chips.

    >>> log = ConvergenceLog.empty().appended(100, 0.5, 0.25)
    >>> log.iteration.tolist(), log.exploitability.tolist()
    ([100], [0.25])
    >>> ConvergenceLog(np.array([1, 2]), np.array([0.1]), np.array([0.2]))
    Traceback (most recent call last):
    ...
    ValueError: convergence log columns must be 1-D and of equal length, got shapes (2,), (1,), (1,)
    """

    iteration: np.ndarray
    seconds: np.ndarray
    exploitability: np.ndarray

    def __post_init__(self) -> None:
        columns = (
            np.asarray(self.iteration, dtype=np.int64),
            np.asarray(self.seconds, dtype=np.float64),
            np.asarray(self.exploitability, dtype=np.float64),
        )
        shapes = [column.shape for column in columns]
        if any(len(shape) != 1 for shape in shapes) or len(set(shapes)) != 1:
            shown = ", ".join(str(shape) for shape in shapes)
            raise ValueError(f"convergence log columns must be 1-D and of equal length, got shapes {shown}")
        for name, column in zip(_CONVERGENCE_FIELDS, columns, strict=True):
            object.__setattr__(self, name, column)

    @classmethod
    def empty(cls) -> ConvergenceLog:
        """A log with no measurements."""
        return cls(np.zeros(0, np.int64), np.zeros(0), np.zeros(0))

    def appended(self, iteration: int, seconds: float, exploitability: float) -> ConvergenceLog:
        """A new log with one more measurement (iterations done, seconds, chips)."""
        return ConvergenceLog(
            np.append(self.iteration, iteration),
            np.append(self.seconds, seconds),
            np.append(self.exploitability, exploitability),
        )

    def __len__(self) -> int:
        return int(self.iteration.shape[0])


@dataclass(frozen=True)
class StrategyRecord:
    """Everything one strategy file holds (see the module docstring for the layout).

    ``game_config`` and ``solver_config`` must be JSON-serialisable mappings; ``tree_arrays`` is
    ``FlatTree.to_arrays()``; ``average_strategy`` is float64[table_size]; ``tables`` is the
    solver's resume state (may be empty for a strategy-only file).
    """

    game_config: Mapping[str, Any]
    solver_config: Mapping[str, Any]
    iterations: int
    seed: int
    tree_fingerprint: str
    tree_arrays: Mapping[str, np.ndarray]
    average_strategy: np.ndarray
    tables: Mapping[str, np.ndarray] = field(default_factory=dict)
    convergence: ConvergenceLog = field(default_factory=ConvergenceLog.empty)
    package_version: str = field(default_factory=_package_version)

    def __post_init__(self) -> None:
        if int(self.iterations) < 0:
            raise ValueError(f"iterations must be >= 0, got {self.iterations}")
        for name in ("game_config", "solver_config"):
            try:
                json.dumps(getattr(self, name))
            except TypeError as error:
                raise ValueError(f"{name} must be JSON-serialisable: {error}") from None
        strategy = np.asarray(self.average_strategy)
        if strategy.ndim != 1 or not np.issubdtype(strategy.dtype, np.floating):
            raise ValueError(
                f"average_strategy must be a 1-D float array, got dtype {strategy.dtype} shape {strategy.shape}"
            )


def _write_array(group: Any, name: str, values: np.ndarray) -> None:
    values = np.ascontiguousarray(values)
    if values.dtype.kind not in "biuf":
        raise ValueError(f"dataset {name!r} must be numeric or boolean, got dtype {values.dtype}")
    if values.size == 0 or values.ndim == 0:
        group.create_dataset(name, data=values)
        return
    group.create_dataset(
        name, data=values, chunks=True, compression="gzip", compression_opts=4, shuffle=True, fletcher32=True
    )


def write_strategy_file(path: str | os.PathLike[str], record: StrategyRecord) -> Path:
    """Write ``record`` to ``path`` atomically (temporary file in the same directory, then rename).

    Returns the final path. The parent directory is created if needed, and temporary files that
    killed writers of ``path`` left there are removed (:func:`remove_stale_temporaries`).
    """
    import h5py

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(target)
    temporary_name = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with h5py.File(temporary_name, "x") as handle:
            handle.attrs["format"] = FORMAT_NAME
            handle.attrs["format_version"] = FORMAT_VERSION
            handle.attrs["package_version"] = record.package_version
            handle.attrs["game_config"] = json.dumps(record.game_config, sort_keys=True)
            handle.attrs["solver_config"] = json.dumps(record.solver_config, sort_keys=True)
            handle.attrs["iterations"] = int(record.iterations)
            handle.attrs["seed"] = int(record.seed)
            handle.attrs["tree_fingerprint"] = record.tree_fingerprint
            tree = handle.create_group("tree")
            for name, values in record.tree_arrays.items():
                _write_array(tree, name, np.asarray(values))
            _write_array(handle.create_group("strategy"), "average", np.asarray(record.average_strategy, np.float64))
            tables = handle.create_group("tables")
            for name, values in record.tables.items():
                _write_array(tables, name, np.asarray(values))
            convergence = handle.create_group("convergence")
            for name in _CONVERGENCE_FIELDS:
                _write_array(convergence, name, getattr(record.convergence, name))
            handle.flush()
        with open(temporary_name, "rb") as written:
            os.fsync(written.fileno())
        os.replace(temporary_name, target)
    except BaseException:
        Path(temporary_name).unlink(missing_ok=True)
        raise
    return target


def _process_alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (this one included); unsure counts as alive."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: alive under another user; anything else: do not guess
        return True
    return True


def remove_stale_temporaries(path: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files a killed :func:`write_strategy_file` of ``path`` left beside it.

    Only files named ``.NAME.<pid>.<8 hex>.tmp`` (NAME: ``path``'s name) whose pid is not a live
    process are removed: a live writer's file (another process still writing, or this one) is
    kept. Files that cannot be removed are left alone. Returns the files removed.
    """
    target = Path(path)
    prefix = f".{target.name}"
    try:
        names = [entry.name for entry in os.scandir(target.parent) if entry.name.startswith(prefix)]
    except OSError:
        return []
    removed = []
    for name in names:
        match = _TEMPORARY_SUFFIX.fullmatch(name[len(prefix) :])
        pid = int(match["pid"]) if match else 0
        if pid <= 0 or _process_alive(pid):
            continue
        try:
            (target.parent / name).unlink()
        except OSError:
            continue
        removed.append(target.parent / name)
    return removed


def _read_group(handle: Any, name: str, source: Path) -> dict[str, np.ndarray]:
    if name not in handle:
        raise StrategyFileError(f"{source}: missing group /{name}")
    arrays = {}
    for key, dataset in handle[name].items():
        try:
            arrays[key] = dataset[()]
        except OSError as error:
            raise StrategyFileError(
                f"{source}: dataset /{name}/{key} is corrupt (checksum or read failed: {error})"
            ) from None
    return arrays


def _stored_tree(tree_arrays: Mapping[str, np.ndarray]) -> Any:
    from abstraction.tree import FlatTree

    return FlatTree.from_arrays(dict(tree_arrays))


def _open_strategy_file(source: Path) -> Any:
    """``source`` opened read-only with h5py, after removing stale temporary files beside it;
    :class:`StrategyFileError` if it is missing, not HDF5 or cannot be opened."""
    import h5py

    remove_stale_temporaries(source)
    if not source.is_file():
        raise StrategyFileError(f"{source}: no such file")
    if not h5py.is_hdf5(source):
        raise StrategyFileError(f"{source}: not an HDF5 file (bad signature)")
    try:
        return h5py.File(source, "r")
    except OSError as error:
        raise StrategyFileError(f"{source}: corrupt or truncated HDF5 file ({error})") from None


def _checked_attributes(handle: Any, source: Path) -> dict[str, Any]:
    """The root attributes of an open file, checked: vcfr magic, supported version, none missing."""
    attributes = {key: value.item() if isinstance(value, np.generic) else value for key, value in handle.attrs.items()}
    if attributes.get("format") != FORMAT_NAME:
        raise StrategyFileError(f"{source}: not a vcfr strategy file (format attribute {attributes.get('format')!r})")
    version = attributes.get("format_version")
    if version != FORMAT_VERSION:
        raise StrategyFileError(
            f"{source}: unsupported format version {version!r} (this vcfr reads version {FORMAT_VERSION})"
        )
    missing = [name for name in _REQUIRED_ATTRIBUTES if name not in attributes]
    if missing:
        raise StrategyFileError(f"{source}: missing attributes {missing}")
    return attributes


@dataclass(frozen=True)
class StrategySummary:
    """What a strategy file's attributes say, read without its datasets (fast on any file size):
    the game and solver configs (JSON objects), the iterations done and the names of the solver
    tables stored (``/tables``: the resume state, empty in a strategy-only file)."""

    game_config: Mapping[str, Any]
    solver_config: Mapping[str, Any]
    iterations: int
    table_names: tuple[str, ...] = ()

    @property
    def game(self) -> str:
        """The game's name: the variant of an abstract game, else the exact game's name or the kind."""
        config = self.game_config
        return str(config.get("variant") or config.get("name") or config.get("kind") or "unknown")

    @property
    def algorithm(self) -> str | None:
        """The solve's algorithm, if the file records one."""
        solver = self.solver_config.get("solver", self.solver_config)
        return solver.get("algorithm") if isinstance(solver, Mapping) else None

    def describe(self) -> str:
        """One phrase for messages.

        >>> StrategySummary({"name": "kuhn"}, {"solver": {"algorithm": "cfr+"}}, 2_280_000).describe()
        'a kuhn strategy (cfr+, 2,280,000 iterations)'
        """
        algorithm = f"{self.algorithm}, " if self.algorithm else ""
        return f"a {self.game} strategy ({algorithm}{self.iterations:,} iterations)"


def read_strategy_summary(path: str | os.PathLike[str]) -> StrategySummary:
    """The :class:`StrategySummary` of a strategy file: the checks of :func:`read_strategy_file` on
    the file and its attributes (exists, HDF5, vcfr magic, version, attributes present), none on
    its datasets (not read). Raises :class:`StrategyFileError` naming the failed check."""
    source = Path(path)
    handle = _open_strategy_file(source)
    try:
        with handle:
            attributes = _checked_attributes(handle, source)
            table_names = tuple(sorted(handle["tables"])) if "tables" in handle else ()
        return StrategySummary(
            json.loads(attributes["game_config"]),
            json.loads(attributes["solver_config"]),
            int(attributes["iterations"]),
            table_names,
        )
    except StrategyFileError:
        raise
    except (OSError, KeyError, RuntimeError, ValueError, TypeError) as error:
        raise StrategyFileError(f"{source}: malformed attributes ({error})") from None


def read_strategy_file(path: str | os.PathLike[str], *, expected_tree_fingerprint: str | None = None) -> StrategyRecord:
    """Load and check a strategy file.

    Checks, in order: the file exists, is HDF5, opens (not truncated), carries the vcfr magic and
    a supported format version, has every attribute and dataset, every dataset passes its
    checksum, the stored tree hashes to the recorded fingerprint, the strategy fits the tree and,
    when given, the fingerprint equals ``expected_tree_fingerprint`` (the tree of the game you are
    about to use it with). Any failure raises :class:`StrategyFileError` naming the check. Stale
    temporary files of the same name are removed first (:func:`remove_stale_temporaries`).
    """
    source = Path(path)
    handle = _open_strategy_file(source)
    try:
        with handle:
            attributes = _checked_attributes(handle, source)
            tree_arrays = _read_group(handle, "tree", source)
            strategy = _read_group(handle, "strategy", source)
            tables = _read_group(handle, "tables", source)
            convergence = _read_group(handle, "convergence", source)
    except StrategyFileError:
        raise
    except (OSError, KeyError, RuntimeError) as error:
        raise StrategyFileError(f"{source}: corrupt or truncated HDF5 file ({error})") from None
    if "average" not in strategy:
        raise StrategyFileError(f"{source}: missing dataset /strategy/average")
    missing_columns = [name for name in _CONVERGENCE_FIELDS if name not in convergence]
    if missing_columns:
        raise StrategyFileError(f"{source}: missing convergence datasets {missing_columns}")
    recorded = str(attributes["tree_fingerprint"])
    try:
        tree = _stored_tree(tree_arrays)
        actual = tree.fingerprint()
    except (ValueError, TypeError, KeyError) as error:
        raise StrategyFileError(f"{source}: stored tree is invalid ({error})") from None
    if actual != recorded:
        raise StrategyFileError(
            f"{source}: tree fingerprint mismatch: stored tree hashes to {actual[:16]}..., attribute says {recorded[:16]}..."
        )
    if expected_tree_fingerprint is not None and recorded != expected_tree_fingerprint:
        raise StrategyFileError(
            f"{source}: tree fingerprint {recorded[:16]}... does not match the game's tree {expected_tree_fingerprint[:16]}..."
        )
    if strategy["average"].shape != (tree.table_size,):
        raise StrategyFileError(
            f"{source}: average strategy has shape {strategy['average'].shape}, the tree needs ({tree.table_size},)"
        )
    try:
        game_config = json.loads(attributes["game_config"])
        solver_config = json.loads(attributes["solver_config"])
        return StrategyRecord(
            game_config=game_config,
            solver_config=solver_config,
            iterations=int(attributes["iterations"]),
            seed=int(attributes["seed"]),
            tree_fingerprint=recorded,
            tree_arrays=tree_arrays,
            average_strategy=strategy["average"],
            tables=tables,
            convergence=ConvergenceLog(convergence["iteration"], convergence["seconds"], convergence["exploitability"]),
            package_version=str(attributes["package_version"]),
        )
    except (ValueError, TypeError) as error:
        raise StrategyFileError(f"{source}: malformed contents ({error})") from None

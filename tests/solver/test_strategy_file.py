"""Strategy files: exact round trip, atomic writes, and a specific refusal for each kind of bad file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from abstraction.exact.exact_games import build_game
from solver.solve.cfr import Solver
from solver.solve.strategy_file import (
    FORMAT_VERSION,
    ConvergenceLog,
    StrategyFileError,
    StrategyRecord,
    read_strategy_file,
    read_strategy_summary,
    remove_stale_temporaries,
    write_strategy_file,
)

KUHN = build_game("kuhn")


def kuhn_record(iterations: int = 30, tables: dict | None = None) -> StrategyRecord:
    solver = Solver(KUHN, algorithm="cfr+", seed=3).run(iterations)
    return StrategyRecord(
        game_config=KUHN.config,
        solver_config={"solver": solver.config.to_dict(), "workers": 1},
        iterations=solver.iteration,
        seed=3,
        tree_fingerprint=KUHN.tree.fingerprint(),
        tree_arrays=KUHN.tree.to_arrays(),
        average_strategy=solver.average_strategy(),
        tables=solver.tables() if tables is None else tables,
        convergence=ConvergenceLog.empty().appended(10, 0.01, 0.2).appended(iterations, 0.02, 0.05),
    )


@pytest.fixture()
def written(tmp_path: Path) -> tuple[Path, StrategyRecord]:
    record = kuhn_record()
    return write_strategy_file(tmp_path / "kuhn.h5", record), record


def test_round_trip_is_exact(written: tuple[Path, StrategyRecord]) -> None:
    path, record = written
    loaded = read_strategy_file(path, expected_tree_fingerprint=KUHN.tree.fingerprint())
    assert loaded.game_config == record.game_config
    assert loaded.solver_config == record.solver_config
    assert (loaded.iterations, loaded.seed, loaded.tree_fingerprint) == (30, 3, KUHN.tree.fingerprint())
    assert loaded.package_version == record.package_version != ""
    np.testing.assert_array_equal(loaded.average_strategy, record.average_strategy)
    assert set(loaded.tables) == {"regrets", "strategy_sums", "iteration"}
    for name, values in record.tables.items():
        np.testing.assert_array_equal(loaded.tables[name], values)
    for name, values in record.tree_arrays.items():
        np.testing.assert_array_equal(loaded.tree_arrays[name], values)
        assert loaded.tree_arrays[name].dtype == values.dtype
    np.testing.assert_array_equal(loaded.convergence.iteration, [10, 30])
    np.testing.assert_array_equal(loaded.convergence.exploitability, [0.2, 0.05])
    # The loaded tables resume a solver exactly where the saved one stopped.
    resumed = Solver(KUHN, algorithm="cfr+", seed=3).load_tables(loaded.tables).run(5)
    straight = Solver(KUHN, algorithm="cfr+", seed=3).run(35)
    np.testing.assert_array_equal(resumed.tables()["regrets"], straight.tables()["regrets"])


def test_datasets_are_chunked_compressed_and_checksummed(written: tuple[Path, StrategyRecord]) -> None:
    path, _ = written
    with h5py.File(path, "r") as handle:
        for name in ("strategy/average", "tables/regrets", "tree/child_start", "convergence/seconds"):
            dataset = handle[name]
            assert dataset.chunks is not None and dataset.compression == "gzip" and dataset.fletcher32, name
        assert handle.attrs["format_version"] == FORMAT_VERSION


def test_write_replaces_atomically_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = write_strategy_file(tmp_path / "s.h5", kuhn_record(10))
    bad_tables = {"regrets": np.array(["not", "numbers"])}
    with pytest.raises(ValueError, match="must be numeric"):
        write_strategy_file(path, kuhn_record(20, tables=bad_tables))
    assert read_strategy_file(path).iterations == 10  # the old file survived the failed write
    write_strategy_file(path, kuhn_record(20))
    assert read_strategy_file(path).iterations == 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.h5"]


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_killed_writers_temporary_file_is_removed_by_the_next_read_or_write(tmp_path: Path) -> None:
    """Issue 21 item 8: after a kill -9, ``.NAME.h5.<pid>.<hex>.tmp`` stayed beside the strategy even
    after a successful resume. A live writer's temporary file (here this process's) is kept."""
    path = write_strategy_file(tmp_path / "s.h5", kuhn_record(10))
    dead = tmp_path / f".s.h5.{dead_pid()}.0badf00d.tmp"
    live = tmp_path / f".s.h5.{os.getpid()}.cafebabe.tmp"
    other_name = tmp_path / f".t.h5.{dead_pid()}.0badf00d.tmp"  # another strategy's leftover
    not_ours = tmp_path / ".s.h5.notes.tmp"
    for leftover in (dead, live, other_name, not_ours):
        leftover.write_bytes(b"half a file")
    assert read_strategy_file(path).iterations == 10
    assert not dead.exists() and live.exists() and other_name.exists() and not_ours.exists()
    dead.write_bytes(b"half a file")
    write_strategy_file(path, kuhn_record(20))
    assert not dead.exists() and live.exists()
    dead.write_bytes(b"half a file")
    assert read_strategy_summary(path).iterations == 20 and not dead.exists()
    assert remove_stale_temporaries(tmp_path / "t.h5") == [other_name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([".s.h5.notes.tmp", live.name, "s.h5"])


def test_summary_reads_the_attributes_only(written: tuple[Path, StrategyRecord]) -> None:
    path, record = written
    summary = read_strategy_summary(path)
    assert summary.iterations == record.iterations and summary.game == "kuhn" and summary.algorithm == "cfr+"
    assert summary.describe() == f"a kuhn strategy (cfr+, {record.iterations} iterations)"
    _set_attribute("format", "other")(path)
    with pytest.raises(StrategyFileError, match="not a vcfr strategy file"):
        read_strategy_summary(path)


def _set_attribute(name: str, value: object):
    def change(path: Path) -> None:
        with h5py.File(path, "r+") as handle:
            handle.attrs[name] = value

    return change


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _not_hdf5(path: Path) -> None:
    path.write_text("regrets = [0.5, 0.5]\n")


def _tamper_tree(path: Path) -> None:
    with h5py.File(path, "r+") as handle:
        values = handle["tree/committed"][()]
        values[-1, 0] += 1.0
        handle["tree/committed"][...] = values


def _flip_data_byte(path: Path) -> None:
    with h5py.File(path, "r") as handle:
        chunk = handle["tables/regrets"].id.get_chunk_info(0)
    with open(path, "r+b") as raw:
        raw.seek(chunk.byte_offset + chunk.size // 2)
        byte = raw.read(1)
        raw.seek(chunk.byte_offset + chunk.size // 2)
        raw.write(bytes([byte[0] ^ 0xFF]))


def _drop_average(path: Path) -> None:
    with h5py.File(path, "r+") as handle:
        del handle["strategy/average"]


def _wrong_strategy_size(path: Path) -> None:
    with h5py.File(path, "r+") as handle:
        del handle["strategy/average"]
        handle["strategy"].create_dataset("average", data=np.zeros(5))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (_not_hdf5, "not an HDF5 file"),
        (_truncate, "corrupt or truncated"),
        (_set_attribute("format", "something-else"), "not a vcfr strategy file"),
        (_set_attribute("format_version", FORMAT_VERSION + 1), f"unsupported format version {FORMAT_VERSION + 1}"),
        (_tamper_tree, "tree fingerprint mismatch"),
        (_flip_data_byte, "dataset /tables/regrets is corrupt"),
        (_drop_average, "missing dataset /strategy/average"),
        (_wrong_strategy_size, r"average strategy has shape \(5,\)"),
    ],
)
def test_bad_files_are_refused_with_the_failed_check(written: tuple[Path, StrategyRecord], damage, message) -> None:
    path, _ = written
    damage(path)
    with pytest.raises(StrategyFileError, match=message) as caught:
        read_strategy_file(path)
    assert isinstance(caught.value, ValueError) and str(path) in str(caught.value)


def test_missing_file_and_other_games_tree_are_refused(written: tuple[Path, StrategyRecord], tmp_path: Path) -> None:
    path, _ = written
    with pytest.raises(StrategyFileError, match="no such file"):
        read_strategy_file(tmp_path / "absent.h5")
    leduc = build_game("leduc")
    with pytest.raises(StrategyFileError, match="does not match the game's tree"):
        read_strategy_file(path, expected_tree_fingerprint=leduc.tree.fingerprint())


def test_record_validation_names_the_bad_value() -> None:
    with pytest.raises(ValueError, match="iterations must be >= 0, got -1"):
        StrategyRecord({}, {}, -1, 0, "x", {}, np.zeros(2))
    with pytest.raises(ValueError, match="game_config must be JSON-serialisable"):
        StrategyRecord({"bad": object()}, {}, 0, 0, "x", {}, np.zeros(2))


@settings(max_examples=15, deadline=None)
@given(
    regrets=arrays(np.float64, KUHN.tree.table_size, elements=st.floats(allow_nan=True, allow_infinity=True)),
    iteration=st.integers(0, 2**62),
)
def test_any_float_tables_round_trip_bit_exactly(tmp_path_factory, regrets: np.ndarray, iteration: int) -> None:
    path = tmp_path_factory.mktemp("property") / "t.h5"
    tables = {"regrets": regrets, "iteration": np.array([iteration], dtype=np.int64)}
    write_strategy_file(path, kuhn_record(1, tables=tables))
    loaded = read_strategy_file(path).tables
    assert loaded["regrets"].tobytes() == regrets.tobytes()
    assert int(loaded["iteration"][0]) == iteration

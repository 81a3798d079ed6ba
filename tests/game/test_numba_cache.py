"""numba's cache kept in step with its sources: the hash covers what kernels are built from, a change
there clears the cached kernels once, and a cached caller then sees its callee's new code."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import game.numba_cache as numba_cache
from game.numba_cache import RECORD, cached_kernel_files, clear_stale, record_hash, sources_hash

CALLER = """
from numba import njit

from game.callee import inner


@njit(cache=True)
def outer():
    return inner() + 10
"""
CALLEE = """
from numba import njit

from game.constants import OFFSET


@njit(cache=True)
def inner():
    return {value} + OFFSET
"""


def _project(root: Path, value: int = 1, offset: int = 0) -> Path:
    """A tiny project: a cached kernel calling a kernel of another module that reads a constant of a
    third (no numba there), and a module nothing numba imports."""
    package = root / "game"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(CALLER)
    (package / "callee.py").write_text(CALLEE.format(value=value))
    (package / "constants.py").write_text(f"OFFSET = {offset}\n")
    (package / "unrelated.py").write_text("NOTE = 'not read by any kernel'\n")
    return root


@pytest.fixture(autouse=True)
def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees roots as a new process would (the check runs once per process and root)."""
    monkeypatch.setattr(numba_cache, "_checked", set())


def test_the_hash_covers_kernel_modules_and_what_they_import(tmp_path: Path) -> None:
    root = _project(tmp_path)
    before = sources_hash(root)
    (root / "game" / "unrelated.py").write_text("NOTE = 'edited'\n")
    assert sources_hash(root) == before
    (root / "game" / "constants.py").write_text("OFFSET = 5\n")  # no numba here, but a kernel reads it
    assert sources_hash(root) != before


def test_a_source_change_clears_the_cache_once(tmp_path: Path) -> None:
    root = _project(tmp_path)
    cache = root / "game" / "__pycache__"
    cache.mkdir()
    stale = [cache / "caller.outer-8.py311.nbi", cache / "caller.outer-8.py311.1.nbc"]
    for path in stale:
        path.write_bytes(b"old")
    assert cached_kernel_files(root) == sorted(stale)
    assert clear_stale(root) == 2  # nothing recorded: whatever is cached may be stale
    assert not any(path.exists() for path in stale)
    assert (root / RECORD).read_text().strip() == sources_hash(root)

    for path in stale:
        path.write_bytes(b"fresh")
    numba_cache._checked.clear()
    assert clear_stale(root) == 0  # the same sources: kept
    assert all(path.exists() for path in stale)

    (root / "game" / "callee.py").write_text(CALLEE.format(value=2))
    numba_cache._checked.clear()
    assert clear_stale(root) == 2
    assert clear_stale(root) == 0  # once per process


def test_a_garbled_record_counts_as_none(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "game" / "__pycache__").mkdir()
    cached = root / "game" / "__pycache__" / "caller.outer-8.py311.nbi"
    cached.write_bytes(b"old")
    (root / RECORD).write_bytes(b"\xff\xfe not a hash")
    assert clear_stale(root) == 1 and not cached.exists()
    assert (root / RECORD).read_text().strip() == sources_hash(root)


def test_a_recorded_hash_keeps_a_copied_cache(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / "game" / "__pycache__").mkdir()
    copied = root / "game" / "__pycache__" / "caller.outer-8.py311.nbi"
    copied.write_bytes(b"copied from the project")
    record_hash(root)
    assert clear_stale(root) == 0
    assert copied.exists()


def _run_outer(root: Path, clear: bool) -> int:
    """``outer()`` of the tiny project in a new process (numba's JIT on), after ``clear_stale`` if ``clear``."""
    script = textwrap.dedent(f"""
        import importlib.util, sys
        from pathlib import Path
        spec = importlib.util.spec_from_file_location("checker", {str(Path(numba_cache.__file__))!r})
        checker = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(checker)
        if {clear!r}:
            checker.clear_stale(Path({str(root)!r}))
        sys.path.insert(0, {str(root)!r})
        from game.caller import outer
        print(outer())
    """)
    environment = {
        key: value for key, value in os.environ.items() if key not in ("NUMBA_DISABLE_JIT", "NUMBA_CACHE_DIR")
    }
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment, check=True)
    return int(result.stdout.split()[-1])


def test_a_cached_caller_sees_its_callees_change_only_after_the_check(tmp_path: Path) -> None:
    """The hazard itself: numba alone hands back the old callee's code through the caller's cache."""
    root = _project(tmp_path, value=1)
    assert _run_outer(root, clear=True) == 11
    (root / "game" / "callee.py").write_text(CALLEE.format(value=2))
    assert _run_outer(root, clear=False) == 11  # numba's own check: the caller's file did not change
    assert _run_outer(root, clear=True) == 12
    (root / "game" / "constants.py").write_text("OFFSET = 100\n")
    assert _run_outer(root, clear=True) == 112

"""numba's on-disk cache, kept in step with the sources its kernels were compiled from.

numba re-compiles a cached kernel when its own file changes, not when a kernel it calls in another
module does, nor a module-level constant it reads from another module: the cached caller keeps the old
machine code, which may then read new arrays wrongly (a wrong result or a segfault after a ``git pull``).
:func:`clear_stale` hashes every project module that imports numba together with every project module
those import (the closure), and when that hash differs from the one recorded beside the cache, deletes
the project's cached kernels (``__pycache__/*.nbi`` and ``*.nbc`` under each package) before any is
loaded; numba compiles them again on first use. `game` calls it when imported, and `abstraction` and
`solver` import `game` first; the check reads the sources once per process (about 30 ms on the 2-core VM).

Only numba's default cache (beside the sources) is checked: with ``NUMBA_CACHE_DIR`` set, clearing that
directory after an update is the user's part.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from pathlib import Path

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
"""The folder holding the project's packages (the repository, or an exported bot's folder)."""
PACKAGES = ("game", "abstraction", "solver")
RECORD = Path("game") / "__pycache__" / "numba_sources.sha256"
"""The hash the cache was built from, relative to :data:`ROOT`."""

_USES_NUMBA = re.compile(r"^[ \t]*(?:from numba\b|import numba\b)", re.MULTILINE)
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+((?:game|abstraction|solver)(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
    r"|import[ \t]+((?:game|abstraction|solver)(?:\.\w+)*))",
    re.MULTILINE,
)
_checked: set[Path] = set()


def _module_files(root: Path) -> dict[str, Path]:
    """Every project module under ``root`` by its dotted name (a package by its ``__init__.py``)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _imported(text: str, modules: dict[str, Path]) -> set[str]:
    """The project modules ``text`` imports (``from X import y`` counts X, and X.y where that is a module)."""
    found = set()
    for source, names, plain in _IMPORT.findall(text):
        if plain:
            found.add(plain)
            continue
        found.add(source)
        for name in names.strip("()").replace("\n", " ").split(","):
            name = name.split(" as ")[0].strip()
            if f"{source}.{name}" in modules:
                found.add(f"{source}.{name}")
    return found & modules.keys()


def sources_hash(root: Path = ROOT) -> str:
    """sha256 (hex) over the modules numba's kernels may be built from: those that import numba and,
    transitively, every project module they import (names and contents, in name order)."""
    modules = _module_files(root)
    texts = {name: path.read_text(encoding="utf-8") for name, path in modules.items()}
    wanted = {name for name, text in texts.items() if "numba" in text and _USES_NUMBA.search(text)}
    frontier = set(wanted)
    while frontier:
        frontier = set().union(*(_imported(texts[name], modules) for name in frontier)) - wanted
        wanted |= frontier
    digest = hashlib.sha256()
    for name in sorted(wanted):
        digest.update(f"{name}\0{texts[name]}\0".encode())
    return digest.hexdigest()


def cached_kernel_files(root: Path = ROOT) -> list[Path]:
    """numba's cache files (index ``.nbi`` and data ``.nbc``) beside the project's sources under ``root``."""
    return sorted(
        path
        for package in PACKAGES
        for suffix in ("nbi", "nbc")
        for path in (root / package).rglob(f"__pycache__/*.{suffix}")
    )


def record_hash(root: Path = ROOT, value: str | None = None) -> None:
    """Record ``value`` (default: the current sources' hash) as the one the cache under ``root`` was
    built from; ``vcfr export-bot`` does so for a bot folder whose cache it copied from the project.
    Written atomically."""
    record = root / RECORD
    record.parent.mkdir(parents=True, exist_ok=True)
    temporary = record.with_name(f"{record.name}.{os.getpid()}.tmp")
    temporary.write_text((sources_hash(root) if value is None else value) + "\n", encoding="ascii")
    os.replace(temporary, record)


def clear_stale(root: Path = ROOT) -> int:
    """Delete the cached kernels under ``root`` if its sources changed since the recorded hash (or none
    is recorded), then record the current one; the number of files deleted. Once per process and root;
    a read-only install is left as it is (logged). Safe beside other processes: numba treats a cache
    file deleted under it as a miss."""
    if root in _checked:
        return 0
    _checked.add(root)
    record = root / RECORD
    try:
        current = sources_hash(root)
        if record.is_file() and record.read_bytes().strip() == current.encode():
            return 0
        stale = cached_kernel_files(root)
        for path in stale:
            path.unlink(missing_ok=True)
        record_hash(root, current)
    except (OSError, UnicodeError) as error:  # unreadable sources or record, read-only install
        logger.warning("numba's cache under %s not checked against the sources: %s", root, error)
        return 0
    if stale:
        logger.info("deleted %d numba cache files built from older sources under %s", len(stale), root)
    return len(stale)

"""The one harness of ``experiments/``: the machine description, timing, cached stages and result writing.

Every script imports it as ``harness`` (a script's own folder is on ``sys.path`` when run as
``python experiments/NAME.py``; the tests' loader puts it there too). It imports only the standard
library, so ``experiments/official_engines.py`` can still run its engine side in the engine's Python.

- :func:`machine` describes where a run happened (one dict, the same keys for every script) and
  :func:`machine_line` says it in one sentence for a markdown report.
- :func:`stopwatch` times a block in wall-clock seconds (``time.perf_counter``); :func:`load_average`
  is the machine's load now, for the start and end of a run.
- :func:`run_vcfr` runs a ``vcfr`` command in a child process with its log and peak memory, and
  :func:`last_json` reads its ``--json`` summary; :func:`match_arguments` spells a duplicate match.
- :class:`Stages` caches a stage's result on disk under a key: a rerun with the same key reads
  the result, a changed key redoes it, and an interrupted stage can tell that it may resume.
- :func:`write_results` writes ``OUT.json`` and ``OUT.md`` atomically (a temporary file renamed into
  place), each with the command line that produced it and the project's commit;
  :func:`write_rows_and_results` adds the measured rows as ``OUT.csv``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
"""The repository: the folder holding ``experiments/``."""


# ----------------------------------------------------------------------------------------- machine
def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine() or "unknown CPU"


def _ram_gb() -> float | None:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024 / 1e9
    return None


def machine(cores_used: int | None = None) -> dict[str, Any]:
    """Where a run happens, now: CPU model, logical CPUs (``os.cpu_count``), the CPUs this process may
    use (affinity), the cores the run uses (``cores_used``, if given), RAM in GB (``None`` if unknown),
    the OS and architecture, the Python, and the load average (1, 5, 15 minutes; ``None`` off Unix).

    >>> sorted(machine(2))
    ['affinity', 'architecture', 'cores_used', 'cpu_count', 'cpu_model', 'load_average', 'platform', 'python', 'ram_gb']
    """
    return {
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "cores_used": cores_used,
        "ram_gb": None if (ram := _ram_gb()) is None else round(ram, 1),
        "platform": platform.platform(),
        "architecture": platform.machine(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load_average": load_average(),
    }


def load_average() -> list[float] | None:
    """The load average over 1, 5 and 15 minutes (``None`` where the OS has none)."""
    return [round(value, 2) for value in os.getloadavg()] if hasattr(os, "getloadavg") else None


def machine_line(info: dict[str, Any] | str) -> str:
    """One sentence of a :func:`machine` dict (a string, as older reports recorded it, passes through).

    >>> machine_line({"cpu_model": "Xeon", "cpu_count": 2, "affinity": 2, "cores_used": 1, "ram_gb": 8.0,
    ...               "platform": "Linux", "architecture": "x86_64", "python": "CPython 3.12.1",
    ...               "load_average": [1.5, 1.0, 0.5]})
    'Xeon, 2 CPUs (affinity 2, 1 used), 8.0 GB RAM, Linux x86_64, CPython 3.12.1, load average 1.50 / 1.00 / 0.50'
    """
    if isinstance(info, str):
        return info
    cpus = f"{info.get('cpu_count')} CPUs"
    details = [f"affinity {info['affinity']}"] if info.get("affinity") is not None else []
    if info.get("cores_used") is not None:
        details.append(f"{info['cores_used']} used")
    parts = [str(info.get("cpu_model", "unknown CPU")), cpus + (f" ({', '.join(details)})" if details else "")]
    if info.get("ram_gb") is not None:
        parts.append(f"{info['ram_gb']:.1f} GB RAM")
    system, architecture = str(info.get("platform", "")), str(info.get("architecture", ""))
    parts.append(system if architecture in system else f"{system} {architecture}".strip())
    parts.append(str(info.get("python", "")))
    if info.get("load_average"):
        parts.append("load average " + " / ".join(f"{value:.2f}" for value in info["load_average"]))
    return ", ".join(part for part in parts if part)


# ----------------------------------------------------------------------------------------- timing
class Stopwatch:
    """Wall-clock seconds of a ``with stopwatch() as clock:`` block: ``clock.seconds`` (running
    total inside the block, final after it)."""

    def __init__(self) -> None:
        self._started = time.perf_counter()
        self._stopped: float | None = None

    @property
    def seconds(self) -> float:
        return (self._stopped if self._stopped is not None else time.perf_counter()) - self._started


@contextlib.contextmanager
def stopwatch() -> Iterator[Stopwatch]:
    """Time a block (``time.perf_counter``, wall clock, seconds)."""
    clock = Stopwatch()
    try:
        yield clock
    finally:
        clock._stopped = time.perf_counter()


def now() -> str:
    """The local date and time with its UTC offset, to the second (ISO 8601)."""
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


# ----------------------------------------------------------------------------------------- vcfr commands
def run_vcfr(arguments: list[str], log: Path) -> tuple[str, int]:
    """Run ``vcfr ARGUMENTS`` in a child process from the repository root (stdout to ``log``, stderr to
    ``log`` with suffix ``.err``); returns its stdout and its peak memory (max RSS of that child,
    bytes). RuntimeError naming the log and the last error line on failure."""
    command = [sys.executable, "-m", "solver.cli.main", *arguments]
    log = Path(log)
    log.parent.mkdir(parents=True, exist_ok=True)
    print(f"$ vcfr {shlex.join(arguments)}", flush=True)
    with log.open("w") as out, log.with_suffix(".err").open("w") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    stdout = log.read_text()
    if process.returncode != 0:
        errors = log.with_suffix(".err").read_text().strip().splitlines()
        raise RuntimeError(
            f"vcfr {arguments[0]} failed (exit {process.returncode}): "
            f"{errors[-1] if errors else 'no message'} (log: {log})"
        )
    return stdout, int(usage.ru_maxrss) * 1024


def last_json(stdout: str) -> dict[str, Any]:
    """The last line of ``stdout`` that is a JSON object (a ``--json`` summary).

    >>> last_json('progress\\n{"a": 1}\\n{"b": 2}\\n')
    {'b': 2}
    """
    for line in reversed(stdout.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError(f"no JSON line in {stdout[-300:]!r}")


def match_arguments(
    variant: str, a: str | Path, b: str, rounds: int, seed: int | None = None, rules: str = "engine"
) -> list[str]:
    """``vcfr match`` arguments of a duplicate match of ``a`` against ``b``, with a JSON summary.

    >>> match_arguments("swap", "s.h5", "equity", 2000, seed=0)
    ['match', '--variant', 'swap', '--a', 's.h5', '--b', 'equity', '--rounds', '2000', '--rules', 'engine', \
'--seed', '0', '--json']
    """
    arguments = ["match", "--variant", variant, "--a", str(a), "--b", b, "--rounds", str(rounds), "--rules", rules]
    return [*arguments, *([] if seed is None else ["--seed", str(seed)]), "--json"]


# ----------------------------------------------------------------------------------------- cached stages
def atomic_write_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file in the same folder renamed into place, so a
    reader (or a crash) never sees half a file; the folder is created."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text)
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


class Stages:
    """Stages cached on disk: a marker file (JSON) per stage holds its ``key`` (the settings that
    decide its result), its wall-clock ``seconds``, its ``result`` and when it ``finished``.

    :meth:`run` returns the marker's data with ``cached`` true when the marker holds the same key
    and the stage's output files exist (and ``force`` is off), else runs the stage and saves it. A stage that writes a big output
    itself (a solve with checkpoints) marks its start with :meth:`begin`; after an interruption,
    :meth:`begin` returns true when the same key was started, so the stage resumes its output.
    """

    def __init__(self, work: Path, force: bool = False) -> None:
        self.work = Path(work)
        self.force = force

    def cached(self, marker: Path, key: Any, outputs: tuple[Path, ...] = ()) -> dict[str, Any] | None:
        """The marker's data if it holds ``key`` and every file of ``outputs`` exists (``None`` if
        absent, damaged, another key, an output missing, or ``force``)."""
        if self.force or not marker.is_file() or not all(Path(path).is_file() for path in outputs):
            return None
        try:
            data = json.loads(marker.read_text())
        except (OSError, json.JSONDecodeError):
            return None
        return data if isinstance(data, dict) and data.get("key") == _jsonable(key) else None

    @staticmethod
    def save(marker: Path, key: Any, seconds: float, result: Any) -> dict[str, Any]:
        """Write the marker (atomically) and return its data."""
        data = {"key": _jsonable(key), "seconds": seconds, "result": result, "finished": now()}
        atomic_write_text(marker, json.dumps(data, indent=1, default=str))
        return data

    def run(self, marker: Path, key: Any, compute: Callable[[], Any], outputs: tuple[Path, ...] = ()) -> dict[str, Any]:
        """The stage's data (``key``, ``seconds``, ``result``, ``finished``, ``cached``): from the
        marker when it holds ``key`` and ``outputs`` exist, else from ``compute()`` (timed, then saved)."""
        data = self.cached(marker, key, outputs)
        if data is not None:
            return {**data, "cached": True}
        with stopwatch() as clock:
            result = compute()
        return {**self.save(marker, key, clock.seconds, result), "cached": False}

    def begin(self, marker: Path, key: Any) -> bool:
        """Mark the start of a resumable stage; true if the same key was started before (and not
        ``force``), so its partial output can be continued. The started marker is ``<marker>.started``."""
        started = marker.with_name(marker.name + ".started")
        resume = False
        if not self.force and started.is_file():
            with contextlib.suppress(OSError, json.JSONDecodeError):
                resume = json.loads(started.read_text()) == _jsonable(key)
        if not resume:
            atomic_write_text(started, json.dumps(_jsonable(key)))
        return resume


def cached_stage(cache: Path | None, key: str, compute: Callable[[], Any]) -> tuple[float, Any]:
    """``(seconds, result)`` of ``compute()``, timed; with ``cache``, kept there as a :class:`Stages` marker
    named by a hash of ``key`` (a command line) and reused when the same key was finished before (the
    seconds then are the first run's). The result reads as it would back from JSON either way."""
    if cache is None:
        with stopwatch() as clock:
            result = compute()
        return clock.seconds, _jsonable(result)
    marker = Path(cache) / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"
    data = Stages(cache).run(marker, key, compute)
    return data["seconds"], _jsonable(data["result"])


def _jsonable(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, paths strings), so keys compare equal."""
    return json.loads(json.dumps(value, default=str))


# ----------------------------------------------------------------------------------------- results
def add_path_options(parser: Any, options: dict[str, tuple[Path | None, str]]) -> None:
    """Add ``--flag PATH`` options to an ``argparse`` parser: ``{flag: (default, help)}``."""
    for flag, (default, text) in options.items():
        parser.add_argument(flag, type=Path, default=default, help=text)


def command_line(script: str | Path, argv: list[str] | None, python: str = ".venv/bin/python") -> str:
    """The command that reruns ``script`` with ``argv`` from the repository root (``argv`` None: this
    process's arguments).

    >>> command_line(ROOT / "experiments" / "x.py", ["--seed", "1 2"])
    ".venv/bin/python experiments/x.py --seed '1 2'"
    """
    path = Path(script).resolve()
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return shlex.join([python, str(shown), *(sys.argv[1:] if argv is None else argv)])


def commit(short: bool = False) -> str | None:
    """The project's commit (``git rev-parse HEAD``; ``short``: its short form), with ``-dirty`` if
    tracked files differ from it; ``None`` outside a git checkout."""
    revision = ["rev-parse", "--short", "HEAD"] if short else ["rev-parse", "HEAD"]
    try:
        head = subprocess.run(["git", "-C", str(ROOT), *revision], capture_output=True, text=True, timeout=30)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def _dump(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=1, default=str) + "\n"


def write_csv(path: Path, rows: list[dict[str, Any]]) -> Path:
    """Write ``rows`` (dicts with the same keys, the first row's order) as CSV with a header, atomically."""
    import csv
    import io

    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return atomic_write_text(path, text.getvalue())


def write_rows_and_results(
    stem: Path,
    rows: list[dict[str, Any]],
    report: dict[str, Any],
    render: Callable[[dict[str, Any]], str] | None,
    command: str,
) -> dict[str, Any]:
    """Write the measured ``rows`` as ``STEM.csv`` (:func:`write_csv`) and the ``report`` as
    ``STEM.json`` and, with ``render``, ``STEM.md`` (:func:`write_results`); returns the report as written."""
    stem = Path(stem)
    write_csv(stem.parent / f"{stem.name}.csv", rows)
    return write_results(stem, report, render, command)


def pyplot() -> Any:
    """``matplotlib.pyplot`` drawing to files only (the Agg backend: no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def write_results(
    out: Path,
    report: dict[str, Any],
    render: Callable[[dict[str, Any]], str] | None,
    command: str,
    dump: Callable[[dict[str, Any]], str] = _dump,
) -> dict[str, Any]:
    """Write ``OUT.json`` (``dump(report)``, default indented JSON) and, if ``render`` is given,
    ``OUT.md`` (``render(report)``), each atomically. The report gains ``command``, ``commit`` and
    (unless it has one) ``machine`` before rendering; the markdown ends with the command and commit
    unless it already names the command. Returns the report as written."""
    report = {**report, "command": command, "commit": commit()}
    report.setdefault("machine", machine())
    out = Path(out)
    atomic_write_text(out.with_suffix(".json"), dump(report))
    if render is not None:
        text = render(report).rstrip("\n") + "\n"
        if command not in text:
            text += f"\nCommand: `{command}` (commit {report['commit']}).\n"
        atomic_write_text(out.with_suffix(".md"), text)
    return report

"""Importing a script of ``experiments/`` (not a package) in tests: one loader for every script test."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"
if str(EXPERIMENTS) not in sys.path:  # the scripts import `harness` (and each other) as when run from there
    sys.path.insert(0, str(EXPERIMENTS))


def load_experiment(stem: str) -> ModuleType:
    """``experiments/<stem>.py`` as the module ``experiments_<stem>`` (loaded once per session)."""
    name = f"experiments_{stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, EXPERIMENTS / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

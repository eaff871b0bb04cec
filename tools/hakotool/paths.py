"""Repository locations used by the harness.

The repository root is the parent of tools/, unless the environment
variable HAKO_ROOT overrides it (the harness's own tests use this to run
against a scratch directory).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

RESULTS_DIR = "results"
LOGS_DIR = "results/logs"


def repo_root(env: dict | None = None) -> Path:
    """Return the repository root (HAKO_ROOT or the parent of tools/)."""
    env = os.environ if env is None else env
    override = env.get("HAKO_ROOT")
    if override:
        return Path(override).resolve()
    return Path(__file__).resolve().parents[2]


def results_path(root: Path, name: str) -> Path:
    """Path of the .jsonl result file for a run called `name`."""
    return root / RESULTS_DIR / f"{name}.jsonl"


def log_path(root: Path, name: str) -> Path:
    """Path of the serial console log for a run called `name`."""
    return root / LOGS_DIR / f"{name}.log"


def set_aside(log: Path) -> Path | None:
    """Move a log kept from an earlier run out of the way of a new one.

    It keeps its name with the time it was last written added
    (NAME.20261126T210455.log, then -2, -3 ... on a clash), so no failure
    log is ever overwritten by the next run of the same name.  Returns
    where it went, or None when there was nothing to move."""
    if not log.exists():
        return None
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(log.stat().st_mtime))
    base = log.with_suffix("")
    target = base.with_name(f"{base.name}.{stamp}.log")
    n = 2
    while target.exists():
        target = base.with_name(f"{base.name}.{stamp}-{n}.log")
        n += 1
    log.rename(target)
    return target


def relative(root: Path, path: Path) -> str:
    """Show `path` relative to the root when possible (for messages)."""
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def valid_name(name: str) -> bool:
    """A run name must be a plain file-name component."""
    return bool(name) and "/" not in name and name not in (".", "..")

"""What the report's parts share: the Step of an experiment the report runs,
and the Markdown pieces: tables, numbers, the verdict blocks.

The report (report.py) and each paper's section (papers/pNNN/report.py)
build their text from these, so every section renders a table, a status
and a missing result the same way.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from .results import load_records
from .verdict import counts, paper_status


@dataclasses.dataclass(frozen=True)
class Step:
    """One experiment run: ./hako bench ARGS, then the joins it keeps.

    Steps of one chain write the same intermediate files (the three ispc runs
    write bench-ispc.*, the five kperf runs bench-kperf.*), so a chain runs
    in its order; different chains share no file and run side by side."""

    name: str
    paper: str
    args: tuple[str, ...]
    about: str
    keep: tuple[tuple[str, str], ...] = ()     # (results file, copied to)
    seconds: int = 60                          # rough length on one host core (scheduling)
    chain: str = ""                            # "" : a chain of its own


def read(results: Path, name: str) -> list[dict]:
    path = results / name
    return load_records(path) if path.is_file() else []


def table(header, rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]


def n(value) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def status_block(verdicts) -> list[str]:
    """A paper's status, derived from its results' verdicts, and their table."""
    if not verdicts:
        return []
    measured = [v for v in verdicts if v.measured]
    shown = [v for v in verdicts if not v.measured]
    mechanisms = (f"; the mechanism checks beside them, which do not count: {counts(shown)}"
                  if shown else "")
    return [f"**Status: {paper_status(verdicts)}.** Derived from its measured results' verdicts "
            f"({counts(measured)}{mechanisms}), each computed by the criterion written beside "
            "the paper's numbers in tools/hakotool/papers/.", ""] + verdict_table(verdicts) + [""]


def verdict_table(verdicts) -> list[str]:
    return table(("result", "what", "verdict", "why"),
                 [(x.result, x.title, f"**{x.verdict}**", x.reason) for x in verdicts])


def not_yet(what: str, why: str) -> list[str]:
    return [f"**{what}: not yet.** {why}", ""]


def boot_of(recs) -> str:
    """"pc, 2 CPUs" from a run's boot record."""
    b = next((r for r in recs if r.get("kind") == "boot"), {})
    if not b:
        return "no boot record"
    cpus = b.get("cpus", "?")
    return f"{b.get('machine', '?')}, {cpus} CPU{'' if cpus == 1 else 's'}"


def pct(part: float, whole: float) -> str:
    return f"{100.0 * part / whole:.1f} %"



def draw(name: str, *args) -> str:
    """One plot of plots.py (imported here: matplotlib loads only when a plot is drawn)."""
    from . import plots
    return getattr(plots, name)(*args)


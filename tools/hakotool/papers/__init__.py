"""The papers: one package per paper (p000 ... p004), everything of it in one folder.

Each package holds:

  * criteria.py: the paper's published figures, one criterion per measured
    result and verdicts(results), which reads the result files, computes
    every result's verdict (hakotool.verdict) and returns them in the
    paper's order;
  * benches.py: BENCHES, the `./hako bench` experiments that measure it and
    the tables they print (hakotool.bench holds the machinery), and the
    report's runs of them (REPORT_STEPS) and the result files its section
    reads (REPORT_INPUTS);
  * its table and plot modules (tables.py, plots.py, ...), the ones named in
    its TOOLS run by `./hako paper NNN TOOL [ARGS]`;
  * report.py: section(), the paper's part of docs/report/.

tests/harness/test_verdicts.py plants figures that fail each criterion.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

from ..verdict import Verdict, paper_status
from . import p000, p001, p002, p003, p004

MODULES = {"000": p000, "001": p001, "002": p002, "003": p003, "004": p004}


def verdicts(results: Path) -> dict[str, list[Verdict]]:
    """{paper: [its results' verdicts]} from the result files in RESULTS."""
    return {paper: module.verdicts(results) for paper, module in MODULES.items()}


def statuses(results: Path) -> dict[str, str]:
    """{paper: status} derived from its results' verdicts."""
    return {paper: paper_status(v) for paper, v in verdicts(results).items()}


def benches() -> dict:
    """Every paper's benches {name: hakotool.bench.Bench}; a name is one paper's."""
    found: dict = {}
    for paper, module in MODULES.items():
        for name, bench in module.BENCHES.items():
            if name in found:
                raise ValueError(f"bench {name!r} registered twice (paper {paper})")
            found[name] = bench
    return found


def report_steps() -> tuple:
    """The report's experiments (hakotool.reportkit.Step), paper after paper."""
    return tuple(step for module in MODULES.values() for step in module.REPORT_STEPS)


def report_inputs() -> tuple:
    """The result files the papers' sections read: (glob under results/, bench)."""
    return tuple(i for module in MODULES.values() for i in module.REPORT_INPUTS)


def tools() -> str:
    """`./hako paper`'s list: each paper's tools with the first line of their help."""
    lines = []
    for paper, module in MODULES.items():
        for tool in module.TOOLS:
            doc = importlib.import_module(f"{module.__name__}.{tool}").__doc__ or ""
            lines.append(f"  {paper} {tool:<9} {doc.strip().splitlines()[0]}")
    return "\n".join(lines)


def run_tool(paper: str, tool: str, args: list[str], err=None) -> int:
    """`./hako paper PAPER TOOL ARGS`: that module's main(ARGS); 2 for an unknown one."""
    err = sys.stderr if err is None else err
    module = MODULES.get(paper)
    if module is None or tool not in module.TOOLS:
        err.write(f"hako: no tool {tool!r} of paper {paper!r}; the papers' tools:\n{tools()}\n")
        return 2
    return importlib.import_module(f"{module.__name__}.{tool}").main(args)

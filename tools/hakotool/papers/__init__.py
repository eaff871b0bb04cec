"""The papers: each one's published numbers, the criteria of its results, its report section.

One package per paper (p000 ... p004).  criteria.py holds that paper's
published figures (PUBLISHED and the tables its table scripts print beside
Hako's), one criterion per measured result of the paper, and
verdicts(results), which reads the result files, computes every result's
verdict (hakotool.verdict) and returns them in the paper's order; report.py
holds section(), the paper's part of docs/report/.  tests/harness/
test_verdicts.py plants figures that fail each criterion.
"""
from __future__ import annotations

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

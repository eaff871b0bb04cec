"""Verdicts computed from written criteria: the rules every paper's criteria share.

Each of the papers' measured results (a table or a figure) has a criterion,
written in code beside that paper's published numbers
(tools/hakotool/papers/): a list of checks of Hako's measured figures
against the paper's.  A check says what must hold, whether it holds, and
by how much it misses.  Three kinds of check:

  * experiment: Hako ran the paper's experiment (not another one, and not
    nothing).  When one fails the result is "not yet", whatever the
    figures say;
  * main: the effect the result is about, in the paper's direction and
    within GROSS_FACTOR of its size.  When one fails, "not yet";
  * every other check: a further effect's direction, where a curve peaks
    or crosses, or an effect's relative size within SIZE_FACTOR of the
    paper's (a main check must meet that too for "reproduced").

The verdict: "reproduced" when every check holds; "not yet" when an
experiment check fails or a main check misses even its wide tolerance;
"partly" otherwise.  A paper's status is "reproduced" when all its results
are, "not yet" when none is even partly, else "partly".
"""
from __future__ import annotations

import dataclasses

REPRODUCED, PARTLY, NOT_YET = "reproduced", "partly", "not yet"

# An effect's relative size must be within these factors of the paper's:
# SIZE_FACTOR for "reproduced", GROSS_FACTOR (main checks) for "partly".
SIZE_FACTOR = 2.0
GROSS_FACTOR = 10.0


@dataclasses.dataclass(frozen=True)
class Check:
    """One written condition and its outcome on the measured figures."""

    what: str               # the condition, in words
    held: bool              # holds within the strict tolerance
    detail: str = ""        # measured against published, by how much
    main: bool = False      # the result's principal effect
    gross: bool = True      # main: holds within the wide tolerance
    experiment: bool = False  # the experiment itself (run, and the paper's)


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One result's verdict and the checks it was computed from."""

    result: str             # "000 T2"
    title: str              # what the result is
    verdict: str
    reason: str
    checks: tuple[Check, ...] = ()
    measured: bool = True   # a result the paper measured; False: a mechanism the paper
                            # describes without a figure, shown by an experiment of Hako's
    arch: str = ""          # "": measured on x86_64; else the same result on that arch
                            # ("sh4": paper 002's on its own architecture), counted apart
    variant: str = ""       # "": the kernel the paper's experiment needs; else the same
                            # result under another mechanism chosen at boot (paper 004's
                            # Tables 3-4 under Hako's default "isoch=rm"), counted apart


def fmt(value: float) -> str:
    """A figure for a reason: three significant digits, thousands separated."""
    if value is None:
        return "—"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def times(ratio: float) -> str:
    """A ratio as a factor: ×0.52, ×2.4, ×1,900."""
    if ratio == 0:
        return "×0"
    if abs(ratio) >= 100:
        return f"×{ratio:,.0f}"
    return f"×{ratio:.2g}"


def ran(what: str, present: bool, missing: str) -> Check:
    """The experiment was run: its result file is there."""
    return Check(what, present, "" if present else f"experiment not run: {missing}",
                 experiment=True)


def same_experiment(what: str, same: bool, why: str) -> Check:
    """Hako's experiment is the paper's (WHY says how it differs)."""
    return Check(what, same, "" if same else f"a different experiment: {why}",
                 experiment=True)


def holds(what: str, ok: bool, detail: str, main: bool = False) -> Check:
    """A direction, an order or a location: holds or not."""
    return Check(what, bool(ok), f"{what}: {detail}" if detail else what, main=main,
                 gross=bool(ok))


def size(what: str, measured: float, paper: float, main: bool = False,
         unit: str = "") -> Check:
    """An effect's relative size: the same sign as the paper's and within
    SIZE_FACTOR of it (main: within GROSS_FACTOR for "partly")."""
    return size_in(what, measured, paper, paper, main, unit)


def size_in(what: str, measured: float, lo: float, hi: float, main: bool = False,
            unit: str = "") -> Check:
    """As size(), against a published range LO..HI (the paper's machines):
    the factor is taken to the nearer end."""
    lo, hi = min(lo, hi), max(lo, hi)
    paper = f"{fmt(lo)}{unit}" if lo == hi else f"{fmt(lo)}…{fmt(hi)}{unit}"
    if measured is None:
        return Check(what, False, f"{what}: no figure (paper {paper})", main, False)
    if lo <= measured <= hi:
        ratio = 1.0
    else:
        near = lo if measured < lo else hi
        ratio = measured / near if near else float("inf")
    same_sign = (measured > 0 and lo > 0) or (measured < 0 and hi < 0)
    held = same_sign and 1 / SIZE_FACTOR <= ratio <= SIZE_FACTOR
    gross = same_sign and 1 / GROSS_FACTOR <= ratio <= GROSS_FACTOR
    factor = "" if ratio == 1.0 else f", {times(ratio)}"
    if not same_sign:
        factor = ", the opposite sign"
    detail = f"{what}: {fmt(measured)}{unit} against the paper's {paper}{factor}"
    return Check(what, held, detail, main, gross)


def decide(result: str, title: str, checks: list[Check], measured: bool = True) -> Verdict:
    """The verdict from the checks, with the reason: the failed checks.  MEASURED: see
    Verdict."""
    checks = tuple(checks)
    exp_failed = [c for c in checks if c.experiment and not c.held]
    main_failed = [c for c in checks if c.main and not c.gross and not c.experiment]
    failed = [c for c in checks if not c.held and not c.experiment]
    if exp_failed:
        verdict = NOT_YET
        why = [c.detail for c in exp_failed] + [c.detail for c in failed]
    elif main_failed:
        verdict = NOT_YET
        why = [f"main effect fails: {c.detail}" for c in main_failed] + \
              [c.detail for c in failed if c not in main_failed]
    elif failed:
        verdict = PARTLY
        why = [c.detail for c in failed]
    else:
        verdict = REPRODUCED
        why = [f"all {len(checks)} checks hold"] + [c.detail for c in checks if c.main]
    return Verdict(result, title, verdict, "; ".join(w for w in why if w) + ".", checks,
                   measured)


def paper_status(verdicts: list[Verdict]) -> str:
    """A paper's status from its measured results' verdicts (mechanism checks aside)."""
    words = {v.verdict for v in verdicts if v.measured}
    if words == {REPRODUCED}:
        return REPRODUCED
    if words <= {NOT_YET}:
        return NOT_YET
    return PARTLY


def counts(verdicts: list[Verdict]) -> str:
    """"4 reproduced, 7 partly, 7 not yet" for a list of verdicts."""
    return ", ".join(f"{sum(v.verdict == w for v in verdicts)} {w}"
                     for w in (REPRODUCED, PARTLY, NOT_YET))

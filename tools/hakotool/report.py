"""`./hako report` (`make report`): run the papers' experiments, write docs/report/.

Two halves:

  * run_experiments(): the registered benches in icount mode, one after the
    other, each a `./hako bench ...` child whose console goes to
    results/logs/report-STEP.out; a progress line when each starts and ends
    and every PROGRESS_EVERY seconds while it runs (step i of n, what runs,
    seconds in this step and in all);
  * build(): reads only the result files, so it is a pure function of them,
    and writes docs/report/README.md (Markdown), docs/report/index.html
    (the same, self-contained, the plots inlined) and the plots as SVG.
    No time, date or host name goes in: two runs on the same results give
    the same bytes.

Each paper's section and the verdicts of its results come from its package
(hakotool/papers/pNNN/: criteria.py, report.py, and its table and plot
modules beside them); this module adds the verdict table, the instrument's and the peer
baseline's sections, and refuses to build while a result file of INPUTS is
missing.  `--no-run` builds from the result files already there.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from . import papers
from .jobs import default_jobs
from .mdhtml import to_html
from .reportkit import Step, read, verdict_table
from .summary import render_tlbstep
from .verdict import counts

PROGRESS_EVERY = 15.0
REPORT_DIR = "docs/report"


# Each paper's experiments (papers/pNNN/benches.py, REPORT_STEPS), then the
# instrument's and the peer baseline's.
STEPS = (
    *papers.report_steps(),
    Step("tlbstep", "", ("tlbstep", "--model", "modern"), "the cost model's TLB step",
         seconds=30),
    Step("peer", "", ("peer", "--model", "modern"), "Hako's sysbench and ispcbench beside "
         "Debian's Linux, three ways, Linux's default under the cost model (~4 min)",
         seconds=460),
)


def fmt_seconds(s: float) -> str:
    s = int(s)
    return f"{s // 60} min {s % 60:02d} s" if s >= 60 else f"{s} s"


def chains(steps) -> list[list[tuple[int, "Step"]]]:
    """The steps (numbered from 1) grouped into chains, longest first."""
    groups: dict[str, list[tuple[int, Step]]] = {}
    for i, step in enumerate(steps, 1):
        groups.setdefault(step.chain or f"step:{step.name}", []).append((i, step))
    return sorted(groups.values(), key=lambda g: (-sum(s.seconds for _, s in g), g[0][0]))


class _Progress:
    """Lines from several worker threads, one at a time."""

    def __init__(self, out, clock, start):
        self.out, self.clock, self.start = out, clock, start
        self.lock = threading.Lock()
        self.running: dict[str, float] = {}

    def line(self, text: str) -> None:
        with self.lock:
            self.out.write(text + "\n")
            self.out.flush()

    def all_time(self) -> str:
        return fmt_seconds(self.clock() - self.start)


def _tag(i: int, n: int, step: Step) -> str:
    words = ["bench", *step.args, "--quiet"]
    what = (f"paper {step.paper}" if step.paper else
            "the peer baseline" if step.name == "peer" else "the instrument")
    return f"report: [{i}/{n}] {what}: ./hako {' '.join(words)}"


def _run_step(root: Path, i: int, n: int, step: Step, progress: _Progress, env: dict | None,
              every: float, stop: threading.Event) -> int:
    """One step to its end; its console goes to results/logs/report-NAME.out."""
    words = ["bench", *step.args, "--quiet"]
    log = root / "results" / "logs" / f"report-{step.name}.out"
    tag = _tag(i, n, step)
    progress.line(f"{tag}: {step.about}")
    clock = progress.clock
    t0 = clock()
    with open(log, "w") as fh:
        child = subprocess.Popen([str(root / "hako"), *words], cwd=root, env=env,
                                 stdout=fh, stderr=subprocess.STDOUT)
        last = t0
        while True:
            try:
                code = child.wait(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                if stop.is_set():            # another step failed: end this one too
                    child.terminate()
                    continue
                now = clock()
                if now - last >= every:
                    last = now
                    progress.line(f"{tag}: running, {fmt_seconds(now - t0)} "
                                  f"(all: {progress.all_time()})")
    now = clock()
    if code != 0:
        if not stop.is_set():
            progress.line(f"{tag}: FAILED (exit {code}) after {fmt_seconds(now - t0)}; "
                          f"console: {log.relative_to(root)}")
        return code
    for src, dst in step.keep:
        shutil.copyfile(root / "results" / src, root / "results" / dst)
    progress.line(f"{tag}: done in {fmt_seconds(now - t0)} (all: {progress.all_time()})")
    return 0


def run_experiments(root: Path, out=None, steps=STEPS, clock=time.monotonic,
                    every: float = PROGRESS_EVERY, jobs: int = 1, env: dict | None = None) -> int:
    """Run every step, JOBS chains at a time; returns 0, or the first failing step's
    exit code (the steps running beside it are stopped, no new one starts).  Every
    boot is deterministic under icount, so the result files do not depend on JOBS."""
    out = sys.stdout if out is None else out
    (root / "results" / "logs").mkdir(parents=True, exist_ok=True)
    progress = _Progress(out, clock, clock())
    todo = chains(steps) if jobs > 1 else [[(i, step)] for i, step in enumerate(steps, 1)]
    if jobs > 1:
        progress.line(f"report: {len(steps)} experiments in {len(todo)} chains, "
                      f"{min(jobs, len(todo))} at a time")
    lock = threading.Lock()
    stop = threading.Event()
    failed: list[int] = []

    def worker() -> None:
        while not stop.is_set():
            with lock:
                if not todo:
                    return
                chain = todo.pop(0)
            for i, step in chain:
                if stop.is_set():
                    return
                code = _run_step(root, i, len(steps), step, progress, env, every, stop)
                if code != 0:
                    with lock:
                        if not failed:
                            failed.append(code)
                    stop.set()
                    return

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failed[0] if failed else 0


def section_model(results: Path, figs: dict, v=()) -> list[str]:
    out = ["## The instrument — the cost model's TLB step", ""]
    recs = read(results, "bench-tlbstep.joined.jsonl")
    lines = render_tlbstep(recs)
    if not lines:
        return out + ["Not run: no results/bench-tlbstep.joined.jsonl; `./hako bench tlbstep "
                      "--model modern` makes it.", ""]
    out += ["Not a paper's figure: the check that the cost model's TLBs behave as the "
            "profile says. Mode: QEMU **icount**, pc, 1 CPU, profile `modern`; per page "
            "touched after a CR3 reload, first pass and again. Expected: the second pass "
            "starts to miss the L1 dTLB once the pages touched outnumber its entries, and the "
            "STLB once they outnumber its (the sizes in tools/costmodel/profiles/modern). "
            "Run: `./hako bench tlbstep --model modern`.", ""]
    return out + ["```"] + lines + ["```", ""]


def section_peer(results: Path, figs: dict, v=()) -> list[str]:
    from . import peer
    out = ["## The peer baseline — Hako beside Linux in the same emulator", ""]
    text = peer.render(results)
    if text.startswith("peer: no figures"):
        return out + ["Not run: no results/bench-peer-*.jsonl; `./hako bench peer` makes "
                      "them.", ""]
    out += ["Not a paper's figure: what Hako's system calls, switches and server round "
            "trips cost next to Debian's own Linux kernel booted in exactly Hako's QEMU "
            "configuration, with a static benchmark (tools/peer/linuxbench.c) as its /init "
            "that measures each figure the way sysbench and ispcbench do. "
            "Run: `./hako bench peer --model modern`.", ""]
    out += text.rstrip("\n").splitlines() + [""]
    out += ["Instruction counts are not time: QEMU's icount counts each iteration of a "
            "`rep` string instruction as one instruction, and Linux copies and clears pages "
            "with `rep movsb`/`rep stosb` (ERMS), one counted iteration a byte, where "
            "Hako zeroes with `rep stosq`, one an eight-byte word; the fault, pipe, socket and "
            "spawn rows "
            "carry that. Linux's semaphore ping-pong may skip system calls that Hako's "
            "sem_post/sem_wait always make (glibc's futex fast path).", ""]
    return out


SECTIONS = (*(module.section for module in papers.MODULES.values()), section_model,
            section_peer)
PAPER_OF_SECTION = (*papers.MODULES, "", "")


def markdown(results: Path) -> tuple[str, dict[str, str]]:
    """The report's Markdown and its plots {file name: SVG text}."""
    plots: dict[str, str] = {}
    out = ["# Hako beside the five papers", "",
           "Generated by `make report` (`./hako report`) from the result files in "
           "`results/`; every figure comes from QEMU's deterministic icount mode, so a "
           "re-run gives the same bytes (on a quiet host: see paper 003's fault injection). "
           "The published figures are the papers' own "
           "(the papers are cited in full in docs/papers.md); Hako's are "
           "instructions or modelled cycles under QEMU, so "
           "the comparison is of the experiment and the shape of its result, not of the "
           "magnitudes. docs/results.md has the longer explanations.", ""]
    found = papers.verdicts(results)
    bodies = [section(results, plots, found.get(paper, ()))
              for paper, section in zip(PAPER_OF_SECTION, SECTIONS)]
    out += ["| paper | status |", "|---|---|"]
    for body in bodies:
        title = body[0].removeprefix("## ")
        status = next((line for line in body if line.startswith("**Status:")), "")
        word = re.match(r"\*\*Status: ([^.]*)\.", status)
        if word:
            out.append(f"| {title} | {word.group(1)} |")
    every = [x for paper in sorted(found) for x in found[paper]]
    measured = [x for x in every if x.measured and not x.arch and not x.variant]
    other_arch = [x for x in every if x.measured and x.arch]
    variants = [x for x in every if x.measured and x.variant]
    shown = [x for x in every if not x.measured]
    out += ["", f"The papers' {len(measured)} measured results ({counts(measured)}); each verdict "
            "is computed from the measured figures by a written criterion "
            "(tools/hakotool/verdict.py gives the rules, tools/hakotool/papers/ each result's "
            "checks and tolerances):", ""]
    out += verdict_table(measured) + [""]
    if other_arch:
        out += [f"The same results measured on SH-4, paper 002's own architecture, where its TLB "
                f"method is built literally ({counts(other_arch)}; they count in paper 002's "
                "status beside the x86 ones):", ""]
        out += verdict_table(other_arch) + [""]
    if variants:
        out += [f"The same results under another mechanism of Hako's chosen at boot: where "
                "the paper's experiment needs the paper's own design (paper 004's reserved "
                "schedule, `isoch=table`), Hako's default is judged too "
                f"({counts(variants)}; they count in their paper's status beside the others):", ""]
        out += verdict_table(variants) + [""]
    if shown:
        out += [f"Mechanisms the papers describe without a figure of their own, each shown by an "
                f"experiment of Hako's and judged the same way ({counts(shown)}; they do not "
                "count in the papers' statuses):", ""]
        out += verdict_table(shown) + [""]
    for body in bodies:
        out += body
    return "\n".join(out).rstrip() + "\n", plots


# The result files the report is built from (glob patterns under results/,
# each needing at least one match) and the bench that makes each: each
# paper's (papers/pNNN/benches.py, REPORT_INPUTS), the instrument's, the peer's.  They are
# committed (.gitignore lets exactly these through), so a clone rebuilds the
# committed report with `./hako report --no-run`.
INPUTS = (
    *papers.report_inputs(),
    ("bench-tlbstep.joined.jsonl", "./hako bench tlbstep --model modern"),
    *((f"bench-peer-{name}.jsonl", "./hako bench peer --model modern")
      for name in ("hako-sys", "hako-ispc", "linux-default", "linux-mitigations-off",
                   "linux-no-erms", "hako-sys.joined", "hako-ispc.joined",
                   "linux-default.joined")),
)


def missing_inputs(results: Path, inputs=INPUTS) -> list[tuple[str, str]]:
    """The (pattern, bench) of every input with no file in RESULTS."""
    return [(pattern, how) for pattern, how in inputs if not any(results.glob(pattern))]


def build(root: Path, out_dir: Path | None = None) -> Path:
    """Write README.md, index.html and the SVGs from root/results, and remove
    any other SVG left in the folder; returns the folder."""
    out_dir = root / REPORT_DIR if out_dir is None else out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    md, plots = markdown(root / "results")
    for stale in sorted(out_dir.glob("*.svg")):
        if stale.name not in plots:
            stale.unlink()
    for name, svg in sorted(plots.items()):
        (out_dir / name).write_text(svg, encoding="utf-8")
    (out_dir / "README.md").write_text(md, encoding="utf-8")
    (out_dir / "index.html").write_text(to_html(md, plots), encoding="utf-8")
    return out_dir


def summary(out_dir: Path) -> str:
    """One screen: where the report is and its status table."""
    readme = out_dir / "README.md"
    if not readme.is_file():
        return ""
    rows = [line for line in readme.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and not line.startswith("| paper |")
            and line.count("|") == 3]
    lines = [f"report: {readme} (and index.html beside it; `make report` regenerates it)"]
    for row in rows:
        title, status = [c.strip() for c in row.strip("|").split("|")]
        lines.append(f"  {status:<10} {title}")
    return "\n".join(lines) + "\n"


def prebuild(root: Path, env: dict) -> int:
    """Build once before experiments run side by side (each would run make otherwise):
    the kernel, the cost model and, where its tools are, the SH-4 kernel (ispc-sh4)."""
    from .runner import build_enabled, run_make
    from .testall import arch_tools_missing
    if not build_enabled(env):
        return 0
    builds = [("kernel", ()), ("costmodel", ())]
    if not arch_tools_missing("sh4", env):
        builds.append(("kernel", ("ARCH=sh4",)))
    for target, variables in builds:
        code, output = run_make(root, target, env, capture=True, variables=variables)
        if code != 0:
            sys.stderr.write(output)
            return code
    return 0


def run_report(root: Path, *, run: bool = True, out=None, jobs: int = 0) -> int:
    """JOBS experiments at a time (0: default_jobs())."""
    out = sys.stdout if out is None else out
    start = time.monotonic()
    from . import history
    state = history.commit_state(root)        # before the run rewrites tracked files
    if run:
        jobs = jobs or default_jobs()
        env = dict(os.environ)
        if jobs > 1:
            code = prebuild(root, env)
            if code != 0:
                out.write(f"report: the build failed (exit {code})\n")
                return code
            env["HAKO_NO_BUILD"] = "1"
        code = run_experiments(root, out, jobs=jobs, env=env)
        if code != 0:
            return code
    missing = missing_inputs(root / "results")
    if missing:
        out.write(f"report: {len(missing)} result file(s) missing from results/, so "
                  f"{REPORT_DIR}/ is left as it is:\n")
        for pattern, how in missing:
            out.write(f"  {pattern}  (made by `{how}`)\n")
        return 1
    out_dir = build(root)
    if run:
        path, count = history.append(root, state=state)
        out.write(f"report: appended {count} figures to {path.relative_to(root)} "
                  "(`./hako history NAME`)\n")
    out.write(f"report: wrote {out_dir.relative_to(root)}/README.md, index.html and "
              f"{len(list(out_dir.glob('*.svg')))} plots "
              f"in {fmt_seconds(time.monotonic() - start)}\n")
    out.write(summary(out_dir))
    return 0

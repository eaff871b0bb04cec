"""The cost model's bandwidth check (`./hako bench bandwidth`): memory read,
zero and copy rates modelled per machine, beside each machine's published
figures.

The bench boots `kperf --copy` (user/kperf/copy.c) once with every
shipped profile side by side (one plugin copy each, hakotool.model): its
256 KiB read pass (64-bit words summed), zero pass (memset) and copy
(memcpy), each best case (warm: the second of two passes back to back) and
worst case (caches and TLB purged first).  A figure's modelled cycles at
the machine's clock give MB/s (10^6 bytes a second): bytes x MHz / cycles.
The worst case is the one to set beside a published memory bandwidth: its
lines come from memory, where the overlap of sequential misses
(tools/costmodel/stream.h) decides the rate.

What the published figures measured and what the model leaves out: they
are a whole machine's (write-backs of dirty lines, the Pentium's
no-allocate stores, a core retiring several instructions a cycle), the
model prices instructions at one cycle each and charges no write-back, so
a rate bound by instructions (modern) stays far below the published one,
and a write rate can come out above it.  The figures are for judging the
shape, machine against machine, not for tuning.

Pure functions of the records, so the harness tests feed them canned lines.
"""
from __future__ import annotations

from pathlib import Path

from .model import clock_mhz, joined_path, models_of
from .results import load_records

# Every shipped profile, fastest first: the bench's default --model.
PROFILES = ("modern", "p4", "pentium2-450", "pentiumpro200", "pentium200-edo",
            "pentium200-fpm", "pentium166")
DEFAULT_MODEL = "+".join(PROFILES)
OPS = ("read", "zero", "copy")
CASES = ("worst", "best")
# The size whose rates are shown: kperf --copy's largest, KPERF_COPY_MAX.
BYTES = 256 * 1024

# Published rates, MB/s, (low, high) per op, and where they come from.
# [LMB-T] lmbench's USENIX 1996 paper, its memory bandwidth table
#   (doc/bw_allmem.tbl of lmbench 3): bcopy libc / memory read / memory write.
#   "Linux i686" is a Pentium Pro at 167 MHz (the paper's text), "Unixware/i686"
#   another Pentium Pro; the i586 rows are Pentiums of 1995-96 whose clocks the
#   table does not give (FreeBSD/i586@100 in the text).
# [SKL-RD] rigaya34589.blog.fc2.com, entry 660: i7-6700K at 4.4 GHz,
#   DDR4-3233, one thread reading: 25.4 GB/s.
# [SKL-CP] stackoverflow.com question 39260020: memcpy of 25 MB in 2.2 ms on
#   Skylake with DDR4-2133, one thread: 11.4 GB/s.
PUBLISHED: dict[str, dict[str, tuple[float, float, str]]] = {
    "modern": {"read": (25400, 25400, "SKL-RD, 4.4 GHz DDR4-3233"),
               "copy": (11400, 11400, "SKL-CP, DDR4-2133")},
    "pentiumpro200": {"read": (205, 214, "LMB-T i686"), "zero": (56, 86, "LMB-T i686 write"),
                      "copy": (55, 57, "LMB-T i686 bcopy libc")},
    **{p: {"read": (58, 74, "LMB-T i586"), "zero": (30, 83, "LMB-T i586 write"),
           "copy": (21, 42, "LMB-T i586 bcopy libc")}
       for p in ("pentium166", "pentium200-edo", "pentium200-fpm")},
}


def rates(records, mhz: float) -> dict[tuple[str, str], float]:
    """{(op, case): MB/s} of one machine's joined kperf --copy records at BYTES."""
    out = {}
    for r in records:
        if r.get("kind") == "kperf-bw":
            op = str(r.get("op"))
        elif r.get("kind") == "kperf-copy":
            op = "copy"
        else:
            continue
        cycles = ((r.get("model") or {}).get("per_iter") or {}).get("cycles")
        if int(r.get("bytes", 0)) == BYTES and cycles:
            out[(op, str(r.get("case")))] = BYTES * mhz / float(cycles)
    return out


def load(results: Path, run: str, model: str) -> dict[str, dict]:
    """{profile: rates} for every model of MODEL that has its joined file
    (results/RUN.PROFILE.joined.jsonl) and a known clock."""
    out = {}
    for m in models_of(model):
        path = joined_path(results.parent, run, m)
        mhz = clock_mhz(m)
        if path.is_file() and mhz:
            out[m] = rates(load_records(path), mhz)
    return out


def published(profile: str, op: str) -> str:
    """The published figure of one machine and op as text, "" without one."""
    low, high, source = PUBLISHED.get(profile, {}).get(op, (0, 0, ""))
    if not source:
        return ""
    figure = f"{low:.0f}" if low == high else f"{low:.0f}-{high:.0f}"
    return f"{figure} ({source})"


def render(per_machine: dict[str, dict]) -> str:
    """Per machine and op: modelled MB/s worst and best case, and the published figure."""
    if not per_machine:
        return "bandwidth: no joined kperf --copy records (run with --model)\n"
    lines = [f"memory bandwidth, {BYTES // 1024} KiB passes, modelled MB/s at each machine's clock "
             "(worst: caches purged first; best: warm)",
             f"  {'machine':<16} {'op':<5} {'worst':>9} {'best':>9}  published MB/s"]
    for m, per in per_machine.items():
        for op in OPS:
            worst, best = per.get((op, "worst")), per.get((op, "best"))
            cells = "".join(f" {v:>9.0f}" if v else f" {'-':>9}" for v in (worst, best))
            lines.append(f"  {m:<16} {op:<5}{cells}  {published(m, op) or '-'}")
    lines.append("  sources: LMB-T lmbench USENIX 1996, memory bandwidth table (Pentium Pro 167 MHz, "
                 "Pentiums of unstated clock); SKL-RD rigaya34589 blog entry 660; SKL-CP "
                 "stackoverflow q. 39260020 (tools/hakotool/bandwidth.py)")
    return "\n".join(lines) + "\n"


def table(boots) -> str:
    """The bench's table, from every model's joined file of the boot."""
    return render(load(boots.results, f"bench-{boots.name}", boots.model))

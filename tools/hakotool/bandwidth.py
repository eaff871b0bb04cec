"""The cost model's bandwidth check (`./hako bench bandwidth`): memory read,
write and copy rates modelled per machine, beside each machine's published
figures, and a verdict on them.

The bench boots `kperf --copy --bw` once with every shipped profile side by
side (one plugin copy each, hakotool.model).  Two sets of passes:

* the lmbench-style passes (user/kperf/bw.c, kind "kperf-bwmem"): rd sums
  4-byte ints in a loop unrolled 32 times, wr stores them the same way,
  bcopy is libc's memcpy, over 16 MiB (twice the largest last-level cache),
  the second of two passes timed: the steady state lmbench's repeated loop
  measures.  Their loops have lmbench's instructions per byte, so the whole
  pass's rate is the figure set beside lmbench's, and judged: it holds if
  it lies within TOLERANCE of the published range (low x (1 - TOLERANCE) to
  high x (1 + TOLERANCE));
  rd4 (lmbench 3's rd) sums every fourth int: fewer instructions a line
  than any profile's memory needs a line, so its rate is the memory's.
  It is the pass set beside a published read measured with a loop bound
  by memory (modern's SKL-RD, a vector read): on such a core the rd loop
  is bound by its own chain of dependent adds (31 a 128-byte turn, one a
  cycle: at most 16 GB/s at 4 GHz), not by memory;
* kperf --copy's 256 KiB passes (user/kperf/copy.c): the read pass (64-bit
  words summed), the zero pass (memset, shown as the write) and the copy,
  each after a purge (worst) and warm (best), for information.  Their
  dirty lines fit the 512 KiB L2s, so they show few write-backs.

A figure's modelled cycles at the machine's clock give MB/s (10^6 bytes a
second): bytes x MHz / cycles.  The model overlaps a stream's line fills
with the instructions that run meanwhile and carries memory's lines on a
bus of the profile's line time (tools/costmodel/README.md, "Misses that
overlap"), so a pass is bound by its instructions or by its memory,
whichever is slower; at base_cpi 1.0 a loop's instructions cost a cycle
each, where a core of today retires several.

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
OPS = ("read", "write", "copy", "read4")
# The lmbench-style passes' ops (user/kperf/bw.c) and the rows they fill.
LMBENCH_OPS = {"rd": "read", "wr": "write", "bcopy": "copy", "rd4": "read4"}
# kperf --copy's read and zero passes (copy.c); its zero is a write.
KPERF_OPS = {"read": "read", "zero": "write"}
# The case name the lmbench-style passes are filed under.
LMBENCH = "lmbench"
# How far a modelled rate may lie outside the published range and still hold.
# The model's memory inputs are of medium confidence (mem.latency from others'
# measurements, stream.mem_line_cycles from a memory's peak), and published
# single-thread figures of one machine class differ by about this much with
# the board and the memory (lmbench's i586 reads: 58-74 MB/s).
TOLERANCE = 0.25
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
#   DDR4-3233, one thread reading: 25.4 GB/s, a vector loop bound by
#   memory, so set beside rd4 (above).
# [SKL-CP] stackoverflow.com question 39260020: memcpy of 25 MB in 2.2 ms on
#   Skylake with DDR4-2133, one thread: 11.4 GB/s.
PUBLISHED: dict[str, dict[str, tuple[float, float, str]]] = {
    "modern": {"read4": (25400, 25400, "SKL-RD, 4.4 GHz DDR4-3233"),
               "copy": (11400, 11400, "SKL-CP, DDR4-2133")},
    "pentiumpro200": {"read": (205, 214, "LMB-T i686"), "write": (56, 86, "LMB-T i686 write"),
                      "copy": (55, 57, "LMB-T i686 bcopy libc")},
    **{p: {"read": (58, 74, "LMB-T i586"), "write": (30, 83, "LMB-T i586 write"),
           "copy": (21, 42, "LMB-T i586 bcopy libc")}
       for p in ("pentium166", "pentium200-edo", "pentium200-fpm")},
}


def _passes(records):
    """(op, case, bytes, per_iter) of each joined pass: kperf --copy's at BYTES
    (case worst or best) and the lmbench-style ones (case LMBENCH, any size)."""
    for r in records:
        kind = r.get("kind")
        per_iter = (r.get("model") or {}).get("per_iter") or {}
        size = int(r.get("bytes", 0))
        if kind == "kperf-bwmem":
            op = LMBENCH_OPS.get(str(r.get("op")))
            if op and size:
                yield op, LMBENCH, size, per_iter
            continue
        if kind == "kperf-bw":
            op = KPERF_OPS.get(str(r.get("op")))
        elif kind == "kperf-copy":
            op = "copy"
        else:
            continue
        if op and size == BYTES:
            yield op, str(r.get("case")), size, per_iter


def rates(records, mhz: float) -> dict[tuple[str, str], float]:
    """{(op, case): MB/s} of one machine's joined passes, from each pass's
    modelled cycles; a pass without them has no rate."""
    out = {}
    for op, case, size, per_iter in _passes(records):
        cycles = float(per_iter.get("cycles") or 0)
        if cycles:
            out[(op, case)] = size * mhz / cycles
    return out


def verdict(profile: str, op: str, rate: float | None) -> str:
    """"holds" or "FAILS" for a rate against the published range within
    TOLERANCE; "" without a published figure or a rate."""
    low, high, source = PUBLISHED.get(profile, {}).get(op, (0, 0, ""))
    if not source or rate is None:
        return ""
    return "holds" if low * (1 - TOLERANCE) <= rate <= high * (1 + TOLERANCE) else "FAILS"


def load(results: Path, run: str, model: str) -> dict[str, dict]:
    """{profile: rates} for every model of MODEL that has its joined file
    (results/RUN.PROFILE.joined.jsonl) and a known clock."""
    out = {}
    for m in models_of(model):
        path = joined_path(results.parent, run, m)
        mhz = clock_mhz(m)
        if path.is_file() and mhz:
            records = load_records(path)
            out[m] = rates(records, mhz)
    return out


def published(profile: str, op: str) -> str:
    """The published figure of one machine and op as text, "" without one."""
    low, high, source = PUBLISHED.get(profile, {}).get(op, (0, 0, ""))
    if not source:
        return ""
    figure = f"{low:.0f}" if low == high else f"{low:.0f}-{high:.0f}"
    return f"{figure} ({source})"


def render(per_machine: dict[str, dict]) -> str:
    """Per machine and op: the lmbench-style pass's modelled MB/s and its
    verdict, kperf --copy's worst and best case, and the published figure."""
    if not per_machine:
        return "bandwidth: no joined kperf --copy records (run with --model)\n"
    lines = [f"memory bandwidth, modelled MB/s at each machine's clock.  lmbench: the lmbench-style "
             f"pass (user/kperf/bw.c: rd 4-byte ints, unrolled; wr the same; copy libc's memcpy; "
             f"read4 every fourth int, bound by memory; the second of two passes), judged; worst, "
             f"best: kperf --copy's {BYTES // 1024} KiB passes after a purge and warm, for information",
             f"  {'machine':<16} {'op':<5} {'lmbench':>9}  {'verdict':<7} {'worst':>9} "
             f"{'best':>9}  published MB/s"]
    held = judged = 0
    for m, per in per_machine.items():
        for op in OPS:
            lmb = per.get((op, LMBENCH))
            worst, best = per.get((op, "worst")), per.get((op, "best"))
            cells = "".join(f" {v:>9.0f}" if v else f" {'-':>9}" for v in (worst, best))
            mark = verdict(m, op, lmb)
            judged += bool(mark)
            held += mark == "holds"
            first = f"{lmb:>9.0f}" if lmb else f"{'-':>9}"
            lines.append(f"  {m:<16} {op:<5} {first}  {mark or '-':<7}{cells}  "
                         f"{published(m, op) or '-'}")
    lines.append(f"  lmbench-style whole pass within {TOLERANCE:.0%} of the published range: "
                 f"{held} of {judged}")
    lines.append("  sources: LMB-T lmbench USENIX 1996, memory bandwidth table (Pentium Pro 167 MHz, "
                 "Pentiums of unstated clock); SKL-RD rigaya34589 blog entry 660 (a vector read, "
                 "set beside read4); SKL-CP stackoverflow q. 39260020 (tools/hakotool/bandwidth.py)")
    return "\n".join(lines) + "\n"


def table(boots) -> str:
    """The bench's table, from every model's joined file of the boot."""
    return render(load(boots.results, f"bench-{boots.name}", boots.model))
